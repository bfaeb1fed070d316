/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-level-simulator.h"

#include "tensor-fusion.h"
#include "training-network.h"
#include "training-profile.h"
#include "training-scenario.h"

#include "ns3/log.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <queue>
#include <string>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowLevelSimulator");

namespace
{

constexpr double INF = std::numeric_limits<double>::infinity();
constexpr double US = 1e-6; //!< seconds per microsecond

/**
 * Bytes below which a remainder counts as sent: a few ulps of the byte counts involved, so that
 * rounding never leaves a flow waiting for 1e-10 bytes (with FCFS it could wait a long time).
 * \param bytes size of the segment or queue
 * \return the tolerance in bytes
 */
double
ByteTolerance(double bytes)
{
    return 1e-6 + 1e-12 * bytes;
}

/// SplitMix64 finalizer (Steele, Lea, Flood 2014): a 64-bit mixing function.
uint64_t
Mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/**
 * The random numbers of one (worker, step): a SplitMix64 stream keyed by (seed, worker, step,
 * purpose). Keying by the operation, not by the order in which the engine happens to draw, makes
 * the draws identical under every sharing model and every event order.
 */
class StepRng
{
  public:
    /**
     * \param seed scenario seed
     * \param worker worker index
     * \param step step index
     * \param purpose 0 = which recorded step, 1 = transmission order
     */
    StepRng(uint64_t seed, uint32_t worker, uint32_t step, uint32_t purpose)
        : m_state(Mix64(Mix64(Mix64(seed) ^ worker) ^ (static_cast<uint64_t>(step) << 2 | purpose)))
    {
    }

    /// \return the next 64 random bits
    uint64_t Next()
    {
        m_state += 0x9e3779b97f4a7c15ULL;
        return Mix64(m_state);
    }

    /**
     * \param n bound (> 0)
     * \return a uniform integer in [0, n) (Lemire's multiply-shift)
     */
    uint64_t Below(uint64_t n)
    {
        return static_cast<uint64_t>((static_cast<unsigned __int128>(Next()) * n) >> 64);
    }

  private:
    uint64_t m_state; //!< generator state
};

/// Direction of a connection; also the index of its link group.
enum Direction : uint8_t
{
    DOWN = 0, //!< server to worker (parameters)
    UP = 1,   //!< worker to server (gradients)
};

/// A piece of one tensor sent on a connection (a whole tensor unless WIN splits it).
struct Segment
{
    double ready;   //!< when it may be sent (seconds)
    double bytes;   //!< payload bytes
    uint32_t layer; //!< tensor = layer index
    bool first;     //!< first piece of its tensor (its start is the tensor's start)
    bool last;      //!< last piece of its tensor (its end is the tensor's arrival)
};

/// One direction of one (worker, server) pair: a FIFO of segments served by one fluid flow.
struct Connection
{
    uint32_t worker{0};        //!< worker index
    uint32_t server{0};        //!< server index
    Direction dir{DOWN};       //!< direction
    uint32_t step{0};          //!< step the segments belong to
    std::vector<Segment> segs; //!< this step's segments in service order
    std::size_t head{0};       //!< first segment not completely sent
    std::size_t admitted{0};   //!< segments [head, admitted) are ready and queued
    double headSent{0};        //!< bytes of segs[head] already sent
    bool headStarted{false};   //!< segs[head] has begun service
    double queued{0};          //!< unsent bytes of the admitted segments
    double lastTime{0};        //!< time up to which the bytes above are accounted
    double rate{0};            //!< current rate (bytes/s)
    double nextCheck{INF};     //!< when the admitted segments will have been sent
    uint64_t priority{0};      //!< activation order (FCFS)
    double activeSince{0};     //!< when it last became active (age-dependent sharing)
    bool active{false};        //!< in the active set of its group
    uint32_t links[2]{0, 0};   //!< link indices in its group (worker NIC, server NIC)
};

/// The links of one direction and the connections active on them.
struct Group
{
    std::vector<uint32_t> active;  //!< active connections in activation order
    std::vector<double> capacity;  //!< per link (bytes/s): K worker NICs then P server NICs
    std::vector<double> linkBytes; //!< bytes carried inside the measurement window
    bool dirty{false};             //!< the active set changed since the last rate computation
    double advancedTo{-1};         //!< every active connection is accounted up to this time
    uint64_t version{0};           //!< version of the pending check event
};

/// One worker's state for its current step.
struct WorkerState
{
    uint32_t step{0};               //!< current step
    double stepStart{0};            //!< when it began
    const std::vector<double>* fwd; //!< forward times of the step (us)
    const std::vector<double>* bwd; //!< backward times of the step (us)
    const std::vector<double>* upd; //!< update times of the step (us)
    uint32_t pendingDown{0};        //!< downlink connections not finished
    uint32_t pendingUp{0};          //!< uplink connections not finished
    std::vector<double> downStart;  //!< per layer: its parameters began to arrive
    std::vector<double> downEnd;    //!< per layer: its parameters arrived
    std::vector<double> upStart;    //!< per layer: its gradient began to leave
    std::vector<double> upEnd;      //!< per layer: its gradient arrived at the server
};

/// Event kinds.
enum EventType : uint8_t
{
    GROUP_CHECK,   //!< some connection of a group has sent all it had queued
    CONN_ACTIVATE, //!< an idle connection's next segment becomes ready
    STEP_END,      //!< a worker's last update of the step is applied
};

/// An event of the heap.
struct Event
{
    double time;    //!< when
    uint64_t seq;   //!< insertion order (ties are handled first in, first out)
    EventType type; //!< kind
    uint32_t id;    //!< group, connection or worker
    uint64_t tag;   //!< group version or step (stale events are dropped)
};

/// Heap order: earliest time first, then insertion order.
struct Later
{
    /**
     * \param a one event
     * \param b another
     * \return true if a comes after b
     */
    bool operator()(const Event& a, const Event& b) const
    {
        return a.time > b.time || (a.time == b.time && a.seq > b.seq);
    }
};

/**
 * The parameter-server simulation of one run. Connections of one direction share the links of
 * that direction (DOWN: server NICs' send side, workers' receive side; UP: the reverse), so the
 * two directions are independent groups whose rates are computed separately.
 */
class PsEngine
{
  public:
    /**
     * \param profile the DNN
     * \param scenario the scenario
     * \param sharing the sharing model
     * \param options run options
     * \param capacity capacity of every NIC link per direction (bytes/s)
     * \param flowCap per-flow cap (bytes/s, infinity for none)
     * \param result where records go
     */
    PsEngine(const TrainingProfile& profile,
             const TrainingScenario& scenario,
             const SharingModel& sharing,
             const FlowLevelSimulator::Options& options,
             double capacity,
             double flowCap,
             TrainingResult& result);

    /// Run to the end.
    void Run();

    /**
     * \param d direction
     * \return bytes carried by each link of that direction inside the measurement window
     */
    const std::vector<double>& GetLinkBytes(Direction d) const
    {
        return m_groups[d].linkBytes;
    }

    uint64_t events{0};           //!< events handled
    uint64_t rateComputations{0}; //!< sharing-model calls

  private:
    /**
     * \brief Push an event.
     * \param time when (>= now)
     * \param type kind
     * \param id group, connection or worker
     * \param tag group version or step
     */
    void Schedule(double time, EventType type, uint32_t id, uint64_t tag);
    /**
     * \brief Begin a worker's step now: draw its times, queue its downlink tensors (in the
     * transmission order, split by WIN) and activate its downlink connections.
     * \param w worker
     * \param step step index
     */
    void StartStep(uint32_t w, uint32_t step);
    /**
     * \brief Point the worker at the compute times of a recorded step (drawn with replacement)
     * or at the means.
     * \param w worker
     * \param step step index
     */
    void SelectSample(uint32_t w, uint32_t step);
    /**
     * \brief All parameters of the worker's step are in: evaluate its forward and backward
     * chain and queue its gradients (ready when their backward ends, or all at the end).
     * \param w worker
     */
    void DownlinkDone(uint32_t w);
    /**
     * \brief All gradients of the worker's step are at the servers: evaluate the update chains
     * and schedule the step's end.
     * \param w worker
     */
    void UplinkDone(uint32_t w);
    /**
     * \brief The worker's last update is applied: record the step, then the barrier (sync) or
     * the worker's next step (async).
     * \param w worker
     */
    void StepEnd(uint32_t w);
    /**
     * \brief An idle connection with a ready segment joins the active set of its direction.
     * \param c connection index
     */
    void Activate(uint32_t c);
    /**
     * \brief A connection leaves the active set (its queue is empty).
     * \param c connection index
     */
    void Deactivate(uint32_t c);
    /**
     * \brief Queue the connection's segments that are ready now.
     * \param c connection
     */
    void Admit(Connection& c);
    /**
     * \brief Account the bytes sent at the current rate up to t; segments that completed in
     * between get their end time by interpolation.
     * \param c connection
     * \param t time (>= its last time)
     */
    void Advance(Connection& c, double t);
    /**
     * \brief At the connection's check time, complete what rounding left of its queue.
     * \param c connection
     */
    void FinishAdmitted(Connection& c);
    /**
     * \brief A segment begins service.
     * \param c connection
     * \param s segment
     * \param t time
     */
    void SegmentStarted(Connection& c, const Segment& s, double t);
    /**
     * \brief A segment is completely sent; the last one of a tensor makes its record.
     * \param c connection
     * \param s segment
     * \param t time
     */
    void SegmentDone(Connection& c, const Segment& s, double t);
    /**
     * \brief Count sent bytes (queue and, inside the window, link utilisation).
     * \param c connection
     * \param bytes bytes sent
     */
    void Account(Connection& c, double bytes);
    /**
     * \brief Advance every active connection of a group to now (once per instant).
     * \param g group
     */
    void EnsureAdvanced(Group& g);
    /**
     * \brief Ask the sharing model for the rates of a group's active connections and schedule
     * the group's next check.
     * \param gi group index
     */
    void Recompute(uint32_t gi);

    /**
     * \brief Window model: the other direction's rates depend on this one's active set.
     * \param d the direction whose active set changed
     */
    void MarkOtherDirection(Direction d);

    /**
     * \brief Window model: set m_flows[i].cap of group gi's active connections to
     * min(flow cap, window / round trip with both standing queues).
     * \param gi the group
     */
    void ComputeWindowCaps(uint32_t gi);
    /**
     * \brief Schedule the group's check at its earliest connection check (new version).
     * \param gi group index
     */
    void PushCheck(uint32_t gi);
    /**
     * \brief Handle the connections of a group whose queues drained now: go on with newly ready
     * segments (same rate, no event), or go idle, or finish the step's transfers.
     * \param gi group index
     */
    void GroupCheck(uint32_t gi);
    /**
     * \brief A connection has sent all segments of its step.
     * \param c connection
     */
    void ConnectionDone(Connection& c);
    /**
     * \brief Open or close the measurement window for link utilisation.
     * \param on open
     */
    void SetCounting(bool on);
    /**
     * \param c an active connection
     * \return when its admitted segments will have been sent at its current rate
     */
    double NextCheck(const Connection& c) const;
    /**
     * \param layer layer index
     * \return the parsing overhead alpha * size + beta of its tensor (seconds)
     */
    double Overhead(uint32_t layer) const;

    /**
     * \param w worker
     * \param p server
     * \param d direction
     * \return the connection index
     */
    uint32_t ConnIndex(uint32_t w, uint32_t p, Direction d) const
    {
        return (w * m_p + p) * 2 + d;
    }

    const TrainingProfile& m_profile;                             //!< the DNN
    const TrainingScenario& m_scenario;                           //!< the scenario
    const SharingModel& m_sharing;                                //!< the sharing model
    FlowLevelSimulator::Options m_options;                        //!< run options
    TrainingResult& m_result;                                     //!< records go here
    uint32_t m_k;                                                 //!< workers
    uint32_t m_p;                                                 //!< servers
    uint32_t m_l;                                                 //!< layers
    double m_flowCap;                                             //!< per-flow cap (bytes/s)
    std::vector<uint32_t> m_owner;                                //!< server of each layer
    std::vector<double> m_bytes;                                  //!< bytes of each layer
    TrainingProfile::StepTimes m_mean;                            //!< the mean step
    std::vector<Connection> m_conns;                              //!< all connections
    Group m_groups[2];                                            //!< DOWN and UP links
    std::vector<WorkerState> m_workers;                           //!< per worker
    std::priority_queue<Event, std::vector<Event>, Later> m_heap; //!< pending events
    uint64_t m_seq{0};                                            //!< events pushed so far
    uint64_t m_prioritySeq{0};                                    //!< activations so far
    double m_now{0};                                              //!< current time (s)
    uint32_t m_barrierCount{0};                                   //!< sync: workers at barrier
    uint32_t m_warmDone{0};                                       //!< async: workers past warm-up
    bool m_counting{false};                                       //!< inside the measurement window
    bool m_windowClosed{false};                                   //!< async: window already closed
    std::vector<SharingModel::Flow> m_flows; //!< scratch: flows for the sharing model
    std::vector<double> m_rates;             //!< scratch: rates from the sharing model
    std::vector<uint32_t> m_order;           //!< scratch: transmission order
    std::vector<uint32_t> m_split;           //!< scratch: split streams / drained connections
    std::vector<uint8_t> m_flag;             //!< scratch: per-server flags
    std::vector<uint32_t> m_windowCount;     //!< scratch: active connections per direction, server
};

PsEngine::PsEngine(const TrainingProfile& profile,
                   const TrainingScenario& scenario,
                   const SharingModel& sharing,
                   const FlowLevelSimulator::Options& options,
                   double capacity,
                   double flowCap,
                   TrainingResult& result)
    : m_profile(profile),
      m_scenario(scenario),
      m_sharing(sharing),
      m_options(options),
      m_result(result),
      m_k(scenario.workers),
      m_p(std::max<uint32_t>(1, scenario.servers)),
      m_l(static_cast<uint32_t>(profile.GetNLayers())),
      m_flowCap(flowCap),
      m_owner(scenario.AssignLayersToServers(profile)),
      m_mean(profile.GetMeanStep())
{
    for (const auto& layer : profile.GetLayers())
    {
        m_bytes.push_back(static_cast<double>(layer.paramBytes));
    }
    m_conns.resize(static_cast<std::size_t>(m_k) * m_p * 2);
    for (uint32_t w = 0; w < m_k; ++w)
    {
        for (uint32_t p = 0; p < m_p; ++p)
        {
            for (Direction d : {DOWN, UP})
            {
                Connection& c = m_conns[ConnIndex(w, p, d)];
                c.worker = w;
                c.server = p;
                c.dir = d;
                c.links[0] = w;       // the worker's NIC (receive side down, send side up)
                c.links[1] = m_k + p; // the server's NIC (send side down, receive side up)
            }
        }
    }
    for (auto& g : m_groups)
    {
        g.capacity.assign(m_k + m_p, capacity);
        g.linkBytes.assign(m_k + m_p, 0);
    }
    m_workers.resize(m_k);
    for (auto& ws : m_workers)
    {
        ws.downStart.assign(m_l, 0);
        ws.downEnd.assign(m_l, 0);
        ws.upStart.assign(m_l, 0);
        ws.upEnd.assign(m_l, 0);
    }
}

void
PsEngine::Schedule(double time, EventType type, uint32_t id, uint64_t tag)
{
    // Chains evaluated from interpolated times may end a hair before now (zero compute times,
    // rounding): nothing can happen before the present.
    m_heap.push(Event{std::max(time, m_now), m_seq++, type, id, tag});
}

double
PsEngine::Overhead(uint32_t layer) const
{
    return m_options.parsingPerByte * m_bytes[layer] + m_options.parsingPerTensor;
}

void
PsEngine::Run()
{
    if (m_options.recordTransfers)
    {
        m_result.transfers.reserve(m_result.transfers.size() + 2ULL * m_k * m_scenario.steps * m_l);
    }
    m_result.steps.reserve(m_result.steps.size() + 1ULL * m_k * m_scenario.steps);
    if (m_scenario.warmup == 0)
    {
        SetCounting(true);
    }
    for (uint32_t w = 0; w < m_k; ++w)
    {
        StartStep(w, 0);
    }
    for (uint32_t gi = 0; gi < 2; ++gi)
    {
        if (m_groups[gi].dirty)
        {
            Recompute(gi);
        }
    }
    while (!m_heap.empty())
    {
        Event e = m_heap.top();
        m_heap.pop();
        m_now = e.time;
        switch (e.type)
        {
            case GROUP_CHECK:
                if (e.tag != m_groups[e.id].version)
                {
                    break; // superseded by a later rate computation
                }
                ++events;
                GroupCheck(e.id);
                break;
            case CONN_ACTIVATE:
            {
                Connection& c = m_conns[e.id];
                if (c.active || c.step != e.tag || c.head >= c.segs.size())
                {
                    break;
                }
                ++events;
                Activate(e.id);
                break;
            }
            case STEP_END:
                ++events;
                StepEnd(e.id);
                break;
        }
        // Rates matter only once time moves on: batch all set changes of one instant.
        if (m_heap.empty() || m_heap.top().time > m_now)
        {
            for (uint32_t gi = 0; gi < 2; ++gi)
            {
                if (m_groups[gi].dirty)
                {
                    Recompute(gi);
                }
            }
        }
    }
}

void
PsEngine::SelectSample(uint32_t w, uint32_t step)
{
    WorkerState& ws = m_workers[w];
    if (m_scenario.sampleSteps && m_profile.GetNSamples() > 0)
    {
        StepRng rng(m_scenario.seed, w, step, 0);
        const auto& s = m_profile.GetSample(rng.Below(m_profile.GetNSamples()));
        ws.fwd = &s.forwardUs;
        ws.bwd = &s.backwardUs;
        ws.upd = &s.updateUs;
    }
    else
    {
        ws.fwd = &m_mean.forwardUs;
        ws.bwd = &m_mean.backwardUs;
        ws.upd = &m_mean.updateUs;
    }
}

void
PsEngine::StartStep(uint32_t w, uint32_t step)
{
    NS_LOG_FUNCTION(this << w << step << m_now);
    WorkerState& ws = m_workers[w];
    ws.step = step;
    ws.stepStart = m_now;
    SelectSample(w, step);

    // Transmission order of this step (each server sends its own layers in this order).
    m_order.resize(m_l);
    for (uint32_t l = 0; l < m_l; ++l)
    {
        m_order[l] = l;
    }
    if (m_scenario.order == TrainingScenario::REVERSE_ORDER)
    {
        std::reverse(m_order.begin(), m_order.end());
    }
    else if (m_scenario.order == TrainingScenario::RANDOM_ORDER)
    {
        StepRng rng(m_scenario.seed, w, step, 1);
        for (uint32_t i = m_l; i > 1; --i)
        {
            std::swap(m_order[i - 1], m_order[rng.Below(i)]);
        }
    }

    for (uint32_t p = 0; p < m_p; ++p)
    {
        Connection& c = m_conns[ConnIndex(w, p, DOWN)];
        c.segs.clear();
        c.head = c.admitted = 0;
        c.headSent = 0;
        c.headStarted = false;
        c.queued = 0;
        c.step = step;
    }
    // 001 Sec. 3.2.2: first services (at most WIN bytes each) in order, then the second services
    // of the streams that had bytes left, in the order they were preempted. All streams of the
    // step are queued at once, so this is the whole FIFO schedule of Fig. 12.
    const double win = static_cast<double>(m_scenario.windowBytes);
    m_split.clear();
    for (uint32_t l : m_order)
    {
        Connection& c = m_conns[ConnIndex(w, m_owner[l], DOWN)];
        bool whole = win <= 0 || m_bytes[l] <= win;
        c.segs.push_back(Segment{m_now, whole ? m_bytes[l] : win, l, true, whole});
        if (!whole)
        {
            m_split.push_back(l);
        }
    }
    for (uint32_t l : m_split)
    {
        Connection& c = m_conns[ConnIndex(w, m_owner[l], DOWN)];
        c.segs.push_back(Segment{m_now, m_bytes[l] - win, l, false, true});
    }
    // Connections become active in the order of their first tensor in the transmission order
    // (it matters for FCFS priority between one worker's connections to several servers).
    ws.pendingDown = 0;
    m_flag.assign(m_p, 0);
    for (uint32_t l : m_order)
    {
        if (!m_flag[m_owner[l]])
        {
            m_flag[m_owner[l]] = 1;
            ++ws.pendingDown;
            Activate(ConnIndex(w, m_owner[l], DOWN));
        }
    }
}

void
PsEngine::DownlinkDone(uint32_t w)
{
    NS_LOG_FUNCTION(this << w << m_now);
    WorkerState& ws = m_workers[w];
    const double scale = m_scenario.GetComputeScale(w);
    const auto& fwd = *ws.fwd;
    const auto& bwd = *ws.bwd;
    // Multi-GPU node (000 Sec. 4.4): parameters are broadcast inside the node, and gradients
    // reduced inside it, one tensor after another over the intra-node interconnect, each taking
    // TrainingNetwork::GetIntraNodeHalfSeconds (the packet level does the same).
    const bool multiGpu = m_scenario.gpusPerNode > 1;
    auto intra = [&](uint32_t l)
    {
        return TrainingNetwork::GetIntraNodeHalfSeconds(m_scenario, m_bytes[l]);
    };
    std::vector<double> usable(ws.downEnd.begin(), ws.downEnd.begin() + m_l);
    if (multiGpu)
    {
        std::vector<uint32_t> byArrival(m_l);
        for (uint32_t l = 0; l < m_l; ++l)
        {
            byArrival[l] = l;
        }
        std::stable_sort(byArrival.begin(),
                         byArrival.end(),
                         [&ws](uint32_t a, uint32_t b)
                         {
                             return ws.downEnd[a] < ws.downEnd[b];
                         });
        double free = ws.stepStart;
        for (uint32_t l : byArrival)
        {
            free = std::max(free, ws.downEnd[l]) + intra(l);
            usable[l] = free;
        }
    }
    // Forward: overlap on, layer l starts when its parameters are in and layer l-1 is done;
    // overlap off, all of it after the last parameter of the step arrived.
    double t = ws.stepStart;
    if (m_scenario.overlap)
    {
        for (uint32_t l = 0; l < m_l; ++l)
        {
            t = std::max(t, usable[l]) + fwd[l] * US * scale + Overhead(l);
        }
    }
    else
    {
        for (uint32_t l = 0; l < m_l; ++l)
        {
            t = std::max(t, usable[l]);
        }
        for (uint32_t l = 0; l < m_l; ++l)
        {
            t += fwd[l] * US * scale + Overhead(l);
        }
    }
    // Backward in reverse layer order; gradient l may leave when its backward is done (overlap
    // on) or when the whole backward is done (overlap off).
    for (uint32_t p = 0; p < m_p; ++p)
    {
        Connection& c = m_conns[ConnIndex(w, p, UP)];
        c.segs.clear();
        c.head = c.admitted = 0;
        c.headSent = 0;
        c.headStarted = false;
        c.queued = 0;
        c.step = ws.step;
    }
    double reduceFree = 0;
    for (uint32_t i = m_l; i-- > 0;)
    {
        t += bwd[i] * US * scale;
        double ready = t;
        if (multiGpu && m_scenario.overlap)
        {
            reduceFree = std::max(reduceFree, t) + intra(i);
            ready = reduceFree;
        }
        m_conns[ConnIndex(w, m_owner[i], UP)].segs.push_back(
            Segment{ready, m_bytes[i], i, true, true});
    }
    if (multiGpu && !m_scenario.overlap)
    {
        // Strict phases: all reductions after the whole backward, then all uplinks.
        for (uint32_t i = m_l; i-- > 0;)
        {
            t += intra(i);
        }
    }
    // Activation events are scheduled in backward order of the connections' first gradients, so
    // that simultaneous activations (overlap off) keep that order (FCFS priority).
    ws.pendingUp = 0;
    m_flag.assign(m_p, 0);
    for (uint32_t i = m_l; i-- > 0;)
    {
        if (m_flag[m_owner[i]])
        {
            continue;
        }
        m_flag[m_owner[i]] = 1;
        uint32_t ci = ConnIndex(w, m_owner[i], UP);
        Connection& c = m_conns[ci];
        if (!m_scenario.overlap)
        {
            for (auto& s : c.segs)
            {
                s.ready = t;
            }
        }
        ++ws.pendingUp;
        Schedule(c.segs.front().ready, CONN_ACTIVATE, ci, c.step);
    }
}

void
PsEngine::UplinkDone(uint32_t w)
{
    NS_LOG_FUNCTION(this << w << m_now);
    WorkerState& ws = m_workers[w];
    const auto& upd = *ws.upd;
    // Updates of one worker at one server run one after another, in arrival order; different
    // workers (and different servers) in parallel. Overlap on: each as soon as its gradient is
    // in; overlap off: once all of the worker's gradients for *that server* are in (a server
    // cannot see the others; the packet-level ParameterServerApplication does the same).
    double allIn = ws.stepStart;
    for (uint32_t l = 0; l < m_l; ++l)
    {
        allIn = std::max(allIn, ws.upEnd[l]);
    }
    double end = allIn;
    for (uint32_t p = 0; p < m_p; ++p)
    {
        const Connection& c = m_conns[ConnIndex(w, p, UP)];
        double t = ws.stepStart;
        if (!m_scenario.overlap)
        {
            for (const auto& s : c.segs)
            {
                t = std::max(t, ws.upEnd[s.layer]);
            }
        }
        for (const auto& s : c.segs)
        {
            if (m_scenario.overlap)
            {
                t = std::max(t, ws.upEnd[s.layer]);
            }
            t += upd[s.layer] * US + Overhead(s.layer);
        }
        end = std::max(end, t);
    }
    Schedule(end, STEP_END, w, ws.step);
}

void
PsEngine::StepEnd(uint32_t w)
{
    WorkerState& ws = m_workers[w];
    NS_LOG_FUNCTION(this << w << ws.step << m_now);
    m_result.steps.push_back({w, ws.step, ws.stepStart, m_now});
    const uint32_t n = m_scenario.steps;
    const uint32_t warm = m_scenario.warmup;
    if (m_scenario.mode == TrainingScenario::ASYNC)
    {
        // Finalize(): the window opens when every worker has done its warm-up steps and closes
        // when the first worker has done all its steps.
        if (warm > 0 && ws.step + 1 == warm && ++m_warmDone == m_k)
        {
            SetCounting(true);
        }
        if (ws.step + 1 == n && !m_windowClosed)
        {
            SetCounting(false);
            m_windowClosed = true;
        }
        if (ws.step + 1 < n)
        {
            StartStep(w, ws.step + 1);
        }
        return;
    }
    // Sync: the barrier of Algorithm 1 lines 36-39.
    if (++m_barrierCount < m_k)
    {
        return;
    }
    m_barrierCount = 0;
    const uint32_t next = ws.step + 1; // StartStep(w, ...) below changes ws.step
    if (warm > 0 && next == warm)
    {
        SetCounting(true);
    }
    if (next == n)
    {
        SetCounting(false);
        return;
    }
    for (uint32_t v = 0; v < m_k; ++v)
    {
        StartStep(v, next);
    }
}

void
PsEngine::SetCounting(bool on)
{
    if (on && m_windowClosed)
    {
        return; // async: a worker finished before another's warm-up; the window is empty
    }
    EnsureAdvanced(m_groups[DOWN]);
    EnsureAdvanced(m_groups[UP]);
    m_counting = on;
}

void
PsEngine::Admit(Connection& c)
{
    while (c.admitted < c.segs.size() && c.segs[c.admitted].ready <= m_now)
    {
        c.queued += c.segs[c.admitted].bytes;
        ++c.admitted;
    }
}

void
PsEngine::Activate(uint32_t ci)
{
    Connection& c = m_conns[ci];
    Group& g = m_groups[c.dir];
    EnsureAdvanced(g);
    Admit(c);
    NS_ASSERT_MSG(c.admitted > c.head, "activating a connection with nothing ready");
    c.active = true;
    c.lastTime = m_now;
    c.rate = 0;
    c.priority = ++m_prioritySeq;
    c.activeSince = m_now;
    c.nextCheck = INF;
    g.active.push_back(ci);
    g.dirty = true;
    MarkOtherDirection(c.dir);
}

void
PsEngine::Deactivate(uint32_t ci)
{
    Connection& c = m_conns[ci];
    Group& g = m_groups[c.dir];
    c.active = false;
    c.rate = 0;
    c.nextCheck = INF;
    g.active.erase(std::find(g.active.begin(), g.active.end(), ci));
    g.dirty = true;
    MarkOtherDirection(c.dir);
}

void
PsEngine::MarkOtherDirection(Direction d)
{
    if (m_options.windowBytes > 0)
    {
        // The window model couples the directions: one direction's standing queue lengthens the
        // other's round trip (its ACKs wait in it).
        // (Recompute accounts its connections up to now at their old rates first.)
        m_groups[d == DOWN ? UP : DOWN].dirty = true;
    }
}

void
PsEngine::ComputeWindowCaps(uint32_t gi)
{
    // Per server link: the direction whose connections have more window beyond the empty
    // path's bandwidth-delay product fills its link and builds the standing queue (the excess,
    // at most its buffer: the server's NIC for parameters, the switch port for gradients). The
    // other direction's ACKs wait in that queue, so each of its connections sends at most one
    // window per (empty round trip + that queue's delay). The filling direction's connections
    // send at most one window per empty round trip, which binds only when their windows do not
    // cover the path (with them, the link and, once the buffer is full, losses limit it).
    const double w = m_options.windowBytes;
    m_windowCount.assign(2 * static_cast<std::size_t>(m_p), 0);
    for (Direction d : {DOWN, UP})
    {
        for (uint32_t ci : m_groups[d].active)
        {
            ++m_windowCount[d * m_p + m_conns[ci].server];
        }
    }
    const Group& g = m_groups[gi];
    const Direction other = gi == DOWN ? UP : DOWN;
    for (std::size_t i = 0; i < g.active.size(); ++i)
    {
        const Connection& c = m_conns[g.active[i]];
        const double capacity = g.capacity[m_k + c.server];
        const double pipe = capacity * m_options.baseRtt;
        const double mine = m_windowCount[gi * m_p + c.server] * w - pipe;
        const double theirs = m_windowCount[other * m_p + c.server] * w - pipe;
        double queue = 0; // in front of this direction's ACKs
        if (theirs > mine && theirs > 0)
        {
            const double buffer
                = other == DOWN ? m_options.hostBufferBytes : m_options.switchBufferBytes;
            queue = std::min(buffer, theirs);
        }
        m_flows[i].cap = std::min(m_flowCap, w / (m_options.baseRtt + queue / capacity));
    }
}

void
PsEngine::Account(Connection& c, double bytes)
{
    c.queued -= bytes;
    if (m_counting)
    {
        Group& g = m_groups[c.dir];
        g.linkBytes[c.links[0]] += bytes;
        g.linkBytes[c.links[1]] += bytes;
    }
}

void
PsEngine::SegmentStarted(Connection& c, const Segment& s, double t)
{
    c.headStarted = true;
    if (s.first)
    {
        WorkerState& ws = m_workers[c.worker];
        (c.dir == DOWN ? ws.downStart : ws.upStart)[s.layer] = t;
    }
}

void
PsEngine::SegmentDone(Connection& c, const Segment& s, double t)
{
    if (!s.last)
    {
        return;
    }
    WorkerState& ws = m_workers[c.worker];
    double start = (c.dir == DOWN ? ws.downStart : ws.upStart)[s.layer];
    (c.dir == DOWN ? ws.downEnd : ws.upEnd)[s.layer] = t;
    if (m_options.recordTransfers)
    {
        m_result.transfers.push_back({c.worker,
                                      c.server,
                                      c.step,
                                      static_cast<int32_t>(s.layer),
                                      c.dir == DOWN ? "down" : "up",
                                      m_profile.GetLayer(s.layer).paramBytes,
                                      start,
                                      t});
    }
}

void
PsEngine::Advance(Connection& c, double t)
{
    if (t <= c.lastTime)
    {
        return;
    }
    double budget = c.rate * (t - c.lastTime);
    double cur = c.lastTime;
    while (c.head < c.admitted)
    {
        const Segment& s = c.segs[c.head];
        double rem = s.bytes - c.headSent;
        if (!c.headStarted)
        {
            if (c.rate <= 0 && rem > ByteTolerance(s.bytes))
            {
                break; // waiting (FCFS): service has not begun
            }
            SegmentStarted(c, s, cur);
        }
        if (rem <= budget + ByteTolerance(s.bytes))
        {
            double end = c.rate > 0 ? std::min(t, cur + rem / c.rate) : cur;
            Account(c, rem);
            budget = std::max(0.0, budget - rem);
            SegmentDone(c, s, end);
            cur = end;
            ++c.head;
            c.headSent = 0;
            c.headStarted = false;
        }
        else
        {
            c.headSent += budget;
            Account(c, budget);
            break;
        }
    }
    c.lastTime = t;
}

void
PsEngine::FinishAdmitted(Connection& c)
{
    // Called at the connection's check time: what is left of the admitted bytes is rounding.
    while (c.head < c.admitted)
    {
        const Segment& s = c.segs[c.head];
        if (!c.headStarted)
        {
            SegmentStarted(c, s, m_now);
        }
        Account(c, s.bytes - c.headSent);
        SegmentDone(c, s, m_now);
        ++c.head;
        c.headSent = 0;
        c.headStarted = false;
    }
    c.queued = 0;
}

void
PsEngine::EnsureAdvanced(Group& g)
{
    if (g.advancedTo == m_now)
    {
        return;
    }
    for (uint32_t ci : g.active)
    {
        Advance(m_conns[ci], m_now);
    }
    g.advancedTo = m_now;
}

double
PsEngine::NextCheck(const Connection& c) const
{
    if (c.head >= c.admitted)
    {
        return c.lastTime;
    }
    if (c.queued <= ByteTolerance(c.queued))
    {
        return c.lastTime;
    }
    return c.rate > 0 ? c.lastTime + c.queued / c.rate : INF;
}

void
PsEngine::Recompute(uint32_t gi)
{
    Group& g = m_groups[gi];
    EnsureAdvanced(g);
    g.dirty = false;
    m_flows.resize(g.active.size());
    for (std::size_t i = 0; i < g.active.size(); ++i)
    {
        const Connection& c = m_conns[g.active[i]];
        SharingModel::Flow& f = m_flows[i];
        f.links[0] = c.links[0];
        f.links[1] = c.links[1];
        f.nLinks = 2;
        f.priority = c.priority;
        f.start = c.activeSince;
        f.cap = m_flowCap;
    }
    if (m_options.windowBytes > 0)
    {
        ComputeWindowCaps(gi);
    }
    m_sharing.AssignRates(m_flows, g.capacity, m_rates);
    ++rateComputations;
    for (std::size_t i = 0; i < g.active.size(); ++i)
    {
        Connection& c = m_conns[g.active[i]];
        c.rate = m_rates[i];
        c.nextCheck = NextCheck(c);
    }
    PushCheck(gi);
}

void
PsEngine::PushCheck(uint32_t gi)
{
    Group& g = m_groups[gi];
    double next = INF;
    for (uint32_t ci : g.active)
    {
        next = std::min(next, m_conns[ci].nextCheck);
    }
    ++g.version;
    if (next < INF)
    {
        Schedule(std::max(next, m_now), GROUP_CHECK, gi, g.version);
    }
}

void
PsEngine::GroupCheck(uint32_t gi)
{
    Group& g = m_groups[gi];
    EnsureAdvanced(g);
    // Connections whose queue drains now; copy, since Deactivate() edits the active list.
    m_split.clear();
    for (uint32_t ci : g.active)
    {
        if (m_conns[ci].nextCheck <= m_now)
        {
            m_split.push_back(ci);
        }
    }
    for (uint32_t ci : m_split)
    {
        Connection& c = m_conns[ci];
        FinishAdmitted(c);
        Admit(c);
        if (c.admitted > c.head)
        {
            c.nextCheck = NextCheck(c); // busy on: same rate, no event for the boundary
        }
        else if (c.head < c.segs.size())
        {
            Deactivate(ci); // idle until its next tensor is ready
            Schedule(c.segs[c.head].ready, CONN_ACTIVATE, ci, c.step);
        }
        else
        {
            Deactivate(ci);
            ConnectionDone(c);
        }
    }
    if (!g.dirty)
    {
        PushCheck(gi);
    }
}

void
PsEngine::ConnectionDone(Connection& c)
{
    WorkerState& ws = m_workers[c.worker];
    if (c.dir == DOWN)
    {
        if (--ws.pendingDown == 0)
        {
            DownlinkDone(c.worker);
        }
    }
    else if (--ws.pendingUp == 0)
    {
        UplinkDone(c.worker);
    }
}

/**
 * Ring AllReduce, sync (000 Sec. 3.2.2): no downlink; every worker runs forward and backward on
 * its own sampled step; gradients are fused into buckets in backward order; bucket b is reduced
 * by a ring AllReduce of its M_b bytes taking 2(K-1)/K * M_b / r + 2(K-1) * (2 link delays)
 * + (K-1)/K * M_b / reductionRate, where r is the rate the sharing model gives the K ring flows
 * (w -> w+1; the full NIC under AllReduceSharing). With G GPUs per node an intra-node reduce and
 * broadcast (TrainingNetwork::GetIntraNodeHalfSeconds of M_b) come before and after the ring.
 * Buckets are reduced one after another; the step ends when the last is done, and the next step's
 * forward starts then. Under ALL_REDUCE sharing nothing contends, so the engine evaluates each
 * step in one pass instead of through the event heap.
 */
class RingEngine
{
  public:
    /**
     * \param profile the DNN
     * \param scenario the scenario
     * \param sharing the sharing model (asked once for the rate of the K ring flows)
     * \param options run options
     * \param capacity capacity of every NIC link per direction (bytes/s)
     * \param flowCap per-flow cap (bytes/s, infinity for none)
     * \param result where records go
     */
    RingEngine(const TrainingProfile& profile,
               const TrainingScenario& scenario,
               const SharingModel& sharing,
               const FlowLevelSimulator::Options& options,
               double capacity,
               double flowCap,
               TrainingResult& result)
        : m_profile(profile),
          m_scenario(scenario),
          m_options(options),
          m_result(result),
          m_mean(profile.GetMeanStep())
    {
        const uint32_t k = scenario.workers;
        linkBytes.assign(2 * k, 0);
        ringRate = capacity;
        if (k > 1)
        {
            std::vector<SharingModel::Flow> flows(k);
            for (uint32_t w = 0; w < k; ++w)
            {
                flows[w].links[0] = w;               // sender's NIC, send side
                flows[w].links[1] = k + (w + 1) % k; // next worker's NIC, receive side
                flows[w].nLinks = 2;
                flows[w].priority = w;
                flows[w].cap = flowCap;
            }
            std::vector<double> rates;
            sharing.AssignRates(flows, std::vector<double>(2 * k, capacity), rates);
            ++rateComputations;
            ringRate = *std::min_element(rates.begin(), rates.end());
        }
    }

    /// Run every step.
    void Run()
    {
        const uint32_t k = m_scenario.workers;
        const uint32_t nl = static_cast<uint32_t>(m_profile.GetNLayers());
        const double inf = INF;
        std::vector<uint64_t> layerBytes(nl);
        for (uint32_t l = 0; l < nl; ++l)
        {
            layerBytes[l] = m_profile.GetLayer(l).paramBytes;
        }
        const double timeout = m_scenario.fusionTimeout.GetSeconds();
        const double hop = 2 * m_scenario.linkDelay.GetSeconds(); // worker - switch - worker
        const double reduction = m_scenario.reductionRate;

        std::vector<double> ready(nl);

        /// A closed gradient bucket.
        struct Bucket
        {
            double bytes; //!< fused gradient bytes
            double close; //!< when it closed
        };

        std::vector<Bucket> buckets;
        double now = 0;
        for (uint32_t step = 0; step < m_scenario.steps; ++step)
        {
            const double stepStart = now;
            std::fill(ready.begin(), ready.end(), -inf);
            for (uint32_t w = 0; w < k; ++w)
            {
                const TrainingProfile::StepTimes* st = &m_mean;
                if (m_scenario.sampleSteps && m_profile.GetNSamples() > 0)
                {
                    StepRng rng(m_scenario.seed, w, step, 0);
                    st = &m_profile.GetSample(rng.Below(m_profile.GetNSamples()));
                }
                const double scale = m_scenario.GetComputeScale(w);
                double t = stepStart;
                for (uint32_t l = 0; l < nl; ++l)
                {
                    t += st->forwardUs[l] * US * scale;
                }
                for (uint32_t l = nl; l-- > 0;)
                {
                    t += st->backwardUs[l] * US * scale;
                    // A bucket is reduced by all workers together: a gradient is ready for the
                    // collective when the slowest worker has it.
                    ready[l] = std::max(ready[l], t);
                }
                ++events;
            }
            // Tensor fusion (004 Sec. 2.2), the packet level's rule (TensorFusion).
            buckets.clear();
            for (const auto& b : TensorFusion::FormBuckets(layerBytes,
                                                           ready,
                                                           m_scenario.bucketBytes,
                                                           m_scenario.firstBucketBytes,
                                                           timeout))
            {
                buckets.push_back({static_cast<double>(b.bytes), b.closeSeconds});
            }
            const double backwardDone = ready[0];
            double prevEnd = stepStart;
            for (std::size_t b = 0; b < buckets.size(); ++b)
            {
                const double m = buckets[b].bytes;
                double start
                    = std::max(prevEnd, m_scenario.overlap ? buckets[b].close : backwardDone);
                double intra = TrainingNetwork::GetIntraNodeHalfSeconds(m_scenario, m);
                double inter = 0;
                if (k > 1)
                {
                    double kk = static_cast<double>(k);
                    inter = 2 * (kk - 1) / kk * m / ringRate + 2 * (kk - 1) * hop;
                    if (reduction > 0)
                    {
                        inter += (kk - 1) / kk * m / reduction;
                    }
                }
                double ringStart = start + intra;
                double ringEnd = ringStart + inter;
                prevEnd = ringEnd + intra;
                ++events;
                if (k > 1)
                {
                    double sent = 2.0 * (k - 1) / k * m;
                    for (uint32_t w = 0; w < k; ++w)
                    {
                        if (m_options.recordTransfers)
                        {
                            m_result.transfers.push_back({w,
                                                          (w + 1) % k,
                                                          step,
                                                          static_cast<int32_t>(b),
                                                          "ring",
                                                          static_cast<uint64_t>(std::llround(m)),
                                                          ringStart,
                                                          ringEnd});
                        }
                        if (step >= m_scenario.warmup)
                        {
                            linkBytes[w] += sent;
                            linkBytes[k + (w + 1) % k] += sent;
                        }
                    }
                }
            }
            for (uint32_t w = 0; w < k; ++w)
            {
                m_result.steps.push_back({w, step, stepStart, prevEnd});
            }
            now = prevEnd;
        }
    }

    std::vector<double> linkBytes; //!< in the window: K senders' then K receivers' NIC sides
    double ringRate{0};            //!< rate of one ring flow (bytes/s)
    uint64_t events{0};            //!< operations evaluated
    uint64_t rateComputations{0};  //!< sharing-model calls

  private:
    const TrainingProfile& m_profile;      //!< the DNN
    const TrainingScenario& m_scenario;    //!< the scenario
    FlowLevelSimulator::Options m_options; //!< run options
    TrainingResult& m_result;              //!< records go here
    TrainingProfile::StepTimes m_mean;     //!< the mean step
};

} // namespace

FlowLevelSimulator::FlowLevelSimulator(const TrainingProfile& profile,
                                       const TrainingScenario& scenario,
                                       Ptr<const SharingModel> sharing,
                                       const Options& options)
    : m_profile(profile),
      m_scenario(scenario),
      m_sharing(sharing),
      m_options(options),
      m_events(0),
      m_rateComputations(0)
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT_MSG(sharing, "no sharing model");
}

double
FlowLevelSimulator::GetLinkCapacity() const
{
    double raw = static_cast<double>(m_scenario.nicRate.GetBitRate()) / 8.0;
    if (!m_options.useGoodput)
    {
        return raw;
    }
    // The scenario's goodput rule (payload / wire bytes of a full segment).
    return TrainingNetwork::GetLinkGoodputBytesPerSecond(m_scenario);
}

double
FlowLevelSimulator::GetFlowCap() const
{
    if (m_scenario.flowCap.GetBitRate() == 0)
    {
        return INF;
    }
    double raw = static_cast<double>(m_scenario.flowCap.GetBitRate()) / 8.0;
    return m_options.useGoodput ? TrainingNetwork::GetGoodputBytesPerSecond(m_scenario) : raw;
}

uint64_t
FlowLevelSimulator::GetEventCount() const
{
    return m_events;
}

uint64_t
FlowLevelSimulator::GetRateComputations() const
{
    return m_rateComputations;
}

TrainingResult
FlowLevelSimulator::Run()
{
    NS_LOG_FUNCTION(this);
    auto wallStart = std::chrono::steady_clock::now();
    TrainingResult result;
    result.backend = "flow";
    result.variant = m_sharing->GetName();
    m_events = 0;
    m_rateComputations = 0;
    const double capacity = GetLinkCapacity();
    const double flowCap = GetFlowCap();
    const uint32_t k = m_scenario.workers;
    const uint32_t p = m_scenario.servers;

    // Link names and bytes carried inside the measurement window.
    std::vector<std::string> names;
    std::vector<double> bytes;
    if (m_scenario.architecture == TrainingScenario::PARAMETER_SERVER)
    {
        PsEngine engine(m_profile, m_scenario, *m_sharing, m_options, capacity, flowCap, result);
        engine.Run();
        m_events = engine.events;
        m_rateComputations = engine.rateComputations;
        for (Direction d : {DOWN, UP})
        {
            const auto& b = engine.GetLinkBytes(d);
            for (uint32_t i = 0; i < k + p; ++i)
            {
                // Named as the packet level names its links (TrainingNetwork).
                bool toSwitch = (d == DOWN) == (i >= k);
                names.push_back(
                    TrainingNetwork::GetLinkName(TrainingNetwork::GetHostName(m_scenario, i),
                                                 toSwitch));
                bytes.push_back(b[i]);
            }
        }
    }
    else
    {
        RingEngine engine(m_profile, m_scenario, *m_sharing, m_options, capacity, flowCap, result);
        engine.Run();
        m_events = engine.events;
        m_rateComputations = engine.rateComputations;
        for (uint32_t i = 0; i < 2 * k; ++i)
        {
            names.push_back(
                TrainingNetwork::GetLinkName(TrainingNetwork::GetHostName(m_scenario, i % k),
                                             i < k));
            bytes.push_back(engine.linkBytes[i]);
        }
        result.inputs["ring_rate_bytes_per_s"] = engine.ringRate;
    }

    // A node of G GPUs processes G batches per step (as the analytic and packet backends).
    result.Finalize(m_scenario, m_profile.GetBatchSize() * m_scenario.gpusPerNode);

    const double window = result.windowEnd - result.windowStart;
    double busiest = -1;
    for (std::size_t i = 0; i < names.size() && window > 0; ++i)
    {
        double u = bytes[i] / (capacity * window);
        result.linkUtilisation[names[i]] = u;
        if (u > busiest)
        {
            busiest = u;
            result.bottleneck = names[i];
        }
    }

    if (m_scenario.mode == TrainingScenario::ASYNC && k > 1 && IsLockstep(result))
    {
        result.notes.push_back(
            "async workers stayed in lockstep (every measured step ended at the same time on "
            "every worker): identical workers that start together never drift apart, unlike "
            "real ones; sample steps from a profile with per-step samples");
    }

    result.inputs["B_bytes_per_s"] = capacity;
    if (flowCap < INF)
    {
        result.inputs["flow_cap_bytes_per_s"] = flowCap;
    }
    result.inputs["use_goodput"] = m_options.useGoodput ? 1 : 0;
    result.inputs["M_bytes"] = static_cast<double>(m_profile.GetTotalParamBytes());
    result.inputs["T_F_s"] = m_profile.GetForwardTime().GetSeconds();
    result.inputs["T_B_s"] = m_profile.GetBackwardTime().GetSeconds();
    result.inputs["T_S_s"] = m_profile.GetUpdateTime().GetSeconds();
    result.inputs["layers"] = static_cast<double>(m_profile.GetNLayers());
    result.inputs["events"] = static_cast<double>(m_events);
    result.inputs["rate_computations"] = static_cast<double>(m_rateComputations);
    result.wallSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    return result;
}

bool
FlowLevelSimulator::IsLockstep(const TrainingResult& result) const
{
    const uint32_t n = m_scenario.steps;
    std::vector<double> lo(n, INF);
    std::vector<double> hi(n, -INF);
    for (const auto& s : result.steps)
    {
        if (s.step < n)
        {
            lo[s.step] = std::min(lo[s.step], s.end);
            hi[s.step] = std::max(hi[s.step], s.end);
        }
    }
    bool any = false;
    for (uint32_t s = m_scenario.warmup; s < n; ++s)
    {
        if (hi[s] < lo[s])
        {
            continue;
        }
        any = true;
        if (hi[s] - lo[s] > 1e-9 * std::max(1e-9, hi[s]))
        {
            return false;
        }
    }
    return any;
}

} // namespace ns3

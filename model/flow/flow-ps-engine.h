/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_PS_ENGINE_H
#define FLOW_PS_ENGINE_H

#include "flow-class-heap.h"
#include "flow-event-core.h"
#include "flow-level-simulator.h"
#include "flow-ps-types.h"
#include "flow-rate-class.h"
#include "flow-rate-solver.h"
#include "flow-shared-job.h"

#include "ns3/training-profile.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

class TrainingScenario;

namespace flow
{

/**
 * The parameter-server simulation of one run. Connections of one direction share the links of
 * that direction (DOWN: server NICs' send side, workers' receive side; UP: the reverse), so the
 * two directions are independent groups whose rates are computed separately.
 */
class FlowPsEngine
{
    // The solvers sort connections into its rate classes and set their rates (RateSolver).
    friend class RateSolver;
    friend class EachFlowSolver;
    friend class FcfsSolver;
    friend class MaxMinSolver;
    friend class BundledMaxMinSolver;

  public:
    /**
     * \param in the run's inputs (the sharing model, fabric and flow cap are asked for rates)
     */
    explicit FlowPsEngine(const EngineInputs& in);

    /// Run to the end.
    void Run();

    /**
     * \param d direction
     * \return bytes carried by each link of that direction inside the measurement window
     */
    std::vector<double> GetLinkBytes(Direction d) const;

    // ---- several jobs on one fabric (FlowJobSimulator): one clock, one rate computation ----

    /**
     * \brief Begin the run at startTime without computing rates: the caller drives the events
     * (NextEventTime, HandleNext) and computes the rates of every job's flows together
     * (CollectShared, sharing model, ApplyShared). Without links every connection is its own
     * rate class (EachFlowSolver: a link private to one job's connection may carry another
     * job's); with links (plain max-min, one server) the connections aggregate into rate classes
     * as in the single-job engine, a link counting as private while no other flow of any job
     * crosses it (MaxMinSolver, SharedLinks).
     * \param startTime when the workers begin their first step (s)
     * \param prioritySeq activation counter shared by the jobs (FCFS order across jobs)
     * \param links every job's flows per link, or null (a class per connection)
     * \param id this job's id in links
     */
    void BeginShared(double startTime, uint64_t* prioritySeq, SharedLinks* links, uint32_t id);
    /** \return the time of the next pending event, infinity if none */
    double NextEventTime() const;
    /**
     * \brief Handle the next pending event (not before now).
     */
    void HandleNext();
    /** \param now the shared clock (s); the engine's present moves to it */
    void SetNow(double now);
    /** \return true when an active set changed since the last CollectShared */
    bool IsDirty() const;

    /**
     * \brief Describe the active connections (DOWN, then UP) to the sharing model: each one
     * (weights 1), or with aggregation one aggregate per rate class.
     * \param flows where to append
     * \param weights where to append each one's connections
     */
    void CollectShared(std::vector<SharingModel::Flow>& flows, std::vector<double>& weights);
    /**
     * \brief Take the rates of CollectShared's flows and schedule the next checks.
     * \param rates the rates of CollectShared's flows
     */
    void ApplyShared(const double* rates);
    /**
     * \brief Another job's flow made link l shared, or left this job's connection alone on it:
     * re-key the connection of either direction that crosses it alone.
     * \param l link
     * \param now the shared clock (s)
     */
    void RekeyLink(uint32_t l, double now);

    uint64_t events{0};           //!< events handled
    uint64_t rateComputations{0}; //!< sharing-model calls
    uint64_t rebases{0};          //!< rate-class histories restarted
    uint64_t sharingFlows{0};     //!< flows (or aggregates) handed to the sharing model, summed
    /// The engine's own per-event work besides the sharing model's: rate classes looked at to
    /// find the next check or the drained ones, plus members advanced by rebases.
    uint64_t classWork{0};

  private:
    /// The links of one direction and the connections active on them.
    struct Group
    {
        std::vector<ActiveEntry> active; //!< active connections in activation order (some stale)
        uint32_t nActive{0};             //!< active connections
        std::vector<double> capacity;    //!< per directed link of the fabric (bytes/s)
        bool dirty{false};               //!< the active set changed since the last computation
        uint64_t version{0};             //!< version of the pending check event
        std::vector<uint32_t> classes;   //!< its live rate classes
    };

    /**
     * \brief A rate computation of a group is done: count it, schedule the group's next check.
     * \param gi group index
     * \param flows flows the sharing model saw (or FCFS served)
     */
    void Solved(uint32_t gi, uint64_t flows);
    /**
     * \brief Take a rate solver (and its heaps of classes by drain time, if it keeps them).
     * \param solver the solver
     */
    void UseSolver(std::unique_ptr<RateSolver> solver);
    /// Reserve the records, open the window without warm-up and start every worker's step 0.
    void StartAll();
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
     * \brief Handle one event of the heap.
     * \param e the event
     */
    void Handle(const Event& e);
    /**
     * \brief Rates of every group whose active set changed.
     */
    void RecomputeDirty();
    /**
     * \brief Fill m_order with this step's transmission order of the worker's tensors.
     * \param w worker
     * \param step step index
     */
    void MakeOrder(uint32_t w, uint32_t step);
    /**
     * \brief Empty the worker's connections of one direction for a new step.
     * \param w worker
     * \param d direction
     * \param step step index
     */
    void ResetConnections(uint32_t w, Direction d, uint32_t step);
    /**
     * \brief One connection per worker, server and direction, with its path through the fabric.
     * \param fabric the placed fabric
     */
    void BuildConnections(const FlowFabric& fabric);
    /**
     * \brief Lay out the segment lists (m_segPool): one per server and direction, shared by
     * every worker, except the downlink lists of a random order (one per connection).
     */
    void BuildSegmentLists();
    /**
     * \brief Write the downlink segments of m_order into the worker's lists (the shared ones
     * unless the order is random): per server, its first services (at most WIN bytes each) in
     * order, then the second services of the tensors that had bytes left.
     * \param w worker
     */
    void WriteDownlink(uint32_t w);
    /**
     * \brief When each layer's parameters are usable on the node (into m_usable): their
     * arrival, or with G GPUs the end of their intra-node broadcast (one tensor after another,
     * in arrival order).
     * \param w worker
     */
    void UsableTimes(uint32_t w);
    /**
     * \param w worker
     * \return the time the worker's forward pass ends
     */
    double ForwardEnd(uint32_t w);
    /**
     * \brief Backward pass from time t: queue each gradient on its uplink connection, ready when
     * its backward (and intra-node reduction) is done.
     * \param w worker
     * \param t when the backward pass starts
     * \return when the last gradient is ready (all of them with overlap off)
     */
    double QueueGradients(uint32_t w, double t);
    /**
     * \brief Schedule the activation of the worker's uplink connections.
     * \param w worker
     * \param allReady overlap off: when every gradient may leave
     */
    void ScheduleUplinks(uint32_t w, double allReady);
    /**
     * \param l layer
     * \return the intra-node transfer time of its tensor (000 Sec. 4.4)
     */
    double IntraNode(uint32_t l) const;
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

    /// A connection's progress through its segments, held in locals while Advance() runs.
    struct Progress
    {
        uint32_t head;      //!< Connection::head
        double headSent;    //!< Connection::headSent
        bool started;       //!< Connection::headStarted
        double queued;      //!< Connection::queued
        double windowBytes; //!< Connection::windowBytes
        double lastEnd;     //!< Connection::lastEnd
    };

    /**
     * \brief Write Advance()'s locals back.
     * \param c the connection
     * \param p its progress
     */
    static void SaveProgress(Connection& c, const Progress& p);

    /**
     * \brief Account the bytes sent up to t (its rate class's virtual bytes); segments that
     * completed in between get their end time from the class's rate history.
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
    void SegmentStarted(const Connection& c, const Segment& s, double t);
    /**
     * \brief A segment is completely sent; the last one of a tensor makes its record.
     * \param c connection
     * \param s segment
     * \param t time
     */
    void SegmentDone(Connection& c, const Segment& s, double t);
    /**
     * \brief The transfer record of a completed segment that ends its tensor (with records on).
     * \param c connection
     * \param s segment (its start and end times are in the worker's state)
     */
    void Record(const Connection& c, const Segment& s);
    /**
     * \brief Count sent bytes (queue and, inside the window, link utilisation).
     * \param queued a connection's unsent bytes (reduced)
     * \param windowBytes its bytes inside the measurement window (increased while counting)
     * \param bytes bytes sent
     */
    void Account(double& queued, double& windowBytes, double bytes) const;
    /**
     * \brief Advance every active connection of a group to now.
     * \param gi group index
     */
    void EnsureAdvanced(uint32_t gi);
    /**
     * \brief Ask the sharing model for the rates of a group's rate classes and schedule the
     * group's next check.
     * \param gi group index
     */
    void Recompute(uint32_t gi);
    /**
     * \brief A class's members' new rate: its history grows, or is rebased when it outgrew them.
     * \param k rate class
     * \param rate bytes/s of each member
     */
    void SetClassRate(uint32_t k, double rate);
    /**
     * \brief Drop the stale entries of a group's list of active connections.
     * \param gi group index
     */
    void CompactActive(uint32_t gi);

    /**
     * \param gi group index
     * \return a new live rate class of that group, rate 0
     */
    uint32_t NewClass(uint32_t gi);
    /**
     * \brief A class without members goes to the free list.
     * \param k rate class
     */
    void ReleaseClass(uint32_t k);
    /**
     * \brief A connection (accounted up to now) joins a class.
     * \param ci connection index
     * \param k rate class
     */
    void Join(uint32_t ci, uint32_t k);
    /**
     * \brief A connection leaves its class (released when it was the last member).
     * \param ci connection index
     */
    void Leave(uint32_t ci);
    /**
     * \brief Queue the connection's drain point in its class (not refreshed).
     * \param ci connection index
     */
    void PushDrain(uint32_t ci);
    /**
     * \brief Drop the class's stale drain points and set its earliest drain time.
     * \param k rate class
     */
    void RefreshClass(uint32_t k);
    /**
     * \brief Collect the connections whose queues drained by now, in activation order.
     * \param gi group index
     */
    void CollectDrained(uint32_t gi);

    /**
     * \brief Window model: the other direction's rates depend on this one's active set.
     * \param d the direction whose active set changed
     */
    void MarkOtherDirection(Direction d);

    /**
     * \brief Window model: the cap of each of a direction's connections to one server.
     * \param gi the direction
     * \param server the server
     * \return min(flow cap, window / round trip with both standing queues) (bytes/s)
     */
    double WindowCap(uint32_t gi, uint32_t server) const;
    /**
     * \brief Schedule the group's check at its earliest class drain time (new version).
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
     * \param layer layer index
     * \return the parsing overhead alpha * size + beta of its tensor (seconds)
     */
    double Overhead(uint32_t layer) const;

    /**
     * \param s a segment
     * \return its payload bytes: the tensor's, or WIN for a first service that was split, or
     *         the rest for the second
     */
    double SegmentBytes(const Segment& s) const
    {
        return s.first ? (s.last ? m_bytes[s.layer] : m_win) : m_bytes[s.layer] - m_win;
    }

    /**
     * \param c a connection
     * \return its segments (nSegs of them)
     */
    const Segment* Segs(const Connection& c) const
    {
        return m_segPool.data() + c.segBase;
    }

    /**
     * \param c a connection
     * \param i one of its segments
     * \return when that segment may be sent (s)
     */
    double ReadyOf(const Connection& c, uint32_t i) const
    {
        return m_readyPool.empty() || c.dir == DOWN
                   ? c.ready
                   : m_readyPool[static_cast<std::size_t>(c.worker) * m_l + Segs(c)[i].layer];
    }

    /**
     * \brief A transfer starts on the idle connection c with its head segment (--startJitter:
     * it waits a random delay; the segments that become ready meanwhile join it, as tensors
     * queued behind a held transfer do at the packet level).
     * \param c the connection
     * \return the delay (s; 0 without jitter)
     */
    double StartDelay(const Connection& c) const
    {
        return m_jitter.IsOn() ? m_jitter.Delay(c.worker,
                                                c.step,
                                                (uint64_t{c.server} * 2 + c.dir) << 32 | c.head)
                               : 0.0;
    }

    /**
     * \param e an entry of an active list or of an FCFS queue
     * \return whether its connection is still active since it was listed
     */
    bool IsLive(const ActiveEntry& e) const
    {
        const Connection& c = m_conns[e.conn];
        return c.active && c.priority == e.priority;
    }

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

    const TrainingProfile& m_profile;      //!< the DNN
    const TrainingScenario& m_scenario;    //!< the scenario
    const SharingModel& m_sharing;         //!< the sharing model
    FlowLevelSimulator::Options m_options; //!< run options
    TrainingResult& m_result;              //!< records go here
    uint32_t m_k;                          //!< workers
    uint32_t m_p;                          //!< servers
    uint32_t m_l;                          //!< layers
    double m_flowCap;                      //!< per-flow cap (bytes/s)
    double m_win;                          //!< WIN: bytes of a first service (001 Sec. 3.2.2)
    std::vector<uint32_t> m_owner;         //!< server of each layer
    std::vector<double> m_bytes;           //!< bytes of each layer
    TrainingProfile::StepTimes m_mean;     //!< the mean step
    StartJitter m_jitter;                  //!< --startJitter's delays
    std::vector<Connection> m_conns;       //!< all connections
    Group m_groups[2];                     //!< DOWN and UP links
    std::vector<uint32_t> m_pathLinks;     //!< every connection's path, one after another
    std::vector<WorkerState> m_workers;    //!< per worker
    std::vector<Segment> m_segPool;        //!< every connection's segments (Connection)
    /// Overlap on: per worker and layer, when its gradient may leave (else Connection::ready).
    std::vector<double> m_readyPool;
    /// Per worker and layer, when its tensor arrived (its parameters at the worker, then its
    /// gradient at the server: one direction at a time, since every parameter is in before the
    /// first gradient is queued and every gradient out before the next step's parameters are).
    /// Kept only when something reads it per layer (overlap, several GPUs, transfer records);
    /// else the connections' latest arrivals are all that is read.
    std::vector<double> m_ends;
    std::vector<double> m_starts;        //!< with transfer records: per worker and layer, its start
    std::vector<double> m_usable;        //!< scratch: per layer, when its parameters are usable
    std::vector<uint32_t> m_byArrival;   //!< scratch: layers in arrival order
    std::vector<uint32_t> m_fill;        //!< scratch: per server, segments written
    EventQueue m_queue;                  //!< pending events
    uint64_t m_prioritySeq{0};           //!< activations so far
    double m_now{0};                     //!< current time (s)
    uint32_t m_barrierCount{0};          //!< sync: workers at barrier
    uint32_t m_warmDone{0};              //!< async: workers past warm-up
    bool m_counting{false};              //!< inside the measurement window
    bool m_windowClosed{false};          //!< async: window already closed
    std::vector<uint32_t> m_order;       //!< scratch: transmission order
    std::vector<uint32_t> m_split;       //!< scratch: split streams / drained connections
    std::vector<uint8_t> m_flag;         //!< scratch: per-server flags
    std::vector<uint32_t> m_windowCount; //!< window model: active connections per dir, server
    std::vector<uint32_t> m_touched;     //!< scratch: classes to refresh
    std::vector<RateClass> m_classes;    //!< rate classes (live or free)
    std::vector<uint32_t> m_freeClasses; //!< classes without members
    uint64_t* m_sharedSeq{nullptr};      //!< several jobs: the shared activation counter
    uint32_t m_realLinks{0};             //!< links of the fabric
    std::unique_ptr<RateSolver> m_solver;     //!< the rates of the active connections
    ClassHeap* m_byTime[2]{nullptr, nullptr}; //!< per group: the solver's classes by drain time
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_PS_ENGINE_H */

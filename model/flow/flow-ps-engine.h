/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_PS_ENGINE_H
#define FLOW_PS_ENGINE_H

#include "flow-event-core.h"
#include "flow-level-simulator.h"
#include "flow-rate-class.h"
#include "flow-shared-job.h"
#include "ns3/training-profile.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <queue>
#include <vector>

namespace ns3
{

class TrainingScenario;

namespace flow
{

enum Direction : uint8_t
{
    DOWN = 0, //!< server to worker (parameters)
    UP = 1,   //!< worker to server (gradients)
};

/**
 * A piece of one tensor sent on a connection (a whole tensor unless WIN splits it); its bytes
 * follow from the layer and the two flags (FlowPsEngine::SegmentBytes). Kept to 8 bytes.
 */
struct Segment
{
    uint32_t layer; //!< tensor = layer index
    bool first;     //!< first piece of its tensor (its start is the tensor's start)
    bool last;      //!< last piece of its tensor (its end is the tensor's arrival)
};

/**
 * One direction of one (worker, server) pair: a FIFO of segments served by one fluid flow.
 *
 * Why so compact: with thousands of asynchronous workers a connection's state is written when
 * its step starts and read when its queue drains, about K transfers later, so it comes from
 * memory, not the cache, and its size decides the run's memory traffic. Its segment list is
 * therefore not its own unless it must be (FlowPsEngine::m_segPool: one list per server and
 * direction, per connection only for a random order), its ready times are one value unless
 * gradients leave one by one (overlap on), and of its tensors' arrival times it keeps the latest
 * (per-layer times only where something reads them: FlowPsEngine::m_ends). Two cache lines.
 */
struct alignas(64) Connection
{
    uint32_t worker{0};      //!< worker index
    uint32_t server{0};      //!< server index
    uint32_t step{0};        //!< step the segments belong to
    uint32_t segBase{0};     //!< its segments: m_segPool[segBase .. segBase + nSegs)
    uint32_t nSegs{0};       //!< segments per step (the same every step)
    uint32_t head{0};        //!< first segment not completely sent
    uint32_t admitted{0};    //!< segments [head, admitted) are ready and queued
    uint32_t cls{0};         //!< its rate class while active
    uint32_t slot{0};        //!< its index in the class's members
    uint32_t drainStamp{0};  //!< bumped whenever its queued drain point goes stale
    uint32_t path{0};        //!< its directed links: m_pathLinks[path .. path + nLinks)
    uint32_t nLinks{0};      //!< links of its path
    uint32_t serverLink{0};  //!< the server's NIC link in this direction (window model)
    Direction dir{DOWN};     //!< direction
    bool active{false};      //!< in the active set of its group
    bool headStarted{false}; //!< segs[head] has begun service
    double headSent{0};      //!< bytes of segs[head] already sent
    double queued{0};        //!< unsent bytes of the admitted segments
    double lastTime{0};      //!< time up to which the bytes above are accounted
    double baseV{0};         //!< its rate class's virtual bytes at lastTime
    double ready{0};         //!< when its segments may be sent (unless FlowPsEngine::m_readyPool)
    double lastEnd{0};       //!< the latest arrival of one of its tensors this step
    double activeSince{0};   //!< when it last became active (age-dependent sharing)
    double windowBytes{0};   //!< bytes sent inside the measurement window (each path link's)
    uint64_t priority{0};    //!< activation order (FCFS)
};

/// An entry of a group's list of active connections (stale once the connection left).
struct ActiveEntry
{
    uint32_t conn;     //!< connection index
    uint64_t priority; //!< its activation order when listed
};

/// What makes flows interchangeable for plain max-min: the links they share, and their cap.
struct ClassKey
{
    std::array<uint32_t, SharingModel::MAX_LINKS> links{}; //!< shared links, ascending
    uint32_t nLinks{0};                                    //!< entries of links used
    double cap{INF}; //!< per-flow cap: the flow cap (if honoured) and the private links
    /// A bundle's member (flow-ps-bundles.cc) or any connection under the window model (its
    /// cap depends on its server): its server + 1; else 0.
    uint32_t slot{0};

    /**
     * \param o another key
     *
eturn strict weak order
     */
    bool operator<(const ClassKey& o) const
    {
        if (nLinks != o.nLinks)
        {
            return nLinks < o.nLinks;
        }
        if (cap != o.cap)
        {
            return cap < o.cap;
        }
        if (slot != o.slot)
        {
            return slot < o.slot;
        }
        return std::lexicographical_compare(links.begin(),
                                            links.begin() + nLinks,
                                            o.links.begin(),
                                            o.links.begin() + o.nLinks);
    }
};

/// The links of one direction and the connections active on them.
struct Group
{
    std::vector<ActiveEntry> active;     //!< active connections in activation order (some stale)
    uint32_t nActive{0};                 //!< active connections
    std::vector<double> capacity;        //!< per directed link of the fabric (bytes/s)
    bool dirty{false};                   //!< the active set changed since the last rate computation
    uint64_t version{0};                 //!< version of the pending check event
    std::vector<uint32_t> classes;       //!< its live rate classes
    std::vector<uint32_t> byTime;        //!< FCFS: its live rate classes, a heap by nextTime
    std::vector<uint32_t> linkCount;     //!< plain max-min: active connections per link
    std::vector<uint32_t> linkXor;       //!< plain max-min: XOR of their indices (the one if alone)
    std::map<ClassKey, uint32_t> byKey;  //!< plain max-min: the class of each key
    std::vector<uint32_t> linkWorkers;   //!< plain max-min, P > 1: workers active per link
    std::vector<uint32_t> linkWorkerXor; //!< plain max-min, P > 1: XOR of those workers
    std::map<std::vector<uint64_t>, uint32_t> bundles; //!< bundle signature: its virtual links
    std::vector<double> virtualCap; //!< per virtual link: the capacity of one bundle's link
    /// FCFS: per server, the connections activated on its link in activation order (some stale)
    std::vector<std::vector<ActiveEntry>> queues;
    std::vector<uint32_t> queueHead;   //!< FCFS: per server, first entry that may be live
    std::vector<uint32_t> queueActive; //!< FCFS: per server, active connections
    std::vector<uint32_t> served;      //!< FCFS: connections given a positive rate last time
};

/// One worker's state for its current step (its per-layer times are in FlowPsEngine::m_ends).
struct WorkerState
{
    uint32_t step{0};               //!< current step
    uint32_t pendingDown{0};        //!< downlink connections not finished
    double stepStart{0};            //!< when it began
    const std::vector<double>* fwd; //!< forward times of the step (us)
    const std::vector<double>* bwd; //!< backward times of the step (us)
    const std::vector<double>* upd; //!< update times of the step (us)
    uint32_t pendingUp{0};          //!< uplink connections not finished
};

/**
 * The parameter-server simulation of one run. Connections of one direction share the links of
 * that direction (DOWN: server NICs' send side, workers' receive side; UP: the reverse), so the
 * two directions are independent groups whose rates are computed separately.
 */
class FlowPsEngine
{
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
     * (CollectFlows, sharing model, ApplyRates). Every connection is then its own rate class
     * (a link private to one job's connection may carry another job's: no aggregation).
     * \param startTime when the workers begin their first step (s)
     * \param prioritySeq activation counter shared by the jobs (FCFS order across jobs)
     */
    void BeginShared(double startTime, uint64_t* prioritySeq);
    /** \return the time of the next pending event, infinity if none */
    double NextEventTime() const;
    /**
     * \brief Handle the next pending event (not before now).
     */
    void HandleNext();
    /** \param now the shared clock (s); the engine's present moves to it */
    void SetNow(double now);
    /** \return true when an active set changed since the last CollectFlows */
    bool IsDirty() const;
    /**
     * \brief Append a description of every active connection (DOWN, then UP) for the sharing
     * model; the engine counts them for ApplyRates.
     * \param flows where to append
     */
    void CollectFlows(std::vector<SharingModel::Flow>& flows);
    /**
     * \brief Take the rates of the connections CollectFlows described, in its order, and
     * schedule the next checks.
     * \param rates their rates (bytes/s)
     */
    void ApplyRates(const double* rates);

    // ---- the same with aggregation (flow-ps-shared.cc; SharedJob's calls) ----

    /**
     * \brief BeginShared; with links (plain max-min, one server), the connections aggregate
     * into rate classes as in the single-job engine, a link counting as private while no other
     * flow of any job crosses it (SharedLinks).
     * \param startTime when the workers begin their first step (s)
     * \param prioritySeq activation counter shared by the jobs
     * \param links every job's flows per link, or null (a class per connection)
     * \param id this job's id in links
     */
    void BeginShared(double startTime, uint64_t* prioritySeq, SharedLinks* links, uint32_t id);
    /**
     * \brief CollectFlows (weights 1), or with aggregation one aggregate per rate class.
     * \param flows where to append
     * \param weights where to append each one's connections
     */
    void CollectShared(std::vector<SharingModel::Flow>& flows, std::vector<double>& weights);
    /**
     * \brief ApplyRates, or with aggregation each class's rate (its aggregate's over its members).
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
     * \brief Plain max-min: one aggregate flow per rate class (weight = its members).
     * \param gi group index
     */
    void RecomputeAggregates(uint32_t gi);
    /**
     * \brief Any other model: every active connection its own flow, in activation order.
     * \param gi group index
     */
    void RecomputeEach(uint32_t gi);
    /**
     * \brief Fill m_flows with the group's active connections (dropping stale entries of its
     * list) and, with the window model, their caps.
     * \param gi group index
     */
    void DescribeActive(uint32_t gi);
    /**
     * \brief Each active connection of the group takes its rate (DescribeActive's order).
     * \param gi group index
     * \param rates the rates
     */
    void ApplyEach(uint32_t gi, const double* rates);
    /**
     * \brief FCFS: serve the connections in activation order, one server's at a time merged,
     * and stop on a server once its link is full (flow-ps-fcfs.cc).
     * \param gi group index
     */
    void RecomputeFcfs(uint32_t gi);
    /**
     * \brief FCFS: a connection that became active joins its server's queue.
     * \param ci connection index
     */
    void EnqueueFcfs(uint32_t ci);
    /**
     * \brief FCFS: the first live entry of a server's queue at or after pos (size if none).
     * \param g group
     * \param p server
     * \param pos position in its queue
     * \return the position
     */
    std::size_t NextLive(const Group& g, uint32_t p, std::size_t pos) const;
    /**
     * \brief FCFS: the rate of one connection by FcfsSharing::Serve, with the capacity left on
     * its links in this rate computation.
     * \param gi group index
     * \param ci connection index
     * \return its rate (bytes/s)
     */
    double ServeFcfs(uint32_t gi, uint32_t ci);
    /**
     * \brief Put a new class (nextTime INF) in its group's heap.
     * \param k rate class
     */
    void HeapInsert(uint32_t k);
    /**
     * \brief Take a released class out of its group's heap.
     * \param k rate class
     */
    void HeapRemove(uint32_t k);
    /**
     * \brief Restore the heap after k's nextTime changed.
     * \param k rate class
     */
    void HeapUpdate(uint32_t k);
    /**
     * \brief Sift the heap entry at position i up or down to its place.
     * \param g group
     * \param i position
     */
    void HeapFix(Group& g, std::size_t i);
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
     * \brief An activated connection's class: its own (any model), or by key (plain max-min).
     * \param ci connection index
     */
    void Classify(uint32_t ci);
    /**
     * \brief Plain max-min: count the connection on its links (+1 or -1); a link that goes from
     * one connection to two, or back to one, changes the key of the other one.
     * \param ci connection index
     * \param add true to add, false to remove
     */
    void CountLinks(uint32_t ci, bool add);
    /**
     * \param ci connection index
     * \return its class key with the current link counts (with P > 1, as a bundle member)
     */
    ClassKey KeyOf(uint32_t ci);
    /**
     * \brief With aggregation across jobs: count the connection's links in SharedLinks, and
     * re-key the connection of another job, or of this job's other direction, that had (or now
     * has) one of them alone.
     * \param ci connection index
     * \param add true to add, false to remove
     */
    void CountShared(uint32_t ci, bool add);

    /**
     * \param g group
     * \param l link
     * \return whether two or more flows cross l: the group's connections, or with aggregation
     *         across jobs every job's flows
     */
    bool IsSharedLink(const Group& g, uint32_t l) const
    {
        return m_links ? m_links->IsShared(l) : g.linkCount[l] >= 2;
    }

    /**
     * \param ci connection index
     * \return its key by its own links: those two connections cross, the others in the cap
     */
    ClassKey LinkKeyOf(uint32_t ci) const;
    /**
     * \brief P > 1: count the connection's worker on its links (flow-ps-bundles.cc) and rekey
     * every bundle whose signature may have changed.
     * \param ci connection index (just activated, or deactivated)
     * \param add true to add, false to remove
     * \param others connections whose link went from one connection to two or back
     * \param nOthers how many
     */
    void CountWorkers(uint32_t ci, bool add, const uint32_t* others, uint32_t nOthers);
    /**
     * \param ci connection index
     * \param l link
     * \return whether another active connection of its worker and direction crosses l
     */
    bool MateCrosses(uint32_t ci, uint32_t l) const;
    /**
     * \param g group
     * \param l link
     * \return whether two or more connections, all of one worker, cross l
     */
    bool IsBundleLink(const Group& g, uint32_t l) const;
    /**
     * \brief Fill m_bundle and m_private for the worker of ci.
     * \param ci connection index
     */
    void FindBundle(uint32_t ci);
    /**
     * \param gi group index
     * \return the first virtual link of the signature of m_bundle / m_private (new if none)
     */
    uint32_t BundleBase(uint32_t gi);
    /**
     * \brief P > 1: turn a connection's key into its bundle member's key (if its worker has
     * links to itself): its shared links, the virtual links of its private ones, its server.
     * \param ci connection index
     * \param key in: LinkKeyOf(ci); out: the member's key
     */
    void BundleKey(uint32_t ci, ClassKey& key);
    /**
     * \brief Virtual links' capacities: one bundle's times the bundles of their signature.
     * \param gi group index
     */
    void SetBundleCapacities(uint32_t gi);
    /**
     * \param gi group index
     * \param key a key
     * \return the group's class of that key (new if none)
     */
    uint32_t ClassOf(uint32_t gi, const ClassKey& key);
    /**
     * \brief Plain max-min: move an active connection to the class of its current key.
     * \param ci connection index
     */
    void Rekey(uint32_t ci);

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
     * \brief Window model: set m_flows[i].cap of group gi's active connections (WindowCap).
     * \param gi the group
     */
    void ComputeWindowCaps(uint32_t gi);
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
    std::vector<double> m_starts;      //!< with transfer records: per worker and layer, its start
    std::vector<double> m_usable;      //!< scratch: per layer, when its parameters are usable
    std::vector<uint32_t> m_byArrival; //!< scratch: layers in arrival order
    std::vector<uint32_t> m_fill;      //!< scratch: per server, segments written
    EventQueue m_queue;                //!< pending events
    uint64_t m_prioritySeq{0};         //!< activations so far
    double m_now{0};                   //!< current time (s)
    uint32_t m_barrierCount{0};        //!< sync: workers at barrier
    uint32_t m_warmDone{0};            //!< async: workers past warm-up
    bool m_counting{false};            //!< inside the measurement window
    bool m_windowClosed{false};        //!< async: window already closed
    std::vector<SharingModel::Flow> m_flows; //!< scratch: flows for the sharing model
    std::vector<double> m_rates;             //!< scratch: rates from the sharing model
    std::vector<uint32_t> m_order;           //!< scratch: transmission order
    std::vector<uint32_t> m_split;           //!< scratch: split streams / drained connections
    std::vector<uint8_t> m_flag;             //!< scratch: per-server flags
    std::vector<uint32_t> m_windowCount;     //!< window model: active connections per dir, server
    std::vector<double> m_weights;           //!< scratch: aggregate weights
    std::vector<uint32_t> m_touched;         //!< scratch: classes to refresh
    std::vector<RateClass> m_classes;        //!< rate classes (live or free)
    std::vector<ClassKey> m_keys;            //!< plain max-min: each class's key
    std::vector<uint32_t> m_freeClasses;     //!< classes without members
    bool m_plainMaxMin{false};               //!< the model is plain max-min: aggregate classes
    bool m_honourCaps{false};                //!< plain max-min honours the flow cap
    uint64_t* m_sharedSeq{nullptr};          //!< several jobs: the shared activation counter
    SharedLinks* m_links{nullptr};           //!< several jobs, aggregated: every job's link use
    uint32_t m_linkId{0};                    //!< this job's id in m_links
    std::size_t m_collected[2]{0, 0};        //!< several jobs: flows CollectFlows gave per group
    uint32_t m_realLinks{0};                 //!< links of the fabric (then virtual ones)
    std::vector<uint32_t> m_rekey;           //!< scratch: workers whose bundles to rekey
    std::vector<uint32_t> m_bundle;          //!< scratch: a worker's active connections
    std::vector<std::pair<uint32_t, uint64_t>> m_private; //!< scratch: (link, members mask)
    std::vector<uint64_t> m_sig;                          //!< scratch: a bundle signature
    bool m_fcfs{false};                //!< the model is FCFS: serve queue by queue
    std::vector<double> m_remaining;   //!< FCFS scratch: capacity left per link
    std::vector<uint32_t> m_linkRound; //!< FCFS scratch: round that set m_remaining
    std::vector<uint32_t> m_connRound; //!< FCFS scratch: round that served a connection
    uint32_t m_round{0};               //!< FCFS: rate computations so far
    std::vector<std::pair<uint64_t, uint32_t>> m_cursors; //!< FCFS scratch: (priority, server)
    std::vector<std::size_t> m_cursorPos; //!< FCFS scratch: per server, queue position
    std::vector<std::size_t> m_stack;     //!< scratch: heap positions to visit
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_PS_ENGINE_H */

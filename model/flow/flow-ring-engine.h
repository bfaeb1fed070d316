/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_RING_ENGINE_H
#define FLOW_RING_ENGINE_H

#include "flow-event-core.h"
#include "flow-ring-plan-executor.h"
#include "flow-run-options.h"
#include "flow-shared-job.h"

#include "ns3/collective-cost-model.h"
#include "ns3/compute-slowdown.h"
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
 * Ring AllReduce, sync (000 Sec. 3.2.2): no downlink; every worker runs forward and backward on
 * its own sampled step; gradients are fused into buckets in backward order; bucket b is reduced
 * by a ring AllReduce of its M_b bytes taking 2(K-1)/K * M_b / r + 2(K-1) * d
 * + (K-1)/K * M_b / reductionRate, where r is the rate the sharing model gives the K ring flows
 * w -> w+1 on their fabric paths (the full NIC under AllReduceSharing on the star; less where
 * ECMP puts two ring flows on one uplink) and d is the longest one-way path delay of a ring hop
 * (2 link delays on the star). With G GPUs per node an intra-node reduce and broadcast
 * (TrainingNetwork::GetIntraNodeHalfSeconds of M_b) come before and after the ring. Buckets are
 * reduced one after another; after the last each worker runs its optimizer step
 * (--workerUpdate: TrainingScenario::GetWorkerUpdateUs x its compute scale, stretched by its
 * slowdown episodes, as DDP's optimizer.step() after backward()), and its step ends and its next
 * forward starts when that is done. Nothing changes the ring flows' rates during a run, so the
 * engine evaluates each step in one pass instead of through the event heap.
 *
 * With --collective other than the ring (halving-doubling, tree, hierarchical) the steps, the
 * buckets and the intra-node phases are the same, and each bucket's inter-node AllReduce is its
 * AllReduceSchedule plan run by FlowRingPlanExecutor: its messages become flows when the
 * receives they wait for have arrived, at the rates the sharing model gives the flows active at
 * each moment. With --collective=nccl a bucket runs the ring's closed form or the tree's plan,
 * whichever CollectiveCostModel::Resolve picks for its size (on a multi-path fabric its ring
 * buckets take the ring's own ECMP paths, where the packet level's sockets may hash
 * differently). Several jobs on one fabric (BeginShared) run the ring only.
 */
class FlowRingEngine
{
  public:
    /**
     * \param in the run's inputs (the sharing model is asked once for the rate of the K ring
     *        flows)
     */
    explicit FlowRingEngine(const EngineInputs& in);

    /// Run every step.
    void Run();

    // ---- several jobs on one fabric (FlowJobSimulator, flow-ring-shared.cc) ----
    // A ring that crosses a link another job uses: each bucket's transfer is its K ring flows in
    // the shared rate computation instead of the closed form's one rate (SharedJob's calls).

    /// SharedJob::BeginShared: the first step's buckets, its first ring transfer pending.
    /// \param startTime when the workers begin (s) \param prioritySeq shared activation counter
    /// \param links every job's flows per link (aggregation), or null \param id the ring's id
    void BeginShared(double startTime, uint64_t* prioritySeq, SharedLinks* links, uint32_t id);
    /// \return the next bucket's ring start or the current transfer's end (INF: none)
    double NextEventTime() const;
    /// Start the next bucket's ring transfer (K flows), or end the current one.
    void HandleNext();
    /// \param now the shared clock (s)
    void SetNow(double now);
    /// \return true when ring flows began or ended since the last CollectShared
    bool IsDirty() const;
    /// The K ring flows (weight 1 each) while a transfer runs.
    /// \param flows where to append \param weights where to append their weights
    void CollectShared(std::vector<SharingModel::Flow>& flows, std::vector<double>& weights);
    /// The ring goes on at its slowest flow's rate. \param rates of CollectShared's flows
    void ApplyShared(const double* rates);

    /// \return whether every step ended (a shared run that stopped before: its ring had no rate)
    bool IsDone() const
    {
        return m_shared.done;
    }

    /// A ring flow never folds a link into a cap: nothing to re-key. \param l link \param now time
    void RekeyLink(uint32_t l, double now);

    std::vector<double> linkBytes; //!< per directed link: bytes carried in the window
    double ringRate{0};            //!< rate of the slowest ring flow (bytes/s); shared: lowest
    double hopDelay{0};            //!< longest one-way delay of a ring hop (seconds)
    uint64_t events{0};            //!< operations evaluated
    uint64_t rateComputations{0};  //!< sharing-model calls
    uint64_t sharingFlows{0};      //!< shared run: ring flows handed to the sharing model

  private:
    /**
     * \brief Give the ring flows their paths at a time, and the longest hop's delay.
     * \param t the time (s): --linkDown's links down then are routed around
     */
    void SetRingPaths(double t);

    /// The closed form's ring rate on the current paths (one job alone: its own sharing).
    void SetRingRate();

    /**
     * \brief The ring's own share of its links: no link carries more than its capacity.
     * \return min over the links of capacity / (ring flows crossing it), bytes/s
     */
    double OwnShareRate() const;

    /// A closed gradient bucket.
    struct Bucket
    {
        double bytes; //!< fused gradient bytes
        double close; //!< when it closed
    };

    /**
     * \brief Forward and backward of every worker from its start (m_workerStart): when each
     * layer's gradient is ready on the slowest worker (a bucket is reduced by all workers
     * together).
     * \param step step index
     */
    void ComputeReady(uint32_t step);
    /**
     * \brief Every worker's first step start (m_workerStart): start, after its start jitter.
     * \param start when the run begins
     */
    void BeginSteps(double start);
    /**
     * \brief The last bucket is reduced: each worker runs its optimizer step, its step is
     * recorded, and its next step starts when the step is done.
     * \param step step index
     * \param end when the last bucket was reduced
     * \return when the last worker is done (end without an optimizer step)
     */
    double EndStep(uint32_t step, double end);
    /**
     * \brief Tensor fusion (004 Sec. 2.2) with the packet level's rule, TensorFusion::FormBuckets.
     */
    void FormBuckets();
    /**
     * \brief Reduce the buckets one after another and record the ring transfers.
     * \param step step index
     * \param stepStart when the step started
     * \return when the last bucket is reduced (the step's end)
     */
    double ReduceBuckets(uint32_t step, double stepStart);
    /**
     * \param m a bucket's bytes
     * \param rate the ring flows' rate (INF: only the hop delays and the reduction)
     * \return the ring AllReduce's time: 2(K-1)/K m / rate + 2(K-1) d + (K-1)/K m / reductionRate
     */
    double RingSeconds(double m, double rate) const;
    /**
     * \brief The inter-node AllReduce of one bucket: the ring's closed form (RingSeconds, or
     * JitteredRingSeconds with --startJitter), or another collective's plan.
     * \param step step index
     * \param b bucket index
     * \param m the bucket's bytes
     * \return from its start to its end (s)
     */
    double AllReduceSeconds(uint32_t step, std::size_t b, double m);
    /**
     * \param m a bucket's bytes
     * \return whether its AllReduce runs a plan (FlowRingPlanExecutor) rather than the ring's
     *         closed form: every bucket of a collective other than the ring, and nccl's
     *         buckets that CollectiveCostModel::Resolve gives the tree
     */
    bool RunsPlan(double m) const;
    /**
     * \brief RingSeconds with --startJitter: the 2(K-1) rounds of K chunk transfers, each that
     * starts on an idle connection after its random delay.
     * \param step step index
     * \param b bucket index
     * \param m the bucket's bytes
     * \param rate the ring flows' rate (INF: only the hop delays and the reduction)
     * \return from the ring's start to the last chunk's arrival (s)
     */
    double JitteredRingSeconds(uint32_t step, std::size_t b, double m, double rate);
    /**
     * \param w worker
     * \param step step index
     * \param stepStart the step's start
     * \return when w begins the step: its first step after its start jitter
     */
    double StepStartOf(uint32_t w, uint32_t step, double stepStart) const;
    /**
     * \brief A bucket's ring transfer is done: its transfer records and window bytes.
     * \param step step index
     * \param b bucket index
     * \param ringStart when the ring began
     * \param ringEnd when it ended
     * \param carried bytes each ring flow sent on earlier paths (counted when re-pathed)
     */
    void RecordBucket(uint32_t step,
                      std::size_t b,
                      double ringStart,
                      double ringEnd,
                      double carried);
    /**
     * \brief Count bytes on every ring flow's current links, inside the window.
     * \param step the step they belong to (none before the warm-up ends)
     * \param bytes bytes per ring flow
     */
    void AddLinkBytes(uint32_t step, double bytes);
    /**
     * \brief RecordBucket for a collective's plan: each of its messages, as the packet level
     * records them.
     * \param step step index
     * \param b bucket index
     * \param ringStart when the AllReduce began
     */
    void RecordPlanMessages(uint32_t step, std::size_t b, double ringStart);
    /**
     * \brief Shared run: go on from the end of the last bucket: the next bucket's ring transfer
     * (its start time is the next event), or the step's end and the next step.
     */
    void NextBucket();
    /// Shared run: the current bucket's ring flows have sent their bytes.
    void TransferDone();
    /// Collective (FCFS) shared run: each link is presented once, by the first hop crossing it.
    void ClaimLinks();
    /// Shared run with aggregation: count the ring flows on their links (SharedLinks).
    /// \param add they begin
    void CountLinks(bool add);
    /// \return shared run: the time of the next --linkDown change to handle (INF: none)
    double NextLinkChange() const;
    /// Shared run: a link went down or came back; the ring flows take the rule's paths now (a
    /// transfer under way: its bytes so far stay counted on the old links).
    void LinkChanged();

    /// The shared run's state (BeginShared).
    struct Shared
    {
        uint64_t* seq{nullptr};      //!< activation counter shared by the jobs
        SharedLinks* links{nullptr}; //!< every job's flows per link (aggregation), or null
        uint32_t id{0};              //!< the ring's id in links
        double now{0};               //!< the shared clock
        uint32_t step{0};            //!< current step
        double stepStart{0};         //!< when it began
        std::size_t bucket{0};       //!< current bucket
        double prevEnd{0};           //!< when the previous bucket (or the step start) ended
        double intra{0};             //!< the current bucket's intra-node half (s)
        double ringStart{0};         //!< when its ring transfer starts
        bool transferring{false};    //!< its ring flows are active
        double remaining{0};         //!< bytes each ring flow has left
        double rate{0};              //!< the ring's rate: its slowest flow's (bytes/s)
        bool rated{false};           //!< a rate was applied to this transfer
        bool oneRate{true};          //!< the transfer kept one rate (closed form applies)
        double last{0};              //!< time up to which remaining is accounted
        double next{INF};            //!< the next event's time
        uint64_t priority{0};        //!< activation order of ring flow 0 (flow w: + w)
        bool dirty{false};           //!< flows began or ended since the last CollectFlows
        bool done{false};            //!< every step ended
        std::size_t change{0};       //!< --linkDown: the next change of the links down
        double carried{0};           //!< bytes each ring flow sent on earlier paths (re-pathed)
    };

    const TrainingProfile& m_profile;           //!< the DNN
    const TrainingScenario& m_scenario;         //!< the scenario
    const FlowFabric& m_fabric;                 //!< the placed fabric (paths, --linkDown)
    uint32_t m_epoch{0};                        //!< LinkFailures' epoch of m_paths
    FlowRunOptions m_options;                   //!< run options
    TrainingResult& m_result;                   //!< records go here
    TrainingProfile::StepTimes m_mean;          //!< the mean step
    std::vector<std::vector<uint32_t>> m_paths; //!< per worker w: the links of ring flow w -> w+1
    std::vector<uint64_t> m_layerBytes;         //!< per layer: parameter bytes
    std::vector<double> m_ready;                //!< per layer: gradient ready on every worker
    std::vector<double> m_workerStart;          //!< per worker: when its current step began
    double m_workerUpdate;                      //!< the optimizer step, unscaled (s)
    std::vector<Bucket> m_buckets;              //!< this step's buckets
    double m_flowCap;                           //!< per-flow cap (bytes/s)
    const SharingModel& m_sharing;              //!< the sharing model
    /// FCFS shared run: the ring's hops arrive together and take their turn as one (else a hop
    /// that finds its link taken by an earlier hop of the same ring would wait for it forever)
    bool m_collective{false};
    std::vector<std::vector<uint32_t>> m_claimed; //!< collective: per hop, links no earlier hop has
    std::vector<double> m_multiplicity; //!< collective: per hop, most hops on one of its links
    Shared m_shared;                    //!< shared run's state
    StartJitter m_jitter;               //!< --startJitter's delays
    ComputeSlowdown m_slowdown;         //!< --slowdown's and --stragglers' episodes
    /// --collective other than the ring: each bucket's plan (null for the ring)
    std::unique_ptr<FlowRingPlanExecutor> m_plan;
    /// --collective (Validate checked the name)
    AllReduceSchedule::Algorithm m_algorithm{AllReduceSchedule::RING};
    CollectiveCostModel::Params m_cost; //!< nccl: the cost model that picks ring or tree
    std::vector<double> m_sent;         //!< jitter scratch: per worker, its last chunk sent
    std::vector<double> m_arrived;      //!< jitter scratch: per worker, that chunk's arrival
    std::vector<double> m_nextArrived;  //!< jitter scratch: the round being computed
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_RING_ENGINE_H */

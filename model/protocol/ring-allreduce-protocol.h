/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RING_ALLREDUCE_PROTOCOL_H
#define RING_ALLREDUCE_PROTOCOL_H

#include "allreduce-schedule.h"
#include "training-protocol.h"

#include "ns3/collective-cost-model.h"
#include "ns3/tensor-fusion.h"

#include <map>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief One node of an AllReduce job, independent of the transport: forward, backward, buckets
 * formed by TensorFusion::FormBuckets and closed by size or the fusion timeout, one bucket at a
 * time (from the first closed during backward with overlap, after backward without), the
 * intra-node reduce before and broadcast after (GPUs per node > 1), and each bucket's
 * inter-node AllReduce executed from its AllReduceSchedule plan (ring, halving-doubling or
 * double binary tree).
 *
 * The plan engine: a send goes once every receive it waits for has arrived, in plan order; a
 * send that carries received data marked `reduce` and not yet reduced waits for the reduction
 * (their bytes / ReductionRate) and holds the sends behind it (one reducer, whose output the
 * send forwards); the bucket is done when every send went and every receive arrived. Messages
 * are matched by (step, bucket, sender, tag): TensorChunkHeader's worker and aux. For the ring
 * this is the schedule of 2(K-1) rounds to the successor, round r carrying chunk (w - r) mod K,
 * a reduce-scatter round's chunk reduced before it is forwarded. After the last bucket the
 * worker runs its optimizer step (RingConfig::workerUpdateUs, compute like forward and
 * backward) and the step ends; the next forward starts then (DDP's optimizer.step() after
 * backward() returns, Horovod's DistributedOptimizer likewise).
 *
 * The transport holds one connection per (peer, channel) this node sends on (GetSendPeers(),
 * transport peer i is GetSendPeers()[i]; the tree has a channel per tree) and accepts one for
 * each (peer, channel) that sends to it (GetReceivePeers()).
 * RingAllReduceApplication carries it over ns-3 TCP, LinuxRingNode over kernel TCP.
 */
class RingAllReduceProtocol
{
  public:
    /// The ring and its tensor fusion.
    struct RingConfig
    {
        uint32_t workers{1};     //!< K
        uint64_t bucketBytes{0}; //!< Q
        uint64_t firstBucket{0}; //!< first bucket size (0: Q)
        Time fusionTimeout;      //!< fusion timeout (0: none)
        double reductionRate{0}; //!< bytes/s of reducing a received chunk (0: free)
        /// the collective each bucket's AllReduce runs
        AllReduceSchedule::Algorithm collective{AllReduceSchedule::RING};
        uint64_t treeChunkBytes{512 * 1024}; //!< pipelining unit of the double binary tree
        /// the worker's optimizer step after the last bucket, profile microseconds (0: none)
        double workerUpdateUs{0};
        /// HIERARCHICAL: each worker's group (AllReduceSchedule::PlanAll)
        std::vector<uint32_t> groups{};
        /// NCCL: the cost model that picks each bucket's algorithm (CollectiveCostModel::Resolve)
        CollectiveCostModel::Params cost{};

        /**
         * \param s a scenario
         * \param profile its DNN (the worker's optimizer step)
         * \return its ring
         */
        static RingConfig FromScenario(const TrainingScenario& s, const TrainingProfile& profile);
    };

    /**
     * \param transport clock, timer and the connections to GetSendPeers()
     * \param profile the DNN
     * \param config this node (index: its position w)
     * \param ring the ring
     * \param rng the stream of step sampling and of the start jitter
     */
    RingAllReduceProtocol(ProtocolTransport& transport,
                          std::shared_ptr<const TrainingProfile> profile,
                          const WorkerConfig& config,
                          const RingConfig& ring,
                          Ptr<UniformRandomVariable> rng);
    ~RingAllReduceProtocol();
    RingAllReduceProtocol(const RingAllReduceProtocol&) = delete;
    RingAllReduceProtocol& operator=(const RingAllReduceProtocol&) = delete;

    /// One of the connections to GetSendPeers() is up.
    void OutgoingUp();
    /// One of GetReceivePeers() connected.
    void IncomingUp();
    /// Start the steps once every connection is up (at once with K = 1).
    void MaybeStart();
    /**
     * \brief Handle one chunk of an AllReduce message from a peer.
     * \param header the message
     */
    void Receive(const TensorChunkHeader& header);
    /**
     * \return the node of each connection this node opens, ascending (a node twice when two
     *         channels lead to it): the transport's peers 0, 1, ...
     */
    const std::vector<uint32_t>& GetSendPeers() const;
    /** \return the node of each connection this node accepts, ascending */
    const std::vector<uint32_t>& GetReceivePeers() const;
    /// Stop: ignore what arrives and what was scheduled (the application stopped).
    void Stop();
    /** \return the buckets */
    const std::vector<TensorFusion::Bucket>& GetBuckets() const;
    /** \return steps completed */
    uint32_t GetStepsCompleted() const;
    /** \return chunks received more than once */
    uint64_t GetDuplicateChunks() const;
    /**
     * \param bucketBytes a bucket's size M
     * \param workers K
     * \param chunk chunk index c
     * \return bytes of chunk c: M / K, the last one the rest
     */
    static uint64_t ChunkBytes(uint64_t bucketBytes, uint32_t workers, uint32_t chunk);
    /**
     * \param index position w
     * \param workers K
     * \param round round r (0 .. 2(K-1)-1)
     * \return the chunk node w sends in round r: (w - r) mod K
     */
    static uint32_t ChunkOfRound(uint32_t index, uint32_t workers, uint32_t round);

  private:
    /// (step, bucket, sender, tag) of a message.
    using ChunkKey = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>;

    /// Plan each bucket's AllReduce and collect the peers.
    void PlanBuckets();
    /// \return the first unsent send of the current plan whose receives arrived, or -1
    int64_t NextReadySend() const;
    /**
     * \param send a send of the current plan
     * \param bytes set to the bytes of the receives it waits for that are to be reduced and
     *        are not yet
     * \return whether there is such a receive
     */
    bool NeedsReduction(uint32_t send, uint64_t& bytes) const;
    /**
     * \brief Schedule fn, skipped if the node stopped first (a cancelled event).
     * \param delay the delay
     * \param fn what to run
     */
    void ScheduleWhileRunning(const Time& delay, void (RingAllReduceProtocol::*fn)());
    /// Begin step m_step: draw its times and run forward.
    void StartStep();
    /// The whole forward finished.
    void ForwardDone();
    /// Run the backward of layer m_nextBackward.
    void ScheduleBackward();
    /// A backward layer finished.
    void BackwardDone();
    /**
     * \param step the step
     * \param bucket a bucket that closed (by size or timeout)
     */
    void BucketClosed(uint32_t step, uint32_t bucket);
    /// Start the next bucket if allowed.
    void TryStartBucket();
    /**
     * \brief Run next after the current bucket's intra-node reduce or broadcast (at once with one
     * GPU per node).
     * \param next what follows
     */
    void AfterIntraNode(void (RingAllReduceProtocol::*next)());
    /// Start the inter-node AllReduce of the current bucket.
    void StartRing();
    /// Send what can be sent.
    void Advance();
    /// The reduction before a send finished.
    void ReductionDone();
    /** \param send send this message of the current plan */
    void SendMessage(uint32_t send);
    /// The current bucket's inter-node AllReduce finished.
    void RingDone();
    /// The current bucket finished (after the intra-node broadcast).
    void BucketDone();
    /// Every bucket is reduced: the worker's optimizer step, then StepDone().
    void RunWorkerUpdate();
    /// The step ended (its optimizer step too): record it and start the next.
    void StepDone();

    ProtocolTransport& m_transport;                   //!< clock, timer, connection
    std::shared_ptr<const TrainingProfile> m_profile; //!< the DNN
    WorkerConfig m_config;                            //!< this node
    RingConfig m_ring;                                //!< the ring
    Ptr<UniformRandomVariable> m_rng;                 //!< step sampling
    TrainingProfile::StepTimes m_mean;                //!< mean step, when not sampling
    std::vector<TensorFusion::Bucket> m_buckets;      //!< bucket membership
    std::vector<uint32_t> m_bucketOfLayer;            //!< bucket index of each layer
    /// per bucket: this node's plan
    std::vector<AllReduceSchedule::NodePlan> m_plans;
    /// per bucket: (sender, tag) -> index of the receive
    std::vector<std::map<std::pair<uint32_t, uint32_t>, uint32_t>> m_receiveIndex;
    std::vector<uint32_t> m_sendPeers;    //!< node of each outgoing connection
    std::vector<uint32_t> m_receivePeers; //!< node of each incoming connection
    /// (node, channel) -> transport peer index
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_peerSlot;
    std::size_t m_outUp{0}; //!< connections to send peers that are up
    std::size_t m_inUp{0};  //!< receive peers that connected
    bool m_started{false};  //!< step 0 began
    /// Not stopped; shared with the scheduled events, which outlive a destroyed node
    std::shared_ptr<bool> m_running{std::make_shared<bool>(true)};
    uint32_t m_step{0};                     //!< current step
    StepDraw m_draw;                        //!< this step's times
    Time m_stepStart;                       //!< when the step began
    int64_t m_nextBackward{-1};             //!< next layer to run backward
    bool m_backwardDone{false};             //!< the whole backward of the step is done
    std::vector<Time> m_firstReady;         //!< per bucket: when its first gradient was ready
    std::vector<bool> m_closed;             //!< per bucket: closed in this step
    uint32_t m_nextBucket{0};               //!< next bucket to reduce
    bool m_bucketBusy{false};               //!< a bucket is being reduced
    bool m_ringActive{false};               //!< the inter-node ring of the bucket is running
    bool m_reducing{false};                 //!< waiting for a reduction delay
    std::vector<bool> m_sent;               //!< current plan: sends that went
    std::vector<bool> m_have;               //!< current plan: receives that arrived
    std::vector<bool> m_reduced;            //!< current plan: receives reduced
    std::size_t m_firstUnsent{0};           //!< current plan: sends before it all went
    std::size_t m_sentCount{0};             //!< current plan: sends that went
    std::size_t m_haveCount{0};             //!< current plan: receives that arrived
    uint32_t m_reducingFor{0};              //!< the send waiting for the reduction
    Time m_ringStart;                       //!< when the current bucket's ring began
    Time m_ringEnd;                         //!< when the current bucket's last chunk arrived
    std::map<ChunkKey, uint64_t> m_partial; //!< payload received of incomplete chunks
    /// complete chunks: times received, bytes
    std::map<ChunkKey, std::pair<uint32_t, uint64_t>> m_arrived;
    uint64_t m_duplicates{0}; //!< chunks received twice
    uint32_t m_completed{0};  //!< steps completed
};

} // namespace ns3

#endif /* RING_ALLREDUCE_PROTOCOL_H */

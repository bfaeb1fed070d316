/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_SCENARIO_H
#define TRAINING_SCENARIO_H

#include "compute-slowdown.h"
#include "worker-absences.h"

#include "ns3/data-rate.h"
#include "ns3/link-failures.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{

class FabricTopology;
class TrainingProfile;
class TrainingResult;

/**
 * \ingroup distributed-training
 * \brief Everything about a distributed training run except the DNN itself: the architecture,
 * the cluster and its network, and the run length. Every backend reads the same scenario.
 *
 * Defaults are a small real cluster: sync parameter server, 4 workers, 1 server, 10 Gbps NICs,
 * overlap off, no per-flow cap, TCP Cubic (ns-3.37's default), MTU 1500.
 */
class TrainingScenario
{
  public:
    /// Training architecture.
    enum Architecture
    {
        PARAMETER_SERVER, //!< workers pull parameters from / push gradients to servers
        RING_ALLREDUCE,   //!< decentralised: ring AllReduce of gradient buckets
    };

    /// Synchronisation of the workers.
    enum Mode
    {
        SYNC,  //!< barrier at the servers after every step
        ASYNC, //!< each worker runs its own steps
    };

    /// Order in which a server sends the tensors of one step down to a worker.
    enum TransmissionOrder
    {
        FORWARD_ORDER, //!< first layer first (what forward needs first)
        REVERSE_ORDER, //!< last layer first
        RANDOM_ORDER,  //!< random permutation each step (seeded)
    };

    /// How layers are assigned to parameter servers (001 Sec. 5).
    enum Partition
    {
        GREEDY_PARTITION,      //!< each layer, in forward order, to the server holding fewest bytes
        ROUND_ROBIN_PARTITION, //!< layer l to server l mod P
    };

    /// Where the parameter servers run (--serverPlacement, doc/reference/fabric.rst).
    enum ServerPlacement
    {
        SEPARATE_SERVERS,  //!< every server on a host of its own
        COLOCATED_SERVERS, //!< server p on a worker's host (worker p's unless a list says)
    };

    /// What a ring worker's optimizer step takes (--workerUpdate).
    enum WorkerUpdateSource
    {
        PROFILE_WORKER_UPDATE, //!< the profile's worker_update_us (0 with a note when absent)
        NO_WORKER_UPDATE,      //!< none: a ring step is forward + backward + AllReduce
        FIXED_WORKER_UPDATE,   //!< workerUpdate, whatever the profile holds
    };

    /// Value of bucketBytes meaning "one bucket after the whole backward pass" (Q = infinity).
    static constexpr uint64_t UNLIMITED_BUCKET = std::numeric_limits<uint64_t>::max();

    // ---- architecture -------------------------------------------------------------------
    Architecture architecture{PARAMETER_SERVER}; //!< --arch=ps|ring
    Mode mode{SYNC};                             //!< --mode=sync|async
    uint32_t workers{4};                         //!< K, number of workers (or nodes)
    uint32_t servers{1};                         //!< P, number of parameter servers
    bool overlap{false}; //!< overlap communication with computation (000 Eq. (6), (10))
    TransmissionOrder order{FORWARD_ORDER}; //!< downlink tensor order
    uint64_t windowBytes{0};                //!< WIN of 001 Sec. 3.2.2 (0 = whole tensors in order)
    Partition partition{GREEDY_PARTITION};  //!< layer-to-server assignment
    /// --serverPlacement: servers on hosts of their own, or co-located with workers (one NIC
    /// carries a host's worker's and server's traffic; the local shard is reached without it)
    ServerPlacement serverPlacement{SEPARATE_SERVERS};
    /// Compute time multiplier: empty = all 1; one value = every worker; else one per worker.
    std::vector<double> computeScale;

    // ---- ring AllReduce / tensor fusion (004 Sec. 2.2) ----------------------------------
    uint64_t bucketBytes{0};        //!< fusion threshold Q (0 = one AllReduce per layer)
    uint64_t firstBucketBytes{0};   //!< size of the first bucket (PyTorch DDP: 1 MB; 0 = Q)
    Time fusionTimeout{Seconds(0)}; //!< fusion cycle time (0 = none)
    double reductionRate{0};        //!< bytes/s of reducing a received chunk (0 = free)
    uint32_t gpusPerNode{1};        //!< G, GPUs per node (intra-node reduction first)
    DataRate intraBandwidth{DataRate("300Gbps")}; //!< intra-node interconnect
    Time intraLatency{MicroSeconds(5)};           //!< intra-node per-message latency
    /// --collective: the AllReduce algorithm of each bucket (AllReduceSchedule::GetNames():
    /// ring, halving-doubling, tree, hierarchical; nccl: ring or tree per bucket)
    std::string collective{"ring"};
    /// --groupSize: workers per group of --collective=hierarchical (0: the workers under one
    /// leaf switch form a group)
    uint32_t groupSize{0};
    /// --treeChunk: pipelining unit of the double binary tree (512 KiB: NCCL's order of
    /// magnitude, its default chunk of a tree channel)
    uint64_t treeChunkBytes{512 * 1024};
    /// --workerUpdate: where a ring worker's whole-model optimizer step comes from (it runs
    /// after the last bucket's AllReduce and before the next forward, as DDP and Horovod do)
    WorkerUpdateSource workerUpdateSource{PROFILE_WORKER_UPDATE};
    Time workerUpdate{Seconds(0)}; //!< FIXED_WORKER_UPDATE: the optimizer step's time

    // ---- network ------------------------------------------------------------------------
    DataRate nicRate{DataRate("10Gbps")}; //!< every point-to-point link's rate
    DataRate flowCap{DataRate(0)};        //!< per-flow rate cap (0 = none), e.g. 10 G on 25 G
    Time linkDelay{MicroSeconds(10)};     //!< one-way propagation delay of each link
    std::string queueSize{"1000p"};       //!< device queue size (ns-3 QueueSize syntax)
    std::string queueDisc{"none"};        //!< traffic-control queue disc TypeId, or "none"
    std::string tcpVariant{"TcpCubic"};   //!< ns-3 TCP congestion control (TypeId name)
    uint32_t mtu{1500};                   //!< bytes (1500 or 9000)
    /// TCP send buffer of every training socket in bytes; 0: the automatic rule of
    /// TrainingNetwork::GetSocketBufferBytes() (every backend uses the same one).
    uint32_t sendBufferBytes{0};

    // ---- congestion (packet backend only; doc/reference/congestion.rst)
    // ----------------------------
    Time minRto{MilliSeconds(200)}; //!< TCP minimum retransmission timeout
    std::string hostQueueSize;      //!< host NIC buffer; empty: queueSize (switch and hosts)
    /// Linux socket-buffer autotuning (tcp_wmem/tcp_rmem, LinuxBufferTuner) instead of fixed
    /// buffers; the flow backend's window model takes its limit (TrainingNetwork).
    bool bufferAutotuning{false};
    /// Linux's delayed ACKs (an ACK per two full segments, or after 40 ms) instead of the
    /// module's ACK per segment (packet backend).
    bool delayedAck{false};
    /// Linux's TCP small queues (TcpSmallQueuesSocket): a socket keeps only about 1 ms of its
    /// pacing rate (at least two of its skbs, 64 KiB each at datacenter RTTs) in its host's
    /// queues (packet backend).
    bool tcpSmallQueues{false};
    /// Host TCP defaults: "ns3" (the module's: ns-3 TCP, one ACK per segment) or "linux"
    /// (ApplyHostModel: Linux's algorithms and defaults, doc/reference/congestion.rst).
    std::string hostModel{"ns3"};
    /// How an application hands bytes to its sockets (--writePattern): "event-loop" (one thread
    /// writes every connection from one event loop) or "thread-per-connection" (each connection
    /// written by a thread of its own with blocking writes, as gRPC-based parameter servers and
    /// many collective libraries do). The linux backend runs it; in ns-3 the two are the same
    /// (applications write in zero simulated time, doc/reference/backend-linux.rst).
    std::string writePattern{"event-loop"};
    bool ecn{false}; //!< TCP negotiates ECN and queue discs with a UseEcn attribute mark
    /// Background traffic through the switch: "none", "bulk" (BulkSend, TCP) or "onoff".
    std::string crossTraffic{"none"};
    uint32_t crossFlows{1};            //!< cross flows, one extra host each
    DataRate crossRate{DataRate(0)};   //!< onoff: mean offered load of all cross flows together
    std::string crossTarget{"server"}; //!< "server" (server 0's port) or "worker" (worker 0's)
    std::string crossProtocol{"udp"};  //!< onoff: "udp" or "tcp" (bulk is always TCP)

    // ---- fabric (FabricTopology, doc/reference/fabric.rst)
    // -------------------------------------------
    std::string topology{"star"};     //!< star, leafspine, fattree, or a JSON topology file
    std::string placement{"packed"};  //!< packed, spread, random, or a host list "0,4,8"
    uint32_t leaves{4};               //!< leafspine: leaf (top-of-rack) switches
    uint32_t spines{2};               //!< leafspine: spine switches
    uint32_t hostsPerLeaf{0};         //!< leafspine: hosts per leaf (0: enough for every role)
    uint32_t fatTreeK{4};             //!< fattree: switch radix k (even; k^3/4 hosts)
    DataRate uplinkRate{DataRate(0)}; //!< switch-switch links (0: nicRate)
    uint64_t ecmpSeed{1};             //!< seed of the per-flow ECMP hash

    // ---- run ----------------------------------------------------------------------------
    uint32_t steps{20};     //!< steps per worker (sync: global steps)
    uint32_t warmup{2};     //!< first steps excluded from throughput (001: 50 of 1000)
    uint64_t seed{1};       //!< RNG seed (step sampling, random order)
    bool sampleSteps{true}; //!< draw each step from the profile's samples (if any)
    /// Largest random delay of each worker's first step and of every transfer start on an idle
    /// connection (packet and flow backends; uniform, from the run's random streams, so --seed
    /// changes it; 0: none).
    Time startJitter{Seconds(0)};
    /// --slowdown: straggler episodes, each slowing one worker's compute for a while (packet
    /// and flow backends; ComputeSlowdown is the rule)
    std::vector<SlowdownEpisode> slowdown;
    /// --stragglers: episodes drawn per worker with --seed (off by default)
    StragglerProcess stragglers;
    /// --leave: windows in which an async PS worker is away from the job (packet and flow
    /// backends; WorkerAbsences is the rule)
    std::vector<LeaveWindow> leave;

    /// --linkDown: switch-to-switch links that fail for a while (packet and flow backends;
    /// LinkFailures is the re-routing rule)
    std::vector<LinkOutage> linkDown;

    /// \return whether --slowdown or --stragglers give episodes
    bool HasSlowdown() const;

    /**
     * \brief Check the scenario on its own and against a profile.
     * \param profile the DNN to be trained
     * \throws TrainingInputError naming the option and what was expected
     */
    void Validate(const TrainingProfile& profile) const;

    /** \return every input as a JSON object (text), for the result files */
    std::string ToJson() const;

    /**
     * \brief Check the fabric fields (topology, placement, leaf-spine and fat-tree sizes) and
     * build the fabric once, which checks a topology file and the placement.
     * \throws TrainingInputError naming the option or the file
     */
    void ValidateFabric() const;

  private:
    /// Validate(): workers, servers, mode and per-worker compute scales.
    void ValidateArchitecture(const TrainingProfile& profile) const;
    /// ValidateArchitecture(): the collective's name, its architecture and the tree chunk.
    void ValidateCollective() const;
    /// ValidateFabric()'s last check: the groups of --collective=hierarchical.
    void ValidateGroups() const;
    /// Validate(): rates, cap, delay, MTU, queues, host model, jitter and minimum RTO.
    void ValidateNetwork() const;
    /// ValidateArchitecture(): co-located servers need --arch=ps and servers <= workers.
    void ValidateServerPlacement() const;
    /// Validate(): the cross-traffic options.
    void ValidateCrossTraffic() const;
    /// Validate(): steps, warm-up, multi-GPU nodes and tensor fusion.
    void ValidateSteps() const;

  public:
    /**
     * \param worker worker index
     * \return the compute time multiplier of that worker (1 when computeScale is empty)
     */
    double GetComputeScale(uint32_t worker) const;

    /**
     * \brief The scenario as a run dilated by D executes it (the linux backend's Dilation, and
     * the packet backend's twin of it): every rate / D (NIC, cap, uplinks, cross traffic,
     * intra-node interconnect, ring reduction) and every scenario time x D (fusion cycle,
     * intra-node latency, start jitter, straggler episodes). What a dilated linux run does not
     * scale stays: the link delay (the testbed's path delay is its own, real time) and the minimum
     * RTO (a kernel constant); the profile's compute times are scaled by the caller
     * (TrainingProfile::ScaleComputeTimes).
     * \param dilation D >= 1
     * \return the dilated scenario
     */
    TrainingScenario Dilated(double dilation) const;

    /**
     * \brief Assign layers to servers (001 Sec. 5): greedy by size in forward order, or
     * round-robin.
     * \param profile the DNN
     * \return the server index of each layer
     */
    std::vector<uint32_t> AssignLayersToServers(const TrainingProfile& profile) const;

    /**
     * \brief The one rule of a ring worker's optimizer step (every backend asks it): 0 with
     * --arch=ps (the servers apply the updates) or --workerUpdate=none; the given time; or the
     * profile's worker_update_us (0 when it has none).
     * \param profile the DNN
     * \return the step's time before the worker's compute scale, microseconds
     */
    double GetWorkerUpdateUs(const TrainingProfile& profile) const;
    /**
     * \param profile the DNN
     * \return the note a result carries about the worker's optimizer step ("" for none): a ring
     *         whose profile has no worker time, or --workerUpdate given with --arch=ps
     */
    std::string GetWorkerUpdateNote(const TrainingProfile& profile) const;
    /**
     * \brief What every backend's result says about the worker's optimizer step: its
     * GetWorkerUpdateNote() and, when a ring worker runs one, its time as input T_U_worker_s.
     * \param result the result
     * \param profile the DNN
     */
    void NoteWorkerUpdate(TrainingResult& result, const TrainingProfile& profile) const;
    /// \return "profile", "none" or the time (--workerUpdate's value)
    std::string GetWorkerUpdateName() const;

    /// \return "ps" or "ring"
    std::string GetArchitectureName() const;
    /// \return "sync" or "async"
    std::string GetModeName() const;
    /// \return "forward", "reverse" or "random"
    std::string GetOrderName() const;
    /// \return "greedy" or "round-robin"
    std::string GetPartitionName() const;
    /// \return "separate" or "colocated"
    std::string GetServerPlacementName() const;
    /// \return true for parameter servers on their workers' hosts (--serverPlacement=colocated)
    bool IsColocated() const;

    /**
     * \brief The groups of --collective=hierarchical: with --groupSize g, worker w is in group
     * w / g; without it, the workers whose hosts hang below one switch form a group (a leaf of
     * the fabric of BuildFabric()), numbered in the order of their first worker.
     * \return each worker's group (empty unless --collective=hierarchical)
     * \throws TrainingInputError for a bad fabric
     */
    std::vector<uint32_t> GetCollectiveGroups() const;

    /**
     * \param role a role: workers first, then servers (--arch=ps)
     * \return its host's name, "worker<i>" or "server<p>" (every backend's name for it)
     */
    std::string GetRoleName(uint32_t role) const;

    /**
     * \brief The fabric of this scenario with its roles placed: star (one host per role),
     * leafspine, fattree or a JSON file (topology), host links at nicRate / linkDelay /
     * queueSize, switch-switch links at uplinkRate (nicRate if 0), ECMP seed ecmpSeed; roles
     * (workers, then servers with --arch=ps) placed by placement and their hosts renamed
     * GetRoleName().
     * \return the placed fabric
     * \throws TrainingInputError for a bad file, too few hosts or a bad placement
     */
    FabricTopology BuildFabric() const;

    /**
     * \brief The hosts of the roles with co-located servers (BuildFabric): the workers placed by
     * placement, server p on worker p's host; a list of K + P hosts places the workers by its
     * first K and gives each server one of their hosts (a map; two servers never share one).
     * \param t the unplaced fabric
     * \return the host of each role, workers then servers
     * \throws TrainingInputError for a bad list or a server on a host without a worker
     */
    std::vector<uint32_t> PlaceColocated(const FabricTopology& t) const;

    /**
     * \brief This scenario's fabric before placement (BuildFabric without its last step): a
     * star gets one host per role, a leaf-spine without hostsPerLeaf just enough hosts for them.
     * \param roles roles the fabric must hold (sizes the star and an unsized leaf-spine)
     * \return the fabric, no role placed
     * \throws TrainingInputError for a bad topology file
     */
    FabricTopology BuildUnplacedFabric(uint32_t roles) const;

    /**
     * \brief Parse an option value (shared by the driver and tests).
     * \param option option name for the message, e.g. "--arch"
     * \param value the text
     * \throws TrainingInputError naming the option and the accepted values
     */
    void SetArchitecture(const std::string& option, const std::string& value);
    /** \copydoc SetArchitecture */
    void SetMode(const std::string& option, const std::string& value);
    /** \copydoc SetArchitecture */
    void SetOrder(const std::string& option, const std::string& value);
    /** \copydoc SetArchitecture */
    void SetPartition(const std::string& option, const std::string& value);
    /** \copydoc SetArchitecture */
    void SetServerPlacement(const std::string& option, const std::string& value);
    /**
     * \brief Parse --workerUpdate: profile, none, or a time from 0 to one hour (e.g. 5ms).
     * \param option option name for the message
     * \param value the text
     * \throws TrainingInputError naming the option and the accepted values
     */
    void SetWorkerUpdate(const std::string& option, const std::string& value);
    /**
     * \brief Set the tensor-fusion parameters (bucketBytes, firstBucketBytes, fusionTimeout) to
     * a framework's defaults. Nothing else changes (overlap stays as set).
     *  - "ddp": PyTorch DistributedDataParallel, bucket_cap_mb=25 (bucket_bytes_cap =
     *    25 * 1024 * 1024) and the first bucket dist._DEFAULT_FIRST_BUCKET_BYTES = 1 MiB; no
     *    timeout (DDP launches a bucket when all its gradients are ready).
     *  - "horovod": Horovod up to 0.20, the version 004_87a6f364a233f56c.txt measured:
     *    HOROVOD_FUSION_THRESHOLD = 64 MiB (67108864, docs/tensor-fusion.md) and
     *    HOROVOD_CYCLE_TIME = 5 ms.
     *  - "horovod-0.21": Horovod 0.21.0 and later, 128 MiB and 1 ms (CHANGELOG v0.21.0: "Changed
     *    default cycle time from 5ms to 1ms and fusion threshold from 64MB to 128MB", #2468).
     * \param option option name for the message, e.g. "--preset"
     * \param name ddp, horovod or horovod-0.21
     * \throws TrainingInputError naming the option and the accepted values
     */
    void ApplyPreset(const std::string& option, const std::string& name);
    /**
     * \brief Apply a host model (--hostModel): "ns3" keeps the module's ns-3 TCP; "linux" sets
     * hostModel (TrainingClusterHelper then runs Linux's CUBIC or Reno) and turns on delayed
     * ACKs, buffer autotuning, TCP small queues and a start jitter of LINUX_START_JITTER_US.
     * Options given with
     * it override what it sets (ScenarioOptions applies it first).
     * \param option option name for the message, e.g. "--hostModel"
     * \param name ns3 or linux
     * \throws TrainingInputError naming the option and the accepted values
     */
    void ApplyHostModel(const std::string& option, const std::string& name);
    /**
     * \brief Check a write pattern (writePattern, --writePattern).
     * \param option option name for the message, e.g. "--writePattern"
     * \param name the pattern
     * \throws TrainingInputError naming the option unless name is event-loop or
     *         thread-per-connection
     */
    static void CheckWritePattern(const std::string& option, const std::string& name);

    /// The start jitter of --hostModel=linux (the spread of "simultaneous" transfer starts).
    static constexpr int64_t LINUX_START_JITTER_US = 20;

    /**
     * \brief Parse a per-worker compute scale list: "1.0" (all workers), or "1,1,2,2"
     * (one per worker), or "1x2,2x2" (value x count).
     * \param option option name
     * \param value the text
     */
    void SetComputeScale(const std::string& option, const std::string& value);
};

} // namespace ns3

#endif /* TRAINING_SCENARIO_H */

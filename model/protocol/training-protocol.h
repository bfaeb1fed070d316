/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_PROTOCOL_H
#define TRAINING_PROTOCOL_H

#include "tensor-chunk-header.h"

#include "ns3/compute-slowdown.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/training-profile.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"
#include "ns3/worker-absences.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief A ring bucket reduced at one node (RingAllReduceApplication's BucketCompleted trace).
 */
struct BucketRecord
{
    uint32_t worker; //!< the node
    uint32_t step;   //!< the step
    uint32_t bucket; //!< the bucket
    Time ringStart;  //!< when its inter-node ring began here
    Time ringEnd;    //!< when its last chunk arrived here
    uint32_t chunks; //!< distinct chunks received
    uint64_t bytes;  //!< their payload bytes
};

/**
 * \ingroup distributed-training
 * \brief Where a protocol's messages to one peer go: a connection (TensorConnection over ns-3
 * TCP, LinuxTensorConnection over kernel TCP), which frames and multiplexes them.
 */
class TensorSink
{
  public:
    virtual ~TensorSink() = default;
    /** \param header a control message (length 0), sent before any queued tensor data */
    virtual void SendControl(const TensorChunkHeader& header) = 0;
    /**
     * \param header the tensor's header (type, tensor, step, worker, aux)
     * \param bytes tensor size
     */
    virtual void SendTensor(const TensorChunkHeader& header, uint64_t bytes) = 0;
};

/**
 * \ingroup distributed-training
 * \brief What the training protocols (PsServerProtocol, PsWorkerProtocol, RingAllReduceProtocol)
 * need from the hosts that carry them: a clock, a timer, the connections to their peers and where
 * their records go.
 *
 * The protocols are written once against this interface: the ns-3 applications carry them over
 * the simulator and TensorConnection (SimulatorTransport), the linux backend over Boost.Asio and
 * kernel sockets, so a change to the protocol is made in one place for both.
 */
class ProtocolTransport
{
  public:
    virtual ~ProtocolTransport() = default;

    /** \return the current time */
    virtual Time Now() const = 0;
    /**
     * \brief Run fn after delay (0: after the events already due now).
     * \param delay how long from now (>= 0)
     * \param fn what to run
     */
    virtual void Schedule(const Time& delay, std::function<void()> fn) = 0;
    /**
     * \param peer a PS server's worker index, a worker's server index, or 0 for a ring node's
     *        successor
     * \return the connection to that peer
     */
    virtual TensorSink& GetPeer(uint32_t peer) = 0;
    /** \param record a tensor (PS) or chunk (ring) arrived completely */
    virtual void TransferCompleted(const TrainingResult::TransferRecord& record) = 0;
    /**
     * \brief A message the protocol does not allow arrived: the run cannot go on.
     * \param what what happened
     */
    virtual void Fail(const std::string& what) = 0;
    /** \param record a worker step ended (workers and ring nodes) */
    virtual void StepCompleted(const TrainingResult::StepRecord& record);
    /**
     * \brief All of a worker's gradients of a step owned by a server were applied (PS servers).
     * \param worker the worker
     * \param step its step
     * \param when the time
     */
    virtual void UpdatesApplied(uint32_t worker, uint32_t step, Time when);
    /** \param record a ring bucket was reduced (ring nodes) */
    virtual void BucketCompleted(const BucketRecord& record);
    /**
     * \brief An async PS worker left the job after its step (--leave, WorkerAbsences).
     * \param worker the worker
     * \param back when it rejoins with its next step
     */
    virtual void WorkerAway(uint32_t worker, Time back);
    /**
     * \brief Run start now, or with startJitter > 0 after a uniform random delay in
     * [0, startJitter) (identical workers would otherwise start in lockstep).
     * \param startJitter the largest delay
     * \param rng the stream to draw it with
     * \param start what to run
     */
    void ScheduleStart(const Time& startJitter,
                       Ptr<UniformRandomVariable> rng,
                       std::function<void()> start);
};

/**
 * \ingroup distributed-training
 * \brief ProtocolTransport's clock and timer for the ns-3 applications: the simulator's.
 */
class SimulatorTransport : public ProtocolTransport
{
  public:
    Time Now() const override;
    void Schedule(const Time& delay, std::function<void()> fn) override;
    /** \param what a protocol error: aborts (a simulation has no way to go on) */
    void Fail(const std::string& what) override;
};

/**
 * \ingroup distributed-training
 * \brief How long a worker computes and how long its node's intra-node reduce or broadcast of a
 * tensor takes (TrainingNetwork::GetIntraNodeHalfSeconds), as every transport times them.
 */
struct WorkerTiming
{
    double computeScale{1};        //!< multiplier of the profile's forward and backward times
    uint32_t gpusPerNode{1};       //!< G
    double intraBytesPerSecond{0}; //!< intra-node interconnect rate
    double intraLatencySeconds{0}; //!< intra-node per-operation latency
    /// straggler episodes (null: none); ComputeSlowdown is the rule the flow engines share
    std::shared_ptr<const ComputeSlowdown> slowdown;
    uint32_t worker{0}; //!< the worker whose episodes apply

    /**
     * \param start when the compute span starts
     * \param us profile microseconds
     * \return us x computeScale, stretched by the episodes it overlaps
     */
    Time Compute(Time start, double us) const;
    /**
     * \param bytes a tensor or bucket
     * \return its intra-node reduce (or broadcast) time (0 with one GPU)
     */
    Time IntraNode(double bytes) const;
    /**
     * \param computeScale multiplier of the profile's compute times
     * \param gpusPerNode G
     * \param intraRate intra-node interconnect rate
     * \param intraLatency intra-node per-operation latency
     * \return the timing
     */
    static WorkerTiming Make(double computeScale,
                             uint32_t gpusPerNode,
                             DataRate intraRate,
                             Time intraLatency);
};

/**
 * \ingroup distributed-training
 * \brief What every worker of a protocol (PS worker or ring node) is configured with.
 */
struct WorkerConfig
{
    uint32_t index{0};      //!< worker index (ring position)
    uint32_t steps{1};      //!< steps to run
    bool overlap{false};    //!< overlap communication and computation
    bool sampleSteps{true}; //!< draw each step from the profile's samples
    Time startJitter;       //!< largest random delay of the first step (0: none)
    WorkerTiming timing;    //!< compute scale and intra-node timing
    /// async PS: windows in which the worker starts no step (null: none)
    std::shared_ptr<const WorkerAbsences> absences;

    /**
     * \param s a scenario
     * \param index a worker
     * \return that worker's configuration, without start jitter (the packet backend's)
     */
    static WorkerConfig FromScenario(const TrainingScenario& s, uint32_t index);
};

/**
 * \ingroup distributed-training
 * \brief The compute times of one step: a recorded step of the profile drawn with replacement,
 * or the per-layer means.
 */
struct StepDraw
{
    uint32_t sample{0};                           //!< sample index + 1 (0: the means)
    const std::vector<double>* forward{nullptr};  //!< forward time per layer, us
    const std::vector<double>* backward{nullptr}; //!< backward time per layer, us

    /**
     * \param profile the DNN
     * \param mean its mean step (kept by the caller: the draw points into it)
     * \param sampleSteps draw a recorded step (if the profile has any)
     * \param rng the stream to draw with
     * \return the step's times
     */
    static StepDraw Draw(const TrainingProfile& profile,
                         const TrainingProfile::StepTimes& mean,
                         bool sampleSteps,
                         Ptr<UniformRandomVariable> rng);
};

} // namespace ns3

#endif /* TRAINING_PROTOCOL_H */

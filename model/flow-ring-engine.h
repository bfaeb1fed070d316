/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_RING_ENGINE_H
#define FLOW_RING_ENGINE_H

#include "flow-event-core.h"
#include "flow-level-simulator.h"
#include "training-profile.h"

#include <cstdint>
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
 * reduced one after another; the step ends when the last is done, and the next step's forward
 * starts then. Nothing changes the ring flows' rates during a run, so the engine evaluates each
 * step in one pass instead of through the event heap.
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

    std::vector<double> linkBytes; //!< per directed link: bytes carried in the window
    double ringRate{0};            //!< rate of the slowest ring flow (bytes/s)
    double hopDelay{0};            //!< longest one-way delay of a ring hop (seconds)
    uint64_t events{0};            //!< operations evaluated
    uint64_t rateComputations{0};  //!< sharing-model calls

  private:
    /// A closed gradient bucket.
    struct Bucket
    {
        double bytes; //!< fused gradient bytes
        double close; //!< when it closed
    };

    /**
     * \brief Forward and backward of every worker from stepStart: when each layer's gradient is
     * ready on the slowest worker (a bucket is reduced by all workers together).
     * \param step step index
     * \param stepStart when the step starts
     */
    void ComputeReady(uint32_t step, double stepStart);
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

    const TrainingProfile& m_profile;           //!< the DNN
    const TrainingScenario& m_scenario;         //!< the scenario
    FlowLevelSimulator::Options m_options;      //!< run options
    TrainingResult& m_result;                   //!< records go here
    TrainingProfile::StepTimes m_mean;          //!< the mean step
    std::vector<std::vector<uint32_t>> m_paths; //!< per worker w: the links of ring flow w -> w+1
    std::vector<uint64_t> m_layerBytes;         //!< per layer: parameter bytes
    std::vector<double> m_ready;                //!< per layer: gradient ready on every worker
    std::vector<Bucket> m_buckets;              //!< this step's buckets
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_RING_ENGINE_H */

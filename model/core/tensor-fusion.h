/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TENSOR_FUSION_H
#define TENSOR_FUSION_H

#include "training-profile.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Tensor fusion (004_87a6f364a233f56c.txt Sec. 2.2, Eq. (11)-(16)): which gradients are
 * reduced together, written once for the packet-level ring (RingAllReduceApplication) and the
 * flow-level ring engine.
 */
class TensorFusion
{
  public:
    /// One fused gradient bucket.
    struct Bucket
    {
        std::vector<uint32_t> layers; //!< member layers in backward order (first ready first)
        uint64_t bytes;               //!< sum of the members' parameter bytes
        bool byTimeout;               //!< closed because the fusion timeout expired
        double closeSeconds; //!< when it closed: its last member's ready time, or the timeout
    };

    /**
     * \brief Walking the layers from L-1 down to 0, a bucket closes when it holds >= Q bytes
     * (the first bucket: firstBucketBytes if > 0), when the fusion timeout (if > 0) has expired
     * after its first gradient was ready before the next gradient is ready, or at layer 0.
     * Q = 0: one bucket per layer; Q = TrainingScenario::UNLIMITED_BUCKET: one bucket (unless
     * the timeout splits it).
     * \param layerBytes parameter bytes of each layer, forward order
     * \param readySeconds when each layer's gradient is ready (non-increasing in the layer index)
     * \param bucketBytes Q
     * \param firstBucketBytes size of the first bucket (0: Q)
     * \param timeoutSeconds fusion timeout (0: none)
     * \return the buckets in the order they are reduced
     */
    static std::vector<Bucket> FormBuckets(const std::vector<uint64_t>& layerBytes,
                                           const std::vector<double>& readySeconds,
                                           uint64_t bucketBytes,
                                           uint64_t firstBucketBytes,
                                           double timeoutSeconds);

    /**
     * \brief Bucket membership every packet-level worker uses: FormBuckets() on the profile's
     * mean step timeline (forward then backward of the per-layer mean times, unscaled), so that
     * all workers agree without a coordinator.
     * \param profile the DNN
     * \param bucketBytes Q
     * \param firstBucketBytes size of the first bucket (0: Q)
     * \param timeout fusion timeout (0: none)
     * \return the buckets
     */
    static std::vector<Bucket> FormBuckets(const TrainingProfile& profile,
                                           uint64_t bucketBytes,
                                           uint64_t firstBucketBytes,
                                           Time timeout);
};

} // namespace ns3

#endif /* TENSOR_FUSION_H */

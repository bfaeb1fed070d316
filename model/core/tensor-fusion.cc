/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tensor-fusion.h"

#include "ns3/abort.h"

namespace ns3
{

std::vector<TensorFusion::Bucket>
TensorFusion::FormBuckets(const std::vector<uint64_t>& layerBytes,
                          const std::vector<double>& readySeconds,
                          uint64_t bucketBytes,
                          uint64_t firstBucketBytes,
                          double timeoutSeconds)
{
    NS_ABORT_MSG_IF(layerBytes.size() != readySeconds.size(),
                    "FormBuckets: one ready time per layer expected");
    const uint64_t first = firstBucketBytes > 0 ? firstBucketBytes : bucketBytes;
    std::vector<Bucket> buckets;
    bool open = false;
    double openedAt = 0;
    Bucket current{{}, 0, false, 0};
    for (std::size_t l = layerBytes.size(); l-- > 0;)
    {
        if (open && timeoutSeconds > 0 && readySeconds[l] > openedAt + timeoutSeconds)
        {
            // The fusion cycle fired before this gradient was ready.
            current.byTimeout = true;
            current.closeSeconds = openedAt + timeoutSeconds;
            buckets.push_back(current);
            open = false;
        }
        if (!open)
        {
            open = true;
            openedAt = readySeconds[l];
            current = Bucket{{}, 0, false, 0};
        }
        current.layers.push_back(static_cast<uint32_t>(l));
        current.bytes += layerBytes[l];
        if (current.bytes >= (buckets.empty() ? first : bucketBytes) || l == 0)
        {
            current.closeSeconds = readySeconds[l];
            buckets.push_back(current);
            open = false;
        }
    }
    return buckets;
}

std::vector<TensorFusion::Bucket>
TensorFusion::FormBuckets(const TrainingProfile& profile,
                          uint64_t bucketBytes,
                          uint64_t firstBucketBytes,
                          Time timeout)
{
    const std::size_t n = profile.GetNLayers();
    TrainingProfile::StepTimes mean = profile.GetMeanStep();
    std::vector<uint64_t> bytes(n);
    std::vector<double> ready(n);
    double t = 0;
    for (std::size_t l = 0; l < n; ++l)
    {
        bytes[l] = profile.GetLayer(l).paramBytes;
        t += mean.forwardUs[l] * 1e-6;
    }
    for (std::size_t l = n; l-- > 0;)
    {
        t += mean.backwardUs[l] * 1e-6;
        ready[l] = t;
    }
    return FormBuckets(bytes, ready, bucketBytes, firstBucketBytes, timeout.GetSeconds());
}

} // namespace ns3

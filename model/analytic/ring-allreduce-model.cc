/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-allreduce-model.h"

#include "ns3/training-input-error.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

namespace ns3
{

namespace
{

/// The checks of this model's inputs.
constexpr TrainingInputError::Checker Check("ring AllReduce model");

void
CheckCommon(double bytes, double bandwidth, double latency)
{
    Check(std::isfinite(bytes) && bytes >= 0, "bytes", bytes, "a size >= 0");
    Check(std::isfinite(bandwidth) && bandwidth > 0, "bandwidth", bandwidth, "bytes/s > 0");
    Check(std::isfinite(latency) && latency >= 0, "latency", latency, "a time >= 0");
}

} // namespace

double
RingAllReduceModel::Eq11StepTime(uint32_t workers,
                                 double modelBytes,
                                 double bandwidth,
                                 double compute)
{
    Check(workers >= 1, "K", workers, "at least 1 worker");
    Check(std::isfinite(modelBytes) && modelBytes > 0, "M", modelBytes, "bytes > 0");
    CheckCommon(modelBytes, bandwidth, 0);
    Check(std::isfinite(compute) && compute >= 0, "T_F + T_B", compute, "a time >= 0");
    const double k = workers;
    return compute + 2 * (k - 1) * modelBytes / (k * bandwidth);
}

double
RingAllReduceModel::PerLayerTransferTime(uint64_t layers,
                                         double bytes,
                                         double bandwidth,
                                         double latency)
{
    Check(layers >= 1, "L", static_cast<double>(layers), "at least 1 layer");
    CheckCommon(bytes, bandwidth, latency);
    const double l = static_cast<double>(layers);
    return (latency + bytes / (l * bandwidth)) * l;
}

bool
RingAllReduceModel::IsLatencyBound(uint64_t layers, double bytes, double bandwidth, double latency)
{
    CheckCommon(bytes, bandwidth, latency);
    return static_cast<double>(layers) * latency > bytes / bandwidth;
}

double
RingAllReduceModel::StashStepTime(uint32_t nodes,
                                  double compute,
                                  double latency,
                                  double bytes,
                                  double bandwidth)
{
    Check(nodes >= 1, "n", nodes, "at least 1 node");
    Check(std::isfinite(compute) && compute >= 0, "T_C", compute, "a time >= 0");
    CheckCommon(bytes, bandwidth, latency);
    const double n = nodes;
    return compute + (latency + 2 * bytes / (n * bandwidth)) * (n - 1);
}

double
RingAllReduceModel::StashStrongScalingTime(uint32_t nodes,
                                           double single,
                                           double latency,
                                           double bytes,
                                           double bandwidth)
{
    Check(std::isfinite(single) && single >= 0, "T_1", single, "a time >= 0");
    // Strong scaling (003 Sec. 6.2): the per-step time with T_C = T_1 / n (which refuses n = 0).
    return StashStepTime(nodes, nodes > 0 ? single / nodes : 0, latency, bytes, bandwidth);
}

uint32_t
RingAllReduceModel::StashBestNodes(double single,
                                   double latency,
                                   double bytes,
                                   double bandwidth,
                                   uint32_t maxNodes)
{
    Check(maxNodes >= 1, "largest n", maxNodes, "at least 1");
    // T_n is convex in n (T_1/n and 2G(n-1)/(nB) = 2G/B - 2G/(nB) give (T_1 - 2G/B)/n, plus
    // tau (n-1)): walk up while it decreases.
    uint32_t best = 1;
    double bestTime = StashStrongScalingTime(1, single, latency, bytes, bandwidth);
    for (uint32_t n = 2; n <= maxNodes; ++n)
    {
        double t = StashStrongScalingTime(n, single, latency, bytes, bandwidth);
        if (!(t < bestTime))
        {
            break;
        }
        best = n;
        bestTime = t;
    }
    return best;
}

double
RingAllReduceModel::StashSqrtRule(double single, double latency)
{
    Check(std::isfinite(single) && single >= 0, "T_1", single, "a time >= 0");
    Check(std::isfinite(latency) && latency >= 0, "tau", latency, "a time >= 0");
    if (latency == 0)
    {
        return std::numeric_limits<double>::infinity();
    }
    return std::sqrt(single / latency);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-cost-model.h"

#include "ns3/training-input-error.h"

#include <cmath>
#include <string>

namespace ns3
{

void
CollectiveCostModel::Check(const Params& p)
{
    if (p.workers == 0)
    {
        throw TrainingInputError("collective cost: 0 workers (expected at least 1)");
    }
    for (double x : {p.bytes, p.alpha, p.beta, p.gamma})
    {
        if (!(x >= 0) || !std::isfinite(x))
        {
            throw TrainingInputError("collective cost: input " + TrainingInputError::Number(x)
                                     + " (expected a finite value >= 0)");
        }
    }
    if (!(p.chunkBytes > 0) || !std::isfinite(p.chunkBytes))
    {
        throw TrainingInputError("collective cost: chunk of "
                                 + TrainingInputError::Number(p.chunkBytes)
                                 + " bytes (expected a positive size)");
    }
}

double
CollectiveCostModel::Ring(const Params& p)
{
    Check(p);
    const double k = p.workers;
    return 2 * (k - 1) * p.alpha + 2 * (k - 1) / k * p.bytes * p.beta
           + (k - 1) / k * p.bytes * p.gamma;
}

double
CollectiveCostModel::HalvingDoubling(const Params& p)
{
    Check(p);
    if (p.workers == 1)
    {
        return 0;
    }
    uint32_t steps = 0; // log2 p'
    while ((uint64_t{2} << steps) <= p.workers)
    {
        ++steps;
    }
    const double pp = std::ldexp(1.0, static_cast<int>(steps)); // p'
    const double extra = pp == p.workers ? 0 : 1;               // the pairing step before and after
    return (2 * steps + 2 * extra) * p.alpha + (2 * extra + 2 * (pp - 1) / pp) * p.bytes * p.beta
           + (extra + (pp - 1) / pp) * p.bytes * p.gamma;
}

uint32_t
CollectiveCostModel::TreeDepth(uint32_t workers)
{
    uint32_t depth = 0;
    while ((uint64_t{1} << depth) < workers)
    {
        ++depth;
    }
    return depth;
}

uint32_t
CollectiveCostModel::TreeSendsPerChunk(uint32_t workers)
{
    return workers >= 4 ? 4 : workers; // K = 2: 2, K = 3: 3 (chains), K = 1: none
}

double
CollectiveCostModel::DoubleBinaryTree(const Params& p)
{
    Check(p);
    if (p.workers == 1 || p.bytes == 0)
    {
        return 0;
    }
    const double half = p.bytes / 2;
    const double chunk = std::min(p.chunkBytes, half);
    const double chunks = std::ceil(half / chunk);
    const double depth = TreeDepth(p.workers);
    const double s = TreeSendsPerChunk(p.workers);
    return 2 * depth * (p.alpha + chunk * p.beta) + (chunks - 1) * s * chunk * p.beta
           + p.bytes * p.gamma;
}

double
CollectiveCostModel::Time(AllReduceSchedule::Algorithm algorithm, const Params& p)
{
    switch (algorithm)
    {
        case AllReduceSchedule::HALVING_DOUBLING:
            return HalvingDoubling(p);
        case AllReduceSchedule::DOUBLE_BINARY_TREE:
            return DoubleBinaryTree(p);
        case AllReduceSchedule::RING:
            break;
    }
    return Ring(p);
}

} // namespace ns3

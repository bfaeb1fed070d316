/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-cost-model.h"

#include "ns3/tensor-fusion.h"
#include "ns3/training-input-error.h"
#include "ns3/training-network.h"
#include "ns3/training-scenario.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
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
CollectiveCostModel::TreeUpReady(uint32_t node,
                                 uint32_t workers,
                                 double hop,
                                 double chunk,
                                 double reduce)
{
    const std::vector<uint32_t> children
        = AllReduceSchedule::GetTree(node, workers, false).children;
    if (children.empty())
    {
        return 0; // a leaf's own chunk
    }
    std::vector<double> ready;
    for (uint32_t c : children)
    {
        ready.push_back(TreeUpReady(c, workers, hop, chunk, reduce));
    }
    std::sort(ready.begin(), ready.end());
    // The children's chunks share this node's link: both done no earlier than one chunk after
    // the later child is ready, and no earlier than 2 chunks after the earlier one (the link
    // carries 2 c from then on, max-min fair while both send).
    const double done
        = ready.size() == 1 ? ready[0] + chunk : std::max(ready[1] + chunk, ready[0] + 2 * chunk);
    // The plan sends the sum up (or, at the root, down) only once both are reduced into it.
    return done + hop + static_cast<double>(children.size()) * reduce;
}

double
CollectiveCostModel::TreeDownDone(uint32_t node,
                                  uint32_t workers,
                                  double start,
                                  double hop,
                                  double chunk)
{
    const std::vector<uint32_t> children
        = AllReduceSchedule::GetTree(node, workers, false).children;
    // A node sends the chunk to all its children at once over its one link.
    const double arrive = start + static_cast<double>(children.size()) * chunk + hop;
    double done = start;
    for (uint32_t c : children)
    {
        done = std::max(done, TreeDownDone(c, workers, arrive, hop, chunk));
    }
    return done;
}

double
CollectiveCostModel::TreeFill(uint32_t workers,
                              double alpha,
                              double chunkSeconds,
                              double reduceSeconds)
{
    // The second tree is the first's mirror image or shift: the same shape, the same time.
    const double atRoot = TreeUpReady(0, workers, alpha, chunkSeconds, reduceSeconds);
    return TreeDownDone(0, workers, atRoot, alpha, chunkSeconds);
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
    const double s = TreeSendsPerChunk(p.workers);
    // Per further chunk index the busiest node's link carries s chunks and its reducer takes
    // two (the children of the tree where it is inner; one at K = 2, where each node is a root
    // with one child): the slower of the two sets the pipeline's pace.
    const double r = p.workers == 2 ? 1 : 2;
    return TreeFill(p.workers, p.alpha, chunk * p.beta, chunk * p.gamma)
           + (half - chunk) * std::max(s * p.beta, r * p.gamma);
}

CollectiveCostModel::Params
CollectiveCostModel::FromScenario(const TrainingScenario& s)
{
    Params p;
    p.workers = s.workers;
    p.alpha = 2 * s.linkDelay.GetSeconds();
    p.beta = 1 / TrainingNetwork::GetGoodputBytesPerSecond(s);
    p.gamma = s.reductionRate > 0 ? 1 / s.reductionRate : 0;
    p.chunkBytes = static_cast<double>(s.treeChunkBytes);
    return p;
}

double
CollectiveCostModel::Hierarchical(const Params& p)
{
    Check(p);
    if (p.groups == 0 || p.workers % p.groups != 0 || !(p.betaInter >= 0))
    {
        throw TrainingInputError("collective cost: " + std::to_string(p.groups) + " groups of "
                                 + std::to_string(p.workers)
                                 + " workers (expected a divisor of K)");
    }
    const double big = p.groups;           // G
    const double g = p.workers / p.groups; // nodes per group
    const double shard = p.bytes / g;
    const double inter = p.betaInter > 0 ? p.betaInter : p.beta;
    return 2 * (g - 1) * p.alpha + 2 * (g - 1) / g * p.bytes * p.beta
           + (g - 1) / g * p.bytes * p.gamma + 2 * (big - 1) * p.alpha
           + 2 * (big - 1) / big * shard * inter + (big - 1) / big * shard * p.gamma;
}

AllReduceSchedule::Algorithm
CollectiveCostModel::Resolve(AllReduceSchedule::Algorithm algorithm, const Params& p)
{
    if (algorithm != AllReduceSchedule::NCCL)
    {
        return algorithm;
    }
    return Ring(p) <= DoubleBinaryTree(p) ? AllReduceSchedule::RING
                                          : AllReduceSchedule::DOUBLE_BINARY_TREE;
}

double
CollectiveCostModel::Time(AllReduceSchedule::Algorithm algorithm, const Params& p)
{
    switch (Resolve(algorithm, p))
    {
        case AllReduceSchedule::HALVING_DOUBLING:
            return HalvingDoubling(p);
        case AllReduceSchedule::DOUBLE_BINARY_TREE:
            return DoubleBinaryTree(p);
        case AllReduceSchedule::HIERARCHICAL:
            return Hierarchical(p);
        case AllReduceSchedule::RING:
        case AllReduceSchedule::NCCL: // resolved above
            break;
    }
    return Ring(p);
}

std::string
CollectiveCostModel::DescribeNccl(const Params& p, const std::vector<double>& buckets)
{
    // Runs of consecutive sizes (ascending) that got the same algorithm.
    std::vector<double> sizes(buckets);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    std::string text = "nccl preset:";
    Params q = p;
    for (std::size_t i = 0; i < sizes.size();)
    {
        q.bytes = sizes[i];
        const auto algorithm = Resolve(AllReduceSchedule::NCCL, q);
        std::size_t j = i;
        while (j + 1 < sizes.size()
               && (q.bytes = sizes[j + 1], Resolve(AllReduceSchedule::NCCL, q)) == algorithm)
        {
            ++j;
        }
        char run[128];
        std::snprintf(run,
                      sizeof(run),
                      "%s %s for buckets of %.0f to %.0f B",
                      i == 0 ? "" : ",",
                      AllReduceSchedule::GetName(algorithm).c_str(),
                      sizes[i],
                      sizes[j]);
        text += run;
        i = j + 1;
    }
    char inputs[160];
    std::snprintf(inputs,
                  sizeof(inputs),
                  " (alpha-beta, CollectiveCostModel: alpha %.3g s, 1/beta %.4g B/s, tree chunk "
                  "%.0f B)",
                  p.alpha,
                  p.beta > 0 ? 1 / p.beta : 0.0,
                  p.chunkBytes);
    return text + inputs;
}

} // namespace ns3

namespace ns3
{

std::string
CollectiveCostModel::NcclNote(const TrainingScenario& s, const TrainingProfile& profile)
{
    if (s.architecture != TrainingScenario::RING_ALLREDUCE || s.collective != "nccl")
    {
        return "";
    }
    std::vector<double> buckets;
    for (const auto& b :
         TensorFusion::FormBuckets(profile, s.bucketBytes, s.firstBucketBytes, s.fusionTimeout))
    {
        buckets.push_back(static_cast<double>(b.bytes));
    }
    return DescribeNccl(FromScenario(s), buckets);
}

} // namespace ns3

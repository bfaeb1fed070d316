/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-ring-engine.h"

#include "ns3/tensor-fusion.h"
#include "ns3/training-input-error.h"
#include "ns3/training-network.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace ns3
{
namespace flow
{

FlowRingEngine::FlowRingEngine(const EngineInputs& in)
    : m_profile(in.profile),
      m_scenario(in.scenario),
      m_fabric(in.fabric),
      m_options(in.options),
      m_result(in.result),
      m_mean(in.profile.GetMeanStep()),
      m_workerUpdate(in.scenario.GetWorkerUpdateUs(in.profile) * US),
      m_flowCap(in.flowCap),
      m_sharing(in.sharing),
      m_jitter(in.scenario.startJitter.GetSeconds(), in.scenario.seed),
      m_slowdown(in.scenario.slowdown,
                 in.scenario.stragglers,
                 in.scenario.workers,
                 in.scenario.seed)
{
    for (const auto& layer : in.profile.GetLayers())
    {
        m_layerBytes.push_back(layer.paramBytes);
    }
    const uint32_t k = in.scenario.workers;
    AllReduceSchedule::FromName(in.scenario.collective, m_algorithm); // Validate checked it
    m_cost = CollectiveCostModel::FromScenario(in.scenario);
    if (m_algorithm != AllReduceSchedule::RING)
    {
        if (in.fabric.GetFailures())
        {
            // The plan executor fixes each phase's connections and paths once.
            throw TrainingInputError("--linkDown with --collective=" + in.scenario.collective
                                     + " in the flow backend (expected --collective=ring, or "
                                       "--backend=packet)");
        }
        // nccl: its tree buckets run the tree's plan, its ring buckets the ring below.
        m_plan = std::make_unique<FlowRingPlanExecutor>(in,
                                                        m_algorithm == AllReduceSchedule::NCCL
                                                            ? AllReduceSchedule::DOUBLE_BINARY_TREE
                                                            : m_algorithm,
                                                        m_jitter);
    }
    const auto& capacity = in.fabric.GetCapacity();
    linkBytes.assign(capacity.size(), 0);
    ringRate = capacity[in.fabric.GetUplink(0)];
    if (k <= 1)
    {
        return;
    }
    SetRingPaths(0);
    SetRingRate();
}

void
FlowRingEngine::SetRingPaths(double t)
{
    const uint32_t k = m_scenario.workers;
    m_paths.clear();
    hopDelay = 0;
    for (uint32_t w = 0; w < k; ++w)
    {
        // Worker w's one connecting socket (ephemeral port) to worker w+1's service port.
        m_paths.push_back(m_fabric.GetPathAt(w,
                                             (w + 1) % k,
                                             FlowFabric::FIRST_EPHEMERAL_PORT,
                                             FlowFabric::SERVICE_PORT,
                                             t));
        hopDelay = std::max(hopDelay, m_fabric.GetTopology().GetPathDelay(m_paths[w]));
    }
}

void
FlowRingEngine::SetRingRate()
{
    // The ring's rate is its slowest flow's, computed once per set of paths (per set of links
    // up: --linkDown re-paths the ring at the start of each bucket's AllReduce).
    const uint32_t k = m_scenario.workers;
    std::vector<SharingModel::Flow> flows(k);
    for (uint32_t w = 0; w < k; ++w)
    {
        std::copy(m_paths[w].begin(), m_paths[w].end(), flows[w].links.begin());
        flows[w].nLinks = static_cast<uint32_t>(m_paths[w].size());
        flows[w].priority = w;
        flows[w].cap = m_flowCap;
    }
    std::vector<double> rates;
    m_sharing.AssignRates(flows, m_fabric.GetCapacity(), rates);
    ++rateComputations;
    ringRate = std::min(*std::min_element(rates.begin(), rates.end()), OwnShareRate());
}

double
FlowRingEngine::OwnShareRate() const
{
    // The ring's K flows all move at the ring's rate, so a link that n of them cross carries
    // n times it: the ring can go no faster than capacity / n there. On a star, or wherever
    // the hops' paths are disjoint, n = 1 and this is the allreduce share itself; a ring
    // spread over an oversubscribed fabric has several hops on one uplink.
    std::map<uint32_t, uint32_t> crossings;
    for (const auto& path : m_paths)
    {
        for (uint32_t link : path)
        {
            ++crossings[link];
        }
    }
    const auto& capacity = m_fabric.GetCapacity();
    double rate = std::numeric_limits<double>::infinity();
    for (const auto& crossing : crossings)
    {
        rate = std::min(rate, capacity[crossing.first] / crossing.second);
    }
    return rate;
}

void
FlowRingEngine::Run()
{
    m_ready.resize(m_profile.GetNLayers());
    double now = 0;
    BeginSteps(now);
    for (uint32_t step = 0; step < m_scenario.steps; ++step)
    {
        ComputeReady(step);
        FormBuckets();
        now = EndStep(step, ReduceBuckets(step, now));
    }
}

void
FlowRingEngine::BeginSteps(double start)
{
    m_workerStart.resize(m_scenario.workers);
    for (uint32_t w = 0; w < m_scenario.workers; ++w)
    {
        m_workerStart[w] = StepStartOf(w, 0, start);
    }
}

double
FlowRingEngine::EndStep(uint32_t step, double end)
{
    // The averaged gradients are applied by each worker itself once every bucket is reduced
    // (DDP: optimizer.step() after backward() returns): compute, like forward and backward.
    double last = end;
    for (uint32_t w = 0; w < m_scenario.workers; ++w)
    {
        const double update = m_workerUpdate * m_scenario.GetComputeScale(w);
        const double done = end + m_slowdown.Stretch(w, end, update);
        m_result.AddStep({w, step, m_workerStart[w], done});
        m_workerStart[w] = done;
        last = std::max(last, done);
    }
    return last;
}

void
FlowRingEngine::ComputeReady(uint32_t step)
{
    const uint32_t nl = static_cast<uint32_t>(m_ready.size());
    std::fill(m_ready.begin(), m_ready.end(), -INF);
    for (uint32_t w = 0; w < m_scenario.workers; ++w)
    {
        const TrainingProfile::StepTimes* st = &m_mean;
        if (m_scenario.sampleSteps && m_profile.GetNSamples() > 0)
        {
            StepRng rng(m_scenario.seed, w, step, 0);
            st = &m_profile.GetSample(rng.Below(m_profile.GetNSamples()));
        }
        const double scale = m_scenario.GetComputeScale(w);
        double t = m_workerStart[w];
        for (uint32_t l = 0; l < nl; ++l)
        {
            t += m_slowdown.Stretch(w, t, st->forwardUs[l] * US * scale);
        }
        for (uint32_t l = nl; l-- > 0;)
        {
            t += m_slowdown.Stretch(w, t, st->backwardUs[l] * US * scale);
            // A bucket is reduced by all workers together: a gradient is ready for the
            // collective when the slowest worker has it.
            m_ready[l] = std::max(m_ready[l], t);
        }
        ++events;
    }
}

void
FlowRingEngine::FormBuckets()
{
    // Tensor fusion (004 Sec. 2.2), the packet level's rule (TensorFusion).
    m_buckets.clear();
    for (const auto& b : TensorFusion::FormBuckets(m_layerBytes,
                                                   m_ready,
                                                   m_scenario.bucketBytes,
                                                   m_scenario.firstBucketBytes,
                                                   m_scenario.fusionTimeout.GetSeconds()))
    {
        m_buckets.push_back({static_cast<double>(b.bytes), b.closeSeconds});
    }
}

double
FlowRingEngine::RingSeconds(double m, double rate) const
{
    const double kk = static_cast<double>(m_scenario.workers);
    if (m_scenario.workers <= 1)
    {
        return 0;
    }
    double inter = 2 * (kk - 1) / kk * m / rate + 2 * (kk - 1) * hopDelay;
    if (m_scenario.reductionRate > 0)
    {
        inter += (kk - 1) / kk * m / m_scenario.reductionRate;
    }
    return inter;
}

double
FlowRingEngine::ReduceBuckets(uint32_t step, double stepStart)
{
    const double backwardDone = m_ready[0];
    double prevEnd = stepStart;
    for (std::size_t b = 0; b < m_buckets.size(); ++b)
    {
        const double m = m_buckets[b].bytes;
        double start = std::max(prevEnd, m_scenario.overlap ? m_buckets[b].close : backwardDone);
        double intra = TrainingNetwork::GetIntraNodeHalfSeconds(m_scenario, m);
        const double ringStart = start + intra;
        const LinkFailures* failures = m_fabric.GetFailures();
        if (failures && m_scenario.workers > 1 && failures->GetEpoch(ringStart) != m_epoch)
        {
            m_epoch = failures->GetEpoch(ringStart);
            SetRingPaths(ringStart);
            SetRingRate();
        }
        const double ringEnd = ringStart + AllReduceSeconds(step, b, m);
        prevEnd = ringEnd + intra;
        ++events;
        RecordBucket(step, b, ringStart, ringEnd, 0);
    }
    return prevEnd;
}

bool
FlowRingEngine::RunsPlan(double m) const
{
    if (!m_plan || m_algorithm != AllReduceSchedule::NCCL)
    {
        return m_plan != nullptr;
    }
    CollectiveCostModel::Params p = m_cost;
    p.bytes = static_cast<double>(std::llround(m)); // the packet level's bucket bytes
    return CollectiveCostModel::Resolve(m_algorithm, p) != AllReduceSchedule::RING;
}

double
FlowRingEngine::AllReduceSeconds(uint32_t step, std::size_t b, double m)
{
    if (RunsPlan(m))
    {
        const FlowRingPlanExecutor::Counters before = m_plan->counters;
        const double seconds = m_plan->Run(static_cast<uint64_t>(std::llround(m)), step, b);
        events += m_plan->counters.events - before.events;
        rateComputations += m_plan->counters.rateComputations - before.rateComputations;
        sharingFlows += m_plan->counters.sharingFlows - before.sharingFlows;
        return seconds;
    }
    return m_jitter.IsOn() ? JitteredRingSeconds(step, b, m, ringRate) : RingSeconds(m, ringRate);
}

double
FlowRingEngine::StepStartOf(uint32_t w, uint32_t step, double stepStart) const
{
    // --startJitter: every ring member's first step starts after its own delay.
    return step == 0 && m_jitter.IsOn() ? stepStart + m_jitter.FirstStep(w) : stepStart;
}

double
FlowRingEngine::JitteredRingSeconds(uint32_t step, std::size_t b, double m, double rate)
{
    // The ring of RingSeconds round by round, as the packet level runs it: in round r worker w
    // sends a chunk of m/K to w+1 once it has the chunk of round r-1 from w-1 (and, in the
    // reduce-scatter, reduced it into its own); the transfer waits a start delay when w's
    // connection is idle then (its previous chunk all sent), and else queues behind it. Times
    // are from the ring's common start; the ring ends when the last chunk arrives anywhere.
    // Without delays this is RingSeconds term by term. O(K^2) per bucket: the packet level's
    // number of chunk transfers.
    const uint32_t k = m_scenario.workers;
    if (k <= 1)
    {
        return 0;
    }
    const double chunk = m / k / rate;
    const double reduce = m_scenario.reductionRate > 0 ? m / k / m_scenario.reductionRate : 0;
    m_sent.assign(k, 0);    // when each worker's last chunk left completely
    m_arrived.assign(k, 0); // when it arrived at the successor
    m_nextArrived.resize(k);
    for (uint32_t r = 0; r < 2 * (k - 1); ++r)
    {
        for (uint32_t w = 0; w < k; ++w)
        {
            const double avail = r == 0 ? 0 : m_arrived[(w + k - 1) % k] + (r < k ? reduce : 0);
            const bool idle = r == 0 || m_sent[w] <= avail;
            const double delay = idle ? m_jitter.Delay(w, step, uint64_t{b} << 32 | r) : 0;
            m_sent[w] = std::max(avail + delay, m_sent[w]) + chunk;
            m_nextArrived[w] = m_sent[w] + hopDelay;
        }
        std::swap(m_arrived, m_nextArrived);
        events += k;
    }
    return *std::max_element(m_arrived.begin(), m_arrived.end());
}

void
FlowRingEngine::RecordBucket(uint32_t step,
                             std::size_t b,
                             double ringStart,
                             double ringEnd,
                             double carried)
{
    if (RunsPlan(m_buckets[b].bytes))
    {
        RecordPlanMessages(step, b, ringStart);
        return;
    }
    const uint32_t k = m_scenario.workers;
    const double m = m_buckets[b].bytes;
    for (uint32_t w = 0; w < k && k > 1 && m_options.recordTransfers; ++w)
    {
        m_result.AddTransfer({w,
                              (w + 1) % k,
                              step,
                              static_cast<int32_t>(b),
                              "ring",
                              static_cast<uint64_t>(std::llround(m)),
                              ringStart,
                              ringEnd});
    }
    if (k > 1)
    {
        AddLinkBytes(step, 2.0 * (k - 1) / k * m - carried);
    }
}

void
FlowRingEngine::AddLinkBytes(uint32_t step, double bytes)
{
    for (uint32_t w = 0; w < m_paths.size() && step >= m_scenario.warmup; ++w)
    {
        for (uint32_t l : m_paths[w])
        {
            linkBytes[l] += bytes;
        }
    }
}

void
FlowRingEngine::RecordPlanMessages(uint32_t step, std::size_t b, double ringStart)
{
    for (const FlowRingPlanExecutor::Message& msg : m_plan->GetMessages())
    {
        if (m_options.recordTransfers)
        {
            m_result.AddTransfer({msg.from,
                                  msg.to,
                                  step,
                                  static_cast<int32_t>(b),
                                  "ring",
                                  msg.bytes,
                                  ringStart + msg.sent,
                                  ringStart + msg.arrived});
        }
        if (step >= m_scenario.warmup)
        {
            for (uint32_t l : m_plan->GetPath(msg.connection))
            {
                linkBytes[l] += static_cast<double>(msg.bytes);
            }
        }
    }
}

} // namespace flow
} // namespace ns3

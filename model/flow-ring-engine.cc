/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-ring-engine.h"

#include "tensor-fusion.h"
#include "training-network.h"
#include "training-result.h"
#include "training-scenario.h"

#include <algorithm>
#include <cmath>

namespace ns3
{
namespace flow
{

FlowRingEngine::FlowRingEngine(const EngineInputs& in)
    : m_profile(in.profile),
      m_scenario(in.scenario),
      m_options(in.options),
      m_result(in.result),
      m_mean(in.profile.GetMeanStep()),
      m_flowCap(in.flowCap),
      m_sharing(in.sharing)
{
    for (const auto& layer : in.profile.GetLayers())
    {
        m_layerBytes.push_back(layer.paramBytes);
    }
    const uint32_t k = in.scenario.workers;
    const auto& capacity = in.fabric.GetCapacity();
    linkBytes.assign(capacity.size(), 0);
    ringRate = capacity[in.fabric.GetUplink(0)];
    if (k <= 1)
    {
        return;
    }
    std::vector<SharingModel::Flow> flows(k);
    for (uint32_t w = 0; w < k; ++w)
    {
        // Worker w's one connecting socket (ephemeral port) to worker w+1's service port.
        m_paths.push_back(in.fabric.GetPath(w,
                                            (w + 1) % k,
                                            FlowFabric::FIRST_EPHEMERAL_PORT,
                                            FlowFabric::SERVICE_PORT));
        std::copy(m_paths[w].begin(), m_paths[w].end(), flows[w].links.begin());
        flows[w].nLinks = static_cast<uint32_t>(m_paths[w].size());
        flows[w].priority = w;
        flows[w].cap = in.flowCap;
        hopDelay = std::max(hopDelay, in.fabric.GetTopology().GetPathDelay(m_paths[w]));
    }
    std::vector<double> rates;
    in.sharing.AssignRates(flows, capacity, rates);
    ++rateComputations;
    ringRate = *std::min_element(rates.begin(), rates.end());
}

void
FlowRingEngine::Run()
{
    m_ready.resize(m_profile.GetNLayers());
    double now = 0;
    for (uint32_t step = 0; step < m_scenario.steps; ++step)
    {
        ComputeReady(step, now);
        FormBuckets();
        const double end = ReduceBuckets(step, now);
        for (uint32_t w = 0; w < m_scenario.workers; ++w)
        {
            m_result.AddStep({w, step, now, end});
        }
        now = end;
    }
}

void
FlowRingEngine::ComputeReady(uint32_t step, double stepStart)
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
        double t = stepStart;
        for (uint32_t l = 0; l < nl; ++l)
        {
            t += st->forwardUs[l] * US * scale;
        }
        for (uint32_t l = nl; l-- > 0;)
        {
            t += st->backwardUs[l] * US * scale;
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
        const double ringEnd = ringStart + RingSeconds(m, ringRate);
        prevEnd = ringEnd + intra;
        ++events;
        RecordBucket(step, b, ringStart, ringEnd);
    }
    return prevEnd;
}

void
FlowRingEngine::RecordBucket(uint32_t step, std::size_t b, double ringStart, double ringEnd)
{
    const uint32_t k = m_scenario.workers;
    const double m = m_buckets[b].bytes;
    for (uint32_t w = 0; w < k && k > 1; ++w)
    {
        if (m_options.recordTransfers)
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
        if (step >= m_scenario.warmup)
        {
            for (uint32_t l : m_paths[w])
            {
                linkBytes[l] += 2.0 * (k - 1) / k * m;
            }
        }
    }
}

} // namespace flow
} // namespace ns3

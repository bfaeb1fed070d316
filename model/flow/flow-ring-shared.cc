/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// FlowRingEngine in a shared run of several jobs (FlowLevelSimulator::RunJobs, issue 16): a
// ring that crosses a link another job uses cannot take one rate for the whole run, so each
// bucket's ring transfer becomes its K flows w -> w+1 in the shared rate computation. The steps,
// buckets and the ring's time are the closed form's (flow-ring-engine.cc); only the transfer
// term 2(K-1)/K M_b / r is integrated over the rates r(t) the ring gets while it runs.

#include "flow-rate-solver.h"
#include "flow-ring-engine.h"

#include "ns3/training-input-error.h"
#include "ns3/training-network.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <algorithm>
#include <map>

namespace ns3
{
namespace flow
{

void
FlowRingEngine::BeginShared(double startTime,
                            uint64_t* prioritySeq,
                            SharedLinks* links,
                            uint32_t id)
{
    if (m_plan)
    {
        throw TrainingInputError("--collective: " + m_scenario.collective
                                 + " in a job of --jobs (expected ring: with several jobs on "
                                   "one fabric the flow level runs the ring only; run this "
                                   "job alone)");
    }
    m_shared = Shared{};
    m_shared.seq = prioritySeq;
    m_shared.links = links;
    m_shared.id = id;
    ClaimLinks();
    m_shared.now = startTime;
    m_shared.stepStart = startTime;
    m_shared.prevEnd = startTime;
    ringRate = m_scenario.workers > 1 ? INF : ringRate; // shared: the lowest rate it gets
    m_ready.resize(m_profile.GetNLayers());
    if (m_scenario.steps == 0)
    {
        m_shared.done = true;
        return;
    }
    BeginSteps(startTime);
    ComputeReady(0);
    FormBuckets();
    NextBucket();
}

double
FlowRingEngine::NextEventTime() const
{
    return m_shared.done ? INF : std::max(std::min(m_shared.next, NextLinkChange()), m_shared.now);
}

double
FlowRingEngine::NextLinkChange() const
{
    const LinkFailures* failures = m_fabric.GetFailures();
    if (!failures || m_scenario.workers <= 1
        || m_shared.change == failures->GetChangeTimes().size())
    {
        return INF;
    }
    return failures->GetChangeTimes()[m_shared.change];
}

void
FlowRingEngine::LinkChanged()
{
    // Unlike the closed form alone (re-pathed at each bucket's start), a shared transfer is
    // integrated over its rates: it re-paths at the change itself, as the PS connections do.
    Shared& s = m_shared;
    ++s.change;
    const uint32_t epoch = m_fabric.GetFailures()->GetEpoch(s.now);
    if (epoch == m_epoch)
    {
        return;
    }
    m_epoch = epoch;
    if (s.transferring)
    {
        const double k = static_cast<double>(m_scenario.workers);
        const double left = s.rated ? s.remaining - s.rate * (s.now - s.last) : s.remaining;
        const double sent = 2 * (k - 1) / k * m_buckets[s.bucket].bytes - std::max(0.0, left);
        AddLinkBytes(s.step, sent - s.carried);
        s.carried = sent;
        CountLinks(false);
    }
    SetRingPaths(s.now);
    ClaimLinks();
    if (s.transferring)
    {
        CountLinks(true);
        s.dirty = true; // its flows cross other links now: new rates
    }
}

void
FlowRingEngine::SetNow(double now)
{
    m_shared.now = now;
}

bool
FlowRingEngine::IsDirty() const
{
    return m_shared.dirty;
}

void
FlowRingEngine::HandleNext()
{
    Shared& s = m_shared;
    const double change = NextLinkChange();
    if (change <= s.next)
    {
        // First, as the single-job engines do: a ring starting at the change takes the new paths.
        s.now = std::max(s.now, change);
        LinkChanged();
        return;
    }
    s.now = std::max(s.now, s.next);
    if (s.transferring)
    {
        TransferDone();
        return;
    }
    // The bucket's ring starts: its K flows join the shared rate computation. Each sends
    // 2(K-1)/K M_b (reduce-scatter and all-gather); the ring goes at its slowest flow's pace.
    const double k = static_cast<double>(m_scenario.workers);
    s.transferring = true;
    s.remaining = 2 * (k - 1) / k * m_buckets[s.bucket].bytes;
    s.rate = 0;
    s.rated = false;
    s.oneRate = true;
    s.last = s.now;
    s.next = INF; // until the rates come
    s.priority = *s.seq + 1;
    *s.seq += m_scenario.workers;
    s.dirty = true;
    s.carried = 0;
    CountLinks(true);
}

void
FlowRingEngine::CountLinks(bool add)
{
    Shared& s = m_shared;
    for (uint32_t w = 0; s.links && w < m_scenario.workers; ++w)
    {
        for (uint32_t l : m_paths[w])
        {
            const uint32_t owner = s.links->Count(l, s.id, add);
            if (owner != 0 && owner != s.id)
            {
                s.links->GetJob(owner)->RekeyLink(l, s.now);
            }
        }
    }
}

void
FlowRingEngine::ClaimLinks()
{
    // Under FCFS a ring's hops that cross one link would be served one after the other, but the
    // ring moves at its slowest hop's pace: the first would hold the link for good and the ring
    // never finish. So the ring takes its turn as one: each link once (by the first hop that
    // crosses it), and a hop's rate serves all the ring's hops on its links.
    m_collective = SolverChoice::Of(m_sharing).rule == SolverChoice::FCFS;
    m_claimed.assign(m_paths.size(), {});
    m_multiplicity.assign(m_paths.size(), 1);
    std::map<uint32_t, std::pair<uint32_t, double>> owner; // link -> (first hop, hops on it)
    for (uint32_t w = 0; w < m_paths.size(); ++w)
    {
        for (uint32_t l : m_paths[w])
        {
            auto [it, first] = owner.emplace(l, std::pair<uint32_t, double>{w, 0});
            it->second.second += 1;
            if (first)
            {
                m_claimed[w].push_back(l);
            }
        }
    }
    for (const auto& [l, use] : owner)
    {
        m_multiplicity[use.first] = std::max(m_multiplicity[use.first], use.second);
    }
}

void
FlowRingEngine::RekeyLink(uint32_t /* l */, double /* now */)
{
}

void
FlowRingEngine::CollectShared(std::vector<SharingModel::Flow>& flows, std::vector<double>& weights)
{
    m_shared.dirty = false;
    if (!m_shared.transferring)
    {
        return;
    }
    for (uint32_t w = 0; w < m_scenario.workers; ++w)
    {
        const auto& links = m_collective ? m_claimed[w] : m_paths[w];
        if (links.empty())
        {
            continue; // collective: its links are presented by earlier hops
        }
        SharingModel::Flow f;
        std::copy(links.begin(), links.end(), f.links.begin());
        f.nLinks = static_cast<uint32_t>(links.size());
        f.priority = m_shared.priority + w;
        f.start = m_shared.ringStart;
        f.cap = m_flowCap;
        flows.push_back(f);
        weights.push_back(1);
        ++sharingFlows;
    }
}

void
FlowRingEngine::ApplyShared(const double* rates)
{
    Shared& s = m_shared;
    if (!s.transferring)
    {
        return;
    }
    ++rateComputations;
    // A ring hop waits for its predecessor's chunk: the ring moves at its slowest flow's rate
    // (the closed form's rule). A faster hop's surplus stays unused in this computation.
    double rate = INF;
    for (uint32_t w = 0; w < m_scenario.workers; ++w)
    {
        // The flows of CollectShared, in its order (collective: a hop per claimed link set).
        if (!(m_collective ? m_claimed[w] : m_paths[w]).empty())
        {
            rate = std::min(rate, *rates++ / (m_collective ? m_multiplicity[w] : 1.0));
        }
    }
    if (s.rated && rate == s.rate)
    {
        return; // same pace: the end time stands
    }
    s.remaining = std::max(0.0, s.remaining - s.rate * (s.now - s.last));
    s.oneRate = !s.rated && s.now == s.ringStart;
    s.rated = true;
    s.rate = rate;
    s.last = s.now;
    ringRate = std::min(ringRate, rate);
    s.next = rate > 0 ? s.now + s.remaining / rate : INF;
}

void
FlowRingEngine::TransferDone()
{
    Shared& s = m_shared;
    s.transferring = false;
    s.dirty = true;
    CountLinks(false);
    const double m = m_buckets[s.bucket].bytes;
    // With one rate throughout, the closed form's own expression (bit for bit); otherwise the
    // integrated transfer plus the ring's hop delays and reduction.
    double ringEnd = s.oneRate ? s.ringStart + RingSeconds(m, s.rate) : s.now + RingSeconds(m, INF);
    if (m_jitter.IsOn())
    {
        // --startJitter: what the delays add to the ring at the mean rate it got (the rates
        // are shared with other jobs, so the round-by-round ring runs at that one rate).
        const double k = static_cast<double>(m_scenario.workers);
        const double elapsed = s.now - s.ringStart;
        const double rate
            = s.oneRate ? s.rate : (elapsed > 0 ? 2 * (k - 1) / k * m / elapsed : INF);
        ringEnd += JitteredRingSeconds(s.step, s.bucket, m, rate) - RingSeconds(m, rate);
    }
    s.prevEnd = ringEnd + s.intra;
    ++events;
    RecordBucket(s.step, s.bucket, s.ringStart, ringEnd, s.carried);
    ++s.bucket;
    NextBucket();
}

void
FlowRingEngine::NextBucket()
{
    Shared& s = m_shared;
    while (true)
    {
        if (s.bucket == m_buckets.size())
        {
            s.stepStart = EndStep(s.step, s.prevEnd);
            s.prevEnd = s.stepStart;
            if (++s.step == m_scenario.steps)
            {
                s.done = true;
                s.next = INF;
                return;
            }
            ComputeReady(s.step);
            FormBuckets();
            s.bucket = 0;
            continue;
        }
        const double m = m_buckets[s.bucket].bytes;
        const double start
            = std::max(s.prevEnd, m_scenario.overlap ? m_buckets[s.bucket].close : m_ready[0]);
        s.intra = TrainingNetwork::GetIntraNodeHalfSeconds(m_scenario, m);
        s.ringStart = start + s.intra;
        if (m_scenario.workers > 1)
        {
            s.next = s.ringStart;
            return;
        }
        s.prevEnd = s.ringStart + s.intra; // one worker: nothing to send
        ++events;
        ++s.bucket;
    }
}

} // namespace flow
} // namespace ns3

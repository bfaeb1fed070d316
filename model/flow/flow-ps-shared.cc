/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// FlowPsEngine in a shared run of several jobs with a plain max-min model (issue 16): its
// connections aggregate into rate classes as in the single-job engine (flow-ps-classes.cc), a
// link counting as private to a connection while no flow of any job shares it (SharedLinks), so
// that a rate computation costs per class, not per active connection of all jobs. The shared
// run without aggregation (a class per connection) is in flow-ps-classes.cc (CollectFlows).

#include "flow-ps-engine.h"

#include "ns3/assert.h"

#include <array>

namespace ns3
{
namespace flow
{

void
FlowPsEngine::BeginShared(double startTime, uint64_t* prioritySeq, SharedLinks* links, uint32_t id)
{
    if (!links)
    {
        BeginShared(startTime, prioritySeq);
        return;
    }
    NS_ASSERT_MSG(m_plainMaxMin && m_p == 1, "aggregation across jobs: plain max-min, one server");
    m_sharedSeq = prioritySeq;
    m_links = links;
    m_linkId = id;
    m_now = startTime;
    StartAll();
}

void
FlowPsEngine::CountShared(uint32_t ci, bool add)
{
    const Connection& c = m_conns[ci];
    // Count every link first, so that a connection re-keyed below sees all of them.
    std::array<std::pair<uint32_t, uint32_t>, SharingModel::MAX_LINKS> changed;
    uint32_t n = 0;
    for (uint32_t i = 0; i < c.nLinks; ++i)
    {
        const uint32_t l = m_pathLinks[c.path + i];
        const uint32_t owner = m_links->Count(l, m_linkId, add);
        if (owner != 0)
        {
            changed[n++] = {l, owner};
        }
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        const auto [l, owner] = changed[i];
        if (owner != m_linkId)
        {
            m_links->GetJob(owner)->RekeyLink(l, m_now);
            continue;
        }
        // This job: a connection of the same direction is re-keyed by CountLinks (its own
        // count crossed 1 <-> 2 too); one of the other direction here.
        const Group& other = m_groups[c.dir == DOWN ? UP : DOWN];
        if (other.linkCount[l] == 1)
        {
            Rekey(other.linkXor[l]);
        }
    }
}

void
FlowPsEngine::RekeyLink(uint32_t l, double now)
{
    m_now = now;
    for (const Group& g : m_groups)
    {
        if (g.linkCount[l] == 1)
        {
            Rekey(g.linkXor[l]);
        }
    }
}

void
FlowPsEngine::CollectShared(std::vector<SharingModel::Flow>& flows, std::vector<double>& weights)
{
    if (!m_links)
    {
        CollectFlows(flows);
        weights.resize(flows.size(), 1);
        return;
    }
    // As RecomputeAggregates: one flow per rate class, of weight = its members.
    for (uint32_t gi = 0; gi < 2; ++gi)
    {
        Group& g = m_groups[gi];
        g.dirty = false;
        for (std::size_t i = 0; i < g.classes.size(); ++i)
        {
            const ClassKey& key = m_keys[g.classes[i]];
            const double n = static_cast<double>(m_classes[g.classes[i]].members.size());
            SharingModel::Flow f;
            f.links = key.links;
            f.nLinks = key.nLinks;
            f.priority = i;
            f.start = 0;
            f.cap = key.cap < INF ? key.cap * n : INF;
            flows.push_back(f);
            weights.push_back(n);
        }
    }
}

void
FlowPsEngine::ApplyShared(const double* rates)
{
    if (!m_links)
    {
        ApplyRates(rates);
        return;
    }
    for (uint32_t gi = 0; gi < 2; ++gi)
    {
        const Group& g = m_groups[gi];
        for (uint32_t k : g.classes)
        {
            const double n = static_cast<double>(m_classes[k].members.size());
            SetClassRate(k, n == 1 ? *rates : *rates / n);
            ++rates;
        }
        ++rateComputations;
        sharingFlows += g.classes.size();
        PushCheck(gi);
    }
}

} // namespace flow
} // namespace ns3

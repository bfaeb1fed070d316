/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-max-min-solver.h"

#include "flow-shared-job.h"
#include "flow-transfer-table.h"

#include "ns3/assert.h"

#include <algorithm>
#include <array>

namespace ns3
{
namespace flow
{

MaxMinSolver::MaxMinSolver(TransferTable& table, const SharingModel& sharing, bool honourCaps)
    : RateSolver(table, sharing),
      m_honourCaps(honourCaps)
{
    for (uint32_t gi = 0; gi < 2; ++gi)
    {
        Links& g = m_links[gi];
        g.capacity = table.Group(gi).capacity;
        g.count.assign(g.capacity.size(), 0);
        g.xorOf.assign(g.capacity.size(), 0);
    }
}

void
MaxMinSolver::ShareLinks(SharedLinks* links, uint32_t id)
{
    m_shared = links;
    m_sharedId = id;
}

bool
MaxMinSolver::IsSharedLink(uint32_t gi, uint32_t l) const
{
    return m_shared ? m_shared->IsShared(l) : m_links[gi].count[l] >= 2;
}

void
MaxMinSolver::Activated(uint32_t ci)
{
    const uint32_t gi = m_t.Conn(ci).dir;
    CountLinks(ci, true);
    m_t.Join(ci, ClassOf(gi, KeyOf(ci)));
}

void
MaxMinSolver::Deactivated(uint32_t ci)
{
    CountLinks(ci, false);
}

void
MaxMinSolver::ClassReleased(uint32_t k)
{
    m_links[m_t.Class(k).group].byKey.erase(m_keys[k]);
}

uint32_t
MaxMinSolver::ClassOf(uint32_t gi, const ClassKey& key)
{
    Links& g = m_links[gi];
    auto it = g.byKey.find(key);
    if (it != g.byKey.end())
    {
        return it->second;
    }
    const uint32_t k = m_t.NewClass(gi);
    if (m_keys.size() <= k)
    {
        m_keys.resize(k + 1);
    }
    m_keys[k] = key;
    g.byKey.emplace(key, k);
    return k;
}

void
MaxMinSolver::CountLinks(uint32_t ci, bool add)
{
    const Connection& c = m_t.Conn(ci);
    Links& g = m_links[c.dir];
    std::array<uint32_t, SharingModel::MAX_LINKS> others;
    uint32_t n = 0;
    for (uint32_t i = 0; i < c.nLinks; ++i)
    {
        const uint32_t l = m_t.Links(c)[i];
        g.xorOf[l] ^= ci;
        g.count[l] += add ? 1 : -1;
        if (g.count[l] == (add ? 2 : 1))
        {
            others[n++] = g.xorOf[l] ^ (add ? ci : 0); // the one that had, or now has, it alone
        }
    }
    if (m_shared)
    {
        CountShared(ci, add); // several jobs (one server each): before the keys are taken
    }
    Recount(ci, add, others.data(), n);
}

void
MaxMinSolver::Recount(uint32_t /* ci */, bool /* add */, const uint32_t* others, uint32_t nOthers)
{
    for (uint32_t i = 0; i < nOthers; ++i)
    {
        Rekey(others[i]);
    }
}

ClassKey
MaxMinSolver::KeyOf(uint32_t ci)
{
    return LinkKeyOf(ci);
}

ClassKey
MaxMinSolver::LinkKeyOf(uint32_t ci) const
{
    // A link that only this connection crosses limits it like a cap of its capacity: it is part
    // of the cap, so that connections behind their own NICs can share one class.
    const Connection& c = m_t.Conn(ci);
    const Links& g = m_links[c.dir];
    ClassKey key;
    key.cap = m_honourCaps ? m_t.FlowCap() : INF;
    key.slot = !m_t.HasWindowModel() ? 0 : c.server + 1; // the window cap is per server
    for (uint32_t i = 0; i < c.nLinks; ++i)
    {
        const uint32_t l = m_t.Links(c)[i];
        if (IsSharedLink(c.dir, l))
        {
            key.links[key.nLinks++] = l;
        }
        else
        {
            key.cap = std::min(key.cap, g.capacity[l]);
        }
    }
    std::sort(key.links.begin(), key.links.begin() + key.nLinks);
    return key;
}

void
MaxMinSolver::Rekey(uint32_t ci)
{
    Connection& c = m_t.Conn(ci);
    if (!c.active)
    {
        return;
    }
    const ClassKey key = KeyOf(ci);
    const ClassKey& now = m_keys[c.cls];
    if (!(key < now) && !(now < key))
    {
        return;
    }
    m_t.Advance(c, m_t.Now());
    m_t.Leave(ci);
    m_t.Join(ci, ClassOf(c.dir, key));
}

void
MaxMinSolver::Prepare(uint32_t /* gi */)
{
}

SharingModel::Flow
MaxMinSolver::AggregateOf(uint32_t k, std::size_t i) const
{
    const ClassKey& key = m_keys[k];
    const double n = static_cast<double>(m_t.Class(k).members.size());
    SharingModel::Flow f;
    f.links = key.links;
    f.nLinks = key.nLinks;
    f.priority = i;
    f.start = 0;
    // The window model's cap (one per direction and server) changes with the active counts of
    // both directions: taken now, for the class as a whole.
    const double cap = !m_t.HasWindowModel()
                           ? key.cap
                           : std::min(key.cap, m_t.WindowCap(m_t.Class(k).group, key.slot - 1));
    f.cap = cap < INF ? cap * n : INF;
    return f;
}

uint64_t
MaxMinSolver::Solve(uint32_t gi)
{
    // Plain max-min gives every flow of a class the same rate, so each class is one flow of
    // weight = its members (and a cap of members x theirs): the cost is per class, not per flow.
    Prepare(gi);
    const auto& classes = m_t.Group(gi).classes;
    m_flows.resize(classes.size());
    m_weights.resize(classes.size());
    for (std::size_t i = 0; i < classes.size(); ++i)
    {
        m_flows[i] = AggregateOf(classes[i], i);
        m_weights[i] = static_cast<double>(m_t.Class(classes[i]).members.size());
    }
    m_sharing.AssignAggregateRates(m_flows, m_weights, m_links[gi].capacity, m_rates);
    for (std::size_t i = 0; i < classes.size(); ++i)
    {
        m_t.SetClassRate(classes[i], m_weights[i] == 1 ? m_rates[i] : m_rates[i] / m_weights[i]);
    }
    return m_flows.size();
}

void
MaxMinSolver::CountShared(uint32_t ci, bool add)
{
    const Connection& c = m_t.Conn(ci);
    // Count every link first, so that a connection re-keyed below sees all of them.
    std::array<std::pair<uint32_t, uint32_t>, SharingModel::MAX_LINKS> changed;
    uint32_t n = 0;
    for (uint32_t i = 0; i < c.nLinks; ++i)
    {
        const uint32_t l = m_t.Links(c)[i];
        const uint32_t owner = m_shared->Count(l, m_sharedId, add);
        if (owner != 0)
        {
            changed[n++] = {l, owner};
        }
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        const auto [l, owner] = changed[i];
        if (owner != m_sharedId)
        {
            m_shared->GetJob(owner)->RekeyLink(l, m_t.Now());
            continue;
        }
        // This job: a connection of the same direction is re-keyed by CountLinks (its own
        // count crossed 1 <-> 2 too); one of the other direction here.
        const Links& other = m_links[c.dir == DOWN ? UP : DOWN];
        if (other.count[l] == 1)
        {
            Rekey(other.xorOf[l]);
        }
    }
}

void
MaxMinSolver::RekeyLink(uint32_t l)
{
    for (const Links& g : m_links)
    {
        if (g.count[l] == 1)
        {
            Rekey(g.xorOf[l]);
        }
    }
}

void
MaxMinSolver::CollectShared(std::vector<SharingModel::Flow>& flows, std::vector<double>& weights)
{
    // As Solve: one flow per rate class, of weight = its members.
    for (uint32_t gi = 0; gi < 2; ++gi)
    {
        LinkGroup& g = m_t.Group(gi);
        g.dirty = false;
        for (std::size_t i = 0; i < g.classes.size(); ++i)
        {
            flows.push_back(AggregateOf(g.classes[i], i));
            weights.push_back(static_cast<double>(m_t.Class(g.classes[i]).members.size()));
        }
    }
}

std::array<uint64_t, 2>
MaxMinSolver::ApplyShared(const double* rates)
{
    std::array<uint64_t, 2> flows{};
    for (uint32_t gi = 0; gi < 2; ++gi)
    {
        const auto& classes = m_t.Group(gi).classes;
        for (uint32_t k : classes)
        {
            const double n = static_cast<double>(m_t.Class(k).members.size());
            m_t.SetClassRate(k, n == 1 ? *rates : *rates / n);
            ++rates;
        }
        flows[gi] = classes.size();
    }
    return flows;
}

} // namespace flow
} // namespace ns3

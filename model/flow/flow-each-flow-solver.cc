/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-each-flow-solver.h"

#include "flow-transfer-table.h"

#include <algorithm>

namespace ns3
{
namespace flow
{

EachFlowSolver::EachFlowSolver(TransferTable& table, const SharingModel& sharing)
    : RateSolver(table, sharing)
{
}

void
EachFlowSolver::Activated(uint32_t ci)
{
    m_t.Join(ci, m_t.NewClass(m_t.Conn(ci).dir));
}

uint64_t
EachFlowSolver::Solve(uint32_t gi)
{
    DescribeActive(gi);
    m_sharing.AssignRates(m_flows, m_t.Group(gi).capacity, m_rates);
    ApplyEach(gi, m_rates.data());
    return m_flows.size();
}

void
EachFlowSolver::DescribeActive(uint32_t gi)
{
    // One pass drops the stale entries of the active list (as the engine's CompactActive,
    // keeping the order) and describes the live ones to the sharing model.
    auto& active = m_t.Group(gi).active;
    std::size_t n = 0;
    m_flows.clear();
    for (std::size_t i = 0; i < active.size(); ++i)
    {
        const ActiveEntry e = active[i];
        const Connection& c = m_t.Conn(e.conn);
        if (!c.active || c.priority != e.priority)
        {
            continue;
        }
        active[n++] = e;
        SharingModel::Flow f;
        std::copy_n(m_t.Links(c), c.nLinks, f.links.begin());
        f.nLinks = c.nLinks;
        f.priority = c.priority;
        f.start = c.activeSince;
        f.cap = m_t.FlowCap();
        m_flows.push_back(f);
    }
    active.resize(n);
    if (m_t.HasWindowModel())
    {
        for (std::size_t i = 0; i < active.size(); ++i)
        {
            m_flows[i].cap = m_t.WindowCap(gi, m_t.Conn(active[i].conn).server);
        }
    }
}

void
EachFlowSolver::ApplyEach(uint32_t gi, const double* rates)
{
    const auto& active = m_t.Group(gi).active;
    for (std::size_t i = 0; i < active.size(); ++i)
    {
        m_t.SetClassRate(m_t.Conn(active[i].conn).cls, rates[i]);
    }
}

void
EachFlowSolver::CollectShared(std::vector<SharingModel::Flow>& flows, std::vector<double>& weights)
{
    for (uint32_t gi = 0; gi < 2; ++gi)
    {
        m_t.Group(gi).dirty = false;
        DescribeActive(gi);
        m_collected[gi] = m_flows.size();
        flows.insert(flows.end(), m_flows.begin(), m_flows.end());
    }
    weights.resize(flows.size(), 1);
}

std::array<uint64_t, 2>
EachFlowSolver::ApplyShared(const double* rates)
{
    for (uint32_t gi = 0; gi < 2; ++gi)
    {
        ApplyEach(gi, rates);
        rates += m_collected[gi];
    }
    return {m_collected[0], m_collected[1]};
}

} // namespace flow
} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// FlowPsEngine's first come, first served rate computation (SharingModel::
// IsFirstComeFirstServed). FcfsSharing serves every active flow in activation order; a flow that
// crosses a link its predecessors filled gets 0 and leaves every link as it was. Every connection
// of a parameter server crosses that server's link, so once the link is full the rest of the
// server's queue gets 0: the engine serves the queues merged in activation order and stops on a
// queue at its first full server link. The rates are those of FcfsSharing::AssignRates bit for
// bit (the same Serve, on the same capacities, in the same order, less the flows that would
// subtract 0), and a rate computation costs per connection that can get a rate, not per active
// connection. The rest of the engine is in flow-ps-engine.cc and flow-ps-classes.cc.

#include "fcfs-sharing.h"
#include "flow-ps-engine.h"

#include <algorithm>
#include <functional>

namespace ns3
{
namespace flow
{

void
FlowPsEngine::EnqueueFcfs(uint32_t ci)
{
    const Connection& c = m_conns[ci];
    Group& g = m_groups[c.dir];
    auto& q = g.queues[c.server];
    q.push_back(ActiveEntry{ci, c.priority});
    ++g.queueActive[c.server];
    if (q.size() > 2 * static_cast<std::size_t>(g.queueActive[c.server]) + 16)
    {
        // Entries before the head are stale; drop every stale one, keeping the order.
        q.erase(std::remove_if(q.begin(),
                               q.end(),
                               [this](const ActiveEntry& e)
                               {
                                   return !IsLive(e);
                               }),
                q.end());
        g.queueHead[c.server] = 0;
    }
}

std::size_t
FlowPsEngine::NextLive(const Group& g, uint32_t p, std::size_t pos) const
{
    const auto& q = g.queues[p];
    while (pos < q.size() && !IsLive(q[pos]))
    {
        ++pos;
    }
    return pos;
}

double
FlowPsEngine::ServeFcfs(uint32_t gi, uint32_t ci)
{
    // The capacity left on a link this round: its capacity when first met (stamped per round,
    // so that a rate computation never sweeps all links).
    const Group& g = m_groups[gi];
    const Connection& c = m_conns[ci];
    const uint32_t* links = m_pathLinks.data() + c.path;
    for (uint32_t k = 0; k < c.nLinks; ++k)
    {
        if (m_linkRound[links[k]] != m_round)
        {
            m_linkRound[links[k]] = m_round;
            m_remaining[links[k]] = g.capacity[links[k]];
        }
    }
    return FcfsSharing::Serve(links, c.nLinks, g.capacity, m_remaining.data());
}

void
FlowPsEngine::RecomputeFcfs(uint32_t gi)
{
    Group& g = m_groups[gi];
    ++m_round;
    m_cursors.clear();
    for (uint32_t p = 0; p < m_p; ++p)
    {
        // Entries before a queue's first live one are stale for good.
        g.queueHead[p] = static_cast<uint32_t>(NextLive(g, p, g.queueHead[p]));
        m_cursorPos[p] = g.queueHead[p];
        if (m_cursorPos[p] < g.queues[p].size())
        {
            m_cursors.emplace_back(g.queues[p][m_cursorPos[p]].priority, p);
        }
    }
    const std::greater<std::pair<uint64_t, uint32_t>> later;
    std::make_heap(m_cursors.begin(), m_cursors.end(), later);
    m_split.clear(); // the connections served with a positive rate
    while (!m_cursors.empty())
    {
        std::pop_heap(m_cursors.begin(), m_cursors.end(), later);
        const uint32_t p = m_cursors.back().second;
        m_cursors.pop_back();
        const uint32_t ci = g.queues[p][m_cursorPos[p]].conn;
        const uint32_t serverLink = m_conns[ci].serverLink;
        if (m_linkRound[serverLink] == m_round && m_remaining[serverLink] <= 0)
        {
            continue; // the server's link is full: the rest of its queue gets 0
        }
        const double rate = ServeFcfs(gi, ci);
        ++sharingFlows;
        m_connRound[ci] = m_round;
        if (rate > 0)
        {
            m_split.push_back(ci);
        }
        SetClassRate(m_conns[ci].cls, rate);
        m_cursorPos[p] = NextLive(g, p, m_cursorPos[p] + 1);
        if (m_cursorPos[p] < g.queues[p].size())
        {
            m_cursors.emplace_back(g.queues[p][m_cursorPos[p]].priority, p);
            std::push_heap(m_cursors.begin(), m_cursors.end(), later);
        }
    }
    // Those served last time and not reached now wait behind a full link.
    for (uint32_t ci : g.served)
    {
        if (m_conns[ci].active && m_connRound[ci] != m_round)
        {
            SetClassRate(m_conns[ci].cls, 0);
        }
    }
    g.served.swap(m_split);
}

} // namespace flow
} // namespace ns3

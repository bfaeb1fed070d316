/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-fcfs-solver.h"

#include "flow-transfer-table.h"

#include <algorithm>
#include <functional>

namespace ns3
{
namespace flow
{

FcfsSolver::FcfsSolver(TransferTable& table, const SharingModel& sharing, uint32_t servers)
    : RateSolver(table, sharing),
      m_p(servers),
      m_byTime{ClassHeap(table.Classes()), ClassHeap(table.Classes())}
{
    for (Queues& q : m_queues)
    {
        q.entries.resize(m_p);
        q.head.assign(m_p, 0);
        q.active.assign(m_p, 0);
    }
    m_connRound.assign(table.Connections(), 0);
    m_cursorPos.assign(m_p, 0);
}

void
FcfsSolver::Activated(uint32_t ci)
{
    const Connection& c = m_t.Conn(ci);
    m_t.Join(ci, m_t.NewClass(c.dir));
    Queues& g = m_queues[c.dir];
    auto& q = g.entries[c.server];
    q.push_back(ActiveEntry{ci, c.priority});
    ++g.active[c.server];
    if (q.size() > 2 * static_cast<std::size_t>(g.active[c.server]) + 16)
    {
        // Entries before the head are stale; drop every stale one, keeping the order.
        q.erase(std::remove_if(q.begin(),
                               q.end(),
                               [this](const ActiveEntry& e)
                               {
                                   return !m_t.IsLive(e);
                               }),
                q.end());
        g.head[c.server] = 0;
    }
}

void
FcfsSolver::Deactivated(uint32_t ci)
{
    const Connection& c = m_t.Conn(ci);
    --m_queues[c.dir].active[c.server];
}

void
FcfsSolver::ClassAdded(uint32_t k)
{
    m_byTime[m_t.Class(k).group].Insert(k);
}

void
FcfsSolver::ClassReleased(uint32_t k)
{
    m_byTime[m_t.Class(k).group].Remove(k);
}

double
FcfsSolver::NextDrain(uint32_t gi)
{
    ++m_t.classWork;
    return m_byTime[gi].Top();
}

void
FcfsSolver::DueClasses(uint32_t gi, std::vector<uint32_t>& due)
{
    m_t.classWork += m_byTime[gi].Due(m_t.Now(), due);
}

ClassHeap*
FcfsSolver::ByTime(uint32_t gi)
{
    return &m_byTime[gi];
}

std::size_t
FcfsSolver::NextLive(const Queues& g, uint32_t p, std::size_t pos) const
{
    const auto& q = g.entries[p];
    while (pos < q.size() && !m_t.IsLive(q[pos]))
    {
        ++pos;
    }
    return pos;
}

void
FcfsSolver::OpenCursors(Queues& g)
{
    m_cursors.clear();
    for (uint32_t p = 0; p < m_p; ++p)
    {
        // Entries before a queue's first live one are stale for good.
        g.head[p] = static_cast<uint32_t>(NextLive(g, p, g.head[p]));
        m_cursorPos[p] = g.head[p];
        if (m_cursorPos[p] < g.entries[p].size())
        {
            m_cursors.emplace_back(g.entries[p][m_cursorPos[p]].priority, p);
        }
    }
}

uint64_t
FcfsSolver::Solve(uint32_t gi)
{
    Queues& g = m_queues[gi];
    ++m_round;
    m_rule.Begin(m_t.Group(gi).capacity);
    OpenCursors(g);
    const std::greater<std::pair<uint64_t, uint32_t>> later;
    std::make_heap(m_cursors.begin(), m_cursors.end(), later);
    m_served.clear();
    uint64_t flows = 0;
    while (!m_cursors.empty())
    {
        std::pop_heap(m_cursors.begin(), m_cursors.end(), later);
        const uint32_t p = m_cursors.back().second;
        m_cursors.pop_back();
        const uint32_t ci = g.entries[p][m_cursorPos[p]].conn;
        const Connection& c = m_t.Conn(ci);
        if (m_rule.IsFull(c.serverLink))
        {
            continue; // the server's link is full: the rest of its queue gets 0
        }
        const double rate = m_rule.Serve(m_t.Links(c), c.nLinks);
        ++flows;
        m_connRound[ci] = m_round;
        if (rate > 0)
        {
            m_served.push_back(ci);
        }
        m_t.SetClassRate(c.cls, rate);
        m_cursorPos[p] = NextLive(g, p, m_cursorPos[p] + 1);
        if (m_cursorPos[p] < g.entries[p].size())
        {
            m_cursors.emplace_back(g.entries[p][m_cursorPos[p]].priority, p);
            std::push_heap(m_cursors.begin(), m_cursors.end(), later);
        }
    }
    // Those served last time and not reached now wait behind a full link.
    for (uint32_t ci : g.served)
    {
        if (m_t.Conn(ci).active && m_connRound[ci] != m_round)
        {
            m_t.SetClassRate(m_t.Conn(ci).cls, 0);
        }
    }
    g.served.swap(m_served);
    return flows;
}

} // namespace flow
} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// FlowPsEngine's rate classes (flow-rate-class.h): which class an active connection belongs to,
// the classes' rates, and the drain times that drive the group checks. The rest of the engine is
// in flow-ps-engine.cc.

#include "flow-ps-engine.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{
namespace flow
{

void
FlowPsEngine::Recompute(uint32_t gi)
{
    m_groups[gi].dirty = false;
    Solved(gi, m_solver->Solve(gi));
}

void
FlowPsEngine::Solved(uint32_t gi, uint64_t flows)
{
    sharingFlows += flows;
    ++rateComputations;
    PushCheck(gi);
}

void
FlowPsEngine::SetClassRate(uint32_t k, double rate)
{
    RateClass& cl = m_classes[k];
    if (!cl.SetRate(m_now, rate))
    {
        return;
    }
    if (cl.GetHistoryLength() > 2 * cl.members.size() + 8)
    {
        // Rebase: account every member up to now, then restart the history at V = 0. The
        // history's length stays O(members), and each rebase is paid by as many rate changes.
        for (uint32_t ci : cl.members)
        {
            Advance(m_conns[ci], m_now);
        }
        cl.Reset(m_now, rate);
        cl.ClearDrains();
        for (uint32_t ci : cl.members)
        {
            m_conns[ci].baseV = 0;
            PushDrain(ci);
        }
        ++rebases;
        classWork += cl.members.size();
    }
    RefreshClass(k);
}

void
FlowPsEngine::CompactActive(uint32_t gi)
{
    auto& active = m_groups[gi].active;
    active.erase(std::remove_if(active.begin(),
                                active.end(),
                                [this](const ActiveEntry& e)
                                {
                                    return !IsLive(e);
                                }),
                 active.end());
}

uint32_t
FlowPsEngine::NewClass(uint32_t gi)
{
    uint32_t k;
    if (!m_freeClasses.empty())
    {
        k = m_freeClasses.back();
        m_freeClasses.pop_back();
    }
    else
    {
        k = static_cast<uint32_t>(m_classes.size());
        m_classes.emplace_back();
    }
    Group& g = m_groups[gi];
    RateClass& cl = m_classes[k];
    cl.Reset(m_now, 0);
    cl.members.clear();
    cl.ClearDrains();
    cl.group = gi;
    cl.live = true;
    cl.nextTime = INF;
    cl.listPos = static_cast<uint32_t>(g.classes.size());
    g.classes.push_back(k);
    m_solver->ClassAdded(k);
    return k;
}

void
FlowPsEngine::ReleaseClass(uint32_t k)
{
    RateClass& cl = m_classes[k];
    Group& g = m_groups[cl.group];
    cl.live = false;
    cl.ClearDrains();
    m_solver->ClassReleased(k);
    const uint32_t moved = g.classes.back();
    g.classes[cl.listPos] = moved;
    m_classes[moved].listPos = cl.listPos;
    g.classes.pop_back();
    m_freeClasses.push_back(k);
}

void
FlowPsEngine::Join(uint32_t ci, uint32_t k)
{
    Connection& c = m_conns[ci];
    RateClass& cl = m_classes[k];
    NS_ASSERT_MSG(c.lastTime == m_now, "a connection joins a class with unaccounted bytes");
    c.cls = k;
    c.slot = static_cast<uint32_t>(cl.members.size());
    cl.members.push_back(ci);
    c.baseV = cl.VirtualAt(m_now);
    PushDrain(ci);
    RefreshClass(k);
}

void
FlowPsEngine::Leave(uint32_t ci)
{
    Connection& c = m_conns[ci];
    RateClass& cl = m_classes[c.cls];
    ++c.drainStamp; // its queued drain point is stale
    const uint32_t last = cl.members.back();
    cl.members[c.slot] = last;
    m_conns[last].slot = c.slot;
    cl.members.pop_back();
    if (cl.members.empty())
    {
        ReleaseClass(c.cls);
    }
    else
    {
        RefreshClass(c.cls);
    }
}

void
FlowPsEngine::PushDrain(uint32_t ci)
{
    Connection& c = m_conns[ci];
    ++c.drainStamp;
    // A remainder within rounding drains at once (as the queue of a zero-byte tensor).
    const double v = c.queued <= ByteTolerance(c.queued) ? c.baseV : c.baseV + c.queued;
    m_classes[c.cls].PushDrain(
        RateClass::Drain{v, ByteTolerance(c.queued), c.lastTime, c.priority, ci, c.drainStamp});
}

void
FlowPsEngine::RefreshClass(uint32_t k)
{
    RateClass& cl = m_classes[k];
    while (cl.HasDrain())
    {
        const RateClass::Drain& d = cl.TopDrain();
        const Connection& c = m_conns[d.conn];
        if (c.active && c.cls == k && c.drainStamp == d.stamp)
        {
            break;
        }
        cl.PopDrain();
    }
    cl.nextTime = cl.HasDrain() ? cl.DrainTime(cl.TopDrain()) : INF;
    // Only a solver that keeps its classes by drain time has a heap (a call per rate change
    // costs 0.6 % of a PS run).
    if (m_byTime[cl.group])
    {
        m_byTime[cl.group]->Update(k);
    }
}

void
FlowPsEngine::PushCheck(uint32_t gi)
{
    Group& g = m_groups[gi];
    const double next = m_solver->NextDrain(gi);
    ++g.version;
    if (next < INF)
    {
        Schedule(std::max(next, m_now), GROUP_CHECK, gi, g.version);
    }
}

void
FlowPsEngine::CollectDrained(uint32_t gi)
{
    m_split.clear();
    m_touched.clear();
    m_solver->DueClasses(gi, m_touched);
    for (uint32_t k : m_touched)
    {
        RateClass& cl = m_classes[k];
        cl.nextTime = INF; // set again by RefreshClass once the drained are handled
        if (m_byTime[gi])
        {
            m_byTime[gi]->Update(k);
        }
        while (cl.HasDrain())
        {
            const RateClass::Drain d = cl.TopDrain();
            const Connection& c = m_conns[d.conn];
            if (c.active && c.cls == k && c.drainStamp == d.stamp)
            {
                if (cl.DrainTime(d) > m_now)
                {
                    break;
                }
                m_split.push_back(d.conn);
            }
            cl.PopDrain();
        }
    }
    // Handled in activation order, whatever their classes (as one pass over the active list).
    std::sort(m_split.begin(),
              m_split.end(),
              [this](uint32_t a, uint32_t b)
              {
                  return m_conns[a].priority < m_conns[b].priority;
              });
}

} // namespace flow
} // namespace ns3

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
    if (m_fcfs)
    {
        RecomputeFcfs(gi); // changes few classes: the heap follows each
    }
    else if (m_plainMaxMin)
    {
        RecomputeAggregates(gi); // every class's rate may change: PushCheck scans them
        sharingFlows += m_flows.size();
    }
    else
    {
        RecomputeEach(gi);
        sharingFlows += m_flows.size();
    }
    ++rateComputations;
    PushCheck(gi);
}

void
FlowPsEngine::RecomputeAggregates(uint32_t gi)
{
    // Plain max-min gives every flow of a class the same rate, so each class is one flow of
    // weight = its members (and a cap of members x theirs): the cost is per class, not per flow.
    Group& g = m_groups[gi];
    if (!g.bundles.empty())
    {
        SetBundleCapacities(gi);
    }
    m_flows.resize(g.classes.size());
    m_weights.resize(g.classes.size());
    for (std::size_t i = 0; i < g.classes.size(); ++i)
    {
        const ClassKey& key = m_keys[g.classes[i]];
        const double n = static_cast<double>(m_classes[g.classes[i]].members.size());
        SharingModel::Flow& f = m_flows[i];
        f.links = key.links;
        f.nLinks = key.nLinks;
        f.priority = i;
        f.start = 0;
        // The window model's cap (one per direction and server) changes with the active counts
        // of both directions: taken now, for the class as a whole.
        const double cap
            = m_windowCount.empty() ? key.cap : std::min(key.cap, WindowCap(gi, key.slot - 1));
        f.cap = cap < INF ? cap * n : INF;
        m_weights[i] = n;
    }
    m_sharing.AssignAggregateRates(m_flows, m_weights, g.capacity, m_rates);
    for (std::size_t i = 0; i < g.classes.size(); ++i)
    {
        SetClassRate(g.classes[i], m_weights[i] == 1 ? m_rates[i] : m_rates[i] / m_weights[i]);
    }
}

void
FlowPsEngine::RecomputeEach(uint32_t gi)
{
    DescribeActive(gi);
    m_sharing.AssignRates(m_flows, m_groups[gi].capacity, m_rates);
    ApplyEach(gi, m_rates.data());
}

void
FlowPsEngine::DescribeActive(uint32_t gi)
{
    // One pass drops the stale entries of the active list (as CompactActive, keeping the order)
    // and describes the live ones to the sharing model.
    Group& g = m_groups[gi];
    auto& active = g.active;
    std::size_t n = 0;
    m_flows.clear();
    for (std::size_t i = 0; i < active.size(); ++i)
    {
        const ActiveEntry e = active[i];
        const Connection& c = m_conns[e.conn];
        if (!c.active || c.priority != e.priority)
        {
            continue;
        }
        active[n++] = e;
        SharingModel::Flow f;
        std::copy_n(m_pathLinks.begin() + c.path, c.nLinks, f.links.begin());
        f.nLinks = c.nLinks;
        f.priority = c.priority;
        f.start = c.activeSince;
        f.cap = m_flowCap;
        m_flows.push_back(f);
    }
    active.resize(n);
    if (m_options.windowBytes > 0)
    {
        ComputeWindowCaps(gi);
    }
}

void
FlowPsEngine::ApplyEach(uint32_t gi, const double* rates)
{
    const Group& g = m_groups[gi];
    for (std::size_t i = 0; i < g.active.size(); ++i)
    {
        SetClassRate(m_conns[g.active[i].conn].cls, rates[i]);
    }
}

void
FlowPsEngine::CollectFlows(std::vector<SharingModel::Flow>& flows)
{
    for (uint32_t gi = 0; gi < 2; ++gi)
    {
        m_groups[gi].dirty = false;
        DescribeActive(gi);
        m_collected[gi] = m_flows.size();
        flows.insert(flows.end(), m_flows.begin(), m_flows.end());
    }
}

void
FlowPsEngine::ApplyRates(const double* rates)
{
    for (uint32_t gi = 0; gi < 2; ++gi)
    {
        ApplyEach(gi, rates);
        rates += m_collected[gi];
        ++rateComputations;
        sharingFlows += m_collected[gi];
        PushCheck(gi);
    }
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
        m_keys.emplace_back();
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
    HeapInsert(k);
    return k;
}

void
FlowPsEngine::ReleaseClass(uint32_t k)
{
    RateClass& cl = m_classes[k];
    Group& g = m_groups[cl.group];
    cl.live = false;
    cl.ClearDrains();
    HeapRemove(k);
    const uint32_t moved = g.classes.back();
    g.classes[cl.listPos] = moved;
    m_classes[moved].listPos = cl.listPos;
    g.classes.pop_back();
    if (m_plainMaxMin)
    {
        g.byKey.erase(m_keys[k]);
    }
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
    if (m_fcfs) // the only heap (a call per rate change costs 0.6 % of a PS run)
    {
        HeapUpdate(k);
    }
}

void
FlowPsEngine::PushCheck(uint32_t gi)
{
    // The earliest drain time of the group's classes: under FCFS the top of its heap (a rate
    // computation changes few classes); else a scan, since a rate computation changes the drain
    // times of all of them and already costs per class (rebuilding a heap costs more).
    Group& g = m_groups[gi];
    double next = INF;
    if (m_fcfs)
    {
        next = g.byTime.empty() ? INF : m_classes[g.byTime.front()].nextTime;
        ++classWork;
    }
    else
    {
        for (uint32_t k : g.classes)
        {
            next = std::min(next, m_classes[k].nextTime);
        }
        classWork += g.classes.size();
    }
    ++g.version;
    if (next < INF)
    {
        Schedule(std::max(next, m_now), GROUP_CHECK, gi, g.version);
    }
}

void
FlowPsEngine::CollectDrained(uint32_t gi)
{
    Group& g = m_groups[gi];
    m_split.clear();
    m_touched.clear();
    // The classes due by now are the heap's top (FCFS): a walk down from the root that stops
    // below any class due later visits them and their children only. Without the heap: a scan.
    m_stack.clear();
    if (!m_fcfs)
    {
        classWork += g.classes.size();
        for (uint32_t k : g.classes)
        {
            if (m_classes[k].nextTime <= m_now)
            {
                m_touched.push_back(k);
            }
        }
    }
    else if (!g.byTime.empty())
    {
        m_stack.push_back(0);
    }
    while (!m_stack.empty())
    {
        const std::size_t i = m_stack.back();
        m_stack.pop_back();
        ++classWork;
        if (m_classes[g.byTime[i]].nextTime > m_now)
        {
            continue;
        }
        m_touched.push_back(g.byTime[i]);
        for (std::size_t c = 2 * i + 1; c <= 2 * i + 2 && c < g.byTime.size(); ++c)
        {
            m_stack.push_back(c);
        }
    }
    for (uint32_t k : m_touched)
    {
        RateClass& cl = m_classes[k];
        cl.nextTime = INF; // set again by RefreshClass once the drained are handled
        HeapUpdate(k);
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

void
FlowPsEngine::HeapInsert(uint32_t k)
{
    if (!m_fcfs)
    {
        return; // only FCFS keeps the heap (PushCheck)
    }
    Group& g = m_groups[m_classes[k].group];
    m_classes[k].heapPos = static_cast<uint32_t>(g.byTime.size());
    g.byTime.push_back(k);
    HeapFix(g, g.byTime.size() - 1);
}

void
FlowPsEngine::HeapRemove(uint32_t k)
{
    if (!m_fcfs)
    {
        return;
    }
    Group& g = m_groups[m_classes[k].group];
    const std::size_t i = m_classes[k].heapPos;
    const uint32_t moved = g.byTime.back();
    g.byTime.pop_back();
    if (i < g.byTime.size())
    {
        g.byTime[i] = moved;
        m_classes[moved].heapPos = static_cast<uint32_t>(i);
        HeapFix(g, i);
    }
}

// Out of line: inlined into RefreshClass (every PS rate change, where it is not called) it made
// that hot function slower.
__attribute__((noinline)) void
FlowPsEngine::HeapUpdate(uint32_t k)
{
    if (!m_fcfs)
    {
        return;
    }
    HeapFix(m_groups[m_classes[k].group], m_classes[k].heapPos);
}

void
FlowPsEngine::HeapFix(Group& g, std::size_t i)
{
    auto& h = g.byTime;
    const uint32_t k = h[i];
    const double t = m_classes[k].nextTime;
    while (i > 0 && m_classes[h[(i - 1) / 2]].nextTime > t)
    {
        h[i] = h[(i - 1) / 2];
        m_classes[h[i]].heapPos = static_cast<uint32_t>(i);
        i = (i - 1) / 2;
    }
    for (std::size_t c = 2 * i + 1; c < h.size(); c = 2 * i + 1)
    {
        if (c + 1 < h.size() && m_classes[h[c + 1]].nextTime < m_classes[h[c]].nextTime)
        {
            ++c;
        }
        if (m_classes[h[c]].nextTime >= t)
        {
            break;
        }
        h[i] = h[c];
        m_classes[h[i]].heapPos = static_cast<uint32_t>(i);
        i = c;
    }
    h[i] = k;
    m_classes[k].heapPos = static_cast<uint32_t>(i);
}

void
FlowPsEngine::Classify(uint32_t ci)
{
    const uint32_t gi = m_conns[ci].dir;
    if (!m_plainMaxMin)
    {
        Join(ci, NewClass(gi));
        return;
    }
    CountLinks(ci, true);
    Join(ci, ClassOf(gi, KeyOf(ci)));
}

uint32_t
FlowPsEngine::ClassOf(uint32_t gi, const ClassKey& key)
{
    Group& g = m_groups[gi];
    auto it = g.byKey.find(key);
    if (it != g.byKey.end())
    {
        return it->second;
    }
    const uint32_t k = NewClass(gi);
    m_keys[k] = key;
    g.byKey.emplace(key, k);
    return k;
}

void
FlowPsEngine::CountLinks(uint32_t ci, bool add)
{
    const Connection& c = m_conns[ci];
    Group& g = m_groups[c.dir];
    std::array<uint32_t, SharingModel::MAX_LINKS> others;
    uint32_t n = 0;
    for (uint32_t i = 0; i < c.nLinks; ++i)
    {
        const uint32_t l = m_pathLinks[c.path + i];
        g.linkXor[l] ^= ci;
        g.linkCount[l] += add ? 1 : -1;
        if (g.linkCount[l] == (add ? 2 : 1))
        {
            others[n++] = g.linkXor[l] ^ (add ? ci : 0); // the one that had, or now has, it alone
        }
    }
    if (m_links)
    {
        CountShared(ci, add); // several jobs (one server each): before the keys are taken
    }
    if (m_p > 1)
    {
        CountWorkers(ci, add, others.data(), n);
        return;
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        Rekey(others[i]);
    }
}

ClassKey
FlowPsEngine::KeyOf(uint32_t ci)
{
    ClassKey key = LinkKeyOf(ci);
    if (m_p > 1)
    {
        BundleKey(ci, key);
    }
    return key;
}

ClassKey
FlowPsEngine::LinkKeyOf(uint32_t ci) const
{
    // A link that only this connection crosses limits it like a cap of its capacity: it is part
    // of the cap, so that connections behind their own NICs can share one class.
    const Connection& c = m_conns[ci];
    const Group& g = m_groups[c.dir];
    ClassKey key;
    key.cap = m_honourCaps ? m_flowCap : INF;
    key.slot = m_windowCount.empty() ? 0 : c.server + 1; // the window model's cap is per server
    for (uint32_t i = 0; i < c.nLinks; ++i)
    {
        const uint32_t l = m_pathLinks[c.path + i];
        if (IsSharedLink(g, l))
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
FlowPsEngine::Rekey(uint32_t ci)
{
    Connection& c = m_conns[ci];
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
    Advance(c, m_now);
    Leave(ci);
    Join(ci, ClassOf(c.dir, key));
}

} // namespace flow
} // namespace ns3

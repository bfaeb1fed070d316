/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-ring-plan-executor.h"

#include "ns3/training-input-error.h"
#include "ns3/training-scenario.h"

#include <algorithm>
#include <set>

namespace ns3
{
namespace flow
{

FlowRingPlanExecutor::FlowRingPlanExecutor(const EngineInputs& in,
                                           AllReduceSchedule::Algorithm algorithm,
                                           const StartJitter& jitter)
    : m_fabric(in.fabric),
      m_sharing(in.sharing),
      m_jitter(jitter),
      m_algorithm(algorithm),
      m_workers(in.scenario.workers),
      m_chunkBytes(in.scenario.treeChunkBytes),
      m_reductionRate(in.scenario.reductionRate),
      m_flowCap(in.flowCap),
      m_slot(in.scenario.workers),
      m_groups(in.scenario.GetCollectiveGroups())
{
    if (m_workers <= 1)
    {
        return;
    }
    // The connections every bucket uses: a plan of 2 bytes has every message of the algorithm
    // (each tree gets one chunk). The packet level opens them in (peer, channel) order, the
    // n-th on ephemeral port 49153 + n (RingAllReduceProtocol::GetSendPeers).
    const auto plans
        = AllReduceSchedule::PlanAll(m_algorithm, m_workers, 2, m_chunkBytes, m_groups);
    for (uint32_t node = 0; node < m_workers; ++node)
    {
        std::set<std::pair<uint32_t, uint32_t>> to;
        for (const auto& send : plans[node].sends)
        {
            to.insert({send.peer, send.channel});
        }
        uint16_t port = FlowFabric::FIRST_EPHEMERAL_PORT;
        for (const auto& key : to)
        {
            Connection c;
            c.from = node;
            c.path = m_fabric.GetPath(node, key.first, port++, FlowFabric::SERVICE_PORT);
            c.delay = m_fabric.GetTopology().GetPathDelay(c.path);
            m_slot[node][key] = static_cast<uint32_t>(m_connections.size());
            m_connections.push_back(std::move(c));
        }
    }
}

const FlowRingPlanExecutor::Plan&
FlowRingPlanExecutor::GetPlan(uint64_t bytes)
{
    auto it = m_plans.find(bytes);
    if (it != m_plans.end())
    {
        return it->second;
    }
    Plan plan;
    plan.nodes = AllReduceSchedule::PlanAll(m_algorithm, m_workers, bytes, m_chunkBytes, m_groups);
    // Messages are matched by (sender, tag) at the receiver.
    std::vector<std::map<std::pair<uint32_t, uint32_t>, uint32_t>> receiveIndex(m_workers);
    for (uint32_t node = 0; node < m_workers; ++node)
    {
        const auto& receives = plan.nodes[node].receives;
        for (uint32_t i = 0; i < receives.size(); ++i)
        {
            receiveIndex[node][{receives[i].peer, receives[i].tag}] = i;
        }
    }
    plan.connectionOf.resize(m_workers);
    plan.receiveOf.resize(m_workers);
    for (uint32_t node = 0; node < m_workers; ++node)
    {
        for (const auto& send : plan.nodes[node].sends)
        {
            plan.connectionOf[node].push_back(m_slot[node].at({send.peer, send.channel}));
            plan.receiveOf[node].push_back(receiveIndex[send.peer].at({node, send.tag}));
        }
    }
    return m_plans.emplace(bytes, std::move(plan)).first->second;
}

void
FlowRingPlanExecutor::Reset()
{
    m_nodes.assign(m_workers, Node{});
    for (uint32_t node = 0; node < m_workers; ++node)
    {
        m_nodes[node].sent.assign(m_plan->nodes[node].sends.size(), false);
        m_nodes[node].have.assign(m_plan->nodes[node].receives.size(), false);
        m_nodes[node].reduced.assign(m_plan->nodes[node].receives.size(), false);
    }
    for (Connection& c : m_connections)
    {
        c.queue.clear();
        c.active = false;
        c.waiting = false;
        c.remaining = 0;
        c.rate = 0;
    }
    m_messages.clear();
    m_receiveOfMessage.clear();
    m_now = 0;
    m_end = 0;
    m_dirty = false;
}

double
FlowRingPlanExecutor::Run(uint64_t bytes, uint32_t step, std::size_t bucket)
{
    if (m_workers <= 1)
    {
        m_messages.clear();
        return 0;
    }
    m_plan = &GetPlan(bytes);
    m_step = step;
    m_bucket = bucket;
    Reset();
    for (uint32_t node = 0; node < m_workers; ++node)
    {
        Advance(node);
    }
    while (true)
    {
        if (m_dirty)
        {
            ComputeRates();
        }
        const double departure = NextDeparture();
        const double t = std::min(departure, m_events.empty() ? INF : m_events.top().time);
        if (t == INF)
        {
            break;
        }
        for (Connection& c : m_connections)
        {
            c.remaining -= c.active ? c.rate * (t - m_now) : 0;
        }
        m_now = t;
        for (uint32_t i = 0; i < m_connections.size(); ++i)
        {
            const Connection& c = m_connections[i];
            if (c.active && c.remaining <= ByteTolerance(m_messages[c.queue.front()].bytes))
            {
                HeadSent(i);
            }
        }
        while (!m_events.empty() && m_events.top().time <= m_now)
        {
            const Event e = m_events.top();
            m_events.pop();
            Handle(e);
        }
    }
    for (const Node& n : m_nodes)
    {
        if (!n.done)
        {
            throw TrainingInputError("--collective: " + AllReduceSchedule::GetName(m_algorithm)
                                     + " at the flow level stopped: the " + m_sharing.GetName()
                                     + " sharing model gave its waiting messages no rate "
                                       "(expected a model that serves every active flow)");
        }
    }
    return m_end;
}

double
FlowRingPlanExecutor::NextDeparture() const
{
    double t = INF;
    for (const Connection& c : m_connections)
    {
        if (!c.active)
        {
            continue;
        }
        if (c.remaining <= ByteTolerance(m_messages[c.queue.front()].bytes))
        {
            return m_now; // an empty message, or one the last step finished up to rounding
        }
        if (c.rate > 0)
        {
            t = std::min(t, m_now + c.remaining / c.rate);
        }
    }
    return t;
}

void
FlowRingPlanExecutor::Advance(uint32_t node)
{
    Node& n = m_nodes[node];
    const AllReduceSchedule::NodePlan& plan = m_plan->nodes[node];
    while (!n.reducing)
    {
        int64_t next = -1;
        for (std::size_t i = n.firstUnsent; i < plan.sends.size() && next < 0; ++i)
        {
            const auto& after = plan.sends[i].after;
            if (!n.sent[i]
                && std::all_of(after.begin(),
                               after.end(),
                               [&n](uint32_t r)
                               {
                                   return n.have[r];
                               }))
            {
                next = static_cast<int64_t>(i);
            }
        }
        if (next < 0)
        {
            if (!n.done && n.sentCount == plan.sends.size() && n.haveCount == plan.receives.size())
            {
                n.done = true;
                m_end = std::max(m_end, m_now);
            }
            return; // wait for a receive
        }
        const auto send = static_cast<uint32_t>(next);
        uint64_t reduce = 0;
        if (NeedsReduction(node, send, reduce) && m_reductionRate > 0)
        {
            // Reduce the received data into ours before forwarding it (one reducer).
            n.reducing = true;
            n.reducingFor = send;
            Schedule(REDUCED, m_now + static_cast<double>(reduce) / m_reductionRate, node);
            return;
        }
        Enqueue(node, send);
    }
}

bool
FlowRingPlanExecutor::NeedsReduction(uint32_t node, uint32_t send, uint64_t& bytes) const
{
    const AllReduceSchedule::NodePlan& plan = m_plan->nodes[node];
    bool needed = false;
    bytes = 0;
    for (uint32_t r : plan.sends[send].after)
    {
        if (plan.receives[r].reduce && !m_nodes[node].reduced[r])
        {
            needed = true;
            bytes += plan.receives[r].bytes;
        }
    }
    return needed;
}

void
FlowRingPlanExecutor::Enqueue(uint32_t node, uint32_t send)
{
    Node& n = m_nodes[node];
    n.sent[send] = true;
    ++n.sentCount;
    while (n.firstUnsent < n.sent.size() && n.sent[n.firstUnsent])
    {
        ++n.firstUnsent;
    }
    const auto& s = m_plan->nodes[node].sends[send];
    const uint32_t c = m_plan->connectionOf[node][send];
    const auto id = static_cast<uint32_t>(m_messages.size());
    m_messages.push_back({node, s.peer, c, s.bytes, m_now, 0});
    m_receiveOfMessage.push_back(m_plan->receiveOf[node][send]);
    Connection& conn = m_connections[c];
    conn.queue.push_back(id);
    if (conn.active || conn.waiting)
    {
        return; // behind the connection's earlier messages
    }
    if (m_jitter.IsOn())
    {
        // An idle connection's transfer waits its start delay (the packet level's rule).
        conn.waiting = true;
        Schedule(ACTIVATE, m_now + m_jitter.Delay(node, m_step, m_bucket << 32 | send), c);
        return;
    }
    Activate(c);
}

void
FlowRingPlanExecutor::Activate(uint32_t c)
{
    Connection& conn = m_connections[c];
    conn.waiting = false;
    conn.active = true;
    conn.remaining = static_cast<double>(m_messages[conn.queue.front()].bytes);
    conn.priority = m_activations++;
    conn.since = m_now;
    m_dirty = true;
}

void
FlowRingPlanExecutor::HeadSent(uint32_t c)
{
    Connection& conn = m_connections[c];
    const uint32_t id = conn.queue.front();
    conn.queue.pop_front();
    Schedule(ARRIVE, m_now + conn.delay, m_messages[id].to, m_receiveOfMessage[id], id);
    if (conn.queue.empty())
    {
        conn.active = false;
        conn.rate = 0;
        m_dirty = true;
        return;
    }
    // The next message follows on the same connection: the flow goes on.
    conn.remaining = static_cast<double>(m_messages[conn.queue.front()].bytes);
}

void
FlowRingPlanExecutor::Handle(const Event& e)
{
    ++counters.events;
    switch (e.kind)
    {
        case ARRIVE:
        {
            m_messages[e.message].arrived = m_now;
            Node& n = m_nodes[e.id];
            n.have[e.index] = true;
            ++n.haveCount;
            Advance(e.id);
            break;
        }
        case REDUCED:
        {
            Node& n = m_nodes[e.id];
            n.reducing = false;
            for (uint32_t r : m_plan->nodes[e.id].sends[n.reducingFor].after)
            {
                n.reduced[r] = true;
            }
            Enqueue(e.id, n.reducingFor);
            Advance(e.id);
            break;
        }
        case ACTIVATE:
            Activate(e.id);
            break;
    }
}

void
FlowRingPlanExecutor::ComputeRates()
{
    m_flows.clear();
    m_flowConnection.clear();
    for (uint32_t i = 0; i < m_connections.size(); ++i)
    {
        const Connection& c = m_connections[i];
        if (!c.active)
        {
            continue;
        }
        SharingModel::Flow f;
        std::copy(c.path.begin(), c.path.end(), f.links.begin());
        f.nLinks = static_cast<uint32_t>(c.path.size());
        f.priority = c.priority;
        f.cap = m_flowCap;
        f.start = c.since;
        m_flows.push_back(f);
        m_flowConnection.push_back(i);
    }
    if (!m_flows.empty())
    {
        m_sharing.AssignRates(m_flows, m_fabric.GetCapacity(), m_rates);
        ++counters.rateComputations;
        counters.sharingFlows += m_flows.size();
    }
    for (std::size_t i = 0; i < m_flows.size(); ++i)
    {
        m_connections[m_flowConnection[i]].rate = m_rates[i];
    }
    m_dirty = false;
}

void
FlowRingPlanExecutor::Schedule(Kind kind,
                               double time,
                               uint32_t id,
                               uint32_t index,
                               uint32_t message)
{
    m_events.push(Event{time, m_seq++, kind, id, index, message});
}

} // namespace flow
} // namespace ns3

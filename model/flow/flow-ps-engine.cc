/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-ps-engine.h"

#include "flow-each-flow-solver.h"

#include "ns3/log.h"
#include "ns3/training-network.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowPsEngine");

namespace flow
{

// The connection's state is what an async run with thousands of workers reads from memory once
// per transfer (flow-ps-engine.h): keep it to two cache lines.
static_assert(sizeof(Connection) == 128, "Connection outgrew two cache lines");

FlowPsEngine::FlowPsEngine(const EngineInputs& in)
    : m_profile(in.profile),
      m_scenario(in.scenario),
      m_sharing(in.sharing),
      m_options(in.options),
      m_result(in.result),
      m_k(in.scenario.workers),
      m_p(std::max<uint32_t>(1, in.scenario.servers)),
      m_l(static_cast<uint32_t>(in.profile.GetNLayers())),
      m_flowCap(in.flowCap),
      m_win(static_cast<double>(in.scenario.windowBytes)),
      m_owner(in.scenario.AssignLayersToServers(in.profile)),
      m_mean(in.profile.GetMeanStep()),
      m_jitter(in.scenario.startJitter.GetSeconds(), in.scenario.seed)
{
    for (const auto& layer : in.profile.GetLayers())
    {
        m_bytes.push_back(static_cast<double>(layer.paramBytes));
    }
    BuildConnections(in.fabric);
    m_realLinks = static_cast<uint32_t>(in.fabric.GetCapacity().size());
    for (auto& g : m_groups)
    {
        g.capacity = in.fabric.GetCapacity();
    }
    if (in.options.windowBytes > 0)
    {
        m_windowCount.assign(2 * static_cast<std::size_t>(m_p), 0);
    }
    m_workers.resize(m_k);
    const std::size_t perLayer = static_cast<std::size_t>(m_k) * m_l;
    if (m_scenario.overlap || m_scenario.gpusPerNode > 1 || in.options.recordTransfers)
    {
        m_ends.assign(perLayer, 0);
    }
    if (in.options.recordTransfers)
    {
        m_starts.assign(perLayer, 0);
    }
    if (m_scenario.overlap)
    {
        m_readyPool.assign(perLayer, 0);
    }
    BuildSegmentLists();
    UseSolver(RateSolver::Create(in.sharing, *this, m_p, in.options.windowBytes > 0));
}

void
FlowPsEngine::UseSolver(std::unique_ptr<RateSolver> solver)
{
    m_solver = std::move(solver);
    for (uint32_t gi = 0; gi < 2; ++gi)
    {
        m_byTime[gi] = m_solver->ByTime(gi);
    }
}

void
FlowPsEngine::BuildConnections(const FlowFabric& fabric)
{
    m_conns.resize(static_cast<std::size_t>(m_k) * m_p * 2);
    for (uint32_t w = 0; w < m_k; ++w)
    {
        for (uint32_t p = 0; p < m_p; ++p)
        {
            for (Direction d : {DOWN, UP})
            {
                Connection& c = m_conns[ConnIndex(w, p, d)];
                c.worker = w;
                c.server = p;
                c.dir = d;
                // The worker's p-th connection: its 5-tuple decides the ECMP path, and the
                // parameters come back along the reverse tuple's path.
                const uint16_t port = FlowFabric::FIRST_EPHEMERAL_PORT + p;
                const auto path = d == DOWN
                                      ? fabric.GetPath(m_k + p, w, FlowFabric::SERVICE_PORT, port)
                                      : fabric.GetPath(w, m_k + p, port, FlowFabric::SERVICE_PORT);
                c.path = static_cast<uint32_t>(m_pathLinks.size());
                c.nLinks = static_cast<uint32_t>(path.size());
                m_pathLinks.insert(m_pathLinks.end(), path.begin(), path.end());
                const uint32_t uplink = fabric.GetUplink(m_k + p);
                c.serverLink = d == DOWN ? uplink : FabricTopology::Reverse(uplink);
            }
        }
    }
}

void
FlowPsEngine::BuildSegmentLists()
{
    // Per server: its layers (one uplink segment each) and downlink segments (two for a layer
    // that WIN splits).
    std::vector<uint32_t> up(m_p, 0);
    std::vector<uint32_t> down(m_p, 0);
    for (uint32_t l = 0; l < m_l; ++l)
    {
        ++up[m_owner[l]];
        down[m_owner[l]] += m_win > 0 && m_bytes[l] > m_win ? 2 : 1;
    }
    const bool random = m_scenario.order == TrainingScenario::RANDOM_ORDER;
    for (uint32_t p = 0; p < m_p; ++p)
    {
        const auto base = static_cast<uint32_t>(m_segPool.size());
        // Gradients leave in backward order, whole (QueueGradients).
        for (uint32_t i = m_l; i-- > 0;)
        {
            if (m_owner[i] == p)
            {
                m_segPool.push_back(Segment{i, true, true});
            }
        }
        const auto shared = static_cast<uint32_t>(m_segPool.size());
        m_segPool.resize(m_segPool.size() + (random ? 0 : down[p]));
        for (uint32_t w = 0; w < m_k; ++w)
        {
            Connection& u = m_conns[ConnIndex(w, p, UP)];
            u.segBase = base;
            u.nSegs = up[p];
            Connection& d = m_conns[ConnIndex(w, p, DOWN)];
            d.segBase = shared;
            d.nSegs = down[p];
        }
    }
    if (random)
    {
        for (uint32_t w = 0; w < m_k; ++w)
        {
            for (uint32_t p = 0; p < m_p; ++p)
            {
                Connection& d = m_conns[ConnIndex(w, p, DOWN)];
                d.segBase = static_cast<uint32_t>(m_segPool.size());
                m_segPool.resize(m_segPool.size() + d.nSegs);
            }
        }
        return;
    }
    // One order for every worker and step: written once (StartStep keeps m_order).
    MakeOrder(0, 0);
    WriteDownlink(0);
}

void
FlowPsEngine::WriteDownlink(uint32_t w)
{
    // 001 Sec. 3.2.2: first services (at most WIN bytes each) in order, then the second services
    // of the streams that had bytes left, in the order they were preempted. All streams of the
    // step are queued at once, so this is the whole FIFO schedule of Fig. 12.
    m_fill.assign(m_p, 0);
    m_split.clear();
    for (uint32_t l : m_order)
    {
        const Connection& c = m_conns[ConnIndex(w, m_owner[l], DOWN)];
        const bool whole = m_win <= 0 || m_bytes[l] <= m_win;
        m_segPool[c.segBase + m_fill[m_owner[l]]++] = Segment{l, true, whole};
        if (!whole)
        {
            m_split.push_back(l);
        }
    }
    for (uint32_t l : m_split)
    {
        const Connection& c = m_conns[ConnIndex(w, m_owner[l], DOWN)];
        m_segPool[c.segBase + m_fill[m_owner[l]]++] = Segment{l, false, true};
    }
}

void
FlowPsEngine::Schedule(double time, EventType type, uint32_t id, uint64_t tag)
{
    m_queue.Schedule(time, type, id, tag);
}

double
FlowPsEngine::Overhead(uint32_t layer) const
{
    return m_options.parsingPerByte * m_bytes[layer] + m_options.parsingPerTensor;
}

void
FlowPsEngine::StartAll()
{
    if (m_options.recordTransfers && !m_result.recordStream)
    {
        m_result.transfers.reserve(m_result.transfers.size() + 2ULL * m_k * m_scenario.steps * m_l);
    }
    m_result.steps.reserve(m_result.steps.size() + 1ULL * m_k * m_scenario.steps);
    if (m_scenario.warmup == 0)
    {
        SetCounting(true);
    }
    for (uint32_t w = 0; w < m_k; ++w)
    {
        if (m_jitter.IsOn())
        {
            Schedule(m_now + m_jitter.FirstStep(w), STEP_START, w, 0);
            continue;
        }
        StartStep(w, 0);
    }
}

void
FlowPsEngine::Run()
{
    StartAll();
    RecomputeDirty();
    while (!m_queue.IsEmpty())
    {
        Event e = m_queue.Pop();
        m_now = e.time;
        Handle(e);
        // Rates matter only once time moves on: batch all set changes of one instant.
        if (m_queue.InstantOver())
        {
            RecomputeDirty();
        }
    }
}

void
FlowPsEngine::BeginShared(double startTime, uint64_t* prioritySeq, SharedLinks* links, uint32_t id)
{
    if (links)
    {
        m_solver->ShareLinks(links, id); // plain max-min, one server
    }
    else
    {
        // A class per connection: no link is private to one job's flow, and the jobs' flows
        // are served together (FlowJobSimulator), FCFS too.
        UseSolver(std::make_unique<EachFlowSolver>(*this));
    }
    m_sharedSeq = prioritySeq;
    m_now = startTime;
    StartAll();
}

void
FlowPsEngine::CollectShared(std::vector<SharingModel::Flow>& flows, std::vector<double>& weights)
{
    m_solver->CollectShared(flows, weights);
}

void
FlowPsEngine::ApplyShared(const double* rates)
{
    m_solver->ApplyShared(rates);
}

void
FlowPsEngine::RekeyLink(uint32_t l, double now)
{
    m_now = now;
    m_solver->RekeyLink(l);
}

double
FlowPsEngine::NextEventTime() const
{
    return m_queue.IsEmpty() ? INF : std::max(m_queue.PeekTime(), m_now);
}

void
FlowPsEngine::HandleNext()
{
    Event e = m_queue.Pop();
    // The queue's own clock may lag the shared one (it only moves with this job's events).
    m_now = std::max(e.time, m_now);
    Handle(e);
}

void
FlowPsEngine::SetNow(double now)
{
    m_now = now;
}

bool
FlowPsEngine::IsDirty() const
{
    return m_groups[0].dirty || m_groups[1].dirty;
}

void
FlowPsEngine::RecomputeDirty()
{
    for (uint32_t gi = 0; gi < 2; ++gi)
    {
        if (m_groups[gi].dirty)
        {
            Recompute(gi);
        }
    }
}

void
FlowPsEngine::Handle(const Event& e)
{
    switch (e.type)
    {
        case GROUP_CHECK:
            if (e.tag != m_groups[e.id].version)
            {
                break; // superseded by a later rate computation
            }
            ++events;
            GroupCheck(e.id);
            break;
        case CONN_ACTIVATE:
        {
            Connection& c = m_conns[e.id];
            if (c.active || c.step != e.tag || c.head >= c.nSegs)
            {
                break;
            }
            ++events;
            Activate(e.id);
            break;
        }
        case STEP_END:
            ++events;
            StepEnd(e.id);
            break;
        case STEP_START:
            ++events;
            StartStep(e.id, static_cast<uint32_t>(e.tag));
            break;
    }
}

void
FlowPsEngine::SelectSample(uint32_t w, uint32_t step)
{
    WorkerState& ws = m_workers[w];
    if (m_scenario.sampleSteps && m_profile.GetNSamples() > 0)
    {
        StepRng rng(m_scenario.seed, w, step, 0);
        const auto& s = m_profile.GetSample(rng.Below(m_profile.GetNSamples()));
        ws.fwd = &s.forwardUs;
        ws.bwd = &s.backwardUs;
        ws.upd = &s.updateUs;
    }
    else
    {
        ws.fwd = &m_mean.forwardUs;
        ws.bwd = &m_mean.backwardUs;
        ws.upd = &m_mean.updateUs;
    }
}

void
FlowPsEngine::MakeOrder(uint32_t w, uint32_t step)
{
    m_order.resize(m_l);
    for (uint32_t l = 0; l < m_l; ++l)
    {
        m_order[l] = l;
    }
    if (m_scenario.order == TrainingScenario::REVERSE_ORDER)
    {
        std::reverse(m_order.begin(), m_order.end());
    }
    else if (m_scenario.order == TrainingScenario::RANDOM_ORDER)
    {
        StepRng rng(m_scenario.seed, w, step, 1);
        for (uint32_t i = m_l; i > 1; --i)
        {
            std::swap(m_order[i - 1], m_order[rng.Below(i)]);
        }
    }
}

void
FlowPsEngine::ResetConnections(uint32_t w, Direction d, uint32_t step)
{
    for (uint32_t p = 0; p < m_p; ++p)
    {
        Connection& c = m_conns[ConnIndex(w, p, d)];
        c.head = c.admitted = 0;
        c.headSent = 0;
        c.headStarted = false;
        c.queued = 0;
        c.lastEnd = 0; // arrivals are at or after the step's start, which is >= 0
        c.ready = m_now;
        c.step = step;
    }
}

void
FlowPsEngine::StartStep(uint32_t w, uint32_t step)
{
    NS_LOG_FUNCTION(this << w << step << m_now);
    WorkerState& ws = m_workers[w];
    ws.step = step;
    ws.stepStart = m_now;
    SelectSample(w, step);
    ResetConnections(w, DOWN, step); // every segment ready now
    if (m_scenario.order == TrainingScenario::RANDOM_ORDER)
    {
        // Each server sends its own layers in this order (else m_order and the shared lists
        // are the constructor's, the same for every worker and step).
        MakeOrder(w, step);
        WriteDownlink(w);
    }
    // Connections become active in the order of their first tensor in the transmission order
    // (it matters for FCFS priority between one worker's connections to several servers).
    ws.pendingDown = 0;
    m_flag.assign(m_p, 0);
    for (uint32_t l : m_order)
    {
        if (!m_flag[m_owner[l]])
        {
            m_flag[m_owner[l]] = 1;
            ++ws.pendingDown;
            const uint32_t ci = ConnIndex(w, m_owner[l], DOWN);
            if (m_jitter.IsOn())
            {
                // The server's transfer of the step's parameters starts on an idle connection.
                Schedule(m_now + StartDelay(m_conns[ci]), CONN_ACTIVATE, ci, step);
                continue;
            }
            Activate(ci);
        }
    }
}

double
FlowPsEngine::IntraNode(uint32_t l) const
{
    // Multi-GPU node (000 Sec. 4.4): parameters are broadcast inside the node, and gradients
    // reduced inside it, one tensor after another over the intra-node interconnect, each taking
    // TrainingNetwork::GetIntraNodeHalfSeconds (the packet level does the same).
    return TrainingNetwork::GetIntraNodeHalfSeconds(m_scenario, m_bytes[l]);
}

void
FlowPsEngine::UsableTimes(uint32_t w)
{
    const WorkerState& ws = m_workers[w];
    const double* const end = m_ends.data() + static_cast<std::size_t>(w) * m_l;
    m_usable.assign(end, end + m_l);
    if (m_scenario.gpusPerNode > 1)
    {
        m_byArrival.resize(m_l);
        for (uint32_t l = 0; l < m_l; ++l)
        {
            m_byArrival[l] = l;
        }
        std::stable_sort(m_byArrival.begin(),
                         m_byArrival.end(),
                         [end](uint32_t a, uint32_t b)
                         {
                             return end[a] < end[b];
                         });
        double free = ws.stepStart;
        for (uint32_t l : m_byArrival)
        {
            free = std::max(free, end[l]) + IntraNode(l);
            m_usable[l] = free;
        }
    }
}

double
FlowPsEngine::ForwardEnd(uint32_t w)
{
    const WorkerState& ws = m_workers[w];
    const double scale = m_scenario.GetComputeScale(w);
    const auto& fwd = *ws.fwd;
    // Overlap on, layer l starts when its parameters are in and layer l-1 is done; overlap off,
    // all of it after the last parameter of the step arrived.
    double t = ws.stepStart;
    if (m_scenario.overlap)
    {
        UsableTimes(w);
        for (uint32_t l = 0; l < m_l; ++l)
        {
            t = std::max(t, m_usable[l]) + fwd[l] * US * scale + Overhead(l);
        }
        return t;
    }
    if (m_scenario.gpusPerNode > 1)
    {
        UsableTimes(w);
        for (uint32_t l = 0; l < m_l; ++l)
        {
            t = std::max(t, m_usable[l]);
        }
    }
    else
    {
        // The latest arrival: the maximum of the layers' times, taken per connection.
        for (uint32_t p = 0; p < m_p; ++p)
        {
            t = std::max(t, m_conns[ConnIndex(w, p, DOWN)].lastEnd);
        }
    }
    for (uint32_t l = 0; l < m_l; ++l)
    {
        t += fwd[l] * US * scale + Overhead(l);
    }
    return t;
}

double
FlowPsEngine::QueueGradients(uint32_t w, double t)
{
    WorkerState& ws = m_workers[w];
    const double scale = m_scenario.GetComputeScale(w);
    const auto& bwd = *ws.bwd;
    const bool multiGpu = m_scenario.gpusPerNode > 1;
    ResetConnections(w, UP, ws.step);
    // Backward in reverse layer order; gradient l may leave when its backward is done (overlap
    // on) or when the whole backward is done (overlap off).
    double reduceFree = 0;
    for (uint32_t i = m_l; i-- > 0;)
    {
        t += bwd[i] * US * scale;
        double ready = t;
        if (multiGpu && m_scenario.overlap)
        {
            reduceFree = std::max(reduceFree, t) + IntraNode(i);
            ready = reduceFree;
        }
        if (!m_readyPool.empty())
        {
            m_readyPool[static_cast<std::size_t>(w) * m_l + i] = ready; // overlap on
        }
    }
    if (multiGpu && !m_scenario.overlap)
    {
        // Strict phases: all reductions after the whole backward, then all uplinks.
        for (uint32_t i = m_l; i-- > 0;)
        {
            t += IntraNode(i);
        }
    }
    return t;
}

void
FlowPsEngine::ScheduleUplinks(uint32_t w, double allReady)
{
    // Activation events are scheduled in backward order of the connections' first gradients, so
    // that simultaneous activations (overlap off) keep that order (FCFS priority).
    WorkerState& ws = m_workers[w];
    ws.pendingUp = 0;
    m_flag.assign(m_p, 0);
    for (uint32_t i = m_l; i-- > 0;)
    {
        if (m_flag[m_owner[i]])
        {
            continue;
        }
        m_flag[m_owner[i]] = 1;
        uint32_t ci = ConnIndex(w, m_owner[i], UP);
        Connection& c = m_conns[ci];
        c.ready = allReady; // overlap on: m_readyPool's times instead
        ++ws.pendingUp;
        Schedule(ReadyOf(c, 0) + StartDelay(c), CONN_ACTIVATE, ci, c.step);
    }
}

void
FlowPsEngine::DownlinkDone(uint32_t w)
{
    NS_LOG_FUNCTION(this << w << m_now);
    ScheduleUplinks(w, QueueGradients(w, ForwardEnd(w)));
}

void
FlowPsEngine::UplinkDone(uint32_t w)
{
    NS_LOG_FUNCTION(this << w << m_now);
    WorkerState& ws = m_workers[w];
    const auto& upd = *ws.upd;
    // Updates of one worker at one server run one after another, in arrival order; different
    // workers (and different servers) in parallel. Overlap on: each as soon as its gradient is
    // in; overlap off: once all of the worker's gradients for *that server* are in (a server
    // cannot see the others; the packet-level ParameterServerApplication does the same).
    // (A connection's latest arrival is the maximum over its layers' times, and every layer
    // is on one connection.)
    double allIn = ws.stepStart;
    for (uint32_t p = 0; p < m_p; ++p)
    {
        allIn = std::max(allIn, m_conns[ConnIndex(w, p, UP)].lastEnd);
    }
    // Per-layer arrival times are kept only where needed (overlap reads them; else empty).
    const double* const arrival
        = m_ends.empty() ? nullptr : m_ends.data() + static_cast<std::size_t>(w) * m_l;
    double end = allIn;
    for (uint32_t p = 0; p < m_p; ++p)
    {
        const Connection& c = m_conns[ConnIndex(w, p, UP)];
        double t = m_scenario.overlap ? ws.stepStart : std::max(ws.stepStart, c.lastEnd);
        for (const Segment* s = Segs(c); s != Segs(c) + c.nSegs; ++s)
        {
            if (m_scenario.overlap)
            {
                t = std::max(t, arrival[s->layer]);
            }
            t += upd[s->layer] * US + Overhead(s->layer);
        }
        end = std::max(end, t);
    }
    Schedule(end, STEP_END, w, ws.step);
}

void
FlowPsEngine::StepEnd(uint32_t w)
{
    WorkerState& ws = m_workers[w];
    NS_LOG_FUNCTION(this << w << ws.step << m_now);
    m_result.AddStep({w, ws.step, ws.stepStart, m_now});
    const uint32_t n = m_scenario.steps;
    const uint32_t warm = m_scenario.warmup;
    if (m_scenario.mode == TrainingScenario::ASYNC)
    {
        // Finalize(): the window opens when every worker has done its warm-up steps and closes
        // when the first worker has done all its steps.
        if (warm > 0 && ws.step + 1 == warm && ++m_warmDone == m_k)
        {
            SetCounting(true);
        }
        if (ws.step + 1 == n && !m_windowClosed)
        {
            SetCounting(false);
            m_windowClosed = true;
        }
        if (ws.step + 1 < n)
        {
            StartStep(w, ws.step + 1);
        }
        return;
    }
    // Sync: the barrier of Algorithm 1 lines 36-39.
    if (++m_barrierCount < m_k)
    {
        return;
    }
    m_barrierCount = 0;
    const uint32_t next = ws.step + 1; // StartStep(w, ...) below changes ws.step
    if (warm > 0 && next == warm)
    {
        SetCounting(true);
    }
    if (next == n)
    {
        SetCounting(false);
        return;
    }
    for (uint32_t v = 0; v < m_k; ++v)
    {
        StartStep(v, next);
    }
}

void
FlowPsEngine::SetCounting(bool on)
{
    if (on && m_windowClosed)
    {
        return; // async: a worker finished before another's warm-up; the window is empty
    }
    EnsureAdvanced(DOWN);
    EnsureAdvanced(UP);
    m_counting = on;
}

void
FlowPsEngine::Admit(Connection& c)
{
    const Segment* const segs = Segs(c);
    while (c.admitted < c.nSegs && ReadyOf(c, c.admitted) <= m_now)
    {
        c.queued += SegmentBytes(segs[c.admitted]);
        ++c.admitted;
    }
}

void
FlowPsEngine::Activate(uint32_t ci)
{
    Connection& c = m_conns[ci];
    Group& g = m_groups[c.dir];
    Admit(c);
    NS_ASSERT_MSG(c.admitted > c.head, "activating a connection with nothing ready");
    c.active = true;
    c.lastTime = m_now;
    c.priority = m_sharedSeq ? ++*m_sharedSeq : ++m_prioritySeq;
    c.activeSince = m_now;
    if (!m_windowCount.empty())
    {
        ++m_windowCount[c.dir * m_p + c.server];
    }
    g.active.push_back(ActiveEntry{ci, c.priority});
    ++g.nActive;
    if (g.active.size() > 2 * static_cast<std::size_t>(g.nActive) + 16)
    {
        CompactActive(c.dir);
    }
    m_solver->Activated(ci);
    g.dirty = true;
    MarkOtherDirection(c.dir);
}

void
FlowPsEngine::Deactivate(uint32_t ci)
{
    Connection& c = m_conns[ci];
    Group& g = m_groups[c.dir];
    Leave(ci);
    c.active = false;
    --g.nActive;
    if (!m_windowCount.empty())
    {
        --m_windowCount[c.dir * m_p + c.server];
    }
    m_solver->Deactivated(ci);
    g.dirty = true;
    MarkOtherDirection(c.dir);
}

void
FlowPsEngine::MarkOtherDirection(Direction d)
{
    if (m_options.windowBytes > 0)
    {
        // The window model couples the directions: one direction's standing queue lengthens the
        // other's round trip (its ACKs wait in it).
        // (Recompute accounts its connections up to now at their old rates first.)
        m_groups[d == DOWN ? UP : DOWN].dirty = true;
    }
}

double
FlowPsEngine::WindowCap(uint32_t gi, uint32_t server) const
{
    // Per server link: the direction whose connections have more window beyond the empty
    // path's bandwidth-delay product fills its link and builds the standing queue (the excess,
    // at most its buffer: the server's NIC for parameters, the switch port for gradients). The
    // other direction's ACKs wait in that queue, so each of its connections sends at most one
    // window per (empty round trip + that queue's delay). The filling direction's connections
    // send at most one window per empty round trip, which binds only when their windows do not
    // cover the path (with them, the link and, once the buffer is full, losses limit it).
    // The active counts per direction and server are kept by Activate and Deactivate.
    const double w = m_options.windowBytes;
    const Direction other = gi == DOWN ? UP : DOWN;
    const uint32_t link = m_conns[ConnIndex(0, server, static_cast<Direction>(gi))].serverLink;
    const double capacity = m_groups[gi].capacity[link];
    const double pipe = capacity * m_options.baseRtt;
    const double mine = m_windowCount[gi * m_p + server] * w - pipe;
    const double theirs = m_windowCount[other * m_p + server] * w - pipe;
    double queue = 0; // in front of this direction's ACKs
    if (theirs > mine && theirs > 0)
    {
        const double buffer
            = other == DOWN ? m_options.hostBufferBytes : m_options.switchBufferBytes;
        queue = std::min(buffer, theirs);
    }
    return std::min(m_flowCap, w / (m_options.baseRtt + queue / capacity));
}

void
FlowPsEngine::Account(double& queued, double& windowBytes, double bytes) const
{
    queued -= bytes;
    if (m_counting)
    {
        // Per connection: its path is fixed, so the links' bytes are summed once, at the end.
        windowBytes += bytes;
    }
}

std::vector<double>
FlowPsEngine::GetLinkBytes(Direction d) const
{
    std::vector<double> bytes(m_realLinks, 0);
    for (const Connection& c : m_conns)
    {
        for (uint32_t k = 0; c.dir == d && k < c.nLinks; ++k)
        {
            bytes[m_pathLinks[c.path + k]] += c.windowBytes;
        }
    }
    return bytes;
}

void
FlowPsEngine::SegmentStarted(const Connection& c, const Segment& s, double t)
{
    if (s.first && m_options.recordTransfers)
    {
        // Start times serve only the transfer records (kept out of the cache otherwise).
        m_starts[static_cast<std::size_t>(c.worker) * m_l + s.layer] = t;
    }
}

void
FlowPsEngine::SegmentDone(Connection& c, const Segment& s, double t)
{
    if (s.last)
    {
        c.lastEnd = std::max(c.lastEnd, t);
        if (!m_ends.empty())
        {
            m_ends[static_cast<std::size_t>(c.worker) * m_l + s.layer] = t;
        }
    }
    if (m_options.recordTransfers)
    {
        Record(c, s);
    }
}

void
FlowPsEngine::Record(const Connection& c, const Segment& s)
{
    if (!s.last)
    {
        return;
    }
    const std::size_t i = static_cast<std::size_t>(c.worker) * m_l + s.layer;
    m_result.AddTransfer({c.worker,
                          c.server,
                          c.step,
                          static_cast<int32_t>(s.layer),
                          c.dir == DOWN ? "down" : "up",
                          m_profile.GetLayer(s.layer).paramBytes,
                          m_starts[i],
                          m_ends[i]});
}

void
FlowPsEngine::SaveProgress(Connection& c, const Progress& p)
{
    c.head = p.head;
    c.headSent = p.headSent;
    c.headStarted = p.started;
    c.queued = p.queued;
    c.windowBytes = p.windowBytes;
    c.lastEnd = p.lastEnd;
}

void
FlowPsEngine::Advance(Connection& c, double t)
{
    if (t <= c.lastTime)
    {
        return;
    }
    // The bytes sent since lastTime are the class's virtual bytes since then; a segment ends
    // when they cover it (interpolated in the class's rate history).
    const RateClass& k = m_classes[c.cls];
    const double vt = k.VirtualAt(t);
    double budget = vt - c.baseV;
    double at = c.baseV;
    double cur = c.lastTime;
    std::size_t piece = k.PieceAt(cur); // moves forward with cur
    // The connection's progress and the worker's times through locals, and the transfer records
    // after the loop: the loop then calls nothing and reloads nothing (the stores of the end
    // times could alias the connection's fields). Once per segment of every step: the hot loop.
    const uint32_t first = c.head;
    Progress p{c.head, c.headSent, c.headStarted, c.queued, c.windowBytes, c.lastEnd};
    const Segment* const segs = Segs(c);
    const std::size_t row = static_cast<std::size_t>(c.worker) * m_l;
    double* const ends = m_ends.empty() ? nullptr : m_ends.data() + row;
    double* const starts = m_starts.empty() ? nullptr : m_starts.data() + row;
    while (p.head < c.admitted)
    {
        const Segment s = segs[p.head];
        const double bytes = SegmentBytes(s);
        const double rem = bytes - p.headSent;
        if (!p.started)
        {
            const double start = rem > ByteTolerance(bytes) ? k.ServiceStart(cur, piece) : cur;
            if (start > t)
            {
                break; // waiting (FCFS): service has not begun
            }
            cur = start;
            p.started = true;
            if (starts && s.first)
            {
                starts[s.layer] = cur;
            }
        }
        if (rem > budget + ByteTolerance(bytes))
        {
            p.headSent += budget;
            Account(p.queued, p.windowBytes, budget);
            break;
        }
        // A remainder within rounding of the budget ends when the bytes stopped growing.
        const double end = std::min(t, k.TimeAt(std::min(at + rem, vt), cur, piece));
        Account(p.queued, p.windowBytes, rem);
        budget = std::max(0.0, budget - rem);
        at = std::min(vt, at + rem);
        if (s.last)
        {
            p.lastEnd = std::max(p.lastEnd, end);
            if (ends)
            {
                ends[s.layer] = end;
            }
        }
        cur = end;
        ++p.head;
        p.headSent = 0;
        p.started = false;
    }
    SaveProgress(c, p);
    c.lastTime = t;
    c.baseV = vt;
    for (uint32_t i = first; starts && i < p.head; ++i)
    {
        Record(c, segs[i]);
    }
}

void
FlowPsEngine::FinishAdmitted(Connection& c)
{
    // Called at the connection's check time: what is left of the admitted bytes is rounding.
    while (c.head < c.admitted)
    {
        const Segment& s = Segs(c)[c.head];
        if (!c.headStarted)
        {
            SegmentStarted(c, s, m_now);
        }
        Account(c.queued, c.windowBytes, SegmentBytes(s) - c.headSent);
        SegmentDone(c, s, m_now);
        ++c.head;
        c.headSent = 0;
        c.headStarted = false;
    }
    c.queued = 0;
}

void
FlowPsEngine::EnsureAdvanced(uint32_t gi)
{
    for (const ActiveEntry& e : m_groups[gi].active)
    {
        Connection& c = m_conns[e.conn];
        if (c.active && c.priority == e.priority)
        {
            Advance(c, m_now);
        }
    }
}

void
FlowPsEngine::GroupCheck(uint32_t gi)
{
    Group& g = m_groups[gi];
    CollectDrained(gi);
    for (uint32_t ci : m_split)
    {
        Connection& c = m_conns[ci];
        Advance(c, m_now);
        FinishAdmitted(c);
        Admit(c);
        if (c.admitted > c.head)
        {
            PushDrain(ci); // busy on: same rate, no rate computation for the boundary
            RefreshClass(c.cls);
        }
        else if (c.head < c.nSegs)
        {
            Deactivate(ci); // idle until its next tensor is ready (and its start jitter)
            Schedule(ReadyOf(c, c.head) + StartDelay(c), CONN_ACTIVATE, ci, c.step);
        }
        else
        {
            Deactivate(ci);
            ConnectionDone(c);
        }
    }
    for (uint32_t k : m_touched)
    {
        if (m_classes[k].live)
        {
            RefreshClass(k);
        }
    }
    if (!g.dirty)
    {
        PushCheck(gi);
    }
}

void
FlowPsEngine::ConnectionDone(Connection& c)
{
    WorkerState& ws = m_workers[c.worker];
    if (c.dir == DOWN)
    {
        if (--ws.pendingDown == 0)
        {
            DownlinkDone(c.worker);
        }
    }
    else if (--ws.pendingUp == 0)
    {
        UplinkDone(c.worker);
    }
}

} // namespace flow
} // namespace ns3

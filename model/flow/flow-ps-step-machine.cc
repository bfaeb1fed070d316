/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-ps-step-machine.h"

#include "flow-transfer-table.h"

#include "ns3/log.h"
#include "ns3/training-network.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PsStepMachine");

namespace flow
{

PsStepMachine::PsStepMachine(const EngineInputs& in, TransferTable& table, EventQueue& queue)
    : m_table(table),
      m_queue(queue),
      m_profile(in.profile),
      m_scenario(in.scenario),
      m_options(in.options),
      m_result(in.result),
      m_k(in.scenario.workers),
      m_p(std::max<uint32_t>(1, in.scenario.servers)),
      m_l(static_cast<uint32_t>(in.profile.GetNLayers())),
      m_mean(in.profile.GetMeanStep()),
      m_jitter(in.scenario.startJitter.GetSeconds(), in.scenario.seed),
      m_slowdown(in.scenario.slowdown, in.scenario.stragglers, m_k, in.scenario.seed),
      m_absences(in.scenario.leave, m_k),
      m_workers(m_k)
{
    if (m_scenario.order != TrainingScenario::RANDOM_ORDER)
    {
        // One order for every worker and step: written once (StartStep keeps m_order).
        MakeOrder(0, 0);
        m_table.WriteDownlink(0, m_order);
    }
}

void
PsStepMachine::StartAll()
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
            m_queue.Schedule(m_table.Now() + m_jitter.FirstStep(w), STEP_START, w, 0);
            continue;
        }
        StartStep(w, 0);
    }
}

void
PsStepMachine::SelectSample(uint32_t w, uint32_t step)
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
PsStepMachine::MakeOrder(uint32_t w, uint32_t step)
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
PsStepMachine::StartStep(uint32_t w, uint32_t step)
{
    NS_LOG_FUNCTION(this << w << step << m_table.Now());
    const double back = m_absences.NextStart(w, m_table.Now());
    if (back > m_table.Now())
    {
        m_queue.Schedule(back, STEP_START, w, step); // --leave: back at the window's end
        return;
    }
    WorkerState& ws = m_workers[w];
    ws.step = step;
    ws.stepStart = m_table.Now();
    SelectSample(w, step);
    m_table.ResetConnections(w, DOWN, step); // every segment ready now
    if (m_scenario.order == TrainingScenario::RANDOM_ORDER)
    {
        // Each server sends its own layers in this order (else m_order and the shared lists
        // are the constructor's, the same for every worker and step).
        MakeOrder(w, step);
        m_table.WriteDownlink(w, m_order);
    }
    // Connections become active in the order of their first tensor in the transmission order
    // (it matters for FCFS priority between one worker's connections to several servers).
    ws.pendingDown = 0;
    m_flag.assign(m_p, 0);
    const auto& owner = m_table.Segments().Owners();
    for (uint32_t l : m_order)
    {
        if (!m_flag[owner[l]])
        {
            m_flag[owner[l]] = 1;
            ++ws.pendingDown;
            const uint32_t ci = m_table.ConnIndex(w, owner[l], DOWN);
            if (m_jitter.IsOn() || m_table.IsLocal(ci))
            {
                // The server's transfer of the step's parameters starts on an idle connection.
                // A local one (co-located shard) is delivered by the event: at once, but after
                // every connection of the step is counted in pendingDown.
                m_queue.Schedule(m_table.Now() + StartDelay(m_table.Conn(ci)),
                                 CONN_ACTIVATE,
                                 ci,
                                 step);
                continue;
            }
            m_table.Activate(ci);
        }
    }
}

double
PsStepMachine::IntraNode(uint32_t l) const
{
    // Multi-GPU node (000 Sec. 4.4): parameters are broadcast inside the node, and gradients
    // reduced inside it, one tensor after another over the intra-node interconnect, each taking
    // TrainingNetwork::GetIntraNodeHalfSeconds (the packet level does the same).
    return TrainingNetwork::GetIntraNodeHalfSeconds(m_scenario, m_table.Segments().LayerBytes(l));
}

void
PsStepMachine::UsableTimes(uint32_t w)
{
    const WorkerState& ws = m_workers[w];
    const double* const end = m_table.Segments().ArrivalsOf(w); // kept with overlap or several GPUs
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
PsStepMachine::ForwardEnd(uint32_t w)
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
            t = std::max(t, m_usable[l]);
            t = t + m_slowdown.Stretch(w, t, fwd[l] * US * scale) + Overhead(l);
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
            t = std::max(t, m_table.Conn(m_table.ConnIndex(w, p, DOWN)).lastEnd);
        }
    }
    for (uint32_t l = 0; l < m_l; ++l)
    {
        t += m_slowdown.Stretch(w, t, fwd[l] * US * scale) + Overhead(l);
    }
    return t;
}

double
PsStepMachine::QueueGradients(uint32_t w, double t)
{
    WorkerState& ws = m_workers[w];
    const double scale = m_scenario.GetComputeScale(w);
    const auto& bwd = *ws.bwd;
    const bool multiGpu = m_scenario.gpusPerNode > 1;
    m_table.ResetConnections(w, UP, ws.step);
    double* const gradientReady = m_table.Segments().GradientReadyOf(w);
    // Backward in reverse layer order; gradient l may leave when its backward is done (overlap
    // on) or when the whole backward is done (overlap off).
    double reduceFree = 0;
    for (uint32_t i = m_l; i-- > 0;)
    {
        t += m_slowdown.Stretch(w, t, bwd[i] * US * scale);
        double ready = t;
        if (multiGpu && m_scenario.overlap)
        {
            reduceFree = std::max(reduceFree, t) + IntraNode(i);
            ready = reduceFree;
        }
        if (gradientReady)
        {
            gradientReady[i] = ready; // overlap on
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
PsStepMachine::ScheduleUplinks(uint32_t w, double allReady)
{
    // Activation events are scheduled in backward order of the connections' first gradients, so
    // that simultaneous activations (overlap off) keep that order (FCFS priority).
    WorkerState& ws = m_workers[w];
    ws.pendingUp = 0;
    m_flag.assign(m_p, 0);
    const auto& owner = m_table.Segments().Owners();
    for (uint32_t i = m_l; i-- > 0;)
    {
        if (m_flag[owner[i]])
        {
            continue;
        }
        m_flag[owner[i]] = 1;
        uint32_t ci = m_table.ConnIndex(w, owner[i], UP);
        Connection& c = m_table.Conn(ci);
        c.ready = allReady; // overlap on: m_readyPool's times instead
        ++ws.pendingUp;
        m_queue.Schedule(m_table.Segments().ReadyOf(c, 0) + StartDelay(c),
                         CONN_ACTIVATE,
                         ci,
                         c.step);
    }
}

void
PsStepMachine::DownlinkDone(uint32_t w)
{
    NS_LOG_FUNCTION(this << w << m_table.Now());
    ScheduleUplinks(w, QueueGradients(w, ForwardEnd(w)));
}

void
PsStepMachine::UplinkDone(uint32_t w)
{
    NS_LOG_FUNCTION(this << w << m_table.Now());
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
        allIn = std::max(allIn, m_table.Conn(m_table.ConnIndex(w, p, UP)).lastEnd);
    }
    // Per-layer arrival times are kept only where needed (overlap reads them; else empty).
    const double* const arrival = m_table.Segments().ArrivalsOf(w);
    double end = allIn;
    for (uint32_t p = 0; p < m_p; ++p)
    {
        const Connection& c = m_table.Conn(m_table.ConnIndex(w, p, UP));
        double t = m_scenario.overlap ? ws.stepStart : std::max(ws.stepStart, c.lastEnd);
        for (const Segment* s = m_table.Segments().Of(c); s != m_table.Segments().Of(c) + c.nSegs;
             ++s)
        {
            if (m_scenario.overlap)
            {
                t = std::max(t, arrival[s->layer]);
            }
            t += upd[s->layer] * US + Overhead(s->layer);
        }
        end = std::max(end, t);
    }
    m_queue.Schedule(end, STEP_END, w, ws.step);
}

void
PsStepMachine::StepEnd(uint32_t w)
{
    WorkerState& ws = m_workers[w];
    NS_LOG_FUNCTION(this << w << ws.step << m_table.Now());
    m_result.AddStep({w, ws.step, ws.stepStart, m_table.Now()});
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
PsStepMachine::SetCounting(bool on)
{
    if (on && m_windowClosed)
    {
        return; // async: a worker finished before another's warm-up; the window is empty
    }
    m_table.SetCounting(on);
}

double
PsStepMachine::Overhead(uint32_t layer) const
{
    return m_options.parsingPerByte * m_table.Segments().LayerBytes(layer)
           + m_options.parsingPerTensor;
}

void
PsStepMachine::ConnectionDone(uint32_t ci)
{
    const Connection& c = m_table.Conn(ci);
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

void
PsStepMachine::ScheduleActivation(uint32_t ci)
{
    const Connection& c = m_table.Conn(ci);
    m_queue.Schedule(m_table.Segments().ReadyOf(c, c.head) + StartDelay(c),
                     CONN_ACTIVATE,
                     ci,
                     c.step);
}

double
PsStepMachine::StartDelay(const Connection& c) const
{
    return m_jitter.IsOn()
               ? m_jitter.Delay(c.worker, c.step, (uint64_t{c.server} * 2 + c.dir) << 32 | c.head)
               : 0.0;
}

} // namespace flow
} // namespace ns3

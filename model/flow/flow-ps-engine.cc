/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-ps-engine.h"

#include "flow-bundled-solver.h"
#include "flow-each-flow-solver.h"
#include "flow-fcfs-solver.h"
#include "flow-max-min-solver.h"

#include "ns3/training-scenario.h"

#include <algorithm>

namespace ns3
{
namespace flow
{

namespace
{

/**
 * \brief The solver for a run of the engine: chosen once, from what the sharing model is
 * (SolverChoice). It lives here, with the engine that composes the solvers, so that the solvers'
 * base class does not include its subclasses.
 * \param sharing the sharing model
 * \param table the run's connections and rate classes
 * \param servers the run's parameter servers
 * \param windowModel the window model is on (its caps are per direction and server)
 * \return the solver
 */
std::unique_ptr<RateSolver>
CreateSolver(const SharingModel& sharing, TransferTable& table, uint32_t servers, bool windowModel)
{
    const SolverChoice choice = SolverChoice::Of(sharing);
    // With the window model too: its caps are per direction and server (WindowCap), a class's
    // members all have the same one, and a class's cap is taken at each rate computation.
    if (choice.rule == SolverChoice::MAX_MIN)
    {
        if (servers > 1)
        {
            return std::make_unique<BundledMaxMinSolver>(table,
                                                         sharing,
                                                         choice.honoursCaps,
                                                         servers);
        }
        return std::make_unique<MaxMinSolver>(table, sharing, choice.honoursCaps);
    }
    // The window model gives every connection its own cap, which FCFS ignores: the model's own
    // AssignRates then sees them all.
    if (!windowModel && choice.rule == SolverChoice::FCFS)
    {
        return std::make_unique<FcfsSolver>(table, sharing, servers);
    }
    return std::make_unique<EachFlowSolver>(table, sharing);
}

} // namespace

FlowPsEngine::FlowPsEngine(const EngineInputs& in)
    : m_sharing(in.sharing),
      m_fabric(in.fabric),
      m_table(in),
      m_steps(in, m_table, m_queue)
{
    UseSolver(CreateSolver(in.sharing,
                           m_table,
                           std::max<uint32_t>(1, in.scenario.servers),
                           in.options.windowBytes > 0));
    if (m_fabric.GetFailures())
    {
        const auto& changes = m_fabric.GetFailures()->GetChangeTimes();
        for (uint32_t i = 0; i < changes.size(); ++i)
        {
            m_queue.Schedule(changes[i], LINK_CHANGE, i, 0);
        }
    }
}

void
FlowPsEngine::UseSolver(std::unique_ptr<RateSolver> solver)
{
    m_solver = std::move(solver);
    m_table.SetSolver(*m_solver);
}

void
FlowPsEngine::Run()
{
    m_steps.StartAll();
    RecomputeDirty();
    while (!m_queue.IsEmpty())
    {
        Event e = m_queue.Pop();
        m_table.SetNow(e.time);
        Handle(e);
        // Rates matter only once time moves on: batch all set changes of one instant.
        if (m_queue.InstantOver())
        {
            RecomputeDirty();
        }
    }
}

std::vector<double>
FlowPsEngine::GetLinkBytes(Direction d) const
{
    return m_table.GetLinkBytes(d);
}

uint64_t
FlowPsEngine::GetClassWork() const
{
    return m_table.classWork;
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
        UseSolver(std::make_unique<EachFlowSolver>(m_table, m_sharing));
    }
    m_table.SharePriorities(prioritySeq);
    m_table.SetNow(startTime);
    m_steps.StartAll();
}

void
FlowPsEngine::CollectShared(std::vector<SharingModel::Flow>& flows, std::vector<double>& weights)
{
    m_solver->CollectShared(flows, weights);
}

void
FlowPsEngine::ApplyShared(const double* rates)
{
    const std::array<uint64_t, 2> flows = m_solver->ApplyShared(rates);
    for (uint32_t gi = 0; gi < 2; ++gi)
    {
        Solved(gi, flows[gi]);
    }
}

void
FlowPsEngine::RekeyLink(uint32_t l, double now)
{
    m_table.SetNow(now);
    m_solver->RekeyLink(l);
}

double
FlowPsEngine::NextEventTime() const
{
    return m_queue.IsEmpty() ? INF : std::max(m_queue.PeekTime(), m_table.Now());
}

void
FlowPsEngine::HandleNext()
{
    Event e = m_queue.Pop();
    // The queue's own clock may lag the shared one (it only moves with this job's events).
    m_table.SetNow(std::max(e.time, m_table.Now()));
    Handle(e);
}

void
FlowPsEngine::SetNow(double now)
{
    m_table.SetNow(now);
}

bool
FlowPsEngine::IsDirty() const
{
    return m_table.Group(DOWN).dirty || m_table.Group(UP).dirty;
}

void
FlowPsEngine::RecomputeDirty()
{
    for (uint32_t gi = 0; gi < 2; ++gi)
    {
        if (m_table.Group(gi).dirty)
        {
            Recompute(gi);
        }
    }
}

void
FlowPsEngine::Recompute(uint32_t gi)
{
    m_table.Group(gi).dirty = false;
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
FlowPsEngine::PushCheck(uint32_t gi)
{
    LinkGroup& g = m_table.Group(gi);
    const double next = m_solver->NextDrain(gi);
    ++g.version;
    if (next < INF)
    {
        m_queue.Schedule(std::max(next, m_table.Now()), GROUP_CHECK, gi, g.version);
    }
}

void
FlowPsEngine::Handle(const Event& e)
{
    switch (e.type)
    {
        case GROUP_CHECK:
            if (e.tag != m_table.Group(e.id).version)
            {
                break; // superseded by a later rate computation
            }
            ++events;
            GroupCheck(e.id);
            break;
        case CONN_ACTIVATE:
        {
            const Connection& c = m_table.Conn(e.id);
            if (c.active || c.step != e.tag || c.head >= c.nSegs)
            {
                break;
            }
            ++events;
            if (m_table.IsLocal(e.id))
            {
                AfterDrain(e.id, m_table.DeliverLocal(e.id)); // co-located: no link to share
                break;
            }
            if (m_fabric.GetFailures())
            {
                m_table.Repath(e.id, m_fabric); // the path of the links up now
            }
            m_table.Activate(e.id);
            break;
        }
        case LINK_CHANGE: // not counted: a change after the run leaves every output as is
            for (uint32_t ci = 0; ci < m_table.Connections(); ++ci)
            {
                m_table.Repath(ci, m_fabric);
            }
            break;
        case STEP_END:
            ++events;
            m_steps.StepEnd(e.id);
            break;
        case STEP_START:
            ++events;
            m_steps.StartStep(e.id, static_cast<uint32_t>(e.tag));
            break;
    }
}

void
FlowPsEngine::GroupCheck(uint32_t gi)
{
    for (uint32_t ci : m_table.CollectDrained(gi))
    {
        AfterDrain(ci, m_table.Drained(ci));
    }
    m_table.RefreshDrained();
    if (!m_table.Group(gi).dirty)
    {
        PushCheck(gi);
    }
}

void
FlowPsEngine::AfterDrain(uint32_t ci, TransferTable::Drain drain)
{
    switch (drain)
    {
        case TransferTable::BUSY:
            break;
        case TransferTable::IDLE:
            m_steps.ScheduleActivation(ci); // idle until its next tensor is ready
            break;
        case TransferTable::DONE:
            m_steps.ConnectionDone(ci);
            break;
    }
}

} // namespace flow
} // namespace ns3

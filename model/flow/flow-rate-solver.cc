/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-rate-solver.h"

#include "flow-bundled-solver.h"
#include "flow-each-flow-solver.h"
#include "flow-fcfs-solver.h"
#include "flow-max-min-solver.h"
#include "flow-ps-engine.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{
namespace flow
{

std::unique_ptr<RateSolver>
RateSolver::Create(const SharingModel& sharing,
                   FlowPsEngine& engine,
                   uint32_t servers,
                   bool windowModel)
{
    // With the window model too: its caps are per direction and server (WindowCap), a class's
    // members all have the same one, and a class's cap is taken at each rate computation.
    bool honoursCaps = false;
    if (sharing.IsPlainMaxMin(honoursCaps))
    {
        if (servers > 1)
        {
            return std::make_unique<BundledMaxMinSolver>(engine, honoursCaps, servers);
        }
        return std::make_unique<MaxMinSolver>(engine, honoursCaps);
    }
    // The window model gives every connection its own cap, which FCFS ignores: the model's own
    // AssignRates then sees them all.
    if (!windowModel && sharing.IsFirstComeFirstServed())
    {
        return std::make_unique<FcfsSolver>(engine, servers);
    }
    return std::make_unique<EachFlowSolver>(engine);
}

RateSolver::RateSolver(FlowPsEngine& engine)
    : m_e(engine)
{
}

RateSolver::~RateSolver() = default;

void
RateSolver::Deactivated(uint32_t /* ci */)
{
}

void
RateSolver::ClassAdded(uint32_t /* k */)
{
}

void
RateSolver::ClassReleased(uint32_t /* k */)
{
}

double
RateSolver::NextDrain(uint32_t gi)
{
    // A rate computation changes the drain times of all classes and already costs per class
    // (rebuilding a heap would cost more): a scan.
    const auto& classes = m_e.m_groups[gi].classes;
    double next = INF;
    for (uint32_t k : classes)
    {
        next = std::min(next, m_e.m_classes[k].nextTime);
    }
    m_e.classWork += classes.size();
    return next;
}

void
RateSolver::DueClasses(uint32_t gi, std::vector<uint32_t>& due)
{
    const auto& classes = m_e.m_groups[gi].classes;
    m_e.classWork += classes.size();
    for (uint32_t k : classes)
    {
        if (m_e.m_classes[k].nextTime <= m_e.m_now)
        {
            due.push_back(k);
        }
    }
}

ClassHeap*
RateSolver::ByTime(uint32_t /* gi */)
{
    return nullptr;
}

void
RateSolver::CollectShared(std::vector<SharingModel::Flow>& /* flows */,
                          std::vector<double>& /* weights */)
{
    NS_ABORT_MSG("a shared run's jobs aggregate (MaxMinSolver) or not (EachFlowSolver)");
}

void
RateSolver::ApplyShared(const double* /* rates */)
{
    NS_ABORT_MSG("a shared run's jobs aggregate (MaxMinSolver) or not (EachFlowSolver)");
}

void
RateSolver::RekeyLink(uint32_t /* l */)
{
}

void
RateSolver::ShareLinks(SharedLinks* /* links */, uint32_t /* id */)
{
    NS_ABORT_MSG("aggregation across jobs needs a plain max-min model (MaxMinSolver)");
}

} // namespace flow
} // namespace ns3

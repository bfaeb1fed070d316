/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-rate-solver.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{
namespace flow
{

SolverChoice
SolverChoice::Of(const SharingModel& sharing)
{
    SolverChoice choice;
    if (sharing.IsPlainMaxMin(choice.honoursCaps))
    {
        choice.rule = MAX_MIN;
    }
    else if (sharing.IsFirstComeFirstServed())
    {
        choice.rule = FCFS;
    }
    return choice;
}

RateSolver::RateSolver(TransferTable& table, const SharingModel& sharing)
    : m_t(table),
      m_sharing(sharing)
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
    const auto& classes = m_t.Group(gi).classes;
    double next = INF;
    for (uint32_t k : classes)
    {
        next = std::min(next, m_t.Class(k).nextTime);
    }
    m_t.classWork += classes.size();
    return next;
}

void
RateSolver::DueClasses(uint32_t gi, std::vector<uint32_t>& due)
{
    const auto& classes = m_t.Group(gi).classes;
    m_t.classWork += classes.size();
    for (uint32_t k : classes)
    {
        if (m_t.Class(k).nextTime <= m_t.Now())
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

std::array<uint64_t, 2>
RateSolver::ApplyShared(const double* /* rates */)
{
    NS_ABORT_MSG("a shared run's jobs aggregate (MaxMinSolver) or not (EachFlowSolver)");
    return {};
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

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "worker-absences.h"

#include "compute-slowdown.h"
#include "training-input-error.h"
#include "training-scenario.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>

namespace ns3
{

double
LeaveWindow::End() const
{
    return start + length;
}

WorkerAbsences::WorkerAbsences(const std::vector<LeaveWindow>& windows, uint32_t workers)
    : m_windows(windows.empty() ? 0 : workers) // (none: no per-worker lists for large K)
{
    for (const auto& w : windows)
    {
        m_windows.at(w.worker).push_back(w);
    }
    for (auto& list : m_windows)
    {
        std::sort(list.begin(),
                  list.end(),
                  [](const LeaveWindow& a, const LeaveWindow& b)
                  {
                      return a.start < b.start;
                  });
    }
}

std::shared_ptr<const WorkerAbsences>
WorkerAbsences::FromScenario(const TrainingScenario& s)
{
    if (s.leave.empty())
    {
        return nullptr;
    }
    return std::make_shared<const WorkerAbsences>(s.leave, s.workers);
}

double
WorkerAbsences::NextStart(uint32_t worker, double t) const
{
    if (worker >= m_windows.size())
    {
        return t;
    }
    // Windows of one worker do not overlap (Check), so one pass in start order finds the
    // window t falls in and any window that begins exactly where it ends.
    for (const auto& w : m_windows[worker])
    {
        if (w.start <= t && t < w.End())
        {
            t = w.End();
        }
    }
    return t;
}

std::vector<LeaveWindow>
WorkerAbsences::Parse(const std::string& option, const std::string& text)
{
    std::vector<LeaveWindow> out;
    for (const auto& e : ComputeSlowdown::ParseWindows(option, text, false))
    {
        out.push_back({e.worker, e.start, e.length});
    }
    return out;
}

void
WorkerAbsences::Check(const TrainingScenario& s)
{
    if (s.leave.empty())
    {
        return;
    }
    if (s.architecture != TrainingScenario::PARAMETER_SERVER || s.mode != TrainingScenario::ASYNC)
    {
        throw TrainingInputError(
            "--leave: a worker leaving and rejoining is modelled for an async parameter server "
            "only (expected --arch=ps --mode=async: in a sync step or a ring collective every "
            "worker waits for every other, and a worker that leaves changes the job's "
            "membership, which is not modelled)");
    }
    std::vector<LeaveWindow> sorted = s.leave;
    std::sort(sorted.begin(),
              sorted.end(),
              [](const LeaveWindow& a, const LeaveWindow& b)
              {
                  return a.worker != b.worker ? a.worker < b.worker : a.start < b.start;
              });
    for (std::size_t i = 0; i < sorted.size(); ++i)
    {
        const LeaveWindow& w = sorted[i];
        if (w.worker >= s.workers)
        {
            throw TrainingInputError("--leave: worker " + std::to_string(w.worker)
                                     + " of --workers=" + std::to_string(s.workers)
                                     + " (expected a worker index from 0 to "
                                     + std::to_string(s.workers - 1) + ")");
        }
        if (i > 0 && sorted[i - 1].worker == w.worker && sorted[i - 1].End() > w.start)
        {
            throw TrainingInputError("--leave: two windows of worker " + std::to_string(w.worker)
                                     + " overlap (expected each window to end before the "
                                       "worker's next one starts)");
        }
    }
}

std::vector<TrainingResult::AbsenceRecord>
WorkerAbsences::Measure(const TrainingScenario& s,
                        const std::vector<TrainingResult::StepRecord>& steps)
{
    // Each windowed worker's steps by start (one pass over the records; a worker's steps do
    // not overlap), so that each window finds the step in progress at its start by bisection.
    std::map<uint32_t, std::vector<std::pair<double, double>>> byWorker;
    for (const auto& w : s.leave)
    {
        byWorker[w.worker];
    }
    for (const auto& r : steps)
    {
        auto it = byWorker.find(r.worker);
        if (it != byWorker.end())
        {
            it->second.emplace_back(r.start, r.end);
        }
    }
    for (auto& [worker, list] : byWorker)
    {
        std::sort(list.begin(), list.end());
    }
    const WorkerAbsences rule(s.leave, s.workers);
    std::vector<TrainingResult::AbsenceRecord> out;
    for (const auto& w : s.leave)
    {
        out.push_back({w.worker, w.start, w.End(), LeftAt(w, byWorker[w.worker], rule, s), 0, 0});
    }
    std::stable_sort(
        out.begin(),
        out.end(),
        [](const TrainingResult::AbsenceRecord& a, const TrainingResult::AbsenceRecord& b)
        {
            return a.worker != b.worker ? a.worker < b.worker : a.start < b.start;
        });
    return out;
}

double
WorkerAbsences::LeftAt(const LeaveWindow& w,
                       const std::vector<std::pair<double, double>>& steps,
                       const WorkerAbsences& rule,
                       const TrainingScenario& s)
{
    // The worker leaves at the window's start unless a step is in progress then: it goes when
    // that step ends. A step that began before the window and did not end in the run (a stop
    // time) keeps it for the rest of the run (infinity).
    auto it = std::lower_bound(steps.begin(), steps.end(), std::make_pair(w.start, -1.0));
    if (it != steps.begin() && std::prev(it)->second > w.start)
    {
        return std::prev(it)->second;
    }
    const double lastEnd = it == steps.begin() ? 0.0 : std::prev(it)->second;
    if (it == steps.end() && steps.size() < s.steps && rule.NextStart(w.worker, lastEnd) < w.start)
    {
        return std::numeric_limits<double>::infinity();
    }
    return w.start;
}

double
WorkerAbsences::AwayIn(const TrainingResult::AbsenceRecord& a, double from, double to)
{
    return std::max(0.0, std::min(a.end, to) - std::max(a.left, from));
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKER_ABSENCES_H
#define WORKER_ABSENCES_H

#include "training-result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class TrainingScenario;

/**
 * \ingroup distributed-training
 * \brief One window of --leave: an async worker starts no step from start for length
 * (simulation seconds).
 */
struct LeaveWindow
{
    uint32_t worker{0}; //!< the worker that leaves
    double start{0};    //!< when it leaves, s (>= 0)
    double length{0};   //!< how long it is away, s (> 0)

    /// \return start + length: when it rejoins
    double End() const;
};

/**
 * \ingroup distributed-training
 * \brief The one rule of an async parameter-server worker that leaves the job and rejoins it
 * (--leave), used by the packet worker's protocol (PsWorkerProtocol) and the flow level's step
 * machine (flow::PsStepMachine) alike, and the accounting of what the absence cost.
 *
 * The rule: a worker starts no step inside a window [start, start + length). A step in progress
 * at start runs to its end (its gradients are pushed and applied: the worker leaves at a step
 * boundary, as an elastic worker commits its step before it goes); the worker then sends
 * nothing until start + length, when it rejoins with a new step whose PULL fetches the current
 * parameters from every server, as every async step does. Only async PS: in a sync step (PS
 * barrier or ring collective) every worker waits for every other, and a worker that leaves
 * changes the job's membership, which none of the backends models (refused by
 * TrainingScenario::Validate).
 *
 * The accounting (Measure): a window's worker is away from when it left (start, or the end of
 * its step in progress at start) to start + length. TrainingResult::Finalize counts the time
 * a worker is away inside its measured span as its time with no step (so the job's rate falls
 * by the worker's share while it is away), and reports per window the time away and the steps
 * missed: the time away x the worker's rate while present.
 */
class WorkerAbsences
{
  public:
    /// No window: NextStart() returns its input.
    WorkerAbsences() = default;

    /**
     * \param windows the windows (workers < workers; one worker's windows do not overlap)
     * \param workers K
     */
    WorkerAbsences(const std::vector<LeaveWindow>& windows, uint32_t workers);

    /**
     * \param s a scenario
     * \return its windows, or nullptr when it has none
     */
    static std::shared_ptr<const WorkerAbsences> FromScenario(const TrainingScenario& s);

    /**
     * \param worker a worker that would start a step at t
     * \param t the time, s
     * \return t, or the end of the window t falls in (of the last of adjacent windows)
     */
    double NextStart(uint32_t worker, double t) const;

    /**
     * \brief Parse --leave: "worker:start:length" entries separated by commas (e.g.
     * "2:1s:500ms"), or a JSON array of objects {"worker", "start", "length"}.
     * \param option the option, for messages
     * \param text the value
     * \return the windows
     * \throws TrainingInputError naming the option and what was expected
     */
    static std::vector<LeaveWindow> Parse(const std::string& option, const std::string& text);

    /**
     * \brief Check windows against a scenario: workers in range, no two windows of one worker
     * overlapping, async parameter server only.
     * \param s the scenario
     * \throws TrainingInputError naming --leave and what was expected
     */
    static void Check(const TrainingScenario& s);

    /**
     * \brief When each window's worker left: the window's start, or the end of the worker's
     * step in progress then (infinity when that step never ended in the run).
     * \param s the scenario (its windows)
     * \param steps the run's step records
     * \return one record per window, away and missedSteps still 0, by worker then start
     */
    static std::vector<TrainingResult::AbsenceRecord> Measure(
        const TrainingScenario& s,
        const std::vector<TrainingResult::StepRecord>& steps);

    /**
     * \param a an absence
     * \param from start of a span, s
     * \param to its end, s
     * \return the seconds of [a.left, a.end) inside [from, to]
     */
    static double AwayIn(const TrainingResult::AbsenceRecord& a, double from, double to);

  private:
    /**
     * \param w a window
     * \param steps its worker's steps (start, end), by start
     * \param rule the run's windows
     * \param s the scenario (its step count)
     * \return when the worker left: w.start, the end of its step in progress then, or
     *         infinity when that step did not end in the run
     */
    static double LeftAt(const LeaveWindow& w,
                         const std::vector<std::pair<double, double>>& steps,
                         const WorkerAbsences& rule,
                         const TrainingScenario& s);

    std::vector<std::vector<LeaveWindow>> m_windows; //!< per worker, by start
};

} // namespace ns3

#endif /* WORKER_ABSENCES_H */

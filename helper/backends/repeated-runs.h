/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPEATED_RUNS_H
#define REPEATED_RUNS_H

#include "ns3/confidence-interval.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace ns3
{

struct BackendSettings;

/**
 * \ingroup distributed-training
 * \brief The one definition of repeated runs and of a step count a run chooses itself, for every
 * backend: the backend is a function from a scenario to its results, run again with other seeds
 * (--repeat) or more steps (--ciTarget); none of its internals is touched.
 *
 * --repeat=N runs the point with seeds seed, seed + 1, ..., seed + N - 1 (the ns-3 run number of
 * the packet level, the flow level's sampled steps and start jitter). Each result stands for its
 * median-throughput run (of an even N the upper middle one), whose records, step times and notes
 * it keeps; RepeatSummary holds every run's throughput, their mean and its Student t 95 %
 * interval (ConfidenceInterval::OfMean).
 *
 * --ciTarget=h adds steps (doubling --steps, at most --maxSteps) until the 95 % interval of the
 * run's mean step time, by batch means (ConfidenceInterval::OfBatchMeans over the steps after
 * warm-up), has a relative half-width of at most h.
 */
class RepeatedRuns
{
  public:
    /// One run of a backend: a scenario in, its results (one per variant) out.
    using RunFunction = std::function<std::vector<TrainingResult>(const TrainingScenario&)>;

    /// What to repeat.
    struct Options
    {
        uint32_t repeat{1};           //!< --repeat: runs with consecutive seeds
        std::optional<double> target; //!< --ciTarget: relative half-width of the step time
        uint32_t maxSteps{MAX_STEPS}; //!< --maxSteps: the most steps --ciTarget may use
    };

    /// --maxSteps's default.
    static constexpr uint32_t MAX_STEPS = 1000;

    /// \param settings the backend options \return their --repeat, --ciTarget and --maxSteps
    static Options FromSettings(const BackendSettings& settings);

    /**
     * \param run the backend
     * \param scenario the point
     * \param options what to repeat
     * \return the results of run(scenario) with the options applied (the results of one
     *         plain run when options ask for nothing)
     */
    static std::vector<TrainingResult> Run(const RunFunction& run,
                                           const TrainingScenario& scenario,
                                           const Options& options);

    /**
     * \param seed the first seed
     * \param n the runs
     * \return seed, seed + 1, ..., seed + n - 1
     */
    static std::vector<uint64_t> Seeds(uint64_t seed, uint32_t n);

    /**
     * \brief One result for runs of one point: the median-throughput run with inputs repeat,
     * throughput_min, throughput_max, throughput_spread ((max - min) / median), the summed wall
     * time and, for more than one run, a note and the RepeatSummary (with a note when every
     * run is bit-identical).
     * \param runs the runs, in seed order (at least one)
     * \param seeds their seeds (empty: not known)
     * \return the result
     */
    static TrainingResult Summarise(std::vector<TrainingResult> runs,
                                    const std::vector<uint64_t>& seeds);

    /**
     * \brief The step times of a result: d_s = E_s - E_{s-1} for the steps s after warm-up,
     * E_s the latest end of step s among the workers and E_{-1} the earliest start of step 0
     * (the barrier-to-barrier steps of TrainingResult::Finalize; for async a per-index proxy).
     * \param r a result with step records
     * \param warmup the warm-up steps
     * \return the series (empty without step records)
     */
    static std::vector<double> StepTimes(const TrainingResult& r, uint32_t warmup);

  private:
    /**
     * \brief Run with --steps doubled until every result's step-time interval is narrow enough
     * or --maxSteps is reached.
     * \param run the backend
     * \param scenario the point
     * \param target the relative half-width asked for
     * \param maxSteps the cap
     * \return the last run's results, each with its StepInterval
     */
    static std::vector<TrainingResult> RunToTarget(const RunFunction& run,
                                                   TrainingScenario scenario,
                                                   double target,
                                                   uint32_t maxSteps);

    /**
     * \param results one run's results
     * \param warmup the warm-up steps
     * \return the largest relative half-width of their step-time intervals (0 without records)
     */
    static double WorstHalfWidth(const std::vector<TrainingResult>& results, uint32_t warmup);
};

} // namespace ns3

#endif /* REPEATED_RUNS_H */

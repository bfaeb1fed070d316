/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SLOWED_STEPS_H
#define SLOWED_STEPS_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class TrainingResult;
class TrainingScenario;

/**
 * \ingroup distributed-training
 * \brief Which steps of a run straggler episodes (--slowdown, --stragglers) slowed, and by how
 * much: the per-step effect the result reports (TrainingResult::Finalize calls Annotate).
 *
 * A step is touched when an episode overlaps it: any worker's episode for a sync run (PS or
 * ring: the barrier or the collective makes every worker wait for the slowed one), the step's
 * own worker's for async PS (only its own steps, so only its own pushes, slow down). A step's
 * slowdown is its time over the median time of the untouched measured steps (all untouched
 * steps if none is measured; no ratio if every step is touched).
 */
class SlowedSteps
{
  public:
    /// One run of consecutive touched steps of a worker (worker -1: every worker, sync).
    struct Range
    {
        int64_t worker{-1}; //!< the worker, or -1 for a sync run's global steps
        uint32_t first{0};  //!< first touched step (from 0, as the step records)
        uint32_t last{0};   //!< last touched step
        double maxRatio{0}; //!< the largest step time over the baseline in it (0: none)
    };

    /**
     * \param scenario the run's scenario (with --slowdown or --stragglers)
     * \param result its result, steps recorded
     * \return the touched ranges, by worker then step
     */
    static std::vector<Range> Find(const TrainingScenario& scenario, const TrainingResult& result);

    /**
     * \brief Add the note "slowdown episodes: N, steps a-b slower by up to X.Xx" and the inputs
     * slowdown_episodes, slowed_steps and slowdown_max_step_ratio to a result; nothing without
     * --slowdown or --stragglers.
     * \param scenario the run's scenario
     * \param result its result, steps recorded
     */
    static void Annotate(const TrainingScenario& scenario, TrainingResult& result);
};

} // namespace ns3

#endif /* SLOWED_STEPS_H */

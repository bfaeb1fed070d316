/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRIVER_STUDY_H
#define DRIVER_STUDY_H

#include "ns3/run-context.h"
#include "ns3/scenario-options.h"
#include "ns3/study-report.h"
#include "ns3/sweep-report.h"
#include "ns3/training-backend.h"
#include "ns3/training-profile.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The runs of the driver distributed-training-sim: the chosen backend(s) on one scenario,
 * and its studies: a --workers sweep (a column per backend:variant, SweepReport) or a sweep
 * crossed with --vary (a tidy table and one faceted figure, StudyReport).
 *
 * A study checks every point at every K (each value by its option's entry, each scenario by
 * TrainingScenario::Validate) before it runs any, says the packet level's cost summed over all
 * points (RunReport::CostNote), and with --progress reports on stderr, at most every
 * RunContext::progressInterval, the points done and the time left (ProgressReporter, weighted by
 * each run's estimated cost).
 */
class DriverStudy
{
  public:
    /**
     * \brief Run the chosen backend(s) on one scenario: one registry entry, or every one in "all"
     * (those that cannot run it are skipped with one note per reason).
     * \param profile the profile
     * \param s the scenario
     * \param request the request (its --backend, settings and given options)
     * \param context where the runs report
     * \return the results
     * \throws TrainingInputError when the one backend asked for cannot run the scenario
     */
    static std::vector<TrainingResult> RunBackends(const TrainingProfile& profile,
                                                   const TrainingScenario& s,
                                                   const RunRequest& request,
                                                   const RunContext& context);

    /**
     * \brief A --workers sweep, crossed with --vary if given: print the table, write --csv (default
     * sweep.csv, or study.csv with --vary) and its gnuplot script.
     * \param profile the profile of --profile
     * \param request the request
     * \throws TrainingInputError for a bad point or output file, before any run where it can
     */
    static void RunSweep(const TrainingProfile& profile, const RunRequest& request);

    /**
     * \param profile the profile of --profile
     * \param request a request without --vary
     * \return its --workers sweep: a column per backend:variant
     */
    static SweepReport Sweep(const TrainingProfile& profile, const RunRequest& request);

    /**
     * \param profile the profile of --profile (the points' own when --profile is varied)
     * \param request a request with --vary
     * \return its study: a row per point, K and backend:variant
     * \throws TrainingInputError naming --vary and the point for a value or scenario refused
     */
    static StudyReport Study(const TrainingProfile& profile, const RunRequest& request);

  private:
    /// One point of a study: its values, its request and its profile.
    struct Point
    {
        std::vector<std::string> values; //!< the varied options' values (none without --vary)
        RunRequest request;              //!< its request (K: each of its --workers)
        const TrainingProfile* profile;  //!< its profile (owned by the caller)
    };

    /**
     * \param b a backend
     * \param name its name
     * \param profile the profile
     * \param s the scenario
     * \throws TrainingInputError when it cannot run the scenario, or not on this host
     */
    static void CheckRunnable(TrainingBackend& b,
                              const std::string& name,
                              const TrainingProfile& profile,
                              const TrainingScenario& s);

    /// Receives each point's results at each K, with the scenario they ran.
    using Add = std::function<
        void(const Point&, const TrainingScenario&, const std::vector<TrainingResult>&)>;

    /**
     * \brief Check every point at every K and say the packet level's cost of them all.
     * \param points the points
     * \param request the study's request (its --vary, for messages)
     * \return the weight of each run for the progress: 1 + its estimated CPU milliseconds
     * \throws TrainingInputError for the first scenario refused
     */
    static std::vector<uint64_t> CheckPoints(const std::vector<Point>& points,
                                             const RunRequest& request);

    /**
     * \brief Run every point at every K, after checking them all and saying the cost.
     * \param points the points
     * \param request the study's request (--vary, --progress)
     * \param add receives the results
     */
    static void RunPoints(const std::vector<Point>& points,
                          const RunRequest& request,
                          const Add& add);
};

} // namespace ns3

#endif /* DRIVER_STUDY_H */

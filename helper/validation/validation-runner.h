/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef VALIDATION_RUNNER_H
#define VALIDATION_RUNNER_H

#include "validation-matrix.h"

#include "ns3/scenario-options.h"
#include "ns3/sweep-engine.h"

#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief One run of a validation matrix (doc/reference/validation-runner.rst): its phases as
 * driver processes through the SweepEngine, then the merged outputs.
 *
 * Every (scenario, K) of the matrix becomes one reference job, one analytic job and one flow job
 * per sharing variant, each a process of the driver distributed-training-sim reading its options
 * from a job file (ScenarioOptions JSON). With a calibration, the first phase sweeps the
 * calibrated variant on the calibrate scenarios and the second runs the chosen value on the
 * holdout ones. The runner then writes results.csv, wall-times.csv, the error tables
 * (ValidationResults), calibration.csv and the figures (ValidationFigures).
 */
class ValidationRunner
{
  public:
    /// Settings of one runner invocation: the option table's RUNNER entries.
    using Options = RunnerSettings;

    /**
     * \brief The runner's command line: the option table's RUNNER entries.
     * \param argc argument count
     * \param argv arguments
     * \return the settings, completed (CompleteOptions) unless --run-job is given
     * \throws TrainingInputError naming the option
     */
    static Options ParseOptions(int argc, char* argv[]);

    /**
     * Finish the settings after the command line: --matrix required, the engine checked, the
     * Slurm merge step (this very command with --merge, from the current folder).
     * \param options the settings
     * \param argc the command line's argument count
     * \param argv its arguments
     * \throws TrainingInputError naming the option
     */
    static void CompleteOptions(Options& options, int argc, char* argv[]);

    /**
     * The sweep job of a matrix job: the driver reading the job's options from a job file
     * OUT/jobs/ID.HASH.scenario.json (the options object as it is) and the runner's output
     * options; the engine adds --output. The file name carries a hash of its content, so
     * --resume (which keys on the arguments) reruns a job whose options changed.
     * \param job a job of the matrix
     * \param sim the driver
     * \param outDir the output folder
     * \return the sweep job (its job file written)
     */
    static SweepJob ToSweepJob(const ValidationMatrix::Job& job,
                               const std::string& sim,
                               const std::string& outDir);

    /**
     * The reference (packet level, or linux) is what every other backend is compared with: a
     * compared job that runs it (e.g. a flow variant with backend packet) would compare the
     * reference with itself.
     * \param job a job of the matrix
     * \param reference the reference backend
     * \throws TrainingInputError naming the job
     */
    static void CheckNotReference(const ValidationMatrix::Job& job, const std::string& reference);

    /**
     * \param start a folder
     * \return the first ancestor holding traces/ or .git, else start (absolute)
     */
    static std::string FindRoot(const std::string& start);

    /**
     * Load the matrix and resolve the paths: the root (default: the matrix's repository), the
     * driver (default: the one beside this program), the output folder (created).
     * \param options the settings
     * \throws TrainingInputError naming the option or the matrix file
     */
    explicit ValidationRunner(Options options);

    /// \return the exit status: 0, or 1 after listing the failed jobs
    int Run();

  private:
    /// \param jobs the jobs of a phase \return false if the Slurm engine scheduled tasks
    /// instead of running them (nothing to merge yet); with --merge, only check the results
    bool RunPhase(const std::vector<ValidationMatrix::Job>& jobs);
    /// Write calibration.csv; \return the chosen value, or none
    std::optional<double> Calibrate();
    /// Write every figure script (and draw them); \return how many
    std::size_t WriteFigures(const std::vector<ValidationMatrix::Row>& rows) const;
    /// \param index a scenario with a timeline \return its timeline script, or ""
    std::string WriteTimeline(std::size_t index) const;
    /// Draw the scripts with gnuplot if it is installed.
    void DrawFigures(const std::vector<std::string>& scripts) const;
    /// \return 1 after listing the failed jobs, or 0
    int ReportFailures() const;

    Options m_opt;                             //!< settings
    ValidationMatrix m_matrix;                 //!< the matrix
    std::vector<ValidationMatrix::Job> m_jobs; //!< jobs of the phases run so far
    std::vector<SweepFailure> m_failures;      //!< failed jobs and steps
};

} // namespace ns3

#endif /* VALIDATION_RUNNER_H */

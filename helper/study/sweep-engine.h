/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DT_SWEEP_ENGINE_H
#define DT_SWEEP_ENGINE_H

#include "ns3/json-input.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * One job of a sweep, independent of how its arguments were built: an id, the program and its
 * arguments, the result file and the log file. The program is told where to write its result
 * with a last argument --output=RESULT.part; the job runner renames that file to RESULT only
 * when the program exited 0 and the file holds at least one result row.
 */
struct SweepJob
{
    std::string id;                //!< file-name-safe id
    std::vector<std::string> argv; //!< program and arguments (argv[0] = the program)
    std::string result;            //!< JSON result file
    std::string log;               //!< log file (command line, then the program's output)
    /// real time (e.g. the linux backend): runs alone on this machine, one at a time, never
    /// beside another job of the sweep (so real-time runs do not share the CPU with each other)
    bool exclusive{false};
};

/// A job without a valid result after a run.
struct SweepFailure
{
    std::string id;     //!< job id
    std::string log;    //!< its log file
    std::string status; //!< "exit 1", "signal 11", "exit 0 but no result rows", "not run", ...
};

/**
 * \ingroup distributed-training
 * Runs the jobs of a sweep on one of three engines (doc/reference/validation-runner.rst,
 * "Engines"):
 *
 * - local: at most `slots` job processes at a time on this machine; exclusive jobs first, each
 *   alone;
 * - parallel: exclusive jobs as local, then GNU parallel (`parallel --jobs SLOTS
 *   [--sshloginfile FILE]`) on the job list of the others;
 * - slurm: writes a Slurm job-array script (one task per job) and the merge step, runs nothing
 *   (refuses exclusive jobs: a shared cluster node cannot promise them the machine).
 *
 * Every engine runs a job the same way: the sweep program itself with --run-job=JOBFILE
 * (SweepEngine::RunJobFile), so the result files, and what is merged from them, do not depend
 * on the engine. A job is reused by --resume only when the argument list it was run with (its
 * key file) equals the current one and its result holds at least one result row.
 */
class SweepEngine
{
  public:
    /// Engine settings.
    struct Options
    {
        std::string engine{"local"}; //!< local, parallel or slurm
        uint32_t slots{1};           //!< jobs at a time (slurm: array throttle %N)
        std::string self;            //!< this program (runs --run-job=FILE)
        std::string jobDir;          //!< folder of the job, key, result and log files
        std::string sshLoginFile;    //!< parallel: --sshloginfile (empty: this machine only)
        bool resume{false};          //!< reuse valid results with equal argument lists
        std::string mergeCommand;    //!< slurm: the command that merges (same sweep, --merge)
    };

    /// What Run did.
    struct Outcome
    {
        std::vector<SweepFailure> failures; //!< jobs without a valid result
        std::size_t reused{0};              //!< jobs reused by --resume
        std::size_t scheduled{0};           //!< slurm: tasks written to the array script
    };

    /// \param options the settings (engine name checked here)
    explicit SweepEngine(Options options);

    /// \param jobs the jobs \return the outcome (slurm: scheduled > 0 when tasks remain)
    Outcome Run(const std::vector<SweepJob>& jobs);

    /// \param jobs the jobs \return those without a valid result (a merge that runs nothing)
    static std::vector<SweepFailure> Check(const std::vector<SweepJob>& jobs);

    /**
     * Run one job (the --run-job=FILE mode): write its key, run the program with
     * --output=RESULT.part, keep the result only if the program exited 0 with result rows.
     * \param jobFile a job file written by the engine
     * \return 0 when the job produced a valid result, else 1 (the reason is the log's last line)
     */
    static int RunJobFile(const std::string& jobFile);

    /// \param job a job \return true if its key matches and its result has result rows
    static bool IsReusable(const SweepJob& job);

    /// \return the limits of a result file read back (size, nesting), for every reader of them
    static JsonInput::Limits ResultLimits();

    /// \param jobDir the job folder \param id a job id \return its job file
    static std::string JobFile(const std::string& jobDir, const std::string& id);

  private:
    /// Run jobs with `slots` local --run-job processes.
    void RunLocal(const std::vector<const SweepJob*>& jobs) const;
    /// Run jobs through GNU parallel.
    void RunParallel(const std::vector<const SweepJob*>& jobs) const;
    /// Write the Slurm array script, the merge script and the submit script.
    void WriteSlurm(const std::vector<const SweepJob*>& jobs) const;
    /// \param jobs jobs \return the job list (one shell command per line)
    std::string JobList(const std::vector<const SweepJob*>& jobs) const;

    Options m_options; //!< settings
};

/// \param word a word \return it quoted for a POSIX shell
std::string ShellQuote(const std::string& word);

} // namespace ns3

#endif // DT_SWEEP_ENGINE_H

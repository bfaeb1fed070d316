/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sweep-engine.h"

#include "ns3/json-input.h"
#include "ns3/log.h"
#include "ns3/output-file.h"
#include "ns3/training-input-error.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <spawn.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SweepEngine");

namespace
{

namespace fs = std::filesystem;

/// Size limit of the engine's own small files read back (job keys, job files, logs).
constexpr std::uint64_t kSmallFileBytes = 64ULL << 20;

/**
 * \param file a file the engine wrote (a key, a log)
 * \return its content, or "" if it is missing, unreadable, not a regular file (a FIFO or a link
 * to /dev/zero would block or never end) or larger than kSmallFileBytes
 */
std::string
ReadText(const std::string& file)
{
    try
    {
        return JsonInput::ReadFile(file, {kSmallFileBytes, 0, "a file written by the runner"});
    }
    catch (const TrainingInputError&)
    {
        return "";
    }
}

/// Append a line to a job's log (whole or not at all); a failure is said on stderr, as the
/// job's outcome is also printed.
void
AppendToLog(const std::string& log, const std::string& line)
{
    try
    {
        OutputFile out(log, "", OutputFile::APPEND);
        out.Stream() << line;
        out.Commit();
    }
    catch (const TrainingInputError& e)
    {
        std::fprintf(stderr, "warning: %s\n", e.what());
    }
}

/// \param job a job \return its key: the argument list after the program, as a JSON array
/// (the program's path is left out so that a moved build tree can still resume)
std::string
ArgsKey(const SweepJob& job)
{
    nlohmann::json args = nlohmann::json::array();
    for (std::size_t i = 1; i < job.argv.size(); ++i)
    {
        args.push_back(job.argv[i]);
    }
    return args.dump() + "\n";
}

/// \param job a job \return its key file
std::string
KeyFile(const SweepJob& job)
{
    return job.result + ".key";
}

/// \param file a JSON result file \return the number of result rows (0 if unreadable)
std::size_t
ResultRows(const std::string& file)
{
    try
    {
        const auto doc = JsonInput::Parse(JsonInput::ReadFile(file, SweepEngine::ResultLimits()),
                                          file,
                                          SweepEngine::ResultLimits());
        const auto it = doc.find("results");
        return it != doc.end() && it->is_array() ? it->size() : 0;
    }
    catch (const TrainingInputError&)
    {
        return 0;
    }
}

/// \param status a wait status \return "ok", "exit N" or "signal N"
std::string
DescribeStatus(int status)
{
    if (WIFEXITED(status))
    {
        return WEXITSTATUS(status) == 0 ? "ok" : "exit " + std::to_string(WEXITSTATUS(status));
    }
    if (WIFSIGNALED(status))
    {
        return "signal " + std::to_string(WTERMSIG(status));
    }
    return "stopped";
}

/**
 * Start a program with its output appended to a file.
 * \param argv the program and its arguments \param log the output file
 * \return the process id, or -1 (errno-style message appended to the log)
 */
pid_t
SpawnLogged(std::vector<std::string> argv, const std::string& log)
{
    std::vector<char*> cargv;
    for (auto& a : argv)
    {
        cargv.push_back(a.data());
    }
    cargv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid = -1;
    int rc = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, cargv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
    {
        AppendToLog(log, "cannot start " + argv[0] + ": " + std::strerror(rc) + "\n");
        return -1;
    }
    return pid;
}

/// \param pid a child \return its wait status (retrying on EINTR), or -1
int
WaitFor(pid_t pid)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
    {
        if (errno != EINTR)
        {
            return -1;
        }
    }
    return status;
}

/// \param job a job \return the job as the JSON object of its job file
nlohmann::json
JobToJson(const SweepJob& job)
{
    return {{"id", job.id}, {"argv", job.argv}, {"result", job.result}, {"log", job.log}};
}

/// \param file a job file \return the job it describes
SweepJob
ReadJob(const std::string& file)
{
    const JsonInput::Limits limits{kSmallFileBytes, 16, "a job file with id, argv, result, log"};
    const auto doc = JsonInput::Parse(JsonInput::ReadFile(file, limits), file, limits);
    try
    {
        SweepJob job{doc.at("id").get<std::string>(),
                     doc.at("argv").get<std::vector<std::string>>(),
                     doc.at("result").get<std::string>(),
                     doc.at("log").get<std::string>()};
        if (job.argv.empty() || job.result.empty() || job.log.empty())
        {
            throw TrainingInputError(file + ": empty argv, result or log (expected a job file)");
        }
        return job;
    }
    catch (const nlohmann::json::exception& e)
    {
        throw TrainingInputError(file + ": " + e.what()
                                 + " (expected a job file with id, argv, result, log)");
    }
}

/// Append the job's outcome to its log and print it; \return the exit status of --run-job.
int
Finish(const SweepJob& job, const std::string& state, double wall)
{
    AppendToLog(job.log, "job " + job.id + ": " + state + "\n");
    std::printf("%-60s %s (%.1f s)\n", job.id.c_str(), state.c_str(), wall);
    std::fflush(stdout);
    return state == "ok" ? 0 : 1;
}

/// \param log a log file \return its last line starting with "job " (the outcome), or ""
std::string
LoggedOutcome(const std::string& log)
{
    std::istringstream in(ReadText(log));
    std::string line;
    std::string last;
    while (std::getline(in, line))
    {
        if (line.rfind("job ", 0) == 0)
        {
            last = line.substr(line.find(": ") == std::string::npos ? 0 : line.find(": ") + 2);
        }
    }
    return last;
}

} // namespace

std::string
ShellQuote(const std::string& word)
{
    std::string out = "'";
    for (char c : word)
    {
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return out + "'";
}

SweepEngine::SweepEngine(Options options)
    : m_options(std::move(options))
{
    const auto& e = m_options.engine;
    if (e != "local" && e != "parallel" && e != "slurm")
    {
        throw TrainingInputError("--engine: unknown engine '" + e
                                 + "' (expected local, parallel or slurm)");
    }
    if (!m_options.sshLoginFile.empty() && e != "parallel")
    {
        throw TrainingInputError("--sshloginfile: only with --engine=parallel");
    }
    if (m_options.slots < 1)
    {
        throw TrainingInputError("--jobs: 0 (expected at least 1 job at a time)");
    }
}

JsonInput::Limits
SweepEngine::ResultLimits()
{
    // Results with records can be large (a packet run of K = 64 over ResNet-152: about 1 GB).
    return {std::uint64_t{8} << 30, 64, "a result JSON file of distributed-training-sim"};
}

std::string
SweepEngine::JobFile(const std::string& jobDir, const std::string& id)
{
    return jobDir + "/" + id + ".job";
}

bool
SweepEngine::IsReusable(const SweepJob& job)
{
    return ReadText(KeyFile(job)) == ArgsKey(job) && ResultRows(job.result) > 0;
}

std::vector<SweepFailure>
SweepEngine::Check(const std::vector<SweepJob>& jobs)
{
    std::vector<SweepFailure> failures;
    for (const auto& job : jobs)
    {
        if (!IsReusable(job))
        {
            std::string status = LoggedOutcome(job.log);
            if (status.empty() || status == "ok")
            {
                status = fs::exists(job.log) ? "no result (interrupted?)" : "not run";
            }
            failures.push_back({job.id, job.log, status});
        }
    }
    return failures;
}

SweepEngine::Outcome
SweepEngine::Run(const std::vector<SweepJob>& jobs)
{
    Outcome outcome;
    std::vector<const SweepJob*> pending;
    for (const auto& job : jobs)
    {
        if (m_options.resume && IsReusable(job))
        {
            ++outcome.reused;
            continue;
        }
        OutputFile::Write(JobFile(m_options.jobDir, job.id),
                          JobToJson(job).dump(1) + "\n",
                          "--out");
        pending.push_back(&job);
    }
    if (outcome.reused)
    {
        std::printf("--resume: reusing %zu of %zu results\n", outcome.reused, jobs.size());
        std::fflush(stdout);
    }
    // Real-time jobs first, each alone: nothing else of the sweep runs beside them.
    std::stable_partition(pending.begin(),
                          pending.end(),
                          [](const SweepJob* job)
                          {
                              return job->exclusive;
                          });
    const auto exclusive = static_cast<std::size_t>(std::count_if(pending.begin(),
                                                                  pending.end(),
                                                                  [](const SweepJob* job)
                                                                  {
                                                                      return job->exclusive;
                                                                  }));
    if (m_options.engine == "slurm")
    {
        if (exclusive > 0)
        {
            throw TrainingInputError("--engine=slurm: " + std::to_string(exclusive)
                                     + " job(s) run in real time (e.g. " + pending.front()->id
                                     + ") and must run alone, one at a time (expected "
                                       "--engine=local or parallel for a matrix with linux jobs)");
        }
        if (!pending.empty())
        {
            WriteSlurm(pending);
        }
        outcome.scheduled = pending.size();
        return outcome;
    }
    if (m_options.engine == "parallel" && exclusive > 0)
    {
        // GNU parallel may start them on other hosts or beside others: run them here first.
        RunLocal({pending.begin(), pending.begin() + exclusive});
        pending.erase(pending.begin(), pending.begin() + exclusive);
    }
    if (!pending.empty())
    {
        m_options.engine == "parallel" ? RunParallel(pending) : RunLocal(pending);
    }
    outcome.failures = Check(jobs);
    return outcome;
}

void
SweepEngine::RunLocal(const std::vector<const SweepJob*>& jobs) const
{
    using Clock = std::chrono::steady_clock;
    std::deque<const SweepJob*> queue(jobs.begin(), jobs.end());
    std::map<pid_t, std::pair<const SweepJob*, Clock::time_point>> running;
    std::size_t done = 0;
    while (!queue.empty() || !running.empty())
    {
        // An exclusive job starts when nothing runs, and nothing starts beside it.
        while (!queue.empty() && running.size() < m_options.slots
               && (!queue.front()->exclusive || running.empty())
               && !(running.size() == 1 && running.begin()->second.first->exclusive))
        {
            const SweepJob* job = queue.front();
            queue.pop_front();
            pid_t pid
                = SpawnLogged({m_options.self, "--run-job=" + JobFile(m_options.jobDir, job->id)},
                              "/dev/null");
            if (pid < 0)
            {
                ++done;
                continue;
            }
            running[pid] = {job, Clock::now()};
        }
        int status = 0;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0)
        {
            if (errno == EINTR)
            {
                continue;
            }
            break;
        }
        auto it = running.find(pid);
        if (it == running.end())
        {
            continue;
        }
        double wall = std::chrono::duration<double>(Clock::now() - it->second.second).count();
        std::string state = LoggedOutcome(it->second.first->log);
        std::printf("[%zu/%zu] %-60s %s (%.1f s)\n",
                    ++done,
                    jobs.size(),
                    it->second.first->id.c_str(),
                    state.empty() ? DescribeStatus(status).c_str() : state.c_str(),
                    wall);
        std::fflush(stdout);
        running.erase(it);
    }
}

std::string
SweepEngine::JobList(const std::vector<const SweepJob*>& jobs) const
{
    std::string list;
    for (const auto* job : jobs)
    {
        list += ShellQuote(m_options.self)
                + " --run-job=" + ShellQuote(JobFile(m_options.jobDir, job->id)) + "\n";
    }
    return list;
}

void
SweepEngine::RunParallel(const std::vector<const SweepJob*>& jobs) const
{
    const std::string list = m_options.jobDir + "/parallel-jobs.txt";
    OutputFile::Write(list, JobList(jobs), "--out");
    std::vector<std::string> argv = {"parallel",
                                     "--will-cite",
                                     "--jobs",
                                     std::to_string(m_options.slots),
                                     "--joblog",
                                     m_options.jobDir + "/parallel-joblog.txt",
                                     "--line-buffer"};
    if (!m_options.sshLoginFile.empty())
    {
        // Remote hosts see the same absolute paths (a shared folder); each host runs as many
        // jobs as its line in the file says (N/host), --jobs applies to hosts without one.
        argv.insert(argv.end(), {"--sshloginfile", m_options.sshLoginFile});
    }
    argv.insert(argv.end(), {"--arg-file", list});
    std::vector<char*> cargv;
    for (auto& a : argv)
    {
        cargv.push_back(a.data());
    }
    cargv.push_back(nullptr);
    pid_t pid = -1;
    if (posix_spawnp(&pid, "parallel", nullptr, nullptr, cargv.data(), environ) != 0)
    {
        throw TrainingInputError("--engine=parallel: cannot start GNU parallel (expected it on "
                                 "PATH: apt-get install parallel)");
    }
    int status = WaitFor(pid);
    // GNU parallel exits with the number of failed jobs (capped at 101); the failures are read
    // from the results. 255 and signals mean parallel itself failed.
    if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) == 255)
    {
        throw TrainingInputError("--engine=parallel: GNU parallel failed (" + DescribeStatus(status)
                                 + "); its job log is " + m_options.jobDir
                                 + "/parallel-joblog.txt");
    }
}

void
SweepEngine::WriteSlurm(const std::vector<const SweepJob*>& jobs) const
{
    const std::string dir = m_options.jobDir;
    const std::string list = dir + "/slurm-jobs.txt";
    OutputFile::Write(list, JobList(jobs), "--out");
    // One task per job, unless the list is longer than Slurm's default MaxArraySize (1001):
    // then each task runs `per` consecutive jobs.
    const std::size_t maxTasks = 1000;
    const std::size_t per = (jobs.size() + maxTasks - 1) / maxTasks;
    const std::size_t tasks = (jobs.size() + per - 1) / per;
    std::ostringstream array;
    array << "#!/bin/sh\n"
          << "# Slurm job array: task i runs line(s) i*" << per << "+1 .. (i+1)*" << per << " of "
          << list << "\n"
          << "# (written by the sweep's --engine=slurm; doc/reference/validation-runner.rst, "
             "Engines).\n"
          << "#SBATCH --job-name=dt-sweep\n"
          << "#SBATCH --array=0-" << tasks - 1 << "%" << m_options.slots << "\n"
          << "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n"
          << "#SBATCH --output=" << dir << "/slurm-%A_%a.out\n"
          << "set -eu\n"
          << ": \"${SLURM_ARRAY_TASK_ID:?set by Slurm (or by hand to run one task)}\"\n"
          << "first=$((SLURM_ARRAY_TASK_ID * " << per << " + 1))\n"
          << "lines=$(sed -n \"${first},$((first + " << per - 1 << "))p\" " << ShellQuote(list)
          << ")\n"
          << "[ -n \"$lines\" ] || { echo \"no task $SLURM_ARRAY_TASK_ID in " << list
          << "\" >&2; exit 1; }\n"
          << "printf '%s\\n' \"$lines\" | { rc=0; while IFS= read -r line; do "
          << "eval \"$line\" < /dev/null || rc=1; done; exit $rc; }\n";
    OutputFile::Write(dir + "/slurm-array.sh", array.str(), "--out");
    std::ostringstream merge;
    merge << "#!/bin/sh\n"
          << "# Merge step: reads the results of every task; fails naming the missing ones.\n"
          << "#SBATCH --job-name=dt-sweep-merge\n#SBATCH --ntasks=1\n"
          << "#SBATCH --output=" << dir << "/slurm-merge-%j.out\n"
          << m_options.mergeCommand << "\n";
    OutputFile::Write(dir + "/slurm-merge.sh", merge.str(), "--out");
    std::ostringstream submit;
    submit << "#!/bin/sh\n# Submit the array, then the merge step once every task has ended.\n"
           << "set -eu\n"
           << "array=$(sbatch --parsable " << ShellQuote(dir + "/slurm-array.sh") << ")\n"
           << "sbatch --dependency=afterany:${array%%;*} " << ShellQuote(dir + "/slurm-merge.sh")
           << "\n";
    OutputFile::Write(dir + "/slurm-submit.sh", submit.str(), "--out");
    for (const char* f : {"/slurm-array.sh", "/slurm-merge.sh", "/slurm-submit.sh"})
    {
        chmod((dir + f).c_str(), 0755);
    }
}

int
SweepEngine::RunJobFile(const std::string& jobFile)
{
    const SweepJob job = ReadJob(jobFile);
    const auto start = std::chrono::steady_clock::now();
    auto wall = [&start]()
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    // Order matters for --resume: the old result goes first, then the new key is written, and
    // the result appears (by rename) only when complete.
    std::remove(job.result.c_str());
    const std::string part = job.result + ".part";
    std::remove(part.c_str());
    std::vector<std::string> argv = job.argv;
    argv.push_back("--output=" + part);
    std::string command;
    for (const auto& a : argv)
    {
        command += ShellQuote(a) + " ";
    }
    OutputFile::Write(job.log, command + "\n", "--out");
    try
    {
        OutputFile::Write(KeyFile(job), ArgsKey(job), "--out");
    }
    catch (const TrainingInputError& e)
    {
        return Finish(job, std::string("not started: ") + e.what(), wall()); // said in the log
    }
    pid_t pid = SpawnLogged(argv, job.log);
    if (pid < 0)
    {
        return Finish(job, "not started", wall());
    }
    std::string state = DescribeStatus(WaitFor(pid));
    if (state == "ok" && ResultRows(part) == 0)
    {
        state = "exit 0 but no result rows in " + part;
    }
    if (state == "ok" && std::rename(part.c_str(), job.result.c_str()) != 0)
    {
        state = "cannot rename " + part + ": " + std::strerror(errno);
    }
    std::remove(part.c_str());
    return Finish(job, state, wall());
}

} // namespace ns3

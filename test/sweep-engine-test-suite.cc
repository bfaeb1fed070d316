/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The sweep engine's integrity rules (helper/study/sweep-engine.h): shell quoting and --resume
 * reusing a job only when its argument list is unchanged and its result has rows. Jobs run /bin/sh
 * scripts, not the simulator.
 */

#include "training-test-utils.h"

#include "ns3/distributed-training-compat.h"
#include "ns3/sweep-engine.h"
#include "ns3/test.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

using namespace ns3;
using ns3::tests::Slurp;
using ns3::tests::ThrowsInputError;

namespace
{

namespace fs = std::filesystem;

/// Shell quoting of the job lists: a single quote closes, escapes and reopens.
class ShellQuotingTestCase : public TestCase
{
  public:
    ShellQuotingTestCase()
        : TestCase("a word with a single quote is quoted for a POSIX shell")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(ShellQuote("it's"), "'it'\\''s'", "shell quoting");
    }
};

/**
 * --resume: the argument list is part of a result's identity; rows are required.
 *
 * A result is reused only with the same argument list and at least one row; exit 0 without rows is
 * a failure.
 */
class ResumeKeyTestCase : public TestCase
{
  public:
    ResumeKeyTestCase()
        : TestCase("a sweep result is reused only with the same arguments and a row")
    {
    }

  private:
    /// \return a job running sh -c SCRIPT (SCRIPT writes $1's --output file)
    SweepJob Job(const std::string& dir, const std::string& id, const std::string& script)
    {
        // sh -c SCRIPT NAME ARG...: the runner appends --output=FILE.part as the last argument.
        return {id,
                {"/bin/sh", "-c", script, "job"},
                dir + "/" + id + ".json",
                dir + "/" + id + ".log"};
    }

    void DoRun() override
    {
        const std::string dir
            = (fs::temp_directory_path() / ("dt-resume-" + std::to_string(getpid()))).string();
        fs::create_directories(dir);
        const std::string rows = "printf '{\"results\":[{\"x\":1}]}' > \"${1#--output=}\"";
        const std::string empty = "printf '{\"results\":[]}' > \"${1#--output=}\"";
        SweepJob good = Job(dir, "good", rows);
        SweepJob none = Job(dir, "none", empty);
        for (const auto& job : {good, none})
        {
            nlohmann::json doc
                = {{"id", job.id}, {"argv", job.argv}, {"result", job.result}, {"log", job.log}};
            std::ofstream(SweepEngine::JobFile(dir, job.id)) << doc.dump() << "\n";
        }
        NS_TEST_ASSERT_MSG_EQ(SweepEngine::RunJobFile(SweepEngine::JobFile(dir, "good")),
                              0,
                              "job with rows succeeds");
        NS_TEST_ASSERT_MSG_EQ(SweepEngine::IsReusable(good), true, "its result is reusable");
        NS_TEST_ASSERT_MSG_EQ(SweepEngine::RunJobFile(SweepEngine::JobFile(dir, "none")),
                              1,
                              "exit 0 without rows fails");
        NS_TEST_ASSERT_MSG_EQ(fs::exists(none.result), false, "no result file kept");
        const bool says = Slurp(none.log).find("exit 0 but no result rows") != std::string::npos;
        NS_TEST_ASSERT_MSG_EQ(says, true, "the log says why");
        SweepJob changed = good;
        changed.argv.push_back("--steps=5");
        NS_TEST_ASSERT_MSG_EQ(SweepEngine::IsReusable(changed), false, "changed args: rerun");
        SweepJob moved = good;
        moved.argv[0] = "/usr/bin/sh"; // same arguments, program elsewhere: still the same job
        NS_TEST_ASSERT_MSG_EQ(SweepEngine::IsReusable(moved), true, "moved program: reused");
        auto failures = SweepEngine::Check({good, none, changed});
        NS_TEST_ASSERT_MSG_EQ(failures.size(), 2, "the merge check lists none and changed");
        const bool named = failures[0].status.find("no result rows") != std::string::npos;
        NS_TEST_ASSERT_MSG_EQ(named, true, "status from the log: " + failures[0].status);
        fs::remove_all(dir);
    }
};

/**
 * The Slurm array stays within Slurm's default MaxArraySize; its last task runs its jobs.
 *
 * 2,001 jobs give a 667-task Slurm array of 3 jobs each; the last task, run by hand, produces the
 * last 3 results.
 */
class SlurmArrayTestCase : public TestCase
{
  public:
    SlurmArrayTestCase()
        : TestCase("2001 jobs give a 667-task Slurm array of 3 jobs each")
    {
    }

  private:
    void DoRun() override
    {
        const std::string dir
            = (fs::temp_directory_path() / ("dt-slurm-" + std::to_string(getpid()))).string();
        fs::create_directories(dir);
        std::vector<SweepJob> jobs;
        for (int i = 0; i < 2001; ++i)
        {
            const std::string id = "j" + std::to_string(i);
            jobs.push_back(
                {id,
                 {"/bin/sh", "-c", "printf '{\"results\":[1]}' > \"${1#--output=}\"", "job"},
                 dir + "/" + id + ".json",
                 dir + "/" + id + ".log"});
        }
        SweepEngine::Options o;
        o.engine = "slurm";
        o.jobDir = dir;
        // The array's tasks run the sweep program's --run-job mode: the validation runner,
        // built next to the test runner (the run below is skipped where it is not).
        o.self = (fs::read_symlink("/proc/self/exe").parent_path() / "validation-runner").string();
        o.mergeCommand = "true";
        auto outcome = SweepEngine(o).Run(jobs);
        NS_TEST_ASSERT_MSG_EQ(outcome.scheduled, 2001, "every job scheduled");
        const std::string script = Slurp(dir + "/slurm-array.sh");
        NS_TEST_ASSERT_MSG_EQ((script.find("#SBATCH --array=0-666%1\n") != std::string::npos),
                              true,
                              "667 tasks: " << script);
        if (fs::exists(o.self))
        {
            int rc = std::system(("SLURM_ARRAY_TASK_ID=666 sh " + dir + "/slurm-array.sh").c_str());
            NS_TEST_ASSERT_MSG_EQ(rc, 0, "last task ran");
            auto failures = SweepEngine::Check(jobs);
            NS_TEST_ASSERT_MSG_EQ(failures.size(), 1998, "all but the last three still missing");
            NS_TEST_ASSERT_MSG_EQ(failures.back().id, "j1997", "the last task ran j1998..j2000");
        }
        fs::remove_all(dir);
    }
};

/**
 * Exclusive (real-time) jobs run alone: nothing else of the sweep runs beside them.
 *
 * With 2 slots, 2 exclusive and 4 other 0.2 s jobs: no job's run overlaps an exclusive one's, the
 * others overlap each other; slurm refuses exclusive jobs.
 */
class ExclusiveJobsTestCase : public TestCase
{
  public:
    ExclusiveJobsTestCase()
        : TestCase("exclusive sweep jobs never overlap others, slurm refuses them")
    {
    }

  private:
    void DoRun() override
    {
        const std::string dir
            = (fs::temp_directory_path() / ("dt-excl-" + std::to_string(getpid()))).string();
        fs::create_directories(dir);
        std::vector<SweepJob> jobs;
        for (int i = 0; i < 6; ++i)
        {
            const std::string id = "j" + std::to_string(i);
            // Each job writes its own start and end times (ns) to its result.
            const std::string script = "a=$(date +%s%N); sleep 0.2; b=$(date +%s%N); printf "
                                       "'{\"results\":[1],\"t\":[%s,%s]}' $a $b > "
                                       "\"${1#--output=}\"";
            SweepJob j{id,
                       {"/bin/sh", "-c", script, "job"},
                       dir + "/" + id + ".json",
                       dir + "/" + id + ".log"};
            j.exclusive = i == 1 || i == 4;
            jobs.push_back(j);
        }
        SweepEngine::Options o;
        o.jobDir = dir;
        o.slots = 2;
        o.self = (fs::read_symlink("/proc/self/exe").parent_path() / "validation-runner").string();
        if (fs::exists(o.self))
        {
            auto outcome = SweepEngine(o).Run(jobs);
            NS_TEST_ASSERT_MSG_EQ(outcome.failures.size(), 0, "every job ran");
            std::vector<std::pair<double, double>> span;
            for (const auto& j : jobs)
            {
                auto t = nlohmann::json::parse(Slurp(j.result))["t"];
                span.emplace_back(t[0].get<double>(), t[1].get<double>());
            }
            auto overlap = [&span](std::size_t a, std::size_t b)
            {
                return span[a].first < span[b].second && span[b].first < span[a].second;
            };
            for (std::size_t a = 0; a < jobs.size(); ++a)
            {
                for (std::size_t b = a + 1; b < jobs.size(); ++b)
                {
                    if (jobs[a].exclusive || jobs[b].exclusive)
                    {
                        NS_TEST_ASSERT_MSG_EQ(overlap(a, b), false, a << " and " << b);
                    }
                }
            }
            NS_TEST_ASSERT_MSG_EQ(
                (overlap(0, 2) || overlap(2, 3) || overlap(3, 5) || overlap(0, 3)),
                true,
                "the other jobs still run two at a time");
        }
        o.engine = "slurm";
        NS_TEST_ASSERT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      SweepEngine(o).Run(jobs);
                                  },
                                  {"--engine=slurm", "real time", "--engine=local"}),
                              true,
                              "slurm refuses exclusive jobs");
        fs::remove_all(dir);
    }
};

/// The suite.
class SweepEngineTestSuite : public TestSuite
{
  public:
    SweepEngineTestSuite()
        : TestSuite("distributed-training-sweep-engine", Type::UNIT)
    {
        AddTestCase(new ShellQuotingTestCase, DT_TEST_QUICK);
        AddTestCase(new ResumeKeyTestCase, DT_TEST_QUICK);
        AddTestCase(new SlurmArrayTestCase, DT_TEST_QUICK);
        AddTestCase(new ExclusiveJobsTestCase, DT_TEST_QUICK);
    }
};

/// Static instance.
SweepEngineTestSuite g_sweepEngineTestSuite;

} // namespace

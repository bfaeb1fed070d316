/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "validation-runner.h"

#include "validation-figures.h"
#include "validation-results.h"

#include "ns3/log.h"
#include "ns3/output-file.h"
#include "ns3/program-options.h"
#include "ns3/training-backend.h"
#include "ns3/training-input-error.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <thread>
#include <unistd.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ValidationRunner");

namespace
{

namespace fs = std::filesystem;

/**
 * Jobs that run in real time (the linux backend) need root and namespaces here: say so before
 * any job runs, instead of one failure per job.
 * \param jobs the jobs \param matrixFile for the message
 * \throw TrainingInputError naming the reason
 */
void
CheckRealTimeBackends(const std::vector<ValidationMatrix::Job>& jobs, const std::string& matrixFile)
{
    std::set<std::string> backends;
    for (const auto& job : jobs)
    {
        if (job.exclusive)
        {
            backends.insert(job.backend);
        }
    }
    for (const auto& name : backends)
    {
        const std::string why = TrainingBackendRegistry::Create(name)->GetUnavailableReason();
        if (!why.empty())
        {
            throw TrainingInputError(matrixFile + ": the " + name + " jobs cannot run here: " + why
                                     + " (expected a machine where --backend=" + name + " runs)");
        }
    }
}

/// Write a text file completely (temporary file + rename) or throw.
void
WriteFile(const std::string& file, const std::string& text)
{
    OutputFile::Write(file, text, "--out");
}

} // namespace

void
ValidationRunner::CompleteOptions(Options& opt, int argc, char* argv[])
{
    if (opt.matrixFile.empty())
    {
        throw TrainingInputError("--matrix: missing (expected a matrix JSON file, e.g. "
                                 "--matrix=validation/matrix.json)");
    }
    SweepEngine check(opt.engine); // rejects an unknown --engine before any work
    std::error_code ec;
    opt.engine.mergeCommand = "cd " + ShellQuote(fs::current_path(ec).string()) + " && ";
    for (int i = 0; i < argc; ++i)
    {
        opt.engine.mergeCommand
            += ShellQuote(i == 0 ? fs::read_symlink("/proc/self/exe", ec).string() : argv[i]) + " ";
    }
    opt.engine.mergeCommand += "--merge";
}

ValidationRunner::Options
ValidationRunner::ParseOptions(int argc, char* argv[])
{
    RunRequest request;
    ProgramOptions cmd("Run a validation matrix (doc/reference/validation-runner.rst) through the "
                       "packet, flow, analytic (and linux) backends, as driver processes on this "
                       "machine, GNU parallel or Slurm, and compare them with the reference "
                       "(packet, or linux).");
    ScenarioOptions::Bind(
        cmd,
        request,
        OptionScope::RUNNER,
        {"matrix",
         "out",
         "jobs",
         "engine",
         "sshloginfile",
         "sim",
         "root",
         "resume",
         "merge",
         "run-job"},
        {{"jobs", std::to_string(std::max(1U, std::thread::hardware_concurrency()))}});
    cmd.Parse(argc, argv);
    if (request.runner.runJob.empty())
    {
        CompleteOptions(request.runner, argc, argv);
    }
    return request.runner;
}

SweepJob
ValidationRunner::ToSweepJob(const ValidationMatrix::Job& job,
                             const std::string& sim,
                             const std::string& outDir)
{
    const std::string text = job.options.dump(2) + "\n";
    char hash[17];
    std::snprintf(hash, sizeof(hash), "%016zx", std::hash<std::string>{}(text));
    const std::string scenario = outDir + "/jobs/" + job.id + "." + hash + ".scenario.json";
    std::error_code ec;
    fs::create_directories(outDir + "/jobs", ec);
    OutputFile::Write(scenario, text, "--out");
    SweepJob s;
    s.id = job.id;
    s.argv = {sim, "--scenario=" + scenario};
    s.argv.push_back("--progress=false");
    s.argv.push_back(std::string("--records=") + (job.records ? "true" : "false"));
    s.result = ValidationResults::ResultFile(outDir, job.id);
    s.log = outDir + "/jobs/" + job.id + ".log";
    s.exclusive = job.exclusive;
    return s;
}

void
ValidationRunner::CheckNotReference(const ValidationMatrix::Job& job, const std::string& reference)
{
    if (job.backend == reference)
    {
        return;
    }
    const std::string backend = job.options.value("backend", job.backend);
    if (backend == reference || backend == "all")
    {
        throw TrainingInputError("job " + job.id + ": --backend=" + backend + " in a compared "
                                 + job.backend + " job"
                                 + (job.variant.empty() ? "" : " (variant '" + job.variant + "')")
                                 + " (expected the " + reference
                                 + " backend only as the reference: remove --backend from the "
                                   "variant's args)");
    }
}

std::string
ValidationRunner::FindRoot(const std::string& start)
{
    std::error_code ec;
    for (fs::path p = fs::absolute(start, ec); !p.empty(); p = p.parent_path())
    {
        if (fs::is_directory(p / "traces", ec) || fs::exists(p / ".git", ec))
        {
            return p.string();
        }
        if (p == p.parent_path())
        {
            break;
        }
    }
    return fs::absolute(start, ec).string();
}

ValidationRunner::ValidationRunner(Options options)
    : m_opt(std::move(options)),
      m_matrix(ValidationMatrix::LoadFromFile(m_opt.matrixFile))
{
    if (m_opt.root.empty())
    {
        fs::path dir = fs::path(m_opt.matrixFile).parent_path();
        m_opt.root = FindRoot(dir.empty() ? std::string(".") : dir.string());
    }
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (m_opt.sim.empty())
    {
        // The driver beside this program, named as this program is: in an ns-3 source tree
        // ns3.48-validation-runner-default goes with ns3.48-distributed-training-sim-default.
        const std::string own = "validation-runner";
        std::string name = self.filename().string();
        const auto at = name.find(own);
        name = at == std::string::npos ? std::string("distributed-training-sim")
                                       : name.replace(at, own.size(), "distributed-training-sim");
        m_opt.sim = (self.parent_path() / name).string();
    }
    if (access(m_opt.sim.c_str(), X_OK) != 0)
    {
        throw TrainingInputError("--sim: '" + m_opt.sim
                                 + "' is not an executable (expected the distributed-training-sim "
                                   "driver)");
    }
    // Job files name absolute paths: Slurm tasks and remote hosts start in other folders.
    m_opt.sim = fs::absolute(m_opt.sim, ec).string();
    m_opt.outDir = fs::absolute(m_opt.outDir, ec).lexically_normal().string();
    fs::create_directories(m_opt.outDir + "/jobs", ec);
    if (ec)
    {
        throw TrainingInputError("--out: cannot create '" + m_opt.outDir
                                 + "/jobs': " + ec.message());
    }
    m_opt.engine.self = self.string();
    m_opt.engine.jobDir = m_opt.outDir + "/jobs";
}

bool
ValidationRunner::RunPhase(const std::vector<ValidationMatrix::Job>& jobs)
{
    std::vector<SweepJob> sweep;
    for (const auto& job : jobs)
    {
        CheckNotReference(job, m_matrix.GetReference());
        sweep.push_back(ToSweepJob(job, m_opt.sim, m_opt.outDir));
    }
    m_jobs.insert(m_jobs.end(), jobs.begin(), jobs.end());
    if (!m_opt.merge && m_opt.engine.engine != "slurm") // slurm refuses real-time jobs itself
    {
        CheckRealTimeBackends(jobs, m_opt.matrixFile);
    }
    if (m_opt.merge)
    {
        auto missing = SweepEngine::Check(sweep);
        m_failures.insert(m_failures.end(), missing.begin(), missing.end());
        return true;
    }
    SweepEngine::Outcome outcome = SweepEngine(m_opt.engine).Run(sweep);
    m_failures.insert(m_failures.end(), outcome.failures.begin(), outcome.failures.end());
    if (outcome.scheduled == 0)
    {
        return true;
    }
    const std::string dir = m_opt.engine.jobDir;
    std::printf("--engine=slurm: %zu task(s) written to %s/slurm-array.sh (job list "
                "%s/slurm-jobs.txt); nothing run here. Submit with\n  sh %s/slurm-submit.sh\n"
                "(the array, then %s/slurm-merge.sh after it). After a partial array, run this "
                "command again with --resume: it writes an array of the missing tasks only.\n",
                outcome.scheduled,
                dir.c_str(),
                dir.c_str(),
                dir.c_str(),
                dir.c_str());
    return false;
}

std::optional<double>
ValidationRunner::Calibrate()
{
    const auto& cal = *m_matrix.GetCalibration();
    auto rows = ValidationMatrix::AttachErrors(
        ValidationResults::ReadRows(m_matrix, m_jobs, m_opt.outDir),
        m_matrix.GetReference());
    auto cells = ValidationMatrix::CalibrationErrors(rows, cal);
    std::size_t best = cells.size();
    try
    {
        best = ValidationMatrix::ChooseCalibration(cells);
    }
    catch (const TrainingInputError& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
    }
    WriteFile(m_opt.outDir + "/calibration.csv",
              ValidationResults::FormatCalibrationCsv(cal, cells, best));
    if (best == cells.size())
    {
        m_failures.push_back({"calibration", m_opt.outDir + "/calibration.csv", "no value chosen"});
        return std::nullopt;
    }
    std::printf("calibration: %s %s=%s (mean |error| %.2f %% on the calibrate scenarios); "
                "running the holdout scenarios with it\n",
                cal.variant.c_str(),
                cal.option.c_str(),
                ValidationMatrix::FormatNumber(cal.values[best]).c_str(),
                100 * cells[best].meanAbs);
    std::fflush(stdout);
    return cal.values[best];
}

std::string
ValidationRunner::WriteTimeline(std::size_t i) const
{
    const auto& s = m_matrix.GetScenarios()[i];
    std::string packet;
    std::string flow;
    for (const auto& j : m_jobs)
    {
        if (j.scenario == i && j.records)
        {
            (j.backend == "packet" ? packet : flow)
                = ValidationResults::ResultFile(m_opt.outDir, j.id);
        }
    }
    std::string script = ValidationFigures::WriteTimelineFigure(m_opt.outDir,
                                                                s,
                                                                packet,
                                                                flow,
                                                                s.options.contains("jobs"));
    if (script.empty())
    {
        std::printf("%s: no timeline (needs the packet and flow ps records at the largest "
                    "K)\n",
                    s.name.c_str());
    }
    return script;
}

std::size_t
ValidationRunner::WriteFigures(const std::vector<ValidationMatrix::Row>& rows) const
{
    std::vector<std::string> scripts;
    for (std::size_t i = 0; i < m_matrix.GetScenarios().size(); ++i)
    {
        const auto& s = m_matrix.GetScenarios()[i];
        std::string figure = ValidationFigures::WriteThroughputFigure(m_opt.outDir,
                                                                      s,
                                                                      rows,
                                                                      m_matrix.GetReference());
        if (!figure.empty())
        {
            scripts.push_back(figure);
        }
        std::string timeline = s.timeline ? WriteTimeline(i) : "";
        if (!timeline.empty())
        {
            scripts.push_back(timeline);
        }
    }
    DrawFigures(scripts);
    return scripts.size();
}

void
ValidationRunner::DrawFigures(const std::vector<std::string>& scripts) const
{
    const std::string& outDir = m_opt.outDir;
    std::string gnuplot = ValidationFigures::FindOnPath("gnuplot");
    if (gnuplot.empty())
    {
        std::printf("gnuplot not found: figures not drawn (apt-get install gnuplot-nox, then run "
                    "gnuplot NAME.gp in %s)\n",
                    outDir.c_str());
    }
    for (const auto& script : scripts)
    {
        if (!gnuplot.empty() && !ValidationFigures::RunGnuplot(gnuplot, outDir, script))
        {
            std::printf("gnuplot %s failed (its messages: %s/gnuplot.log)\n",
                        script.c_str(),
                        outDir.c_str());
        }
    }
}

int
ValidationRunner::ReportFailures() const
{
    if (m_failures.empty())
    {
        return 0;
    }
    std::fprintf(stderr, "error: %zu job(s) failed:\n", m_failures.size());
    for (const auto& f : m_failures)
    {
        std::fprintf(stderr, "  %s (%s), log %s:\n", f.id.c_str(), f.status.c_str(), f.log.c_str());
        for (const auto& line : ValidationResults::LastLines(f.log, 4))
        {
            std::fprintf(stderr, "    | %s\n", line.c_str());
        }
    }
    return 1;
}

int
ValidationRunner::Run()
{
    auto start = std::chrono::steady_clock::now();
    std::vector<ValidationMatrix::Job> first = m_matrix.ExpandFirstPhase(m_opt.root);
    std::printf("%s: %zu scenarios, %zu jobs in the first phase, engine %s, %u at a time; "
                "profiles under %s\n",
                m_opt.matrixFile.c_str(),
                m_matrix.GetScenarios().size(),
                first.size(),
                m_opt.merge ? "none (--merge)" : m_opt.engine.engine.c_str(),
                m_opt.engine.slots,
                m_opt.root.c_str());
    std::fflush(stdout);
    if (!RunPhase(first))
    {
        return 0;
    }
    if (m_matrix.GetCalibration())
    {
        if (auto value = Calibrate();
            value && !RunPhase(m_matrix.ExpandSecondPhase(m_opt.root, *value)))
        {
            return 0;
        }
    }
    const std::string& reference = m_matrix.GetReference();
    auto rows = ValidationMatrix::AttachErrors(
        ValidationResults::ReadRows(m_matrix, m_jobs, m_opt.outDir),
        reference);
    WriteFile(m_opt.outDir + "/results.csv", ValidationResults::FormatResultsCsv(rows, reference));
    WriteFile(m_opt.outDir + "/wall-times.csv", ValidationResults::FormatWallTimesCsv(rows));
    const ValidationResults::ErrorTables tables
        = ValidationResults::FormatErrorTables(rows, m_matrix);
    std::fputs(tables.summary.c_str(), stdout);
    WriteFile(m_opt.outDir + "/error-table.csv", tables.csv);
    WriteFile(m_opt.outDir + "/error-table.rst", tables.rst);
    std::size_t figures = WriteFigures(rows);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf(
        "wrote %s/results.csv (%zu rows), wall-times.csv, error-table.csv, error-table.rst and %zu "
        "figure scripts in %.0f s\n",
        m_opt.outDir.c_str(),
        rows.size(),
        figures,
        wall);
    return ReportFailures();
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * validation-runner: runs a declared scenario matrix through the three backends and compares the
 * flow-level and analytic predictions with the packet level (doc/reference/validation-runner.rst).
 *
 *   ./build/bin/validation-runner --matrix=validation/matrix.json --out=validation-out --jobs=2
 *
 * Every (scenario, K) becomes one packet job, one analytic job and one flow job per sharing
 * variant, each a process of the driver distributed-training-sim (so every driver option works in
 * the matrix and the driver rejects bad ones with its own message). The runner writes
 * results.csv (every prediction next to the packet-level truth), error-table.{csv,rst} (shaped
 * like 000 Table 1), calibration.csv when the matrix calibrates a variant, and per scenario a
 * throughput-vs-workers figure and, where asked, a transfer timeline (gnuplot scripts, drawn when
 * gnuplot is installed).
 */

#include "ns3/command-line.h"
#include "ns3/json-input.h"
#include "ns3/output-file.h"
#include "ns3/sweep-engine.h"
#include "ns3/training-backend.h"
#include "ns3/training-input-error.h"
#include "ns3/validation-matrix.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

using namespace ns3;
namespace fs = std::filesystem;

namespace
{

/// \param outDir the output folder \param id a job id \return its JSON result file
std::string
ResultFile(const std::string& outDir, const std::string& id)
{
    return outDir + "/jobs/" + id + ".json";
}

/**
 * The sweep job of a matrix job: the driver reading the job's options from a scenario file
 * (ScenarioOptions JSON) and the runner's output options; the engine adds --output. The file
 * name carries a hash of its content, so --resume (which keys on the arguments) reruns a job
 * whose options changed.
 */
SweepJob
ToSweepJob(const ValidationMatrix::Job& job, const std::string& sim, const std::string& outDir)
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
    s.result = ResultFile(outDir, job.id);
    s.log = outDir + "/jobs/" + job.id + ".log";
    s.exclusive = job.exclusive;
    return s;
}

/**
 * The reference (packet level, or linux) is what every other backend is compared with: a
 * compared job that runs it (e.g. a flow variant with --backend=packet) would compare the
 * reference with itself.
 * \param job a job of the matrix \param reference the reference backend
 * \throw TrainingInputError naming the job
 */
void
CheckNotReference(const ValidationMatrix::Job& job, const std::string& reference)
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

/// \param file a file \param n lines \return its last n non-empty lines
std::vector<std::string>
LastLines(const std::string& file, std::size_t n)
{
    std::string text;
    try
    {
        text = JsonInput::ReadFile(file, {std::uint64_t{64} << 20, 0, "a job log"});
    }
    catch (const TrainingInputError& e)
    {
        return {e.what()};
    }
    std::istringstream in(text);
    std::deque<std::string> lines;
    std::string line;
    while (std::getline(in, line))
    {
        if (!line.empty())
        {
            lines.push_back(line);
            if (lines.size() > n)
            {
                lines.pop_front();
            }
        }
    }
    return {lines.begin(), lines.end()};
}

/**
 * \param file a result JSON file
 * \param doc receives its contents
 * \return false if the file is missing, unreadable, not a regular file or holds no result
 */
bool
ReadResultFile(const std::string& file, nlohmann::json& doc)
{
    try
    {
        // Through the input checks: a FIFO or a link to /dev/zero left where a result was
        // would block or exhaust memory; it is a missing result instead (the job reruns).
        doc = JsonInput::ParseSorted(JsonInput::ReadFile(file, SweepEngine::ResultLimits()),
                                     file,
                                     SweepEngine::ResultLimits());
    }
    catch (const TrainingInputError&)
    {
        return false;
    }
    return doc.is_object() && doc.contains("results") && doc["results"].is_array()
           && !doc["results"].empty();
}

/// Copy a result's wall time and notes (joined by " | ") into its row.
void
AddWallAndNotes(const nlohmann::json& result, ValidationMatrix::Row& row)
{
    row.wallSeconds = result.value("wall_time_s", 0.0);
    for (const auto& note : result.value("notes", nlohmann::json::array()))
    {
        row.notes += (row.notes.empty() ? "" : " | ") + note.get<std::string>();
    }
}

/**
 * Read the rows of finished jobs.
 * \param matrix the matrix
 * \param jobs the jobs
 * \param pool the pool (file names)
 * \return one row per reported result (a relabelled job gives its first result only)
 */
std::vector<ValidationMatrix::Row>
ReadRows(const ValidationMatrix& matrix,
         const std::vector<ValidationMatrix::Job>& jobs,
         const std::string& outDir)
{
    std::vector<ValidationMatrix::Row> rows;
    for (const auto& job : jobs)
    {
        nlohmann::json doc;
        if (!ReadResultFile(ResultFile(outDir, job.id), doc))
        {
            continue;
        }
        const auto& s = matrix.GetScenarios()[job.scenario];
        for (const auto& r : doc.value("results", nlohmann::json::array()))
        {
            ValidationMatrix::Row row;
            row.scenario = s.name;
            row.category = s.category;
            row.role = s.role;
            row.profile = s.profile;
            row.workers = job.workers;
            row.backend = r.value("backend", job.backend);
            const std::string& reference = matrix.GetReference();
            if (row.backend == reference && job.backend != reference)
            {
                throw TrainingInputError(ResultFile(outDir, job.id) + ": the " + job.backend
                                         + " job reports a " + reference
                                         + " result (expected only the reference jobs to run the "
                                         + reference + " backend)");
            }
            // A calibration label names the result of a sharing model; ring scenarios report
            // "allreduce" whatever the sharing, so their rows keep that name (and are dropped
            // as repeats of the plain allreduce row).
            std::string reported = r.value("variant", std::string());
            bool relabel = !job.label.empty() && reported != "allreduce";
            row.variant = relabel ? job.label : reported;
            row.throughput = r.value("throughput_samples_per_s", 0.0);
            row.stepTime = r.value("step_time_mean_s", 0.0);
            row.job = job.id;
            AddWallAndNotes(r, row);
            if (r.contains("jobs") && r["jobs"].is_array())
            {
                // Several jobs on one fabric (--jobs): one row per job, "<scenario>/<job>".
                for (const auto& jr : r["jobs"])
                {
                    ValidationMatrix::Row x = row;
                    x.scenario = s.name + "/" + jr.value("name", std::string("job"));
                    x.throughput = jr.value("throughput_samples_per_s", 0.0);
                    x.stepTime = jr.value("step_time_mean_s", 0.0);
                    rows.push_back(x);
                }
                continue;
            }
            rows.push_back(row);
            if (relabel)
            {
                break;
            }
        }
    }
    return rows;
}

/// Write a text file completely (temporary file + rename) or throw.
void
WriteFile(const std::string& file, const std::string& text)
{
    OutputFile::Write(file, text, "--out");
}

/// \param v a number \return it with 6 significant digits
std::string
Num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.6g", v);
    return buf;
}

/**
 * Write results.csv (the reference's throughput in the column named after it; the same bytes on
 * every engine) and wall-times.csv (each result's wall time: real-time runs against simulations).
 */
void
WriteResults(const std::string& outDir,
             const std::vector<ValidationMatrix::Row>& rows,
             const std::string& reference)
{
    std::ostringstream out;
    std::ostringstream wall;
    out << "scenario,category,role,profile,workers,backend,variant,throughput_samples_per_s,"
           "step_time_mean_s,"
        << reference << "_throughput_samples_per_s,rel_error,job,notes\n";
    wall << "scenario,workers,backend,variant,wall_time_s\n";
    for (const auto& r : rows)
    {
        const bool known = r.referenceThroughput > 0;
        out << CsvField(r.scenario) << "," << CsvField(r.category) << "," << CsvField(r.role) << ","
            << CsvField(r.profile) << "," << r.workers << "," << CsvField(r.backend) << ","
            << CsvField(r.variant) << "," << Num(r.throughput) << "," << Num(r.stepTime) << ","
            << (known ? Num(r.referenceThroughput) : "") << "," << (known ? Num(r.relError) : "")
            << "," << CsvField(r.job) << "," << CsvField(r.notes) << "\n";
        wall << CsvField(r.scenario) << "," << r.workers << "," << CsvField(r.backend) << ","
             << CsvField(r.variant) << "," << Num(r.wallSeconds) << "\n";
    }
    WriteFile(outDir + "/results.csv", out.str());
    WriteFile(outDir + "/wall-times.csv", wall.str());
}

/// Write error-table.csv and error-table.rst (K > 1, K = 1 and all K) against the reference.
void
WriteErrorTables(const std::string& outDir,
                 const std::vector<ValidationMatrix::Row>& rows,
                 const ValidationMatrix& matrix)
{
    struct Part
    {
        ValidationMatrix::KFilter filter;
        std::string title;
    };

    const std::string& ref = matrix.GetReference();
    const std::string vs = ref == "packet" ? "packet level" : ref + " (real TCP)";
    const std::vector<Part> parts
        = {{ValidationMatrix::K_ABOVE_ONE,
            "K > 1: mean (max) absolute relative throughput error vs " + vs
                + " in %, holdout scenarios"},
           {ValidationMatrix::K_ONE,
            "K = 1 (no contention, must agree): mean (max) absolute relative error vs " + vs
                + " in %"},
           {ValidationMatrix::K_ALL,
            "every K: mean (max) absolute relative error vs " + vs + " in %"}};
    const std::vector<std::string> columns = matrix.GetColumns();
    std::string csv;
    std::string rst;
    for (const auto& p : parts)
    {
        auto table = ValidationMatrix::BuildTable(rows, p.filter, ref);
        csv += ValidationMatrix::FormatCsv(table, p.title, columns) + "\n";
        rst += p.title + ":\n\n" + ValidationMatrix::FormatRst(table, columns) + "\n";
        if (p.filter == ValidationMatrix::K_ABOVE_ONE)
        {
            std::printf("\n%s\n%s",
                        p.title.c_str(),
                        ValidationMatrix::FormatRst(table, columns).c_str());
        }
    }
    WriteFile(outDir + "/error-table.csv", csv);
    WriteFile(outDir + "/error-table.rst", rst);
}

/// \param name a program \return its path on PATH, or ""
std::string
FindOnPath(const std::string& name)
{
    const char* path = std::getenv("PATH");
    std::stringstream ss(path ? path : "");
    std::string dir;
    while (std::getline(ss, dir, ':'))
    {
        std::string candidate = dir + "/" + name;
        if (!dir.empty() && access(candidate.c_str(), X_OK) == 0)
        {
            return candidate;
        }
    }
    return "";
}

/**
 * Run gnuplot on a script inside dir. The script draws NAME.png by default; here it is told to
 * draw NAME.png.part, renamed to NAME.png once gnuplot exited 0, so that an interrupted run
 * never leaves a truncated figure.
 * \return true if gnuplot exited 0 and the figure was renamed
 */
bool
RunGnuplot(const std::string& gnuplot, const std::string& dir, const std::string& script)
{
    const std::string png = fs::path(script).stem().string() + ".png";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
    // Relative to dir: gnuplot's warnings (e.g. a scenario without packet results) go there.
    posix_spawn_file_actions_addopen(&actions,
                                     1,
                                     "gnuplot.log",
                                     O_WRONLY | O_CREAT | O_APPEND,
                                     0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<std::string> args = {gnuplot, "-e", "out='" + png + ".part'", script};
    std::vector<char*> argv;
    for (auto& a : args)
    {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    pid_t pid = -1;
    int rc = posix_spawn(&pid, gnuplot.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    bool ok = rc == 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status)
              && WEXITSTATUS(status) == 0;
    std::error_code ec;
    if (ok)
    {
        fs::rename(fs::path(dir) / (png + ".part"), fs::path(dir) / png, ec);
    }
    fs::remove(fs::path(dir) / (png + ".part"), ec);
    return ok && !ec;
}

/// One series of a throughput figure: a backend (and variant) of one scenario or of one job.
struct FigureSeries
{
    std::string label; //!< column name: "<backend> <variant>", "<job>: ..." for a job's rows
    bool reference;    //!< drawn as points (the reference backend), else as a line
};

/**
 * \param file the CSV to write: workers, then one column per series (NaN where missing)
 * \param columns the series
 * \param table per K, per series label, the throughput
 */
void
WriteThroughputCsv(const std::string& file,
                   const std::vector<FigureSeries>& columns,
                   const std::map<uint32_t, std::map<std::string, double>>& table)
{
    std::ostringstream csv;
    csv << "workers";
    for (const auto& c : columns)
    {
        csv << "," << CsvField(c.label);
    }
    csv << "\n";
    for (const auto& [k, values] : table)
    {
        csv << k;
        for (const auto& c : columns)
        {
            auto it = values.find(c.label);
            csv << "," << (it == values.end() ? std::string("NaN") : Num(it->second));
        }
        csv << "\n";
    }
    WriteFile(file, csv.str());
}

/**
 * \param s the scenario
 * \param base the figure's base name (base.csv holds the data)
 * \param columns the series of base.csv's columns 2, 3, ...
 * \param reference the reference backend
 * \return the gnuplot script: the reference as points (black if it is one series), the rest as
 *         lines (analytic dashed)
 */
std::string
ThroughputScript(const ValidationMatrix::Scenario& s,
                 const std::string& base,
                 const std::vector<FigureSeries>& columns,
                 const std::string& reference)
{
    const std::string refTitle
        = reference == "packet" ? "packet (ns-3 TCP)" : reference + " (real TCP)";
    const auto refs = std::count_if(columns.begin(),
                                    columns.end(),
                                    [](const FigureSeries& c)
                                    {
                                        return c.reference;
                                    });
    std::size_t refIndex = 0;
    std::ostringstream gp;
    gp << "# gnuplot " << base << ".gp (in the runner's output folder) draws " << base << ".png\n"
       << "set datafile separator ','\nset datafile missing 'NaN'\n"
       << "set terminal pngcairo size 900,560 font ',10'\n"
       << "if (!exists('out')) out = '" << base << ".png'\nset output out\n"
       << "set key outside right\nset grid\nset xlabel 'workers K'\n"
       << "set ylabel 'throughput (samples/s)'\nset yrange [0:*]\nset xtics 1\n"
       << "set title '" << s.name << " (" << s.category << ", "
       << fs::path(s.profile).stem().string() << ")' noenhanced\nplot ";
    for (std::size_t i = 0; i < columns.size(); ++i)
    {
        const FigureSeries& c = columns[i];
        gp << (i == 0 ? "'" + base + ".csv'" : std::string(", \\\n     ''"))
           << " using 1:" << i + 2;
        if (c.reference)
        {
            std::string job = c.label.substr(0, c.label.size() - reference.size());
            // One job: black dots; several: open shapes, which stay visible where they coincide.
            gp << " with points ps 1.6"
               << (refs == 1 ? " pt 7 lc rgb 'black'"
                             : " pt " + std::to_string(4 + 2 * (refIndex++ % 4)))
               << " title '" << job << refTitle << "' noenhanced";
            continue;
        }
        gp << " with linespoints pt " << std::max<std::size_t>(i, 1) << " dt "
           << (c.label.find("analytic") != std::string::npos ? 2 : 1) << " title '" << c.label
           << "' noenhanced";
    }
    gp << "\n";
    return gp.str();
}

/**
 * \param r a result row
 * \param scenario a scenario's name
 * \param job receives the job's name for a row of one of several jobs ("<scenario>/<job>")
 * \return whether the row belongs to the scenario (one of its jobs included)
 */
bool
RowOfScenario(const ValidationMatrix::Row& r, const std::string& scenario, std::string& job)
{
    job.clear();
    if (r.scenario == scenario)
    {
        return true;
    }
    if (r.scenario.size() > scenario.size() + 1
        && r.scenario.compare(0, scenario.size(), scenario) == 0
        && r.scenario[scenario.size()] == '/')
    {
        job = r.scenario.substr(scenario.size() + 1);
        return true;
    }
    return false;
}

/**
 * Throughput vs workers of one scenario: a CSV and a gnuplot script (packet as points, every
 * model as a line, like 000 Fig. 9 and 12-22). A scenario of several jobs gets one series per
 * job and backend (its rows are "<scenario>/<job>").
 * \return the script's file name (relative to outDir); empty if the scenario has no result
 */
std::string
WriteThroughputFigure(const std::string& outDir,
                      const ValidationMatrix::Scenario& s,
                      const std::vector<ValidationMatrix::Row>& rows,
                      const std::string& reference)
{
    std::vector<FigureSeries> columns;
    std::map<uint32_t, std::map<std::string, double>> table;
    std::string job;
    for (const auto& r : rows)
    {
        if (!RowOfScenario(r, s.name, job) || r.variant.find('@') != std::string::npos)
        {
            continue; // calibration sweeps stay out of the figures
        }
        const bool ref = r.backend == reference;
        std::string col = ref ? reference : r.backend + " " + r.variant;
        col = job.empty() ? col : job + ": " + col;
        if (std::none_of(columns.begin(),
                         columns.end(),
                         [&](const FigureSeries& c)
                         {
                             return c.label == col;
                         }))
        {
            columns.push_back({col, ref});
        }
        table[r.workers][col] = r.throughput;
    }
    if (table.empty())
    {
        std::printf("%s: no throughput figure (no result rows)\n", s.name.c_str());
        return "";
    }
    const std::string base = s.name + "-throughput";
    WriteThroughputCsv(outDir + "/" + base + ".csv", columns, table);
    WriteFile(outDir + "/" + base + ".gp", ThroughputScript(s, base, columns, reference));
    return base + ".gp";
}

/**
 * One transfer as a line of timeline data.
 * \param dat where it goes
 * \param t the transfer record
 * \param lane the lane of its worker
 * \param t0 the panel's time origin (s)
 * \param t1 the panel's end (s); the transfer is clipped to [t0, t1]
 * \return the line's end (ms since t0)
 */
double
WriteTransferLine(std::ostringstream& dat,
                  const nlohmann::json& t,
                  double lane,
                  double t0,
                  double t1)
{
    const double a = 1e3 * (std::max(t.value("start_s", 0.0), t0) - t0);
    const double b = 1e3 * (std::min(t.value("end_s", 0.0), t1) - t0);
    const bool up = t.value("direction", std::string()) == "up";
    dat << lane + (up ? 0.2 : -0.2) << " " << (up ? "up" : "down") << " " << t.value("tensor", 0u)
        << " " << Num(a) << " " << Num(b) << "\n";
    return b;
}

/**
 * The transfers of the first measured step of one result file, as gnuplot data (one block).
 * \param file a result JSON file with records
 * \param title the panel's title (a comment line)
 * \param dat where the block goes
 * \param lanes set to the lanes' labels: the worker indices
 * \param span raised to the block's last end time (ms)
 * \return false if the file is missing, unreadable or has no transfer of that step
 */
bool
WriteTimelinePanel(const std::string& file,
                   const std::string& title,
                   std::ostringstream& dat,
                   std::vector<std::string>& lanes,
                   double& span)
{
    nlohmann::json doc;
    if (!ReadResultFile(file, doc))
    {
        return false;
    }
    const auto& result = doc["results"][0];
    uint32_t warmup = doc["scenario"].value("warmup", 0u);
    lanes.clear();
    for (uint32_t w = 0; w < doc["scenario"].value("workers", 0u); ++w)
    {
        lanes.push_back(std::to_string(w));
    }
    const auto& transfers = result.value("transfers", nlohmann::json::array());
    double t0 = 1e300;
    for (const auto& t : transfers)
    {
        if (t.value("step", 0u) == warmup)
        {
            t0 = std::min(t0, t.value("start_s", 0.0));
        }
    }
    dat << "# " << title << ": worker direction tensor start_ms end_ms\n";
    bool drawn = false;
    for (const auto& t : transfers)
    {
        if (t.value("step", 0u) == warmup)
        {
            span = std::max(span, WriteTransferLine(dat, t, t.value("worker", 0u), t0, 1e300));
            drawn = true;
        }
    }
    dat << "\n\n";
    return drawn; // an empty panel (no transfer of that step) is no figure
}

/**
 * The transfers of a several-jobs result file on one clock, as gnuplot data (one block): the
 * window runs from the earliest start to the latest end of any job's first measured step, and
 * every job's transfers in it are drawn (clipped to it), so that the jobs' overlaps show. Job j's
 * worker w is on lane (workers of the jobs before j) + w, labelled "<job> w<w>".
 * \param file a several-jobs result JSON file with records
 * \param title the panel's title (a comment line)
 * \param dat where the block goes
 * \param lanes set to the lanes' labels
 * \param span raised to the window's length (ms)
 * \return false if the file is missing or unreadable, lacks a job's result, or no job has a
 *         transfer in its first measured step
 */
bool
WriteJobsTimelinePanel(const std::string& file,
                       const std::string& title,
                       std::ostringstream& dat,
                       std::vector<std::string>& lanes,
                       double& span)
{
    nlohmann::json doc;
    if (!ReadResultFile(file, doc) || !doc.contains("jobs"))
    {
        return false;
    }
    const auto& jobs = doc["jobs"];
    const auto& results = doc["results"][0].value("jobs", nlohmann::json::array());
    double t0 = 1e300;
    double t1 = -1e300;
    for (std::size_t j = 0; j < jobs.size() && j < results.size(); ++j)
    {
        const uint32_t warmup = jobs[j]["scenario"].value("warmup", 0u);
        for (const auto& t : results[j].value("transfers", nlohmann::json::array()))
        {
            if (t.value("step", 0u) == warmup)
            {
                t0 = std::min(t0, t.value("start_s", 0.0));
                t1 = std::max(t1, t.value("end_s", 0.0));
            }
        }
    }
    if (results.size() != jobs.size() || t1 < t0)
    {
        return false;
    }
    dat << "# " << title << ": lane direction tensor start_ms end_ms (ms since " << Num(t0)
        << " s)\n";
    lanes.clear();
    for (std::size_t j = 0; j < jobs.size(); ++j)
    {
        const double first = lanes.size();
        for (uint32_t w = 0; w < jobs[j]["scenario"].value("workers", 0u); ++w)
        {
            lanes.push_back(jobs[j].value("name", std::string()) + " w" + std::to_string(w));
        }
        for (const auto& t : results[j].value("transfers", nlohmann::json::array()))
        {
            if (t.value("start_s", 0.0) < t1 && t.value("end_s", 0.0) > t0)
            {
                WriteTransferLine(dat, t, first + t.value("worker", 0u), t0, t1);
            }
        }
    }
    span = std::max(span, 1e3 * (t1 - t0));
    dat << "\n\n";
    return true;
}

/**
 * The plot commands of a timeline script: one panel per result, uplinks red, downlinks blue.
 * \param gp the script
 * \param heading the panels' title before the panel's own ("<scenario>, K = 4")
 * \param base the figure's base name (its data file is base.dat, one block per panel)
 * \param titles the panels' titles
 * \param origin what the time axis counts from
 */
void
WriteTimelinePlots(std::ostringstream& gp,
                   const std::string& heading,
                   const std::string& base,
                   const std::vector<std::string>& titles,
                   const std::string& origin)
{
    for (std::size_t p = 0; p < titles.size(); ++p)
    {
        gp << "set title '" << heading << ": " << titles[p] << "' noenhanced\n"
           << (p + 1 == titles.size()
                   ? "set xlabel 'time since the first transfer of " + origin + " (ms)'\n"
                   : std::string())
           << "plot '" << base << ".dat' index " << p
           << " using (($4+$5)/2):(up($1)):(($5-$4)/2):(0.15) with boxxyerror fs solid 0.5 "
              "lc rgb '#c03030', \\\n     '' index "
           << p
           << " using (($4+$5)/2):(down($1)):(($5-$4)/2):(0.15) with boxxyerror fs solid 0.5 "
              "lc rgb '#3050c0'\n";
    }
    gp << "unset multiplot\n";
}

/**
 * Transfer timeline (packet above flow, like 000 Fig. 7 and 23): per worker one bar per
 * transfer, uplink and downlink on two lanes. One job: its first measured step. Several jobs:
 * every job's workers, on one clock over the window of their first measured steps.
 * \return the script's file name, or "" if a record file is missing
 */
std::string
WriteTimelineFigure(const std::string& outDir,
                    const ValidationMatrix::Scenario& s,
                    const std::string& packetJson,
                    const std::string& flowJson,
                    bool jobs)
{
    const std::vector<std::string> titles = {"packet (ns-3 TCP)", "flow (ps)"};
    const std::vector<std::string> files = {packetJson, flowJson};
    std::ostringstream dat;
    std::vector<std::string> lanes;
    double span = 0;
    for (std::size_t p = 0; p < files.size(); ++p)
    {
        if (!(jobs ? WriteJobsTimelinePanel
                   : WriteTimelinePanel)(files[p], titles[p], dat, lanes, span))
        {
            return "";
        }
    }
    const std::size_t k = lanes.size();
    const std::string base = s.name + "-timeline";
    WriteFile(outDir + "/" + base + ".dat", dat.str());
    std::ostringstream gp;
    gp << "# gnuplot " << base << ".gp draws " << base
       << (jobs ? ".png: every job's workers over the window of their first measured steps,\n"
                : ".png: one measured step (the first after warm-up),\n")
       << "# per worker its uplink (upper lane, red) and downlink (lower lane, blue) transfers\n"
       << "set terminal pngcairo size 900," << 260 + 60 * k << " font ',10'\n"
       << "if (!exists('out')) out = '" << base << ".png'\nset output out\n"
       << "set multiplot layout 2,1\n"
       << "set xrange [0:" << Num(span * 1.02) << "]\nset yrange [-0.6:" << k - 0.4 << "]\n";
    if (jobs)
    {
        gp << "set ytics (";
        for (std::size_t i = 0; i < k; ++i)
        {
            // Job names are letters, digits, '_' and '-' (TrainingJobSet): no quoting needed.
            gp << (i ? ", " : "") << "'" << lanes[i] << "' " << i;
        }
        gp << ") noenhanced\nset ylabel 'job, worker'\n";
    }
    else
    {
        gp << "set ytics 1\nset ylabel 'worker'\n";
    }
    gp << "set grid x\nunset key\n"
       << "up(c) = stringcolumn(2) eq 'up' ? c : 1/0\ndown(c) = stringcolumn(2) eq 'down' ? c : "
          "1/0\n";
    WriteTimelinePlots(gp,
                       s.name + (jobs ? "" : ", K = " + std::to_string(k)),
                       base,
                       titles,
                       jobs ? "all first measured steps" : "the step");
    WriteFile(outDir + "/" + base + ".gp", gp.str());
    return base + ".gp";
}

/// \param start a folder \return the first ancestor holding traces/ or .git, else start
std::string
FindRoot(const fs::path& start)
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

/// Settings of one runner invocation.
struct RunnerOptions
{
    std::string matrixFile;      //!< --matrix
    std::string outDir;          //!< --out
    std::string sim;             //!< --sim
    std::string root;            //!< --root
    bool merge{false};           //!< --merge: run nothing, merge the results there are
    SweepEngine::Options engine; //!< --engine, --jobs, --sshloginfile, --resume
};

/// One run of a matrix: its phases through the sweep engine, then the merged outputs.
class Runner
{
  public:
    /// \param options the settings (paths resolved, driver checked)
    explicit Runner(RunnerOptions options);

    /// \return the exit status
    int Run();

  private:
    /// Run (or only check, with --merge) one phase; \return false if the Slurm engine
    /// scheduled tasks instead (nothing to merge yet).
    bool RunPhase(const std::vector<ValidationMatrix::Job>& jobs);
    /// Write calibration.csv; \return the chosen value's index, or none
    std::optional<double> Calibrate();
    /// Write every figure script (and draw them); \return how many
    std::size_t WriteFigures(const std::vector<ValidationMatrix::Row>& rows) const;
    /// \return 1 after listing the failed jobs, or 0
    int ReportFailures() const;

    RunnerOptions m_opt;                       //!< settings
    ValidationMatrix m_matrix;                 //!< the matrix
    std::vector<ValidationMatrix::Job> m_jobs; //!< jobs of the phases run so far
    std::vector<SweepFailure> m_failures;      //!< failed jobs and steps
};

Runner::Runner(RunnerOptions options)
    : m_opt(std::move(options)),
      m_matrix(ValidationMatrix::LoadFromFile(m_opt.matrixFile))
{
    if (m_opt.root.empty())
    {
        fs::path dir = fs::path(m_opt.matrixFile).parent_path();
        m_opt.root = FindRoot(dir.empty() ? fs::path(".") : dir);
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
Runner::RunPhase(const std::vector<ValidationMatrix::Job>& jobs)
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
Runner::Calibrate()
{
    const auto& cal = *m_matrix.GetCalibration();
    auto rows = ValidationMatrix::AttachErrors(ReadRows(m_matrix, m_jobs, m_opt.outDir),
                                               m_matrix.GetReference());
    auto cells = ValidationMatrix::CalibrationErrors(rows, cal);
    std::ostringstream csv;
    csv << "variant,option,value,mean_abs_rel_error,max_abs_rel_error,points,chosen\n";
    std::size_t best = cells.size();
    try
    {
        best = ValidationMatrix::ChooseCalibration(cells);
    }
    catch (const TrainingInputError& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
    }
    for (std::size_t i = 0; i < cells.size(); ++i)
    {
        csv << CsvField(cal.variant) << "," << CsvField(cal.option) << ","
            << ValidationMatrix::FormatNumber(cal.values[i]) << ","
            << (cells[i].count ? Num(cells[i].meanAbs) : "") << ","
            << (cells[i].count ? Num(cells[i].maxAbs) : "") << "," << cells[i].count << ","
            << (i == best ? "yes" : "") << "\n";
    }
    WriteFile(m_opt.outDir + "/calibration.csv", csv.str());
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

std::size_t
Runner::WriteFigures(const std::vector<ValidationMatrix::Row>& rows) const
{
    const std::string& outDir = m_opt.outDir;
    std::vector<std::string> scripts;
    for (std::size_t i = 0; i < m_matrix.GetScenarios().size(); ++i)
    {
        const auto& s = m_matrix.GetScenarios()[i];
        std::string figure = WriteThroughputFigure(outDir, s, rows, m_matrix.GetReference());
        if (!figure.empty())
        {
            scripts.push_back(figure);
        }
        if (!s.timeline)
        {
            continue;
        }
        const bool jobs = std::any_of(s.options.begin(),
                                      s.options.end(),
                                      [](const auto& o)
                                      {
                                          return o.first == "jobs";
                                      });
        std::string packet;
        std::string flow;
        for (const auto& j : m_jobs)
        {
            if (j.scenario == i && j.records)
            {
                (j.backend == "packet" ? packet : flow) = ResultFile(outDir, j.id);
            }
        }
        std::string script = WriteTimelineFigure(outDir, s, packet, flow, jobs);
        if (script.empty())
        {
            std::printf("%s: no timeline (needs the packet and flow ps records at the largest "
                        "K)\n",
                        s.name.c_str());
            continue;
        }
        scripts.push_back(script);
    }
    std::string gnuplot = FindOnPath("gnuplot");
    if (gnuplot.empty())
    {
        std::printf("gnuplot not found: figures not drawn (apt-get install gnuplot-nox, then run "
                    "gnuplot NAME.gp in %s)\n",
                    outDir.c_str());
    }
    for (const auto& script : scripts)
    {
        if (!gnuplot.empty() && !RunGnuplot(gnuplot, outDir, script))
        {
            std::printf("gnuplot %s failed (its messages: %s/gnuplot.log)\n",
                        script.c_str(),
                        outDir.c_str());
        }
    }
    return scripts.size();
}

int
Runner::ReportFailures() const
{
    if (m_failures.empty())
    {
        return 0;
    }
    std::fprintf(stderr, "error: %zu job(s) failed:\n", m_failures.size());
    for (const auto& f : m_failures)
    {
        std::fprintf(stderr, "  %s (%s), log %s:\n", f.id.c_str(), f.status.c_str(), f.log.c_str());
        for (const auto& line : LastLines(f.log, 4))
        {
            std::fprintf(stderr, "    | %s\n", line.c_str());
        }
    }
    return 1;
}

int
Runner::Run()
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
    auto rows = ValidationMatrix::AttachErrors(ReadRows(m_matrix, m_jobs, m_opt.outDir),
                                               m_matrix.GetReference());
    WriteResults(m_opt.outDir, rows, m_matrix.GetReference());
    WriteErrorTables(m_opt.outDir, rows, m_matrix);
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

/**
 * Finish the settings after the command line: --jobs parsed, the engine checked, the Slurm
 * merge step (this very command with --merge, from the current folder).
 * \throw TrainingInputError naming the option
 */
void
CompleteOptions(RunnerOptions& opt, const std::string& jobs, int argc, char* argv[])
{
    if (opt.matrixFile.empty())
    {
        throw TrainingInputError("--matrix: missing (expected a matrix JSON file, e.g. "
                                 "--matrix=validation/matrix.json)");
    }
    if (jobs.empty() || jobs.find_first_not_of("0123456789") != std::string::npos || jobs.size() > 4
        || std::stoul(jobs) < 1)
    {
        throw TrainingInputError("--jobs: cannot parse '" + jobs
                                 + "' (expected a whole number from 1 to 9999)");
    }
    opt.engine.slots = static_cast<uint32_t>(std::stoul(jobs));
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

} // namespace

int
main(int argc, char* argv[])
{
    RunnerOptions opt;
    opt.outDir = "validation-out";
    std::string jobs = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
    std::string runJob;

    CommandLine cmd(__FILE__);
    cmd.Usage("Run a validation matrix (doc/reference/validation-runner.rst) through the "
              "packet, flow, analytic (and linux) backends, as driver processes on this "
              "machine, GNU parallel or Slurm, and compare them with the reference (packet, or "
              "linux).");
    cmd.AddValue("matrix", "Matrix JSON file, e.g. validation/matrix.json", opt.matrixFile);
    cmd.AddValue("out", "Output folder (results.csv, error tables, figures, jobs/)", opt.outDir);
    cmd.AddValue("jobs", "Jobs at a time (default: number of cores; slurm: array throttle)", jobs);
    cmd.AddValue("engine",
                 "local (processes here), parallel (GNU parallel) or slurm (writes a job-array "
                 "script and a merge step)",
                 opt.engine.engine);
    cmd.AddValue("sshloginfile",
                 "--engine=parallel: GNU parallel's --sshloginfile (hosts sharing OUT and the "
                 "build by path; ':' is this machine)",
                 opt.engine.sshLoginFile);
    cmd.AddValue("sim",
                 "The driver (default: distributed-training-sim next to this program)",
                 opt.sim);
    cmd.AddValue("root",
                 "Folder of relative profile paths (default: the matrix file's repository)",
                 opt.root);
    cmd.AddValue("resume",
                 "Reuse the results in OUT/jobs of jobs whose argument list is unchanged",
                 opt.engine.resume);
    cmd.AddValue("merge",
                 "Run nothing: merge the results in OUT/jobs (the Slurm merge step); a missing "
                 "result is an error",
                 opt.merge);
    cmd.AddValue("run-job", "Internal: run the one job described by this job file", runJob);
    cmd.Parse(argc, argv);
    try
    {
        if (!runJob.empty())
        {
            return SweepEngine::RunJobFile(runJob);
        }
        CompleteOptions(opt, jobs, argc, argv);
        return Runner(opt).Run();
    }
    catch (const TrainingInputError& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
}

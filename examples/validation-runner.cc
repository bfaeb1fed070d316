/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * validation-runner: runs a declared scenario matrix through the three backends and compares the
 * flow-level and analytic predictions with the packet level (doc/validation-runner.rst).
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

/// A finished job that failed.
struct Failure
{
    std::string id;     //!< job id
    std::string log;    //!< its log file
    std::string status; //!< "exit 1", "signal 11", ...
};

/// Runs jobs as driver processes, at most a given number at a time.
class JobPool
{
  public:
    /**
     * \param sim the driver executable
     * \param outDir the output folder (jobs go to outDir/jobs)
     * \param parallel processes at a time
     * \param resume skip jobs whose JSON result exists and parses
     */
    JobPool(std::string sim, std::string outDir, uint32_t parallel, bool resume)
        : m_sim(std::move(sim)),
          m_outDir(std::move(outDir)),
          m_parallel(parallel),
          m_resume(resume)
    {
    }

    /// \param job a job \return its JSON result file
    std::string ResultFile(const ValidationMatrix::Job& job) const
    {
        return m_outDir + "/jobs/" + job.id + ".json";
    }

    /// \param job a job \return its log file
    std::string LogFile(const ValidationMatrix::Job& job) const
    {
        return m_outDir + "/jobs/" + job.id + ".log";
    }

    /**
     * Run every job; wait for all of them.
     * \param jobs the jobs
     * \return the failed ones
     */
    std::vector<Failure> Run(const std::vector<ValidationMatrix::Job>& jobs)
    {
        std::deque<const ValidationMatrix::Job*> pending;
        std::size_t reused = 0;
        for (const auto& j : jobs)
        {
            if (m_resume && ReadsBack(ResultFile(j)))
            {
                ++reused;
                continue;
            }
            pending.push_back(&j);
        }
        if (reused)
        {
            std::printf("--resume: reusing %zu of %zu results\n", reused, jobs.size());
        }
        const std::size_t total = pending.size();
        std::size_t done = 0;
        std::map<pid_t, std::pair<const ValidationMatrix::Job*, Clock::time_point>> running;
        std::vector<Failure> failures;
        while (!pending.empty() || !running.empty())
        {
            while (!pending.empty() && running.size() < m_parallel)
            {
                const ValidationMatrix::Job* job = pending.front();
                pending.pop_front();
                pid_t pid = Spawn(*job);
                if (pid < 0)
                {
                    failures.push_back({job->id, LogFile(*job), "not started"});
                    ++done;
                    continue;
                }
                running[pid] = {job, Clock::now()};
            }
            if (running.empty())
            {
                continue;
            }
            int status = 0;
            pid_t pid = waitpid(-1, &status, 0);
            if (pid < 0)
            {
                if (errno == EINTR)
                {
                    continue;
                }
                std::perror("waitpid");
                break;
            }
            auto it = running.find(pid);
            if (it == running.end())
            {
                continue;
            }
            const ValidationMatrix::Job* job = it->second.first;
            double wall = std::chrono::duration<double>(Clock::now() - it->second.second).count();
            running.erase(it);
            ++done;
            std::string state = "ok";
            if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
            {
                state = "exit " + std::to_string(WEXITSTATUS(status));
            }
            else if (WIFSIGNALED(status))
            {
                state = "signal " + std::to_string(WTERMSIG(status));
            }
            if (state != "ok")
            {
                failures.push_back({job->id, LogFile(*job), state});
            }
            std::printf("[%zu/%zu] %-60s %s (%.1f s)\n",
                        done,
                        total,
                        job->id.c_str(),
                        state.c_str(),
                        wall);
            std::fflush(stdout);
        }
        return failures;
    }

    /**
     * \param file a JSON result file
     * \return true if it exists and parses
     */
    static bool ReadsBack(const std::string& file)
    {
        std::ifstream in(file);
        if (!in)
        {
            return false;
        }
        try
        {
            nlohmann::json doc = nlohmann::json::parse(in);
            return doc.contains("results");
        }
        catch (const nlohmann::json::exception&)
        {
            return false;
        }
    }

  private:
    using Clock = std::chrono::steady_clock; //!< wall clock of the jobs

    /**
     * Start one job: the command line is the log's first line, the driver's output follows.
     * \param job the job
     * \return its process id, or -1
     */
    pid_t Spawn(const ValidationMatrix::Job& job)
    {
        std::vector<std::string> args = {m_sim};
        args.insert(args.end(), job.args.begin(), job.args.end());
        args.push_back("--output=" + ResultFile(job));
        args.push_back("--progress=false");
        args.push_back(std::string("--records=") + (job.records ? "true" : "false"));
        std::string log = LogFile(job);
        {
            std::ofstream out(log);
            for (const auto& a : args)
            {
                out << a << " ";
            }
            out << "\n";
        }
        std::vector<char*> argv;
        for (auto& a : args)
        {
            argv.push_back(a.data());
        }
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_APPEND, 0644);
        posix_spawn_file_actions_adddup2(&actions, 1, 2);
        pid_t pid = -1;
        int rc = posix_spawn(&pid, m_sim.c_str(), &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        if (rc != 0)
        {
            std::ofstream(log, std::ios::app) << "cannot start: " << std::strerror(rc) << "\n";
            return -1;
        }
        return pid;
    }

    std::string m_sim;    //!< the driver
    std::string m_outDir; //!< the output folder
    uint32_t m_parallel;  //!< processes at a time
    bool m_resume;        //!< reuse existing results
};

/// \param file a file \param n lines \return its last n non-empty lines
std::vector<std::string>
LastLines(const std::string& file, std::size_t n)
{
    std::ifstream in(file);
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
 * Read the rows of finished jobs.
 * \param matrix the matrix
 * \param jobs the jobs
 * \param pool the pool (file names)
 * \return one row per reported result (a relabelled job gives its first result only)
 */
std::vector<ValidationMatrix::Row>
ReadRows(const ValidationMatrix& matrix,
         const std::vector<ValidationMatrix::Job>& jobs,
         const JobPool& pool)
{
    std::vector<ValidationMatrix::Row> rows;
    for (const auto& job : jobs)
    {
        std::ifstream in(pool.ResultFile(job));
        if (!in)
        {
            continue;
        }
        nlohmann::json doc;
        try
        {
            doc = nlohmann::json::parse(in);
        }
        catch (const nlohmann::json::exception&)
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
            // A calibration label names the result of a sharing model; ring scenarios report
            // "allreduce" whatever the sharing, so their rows keep that name (and are dropped
            // as repeats of the plain allreduce row).
            std::string reported = r.value("variant", std::string());
            bool relabel = !job.label.empty() && reported != "allreduce";
            row.variant = relabel ? job.label : reported;
            row.throughput = r.value("throughput_samples_per_s", 0.0);
            row.stepTime = r.value("step_time_mean_s", 0.0);
            row.job = job.id;
            rows.push_back(row);
            if (relabel)
            {
                break;
            }
        }
    }
    return rows;
}

/// Write a text file or throw.
void
WriteFile(const std::string& file, const std::string& text)
{
    std::ofstream out(file);
    out << text;
    if (!out)
    {
        throw TrainingInputError(file + ": cannot write (expected a writable --out folder)");
    }
}

/// \param v a number \return it with 6 significant digits
std::string
Num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.6g", v);
    return buf;
}

/// Write results.csv.
void
WriteResults(const std::string& file, const std::vector<ValidationMatrix::Row>& rows)
{
    std::ostringstream out;
    out << "scenario,category,role,profile,workers,backend,variant,throughput_samples_per_s,"
           "step_time_mean_s,packet_throughput_samples_per_s,rel_error,job\n";
    for (const auto& r : rows)
    {
        out << r.scenario << "," << r.category << "," << r.role << "," << r.profile << ","
            << r.workers << "," << r.backend << "," << r.variant << "," << Num(r.throughput) << ","
            << Num(r.stepTime) << "," << (r.packetThroughput > 0 ? Num(r.packetThroughput) : "")
            << "," << (r.packetThroughput > 0 ? Num(r.relError) : "") << "," << r.job << "\n";
    }
    WriteFile(file, out.str());
}

/// Write error-table.csv and error-table.rst (K > 1, K = 1 and all K).
void
WriteErrorTables(const std::string& outDir, const std::vector<ValidationMatrix::Row>& rows)
{
    struct Part
    {
        ValidationMatrix::KFilter filter;
        std::string title;
    };

    const std::vector<Part> parts
        = {{ValidationMatrix::K_ABOVE_ONE,
            "K > 1: mean (max) absolute relative throughput error vs packet level in %, holdout "
            "scenarios"},
           {ValidationMatrix::K_ONE,
            "K = 1 (no contention, must agree): mean (max) absolute relative error vs packet level "
            "in %"},
           {ValidationMatrix::K_ALL,
            "every K: mean (max) absolute relative error vs packet level in %"}};
    std::string csv;
    std::string rst;
    for (const auto& p : parts)
    {
        auto table = ValidationMatrix::BuildTable(rows, p.filter);
        csv += ValidationMatrix::FormatCsv(table, p.title) + "\n";
        rst += p.title + ":\n\n" + ValidationMatrix::FormatRst(table) + "\n";
        if (p.filter == ValidationMatrix::K_ABOVE_ONE)
        {
            std::printf("\n%s\n%s", p.title.c_str(), ValidationMatrix::FormatRst(table).c_str());
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

/// Run gnuplot on a script inside dir; \return true if it exited 0.
bool
RunGnuplot(const std::string& gnuplot, const std::string& dir, const std::string& script)
{
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
    std::vector<std::string> args = {gnuplot, script};
    std::vector<char*> argv = {args[0].data(), args[1].data(), nullptr};
    pid_t pid = -1;
    int rc = posix_spawn(&pid, gnuplot.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    return rc == 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status)
           && WEXITSTATUS(status) == 0;
}

/**
 * Throughput vs workers of one scenario: a CSV and a gnuplot script (packet as points, every
 * model as a line, like 000 Fig. 9 and 12-22).
 * \return the script's file name (relative to outDir)
 */
std::string
WriteThroughputFigure(const std::string& outDir,
                      const ValidationMatrix::Scenario& s,
                      const std::vector<ValidationMatrix::Row>& rows)
{
    std::vector<std::string> columns = {"packet"};
    std::map<uint32_t, std::map<std::string, double>> table;
    for (const auto& r : rows)
    {
        if (r.scenario != s.name || r.variant.find('@') != std::string::npos)
        {
            continue; // calibration sweeps stay out of the figures
        }
        std::string col = r.backend == "packet" ? "packet" : r.backend + " " + r.variant;
        if (std::find(columns.begin(), columns.end(), col) == columns.end())
        {
            columns.push_back(col);
        }
        table[r.workers][col] = r.throughput;
    }
    std::ostringstream csv;
    csv << "workers";
    for (const auto& c : columns)
    {
        csv << "," << c;
    }
    csv << "\n";
    for (const auto& [k, values] : table)
    {
        csv << k;
        for (const auto& c : columns)
        {
            auto it = values.find(c);
            csv << "," << (it == values.end() ? std::string("NaN") : Num(it->second));
        }
        csv << "\n";
    }
    const std::string base = s.name + "-throughput";
    WriteFile(outDir + "/" + base + ".csv", csv.str());
    std::ostringstream gp;
    gp << "# gnuplot " << base << ".gp (in the runner's output folder) draws " << base << ".png\n"
       << "set datafile separator ','\nset datafile missing 'NaN'\n"
       << "set terminal pngcairo size 900,560 font ',10'\nset output '" << base << ".png'\n"
       << "set key outside right\nset grid\nset xlabel 'workers K'\n"
       << "set ylabel 'throughput (samples/s)'\nset yrange [0:*]\nset xtics 1\n"
       << "set title '" << s.name << " (" << s.category << ", "
       << fs::path(s.profile).stem().string() << ")' noenhanced\n"
       << "plot '" << base << ".csv' using 1:2 with points pt 7 ps 1.6 lc rgb 'black' title "
       << "'packet (ns-3 TCP)'";
    for (std::size_t i = 1; i < columns.size(); ++i)
    {
        gp << ", \\\n     '' using 1:" << i + 2 << " with linespoints pt " << i << " dt "
           << (columns[i].rfind("analytic", 0) == 0 ? 2 : 1) << " title '" << columns[i]
           << "' noenhanced";
    }
    gp << "\n";
    WriteFile(outDir + "/" + base + ".gp", gp.str());
    return base + ".gp";
}

/**
 * Transfer timeline of one step (packet above flow, like 000 Fig. 7 and 23): per worker one bar
 * per transfer, uplink and downlink on two lanes.
 * \return the script's file name, or "" if a record file is missing
 */
std::string
WriteTimelineFigure(const std::string& outDir,
                    const ValidationMatrix::Scenario& s,
                    const std::string& packetJson,
                    const std::string& flowJson)
{
    struct Panel
    {
        std::string title;
        std::string file;
    };

    std::vector<Panel> panels = {{"packet (ns-3 TCP)", packetJson}, {"flow (ps)", flowJson}};
    std::ostringstream dat;
    uint32_t k = 0;
    double span = 0;
    for (std::size_t p = 0; p < panels.size(); ++p)
    {
        std::ifstream in(panels[p].file);
        if (!in)
        {
            return "";
        }
        nlohmann::json doc;
        try
        {
            doc = nlohmann::json::parse(in);
        }
        catch (const nlohmann::json::exception&)
        {
            return "";
        }
        if (doc["results"].empty())
        {
            return "";
        }
        const auto& result = doc["results"][0];
        uint32_t warmup = doc["scenario"].value("warmup", 0u);
        k = doc["scenario"].value("workers", 0u);
        const auto& transfers = result.value("transfers", nlohmann::json::array());
        double t0 = 1e300;
        for (const auto& t : transfers)
        {
            if (t.value("step", 0u) == warmup)
            {
                t0 = std::min(t0, t.value("start_s", 0.0));
            }
        }
        dat << "# " << panels[p].title << ": worker direction tensor start_ms end_ms\n";
        for (const auto& t : transfers)
        {
            if (t.value("step", 0u) != warmup)
            {
                continue;
            }
            double a = 1e3 * (t.value("start_s", 0.0) - t0);
            double b = 1e3 * (t.value("end_s", 0.0) - t0);
            span = std::max(span, b);
            bool up = t.value("direction", std::string()) == "up";
            dat << t.value("worker", 0u) + (up ? 0.2 : -0.2) << " " << (up ? "up" : "down") << " "
                << t.value("tensor", 0u) << " " << Num(a) << " " << Num(b) << "\n";
        }
        dat << "\n\n";
    }
    const std::string base = s.name + "-timeline";
    WriteFile(outDir + "/" + base + ".dat", dat.str());
    std::ostringstream gp;
    gp << "# gnuplot " << base << ".gp draws " << base
       << ".png: one measured step (the first after warm-up),\n"
       << "# per worker its uplink (upper lane, red) and downlink (lower lane, blue) transfers\n"
       << "set terminal pngcairo size 900," << 260 + 60 * k << " font ',10'\n"
       << "set output '" << base << ".png'\nset multiplot layout 2,1\n"
       << "set xrange [0:" << Num(span * 1.02) << "]\nset yrange [-0.6:" << k - 0.4 << "]\n"
       << "set ytics 1\nset ylabel 'worker'\nset grid x\nunset key\n"
       << "up(c) = stringcolumn(2) eq 'up' ? c : 1/0\ndown(c) = stringcolumn(2) eq 'down' ? c : "
          "1/0\n";
    for (std::size_t p = 0; p < panels.size(); ++p)
    {
        gp << "set title '" << s.name << ", K = " << k << ": " << panels[p].title
           << "' noenhanced\n"
           << (p + 1 == panels.size()
                   ? "set xlabel 'time since the first transfer of the step (ms)'\n"
                   : "")
           << "plot '" << base << ".dat' index " << p
           << " using (($4+$5)/2):(up($1)):(($5-$4)/2):(0.15) with boxxyerror fs solid 0.5 "
              "lc rgb '#c03030', \\\n     '' index "
           << p
           << " using (($4+$5)/2):(down($1)):(($5-$4)/2):(0.15) with boxxyerror fs solid 0.5 "
              "lc rgb '#3050c0'\n";
    }
    gp << "unset multiplot\n";
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

/// Run the matrix; \return the exit status.
int
RunMatrix(const std::string& matrixFile,
          const std::string& outDir,
          uint32_t parallel,
          std::string sim,
          std::string root,
          bool resume)
{
    auto start = std::chrono::steady_clock::now();
    ValidationMatrix matrix = ValidationMatrix::LoadFromFile(matrixFile);
    if (root.empty())
    {
        root = FindRoot(fs::path(matrixFile).parent_path().empty()
                            ? fs::path(".")
                            : fs::path(matrixFile).parent_path());
    }
    if (sim.empty())
    {
        // The driver beside this program, named as this program is: in an ns-3 source tree
        // ns3.48-validation-runner-default goes with ns3.48-distributed-training-sim-default.
        std::error_code ec;
        const fs::path self = fs::read_symlink("/proc/self/exe", ec);
        const std::string own = "validation-runner";
        std::string name = self.filename().string();
        const auto at = name.find(own);
        name = at == std::string::npos ? std::string("distributed-training-sim")
                                       : name.replace(at, own.size(), "distributed-training-sim");
        sim = (self.parent_path() / name).string();
    }
    if (access(sim.c_str(), X_OK) != 0)
    {
        throw TrainingInputError("--sim: '" + sim
                                 + "' is not an executable (expected the distributed-training-sim "
                                   "driver)");
    }
    std::error_code ec;
    fs::create_directories(outDir + "/jobs", ec);
    if (ec)
    {
        throw TrainingInputError("--out: cannot create '" + outDir + "/jobs': " + ec.message());
    }

    JobPool pool(sim, outDir, parallel, resume);
    std::vector<ValidationMatrix::Job> jobs = matrix.ExpandFirstPhase(root);
    std::printf("%s: %zu scenarios, %zu jobs in the first phase, %u at a time; profiles under %s\n",
                matrixFile.c_str(),
                matrix.GetScenarios().size(),
                jobs.size(),
                parallel,
                root.c_str());
    std::fflush(stdout);
    std::vector<Failure> failures = pool.Run(jobs);

    if (const auto& cal = matrix.GetCalibration())
    {
        auto rows = ValidationMatrix::AttachErrors(ReadRows(matrix, jobs, pool));
        auto cells = ValidationMatrix::CalibrationErrors(rows, *cal);
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
            csv << cal->variant << "," << cal->option << ","
                << ValidationMatrix::FormatNumber(cal->values[i]) << ","
                << (cells[i].count ? Num(cells[i].meanAbs) : "") << ","
                << (cells[i].count ? Num(cells[i].maxAbs) : "") << "," << cells[i].count << ","
                << (i == best ? "yes" : "") << "\n";
        }
        WriteFile(outDir + "/calibration.csv", csv.str());
        if (best < cells.size())
        {
            double value = cal->values[best];
            std::printf("calibration: %s %s=%s (mean |error| %.2f %% on the calibrate "
                        "scenarios); running the holdout scenarios with it\n",
                        cal->variant.c_str(),
                        cal->option.c_str(),
                        ValidationMatrix::FormatNumber(value).c_str(),
                        100 * cells[best].meanAbs);
            std::fflush(stdout);
            auto second = matrix.ExpandSecondPhase(root, value);
            auto more = pool.Run(second);
            failures.insert(failures.end(), more.begin(), more.end());
            jobs.insert(jobs.end(), second.begin(), second.end());
        }
        else
        {
            failures.push_back({"calibration", outDir + "/calibration.csv", "no value chosen"});
        }
    }

    auto rows = ValidationMatrix::AttachErrors(ReadRows(matrix, jobs, pool));
    WriteResults(outDir + "/results.csv", rows);
    WriteErrorTables(outDir, rows);

    std::string gnuplot = FindOnPath("gnuplot");
    std::vector<std::string> scripts;
    for (std::size_t i = 0; i < matrix.GetScenarios().size(); ++i)
    {
        const auto& s = matrix.GetScenarios()[i];
        scripts.push_back(WriteThroughputFigure(outDir, s, rows));
        if (!s.timeline)
        {
            continue;
        }
        std::string packet;
        std::string flow;
        for (const auto& j : jobs)
        {
            if (j.scenario == i && j.records)
            {
                (j.backend == "packet" ? packet : flow) = pool.ResultFile(j);
            }
        }
        std::string script = WriteTimelineFigure(outDir, s, packet, flow);
        if (script.empty())
        {
            std::printf("%s: no timeline (needs the packet and flow ps records at the largest "
                        "K)\n",
                        s.name.c_str());
        }
        else
        {
            scripts.push_back(script);
        }
    }
    if (gnuplot.empty())
    {
        std::printf("gnuplot not found: figures not drawn (apt-get install gnuplot-nox, then run "
                    "gnuplot NAME.gp in %s)\n",
                    outDir.c_str());
    }
    else
    {
        for (const auto& script : scripts)
        {
            if (!RunGnuplot(gnuplot, outDir, script))
            {
                std::printf("gnuplot %s failed\n", script.c_str());
            }
        }
    }
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("wrote %s/results.csv (%zu rows), error-table.csv, error-table.rst and %zu "
                "figure scripts in %.0f s\n",
                outDir.c_str(),
                rows.size(),
                scripts.size(),
                wall);

    if (!failures.empty())
    {
        std::fprintf(stderr, "error: %zu job(s) failed:\n", failures.size());
        for (const auto& f : failures)
        {
            std::fprintf(stderr,
                         "  %s (%s), log %s:\n",
                         f.id.c_str(),
                         f.status.c_str(),
                         f.log.c_str());
            for (const auto& line : LastLines(f.log, 4))
            {
                std::fprintf(stderr, "    | %s\n", line.c_str());
            }
        }
        return 1;
    }
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string matrixFile;
    std::string outDir = "validation-out";
    std::string jobs = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
    std::string sim;
    std::string root;
    bool resume = false;

    CommandLine cmd(__FILE__);
    cmd.Usage("Run a validation matrix (doc/validation-runner.rst) through the packet, flow and "
              "analytic backends, in parallel driver processes, and compare them.");
    cmd.AddValue("matrix", "Matrix JSON file, e.g. validation/matrix.json", matrixFile);
    cmd.AddValue("out", "Output folder (results.csv, error tables, figures, jobs/)", outDir);
    cmd.AddValue("jobs", "Driver processes at a time (default: number of cores)", jobs);
    cmd.AddValue("sim", "The driver (default: distributed-training-sim next to this program)", sim);
    cmd.AddValue("root",
                 "Folder of relative profile paths (default: the matrix file's repository)",
                 root);
    cmd.AddValue("resume", "Reuse the results of jobs already in OUT/jobs", resume);
    cmd.Parse(argc, argv);

    try
    {
        if (matrixFile.empty())
        {
            throw TrainingInputError("--matrix: missing (expected a matrix JSON file, e.g. "
                                     "--matrix=validation/matrix.json)");
        }
        if (jobs.empty() || jobs.find_first_not_of("0123456789") != std::string::npos
            || jobs.size() > 4 || std::stoul(jobs) < 1)
        {
            throw TrainingInputError("--jobs: cannot parse '" + jobs
                                     + "' (expected a whole number from 1 to 9999)");
        }
        return RunMatrix(matrixFile,
                         outDir,
                         static_cast<uint32_t>(std::stoul(jobs)),
                         sim,
                         root,
                         resume);
    }
    catch (const TrainingInputError& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
}

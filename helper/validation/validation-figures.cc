/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "validation-figures.h"

#include "validation-results.h"

#include "ns3/output-file.h"

#include <algorithm>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ns3
{

namespace
{

namespace fs = std::filesystem;

/// \param v a number \return it with 6 significant digits
std::string
Num(double v)
{
    return ValidationResults::Num(v);
}

/// Write a text file completely (temporary file + rename) or throw.
void
WriteFile(const std::string& file, const std::string& text)
{
    OutputFile::Write(file, text, "--out");
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

} // namespace

ValidationFigures::Throughput
ValidationFigures::CollectThroughput(const std::vector<ValidationMatrix::Row>& rows,
                                     const std::string& scenario,
                                     const std::string& reference)
{
    Throughput data;
    std::string job;
    for (const auto& r : rows)
    {
        if (!RowOfScenario(r, scenario, job) || r.variant.find('@') != std::string::npos)
        {
            continue; // calibration sweeps stay out of the figures
        }
        const bool ref = r.backend == reference;
        std::string col = ref ? reference : r.backend + " " + r.variant;
        col = job.empty() ? col : job + ": " + col;
        if (std::none_of(data.columns.begin(),
                         data.columns.end(),
                         [&](const Series& c)
                         {
                             return c.label == col;
                         }))
        {
            data.columns.push_back({col, ref});
        }
        data.table[r.workers][col] = r.throughput;
    }
    return data;
}

std::string
ValidationFigures::ThroughputCsv(const Throughput& data)
{
    std::ostringstream csv;
    csv << "workers";
    for (const auto& c : data.columns)
    {
        csv << "," << CsvField(c.label);
    }
    csv << "\n";
    for (const auto& [k, values] : data.table)
    {
        csv << k;
        for (const auto& c : data.columns)
        {
            auto it = values.find(c.label);
            csv << "," << (it == values.end() ? std::string("NaN") : Num(it->second));
        }
        csv << "\n";
    }
    return csv.str();
}

std::string
ValidationFigures::ThroughputScript(const ValidationMatrix::Scenario& s,
                                    const std::string& base,
                                    const std::vector<Series>& columns,
                                    const std::string& reference)
{
    const std::string refTitle
        = reference == "packet" ? "packet (ns-3 TCP)" : reference + " (real TCP)";
    const auto refs = std::count_if(columns.begin(),
                                    columns.end(),
                                    [](const Series& c)
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
        const Series& c = columns[i];
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

std::string
ValidationFigures::WriteThroughputFigure(const std::string& outDir,
                                         const ValidationMatrix::Scenario& s,
                                         const std::vector<ValidationMatrix::Row>& rows,
                                         const std::string& reference)
{
    const Throughput data = CollectThroughput(rows, s.name, reference);
    if (data.table.empty())
    {
        std::printf("%s: no throughput figure (no result rows)\n", s.name.c_str());
        return "";
    }
    const std::string base = s.name + "-throughput";
    WriteFile(outDir + "/" + base + ".csv", ThroughputCsv(data));
    WriteFile(outDir + "/" + base + ".gp", ThroughputScript(s, base, data.columns, reference));
    return base + ".gp";
}

bool
ValidationFigures::AddTimelinePanel(const nlohmann::json& doc,
                                    const std::string& title,
                                    Timeline& timeline)
{
    const auto& result = doc["results"][0];
    uint32_t warmup = doc["scenario"].value("warmup", 0u);
    timeline.lanes.clear();
    for (uint32_t w = 0; w < doc["scenario"].value("workers", 0u); ++w)
    {
        timeline.lanes.push_back(std::to_string(w));
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
    std::ostringstream dat;
    dat << "# " << title << ": worker direction tensor start_ms end_ms\n";
    bool drawn = false;
    for (const auto& t : transfers)
    {
        if (t.value("step", 0u) == warmup)
        {
            timeline.span = std::max(timeline.span,
                                     WriteTransferLine(dat, t, t.value("worker", 0u), t0, 1e300));
            drawn = true;
        }
    }
    dat << "\n\n";
    timeline.dat += dat.str();
    return drawn; // an empty panel (no transfer of that step) is no figure
}

bool
ValidationFigures::AddJobsTimelinePanel(const nlohmann::json& doc,
                                        const std::string& title,
                                        Timeline& timeline)
{
    if (!doc.contains("jobs"))
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
    std::ostringstream dat;
    dat << "# " << title << ": lane direction tensor start_ms end_ms (ms since " << Num(t0)
        << " s)\n";
    timeline.lanes.clear();
    for (std::size_t j = 0; j < jobs.size(); ++j)
    {
        const double first = timeline.lanes.size();
        for (uint32_t w = 0; w < jobs[j]["scenario"].value("workers", 0u); ++w)
        {
            timeline.lanes.push_back(jobs[j].value("name", std::string()) + " w"
                                     + std::to_string(w));
        }
        for (const auto& t : results[j].value("transfers", nlohmann::json::array()))
        {
            if (t.value("start_s", 0.0) < t1 && t.value("end_s", 0.0) > t0)
            {
                WriteTransferLine(dat, t, first + t.value("worker", 0u), t0, t1);
            }
        }
    }
    timeline.span = std::max(timeline.span, 1e3 * (t1 - t0));
    dat << "\n\n";
    timeline.dat += dat.str();
    return true;
}

namespace
{

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

} // namespace

std::string
ValidationFigures::TimelineScript(const std::string& name,
                                  const std::string& base,
                                  const Timeline& timeline,
                                  const std::vector<std::string>& titles,
                                  bool jobs)
{
    const std::vector<std::string>& lanes = timeline.lanes;
    const std::size_t k = lanes.size();
    std::ostringstream gp;
    gp << "# gnuplot " << base << ".gp draws " << base
       << (jobs ? ".png: every job's workers over the window of their first measured steps,\n"
                : ".png: one measured step (the first after warm-up),\n")
       << "# per worker its uplink (upper lane, red) and downlink (lower lane, blue) transfers\n"
       << "set terminal pngcairo size 900," << 260 + 60 * k << " font ',10'\n"
       << "if (!exists('out')) out = '" << base << ".png'\nset output out\n"
       << "set multiplot layout 2,1\n"
       << "set xrange [0:" << Num(timeline.span * 1.02) << "]\nset yrange [-0.6:" << k - 0.4
       << "]\n";
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
                       name + (jobs ? "" : ", K = " + std::to_string(k)),
                       base,
                       titles,
                       jobs ? "all first measured steps" : "the step");
    return gp.str();
}

std::string
ValidationFigures::WriteTimelineFigure(const std::string& outDir,
                                       const ValidationMatrix::Scenario& s,
                                       const std::string& packetJson,
                                       const std::string& flowJson,
                                       bool jobs)
{
    const std::vector<std::string> titles = {"packet (ns-3 TCP)", "flow (ps)"};
    const std::vector<std::string> files = {packetJson, flowJson};
    Timeline timeline;
    for (std::size_t p = 0; p < files.size(); ++p)
    {
        nlohmann::json doc;
        if (!ValidationResults::ReadResultFile(files[p], doc)
            || !(jobs ? AddJobsTimelinePanel : AddTimelinePanel)(doc, titles[p], timeline))
        {
            return "";
        }
    }
    const std::string base = s.name + "-timeline";
    WriteFile(outDir + "/" + base + ".dat", timeline.dat);
    WriteFile(outDir + "/" + base + ".gp", TimelineScript(s.name, base, timeline, titles, jobs));
    return base + ".gp";
}

std::string
ValidationFigures::FindOnPath(const std::string& name)
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

bool
ValidationFigures::RunGnuplot(const std::string& gnuplot,
                              const std::string& dir,
                              const std::string& script)
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

} // namespace ns3

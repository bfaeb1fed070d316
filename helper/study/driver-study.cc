/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "driver-study.h"

#include "ns3/output-file.h"
#include "ns3/progress-reporter.h"
#include "ns3/repeated-runs.h"
#include "ns3/run-report.h"
#include "ns3/study-report.h"
#include "ns3/sweep-report.h"
#include "ns3/training-backend.h"
#include "ns3/training-input-error.h"
#include "ns3/vary-options.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <numeric>
#include <set>

namespace ns3
{

void
DriverStudy::CheckRunnable(TrainingBackend& b,
                           const std::string& name,
                           const TrainingProfile& profile,
                           const TrainingScenario& s)
{
    // What the scenario asks that the backend cannot do comes first: it holds on any host.
    const std::string unsupported = b.GetUnsupportedReason(profile, s);
    if (!unsupported.empty())
    {
        throw TrainingInputError(unsupported);
    }
    const std::string why = b.GetUnavailableReason();
    if (!why.empty())
    {
        throw TrainingInputError("--backend=" + name + ": " + why);
    }
}

std::vector<TrainingResult>
DriverStudy::RunBackends(const TrainingProfile& profile,
                         const TrainingScenario& s,
                         const RunRequest& request,
                         const RunContext& context)
{
    const std::string& backend = request.backend;
    std::vector<TrainingResult> results;
    for (const auto& entry : TrainingBackendRegistry::GetSelected(backend))
    {
        Ptr<TrainingBackend> b
            = TrainingBackendRegistry::Create(entry.name, request.settings, context);
        if (backend != "all")
        {
            CheckRunnable(*b, entry.name, profile, s);
        }
        else
        {
            // Skipped whole (never a partial result), with one note per reason and process.
            static std::set<std::string> noted;
            const std::string unsupported = b->GetUnsupportedReason(profile, s);
            const std::string unavailable = b->GetUnavailableReason();
            const std::string why = unavailable.empty() ? unsupported : unavailable;
            if (!why.empty() && noted.insert(entry.name + why).second)
            {
                std::fprintf(stderr,
                             "note: --backend=all: backend %s skipped: %s\n",
                             entry.name.c_str(),
                             why.c_str());
            }
            if (!why.empty())
            {
                continue;
            }
        }
        const bool all = backend == "all";
        auto r = RepeatedRuns::Run(
            [&b, &profile, all](const TrainingScenario& point)
            {
                return all ? b->RunComparison(profile, point) : b->Run(profile, point);
            },
            s,
            RepeatedRuns::FromSettings(request.settings));
        RunReport::AddIgnoredNote(r, ScenarioOptions::GetIgnored(request, entry.name), entry.name);
        results.insert(results.end(), r.begin(), r.end());
    }
    return results;
}

std::vector<uint64_t>
DriverStudy::CheckPoints(const std::vector<Point>& points, const RunRequest& request)
{
    TrainingBackendRegistry::Cost cost;
    std::vector<uint64_t> units;
    for (const Point& p : points)
    {
        TrainingScenario s = p.request.scenario;
        for (uint32_t k : p.request.workerSweep)
        {
            s.workers = k;
            try
            {
                s.Validate(*p.profile);
                if (p.request.backend != "all")
                {
                    const auto& name = p.request.backend;
                    CheckRunnable(*TrainingBackendRegistry::Create(name, p.request.settings, {}),
                                  name,
                                  *p.profile,
                                  s);
                }
            }
            catch (const TrainingInputError& e)
            {
                if (p.values.empty())
                {
                    throw;
                }
                throw TrainingInputError("--vary, at "
                                         + VaryOptions::Describe(request.vary, p.values) + ": "
                                         + e.what());
            }
            const auto c
                = TrainingBackendRegistry::EstimateCost(p.request.backend,
                                                        *p.profile,
                                                        s,
                                                        {k},
                                                        p.request.settings.repeat.value_or(1));
            cost.cpuSeconds += c.cpuSeconds;
            cost.runs += c.runs;
            units.push_back(1 + std::llround(c.cpuSeconds * 1000));
        }
    }
    std::fputs(RunReport::CostNote(cost.cpuSeconds, cost.runs).c_str(), stderr);
    return units;
}

void
DriverStudy::RunPoints(const std::vector<Point>& points, const RunRequest& request, const Add& add)
{
    const std::vector<uint64_t> units = CheckPoints(points, request);
    const RunContext context = request.MakeRunContext(nullptr);
    ProgressReporter progress(request.vary.empty() ? "sweep" : "study",
                              std::accumulate(units.begin(), units.end(), uint64_t{0}),
                              std::chrono::duration<double>(context.progressInterval.GetSeconds()),
                              std::cerr);
    progress.StartLoop();
    std::size_t run = 0;
    for (const Point& p : points)
    {
        TrainingScenario s = p.request.scenario;
        for (uint32_t k : p.request.workerSweep)
        {
            s.workers = k;
            const auto results = RunBackends(*p.profile, s, p.request, context);
            for (const auto& r : results)
            {
                r.CheckSane(s);
            }
            add(p, s, results);
            if (request.progress)
            {
                const std::string at = VaryOptions::Describe(request.vary, p.values);
                progress.Advance(units[run],
                                 RunReport::Format("run %zu of %zu done (%s%sK=%u)",
                                                   run + 1,
                                                   units.size(),
                                                   at.c_str(),
                                                   at.empty() ? "" : " ",
                                                   k));
            }
            ++run;
        }
    }
}

StudyReport
DriverStudy::Study(const TrainingProfile& profile, const RunRequest& request)
{
    std::map<std::string, TrainingProfile> profiles{{request.profile, profile}};
    std::vector<Point> points;
    for (auto& v : VaryOptions::MakePoints(request))
    {
        v.request.settings.recordTransfers = false; // a study keeps only its table
        const std::string path = v.request.profile; // a copy: the request moves below
        if (profiles.find(path) == profiles.end())
        {
            profiles.emplace(path, TrainingProfile::LoadFromFile(path));
        }
        points.push_back({v.values, std::move(v.request), &profiles.at(path)});
    }
    std::vector<std::string> varied;
    for (const auto& v : request.vary)
    {
        varied.push_back(v.name);
    }
    StudyReport report(varied);
    RunPoints(
        points,
        request,
        [&report](const Point& p, const TrainingScenario& s, const auto& results)
        {
            report.Add(p.values, s.workers, StudyReport::ComputeBound(*p.profile, s), results);
        });
    return report;
}

SweepReport
DriverStudy::Sweep(const TrainingProfile& profile, const RunRequest& request)
{
    SweepReport t;
    RunPoints({{{}, request, &profile}},
              request,
              [&t](const Point&, const TrainingScenario& s, const auto& results)
              {
                  t.Add(s.workers, results);
              });
    return t;
}

void
DriverStudy::RunSweep(const TrainingProfile& profile, const RunRequest& request)
{
    if (request.vary.empty())
    {
        const SweepReport t = Sweep(profile, request);
        const std::string csv = request.csv.empty() ? "sweep.csv" : request.csv;
        std::fputs(t.FormatTable().c_str(), stdout);
        OutputFile::Write(csv, t.FormatCsv(), "--csv");
        OutputFile::Write(csv + ".gp", t.PlotScript(csv, profile, request.scenario), "--csv");
        std::fputs(SweepReport::FormatWritten(csv).c_str(), stdout);
        return;
    }
    if (!request.output.empty() || !request.csvRow.empty() || !request.recordsFile.empty())
    {
        throw ScenarioOptions::Refusal("--vary",
                                       "with --output, --csvRow or --recordsFile",
                                       "--csv for the study's table: it keeps no records");
    }
    // Both files are checked before the study runs, and written whole after it.
    const std::string csv = request.csv.empty() ? "study.csv" : request.csv;
    OutputFile table(csv, "--csv");
    OutputFile script(csv + ".gp", "--csv");
    const StudyReport report = Study(profile, request);
    std::fputs(report.FormatTable().c_str(), stdout);
    const bool oneModel = std::none_of(request.vary.begin(),
                                       request.vary.end(),
                                       [](const VariedOption& v)
                                       {
                                           return v.name == "profile";
                                       });
    const std::string title = (oneModel ? profile.GetModel() + ": " : std::string())
                              + "throughput against workers K (dashed: compute bound)";
    table.Stream() << report.FormatCsv();
    script.Stream() << report.PlotScript(csv, title);
    table.Commit();
    script.Commit();
    std::fputs(SweepReport::FormatWritten(csv).c_str(), stdout);
}

} // namespace ns3

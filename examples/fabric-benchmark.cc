/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * fabric-benchmark: speed of a backend on a data-centre fabric. By default the flow backend on a
 * k = 16 fat-tree (1,024 hosts), ResNet-50 (traces/resnet50-p100-b64.json), sync parameter server
 * with PS sharing, 100 steps: one job of 128 workers, one job of 1,023 workers (with its server,
 * every host of the fabric) and 8 jobs of 127 workers each sharing the fabric (8 x 128 roles:
 * every host; TrainingJobSet, doc/reference/fabric.rst "Several jobs"). Per case it prints the wall
 * and CPU time, the events, events per wall second and the predicted throughput; --vsStar runs each
 * case on the star too (the same workers, rates and steps) and prints the ratio of events per wall
 * second, which is how the packet level's fabric routing is compared with the star
 * (doc/validation/performance.rst).
 *
 *   ./build/bin/fabric-benchmark [--backend=flow] [--topology=fattree] [--fatTreeK=16]
 *       [--workers=128,1023] [--jobs=8] [--jobWorkers=127] [--steps=100] [--mode=sync]
 *       [--sharing=ps] [--servers=1] [--vsStar=false] [--repeat=1]
 *   ./build/bin/fabric-benchmark --backend=packet --topology=leafspine --leaves=4 --spines=2 \
 *       --hostsPerLeaf=8 --workers=31 --steps=3 --jobs=0 --vsStar
 */

#include "ns3/boolean.h"
#include "ns3/distributed-training-module.h"
#include "ns3/flow-backend.h"
#include "ns3/program-options.h"
#include "ns3/scenario-options.h"
#include "ns3/string.h"
#include "ns3/training-job-set.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <functional>
#include <iostream>

using namespace ns3;

namespace
{

/// The benchmark's options.
struct Options
{
    RunRequest table; //!< the option table's entries (the fabric, the job, --sharing, --repeat)
    uint32_t jobs = 8;
    uint32_t jobWorkers = 127;
    bool vsStar = false;
};

/// \return the options of the command line (throws TrainingInputError)
Options
ParseOptions(int argc, char* argv[])
{
    using N = ScenarioOptions::Narrowing;
    Options o;
    // The option table's entries with this benchmark's defaults and, for --backend, --topology
    // and --steps, the values it takes; --jobs (a number here, not the driver's file),
    // --jobWorkers and --vsStar are its own.
    ProgramOptions cmd("Wall and CPU time of a backend on a data-centre fabric.");
    RunRequest& t = o.table;
    ScenarioOptions::BindProfile(cmd, t, "resnet50-p100-b64.json");
    ScenarioOptions::Bind(
        cmd,
        t,
        OptionScope::PROGRAM,
        {"backend", "topology", "fatTreeK", "leaves", "spines", "hostsPerLeaf", "workers"},
        {{"backend", "flow"}, {"topology", "fattree"}, {"fatTreeK", "16"}, {"workers", "128,1023"}},
        {{"backend", N::Words({"flow", "packet"})},
         {"topology", N::Words({"star", "leafspine", "fattree"})}});
    cmd.Add("jobs", "Jobs of the several-jobs case (0: skip it)", o.jobs, 0, 1024);
    cmd.Add("jobWorkers", "Workers of each job of that case", o.jobWorkers, 1, 100000);
    ScenarioOptions::Bind(cmd,
                          t,
                          OptionScope::PROGRAM,
                          {"servers", "steps", "mode", "sharing"},
                          {{"steps", "100"}},
                          {{"steps", ScenarioOptions::MeasuredSteps()}});
    cmd.Add("vsStar", "Also run every case on the star and print the events/s ratio", o.vsStar);
    ScenarioOptions::Bind(cmd, t, OptionScope::PROGRAM, {"repeat"});
    cmd.Parse(argc, argv);
    return o;
}

/// What one timed run gave.
struct Timing
{
    double wall{1e300};    //!< fastest wall time (s)
    double cpu{0};         //!< CPU time of that run (s)
    double events{0};      //!< events handled
    TrainingResult result; //!< the result
};

/// \return the backend of the options
Ptr<TrainingBackend>
MakeBackend(const Options& o)
{
    if (o.table.backend == "packet")
    {
        return CreateObject<PacketBackend>();
    }
    Ptr<FlowBackend> flow = CreateObject<FlowBackend>();
    flow->SetAttribute("Sharing", StringValue(o.table.settings.sharing));
    flow->SetAttribute("RecordTransfers", BooleanValue(false));
    return flow;
}

/**
 * \param o the options
 * \param run one run: returns its result and events
 * \return the fastest of `repeat` runs, with its CPU time
 */
Timing
TimeRuns(const Options& o, const std::function<std::pair<TrainingResult, double>()>& run)
{
    Timing best;
    for (uint32_t r = 0; r < o.table.program.repeat; ++r)
    {
        const std::clock_t c0 = std::clock();
        const auto t0 = std::chrono::steady_clock::now();
        const auto [result, events] = run();
        const double wall
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
        if (wall < best.wall)
        {
            best.wall = wall;
            best.cpu = cpu;
            best.events = events;
            best.result = result;
        }
    }
    return best;
}

/// \return the run of one scenario, the fastest of `repeat`
Timing
TimeRun(const Options& o, const TrainingProfile& profile, const TrainingScenario& scenario)
{
    Ptr<TrainingBackend> backend = MakeBackend(o);
    return TimeRuns(o,
                    [&]()
                    {
                        TrainingResult r = backend->Run(profile, scenario).at(0);
                        return std::make_pair(r, r.inputs.at("events"));
                    });
}

/**
 * \param o the options
 * \return the run of o.jobs jobs of o.jobWorkers workers on the fabric (one shared run), the
 *         fastest of `repeat`; its result is the first job's, its events all jobs'
 */
Timing
TimeJobs(const Options& o)
{
    const TrainingScenario& sc = o.table.scenario;
    RunRequest base = ScenarioOptions::MakeDefault();
    ScenarioOptions::Set(base, "topology", sc.topology);
    ScenarioOptions::Set(base, "fatTreeK", std::to_string(sc.fatTreeK));
    ScenarioOptions::Set(base, "leaves", std::to_string(sc.leaves));
    ScenarioOptions::Set(base, "spines", std::to_string(sc.spines));
    ScenarioOptions::Set(base, "hostsPerLeaf", std::to_string(sc.hostsPerLeaf));
    nlohmann::json list = nlohmann::json::array();
    for (uint32_t j = 0; j < o.jobs; ++j)
    {
        list.push_back({{"name", "job" + std::to_string(j)},
                        {"profile", o.table.profile},
                        {"mode", sc.GetModeName()},
                        {"workers", o.jobWorkers},
                        {"servers", sc.servers},
                        {"steps", sc.steps},
                        {"warmup", std::max<uint32_t>(1, sc.steps / 20)}});
    }
    const TrainingJobSet set = TrainingJobSet::FromJson(list, "fabric-benchmark --jobs", base);
    Ptr<TrainingBackend> backend = MakeBackend(o);
    return TimeRuns(o,
                    [&]()
                    {
                        const JobSetResult r = backend->RunJobs(set).at(0);
                        // The packet level counts one simulation's events in every job's result.
                        double events = 0;
                        for (const auto& job : r.jobs)
                        {
                            events = o.table.backend == "packet" ? job.inputs.at("events")
                                                                 : events + job.inputs.at("events");
                        }
                        return std::make_pair(r.jobs.at(0), events);
                    });
}

/// \return the scenario of one case: the options' scenario with K workers, on the star or not
TrainingScenario
MakeScenario(const Options& o, const TrainingProfile& profile, uint32_t workers, bool star)
{
    TrainingScenario s = o.table.scenario; // mode, servers, steps, fabric: the options'
    s.workers = workers;
    s.warmup = std::max<uint32_t>(1, s.steps / 20);
    s.topology = star ? "star" : s.topology;
    s.Validate(profile);
    return s;
}

/// Print one line of the table.
void
PrintRow(const std::string& fabric, const std::string& workers, const Timing& t)
{
    std::printf("%-10s %10s %10.3f %10.3f %12.0f %12.4g %12.2f\n",
                fabric.c_str(),
                workers.c_str(),
                t.wall,
                t.cpu,
                t.events,
                t.events / t.wall,
                t.result.throughput);
}

/// Run the benchmark (throws TrainingInputError).
void
Benchmark(const Options& o)
{
    const TrainingScenario& sc = o.table.scenario;
    const std::string& backend = o.table.backend;
    const TrainingProfile profile = TrainingProfile::LoadFromFile(o.table.profile);
    std::printf("profile   %s (%zu layers, %.1f MB)\n",
                o.table.profile.c_str(),
                profile.GetNLayers(),
                profile.GetTotalParamBytes() / 1e6);
    std::printf("scenario  %s backend, ps %s, %u server(s) per job, %u steps, sharing %s\n",
                backend.c_str(),
                sc.GetModeName().c_str(),
                sc.servers,
                sc.steps,
                backend == "flow" ? o.table.settings.sharing.c_str() : "tcp");
    std::printf("%-10s %10s %10s %10s %12s %12s %12s\n",
                "fabric",
                "workers",
                "wall (s)",
                "CPU (s)",
                "events",
                "events/s",
                "samples/s");
    for (uint32_t k : o.table.workerSweep)
    {
        const Timing t = TimeRun(o, profile, MakeScenario(o, profile, k, false));
        PrintRow(sc.topology, std::to_string(k), t);
        if (o.vsStar && sc.topology != "star")
        {
            const Timing s = TimeRun(o, profile, MakeScenario(o, profile, k, true));
            PrintRow("star", std::to_string(k), s);
            // Per CPU second too: on a loaded machine the wall time includes waiting for a core.
            std::printf("%-10s %10u events/s %s / star = %.3f (per CPU second: %.3f)\n",
                        "ratio",
                        k,
                        sc.topology.c_str(),
                        (t.events / t.wall) / (s.events / s.wall),
                        (t.events / t.cpu) / (s.events / s.cpu));
        }
    }
    if (o.jobs > 0)
    {
        // samples/s of the first job; the others' are alike (same profile and size).
        PrintRow(sc.topology,
                 std::to_string(o.jobs) + "x" + std::to_string(o.jobWorkers),
                 TimeJobs(o));
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    return ProgramOptions::Run(
        [&]()
        {
            Benchmark(ParseOptions(argc, argv));
        });
}

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

/// The benchmark's options (--profile, --workers and --sharing: the option table's entries).
struct Options
{
    std::string profileFile;
    std::string backend = "flow";
    std::string topology = "fattree";
    uint32_t fatTreeK = 16;
    uint32_t leaves = 4;
    uint32_t spines = 2;
    uint32_t hostsPerLeaf = 0;
    std::vector<uint32_t> workers;
    uint32_t jobs = 8;
    uint32_t jobWorkers = 127;
    uint32_t servers = 1;
    uint32_t steps = 100;
    std::string mode = "sync";
    std::string sharing;
    bool vsStar = false;
    uint32_t repeat = 1;
};

/// \return the options of the command line (throws TrainingInputError)
Options
ParseOptions(int argc, char* argv[])
{
    Options o;
    // --profile, --workers and --sharing are the option table's entries; the others are the
    // benchmark's own (--jobs and --jobWorkers of its several-jobs case, --vsStar, --repeat) or
    // still local with their own ranges and choices (--backend, --topology, fabric sizes, --steps).
    ProgramOptions cmd("Wall and CPU time of a backend on a data-centre fabric.");
    RunRequest table;
    ScenarioOptions::BindProfile(cmd, table, "resnet50-p100-b64.json");
    cmd.Add("backend", "Backend", o.backend, {"flow", "packet"});
    cmd.Add("topology", "Fabric", o.topology, {"star", "leafspine", "fattree"});
    cmd.Add("fatTreeK", "fattree: switch radix k (even; k^3/4 hosts)", o.fatTreeK, 2, 64);
    cmd.Add("leaves", "leafspine: leaf switches", o.leaves, 1, 1024);
    cmd.Add("spines", "leafspine: spine switches", o.spines, 1, 1024);
    cmd.Add("hostsPerLeaf", "leafspine: hosts per leaf (0: enough)", o.hostsPerLeaf, 0, 100000);
    // Its --workers sweep: one job per case.
    ScenarioOptions::Bind(cmd, table, OptionScope::JOB, {"workers"}, {{"workers", "128,1023"}});
    cmd.Add("jobs", "Jobs of the several-jobs case (0: skip it)", o.jobs, 0, 1024);
    cmd.Add("jobWorkers", "Workers of each job of that case", o.jobWorkers, 1, 100000);
    cmd.Add("servers", "Parameter servers per job", o.servers, 1, 1024);
    cmd.Add("steps", "Steps per worker", o.steps, 2, 1000000);
    cmd.Add("mode", "Training mode", o.mode, {"sync", "async"});
    ScenarioOptions::Bind(cmd, table, OptionScope::BACKEND, {"sharing"});
    cmd.Add("vsStar", "Also run every case on the star and print the events/s ratio", o.vsStar);
    cmd.Add("repeat", "Runs per case (the fastest is reported)", o.repeat, 1, 100);
    cmd.Parse(argc, argv);
    o.profileFile = table.profile;
    o.workers = table.workerSweep;
    o.sharing = table.settings.sharing;
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
    if (o.backend == "packet")
    {
        return CreateObject<PacketBackend>();
    }
    Ptr<FlowBackend> flow = CreateObject<FlowBackend>();
    flow->SetAttribute("Sharing", StringValue(o.sharing));
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
    for (uint32_t r = 0; r < o.repeat; ++r)
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
    RunRequest base = ScenarioOptions::MakeDefault();
    ScenarioOptions::Set(base, "topology", o.topology);
    ScenarioOptions::Set(base, "fatTreeK", std::to_string(o.fatTreeK));
    ScenarioOptions::Set(base, "leaves", std::to_string(o.leaves));
    ScenarioOptions::Set(base, "spines", std::to_string(o.spines));
    ScenarioOptions::Set(base, "hostsPerLeaf", std::to_string(o.hostsPerLeaf));
    nlohmann::json list = nlohmann::json::array();
    for (uint32_t j = 0; j < o.jobs; ++j)
    {
        list.push_back({{"name", "job" + std::to_string(j)},
                        {"profile", o.profileFile},
                        {"mode", o.mode},
                        {"workers", o.jobWorkers},
                        {"servers", o.servers},
                        {"steps", o.steps},
                        {"warmup", std::max<uint32_t>(1, o.steps / 20)}});
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
                            events = o.backend == "packet" ? job.inputs.at("events")
                                                           : events + job.inputs.at("events");
                        }
                        return std::make_pair(r.jobs.at(0), events);
                    });
}

/// \return the scenario of one case
TrainingScenario
MakeScenario(const Options& o, const TrainingProfile& profile, uint32_t workers, bool star)
{
    TrainingScenario s;
    s.SetMode("--mode", o.mode);
    s.workers = workers;
    s.servers = o.servers;
    s.steps = o.steps;
    s.warmup = std::max<uint32_t>(1, o.steps / 20);
    s.topology = star ? "star" : o.topology;
    s.fatTreeK = o.fatTreeK;
    s.leaves = o.leaves;
    s.spines = o.spines;
    s.hostsPerLeaf = o.hostsPerLeaf;
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
    const TrainingProfile profile = TrainingProfile::LoadFromFile(o.profileFile);
    std::printf("profile   %s (%zu layers, %.1f MB)\n",
                o.profileFile.c_str(),
                profile.GetNLayers(),
                profile.GetTotalParamBytes() / 1e6);
    std::printf("scenario  %s backend, ps %s, %u server(s) per job, %u steps, sharing %s\n",
                o.backend.c_str(),
                o.mode.c_str(),
                o.servers,
                o.steps,
                o.backend == "flow" ? o.sharing.c_str() : "tcp");
    std::printf("%-10s %10s %10s %10s %12s %12s %12s\n",
                "fabric",
                "workers",
                "wall (s)",
                "CPU (s)",
                "events",
                "events/s",
                "samples/s");
    for (uint32_t k : o.workers)
    {
        const Timing t = TimeRun(o, profile, MakeScenario(o, profile, k, false));
        PrintRow(o.topology, std::to_string(k), t);
        if (o.vsStar && o.topology != "star")
        {
            const Timing s = TimeRun(o, profile, MakeScenario(o, profile, k, true));
            PrintRow("star", std::to_string(k), s);
            // Per CPU second too: on a loaded machine the wall time includes waiting for a core.
            std::printf("%-10s %10u events/s %s / star = %.3f (per CPU second: %.3f)\n",
                        "ratio",
                        k,
                        o.topology.c_str(),
                        (t.events / t.wall) / (s.events / s.wall),
                        (t.events / t.cpu) / (s.events / s.cpu));
        }
    }
    if (o.jobs > 0)
    {
        // samples/s of the first job; the others' are alike (same profile and size).
        PrintRow(o.topology,
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

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Speed of the flow-level backend: by default 1000 steps x 64 workers x ResNet-50 (107 layers),
 * async parameter server, PS sharing, as issue 5 asks (target: under 1 s of wall time). Prints the
 * wall time, the events handled and events per second, and the predicted throughput.
 *
 *   ./build/bin/flow-benchmark [--profile=traces/resnet50-cpu-b8.json] [--steps=1000]
 *       [--workers=64] [--mode=async] [--overlap=0] [--sharing=ps] [--servers=1] [--records=0]
 *       [--repeat=3]
 *
 * Without the profile file (traces/resnet50-cpu-b8.json), the benchmark builds a synthetic
 * ResNet-50 profile: the 107 parameterised modules of torchvision's resnet50 in forward order,
 * with their exact parameter counts (25,557,032 in all); forward times proportional to each
 * module's multiply-accumulates at 224x224 (total 420 ms, as measured on this machine's CPU at
 * batch 8), backward 1.7x forward, updates at 4.6 GB/s plus 5 us, and 15 recorded steps with a
 * seeded +-5 % step-to-step and +-3 % layer-to-layer jitter (so async workers drift apart as real
 * ones do). Only the speed of the simulator is measured here; the times only need to be plausible.
 */

#include "ns3/boolean.h"
#include "ns3/distributed-training-module.h"
#include "ns3/flow-backend.h"
#include "ns3/program-options.h"
#include "ns3/scenario-options.h"
#include "ns3/string.h"
#include "ns3/synthetic-profile.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

using namespace ns3;

namespace
{

/// The benchmark's options.
struct Options
{
    RunRequest table; //!< the option table's entries (the job, --sharing, --records, --repeat)
    uint32_t workers{0};
    bool synthetic = false;
    uint32_t compareWorkers = 0;
    uint32_t compareSteps = 4;
};

/// \return the options of the command line (throws TrainingInputError)
Options
ParseOptions(int argc, char* argv[])
{
    Options o;
    // The option table's entries with this benchmark's defaults (--records here keeps the
    // per-transfer records in memory: a switch of memory, off) and the benchmark's own:
    // --synthetic and --compare*.
    ProgramOptions cmd("Wall time of the flow-level backend on a large PS scenario.");
    RunRequest& t = o.table;
    ScenarioOptions::BindProfile(cmd, t, "resnet50-cpu-b8.json");
    cmd.Add("synthetic", "Use the synthetic ResNet-50 even if the file exists", o.synthetic);
    ScenarioOptions::Bind(
        cmd,
        t,
        OptionScope::PROGRAM,
        {"steps", "workers", "servers", "mode", "overlap", "sharing", "records"},
        {{"steps", "1000"}, {"workers", "64"}, {"mode", "async"}, {"records", "false"}},
        {{"steps", ScenarioOptions::MeasuredSteps()}});
    ScenarioOptions::Bind(cmd, t, OptionScope::PROGRAM, {"repeat"}, {{"repeat", "3"}});
    cmd.Add("compareWorkers",
            "Also run the packet backend and the flow backend on one same, smaller scenario with "
            "this many workers (0: skip) and print the wall-time ratio",
            o.compareWorkers,
            0,
            1000);
    cmd.Add("compareSteps", "Steps of that comparison scenario", o.compareSteps, 2, 1000);
    cmd.Parse(argc, argv);
    o.workers = ScenarioOptions::GetOneWorkerCount(t);
    return o;
}

/// \return seconds of wall time f() took
template<typename F>
double
WallSeconds(F f)
{
    auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Print what the timed run did and how fast.
void
PrintReport(const Options& o,
            const TrainingProfile& profile,
            const std::string& source,
            const TrainingScenario& scenario,
            const std::vector<TrainingResult>& results,
            double best)
{
    const TrainingResult& main = results.front();
    double events = 0;
    double rates = 0;
    for (const auto& r : results)
    {
        if (r.variant != "hybrid")
        {
            events += r.inputs.at("events");
            rates += r.inputs.at("rate_computations");
        }
    }
    const double tensors = 2.0 * scenario.steps * o.workers * profile.GetNLayers();
    std::printf("profile            %s\n", source.c_str());
    std::printf("                   %zu layers, %.1f MB, %zu recorded steps\n",
                profile.GetNLayers(),
                profile.GetTotalParamBytes() / 1e6,
                profile.GetNSamples());
    std::printf("scenario           ps %s, %u workers, %u server(s), overlap %s, sharing %s, "
                "%u steps (%u warm-up), 10 Gbps\n",
                scenario.GetModeName().c_str(),
                o.workers,
                scenario.servers,
                scenario.overlap ? "on" : "off",
                o.table.settings.sharing.c_str(),
                scenario.steps,
                scenario.warmup);
    std::printf("wall time          %.3f s (fastest of %u)\n", best, o.table.program.repeat);
    std::printf("events             %.0f (%.0f rate computations)\n", events, rates);
    std::printf("events/s           %.3g\n", events / best);
    std::printf("tensor transfers   %.0f (%.3g per second of wall time)\n",
                tensors,
                tensors / best);
    if (main.windowEnd > 0)
    {
        std::printf("simulated time     %.1f s\n", main.windowEnd);
    }
    std::printf("throughput         %.2f samples/s, mean step %.1f ms\n",
                main.throughput,
                main.stepTimeMean * 1e3);
    for (const auto& n : main.notes)
    {
        std::printf("note               %s\n", n.c_str());
    }
}

/// --compareWorkers: the packet and the flow backend on one same, smaller scenario.
void
CompareWithPacket(const Options& o,
                  const TrainingProfile& profile,
                  const TrainingScenario& scenario,
                  Ptr<FlowBackend> backend)
{
    // The same scenario for both backends (the packet level cannot run 64 x 1000 steps of
    // ResNet-50 in reasonable time: that is 13 TB of simulated TCP payload).
    TrainingScenario same = scenario;
    same.workers = o.compareWorkers;
    same.steps = o.compareSteps;
    same.warmup = 1;
    same.Validate(profile);
    double flowWall = 1e300;
    TrainingResult flowResult;
    for (int r = 0; r < 20; ++r)
    {
        flowWall = std::min(flowWall,
                            WallSeconds(
                                [&]
                                {
                                    flowResult = backend->Run(profile, same).at(0);
                                }));
    }
    TrainingResult packet = CreateObject<PacketBackend>()->Run(profile, same).at(0);
    std::printf("\nsame scenario      ps %s, %u workers, %u steps, 10 Gbps\n",
                scenario.GetModeName().c_str(),
                o.compareWorkers,
                o.compareSteps);
    std::printf("  packet           %10.3f s wall, %.2f samples/s\n",
                packet.wallSeconds,
                packet.throughput);
    std::printf("  flow (%s)%*s%10.6f s wall, %.2f samples/s\n",
                o.table.settings.sharing.c_str(),
                static_cast<int>(10 - std::min<std::size_t>(10, o.table.settings.sharing.size())),
                "",
                flowWall,
                flowResult.throughput);
    std::printf("  speed-up         %.3g x (target >= 1e4)\n", packet.wallSeconds / flowWall);
}

/// Run the benchmark (throws TrainingInputError).
void
Benchmark(const Options& o)
{
    TrainingProfile profile;
    std::string source;
    if (!o.synthetic && std::filesystem::exists(o.table.profile))
    {
        profile = TrainingProfile::LoadFromFile(o.table.profile);
        source = o.table.profile;
    }
    else
    {
        profile = SyntheticProfile::ResNet50();
        source = "synthetic ResNet-50 (see examples/flow-benchmark.cc)";
    }
    TrainingScenario scenario = o.table.scenario; // mode, servers, overlap, steps: the options'
    scenario.workers = o.workers;
    scenario.warmup = scenario.steps / 20;
    scenario.Validate(profile);

    Ptr<FlowBackend> backend = CreateObject<FlowBackend>();
    backend->SetAttribute("Sharing", StringValue(o.table.settings.sharing));
    backend->SetAttribute("RecordTransfers", BooleanValue(o.table.settings.recordTransfers));
    double best = 1e300;
    std::vector<TrainingResult> results;
    for (uint32_t r = 0; r < o.table.program.repeat; ++r)
    {
        best = std::min(best,
                        WallSeconds(
                            [&]
                            {
                                results = backend->Run(profile, scenario);
                            }));
    }
    PrintReport(o, profile, source, scenario, results, best);
    if (o.compareWorkers > 0)
    {
        CompareWithPacket(o, profile, scenario, backend);
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

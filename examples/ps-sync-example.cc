/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Sync parameter-server training built by hand with TrainingClusterHelper, observed through the
 * applications' trace sources: prints every step (barrier to barrier) and the downlink/uplink
 * phase of each worker, as in 000_466ded720105ddf3.txt Fig. 7.
 *
 *   ./build/bin/ps-sync-example [--profile=traces/resnet50-titanx-pascal-b16.json] [--workers=3]
 */

#include "ns3/core-module.h"
#include "ns3/distributed-training-module.h"

#include <cstdio>
#include <iostream>
#include <map>

using namespace ns3;

namespace
{

/// Per (worker, step): first byte of the downlink, last byte of the uplink.
std::map<std::pair<uint32_t, uint32_t>, std::pair<double, double>> g_phases;

void
StepDone(const TrainingResult::StepRecord& r)
{
    auto phase = g_phases[{r.worker, r.step}];
    std::printf("worker %u step %2u: %9.3f -> %9.3f ms  (downlink from %9.3f, last gradient in "
                "at %9.3f)\n",
                r.worker,
                r.step,
                r.start * 1e3,
                r.end * 1e3,
                phase.first * 1e3,
                phase.second * 1e3);
}

void
TransferDone(const TrainingResult::TransferRecord& t)
{
    auto& phase = g_phases[{t.worker, t.step}];
    if (t.direction == "down" && (phase.first == 0 || t.start < phase.first))
    {
        phase.first = t.start;
    }
    if (t.direction == "up")
    {
        phase.second = std::max(phase.second, t.end);
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    RunRequest table; // the option table's entries this program reads
    ProgramOptions cmd("Sync parameter-server training step by step through the trace sources.");
    ScenarioOptions::BindProfile(cmd, table, "resnet50-titanx-pascal-b16.json");
    ScenarioOptions::Bind(cmd,
                          table,
                          OptionScope::JOB,
                          {"workers", "steps"},
                          {{"workers", "3"}, {"steps", "4"}});
    return ProgramOptions::Run(
        [&]()
        {
            cmd.Parse(argc, argv);
            const uint32_t workers = ScenarioOptions::GetOneWorkerCount(table);
            auto profile = std::make_shared<const TrainingProfile>(
                TrainingProfile::LoadFromFile(table.profile));
            TrainingScenario scenario; // sync PS, 10 Gb/s, overlap off
            scenario.workers = workers;
            scenario.steps = table.scenario.steps;
            scenario.Validate(*profile);

            Ptr<TrainingClusterHelper> cluster = CreateObject<TrainingClusterHelper>();
            cluster->Configure(scenario);
            cluster->ConfigureTcp();
            cluster->Build();
            ApplicationContainer apps = cluster->InstallParameterServerJob(profile, scenario);
            cluster->AssignStreams(0);
            Config::ConnectWithoutContext(
                "/NodeList/*/ApplicationList/*/$ns3::TrainingWorkerApplication/StepCompleted",
                MakeCallback(&StepDone));
            Config::ConnectWithoutContext(
                "/NodeList/*/ApplicationList/*/$ns3::TrainingWorkerApplication/TransferCompleted",
                MakeCallback(&TransferDone));
            Config::ConnectWithoutContext(
                "/NodeList/*/ApplicationList/*/$ns3::ParameterServerApplication/TransferCompleted",
                MakeCallback(&TransferDone));
            Simulator::Run();
            Simulator::Destroy();
        });
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Async parameter-server training with heterogeneous workers (000_466ded720105ddf3.txt Sec. 2):
 * each worker runs its own steps; the packet level is compared with the flow level under FCFS
 * and PS sharing and with the mean-value analysis of 000 Eq. (1)-(5).
 *
 *   ./build/bin/ps-async-example [--profile=...] [--workers=4] [--computeScale=1,1,1.5,2]
 */

#include "ns3/core-module.h"
#include "ns3/distributed-training-module.h"

#include <cstdio>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    RunRequest table; // the option table's entries this program reads
    ProgramOptions cmd("Async parameter-server training with heterogeneous workers.");
    ScenarioOptions::BindProfile(cmd, table, "googlenet-titanx-pascal-b16.json");
    ScenarioOptions::Bind(cmd,
                          table,
                          OptionScope::JOB,
                          {"workers", "computeScale", "steps"},
                          {{"workers", "4"}, {"computeScale", "1,1,1.5,2"}, {"steps", "12"}});
    return ProgramOptions::Run(
        [&]()
        {
            cmd.Parse(argc, argv);
            const uint32_t workers = ScenarioOptions::GetOneWorkerCount(table);
            TrainingProfile profile = TrainingProfile::LoadFromFile(table.profile);
            TrainingScenario s;
            s.mode = TrainingScenario::ASYNC;
            s.workers = workers;
            s.steps = table.scenario.steps;
            s.warmup = 2;
            s.computeScale = table.scenario.computeScale;
            s.Validate(profile);

            std::vector<TrainingResult> results = CreateObject<PacketBackend>()->Run(profile, s);
            for (std::string sharing : {"fcfs", "ps"})
            {
                Ptr<FlowBackend> flow = CreateObject<FlowBackend>();
                flow->SetAttribute("Sharing", StringValue(sharing));
                auto r = flow->Run(profile, s);
                results.insert(results.end(), r.begin(), r.end());
            }
            for (const auto& r : CreateObject<AnalyticBackend>()->Run(profile, s))
            {
                if (r.variant.rfind("mva-", 0) == 0)
                {
                    results.push_back(r);
                }
            }
            std::printf("%s, async, K=%u, compute scale", profile.GetModel().c_str(), workers);
            for (std::size_t i = 0; i < s.computeScale.size(); ++i)
            {
                std::printf("%s%g", i == 0 ? " " : ",", s.computeScale[i]);
            }
            std::printf("\n");
            for (const auto& r : results)
            {
                std::printf("  %-9s %-20s %10.2f samples/s\n",
                            r.backend.c_str(),
                            r.variant.c_str(),
                            r.throughput);
            }
            // Steps completed per worker in the packet run: faster workers do more.
            std::vector<uint32_t> done(workers, 0);
            for (const auto& st : results[0].steps)
            {
                if (st.end <= results[0].windowEnd)
                {
                    ++done[st.worker];
                }
            }
            std::printf("packet level, steps finished by the end of the window per worker:");
            for (auto d : done)
            {
                std::printf(" %u", d);
            }
            std::printf("\n");
        });
}

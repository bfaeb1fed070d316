/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The per-flow cap of 000_466ded720105ddf3.txt Sec. 4.4 (Fig. 23): on 25 Gb/s NICs where one
 * TCP flow may use at most 10 Gb/s, the sync downlink takes as long for 1 as for 2 workers and
 * grows from 3 workers on. Prints, per K, the mean downlink phase (step start to the last
 * parameter byte) at the packet level, in the flow model with capped sharing, and what an
 * uncapped PS-sharing model would predict.
 *
 *   ./build/bin/flow-cap-example [--profile=...] [--maxWorkers=4] [--cap=10Gbps]
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
    ProgramOptions cmd("Downlink phase of sync PS with a per-flow cap: packet vs flow.");
    ScenarioOptions::BindProfile(cmd, table, "googlenet-titanx-pascal-b16.json");
    ScenarioOptions::Bind(cmd, table, OptionScope::PROGRAM, {"maxWorkers"});
    // --cap: the sharing study's name for the driver's --flowCap, its entry.
    ScenarioOptions::Bind(cmd, table, OptionScope::STUDY, {"cap"}, {{"cap", "10Gbps"}});
    return ProgramOptions::Run(
        [&]()
        {
            cmd.Parse(argc, argv);
            TrainingProfile profile = TrainingProfile::LoadFromFile(table.profile);
            std::printf("%s (%.1f MB), 25 Gb/s NICs, per-flow cap %gGbps: downlink phase in ms\n",
                        profile.GetModel().c_str(),
                        profile.GetTotalParamBytes() / 1e6,
                        table.scenario.flowCap.GetBitRate() / 1e9);
            std::printf("%3s %12s %14s %16s\n", "K", "packet", "flow capped", "flow ps, no cap");
            for (uint32_t k = 1; k <= table.program.maxWorkers; ++k)
            {
                TrainingScenario s;
                s.workers = k;
                s.steps = 4;
                s.warmup = 1;
                s.nicRate = DataRate("25Gbps");
                s.flowCap = table.scenario.flowCap;
                s.Validate(profile);
                TrainingResult packet = CreateObject<PacketBackend>()->Run(profile, s).at(0);
                Ptr<FlowBackend> capped = CreateObject<FlowBackend>();
                capped->SetAttribute("Sharing", StringValue("capped"));
                TrainingResult flow = capped->Run(profile, s).at(0);
                Ptr<FlowBackend> ps = CreateObject<FlowBackend>();
                ps->SetAttribute("Sharing", StringValue("ps"));
                TrainingScenario uncapped = s;
                uncapped.flowCap = DataRate(0);
                TrainingResult flowPs = ps->Run(profile, uncapped).at(0);
                std::printf("%3u %12.3f %14.3f %16.3f\n",
                            k,
                            packet.GetMeanDownlinkTime(1) * 1e3,
                            flow.GetMeanDownlinkTime(1) * 1e3,
                            flowPs.GetMeanDownlinkTime(1) * 1e3);
            }
        });
}

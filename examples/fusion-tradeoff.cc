/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tensor fusion's trade-off (004_87a6f364a233f56c.txt Fig. 6-7): ring AllReduce throughput
 * against the bucket size Q, overlap on. Tiny buckets (one AllReduce per layer) pay the
 * per-operation latency 2(K-1) x (2 link delays) once per layer; one huge bucket waits for the
 * whole backward and overlaps nothing. Packet level (real ns-3 TCP) and the flow-level simulator
 * side by side.
 *
 *   ./build/bin/fusion-tradeoff [--profile=traces/googlenet-titanx-pascal-b16.json]
 *       [--workers=4] [--steps=3] [--linkDelay=10us] [--packet=true]
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
    bool packet = true;
    ProgramOptions cmd("Ring AllReduce step time against the tensor-fusion bucket size.");
    ScenarioOptions::BindProfile(cmd, table, "googlenet-titanx-pascal-b16.json");
    ScenarioOptions::Bind(cmd,
                          table,
                          OptionScope::JOB,
                          {"workers", "steps", "linkDelay", "nicRate"},
                          {{"workers", "4"}, {"steps", "3"}},
                          {{"steps", ScenarioOptions::MeasuredSteps()}});
    cmd.Add("packet", "Run the packet level too (else flow only)", packet);
    return ProgramOptions::Run(
        [&]()
        {
            cmd.Parse(argc, argv);
            const uint32_t workers = ScenarioOptions::GetOneWorkerCount(table);
            TrainingProfile profile = TrainingProfile::LoadFromFile(table.profile);
            std::printf(
                "%s, %zu layers, %.1f MB | ring K=%u, %gGbps NICs, link delay %gus, overlap on\n",
                profile.GetModel().c_str(),
                profile.GetNLayers(),
                profile.GetTotalParamBytes() / 1e6,
                workers,
                table.scenario.nicRate.GetBitRate() / 1e9,
                table.scenario.linkDelay.GetSeconds() * 1e6);
            std::printf("%12s %8s %14s %14s   (samples/s)\n", "Q", "buckets", "packet", "flow");
            const uint64_t mib = 1024 * 1024;
            const uint64_t sizes[]
                = {0, 256 * 1024, 1 * mib, 4 * mib, 16 * mib, TrainingScenario::UNLIMITED_BUCKET};
            for (uint64_t q : sizes)
            {
                TrainingScenario s;
                s.architecture = TrainingScenario::RING_ALLREDUCE;
                s.workers = workers;
                s.steps = table.scenario.steps;
                s.warmup = 1;
                s.overlap = true;
                s.bucketBytes = q;
                s.nicRate = table.scenario.nicRate;
                s.linkDelay = table.scenario.linkDelay;
                s.Validate(profile);
                std::size_t buckets = TensorFusion::FormBuckets(profile, q, 0, Seconds(0)).size();
                double packetThroughput = -1;
                if (packet)
                {
                    packetThroughput
                        = CreateObject<PacketBackend>()->Run(profile, s).at(0).throughput;
                }
                Ptr<FlowBackend> flow = CreateObject<FlowBackend>();
                flow->SetAttribute("Sharing", StringValue("allreduce"));
                flow->SetAttribute("RecordTransfers", BooleanValue(false));
                double flowThroughput = flow->Run(profile, s).at(0).throughput;
                std::string name
                    = q == TrainingScenario::UNLIMITED_BUCKET
                          ? "inf"
                          : (q == 0 ? "0 (per layer)" : std::to_string(q / 1024) + " KiB");
                if (packetThroughput < 0)
                {
                    std::printf("%12s %8zu %14s %14.1f\n",
                                name.c_str(),
                                buckets,
                                "-",
                                flowThroughput);
                }
                else
                {
                    std::printf("%12s %8zu %14.1f %14.1f\n",
                                name.c_str(),
                                buckets,
                                packetThroughput,
                                flowThroughput);
                }
                std::fflush(stdout);
            }
        });
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The shape of 000_466ded720105ddf3.txt Fig. 3: with one profile, the throughput of ring
 * AllReduce grows almost linearly with the number of workers K, while a sync parameter server
 * with one server saturates on the server's link. Packet level (real ns-3 TCP) for small K, the
 * flow-level simulator for every K (allreduce sharing for the ring, PS sharing for the server).
 *
 *   ./build/bin/ring-vs-ps-scaling [--profile=traces/googlenet-titanx-pascal-b16.json]
 *       [--packetWorkers=4] [--maxWorkers=16] [--steps=4] [--overlap=true]
 */

#include "ns3/core-module.h"
#include "ns3/distributed-training-module.h"
#include "ns3/unit-parser.h"

#include <cstdio>
#include <iostream>

using namespace ns3;

namespace
{

/// Throughput of one backend run (samples/s).
double
Throughput(const std::vector<TrainingResult>& results)
{
    return results.empty() ? 0 : results.front().throughput;
}

/// The example's options.
struct Options
{
    RunRequest table; //!< the option table's entries it reads (--steps, --overlap, --maxWorkers...)
    uint32_t packetWorkers = 4;
};

/// \return the options of the command line (throws TrainingInputError)
Options
ParseOptions(int argc, char* argv[])
{
    Options o;
    ProgramOptions cmd("Ring AllReduce against the parameter server as K grows.");
    ScenarioOptions::BindProfile(cmd, o.table, "googlenet-titanx-pascal-b16.json");
    cmd.Add("packetWorkers",
            "Run the packet level for K = 1 .. this (0: none)",
            o.packetWorkers,
            0,
            100000);
    // --maxWorkers: the flow level runs K = 1 .. 4, then powers of two up to it.
    ScenarioOptions::Bind(cmd,
                          o.table,
                          OptionScope::PROGRAM,
                          {"maxWorkers", "steps", "overlap", "nicRate"},
                          {{"maxWorkers", "16"}, {"steps", "4"}, {"overlap", "true"}},
                          {{"steps", ScenarioOptions::MeasuredSteps()}});
    cmd.Parse(argc, argv);
    return o;
}

/// Print one row: ring packet, ring flow, ps packet, ps flow at K = k ("-": not run).
void
PrintRow(const Options& o, const TrainingProfile& profile, uint32_t k)
{
    double row[4] = {-1, -1, -1, -1};
    for (int arch = 0; arch < 2; ++arch)
    {
        TrainingScenario s;
        s.architecture
            = arch == 0 ? TrainingScenario::RING_ALLREDUCE : TrainingScenario::PARAMETER_SERVER;
        s.workers = k;
        s.steps = o.table.scenario.steps;
        s.warmup = 1;
        s.overlap = o.table.scenario.overlap;
        s.nicRate = o.table.scenario.nicRate;
        s.bucketBytes = 25 * 1024 * 1024;
        s.Validate(profile);
        if (k <= o.packetWorkers)
        {
            row[2 * arch] = Throughput(CreateObject<PacketBackend>()->Run(profile, s));
        }
        Ptr<FlowBackend> flow = CreateObject<FlowBackend>();
        flow->SetAttribute("Sharing", StringValue(arch == 0 ? "allreduce" : "ps"));
        flow->SetAttribute("RecordTransfers", BooleanValue(false));
        row[2 * arch + 1] = Throughput(flow->Run(profile, s));
    }
    std::printf("%3u", k);
    for (double v : row)
    {
        if (v < 0)
        {
            std::printf(" %14s", "-");
        }
        else
        {
            std::printf(" %14.1f", v);
        }
    }
    std::printf("\n");
    std::fflush(stdout);
}

} // namespace

int
main(int argc, char* argv[])
{
    return ProgramOptions::Run(
        [&]()
        {
            const Options o = ParseOptions(argc, argv);
            TrainingProfile profile = TrainingProfile::LoadFromFile(o.table.profile);
            std::printf("%s, batch %u, %.1f MB of parameters, %gGbps NICs, overlap %s, %u steps "
                        "(1 warm-up)\n",
                        profile.GetModel().c_str(),
                        profile.GetBatchSize(),
                        profile.GetTotalParamBytes() / 1e6,
                        o.table.scenario.nicRate.GetBitRate() / 1e9,
                        o.table.scenario.overlap ? "on" : "off",
                        o.table.scenario.steps);
            std::printf("%3s %14s %14s %14s %14s   (samples/s)\n",
                        "K",
                        "ring packet",
                        "ring flow",
                        "ps packet",
                        "ps flow");
            for (uint32_t k = 1; k <= o.table.program.maxWorkers; k = k < 4 ? k + 1 : 2 * k)
            {
                PrintRow(o, profile, k);
            }
        });
}

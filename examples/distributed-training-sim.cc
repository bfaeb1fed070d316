/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * distributed-training-sim: the module's driver. Reads a profile and a scenario from the command
 * line, runs the chosen backend(s), prints a short summary and writes the common JSON result.
 *
 *   ./build/bin/distributed-training-sim --profile=traces/resnet50-p100-b64.json \
 *       --arch=ps --mode=sync --workers=4 --nicRate=10Gbps --steps=20 --output=result.json
 *
 * Run with --help for every option. Invalid options or impossible scenarios end with a message
 * naming the option and exit status 1.
 */

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/distributed-training-module.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <regex>

using namespace ns3;

namespace
{

/// Parse an unsigned option strictly (CommandLine would accept "4abc" as 4).
uint64_t
ParseUnsigned(const std::string& option, const std::string& text, uint64_t min, uint64_t max)
{
    static const std::regex re(R"(^\s*[0-9]+\s*$)");
    if (!std::regex_match(text, re))
    {
        throw TrainingInputError(option + ": cannot parse '" + text
                                 + "' (expected a whole number from " + std::to_string(min) + " to "
                                 + std::to_string(max) + ")");
    }
    uint64_t v = std::stoull(text);
    if (v < min || v > max)
    {
        throw TrainingInputError(option + ": " + text + " out of range (expected "
                                 + std::to_string(min) + " to " + std::to_string(max) + ")");
    }
    return v;
}

/// Parse a byte count: "0", "1048576", "25MB", "64MiB", "inf".
uint64_t
ParseBytes(const std::string& option, const std::string& text)
{
    if (text == "inf" || text == "unlimited")
    {
        return TrainingScenario::UNLIMITED_BUCKET;
    }
    static const std::regex re(R"(^\s*([0-9]*\.?[0-9]+)\s*(B|KB|kB|MB|GB|KiB|MiB|GiB)?\s*$)");
    std::smatch m;
    if (!std::regex_match(text, m, re))
    {
        throw TrainingInputError(option + ": cannot parse '" + text
                                 + "' (expected bytes, e.g. 0, 1048576, 25MB, 64MiB or inf)");
    }
    double v = std::stod(m[1]);
    std::string unit = m[2];
    double f = unit == "KB" || unit == "kB" ? 1e3
               : unit == "MB"               ? 1e6
               : unit == "GB"               ? 1e9
               : unit == "KiB"              ? 1024.0
               : unit == "MiB"              ? 1048576.0
               : unit == "GiB"              ? 1073741824.0
                                            : 1.0;
    return static_cast<uint64_t>(v * f + 0.5);
}

/// Parse "true/false/1/0/on/off".
bool
ParseBool(const std::string& option, const std::string& text)
{
    if (text == "1" || text == "true" || text == "on" || text == "yes")
    {
        return true;
    }
    if (text == "0" || text == "false" || text == "off" || text == "no")
    {
        return false;
    }
    throw TrainingInputError(option + ": cannot parse '" + text + "' (expected true or false)");
}

/// Print one line per result.
void
PrintSummary(const TrainingProfile& profile,
             const TrainingScenario& scenario,
             const std::vector<TrainingResult>& results)
{
    std::printf(
        "%s, batch %u, %zu layers, %.1f MB | %s %s, K=%u, P=%u, %s NIC%s, overlap %s\n",
        profile.GetModel().c_str(),
        profile.GetBatchSize(),
        profile.GetNLayers(),
        profile.GetTotalParamBytes() / 1e6,
        scenario.GetArchitectureName().c_str(),
        scenario.GetModeName().c_str(),
        scenario.workers,
        scenario.servers,
        (std::to_string(scenario.nicRate.GetBitRate() / 1000000000.0).substr(0, 5) + "G").c_str(),
        scenario.flowCap.GetBitRate() > 0
            ? (", cap " + std::to_string(scenario.flowCap.GetBitRate() / 1000000000.0).substr(0, 5)
               + "G")
                  .c_str()
            : "",
        scenario.overlap ? "on" : "off");
    std::printf("%-9s %-20s %14s %13s  %s\n",
                "backend",
                "variant",
                "samples/s",
                "step (ms)",
                "bottleneck (utilisation)");
    for (const auto& r : results)
    {
        std::string bottleneck = r.bottleneck;
        auto it = r.linkUtilisation.find(r.bottleneck);
        if (it != r.linkUtilisation.end())
        {
            char buf[32];
            std::snprintf(buf, sizeof(buf), " (%.1f%%)", 100 * it->second);
            bottleneck += buf;
        }
        std::printf("%-9s %-20s %14.2f %13.3f  %s\n",
                    r.backend.c_str(),
                    r.variant.c_str(),
                    r.throughput,
                    r.stepTimeMean * 1e3,
                    bottleneck.c_str());
        for (const auto& note : r.notes)
        {
            std::printf("          note: %s\n", note.c_str());
        }
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string profileFile = std::string(DT_SOURCE_DIR) + "/traces/resnet50-p100-b64.json";
    std::string arch = "ps";
    std::string mode = "sync";
    std::string workers = "4";
    std::string servers = "1";
    std::string nicRate = "10Gbps";
    std::string flowCap = "0";
    std::string linkDelay = "10us";
    std::string queue = "1000p";
    std::string queueDisc = "none";
    std::string tcp = "TcpCubic";
    std::string mtu = "1500";
    std::string overlap = "false";
    std::string order = "forward";
    std::string window = "0";
    std::string partition = "greedy";
    std::string computeScale = "1";
    std::string steps = "20";
    std::string warmup = "2";
    std::string seed = "1";
    std::string sampleSteps = "true";
    std::string backend = "packet";
    std::string output;
    bool records = true;
    bool progress = true;

    CommandLine cmd(__FILE__);
    cmd.Usage("Simulate distributed DNN training (parameter server or ring AllReduce) with the "
              "packet-level (ns-3 TCP), flow-level or analytical backend.");
    cmd.AddValue("profile", "Training profile JSON (traces/README.md)", profileFile);
    cmd.AddValue("arch", "Architecture: ps or ring", arch);
    cmd.AddValue("mode", "sync or async (ps only)", mode);
    cmd.AddValue("workers", "Number of workers K", workers);
    cmd.AddValue("servers", "Number of parameter servers P", servers);
    cmd.AddValue("nicRate", "Link rate of every NIC, e.g. 1Gbps, 10Gbps, 25Gbps", nicRate);
    cmd.AddValue("flowCap", "Per-flow rate cap (TCP pacing), 0 for none, e.g. 10Gbps", flowCap);
    cmd.AddValue("linkDelay", "One-way delay of each link, e.g. 10us", linkDelay);
    cmd.AddValue("queue", "Device queue size, e.g. 1000p or 1500000B", queue);
    cmd.AddValue("queueDisc", "Queue disc on every device: none, FqCoDelQueueDisc, ...", queueDisc);
    cmd.AddValue("tcp", "TCP congestion control: TcpCubic, TcpNewReno, TcpBbr, TcpDctcp, ...", tcp);
    cmd.AddValue("mtu", "MTU in bytes (1500 or 9000)", mtu);
    cmd.AddValue("overlap", "Overlap communication and computation (true/false)", overlap);
    cmd.AddValue("order", "Downlink transmission order: forward, reverse, random", order);
    cmd.AddValue("window", "Multiplexing window WIN in bytes (0: whole tensors)", window);
    cmd.AddValue("partition", "Layer-to-server assignment: greedy or round-robin", partition);
    cmd.AddValue("computeScale",
                 "Compute time multiplier: one value, one per worker (1,1,2,2) or 1x2,2x2",
                 computeScale);
    cmd.AddValue("steps", "Steps per worker", steps);
    cmd.AddValue("warmup", "Warm-up steps excluded from throughput", warmup);
    cmd.AddValue("seed", "Run number of the random streams (step sampling, random order)", seed);
    cmd.AddValue("sampleSteps", "Draw each step from the profile's recorded steps", sampleSteps);
    cmd.AddValue("backend", "packet", backend);
    cmd.AddValue("output", "Write the JSON result here", output);
    cmd.AddValue("records", "Include per-step and per-transfer records in the JSON", records);
    cmd.AddValue("progress", "Print progress of long packet-level runs to stderr", progress);
    cmd.Parse(argc, argv);

    try
    {
        TrainingProfile profile = TrainingProfile::LoadFromFile(profileFile);
        TrainingScenario s;
        s.SetArchitecture("--arch", arch);
        s.SetMode("--mode", mode);
        s.workers = static_cast<uint32_t>(ParseUnsigned("--workers", workers, 1, 100000));
        s.servers = static_cast<uint32_t>(ParseUnsigned("--servers", servers, 1, 100000));
        s.nicRate = TrainingScenario::ParseDataRate("--nicRate", nicRate);
        s.flowCap
            = flowCap == "0" ? DataRate(0) : TrainingScenario::ParseDataRate("--flowCap", flowCap);
        s.linkDelay = TrainingScenario::ParseTime("--linkDelay", linkDelay);
        s.queueSize = queue;
        s.queueDisc = queueDisc;
        s.tcpVariant = tcp;
        s.mtu = static_cast<uint32_t>(ParseUnsigned("--mtu", mtu, 576, 9000));
        s.overlap = ParseBool("--overlap", overlap);
        s.SetOrder("--order", order);
        s.windowBytes = ParseBytes("--window", window);
        s.SetPartition("--partition", partition);
        s.SetComputeScale("--computeScale", computeScale);
        s.steps = static_cast<uint32_t>(ParseUnsigned("--steps", steps, 1, 10000000));
        s.warmup = static_cast<uint32_t>(ParseUnsigned("--warmup", warmup, 0, 10000000));
        s.seed = ParseUnsigned("--seed", seed, 1, UINT32_MAX);
        s.sampleSteps = ParseBool("--sampleSteps", sampleSteps);
        s.Validate(profile);

        std::vector<TrainingResult> results;
        if (backend == "packet")
        {
            Ptr<PacketBackend> packet = CreateObject<PacketBackend>();
            packet->SetAttribute("Progress", BooleanValue(progress));
            auto r = packet->Run(profile, s);
            results.insert(results.end(), r.begin(), r.end());
        }
        else
        {
            throw TrainingInputError("--backend: unknown value '" + backend
                                     + "' (expected packet)");
        }

        PrintSummary(profile, s, results);
        if (!output.empty())
        {
            std::ofstream out(output);
            out << TrainingResult::MakeDocument(profile, s, results, records) << "\n";
            if (!out)
            {
                throw TrainingInputError("--output: cannot write '" + output + "'");
            }
            std::printf("wrote %s\n", output.c_str());
        }
    }
    catch (const TrainingInputError& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}

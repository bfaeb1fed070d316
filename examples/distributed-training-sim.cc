/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * distributed-training-sim: the module's driver. Reads a profile and a scenario from the command
 * line, runs the chosen backend(s), prints a short summary and writes the common JSON result.
 *
 *   ./build/bin/distributed-training-sim --profile=traces/resnet50-p100-b64.json \
 *       --arch=ps --mode=sync --workers=4 --nicRate=10Gbps --steps=10 --output=result.json
 *
 * With no option it runs the main scenario: GoogLeNet (TITAN X-class profile), sync parameter
 * server, 4 workers, 10 Gb/s, 10 steps of which 2 are warm-up, packet backend.
 *
 * Run with --help for every option. Invalid options or impossible scenarios end with a message
 * naming the option and exit status 1.
 */

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/distributed-training-module.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/string.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <regex>
#include <sstream>

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
    if (text.find('-') != std::string::npos)
    {
        throw TrainingInputError(option + ": negative size '" + text
                                 + "' (expected bytes >= 0, e.g. 0, 1048576, 25MB, 64MiB or inf)");
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

/**
 * Parse a real number in [min, max].
 * \param option the option's name, for messages
 * \param text its value
 * \param min smallest value accepted
 * \param max largest value accepted
 * \param expected what a valid value looks like, for messages
 * \return the value
 */
double
ParseDouble(const std::string& option,
            const std::string& text,
            double min,
            double max,
            const std::string& expected)
{
    std::istringstream in(text);
    double v = 0;
    std::string rest;
    if (!(in >> v) || (in >> rest))
    {
        throw TrainingInputError(option + ": cannot parse '" + text + "' (expected " + expected
                                 + ")");
    }
    if (!(v >= min && v <= max))
    {
        throw TrainingInputError(option + ": '" + text + "' (expected " + expected + ")");
    }
    return v;
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

/// Parse --workers: "4", "1..8" or "1,2,4,8".
std::vector<uint32_t>
ParseWorkers(const std::string& text)
{
    std::vector<uint32_t> list;
    auto range = text.find("..");
    if (range != std::string::npos)
    {
        uint64_t a = ParseUnsigned("--workers", text.substr(0, range), 1, 100000);
        uint64_t b = ParseUnsigned("--workers", text.substr(range + 2), 1, 100000);
        if (b < a)
        {
            throw TrainingInputError("--workers: empty range '" + text
                                     + "' (expected FIRST..LAST with FIRST <= LAST)");
        }
        for (uint64_t k = a; k <= b; ++k)
        {
            list.push_back(static_cast<uint32_t>(k));
        }
        return list;
    }
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        list.push_back(static_cast<uint32_t>(ParseUnsigned("--workers", item, 1, 100000)));
    }
    if (list.empty())
    {
        throw TrainingInputError("--workers: empty (expected a number, 1..8 or 1,2,4,8)");
    }
    return list;
}

/// Reject unknown --backend and --sharing values before any long run.
void
CheckBackend(const std::string& backend, const std::string& sharing)
{
    if (backend != "all")
    {
        TrainingBackendRegistry::Find(backend);
    }
    FlowBackend::ParseSharing(sharing);
}

/// Run the chosen backends on one scenario.
std::vector<TrainingResult>
RunBackends(const TrainingProfile& profile,
            const TrainingScenario& s,
            const std::string& backend,
            const std::string& sharing,
            const std::string& rhoT,
            bool progress,
            bool records)
{
    Config::SetDefault("ns3::PacketBackend::Progress", BooleanValue(progress));
    Config::SetDefault("ns3::FlowBackend::Sharing", StringValue(sharing));
    Config::SetDefault("ns3::FlowBackend::RecordTransfers", BooleanValue(records));
    if (!rhoT.empty())
    {
        try
        {
            Config::SetDefault("ns3::AnalyticBackend::RhoThreshold",
                               DoubleValue(ParseDouble("--rhoT", rhoT, 0, 1, "0..1")));
        }
        catch (const TrainingInputError&)
        {
            throw TrainingInputError("--rhoT: '" + rhoT
                                     + "' rejected (expected a utilisation from 0 to 1)");
        }
    }
    std::vector<TrainingResult> results;
    for (const auto& entry : TrainingBackendRegistry::GetEntries())
    {
        if (backend != "all" && backend != entry.name)
        {
            continue;
        }
        if (backend == "all" && !entry.inAll)
        {
            continue;
        }
        Ptr<TrainingBackend> b = TrainingBackendRegistry::Create(entry.name);
        std::string why = b->GetUnavailableReason();
        if (!why.empty())
        {
            if (backend == "all")
            {
                std::fprintf(stderr,
                             "note: backend %s skipped: %s\n",
                             entry.name.c_str(),
                             why.c_str());
                continue;
            }
            throw TrainingInputError("--backend=" + entry.name + ": " + why);
        }
        auto r = backend == "all" ? b->RunComparison(profile, s) : b->Run(profile, s);
        results.insert(results.end(), r.begin(), r.end());
    }
    return results;
}

/// Run every K of a sweep; write the CSV and a gnuplot script; print a table.
int
RunSweep(const TrainingProfile& profile,
         TrainingScenario s,
         const std::vector<uint32_t>& sweep,
         const std::string& backend,
         const std::string& sharing,
         const std::string& rhoT,
         bool progress,
         std::string csv)
{
    if (csv.empty())
    {
        csv = "sweep.csv";
    }
    std::vector<std::string> columns;
    std::vector<std::map<std::string, double>> rows;
    for (uint32_t k : sweep)
    {
        s.workers = k;
        s.Validate(profile);
        std::map<std::string, double> row;
        for (const auto& r : RunBackends(profile, s, backend, sharing, rhoT, progress, false))
        {
            std::string name = r.backend + ":" + r.variant;
            if (std::find(columns.begin(), columns.end(), name) == columns.end())
            {
                columns.push_back(name);
            }
            row[name] = r.throughput;
        }
        rows.push_back(row);
    }
    std::ofstream out(csv);
    out << "workers";
    for (const auto& c : columns)
    {
        out << "," << c;
    }
    out << "\n";
    std::printf("%-8s", "workers");
    for (const auto& c : columns)
    {
        std::printf(" %20s", c.c_str());
    }
    std::printf("\n");
    for (std::size_t i = 0; i < sweep.size(); ++i)
    {
        out << sweep[i];
        std::printf("%-8u", sweep[i]);
        for (const auto& c : columns)
        {
            auto it = rows[i].find(c);
            if (it != rows[i].end())
            {
                out << "," << it->second;
                std::printf(" %20.2f", it->second);
            }
            else
            {
                out << ",";
                std::printf(" %20s", "-");
            }
        }
        out << "\n";
        std::printf("\n");
    }
    if (!out)
    {
        throw TrainingInputError("--csv: cannot write '" + csv + "'");
    }
    std::string png = csv.substr(0, csv.rfind('.')) + ".png";
    std::ofstream gp(csv + ".gp");
    gp << "# gnuplot " << csv << ".gp  (Debian: apt-get install gnuplot-nox)\n"
       << "set datafile separator ','\nset terminal pngcairo size 1000,650\n"
       << "set output '" << png << "'\nset key outside right\nset grid\n"
       << "set xlabel 'workers K'\nset ylabel 'throughput (samples/s)'\n"
       << "set title '" << profile.GetModel() << ", " << s.GetArchitectureName() << " "
       << s.GetModeName() << "'\n"
       << "plot for [i=2:" << columns.size() + 1 << "] '" << csv
       << "' using 1:i with linespoints title columnhead(i)\n";
    std::printf("wrote %s and %s.gp (gnuplot %s.gp draws %s)\n",
                csv.c_str(),
                csv.c_str(),
                csv.c_str(),
                png.c_str());
    return 0;
}

/// \return result.inputs[key], or 0 if absent
double
Input(const TrainingResult& r, const std::string& key)
{
    auto it = r.inputs.find(key);
    return it == r.inputs.end() ? 0 : it->second;
}

/// The packet backend's congestion counters and cross traffic, when there are any.
void
PrintCongestion(const TrainingResult& r)
{
    const double drops = Input(r, "drops_device") + Input(r, "drops_queue_disc");
    if (drops + Input(r, "ecn_marks") + Input(r, "retransmitted_segments") > 0)
    {
        std::printf("          congestion: %.0f drops (%.0f at server ports), %.0f ECN marks, "
                    "%.0f retransmitted segments, %.0f RTO expiries, %.0f fast recoveries\n",
                    drops,
                    Input(r, "drops_server_ports"),
                    Input(r, "ecn_marks"),
                    Input(r, "retransmitted_segments"),
                    Input(r, "rto_timeouts"),
                    Input(r, "fast_recoveries"));
    }
    if (r.inputs.count("cross_rx_bytes"))
    {
        std::printf("          cross traffic: %.1f MB delivered, %.3f Gb/s in the window\n",
                    Input(r, "cross_rx_bytes") / 1e6,
                    Input(r, "cross_goodput_bps") / 1e9);
    }
}

/// The fabric options (doc/fabric.rst): topology, placement, leaf-spine and fat-tree sizes.
struct FabricOptions
{
    std::string topology = "star";    //!< --topology
    std::string placement = "packed"; //!< --placement
    std::string leaves = "4";         //!< --leaves
    std::string spines = "2";         //!< --spines
    std::string hostsPerLeaf = "0";   //!< --hostsPerLeaf
    std::string fatTreeK = "4";       //!< --fatTreeK
    std::string uplinkRate = "0";     //!< --uplinkRate
    std::string ecmpSeed = "1";       //!< --ecmpSeed

    /// \param cmd the command line to add the options to
    void Add(CommandLine& cmd)
    {
        cmd.AddValue("topology", "Fabric: star, leafspine, fattree or a JSON file", topology);
        cmd.AddValue("placement",
                     "Hosts of the workers then servers: packed, spread, random or a list 0,4,8",
                     placement);
        cmd.AddValue("leaves", "leafspine: leaf switches", leaves);
        cmd.AddValue("spines", "leafspine: spine switches", spines);
        cmd.AddValue("hostsPerLeaf", "leafspine: hosts per leaf (0: enough for all)", hostsPerLeaf);
        cmd.AddValue("fatTreeK", "fattree: switch radix k (even; k^3/4 hosts)", fatTreeK);
        cmd.AddValue("uplinkRate", "Switch-switch link rate (0: --nicRate)", uplinkRate);
        cmd.AddValue("ecmpSeed", "Seed of the per-flow ECMP hash", ecmpSeed);
    }

    /// \param s the scenario to set
    void Apply(TrainingScenario& s) const
    {
        s.topology = topology;
        s.placement = placement;
        s.leaves = static_cast<uint32_t>(ParseUnsigned("--leaves", leaves, 1, 4096));
        s.spines = static_cast<uint32_t>(ParseUnsigned("--spines", spines, 1, 4096));
        s.hostsPerLeaf
            = static_cast<uint32_t>(ParseUnsigned("--hostsPerLeaf", hostsPerLeaf, 0, 65536));
        s.fatTreeK = static_cast<uint32_t>(ParseUnsigned("--fatTreeK", fatTreeK, 2, 64));
        s.uplinkRate = uplinkRate == "0"
                           ? DataRate(0)
                           : TrainingScenario::ParseDataRate("--uplinkRate", uplinkRate);
        s.ecmpSeed = ParseUnsigned("--ecmpSeed", ecmpSeed, 0, UINT64_MAX);
    }
};

/// Print one line per result.
void
PrintSummary(const TrainingProfile& profile,
             const TrainingScenario& scenario,
             const std::vector<TrainingResult>& results)
{
    std::printf(
        "%s, batch %u, %zu layers, %.1f MB | %s %s, K=%u, %s, %s NIC%s, overlap %s\n",
        profile.GetModel().c_str(),
        profile.GetBatchSize(),
        profile.GetNLayers(),
        profile.GetTotalParamBytes() / 1e6,
        scenario.GetArchitectureName().c_str(),
        scenario.GetModeName().c_str(),
        scenario.workers,
        scenario.architecture == TrainingScenario::PARAMETER_SERVER
            ? ("P=" + std::to_string(scenario.servers)).c_str()
            : ("Q="
               + (scenario.bucketBytes == TrainingScenario::UNLIMITED_BUCKET
                      ? std::string("inf")
                      : std::to_string(scenario.bucketBytes))
               + (scenario.gpusPerNode > 1 ? ", G=" + std::to_string(scenario.gpusPerNode) : ""))
                  .c_str(),
        (std::to_string(scenario.nicRate.GetBitRate() / 1000000000.0).substr(0, 5) + "G").c_str(),
        scenario.flowCap.GetBitRate() > 0
            ? (", cap " + std::to_string(scenario.flowCap.GetBitRate() / 1000000000.0).substr(0, 5)
               + "G")
                  .c_str()
            : "",
        scenario.overlap ? "on" : "off");
    if (scenario.topology != "star")
    {
        std::printf("fabric: %s\n", FabricTopology::FromScenario(scenario).Describe().c_str());
    }
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
        PrintCongestion(r);
    }
}

/// --csvRow: one row per result with the key numbers of the congestion study.
void
AppendCsvRows(const std::string& file,
              const TrainingProfile& profile,
              const TrainingScenario& s,
              const std::vector<TrainingResult>& results)
{
    const std::vector<std::string> counters = {"drops_device",
                                               "drops_queue_disc",
                                               "ecn_marks",
                                               "retransmitted_segments",
                                               "rto_timeouts",
                                               "fast_recoveries",
                                               "drops_server_ports",
                                               "cross_goodput_bps"};
    std::ifstream probe(file);
    const bool empty = !probe || probe.peek() == std::ifstream::traits_type::eof();
    std::ofstream out(file, std::ios::app);
    if (empty)
    {
        out << "model,arch,mode,workers,nic_bps,queue,host_queue,queue_disc,tcp,min_rto_s,ecn,"
               "cross_traffic,"
               "cross_flows,cross_rate_bps,backend,variant,throughput,step_time_s,bottleneck,"
               "bottleneck_utilisation,wall_s";
        for (const auto& c : counters)
        {
            out << "," << c;
        }
        out << "\n";
    }
    for (const auto& r : results)
    {
        auto u = r.linkUtilisation.find(r.bottleneck);
        out << profile.GetModel() << "," << s.GetArchitectureName() << "," << s.GetModeName() << ","
            << s.workers << "," << s.nicRate.GetBitRate() << "," << s.queueSize << ","
            << (s.hostQueueSize.empty() ? s.queueSize : s.hostQueueSize) << "," << s.queueDisc
            << "," << s.tcpVariant << "," << s.minRto.GetSeconds() << "," << s.ecn << ","
            << s.crossTraffic << "," << (s.crossTraffic == "none" ? 0 : s.crossFlows) << ","
            << s.crossRate.GetBitRate() << "," << r.backend << "," << r.variant << ","
            << r.throughput << "," << r.stepTimeMean << "," << r.bottleneck << ","
            << (u == r.linkUtilisation.end() ? 0 : u->second) << "," << r.wallSeconds;
        for (const auto& c : counters)
        {
            out << "," << Input(r, c);
        }
        out << "\n";
    }
    if (!out)
    {
        throw TrainingInputError("--csvRow: cannot write '" + file + "'");
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string profileFile
        = std::string(DT_SOURCE_DIR) + "/traces/googlenet-titanx-pascal-b16.json";
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
    std::string steps = "10";
    std::string warmup = "2";
    std::string seed = "1";
    std::string sampleSteps = "true";
    std::string preset;
    std::string bucket;
    std::string firstBucket;
    std::string fusionTimeout;
    std::string reductionRate = "0";
    std::string gpusPerNode = "1";
    std::string intraBw = "300Gbps";
    std::string intraLatency = "5us";
    std::string backend = "packet";
    std::string sharing = "ps";
    std::string rhoT;
    std::string incumbentWeight;
    std::string windowModel = "false";
    std::string cohortWindow;
    std::string csv;
    std::string output;
    bool records = true;
    bool progress = true;
    // Congestion study (doc/congestion.rst): packet backend only.
    std::string minRto = "200ms";
    std::string hostQueue;
    std::string ecn = "false";
    std::string crossTraffic = "none";
    std::string crossFlows = "1";
    std::string crossRate = "0";
    std::string crossTarget = "server";
    std::string crossProtocol = "udp";
    std::string csvRow;
    FabricOptions fabric;

    CommandLine cmd(__FILE__);
    cmd.Usage("Simulate distributed DNN training (parameter server or ring AllReduce) with the "
              "packet-level (ns-3 TCP), flow-level or analytical backend.");
    cmd.AddValue("profile", "Training profile JSON (traces/README.md)", profileFile);
    cmd.AddValue("arch", "Architecture: ps or ring", arch);
    cmd.AddValue("mode", "sync or async (ps only)", mode);
    cmd.AddValue("workers", "Number of workers K, or a sweep: 1..8 or 1,2,4,8", workers);
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
    cmd.AddValue("preset",
                 "Ring tensor-fusion defaults: ddp (25 MiB buckets, first 1 MiB), horovod "
                 "(<= 0.20: 64 MiB, 5 ms cycle) or horovod-0.21 (128 MiB, 1 ms); --bucket, "
                 "--firstBucket and --fusionTimeout override it",
                 preset);
    cmd.AddValue("bucket",
                 "Ring fusion threshold Q: bytes (0 = one AllReduce per layer, 25MB, 25MiB) or "
                 "inf (one bucket after backward); default 0",
                 bucket);
    cmd.AddValue("firstBucket", "Size of the first ring bucket (0 = Q), e.g. 1MiB", firstBucket);
    cmd.AddValue("fusionTimeout",
                 "Ring bucket also closes this long after its first gradient (0 = never), e.g. 5ms",
                 fusionTimeout);
    cmd.AddValue("reductionRate",
                 "Ring: bytes/s of reducing a received chunk (0 = free), e.g. 5e9",
                 reductionRate);
    cmd.AddValue("gpusPerNode",
                 "GPUs per node G (ring: intra-node reduce and broadcast)",
                 gpusPerNode);
    cmd.AddValue("intraBw", "Intra-node interconnect rate, e.g. 300Gbps (NVLink), 96Gbps", intraBw);
    cmd.AddValue("intraLatency", "Intra-node per-operation latency, e.g. 5us", intraLatency);
    cmd.AddValue("backend", "packet, flow, or all (every backend side by side)", backend);
    cmd.AddValue("sharing",
                 "Flow backend link sharing: fcfs, ps, capped, hybrid, calibrated (ring: "
                 "allreduce)",
                 sharing);
    cmd.AddValue("incumbentWeight",
                 "--sharing=calibrated: weight of a younger cohort of flows relative to the one "
                 "before it on a link, 0..1 (1 = ps; default: the calibrated value)",
                 incumbentWeight);
    cmd.AddValue("windowModel",
                 "Flow backend, parameter servers: limit every connection to its socket buffer "
                 "per round trip including the standing queues (variant NAME-window; needs "
                 "--sharing=ps, capped or calibrated)",
                 windowModel);
    cmd.AddValue("cohortWindow",
                 "--sharing=calibrated: flows starting within this time of a cohort's first "
                 "join it, e.g. 200us",
                 cohortWindow);
    cmd.AddValue("rhoT",
                 "Analytic backend: utilisation threshold rho_T of 000 Eq. (5) (default 0.6)",
                 rhoT);
    cmd.AddValue("output", "Write the JSON result here", output);
    cmd.AddValue("csv",
                 "With a --workers sweep: throughput-vs-workers CSV (default sweep.csv); a "
                 "gnuplot script CSV.gp that draws it is written next to it",
                 csv);
    cmd.AddValue("records", "Include per-step and per-transfer records in the JSON", records);
    cmd.AddValue("progress", "Print progress of long packet-level runs to stderr", progress);
    cmd.AddValue("minRto", "TCP minimum retransmission timeout, e.g. 200ms, 10ms, 1ms", minRto);
    cmd.AddValue("hostQueue",
                 "Buffer of the hosts' NICs (default: --queue, which then sets every buffer), "
                 "e.g. 1000p to vary only the switch's with --queue",
                 hostQueue);
    cmd.AddValue("ecn",
                 "ECN in TCP and in queue discs that can mark (RED, CoDel, FqCoDel); "
                 "TcpDctcp always uses it",
                 ecn);
    cmd.AddValue("crossTraffic",
                 "Background flows through the switch (packet backend): none, bulk or onoff",
                 crossTraffic);
    cmd.AddValue("crossFlows", "Cross flows, one extra host each", crossFlows);
    cmd.AddValue("crossRate",
                 "onoff: mean load of all cross flows together, e.g. 5Gbps",
                 crossRate);
    cmd.AddValue("crossTarget",
                 "Receiver of the cross flows: server (server 0) or worker (worker 0)",
                 crossTarget);
    cmd.AddValue("crossProtocol", "onoff: udp or tcp (bulk is TCP)", crossProtocol);
    cmd.AddValue("csvRow",
                 "Append one CSV row per result (scenario, throughput, step time, congestion "
                 "counters) to this file; a header is written if it is empty",
                 csvRow);
    fabric.Add(cmd);
    cmd.Parse(argc, argv);

    try
    {
        TrainingProfile profile = TrainingProfile::LoadFromFile(profileFile);
        TrainingScenario s;
        s.SetArchitecture("--arch", arch);
        s.SetMode("--mode", mode);
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
        if (!preset.empty())
        {
            s.ApplyPreset("--preset", preset);
        }
        if (!bucket.empty())
        {
            s.bucketBytes = ParseBytes("--bucket", bucket);
        }
        if (!firstBucket.empty())
        {
            s.firstBucketBytes = ParseBytes("--firstBucket", firstBucket);
            if (s.firstBucketBytes == TrainingScenario::UNLIMITED_BUCKET)
            {
                throw TrainingInputError("--firstBucket: 'inf' (expected a size in bytes, or 0 "
                                         "for the same size as --bucket)");
            }
        }
        if (!fusionTimeout.empty())
        {
            s.fusionTimeout = fusionTimeout == "0"
                                  ? Seconds(0)
                                  : TrainingScenario::ParseTime("--fusionTimeout", fusionTimeout);
        }
        s.reductionRate = ParseDouble("--reductionRate",
                                      reductionRate,
                                      0,
                                      std::numeric_limits<double>::max(),
                                      "bytes/s >= 0, e.g. 0 or 5e9");
        s.gpusPerNode = static_cast<uint32_t>(ParseUnsigned("--gpusPerNode", gpusPerNode, 1, 1024));
        s.intraBandwidth = TrainingScenario::ParseDataRate("--intraBw", intraBw);
        s.intraLatency = TrainingScenario::ParseTime("--intraLatency", intraLatency);
        s.minRto = TrainingScenario::ParseTime("--minRto", minRto);
        s.hostQueueSize = hostQueue;
        s.ecn = ParseBool("--ecn", ecn);
        s.crossTraffic = crossTraffic;
        s.crossFlows = static_cast<uint32_t>(ParseUnsigned("--crossFlows", crossFlows, 1, 64));
        s.crossRate = crossRate == "0" ? DataRate(0)
                                       : TrainingScenario::ParseDataRate("--crossRate", crossRate);
        s.crossTarget = crossTarget;
        s.crossProtocol = crossProtocol;
        fabric.Apply(s);

        if (!incumbentWeight.empty())
        {
            Config::SetDefault("ns3::CalibratedSharing::IncumbentWeight",
                               DoubleValue(ParseDouble("--incumbentWeight",
                                                       incumbentWeight,
                                                       0,
                                                       1,
                                                       "a weight from 0 to 1")));
        }
        Config::SetDefault("ns3::FlowBackend::WindowModel",
                           BooleanValue(ParseBool("--windowModel", windowModel)));
        if (!cohortWindow.empty())
        {
            Config::SetDefault(
                "ns3::CalibratedSharing::CohortWindow",
                TimeValue(cohortWindow == "0"
                              ? Seconds(0)
                              : TrainingScenario::ParseTime("--cohortWindow", cohortWindow)));
        }

        std::vector<uint32_t> sweep = ParseWorkers(workers);
        s.workers = sweep.front();
        CheckBackend(backend, sharing);
        if (sweep.size() > 1)
        {
            return RunSweep(profile, s, sweep, backend, sharing, rhoT, progress, csv);
        }
        s.Validate(profile);
        std::vector<TrainingResult> results
            = RunBackends(profile, s, backend, sharing, rhoT, progress, records);
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
        if (!csvRow.empty())
        {
            AppendCsvRows(csvRow, profile, s, results);
        }
    }
    catch (const TrainingInputError& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}

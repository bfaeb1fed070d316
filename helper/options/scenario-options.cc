/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-options.h"

#include "ns3/flow-backend.h"
#include "program-options.h"
#include "ns3/training-backend.h"

#include "ns3/config.h"
#include "ns3/json-input.h"
#include "ns3/string.h"
#include "ns3/training-input-error.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>

namespace ns3
{

namespace
{

/// Largest K or P the driver accepts (the flow backend has run K = 10,000).
constexpr uint64_t MAX_HOSTS = 100000;

/// \return whether the option sets other options (applied first, so that others override it)
bool
IsPreset(const std::string& name)
{
    return name == "hostModel" || name == "preset";
}

/// \return a TrainingInputError "--option: what (expected ...)"
TrainingInputError
Bad(const std::string& option, const std::string& what, const std::string& expected)
{
    return TrainingInputError(option + ": " + what + " (expected " + expected + ")");
}

/// \return an option that parses with f(option, text) into the request
ScenarioOptions::Option
Make(const std::string& name,
     const std::string& def,
     const std::string& help,
     std::function<void(RunRequest&, const std::string&, const std::string&)> f)
{
    const std::string option = "--" + name;
    return {name,
            def,
            help,
            [f, option](RunRequest& r, const std::string& v)
            {
                f(r, option, v);
            }};
}

/// \return a rate option ("0" allowed when zeroAllowed: none)
DataRate
Rate(const std::string& option, const std::string& text, bool zeroAllowed)
{
    if (zeroAllowed && text == "0")
    {
        return DataRate(0);
    }
    return TrainingScenario::ParseDataRate(option, text);
}

/// \return a time option ("0" allowed: zero)
Time
TimeOrZero(const std::string& option, const std::string& text)
{
    const Time t = text == "0" ? Seconds(0) : TrainingScenario::ParseTime(option, text);
    if (t.IsStrictlyNegative())
    {
        throw Bad(option, "negative time '" + text + "'", "0 or a positive time, e.g. 20us");
    }
    return t;
}

/// The scenario's architecture, schedule and worker options.
void
AddArchitecture(std::vector<ScenarioOptions::Option>& o)
{
    using S = ScenarioOptions;
    auto sc = [](RunRequest& r) -> TrainingScenario&
    {
        return r.scenario;
    };
    o.push_back(Make("arch",
                     "ps",
                     "Architecture: ps or ring",
                     [sc](RunRequest& r, auto& n, auto& v)
                     {
                         sc(r).SetArchitecture(n, v);
                     }));
    o.push_back(Make("mode",
                     "sync",
                     "sync or async (ps only)",
                     [sc](RunRequest& r, auto& n, auto& v)
                     {
                         sc(r).SetMode(n, v);
                     }));
    o.push_back(Make("workers",
                     "4",
                     "Number of workers K, or a sweep: 1..8 or 1,2,4,8",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.workerSweep = S::ParseWorkers(v);
                         r.scenario.workers = r.workerSweep.front();
                     }));
    o.push_back(Make("servers",
                     "1",
                     "Number of parameter servers P",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.servers = S::ParseUnsigned(n, v, 1, MAX_HOSTS);
                     }));
    o.push_back(Make("overlap",
                     "false",
                     "Overlap communication and computation (true/false)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.overlap = S::ParseBool(n, v);
                     }));
    o.push_back(Make("order",
                     "forward",
                     "Downlink transmission order: forward, reverse, random",
                     [sc](RunRequest& r, auto& n, auto& v)
                     {
                         sc(r).SetOrder(n, v);
                     }));
    o.push_back(Make("window",
                     "0",
                     "Multiplexing window WIN in bytes (0: whole tensors)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.windowBytes = S::ParseBytes(n, v);
                         if (r.scenario.windowBytes == TrainingScenario::UNLIMITED_BUCKET)
                         {
                             throw Bad(n, "'inf'", "a size in bytes, 0 for whole tensors");
                         }
                     }));
    o.push_back(Make("partition",
                     "greedy",
                     "Layer-to-server assignment: greedy or round-robin",
                     [sc](RunRequest& r, auto& n, auto& v)
                     {
                         sc(r).SetPartition(n, v);
                     }));
}

/// The schedule of steps and the workers' compute.
void
AddSteps(std::vector<ScenarioOptions::Option>& o)
{
    using S = ScenarioOptions;
    auto sc = [](RunRequest& r) -> TrainingScenario&
    {
        return r.scenario;
    };
    o.push_back(Make("computeScale",
                     "1",
                     "Compute time multiplier: one value, one per worker (1,1,2,2) or 1x2,2x2",
                     [sc](RunRequest& r, auto& n, auto& v)
                     {
                         sc(r).SetComputeScale(n, v);
                     }));
    o.push_back(Make("steps",
                     "10",
                     "Steps per worker",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.steps = S::ParseUnsigned(n, v, 1, 10000000);
                     }));
    o.push_back(Make("warmup",
                     "2",
                     "Warm-up steps excluded from throughput",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.warmup = S::ParseUnsigned(n, v, 0, 10000000);
                     }));
    o.push_back(Make("seed",
                     "1",
                     "Run number of the random streams (step sampling, order)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.seed = S::ParseUnsigned(n, v, 1, UINT32_MAX);
                     }));
    o.push_back(Make("startJitter",
                     "0",
                     "Largest random delay of each worker's first step and of every transfer "
                     "start on an idle connection (packet and flow backends; drawn with "
                     "--seed; the analytic backend notes it ignores it), e.g. 20us; 0: none",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.startJitter = TimeOrZero(n, v);
                     }));
    o.push_back(Make("sampleSteps",
                     "true",
                     "Draw each step from the profile's recorded steps",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.sampleSteps = S::ParseBool(n, v);
                     }));
}

/// Fabric options (doc/reference/fabric.rst): topology, placement, leaf-spine and fat-tree sizes.
void
AddFabric(std::vector<ScenarioOptions::Option>& o)
{
    using S = ScenarioOptions;
    o.push_back(Make("topology",
                     "star",
                     "Fabric: star, leafspine, fattree or a JSON file",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.scenario.topology = v;
                     }));
    o.push_back(Make("placement",
                     "packed",
                     "Hosts of the workers then servers: packed, spread, random or a list 0,4,8",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.scenario.placement = v;
                     }));
    o.push_back(Make("leaves",
                     "4",
                     "leafspine: leaf switches",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.leaves = S::ParseUnsigned(n, v, 1, 4096);
                     }));
    o.push_back(Make("spines",
                     "2",
                     "leafspine: spine switches",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.spines = S::ParseUnsigned(n, v, 1, 4096);
                     }));
    o.push_back(Make("hostsPerLeaf",
                     "0",
                     "leafspine: hosts per leaf (0: enough for all)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.hostsPerLeaf = S::ParseUnsigned(n, v, 0, 65536);
                     }));
    o.push_back(Make("fatTreeK",
                     "4",
                     "fattree: switch radix k (even; k^3/4 hosts)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.fatTreeK = S::ParseUnsigned(n, v, 2, 64);
                     }));
    o.push_back(Make("uplinkRate",
                     "0",
                     "Switch-switch link rate (0: --nicRate)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.uplinkRate = Rate(n, v, true);
                     }));
    o.push_back(Make("ecmpSeed",
                     "1",
                     "Seed of the per-flow ECMP hash",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.ecmpSeed = S::ParseUnsigned(n, v, 0, UINT64_MAX);
                     }));
}

/// Ring AllReduce, tensor fusion and multi-GPU options.
void
AddRing(std::vector<ScenarioOptions::Option>& o)
{
    using S = ScenarioOptions;
    o.push_back(Make("preset",
                     "",
                     "Ring tensor-fusion defaults: ddp (25 MiB buckets, first 1 MiB), horovod "
                     "(<= 0.20: 64 MiB, 5 ms cycle) or horovod-0.21 (128 MiB, 1 ms); --bucket, "
                     "--firstBucket and --fusionTimeout override it",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.ApplyPreset(n, v);
                     }));
    o.push_back(Make("bucket",
                     "",
                     "Ring fusion threshold Q: bytes (0 = one AllReduce per layer, 25MB, 25MiB) "
                     "or inf (one bucket after backward); default 0",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.bucketBytes = S::ParseBytes(n, v);
                     }));
    o.push_back(
        Make("firstBucket",
             "",
             "Size of the first ring bucket (0 = Q), e.g. 1MiB",
             [](RunRequest& r, auto& n, auto& v)
             {
                 r.scenario.firstBucketBytes = S::ParseBytes(n, v);
                 if (r.scenario.firstBucketBytes == TrainingScenario::UNLIMITED_BUCKET)
                 {
                     throw Bad(n, "'inf'", "a size in bytes, or 0 for the same size as --bucket");
                 }
             }));
    o.push_back(Make("fusionTimeout",
                     "",
                     "Ring bucket also closes this long after its first gradient (0 = never)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.fusionTimeout = TimeOrZero(n, v);
                     }));
    o.push_back(Make("reductionRate",
                     "0",
                     "Ring: bytes/s of reducing a received chunk (0 = free)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         // Below 1 kB/s a chunk's reduction takes longer than any training
                         // step worth simulating (1e-300 made the step time infinite).
                         const char* expected = "0 (free) or bytes/s from 1e3 to 1e15, e.g. 5e9";
                         const double rate = S::ParseReal(n, v, 0, 1e15, expected);
                         if (rate > 0 && rate < 1e3)
                         {
                             S::ParseReal(n, v, 1e3, 1e15, expected); // throws, naming the range
                         }
                         r.scenario.reductionRate = rate;
                     }));
    o.push_back(Make("collective",
                     "ring",
                     "AllReduce algorithm of --arch=ring: ring, halving-doubling (Rabenseifner) "
                     "or tree (NCCL's double binary tree); packet, linux and analytic backends",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.scenario.collective = v; // TrainingScenario::Validate checks it
                     }));
    o.push_back(Make("treeChunk",
                     "512KiB",
                     "Pipelining unit of --collective=tree in bytes, e.g. 512KiB (NCCL's order "
                     "of magnitude)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.treeChunkBytes = S::ParseBytes(n, v);
                     }));
    o.push_back(Make("gpusPerNode",
                     "1",
                     "GPUs per node G (intra-node reduce and broadcast)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.gpusPerNode = S::ParseUnsigned(n, v, 1, 1024);
                     }));
    o.push_back(Make("intraBw",
                     "300Gbps",
                     "Intra-node interconnect rate, e.g. 300Gbps (NVLink)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.intraBandwidth = Rate(n, v, false);
                     }));
    o.push_back(Make("intraLatency",
                     "5us",
                     "Intra-node per-operation latency, e.g. 5us",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.intraLatency = TimeOrZero(n, v);
                     }));
}

/// The host-model options (--hostModel=linux and the settings it turns on).
void
AddHostModel(std::vector<ScenarioOptions::Option>& o)
{
    using S = ScenarioOptions;
    o.push_back(Make("hostModel",
                     "ns3",
                     "Host TCP: ns3, or linux (Linux CUBIC/Reno for --tcp=TcpCubic/TcpNewReno, "
                     "--delayedAck, --bufferAutotuning, --tcpSmallQueues, --startJitter=20us; "
                     "applied before the other options, which override it)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.ApplyHostModel(n, v);
                     }));
    o.push_back(Make("bufferAutotuning",
                     "false",
                     "Linux socket-buffer autotuning (tcp_wmem/tcp_rmem) instead of fixed "
                     "buffers (packet: per socket; flow: its window limit)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.bufferAutotuning = S::ParseBool(n, v);
                     }));
    o.push_back(Make("delayedAck",
                     "false",
                     "Linux's delayed ACKs (one per two segments, or after 40 ms) instead of an "
                     "ACK per segment (packet backend)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.delayedAck = S::ParseBool(n, v);
                     }));
    o.push_back(Make("tcpSmallQueues",
                     "false",
                     "Linux's TCP small queues: each socket keeps about 1 ms of its pacing rate "
                     "(at least 2 skbs, 64 KiB each at datacenter RTTs) in its host's NIC queue, "
                     "the rest waits in the socket (packet backend)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.tcpSmallQueues = S::ParseBool(n, v);
                     }));
}

/// Network and congestion options.
void
AddNetwork(std::vector<ScenarioOptions::Option>& o)
{
    using S = ScenarioOptions;
    o.push_back(Make("nicRate",
                     "10Gbps",
                     "Link rate of every NIC, e.g. 1Gbps, 10Gbps, 25Gbps",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.nicRate = Rate(n, v, false);
                     }));
    o.push_back(Make("flowCap",
                     "0",
                     "Per-flow rate cap (TCP pacing), 0 for none, e.g. 10Gbps",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.flowCap = Rate(n, v, true);
                     }));
    o.push_back(Make("linkDelay",
                     "10us",
                     "One-way delay of each link, e.g. 10us",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.linkDelay = TimeOrZero(n, v);
                     }));
    o.push_back(Make("queue",
                     "1000p",
                     "Device queue size, e.g. 1000p or 1500000B",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         TrainingScenario::ParseQueueSize(n, v);
                         r.scenario.queueSize = v;
                     }));
    o.push_back(Make("hostQueue",
                     "",
                     "Buffer of the hosts' NICs (default: --queue, which then sets every buffer)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         TrainingScenario::ParseQueueSize(n, v);
                         r.scenario.hostQueueSize = v;
                     }));
    o.push_back(Make("queueDisc",
                     "none",
                     "Queue disc on every device: none, FqCoDelQueueDisc, ...",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.scenario.queueDisc = v;
                     }));
    o.push_back(Make("tcp",
                     "TcpCubic",
                     "TCP congestion control: TcpCubic, TcpNewReno, TcpBbr, ...",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.scenario.tcpVariant = v;
                     }));
    o.push_back(Make("mtu",
                     "1500",
                     "MTU in bytes (1500 or 9000)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.mtu = S::ParseUnsigned(n, v, 576, 9000);
                     }));
    o.push_back(Make("socketBuffer",
                     "0",
                     "TCP send buffer of every training socket in bytes (0: automatic rule)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.sendBufferBytes = S::ParseUnsigned(n, v, 0, 1u << 30);
                     }));
    o.push_back(Make("minRto",
                     "200ms",
                     "TCP minimum retransmission timeout, e.g. 200ms, 1ms",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.minRto = TrainingScenario::ParseTime(n, v);
                     }));
}

/// Congestion options of the packet level (doc/reference/congestion.rst).
void
AddCongestion(std::vector<ScenarioOptions::Option>& o)
{
    using S = ScenarioOptions;
    o.push_back(Make("ecn",
                     "false",
                     "ECN in TCP and in queue discs that can mark",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.ecn = S::ParseBool(n, v);
                     }));
    o.push_back(Make("crossTraffic",
                     "none",
                     "Background flows (packet backend): none, bulk or onoff",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.scenario.crossTraffic = v;
                     }));
    o.push_back(Make("crossFlows",
                     "1",
                     "Cross flows, one extra host each",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.crossFlows = S::ParseUnsigned(n, v, 1, 64);
                     }));
    o.push_back(Make("crossRate",
                     "0",
                     "onoff: mean load of all cross flows together, e.g. 5Gbps",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.crossRate = Rate(n, v, true);
                     }));
    o.push_back(Make("crossTarget",
                     "server",
                     "Receiver of the cross flows: server or worker",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.scenario.crossTarget = v;
                     }));
    o.push_back(Make("crossProtocol",
                     "udp",
                     "onoff: udp or tcp (bulk is TCP)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.scenario.crossProtocol = v;
                     }));
}

/// Backend choice and the backends' own knobs (stored as attribute defaults).
void
AddBackend(std::vector<ScenarioOptions::Option>& o)
{
    using S = ScenarioOptions;
    o.push_back(Make("backend",
                     "packet",
                     "Backend: " + TrainingBackendRegistry::ListNames() + ", or all (side by side)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         if (v != "all")
                         {
                             TrainingBackendRegistry::Find(v);
                         }
                         r.backend = v;
                     }));
    o.push_back(
        Make("sharing",
             "ps",
             "Flow backend link sharing: fcfs, ps, capped, hybrid, calibrated (ring: allreduce)",
             [](RunRequest& r, auto&, auto& v)
             {
                 FlowBackend::ParseSharing(v);
                 r.backendDefaults["ns3::FlowBackend::Sharing"] = v;
             }));
    o.push_back(Make("windowModel",
                     "false",
                     "Flow backend, parameter servers: limit every connection to its socket "
                     "buffer per round trip (needs --sharing=ps, capped or calibrated)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.backendDefaults["ns3::FlowBackend::WindowModel"]
                             = S::ParseBool(n, v) ? "true" : "false";
                     }));
    o.push_back(Make("incumbentWeight",
                     "",
                     "--sharing=calibrated: weight of a younger cohort of flows, 0..1 (1 = ps)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         S::ParseReal(n, v, 0, 1, "a weight from 0 to 1");
                         r.backendDefaults["ns3::CalibratedSharing::IncumbentWeight"] = v;
                     }));
    o.push_back(
        Make("cohortWindow",
             "",
             "--sharing=calibrated: flows starting within this time of a cohort's first join it",
             [](RunRequest& r, auto& n, auto& v)
             {
                 r.backendDefaults["ns3::CalibratedSharing::CohortWindow"]
                     = std::to_string(TimeOrZero(n, v).GetSeconds()) + "s";
             }));
    o.push_back(Make("rhoT",
                     "",
                     "Analytic backend: threshold rho_T of 000 Eq. (5) (default 0.6)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         S::ParseReal(n, v, 0, 1, "a utilisation from 0 to 1");
                         r.backendDefaults["ns3::AnalyticBackend::RhoThreshold"] = v;
                     }));
}

/// Options of the linux backend (real TCP, real time).
void
AddLinux(std::vector<ScenarioOptions::Option>& o)
{
    using S = ScenarioOptions;
    o.push_back(Make("dilation",
                     "",
                     "Time dilation D >= 1 (links at rate/D, compute x D, results scaled back): "
                     "linux backend, e.g. 40 for 10 Gbps; packet backend: simulate the network "
                     "that linux run executes (TCP timers not scaled), for a like-for-like "
                     "comparison",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         S::ParseReal(n, v, 1, 10000, "a factor from 1 to 10000");
                         r.backendDefaults["ns3::LinuxBackend::Dilation"] = v;
                         r.backendDefaults["ns3::PacketBackend::Dilation"] = v;
                     }));
    o.push_back(Make("repeat",
                     "",
                     "Linux backend: runs per point; reports the median-throughput run with the "
                     "min, max and spread in its inputs and notes",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         S::ParseUnsigned(n, v, 1, 1000);
                         r.backendDefaults["ns3::LinuxBackend::Repeat"] = v;
                     }));
}

/// Input and output options.
void
AddOutput(std::vector<ScenarioOptions::Option>& o)
{
    using S = ScenarioOptions;
    o.push_back(Make("profile",
                     std::string(DT_SOURCE_DIR) + "/traces/googlenet-titanx-pascal-b16.json",
                     "Training profile JSON (traces/README.md)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.profile = v;
                     }));
    o.push_back(Make("output",
                     "",
                     "Write the JSON result here",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.output = v;
                     }));
    o.push_back(Make("csv",
                     "",
                     "With a --workers sweep: throughput-vs-workers CSV (default sweep.csv) and a "
                     "gnuplot script CSV.gp",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.csv = v;
                     }));
    o.push_back(Make("csvRow",
                     "",
                     "Append one CSV row per result (scenario, throughput, counters) to this file",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.csvRow = v;
                     }));
    o.push_back(Make("records",
                     "true",
                     "Include per-step and per-transfer records in the JSON",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.records = S::ParseBool(n, v);
                         r.backendDefaults["ns3::FlowBackend::RecordTransfers"]
                             = r.records ? "true" : "false";
                     }));
    o.push_back(Make("jobs",
                     "",
                     "Several training jobs on one fabric: a JSON file (or inline JSON text) "
                     "holding a list of job objects of per-job options (doc/reference/fabric.rst); "
                     "the other options are the fabric's",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.jobs = v;
                     }));
    o.push_back(Make("recordsFile",
                     "",
                     "Stream the per-step and per-transfer records to this JSON Lines file "
                     "instead of keeping them (large runs; the JSON output then names the file)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.recordsFile = v;
                     }));
    o.push_back(Make("progress",
                     "true",
                     "Print progress of long packet-level runs to stderr",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.progress = S::ParseBool(n, v);
                         r.backendDefaults["ns3::PacketBackend::Progress"]
                             = r.progress ? "true" : "false";
                     }));
}

/// \return whether text is valid UTF-8 without control characters (every value ends up in JSON)
bool
IsUtf8Text(const std::string& text)
{
    if (std::any_of(text.begin(),
                    text.end(),
                    [](char c)
                    {
                        return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
                    }))
    {
        return false;
    }
    try
    {
        (void) nlohmann::json(text).dump(); // nlohmann's UTF-8 check: throws on a bad sequence
    }
    catch (const nlohmann::json::type_error&)
    {
        return false;
    }
    return true;
}

/// Limits of a --scenario file: a flat object of options; 1 MiB and 64 levels are far above any
/// real one.
const JsonInput::Limits&
ScenarioJsonLimits()
{
    static const JsonInput::Limits limits{1 << 20, 64, "a JSON object of driver options"};
    return limits;
}

/// \return the JSON value as option text (whole numbers without ".0")
std::string
JsonText(const nlohmann::json& v, const std::string& where)
{
    if (v.is_string())
    {
        return v.get<std::string>();
    }
    if (v.is_boolean())
    {
        return v.get<bool>() ? "true" : "false";
    }
    if (v.is_number_unsigned() || v.is_number_integer())
    {
        return v.dump();
    }
    if (v.is_number_float())
    {
        std::ostringstream os;
        os.precision(17);
        os << v.get<double>();
        return os.str();
    }
    throw TrainingInputError(where + ": " + v.type_name()
                             + " value (expected a number, a boolean or a string)");
}

} // namespace

void
RunRequest::ApplyBackendDefaults() const
{
    for (const auto& [path, value] : backendDefaults)
    {
        // The options check their values first; should an attribute's own checker still
        // refuse one, say so instead of letting Config::SetDefault abort the program.
        if (!Config::SetDefaultFailSafe(path, StringValue(value)))
        {
            throw TrainingInputError("option for " + path + ": value '" + value
                                     + "' refused by the attribute's checker (see --help)");
        }
    }
}

const std::vector<ScenarioOptions::Option>&
ScenarioOptions::GetOptions()
{
    static const std::vector<Option> options = []
    {
        std::vector<Option> o;
        AddOutput(o);
        AddArchitecture(o);
        AddSteps(o);
        AddNetwork(o);
        AddHostModel(o);
        AddCongestion(o);
        AddFabric(o);
        AddRing(o);
        AddBackend(o);
        AddLinux(o);
        return o;
    }();
    return options;
}

const ScenarioOptions::Option*
ScenarioOptions::Find(const std::string& name)
{
    for (const auto& o : GetOptions())
    {
        if (o.name == name)
        {
            return &o;
        }
    }
    return nullptr;
}

RunRequest
ScenarioOptions::MakeDefault()
{
    RunRequest r;
    for (const auto& o : GetOptions())
    {
        if (!o.defaultValue.empty())
        {
            o.apply(r, o.defaultValue);
        }
    }
    return r;
}

namespace
{

/**
 * \return option -> the backends that model it, for the options that not every backend
 *         models. "flow-window": the flow backend with --windowModel on a parameter server
 *         (the window model takes the packet level's buffers and round trip); "fabric": every
 *         backend, but only off the star (the star has no leaves, spines or uplinks).
 */
const std::map<std::string, std::string>&
Scopes()
{
    static const std::map<std::string, std::string> scopes{
        {"tcp", "packet linux"},
        {"minRto", "packet linux"},
        {"queue", "packet linux flow-window"},
        {"hostQueue", "packet linux flow-window"},
        {"socketBuffer", "packet linux flow-window"},
        {"bufferAutotuning", "packet linux flow-window"},
        {"linkDelay", "packet linux analytic flow-window"},
        {"queueDisc", "packet"},
        {"ecn", "packet"},
        {"delayedAck", "packet"},
        {"tcpSmallQueues", "packet"},
        {"hostModel", "packet"},
        {"crossTraffic", "packet"},
        {"crossFlows", "packet"},
        {"crossRate", "packet"},
        {"crossTarget", "packet"},
        {"crossProtocol", "packet"},
        {"dilation", "packet linux"},
        {"repeat", "linux"},
        {"sharing", "flow"},
        {"windowModel", "flow"},
        {"incumbentWeight", "flow"},
        {"cohortWindow", "flow"},
        {"rhoT", "analytic"},
        {"leaves", "fabric"},
        {"spines", "fabric"},
        {"hostsPerLeaf", "fabric"},
        {"fatTreeK", "fabric"},
        {"uplinkRate", "fabric"},
        {"ecmpSeed", "fabric"},
    };
    return scopes;
}

/// \return whether backend is one of the space-separated names in scope
bool
InScope(const std::string& scope, const std::string& backend)
{
    std::istringstream words(scope);
    std::string w;
    while (words >> w)
    {
        if (w == backend)
        {
            return true;
        }
    }
    return false;
}

} // namespace

std::string
ScenarioOptions::GetScope(const std::string& name)
{
    auto it = Scopes().find(name);
    return it == Scopes().end() ? "" : it->second;
}

std::vector<std::string>
ScenarioOptions::GetIgnored(const RunRequest& request, const std::string& backend)
{
    const TrainingScenario& s = request.scenario;
    auto window = request.backendDefaults.find("ns3::FlowBackend::WindowModel");
    const bool flowWindow = window != request.backendDefaults.end() && window->second == "true"
                            && s.architecture == TrainingScenario::PARAMETER_SERVER;
    std::vector<std::string> ignored;
    for (const std::string& name : request.given)
    {
        const std::string scope = GetScope(name);
        const bool models = scope.empty() || (scope == "fabric" && s.topology != "star")
                            || InScope(scope, backend)
                            || (backend == "flow" && flowWindow && InScope(scope, "flow-window"));
        if (!models)
        {
            ignored.push_back("--" + name);
        }
    }
    return ignored;
}

void
ScenarioOptions::Set(RunRequest& request, const std::string& name, const std::string& value)
{
    const Option* o = Find(name);
    if (!o)
    {
        std::vector<std::string> names;
        for (const auto& option : GetOptions())
        {
            names.push_back(option.name);
        }
        throw TrainingInputError("--" + name + ": unknown option ("
                                 + ProgramOptions::Suggestion(name, names) + ")");
    }
    if (!IsUtf8Text(value))
    {
        // Found by fuzzing: such a value reached the JSON result and ended the program there.
        throw Bad("--" + name, "value is not UTF-8 text", "printable UTF-8 text");
    }
    o->apply(request, value);
    request.given.insert(name);
}

void
ScenarioOptions::ApplyJson(const nlohmann::json& object,
                           const std::string& where,
                           RunRequest& request)
{
    if (!object.is_object())
    {
        throw TrainingInputError(where + ": " + object.type_name()
                                 + " (expected an object of options, e.g. {\"workers\": 4})");
    }
    for (bool presets : {true, false})
    {
        for (const auto& [key, value] : object.items())
        {
            if (!Find(key))
            {
                throw TrainingInputError(
                    where + ": unknown option '" + key
                    + "' (expected an option of distributed-training-sim --help)");
            }
            if (IsPreset(key) != presets)
            {
                continue;
            }
            try
            {
                // --jobs also takes its list inline: the JSON text of the list.
                const bool inlineJobs = key == "jobs" && (value.is_array() || value.is_object());
                Set(request, key, inlineJobs ? value.dump() : JsonText(value, where + ": ." + key));
            }
            catch (const TrainingInputError& e)
            {
                throw TrainingInputError(where + ": " + e.what());
            }
        }
    }
}

void
ScenarioOptions::ApplyJsonText(const std::string& text,
                               const std::string& source,
                               RunRequest& request)
{
    // JsonInput refuses deep nesting and repeated keys; options do not depend on key order.
    ApplyJson(nlohmann::json(JsonInput::Parse(text, source, ScenarioJsonLimits())),
              source,
              request);
}

void
ScenarioOptions::ApplyJsonFile(const std::string& file, RunRequest& request)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
    {
        throw TrainingInputError("--scenario: '" + file + "' is not a regular file");
    }
    ApplyJsonText(JsonInput::ReadFile(file, ScenarioJsonLimits()), file, request);
}

namespace
{

/// Options of the table given on a command line, in order, and the --scenario file.
struct GivenArguments
{
    std::vector<std::pair<std::string, std::string>> options; //!< name, value
    std::string scenarioFile;                                 //!< --scenario, if given
};

/**
 * \brief The table as a command line (ProgramOptions splits and checks the line); the values
 * are only collected, and applied afterwards by BuildRequest.
 * \param usage for --help
 * \param given receives the options given
 * \return the command line
 */
ProgramOptions
TableCommandLine(const std::string& usage, GivenArguments& given)
{
    ProgramOptions cmd(usage);
    cmd.Add("scenario",
            "JSON file of options (command-line options override it)",
            "",
            [&given](const std::string& v)
            {
                given.scenarioFile = v;
            });
    for (const ScenarioOptions::Option& o : ScenarioOptions::GetOptions())
    {
        cmd.Add(o.name,
                o.help,
                o.defaultValue,
                [&given, name = o.name](const std::string& v)
                {
                    given.options.emplace_back(name, v);
                });
    }
    return cmd;
}

/// \return the defaults, then the --scenario file, then the command line's options (presets
/// first, so that single options override them whatever their order)
RunRequest
BuildRequest(GivenArguments given)
{
    RunRequest request = ScenarioOptions::MakeDefault();
    if (!given.scenarioFile.empty())
    {
        ScenarioOptions::ApplyJsonFile(given.scenarioFile, request);
    }
    std::stable_partition(given.options.begin(),
                          given.options.end(),
                          [](const auto& g)
                          {
                              return IsPreset(g.first);
                          });
    for (const auto& [name, value] : given.options)
    {
        ScenarioOptions::Set(request, name, value);
    }
    return request;
}

} // namespace

RunRequest
ScenarioOptions::FromArguments(const std::vector<std::string>& args,
                               std::vector<std::string>& others)
{
    GivenArguments given;
    others = TableCommandLine("", given).ParseKnown(args);
    return BuildRequest(std::move(given));
}

RunRequest
ScenarioOptions::ParseArguments(int argc, char* argv[], const std::string& usage)
{
    GivenArguments given;
    TableCommandLine(usage, given).Parse(argc, argv);
    return BuildRequest(std::move(given));
}

uint64_t
ScenarioOptions::ParseUnsigned(const std::string& option,
                               const std::string& text,
                               uint64_t min,
                               uint64_t max)
{
    static const std::regex re(R"(^\s*[0-9]+\s*$)");
    const std::string expected
        = "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
    if (!std::regex_match(text, re))
    {
        throw Bad(option, "cannot parse '" + text + "'", expected);
    }
    errno = 0;
    const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
    if (errno == ERANGE || v < min || v > max)
    {
        throw Bad(option, text + " out of range", expected);
    }
    return v;
}

double
ScenarioOptions::ParseReal(const std::string& option,
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
        throw Bad(option, "cannot parse '" + text + "'", expected);
    }
    if (!std::isfinite(v) || !(v >= min && v <= max))
    {
        throw Bad(option, "'" + text + "'", expected);
    }
    return v;
}

bool
ScenarioOptions::ParseBool(const std::string& option, const std::string& text)
{
    if (text == "1" || text == "true" || text == "on" || text == "yes")
    {
        return true;
    }
    if (text == "0" || text == "false" || text == "off" || text == "no")
    {
        return false;
    }
    throw Bad(option, "cannot parse '" + text + "'", "true or false");
}

uint64_t
ScenarioOptions::ParseBytes(const std::string& option, const std::string& text)
{
    const std::string expected = "bytes >= 0, e.g. 0, 1048576, 25MB, 64MiB or inf";
    if (text == "inf" || text == "unlimited")
    {
        return TrainingScenario::UNLIMITED_BUCKET;
    }
    if (text.find('-') != std::string::npos)
    {
        throw Bad(option, "negative size '" + text + "'", expected);
    }
    static const std::regex re(R"(^\s*([0-9]*\.?[0-9]+)\s*(B|KB|kB|MB|GB|KiB|MiB|GiB)?\s*$)");
    std::smatch m;
    if (!std::regex_match(text, m, re))
    {
        throw Bad(option, "cannot parse '" + text + "'", expected);
    }
    static const std::map<std::string, double> units = {{"", 1},
                                                        {"B", 1},
                                                        {"KB", 1e3},
                                                        {"kB", 1e3},
                                                        {"MB", 1e6},
                                                        {"GB", 1e9},
                                                        {"KiB", 1024.0},
                                                        {"MiB", 1048576.0},
                                                        {"GiB", 1073741824.0}};
    const double v = std::stod(m[1]) * units.at(m[2]);
    // Sizes beyond 1 PB are typing errors, and would overflow (or wrap to 0) below.
    if (!(v <= 1e15))
    {
        throw Bad(option, "size '" + text + "' out of range", "at most 1 PB, or inf");
    }
    return static_cast<uint64_t>(v + 0.5);
}

std::vector<uint32_t>
ScenarioOptions::ParseWorkers(const std::string& text)
{
    std::vector<uint32_t> list;
    const auto range = text.find("..");
    if (range != std::string::npos)
    {
        const uint64_t a = ParseUnsigned("--workers", text.substr(0, range), 1, MAX_HOSTS);
        const uint64_t b = ParseUnsigned("--workers", text.substr(range + 2), 1, MAX_HOSTS);
        if (b < a)
        {
            throw Bad("--workers", "empty range '" + text + "'", "FIRST..LAST with FIRST <= LAST");
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
        list.push_back(static_cast<uint32_t>(ParseUnsigned("--workers", item, 1, MAX_HOSTS)));
    }
    if (list.empty())
    {
        throw Bad("--workers", "empty", "a number, 1..8 or 1,2,4,8");
    }
    return list;
}

} // namespace ns3

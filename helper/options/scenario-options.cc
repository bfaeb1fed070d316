/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-options.h"

#include "program-options.h"

#include "ns3/abort.h"
#include "ns3/json-input.h"
#include "ns3/json-object-reader.h"
#include "ns3/kernel-testbed.h"
#include "ns3/sharing-model-registry.h"
#include "ns3/training-backend.h"
#include "ns3/training-input-error.h"
#include "ns3/unit-parser.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
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

/// \return an option that parses with f(request, "--name", text)
ScenarioOptions::Option
Make(const std::string& name,
     OptionScope scope,
     const std::string& models,
     const std::string& def,
     const std::string& help,
     std::function<void(RunRequest&, const std::string&, const std::string&)> f)
{
    return {name, scope, models, def, help, std::move(f)};
}

/// The scenario's architecture, schedule and worker options.
void
AddArchitecture(std::vector<ScenarioOptions::Option>& o)
{
    auto sc = [](RunRequest& r) -> TrainingScenario&
    {
        return r.scenario;
    };
    o.push_back(Make("arch",
                     OptionScope::JOB,
                     "",
                     "ps",
                     "Architecture: ps or ring",
                     [sc](RunRequest& r, auto& n, auto& v)
                     {
                         sc(r).SetArchitecture(n, v);
                     }));
    o.push_back(Make("mode",
                     OptionScope::JOB,
                     "",
                     "sync",
                     "sync or async (ps only)",
                     [sc](RunRequest& r, auto& n, auto& v)
                     {
                         sc(r).SetMode(n, v);
                     }));
    o.push_back(Make("workers",
                     OptionScope::JOB,
                     "",
                     "4",
                     "Number of workers K, or a sweep: 1..8 or 1,2,4,8",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.workerSweep = ScenarioOptions::ParseWorkers(v);
                         r.scenario.workers = r.workerSweep.front();
                     }));
    o.push_back(Make("servers",
                     OptionScope::JOB,
                     "",
                     "1",
                     "Number of parameter servers P",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.servers = UnitParser::ParseUnsigned(n, v, 1, MAX_HOSTS);
                     }));
}

/// Options of the order and overlap of a step's transfers and the parameter partition.
void
AddSchedule(std::vector<ScenarioOptions::Option>& o)
{
    auto sc = [](RunRequest& r) -> TrainingScenario&
    {
        return r.scenario;
    };
    o.push_back(Make("overlap",
                     OptionScope::JOB,
                     "",
                     "false",
                     "Overlap communication and computation (true/false)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.overlap = UnitParser::ParseBool(n, v);
                     }));
    o.push_back(Make("order",
                     OptionScope::JOB,
                     "",
                     "forward",
                     "Downlink transmission order: forward, reverse, random",
                     [sc](RunRequest& r, auto& n, auto& v)
                     {
                         sc(r).SetOrder(n, v);
                     }));
    o.push_back(Make("window",
                     OptionScope::JOB,
                     "",
                     "0",
                     "Multiplexing window WIN in bytes (0: whole tensors)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.windowBytes = UnitParser::ParseBytes(n, v);
                         if (r.scenario.windowBytes == UnitParser::UNLIMITED)
                         {
                             throw Bad(n, "'inf'", "a size in bytes, 0 for whole tensors");
                         }
                     }));
    o.push_back(Make("partition",
                     OptionScope::JOB,
                     "",
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
    auto sc = [](RunRequest& r) -> TrainingScenario&
    {
        return r.scenario;
    };
    o.push_back(Make("computeScale",
                     OptionScope::JOB,
                     "",
                     "1",
                     "Compute time multiplier: one value, one per worker (1,1,2,2) or 1x2,2x2",
                     [sc](RunRequest& r, auto& n, auto& v)
                     {
                         sc(r).SetComputeScale(n, v);
                     }));
    o.push_back(Make("steps",
                     OptionScope::JOB,
                     "",
                     "10",
                     "Steps per worker",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.steps = UnitParser::ParseUnsigned(n, v, 1, 10000000);
                     }));
    o.push_back(Make("warmup",
                     OptionScope::JOB,
                     "",
                     "2",
                     "Warm-up steps excluded from throughput",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.warmup = UnitParser::ParseUnsigned(n, v, 0, 10000000);
                     }));
    o.push_back(Make("seed",
                     OptionScope::JOB,
                     "",
                     "1",
                     "Run number of the random streams (step sampling, order)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.seed = UnitParser::ParseUnsigned(n, v, 1, UINT32_MAX);
                     }));
    o.push_back(Make("startJitter",
                     OptionScope::JOB,
                     "",
                     "0",
                     "Largest random delay of each worker's first step and of every transfer "
                     "start on an idle connection (packet and flow backends; drawn with "
                     "--seed; the analytic backend notes it ignores it), e.g. 20us; 0: none",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.startJitter = UnitParser::ParseDuration(n, v);
                     }));
    o.push_back(Make("sampleSteps",
                     OptionScope::JOB,
                     "",
                     "true",
                     "Draw each step from the profile's recorded steps",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.sampleSteps = UnitParser::ParseBool(n, v);
                     }));
}

/// Fabric options (doc/reference/fabric.rst): topology, placement, leaf-spine and fat-tree sizes.
void
AddFabric(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("topology",
                     OptionScope::SCENARIO,
                     "",
                     "star",
                     "Fabric: star, leafspine, fattree or a JSON file",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.scenario.topology = v;
                     }));
    o.push_back(Make("placement",
                     OptionScope::JOB,
                     "",
                     "packed",
                     "Hosts of the workers then servers: packed, spread, random or a list 0,4,8",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.scenario.placement = v;
                     }));
    o.push_back(Make("leaves",
                     OptionScope::SCENARIO,
                     "fabric",
                     "4",
                     "leafspine: leaf switches",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.leaves = UnitParser::ParseUnsigned(n, v, 1, 4096);
                     }));
    o.push_back(Make("spines",
                     OptionScope::SCENARIO,
                     "fabric",
                     "2",
                     "leafspine: spine switches",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.spines = UnitParser::ParseUnsigned(n, v, 1, 4096);
                     }));
    o.push_back(Make("hostsPerLeaf",
                     OptionScope::SCENARIO,
                     "fabric",
                     "0",
                     "leafspine: hosts per leaf (0: enough for all)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.hostsPerLeaf = UnitParser::ParseUnsigned(n, v, 0, 65536);
                     }));
    o.push_back(Make("fatTreeK",
                     OptionScope::SCENARIO,
                     "fabric",
                     "4",
                     "fattree: switch radix k (even; k^3/4 hosts)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.fatTreeK = UnitParser::ParseUnsigned(n, v, 2, 64);
                     }));
    o.push_back(Make("uplinkRate",
                     OptionScope::SCENARIO,
                     "fabric",
                     "0",
                     "Switch-switch link rate (0: --nicRate)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.uplinkRate = UnitParser::ParseRateOrZero(n, v);
                     }));
    o.push_back(Make("ecmpSeed",
                     OptionScope::SCENARIO,
                     "fabric",
                     "1",
                     "Seed of the per-flow ECMP hash",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.ecmpSeed = UnitParser::ParseUnsigned(n, v, 0, UINT64_MAX);
                     }));
}

/// Ring AllReduce, tensor fusion and multi-GPU options.
void
AddRing(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("preset",
                     OptionScope::JOB,
                     "",
                     "",
                     "Ring tensor-fusion defaults: ddp (25 MiB buckets, first 1 MiB), horovod "
                     "(<= 0.20: 64 MiB, 5 ms cycle) or horovod-0.21 (128 MiB, 1 ms); --bucket, "
                     "--firstBucket and --fusionTimeout override it",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.ApplyPreset(n, v);
                     }));
    o.push_back(Make("bucket",
                     OptionScope::JOB,
                     "",
                     "",
                     "Ring fusion threshold Q: bytes (0 = one AllReduce per layer, 25MB, 25MiB) "
                     "or inf (one bucket after backward); default 0",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.bucketBytes = UnitParser::ParseBytes(n, v);
                     }));
    o.push_back(
        Make("firstBucket",
             OptionScope::JOB,
             "",
             "",
             "Size of the first ring bucket (0 = Q), e.g. 1MiB",
             [](RunRequest& r, auto& n, auto& v)
             {
                 r.scenario.firstBucketBytes = UnitParser::ParseBytes(n, v);
                 if (r.scenario.firstBucketBytes == UnitParser::UNLIMITED)
                 {
                     throw Bad(n, "'inf'", "a size in bytes, or 0 for the same size as --bucket");
                 }
             }));
    o.push_back(Make("fusionTimeout",
                     OptionScope::JOB,
                     "",
                     "",
                     "Ring bucket also closes this long after its first gradient (0 = never)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.fusionTimeout = UnitParser::ParseDuration(n, v);
                     }));
    o.push_back(
        Make("reductionRate",
             OptionScope::JOB,
             "",
             "0",
             "Ring: bytes/s of reducing a received chunk (0 = free)",
             [](RunRequest& r, auto& n, auto& v)
             {
                 // Below 1 kB/s a chunk's reduction takes longer than any training
                 // step worth simulating (1e-300 made the step time infinite).
                 const char* expected = "0 (free) or bytes/s from 1e3 to 1e15, e.g. 5e9";
                 const double rate = UnitParser::ParseReal(n, v, 0, 1e15, expected);
                 if (rate > 0 && rate < 1e3)
                 {
                     UnitParser::ParseReal(n, v, 1e3, 1e15, expected); // throws, naming the range
                 }
                 r.scenario.reductionRate = rate;
             }));
}

/// Options of the AllReduce algorithm and of the GPUs inside a node.
void
AddCollective(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("collective",
                     OptionScope::JOB,
                     "", // the flow backend refuses what it does not model
                     "ring",
                     "AllReduce algorithm of --arch=ring: ring, halving-doubling (Rabenseifner) "
                     "or tree (NCCL's double binary tree); the flow backend refuses the last two",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.scenario.collective = v; // TrainingScenario::Validate checks it
                     }));
    o.push_back(Make("treeChunk",
                     OptionScope::JOB,
                     "", // the flow backend refuses what it does not model
                     "512KiB",
                     "Pipelining unit of --collective=tree in bytes, e.g. 512KiB (NCCL's order "
                     "of magnitude)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.treeChunkBytes = UnitParser::ParseBytes(n, v);
                     }));
    o.push_back(Make("gpusPerNode",
                     OptionScope::JOB,
                     "",
                     "1",
                     "GPUs per node G (intra-node reduce and broadcast)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.gpusPerNode = UnitParser::ParseUnsigned(n, v, 1, 1024);
                     }));
    o.push_back(Make("intraBw",
                     OptionScope::JOB,
                     "",
                     "300Gbps",
                     "Intra-node interconnect rate, e.g. 300Gbps (NVLink)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.intraBandwidth = UnitParser::ParseDataRate(n, v);
                     }));
    o.push_back(Make("intraLatency",
                     OptionScope::JOB,
                     "",
                     "5us",
                     "Intra-node per-operation latency, e.g. 5us",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.intraLatency = UnitParser::ParseDuration(n, v);
                     }));
}

/// The host-model options (--hostModel=linux and the settings it turns on).
void
AddHostModel(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("hostModel",
                     OptionScope::SCENARIO,
                     "packet",
                     "ns3",
                     "Host TCP: ns3, or linux (Linux CUBIC/Reno for --tcp=TcpCubic/TcpNewReno, "
                     "--delayedAck, --bufferAutotuning, --tcpSmallQueues, --startJitter=20us; "
                     "applied before the other options, which override it)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.ApplyHostModel(n, v);
                     }));
    o.push_back(Make("bufferAutotuning",
                     OptionScope::SCENARIO,
                     "packet linux flow-window",
                     "false",
                     "Linux socket-buffer autotuning (tcp_wmem/tcp_rmem) instead of fixed "
                     "buffers (packet: per socket; flow: its window limit)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.bufferAutotuning = UnitParser::ParseBool(n, v);
                     }));
    o.push_back(Make("delayedAck",
                     OptionScope::SCENARIO,
                     "packet",
                     "false",
                     "Linux's delayed ACKs (one per two segments, or after 40 ms) instead of an "
                     "ACK per segment (packet backend)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.delayedAck = UnitParser::ParseBool(n, v);
                     }));
    o.push_back(Make("tcpSmallQueues",
                     OptionScope::SCENARIO,
                     "packet",
                     "false",
                     "Linux's TCP small queues: each socket keeps about 1 ms of its pacing rate "
                     "(at least 2 skbs, 64 KiB each at datacenter RTTs) in its host's NIC queue, "
                     "the rest waits in the socket (packet backend)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.tcpSmallQueues = UnitParser::ParseBool(n, v);
                     }));
}

/// Network and congestion options.
void
AddNetwork(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("nicRate",
                     OptionScope::SCENARIO,
                     "",
                     "10Gbps",
                     "Link rate of every NIC, e.g. 1Gbps, 10Gbps, 25Gbps",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.nicRate = UnitParser::ParseDataRate(n, v);
                     }));
    o.push_back(Make("flowCap",
                     OptionScope::SCENARIO,
                     "",
                     "0",
                     "Per-flow rate cap (TCP pacing), 0 for none, e.g. 10Gbps",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.flowCap = UnitParser::ParseRateOrZero(n, v);
                     }));
    o.push_back(Make("linkDelay",
                     OptionScope::SCENARIO,
                     "packet linux analytic flow-window",
                     "10us",
                     "One-way delay of each link, e.g. 10us",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.linkDelay = UnitParser::ParseDuration(n, v);
                     }));
    o.push_back(Make("queue",
                     OptionScope::SCENARIO,
                     "packet linux flow-window",
                     "1000p",
                     "Device queue size, e.g. 1000p or 1500000B",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         UnitParser::ParseQueueSize(n, v);
                         r.scenario.queueSize = v;
                     }));
    o.push_back(Make("hostQueue",
                     OptionScope::SCENARIO,
                     "packet linux flow-window",
                     "",
                     "Buffer of the hosts' NICs (default: --queue, which then sets every buffer)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         UnitParser::ParseQueueSize(n, v);
                         r.scenario.hostQueueSize = v;
                     }));
}

/// Options of the queue discipline and the hosts' TCP.
void
AddTransport(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("queueDisc",
                     OptionScope::SCENARIO,
                     "packet",
                     "none",
                     "Queue disc on every device: none, FqCoDelQueueDisc, ...",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.scenario.queueDisc = v;
                     }));
    o.push_back(Make("tcp",
                     OptionScope::SCENARIO,
                     "packet linux",
                     "TcpCubic",
                     "TCP congestion control: TcpCubic, TcpNewReno, TcpBbr, ...",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.scenario.tcpVariant = v;
                     }));
    o.push_back(Make("mtu",
                     OptionScope::SCENARIO,
                     "",
                     "1500",
                     "MTU in bytes (1500 or 9000)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.mtu = UnitParser::ParseUnsigned(n, v, 576, 9000);
                     }));
    o.push_back(Make("socketBuffer",
                     OptionScope::SCENARIO,
                     "packet linux flow-window",
                     "0",
                     "TCP send buffer of every training socket in bytes (0: automatic rule)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.sendBufferBytes = UnitParser::ParseUnsigned(n, v, 0, 1u << 30);
                     }));
    o.push_back(Make("minRto",
                     OptionScope::SCENARIO,
                     "packet linux",
                     "200ms",
                     "TCP minimum retransmission timeout, e.g. 200ms, 1ms",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.minRto = UnitParser::ParseTime(n, v);
                     }));
}

/// Congestion options of the packet level (doc/reference/congestion.rst).
void
AddCongestion(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("ecn",
                     OptionScope::SCENARIO,
                     "packet",
                     "false",
                     "ECN in TCP and in queue discs that can mark",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.ecn = UnitParser::ParseBool(n, v);
                     }));
    o.push_back(Make("crossTraffic",
                     OptionScope::SCENARIO,
                     "packet",
                     "none",
                     "Background flows (packet backend): none, bulk or onoff",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.scenario.crossTraffic = v;
                     }));
    o.push_back(Make("crossFlows",
                     OptionScope::SCENARIO,
                     "packet",
                     "1",
                     "Cross flows, one extra host each",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.crossFlows = UnitParser::ParseUnsigned(n, v, 1, 64);
                     }));
    o.push_back(Make("crossRate",
                     OptionScope::SCENARIO,
                     "packet",
                     "0",
                     "onoff: mean load of all cross flows together, e.g. 5Gbps",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.crossRate = UnitParser::ParseRateOrZero(n, v);
                     }));
    o.push_back(Make("crossTarget",
                     OptionScope::SCENARIO,
                     "packet",
                     "server",
                     "Receiver of the cross flows: server or worker",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.scenario.crossTarget = v;
                     }));
    o.push_back(Make("crossProtocol",
                     OptionScope::SCENARIO,
                     "packet",
                     "udp",
                     "onoff: udp or tcp (bulk is TCP)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.scenario.crossProtocol = v;
                     }));
}

/**
 * \brief Check backend settings against the attributes they end in, when they are read rather
 * than when a backend is created: every registered backend takes them (Configure) on a scratch
 * instance, so a value an attribute's checker refuses, or a sharing name the flow backend does
 * not know, is a TrainingInputError naming the option even if that backend is not run.
 * \param settings the settings so far
 */
void
CheckSettings(const BackendSettings& settings)
{
    for (const auto& entry : TrainingBackendRegistry::GetEntries())
    {
        TrainingBackendRegistry::Create(entry.name)->Configure(settings);
    }
}

/// Backend choice and the backends' own knobs (typed values, RunRequest::settings).
void
AddBackend(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("backend",
                     OptionScope::BACKEND,
                     "",
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
    o.push_back(Make("sharing",
                     OptionScope::BACKEND,
                     "flow",
                     "ps",
                     "Flow backend link sharing: " + SharingModelRegistry::ListNames(),
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.settings.sharing = v;
                         CheckSettings(r.settings);
                     }));
    o.push_back(Make("windowModel",
                     OptionScope::BACKEND,
                     "flow",
                     "false",
                     "Flow backend, parameter servers: limit every connection to its socket "
                     "buffer per round trip (needs --sharing=ps, capped or calibrated)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.settings.windowModel = UnitParser::ParseBool(n, v);
                     }));
    o.push_back(Make("incumbentWeight",
                     OptionScope::BACKEND,
                     "flow",
                     "",
                     "--sharing=calibrated: weight of a younger cohort of flows, 0..1 (1 = ps)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.settings.incumbentWeight
                             = UnitParser::ParseReal(n, v, 0, 1, "a weight from 0 to 1");
                         CheckSettings(r.settings);
                     }));
    o.push_back(
        Make("cohortWindow",
             OptionScope::BACKEND,
             "flow",
             "",
             "--sharing=calibrated: flows starting within this time of a cohort's first join it",
             [](RunRequest& r, auto& n, auto& v)
             {
                 r.settings.cohortWindow = UnitParser::ParseDuration(n, v);
                 CheckSettings(r.settings);
             }));
    o.push_back(Make("rhoT",
                     OptionScope::BACKEND,
                     "analytic",
                     "",
                     "Analytic backend: threshold rho_T of 000 Eq. (5) (default 0.6)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.settings.rhoThreshold
                             = UnitParser::ParseReal(n, v, 0, 1, "a utilisation from 0 to 1");
                         CheckSettings(r.settings);
                     }));
}

/// Options of the linux backend (real TCP, real time).
void
AddLinux(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("dilation",
                     OptionScope::BACKEND,
                     "packet linux",
                     "",
                     "Time dilation D >= 1 (links at rate/D, compute x D, results scaled back): "
                     "linux backend, e.g. 40 for 10 Gbps; packet backend: simulate the network "
                     "that linux run executes (TCP timers not scaled), for a like-for-like "
                     "comparison",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.settings.dilation
                             = UnitParser::ParseReal(n, v, 1, 10000, "a factor from 1 to 10000");
                         CheckSettings(r.settings);
                     }));
    o.push_back(Make("repeat",
                     OptionScope::BACKEND,
                     "linux",
                     "",
                     "Linux backend: runs per point; reports the median-throughput run with the "
                     "min, max and spread in its inputs and notes",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.settings.repeat = UnitParser::ParseUnsigned(n, v, 1, 1000);
                         CheckSettings(r.settings);
                     }));
}

/// Input and output options.
void
AddOutput(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("profile",
                     OptionScope::JOB,
                     "",
                     ScenarioOptions::GetTrace("googlenet-titanx-pascal-b16.json"),
                     "Training profile JSON (traces/README.md)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.profile = v;
                     }));
    o.push_back(Make("output",
                     OptionScope::OUTPUT,
                     "",
                     "",
                     "Write the JSON result here",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.output = v;
                     }));
    o.push_back(Make("csv",
                     OptionScope::OUTPUT,
                     "",
                     "",
                     "With a --workers sweep: throughput-vs-workers CSV (default sweep.csv) and a "
                     "gnuplot script CSV.gp",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.csv = v;
                     }));
    o.push_back(Make("csvRow",
                     OptionScope::OUTPUT,
                     "",
                     "",
                     "Append one CSV row per result (scenario, throughput, counters) to this file",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.csvRow = v;
                     }));
    o.push_back(Make("records",
                     OptionScope::OUTPUT,
                     "",
                     "true",
                     "Include per-step and per-transfer records in the JSON",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.records = UnitParser::ParseBool(n, v);
                         r.settings.recordTransfers = r.records;
                     }));
    o.push_back(Make("jobs",
                     OptionScope::OUTPUT,
                     "",
                     "",
                     "Several training jobs on one fabric: a JSON file (or inline JSON text) "
                     "holding a list of job objects of per-job options (doc/reference/fabric.rst); "
                     "the other options are the fabric's",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.jobs = v;
                     }));
    o.push_back(Make("recordsFile",
                     OptionScope::OUTPUT,
                     "",
                     "",
                     "Stream the per-step and per-transfer records to this JSON Lines file "
                     "instead of keeping them (large runs; the JSON output then names the file)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.recordsFile = v;
                     }));
    o.push_back(Make("progress",
                     OptionScope::OUTPUT,
                     "",
                     "true",
                     "Print progress of long packet-level runs to stderr",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.progress = UnitParser::ParseBool(n, v);
                     }));
}

/**
 * \brief A study entry under its own name that parses as a driver entry: the study calls the
 * NIC rate --rate, the flow cap --cap and the link delay --delay (its help, the driver's parser).
 * \param o the table so far (holding the driver's entry)
 * \param name the study's name
 * \param driver the driver's entry
 * \param def the study's default
 * \param help the study's help
 */
void
AddAlias(std::vector<ScenarioOptions::Option>& o,
         const std::string& name,
         const std::string& driver,
         const std::string& def,
         const std::string& help)
{
    const auto entry = std::find_if(o.begin(),
                                    o.end(),
                                    [&driver](const ScenarioOptions::Option& e)
                                    {
                                        return e.name == driver;
                                    });
    NS_ABORT_MSG_IF(entry == o.end(), "no driver option --" << driver);
    o.push_back(Make(name, OptionScope::STUDY, "", def, help, entry->parse));
}

/// The sharing study's flows: how many, how large, when they start.
void
AddStudyWorkload(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("flows",
                     OptionScope::STUDY,
                     "",
                     "2",
                     "Number of flows N (1..64)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.study.flows = UnitParser::ParseUnsigned(n, v, 1, 64);
                     }));
    o.push_back(Make("size",
                     OptionScope::STUDY,
                     "",
                     "0",
                     "Bytes per flow S (0: use --sizeBdp; e.g. 1000000, 30MB)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.study.size = UnitParser::ParseBytes(n, v);
                         if (r.study.size > 1000000000000ULL)
                         {
                             throw TrainingInputError(n + ": '" + v
                                                      + "' out of range (expected 1..1e12)");
                         }
                     }));
    o.push_back(Make("sizeBdp",
                     OptionScope::STUDY,
                     "",
                     "10",
                     "Bytes per flow in units of the BDP (goodput x 4 x delay)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.study.sizeBdp
                             = UnitParser::ParseReal(n, v, 1e-9, 1e9, "a number of BDPs > 0");
                     }));
    o.push_back(Make("stagger",
                     OptionScope::STUDY,
                     "",
                     "0s",
                     "Flow i starts at i x stagger",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.study.stagger = UnitParser::ParseDuration(n, v);
                     }));
}

/// The sharing study's star (its names for the driver's NIC rate, flow cap and link delay) and
/// senders.
void
AddStudyNetwork(std::vector<ScenarioOptions::Option>& o)
{
    AddAlias(o,
             "rate",
             "nicRate",
             "10Gbps",
             "Link rate (every link; the receiver's is the bottleneck)");
    AddAlias(o, "cap", "flowCap", "0", "Per-flow cap by TCP pacing (0: none)");
    AddAlias(o, "delay", "linkDelay", "10us", "One-way delay of each link (RTT = 4 x delay)");
    o.push_back(Make("sharedQueue",
                     OptionScope::STUDY,
                     "",
                     "false",
                     "Every flow leaves one sending host through its one NIC queue "
                     "(as a multi-flow host); false: one host and NIC per flow",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.study.sharedQueue = UnitParser::ParseBool(n, v);
                     }));
    o.push_back(Make("stack",
                     OptionScope::STUDY,
                     "",
                     "ns3",
                     "ns3 (simulated TCP) or linux (kernel TCP in namespaces, root)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         if (v != "ns3" && v != "linux")
                         {
                             throw TrainingInputError(n + ": '" + v + "' (expected ns3 or linux)");
                         }
                         r.study.stack = v;
                     }));
    o.push_back(Make("linuxSysctl",
                     OptionScope::STUDY,
                     "",
                     "",
                     "--stack=linux: sysctls set in every namespace before the run, "
                     "name=value[,name=value] (e.g. net.ipv4.tcp_tso_rtt_log=0)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.study.sysctls = LinuxTestbed::ParseSysctls(n, v);
                     }));
}

/// The sharing study's measurement and output.
void
AddStudyOutput(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("sample",
                     OptionScope::STUDY,
                     "",
                     "0s",
                     "Sampling interval of received bytes (0s: RTT/4)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.study.sample = UnitParser::ParseDuration(n, v);
                     }));
    o.push_back(Make("baseline",
                     OptionScope::STUDY,
                     "",
                     "true",
                     "Run one flow alone first and add its overhead over S/C to both models",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.study.baseline = UnitParser::ParseBool(n, v);
                     }));
    o.push_back(Make("maxSimTime",
                     OptionScope::STUDY,
                     "",
                     "0s",
                     "Simulated time limit (0s: 20 x N S / C + 10 s)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.study.maxSimTime = UnitParser::ParseDuration(n, v);
                     }));
    o.push_back(Make("csv",
                     OptionScope::STUDY,
                     "",
                     "",
                     "Append one summary row to this CSV file",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.study.csv = v;
                     }));
    o.push_back(Make("timeseries",
                     OptionScope::STUDY,
                     "",
                     "",
                     "Write per-flow rate over time (time_s,flow,gbps) to this file",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.study.timeseries = v;
                     }));
    o.push_back(Make("flowTimes",
                     OptionScope::STUDY,
                     "",
                     "",
                     "Write one row per flow (flow,start_s,first_byte_s,end_s,bytes) to this CSV "
                     "file",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.study.flowTimes = v;
                     }));
}

/// The validation runner's matrix, folders, programs and the internal --run-job.
void
AddRunnerFiles(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("matrix",
                     OptionScope::RUNNER,
                     "",
                     "",
                     "Matrix JSON file, e.g. validation/matrix.json",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.runner.matrixFile = v;
                     }));
    o.push_back(Make("out",
                     OptionScope::RUNNER,
                     "",
                     "validation-out",
                     "Output folder (results.csv, error tables, figures, jobs/)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.runner.outDir = v;
                     }));
    o.push_back(Make("sim",
                     OptionScope::RUNNER,
                     "",
                     "",
                     "The driver (default: distributed-training-sim next to this program)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.runner.sim = v;
                     }));
    o.push_back(Make("root",
                     OptionScope::RUNNER,
                     "",
                     "",
                     "Folder of relative profile paths (default: the matrix file's repository)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.runner.root = v;
                     }));
    o.push_back(Make("run-job",
                     OptionScope::RUNNER,
                     "",
                     "",
                     "Internal: run the one job described by this job file",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.runner.runJob = v;
                     }));
}

/// The validation runner's sweep engine: where and how many jobs run, reuse and merge.
void
AddRunnerEngine(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("jobs",
                     OptionScope::RUNNER,
                     "",
                     "", // the program's: the number of cores (ValidationRunner::ParseOptions)
                     "Jobs at a time (default: number of cores; slurm: array throttle)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos
                             || v.size() > 4 || std::stoul(v) < 1)
                         {
                             throw TrainingInputError(
                                 n + ": cannot parse '" + v
                                 + "' (expected a whole number from 1 to 9999)");
                         }
                         r.runner.engine.slots = static_cast<uint32_t>(std::stoul(v));
                     }));
    o.push_back(Make("engine",
                     OptionScope::RUNNER,
                     "",
                     "local",
                     "local (processes here), parallel (GNU parallel) or slurm (writes a "
                     "job-array script and a merge step)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.runner.engine.engine = v; // SweepEngine checks it
                     }));
    o.push_back(Make("sshloginfile",
                     OptionScope::RUNNER,
                     "",
                     "",
                     "--engine=parallel: GNU parallel's --sshloginfile (hosts sharing OUT and the "
                     "build by path; ':' is this machine)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.runner.engine.sshLoginFile = v;
                     }));
    o.push_back(Make("resume",
                     OptionScope::RUNNER,
                     "",
                     "false",
                     "Reuse the results in OUT/jobs of jobs whose argument list is unchanged",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.runner.engine.resume = UnitParser::ParseBool(n, v);
                     }));
    o.push_back(Make("merge",
                     OptionScope::RUNNER,
                     "",
                     "false",
                     "Run nothing: merge the results in OUT/jobs (the Slurm merge step); a "
                     "missing result is an error",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.runner.merge = UnitParser::ParseBool(n, v);
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

/// \return a value the schema checked as a scalar, as option text (whole numbers without ".0")
std::string
JsonText(const nlohmann::json& v)
{
    if (v.is_string())
    {
        return v.get<std::string>();
    }
    if (v.is_number_float())
    {
        std::ostringstream os;
        os.precision(17);
        os << v.get<double>();
        return os.str();
    }
    return v.dump(); // true, false or a whole number
}

/// \return the schema of a JSON object of options: every option of the table, a scalar each
/// (--jobs also takes its list inline)
const JsonSchema&
OptionsSchema()
{
    static const JsonSchema schema = []
    {
        JsonSchema fields;
        for (const auto& option : ScenarioOptions::GetOptions())
        {
            if (!ScenarioOptions::IsDriverScope(option.scope))
            {
                continue; // the study's and the runner's own options are not scenario keys
            }
            fields.push_back({option.name,
                              JsonField::OPTIONAL,
                              option.name == "jobs"
                                  ? JsonSpec{}
                                  : JsonSpec::Scalar("a number, a boolean or a string"),
                              {}});
        }
        return fields;
    }();
    return schema;
}

} // namespace

RunContext
RunRequest::MakeRunContext(std::shared_ptr<TrainingResult::RecordSink> records) const
{
    RunContext context;
    context.records = std::move(records);
    context.progress = progress ? &std::cerr : nullptr;
    return context;
}

const std::vector<ScenarioOptions::Option>&
ScenarioOptions::GetOptions()
{
    static const std::vector<Option> options = []
    {
        std::vector<Option> o;
        AddOutput(o);
        AddArchitecture(o);
        AddSchedule(o);
        AddSteps(o);
        AddNetwork(o);
        AddTransport(o);
        AddHostModel(o);
        AddCongestion(o);
        AddFabric(o);
        AddRing(o);
        AddCollective(o);
        AddBackend(o);
        AddLinux(o);
        AddStudyWorkload(o);
        AddStudyNetwork(o);
        AddStudyOutput(o);
        AddRunnerFiles(o);
        AddRunnerEngine(o);
        return o;
    }();
    return options;
}

void
ScenarioOptions::Option::Apply(RunRequest& request, const std::string& value) const
{
    parse(request, "--" + name, value);
}

bool
ScenarioOptions::IsDriverScope(OptionScope scope)
{
    return scope != OptionScope::STUDY && scope != OptionScope::RUNNER;
}

const ScenarioOptions::Option*
ScenarioOptions::Find(const std::string& name)
{
    for (const auto& o : GetOptions())
    {
        if (o.name == name && IsDriverScope(o.scope))
        {
            return &o;
        }
    }
    return nullptr;
}

const ScenarioOptions::Option*
ScenarioOptions::Find(const std::string& name, OptionScope scope)
{
    for (const auto& o : GetOptions())
    {
        if (o.name == name && o.scope == scope)
        {
            return &o;
        }
    }
    return nullptr;
}

const ScenarioOptions::Option&
ScenarioOptions::Get(const std::string& name, OptionScope own)
{
    const Option* o = IsDriverScope(own) ? nullptr : Find(name, own);
    o = o ? o : Find(name);
    NS_ABORT_MSG_IF(!o, "no option --" << name << " in the table");
    return *o;
}

RunRequest
ScenarioOptions::MakeDefault()
{
    RunRequest r;
    for (const auto& o : GetOptions())
    {
        if (!o.defaultValue.empty() && IsDriverScope(o.scope))
        {
            o.Apply(r, o.defaultValue);
        }
    }
    return r;
}

namespace
{

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

std::vector<std::string>
ScenarioOptions::GetNames(OptionScope scope)
{
    std::vector<std::string> names;
    for (const auto& o : GetOptions())
    {
        if (o.scope == scope)
        {
            names.push_back(o.name);
        }
    }
    return names;
}

std::string
ScenarioOptions::GetScopeName(OptionScope scope)
{
    switch (scope)
    {
        case OptionScope::SCENARIO:
            return "scenario";
        case OptionScope::JOB:
            return "job";
        case OptionScope::BACKEND:
            return "backend";
        case OptionScope::OUTPUT:
            return "output";
        case OptionScope::STUDY:
            return "study";
        case OptionScope::RUNNER:
            return "runner";
    }
    return "?";
}

std::string
ScenarioOptions::GetScope(const std::string& name)
{
    const Option* o = Find(name);
    return o ? o->models : "";
}

std::vector<std::string>
ScenarioOptions::GetIgnored(const RunRequest& request, const std::string& backend)
{
    const TrainingScenario& s = request.scenario;
    const bool flowWindow
        = request.settings.windowModel && s.architecture == TrainingScenario::PARAMETER_SERVER;
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

namespace
{

/// Set an option of the table: its value checked as text, parsed and marked as given.
void
SetOption(RunRequest& request, const ScenarioOptions::Option& option, const std::string& value)
{
    if (!IsUtf8Text(value))
    {
        // Found by fuzzing: such a value reached the JSON result and ended the program there.
        throw Bad("--" + option.name, "value is not UTF-8 text", "printable UTF-8 text");
    }
    option.Apply(request, value);
    request.given.insert(option.name);
}

} // namespace

void
ScenarioOptions::Set(RunRequest& request, const std::string& name, const std::string& value)
{
    const Option* o = Find(name);
    if (!o)
    {
        std::vector<std::string> names;
        for (const auto& option : GetOptions())
        {
            if (IsDriverScope(option.scope))
            {
                names.push_back(option.name);
            }
        }
        throw TrainingInputError("--" + name + ": unknown option ("
                                 + ProgramOptions::Suggestion(name, names) + ")");
    }
    SetOption(request, *o, value);
}

void
ScenarioOptions::Bind(ProgramOptions& cmd,
                      RunRequest& request,
                      OptionScope own,
                      const std::vector<std::string>& names,
                      const std::map<std::string, std::string>& defaults)
{
    for (const std::string& name : names)
    {
        const Option* o = &Get(name, own);
        const auto program = defaults.find(name);
        const std::string def = program == defaults.end() ? o->defaultValue : program->second;
        if (!def.empty())
        {
            o->Apply(request, def);
        }
        cmd.Add(
            name,
            o->help,
            def,
            [&request, o](const std::string& v)
            {
                SetOption(request, *o, v);
            },
            IsPreset(name));
    }
}

void
ScenarioOptions::ApplyJson(const nlohmann::json& object,
                           const std::string& where,
                           RunRequest& request)
{
    // Every key and type is checked before any option is set.
    const SortedJsonObjectReader checked(object,
                                         JsonPlace(where),
                                         OptionsSchema(),
                                         "an option of distributed-training-sim --help");
    for (bool presets : {true, false})
    {
        for (const auto& [key, value] : object.items())
        {
            if (IsPreset(key) != presets)
            {
                continue;
            }
            try
            {
                // --jobs also takes its list inline: the JSON text of the list.
                const bool inlineJobs = value.is_array() || value.is_object();
                Set(request, key, inlineJobs ? value.dump() : JsonText(value));
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
        if (!ScenarioOptions::IsDriverScope(o.scope))
        {
            continue;
        }
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

void
ScenarioOptions::BindProfile(ProgramOptions& cmd, RunRequest& request, const std::string& trace)
{
    Bind(cmd, request, OptionScope::JOB, {"profile"}, {{"profile", GetTrace(trace)}});
}

uint32_t
ScenarioOptions::GetOneWorkerCount(const RunRequest& request)
{
    if (request.workerSweep.size() > 1)
    {
        throw Bad("--workers",
                  "a sweep of " + std::to_string(request.workerSweep.size()) + " values",
                  "one number of workers");
    }
    return request.scenario.workers;
}

std::string
ScenarioOptions::GetTrace(const std::string& file)
{
    return std::string(DT_SOURCE_DIR) + "/traces/" + file;
}

std::vector<uint32_t>
ScenarioOptions::ParseWorkers(const std::string& text)
{
    std::vector<uint32_t> list;
    const auto range = text.find("..");
    if (range != std::string::npos)
    {
        const uint64_t a
            = UnitParser::ParseUnsigned("--workers", text.substr(0, range), 1, MAX_HOSTS);
        const uint64_t b
            = UnitParser::ParseUnsigned("--workers", text.substr(range + 2), 1, MAX_HOSTS);
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
        list.push_back(
            static_cast<uint32_t>(UnitParser::ParseUnsigned("--workers", item, 1, MAX_HOSTS)));
    }
    if (list.empty())
    {
        throw Bad("--workers", "empty", "a number, 1..8 or 1,2,4,8");
    }
    return list;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "option-table.h"

#include "ns3/training-input-error.h"
#include "ns3/unit-parser.h"

namespace ns3
{
namespace option_table
{

namespace
{

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
                     "Architecture: ps or ring (a ring fuses and overlaps as PyTorch DDP does: "
                     "--preset=ddp and --overlap=true unless a fusion option or --overlap is "
                     "given)",
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
                     "",
                     "Overlap communication and computation (true/false); default false for "
                     "ps, true for ring",
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

/// The workers' compute: scale and straggler episodes.
void
AddCompute(std::vector<ScenarioOptions::Option>& o)
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
    o.push_back(Make("slowdown",
                     OptionScope::JOB,
                     "",
                     "",
                     "Straggler episodes (packet and flow backends): worker:start:length:factor, "
                     "several separated by commas, e.g. 2:50ms:200ms:3 (worker 2 computes 3x "
                     "slower from 50 ms for 200 ms), or a JSON array of {worker, start, length, "
                     "factor}",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.slowdown = ComputeSlowdown::ParseEpisodes(n, v);
                     }));
    o.push_back(Make("stragglers",
                     OptionScope::JOB,
                     "",
                     "0",
                     "Random straggler episodes per worker (packet and flow backends, drawn with "
                     "--seed): meanGap:meanLength:factor, e.g. 2s:100ms:2 (exponential gaps and "
                     "lengths); 0: none",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.stragglers = ComputeSlowdown::ParseProcess(n, v);
                     }));
    o.push_back(Make("leave",
                     OptionScope::JOB,
                     "",
                     "",
                     "Async PS workers that leave and rejoin (packet and flow backends): "
                     "worker:start:length, several separated by commas, e.g. 2:1s:500ms (worker 2 "
                     "finishes its step in progress at 1 s, starts none until 1.5 s, then pulls "
                     "the parameters and goes on), or a JSON array of {worker, start, length}",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.leave = WorkerAbsences::Parse(n, v);
                     }));
    o.push_back(Make("workerUpdate",
                     OptionScope::JOB,
                     "",
                     "profile",
                     "Ring workers' optimizer step after the last bucket's AllReduce (as DDP and "
                     "Horovod run it): profile (its worker_update_us; none when it has none, "
                     "with a note), none, or a time, e.g. 5ms (ignored with --arch=ps)",
                     [sc](RunRequest& r, auto& n, auto& v)
                     {
                         sc(r).SetWorkerUpdate(n, v);
                     }));
}

/// The schedule of steps.
void
AddSteps(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("steps",
                     OptionScope::JOB,
                     "",
                     "10",
                     "Steps per worker",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.steps = UnitParser::ParseUnsigned(n, v, 1, MAX_STEPS);
                     }));
    o.push_back(Make("warmup",
                     OptionScope::JOB,
                     "",
                     "2",
                     "Warm-up steps excluded from throughput",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.warmup = UnitParser::ParseUnsigned(n, v, 0, MAX_STEPS);
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

/// Fabric options (doc/reference/fabric.rst): topology and placement.
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
    o.push_back(Make("serverPlacement",
                     OptionScope::JOB,
                     "",
                     "separate",
                     "Parameter servers: separate (hosts of their own) or colocated (server p "
                     "on worker p's host)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.SetServerPlacement(n, v);
                     }));
    o.push_back(Make("linkDown",
                     OptionScope::SCENARIO,
                     "",
                     "",
                     "Link failures (packet and flow backends): link@start[:length], several "
                     "separated by commas, e.g. leaf0->spine0@50ms:200ms (the switch-to-switch "
                     "link, named as in the link report, is down from 50 ms for 200 ms; without "
                     "a length to the end); ECMP routes around it by resilient hashing",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.linkDown = LinkFailures::Parse(n, v);
                     }));
}

/// Leaf-spine and fat-tree sizes (doc/reference/fabric.rst).
void
AddFabricSizes(std::vector<ScenarioOptions::Option>& o)
{
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
                     "--firstBucket and --fusionTimeout override it; a ring without any of "
                     "them uses ddp",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.ApplyPreset(n, v);
                     }));
    o.push_back(Make("bucket",
                     OptionScope::JOB,
                     "",
                     "",
                     "Ring fusion threshold Q: bytes (0 = one AllReduce per layer, 25MB, 25MiB) "
                     "or inf (one bucket after backward); a ring's default: --preset=ddp's",
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
                     "AllReduce algorithm of --arch=ring: ring, halving-doubling (Rabenseifner), "
                     "tree (NCCL's double binary tree), hierarchical (2D ring: inside groups, "
                     "across them, inside again; groups by leaf switch or --groupSize) or nccl "
                     "(per bucket the ring or the tree, whichever the alpha-beta cost model "
                     "finds faster, as NCCL's tuning does)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.scenario.collective = v; // TrainingScenario::Validate checks it
                     }));
    o.push_back(Make("groupSize",
                     OptionScope::JOB,
                     "",
                     "0",
                     "Workers per group of --collective=hierarchical, a divisor of K from 2 to "
                     "K/2 (workers w*g .. w*g+g-1 form a group); 0: the workers under one leaf "
                     "switch",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.scenario.groupSize = UnitParser::ParseUnsigned(n, v, 0, 100000);
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
    o.push_back(Make("writePattern",
                     OptionScope::SCENARIO,
                     "linux",
                     "event-loop",
                     "How the applications write their sockets: event-loop (one thread writes "
                     "every connection) or thread-per-connection (a thread of its own with "
                     "blocking writes per connection, as gRPC and many collective libraries); "
                     "the packet backend's ns-3 applications write in zero time, so both are the "
                     "same there",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         TrainingScenario::CheckWritePattern(n, v);
                         r.scenario.writePattern = v;
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

} // namespace

void
AddScenarioOptions(std::vector<ScenarioOptions::Option>& o)
{
    AddArchitecture(o);
    AddSchedule(o);
    AddCompute(o);
    AddSteps(o);
    AddNetwork(o);
    AddTransport(o);
    AddHostModel(o);
    AddCongestion(o);
    AddFabric(o);
    AddFabricSizes(o);
    AddRing(o);
    AddCollective(o);
}

} // namespace option_table
} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-scenario.h"

#include "training-input-error.h"
#include "training-profile.h"
#include "training-result.h"
#include "unit-parser.h"

#include "ns3/allreduce-schedule.h"
#include "ns3/fabric-topology.h"
#include "ns3/log.h"
#include "ns3/queue-size.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingScenario");

namespace
{

/// The range of --computeScale (see SetComputeScale).
constexpr double kMinComputeScale = 1e-6;
/// The range of --computeScale.
constexpr double kMaxComputeScale = 1e6;

[[noreturn]] void
Fail(const std::string& option, const std::string& what, const std::string& expected)
{
    throw TrainingInputError(option + ": " + what + " (expected " + expected + ")");
}

/// Architecture, mode, ring fusion and intra-node knobs (TrainingScenario::ToJson).
void
ArchitectureToJson(const TrainingScenario& s, nlohmann::ordered_json& j)
{
    j["arch"] = s.GetArchitectureName();
    j["mode"] = s.GetModeName();
    j["workers"] = s.workers;
    j["servers"] = s.servers;
    j["overlap"] = s.overlap;
    j["order"] = s.GetOrderName();
    j["window_bytes"] = s.windowBytes;
    j["partition"] = s.GetPartitionName();
    if (s.IsColocated())
    {
        j["server_placement"] = s.GetServerPlacementName(); // (separate prints as before)
    }
    std::vector<double> scales;
    for (uint32_t w = 0; w < s.workers; ++w)
    {
        scales.push_back(s.GetComputeScale(w));
    }
    j["compute_scale"] = scales;
    if (s.bucketBytes == TrainingScenario::UNLIMITED_BUCKET)
    {
        j["bucket_bytes"] = "unlimited";
    }
    else
    {
        j["bucket_bytes"] = s.bucketBytes;
    }
    j["first_bucket_bytes"] = s.firstBucketBytes;
    j["fusion_timeout_s"] = s.fusionTimeout.GetSeconds();
    j["reduction_rate_bytes_per_s"] = s.reductionRate;
    j["gpus_per_node"] = s.gpusPerNode;
    j["intra_bandwidth_bps"] = s.intraBandwidth.GetBitRate();
    j["intra_latency_s"] = s.intraLatency.GetSeconds();
    if (s.collective != "ring")
    {
        j["collective"] = s.collective; // (ring scenarios print as before)
        j["tree_chunk_bytes"] = s.treeChunkBytes;
    }
    if (s.workerUpdateSource != TrainingScenario::PROFILE_WORKER_UPDATE)
    {
        j["worker_update"] = s.GetWorkerUpdateName(); // (the default prints as before)
    }
    if (s.collective == "hierarchical")
    {
        j["group_size"] = s.groupSize;
    }
}

/// Link, queue, TCP and host-model knobs (TrainingScenario::ToJson).
void
NetworkToJson(const TrainingScenario& s, nlohmann::ordered_json& j)
{
    j["nic_rate_bps"] = s.nicRate.GetBitRate();
    j["flow_cap_bps"] = s.flowCap.GetBitRate();
    j["link_delay_s"] = s.linkDelay.GetSeconds();
    j["queue"] = s.queueSize;
    j["queue_disc"] = s.queueDisc;
    j["tcp"] = s.tcpVariant;
    j["mtu"] = s.mtu;
    j["send_buffer_bytes"] = s.sendBufferBytes;
    j["host_queue"] = s.hostQueueSize.empty() ? s.queueSize : s.hostQueueSize;
    j["min_rto_s"] = s.minRto.GetSeconds();
    j["ecn"] = s.ecn;
    if (s.hostModel != "ns3" || s.bufferAutotuning || s.delayedAck)
    {
        // (ns-3 host scenarios print as before.)
        j["host_model"] = s.hostModel;
        j["buffer_autotuning"] = s.bufferAutotuning;
        j["delayed_ack"] = s.delayedAck;
    }
    if (s.tcpSmallQueues)
    {
        j["tcp_small_queues"] = true; // (scenarios without it print as before)
    }
    if (s.writePattern != "event-loop")
    {
        j["write_pattern"] = s.writePattern; // (the default prints as before)
    }
    j["cross_traffic"] = s.crossTraffic;
    if (s.crossTraffic != "none")
    {
        j["cross_flows"] = s.crossFlows;
        j["cross_rate_bps"] = s.crossRate.GetBitRate();
        j["cross_target"] = s.crossTarget;
        j["cross_protocol"] = s.crossTraffic == "bulk" ? "tcp" : s.crossProtocol;
    }
}

/// Fabric knobs; star scenarios print as before fabrics existed (TrainingScenario::ToJson).
void
FabricToJson(const TrainingScenario& s, nlohmann::ordered_json& j)
{
    if (s.topology == "star")
    {
        return;
    }
    j["topology"] = s.topology;
    j["placement"] = s.placement;
    if (s.topology == "leafspine")
    {
        j["leaves"] = s.leaves;
        j["spines"] = s.spines;
        j["hosts_per_leaf"] = s.hostsPerLeaf;
    }
    if (s.topology == "fattree")
    {
        j["fat_tree_k"] = s.fatTreeK;
    }
    j["uplink_rate_bps"] = (s.uplinkRate.GetBitRate() > 0 ? s.uplinkRate : s.nicRate).GetBitRate();
    j["ecmp_seed"] = s.ecmpSeed;
}

/// Steps, seed and start jitter (TrainingScenario::ToJson).
void
RunToJson(const TrainingScenario& s, nlohmann::ordered_json& j)
{
    j["steps"] = s.steps;
    j["warmup"] = s.warmup;
    j["seed"] = s.seed;
    j["sample_steps"] = s.sampleSteps;
    if (s.startJitter.IsStrictlyPositive())
    {
        j["start_jitter_s"] = s.startJitter.GetSeconds(); // (scenarios without print as before)
    }
    for (const auto& e : s.slowdown) // (scenarios without episodes print as before)
    {
        j["slowdown"].push_back({{"worker", e.worker},
                                 {"start_s", e.start},
                                 {"length_s", e.length},
                                 {"factor", e.factor}});
    }
    for (const auto& w : s.leave) // (scenarios without windows print as before)
    {
        j["leave"].push_back({{"worker", w.worker}, {"start_s", w.start}, {"length_s", w.length}});
    }
    for (const auto& o : s.linkDown) // (scenarios without outages print as before)
    {
        j["link_down"].push_back({{"link", o.link}, {"start_s", o.start}, {"length_s", o.length}});
    }
    if (s.stragglers.IsOn())
    {
        j["stragglers"] = {{"mean_gap_s", s.stragglers.meanGap},
                           {"mean_length_s", s.stragglers.meanLength},
                           {"factor", s.stragglers.factor}};
    }
}

} // namespace

void
TrainingScenario::Validate(const TrainingProfile& profile) const
{
    NS_LOG_FUNCTION(this);
    ValidateArchitecture(profile);
    ValidateNetwork();
    ValidateCrossTraffic();
    ValidateSteps();
    ValidateFabric();
    ValidateGroups();
    ComputeSlowdown::CheckWorkers(slowdown, workers);
    WorkerAbsences::Check(*this);
    if (!linkDown.empty())
    {
        LinkFailures(BuildFabric(), linkDown); // names the links and checks connectivity
    }
}

/// The most pipelining chunks of one tree's half of a bucket (--treeChunk).
constexpr uint64_t kMaxTreeChunks = 65536;

void
TrainingScenario::ValidateCollective() const
{
    AllReduceSchedule::Algorithm algorithm;
    if (!AllReduceSchedule::FromName(collective, algorithm))
    {
        std::string names;
        for (const std::string& name : AllReduceSchedule::GetNames())
        {
            names += (names.empty() ? "" : ", ") + name;
        }
        Fail("--collective", "'" + collective + "'", "one of " + names);
    }
    if (groupSize != 0 && collective != "hierarchical")
    {
        Fail("--groupSize",
             std::to_string(groupSize) + " with --collective=" + collective,
             "--collective=hierarchical: the groups are the hierarchical ring's");
    }
    if (collective != "ring" && architecture != RING_ALLREDUCE)
    {
        Fail("--collective",
             collective + " with --arch=" + GetArchitectureName(),
             "--arch=ring: the collective is the AllReduce of the ring architecture");
    }
    if (treeChunkBytes == 0 || treeChunkBytes == UNLIMITED_BUCKET)
    {
        Fail("--treeChunk",
             treeChunkBytes == 0 ? "0" : "unlimited",
             "a size in bytes >= 1, e.g. 512KiB");
    }
}

void
TrainingScenario::ValidateGroups() const
{
    if (collective != "hierarchical")
    {
        return;
    }
    if (groupSize == 1 || (groupSize != 0 && groupSize >= workers))
    {
        Fail("--groupSize",
             std::to_string(groupSize) + " with " + std::to_string(workers) + " workers",
             "2 .. K/2 workers per group, a divisor of K (1 or K is the flat ring: "
             "--collective=ring)");
    }
    const std::string from
        = groupSize != 0 ? "--groupSize" : "--topology=" + topology + " (a group per leaf switch)";
    AllReduceSchedule::CheckGroups(GetCollectiveGroups(), from);
}

std::vector<uint32_t>
TrainingScenario::GetCollectiveGroups() const
{
    std::vector<uint32_t> groups;
    if (collective != "hierarchical")
    {
        return groups;
    }
    if (groupSize != 0)
    {
        for (uint32_t w = 0; w < workers; ++w)
        {
            groups.push_back(w / groupSize);
        }
        return groups;
    }
    const FabricTopology fabric = BuildFabric();
    std::map<uint32_t, uint32_t> groupOfRack;
    for (uint32_t w = 0; w < workers; ++w)
    {
        const uint32_t rack = fabric.GetRack(fabric.GetRoleHost(w));
        groups.push_back(groupOfRack.emplace(rack, groupOfRack.size()).first->second);
    }
    return groups;
}

void
TrainingScenario::ValidateServerPlacement() const
{
    if (serverPlacement != COLOCATED_SERVERS)
    {
        return;
    }
    if (architecture != PARAMETER_SERVER)
    {
        Fail("--serverPlacement",
             "colocated with --arch=" + GetArchitectureName(),
             "separate: an AllReduce has no parameter servers to co-locate");
    }
    if (servers > workers)
    {
        Fail("--serverPlacement",
             "colocated with " + std::to_string(servers) + " servers and " + std::to_string(workers)
                 + " workers",
             "--servers <= --workers: one server shard per worker host");
    }
    if (crossTraffic != "none")
    {
        Fail("--serverPlacement",
             "colocated with --crossTraffic=" + crossTraffic,
             "--crossTraffic=none: cross traffic targets a server's host of its own");
    }
}

void
TrainingScenario::ValidateArchitecture(const TrainingProfile& profile) const
{
    if (workers == 0)
    {
        Fail("--workers", "0 workers", "at least 1 worker");
    }
    if (workers > 100000)
    {
        Fail("--workers", std::to_string(workers) + " workers", "at most 100000");
    }
    if (architecture == PARAMETER_SERVER)
    {
        if (servers == 0)
        {
            Fail("--servers", "0 parameter servers", "at least 1 with --arch=ps");
        }
        if (servers > profile.GetNLayers())
        {
            Fail("--servers",
                 std::to_string(servers) + " servers for " + std::to_string(profile.GetNLayers())
                     + " layers",
                 "at most one server per layer");
        }
    }
    if (architecture == RING_ALLREDUCE && mode == ASYNC)
    {
        Fail("--mode", "async with --arch=ring", "sync: ring AllReduce is synchronous");
    }
    ValidateServerPlacement();
    ValidateCollective();
    // Every chunk of every tree is a message of every node's plan: a chunk far below the
    // buckets would build millions of messages and a run that never ends.
    const uint64_t half = (profile.GetTotalParamBytes() + 1) / 2;
    const uint64_t chunks = half / treeChunkBytes + (half % treeChunkBytes != 0);
    if (collective == "tree" && chunks > kMaxTreeChunks)
    {
        Fail("--treeChunk",
             std::to_string(treeChunkBytes) + " bytes cut half of a "
                 + std::to_string(profile.GetTotalParamBytes()) + "-byte model into "
                 + std::to_string(chunks) + " chunks",
             "at most " + std::to_string(kMaxTreeChunks) + " chunks per tree: at least "
                 + std::to_string(half / kMaxTreeChunks + 1) + " bytes");
    }
    if (computeScale.size() > 1 && computeScale.size() != workers)
    {
        Fail("--computeScale",
             std::to_string(computeScale.size()) + " values for " + std::to_string(workers)
                 + " workers",
             "one value, or one per worker");
    }
    for (double s : computeScale)
    {
        if (!(s >= kMinComputeScale && s <= kMaxComputeScale))
        {
            Fail("--computeScale",
                 "value " + TrainingInputError::Number(s) + " out of range",
                 "values from 1e-6 to 1e6");
        }
    }
}

void
TrainingScenario::ValidateNetwork() const
{
    if (nicRate.GetBitRate() == 0)
    {
        Fail("--nicRate", "0 bps", "a positive rate, e.g. 10Gbps");
    }
    if (flowCap.GetBitRate() > nicRate.GetBitRate())
    {
        Fail("--flowCap",
             "cap " + TrainingInputError::Number(flowCap.GetBitRate() / 1e9)
                 + " Gbps above the NIC rate "
                 + TrainingInputError::Number(nicRate.GetBitRate() / 1e9) + " Gbps",
             "0 (no cap) or at most the NIC rate");
    }
    if (linkDelay.IsStrictlyNegative())
    {
        Fail("--linkDelay", "negative delay", "a delay >= 0");
    }
    if (mtu < 576 || mtu > 9000)
    {
        Fail("--mtu", std::to_string(mtu), "an MTU from 576 to 9000 bytes (1500 or 9000)");
    }
    UnitParser::ParseQueueSize("--queue", queueSize);
    if (!hostQueueSize.empty())
    {
        UnitParser::ParseQueueSize("--hostQueue", hostQueueSize);
    }
    if (hostModel != "ns3" && hostModel != "linux")
    {
        Fail("--hostModel", "unknown host model '" + hostModel + "'", "ns3 or linux");
    }
    CheckWritePattern("--writePattern", writePattern);
    if (startJitter.IsStrictlyNegative() || startJitter > Seconds(10))
    {
        Fail("--startJitter", "out of range", "a time from 0 to 10s, e.g. 20us");
    }
    if (!minRto.IsStrictlyPositive())
    {
        Fail("--minRto", "non-positive timeout", "a time > 0, e.g. 200ms, 10ms or 1ms");
    }
}

void
TrainingScenario::ValidateCrossTraffic() const
{
    if (crossTraffic != "none" && crossTraffic != "bulk" && crossTraffic != "onoff")
    {
        Fail("--crossTraffic", "unknown value '" + crossTraffic + "'", "none, bulk or onoff");
    }
    if (crossTarget != "server" && crossTarget != "worker")
    {
        Fail("--crossTarget", "unknown value '" + crossTarget + "'", "server or worker");
    }
    if (crossProtocol != "udp" && crossProtocol != "tcp")
    {
        Fail("--crossProtocol", "unknown value '" + crossProtocol + "'", "udp or tcp");
    }
    if (crossTraffic != "none")
    {
        if (crossFlows == 0 || crossFlows > 64)
        {
            Fail("--crossFlows", std::to_string(crossFlows) + " out of range", "1 to 64");
        }
        if (crossTarget == "server" && architecture == RING_ALLREDUCE)
        {
            Fail("--crossTarget", "server with --arch=ring (no servers)", "worker");
        }
    }
    if (crossTraffic == "onoff"
        && (crossRate.GetBitRate() == 0 || crossRate.GetBitRate() > nicRate.GetBitRate()))
    {
        Fail("--crossRate",
             TrainingInputError::Number(crossRate.GetBitRate() / 1e9)
                 + " Gbps with --crossTraffic=onoff",
             "a mean load above 0 and at most the NIC rate, e.g. 5Gbps");
    }
}

void
TrainingScenario::ValidateSteps() const
{
    if (steps == 0)
    {
        Fail("--steps", "0 steps", "at least 1 step");
    }
    if (warmup >= steps)
    {
        Fail("--warmup",
             std::to_string(warmup) + " warm-up steps of " + std::to_string(steps),
             "fewer warm-up steps than --steps");
    }
    if (gpusPerNode == 0)
    {
        Fail("--gpusPerNode", "0 GPUs per node", "at least 1");
    }
    if (gpusPerNode > 1 && intraBandwidth.GetBitRate() == 0)
    {
        Fail("--intraBw", "0 bps with several GPUs per node", "a positive rate");
    }
    if (intraLatency.IsStrictlyNegative())
    {
        Fail("--intraLatency", "negative latency", "a latency >= 0");
    }
    if (fusionTimeout.IsStrictlyNegative())
    {
        Fail("--fusionTimeout", "negative timeout", "a time >= 0");
    }
    if (reductionRate < 0 || !std::isfinite(reductionRate))
    {
        Fail("--reductionRate",
             "value " + TrainingInputError::Number(reductionRate),
             "0 (free) or a positive rate in bytes/s");
    }
}

void
TrainingScenario::ValidateFabric() const
{
    if (leaves == 0 || leaves > 4096 || spines == 0 || spines > 4096)
    {
        Fail(leaves == 0 || leaves > 4096 ? "--leaves" : "--spines",
             std::to_string(leaves == 0 || leaves > 4096 ? leaves : spines) + " out of range",
             "1 to 4096");
    }
    if (fatTreeK < 2 || fatTreeK > 64 || fatTreeK % 2 != 0)
    {
        Fail("--fatTreeK", std::to_string(fatTreeK), "an even radix from 2 to 64");
    }
    const bool file = topology.size() > 5 && topology.substr(topology.size() - 5) == ".json";
    if (topology != "star" && topology != "leafspine" && topology != "fattree" && !file)
    {
        Fail("--topology",
             "unknown value '" + topology + "'",
             "star, leafspine, fattree or a topology file ending in .json");
    }
    if (crossTraffic != "none" && topology != "star")
    {
        Fail("--crossTraffic",
             "cross traffic with --topology=" + topology,
             "none: cross hosts hang off the star's one switch only");
    }
    if (topology == "star"
        && (placement == "packed" || placement == "spread" || placement == "random"))
    {
        return; // the star has one host per role: nothing to check (and nothing to build)
    }
    // Builds the fabric: checks the file, the number of hosts and the placement.
    BuildFabric();
}

std::string
TrainingScenario::ToJson() const
{
    nlohmann::ordered_json j;
    ArchitectureToJson(*this, j);
    NetworkToJson(*this, j);
    FabricToJson(*this, j);
    RunToJson(*this, j);
    return j.dump();
}

void
TrainingScenario::ApplyPreset(const std::string& option, const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    constexpr uint64_t MIB = 1024 * 1024;
    if (name == "ddp")
    {
        bucketBytes = 25 * MIB;
        firstBucketBytes = 1 * MIB;
        fusionTimeout = Seconds(0);
    }
    else if (name == "horovod")
    {
        bucketBytes = 64 * MIB;
        firstBucketBytes = 0;
        fusionTimeout = MilliSeconds(5);
    }
    else if (name == "horovod-0.21")
    {
        bucketBytes = 128 * MIB;
        firstBucketBytes = 0;
        fusionTimeout = MilliSeconds(1);
    }
    else
    {
        Fail(option, "unknown preset '" + name + "'", "ddp, horovod or horovod-0.21");
    }
}

void
TrainingScenario::CheckWritePattern(const std::string& option, const std::string& name)
{
    if (name != "event-loop" && name != "thread-per-connection")
    {
        Fail(option, "unknown write pattern '" + name + "'", "event-loop or thread-per-connection");
    }
}

void
TrainingScenario::ApplyHostModel(const std::string& option, const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    if (name == "ns3")
    {
        hostModel = name;
    }
    else if (name == "linux")
    {
        hostModel = name;
        bufferAutotuning = true;
        delayedAck = true;
        tcpSmallQueues = true;
        startJitter = MicroSeconds(LINUX_START_JITTER_US);
    }
    else
    {
        Fail(option, "unknown host model '" + name + "'", "ns3 or linux");
    }
}

double
TrainingScenario::GetComputeScale(uint32_t worker) const
{
    if (computeScale.empty())
    {
        return 1.0;
    }
    return computeScale.size() == 1 ? computeScale[0] : computeScale.at(worker);
}

TrainingScenario
TrainingScenario::Dilated(double dilation) const
{
    TrainingScenario d = *this;
    auto slower = [dilation](DataRate r)
    {
        return DataRate(static_cast<uint64_t>(std::llround(r.GetBitRate() / dilation)));
    };
    d.nicRate = slower(nicRate);
    d.flowCap = slower(flowCap);
    d.uplinkRate = slower(uplinkRate);
    d.crossRate = slower(crossRate);
    d.intraBandwidth = slower(intraBandwidth);
    d.reductionRate = reductionRate / dilation;
    auto longer = [dilation](Time t)
    {
        return Seconds(t.GetSeconds() * dilation);
    };
    d.fusionTimeout = longer(fusionTimeout);
    d.intraLatency = longer(intraLatency);
    d.startJitter = longer(startJitter);
    d.workerUpdate = longer(workerUpdate); // (the profile's time: ScaleComputeTimes)
    for (auto& e : d.slowdown)
    {
        e.start *= dilation;
        e.length *= dilation;
    }
    for (auto& w : d.leave)
    {
        w.start *= dilation;
        w.length *= dilation;
    }
    for (auto& o : d.linkDown)
    {
        o.start *= dilation;
        o.length *= dilation;
    }
    d.stragglers.meanGap *= dilation;
    d.stragglers.meanLength *= dilation;
    return d;
}

std::vector<uint32_t>
TrainingScenario::AssignLayersToServers(const TrainingProfile& profile) const
{
    const uint32_t p = std::max<uint32_t>(servers, 1);
    std::vector<uint32_t> owner(profile.GetNLayers(), 0);
    std::vector<uint64_t> held(p, 0);
    for (std::size_t l = 0; l < profile.GetNLayers(); ++l)
    {
        if (partition == ROUND_ROBIN_PARTITION)
        {
            owner[l] = l % p;
        }
        else
        {
            // Fewest bytes so far; ties go to the lowest index (deterministic).
            owner[l]
                = static_cast<uint32_t>(std::min_element(held.begin(), held.end()) - held.begin());
        }
        held[owner[l]] += profile.GetLayer(l).paramBytes;
    }
    return owner;
}

std::string
TrainingScenario::GetArchitectureName() const
{
    return architecture == PARAMETER_SERVER ? "ps" : "ring";
}

std::string
TrainingScenario::GetModeName() const
{
    return mode == SYNC ? "sync" : "async";
}

std::string
TrainingScenario::GetOrderName() const
{
    switch (order)
    {
        case FORWARD_ORDER:
            return "forward";
        case REVERSE_ORDER:
            return "reverse";
        case RANDOM_ORDER:
            return "random";
    }
    return "forward";
}

std::string
TrainingScenario::GetPartitionName() const
{
    return partition == GREEDY_PARTITION ? "greedy" : "round-robin";
}

void
TrainingScenario::SetArchitecture(const std::string& option, const std::string& value)
{
    if (value == "ps")
    {
        architecture = PARAMETER_SERVER;
    }
    else if (value == "ring")
    {
        architecture = RING_ALLREDUCE;
    }
    else
    {
        Fail(option, "unknown value '" + value + "'", "ps or ring");
    }
}

void
TrainingScenario::SetMode(const std::string& option, const std::string& value)
{
    if (value == "sync")
    {
        mode = SYNC;
    }
    else if (value == "async")
    {
        mode = ASYNC;
    }
    else
    {
        Fail(option, "unknown value '" + value + "'", "sync or async");
    }
}

void
TrainingScenario::SetOrder(const std::string& option, const std::string& value)
{
    if (value == "forward")
    {
        order = FORWARD_ORDER;
    }
    else if (value == "reverse")
    {
        order = REVERSE_ORDER;
    }
    else if (value == "random")
    {
        order = RANDOM_ORDER;
    }
    else
    {
        Fail(option, "unknown value '" + value + "'", "forward, reverse or random");
    }
}

void
TrainingScenario::SetPartition(const std::string& option, const std::string& value)
{
    if (value == "greedy")
    {
        partition = GREEDY_PARTITION;
    }
    else if (value == "round-robin")
    {
        partition = ROUND_ROBIN_PARTITION;
    }
    else
    {
        Fail(option, "unknown value '" + value + "'", "greedy or round-robin");
    }
}

void
TrainingScenario::SetComputeScale(const std::string& option, const std::string& value)
{
    // 1e-6 .. 1e6: beyond, a step's compute leaves what a simulated clock and a throughput in
    // doubles can represent (1e308 made the throughput 0 and the step time infinite).
    const std::string expected
        = "numbers from 1e-6 to 1e6: 1.5, or 1,1,2,2, or 1x2,2x2 (value x count)";
    std::vector<double> values;
    std::stringstream ss(value);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        std::size_t x = item.find('x');
        std::string num = item.substr(0, x);
        std::size_t count = 1;
        double v = 0;
        try
        {
            std::size_t used = 0;
            v = std::stod(num, &used);
            if (used != num.size())
            {
                throw std::invalid_argument(num);
            }
            if (x != std::string::npos)
            {
                std::string c = item.substr(x + 1);
                long n = std::stol(c, &used);
                if (used != c.size() || n < 1 || n > 100000)
                {
                    throw std::invalid_argument(c);
                }
                count = static_cast<std::size_t>(n);
            }
        }
        catch (const std::exception&)
        {
            Fail(option, "cannot parse '" + item + "' in '" + value + "'", expected);
        }
        if (!(v >= kMinComputeScale && v <= kMaxComputeScale))
        {
            Fail(option, "value " + TrainingInputError::Number(v) + " out of range", expected);
        }
        values.insert(values.end(), count, v);
    }
    if (values.empty())
    {
        Fail(option, "empty list", expected);
    }
    computeScale = values;
}

std::string
TrainingScenario::GetServerPlacementName() const
{
    return serverPlacement == COLOCATED_SERVERS ? "colocated" : "separate";
}

bool
TrainingScenario::HasSlowdown() const
{
    return !slowdown.empty() || stragglers.IsOn();
}

bool
TrainingScenario::IsColocated() const
{
    return architecture == PARAMETER_SERVER && serverPlacement == COLOCATED_SERVERS;
}

double
TrainingScenario::GetWorkerUpdateUs(const TrainingProfile& profile) const
{
    if (architecture != RING_ALLREDUCE || workerUpdateSource == NO_WORKER_UPDATE)
    {
        return 0;
    }
    if (workerUpdateSource == FIXED_WORKER_UPDATE)
    {
        return workerUpdate.GetSeconds() * 1e6;
    }
    return profile.GetWorkerUpdateUs();
}

std::string
TrainingScenario::GetWorkerUpdateNote(const TrainingProfile& profile) const
{
    if (architecture == PARAMETER_SERVER)
    {
        // Ignored rather than refused, so that --vary=arch=ps,ring takes one --workerUpdate.
        return workerUpdateSource == PROFILE_WORKER_UPDATE
                   ? ""
                   : "--workerUpdate=" + GetWorkerUpdateName()
                         + " is ignored with --arch=ps: the servers apply the updates (the "
                           "profile's update_us)";
    }
    if (workerUpdateSource == PROFILE_WORKER_UPDATE && !profile.HasWorkerUpdate())
    {
        return "profile has no worker optimizer time: ring steps exclude the update "
               "(--workerUpdate=TIME gives one)";
    }
    return "";
}

void
TrainingScenario::NoteWorkerUpdate(TrainingResult& result, const TrainingProfile& profile) const
{
    const std::string note = GetWorkerUpdateNote(profile);
    if (!note.empty())
    {
        result.notes.push_back(note);
    }
    const double us = GetWorkerUpdateUs(profile);
    if (us > 0)
    {
        result.inputs["T_U_worker_s"] = us * 1e-6; // (runs without one print as before)
    }
}

std::string
TrainingScenario::GetWorkerUpdateName() const
{
    switch (workerUpdateSource)
    {
        case NO_WORKER_UPDATE:
            return "none";
        case FIXED_WORKER_UPDATE:
            return TrainingInputError::Number(workerUpdate.GetSeconds() * 1e3) + "ms";
        default:
            return "profile";
    }
}

void
TrainingScenario::SetWorkerUpdate(const std::string& option, const std::string& value)
{
    if (value == "profile" || value == "none")
    {
        workerUpdateSource = value == "profile" ? PROFILE_WORKER_UPDATE : NO_WORKER_UPDATE;
        return;
    }
    const char* expected = "profile, none, or a time from 0 to 1h, e.g. 5ms";
    Time t;
    try
    {
        t = UnitParser::ParseDuration(option, value);
    }
    catch (const TrainingInputError&)
    {
        Fail(option, "'" + value + "'", expected);
    }
    if (t > Hours(1))
    {
        Fail(option, "absurd time '" + value + "'", expected);
    }
    workerUpdateSource = FIXED_WORKER_UPDATE;
    workerUpdate = t;
}

void
TrainingScenario::SetServerPlacement(const std::string& option, const std::string& value)
{
    if (value == "separate")
    {
        serverPlacement = SEPARATE_SERVERS;
    }
    else if (value == "colocated")
    {
        serverPlacement = COLOCATED_SERVERS;
    }
    else
    {
        Fail(option, "unknown value '" + value + "'", "separate or colocated");
    }
}

std::string
TrainingScenario::GetRoleName(uint32_t role) const
{
    return role < workers ? "worker" + std::to_string(role)
                          : "server" + std::to_string(role - workers);
}

FabricTopology
TrainingScenario::BuildFabric() const
{
    const uint32_t roles = workers + (architecture == PARAMETER_SERVER ? servers : 0);
    // Co-located servers take no host of their own: the fabric holds the workers' hosts.
    FabricTopology t = BuildUnplacedFabric(IsColocated() ? workers : roles);
    std::vector<std::string> names;
    for (uint32_t r = 0; r < roles; ++r)
    {
        names.push_back(GetRoleName(r));
    }
    t.SetRoles(IsColocated() ? PlaceColocated(t) : t.Place("--placement", placement, roles, seed),
               names);
    return t;
}

std::vector<uint32_t>
TrainingScenario::PlaceColocated(const FabricTopology& t) const
{
    ValidateServerPlacement(); // servers <= workers, also when called before Validate()
    const bool list = placement != "packed" && placement != "spread" && placement != "random";
    const auto entries
        = static_cast<uint32_t>(std::count(placement.begin(), placement.end(), ',')) + 1;
    const std::string k = std::to_string(workers);
    const std::string expected
        = "with --serverPlacement=colocated, packed, spread, random, a list of " + k
          + " hosts (the workers'; server p on worker p's host) or of " + k + " + "
          + std::to_string(servers) + " (then each server on a worker's host, one server per host)";
    if (list && entries != workers && entries != workers + servers)
    {
        Fail("--placement",
             "'" + placement + "' names " + std::to_string(entries) + " hosts",
             expected);
    }
    const bool map = list && entries == workers + servers;
    std::size_t cut = std::string::npos; // after the workers' entries
    for (uint32_t i = 0, pos = 0; map && i < workers; ++i, pos = cut + 1)
    {
        cut = placement.find(',', pos);
    }
    std::vector<uint32_t> hosts
        = t.Place("--placement", map ? placement.substr(0, cut) : placement, workers, seed);
    if (!map)
    {
        const std::vector<uint32_t> shards(hosts.begin(), hosts.begin() + servers);
        hosts.insert(hosts.end(), shards.begin(), shards.end()); // server p on worker p's host
        return hosts;
    }
    for (uint32_t h : t.Place("--placement", placement.substr(cut + 1), servers, seed))
    {
        if (std::find(hosts.begin(), hosts.begin() + workers, h) == hosts.begin() + workers)
        {
            Fail("--placement",
                 "server " + std::to_string(hosts.size() - workers) + " on host "
                     + std::to_string(h) + ", which runs no worker",
                 expected);
        }
        hosts.push_back(h);
    }
    return hosts;
}

FabricTopology
TrainingScenario::BuildUnplacedFabric(uint32_t roles) const
{
    const TrainingScenario& s = *this;
    using LinkSpec = FabricTopology::LinkSpec;
    LinkSpec host{s.nicRate, s.linkDelay, s.queueSize};
    LinkSpec uplink{s.uplinkRate.GetBitRate() > 0 ? s.uplinkRate : s.nicRate,
                    s.linkDelay,
                    s.queueSize};
    FabricTopology t;
    if (s.topology == "star")
    {
        t = FabricTopology::Star(roles, host);
    }
    else if (s.topology == "leafspine")
    {
        uint32_t perLeaf = s.hostsPerLeaf > 0 ? s.hostsPerLeaf : (roles + s.leaves - 1) / s.leaves;
        t = FabricTopology::LeafSpine(s.leaves, s.spines, perLeaf, host, uplink);
    }
    else if (s.topology == "fattree")
    {
        t = FabricTopology::FatTree(s.fatTreeK, host, uplink, uplink);
    }
    else
    {
        t = FabricTopology::FromJsonFile(s.topology);
    }
    t.SetEcmpSeed(s.ecmpSeed);
    return t;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "kernel-backend.h"

#include "ns3/collective-cost-model.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/fabric-topology.h"
#include "ns3/integer.h"
#include "ns3/kernel-testbed.h"
#include "ns3/kernel-training-apps.h"
#include "ns3/log.h"
#include "ns3/repeated-runs.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/training-input-error.h"
#include "ns3/training-network.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LinuxBackend");

NS_OBJECT_ENSURE_REGISTERED(LinuxBackend);
DT_REGISTER_BACKEND("linux",
                    LinuxBackend,
                    40,
                    true,
                    "the same applications over real Linux kernel TCP in network namespaces "
                    "(root; real time, x Dilation)");

namespace
{

/// The run's link byte counters at the times the measurement window may start or end.
struct Snapshots
{
    std::map<double, std::vector<LinuxTestbed::PortBytes>> at; //!< time -> per host bytes

    /// Bytes per port by time t (the snapshot at or before t; zeros before the first).
    std::vector<LinuxTestbed::PortBytes> BytesAt(double t, std::size_t hosts) const
    {
        // Step ends come back through the NOTICE header in whole nanoseconds: allow for that.
        auto it = at.upper_bound(t + 2e-9);
        if (it == at.begin())
        {
            return std::vector<LinuxTestbed::PortBytes>(hosts, LinuxTestbed::PortBytes{0, 0});
        }
        return std::prev(it)->second;
    }
};

/// The kernel's list of available congestion controls.
std::string
AvailableCongestionControls()
{
    std::ifstream in("/proc/sys/net/ipv4/tcp_available_congestion_control");
    std::string text;
    std::getline(in, text);
    return text;
}

/**
 * The kernel's TCP counters of the calling thread's namespace: Tcp RetransSegs (/proc/net/snmp)
 * and the TcpExt counters (/proc/net/netstat) that tell how losses were recovered.
 */
std::map<std::string, double>
KernelTcpCounters()
{
    std::map<std::string, double> out;
    for (const char* file : {"/proc/thread-self/net/snmp", "/proc/thread-self/net/netstat"})
    {
        std::ifstream in(file);
        std::string names;
        std::string values;
        // Each group is a line of names and a line of values with the same "Group:" prefix.
        while (std::getline(in, names) && std::getline(in, values))
        {
            std::istringstream n(names);
            std::istringstream v(values);
            std::string group;
            n >> group;
            v >> group;
            std::string key;
            std::string value;
            while (n >> key && v >> value)
            {
                out[group + key] = std::stod(value);
            }
        }
    }
    return out;
}

/// Everything of one run that lives in the run thread.
struct Run
{
    const TrainingProfile& profile;   //!< the DNN
    const TrainingScenario& scenario; //!< the scenario
    double dilation;                  //!< D
    double maxWallSeconds;            //!< watchdog
    double burstSeconds;              //!< tbf bucket
    uint16_t port;                    //!< listener port
    std::string congestion;           //!< kernel congestion control
    TrainingResult result;            //!< output
};

/// The applications of one run (they reference the job, which outlives them).
struct Apps
{
    std::vector<std::unique_ptr<LinuxParameterServer>> servers; //!< PS servers
    std::vector<std::unique_ptr<LinuxTrainingWorker>> workers;  //!< PS workers
    std::vector<std::unique_ptr<LinuxRingNode>> nodes;          //!< ring nodes
};

/// AllReduce: every node listens (in its namespace), then connects to the nodes it sends to.
void
StartRing(const Run& run, const LinuxTestbed& bed, LinuxJob& job, Apps& apps, double pace)
{
    const uint32_t k = run.scenario.workers;
    std::vector<std::string> addresses;
    for (uint32_t w = 0; w < k; ++w)
    {
        addresses.push_back(LinuxTestbed::GetAddress(w));
    }
    for (uint32_t w = 0; w < k; ++w)
    {
        apps.nodes.push_back(std::make_unique<LinuxRingNode>(job, w, w));
        if (k > 1)
        {
            bed.RunIn(w,
                      [&]
                      {
                          apps.nodes[w]->Listen(run.port, run.congestion, pace);
                      });
        }
    }
    for (uint32_t w = 0; w < k; ++w)
    {
        if (k == 1)
        {
            apps.nodes[w]->MaybeStart(); // no network
            continue;
        }
        bed.RunIn(w,
                  [&]
                  {
                      apps.nodes[w]->Connect(addresses, run.port, run.congestion, pace);
                  });
    }
}

/// \return each server's namespace: a host of its own (K .. K+P-1), or, co-located, the
/// namespace of the worker whose host the scenario's placement gives it (one definition of
/// co-location: TrainingScenario::BuildFabric)
std::vector<uint32_t>
ServerNamespaces(const TrainingScenario& s)
{
    std::vector<uint32_t> out;
    const FabricTopology t = s.BuildFabric();
    for (uint32_t p = 0; p < s.servers; ++p)
    {
        uint32_t at = s.workers + p;
        for (uint32_t w = 0; s.IsColocated() && w < s.workers; ++w)
        {
            if (t.GetRoleHost(w) == t.GetRoleHost(s.workers + p))
            {
                at = w;
            }
        }
        out.push_back(at);
    }
    return out;
}

/// PS: every server listens (in ServerNamespaces()), then every worker connects to all of them.
/// A worker reaches a server in its own namespace through the loopback device, as the packet
/// level's co-located server: no NIC, no shaper.
void
StartParameterServers(const Run& run,
                      const LinuxTestbed& bed,
                      LinuxJob& job,
                      Apps& apps,
                      double pace)
{
    const TrainingScenario& s = run.scenario;
    std::vector<uint32_t> owners = s.AssignLayersToServers(run.profile);
    const std::vector<uint32_t> at = ServerNamespaces(s);
    std::vector<std::string> addresses;
    for (uint32_t p = 0; p < s.servers; ++p)
    {
        std::vector<uint32_t> layers;
        for (uint32_t l = 0; l < owners.size(); ++l)
        {
            if (owners[l] == p)
            {
                layers.push_back(l);
            }
        }
        apps.servers.push_back(
            std::make_unique<LinuxParameterServer>(job, p, layers, s.workers + p));
        bed.RunIn(at[p],
                  [&]
                  {
                      apps.servers[p]->Listen(run.port, run.congestion, pace);
                  });
        addresses.push_back(LinuxTestbed::GetAddress(at[p]));
    }
    for (uint32_t w = 0; w < s.workers; ++w)
    {
        apps.workers.push_back(std::make_unique<LinuxTrainingWorker>(job, w, owners, w));
        bed.RunIn(w,
                  [&]
                  {
                      apps.workers[w]->Connect(addresses, run.port, run.congestion, pace);
                  });
    }
}

/// Utilisation of every link direction over the measurement window, and the busiest link.
void
FillUtilisation(const TrainingScenario& s,
                uint32_t hosts,
                const Snapshots& snapshots,
                TrainingResult& result)
{
    const double window = result.windowEnd - result.windowStart;
    if (!(window > 0))
    {
        return;
    }
    auto before = snapshots.BytesAt(result.windowStart, hosts);
    auto after = snapshots.BytesAt(result.windowEnd, hosts);
    const double rate = static_cast<double>(s.nicRate.GetBitRate());
    double best = -1;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        const std::string name = s.GetRoleName(h);
        // Counted bytes / (undilated rate x undilated window) = the dilated run's fraction.
        const double up = (after[h].up - before[h].up) * 8.0 / (rate * window);
        const double down = (after[h].down - before[h].down) * 8.0 / (rate * window);
        for (auto [u, link] : {std::make_pair(up, TrainingNetwork::GetLinkName(name, true)),
                               std::make_pair(down, TrainingNetwork::GetLinkName(name, false))})
        {
            result.linkUtilisation[link] = u;
            if (u > best)
            {
                best = u;
                result.bottleneck = link;
            }
        }
    }
}

/// Drops, retransmissions and loss recoveries of the whole testbed into result.inputs (the
/// keys of the packet backend's counters where they mean the same).
void
FillCongestion(const TrainingScenario& s,
               const LinuxTestbed& bed,
               uint32_t hosts,
               TrainingResult& result)
{
    result.inputs["drops_queue_disc"] = static_cast<double>(bed.CountQdiscDrops());
    // Linux counter -> result input. TCPTimeouts counts RTO expiries (ns-3: rto_timeouts);
    // TCPLossProbes the tail-loss probes (RACK-TLP, which ns-3.37 lacks) sent instead.
    const std::vector<std::pair<std::string, std::string>> keys{
        {"Tcp:RetransSegs", "retransmitted_segments"},
        {"TcpExt:TCPTimeouts", "rto_timeouts"},
        {"TcpExt:TCPLossProbes", "tail_loss_probes"},
        {"TcpExt:TCPLossProbeRecovery", "tail_loss_probe_recoveries"},
        {"TcpExt:TCPSackRecovery", "fast_recoveries"},
        {"TcpExt:TCPSpuriousRTOs", "spurious_rtos"}};
    std::map<std::string, double> sum;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        std::map<std::string, double> own;
        bed.RunIn(h,
                  [&]
                  {
                      own = KernelTcpCounters();
                  });
        for (const auto& [name, value] : own)
        {
            sum[name] += value;
        }
        // Which host lost: per host where non-zero, as the packet backend's "drops:PORT".
        if (own["Tcp:RetransSegs"] > 0)
        {
            result.inputs["retransmitted_segments:" + s.GetRoleName(h)] = own["Tcp:RetransSegs"];
        }
    }
    for (const auto& [counter, input] : keys)
    {
        result.inputs[input] = sum[counter];
    }
}

/// Build the testbed, open every socket in its host's namespace, run the event loop (bounded by
/// the watchdog), collect the records.
void
Execute(Run& run)
{
    const TrainingScenario& s = run.scenario;
    const bool ring = s.architecture == TrainingScenario::RING_ALLREDUCE;
    const uint32_t hosts = s.workers + (ring || s.IsColocated() ? 0 : s.servers);
    LinuxTestbed::Config config;
    config.hosts = hosts;
    config.mtu = s.mtu;
    config.rateBps = s.nicRate.GetBitRate() / run.dilation;
    config.switchQueue = s.queueSize;
    config.hostQueue = s.hostQueueSize.empty() ? s.queueSize : s.hostQueueSize;
    config.burstSeconds = run.burstSeconds;
    // Dilated, every idle gap lasts D times longer than in the scenario, while the RTO that
    // decides whether TCP restarts from slow start after idle does not: keep the window.
    config.slowStartAfterIdle = run.dilation <= 1;
    LinuxTestbed bed(config);

    LinuxJob job;
    job.clock = LinuxClock(run.dilation);
    job.profile = std::make_shared<const TrainingProfile>(run.profile);
    job.scenario = s;
    job.expected = s.workers * s.steps;
    Snapshots snapshots;
    job.onWindowCandidate = [&](double t)
    {
        snapshots.at[t] = bed.ReadPortBytes();
    };
    const double pace
        = s.flowCap.GetBitRate() > 0 ? s.flowCap.GetBitRate() / 8.0 / run.dilation : 0;
    Apps apps;
    job.clock.Start();
    if (ring)
    {
        StartRing(run, bed, job, apps, pace);
    }
    else
    {
        StartParameterServers(run, bed, job, apps, pace);
    }
    snapshots.at[0] = bed.ReadPortBytes();
    const auto limit = std::chrono::duration<double>(run.maxWallSeconds);
    job.io.run_for(std::chrono::duration_cast<std::chrono::nanoseconds>(limit));
    for (const auto& r : job.steps)
    {
        run.result.AddStep(r);
    }
    for (const auto& r : job.transfers)
    {
        run.result.AddTransfer(r);
    }
    FillCongestion(s, bed, hosts, run.result);
    if (!job.error.empty())
    {
        throw TrainingInputError(job.error);
    }
    if (job.steps.size() < job.expected)
    {
        throw TrainingInputError(
            "linux backend: watchdog: only " + std::to_string(job.steps.size()) + " of "
            + std::to_string(job.expected) + " worker steps done within "
            + std::to_string(run.maxWallSeconds)
            + " s of wall time (raise ns3::LinuxBackend::MaxWallTime, or fewer --steps)");
    }
    run.result.Finalize(s, run.profile.GetBatchSize() * s.gpusPerNode);
    const std::string ncclNote = CollectiveCostModel::NcclNote(s, run.profile);
    if (!ncclNote.empty())
    {
        run.result.notes.push_back(ncclNote);
    }
    FillUtilisation(s, hosts, snapshots, run.result);
    run.result.NameServerUpdate(run.profile, s);
}

/// Refuse what the kernel or the testbed cannot do (throws TrainingInputError naming it).
void
CheckSupported(const TrainingScenario& scenario, const std::string& cc)
{
    if (AvailableCongestionControls().find(cc) == std::string::npos)
    {
        throw TrainingInputError("--tcp: the kernel has no '" + cc + "' congestion control ("
                                 + AvailableCongestionControls() + ")");
    }
    if (scenario.crossTraffic != "none" || scenario.queueDisc != "none" || scenario.ecn)
    {
        throw TrainingInputError("--backend=linux: --crossTraffic, --queueDisc and --ecn are "
                                 "packet-backend only (expected none, none, false)");
    }
    if (scenario.topology != "star")
    {
        // The testbed is one switch (a bridge with a shaped port per host): a leaf-spine's
        // oversubscribed uplinks and per-flow ECMP would silently be a star.
        throw TrainingInputError("--backend=linux: --topology=" + scenario.topology
                                 + " is not emulated (the testbed is one switch with a shaped "
                                   "port per host; expected --topology=star, or the packet and "
                                   "flow backends for fabrics)");
    }
    if (!scenario.linkDown.empty())
    {
        throw TrainingInputError("--backend=linux: --linkDown is packet- and flow-backend only "
                                 "(expected none)");
    }
    if (scenario.HasSlowdown())
    {
        throw TrainingInputError("--backend=linux: --slowdown and --stragglers are packet- and "
                                 "flow-backend only (expected none)");
    }
    if (scenario.minRto != MilliSeconds(200))
    {
        throw TrainingInputError("--backend=linux: --minRto must be 200ms (the kernel's "
                                 "TCP_RTO_MIN)");
    }
}

} // namespace

TypeId
LinuxBackend::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::LinuxBackend")
              .SetParent<TrainingBackend>()
              .SetGroupName("DistributedTraining")
              .AddConstructor<LinuxBackend>()
              .AddAttribute("Dilation",
                            "Time dilation D: links run at rate/D, compute and updates take x D, "
                            "every reported time is divided by D",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&LinuxBackend::m_dilation),
                            MakeDoubleChecker<double>(1.0, 10000.0))
              .AddAttribute("MaxWallTime",
                            "Watchdog: a run that has not finished after this wall time stops "
                            "with an error",
                            TimeValue(Seconds(300)),
                            MakeTimeAccessor(&LinuxBackend::m_maxWallTime),
                            MakeTimeChecker(Seconds(1)))
              .AddAttribute("MaxPortRate",
                            "Fastest shaped port rate (after dilation) reproduced within 2 % on "
                            "this machine (doc: against real TCP); faster scenarios are refused",
                            DataRateValue(DataRate("2Gbps")),
                            MakeDataRateAccessor(&LinuxBackend::m_maxPortRate),
                            MakeDataRateChecker())
              .AddAttribute("MaxPortFrameRate",
                            "Most frames per second one shaped port forwards within 2 % of its "
                            "rate on this machine (after dilation)",
                            DoubleValue(85000),
                            MakeDoubleAccessor(&LinuxBackend::m_maxPortFrames),
                            MakeDoubleChecker<double>(1))
              .AddAttribute("MaxTotalFrameRate",
                            "Most frames per second all ports that can be busy at once forward "
                            "faithfully on this machine (after dilation)",
                            DoubleValue(170000),
                            MakeDoubleAccessor(&LinuxBackend::m_maxTotalFrames),
                            MakeDoubleChecker<double>(1))
              .AddAttribute("ShaperBurst",
                            "tbf bucket of every port, as time at the port rate (at least two "
                            "frames)",
                            TimeValue(MilliSeconds(1)),
                            MakeTimeAccessor(&LinuxBackend::m_burst),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute(
                  "Nice",
                  "Nice value of the run's thread (applied if permitted: root): a real-time "
                  "run must not queue behind other work on the machine",
                  IntegerValue(-5),
                  MakeIntegerAccessor(&LinuxBackend::m_nice),
                  MakeIntegerChecker<int32_t>(-20, 19))
              .AddAttribute("Repeat",
                            "Runs per point, with seeds Seed, Seed + 1, ...: the result is the "
                            "median-throughput run, with the min, max and spread of the "
                            "throughput in its inputs and notes and the 95 % interval of the "
                            "mean (the driver's --repeat repeats every backend instead)",
                            UintegerValue(1),
                            MakeUintegerAccessor(&LinuxBackend::m_repeat),
                            MakeUintegerChecker<uint32_t>(1, 1000))
              .AddAttribute("Port",
                            "TCP port the parameter servers and ring workers listen on",
                            UintegerValue(5000),
                            MakeUintegerAccessor(&LinuxBackend::m_port),
                            MakeUintegerChecker<uint16_t>(1));
    return tid;
}

LinuxBackend::LinuxBackend()
    : m_dilation(1.0),
      m_maxWallTime(Seconds(300)),
      m_maxPortRate("2Gbps"),
      m_maxPortFrames(85000),
      m_maxTotalFrames(170000),
      m_burst(MilliSeconds(1)),
      m_port(5000),
      m_nice(-5),
      m_repeat(1)
{
}

LinuxBackend::~LinuxBackend() = default;

std::string
LinuxBackend::GetUnavailableReason() const
{
    return LinuxTestbed::GetUnavailableReason();
}

std::string
LinuxBackend::MapCongestionControl(const std::string& variant)
{
    std::string v = variant.rfind("ns3::", 0) == 0 ? variant.substr(5) : variant;
    if (v == "TcpCubic")
    {
        return "cubic";
    }
    if (v == "TcpNewReno" || v == "TcpLinuxReno")
    {
        return "reno";
    }
    if (v == "TcpBbr")
    {
        return "bbr";
    }
    throw TrainingInputError("--tcp: '" + variant
                             + "' has no kernel counterpart on this machine (the linux backend "
                               "accepts TcpCubic -> cubic, TcpNewReno or TcpLinuxReno -> reno, "
                               "TcpBbr -> bbr)");
}

std::string
LinuxBackend::CheckFidelity(const TrainingScenario& s) const
{
    // What costs CPU is frames: a port's frame rate after dilation, and the total over the
    // ports that can be busy at once (every ring link; a PS's server ports, both directions).
    const double port = s.nicRate.GetBitRate() / m_dilation;
    const double frames = port / 8.0 / TrainingNetwork::GetEthernetFrameBytes(s.mtu);
    const bool ring = s.architecture == TrainingScenario::RING_ALLREDUCE;
    const uint32_t busy
        = ring ? (s.workers > 1 ? s.workers : 0) : 2 * std::min(s.servers, s.workers);
    const double maxPort = static_cast<double>(m_maxPortRate.GetBitRate());
    const double need
        = m_dilation
          * std::max({port / maxPort, frames / m_maxPortFrames, busy * frames / m_maxTotalFrames});
    if (need <= m_dilation * (1 + 1e-9))
    {
        return "";
    }
    char text[512];
    std::snprintf(text,
                  sizeof(text),
                  "linux backend: %.3g Gbit/s per port at dilation %.3g (%.0f frames/s per port, "
                  "%.0f over %u ports busy at once) exceeds what this machine shapes within 2 %% "
                  "(%.3g Gbit/s, %.0f frames/s per port, %.0f frames/s in total; "
                  "doc/validation/linux-tcp.rst, single-flow fidelity): use --dilation=%.0f "
                  "or more (or a lower --nicRate, or --mtu=9000)",
                  port / 1e9,
                  m_dilation,
                  frames,
                  busy * frames,
                  busy,
                  maxPort / 1e9,
                  m_maxPortFrames,
                  m_maxTotalFrames,
                  std::ceil(need - 1e-9));
    return text;
}

std::string
LinuxBackend::RegimeNote(const TrainingScenario& s) const
{
    const double port = s.nicRate.GetBitRate() / m_dilation;
    if (port <= VALIDATED_PORT_BPS * (1 + 1e-9))
    {
        return "";
    }
    const auto whole = [](double x)
    {
        return std::to_string(std::llround(x));
    };
    return "ports at " + whole(port / 1e6) + " Mbit/s after dilation, above the "
           + whole(VALIDATED_PORT_BPS / 1e6)
           + " Mbit/s at which the linux backend is validated (doc/validation/linux-tcp.rst, "
             "\"Run-to-run spread and dilation\"): on a busy machine the emulation, not TCP, can "
             "set the result; --dilation="
           + whole(std::ceil(s.nicRate.GetBitRate() / VALIDATED_PORT_BPS - 1e-9))
           + " or more is within it";
}

std::string
LinuxBackend::GetUnsupportedReason(const TrainingProfile& profile,
                                   const TrainingScenario& scenario) const
{
    (void) profile;
    try
    {
        CheckSupported(scenario, MapCongestionControl(scenario.tcpVariant));
    }
    catch (const TrainingInputError& e)
    {
        return e.what();
    }
    return CheckFidelity(scenario);
}

TrainingResult
LinuxBackend::RunOnce(const TrainingProfile& profile,
                      const TrainingScenario& scenario,
                      const std::string& cc) const
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(scenario.seed);
    auto wallStart = std::chrono::steady_clock::now();

    struct Run run
    {
        profile, scenario, m_dilation, m_maxWallTime.GetSeconds(), m_burst.GetSeconds(), m_port, cc,
            GetRunContext().NewResult()
    };

    run.result.backend = "linux";
    run.result.variant = cc;
    // A dedicated thread: it alone enters the namespaces (setns is per thread), so the
    // caller's thread never leaves its own.
    std::exception_ptr failure;
    std::thread worker(
        [&]
        {
            LinuxTestbed::RaisePriority(m_nice);
            try
            {
                Execute(run);
            }
            catch (...)
            {
                failure = std::current_exception();
            }
        });
    worker.join();
    if (failure)
    {
        std::rethrow_exception(failure);
    }
    run.result.wallSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    return run.result;
}

TrainingResult
LinuxBackend::SummariseRepeats(std::vector<TrainingResult> runs)
{
    return RepeatedRuns::Summarise(std::move(runs), {});
}

void
LinuxBackend::Configure(const BackendSettings& settings)
{
    if (settings.dilation)
    {
        SetChecked("--dilation", *this, "Dilation", DoubleValue(*settings.dilation));
    }
}

std::vector<TrainingResult>
LinuxBackend::Run(const TrainingProfile& profile, const TrainingScenario& scenario) const
{
    NS_LOG_FUNCTION(this);
    scenario.Validate(profile);
    const std::string why = GetUnavailableReason();
    if (!why.empty())
    {
        throw TrainingInputError("--backend=linux: " + why);
    }
    const std::string cc = MapCongestionControl(scenario.tcpVariant);
    CheckSupported(scenario, cc);
    const std::string unfaithful = CheckFidelity(scenario);
    if (!unfaithful.empty())
    {
        throw TrainingInputError(unfaithful);
    }
    // The driver's --repeat repeats every backend (RepeatedRuns); this attribute is for
    // programs that set it through Config, with the same seeds and summary.
    const std::vector<uint64_t> seeds = RepeatedRuns::Seeds(scenario.seed, m_repeat);
    std::vector<TrainingResult> runs;
    for (uint64_t seed : seeds)
    {
        TrainingScenario s = scenario;
        s.seed = seed;
        runs.push_back(RunOnce(profile, s, cc));
    }
    TrainingResult r = RepeatedRuns::Summarise(std::move(runs), seeds);
    r.inputs["dilation"] = m_dilation;
    r.inputs["gpus_per_node"] = scenario.gpusPerNode;
    r.inputs["goodput_bytes_per_s"]
        = TrainingNetwork::GetEthernetGoodputBytesPerSecond(scenario.nicRate.GetBitRate(),
                                                            scenario.mtu);
    scenario.NoteWorkerUpdate(r, profile);
    const std::string regime = RegimeNote(scenario);
    if (!regime.empty())
    {
        r.notes.push_back(regime);
    }
    r.notes.push_back("linkDelay " + std::to_string(scenario.linkDelay.GetMicroSeconds())
                      + " us is not emulated (no netem): the RTT is the veth/bridge path's own, "
                        "not scaled by the dilation");
    return {r};
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "linux-backend.h"

#include "linux-testbed.h"
#include "linux-training-apps.h"

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/training-input-error.h"
#include "ns3/training-network.h"
#include "ns3/uinteger.h"

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
                    false,
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
        auto it = at.upper_bound(t + 1e-12);
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

/// Total TCP RetransSegs of the calling thread's namespace (/proc/net/snmp).
double
RetransmittedSegments()
{
    std::ifstream in("/proc/thread-self/net/snmp");
    std::string names;
    std::string values;
    while (std::getline(in, names) && std::getline(in, values))
    {
        if (names.rfind("Tcp:", 0) != 0)
        {
            continue;
        }
        std::istringstream n(names);
        std::istringstream v(values);
        std::string key;
        std::string value;
        while (n >> key && v >> value)
        {
            if (key == "RetransSegs")
            {
                return std::stod(value);
            }
        }
    }
    return 0;
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

/// Open every socket in its host's namespace, run the event loop, collect the records.
void
Execute(Run& run)
{
    const TrainingScenario& s = run.scenario;
    const bool ring = s.architecture == TrainingScenario::RING_ALLREDUCE;
    const uint32_t hosts = s.workers + (ring ? 0 : s.servers);
    LinuxTestbed::Config config;
    config.hosts = hosts;
    config.mtu = s.mtu;
    config.rateBps = s.nicRate.GetBitRate() / run.dilation;
    config.switchQueue = s.queueSize;
    config.hostQueue = s.hostQueueSize.empty() ? s.queueSize : s.hostQueueSize;
    config.burstSeconds = run.burstSeconds;
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
    std::vector<std::unique_ptr<LinuxParameterServer>> servers;
    std::vector<std::unique_ptr<LinuxTrainingWorker>> workers;
    std::vector<std::unique_ptr<LinuxRingNode>> nodes;
    job.clock.Start();
    if (ring)
    {
        for (uint32_t w = 0; w < s.workers; ++w)
        {
            nodes.push_back(std::make_unique<LinuxRingNode>(job, w, w));
            if (s.workers > 1)
            {
                bed.RunIn(w,
                          [&]
                          {
                              nodes[w]->Listen(run.port, run.congestion, pace);
                          });
            }
        }
        for (uint32_t w = 0; w < s.workers; ++w)
        {
            if (s.workers == 1)
            {
                nodes[w]->MaybeStart();
                continue;
            }
            bed.RunIn(w,
                      [&]
                      {
                          nodes[w]->Connect(LinuxTestbed::GetAddress((w + 1) % s.workers),
                                            run.port,
                                            run.congestion,
                                            pace);
                      });
        }
    }
    else
    {
        std::vector<uint32_t> owners = s.AssignLayersToServers(run.profile);
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
            servers.push_back(
                std::make_unique<LinuxParameterServer>(job, p, layers, s.workers + p));
            bed.RunIn(s.workers + p,
                      [&]
                      {
                          servers[p]->Listen(run.port, run.congestion, pace);
                      });
            addresses.push_back(LinuxTestbed::GetAddress(s.workers + p));
        }
        for (uint32_t w = 0; w < s.workers; ++w)
        {
            workers.push_back(std::make_unique<LinuxTrainingWorker>(job, w, owners, w));
            bed.RunIn(w,
                      [&]
                      {
                          workers[w]->Connect(addresses, run.port, run.congestion, pace);
                      });
        }
    }
    snapshots.at[0] = bed.ReadPortBytes();
    const auto limit = std::chrono::duration<double>(run.maxWallSeconds);
    job.io.run_for(std::chrono::duration_cast<std::chrono::nanoseconds>(limit));
    TrainingResult& result = run.result;
    result.steps = job.steps;
    result.transfers = job.transfers;
    result.inputs["drops_queue_disc"] = static_cast<double>(bed.CountQdiscDrops());
    double retrans = 0;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        bed.RunIn(h,
                  [&]
                  {
                      retrans += RetransmittedSegments();
                  });
    }
    result.inputs["retransmitted_segments"] = retrans;
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
    result.Finalize(s, run.profile.GetBatchSize() * s.gpusPerNode);
    const double window = result.windowEnd - result.windowStart;
    if (window > 0)
    {
        auto before = snapshots.BytesAt(result.windowStart, hosts);
        auto after = snapshots.BytesAt(result.windowEnd, hosts);
        double best = -1;
        for (uint32_t h = 0; h < hosts; ++h)
        {
            const std::string name = h < s.workers ? "worker" + std::to_string(h)
                                                   : "server" + std::to_string(h - s.workers);
            const double rate = static_cast<double>(s.nicRate.GetBitRate());
            // Counted bytes / (undilated rate x undilated window) = the dilated run's fraction.
            const double up = (after[h].up - before[h].up) * 8.0 / (rate * window);
            const double down = (after[h].down - before[h].down) * 8.0 / (rate * window);
            result.linkUtilisation[name + "->switch"] = up;
            result.linkUtilisation["switch->" + name] = down;
            for (auto [u, link] :
                 {std::make_pair(up, name + "->switch"), std::make_pair(down, "switch->" + name)})
            {
                if (u > best)
                {
                    best = u;
                    result.bottleneck = link;
                }
            }
        }
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
                            "this machine (doc: 'against real TCP'); faster scenarios are refused",
                            DataRateValue(DataRate("1Gbps")),
                            MakeDataRateAccessor(&LinuxBackend::m_maxPortRate),
                            MakeDataRateChecker())
              .AddAttribute("MaxTotalRate",
                            "Fastest total rate of the ports that can be busy at once (after "
                            "dilation) that this machine forwards faithfully",
                            DataRateValue(DataRate("2Gbps")),
                            MakeDataRateAccessor(&LinuxBackend::m_maxTotalRate),
                            MakeDataRateChecker())
              .AddAttribute("ShaperBurst",
                            "tbf bucket of every port, as time at the port rate (at least two "
                            "frames)",
                            TimeValue(MilliSeconds(1)),
                            MakeTimeAccessor(&LinuxBackend::m_burst),
                            MakeTimeChecker(Seconds(0)))
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
      m_maxPortRate("1Gbps"),
      m_maxTotalRate("2Gbps"),
      m_burst(MilliSeconds(1)),
      m_port(5000)
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
    const double port = s.nicRate.GetBitRate() / m_dilation;
    const double maxPort = static_cast<double>(m_maxPortRate.GetBitRate());
    // Ports busy at once: every ring link; a PS's server ports in both directions.
    const bool ring = s.architecture == TrainingScenario::RING_ALLREDUCE;
    const uint32_t busy
        = ring ? (s.workers > 1 ? s.workers : 0) : 2 * std::min(s.servers, s.workers);
    const double total = busy * port;
    const double maxTotal = static_cast<double>(m_maxTotalRate.GetBitRate());
    double need = std::max(port / maxPort, total / maxTotal) * m_dilation;
    if (port <= maxPort && total <= maxTotal)
    {
        return "";
    }
    char text[400];
    std::snprintf(text,
                  sizeof(text),
                  "linux backend: %.3g Gbit/s per port (%.3g Gbit/s over %u busy ports) at "
                  "dilation %.3g exceeds what this machine shapes within 2 %% (%.3g Gbit/s per "
                  "port, %.3g in total): use --dilation=%.0f or more (or a lower --nicRate)",
                  port / 1e9,
                  total / 1e9,
                  busy,
                  m_dilation,
                  maxPort / 1e9,
                  maxTotal / 1e9,
                  std::ceil(need));
    return text;
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
    if (scenario.minRto != MilliSeconds(200))
    {
        throw TrainingInputError("--backend=linux: --minRto must be 200ms (the kernel's "
                                 "TCP_RTO_MIN)");
    }
    const std::string unfaithful = CheckFidelity(scenario);
    if (!unfaithful.empty())
    {
        throw TrainingInputError(unfaithful);
    }
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(scenario.seed);
    auto wallStart = std::chrono::steady_clock::now();

    struct Run run
    {
        profile, scenario, m_dilation, m_maxWallTime.GetSeconds(), m_burst.GetSeconds(), m_port, cc,
            TrainingResult()
    };

    run.result.backend = "linux";
    run.result.variant = cc;
    // A dedicated thread: it alone enters the namespaces (setns is per thread), so the
    // caller's thread never leaves its own.
    std::exception_ptr failure;
    std::thread worker(
        [&]
        {
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
    TrainingResult& r = run.result;
    r.inputs["dilation"] = m_dilation;
    r.inputs["gpus_per_node"] = scenario.gpusPerNode;
    r.inputs["goodput_bytes_per_s"]
        = TrainingNetwork::GetEthernetGoodputBytesPerSecond(scenario.nicRate.GetBitRate(),
                                                            scenario.mtu);
    r.notes.push_back("linkDelay " + std::to_string(scenario.linkDelay.GetMicroSeconds())
                      + " us is not emulated (no netem): the RTT is the veth/bridge path's own, "
                        "not scaled by the dilation");
    r.wallSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    return {r};
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "packet-backend.h"

#include "ns3/allreduce-schedule.h"
#include "ns3/boolean.h"
#include "ns3/collective-cost-model.h"
#include "ns3/congestion-monitor.h"
#include "ns3/double.h"
#include "ns3/ecmp-collisions.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/progress-reporter.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/training-cluster-helper.h"
#include "ns3/training-input-error.h"
#include "ns3/training-job-set.h"
#include "ns3/training-network.h"

#include <chrono>
#include <functional>
#include <iostream>
#include <limits>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PacketBackend");

NS_OBJECT_ENSURE_REGISTERED(PacketBackend);
DT_REGISTER_BACKEND("packet",
                    PacketBackend,
                    10,
                    true,
                    "ns-3 applications over ns-3 TCP, every packet simulated (seconds to minutes)");

namespace
{

/// Collects what the applications and devices report during one run.
struct Collector
{
    TrainingResult* result;                            //!< where records go
    uint32_t expected;                                 //!< K x steps
    uint32_t completed{0};                             //!< steps completed
    ProgressReporter* reporter{nullptr};               //!< progress reports, if asked for
    uint32_t warmup{0};                                //!< warm-up steps
    uint32_t steps{0};                                 //!< steps
    std::vector<uint64_t> txBytes;                     //!< per link direction, bytes sent
    std::map<double, std::vector<uint64_t>> snapshots; //!< txBytes at window candidates
    /// Several jobs: the collector of the whole run (link bytes, snapshots, steps of all jobs)
    Collector* fabric{nullptr};
    /// Reported time per simulated second: 1 / D in a dilated run (PacketBackend's Dilation)
    double timeScale{1.0};

    /// \return r with its times in reported (undilated) seconds
    template<class Record>
    Record Undilate(Record r) const
    {
        r.start *= timeScale;
        r.end *= timeScale;
        return r;
    }

    /// \return the collector that counts links and steps of the whole run
    Collector& Run()
    {
        return fabric ? *fabric : *this;
    }

    void OnStep(const TrainingResult::StepRecord& r)
    {
        result->AddStep(Undilate(r));
        Collector& run = Run();
        if (++run.completed == run.expected)
        {
            Simulator::Stop();
        }
        if (run.reporter)
        {
            run.reporter->StepDone();
        }
    }

    /// Keep the link bytes now (a window bound of some job).
    void Snapshot(double t)
    {
        Collector& run = Run();
        run.snapshots[t] = run.txBytes;
    }

    void OnRingStep(const TrainingResult::StepRecord& r)
    {
        // Window bounds are the latest end of step warmup-1 and steps-1 over the workers: every
        // worker's end of those steps is a candidate (before OnStep may stop the simulation).
        if (r.step + 1 == warmup || r.step + 1 == steps)
        {
            Snapshot(r.end * timeScale);
        }
        OnStep(r);
    }

    void OnTransfer(const TrainingResult::TransferRecord& r)
    {
        result->AddTransfer(Undilate(r));
    }

    void OnUpdates(uint32_t /* worker */, uint32_t step, Time when)
    {
        // Window bounds are always the end of a step warmup-1 or steps-1 (TrainingResult).
        if (step + 1 == warmup || step + 1 == steps)
        {
            Snapshot(when.GetSeconds() * timeScale);
        }
    }

    /// Bytes sent per link direction by time t (snapshot at or before t).
    std::vector<uint64_t> BytesAt(double t) const
    {
        auto it = snapshots.upper_bound(t);
        if (it == snapshots.begin())
        {
            return std::vector<uint64_t>(txBytes.size(), 0);
        }
        return std::prev(it)->second;
    }
};

void
CountTx(std::vector<uint64_t>* counters, std::size_t index, Ptr<const Packet> packet)
{
    (*counters)[index] += packet->GetSize();
}

/// PacketSink "Rx": count the cross traffic's delivered payload.
void
CountRx(std::vector<uint64_t>* counters,
        std::size_t index,
        Ptr<const Packet> packet,
        const Address& /* from */)
{
    (*counters)[index] += packet->GetSize();
}

/**
 * One byte counter per monitored link direction (the star's host links, or every fabric link),
 * then one for the cross traffic's delivered payload; every link and cross link also goes to the
 * congestion monitor.
 */
void
ConnectLinkCounters(const TrainingClusterHelper& cluster,
                    const std::vector<TrainingClusterHelper::MonitoredLink>& links,
                    const ApplicationContainer& cross,
                    CongestionMonitor& monitor,
                    Collector& collector)
{
    const std::size_t crossIndex = links.size();
    collector.txBytes.assign(links.size() + 1, 0);
    for (std::size_t i = 0; i < links.size(); ++i)
    {
        links[i].device->TraceConnectWithoutContext(
            "PhyTxEnd",
            MakeBoundCallback(&CountTx, &collector.txBytes, i));
        monitor.InstallDevice(links[i].device, links[i].name);
    }
    for (uint32_t c = 0; c < cluster.GetCrossHosts().GetN(); ++c)
    {
        NetDeviceContainer d = cluster.GetCrossLinkDevices(c);
        const std::string host = "cross" + std::to_string(c);
        monitor.InstallDevice(d.Get(0), TrainingNetwork::GetLinkName(host, true));
        monitor.InstallDevice(d.Get(1), TrainingNetwork::GetLinkName(host, false));
    }
    for (auto it = cross.Begin(); it != cross.End(); ++it)
    {
        // The sink's Rx; the senders have no such trace source.
        (*it)->TraceConnectWithoutContext(
            "Rx",
            MakeBoundCallback(&CountRx, &collector.txBytes, crossIndex));
    }
}

/// Steps, transfers and the window's link snapshots from the applications' trace sources.
void
ConnectApplications(const ApplicationContainer& apps, bool ring, Collector& collector)
{
    for (auto it = apps.Begin(); it != apps.End(); ++it)
    {
        (*it)->TraceConnectWithoutContext("TransferCompleted",
                                          MakeCallback(&Collector::OnTransfer, &collector));
        if (ring)
        {
            // No servers: the link snapshots are taken at the workers' step ends.
            (*it)->TraceConnectWithoutContext("StepCompleted",
                                              MakeCallback(&Collector::OnRingStep, &collector));
        }
        else if ((*it)->GetInstanceTypeId().GetName() == "ns3::TrainingWorkerApplication")
        {
            (*it)->TraceConnectWithoutContext("StepCompleted",
                                              MakeCallback(&Collector::OnStep, &collector));
        }
        else
        {
            (*it)->TraceConnectWithoutContext("UpdatesApplied",
                                              MakeCallback(&Collector::OnUpdates, &collector));
        }
    }
}

/**
 * Per-link utilisation over the measurement window (TrainingResult::Finalize), the bottleneck
 * (the busiest link direction) and the cross traffic's goodput and bytes.
 */
void
ReportWindow(const Collector& collector,
             const std::vector<TrainingClusterHelper::MonitoredLink>& links,
             bool hasCross,
             TrainingResult* result)
{
    const std::size_t crossIndex = links.size();
    if (hasCross)
    {
        result->inputs["cross_rx_bytes"] = collector.txBytes[crossIndex];
    }
    const double window = result->windowEnd - result->windowStart;
    if (window <= 0)
    {
        return;
    }
    const auto before = collector.BytesAt(result->windowStart);
    const auto after = collector.BytesAt(result->windowEnd);
    if (hasCross)
    {
        result->inputs["cross_goodput_bps"]
            = (after[crossIndex] - before[crossIndex]) * 8.0 / window;
    }
    double best = -1;
    for (std::size_t i = 0; i < links.size(); ++i)
    {
        // bitRate is the simulated (dilated) rate, window in reported time.
        const double u
            = (after[i] - before[i]) * 8.0 * collector.timeScale / (links[i].bitRate * window);
        result->linkUtilisation[links[i].name] = u;
        if (u > best)
        {
            best = u;
            result->bottleneck = links[i].name;
        }
    }
}

/**
 * Run the simulation until every worker step is done (the collector stops it), or MaxSimulatedTime;
 * progress reports to the run context's progress stream, if it has one.
 */
void
Simulate(Collector& collector, TrainingResult& result, Time maxSimTime, const RunContext& context)
{
    if (maxSimTime.IsStrictlyPositive())
    {
        Simulator::Stop(maxSimTime);
    }
    ProgressReporter reporter("packet",
                              collector.expected,
                              std::chrono::duration<double>(context.progressInterval.GetSeconds()),
                              context.progress ? *context.progress : std::cerr);
    if (context.progress)
    {
        collector.reporter = &reporter;
        reporter.Start();
    }
    Simulator::Run();
    reporter.Stop();
    collector.reporter = nullptr;
    result.inputs["events"] = static_cast<double>(Simulator::GetEventCount() - reporter.GetPolls());
    result.inputs["simulated_s"] = Simulator::Now().GetSeconds();
    if (collector.completed < collector.expected)
    {
        result.notes.push_back("simulation stopped with " + std::to_string(collector.completed)
                               + " of " + std::to_string(collector.expected)
                               + " worker steps done");
    }
}

/// Congestion counters into result.inputs (doc/reference/congestion.rst); per port only where
/// non-zero.
void
ReportCongestion(const CongestionMonitor& monitor, uint32_t servers, TrainingResult* result)
{
    const CongestionMonitor::Counters t = monitor.GetTotals();
    result->inputs["drops_device"] = t.deviceDrops;
    result->inputs["drops_queue_disc"] = t.queueDiscDrops;
    result->inputs["ecn_marks"] = t.ecnMarks;
    result->inputs["retransmitted_segments"] = t.retransmittedSegments;
    result->inputs["retransmitted_bytes"] = t.retransmittedBytes;
    result->inputs["rto_timeouts"] = t.rtoTimeouts;
    result->inputs["fast_recoveries"] = t.fastRecoveries;
    double serverDrops = 0;
    double serverMarks = 0;
    for (const auto& port : monitor.GetPorts())
    {
        const CongestionMonitor::Counters c = monitor.GetPort(port);
        const double drops = c.deviceDrops + c.queueDiscDrops;
        if (drops > 0)
        {
            result->inputs["drops:" + port] = drops;
        }
        if (c.ecnMarks > 0)
        {
            result->inputs["ecn_marks:" + port] = c.ecnMarks;
        }
        for (uint32_t p = 0; p < servers; ++p)
        {
            // "switch->server0" on the star, "leaf1->server0" or "edge0->server0" on a fabric.
            const std::string towards = "->server" + std::to_string(p);
            if (port.size() > towards.size()
                && port.compare(port.size() - towards.size(), towards.size(), towards) == 0)
            {
                serverDrops += drops;
                serverMarks += c.ecnMarks;
            }
        }
    }
    if (servers > 0)
    {
        // The incast point of a parameter server: the switch ports towards the servers.
        result->inputs["drops_server_ports"] = serverDrops;
        result->inputs["ecn_marks_server_ports"] = serverMarks;
    }
}

/// Run f, then destroy the simulator whether f returned or threw (the next run starts clean).
void
RunThenDestroy(const std::function<void()>& f)
{
    try
    {
        f();
    }
    catch (...)
    {
        Simulator::Destroy();
        throw;
    }
    Simulator::Destroy();
}

/// The TCP counters of one job's own sockets (its CongestionMonitor has no devices).
void
ReportJobTcp(const CongestionMonitor& monitor, TrainingResult* result)
{
    const CongestionMonitor::Counters t = monitor.GetTotals();
    result->inputs["retransmitted_segments"] = t.retransmittedSegments;
    result->inputs["retransmitted_bytes"] = t.retransmittedBytes;
    result->inputs["rto_timeouts"] = t.rtoTimeouts;
    result->inputs["fast_recoveries"] = t.fastRecoveries;
}

/**
 * The fabric counters of a multi-job run: every directed link's utilisation over the fabric
 * window (the earliest job window start to the latest job window end; both are snapshots) and
 * its drops and ECN marks over the whole run.
 */
void
ReportFabric(const Collector& run,
             const std::vector<TrainingClusterHelper::MonitoredLink>& links,
             const CongestionMonitor& monitor,
             JobSetResult& out)
{
    out.windowStart = std::numeric_limits<double>::infinity();
    out.windowEnd = 0;
    for (const auto& r : out.jobs)
    {
        out.windowStart = std::min(out.windowStart, r.windowStart);
        out.windowEnd = std::max(out.windowEnd, r.windowEnd);
    }
    const double window = out.windowEnd - out.windowStart;
    const auto before = run.BytesAt(out.windowStart);
    const auto after = run.BytesAt(out.windowEnd);
    for (std::size_t i = 0; i < links.size(); ++i)
    {
        const CongestionMonitor::Counters c = monitor.GetPort(links[i].name);
        JobSetResult::Link l;
        l.name = links[i].name;
        l.utilisation = window > 0 ? (after[i] - before[i]) * 8.0 / (links[i].bitRate * window) : 0;
        l.drops = c.deviceDrops + c.queueDiscDrops;
        l.ecnMarks = c.ecnMarks;
        out.links.push_back(l);
    }
    out.notes.push_back("fabric utilisation: bytes over the fabric window (first job window start "
                        "to last job window end); drops and ECN marks: whole run");
}

} // namespace

TypeId
PacketBackend::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::PacketBackend")
              .SetParent<TrainingBackend>()
              .SetGroupName("DistributedTraining")
              .AddConstructor<PacketBackend>()
              .AddAttribute("MaxSimulatedTime",
                            "Stop a run at this simulated time even if steps remain (0: no limit)",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&PacketBackend::m_maxSimTime),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("StreamBase",
                            "First random-variable stream index given to the applications",
                            IntegerValue(0),
                            MakeIntegerAccessor(&PacketBackend::m_streamBase),
                            MakeIntegerChecker<int64_t>(0))
              .AddAttribute("Dilation",
                            "Simulate the network a linux-backend run of this dilation D executes: "
                            "rates / D, compute and scenario times x D, results scaled back "
                            "(TrainingScenario::Dilated); the TCP's own constants (minimum RTO, "
                            "delayed-ACK timeout, HyStart clamps) and the link delay stay, as "
                            "in the kernel. Star, one job, no cross traffic.",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&PacketBackend::m_dilation),
                            MakeDoubleChecker<double>(1.0, 10000.0))
              .AddAttribute("CpuPerSegment",
                            "CPU time one TCP segment costs host to host on the star, data and "
                            "ACK (EstimateCpuSeconds: the cost said before a long run). Measured "
                            "with packet-benchmark (doc/validation/performance.rst).",
                            TimeValue(MicroSeconds(40)),
                            MakeTimeAccessor(&PacketBackend::m_cpuPerSegment),
                            MakeTimeChecker(Seconds(0)));
    return tid;
}

PacketBackend::PacketBackend()
    : m_maxSimTime(Seconds(0)),
      m_streamBase(0),
      m_dilation(1.0),
      m_cpuPerSegment(MicroSeconds(40))
{
}

double
PacketBackend::EstimateCpuSeconds(const TrainingProfile& profile,
                                  const TrainingScenario& scenario) const
{
    const double model = static_cast<double>(profile.GetTotalParamBytes());
    const double workers = scenario.workers;
    // Bytes each worker sends and receives per step: a PS worker pushes and pulls the model; an
    // AllReduce node sends what its collective's bandwidth term counts (ring: 2 (K - 1) / K M),
    // and receives as much.
    double perWorker = 2 * model;
    if (scenario.architecture == TrainingScenario::RING_ALLREDUCE)
    {
        AllReduceSchedule::Algorithm algorithm = AllReduceSchedule::RING;
        AllReduceSchedule::FromName(scenario.collective, algorithm);
        CollectiveCostModel::Params p;
        p.workers = scenario.workers;
        p.bytes = model;
        p.beta = 1; // seconds per byte = 1: the time is the busiest node's bytes
        p.chunkBytes = static_cast<double>(scenario.treeChunkBytes);
        perWorker = CollectiveCostModel::Time(algorithm, p);
    }
    const double payload = std::max(1.0, static_cast<double>(scenario.mtu) - 52); // IP, TCP, TS
    const double segments = perWorker * workers * scenario.steps / payload;
    const double links = scenario.topology == "star" ? 1 : 2;
    return segments * links * m_cpuPerSegment.GetSeconds();
}

PacketBackend::~PacketBackend()
{
}

void
PacketBackend::Configure(const BackendSettings& settings)
{
    if (settings.dilation)
    {
        SetChecked("--dilation", *this, "Dilation", DoubleValue(*settings.dilation));
    }
}

void
PacketBackend::CheckDilation(const TrainingScenario& scenario) const
{
    if (m_dilation != 1 && (scenario.topology != "star" || scenario.crossTraffic != "none"))
    {
        throw TrainingInputError("--dilation: the packet backend dilates the linux backend's "
                                 "scenarios only (expected --topology=star and no "
                                 "--crossTraffic, or --dilation=1)");
    }
}

std::vector<TrainingResult>
PacketBackend::Run(const TrainingProfile& profile, const TrainingScenario& scenario) const
{
    NS_LOG_FUNCTION(this);
    scenario.Validate(profile);
    auto wallStart = std::chrono::steady_clock::now();
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(scenario.seed);
    CheckDilation(scenario);
    TrainingProfile dilatedProfile = profile;
    dilatedProfile.ScaleComputeTimes(m_dilation);
    const TrainingScenario dilated = scenario.Dilated(m_dilation);

    TrainingResult result = GetRunContext().NewResult();
    result.backend = "packet";
    result.variant = scenario.tcpVariant;
    Ptr<TrainingClusterHelper> cluster = CreateObject<TrainingClusterHelper>();
    cluster->Configure(dilated);
    if (scenario.hostModel != "ns3")
    {
        result.variant = cluster->GetTcpTypeName().substr(5); // without "ns3::"
    }
    RunThenDestroy(
        [&]
        {
            RunCluster(dilatedProfile, dilated, cluster, result);
        });
    scenario.NoteWorkerUpdate(result, profile);
    if (m_dilation != 1)
    {
        result.inputs["dilation"] = m_dilation;
        result.inputs["goodput_bytes_per_s"] = TrainingNetwork::GetGoodputBytesPerSecond(scenario);
        result.notes.push_back("dilated run (the linux backend's twin): simulated at rates / D "
                               "with compute x D, reported undilated; TCP's own timers "
                               "(minimum RTO, delayed-ACK timeout, HyStart clamps) and the "
                               "link delay are not scaled");
    }
    result.wallSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    return {result};
}

void
PacketBackend::RunCluster(const TrainingProfile& profile,
                          const TrainingScenario& scenario,
                          Ptr<TrainingClusterHelper> cluster,
                          TrainingResult& result) const
{
    cluster->ConfigureTcp();
    cluster->Build();
    const bool ring = scenario.architecture == TrainingScenario::RING_ALLREDUCE;
    auto shared = std::make_shared<const TrainingProfile>(profile);
    ApplicationContainer apps = ring ? cluster->InstallRingJob(shared, scenario)
                                     : cluster->InstallParameterServerJob(shared, scenario);
    ApplicationContainer cross = cluster->InstallCrossTraffic();
    cluster->AssignStreams(m_streamBase);
    Ptr<CongestionMonitor> monitor = CreateObject<CongestionMonitor>();
    monitor->InstallApplications(apps);

    Collector collector;
    collector.result = &result;
    collector.expected = scenario.workers * scenario.steps;
    collector.warmup = scenario.warmup;
    collector.steps = scenario.steps;
    collector.timeScale = 1.0 / m_dilation;
    const auto links = cluster->GetMonitoredLinks();
    ConnectLinkCounters(*cluster, links, cross, *monitor, collector);
    ConnectApplications(apps, ring, collector);
    Simulate(collector, result, m_maxSimTime, GetRunContext());

    // A node of G GPUs processes G batches per step (as the flow and analytic backends).
    result.Finalize(scenario, profile.GetBatchSize() * scenario.gpusPerNode);
    const std::string ncclNote = CollectiveCostModel::NcclNote(scenario, profile);
    if (!ncclNote.empty())
    {
        result.notes.push_back(ncclNote);
    }
    result.inputs["gpus_per_node"] = scenario.gpusPerNode;
    ReportWindow(collector, links, cross.GetN() > 0, &result);
    result.NameServerUpdate(profile, scenario);
    result.inputs["socket_buffer_bytes"] = cluster->GetSocketBufferBytes();
    ReportCongestion(*monitor, ring ? 0 : scenario.servers, &result);
    EcmpCollisions::Report(scenario, result);
    result.inputs["goodput_bytes_per_s"] = TrainingNetwork::GetGoodputBytesPerSecond(scenario);
}

namespace
{

/**
 * A job's link report: only the links its connections cross (their utilisation counts every
 * job's bytes in its window), the busiest of them its bottleneck.
 */
void
KeepJobLinks(const TrainingJobSet& set, uint32_t job, TrainingResult& r)
{
    std::map<std::string, double> kept;
    r.bottleneck.clear();
    for (uint32_t l : set.GetJobLinks(job))
    {
        const std::string& name = set.GetFabric().GetLink(l).name;
        auto it = r.linkUtilisation.find(name);
        if (it == r.linkUtilisation.end())
        {
            continue;
        }
        kept[name] = it->second;
        if (r.bottleneck.empty() || it->second > kept[r.bottleneck])
        {
            r.bottleneck = name;
        }
    }
    r.linkUtilisation = kept;
}

/// The run-wide knobs of a multi-job run.
struct JobRunKnobs
{
    int64_t streamBase;        //!< first random stream
    Time maxSimTime;           //!< stop time (0: none)
    const RunContext& context; //!< records and progress
};

/// Install, connect and run every job of the set on the built cluster; fill out.
void
RunJobCluster(const TrainingJobSet& set,
              Ptr<TrainingClusterHelper> cluster,
              const JobRunKnobs& knobs,
              JobSetResult& out)
{
    cluster->ConfigureTcp();
    cluster->Build();
    const auto& jobs = set.GetJobs();
    std::vector<ApplicationContainer> apps;
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        apps.push_back(cluster->InstallJob(jobs[j].profile,
                                           jobs[j].scenario,
                                           set.GetRoleOffset(j),
                                           Seconds(jobs[j].startTime)));
    }
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        // Each job's streams as in its solo run with its own seed: a stream reads the run
        // number (--seed) when it is assigned, so the job draws the sampled steps and jitter it
        // draws alone with that seed.
        RngSeedManager::SetRun(jobs[j].scenario.seed);
        TrainingClusterHelper::AssignStreams(apps[j], knobs.streamBase);
    }
    RngSeedManager::SetRun(set.GetFabricScenario().seed); // what the fabric draws later
    Ptr<CongestionMonitor> fabricMonitor = CreateObject<CongestionMonitor>();
    TrainingResult whole = knobs.context.NewResult();
    Collector run;
    run.result = &whole;
    run.expected = 0;
    const auto links = cluster->GetMonitoredLinks();
    ConnectLinkCounters(*cluster, links, ApplicationContainer(), *fabricMonitor, run);
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        out.jobs.push_back(knobs.context.NewResult()); // each takes its own run number
    }
    std::vector<Collector> collectors(jobs.size());
    std::vector<Ptr<CongestionMonitor>> monitors;
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        const TrainingScenario& s = jobs[j].scenario;
        out.jobs[j].backend = out.backend;
        out.jobs[j].variant = out.variant;
        collectors[j].result = &out.jobs[j];
        collectors[j].expected = s.workers * s.steps;
        collectors[j].warmup = s.warmup;
        collectors[j].steps = s.steps;
        collectors[j].fabric = &run;
        run.expected += s.workers * s.steps;
        monitors.push_back(CreateObject<CongestionMonitor>());
        monitors.back()->InstallApplications(apps[j]);
        ConnectApplications(apps[j],
                            s.architecture == TrainingScenario::RING_ALLREDUCE,
                            collectors[j]);
    }
    Simulate(run, whole, knobs.maxSimTime, knobs.context);
    out.notes = whole.notes;
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        const TrainingScenario& s = jobs[j].scenario;
        TrainingResult& r = out.jobs[j];
        r.Finalize(s, jobs[j].profile->GetBatchSize() * s.gpusPerNode);
        r.inputs["gpus_per_node"] = s.gpusPerNode;
        r.inputs["start_time_s"] = jobs[j].startTime;
        r.inputs["events"] = whole.inputs["events"];
        r.inputs["simulated_s"] = whole.inputs["simulated_s"];
        ReportWindow(run, links, false, &r);
        KeepJobLinks(set, j, r);
        r.NameServerUpdate(*jobs[j].profile, s);
        s.NoteWorkerUpdate(r, *jobs[j].profile);
        ReportJobTcp(*monitors[j], &r);
        EcmpCollisions::Report(s, r); // the job's own flows: its scenario places the same paths
        r.inputs["socket_buffer_bytes"]
            = TrainingNetwork::GetSocketBufferBytes(s, s.sendBufferBytes);
        r.inputs["goodput_bytes_per_s"] = TrainingNetwork::GetGoodputBytesPerSecond(s);
    }
    ReportFabric(run, links, *fabricMonitor, out);
}

} // namespace

std::vector<JobSetResult>
PacketBackend::RunJobs(const TrainingJobSet& set) const
{
    NS_LOG_FUNCTION(this);
    if (m_dilation != 1)
    {
        throw TrainingInputError("--dilation: the packet backend dilates one job only (the "
                                 "linux backend's scenarios; expected no --jobs, or "
                                 "--dilation=1)");
    }
    const TrainingScenario& fabric = set.GetFabricScenario();
    auto wallStart = std::chrono::steady_clock::now();
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(fabric.seed);
    JobSetResult out;
    out.backend = "packet";
    out.variant = fabric.tcpVariant;
    out.countsLosses = true;
    std::vector<std::string> names;
    const FabricTopology& placed = set.GetFabric();
    for (uint32_t r = 0; r < placed.GetNRoles(); ++r)
    {
        names.push_back(placed.GetNode(placed.GetHostNode(placed.GetRoleHost(r))).name);
    }
    Ptr<TrainingClusterHelper> cluster = CreateObject<TrainingClusterHelper>();
    cluster->ConfigureJobs(fabric, placed, names);
    if (fabric.hostModel != "ns3")
    {
        out.variant = cluster->GetTcpTypeName().substr(5); // without "ns3::"
    }
    const JobRunKnobs knobs{m_streamBase, m_maxSimTime, GetRunContext()};
    RunThenDestroy(
        [&]
        {
            RunJobCluster(set, cluster, knobs, out);
        });
    out.wallSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    for (auto& r : out.jobs)
    {
        r.wallSeconds = out.wallSeconds;
    }
    return {out};
}

} // namespace ns3

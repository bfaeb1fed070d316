/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-sharing-study.h"

#include "ns3/applications-module.h"
#include "ns3/calibrated-sharing.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/kernel-backend.h"
#include "ns3/kernel-flow-study.h"
#include "ns3/linux-buffer-tuner.h"
#include "ns3/tcp-small-queues.h"
#include "ns3/training-cluster-helper.h"
#include "ns3/training-input-error.h"
#include "ns3/training-network.h"
#include "ns3/training-scenario.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <numeric>

namespace ns3
{

namespace
{

using Options = TcpSharingOptions;
using Measurement = TcpSharingStudy::Measurement;

/// PacketSink Rx: count the flow's bytes, note its first and last byte, stop when all are done.
void
OnRx(Measurement* m, uint64_t size, uint32_t flow, Ptr<const Packet> p, const Address&)
{
    if (m->firstByte[flow] < 0)
    {
        m->firstByte[flow] = Simulator::Now().GetSeconds();
    }
    m->received[flow] += p->GetSize();
    if (m->completion[flow] < 0 && m->received[flow] >= size)
    {
        m->completion[flow] = Simulator::Now().GetSeconds();
        if (++m->done == m->completion.size())
        {
            Simulator::Stop();
        }
    }
}

/// Record every flow's cumulative bytes and reschedule until all flows are complete.
void
Sample(Measurement* m, Time interval)
{
    m->rx.push_back(m->received);
    if (m->done < m->completion.size())
    {
        Simulator::Schedule(interval, &Sample, m, interval);
    }
}

/// Give an application's socket (BulkSend's, or PacketSink's accepted one) a buffer tuner.
void
TuneSender(Ptr<BulkSendApplication> app)
{
    LinuxBufferTuner::Install(app->GetSocket());
}

/// PacketSink Rx, with --bufferAutotuning: tune the receiving socket once it exists.
void
TuneReceiver(Ptr<PacketSink> sink, bool* done, Ptr<const Packet>, const Address&)
{
    if (!*done)
    {
        *done = true;
        for (Ptr<Socket> s : sink->GetAcceptedSockets())
        {
            LinuxBufferTuner::Install(s);
        }
    }
}

/// The star for these options (one sending host with --sharedQueue), TCP configured.
Ptr<TrainingClusterHelper>
BuildCluster(const Options& o, uint32_t senders)
{
    // The table's view of the study's options: the star's rates, delays, queues and TCP.
    TrainingScenario s = o.scenario;
    s.workers = senders;
    s.servers = 1;
    // With TcpDctcp the helper installs RED with DCTCP's ECN step marking (and a 2-packet device
    // queue so that the backlog builds in RED); the other variants get DropTail device queues.
    s.queueDisc = "none";
    Ptr<TrainingClusterHelper> cluster = CreateObject<TrainingClusterHelper>();
    const TrainingScenario net = s.Dilated(o.dilation); // the linux run's network at D
    cluster->Configure(net);
    cluster->ConfigureTcp();
    if (o.scenario.tcpVariant == "TcpBbr" || o.scenario.tcpVariant == "ns3::TcpBbr")
    {
        Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(true));
        Config::SetDefault(
            "ns3::TcpSocketState::MaxPacingRate",
            DataRateValue(net.flowCap.GetBitRate() > 0 ? net.flowCap : DataRate("1000Gbps")));
    }
    cluster->Build();
    return cluster;
}

} // namespace

TcpSharingStudy::Measurement
TcpSharingStudy::SimulateLinux(const Options& o, bool sample)
{
    LinuxFlowStudy::Config c;
    c.size = o.size;
    c.arrivals = o.arrivals;
    c.rateBps = o.scenario.nicRate.GetBitRate();
    c.capBps = o.scenario.flowCap.GetBitRate();
    c.queue = o.scenario.queueSize;
    c.mtu = o.scenario.mtu;
    c.congestion = LinuxBackend::MapCongestionControl(o.scenario.tcpVariant);
    c.dilation = o.dilation;
    c.sampleSeconds = sample ? o.sample.GetSeconds() : 0;
    c.maxWallSeconds = o.maxSimTime.GetSeconds() * o.dilation;
    c.sharedSender = o.sharedQueue;
    c.sysctls = o.sysctls;
    c.writePattern = o.scenario.writePattern;
    std::cerr << "note: --stack=linux: --delay is not emulated (no netem); the RTT is the "
                 "veth path's own"
              << std::endl;
    LinuxFlowStudy::Result r = LinuxFlowStudy::Run(c);
    return Measurement{r.completion, r.firstByte, r.rx, r.received, r.done};
}

TcpSharingStudy::Measurement
TcpSharingStudy::SimulateNs3(const Options& o, bool sample)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(o.scenario.seed);
    const uint32_t n = o.arrivals.size();
    Ptr<TrainingClusterHelper> cluster = BuildCluster(o, o.sharedQueue ? 1 : n);
    Measurement m;
    m.completion.assign(n, -1);
    m.firstByte.assign(n, -1);
    m.received.assign(n, 0);
    auto tuned = std::make_unique<bool[]>(n); // set once each receiver socket is tuned
    Ptr<Node> receiver = cluster->GetServers().Get(0);
    for (uint32_t i = 0; i < n; ++i)
    {
        const uint16_t port = 6000 + i;
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), port));
        Ptr<Application> sink = sinkHelper.Install(receiver).Get(0);
        sink->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnRx, &m, o.size, i));
        Ptr<Node> sender = cluster->GetWorkers().Get(o.sharedQueue ? 0 : i);
        if (o.scenario.tcpSmallQueues)
        {
            TcpSmallQueuesSocketFactory::Install(sender);
        }
        BulkSendHelper bulk(o.scenario.tcpSmallQueues ? "ns3::TcpSmallQueuesSocketFactory"
                                                      : "ns3::TcpSocketFactory",
                            InetSocketAddress(cluster->GetServerAddress(0), port));
        bulk.SetAttribute("MaxBytes", UintegerValue(o.size));
        // BulkSend writes whole messages (a Send larger than the free buffer fails, unlike
        // Linux's partial write): with autotuning, messages below the initial 20-segment buffer.
        bulk.SetAttribute("SendSize",
                          UintegerValue(o.scenario.bufferAutotuning
                                            ? 10 * TrainingNetwork::GetSegmentSize(o.scenario.mtu)
                                            : 64 * 1024));
        Ptr<Application> app = bulk.Install(sender).Get(0);
        app->SetStartTime(Seconds(o.arrivals[i]));
        if (o.scenario.bufferAutotuning)
        {
            // The sender's socket exists once its start event (scheduled at initialisation,
            // so before anything scheduled now for the same time) has run.
            Simulator::Schedule(Seconds(o.arrivals[i]),
                                [app]
                                {
                                    Simulator::ScheduleNow(&TuneSender,
                                                           DynamicCast<BulkSendApplication>(app));
                                });
            sink->TraceConnectWithoutContext(
                "Rx",
                MakeBoundCallback(&TuneReceiver, DynamicCast<PacketSink>(sink), &tuned[i]));
        }
    }
    if (sample)
    {
        Simulator::Schedule(Seconds(0), &Sample, &m, o.sample);
    }
    Simulator::Stop(o.maxSimTime);
    Simulator::Run();
    Simulator::Destroy();
    return m;
}

TcpSharingStudy::Measurement
TcpSharingStudy::Simulate(const Options& o, bool sample)
{
    if (o.stack == "linux")
    {
        return SimulateLinux(o, sample);
    }
    if (o.dilation == 1)
    {
        return SimulateNs3(o, sample);
    }
    const double dil = o.dilation;
    Options d = o; // BuildCluster dilates the network (TrainingScenario::Dilated)
    for (double& t : d.arrivals)
    {
        t *= dil;
    }
    d.sample = Seconds(o.sample.GetSeconds() * dil);
    d.maxSimTime = Seconds(o.maxSimTime.GetSeconds() * dil);
    Measurement m = SimulateNs3(d, sample);
    for (auto* times : {&m.completion, &m.firstByte})
    {
        for (double& t : *times)
        {
            t = t < 0 ? t : t / dil;
        }
    }
    return m;
}

double
TcpSharingStudy::Mean(const std::vector<double>& v)
{
    return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / v.size();
}

TcpSharingStudy::IncumbentFit
TcpSharingStudy::FitIncumbentWeight(const SharingIndex& index,
                                    const std::vector<double>& measured,
                                    const std::vector<double>& fcfs,
                                    const std::vector<double>& ps,
                                    Time window)
{
    double scale = 0;
    for (std::size_t i = 0; i < fcfs.size(); ++i)
    {
        scale += (ps[i] - fcfs[i]) * (ps[i] - fcfs[i]);
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (!(scale > 0))
    {
        return {nan, nan};
    }
    Ptr<CalibratedSharing> model = CreateObject<CalibratedSharing>();
    model->SetAttribute("CohortWindow", TimeValue(window));
    IncumbentFit best{nan, std::numeric_limits<double>::infinity()};
    std::vector<double> first;
    bool varies = false; // all flows in one cohort: w does not matter, nothing to fit
    for (int k = 0; k <= 100; ++k)
    {
        model->SetAttribute("IncumbentWeight", DoubleValue(k / 100.0));
        std::vector<double> c = index.GetCompletionTimes(*model);
        if (k == 0)
        {
            first = c;
        }
        for (std::size_t i = 0; i < c.size() && !varies; ++i)
        {
            varies = std::abs(c[i] - first[i]) > 1e-9 * (std::abs(c[i]) + std::abs(first[i]));
        }
        double err = 0;
        for (std::size_t i = 0; i < c.size(); ++i)
        {
            err += (measured[i] - c[i]) * (measured[i] - c[i]);
        }
        if (err < best.residual)
        {
            best = {k / 100.0, err};
        }
    }
    if (!varies)
    {
        return {nan, nan};
    }
    best.residual = std::sqrt(best.residual / scale);
    return best;
}

TcpSharingStudy::Plan
TcpSharingStudy::Prepare(Options& o)
{
    if (o.scenario.nicRate.GetBitRate() == 0)
    {
        throw TrainingInputError("--rate: must be above 0");
    }
    if (o.scenario.flowCap.GetBitRate() > o.scenario.nicRate.GetBitRate())
    {
        throw TrainingInputError("--cap: " + std::to_string(o.scenario.flowCap.GetBitRate())
                                 + " bit/s above the link rate (expected at most --rate)");
    }
    const TrainingScenario& s = o.scenario;
    // C: the bottleneck's goodput; one flow alone reaches the cap-aware goodput `one`.
    // --stack=linux: the kernel's goodput (Ethernet framing, MTU - 52 payload).
    Plan p;
    const double linuxC
        = LinuxFlowStudy::GetGoodputBytesPerSecond(o.scenario.nicRate.GetBitRate(), o.scenario.mtu);
    p.capBytes = o.scenario.flowCap.GetBitRate() / 8.0;
    const bool kernel = o.stack == "linux";
    p.c = kernel ? linuxC : TrainingNetwork::GetLinkGoodputBytesPerSecond(s);
    p.one = kernel ? (p.capBytes > 0 ? std::min(linuxC, p.capBytes) : linuxC)
                   : TrainingNetwork::GetGoodputBytesPerSecond(s);
    p.rtt = TrainingNetwork::GetPropagationRttSeconds(s);
    p.bdp = p.one * p.rtt;
    if (o.size == 0)
    {
        if (!(p.bdp > 0))
        {
            throw TrainingInputError("--sizeBdp: needs --delay > 0 (or give --size)");
        }
        o.size = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(o.sizeBdp * p.bdp)));
    }
    if (o.sample.IsZero())
    {
        o.sample = Seconds(std::max(p.rtt / 4, 1e-6));
    }
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(o.scenario.seed);
    Ptr<UniformRandomVariable> jitter = CreateObject<UniformRandomVariable>();
    jitter->SetStream(0);
    for (uint32_t i = 0; i < o.flows; ++i)
    {
        o.nominal.push_back(i * o.stagger.GetSeconds());
        o.arrivals.push_back(i * o.stagger.GetSeconds()
                             + jitter->GetValue(0, o.scenario.startJitter.GetSeconds()));
    }
    if (o.maxSimTime.IsZero())
    {
        const double last = *std::max_element(o.arrivals.begin(), o.arrivals.end());
        o.maxSimTime = Seconds(last + 20.0 * o.flows * o.size / p.c + 10.0);
    }
    return p;
}

TcpSharingStudy::Report
TcpSharingStudy::Run(const Options& o, const Plan& p)
{
    Report r;
    if (o.stack != "linux" && o.scenario.writePattern != "event-loop")
    {
        std::cerr << "note: --stack=ns3: --writePattern changes nothing (ns-3's applications "
                     "write in zero simulated time: each socket is refilled at the instant its "
                     "buffer frees, whichever thread would write it)"
                  << std::endl;
    }
    auto wallStart = std::chrono::steady_clock::now();
    if (o.baseline)
    {
        Options alone = o;
        alone.arrivals = {0.0};
        Measurement lone = Simulate(alone, false);
        if (lone.completion[0] < 0)
        {
            throw TrainingInputError("--baseline: a lone flow did not complete within "
                                     "--maxSimTime");
        }
        r.overhead = std::max(0.0, lone.completion[0] - o.size / p.one);
    }
    r.m = Simulate(o, !o.timeseries.empty());
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    std::vector<SharingIndex::Transfer> transfers;
    for (uint32_t i = 0; i < o.flows; ++i)
    {
        const double end = r.m.completion[i] < 0 ? o.maxSimTime.GetSeconds() : r.m.completion[i];
        // Against the nominal start, as for the linux stack, whose start noise is unknown: the
        // jitter is noise the experiment does not control, not a known arrival.
        r.fct.push_back(end - o.nominal[i]);
        transfers.push_back({o.nominal[i], static_cast<double>(o.size)});
    }
    SharingIndex index(transfers, p.c, r.overhead, p.capBytes);
    r.fcfs = index.GetFcfsCompletionTimes();
    r.ps = index.GetPsCompletionTimes();
    r.index = SharingIndex::Compute(r.fct, r.fcfs, r.ps);
    r.fit = FitIncumbentWeight(index, r.fct, r.fcfs, r.ps, 20 * o.scenario.linkDelay);
    return r;
}

} // namespace ns3

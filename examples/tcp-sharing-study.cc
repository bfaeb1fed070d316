/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Bandwidth sharing under real ns-3 TCP (issue 7, part 1): N senders each send S bytes through
 * one switch to one receiver, whose link is the bottleneck. Every flow's received bytes are
 * sampled over time and its completion time recorded; the flow completion times are compared
 * with FCFS and processor sharing (PS) for the same arrivals by the sharing index of
 * model/sharing-index.h (0 = FCFS, 1 = PS) and its residual (large = neither).
 *
 *   ./build/bin/tcp-sharing-study --flows=4 --sizeBdp=10 --rate=10Gbps --tcp=TcpCubic
 *
 * C is the bottleneck's goodput (rate x 1448/1502 at MTU 1500); with --cap the models cap every
 * flow (SharingIndex's flowCap) and the BDP is the capped flow's. The network is
 * TrainingClusterHelper's star (N workers, one server) with its TCP settings
 * (ConfigureTcp: segment MTU - 52, send buffer max(256 KiB, 2 BDP), receive buffer = send
 * buffer + 64 KiB, DelAckCount 1, SACK, MinRto 200 ms). TcpDctcp runs over a RED queue disc
 * with ECN marking on every device (MinTh 20, MaxTh 60 packets, as ns-3's tcp-dctcp example,
 * QW 1, MaxSize = --queue; device queues 2 packets so RED holds the queue); the others over the
 * plain DropTail device queue of --queue. TcpBbr gets pacing (required by ns-3's BBR).
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/distributed-training-module.h"
#include "ns3/internet-module.h"

#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <limits>
#include <numeric>

using namespace ns3;

namespace
{

/// What one simulation measured.
struct Measurement
{
    std::vector<double> completion;        //!< absolute time of each flow's last byte (-1: none)
    std::vector<std::vector<uint64_t>> rx; //!< per sample, per flow: cumulative bytes
    std::vector<uint64_t> received;        //!< per flow: bytes received
    uint32_t done{0};                      //!< flows complete
};

/// Options of one run.
struct Options
{
    uint64_t size{0};              //!< bytes per flow
    std::vector<double> arrivals;  //!< start time of each flow, seconds
    DataRate rate{"10Gbps"};       //!< every link's rate
    DataRate cap{0};               //!< per-flow pacing cap (0: none)
    Time delay{MicroSeconds(10)};  //!< one-way delay per link
    std::string tcp{"TcpCubic"};   //!< congestion control
    std::string queue{"1000p"};    //!< bottleneck queue size
    uint32_t mtu{1500};            //!< MTU
    Time sample{MicroSeconds(10)}; //!< sampling interval of received bytes
    Time maxSimTime{Seconds(0)};   //!< simulated time limit
};

/// PacketSink Rx: count the flow's bytes, note its completion, stop when all are complete.
void
OnRx(Measurement* m, uint64_t size, uint32_t flow, Ptr<const Packet> p, const Address&)
{
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

// ---- --stack=linux (issue 14): the same flows over kernel TCP in namespaces ---------------
std::string g_stack = "ns3"; //!< --stack: ns3 or linux
double g_dilation = 1;       //!< --dilation (linux)

/// The Measurement of LinuxFlowStudy::Run for these options (kernel TCP, real time).
Measurement
SimulateLinux(const Options& o, bool sample)
{
    LinuxFlowStudy::Config c;
    c.size = o.size;
    c.arrivals = o.arrivals;
    c.rateBps = o.rate.GetBitRate();
    c.capBps = o.cap.GetBitRate();
    c.queue = o.queue;
    c.mtu = o.mtu;
    c.congestion = LinuxBackend::MapCongestionControl(o.tcp);
    c.dilation = g_dilation;
    c.sampleSeconds = sample ? o.sample.GetSeconds() : 0;
    c.maxWallSeconds = o.maxSimTime.GetSeconds() * g_dilation;
    LinuxFlowStudy::Result r = LinuxFlowStudy::Run(c);
    return Measurement{r.completion, r.rx, r.received, r.done};
}

// ---- end of --stack=linux ----------------------------------------------------------------

/// Run `o.arrivals.size()` flows of `o.size` bytes; return what was measured.
Measurement
Simulate(const Options& o, bool sample)
{
    if (g_stack == "linux")
    {
        return SimulateLinux(o, sample);
    }
    const uint32_t n = o.arrivals.size();
    Ptr<TrainingClusterHelper> cluster = CreateObject<TrainingClusterHelper>();
    cluster->SetAttribute("Workers", UintegerValue(n));
    cluster->SetAttribute("Servers", UintegerValue(1));
    cluster->SetAttribute("NicRate", DataRateValue(o.rate));
    cluster->SetAttribute("FlowCap", DataRateValue(o.cap));
    cluster->SetAttribute("LinkDelay", TimeValue(o.delay));
    cluster->SetAttribute("Mtu", UintegerValue(o.mtu));
    cluster->SetAttribute("TcpVariant", StringValue(o.tcp));
    // With TcpDctcp the helper installs RED with DCTCP's ECN step marking (and a 2-packet device
    // queue so that the backlog builds in RED); the other variants get DropTail device queues.
    cluster->SetAttribute("QueueSize", StringValue(o.queue));
    cluster->SetAttribute("QueueDisc", StringValue("none"));
    cluster->ConfigureTcp();
    if (o.tcp == "TcpBbr" || o.tcp == "ns3::TcpBbr")
    {
        Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(true));
        Config::SetDefault("ns3::TcpSocketState::MaxPacingRate",
                           DataRateValue(o.cap.GetBitRate() > 0 ? o.cap : DataRate("1000Gbps")));
    }
    cluster->Build();

    Measurement m;
    m.completion.assign(n, -1);
    m.received.assign(n, 0);
    Ptr<Node> receiver = cluster->GetServers().Get(0);
    Ipv4Address to = cluster->GetServerAddress(0);
    for (uint32_t i = 0; i < n; ++i)
    {
        uint16_t port = 6000 + i;
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sink = sinkHelper.Install(receiver);
        sink.Start(Seconds(0));
        sink.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnRx, &m, o.size, i));
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(to, port));
        bulk.SetAttribute("MaxBytes", UintegerValue(o.size));
        bulk.SetAttribute("SendSize", UintegerValue(64 * 1024));
        ApplicationContainer app = bulk.Install(cluster->GetWorkers().Get(i));
        app.Start(Seconds(o.arrivals[i]));
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

/// Arithmetic mean (0 for an empty vector).
double
Mean(const std::vector<double>& v)
{
    return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / v.size();
}

/// The CalibratedSharing weight that best reproduces measured completion times.
struct IncumbentFit
{
    double weight;   //!< IncumbentWeight in [0, 1] (NaN when FCFS = PS)
    double residual; //!< ||m - c(w)|| over ||p - f|| at that weight
};

/**
 * Fit CalibratedSharing's IncumbentWeight to measured completion times: the w on a 0.01 grid
 * that minimises ||m - c(w)||, where c(w) are the model's completion times for the same
 * arrivals (SharingIndex::GetCompletionTimes), with the cohort window given. NaN when FCFS = PS
 * or when all flows fall into one cohort (then w changes nothing).
 */
IncumbentFit
FitIncumbentWeight(const SharingIndex& index,
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

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t flows = 2;
    std::string size = "0";
    double sizeBdp = 10;
    std::string rate = "10Gbps";
    std::string cap = "0";
    std::string delay = "10us";
    std::string tcp = "TcpCubic";
    std::string queue = "1000p";
    uint32_t mtu = 1500;
    std::string stagger = "0s";
    std::string sample = "0s";
    bool baseline = true;
    std::string maxSimTime = "0s";
    std::string csv;
    std::string timeseries;

    CommandLine cmd(__FILE__);
    cmd.AddValue("flows", "Number of flows N (2..64)", flows);
    cmd.AddValue("size", "Bytes per flow S (0: use --sizeBdp)", size);
    cmd.AddValue("sizeBdp", "Bytes per flow in units of the BDP (goodput x 4 x delay)", sizeBdp);
    cmd.AddValue("rate", "Link rate (every link; the receiver's is the bottleneck)", rate);
    cmd.AddValue("cap", "Per-flow cap by TCP pacing (0: none)", cap);
    cmd.AddValue("delay", "One-way delay of each link (RTT = 4 x delay)", delay);
    cmd.AddValue("tcp", "TcpNewReno, TcpCubic, TcpDctcp (RED/ECN queue) or TcpBbr", tcp);
    cmd.AddValue("queue", "Bottleneck queue size (e.g. 1000p, 150000B)", queue);
    cmd.AddValue("mtu", "MTU (576..9000)", mtu);
    cmd.AddValue("stagger", "Flow i starts at i x stagger", stagger);
    cmd.AddValue("sample", "Sampling interval of received bytes (0s: RTT/4)", sample);
    cmd.AddValue("baseline",
                 "Run one flow alone first and add its overhead over S/C to both models",
                 baseline);
    cmd.AddValue("maxSimTime", "Simulated time limit (0s: 20 x N S / C + 10 s)", maxSimTime);
    cmd.AddValue("csv", "Append one summary row to this CSV file", csv);
    cmd.AddValue("timeseries",
                 "Write per-flow rate over time (time_s,flow,gbps) to this file",
                 timeseries);
    cmd.AddValue("stack", "ns3 (simulated TCP) or linux (kernel TCP in namespaces, root)", g_stack);
    cmd.AddValue("dilation", "--stack=linux: run at rate/D, report times / D", g_dilation);
    cmd.Parse(argc, argv);

    try
    {
        Options o;
        if (flows < 1 || flows > 64)
        {
            throw TrainingInputError("--flows: " + std::to_string(flows)
                                     + " out of range (expected 1..64)");
        }
        o.rate = TrainingScenario::ParseDataRate("--rate", rate);
        if (o.rate.GetBitRate() == 0)
        {
            throw TrainingInputError("--rate: must be above 0");
        }
        o.cap = cap == "0" ? DataRate(0) : TrainingScenario::ParseDataRate("--cap", cap);
        if (o.cap.GetBitRate() > o.rate.GetBitRate())
        {
            throw TrainingInputError("--cap: cap " + cap + " above the link rate " + rate);
        }
        o.delay = TrainingScenario::ParseTime("--delay", delay);
        TrainingScenario::ParseQueueSize("--queue", queue);
        o.queue = queue;
        if (mtu < 576 || mtu > 9000)
        {
            throw TrainingInputError("--mtu: " + std::to_string(mtu)
                                     + " out of range (expected 576..9000)");
        }
        o.mtu = mtu;
        o.tcp = tcp;
        if (g_stack != "ns3" && g_stack != "linux")
        {
            throw TrainingInputError("--stack: '" + g_stack + "' (expected ns3 or linux)");
        }
        Time gap = TrainingScenario::ParseTime("--stagger", stagger);
        if (gap.IsStrictlyNegative())
        {
            throw TrainingInputError("--stagger: negative time '" + stagger + "'");
        }

        TrainingScenario s;
        s.nicRate = o.rate;
        s.flowCap = o.cap;
        s.mtu = mtu;
        // C: the bottleneck's goodput; one flow alone reaches the cap-aware goodput `one`.
        // --stack=linux: the kernel's goodput (Ethernet framing, MTU - 52 payload).
        const double linuxC = LinuxFlowStudy::GetGoodputBytesPerSecond(o.rate.GetBitRate(), mtu);
        const double c
            = g_stack == "linux" ? linuxC : TrainingNetwork::GetLinkGoodputBytesPerSecond(s);
        const double linuxOne
            = o.cap.GetBitRate() > 0 ? std::min(linuxC, o.cap.GetBitRate() / 8.0) : linuxC;
        const double one
            = g_stack == "linux" ? linuxOne : TrainingNetwork::GetGoodputBytesPerSecond(s);
        const double capBytes = o.cap.GetBitRate() / 8.0;
        const double rtt = 4 * o.delay.GetSeconds();
        const double bdp = one * rtt;
        if (size != "0")
        {
            char* end = nullptr;
            double v = std::strtod(size.c_str(), &end);
            if (end == size.c_str() || *end != '\0' || !(v >= 1) || v > 1e12)
            {
                throw TrainingInputError("--size: cannot parse '" + size
                                         + "' (expected bytes, 1..1e12)");
            }
            o.size = static_cast<uint64_t>(v);
        }
        else
        {
            if (!(sizeBdp > 0) || !(bdp > 0))
            {
                throw TrainingInputError("--sizeBdp: needs a value > 0 and --delay > 0");
            }
            o.size = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(sizeBdp * bdp)));
        }
        o.sample = TrainingScenario::ParseTime("--sample", sample);
        if (o.sample.IsZero())
        {
            o.sample = Seconds(std::max(rtt / 4, 1e-6));
        }
        for (uint32_t i = 0; i < flows; ++i)
        {
            o.arrivals.push_back(i * gap.GetSeconds());
        }
        o.maxSimTime = TrainingScenario::ParseTime("--maxSimTime", maxSimTime);
        if (o.maxSimTime.IsZero())
        {
            o.maxSimTime = Seconds(o.arrivals.back() + 20.0 * flows * o.size / c + 10.0);
        }

        auto wallStart = std::chrono::steady_clock::now();
        double overhead = 0;
        if (baseline)
        {
            Options alone = o;
            alone.arrivals = {0.0};
            Measurement lone = Simulate(alone, false);
            if (lone.completion[0] < 0)
            {
                throw TrainingInputError("--baseline: a lone flow did not complete within "
                                         "--maxSimTime");
            }
            overhead = std::max(0.0, lone.completion[0] - o.size / one);
        }
        Measurement m = Simulate(o, !timeseries.empty());
        double wall
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();

        bool complete = m.done == flows;
        std::vector<double> fct(flows);
        for (uint32_t i = 0; i < flows; ++i)
        {
            fct[i] = m.completion[i] < 0 ? o.maxSimTime.GetSeconds() - o.arrivals[i]
                                         : m.completion[i] - o.arrivals[i];
        }
        std::vector<SharingIndex::Transfer> transfers;
        for (uint32_t i = 0; i < flows; ++i)
        {
            transfers.push_back({o.arrivals[i], static_cast<double>(o.size)});
        }
        SharingIndex index(transfers, c, overhead, capBytes);
        std::vector<double> f = index.GetFcfsCompletionTimes();
        std::vector<double> p = index.GetPsCompletionTimes();
        SharingIndex::Result r = SharingIndex::Compute(fct, f, p);
        IncumbentFit fit = FitIncumbentWeight(index, fct, f, p, 20 * o.delay);

        std::printf("tcp=%s rate=%s N=%u S=%llu (%.3g BDP) stagger=%s queue=%s cap=%s: "
                    "lambda=%.3f residual=%.3f%s%s mean FCT measured %.1f us, fcfs %.1f us, "
                    "ps %.1f us (overhead %.1f us, %.2f s wall); calibrated fit w=%.2f "
                    "(residual %.3f)\n",
                    tcp.c_str(),
                    rate.c_str(),
                    flows,
                    static_cast<unsigned long long>(o.size),
                    o.size / bdp,
                    stagger.c_str(),
                    queue.c_str(),
                    cap.c_str(),
                    r.lambda,
                    r.residual,
                    r.defined ? "" : " (undefined: FCFS = PS)",
                    complete ? "" : " (INCOMPLETE: flows unfinished at --maxSimTime)",
                    Mean(fct) * 1e6,
                    Mean(f) * 1e6,
                    Mean(p) * 1e6,
                    overhead * 1e6,
                    wall,
                    fit.weight,
                    fit.residual);
        if (!csv.empty())
        {
            bool header = !std::ifstream(csv).good();
            std::ofstream out(csv, std::ios::app);
            if (!out)
            {
                throw TrainingInputError("--csv: cannot write '" + csv + "'");
            }
            if (header)
            {
                out << "rate_bps,tcp,flows,size_bytes,size_bdp,stagger_s,queue,cap_bps,lambda,"
                       "residual,defined,complete,fct_measured_s,fct_fcfs_s,fct_ps_s,"
                       "overhead_s,wall_s,w_fit,w_fit_residual\n";
            }
            char line[512];
            std::snprintf(line,
                          sizeof(line),
                          "%.0f,%s,%u,%llu,%.6g,%.9g,%s,%.0f,%.6f,%.6f,%d,%d,%.9g,%.9g,%.9g,"
                          "%.9g,%.3f,%.2f,%.6f\n",
                          static_cast<double>(o.rate.GetBitRate()),
                          tcp.c_str(),
                          flows,
                          static_cast<unsigned long long>(o.size),
                          o.size / bdp,
                          gap.GetSeconds(),
                          queue.c_str(),
                          static_cast<double>(o.cap.GetBitRate()),
                          r.lambda,
                          r.residual,
                          r.defined ? 1 : 0,
                          complete ? 1 : 0,
                          Mean(fct),
                          Mean(f),
                          Mean(p),
                          overhead,
                          wall,
                          fit.weight,
                          fit.residual);
            out << line;
        }
        if (!timeseries.empty())
        {
            std::ofstream out(timeseries);
            if (!out)
            {
                throw TrainingInputError("--timeseries: cannot write '" + timeseries + "'");
            }
            out << "time_s,flow,gbps\n";
            const double dt = o.sample.GetSeconds();
            for (std::size_t k = 1; k < m.rx.size(); ++k)
            {
                for (uint32_t i = 0; i < flows; ++i)
                {
                    out << k * dt << "," << i << "," << (m.rx[k][i] - m.rx[k - 1][i]) * 8 / dt / 1e9
                        << "\n";
                }
            }
        }
    }
    catch (const TrainingInputError& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}

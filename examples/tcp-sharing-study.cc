/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Bandwidth sharing under real ns-3 TCP (issue 7, part 1): N senders each send S bytes through
 * one switch to one receiver, whose link is the bottleneck. Every flow's received bytes are
 * sampled over time and its completion time recorded; the flow completion times are compared
 * with FCFS and processor sharing (PS) for the same arrivals by the sharing index of
 * model/flow/sharing-index.h (0 = FCFS, 1 = PS) and its residual (large = neither).
 *
 *   ./build/bin/tcp-sharing-study --flows=4 --sizeBdp=10 --rate=10Gbps --tcp=TcpCubic
 *   ./build/bin/tcp-sharing-study --flows=4 --size=1000000 --rate=200Mbps --queue=262144B \
 *       --hostModel=linux --sharedQueue=true --seed=2 --flowTimes=flows.csv
 *
 * C is the bottleneck's goodput (rate x 1448/1502 at MTU 1500); with --cap the models cap every
 * flow (SharingIndex's flowCap) and the BDP is the capped flow's. The network is
 * TrainingClusterHelper's star (N workers, one server; with --sharedQueue one worker sends every
 * flow through its one NIC queue, --hostQueue) with its TCP settings (ConfigureTcp: segment
 * MTU - 52, send buffer max(256 KiB, 2 BDP), receive buffer = send buffer + 64 KiB, DelAckCount
 * 1, SACK, MinRto 200 ms; --hostModel=linux: Linux's CUBIC or Reno, delayed ACKs, buffer
 * autotuning, TCP small queues and a start jitter, doc/reference/congestion.rst; --tcpSmallQueues:
 * the senders' sockets are TcpSmallQueuesSocket, made by TcpSmallQueuesSocketFactory). TcpDctcp
 * runs over a RED queue disc with ECN marking on every device (MinTh 20, MaxTh 60 packets, as
 * ns-3's tcp-dctcp example, QW 1, MaxSize = --queue; device queues 2 packets so RED holds the
 * queue); the others over the plain DropTail device queue of --queue. TcpBbr gets pacing (required
 * by ns-3's BBR).
 *
 * Options are a strict table (kOptions): every value is checked by the driver's parsers
 * (ScenarioOptions, TrainingScenario) and a bad one ends the program with a message naming the
 * option, exit code 1.
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/distributed-training-module.h"
#include "ns3/internet-module.h"
#include "ns3/program-options.h"
#include "ns3/unit-parser.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
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
    std::vector<double> firstByte;         //!< absolute time of each flow's first byte (-1: none)
    std::vector<std::vector<uint64_t>> rx; //!< per sample, per flow: cumulative bytes
    std::vector<uint64_t> received;        //!< per flow: bytes received
    uint32_t done{0};                      //!< flows complete
};

/// Everything the command line sets, and what is derived from it.
struct Options
{
    uint32_t flows{2};            //!< --flows
    uint64_t size{0};             //!< --size: bytes per flow (0: --sizeBdp)
    double sizeBdp{10};           //!< --sizeBdp
    DataRate rate{"10Gbps"};      //!< --rate: every link's rate
    DataRate cap{0};              //!< --cap: per-flow pacing cap (0: none)
    Time delay{MicroSeconds(10)}; //!< --delay: one-way delay per link
    std::string tcp{"TcpCubic"};  //!< --tcp: congestion control
    std::string queue{"1000p"};   //!< --queue: bottleneck queue size
    std::string hostQueue;        //!< --hostQueue: the sending NICs' queue ("": --queue)
    uint32_t mtu{1500};           //!< --mtu
    Time stagger{0};              //!< --stagger
    Time startJitter{0};          //!< --startJitter
    Time sample{0};               //!< --sample (0: RTT/4)
    bool baseline{true};          //!< --baseline
    Time maxSimTime{0};           //!< --maxSimTime (0: automatic)
    std::string csv;              //!< --csv
    std::string timeseries;       //!< --timeseries
    std::string flowTimes;        //!< --flowTimes
    std::string stack{"ns3"};     //!< --stack: ns3 or linux
    double dilation{1};           //!< --dilation (linux)
    uint32_t seed{1};             //!< --seed: run number of the random streams
    bool sharedQueue{false};      //!< --sharedQueue: every flow from one host
    std::string hostModel{"ns3"}; //!< --hostModel
    bool autotuning{false};       //!< --bufferAutotuning
    bool delayedAck{false};       //!< --delayedAck
    bool smallQueues{false};      //!< --tcpSmallQueues
    std::vector<std::pair<std::string, std::string>> sysctls; //!< --linuxSysctl
    std::vector<double> arrivals; //!< start time of each flow, seconds (derived, jitter included)
    std::vector<double> nominal;  //!< i x stagger: the arrivals the models are given
};

/// One command-line option of the study.
struct StudyOption
{
    const char* name; //!< without "--"
    const char* def;  //!< default value
    const char* help; //!< one line for --help
    bool preset;      //!< applied before the others (which then override it)
    std::function<void(Options&, const std::string&, const std::string&)> apply; //!< parse
};

using S = ScenarioOptions;
using TS = TrainingScenario;

/// \return a time option's value ("0" allowed), at least 0
Time
NonNegativeTime(const std::string& option, const std::string& text)
{
    Time t = text == "0" ? Seconds(0) : UnitParser::ParseTime(option, text);
    if (t.IsStrictlyNegative())
    {
        throw TrainingInputError(option + ": negative time '" + text + "' (expected >= 0)");
    }
    return t;
}

/// The host and TCP options (presets first).
void
AddTcpOptions(std::vector<StudyOption>& t)
{
    t.insert(t.end(),
             {
                 {"hostModel",
                  "ns3",
                  "ns3, or linux: Linux CUBIC/Reno for TcpCubic/TcpNewReno, --delayedAck, "
                  "--bufferAutotuning, --tcpSmallQueues, --startJitter=20us (options given "
                  "with it override it)",
                  true,
                  [](Options& o, auto& n, auto& v)
                  {
                      TS s;
                      s.ApplyHostModel(n, v);
                      o.hostModel = s.hostModel;
                      o.autotuning = s.bufferAutotuning;
                      o.delayedAck = s.delayedAck;
                      o.smallQueues = s.tcpSmallQueues;
                      o.startJitter = s.startJitter;
                  }},
                 {"tcp",
                  "TcpCubic",
                  "TcpNewReno, TcpCubic, TcpLinuxCubic, TcpLinuxReno, TcpDctcp "
                  "(RED/ECN queue) or TcpBbr",
                  false,
                  [](Options& o, auto&, auto& v)
                  {
                      o.tcp = v;
                  }},
                 {"delayedAck",
                  "false",
                  "Linux's delayed ACKs (one per two segments, or after 40 ms)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.delayedAck = UnitParser::ParseBool(n, v);
                  }},
                 {"bufferAutotuning",
                  "false",
                  "Linux socket-buffer autotuning (tcp_wmem/tcp_rmem)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.autotuning = UnitParser::ParseBool(n, v);
                  }},
             });
}

/// The flows: how many, how large, when they start.
void
AddWorkloadOptions(std::vector<StudyOption>& t)
{
    t.insert(t.end(),
             {
                 {"flows",
                  "2",
                  "Number of flows N (1..64)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.flows = UnitParser::ParseUnsigned(n, v, 1, 64);
                  }},
                 {"size",
                  "0",
                  "Bytes per flow S (0: use --sizeBdp; e.g. 1000000, 30MB)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.size = UnitParser::ParseBytes(n, v);
                      if (o.size > 1000000000000ULL)
                      {
                          throw TrainingInputError(n + ": '" + v
                                                   + "' out of range (expected 1..1e12)");
                      }
                  }},
                 {"sizeBdp",
                  "10",
                  "Bytes per flow in units of the BDP (goodput x 4 x delay)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.sizeBdp = UnitParser::ParseReal(n, v, 1e-9, 1e9, "a number of BDPs > 0");
                  }},
                 {"stagger",
                  "0s",
                  "Flow i starts at i x stagger",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.stagger = NonNegativeTime(n, v);
                  }},
                 {"startJitter",
                  "0",
                  "Largest random delay added to every flow's start (drawn with "
                  "--seed)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.startJitter = NonNegativeTime(n, v);
                  }},
                 {"seed",
                  "1",
                  "Run number of the random streams (start jitter, ns-3's TCP)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.seed = UnitParser::ParseUnsigned(n, v, 1, UINT32_MAX);
                  }},
             });
}

/// The star: rates, delays, queues.
void
AddNetworkOptions(std::vector<StudyOption>& t)
{
    t.insert(t.end(),
             {
                 {"rate",
                  "10Gbps",
                  "Link rate (every link; the receiver's is the bottleneck)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.rate = UnitParser::ParseDataRate(n, v);
                  }},
                 {"cap",
                  "0",
                  "Per-flow cap by TCP pacing (0: none)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.cap = v == "0" ? DataRate(0) : UnitParser::ParseDataRate(n, v);
                  }},
                 {"delay",
                  "10us",
                  "One-way delay of each link (RTT = 4 x delay)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.delay = NonNegativeTime(n, v);
                  }},
                 {"queue",
                  "1000p",
                  "Bottleneck queue size (e.g. 1000p, 262144B)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      UnitParser::ParseQueueSize(n, v);
                      o.queue = v;
                  }},
                 {"hostQueue",
                  "",
                  "Queue of the sending NICs (default: --queue)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      if (!v.empty())
                      {
                          UnitParser::ParseQueueSize(n, v);
                      }
                      o.hostQueue = v;
                  }},
                 {"mtu",
                  "1500",
                  "MTU (576..9000)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.mtu = UnitParser::ParseUnsigned(n, v, 576, 9000);
                  }},
             });
}

/// Who sends: one host or one per flow, and which stack.
void
AddStackOptions(std::vector<StudyOption>& t)
{
    t.insert(t.end(),
             {
                 {"sharedQueue",
                  "false",
                  "Every flow leaves one sending host through its one NIC queue "
                  "(as a multi-flow host); false: one host and NIC per flow",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.sharedQueue = UnitParser::ParseBool(n, v);
                  }},
                 {"tcpSmallQueues",
                  "false",
                  "ns-3 senders with Linux's TCP small queues (TcpSmallQueuesSocket; part of "
                  "--hostModel=linux; a Linux sender always has them)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.smallQueues = UnitParser::ParseBool(n, v);
                  }},
                 {"stack",
                  "ns3",
                  "ns3 (simulated TCP) or linux (kernel TCP in namespaces, root)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      if (v != "ns3" && v != "linux")
                      {
                          throw TrainingInputError(n + ": '" + v + "' (expected ns3 or linux)");
                      }
                      o.stack = v;
                  }},
                 {"linuxSysctl",
                  "",
                  "--stack=linux: sysctls set in every namespace before the run, "
                  "name=value[,name=value] (e.g. net.ipv4.tcp_tso_rtt_log=0)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.sysctls = LinuxTestbed::ParseSysctls(n, v);
                  }},
                 {"dilation",
                  "1",
                  "Run at rate/D (arrivals and sampling x D), report times / D: linux, so that "
                  "the host CPU keeps up; ns3, to simulate the network that linux run executes "
                  "(TCP timers not scaled)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.dilation = UnitParser::ParseReal(n, v, 1, 1000, "a factor from 1 to 1000");
                  }},
             });
}

/// Measurement and output.
void
AddOutputOptions(std::vector<StudyOption>& t)
{
    t.insert(t.end(),
             {
                 {"sample",
                  "0s",
                  "Sampling interval of received bytes (0s: RTT/4)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.sample = NonNegativeTime(n, v);
                  }},
                 {"baseline",
                  "true",
                  "Run one flow alone first and add its overhead over S/C to both "
                  "models",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.baseline = UnitParser::ParseBool(n, v);
                  }},
                 {"maxSimTime",
                  "0s",
                  "Simulated time limit (0s: 20 x N S / C + 10 s)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.maxSimTime = NonNegativeTime(n, v);
                  }},
                 {"csv",
                  "",
                  "Append one summary row to this CSV file",
                  false,
                  [](Options& o, auto&, auto& v)
                  {
                      o.csv = v;
                  }},
                 {"timeseries",
                  "",
                  "Write per-flow rate over time (time_s,flow,gbps) to this file",
                  false,
                  [](Options& o, auto&, auto& v)
                  {
                      o.timeseries = v;
                  }},
                 {"flowTimes",
                  "",
                  "Write one row per flow (flow,start_s,first_byte_s,end_s,bytes) to "
                  "this CSV file",
                  false,
                  [](Options& o, auto&, auto& v)
                  {
                      o.flowTimes = v;
                  }},
             });
}

/// The study's options: the table that parses, checks and documents them.
const std::vector<StudyOption>&
GetStudyOptions()
{
    static const std::vector<StudyOption> table = []
    {
        std::vector<StudyOption> t;
        AddTcpOptions(t);
        AddWorkloadOptions(t);
        AddNetworkOptions(t);
        AddStackOptions(t);
        AddOutputOptions(t);
        return t;
    }();
    return table;
}

/// Print every option with its default and help.
void
PrintHelp()
{
    std::cout << "tcp-sharing-study: N flows through one bottleneck, compared with FCFS and PS\n"
                 "(examples/tcp-sharing-study.cc). Options (--name=value):\n";
    for (const StudyOption& o : GetStudyOptions())
    {
        std::cout << "  --" << o.name << " [" << o.def << "]: " << o.help << "\n";
    }
}

/**
 * \brief Parse the command line with the option table: defaults first, then the presets, then
 * the other options given.
 * \param argc argument count
 * \param argv arguments
 * \return the options
 * \throws TrainingInputError for an unknown, repeated or malformed option
 */
Options
ParseCommandLine(int argc, char* argv[])
{
    Options o;
    for (const StudyOption& opt : GetStudyOptions())
    {
        opt.apply(o, std::string("--") + opt.name, opt.def);
    }
    std::vector<std::pair<const StudyOption*, std::string>> given;
    ProgramOptions cmd("N TCP flows through one bottleneck port: how they share it (FCFS..PS "
                       "index and lambda), on ns-3's TCP or the Linux kernel's (--stack=linux).");
    for (const StudyOption& opt : GetStudyOptions())
    {
        cmd.Add(opt.name,
                opt.help,
                opt.def,
                [&given, &opt](const std::string& v)
                {
                    given.emplace_back(&opt, v);
                });
    }
    cmd.Parse(argc, argv);
    std::stable_partition(given.begin(),
                          given.end(),
                          [](const auto& g)
                          {
                              return g.first->preset;
                          });
    for (const auto& [opt, value] : given)
    {
        opt->apply(o, std::string("--") + opt->name, value);
    }
    return o;
}

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
    c.dilation = o.dilation;
    c.sampleSeconds = sample ? o.sample.GetSeconds() : 0;
    c.maxWallSeconds = o.maxSimTime.GetSeconds() * o.dilation;
    c.sharedSender = o.sharedQueue;
    c.sysctls = o.sysctls;
    std::cerr << "note: --stack=linux: --delay is not emulated (no netem); the RTT is the "
                 "veth path's own"
              << std::endl;
    LinuxFlowStudy::Result r = LinuxFlowStudy::Run(c);
    return Measurement{r.completion, r.firstByte, r.rx, r.received, r.done};
}

/// The star for these options (one sending host with --sharedQueue), TCP configured.
Ptr<TrainingClusterHelper>
BuildCluster(const Options& o, uint32_t senders)
{
    TrainingScenario s;
    s.workers = senders;
    s.servers = 1;
    s.nicRate = o.rate;
    s.flowCap = o.cap;
    s.linkDelay = o.delay;
    s.mtu = o.mtu;
    s.tcpVariant = o.tcp;
    s.hostModel = o.hostModel;
    s.bufferAutotuning = o.autotuning;
    s.delayedAck = o.delayedAck;
    // With TcpDctcp the helper installs RED with DCTCP's ECN step marking (and a 2-packet device
    // queue so that the backlog builds in RED); the other variants get DropTail device queues.
    s.queueSize = o.queue;
    s.hostQueueSize = o.hostQueue;
    s.queueDisc = "none";
    Ptr<TrainingClusterHelper> cluster = CreateObject<TrainingClusterHelper>();
    const TrainingScenario net = s.Dilated(o.dilation); // the linux run's network at D
    cluster->Configure(net);
    cluster->ConfigureTcp();
    if (o.tcp == "TcpBbr" || o.tcp == "ns3::TcpBbr")
    {
        Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(true));
        Config::SetDefault(
            "ns3::TcpSocketState::MaxPacingRate",
            DataRateValue(net.flowCap.GetBitRate() > 0 ? net.flowCap : DataRate("1000Gbps")));
    }
    cluster->Build();
    return cluster;
}

/// Run `o.arrivals.size()` flows of `o.size` bytes over ns-3 TCP; return what was measured.
Measurement
SimulateNs3(const Options& o, bool sample)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(o.seed);
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
        if (o.smallQueues)
        {
            TcpSmallQueuesSocketFactory::Install(sender);
        }
        BulkSendHelper bulk(o.smallQueues ? "ns3::TcpSmallQueuesSocketFactory"
                                          : "ns3::TcpSocketFactory",
                            InetSocketAddress(cluster->GetServerAddress(0), port));
        bulk.SetAttribute("MaxBytes", UintegerValue(o.size));
        // BulkSend writes whole messages (a Send larger than the free buffer fails, unlike
        // Linux's partial write): with autotuning, messages below the initial 20-segment buffer.
        bulk.SetAttribute(
            "SendSize",
            UintegerValue(o.autotuning ? 10 * TrainingNetwork::GetSegmentSize(o.mtu) : 64 * 1024));
        Ptr<Application> app = bulk.Install(sender).Get(0);
        app->SetStartTime(Seconds(o.arrivals[i]));
        if (o.autotuning)
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

/**
 * Run the flows on the chosen stack. ns-3 with --dilation simulates the network a linux run of
 * that dilation executes (rates / D, arrivals and sampling x D; TCP's own timers and the link
 * delay unscaled, as TrainingScenario::Dilated) and reports undilated times, like the linux stack.
 */
Measurement
Simulate(const Options& o, bool sample)
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

/// Rates of the run: the bottleneck's goodput and the BDP of one flow.
struct Plan
{
    double c{0};        //!< bottleneck goodput, bytes/s
    double one{0};      //!< one flow's goodput (cap-aware), bytes/s
    double capBytes{0}; //!< per-flow cap, bytes/s (0: none)
    double rtt{0};      //!< 4 x delay, seconds
    double bdp{0};      //!< one x rtt, bytes
};

/**
 * \brief Check the options against each other and derive size, arrivals, sampling interval and
 * time limit.
 * \param o the options (completed here)
 * \return the rates
 */
Plan
Prepare(Options& o)
{
    if (o.rate.GetBitRate() == 0)
    {
        throw TrainingInputError("--rate: must be above 0");
    }
    if (o.cap.GetBitRate() > o.rate.GetBitRate())
    {
        throw TrainingInputError("--cap: " + std::to_string(o.cap.GetBitRate())
                                 + " bit/s above the link rate (expected at most --rate)");
    }
    TrainingScenario s;
    s.nicRate = o.rate;
    s.flowCap = o.cap;
    s.mtu = o.mtu;
    s.linkDelay = o.delay;
    // C: the bottleneck's goodput; one flow alone reaches the cap-aware goodput `one`.
    // --stack=linux: the kernel's goodput (Ethernet framing, MTU - 52 payload).
    Plan p;
    const double linuxC = LinuxFlowStudy::GetGoodputBytesPerSecond(o.rate.GetBitRate(), o.mtu);
    p.capBytes = o.cap.GetBitRate() / 8.0;
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
    RngSeedManager::SetRun(o.seed);
    Ptr<UniformRandomVariable> jitter = CreateObject<UniformRandomVariable>();
    jitter->SetStream(0);
    for (uint32_t i = 0; i < o.flows; ++i)
    {
        o.nominal.push_back(i * o.stagger.GetSeconds());
        o.arrivals.push_back(i * o.stagger.GetSeconds()
                             + jitter->GetValue(0, o.startJitter.GetSeconds()));
    }
    if (o.maxSimTime.IsZero())
    {
        const double last = *std::max_element(o.arrivals.begin(), o.arrivals.end());
        o.maxSimTime = Seconds(last + 20.0 * o.flows * o.size / p.c + 10.0);
    }
    return p;
}

/// The study's result: FCT per flow and both models' predictions.
struct Report
{
    Measurement m;              //!< the measurement
    double overhead{0};         //!< lone flow's overhead over S / one, seconds
    double wall{0};             //!< wall-clock seconds
    std::vector<double> fct;    //!< per flow: completion - arrival (limit if unfinished)
    std::vector<double> fcfs;   //!< FCFS completion times
    std::vector<double> ps;     //!< PS completion times
    SharingIndex::Result index; //!< lambda and residual
    IncumbentFit fit;           //!< calibrated weight
};

/// Run the baseline (if asked) and the flows; compare with FCFS and PS.
Report
RunStudy(const Options& o, const Plan& p)
{
    Report r;
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
    r.fit = FitIncumbentWeight(index, r.fct, r.fcfs, r.ps, 20 * o.delay);
    return r;
}

/// Print the one-line summary.
void
PrintSummary(const Options& o, const Plan& p, const Report& r)
{
    std::printf("tcp=%s host=%s rate=%llubps N=%u S=%llu (%.3g BDP) stagger=%gs jitter=%gs "
                "shared=%d tsq=%d queue=%s cap=%llubps seed=%u: lambda=%.3f residual=%.3f%s%s mean "
                "FCT measured %.1f us, fcfs %.1f us, ps %.1f us (overhead %.1f us, %.2f s "
                "wall); calibrated fit w=%.2f (residual %.3f)\n",
                o.tcp.c_str(),
                o.hostModel.c_str(),
                static_cast<unsigned long long>(o.rate.GetBitRate()),
                o.flows,
                static_cast<unsigned long long>(o.size),
                o.size / p.bdp,
                o.stagger.GetSeconds(),
                o.startJitter.GetSeconds(),
                o.sharedQueue ? 1 : 0,
                o.smallQueues ? 1 : 0,
                o.queue.c_str(),
                static_cast<unsigned long long>(o.cap.GetBitRate()),
                o.seed,
                r.index.lambda,
                r.index.residual,
                r.index.defined ? "" : " (undefined: FCFS = PS)",
                r.m.done == o.flows ? "" : " (INCOMPLETE: flows unfinished at --maxSimTime)",
                Mean(r.fct) * 1e6,
                Mean(r.fcfs) * 1e6,
                Mean(r.ps) * 1e6,
                r.overhead * 1e6,
                r.wall,
                r.fit.weight,
                r.fit.residual);
}

/// Append the summary row to --csv (header first if the file is new or empty).
void
WriteCsvRow(OutputFile& file, const Options& o, const Plan& p, const Report& r)
{
    std::ostream& out = file.Stream();
    if (file.WasEmpty())
    {
        out << "rate_bps,tcp,flows,size_bytes,size_bdp,stagger_s,queue,cap_bps,lambda,"
               "residual,defined,complete,fct_measured_s,fct_fcfs_s,fct_ps_s,overhead_s,wall_s,"
               "w_fit,w_fit_residual,host_model,shared_queue,start_jitter_s,seed,stack,delayed_ack,"
               "autotuning,dilation,small_queues\n";
    }
    char line[640];
    std::snprintf(line,
                  sizeof(line),
                  "%.0f,%s,%u,%llu,%.6g,%.9g,%s,%.0f,%.6f,%.6f,%d,%d,%.9g,%.9g,%.9g,%.9g,%.3f,"
                  "%.2f,%.6f,%s,%d,%.9g,%u,%s,%d,%d,%.6g,%d\n",
                  static_cast<double>(o.rate.GetBitRate()),
                  CsvField(o.tcp).c_str(),
                  o.flows,
                  static_cast<unsigned long long>(o.size),
                  o.size / p.bdp,
                  o.stagger.GetSeconds(),
                  CsvField(o.queue).c_str(),
                  static_cast<double>(o.cap.GetBitRate()),
                  r.index.lambda,
                  r.index.residual,
                  r.index.defined ? 1 : 0,
                  r.m.done == o.flows ? 1 : 0,
                  Mean(r.fct),
                  Mean(r.fcfs),
                  Mean(r.ps),
                  r.overhead,
                  r.wall,
                  r.fit.weight,
                  r.fit.residual,
                  CsvField(o.hostModel).c_str(),
                  o.sharedQueue ? 1 : 0,
                  o.startJitter.GetSeconds(),
                  o.seed,
                  CsvField(o.stack).c_str(),
                  o.delayedAck ? 1 : 0,
                  o.autotuning ? 1 : 0,
                  o.dilation,
                  o.smallQueues ? 1 : 0);
    out << line;
    file.Commit();
}

/// Write --timeseries (per-flow rate per sampling interval) and --flowTimes (one row per flow).
void
WriteFlowFiles(OutputFile* timeseries, OutputFile* flowTimes, const Options& o, const Report& r)
{
    if (timeseries)
    {
        OutputFile& file = *timeseries;
        std::ostream& out = file.Stream();
        out << "time_s,flow,gbps\n";
        const double dt = o.sample.GetSeconds();
        for (std::size_t k = 1; k < r.m.rx.size(); ++k)
        {
            for (uint32_t i = 0; i < o.flows; ++i)
            {
                out << k * dt << "," << i << "," << (r.m.rx[k][i] - r.m.rx[k - 1][i]) * 8 / dt / 1e9
                    << "\n";
            }
        }
        file.Commit();
    }
    if (flowTimes)
    {
        // Times in seconds from the start of the run; an empty field: the event did not happen.
        OutputFile& file = *flowTimes;
        std::ostream& out = file.Stream();
        out << "flow,start_s,first_byte_s,end_s,bytes\n";
        out.precision(9);
        for (uint32_t i = 0; i < o.flows; ++i)
        {
            out << i << "," << o.arrivals[i] << ",";
            if (r.m.firstByte[i] >= 0)
            {
                out << r.m.firstByte[i];
            }
            out << ",";
            if (r.m.completion[i] >= 0)
            {
                out << r.m.completion[i];
            }
            out << "," << r.m.received[i] << "\n";
        }
        file.Commit();
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i)
    {
        if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h")
        {
            PrintHelp();
            return 0;
        }
    }
    try
    {
        Options o = ParseCommandLine(argc, argv);
        const Plan p = Prepare(o);
        OutputFile::RequireDistinct(
            {{"--csv", o.csv}, {"--timeseries", o.timeseries}, {"--flowTimes", o.flowTimes}});
        // Opened (checked, temporary files created) before the run, committed after it.
        auto open = [](const std::string& file, const char* option, OutputFile::Mode mode)
        {
            return file.empty() ? nullptr : std::make_unique<OutputFile>(file, option, mode);
        };
        const auto csv = open(o.csv, "--csv", OutputFile::APPEND);
        const auto timeseries = open(o.timeseries, "--timeseries", OutputFile::REPLACE);
        const auto flowTimes = open(o.flowTimes, "--flowTimes", OutputFile::REPLACE);
        const Report r = RunStudy(o, p);
        PrintSummary(o, p, r);
        if (csv)
        {
            WriteCsvRow(*csv, o, p, r);
        }
        WriteFlowFiles(timeseries.get(), flowTimes.get(), o, r);
    }
    catch (const TrainingInputError& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}

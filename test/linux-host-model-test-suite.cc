/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The Linux-host preset (--hostModel=linux) and its parts: the socket-buffer rules of Linux 6.x
 * (TrainingNetwork: tcp_sndbuf_expand, tcp_rcv_space_adjust, the window limit the flow backend
 * takes), LinuxBufferTuner on a real ns-3 flow, --startJitter at the packet level, and the
 * option layer applying the preset before the options that override it.
 */

#include "training-test-utils.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/distributed-training-module.h"
#include "ns3/internet-module.h"
#include "ns3/test.h"

#include <algorithm>
#include <set>

using namespace ns3;
using ns3::tests::MakeProfile;

namespace
{

/**
 * \ingroup distributed-training
 * The send- and receive-buffer rules, by hand.
 */
class LinuxBufferRulesTestCase : public TestCase
{
  public:
    LinuxBufferRulesTestCase()
        : TestCase("Linux buffer rules: per_mss 4352 at MSS 1448, send buffer 2 max(cwnd, 10) "
                   "segments up to 4 MiB over 4352 = 963; receive window 2 copied + 16 MSS + "
                   "growth = 2859262 after 100000 over 14480 bytes, at most 3 MiB; flow window "
                   "limit 1394424")
    {
    }

  private:
    void DoRun() override
    {
        using N = TrainingNetwork;
        NS_TEST_EXPECT_MSG_EQ(N::GetLinuxSegmentTruesize(1448), 4352, "2048 + 1 pow2: 4096 + 256");
        NS_TEST_EXPECT_MSG_EQ(N::GetLinuxSegmentTruesize(8948), 16640, "9588: 16384 + 256");
        const uint32_t wmem = N::LINUX_WMEM[2];
        NS_TEST_EXPECT_MSG_EQ(N::GetLinuxSendBufferBytes(5, 1448, wmem), 20 * 1448, "cwnd < 10");
        NS_TEST_EXPECT_MSG_EQ(N::GetLinuxSendBufferBytes(100, 1448, wmem), 200 * 1448, "2 cwnd");
        NS_TEST_EXPECT_MSG_EQ(N::GetLinuxSendBufferBytes(1000000, 1448, wmem),
                              963 * 1448,
                              "4194304 / 4352 = 963 segments");
        // rcvwin = 200000 + 16 x 1448 = 223168; grow = 223168 x 85520 / 14480 = 1318047;
        // rcvwin + 2 grow = 2859262; buffer 2 x that = 5718524 < 6291456.
        const uint32_t rmem = N::LINUX_RMEM[2];
        NS_TEST_EXPECT_MSG_EQ(N::GetLinuxReceiveWindowBytes(100000, 14480, 1448, rmem),
                              2859262,
                              "one adjustment");
        NS_TEST_EXPECT_MSG_EQ(N::GetLinuxReceiveWindowBytes(1000000, 14480, 1448, rmem),
                              6291456 / 2,
                              "capped at tcp_rmem max / 2");
        NS_TEST_EXPECT_MSG_EQ(N::GetLinuxReceiveWindowBytes(14480, 14480, 1448, rmem),
                              0,
                              "no more read than last time: no change");
        TrainingScenario s;
        s.bufferAutotuning = true;
        NS_TEST_EXPECT_MSG_EQ(N::GetSocketBufferBytes(s),
                              std::min(963U * 1448, 6291456U / 2),
                              "the flow backend's window limit with autotuning");
        s.bufferAutotuning = false;
        NS_TEST_EXPECT_MSG_EQ(N::GetSocketBufferBytes(s), 256 * 1024, "fixed buffers as before");
    }
};

/// What one autotuned transfer left in its tuners.
struct TunedFlow
{
    double completion{-1};     //!< seconds
    uint32_t maxCwnd{0};       //!< largest congestion window, bytes
    uint32_t sendBuffer{0};    //!< sender's tuner
    uint32_t receiveWindow{0}; //!< receiver's tuner
    Time receiverRtt;          //!< receiver's RTT estimate
    uint64_t received{0};      //!< bytes
};

/// CongestionWindow sink: the largest window.
void
OnCwnd(uint32_t* max, uint32_t, uint32_t value)
{
    *max = std::max(*max, value);
}

/// Attach a tuner to the sender's socket (its start event has run) and trace its window.
void
TuneBulk(Ptr<BulkSendApplication> app, TunedFlow* f, Ptr<LinuxBufferTuner>* tuner)
{
    *tuner = LinuxBufferTuner::Install(app->GetSocket());
    app->GetSocket()->TraceConnectWithoutContext("CongestionWindow",
                                                 MakeBoundCallback(&OnCwnd, &f->maxCwnd));
}

/// PacketSink Rx: count, note completion, tune the accepted socket on the first segment.
void
OnSinkRx(Ptr<PacketSink> sink,
         TunedFlow* f,
         Ptr<LinuxBufferTuner>* tuner,
         uint64_t size,
         Ptr<const Packet> p,
         const Address&)
{
    if (!*tuner)
    {
        *tuner = LinuxBufferTuner::Install(sink->GetAcceptedSockets().front());
    }
    f->received += p->GetSize();
    if (f->completion < 0 && f->received >= size)
    {
        f->completion = Simulator::Now().GetSeconds();
    }
}

/**
 * \ingroup distributed-training
 * LinuxBufferTuner on one real flow.
 */
class BufferTunerFlowTestCase : public TestCase
{
  public:
    BufferTunerFlowTestCase()
        : TestCase("LinuxBufferTuner on a 20 MB flow at 1 Gbps: completes within 10 % of S over "
                   "C, the send buffer is 2 x the largest window (or the peer's window), the "
                   "receive window grew from 65536 to at least 2 x the bytes of one RTT")
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s;
        s.workers = 1;
        s.nicRate = DataRate("1Gbps");
        s.hostModel = "linux";
        s.bufferAutotuning = true;
        Ptr<TrainingClusterHelper> cluster = CreateObject<TrainingClusterHelper>();
        cluster->Configure(s);
        cluster->ConfigureTcp();
        cluster->Build();
        const uint64_t size = 20000000;
        TunedFlow f;
        Ptr<LinuxBufferTuner> sender;
        Ptr<LinuxBufferTuner> receiver;
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), 7000));
        Ptr<PacketSink> sink
            = DynamicCast<PacketSink>(sinkHelper.Install(cluster->GetServers().Get(0)).Get(0));
        sink->TraceConnectWithoutContext("Rx",
                                         MakeBoundCallback(&OnSinkRx, sink, &f, &receiver, size));
        BulkSendHelper bulk("ns3::TcpSocketFactory",
                            InetSocketAddress(cluster->GetServerAddress(0), 7000));
        bulk.SetAttribute("MaxBytes", UintegerValue(size));
        Ptr<BulkSendApplication> app
            = DynamicCast<BulkSendApplication>(bulk.Install(cluster->GetWorkers().Get(0)).Get(0));
        app->SetStartTime(MilliSeconds(1));
        Simulator::Schedule(MilliSeconds(1),
                            [&]
                            {
                                Simulator::ScheduleNow(&TuneBulk, app, &f, &sender);
                            });
        // The application never holds more than the send buffer (a buffer lowered below its
        // contents made ns-3.37's Available() wrap and BulkSend queue the whole flow).
        uint32_t overfull = 0;
        for (double t : {0.005, 0.05, 0.2})
        {
            Simulator::Schedule(
                Seconds(t),
                [&]
                {
                    Ptr<TcpTxBuffer> tx
                        = DynamicCast<TcpSocketBase>(app->GetSocket())->GetTxBuffer();
                    overfull += tx->Size() > tx->MaxBufferSize() ? 1 : 0;
                });
        }
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(overfull, 0, "send buffer never below its contents");
        NS_TEST_ASSERT_MSG_NE(sender, nullptr, "sender tuned");
        NS_TEST_ASSERT_MSG_NE(receiver, nullptr, "receiver tuned");
        const uint32_t sendBuffer = sender->GetSendBufferBytes();
        const uint32_t window = receiver->GetReceiveWindowBytes();
        const Time rtt = receiver->GetReceiverRtt();
        Simulator::Destroy();
        const double ideal = size / TrainingNetwork::GetGoodputBytesPerSecond(s);
        NS_TEST_EXPECT_MSG_EQ(f.received, size, "bytes");
        NS_TEST_EXPECT_MSG_LT(f.completion - 0.001, 1.1 * ideal, "near the link rate");
        const uint32_t rule
            = TrainingNetwork::GetLinuxSendBufferBytes(f.maxCwnd / 1448, 1448, 4194304);
        NS_TEST_EXPECT_MSG_GT(sendBuffer, 20U * 1448, "grew from the initial 20 segments");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(sendBuffer, rule, "at most the rule at the largest window");
        NS_TEST_EXPECT_MSG_GT(window, 65536U, "receive window grew");
        NS_TEST_EXPECT_MSG_GT(rtt, Time(0), "receiver RTT measured");
        // Bytes of one receiver RTT at the link's goodput: the window covers at least twice it.
        const double perRtt = TrainingNetwork::GetGoodputBytesPerSecond(s) * rtt.GetSeconds();
        NS_TEST_EXPECT_MSG_GT_OR_EQ(window, 2 * perRtt, "window >= 2 copied per RTT");
    }
};

/// Run the packet backend with K workers, one step, the given jitter and seed.
TrainingResult
RunJitter(Time jitter, uint32_t seed)
{
    TrainingProfile p = MakeProfile({400000, 200000}, 500, 1000, 50);
    TrainingScenario s;
    s.workers = 4;
    s.steps = 2;
    s.warmup = 0;
    s.startJitter = jitter;
    s.seed = seed;
    Ptr<PacketBackend> backend = CreateObject<PacketBackend>();
    return backend->Run(p, s).at(0);
}

/// Start times of step 0, by worker.
std::vector<double>
FirstStarts(const TrainingResult& r)
{
    std::vector<double> starts(4, -1);
    for (const auto& s : r.steps)
    {
        if (s.step == 0)
        {
            starts.at(s.worker) = s.start;
        }
    }
    return starts;
}

/**
 * \ingroup distributed-training
 * --startJitter at the packet level.
 */
class StartJitterTestCase : public TestCase
{
  public:
    StartJitterTestCase()
        : TestCase("--startJitter=2ms: without it the 4 workers start within 1 us, with it each "
                   "worker's first step starts within 2 ms after its unjittered start, the starts "
                   "differ and change with --seed; "
                   "every downlink transfer starts after its worker's request")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<double> lockstep = FirstStarts(RunJitter(Time(0), 1));
        for (double t : lockstep)
        {
            // The server's SYN-ACKs leave its NIC back to back (46 ns apart at 10 Gb/s): the
            // workers start within a microsecond of each other.
            NS_TEST_EXPECT_MSG_EQ_TOL(t, lockstep[0], 1e-6, "no jitter: lockstep");
        }
        const Time j = MilliSeconds(2);
        const TrainingResult r1 = RunJitter(j, 1);
        const std::vector<double> s1 = FirstStarts(r1);
        const std::vector<double> s2 = FirstStarts(RunJitter(j, 2));
        std::set<double> distinct(s1.begin(), s1.end());
        NS_TEST_EXPECT_MSG_EQ(distinct.size(), 4, "four different starts");
        for (std::size_t w = 0; w < s1.size(); ++w)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(s1[w], lockstep[w], "worker " << w << ": not earlier");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(s1[w], lockstep[w] + j.GetSeconds(), "within the jitter");
        }
        NS_TEST_EXPECT_MSG_EQ((s1 != s2), true, "another seed, other starts");
        // A server answers a worker's request for parameters no earlier than the worker asked.
        for (const auto& t : r1.transfers)
        {
            if (t.direction == "down" && t.step == 0)
            {
                NS_TEST_EXPECT_MSG_GT_OR_EQ(t.start, s1.at(t.worker), "down after the request");
            }
        }
    }
};

/**
 * \ingroup distributed-training
 * The packet backend's twin of a dilated linux run.
 */
class DilatedPacketRunTestCase : public TestCase
{
  public:
    DilatedPacketRunTestCase()
        : TestCase("--dilation=20 at the packet level: rates over 20 and scenario times x 20 "
                   "(link delay, minimum RTO unchanged), compute x 20; K = 1, 2 x 4 MB at 10 Gbps: "
                   "the step reported undilated within 3 % of the undilated run's, and not "
                   "slower (only the unscaled link delay differs); refused on a leaf-spine")
    {
    }

  private:
    static TrainingScenario Scenario()
    {
        TrainingScenario s;
        s.workers = 1;
        s.steps = 4;
        s.warmup = 1;
        s.fusionTimeout = MilliSeconds(5);
        s.startJitter = MicroSeconds(20);
        return s;
    }

    static TrainingResult Run(double dilation, const TrainingScenario& s)
    {
        Ptr<PacketBackend> backend = CreateObject<PacketBackend>();
        backend->SetAttribute("Dilation", DoubleValue(dilation));
        return backend->Run(MakeProfile({4000000, 4000000}, 1000, 2000, 100), s).at(0);
    }

    void DoRun() override
    {
        const TrainingScenario s = Scenario();
        const TrainingScenario d = s.Dilated(20);
        NS_TEST_EXPECT_MSG_EQ(d.nicRate.GetBitRate(), 500000000ULL, "10 Gb/s / 20");
        NS_TEST_EXPECT_MSG_EQ(d.flowCap.GetBitRate(), 0, "no cap stays no cap");
        NS_TEST_EXPECT_MSG_EQ(d.fusionTimeout, MilliSeconds(100), "5 ms x 20");
        NS_TEST_EXPECT_MSG_EQ(d.startJitter, MicroSeconds(400), "20 us x 20");
        NS_TEST_EXPECT_MSG_EQ(d.linkDelay, s.linkDelay, "the path delay is real time");
        NS_TEST_EXPECT_MSG_EQ(d.minRto, s.minRto, "a kernel constant");
        TrainingProfile p = MakeProfile({1000}, 1000, 2000, 100, {1.5});
        p.ScaleComputeTimes(20);
        NS_TEST_EXPECT_MSG_EQ_TOL(p.GetLayer(0).backwardUs, 40000.0, 1e-9, "mean x 20");
        NS_TEST_EXPECT_MSG_EQ_TOL(p.GetSample(0).forwardUs[0], 30000.0, 1e-9, "sample x 20");

        const TrainingResult plain = Run(1, s);
        const TrainingResult dilated = Run(20, s);
        NS_TEST_EXPECT_MSG_EQ_TOL(dilated.stepTimeMean,
                                  plain.stepTimeMean,
                                  0.03 * plain.stepTimeMean,
                                  "undilated step");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(dilated.stepTimeMean,
                                    plain.stepTimeMean * (1 + 1e-9),
                                    "relatively shorter RTT: not slower");
        NS_TEST_EXPECT_MSG_EQ(dilated.inputs.at("dilation"), 20, "reported");

        TrainingScenario fabric = s;
        fabric.topology = "leafspine";
        bool refused = false;
        try
        {
            Run(20, fabric);
        }
        catch (const TrainingInputError& e)
        {
            refused = std::string(e.what()).find("--dilation") != std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(refused, true, "--dilation with a leaf-spine is refused");
    }
};

/**
 * \ingroup distributed-training
 * The preset through the option layer and the cluster helper.
 */
class HostModelPresetTestCase : public TestCase
{
  public:
    HostModelPresetTestCase()
        : TestCase("--hostModel=linux sets autotuning and a 20 us jitter, options given before "
                   "or after it override it, and the cluster runs TcpLinuxCubic for TcpCubic "
                   "and TcpLinuxReno for TcpNewReno; bad values name the option")
    {
    }

  private:
    /// Parse a command line of the driver.
    static RunRequest Parse(std::vector<std::string> args)
    {
        args.insert(args.begin(), "distributed-training-sim");
        std::vector<char*> argv;
        for (auto& a : args)
        {
            argv.push_back(a.data());
        }
        return ScenarioOptions::ParseArguments(static_cast<int>(argv.size()), argv.data(), "");
    }

    void DoRun() override
    {
        RunRequest r = Parse({"--hostModel=linux"});
        NS_TEST_EXPECT_MSG_EQ(r.scenario.hostModel, "linux", "host model");
        NS_TEST_EXPECT_MSG_EQ(r.scenario.bufferAutotuning, true, "autotuning on");
        NS_TEST_EXPECT_MSG_EQ(r.scenario.delayedAck, true, "delayed ACKs on");
        NS_TEST_EXPECT_MSG_EQ(r.scenario.startJitter, MicroSeconds(20), "jitter");
        for (auto order : {std::vector<std::string>{"--startJitter=0", "--hostModel=linux"},
                           std::vector<std::string>{"--hostModel=linux", "--startJitter=0"}})
        {
            RunRequest o = Parse(order);
            NS_TEST_EXPECT_MSG_EQ(o.scenario.startJitter, Time(0), "an explicit option wins");
            NS_TEST_EXPECT_MSG_EQ(o.scenario.bufferAutotuning, true, "the rest of the preset");
        }
        NS_TEST_EXPECT_MSG_EQ(ns3::tests::ThrowsInputError(
                                  []
                                  {
                                      Parse({"--hostModel=bsd"});
                                  },
                                  {"--hostModel", "bsd", "ns3 or linux"}),
                              true,
                              "unknown host model");
        NS_TEST_EXPECT_MSG_EQ(ns3::tests::ThrowsInputError(
                                  []
                                  {
                                      Parse({"--startJitter=fast"});
                                  },
                                  {"--startJitter"}),
                              true,
                              "bad jitter");
        auto tcpFor = [](const std::string& host, const std::string& tcp)
        {
            TrainingScenario s;
            s.hostModel = host;
            s.tcpVariant = tcp;
            Ptr<TrainingClusterHelper> c = CreateObject<TrainingClusterHelper>();
            c->Configure(s);
            return c->GetTcpTypeName();
        };
        NS_TEST_EXPECT_MSG_EQ(tcpFor("linux", "TcpCubic"), "ns3::TcpLinuxCubic", "cubic");
        NS_TEST_EXPECT_MSG_EQ(tcpFor("linux", "TcpNewReno"), "ns3::TcpLinuxReno", "reno");
        NS_TEST_EXPECT_MSG_EQ(tcpFor("linux", "TcpBbr"), "ns3::TcpBbr", "others unchanged");
        NS_TEST_EXPECT_MSG_EQ(tcpFor("ns3", "TcpCubic"), "ns3::TcpCubic", "ns3 host: as given");
    }
};

/**
 * \ingroup distributed-training
 * The suite.
 */
class LinuxHostModelTestSuite : public TestSuite
{
  public:
    LinuxHostModelTestSuite()
        : TestSuite("distributed-training-linux-host-model", Type::UNIT)
    {
        AddTestCase(new LinuxBufferRulesTestCase, DT_TEST_QUICK);
        AddTestCase(new BufferTunerFlowTestCase, DT_TEST_QUICK);
        AddTestCase(new StartJitterTestCase, DT_TEST_QUICK);
        AddTestCase(new HostModelPresetTestCase, DT_TEST_QUICK);
        AddTestCase(new DilatedPacketRunTestCase, DT_TEST_QUICK);
    }
};

LinuxHostModelTestSuite g_linuxHostModelTestSuite; //!< the suite

} // namespace

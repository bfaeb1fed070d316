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
 *
 * Linux buffer rules: per_mss 4352 at MSS 1448, send buffer 2 max(cwnd, 10) segments up to 4 MiB
 * over 4352 = 963; receive window 2 copied + 16 MSS + growth = 2859262 after 100000 over 14480
 * bytes, at most 3 MiB; flow window limit 1394424.
 */
class LinuxBufferRulesTestCase : public TestCase
{
  public:
    LinuxBufferRulesTestCase()
        : TestCase("Linux send and receive buffer rules match the kernel by hand")
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

/// What one autotuned transfer left in its tuners, and the windows it saw.
struct TunedFlow
{
    bool advertise{false};             //!< LimitReceiveWindow of both tuners
    double completion{-1};             //!< seconds
    uint32_t maxCwnd{0};               //!< largest congestion window, bytes
    uint32_t sendBuffer{0};            //!< sender's tuner
    uint32_t receiveWindow{0};         //!< receiver's tuner
    Time receiverRtt;                  //!< receiver's RTT estimate
    uint64_t received{0};              //!< bytes
    uint32_t overfull{0};              //!< samples of a send buffer holding more than its maximum
    std::vector<uint32_t> peerWindows; //!< the sender's RWND trace: windows advertised to it
    std::vector<uint32_t> windows;     //!< the receiver tuner's ReceiveWindow trace
    /// the sender tuner's SendBuffer trace: (new size, window advertised to the sender then)
    std::vector<std::pair<uint32_t, uint32_t>> sendBuffers;
    Ptr<LinuxBufferTuner> sender;   //!< the sender's tuner
    Ptr<LinuxBufferTuner> receiver; //!< the receiver's tuner
};

/// CongestionWindow sink: the largest window.
void
OnCwnd(uint32_t* max, uint32_t, uint32_t value)
{
    *max = std::max(*max, value);
}

/// Trace sink appending the new value.
void
Append(std::vector<uint32_t>* values, uint32_t, uint32_t value)
{
    values->push_back(value);
}

/// The sender tuner's SendBuffer sink: the new size with the peer's window at that moment.
void
OnSendBuffer(TunedFlow* f, uint32_t, uint32_t value)
{
    f->sendBuffers.emplace_back(value, f->peerWindows.empty() ? 0 : f->peerWindows.back());
}

/// Install a tuner (advertising the window if the flow does).
Ptr<LinuxBufferTuner>
Tune(Ptr<Socket> socket, const TunedFlow& f)
{
    Ptr<LinuxBufferTuner> tuner = LinuxBufferTuner::Install(socket);
    // Before the tuner's Start() (scheduled now): the first receive buffer already follows it.
    tuner->SetAttribute("LimitReceiveWindow", BooleanValue(f.advertise));
    return tuner;
}

/// Attach a tuner to the sender's socket (its start event has run) and trace its windows.
void
TuneBulk(Ptr<BulkSendApplication> app, TunedFlow* f)
{
    Ptr<Socket> socket = app->GetSocket();
    // Before the tuner's own RWND sink: OnSendBuffer then sees the window that moved it.
    socket->TraceConnectWithoutContext("RWND", MakeBoundCallback(&Append, &f->peerWindows));
    f->sender = Tune(socket, *f);
    socket->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&OnCwnd, &f->maxCwnd));
    f->sender->TraceConnectWithoutContext("SendBuffer", MakeBoundCallback(&OnSendBuffer, f));
}

/// PacketSink Rx: count, note completion, tune the accepted socket on the first segment.
void
OnSinkRx(Ptr<PacketSink> sink, TunedFlow* f, uint64_t size, Ptr<const Packet> p, const Address&)
{
    if (!f->receiver)
    {
        f->receiver = Tune(sink->GetAcceptedSockets().front(), *f);
        f->receiver->TraceConnectWithoutContext("ReceiveWindow",
                                                MakeBoundCallback(&Append, &f->windows));
    }
    f->received += p->GetSize();
    if (f->completion < 0 && f->received >= size)
    {
        f->completion = Simulator::Now().GetSeconds();
    }
}

/// The scenario of the tuned flows: one worker, one server, 1 Gbps, the Linux-host preset.
TrainingScenario
TunedFlowScenario()
{
    TrainingScenario s;
    s.workers = 1;
    s.nicRate = DataRate("1Gbps");
    s.hostModel = "linux";
    s.bufferAutotuning = true;
    return s;
}

/**
 * \brief One BulkSend flow of size bytes from the worker to the server, both sockets tuned.
 * \param size bytes
 * \param advertise LimitReceiveWindow
 * \return what the flow and its tuners left
 */
TunedFlow
RunTunedFlow(uint64_t size, bool advertise)
{
    Ptr<TrainingClusterHelper> cluster = CreateObject<TrainingClusterHelper>();
    cluster->Configure(TunedFlowScenario());
    cluster->ConfigureTcp();
    cluster->Build();
    TunedFlow f;
    f.advertise = advertise;
    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), 7000));
    Ptr<PacketSink> sink
        = DynamicCast<PacketSink>(sinkHelper.Install(cluster->GetServers().Get(0)).Get(0));
    sink->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnSinkRx, sink, &f, size));
    BulkSendHelper bulk("ns3::TcpSocketFactory",
                        InetSocketAddress(cluster->GetServerAddress(0), 7000));
    bulk.SetAttribute("MaxBytes", UintegerValue(size));
    Ptr<BulkSendApplication> app
        = DynamicCast<BulkSendApplication>(bulk.Install(cluster->GetWorkers().Get(0)).Get(0));
    app->SetStartTime(MilliSeconds(1));
    Simulator::Schedule(MilliSeconds(1),
                        [&]
                        {
                            Simulator::ScheduleNow(&TuneBulk, app, &f);
                        });
    // The application never holds more than the send buffer (a buffer lowered below its
    // contents made ns-3.37's Available() wrap and BulkSend queue the whole flow).
    for (double t : {0.005, 0.05, 0.2})
    {
        Simulator::Schedule(Seconds(t),
                            [&]
                            {
                                Ptr<TcpTxBuffer> tx
                                    = DynamicCast<TcpSocketBase>(app->GetSocket())->GetTxBuffer();
                                f.overfull += tx->Size() > tx->MaxBufferSize() ? 1 : 0;
                            });
    }
    Simulator::Stop(Seconds(2));
    Simulator::Run();
    if (f.sender && f.receiver)
    {
        f.sendBuffer = f.sender->GetSendBufferBytes();
        f.receiveWindow = f.receiver->GetReceiveWindowBytes();
        f.receiverRtt = f.receiver->GetReceiverRtt();
    }
    f.sender = nullptr;
    f.receiver = nullptr;
    Simulator::Destroy();
    return f;
}

/**
 * \ingroup distributed-training
 * The checks every tuned flow passes.
 */
class TunedFlowTestCase : public TestCase
{
  public:
    /// \param name the test's name
    explicit TunedFlowTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    static constexpr uint64_t FLOW_BYTES = 20000000; //!< the flow: 20 MB

    /**
     * \brief All bytes arrived, near the link rate, and no send buffer below its contents.
     * \param f the flow
     * \param size its bytes
     */
    void CheckCompleted(const TunedFlow& f, uint64_t size = FLOW_BYTES)
    {
        NS_TEST_EXPECT_MSG_EQ(f.received, size, "bytes");
        const double ideal = size / TrainingNetwork::GetGoodputBytesPerSecond(TunedFlowScenario());
        NS_TEST_EXPECT_MSG_LT(f.completion - 0.001, 1.1 * ideal, "near the link rate");
        NS_TEST_EXPECT_MSG_EQ(f.overfull, 0, "send buffer never below its contents");
    }
};

/**
 * \ingroup distributed-training
 * LinuxBufferTuner on one real flow.
 *
 * LinuxBufferTuner on a 20 MB flow at 1 Gbps: completes within 10 % of S over C, the send buffer
 * is 2 x the largest window (or the peer's window), the receive window grew from 65536 to at least
 * 2 x the bytes of one RTT.
 */
class BufferTunerFlowTestCase : public TunedFlowTestCase
{
  public:
    BufferTunerFlowTestCase()
        : TunedFlowTestCase("LinuxBufferTuner on a 20 MB flow at 1 Gbps, within 10 pct of S over C")
    {
    }

  private:
    void DoRun() override
    {
        const TunedFlow f = RunTunedFlow(FLOW_BYTES, false);
        NS_TEST_ASSERT_MSG_GT(f.sendBuffer, 0, "sender and receiver tuned");
        CheckCompleted(f);
        const uint32_t rule
            = TrainingNetwork::GetLinuxSendBufferBytes(f.maxCwnd / 1448, 1448, 4194304);
        NS_TEST_EXPECT_MSG_GT(f.sendBuffer, 20U * 1448, "grew from the initial 20 segments");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(f.sendBuffer, rule, "at most the rule at the largest window");
        NS_TEST_EXPECT_MSG_GT(f.receiveWindow, 65536U, "receive window grew");
        NS_TEST_EXPECT_MSG_GT(f.receiverRtt, Time(0), "receiver RTT measured");
        // Bytes of one receiver RTT at the link's goodput: the window covers at least twice it.
        const double perRtt = TrainingNetwork::GetGoodputBytesPerSecond(TunedFlowScenario())
                              * f.receiverRtt.GetSeconds();
        NS_TEST_EXPECT_MSG_GT_OR_EQ(f.receiveWindow, 2 * perRtt, "window >= 2 copied per RTT");
    }
};

/// Consecutive equal values merged.
std::vector<uint32_t>
Distinct(std::vector<uint32_t> v)
{
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

/**
 * \ingroup distributed-training
 * LinuxBufferTuner advertising its window (LimitReceiveWindow) on one real flow.
 *
 * LimitReceiveWindow on a 20 MB flow at 1 Gbps: completes within 10 % of S over C; the receiver's
 * window starts at 65536 and grows to at most 3 MiB; from the tuner's start the sender is offered
 * 131072, then exactly each window + 64 KiB rounded down to 32 bytes (window scale 5 of the
 * 1459960-byte creation buffer); no send buffer above the offered window - 64 KiB.
 */
class AdvertisedWindowFlowTestCase : public TunedFlowTestCase
{
  public:
    AdvertisedWindowFlowTestCase()
        : TunedFlowTestCase(
            "LimitReceiveWindow on a 20 MB flow at 1 Gbps offers the kernel windows")
    {
    }

  private:
    void DoRun() override
    {
        const TunedFlow f = RunTunedFlow(FLOW_BYTES, true);
        CheckCompleted(f);
        // 1394424 (963 segments, the autotuned limit) + 65536; 1459960 >> 5 = 45623 < 65536.
        const uint32_t margin = TrainingNetwork::RECEIVE_BUFFER_MARGIN;
        NS_TEST_ASSERT_MSG_EQ(TrainingNetwork::GetReceiveBufferBytes(TunedFlowScenario()),
                              1459960,
                              "SYN buffer");
        NS_TEST_ASSERT_MSG_GT(f.windows.size(), 1, "the window grew");
        NS_TEST_EXPECT_MSG_EQ(f.windows.front(), 65536, "tcp_rmem default / 2");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(f.windows.back(), 3145728, "tcp_rmem max / 2");
        // What the receiver advertises with its socket drained: RcvBufSize = window + margin,
        // shifted right by 5, at most 65535 (16 bits).
        std::vector<uint32_t> expected;
        for (uint32_t w : f.windows)
        {
            expected.push_back(std::min<uint32_t>((w + margin) >> 5, 65535) << 5);
        }
        NS_TEST_EXPECT_MSG_EQ(expected.front(), 131072, "65536 + 65536, a multiple of 32");
        // The sender sees the handshake's and the creation buffer's windows first.
        const auto first = std::find(f.peerWindows.begin(), f.peerWindows.end(), 131072U);
        NS_TEST_ASSERT_MSG_EQ((first != f.peerWindows.end()), true, "131072 offered");
        const std::vector<uint32_t> seen
            = Distinct(std::vector<uint32_t>(first, f.peerWindows.end()));
        expected = Distinct(expected);
        NS_TEST_ASSERT_MSG_EQ(seen.size(), expected.size(), "one offered window per window");
        for (std::size_t i = 0; i < seen.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(seen[i], expected[i], "offered window " << i);
        }
        NS_TEST_ASSERT_MSG_GT(f.sendBuffers.size(), 0, "the send buffer grew");
        for (const auto& [buffer, offered] : f.sendBuffers)
        {
            NS_TEST_EXPECT_MSG_LT_OR_EQ(buffer + margin, offered, "within the offered window");
        }
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
 *
 * --startJitter=2ms: without it the 4 workers start within 1 us, with it each worker's first step
 * starts within 2 ms after its unjittered start, the starts differ and change with --seed; every
 * downlink transfer starts after its worker's request.
 */
class StartJitterTestCase : public TestCase
{
  public:
    StartJitterTestCase()
        : TestCase("packet start jitter delays each first step by up to 2 ms, seeded")
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
 *
 * --dilation=20 at the packet level: rates over 20 and scenario times x 20 (link delay, minimum RTO
 * unchanged), compute x 20; K = 1, 2 x 4 MB at 10 Gbps: the step reported undilated within 3 % of
 * the undilated run's, and not slower (only the unscaled link delay differs); refused on a
 * leaf-spine.
 */
class DilatedPacketRunTestCase : public TestCase
{
  public:
    DilatedPacketRunTestCase()
        : TestCase("packet run at dilation 20 reports the undilated step within 3 pct")
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
 * The tuner of a socket accepted from a listener (the PS's) learns the peer's window: its send
 * buffer grows, so a pull is not held to Linux's first 20 segments per RTT.
 *
 * --bufferAutotuning on the PS's accepted socket: K = 1, one 4 MB tensor at 1 Gbps over 100 us
 * links (a BDP of about 35 segments): the pull is within 10 % of the push and of M over the goodput
 * (was 1.8x the push: the send buffer stayed at 20 segments).
 */
class AcceptedSocketTunerTestCase : public TestCase
{
  public:
    AcceptedSocketTunerTestCase()
        : TestCase("buffer autotuning on the PS accepted socket, pull within 10 pct of push")
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s;
        s.workers = 1;
        s.nicRate = DataRate("1Gbps");
        s.linkDelay = MicroSeconds(100);
        s.bufferAutotuning = true;
        s.steps = 3;
        s.warmup = 1;
        const TrainingResult r
            = CreateObject<PacketBackend>()->Run(MakeProfile({4000000}, 1000, 2000, 100), s).at(0);
        std::map<std::string, double> longest;
        for (const auto& t : r.transfers)
        {
            if (t.step >= s.warmup && t.bytes > 0)
            {
                longest[t.direction] = std::max(longest[t.direction], t.end - t.start);
            }
        }
        NS_TEST_ASSERT_MSG_GT(longest["up"], 0, "pushes recorded");
        NS_TEST_ASSERT_MSG_GT(longest["down"], 0, "pulls recorded");
        const double ideal = 4000000 / TrainingNetwork::GetGoodputBytesPerSecond(s);
        NS_TEST_EXPECT_MSG_EQ_TOL(longest["down"], longest["up"], 0.1 * longest["up"], "pull");
        NS_TEST_EXPECT_MSG_LT(longest["down"], 1.1 * ideal, "pull near M / goodput");
    }
};

/**
 * \ingroup distributed-training
 * The preset through the option layer and the cluster helper.
 *
 * --hostModel=linux sets autotuning, delayed ACKs, TCP small queues and a 20 us jitter, options
 * given before or after it override it, and the cluster runs TcpLinuxCubic for TcpCubic and
 * TcpLinuxReno for TcpNewReno; bad values name the option.
 */
class HostModelPresetTestCase : public TestCase
{
  public:
    HostModelPresetTestCase()
        : TestCase("host model preset linux sets autotuning, delayed ACKs, TSQ, jitter and TCP")
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
        NS_TEST_EXPECT_MSG_EQ(r.scenario.tcpSmallQueues, true, "TCP small queues on");
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
 * --writePattern through the option layer: event-loop by default, thread-per-connection taken,
 * anything else refused naming the option and both values; only the linux backend models it
 * (the packet backend's ns-3 applications write in zero simulated time, so the driver notes the
 * option there as without effect); a --jobs entry may not set it (a cluster option); the
 * scenario's JSON names it only when it is not the default (outputs as before).
 *
 * --writePattern: default event-loop, bad values named, noted where not modelled, not per job.
 */
class WritePatternOptionTestCase : public TestCase
{
  public:
    WritePatternOptionTestCase()
        : TestCase("write pattern option parses, is refused or noted where it does not apply")
    {
    }

  private:
    void DoRun() override
    {
        RunRequest r = ScenarioOptions::MakeDefault();
        NS_TEST_EXPECT_MSG_EQ(r.scenario.writePattern, "event-loop", "default");
        NS_TEST_EXPECT_MSG_EQ(r.scenario.ToJson().find("write_pattern"),
                              std::string::npos,
                              "printed as before");
        ScenarioOptions::Set(r, "writePattern", "thread-per-connection");
        NS_TEST_EXPECT_MSG_EQ(r.scenario.writePattern, "thread-per-connection", "taken");
        NS_TEST_EXPECT_MSG_NE(
            r.scenario.ToJson().find(R"("write_pattern":"thread-per-connection")"),
            std::string::npos,
            "printed when given");
        auto ignored = [&r](const std::string& backend)
        {
            const auto names = ScenarioOptions::GetIgnored(r, backend);
            return std::find(names.begin(), names.end(), "--writePattern") != names.end();
        };
        NS_TEST_EXPECT_MSG_EQ(ignored("linux"), false, "the linux backend runs it");
        NS_TEST_EXPECT_MSG_EQ(ignored("packet"), true, "the same in ns-3: noted");
        NS_TEST_EXPECT_MSG_EQ(ignored("flow"), true, "no applications: noted");
        NS_TEST_EXPECT_MSG_EQ(
            ns3::tests::ThrowsInputError(
                [&r]
                {
                    ScenarioOptions::Set(r, "writePattern", "threads");
                },
                {"--writePattern", "threads", "event-loop or thread-per-connection"}),
            true,
            "unknown pattern");
        const RunRequest base = ScenarioOptions::MakeDefault();
        NS_TEST_EXPECT_MSG_EQ(
            ns3::tests::ThrowsInputError(
                [&base]
                {
                    TrainingJobSet::FromText(
                        R"([{"workers": 2, "writePattern": "thread-per-connection"}])",
                        "jobs",
                        base);
                },
                {"writePattern", "not a per-job option"}),
            true,
            "a cluster option, not a job's");
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
        AddTestCase(new AdvertisedWindowFlowTestCase, DT_TEST_QUICK);
        AddTestCase(new AcceptedSocketTunerTestCase, DT_TEST_QUICK);
        AddTestCase(new StartJitterTestCase, DT_TEST_QUICK);
        AddTestCase(new HostModelPresetTestCase, DT_TEST_QUICK);
        AddTestCase(new WritePatternOptionTestCase, DT_TEST_QUICK);
        AddTestCase(new DilatedPacketRunTestCase, DT_TEST_QUICK);
    }
};

LinuxHostModelTestSuite g_linuxHostModelTestSuite; //!< the suite

} // namespace

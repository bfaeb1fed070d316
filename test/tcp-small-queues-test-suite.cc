/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * TCP small queues (TcpSmallQueuesSocket, --tcpSmallQueues): the limit's formula by hand, the
 * bytes a sender keeps on its host, K senders sharing one 100-packet NIC, a bulk flow at the
 * link rate, accepted sockets, and the option end to end at the packet level.
 */

#include "training-test-utils.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/distributed-training-module.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/tcp-small-queues.h"
#include "ns3/test.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <map>

using namespace ns3;
using ns3::tests::MakeProfile;

namespace
{

/// Link of the hand-built tests: 100 Mb/s, 10 us, a 100-packet NIC queue at the sender.
constexpr uint64_t LINK_BPS = 100000000;

/// What a run of K flows from host A to host B left.
struct FlowRun
{
    uint32_t drops{0};        //!< packets dropped on A (NIC queue full: TcDrop, MacTxDrop)
    uint32_t maxOverLimit{0}; //!< largest (local bytes - limit) of a TSQ sender, 0 if never over
    uint32_t maxLocal{0};     //!< largest local bytes of a TSQ sender
    uint64_t throttles{0};    //!< throttle events of all senders
    uint64_t received{0};     //!< bytes at B
    double first{-1};         //!< first byte at B, s
    double last{-1};          //!< last byte at B, s
    std::map<uint16_t, double> lastByPort; //!< last byte at B of each sender port, s
    std::vector<Ptr<Socket>> senders;      //!< A's sockets
    Time minRtt;                           //!< smallest min RTT of A's TSQ sockets
    uint32_t skbSegments{0};               //!< largest skb of A's TSQ sockets at the end, segments
};

/// A sender that keeps its socket's buffer full until it has written `left` bytes.
struct Writer
{
    Ptr<Socket> socket; //!< the socket
    uint64_t left{0};   //!< bytes still to write
};

/// Send callback: write as much as the buffer takes.
void
Fill(Writer* w, Ptr<Socket> socket, uint32_t available)
{
    while (w->left > 0 && available > 0)
    {
        const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>({w->left, available, 65536}));
        const int sent = socket->Send(Create<Packet>(n));
        if (sent <= 0)
        {
            return;
        }
        w->left -= static_cast<uint32_t>(sent);
        available = socket->GetTxAvailable();
    }
}

/// Connected: start writing.
void
Connected(Writer* w, Ptr<Socket> socket)
{
    Fill(w, socket, socket->GetTxAvailable());
}

/// LocalBytes sink: the largest count, and how far above the limit a send took it (a send is
/// allowed below the limit; an RTT sample may lower the limit below what is already queued).
void
OnLocal(FlowRun* r, Ptr<TcpSmallQueuesSocket> s, uint32_t old, uint32_t value)
{
    r->maxLocal = std::max(r->maxLocal, value);
    const uint32_t limit = s->GetLimitBytes();
    if (value > old)
    {
        r->maxOverLimit = std::max(r->maxOverLimit, value > limit ? value - limit : 0);
    }
}

/// Drop sink on A.
void
OnDrop(FlowRun* r, Ptr<const Packet>)
{
    ++r->drops;
}

/// PacketSink Rx: bytes and first/last arrival.
void
OnSink(FlowRun* r, Ptr<const Packet> p, const Address& from)
{
    const double now = Simulator::Now().GetSeconds();
    r->lastByPort[InetSocketAddress::ConvertFrom(from).GetPort()] = now;
    r->first = r->first < 0 ? now : r->first;
    r->last = now;
    r->received += p->GetSize();
}

/// Segment size of the hand-built runs (the module's at MTU 1500, timestamps on).
uint32_t
SetTcpDefaults()
{
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::TcpCubic"));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(256 * 1024));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(320 * 1024));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    return 1448;
}

/// Nodes A and B on one point-to-point link (A's NIC: 100 packets, no queue disc).
NodeContainer
MakeLink()
{
    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(LINK_BPS)));
    p2p.SetChannelAttribute("Delay", TimeValue(MicroSeconds(10)));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("100p")));
    NetDeviceContainer devices = p2p.Install(nodes);
    InternetStackHelper().Install(nodes);
    Ipv4AddressHelper address("10.1.0.0", "255.255.255.0");
    address.Assign(devices);
    TrafficControlHelper().Uninstall(devices); // the device queue is the NIC's only buffer
    return nodes;
}

/**
 * \brief K flows of `bytes` each from A to B, with or without TCP small queues at A.
 * \param k flows
 * \param bytes per flow
 * \param tsq TcpSmallQueuesSocket at A
 * \param gsoMaxSize its GsoMaxSize (0: one-segment skbs)
 * \return what the run left
 */
FlowRun
RunFlows(uint32_t k, uint64_t bytes, bool tsq, uint32_t gsoMaxSize = 0)
{
    SetTcpDefaults();
    Config::SetDefault("ns3::TcpSmallQueuesSocket::GsoMaxSize", UintegerValue(gsoMaxSize));
    NodeContainer nodes = MakeLink();
    FlowRun r;
    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), 9000));
    ApplicationContainer sink = sinkHelper.Install(nodes.Get(1));
    sink.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnSink, &r));
    nodes.Get(0)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
        "TcDrop",
        MakeBoundCallback(&OnDrop, &r));
    nodes.Get(0)->GetDevice(0)->TraceConnectWithoutContext("MacTxDrop",
                                                           MakeBoundCallback(&OnDrop, &r));
    std::vector<Writer> writers(k);
    for (uint32_t i = 0; i < k; ++i)
    {
        Ptr<Socket> s = TcpSmallQueuesSocket::CreateTcpSocket(nodes.Get(0), tsq);
        writers[i] = {s, bytes};
        if (Ptr<TcpSmallQueuesSocket> q = DynamicCast<TcpSmallQueuesSocket>(s))
        {
            q->TraceConnectWithoutContext("LocalBytes", MakeBoundCallback(&OnLocal, &r, q));
        }
        s->Bind();
        s->SetConnectCallback(MakeBoundCallback(&Connected, &writers[i]),
                              MakeNullCallback<void, Ptr<Socket>>());
        s->SetSendCallback(MakeBoundCallback(&Fill, &writers[i]));
        s->Connect(InetSocketAddress(Ipv4Address("10.1.0.2"), 9000));
        r.senders.push_back(s);
    }
    Simulator::Stop(Seconds(20));
    Simulator::Run();
    for (const auto& s : r.senders)
    {
        if (Ptr<TcpSmallQueuesSocket> q = DynamicCast<TcpSmallQueuesSocket>(s))
        {
            r.throttles += q->GetThrottleCount();
            r.minRtt = r.minRtt.IsZero() ? q->GetMinRtt() : std::min(r.minRtt, q->GetMinRtt());
            r.skbSegments = std::max(r.skbSegments, q->GetSkbSegments());
        }
    }
    Config::SetDefault("ns3::TcpSmallQueuesSocket::GsoMaxSize", UintegerValue(65536));
    r.senders.clear();
    Simulator::Destroy();
    return r;
}

/// Payload goodput of the link: 1448 of every 1502 bytes (52 TCP/IP with timestamps, 2 PPP).
double
LinkGoodput()
{
    return LINK_BPS / 8.0 * 1448 / 1502;
}

/**
 * \ingroup distributed-training
 * The limit min(max(2 segments, pacing rate >> 10), tcp_limit_output_bytes) by hand, before an
 * RTT sample (Linux: pacing rate unlimited, or the maximum): unpaced 1048576
 * (tcp_limit_output_bytes); with LimitOutputBytes 5000, 5000; paced at 80 Mbps, 10^7 over 1024 =
 * 9765 (no cap); paced at 8 Mbps, 2 x (1448 + 1280) = 5456 (the floor, in truesize); MinSkbs 4
 * paced at 8 Mbps, 10912 (one-segment skbs, GsoMaxSize 0). With 64 KiB GSO and no RTT sample,
 * skbs of tcp_min_tso_segs = 2 segments at 8 Mbps (floor 8352) and 9765 / 1448 = 6 at 80 Mbps
 * (floor 19936).
 */
class TsqLimitTestCase : public TestCase
{
  public:
    TsqLimitTestCase()
        : TestCase("TSQ limit by hand, with and without GSO skbs")
    {
    }

  private:
    /// \return (limit, segments per skb) of a new socket
    static std::pair<uint32_t, uint32_t> Limit(bool paced,
                                               const std::string& rate,
                                               uint32_t minSkbs,
                                               uint32_t limitOutput,
                                               uint32_t gsoMaxSize = 0)
    {
        SetTcpDefaults();
        Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(paced));
        Config::SetDefault("ns3::TcpSocketState::MaxPacingRate", StringValue(rate));
        NodeContainer nodes = MakeLink();
        Ptr<TcpSmallQueuesSocket> s
            = DynamicCast<TcpSmallQueuesSocket>(TcpSmallQueuesSocket::CreateSocket(nodes.Get(0)));
        s->SetAttribute("MinSkbs", UintegerValue(minSkbs));
        s->SetAttribute("LimitOutputBytes", UintegerValue(limitOutput));
        s->SetAttribute("GsoMaxSize", UintegerValue(gsoMaxSize));
        const std::pair<uint32_t, uint32_t> limit{s->GetLimitBytes(), s->GetSkbSegments()};
        Simulator::Destroy();
        Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(false));
        Config::SetDefault("ns3::TcpSocketState::MaxPacingRate", StringValue("4Gb/s"));
        return limit;
    }

    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(Limit(false, "4Gb/s", 2, 1048576).first, 1048576, "unpaced: cap");
        NS_TEST_EXPECT_MSG_EQ(Limit(false, "4Gb/s", 2, 5000).first, 5000, "a lower cap");
        NS_TEST_EXPECT_MSG_EQ(Limit(true, "80Mb/s", 2, 5000).first, 9765, "paced: rate >> 10");
        NS_TEST_EXPECT_MSG_EQ(Limit(true, "8Mb/s", 2, 5000).first, 5456, "two segments");
        NS_TEST_EXPECT_MSG_EQ(Limit(true, "8Mb/s", 4, 5000).first, 10912, "four segments");
        NS_TEST_EXPECT_MSG_EQ(Limit(true, "8Mb/s", 2, 5000).second, 1, "GsoMaxSize 0: 1 segment");
        // With GSO and no RTT sample yet (no min-RTT bonus): 10^6 >> 10 = 976 bytes, less than
        // a segment: tcp_min_tso_segs, 2 segments; 10^7 >> 10 = 9765 bytes: 6 segments.
        const auto gso8 = Limit(true, "8Mb/s", 2, 5000, 65536);
        NS_TEST_EXPECT_MSG_EQ(gso8.second, 2, "8 Mb/s: tcp_min_tso_segs");
        NS_TEST_EXPECT_MSG_EQ(gso8.first, 8352, "floor 2 x (2 x 1448 + 1280)");
        const auto gso80 = Limit(true, "80Mb/s", 2, 5000, 65536);
        NS_TEST_EXPECT_MSG_EQ(gso80.second, 6, "80 Mb/s: 9765 / 1448");
        NS_TEST_EXPECT_MSG_EQ(gso80.first, 19936, "floor 2 x (6 x 1448 + 1280) > 9765");
    }
};

/**
 * \ingroup distributed-training
 * One sender: what it keeps on its host stays within the limit, and it still fills the link.
 *
 * One TSQ sender, 4 MB over 100 Mbps with a 100-packet NIC: bytes queued locally never exceed the
 * limit by more than one segment (1448 + 1280), the sender is throttled, its RTT is measured in
 * microseconds (below 1 ms), no drop, and the flow's goodput is within 3 % of the link's 12.05 MB
 * per s (TSQ does not throttle one flow below the rate).
 */
class TsqSingleFlowTestCase : public TestCase
{
  public:
    TsqSingleFlowTestCase()
        : TestCase("one TSQ flow stays within the limit and within 3 pct of the link goodput")
    {
    }

  private:
    void DoRun() override
    {
        const FlowRun r = RunFlows(1, 4000000, true);
        NS_TEST_EXPECT_MSG_EQ(r.received, 4000000, "everything arrived");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(r.maxOverLimit, 2728u, "at most one segment over");
        NS_TEST_EXPECT_MSG_GT(r.maxLocal, 0u, "bytes were counted");
        NS_TEST_EXPECT_MSG_GT(r.throttles, 0u, "the limit held the sender back");
        const double goodput = r.received / (r.last - r.first);
        NS_TEST_EXPECT_MSG_GT(goodput, 0.97 * LinkGoodput(), "link rate");
        NS_TEST_EXPECT_MSG_LT(goodput, 1.001 * LinkGoodput(), "not above the link");
    }
};

/**
 * \ingroup distributed-training
 * K = 8 senders on one host: TSQ keeps their NIC queue from overflowing; ns-3 alone does not.
 *
 * K = 8 connections of 1 MB from one host through its 100-packet NIC at 100 Mbps: no drop at that
 * NIC with TSQ, drops without (8 x IW 10 = 80 segments, then slow start overflows it); both deliver
 * all 8 MB, TSQ within 3 % of the link's goodput.
 */
class TsqSharedNicTestCase : public TestCase
{
  public:
    TsqSharedNicTestCase()
        : TestCase("8 TSQ connections on one 100-packet NIC do not drop, without TSQ they do")
    {
    }

  private:
    void DoRun() override
    {
        const FlowRun with = RunFlows(8, 1000000, true);
        const FlowRun without = RunFlows(8, 1000000, false);
        NS_TEST_EXPECT_MSG_EQ(with.received, 8000000, "TSQ: all bytes");
        NS_TEST_EXPECT_MSG_EQ(without.received, 8000000, "ns-3: all bytes");
        NS_TEST_EXPECT_MSG_EQ(with.drops, 0u, "TSQ: no local drop");
        NS_TEST_EXPECT_MSG_GT(without.drops, 0u, "ns-3: local drops");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(with.maxOverLimit, 2728u, "each within its limit");
        NS_TEST_EXPECT_MSG_GT(with.received / (with.last - with.first),
                              0.97 * LinkGoodput(),
                              "TSQ: link rate");
    }
};

/// \return the spread of the flows' last bytes, s
double
EndSpread(const FlowRun& r)
{
    double lo = 1e9;
    double hi = -1;
    for (const auto& [port, t] : r.lastByPort)
    {
        lo = std::min(lo, t);
        hi = std::max(hi, t);
    }
    return hi - lo;
}

/**
 * \ingroup distributed-training
 * 64 KiB skbs (Linux's GSO sizing, tcp_tso_autosize): one sender over the 10 us link has a min
 * RTT below 512 us and so skbs of 65536 / 1448 = 45 segments, keeps at most one skb (45 x 2728
 * bytes) above its limit and fills the link; two senders of 1 MB from one host take turns of an
 * skb (5.2 ms at the link's rate), so the first ends 2-10.4 ms before the second (3.4 ms in
 * ns-3.37 and 3.48); with one-segment skbs both deliver everything (their ends depend on the
 * release's TCP: 0.4 ms apart in 3.37, 65 ms in 3.48).
 *
 * 64 KiB GSO skbs: skb size from the min RTT, turns at a shared NIC.
 */
class TsqGsoTestCase : public TestCase
{
  public:
    TsqGsoTestCase()
        : TestCase("64 KiB GSO skbs, size from the min RTT, turns at a shared NIC")
    {
    }

  private:
    void DoRun() override
    {
        const FlowRun one = RunFlows(1, 4000000, true, 65536);
        NS_TEST_EXPECT_MSG_LT(one.minRtt, MicroSeconds(512), "datacenter RTT");
        NS_TEST_EXPECT_MSG_EQ(one.skbSegments, 45u, "65536 / 1448");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(one.maxOverLimit, 45u * 2728, "at most one skb over");
        NS_TEST_EXPECT_MSG_EQ(one.received, 4000000, "everything arrived");
        NS_TEST_EXPECT_MSG_GT(one.received / (one.last - one.first),
                              0.97 * LinkGoodput(),
                              "link rate");
        const FlowRun turns = RunFlows(2, 1000000, true, 65536);
        const FlowRun packets = RunFlows(2, 1000000, true, 0);
        NS_TEST_EXPECT_MSG_EQ(turns.received, 2000000, "GSO: all bytes");
        NS_TEST_EXPECT_MSG_EQ(packets.received, 2000000, "one-segment skbs: all bytes");
        NS_TEST_EXPECT_MSG_GT(EndSpread(turns), 2e-3, "turns of an skb");
        NS_TEST_EXPECT_MSG_LT(EndSpread(turns), 2 * 5.2e-3, "at most two skbs apart");
    }
};

/**
 * \ingroup distributed-training
 * TcpSmallQueuesSocketFactory: any application that takes a socket factory gets TSQ.
 *
 * A BulkSend whose Protocol is ns3::TcpSmallQueuesSocketFactory (installed on its node twice: one
 * factory) sends 1 MB through a TcpSmallQueuesSocket that measures its RTT and ends with nothing
 * queued locally.
 */
class TsqFactoryTestCase : public TestCase
{
  public:
    TsqFactoryTestCase()
        : TestCase("BulkSend through TcpSmallQueuesSocketFactory sends 1 MB with TSQ")
    {
    }

  private:
    void DoRun() override
    {
        SetTcpDefaults();
        NodeContainer nodes = MakeLink();
        TcpSmallQueuesSocketFactory::Install(nodes.Get(0));
        TcpSmallQueuesSocketFactory::Install(nodes.Get(0));
        FlowRun r;
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), 9000));
        sinkHelper.Install(nodes.Get(1))
            .Get(0)
            ->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnSink, &r));
        BulkSendHelper bulk("ns3::TcpSmallQueuesSocketFactory",
                            InetSocketAddress(Ipv4Address("10.1.0.2"), 9000));
        bulk.SetAttribute("MaxBytes", UintegerValue(1000000));
        Ptr<BulkSendApplication> app
            = DynamicCast<BulkSendApplication>(bulk.Install(nodes.Get(0)).Get(0));
        Simulator::Stop(Seconds(5));
        Simulator::Run();
        Ptr<TcpSmallQueuesSocket> s = DynamicCast<TcpSmallQueuesSocket>(app->GetSocket());
        NS_TEST_ASSERT_MSG_NE(s, nullptr, "the application's socket has TSQ");
        NS_TEST_EXPECT_MSG_GT(s->GetMinRtt(), Time(0), "it measured its RTT");
        NS_TEST_EXPECT_MSG_EQ(s->GetLocalBytes(), 0u, "nothing left on the host");
        NS_TEST_EXPECT_MSG_EQ(r.received, 1000000u, "the data arrived");
        Simulator::Destroy();
    }
};

/// Accept sink: note whether the accepted socket is a TSQ socket and send it data back.
void
OnAccept(std::vector<Ptr<Socket>>* accepted, Ptr<Socket> s, const Address&)
{
    accepted->push_back(s);
    s->Send(Create<Packet>(200000));
}

/// Receive sink: drain.
void
Drain(uint64_t* bytes, Ptr<Socket> s)
{
    while (Ptr<Packet> p = s->Recv())
    {
        *bytes += p->GetSize();
    }
}

/**
 * \ingroup distributed-training
 * A listening TSQ socket forks TSQ sockets, each counting its own packets.
 *
 * A TSQ listener's accepted socket is a TcpSmallQueuesSocket with the listener's attributes; it
 * counts its own 200 kB (the listener counts nothing), measures its RTT from the SYN-ACK, and ends
 * with nothing queued locally.
 */
class TsqAcceptedSocketTestCase : public TestCase
{
  public:
    TsqAcceptedSocketTestCase()
        : TestCase("a TSQ listener accepts TcpSmallQueuesSockets with its attributes")
    {
    }

  private:
    void DoRun() override
    {
        SetTcpDefaults();
        NodeContainer nodes = MakeLink();
        Ptr<TcpSmallQueuesSocket> listener
            = DynamicCast<TcpSmallQueuesSocket>(TcpSmallQueuesSocket::CreateSocket(nodes.Get(1)));
        listener->SetAttribute("MinSkbs", UintegerValue(3));
        listener->SetAttribute("GsoMaxSize", UintegerValue(0)); // 200 kB < 3 skbs of 64 KiB
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9000));
        listener->Listen();
        std::vector<Ptr<Socket>> accepted;
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeBoundCallback(&OnAccept, &accepted));
        Ptr<Socket> client = Socket::CreateSocket(nodes.Get(0), TcpSocketFactory::GetTypeId());
        uint64_t received = 0;
        client->SetRecvCallback(MakeBoundCallback(&Drain, &received));
        client->Bind();
        client->Connect(InetSocketAddress(Ipv4Address("10.1.0.2"), 9000));
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(accepted.size(), 1u, "one connection");
        Ptr<TcpSmallQueuesSocket> fork = DynamicCast<TcpSmallQueuesSocket>(accepted[0]);
        NS_TEST_ASSERT_MSG_NE(fork, nullptr, "the accepted socket has TSQ");
        UintegerValue minSkbs;
        fork->GetAttribute("MinSkbs", minSkbs);
        NS_TEST_EXPECT_MSG_EQ(minSkbs.Get(), 3u, "the listener's attributes");
        NS_TEST_EXPECT_MSG_EQ(fork->GetSkbSegments(), 1u, "the listener's GsoMaxSize 0");
        NS_TEST_EXPECT_MSG_EQ(received, 200000u, "the data arrived");
        NS_TEST_EXPECT_MSG_GT(fork->GetThrottleCount(), 0u, "the fork was throttled");
        NS_TEST_EXPECT_MSG_EQ(fork->GetLocalBytes(), 0u, "every packet left the host");
        NS_TEST_EXPECT_MSG_EQ(listener->GetThrottleCount(), 0u, "the listener sent nothing");
        NS_TEST_EXPECT_MSG_GT(fork->GetSmoothedRtt(), Time(0), "an RTT sample");
        NS_TEST_EXPECT_MSG_LT(fork->GetSmoothedRtt(), MilliSeconds(20), "in microseconds");
        accepted.clear();
        Simulator::Destroy();
    }
};

/**
 * \ingroup distributed-training
 * --tcpSmallQueues through the driver's option table and the packet backend.
 *
 * --tcpSmallQueues=true at the packet level: sync PS, K = 8, 2 x 600 kB at 100 Mbps, 100-packet
 * queues, one-segment skbs: no drop at the PS's NIC (server0->switch), which drops without it; the
 * same bytes move; the option is printed in the scenario and a bad value names it.
 */
class TsqScenarioTestCase : public TestCase
{
  public:
    TsqScenarioTestCase()
        : TestCase("packet sync PS, K = 8, with TSQ no drop at the server NIC")
    {
    }

  private:
    static TrainingResult Run(bool tsq)
    {
        RunRequest request = ScenarioOptions::MakeDefault();
        ScenarioOptions::Set(request, "workers", "8");
        ScenarioOptions::Set(request, "nicRate", "100Mbps");
        ScenarioOptions::Set(request, "queue", "100p");
        ScenarioOptions::Set(request, "steps", "3");
        ScenarioOptions::Set(request, "warmup", "1");
        ScenarioOptions::Set(request, "tcpSmallQueues", tsq ? "true" : "false");
        Ptr<PacketBackend> backend = CreateObject<PacketBackend>();
        return backend->Run(MakeProfile({600000, 600000}, 500, 1000, 50), request.scenario).at(0);
    }

    static double PsNicDrops(const TrainingResult& r)
    {
        auto it = r.inputs.find("drops:server0->switch");
        return it == r.inputs.end() ? 0 : it->second;
    }

    void DoRun() override
    {
        // One-segment skbs: with 64 KiB skbs each of the PS's 8 sockets may keep 90 segments
        // on its host, and the 100-packet NIC drops (as a Linux PS's 100-packet qdisc does).
        Config::SetDefault("ns3::TcpSmallQueuesSocket::GsoMaxSize", UintegerValue(0));
        const TrainingResult with = Run(true);
        Config::SetDefault("ns3::TcpSmallQueuesSocket::GsoMaxSize", UintegerValue(65536));
        const TrainingResult without = Run(false);
        NS_TEST_EXPECT_MSG_EQ(PsNicDrops(with), 0, "TSQ: the PS's NIC drops nothing");
        NS_TEST_EXPECT_MSG_GT(PsNicDrops(without), 0, "ns-3: the PS's NIC overflows");
        NS_TEST_EXPECT_MSG_EQ(with.steps.size(), without.steps.size(), "same steps");
        RunRequest request = ScenarioOptions::MakeDefault();
        ScenarioOptions::Set(request, "tcpSmallQueues", "true");
        const std::string on = request.scenario.ToJson();
        NS_TEST_EXPECT_MSG_NE(on.find("\"tcp_small_queues\""), std::string::npos, "printed");
        NS_TEST_EXPECT_MSG_EQ(TrainingScenario().ToJson().find("tcp_small_queues"),
                              std::string::npos,
                              "not printed when off");
        NS_TEST_EXPECT_MSG_EQ(tests::ThrowsInputError(
                                  [&]
                                  {
                                      ScenarioOptions::Set(request, "tcpSmallQueues", "maybe");
                                  },
                                  {"--tcpSmallQueues"}),
                              true,
                              "bad value");
    }
};

/// The suite.
class TcpSmallQueuesTestSuite : public TestSuite
{
  public:
    TcpSmallQueuesTestSuite()
        : TestSuite("distributed-training-tcp-small-queues", Type::UNIT)
    {
        AddTestCase(new TsqLimitTestCase, DT_TEST_QUICK);
        AddTestCase(new TsqSingleFlowTestCase, DT_TEST_QUICK);
        AddTestCase(new TsqSharedNicTestCase, DT_TEST_QUICK);
        AddTestCase(new TsqGsoTestCase, DT_TEST_QUICK);
        AddTestCase(new TsqFactoryTestCase, DT_TEST_QUICK);
        AddTestCase(new TsqAcceptedSocketTestCase, DT_TEST_QUICK);
        AddTestCase(new TsqScenarioTestCase, DT_TEST_QUICK);
    }
};

TcpSmallQueuesTestSuite g_tcpSmallQueuesTestSuite; //!< the suite

} // namespace

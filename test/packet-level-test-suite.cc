/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Packet-level parameter-server training over real ns-3 TCP: agreement with the closed form for
 * one worker without contention, conservation of every byte, the sync barrier, async drift,
 * overlap, the multi-server partition, 001's HTTP/2 multiplexing order (Fig. 12), the per-flow
 * cap and 000 Fig. 23's behaviour, and determinism. Profiles are small and synthetic (a few
 * large layers) so the suite stays quick.
 */

#include "training-test-utils.h"

#include "ns3/application-container.h"
#include "ns3/core-module.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/distributed-training-module.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/test.h"
#include "ns3/traffic-control-layer.h"

#include <algorithm>
#include <map>
#include <set>

using namespace ns3;
using ns3::tests::MakeProfile;

namespace
{

TrainingResult
RunPacket(const TrainingProfile& profile, const TrainingScenario& scenario)
{
    Ptr<PacketBackend> backend = CreateObject<PacketBackend>();
    return backend->Run(profile, scenario).at(0);
}

/// Latest end of each step over the workers.
std::vector<double>
StepEnds(const TrainingResult& r, uint32_t steps)
{
    std::vector<double> ends(steps, 0);
    for (const auto& s : r.steps)
    {
        ends[s.step] = std::max(ends[s.step], s.end);
    }
    return ends;
}

/**
 * \ingroup distributed-training
 * One worker, overlap off, no contention: the step is downlink + forward + backward + uplink +
 * update, each transfer taking bytes / TCP goodput (000 Eq. (7) and (8) at K = 1).
 *
 * Packet: one worker, overlap off, step time is 2M over TCP goodput plus T_F, T_B and T_S within
 * 3%.
 */
class OneWorkerMatchesClosedFormTestCase : public TestCase
{
  public:
    OneWorkerMatchesClosedFormTestCase()
        : TestCase("packet, one worker, step within 3 pct of 2M over goodput plus compute")
    {
    }

  private:
    void DoRun() override
    {
        for (std::string rate : {"1Gbps", "10Gbps"})
        {
            TrainingProfile p = MakeProfile({3000000, 1000000, 4000000}, 4000, 8000, 500);
            TrainingScenario s;
            s.workers = 1;
            s.nicRate = DataRate(rate);
            s.steps = 4;
            s.warmup = 1;
            TrainingResult r = RunPacket(p, s);
            double m = p.GetTotalParamBytes();
            double goodput = TrainingNetwork::GetGoodputBytesPerSecond(s);
            double expected = 2 * m / goodput + p.GetForwardTime().GetSeconds()
                              + p.GetBackwardTime().GetSeconds() + p.GetUpdateTime().GetSeconds();
            NS_TEST_EXPECT_MSG_EQ_TOL(r.stepTimeMean,
                                      expected,
                                      0.03 * expected,
                                      rate << ": measured " << r.stepTimeMean * 1e3
                                           << " ms vs closed form " << expected * 1e3 << " ms");
            NS_TEST_EXPECT_MSG_EQ_TOL(r.throughput,
                                      32 / expected,
                                      0.03 * 32 / expected,
                                      rate << ": throughput");
        }
    }
};

/**
 * \ingroup distributed-training
 * Every tensor sent is received: per worker, server and step each layer goes down once and up
 * once with its full size, and the applications' byte counters agree.
 *
 * Packet: every parameter and gradient tensor arrives once, whole, per worker, server and step.
 */
class BytesConservedTestCase : public TestCase
{
  public:
    BytesConservedTestCase()
        : TestCase("packet, every tensor arrives once and whole per worker, server and step")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = MakeProfile({500000, 1200000, 300000, 700000}, 1000, 2000, 100);
        TrainingScenario s;
        s.workers = 3;
        s.servers = 2;
        s.steps = 3;
        s.warmup = 0;
        s.overlap = true;
        s.windowBytes = 400000;
        TrainingResult r = RunPacket(p, s);
        std::vector<uint32_t> owner = s.AssignLayersToServers(p);

        std::map<std::tuple<uint32_t, uint32_t, std::string, int32_t>, int> seen;
        for (const auto& t : r.transfers)
        {
            NS_TEST_EXPECT_MSG_EQ(t.bytes,
                                  p.GetLayer(t.tensor).paramBytes,
                                  "tensor " << t.tensor << " size");
            NS_TEST_EXPECT_MSG_EQ(t.peer, owner[t.tensor], "tensor " << t.tensor << " server");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(t.start, t.end, "first byte before last byte");
            ++seen[{t.worker, t.step, t.direction, t.tensor}];
        }
        for (uint32_t w = 0; w < s.workers; ++w)
        {
            for (uint32_t step = 0; step < s.steps; ++step)
            {
                for (std::string dir : {"down", "up"})
                {
                    for (int32_t l = 0; l < 4; ++l)
                    {
                        int count = seen[std::make_tuple(w, step, dir, l)];
                        NS_TEST_EXPECT_MSG_EQ(count,
                                              1,
                                              "worker " << w << " step " << step << " " << dir
                                                        << " layer " << l);
                    }
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ(r.transfers.size(), 3 * 3 * 2 * 4, "no extra transfers");
        NS_TEST_EXPECT_MSG_EQ(r.steps.size(), 9, "all steps completed");
    }
};

/**
 * \ingroup distributed-training
 * Sync: no worker starts step s+1 before every worker's step s is applied. Async with sampled
 * steps: workers drift apart.
 *
 * Packet: sync workers wait for the barrier; async workers drift apart.
 */
class SyncBarrierAsyncDriftTestCase : public TestCase
{
  public:
    SyncBarrierAsyncDriftTestCase()
        : TestCase("packet sync workers wait for the barrier, async workers drift apart")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p
            = MakeProfile({800000, 800000}, 3000, 6000, 200, {0.6, 0.9, 1.0, 1.3, 1.7});
        TrainingScenario s;
        s.workers = 3;
        s.steps = 6;
        s.warmup = 1;
        s.computeScale = {1.0, 1.2, 1.5};
        TrainingResult sync = RunPacket(p, s);
        std::vector<double> ends = StepEnds(sync, s.steps);
        for (const auto& rec : sync.steps)
        {
            if (rec.step > 0)
            {
                NS_TEST_EXPECT_MSG_GT_OR_EQ(rec.start,
                                            ends[rec.step - 1],
                                            "worker " << rec.worker << " started step " << rec.step
                                                      << " before the barrier");
            }
        }

        s.mode = TrainingScenario::ASYNC;
        TrainingResult async = RunPacket(p, s);
        std::map<uint32_t, std::vector<double>> starts; // step -> start of each worker
        for (const auto& rec : async.steps)
        {
            starts[rec.step].push_back(rec.start);
        }
        const auto& last = starts[s.steps - 1];
        double spread = *std::max_element(last.begin(), last.end())
                        - *std::min_element(last.begin(), last.end());
        NS_TEST_EXPECT_MSG_GT(spread, 0.005, "async workers still in lockstep at the last step");
        NS_TEST_EXPECT_MSG_GT(async.throughput,
                              sync.throughput,
                              "async without a barrier should beat sync with stragglers");
    }
};

/**
 * \ingroup distributed-training
 * Overlap never makes a step slower, and helps where communication is long.
 *
 * Packet: overlap on is never slower than off, and faster when communication is long.
 */
class OverlapNeverSlowerTestCase : public TestCase
{
  public:
    OverlapNeverSlowerTestCase()
        : TestCase("packet overlap is never slower than no overlap")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            std::string rate;
            bool commLong;
        };

        for (const Case& c : {Case{"1Gbps", true}, Case{"10Gbps", false}})
        {
            TrainingProfile p = MakeProfile({1000000, 1000000, 1000000, 1000000}, 2000, 4000, 100);
            TrainingScenario s;
            s.workers = 2;
            s.steps = 4;
            s.warmup = 1;
            s.nicRate = DataRate(c.rate);
            TrainingResult off = RunPacket(p, s);
            s.overlap = true;
            TrainingResult on = RunPacket(p, s);
            NS_TEST_EXPECT_MSG_LT_OR_EQ(on.stepTimeMean,
                                        off.stepTimeMean * 1.005,
                                        c.rate << ": overlap slower (" << on.stepTimeMean
                                               << " s vs " << off.stepTimeMean << " s)");
            if (c.commLong)
            {
                NS_TEST_EXPECT_MSG_LT(on.stepTimeMean,
                                      off.stepTimeMean * 0.9,
                                      c.rate << ": overlap should save > 10% when communication "
                                                "dominates");
            }
        }
    }
};

/**
 * \ingroup distributed-training
 * 001 Fig. 12: with WIN, each stream first sends at most WIN bytes, then waits at the tail for
 * its second service; tensors complete in the hand-worked order.
 *
 * Packet: WIN multiplexing completes streams in 001 Fig. 12's order.
 */
class MultiplexingOrderTestCase : public TestCase
{
  public:
    MultiplexingOrderTestCase()
        : TestCase("packet WIN multiplexing completes streams in the order of Fig. 12")
    {
    }

  private:
    void Received(Ptr<TensorConnection> /* c */, const TensorChunkHeader& h)
    {
        m_bytes[h.GetTensor()] += h.GetLength();
        if (m_bytes[h.GetTensor()] == h.GetTensorBytes())
        {
            m_order.push_back(h.GetTensor());
        }
    }

    void Accept(Ptr<Socket> socket, const Address& /* from */)
    {
        m_server = CreateObject<TensorConnection>();
        m_server->Attach(socket, 0, MakeCallback(&MultiplexingOrderTestCase::Received, this));
    }

    std::vector<int32_t> Run(uint64_t window)
    {
        m_order.clear();
        m_bytes.clear();
        NodeContainer nodes(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        p2p.SetChannelAttribute("Delay", StringValue("10us"));
        NetDeviceContainer d = p2p.Install(nodes);
        InternetStackHelper stack;
        stack.Install(nodes);
        Ipv4AddressHelper a("10.1.0.0", "255.255.255.0");
        Ipv4InterfaceContainer i = a.Assign(d);

        Ptr<Socket> listener = Socket::CreateSocket(nodes.Get(1), TcpSocketFactory::GetTypeId());
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 7000));
        listener->Listen();
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&MultiplexingOrderTestCase::Accept, this));
        Ptr<Socket> client = Socket::CreateSocket(nodes.Get(0), TcpSocketFactory::GetTypeId());
        client->Bind();
        Ptr<TensorConnection> sender = CreateObject<TensorConnection>();
        sender->Attach(client, window, TensorConnection::ChunkCallback());
        // Connect once the simulation runs (the stack is initialised then), and queue streams
        // A..E of 2, 5, 1, 4, 3 units at once.
        Simulator::ScheduleNow(
            [client, sender, i]()
            {
                client->Connect(InetSocketAddress(i.GetAddress(1), 7000));
                const uint64_t unit = 100000;
                const uint64_t sizes[] = {2, 5, 1, 4, 3};
                for (int32_t t = 0; t < 5; ++t)
                {
                    TensorChunkHeader h;
                    h.SetType(TensorChunkHeader::PARAMS);
                    h.SetTensor(t);
                    sender->SendTensor(h, sizes[t] * unit);
                }
            });
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        Simulator::Destroy();
        m_server = nullptr;
        return m_order;
    }

    void DoRun() override
    {
        // WIN = 3 units: A(2) done; B sends 3, 2 left; C(1) done; D sends 3, 1 left; E(3) done;
        // B's second service; D's second service.
        std::vector<int32_t> win = Run(300000);
        std::vector<int32_t> expected = {0, 2, 4, 1, 3};
        std::string got;
        for (auto t : win)
        {
            got += std::to_string(t) + " ";
        }
        NS_TEST_EXPECT_MSG_EQ((win == expected),
                              true,
                              "WIN = 3 units: order A C E B D, got " << got);
        std::vector<int32_t> fifo = Run(0);
        std::vector<int32_t> inOrder = {0, 1, 2, 3, 4};
        NS_TEST_EXPECT_MSG_EQ((fifo == inOrder), true, "WIN = 0: whole tensors in order");
    }

    Ptr<TensorConnection> m_server;      //!< receiving side
    std::map<int32_t, uint64_t> m_bytes; //!< bytes received per tensor
    std::vector<int32_t> m_order;        //!< completion order
};

/**
 * \ingroup distributed-training
 * Several servers: each layer travels to and from the server the greedy rule assigned it, and
 * the transfers of both servers proceed in parallel.
 *
 * Packet: two servers carry their greedy partitions in parallel.
 */
class MultiServerPartitionTestCase : public TestCase
{
  public:
    MultiServerPartitionTestCase()
        : TestCase("packet, two servers carry their greedy partitions in parallel")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = MakeProfile({2000000, 500000, 500000, 2000000}, 1000, 2000, 100);
        TrainingScenario s;
        s.workers = 1;
        s.servers = 2;
        s.steps = 3;
        s.warmup = 1;
        s.nicRate = DataRate("1Gbps");
        TrainingResult two = RunPacket(p, s);
        // Greedy: (2M,0) (2M,0.5M) (2M,1M) (2M,3M): layers 0 | 1, 2, 3.
        std::vector<uint32_t> owner = {0, 1, 1, 1};
        for (const auto& t : two.transfers)
        {
            NS_TEST_EXPECT_MSG_EQ(t.peer, owner[t.tensor], "layer " << t.tensor);
        }
        s.servers = 1;
        TrainingResult one = RunPacket(p, s);
        // One worker NIC is the bottleneck either way: a second server must not slow it down,
        // nor can it speed transfers past the worker's link.
        NS_TEST_EXPECT_MSG_EQ_TOL(two.stepTimeMean,
                                  one.stepTimeMean,
                                  0.03 * one.stepTimeMean,
                                  "one worker: the worker's NIC limits both");
    }
};

/**
 * \ingroup distributed-training
 * 000 Sec. 4.4: a 10 G per-flow cap on 25 G NICs. One capped flow reaches the cap; the sync
 * downlink takes as long with 2 workers as with 1 and grows from 3 workers on (Fig. 23).
 *
 * Packet: a 10 G cap on 25 G NICs, one flow at the cap, Fig. 23 downlink times.
 */
class FlowCapTestCase : public TestCase
{
  public:
    FlowCapTestCase()
        : TestCase("packet, 10 Gbps flow cap on 25 Gbps NICs matches Fig. 23 downlink times")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = MakeProfile({6000000, 6000000}, 1000, 1000, 100);
        TrainingScenario s;
        s.nicRate = DataRate("25Gbps");
        s.flowCap = DataRate("10Gbps");
        s.steps = 3;
        s.warmup = 1;
        std::vector<double> downlink;
        for (uint32_t k = 1; k <= 3; ++k)
        {
            s.workers = k;
            TrainingResult r = RunPacket(p, s);
            downlink.push_back(r.GetMeanDownlinkTime(s.warmup));
            if (k == 1)
            {
                // Rate of the single flow over its tensors: bytes / (last byte - first byte).
                double first = 1e9;
                double last = 0;
                double bytes = 0;
                for (const auto& t : r.transfers)
                {
                    if (t.direction == "down" && t.step == 1)
                    {
                        first = std::min(first, t.start);
                        last = std::max(last, t.end);
                        bytes += t.bytes;
                    }
                }
                double rate = bytes / (last - first);
                double cap = 10e9 / 8; // ns-3's pacing limits payload bytes
                NS_TEST_EXPECT_MSG_EQ_TOL(TrainingNetwork::GetGoodputBytesPerSecond(s),
                                          cap,
                                          1e-3,
                                          "goodput rule");
                NS_TEST_EXPECT_MSG_EQ_TOL(rate,
                                          cap,
                                          0.02 * cap,
                                          "one capped flow: " << rate * 8 / 1e9 << " Gb/s goodput");
            }
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(downlink[1],
                                  downlink[0],
                                  0.05 * downlink[0],
                                  "2 workers: two 10 G flows fit in 25 G");
        NS_TEST_EXPECT_MSG_GT(downlink[2],
                              1.1 * downlink[0],
                              "3 workers: 30 G of capped flows exceed 25 G");
    }
};

/**
 * \ingroup distributed-training
 * Multi-GPU nodes with a parameter server (000 Sec. 4.4): parameters are broadcast and gradients
 * reduced inside the node around the TCP transfers; a node trains G batches per step.
 *
 * Packet: PS with G GPUs per node adds the intra-node broadcast and reduction and counts G batches.
 */
class MultiGpuParameterServerTestCase : public TestCase
{
  public:
    MultiGpuParameterServerTestCase()
        : TestCase("packet PS with G GPUs per node adds broadcast and reduction, counts G batches")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = MakeProfile({3000000, 1000000, 4000000}, 4000, 8000, 500);
        TrainingScenario s;
        s.workers = 1;
        s.nicRate = DataRate("10Gbps");
        s.steps = 4;
        s.warmup = 1;
        s.gpusPerNode = 2;
        s.intraBandwidth = DataRate("20Gbps");
        s.intraLatency = MicroSeconds(50);
        TrainingResult r = RunPacket(p, s);
        // Overlap off: the last parameter tensor's broadcast follows its arrival (the others end
        // before the next arrives: the interconnect is faster than the NIC), then compute, then
        // every gradient's reduction one after another, then the uplink.
        auto intra = [&s](double bytes)
        {
            // (G-1)/G x bytes / B_intra + (G-1) x latency at G = 2 (000 Sec. 4.4)
            return bytes * 8 / 20e9 / 2 + s.intraLatency.GetSeconds();
        };
        double m = p.GetTotalParamBytes();
        double expected = 2 * m / TrainingNetwork::GetGoodputBytesPerSecond(s)
                          + p.GetForwardTime().GetSeconds() + p.GetBackwardTime().GetSeconds()
                          + p.GetUpdateTime().GetSeconds() + intra(4000000) + intra(3000000)
                          + intra(1000000) + intra(4000000);
        NS_TEST_EXPECT_MSG_EQ_TOL(r.stepTimeMean,
                                  expected,
                                  0.03 * expected,
                                  "G = 2: measured " << r.stepTimeMean * 1e3 << " ms, expected "
                                                     << expected * 1e3 << " ms");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.throughput,
                                  2 * 32 / r.stepTimeMean,
                                  1e-6 * r.throughput,
                                  "a node of 2 GPUs trains 2 batches per step");
        s.intraBandwidth = DataRate("200Gbps");
        TrainingResult fast = RunPacket(p, s);
        NS_TEST_EXPECT_MSG_LT(fast.stepTimeMean,
                              r.stepTimeMean,
                              "a faster interconnect must not slow a step");
        s.gpusPerNode = 1;
        TrainingResult one = RunPacket(p, s);
        NS_TEST_EXPECT_MSG_LT(one.stepTimeMean, fast.stepTimeMean, "G = 1 has no intra-node work");
    }
};

/**
 * \ingroup distributed-training
 * A queue disc holds the backlog: it gets QueueSize and the device queue only 2 packets (ns-3's
 * flow control stops the disc only when the device queue is full); DCTCP gets RED with ECN.
 *
 * Packet: a queue disc gets the queue size and a 2-packet device queue; DCTCP gets RED with ECN
 * marking.
 */
class QueueDiscWiringTestCase : public TestCase
{
  public:
    QueueDiscWiringTestCase()
        : TestCase("packet queue disc wiring, queue sizes and DCTCP with RED and ECN")
    {
    }

  private:
    /// What is installed on the switch's port towards server 0.
    struct Port
    {
        std::string disc;  //!< root queue disc TypeId name ("" if none)
        QueueSize discMax; //!< its MaxSize
        bool ecn;          //!< RED's UseEcn
        QueueSize device;  //!< device queue MaxSize
    };

    static Port SwitchPort(const std::string& disc, const std::string& tcp)
    {
        TrainingScenario s;
        s.workers = 2;
        s.queueSize = "300p";
        s.queueDisc = disc;
        s.tcpVariant = tcp;
        Ptr<TrainingClusterHelper> c = CreateObject<TrainingClusterHelper>();
        c->Configure(s);
        c->ConfigureTcp();
        c->Build();
        Ptr<NetDevice> dev = c->GetLinkDevices(2).Get(1);
        Ptr<QueueDisc> root
            = dev->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(dev);
        Port port{"",
                  QueueSize(),
                  false,
                  DynamicCast<PointToPointNetDevice>(dev)->GetQueue()->GetMaxSize()};
        if (root)
        {
            port.disc = root->GetInstanceTypeId().GetName();
            port.discMax = root->GetMaxSize();
            BooleanValue ecn;
            if (port.disc == "ns3::RedQueueDisc")
            {
                root->GetAttribute("UseEcn", ecn);
                port.ecn = ecn.Get();
            }
        }
        Simulator::Destroy(); // also resets ns-3's global address allocator for the next build
        return port;
    }

    void DoRun() override
    {
        Port none = SwitchPort("none", "TcpCubic");
        NS_TEST_EXPECT_MSG_EQ(none.disc, "", "none: no queue disc");
        NS_TEST_EXPECT_MSG_EQ(none.device, QueueSize("300p"), "none: the device queue holds it");
        Port fifo = SwitchPort("FifoQueueDisc", "TcpCubic");
        NS_TEST_EXPECT_MSG_EQ(fifo.disc, "ns3::FifoQueueDisc", "FifoQueueDisc installed");
        NS_TEST_EXPECT_MSG_EQ(fifo.discMax, QueueSize("300p"), "the disc holds QueueSize");
        NS_TEST_EXPECT_MSG_EQ(fifo.device, QueueSize("2p"), "device queue of 2 packets");
        Port red = SwitchPort("none", "TcpDctcp");
        NS_TEST_EXPECT_MSG_EQ(red.disc, "ns3::RedQueueDisc", "DCTCP: RED");
        NS_TEST_EXPECT_MSG_EQ(red.ecn, true, "ECN marking on");
        NS_TEST_EXPECT_MSG_EQ(red.discMax, QueueSize("300p"), "RED holds QueueSize");
    }
};

/**
 * \ingroup distributed-training
 * Same seed, same JSON; another seed draws other steps.
 *
 * Packet: same seed gives identical JSON, another seed differs.
 */
class PacketDeterminismTestCase : public TestCase
{
  public:
    PacketDeterminismTestCase()
        : TestCase("packet same seed gives identical JSON, another seed differs")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = MakeProfile({400000, 400000}, 2000, 3000, 100, {0.5, 1.0, 1.5, 2.0});
        TrainingScenario s;
        s.workers = 2;
        s.steps = 4;
        s.warmup = 1;
        s.seed = 7;
        TrainingResult a = RunPacket(p, s);
        TrainingResult b = RunPacket(p, s);
        NS_TEST_ASSERT_MSG_EQ(a.steps.size(), 8, "every step of both workers completed");
        NS_TEST_ASSERT_MSG_EQ(a.transfers.size(), 2 * 4 * 2 * 2, "every transfer recorded");
        a.wallSeconds = b.wallSeconds = 0;
        NS_TEST_EXPECT_MSG_EQ(TrainingResult::MakeDocument(p, s, {a}),
                              TrainingResult::MakeDocument(p, s, {b}),
                              "same seed, different results");
        s.seed = 8;
        TrainingResult c = RunPacket(p, s);
        c.wallSeconds = 0;
        NS_TEST_EXPECT_MSG_NE(TrainingResult::MakeDocument(p, s, {a}),
                              TrainingResult::MakeDocument(p, s, {c}),
                              "another seed, same results");
    }
};

/**
 * \ingroup distributed-training
 * Packet-level parameter-server tests.
 */
class PacketLevelTestSuite : public TestSuite
{
  public:
    PacketLevelTestSuite()
        : TestSuite("distributed-training-packet", Type::UNIT)
    {
        AddTestCase(new OneWorkerMatchesClosedFormTestCase, DT_TEST_QUICK);
        AddTestCase(new BytesConservedTestCase, DT_TEST_QUICK);
        AddTestCase(new SyncBarrierAsyncDriftTestCase, DT_TEST_QUICK);
        AddTestCase(new OverlapNeverSlowerTestCase, DT_TEST_QUICK);
        AddTestCase(new MultiplexingOrderTestCase, DT_TEST_QUICK);
        AddTestCase(new MultiServerPartitionTestCase, DT_TEST_QUICK);
        AddTestCase(new FlowCapTestCase, DT_TEST_QUICK);
        AddTestCase(new MultiGpuParameterServerTestCase, DT_TEST_QUICK);
        AddTestCase(new QueueDiscWiringTestCase, DT_TEST_QUICK);
        AddTestCase(new PacketDeterminismTestCase, DT_TEST_QUICK);
    }
};

/// Static instance: registers the suite.
static PacketLevelTestSuite g_packetLevelTestSuite;

} // namespace

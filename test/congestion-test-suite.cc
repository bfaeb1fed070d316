/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Congestion counters and background traffic of the packet level (doc/reference/congestion.rst): an
 * incast into a tiny buffer drops and retransmits while one worker with a large buffer does not;
 * every packet handed to the traffic-control layer is sent, dropped (and counted) or still queued;
 * the queue discs' own statistics agree with the counted drops and marks; RED with ECN marks
 * instead of dropping, CoDel and FqCoDel run; bulk cross traffic to the server slows a sync PS job.
 */

#include "training-test-utils.h"

#include "ns3/core-module.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/distributed-training-module.h"
#include "ns3/ipv4.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/queue.h"
#include "ns3/test.h"
#include "ns3/traffic-control-layer.h"

#include <memory>

using namespace ns3;
using ns3::tests::MakeProfile;

namespace
{

/// Two 750 kB layers: an 8-worker incast overruns small buffers within a step.
TrainingProfile
SmallProfile()
{
    return MakeProfile({750000, 750000}, 1000, 2000, 100);
}

/// An 8-worker sync PS scenario at 10 Gb/s.
TrainingScenario
Incast(uint32_t workers, const std::string& queue)
{
    TrainingScenario s;
    s.workers = workers;
    s.queueSize = queue;
    s.steps = 3;
    s.warmup = 1;
    s.sampleSteps = false;
    return s;
}

TrainingResult
RunPacket(const TrainingProfile& profile, const TrainingScenario& scenario)
{
    return CreateObject<PacketBackend>()->Run(profile, scenario).at(0);
}

double
Input(const TrainingResult& r, const std::string& key)
{
    auto it = r.inputs.find(key);
    return it == r.inputs.end() ? -1 : it->second;
}

/**
 * \ingroup distributed-training
 * Incast: 8 workers into 10-packet queues drop at the server's switch port and retransmit; one
 * worker with 1000-packet queues neither drops nor retransmits.
 *
 * Congestion: 8 workers into 10-packet queues drop at the server port and retransmit; 1 worker with
 * 1000 packets does not.
 */
class IncastCountersTestCase : public TestCase
{
  public:
    IncastCountersTestCase()
        : TestCase("incast of 8 workers into 10-packet queues drops and retransmits")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = SmallProfile();
        TrainingResult incast = RunPacket(p, Incast(8, "10p"));
        NS_TEST_EXPECT_MSG_GT(Input(incast, "drops_device"), 0, "incast drops");
        NS_TEST_EXPECT_MSG_GT(Input(incast, "drops_server_ports"), 0, "at the server's port");
        NS_TEST_EXPECT_MSG_GT(Input(incast, "retransmitted_segments"), 0, "and retransmits");
        NS_TEST_EXPECT_MSG_GT(Input(incast, "fast_recoveries") + Input(incast, "rto_timeouts"),
                              0,
                              "losses are recovered by fast retransmit or RTO");
        NS_TEST_EXPECT_MSG_EQ(Input(incast, "drops_queue_disc"), 0, "no queue disc");
        NS_TEST_EXPECT_MSG_EQ(Input(incast, "ecn_marks"), 0, "no marking");

        TrainingResult alone = RunPacket(p, Incast(1, "1000p"));
        for (const char* key : {"drops_device",
                                "drops_queue_disc",
                                "retransmitted_segments",
                                "rto_timeouts",
                                "fast_recoveries"})
        {
            NS_TEST_EXPECT_MSG_EQ(Input(alone, key), 0, key << " with one worker");
        }
    }
};

/**
 * \ingroup distributed-training
 * Accounting: packets handed to the traffic-control layer (IPv4 SendOutgoing + UnicastForward
 * on every node) = packets whose transmission began (PhyTxBegin) + counted drops + packets still
 * queued, with DropTail device queues and with queue discs; the discs' statistics report the
 * same drops and marks as the monitor.
 *
 * Congestion: every packet handed to traffic control is sent, counted as dropped or still queued;
 * queue-disc statistics equal the counted drops and marks.
 */
class DropAccountingTestCase : public TestCase
{
  public:
    DropAccountingTestCase()
        : TestCase("every packet given to traffic control is sent, dropped or queued")
    {
    }

  private:
    static void Count(uint64_t* n, Ptr<const Packet>)
    {
        ++*n;
    }

    static void CountIp(uint64_t* n, const Ipv4Header&, Ptr<const Packet>, uint32_t)
    {
        ++*n;
    }

    void Check(const std::string& disc, bool ecn)
    {
        const uint32_t workers = 8;
        TrainingScenario s = Incast(workers, "20p");
        s.queueDisc = disc;
        s.ecn = ecn;
        Ptr<TrainingClusterHelper> c = CreateObject<TrainingClusterHelper>();
        c->Configure(s);
        c->ConfigureTcp();
        c->Build();
        auto profile = std::make_shared<const TrainingProfile>(SmallProfile());
        ApplicationContainer apps = c->InstallParameterServerJob(profile, s);

        Ptr<CongestionMonitor> monitor = CreateObject<CongestionMonitor>();
        monitor->InstallApplications(apps);
        uint64_t handed = 0;
        uint64_t started = 0;
        std::vector<Ptr<NetDevice>> devices;
        for (uint32_t h = 0; h <= workers; ++h)
        {
            for (uint32_t side = 0; side < 2; ++side)
            {
                Ptr<NetDevice> d = c->GetLinkDevices(h).Get(side);
                monitor->InstallDevice(d, std::to_string(h) + "/" + std::to_string(side));
                d->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&Count, &started));
                devices.push_back(d);
            }
        }
        NodeContainer nodes(c->GetWorkers(), c->GetServers());
        nodes.Add(c->GetSwitch());
        for (auto it = nodes.Begin(); it != nodes.End(); ++it)
        {
            Ptr<Ipv4> ipv4 = (*it)->GetObject<Ipv4>();
            ipv4->TraceConnectWithoutContext("SendOutgoing", MakeBoundCallback(&CountIp, &handed));
            ipv4->TraceConnectWithoutContext("UnicastForward",
                                             MakeBoundCallback(&CountIp, &handed));
        }
        Simulator::Stop(MilliSeconds(40));
        Simulator::Run();

        uint64_t queued = 0;
        uint64_t discDrops = 0;
        uint64_t discMarks = 0;
        for (const auto& d : devices)
        {
            queued += DynamicCast<PointToPointNetDevice>(d)->GetQueue()->GetNPackets();
            Ptr<QueueDisc> root
                = d->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(d);
            if (root)
            {
                queued += root->GetNPackets();
                discDrops += root->GetStats().nTotalDroppedPackets;
                discMarks += root->GetStats().nTotalMarkedPackets;
            }
        }
        const CongestionMonitor::Counters t = monitor->GetTotals();
        const uint64_t drops = t.deviceDrops + t.queueDiscDrops;
        NS_TEST_EXPECT_MSG_EQ(handed,
                              started + drops + queued,
                              disc << ": handed " << handed << " = sent " << started
                                   << " + dropped " << drops << " + queued " << queued);
        NS_TEST_EXPECT_MSG_EQ(t.queueDiscDrops, discDrops, disc << ": disc drops");
        NS_TEST_EXPECT_MSG_EQ(t.ecnMarks, discMarks, disc << ": disc marks");
        NS_TEST_EXPECT_MSG_GT(drops + t.ecnMarks, 0, disc << ": the incast did congest");
        if (ecn)
        {
            NS_TEST_EXPECT_MSG_GT(t.ecnMarks, 0, disc << " with ECN marks");
        }
        Simulator::Destroy();
    }

    void DoRun() override
    {
        Check("none", false);
        Check("FifoQueueDisc", false);
        Check("RedQueueDisc", true);
        Check("FqCoDelQueueDisc", false);
    }
};

/**
 * \ingroup distributed-training
 * The queue discs of the sweep run a whole incast job: RED with ECN (Cubic) marks, CoDel and
 * FqCoDel finish every step.
 *
 * Congestion: RED with ECN marks under Cubic; CoDel and FqCoDel run an incast job to the end.
 */
class QueueDiscJobTestCase : public TestCase
{
  public:
    QueueDiscJobTestCase()
        : TestCase("RED with ECN marks under Cubic, CoDel and FqCoDel run a job to the end")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = SmallProfile();
        for (const std::string disc : {"RedQueueDisc", "CoDelQueueDisc", "FqCoDelQueueDisc"})
        {
            TrainingScenario s = Incast(8, "100p");
            s.queueDisc = disc;
            s.ecn = disc == "RedQueueDisc";
            TrainingResult r = RunPacket(p, s);
            NS_TEST_EXPECT_MSG_EQ(r.notes.size(), 0, disc << ": every step done");
            NS_TEST_EXPECT_MSG_GT(r.throughput, 0, disc << ": throughput");
            if (s.ecn)
            {
                NS_TEST_EXPECT_MSG_GT(Input(r, "ecn_marks"), 0, disc << ": ECN marks");
            }
        }
    }
};

/**
 * \ingroup distributed-training
 * Bulk cross traffic through the server's switch port slows a sync PS job measurably, and its
 * delivered bytes are reported.
 *
 * Congestion: bulk cross traffic to the server lowers sync PS throughput by more than 10 %; its
 * bytes are reported.
 */
class CrossTrafficTestCase : public TestCase
{
  public:
    CrossTrafficTestCase()
        : TestCase("bulk cross traffic to the server lowers sync PS throughput by over 10 pct")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = SmallProfile();
        TrainingScenario s = Incast(2, "1000p");
        s.steps = 4;
        TrainingResult quiet = RunPacket(p, s);
        NS_TEST_EXPECT_MSG_EQ(Input(quiet, "cross_rx_bytes"), -1, "no cross traffic");
        s.crossTraffic = "bulk";
        TrainingResult busy = RunPacket(p, s);
        NS_TEST_EXPECT_MSG_LT(busy.throughput,
                              0.9 * quiet.throughput,
                              "cross traffic slows the job (" << busy.throughput << " vs "
                                                              << quiet.throughput << ")");
        NS_TEST_EXPECT_MSG_GT(Input(busy, "cross_rx_bytes"), 1e6, "cross bytes delivered");
        NS_TEST_EXPECT_MSG_GT(Input(busy, "cross_goodput_bps"), 1e9, "cross goodput in window");
        s.crossTraffic = "onoff";
        s.crossRate = DataRate("5Gbps");
        TrainingResult onoff = RunPacket(p, s);
        NS_TEST_EXPECT_MSG_LT(onoff.throughput, quiet.throughput, "on-off traffic slows it too");
        NS_TEST_EXPECT_MSG_GT(Input(onoff, "cross_rx_bytes"), 0, "on-off bytes delivered");
    }
};

/**
 * \ingroup distributed-training
 * The congestion and cross-traffic options are checked with the option's name.
 *
 * Congestion: bad cross-traffic and MinRto values name their option.
 */
class CongestionInputTestCase : public TestCase
{
  public:
    CongestionInputTestCase()
        : TestCase("bad cross-traffic and MinRto values name their option")
    {
    }

  private:
    void DoRun() override
    {
        using ns3::tests::ThrowsInputError;
        TrainingProfile p = SmallProfile();
        auto bad = [&p](std::function<void(TrainingScenario&)> change)
        {
            TrainingScenario s;
            change(s);
            return [s, &p]()
            {
                s.Validate(p);
            };
        };
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(bad(
                                                   [](TrainingScenario& s)
                                                   {
                                                       s.crossTraffic = "burst";
                                                   }),
                                               {"--crossTraffic", "burst"}),
                              true,
                              "unknown cross traffic");
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(bad(
                                                   [](TrainingScenario& s)
                                                   {
                                                       s.crossTraffic = "onoff";
                                                   }),
                                               {"--crossRate"}),
                              true,
                              "on-off without a rate");
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(bad(
                                                   [](TrainingScenario& s)
                                                   {
                                                       s.architecture
                                                           = TrainingScenario::RING_ALLREDUCE;
                                                       s.crossTraffic = "bulk";
                                                   }),
                                               {"--crossTarget"}),
                              true,
                              "no server in a ring");
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(bad(
                                                   [](TrainingScenario& s)
                                                   {
                                                       s.minRto = Seconds(0);
                                                   }),
                                               {"--minRto"}),
                              true,
                              "zero MinRto");
    }
};

/**
 * \ingroup distributed-training
 * Congestion counters and cross traffic of the packet level.
 */
class CongestionTestSuite : public TestSuite
{
  public:
    CongestionTestSuite()
        : TestSuite("distributed-training-congestion", Type::UNIT)
    {
        AddTestCase(new IncastCountersTestCase, DT_TEST_QUICK);
        AddTestCase(new DropAccountingTestCase, DT_TEST_QUICK);
        AddTestCase(new QueueDiscJobTestCase, DT_TEST_QUICK);
        AddTestCase(new CrossTrafficTestCase, DT_TEST_QUICK);
        AddTestCase(new CongestionInputTestCase, DT_TEST_QUICK);
    }
};

/// The suite instance.
static CongestionTestSuite g_congestionTestSuite;

} // namespace

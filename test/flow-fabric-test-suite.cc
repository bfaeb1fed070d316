/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The flow backend on multi-tier fabrics: transfers cross every link of their ECMP path, an
 * oversubscribed uplink is the bottleneck, and two flows hashed onto one uplink share it. Numbers
 * worked by hand (raw link rates, useGoodput = false, so that byte counts divide evenly).
 */

#include "training-test-utils.h"

#include "ns3/distributed-training-compat.h"
#include "ns3/fabric-topology.h"
#include "ns3/flow-event-core.h"
#include "ns3/flow-level-simulator.h"
#include "ns3/packet-backend.h"
#include "ns3/ps-sharing.h"
#include "ns3/test.h"
#include "ns3/training-scenario.h"

using namespace ns3;

namespace
{

/// One layer of 10 MB, no compute: a step is a downlink and an uplink of 10 MB.
const uint64_t BYTES = 10000000;

/**
 * \param s the scenario
 * \return the result of a flow run under PS sharing on raw link rates
 */
TrainingResult
RunFlow(const TrainingScenario& s)
{
    TrainingProfile p = tests::MakeProfile({BYTES}, 0, 0, 0);
    return tests::RunFlowRaw(p, s);
}

/// A sync PS scenario with one server, 1 step, no warm-up, no sampling.
TrainingScenario
PsScenario(uint32_t workers)
{
    TrainingScenario s;
    s.workers = workers;
    s.steps = 1;
    s.warmup = 0;
    s.sampleSteps = false;
    return s;
}

/**
 * Leaf-spine, 2 leaves x 2 hosts, 1 spine, hosts at 10 Gb/s, uplinks at 5 Gb/s (2:1 per leaf).
 * K = 1, worker in rack 0 and server in rack 1: each direction of the step crosses a 5 G uplink,
 * so the step takes 2 x 10 MB / 625 MB/s = 32 ms, as on a star of 5 G NICs, and the uplinks
 * are the bottleneck (100 % busy).
 *
 * Flow: leaf-spine with 2:1 uplinks, K=1 across racks: the 5 G uplink is the bottleneck and a step
 * takes 2 M over 5 Gbps = 32 ms (the star at 5 G).
 */
class OversubscribedUplinkTestCase : public TestCase
{
  public:
    OversubscribedUplinkTestCase()
        : TestCase("flow on oversubscribed leaf-spine, K = 1, step 32 ms at the 5 Gbps uplink")
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s = PsScenario(1);
        s.topology = "leafspine";
        s.leaves = 2;
        s.spines = 1;
        s.hostsPerLeaf = 2;
        s.uplinkRate = DataRate("5Gbps");
        s.placement = "0,2"; // worker on leaf 0, server on leaf 1
        TrainingResult r = RunFlow(s);
        NS_TEST_ASSERT_MSG_EQ_TOL(r.stepTimeMean, 2 * BYTES / 625e6, 1e-9, "32 ms");
        NS_TEST_ASSERT_MSG_EQ((r.bottleneck.find("spine") != std::string::npos),
                              true,
                              "an uplink is the bottleneck: " << r.bottleneck);
        NS_TEST_ASSERT_MSG_EQ_TOL(r.linkUtilisation.at(r.bottleneck),
                                  0.5,
                                  1e-9,
                                  "busy one direction of the two-way step");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.linkUtilisation.at("worker0->leaf0"),
                                  0.25,
                                  1e-9,
                                  "the 10 G host link half as busy as the uplink");
        TrainingScenario star = PsScenario(1);
        star.nicRate = DataRate("5Gbps");
        NS_TEST_ASSERT_MSG_EQ_TOL(RunFlow(star).stepTimeMean,
                                  r.stepTimeMean,
                                  1e-12,
                                  "same as the star at the uplink rate");
        // Same rack: the uplink is not crossed, the 10 G host links give 16 ms.
        s.placement = "0,1";
        NS_TEST_ASSERT_MSG_EQ_TOL(RunFlow(s).stepTimeMean, 2 * BYTES / 1250e6, 1e-9, "16 ms");
    }
};

/**
 * Two workers in rack 0, the server in rack 1, 2 spines with 5 G uplinks. The server's 10 G NIC
 * gives each downlink 5 G; if ECMP puts both on one spine, the spine -> leaf 0 link gives each
 * 2.5 G and the downlink phase takes 10 MB / 312.5 MB/s = 32 ms instead of 16 ms. Whether they
 * collide is decided by FabricTopology::GetPath with the same 5-tuples the engine uses.
 *
 * Flow: two downlinks hashed onto one 5 G spine link take 32 ms instead of 16 ms; the engine's
 * paths are FabricTopology's ECMP paths for that seed.
 */
class EcmpCollisionTestCase : public TestCase
{
  public:
    EcmpCollisionTestCase()
        : TestCase("flow ECMP collision doubles the step to 32 ms, paths match FabricTopology")
    {
    }

  private:
    void DoRun() override
    {
        bool seenCollision = false;
        bool seenSplit = false;
        for (uint64_t seed = 1; seed <= 16; ++seed)
        {
            TrainingScenario s = PsScenario(2);
            s.topology = "leafspine";
            s.leaves = 2;
            s.spines = 2;
            s.hostsPerLeaf = 2;
            s.uplinkRate = DataRate("5Gbps");
            s.placement = "0,1,2";
            s.ecmpSeed = seed;
            flow::FlowFabric fabric(s, false);
            using F = flow::FlowFabric;
            auto a = fabric.GetPath(2, 0, F::SERVICE_PORT, F::FIRST_EPHEMERAL_PORT);
            auto b = fabric.GetPath(2, 1, F::SERVICE_PORT, F::FIRST_EPHEMERAL_PORT);
            const bool collide = a[2] == b[2]; // the spine -> leaf 0 link
            TrainingResult r = RunFlow(s);
            double downEnd = 0;
            for (const auto& t : r.transfers)
            {
                if (t.direction == "down")
                {
                    downEnd = std::max(downEnd, t.end);
                }
            }
            const double expected = BYTES / (collide ? 312.5e6 : 625e6);
            NS_TEST_ASSERT_MSG_EQ_TOL(downEnd, expected, 1e-9, "seed " << seed);
            seenCollision |= collide;
            seenSplit |= !collide;
        }
        NS_TEST_ASSERT_MSG_EQ((seenCollision && seenSplit), true, "both cases among 16 seeds");
    }
};

/**
 * Ring AllReduce of K = 4 on a k = 4 fat-tree with spread placement: the ring rate is the
 * sharing model's rate of the slowest ring flow on its fabric path, at most the host rate, and
 * the hop delay is the longest ring path (6 links of 10 us between pods).
 *
 * Flow: ring on a k=4 fat-tree crosses pods: hop delay 60 us, ring rate at most the host rate.
 */
class RingOnFatTreeTestCase : public TestCase
{
  public:
    RingOnFatTreeTestCase()
        : TestCase("flow ring on a k=4 fat-tree, hop delay 60 us, rate below the host rate")
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s = PsScenario(4);
        s.architecture = TrainingScenario::RING_ALLREDUCE;
        s.topology = "fattree";
        s.placement = "spread";
        TrainingResult r = RunFlow(s);
        NS_TEST_ASSERT_MSG_LT_OR_EQ(r.inputs.at("ring_rate_bytes_per_s"), 1250e6, "host rate");
        // 2(K-1)/K M / rate + 2(K-1) hops of 60 us.
        const double rate = r.inputs.at("ring_rate_bytes_per_s");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.stepTimeMean,
                                  1.5 * BYTES / rate + 6 * 60e-6,
                                  1e-9,
                                  "ring formula with the fabric's rate and delay");
    }
};

/**
 * The packet level on the same fabric: FabricEcmpRouting hashes each TCP connection's 5-tuple,
 * so all of a connection's packets take one spine (no reordering), and for every seed the spine
 * links that carry traffic are the ones the flow backend's paths cross. Two workers in rack 0,
 * the server in rack 1, 2 spines; 4 seeds.
 *
 * Packet ECMP: per-flow hashing puts each connection on one spine, the same spine links as the flow
 * backend for the same seed.
 */
class PacketEcmpMatchesFlowTestCase : public TestCase
{
  public:
    PacketEcmpMatchesFlowTestCase()
        : TestCase("packet ECMP uses the same spine links as the flow backend")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = tests::MakeProfile({2000000, 1000000}, 100, 100, 10);
        uint32_t idle = 0; // spine links no data crosses, over all seeds
        for (uint64_t seed = 1; seed <= 4; ++seed)
        {
            TrainingScenario s = PsScenario(2);
            s.steps = 2;
            s.topology = "leafspine";
            s.leaves = 2;
            s.spines = 2;
            s.hostsPerLeaf = 2;
            s.placement = "0,1,2";
            s.ecmpSeed = seed;
            TrainingResult packet = CreateObject<PacketBackend>()->Run(p, s).at(0);
            TrainingResult flow = RunFlow(s);
            for (const std::string link :
                 {"spine0->leaf0", "spine1->leaf0", "leaf0->spine0", "leaf0->spine1"})
            {
                const bool usedFlow
                    = flow.linkUtilisation.count(link) && flow.linkUtilisation.at(link) > 0;
                const double u = packet.linkUtilisation.at(link);
                // Only TCP ACKs of the other direction may cross a link no data crosses.
                NS_TEST_ASSERT_MSG_EQ((u > 0.05), usedFlow, "seed " << seed << ", " << link);
                idle += usedFlow ? 0 : 1;
            }
        }
        // Both outcomes occur (a collision leaves one spine idle in that direction).
        NS_TEST_ASSERT_MSG_GT(idle, 0, "some seed collides");
        NS_TEST_ASSERT_MSG_LT(idle, 8, "some seed splits");
    }
};

/// The suite.
class FlowFabricTestSuite : public TestSuite
{
  public:
    FlowFabricTestSuite()
        : TestSuite("distributed-training-flow-fabric", Type::UNIT)
    {
        AddTestCase(new OversubscribedUplinkTestCase, DT_TEST_QUICK);
        AddTestCase(new EcmpCollisionTestCase, DT_TEST_QUICK);
        AddTestCase(new RingOnFatTreeTestCase, DT_TEST_QUICK);
        AddTestCase(new PacketEcmpMatchesFlowTestCase, DT_TEST_QUICK);
    }
};

FlowFabricTestSuite g_flowFabricTestSuite; //!< the suite instance

} // namespace

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * EcmpCollisions: the job's flows per switch-to-switch link under per-flow ECMP, worked by hand
 * on small leaf-spines and tied to the flow engine's step times (a collision on a 5 G uplink
 * doubles the phase it falls in).
 */

#include "training-test-utils.h"

#include "ns3/distributed-training-compat.h"
#include "ns3/ecmp-collisions.h"
#include "ns3/flow-level-simulator.h"
#include "ns3/ps-sharing.h"
#include "ns3/test.h"
#include "ns3/training-scenario.h"

using namespace ns3;

namespace
{

/// Sync PS, one server, 1 step, no warm-up, no sampling, on a leaf-spine of 10 G hosts.
TrainingScenario
LeafSpine(uint32_t workers, uint32_t leaves, uint32_t spines, const std::string& placement)
{
    TrainingScenario s;
    s.workers = workers;
    s.steps = 1;
    s.warmup = 0;
    s.sampleSteps = false;
    s.topology = "leafspine";
    s.leaves = leaves;
    s.spines = spines;
    s.hostsPerLeaf = 2;
    s.uplinkRate = DataRate("5Gbps");
    s.placement = placement;
    return s;
}

/**
 * Counts worked by hand: with one spine every cross-rack flow of a direction takes the same
 * uplink; in one rack no flow leaves the leaf; on the star nothing counts; a ring spread one
 * member per rack under one spine uses each uplink once.
 *
 * ECMP collisions: 1 spine, 2 workers in rack 0 and the server in rack 1 give 4 fabric flows, 2 per
 * link on 4 shared links; same rack, star and a spread ring give none.
 */
class HandCountsTestCase : public TestCase
{
  public:
    HandCountsTestCase()
        : TestCase("ECMP collision counts on small fabrics match hand counts")
    {
    }

  private:
    void DoRun() override
    {
        // Pushes share leaf0->spine0 and spine0->leaf1, pulls leaf1->spine0 and spine0->leaf0.
        EcmpCollisions c = EcmpCollisions::Count(LeafSpine(2, 2, 1, "0,1,2"));
        NS_TEST_ASSERT_MSG_EQ(c.fabricFlows, 4, "2 pulls + 2 pushes cross the spine");
        NS_TEST_ASSERT_MSG_EQ(c.maxFlowsPerLink, 2, "both of a direction on one link");
        NS_TEST_ASSERT_MSG_EQ(c.sharedLinks, 4, "4 directed switch links carry 2 each");
        NS_TEST_ASSERT_MSG_EQ(c.collidedFlows, 4, "every flow collides");

        c = EcmpCollisions::Count(LeafSpine(1, 2, 2, "0,1"));
        NS_TEST_ASSERT_MSG_EQ(c.fabricFlows, 0, "same rack: no flow leaves the leaf");
        NS_TEST_ASSERT_MSG_EQ(c.maxFlowsPerLink, 0, "nothing on switch links");

        TrainingScenario star;
        star.workers = 4;
        c = EcmpCollisions::Count(star);
        NS_TEST_ASSERT_MSG_EQ(c.fabricFlows + c.maxFlowsPerLink + c.sharedLinks, 0, "star");

        // Ring of 4, one member per rack (4 leaves x 2 hosts, spread): flow w crosses
        // leaf_w->spine0 and spine0->leaf_(w+1), each link once.
        TrainingScenario ring = LeafSpine(4, 4, 1, "spread");
        ring.architecture = TrainingScenario::RING_ALLREDUCE;
        c = EcmpCollisions::Count(ring);
        NS_TEST_ASSERT_MSG_EQ(c.fabricFlows, 4, "every ring flow changes rack");
        NS_TEST_ASSERT_MSG_EQ(c.maxFlowsPerLink, 1, "one flow per uplink");
        NS_TEST_ASSERT_MSG_EQ(c.sharedLinks, 0, "no shared link");
    }
};

/**
 * Two workers in rack 0, the server in rack 1, 2 spines, 5 G uplinks, 10 MB per direction, no
 * compute. A direction whose two flows hash onto one spine crosses a 5 G link at 2.5 G each and
 * takes 32 ms, else each flow gets 5 G (the server's 10 G NIC split) and it takes 16 ms. So the
 * flow engine's step is 32 ms + 16 ms per colliding direction, and each colliding direction
 * shares 2 directed links (leaf -> spine, spine -> leaf) and collides 2 flows.
 *
 * ECMP collisions: over 16 seeds the flow engine's step is 32 ms + 16 ms per colliding direction, 2
 * shared links and 2 collided flows each.
 */
class CountsMatchEngineTestCase : public TestCase
{
  public:
    CountsMatchEngineTestCase()
        : TestCase("ECMP collision counts match the flow engine step times over 16 seeds")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = tests::MakeProfile({10000000}, 0, 0, 0);
        uint32_t seen[3] = {0, 0, 0};
        for (uint64_t seed = 1; seed <= 16; ++seed)
        {
            TrainingScenario s = LeafSpine(2, 2, 2, "0,1,2");
            s.ecmpSeed = seed;
            s.Validate(p);
            const EcmpCollisions c = EcmpCollisions::Count(s);
            NS_TEST_ASSERT_MSG_EQ(c.fabricFlows, 4, "seed " << seed);
            NS_TEST_ASSERT_MSG_EQ((c.sharedLinks % 2 == 0 && c.sharedLinks <= 4), true, "seed");
            NS_TEST_ASSERT_MSG_EQ(c.collidedFlows, c.sharedLinks, "2 flows per colliding way");
            const uint32_t most = c.sharedLinks > 0 ? 2 : 1;
            NS_TEST_ASSERT_MSG_EQ(c.maxFlowsPerLink, most, "seed " << seed);
            FlowLevelSimulator::Options options;
            options.useGoodput = false;
            FlowLevelSimulator sim(p, s, CreateObject<PsSharing>(), options);
            const TrainingResult r = sim.Run();
            const uint32_t colliding = c.sharedLinks / 2;
            NS_TEST_ASSERT_MSG_EQ_TOL(r.stepTimeMean,
                                      0.032 + 0.016 * colliding,
                                      1e-9,
                                      "seed " << seed << ", colliding directions " << colliding);
            NS_TEST_ASSERT_MSG_EQ(r.inputs.at("ecmp_shared_links"), c.sharedLinks, "reported");
            ++seen[colliding];
        }
        NS_TEST_ASSERT_MSG_EQ((seen[0] > 0 && seen[1] > 0), true, "splits and collisions occur");
    }
};

class EcmpCollisionsTestSuite : public TestSuite
{
  public:
    EcmpCollisionsTestSuite()
        : TestSuite("distributed-training-ecmp-collisions", Type::UNIT)
    {
        AddTestCase(new HandCountsTestCase, DT_TEST_QUICK);
        AddTestCase(new CountsMatchEngineTestCase, DT_TEST_QUICK);
    }
};

EcmpCollisionsTestSuite g_ecmpCollisionsTestSuite; //!< the suite instance

} // namespace

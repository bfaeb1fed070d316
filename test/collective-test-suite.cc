/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The collectives other than the ring: CollectiveCostModel's alpha-beta formulas on
 * hand-worked numbers, and the packet level (RingAllReduceApplication executing
 * AllReduceSchedule plans over ns-3 TCP) against them for one large bucket.
 */

#include "ns3/distributed-training-module.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <algorithm>
#include <limits>
#include <memory>

using namespace ns3;

namespace
{

/**
 * \ingroup distributed-training
 * The closed forms on hand-worked numbers.
 *
 * alpha = 10 us, beta = 1 ns/byte (1 GB/s), M = 1e6 bytes:
 * - ring, K = 4: 2*3*10 us + 2*3/4*1 ms = 60 us + 1.5 ms = 1.56 ms; with gamma = 0.2 ns/byte
 *   add 3/4 * 1e6 * 0.2 ns = 150 us.
 * - halving-doubling, K = 4: 2*2*10 us + 1.5 ms = 1.54 ms; K = 6 (p' = 4, one extra step
 *   before and after): (4 + 2)*10 us + (2 + 1.5)*1 ms = 3.56 ms.
 * - tree, K = 8, M = 8e6, c = 1e6: D = 3, n = 4e6 / 1e6 = 4 chunks, s = 4:
 *   2*3*(10 us + 1 ms) + 3*4*1 ms = 6.06 ms + 12 ms = 18.06 ms.
 * - tree, K = 2, M = 8e6, c = 1e6: D = 1, s = 2: 2*(10 us + 1 ms) + 3*2*1 ms = 8.02 ms.
 */
class CollectiveClosedFormTestCase : public TestCase
{
  public:
    CollectiveClosedFormTestCase()
        : TestCase("alpha-beta ring, halving-doubling and tree times match hand-worked numbers")
    {
    }

  private:
    void DoRun() override
    {
        CollectiveCostModel::Params p;
        p.workers = 4;
        p.bytes = 1e6;
        p.alpha = 10e-6;
        p.beta = 1e-9;
        NS_TEST_EXPECT_MSG_EQ_TOL(CollectiveCostModel::Ring(p), 1.56e-3, 1e-12, "ring K=4");
        NS_TEST_EXPECT_MSG_EQ_TOL(CollectiveCostModel::HalvingDoubling(p),
                                  1.54e-3,
                                  1e-12,
                                  "halving-doubling K=4");
        p.gamma = 0.2e-9;
        NS_TEST_EXPECT_MSG_EQ_TOL(CollectiveCostModel::Ring(p), 1.71e-3, 1e-12, "ring gamma");
        p.gamma = 0;
        p.workers = 6;
        NS_TEST_EXPECT_MSG_EQ_TOL(CollectiveCostModel::HalvingDoubling(p),
                                  3.56e-3,
                                  1e-12,
                                  "halving-doubling K=6");
        p.workers = 8;
        p.bytes = 8e6;
        p.chunkBytes = 1e6;
        NS_TEST_EXPECT_MSG_EQ(CollectiveCostModel::TreeDepth(8), 3, "depth K=8");
        NS_TEST_EXPECT_MSG_EQ_TOL(CollectiveCostModel::DoubleBinaryTree(p),
                                  18.06e-3,
                                  1e-12,
                                  "tree K=8");
        p.workers = 2;
        NS_TEST_EXPECT_MSG_EQ_TOL(CollectiveCostModel::DoubleBinaryTree(p),
                                  8.02e-3,
                                  1e-12,
                                  "tree K=2");
        p.workers = 1;
        NS_TEST_EXPECT_MSG_EQ(CollectiveCostModel::HalvingDoubling(p), 0.0, "K=1");
        p.workers = 0;
        bool threw = false;
        try
        {
            CollectiveCostModel::Ring(p);
        }
        catch (const TrainingInputError&)
        {
            threw = true;
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "K=0 is refused");
    }
};

/// \return a one-layer profile of `bytes` with 1 us of forward and backward
TrainingProfile
OneBucketProfile(uint64_t bytes)
{
    TrainingProfile p;
    p.SetModel("one-bucket");
    p.SetBatchSize(1);
    p.SetProvenance(R"({"device":"none","framework":"none","method":"test","derived":true})");
    p.AddLayer({"l0", "", bytes, 1, 1, 0});
    return p;
}

/**
 * \param s the scenario
 * \param profile its profile (one bucket)
 * \return the AllReduce time of the last step: the last node's end minus the first node's
 *         start
 */
double
PacketAllReduceSeconds(const TrainingScenario& s, const TrainingProfile& profile)
{
    s.Validate(profile);
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(s.seed);
    Ptr<TrainingClusterHelper> cluster = CreateObject<TrainingClusterHelper>();
    cluster->Configure(s);
    cluster->ConfigureTcp();
    cluster->Build();
    ApplicationContainer apps
        = cluster->InstallRingJob(std::make_shared<const TrainingProfile>(profile), s);
    cluster->AssignStreams(0);
    double start = std::numeric_limits<double>::infinity();
    double end = 0;
    auto onBucket = [&](uint32_t, uint32_t step, uint32_t, Time a, Time b, uint32_t, uint64_t)
    {
        if (step + 1 == s.steps)
        {
            start = std::min(start, a.GetSeconds());
            end = std::max(end, b.GetSeconds());
        }
    };
    Callback<void, uint32_t, uint32_t, uint32_t, Time, Time, uint32_t, uint64_t> cb(onBucket);
    for (auto it = apps.Begin(); it != apps.End(); ++it)
    {
        (*it)->TraceConnectWithoutContext("BucketReduced", cb);
    }
    Simulator::Stop(Seconds(100));
    Simulator::Run();
    Simulator::Destroy();
    return end - start;
}

/**
 * \ingroup distributed-training
 * The packet level against the closed form: one bucket of M = 8 MB, 10 Gb/s, K = 4 and 8.
 *
 * alpha = 2 link delays (20 us), beta = 1 / TCP goodput (about 9.4 Gb/s of payload): ring
 * and halving-doubling about 2 (K-1)/K M beta (10.0 ms at K = 4, 11.7 ms at K = 8); the tree
 * with 512 KiB chunks about 2 M beta (13.5 ms) plus the pipeline's fill. The packet level's
 * time of the third step (first node's start to last node's end) agrees within 3 % (ring),
 * 5 % (halving-doubling: 3.5 % and 4.3 % measured) and 35 % (tree: 33 % and 32 % measured;
 * TCP sharing a node's link among its up to four tree connections leaves the critical chunks
 * slower than the alpha-beta pipeline assumes, an open gap of the packet level's tree).
 *
 * The flow level on the same scenario (FlowRingPlanExecutor for halving-doubling and the tree)
 * is the ideal of the same plans: ring 10.08 and 11.90 ms (-2.3 % and -1.2 % against the
 * packet level's 10.32 and 12.04), halving-doubling 10.04 and 11.74 ms (-3.4 %, -4.1 %), tree
 * 14.19 and 15.38 ms (-24 %, -22 %: the packet level's open gap above). Checked within 3 %,
 * 5 % and 25 %.
 */
class CollectivePacketTestCase : public TestCase
{
  public:
    /**
     * \param collective the --collective value
     * \param workers K
     * \param tolerance relative, packet against the closed form
     * \param flowTolerance relative, flow against packet
     */
    CollectivePacketTestCase(const std::string& collective,
                             uint32_t workers,
                             double tolerance,
                             double flowTolerance)
        : TestCase(collective + ", K = " + std::to_string(workers)
                   + ", one 8 MB bucket, packet level matches the closed form and flow"),
          m_collective(collective),
          m_workers(workers),
          m_tolerance(tolerance),
          m_flowTolerance(flowTolerance)
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 8000000;
        TrainingScenario s;
        s.architecture = TrainingScenario::RING_ALLREDUCE;
        s.workers = m_workers;
        s.collective = m_collective;
        s.bucketBytes = TrainingScenario::UNLIMITED_BUCKET;
        s.steps = 3; // Cubic opens its windows in the first steps: the last is measured
        s.warmup = 0;
        s.sampleSteps = false;
        const double packet = PacketAllReduceSeconds(s, OneBucketProfile(bytes));
        AllReduceSchedule::Algorithm algorithm;
        AllReduceSchedule::FromName(m_collective, algorithm);
        CollectiveCostModel::Params p;
        p.workers = m_workers;
        p.bytes = static_cast<double>(bytes);
        p.alpha = 2 * s.linkDelay.GetSeconds();
        p.beta = 1 / TrainingNetwork::GetGoodputBytesPerSecond(s);
        p.chunkBytes = static_cast<double>(s.treeChunkBytes);
        const double closed = CollectiveCostModel::Time(algorithm, p);
        NS_TEST_EXPECT_MSG_EQ_TOL(packet / closed,
                                  1.0,
                                  m_tolerance,
                                  m_collective << " K=" << m_workers << ": packet " << packet
                                               << " s, closed form " << closed << " s");
        // The flow level on the same scenario: every step is the same, 2 us of compute and
        // the AllReduce.
        const TrainingResult flow
            = TrainingBackendRegistry::Create("flow")->Run(OneBucketProfile(bytes), s).at(0);
        const double flowSeconds = flow.stepTimeMean - 2e-6;
        NS_TEST_EXPECT_MSG_EQ_TOL(flowSeconds / packet,
                                  1.0,
                                  m_flowTolerance,
                                  m_collective << " K=" << m_workers << ": flow " << flowSeconds
                                               << " s, packet " << packet << " s");
    }

    std::string m_collective; //!< the collective
    uint32_t m_workers;       //!< K
    double m_tolerance;       //!< relative, packet against the closed form
    double m_flowTolerance;   //!< relative, flow against packet
};

/**
 * \ingroup distributed-training
 * The collectives' suite.
 */
class CollectiveTestSuite : public TestSuite
{
  public:
    CollectiveTestSuite()
        : TestSuite("distributed-training-collectives", UNIT)
    {
        AddTestCase(new CollectiveClosedFormTestCase, TestCase::QUICK);
        for (uint32_t k : {4, 8})
        {
            AddTestCase(new CollectivePacketTestCase("ring", k, 0.03, 0.03), TestCase::QUICK);
            AddTestCase(new CollectivePacketTestCase("halving-doubling", k, 0.05, 0.05),
                        TestCase::QUICK);
            AddTestCase(new CollectivePacketTestCase("tree", k, 0.35, 0.25), TestCase::QUICK);
        }
    }
};

/// The suite's instance.
CollectiveTestSuite g_collectiveTestSuite;

} // namespace

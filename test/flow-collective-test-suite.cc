/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The flow level's collectives other than the ring (FlowRingPlanExecutor running
 * AllReduceSchedule plans) against CollectiveCostModel's closed forms on hand-worked numbers.
 */

#include "ns3/distributed-training-module.h"
#include "ns3/test.h"

#include <cmath>
#include <limits>
#include <string>
#include <tuple>

using namespace ns3;

namespace
{

/**
 * \param collective the --collective value
 * \param workers K
 * \param reductionRate bytes/s (0: free)
 * \return a one-step scenario on the 10 Gb/s star whose one bucket holds the whole model
 */
TrainingScenario
OneBucketScenario(const std::string& collective, uint32_t workers, double reductionRate)
{
    TrainingScenario s;
    s.architecture = TrainingScenario::RING_ALLREDUCE;
    s.workers = workers;
    s.collective = collective;
    s.bucketBytes = TrainingScenario::UNLIMITED_BUCKET;
    s.reductionRate = reductionRate;
    s.steps = 1;
    s.warmup = 0;
    s.sampleSteps = false;
    return s;
}

/**
 * \param s the scenario (one bucket, no compute)
 * \param bytes M
 * \return the flow level's step time: the one AllReduce
 */
double
FlowAllReduceSeconds(const TrainingScenario& s, uint64_t bytes)
{
    Ptr<TrainingBackend> flow = TrainingBackendRegistry::Create("flow");
    return flow->Run(CollectiveBenchmark::OneLayerProfile(bytes), s).at(0).stepTimeMean;
}

/**
 * \param s the scenario
 * \param bytes M
 * \return the closed form's parameters: alpha = one hop (2 link delays), beta = 1 / goodput
 */
CollectiveCostModel::Params
ClosedFormParams(const TrainingScenario& s, uint64_t bytes)
{
    CollectiveCostModel::Params p;
    p.workers = s.workers;
    p.bytes = static_cast<double>(bytes);
    p.alpha = 2 * s.linkDelay.GetSeconds();
    p.beta = 1 / TrainingNetwork::GetGoodputBytesPerSecond(s);
    p.gamma = s.reductionRate > 0 ? 1 / s.reductionRate : 0;
    p.chunkBytes = static_cast<double>(s.treeChunkBytes);
    return p;
}

/**
 * \ingroup distributed-training
 * Halving-doubling at a power-of-two K on the star equals its closed form.
 *
 * Each step's K flows go to distinct partners, so every NIC direction carries one flow and it
 * has the whole goodput B = 1.25e9 x 1448/1502 = 1.20506e9 B/s; a step of b bytes takes b / B
 * plus one hop (20 us). M = 8e6, K = 4: 2 x 2 x 20 us + 2 x 3/4 x 8e6 / B = 80 us + 9.958 ms
 * = 10.038 ms; K = 8: 6 x 20 us + 1.75 x 8e6 / B = 11.738 ms. With a reduction rate of
 * 5e9 B/s each reduce-scatter receive is reduced before the next send: + 3/4 x 8e6 / 5e9
 * = 1.2 ms (K = 4). Exact up to rounding (1e-9).
 */
class HalvingDoublingExactTestCase : public TestCase
{
  public:
    /**
     * \param workers K
     * \param reductionRate bytes/s (0: free)
     */
    HalvingDoublingExactTestCase(uint32_t workers, double reductionRate)
        : TestCase("halving-doubling, K = " + std::to_string(workers)
                   + (reductionRate > 0 ? ", with reduction" : "") + ", equals its closed form"),
          m_workers(workers),
          m_reductionRate(reductionRate)
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 8000000;
        const TrainingScenario s
            = OneBucketScenario("halving-doubling", m_workers, m_reductionRate);
        const double flow = FlowAllReduceSeconds(s, bytes);
        const double closed = CollectiveCostModel::HalvingDoubling(ClosedFormParams(s, bytes));
        NS_TEST_EXPECT_MSG_EQ_TOL(flow, closed, 1e-9 * closed, "flow vs closed form");
        const double hand = m_workers == 4 ? 10.038e-3 : 11.738e-3;
        if (m_reductionRate == 0)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(flow, hand, 1e-6, "the hand-worked value");
        }
    }

    uint32_t m_workers;     //!< K
    double m_reductionRate; //!< bytes/s
};

/**
 * \ingroup distributed-training
 * The ring's plan run by FlowRingPlanExecutor equals the ring's closed form (the path
 * FlowRingEngine takes for the ring): 2(K-1) rounds of M/K bytes at the whole goodput plus one
 * hop each. M = 8e6, K = 4: 6 x (2e6 / 1.20506e9 + 20 us) = 10.078 ms; K = 8:
 * 14 x (1e6 / B + 20 us) = 11.898 ms. Exact up to rounding (1e-9).
 */
class RingPlanTestCase : public TestCase
{
  public:
    /// \param workers K
    explicit RingPlanTestCase(uint32_t workers)
        : TestCase("ring plan through the executor, K = " + std::to_string(workers)
                   + ", equals the ring closed form"),
          m_workers(workers)
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 8000000;
        const TrainingScenario s = OneBucketScenario("ring", m_workers, 0);
        const TrainingProfile profile = CollectiveBenchmark::OneLayerProfile(bytes);
        Ptr<SharingModel> ps = SharingModelRegistry::Create("ps");
        const FlowRunOptions options;
        const flow::FlowFabric fabric(s, true);
        TrainingResult result;
        const flow::EngineInputs
            in{profile, s, *ps, options, fabric, std::numeric_limits<double>::infinity(), result};
        const flow::StartJitter noJitter(0, 1);
        flow::FlowRingPlanExecutor executor(in, AllReduceSchedule::RING, noJitter);
        const double t = executor.Run(bytes, 0, 0);
        const double closed = CollectiveCostModel::Ring(ClosedFormParams(s, bytes));
        NS_TEST_EXPECT_MSG_EQ_TOL(t, closed, 1e-9 * closed, "executor vs closed form");
        const double hand = m_workers == 4 ? 10.078e-3 : 11.898e-3;
        NS_TEST_EXPECT_MSG_EQ_TOL(t, hand, 1e-6, "by hand");
        NS_TEST_EXPECT_MSG_EQ(executor.GetMessages().size(),
                              2 * m_workers * (m_workers - 1),
                              "2(K-1) messages per node");
    }

    uint32_t m_workers; //!< K
};

/**
 * \ingroup distributed-training
 * The double binary tree at the flow level against its pipelined closed form.
 *
 * 10 Gb/s star, alpha = 20 us, B = 1.20506e9 B/s, --treeChunk 512 KiB, c = min(512 KiB, M/2):
 * the closed form is the first chunk's fill, 2 D alpha + (4 D - 2) c / B at K = 4 (D = 2, six
 * chunk times: a leaf pair into node 2, 2 into the root 0, back, 2 to its two leaves) and
 * K = 8 (D = 3, ten), then 4 (M/2 - c) / B for the busiest link's other chunks.
 * - 64 KiB (c = 32768 B, 27.192 us): K = 4 80 + 163.15 = 243.15 us, K = 8 120 + 271.92
 *   = 391.92 us; 1 MiB (c = 524288 B, 435.07 us): 2690.43 and 4470.72 us. One chunk per tree:
 *   the flow level takes exactly this (within 1e-6).
 * - 4 MiB (4 chunks per tree): + 4 x 3 x 435.07 us = 5220.87 us: 7911.30 and 9691.59 us; the
 *   flow level 7851.30 (-0.8 %) and 9196.51 us (-5.1 %).
 * - 8e6 (7.63 chunks): + 4 x 3475712 / B = 11537.06 us: 14227.49 and 16007.78 us; the flow
 *   level 14187.77 (-0.3 %) and 15379.50 us (-3.9 %).
 * - With --reductionRate 5e9 (gamma = 0.2 ns/byte, c gamma = 104.86 us) a node reduces its
 *   children's chunks before it sends the sum on, 2 D - 1 = 5 chunks on the way up at K = 8:
 *   1 MiB takes 4470.72 + 524.29 = 4995.01 us, at the flow level too.
 * With several chunks the closed form charges every chunk after the first the busiest link's
 * 4 c / B, while the flow level overlaps the fill with the leaves' uploads (a leaf sends its
 * chunks up back to back, two leaves sharing their parent's link); checked within 6 %, above
 * the 5.1 % of K = 8 at 4 MiB (a sweep of 1 to 64 MiB at K = 4, 8, 16 in
 * doc/reference/collectives.rst stays within 5.4 % but for two points).
 */
class TreeClosedFormTestCase : public TestCase
{
  public:
    /**
     * \param workers K \param bytes M \param hand the closed form by hand (s)
     * \param tolerance flow against closed form, relative \param reductionRate bytes/s (0: free)
     */
    TreeClosedFormTestCase(uint32_t workers,
                           uint64_t bytes,
                           double hand,
                           double tolerance,
                           double reductionRate = 0)
        : TestCase("tree, K = " + std::to_string(workers) + ", " + std::to_string(bytes)
                   + (reductionRate > 0 ? " bytes, reducing," : " bytes,")
                   + " near its closed form"),
          m_workers(workers),
          m_bytes(bytes),
          m_hand(hand),
          m_tolerance(tolerance),
          m_reductionRate(reductionRate)
    {
    }

  private:
    void DoRun() override
    {
        const TrainingScenario s = OneBucketScenario("tree", m_workers, m_reductionRate);
        const double flow = FlowAllReduceSeconds(s, m_bytes);
        const double closed = CollectiveCostModel::DoubleBinaryTree(ClosedFormParams(s, m_bytes));
        NS_TEST_EXPECT_MSG_EQ_TOL(closed, m_hand, 1e-8, "the closed form by hand");
        NS_TEST_EXPECT_MSG_EQ_TOL(flow / closed,
                                  1.0,
                                  m_tolerance,
                                  "tree K=" << m_workers << ": flow " << flow << " s, closed form "
                                            << closed << " s");
    }

    uint32_t m_workers;     //!< K
    uint64_t m_bytes;       //!< M
    double m_hand;          //!< the closed form by hand (s)
    double m_tolerance;     //!< relative
    double m_reductionRate; //!< bytes/s (0: free)
};

/**
 * \ingroup distributed-training
 * The hierarchical ring on the star equals its closed form.
 *
 * Every phase's flows go to distinct peers, so each NIC direction carries one flow at the whole
 * goodput B = 1.20506e9 B/s, and a round of b bytes takes b / B plus one hop (20 us). M = 8e6:
 * K = 4 as 2x2: 1 round of 4e6 inside, 2 of 2e6 across, 1 inside: 2 x (3.3194 ms + 20 us)
 * + 2 x (1.6597 ms + 20 us) = 10.038 ms. K = 8 as 2 groups of 4: 3 + 3 rounds of 2e6 inside
 * and 2 of 1e6 across: 6 x 1.6797 ms + 2 x 0.8498 ms = 11.778 ms; as 4 groups of 2: 2 rounds
 * of 4e6 inside and 6 of 1e6 across: 2 x 3.3394 + 6 x 0.8498 = 11.778 ms. Within 0.1 %.
 */
class HierarchicalClosedFormTestCase : public TestCase
{
  public:
    /// \param workers K \param groupSize g
    HierarchicalClosedFormTestCase(uint32_t workers, uint32_t groupSize)
        : TestCase("hierarchical, K = " + std::to_string(workers) + " in groups of "
                   + std::to_string(groupSize) + ", equals its closed form"),
          m_workers(workers),
          m_groupSize(groupSize)
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 8000000;
        TrainingScenario s = OneBucketScenario("hierarchical", m_workers, 0);
        s.groupSize = m_groupSize;
        const double flow = FlowAllReduceSeconds(s, bytes);
        CollectiveCostModel::Params p = ClosedFormParams(s, bytes);
        p.groups = m_workers / m_groupSize;
        const double closed = CollectiveCostModel::Hierarchical(p);
        NS_TEST_EXPECT_MSG_EQ_TOL(flow, closed, 1e-3 * closed, "flow vs closed form");
        const double hand = m_workers == 4 ? 10.038e-3 : 11.778e-3;
        NS_TEST_EXPECT_MSG_EQ_TOL(flow, hand, 1e-5, "the hand-worked value");
    }

    uint32_t m_workers;   //!< K
    uint32_t m_groupSize; //!< g
};

/**
 * \ingroup distributed-training
 * The flow level's collectives suite.
 */
class FlowCollectiveTestSuite : public TestSuite
{
  public:
    FlowCollectiveTestSuite()
        : TestSuite("distributed-training-flow-collectives", UNIT)
    {
        for (uint32_t k : {4, 8})
        {
            AddTestCase(new HalvingDoublingExactTestCase(k, 0), TestCase::QUICK);
            AddTestCase(new RingPlanTestCase(k), TestCase::QUICK);
        }
        // K, M, the closed form by hand, tolerance (the case's comment).
        for (auto [k, m, hand, tol] : {std::tuple{4U, 65536UL, 243.15e-6, 1e-6},
                                       {8U, 65536UL, 391.92e-6, 1e-6},
                                       {4U, 1048576UL, 2690.43e-6, 1e-6},
                                       {8U, 1048576UL, 4470.72e-6, 1e-6},
                                       {4U, 4194304UL, 7911.30e-6, 0.06},
                                       {8U, 4194304UL, 9691.59e-6, 0.06},
                                       {4U, 8000000UL, 14227.49e-6, 0.06},
                                       {8U, 8000000UL, 16007.78e-6, 0.06}})
        {
            AddTestCase(new TreeClosedFormTestCase(k, m, hand, tol), TestCase::QUICK);
        }
        AddTestCase(new TreeClosedFormTestCase(8, 1048576, 4995.01e-6, 1e-6, 5e9), TestCase::QUICK);
        AddTestCase(new HalvingDoublingExactTestCase(4, 5e9), TestCase::QUICK);
        for (auto [k, g] : {std::pair{4U, 2U}, {8U, 4U}, {8U, 2U}})
        {
            AddTestCase(new HierarchicalClosedFormTestCase(k, g), TestCase::QUICK);
        }
    }
};

/// The suite's instance.
FlowCollectiveTestSuite g_flowCollectiveTestSuite;

} // namespace

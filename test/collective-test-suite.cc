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
 * - tree, K = 8, M = 8e6, c = 1e6 (c beta = 1 ms), s = 4: the fill, 0 -> 4 -> {2, 6} ->
 *   leaves: up, a leaf pair into 2 (2 ms), 2 and 6 into 4 (2 ms), 4 into 0 (1 ms); down the
 *   same, 1 + 2 + 2 ms; 6 hops of 10 us: 10.06 ms; then 4 x (4e6 - 1e6) x 1 ns = 12 ms:
 *   22.06 ms.
 * - tree, K = 2, M = 8e6, c = 1e6: the fill 2 x (1 ms + 10 us), then 2 x 3e6 x 1 ns = 6 ms:
 *   8.02 ms.
 * - tree fill, K = 6 (0 -> 4 -> {2, 5}, 2 -> {1, 3}): 2 is ready at 2 ms + 10 us; 4 gets the
 *   leaf 5's chunk at once and 2's after it, ready at 3 ms + 20 us; 0 at 4 ms + 30 us; down
 *   1 + 2 + 2 ms and 3 hops: 9 ms + 60 us, one chunk less than a complete tree's 4 D - 2 = 10.
 * - hierarchical, M = 1e6: K = 4 as 2 groups of 2: 2*1*10 us + 2*(1/2)*1 ms inside the groups,
 *   2*1*10 us + 2*(1/2)*0.5 ms across them: 1.54 ms; with beta' = 4 ns/byte across groups
 *   (a 4:1 oversubscribed leaf): 20 us + 1 ms + 20 us + 2 ms = 3.04 ms. K = 8 as 2x4:
 *   60 us + 1.5 ms + 20 us + 0.25 ms = 1.83 ms; as 4x2: 20 us + 1 ms + 60 us + 0.75 ms
 *   = 1.83 ms.
 */
class CollectiveClosedFormTestCase : public TestCase
{
  public:
    CollectiveClosedFormTestCase()
        : TestCase("alpha-beta ring, halving-doubling, tree, hierarchical times match by hand")
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
                                  22.06e-3,
                                  1e-12,
                                  "tree K=8");
        NS_TEST_EXPECT_MSG_EQ_TOL(CollectiveCostModel::TreeFill(6, 10e-6, 1e-3),
                                  9.06e-3,
                                  1e-12,
                                  "tree fill K=6");
        p.workers = 2;
        NS_TEST_EXPECT_MSG_EQ_TOL(CollectiveCostModel::DoubleBinaryTree(p),
                                  8.02e-3,
                                  1e-12,
                                  "tree K=2");
        p.chunkBytes = 1;
        p.bytes = 1e6;
        p.workers = 4;
        p.groups = 2;
        NS_TEST_EXPECT_MSG_EQ_TOL(CollectiveCostModel::Hierarchical(p),
                                  1.54e-3,
                                  1e-12,
                                  "hierarchical 2x2");
        p.betaInter = 4e-9;
        NS_TEST_EXPECT_MSG_EQ_TOL(CollectiveCostModel::Hierarchical(p),
                                  3.04e-3,
                                  1e-12,
                                  "hierarchical 2x2, slow uplinks");
        p.betaInter = 0;
        p.workers = 8;
        NS_TEST_EXPECT_MSG_EQ_TOL(CollectiveCostModel::Hierarchical(p),
                                  1.83e-3,
                                  1e-12,
                                  "hierarchical 2x4");
        p.groups = 4;
        NS_TEST_EXPECT_MSG_EQ_TOL(CollectiveCostModel::Hierarchical(p),
                                  1.83e-3,
                                  1e-12,
                                  "hierarchical 4x2");
        p.groups = 1;
        NS_TEST_EXPECT_MSG_EQ_TOL(CollectiveCostModel::Hierarchical(p),
                                  CollectiveCostModel::Ring(p),
                                  1e-15,
                                  "one group is the ring");
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
 * with 512 KiB chunks about 2 M beta (13.5 ms) plus the pipeline's fill (14.23 and 16.01 ms).
 * The packet level's time of the third step (first node's start to last node's end) agrees
 * within 3 % (ring), 5 % (halving-doubling: 3.5 % and 4.3 % measured) and 35 % (tree: 31 % and
 * 23 % measured, the flow level within 4 % of the closed form;
 * TCP sharing a node's link among its up to four tree connections leaves the critical chunks
 * slower than the alpha-beta pipeline assumes, an open gap of the packet level's tree).
 *
 * The flow level on the same scenario (FlowRingPlanExecutor for halving-doubling and the tree)
 * is the ideal of the same plans: ring 10.08 and 11.90 ms (-2.3 % and -1.2 % against the
 * packet level's 10.32 and 12.04), halving-doubling 10.04 and 11.74 ms (-3.4 %, -4.1 %), tree
 * 14.19 and 15.38 ms (-24 %, -22 %: the packet level's open gap above). Checked within 3 %,
 * 5 % and 25 %. The hierarchical ring at K = 4 in 2x2 sends halving-doubling's messages:
 * packet 10.39 ms against 10.04 (+3.5 %, flow -3.4 %), checked within 5 % as halving-doubling.
 */
class CollectivePacketTestCase : public TestCase
{
  public:
    /**
     * \param collective the --collective value
     * \param workers K
     * \param tolerance relative, packet against the closed form
     * \param flowTolerance relative, flow against packet
     * \param groupSize --groupSize (hierarchical; 0: none)
     */
    CollectivePacketTestCase(const std::string& collective,
                             uint32_t workers,
                             double tolerance,
                             double flowTolerance,
                             uint32_t groupSize = 0)
        : TestCase(collective + ", K = " + std::to_string(workers)
                   + (groupSize > 0 ? " in groups of " + std::to_string(groupSize) : "")
                   + ", one 8 MB bucket, packet level matches the closed form and flow"),
          m_collective(collective),
          m_workers(workers),
          m_tolerance(tolerance),
          m_flowTolerance(flowTolerance),
          m_groupSize(groupSize)
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
        s.groupSize = m_groupSize;
        s.bucketBytes = TrainingScenario::UNLIMITED_BUCKET;
        s.steps = 3; // Cubic opens its windows in the first steps: the last is measured
        s.warmup = 0;
        s.sampleSteps = false;
        const double packet = PacketAllReduceSeconds(s, OneBucketProfile(bytes));
        AllReduceSchedule::Algorithm algorithm;
        AllReduceSchedule::FromName(m_collective, algorithm);
        CollectiveCostModel::Params p = CollectiveCostModel::FromScenario(s);
        p.bytes = static_cast<double>(bytes);
        p.groups = m_groupSize > 0 ? m_workers / m_groupSize : 1;
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
    uint32_t m_groupSize;     //!< --groupSize
};

/**
 * \param backend "flow" or "packet"
 * \param profile the DNN
 * \param s the scenario
 * \return the run's mean step time (s)
 */
double
StepSeconds(const std::string& backend, const TrainingProfile& profile, const TrainingScenario& s)
{
    return TrainingBackendRegistry::Create(backend)->Run(profile, s).at(0).stepTimeMean;
}

/**
 * \ingroup distributed-training
 * On a 4:1 oversubscribed leaf-spine the hierarchical ring beats the flat ring.
 *
 * System: 2 leaves of 4 hosts, 1 spine, every link 10 Gb/s (goodput B = 1.20506e9 B/s), K = 8
 * placed spread (worker w under leaf w mod 2), one bucket of M = 8e6 bytes.
 * Expectations: the flat ring's every hop crosses the spine, so 4 ring flows share each leaf
 * uplink: 14 rounds of 1e6 / (B/4) + 40 us (4 links) = 47.0 ms. The hierarchical ring (a group
 * per leaf: g = 4, G = 2) runs 3 rounds of 2e6 / B + 20 us inside the leaves, 2 rounds of
 * 1e6 / (B/4) + 40 us across them (4 flows per uplink) and 3 inside: 5.04 + 6.72 + 5.04
 * = 16.80 ms; its closed form with beta' = 4 beta and alpha = 20 us: 16.76 ms. Checked: flow
 * within 1 % of these, packet within 10 % of flow (measured +8.0 % hierarchical, +7.4 % flat:
 * four TCP flows sharing an uplink's queue), and the hierarchical ring under half of the
 * flat ring at both. (Placed packed, the flat ring crosses each uplink once per direction
 * and is the faster: 11.9 ms against 16.8 ms.)
 */
class HierarchicalLeafSpineTestCase : public TestCase
{
  public:
    HierarchicalLeafSpineTestCase()
        : TestCase("hierarchical beats the flat ring on a 4 to 1 oversubscribed leaf-spine")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 8000000;
        TrainingScenario s;
        s.architecture = TrainingScenario::RING_ALLREDUCE;
        s.workers = 8;
        s.topology = "leafspine";
        s.leaves = 2;
        s.spines = 1;
        s.hostsPerLeaf = 4;
        s.placement = "spread";
        s.bucketBytes = TrainingScenario::UNLIMITED_BUCKET;
        s.steps = 3;
        s.warmup = 1;
        s.sampleSteps = false;
        const TrainingProfile profile = CollectiveBenchmark::OneLayerProfile(bytes);
        const double flat = StepSeconds("flow", profile, s);
        s.collective = "hierarchical";
        const double hier = StepSeconds("flow", profile, s);
        NS_TEST_EXPECT_MSG_EQ_TOL(flat, 47.0e-3, 0.47e-3, "flat ring, flow, by hand");
        NS_TEST_EXPECT_MSG_EQ_TOL(hier, 16.80e-3, 0.168e-3, "hierarchical, flow, by hand");
        CollectiveCostModel::Params p = CollectiveCostModel::FromScenario(s);
        p.bytes = static_cast<double>(bytes);
        p.groups = 2;
        p.betaInter = 4 * p.beta;
        NS_TEST_EXPECT_MSG_EQ_TOL(CollectiveCostModel::Hierarchical(p),
                                  16.76e-3,
                                  0.01e-3,
                                  "closed form by hand");
        const double packetHier = StepSeconds("packet", profile, s);
        s.collective = "ring";
        const double packetFlat = StepSeconds("packet", profile, s);
        NS_TEST_EXPECT_MSG_EQ_TOL(packetHier / hier, 1.0, 0.10, "packet vs flow, hierarchical");
        NS_TEST_EXPECT_MSG_EQ_TOL(packetFlat / flat, 1.0, 0.10, "packet vs flow, flat ring");
        NS_TEST_EXPECT_MSG_LT(2 * hier, flat, "flow: hierarchical under half the flat ring");
        NS_TEST_EXPECT_MSG_LT(2 * packetHier, packetFlat, "packet: the same");
    }
};

/**
 * \ingroup distributed-training
 * The nccl preset's choice by hand: alpha = 2 link delays = 20 us, B = 1.20506e9 B/s, tree
 * chunk c = 512 KiB. K = 8: the ring costs 14 alpha + 1.75 M/B, the tree (M <= 2c: one chunk
 * of M/2 per tree, D = 3) its fill, 6 alpha + 10 (M/2)/B = 6 alpha + 5 M/B: equal at
 * M = 8 alpha B / 3.25 = 59,326 bytes, the tree below, the ring above. K = 4 (D = 2): 6 alpha
 * + 1.5 M/B against 4 alpha + 6 (M/2)/B = 4 alpha + 3 M/B: M = 4 alpha B / 3 = 32,135 bytes.
 */
class NcclCrossoverTestCase : public TestCase
{
  public:
    NcclCrossoverTestCase()
        : TestCase("nccl preset picks the tree below the hand-worked crossover, the ring above")
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s;
        s.architecture = TrainingScenario::RING_ALLREDUCE;
        CollectiveCostModel::Params p = CollectiveCostModel::FromScenario(s);
        auto pick = [&p](uint32_t k, double bytes)
        {
            p.workers = k;
            p.bytes = bytes;
            return CollectiveCostModel::Resolve(AllReduceSchedule::NCCL, p);
        };
        const auto tree = AllReduceSchedule::DOUBLE_BINARY_TREE;
        const auto ring = AllReduceSchedule::RING;
        NS_TEST_EXPECT_MSG_EQ(pick(8, 1000), tree, "K=8, 1 kB");
        NS_TEST_EXPECT_MSG_EQ(pick(8, 58500), tree, "K=8, just below 59,326 bytes");
        NS_TEST_EXPECT_MSG_EQ(pick(8, 60200), ring, "K=8, just above");
        NS_TEST_EXPECT_MSG_EQ(pick(8, 64e6), ring, "K=8, 64 MB");
        NS_TEST_EXPECT_MSG_EQ(pick(4, 31800), tree, "K=4, just below 32,135 bytes");
        NS_TEST_EXPECT_MSG_EQ(pick(4, 32500), ring, "K=4, just above");
        p.workers = 8;
        p.bytes = 8 * p.alpha / (3.25 * p.beta);
        NS_TEST_EXPECT_MSG_EQ_TOL(p.bytes, 59326, 1, "the crossover at K=8");
        NS_TEST_EXPECT_MSG_EQ_TOL(CollectiveCostModel::Ring(p),
                                  CollectiveCostModel::DoubleBinaryTree(p),
                                  1e-9,
                                  "the two are equal at the crossover");
        p.bytes = 0;
        NS_TEST_EXPECT_MSG_EQ(CollectiveCostModel::DescribeNccl(p, {1000, 1e6})
                                  .rfind("nccl preset: tree for buckets of 1000 to 1000 B, ring "
                                         "for buckets of 1000000 to "
                                         "1000000 B",
                                         0),
                              0,
                              "the note");
    }
};

/**
 * \ingroup distributed-training
 * A run whose buckets are all below the nccl preset's crossover (four layers of 20 kB, one
 * bucket each, K = 4: crossover 32,135 bytes) is --collective=tree bit for bit, one whose
 * buckets are all above it (four layers of 2 MB) is --collective=ring bit for bit, at the flow
 * and the packet level.
 */
class NcclEqualsTestCase : public TestCase
{
  public:
    NcclEqualsTestCase()
        : TestCase("nccl preset equals tree for small buckets and ring for big ones")
    {
    }

  private:
    void DoRun() override
    {
        for (auto [layerBytes, same] :
             {std::pair<uint64_t, std::string>{20000, "tree"}, {2000000, "ring"}})
        {
            TrainingProfile profile;
            profile.SetModel("four-layers");
            profile.SetBatchSize(1);
            profile.SetProvenance(
                R"({"device":"none","framework":"none","method":"test","derived":true})");
            for (int l = 0; l < 4; ++l)
            {
                profile.AddLayer({"l" + std::to_string(l), "", layerBytes, 100, 200, 0});
            }
            TrainingScenario s;
            s.architecture = TrainingScenario::RING_ALLREDUCE;
            s.steps = 3;
            s.warmup = 1;
            s.sampleSteps = false;
            for (const std::string backend : {"flow", "packet"})
            {
                s.collective = "nccl";
                const double nccl = StepSeconds(backend, profile, s);
                s.collective = same;
                const double other = StepSeconds(backend, profile, s);
                NS_TEST_EXPECT_MSG_EQ(nccl, other, backend << ": nccl vs " << same);
            }
        }
    }
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
        for (auto [k, g] : {std::pair{4U, 2U}, {8U, 4U}, {8U, 2U}})
        {
            AddTestCase(new CollectivePacketTestCase("hierarchical", k, 0.05, 0.05, g),
                        TestCase::QUICK);
        }
        AddTestCase(new HierarchicalLeafSpineTestCase, TestCase::QUICK);
        AddTestCase(new NcclCrossoverTestCase, TestCase::QUICK);
        AddTestCase(new NcclEqualsTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
CollectiveTestSuite g_collectiveTestSuite;

} // namespace

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * TrainingScenario and TrainingResult: the layer partition of 001 Sec. 5 on a hand-worked list,
 * goodput arithmetic, rejection of impossible scenarios, and the one throughput definition all
 * backends share (sync barrier-to-barrier, async window), on hand-made step records.
 */

#include "ns3/distributed-training-compat.h"
#include "ns3/test.h"
#include "ns3/training-input-error.h"
#include "ns3/training-network.h"
#include "ns3/training-profile.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <functional>

using namespace ns3;

namespace
{

/// A profile with the given layer sizes (1 us of compute each).
TrainingProfile
ProfileOfSizes(const std::vector<uint64_t>& sizes)
{
    TrainingProfile p;
    p.SetModel("sizes");
    p.SetBatchSize(8);
    p.SetProvenance(R"({"device":"none","framework":"none","method":"test","derived":true})");
    for (std::size_t i = 0; i < sizes.size(); ++i)
    {
        p.AddLayer({"l" + std::to_string(i), "", sizes[i], 1, 1, 1});
    }
    return p;
}

/**
 * \ingroup distributed-training
 * Greedy partition puts each layer, in forward order, on the server with the fewest bytes so far.
 *
 * Scenario: greedy and round-robin layer partition match a hand-worked list.
 */
class LayerPartitionTestCase : public TestCase
{
  public:
    LayerPartitionTestCase()
        : TestCase("greedy and round-robin layer partition match a hand-worked list")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = ProfileOfSizes({100, 50, 30, 80, 10});
        TrainingScenario s;
        s.servers = 2;
        // Held bytes: (100,0) (100,50) (100,80) (100,160) (110,160).
        std::vector<uint32_t> greedy = {0, 1, 1, 1, 0};
        NS_TEST_EXPECT_MSG_EQ((s.AssignLayersToServers(p) == greedy), true, "greedy, P = 2");
        s.servers = 3;
        // (100,0,0) (100,50,0) (100,50,30) (100,50,110) (100,60,110)
        std::vector<uint32_t> greedy3 = {0, 1, 2, 2, 1};
        NS_TEST_EXPECT_MSG_EQ((s.AssignLayersToServers(p) == greedy3), true, "greedy, P = 3");
        s.partition = TrainingScenario::ROUND_ROBIN_PARTITION;
        s.servers = 2;
        std::vector<uint32_t> rr = {0, 1, 0, 1, 0};
        NS_TEST_EXPECT_MSG_EQ((s.AssignLayersToServers(p) == rr), true, "round robin, P = 2");
    }
};

/**
 * \ingroup distributed-training
 * Goodput = flow rate x segment / (MTU + 2) on a point-to-point link.
 *
 * Scenario: TCP goodput is rate x 1448 over 1502 at MTU 1500, capped by the flow cap.
 */
class GoodputTestCase : public TestCase
{
  public:
    GoodputTestCase()
        : TestCase("TCP goodput is rate times 1448 over 1502, capped by the flow cap")
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s;
        s.nicRate = DataRate("10Gbps");
        NS_TEST_EXPECT_MSG_EQ(TrainingNetwork::GetSegmentSize(s), 1448, "segment at MTU 1500");
        NS_TEST_EXPECT_MSG_EQ_TOL(TrainingNetwork::GetGoodputBytesPerSecond(s),
                                  10e9 / 8 * 1448 / 1502,
                                  1e-3,
                                  "10 G goodput");
        s.mtu = 9000;
        NS_TEST_EXPECT_MSG_EQ_TOL(TrainingNetwork::GetGoodputBytesPerSecond(s),
                                  10e9 / 8 * 8948 / 9002,
                                  1e-3,
                                  "10 G goodput, jumbo frames");
        s.mtu = 1500;
        s.nicRate = DataRate("25Gbps");
        s.flowCap = DataRate("10Gbps");
        NS_TEST_EXPECT_MSG_EQ_TOL(TrainingNetwork::GetFlowRateBps(s),
                                  10e9,
                                  1e-3,
                                  "cap below NIC rate");
        NS_TEST_EXPECT_MSG_EQ_TOL(TrainingNetwork::GetGoodputBytesPerSecond(s),
                                  10e9 / 8,
                                  1e-3,
                                  "ns-3 paces payload: a 10 G cap is 10 G of goodput");
        s.flowCap = DataRate("24.5Gbps");
        NS_TEST_EXPECT_MSG_EQ_TOL(TrainingNetwork::GetGoodputBytesPerSecond(s),
                                  25e9 / 8 * 1448 / 1502,
                                  1e-3,
                                  "a cap above the NIC's goodput does not bind");
    }
};

/**
 * \ingroup distributed-training
 * Impossible scenarios and unknown option values are rejected with the option's name.
 *
 * Scenario: impossible scenarios and unknown values name the option.
 */
class ScenarioBadInputTestCase : public TestCase
{
  public:
    ScenarioBadInputTestCase()
        : TestCase("impossible scenarios and unknown values name the option")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = ProfileOfSizes({100, 50, 30});

        struct Case
        {
            std::string name;
            std::function<void(TrainingScenario&)> edit;
            std::string mustContain;
        };

        std::vector<Case> cases = {
            {"zero workers",
             [](TrainingScenario& s)
             {
                 s.workers = 0;
             },
             "--workers: 0 workers"},
            {"more servers than layers",
             [](TrainingScenario& s)
             {
                 s.servers = 4;
             },
             "--servers: 4 servers for 3 layers"},
            {"cap above NIC rate",
             [](TrainingScenario& s)
             {
                 s.flowCap = DataRate("40Gbps");
             },
             "--flowCap: cap 40 Gbps above the NIC rate 10 Gbps"},
            {"zero NIC rate",
             [](TrainingScenario& s)
             {
                 s.nicRate = DataRate(0);
             },
             "--nicRate"},
            {"bad queue",
             [](TrainingScenario& s)
             {
                 s.queueSize = "lots";
             },
             "--queue: cannot parse queue size 'lots'"},
            {"warm-up too long",
             [](TrainingScenario& s)
             {
                 s.warmup = s.steps;
             },
             "--warmup: 20 warm-up steps of 20"},
            {"async ring",
             [](TrainingScenario& s)
             {
                 s.architecture = TrainingScenario::RING_ALLREDUCE;
                 s.mode = TrainingScenario::ASYNC;
             },
             "--mode: async with --arch=ring"},
            {"scale list of wrong length",
             [](TrainingScenario& s)
             {
                 s.computeScale = {1, 2};
             },
             "--computeScale: 2 values for 4 workers"},
            {"zero GPUs",
             [](TrainingScenario& s)
             {
                 s.gpusPerNode = 0;
             },
             "--gpusPerNode"},
            {"MTU too large",
             [](TrainingScenario& s)
             {
                 s.mtu = 65000;
             },
             "--mtu: 65000"},
        };
        for (const auto& c : cases)
        {
            TrainingScenario s;
            c.edit(s);
            std::string msg;
            try
            {
                s.Validate(p);
            }
            catch (const TrainingInputError& e)
            {
                msg = e.what();
            }
            NS_TEST_EXPECT_MSG_NE(msg.find(c.mustContain),
                                  std::string::npos,
                                  c.name << ": '" << c.mustContain << "' not in '" << msg << "'");
        }

        TrainingScenario s;
        std::string msg;
        try
        {
            s.SetArchitecture("--arch", "star");
        }
        catch (const TrainingInputError& e)
        {
            msg = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(msg, "--arch: unknown value 'star' (expected ps or ring)", "arch");
        msg.clear();
        try
        {
            s.SetComputeScale("--computeScale", "1,abc");
        }
        catch (const TrainingInputError& e)
        {
            msg = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(msg.find("--computeScale: cannot parse 'abc'"),
                              std::string::npos,
                              msg);
        s.SetComputeScale("--computeScale", "1x2,2.5x2");
        NS_TEST_EXPECT_MSG_EQ(s.computeScale.size(), 4, "expanded list");
        NS_TEST_EXPECT_MSG_EQ(s.GetComputeScale(3), 2.5, "fourth worker");
        s.SetComputeScale("--computeScale", "1.5");
        NS_TEST_EXPECT_MSG_EQ(s.GetComputeScale(2), 1.5, "one value for all workers");
    }
};

/**
 * \ingroup distributed-training
 * Throughput over the window after warm-up: sync from barrier to barrier, async over the window
 * in which every worker is active.
 *
 * Result: sync and async throughput and the downlink phase on hand-made records.
 */
class ThroughputDefinitionTestCase : public TestCase
{
  public:
    ThroughputDefinitionTestCase()
        : TestCase("sync and async throughput and downlink phase on hand-made records")
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s;
        s.workers = 2;
        s.steps = 3;
        s.warmup = 1;
        TrainingResult sync;
        sync.steps = {{0, 0, 0, 1},
                      {0, 1, 1.2, 2.5},
                      {0, 2, 2.5, 4},
                      {1, 0, 0, 1.2},
                      {1, 1, 1.2, 2.4},
                      {1, 2, 2.5, 3.9}};
        sync.Finalize(s, 8);
        // Barriers at 1.2 (end of warm-up) and 4.0: 2 workers x 8 samples x 2 steps / 2.8 s.
        NS_TEST_EXPECT_MSG_EQ_TOL(sync.throughput, 2 * 8 * 2 / 2.8, 1e-12, "sync throughput");
        NS_TEST_EXPECT_MSG_EQ_TOL(sync.stepTimeMean, 1.4, 1e-12, "sync step time");

        s.mode = TrainingScenario::ASYNC;
        TrainingResult async;
        async.steps = {{0, 0, 0, 1},
                       {0, 1, 1, 2},
                       {0, 2, 2, 3},
                       {1, 0, 0, 1.5},
                       {1, 1, 1.5, 3},
                       {1, 2, 3, 4.5}};
        async.Finalize(s, 8);
        // Per-worker rates until worker 0 is done (3 s): worker 0 2 steps in [1, 3], worker 1
        // 1 step in [1.5, 3]: 8 x (1 + 1/1.5) (suite distributed-training-result has more).
        NS_TEST_EXPECT_MSG_EQ_TOL(async.throughput, 8 * (1 + 1 / 1.5), 1e-12, "async throughput");
        NS_TEST_EXPECT_MSG_EQ_TOL(async.stepTimeMean, 1.25, 1e-12, "async step time");

        // Downlink phase (000 Fig. 23): per step, earliest start to the last parameter byte.
        TrainingResult d;
        d.steps = {{0, 0, 0.0, 1}, {1, 0, 0.1, 1}, {0, 1, 1.0, 2}, {1, 1, 1.0, 2}};
        d.transfers = {{0, 0, 0, 0, "down", 10, 0.0, 0.3},
                       {1, 0, 0, 0, "down", 10, 0.1, 0.5},
                       {0, 0, 1, 0, "down", 10, 1.0, 1.2},
                       {1, 0, 1, 0, "down", 10, 1.0, 1.4},
                       {1, 0, 1, 0, "up", 10, 1.5, 1.9}};
        NS_TEST_EXPECT_MSG_EQ_TOL(d.GetMeanDownlinkTime(0), (0.5 + 0.4) / 2, 1e-12, "all steps");
        NS_TEST_EXPECT_MSG_EQ_TOL(d.GetMeanDownlinkTime(1), 0.4, 1e-12, "after warm-up");
    }
};

/**
 * \ingroup distributed-training
 * Scenario and result tests.
 */
class TrainingScenarioTestSuite : public TestSuite
{
  public:
    TrainingScenarioTestSuite()
        : TestSuite("distributed-training-scenario", Type::UNIT)
    {
        AddTestCase(new LayerPartitionTestCase, DT_TEST_QUICK);
        AddTestCase(new GoodputTestCase, DT_TEST_QUICK);
        AddTestCase(new ScenarioBadInputTestCase, DT_TEST_QUICK);
        AddTestCase(new ThroughputDefinitionTestCase, DT_TEST_QUICK);
    }
};

/// Static instance: registers the suite.
static TrainingScenarioTestSuite g_trainingScenarioTestSuite;

} // namespace

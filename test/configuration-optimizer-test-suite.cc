/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ConfigurationOptimizer on small searches whose optimum is known by hand: the error table
 * and its intervals, the enumeration of a space, the K/P split of a communication-bound sync
 * PS (002's servers-against-replicas trade-off), the ring against the PS when compute
 * dominates, async staleness, the packet rung's stopping rule, the placement, partition, order,
 * window and first-bucket dimensions, co-located servers, and the linux rung.
 */

#include "training-test-utils.h"

#include "ns3/configuration-optimizer.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/kernel-backend.h"
#include "ns3/test.h"

#include <iostream>
#include <set>

using namespace ns3;
using ns3::tests::MakeProfile;
using ns3::tests::ThrowsInputError;

namespace
{

/// A table of one row per class and backend (errors -5 % .. +5 %, mean absolute 2 %).
const std::string TABLE = "# test\n"
                          "class,backend,variant,points,mean,p05,p95,mean_abs\n"
                          "ps-sync,analytic,sync-eq7,10,0,-0.05,0.05,0.02\n"
                          "ps-sync,analytic,sync-eq9,10,0,-0.5,0.5,0.3\n"
                          "ps-sync,flow,ps,10,0,-0.05,0.05,0.02\n"
                          "ps-async,analytic,mva-ps,10,0,-0.05,0.05,0.02\n"
                          "ps-async,flow,ps,10,0,-0.05,0.05,0.02\n"
                          "ring,analytic,ring-eq11,10,0,-0.05,0.05,0.02\n"
                          "ring,flow,allreduce,10,0,-0.05,0.05,0.02\n";

/// \return a 1 Gb/s scenario with the given steps
TrainingScenario
Base(uint32_t steps)
{
    TrainingScenario s;
    s.nicRate = DataRate("1Gbps");
    s.steps = steps;
    s.warmup = 1;
    return s;
}

/// \return an optimizer of the profile over Base(steps) with TABLE
ConfigurationOptimizer
Optimizer(const TrainingProfile& profile, uint32_t steps)
{
    return ConfigurationOptimizer(profile,
                                  Base(steps),
                                  OptimizerErrorTable::LoadFromString(TABLE, "t"));
}

/// \return a space of N machines, the given families, P <= maxServers and overlap off
ConfigurationOptimizer::Space
Space(uint32_t machines, const std::vector<std::string>& archs, uint32_t maxServers)
{
    ConfigurationOptimizer::Space space;
    space.machines = machines;
    space.archs = archs;
    space.maxServers = maxServers;
    space.overlaps = {false};
    return space;
}

/**
 * System: the table above plus malformed ones.
 * Expectations: Best() takes the least mean absolute error (sync-eq7, 0.02, over sync-eq9,
 * 0.3) among the variants allowed; Interval(100) with p05 = -0.05, p95 = 0.05 is
 * [100 / 1.05, 100 / 0.95] = [95.238, 105.263]; no row gives the point; a short row and a
 * non-number are refused naming the line and field.
 */
class ErrorTableTestCase : public TestCase
{
  public:
    ErrorTableTestCase()
        : TestCase("Optimizer error table picks the least error and gives hand-worked bars")
    {
    }

  private:
    void DoRun() override
    {
        const OptimizerErrorTable t = OptimizerErrorTable::LoadFromString(TABLE, "t.csv");
        NS_TEST_EXPECT_MSG_EQ(t.GetRows().size(), 7, "rows");
        const auto* best = t.Best("ps-sync", "analytic");
        NS_TEST_EXPECT_MSG_EQ((best ? best->variant : ""), "sync-eq7", "least error");
        best = t.Best("ps-sync", "analytic", {"sync-eq9", "sync-eq10"});
        NS_TEST_EXPECT_MSG_EQ((best ? best->variant : ""), "sync-eq9", "among those allowed");
        NS_TEST_EXPECT_MSG_EQ(t.Best("ring", "packet"), nullptr, "none");
        const auto [lo, hi] = OptimizerErrorTable::Interval(t.Best("ring", "flow"), 100);
        NS_TEST_EXPECT_MSG_EQ_TOL(lo, 100 / 1.05, 1e-9, "low");
        NS_TEST_EXPECT_MSG_EQ_TOL(hi, 100 / 0.95, 1e-9, "high");
        NS_TEST_EXPECT_MSG_EQ(OptimizerErrorTable::Interval(nullptr, 7).first, 7, "point");
        NS_TEST_EXPECT_MSG_EQ(
            ThrowsInputError(
                []
                {
                    OptimizerErrorTable::LoadFromString(TABLE + "ring,flow,x,1,0\n", "t.csv");
                },
                {"t.csv", "line 10", "5 fields"}),
            true,
            "short row");
        NS_TEST_EXPECT_MSG_EQ(
            ThrowsInputError(
                []
                {
                    OptimizerErrorTable::LoadFromString(TABLE + "ring,flow,x,1,0,a,0,0\n", "t.csv");
                },
                {"line 10", "p05 = 'a'"}),
            true,
            "not a number");
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  []
                                  {
                                      OptimizerErrorTable::LoadFromString("a,b\n", "t.csv");
                                  },
                                  {"t.csv", "header"}),
                              true,
                              "no header");
    }
};

/**
 * System: N = 4 machines, ps-sync and ring, P <= 2, no overlap, per-layer ring buckets, a
 * profile of 6 layers.
 * Expectations: PS: K = 1 with P = 1, 2; K = 2 with P = 1, 2; K = 3 with P = 1 (K + P <= 4):
 * 5; ring: K = 1 .. 4 (a ring of one worker is a valid scenario): 9 configurations, none
 * skipped. An unknown family and a space with nothing valid are refused.
 */
class EnumerateTestCase : public TestCase
{
  public:
    EnumerateTestCase()
        : TestCase("Optimizer enumerates a hand-counted space")
    {
    }

  private:
    void DoRun() override
    {
        const ConfigurationOptimizer opt
            = Optimizer(MakeProfile(std::vector<uint64_t>(6, 1000000), 1, 1, 0), 4);
        ConfigurationOptimizer::Space space = Space(4, {"ps-sync", "ring"}, 2);
        uint32_t skipped = 0;
        const auto all = opt.Enumerate(space, skipped);
        std::set<std::string> labels;
        for (const auto& c : all)
        {
            labels.insert(c.Label());
        }
        const std::set<std::string> expected{"ps-sync K=1 P=1",
                                             "ps-sync K=1 P=2",
                                             "ps-sync K=2 P=1",
                                             "ps-sync K=2 P=2",
                                             "ps-sync K=3 P=1",
                                             "ring K=1 Q=0",
                                             "ring K=2 Q=0",
                                             "ring K=3 Q=0",
                                             "ring K=4 Q=0"};
        NS_TEST_EXPECT_MSG_EQ((labels == expected), true, "the nine configurations");
        NS_TEST_EXPECT_MSG_EQ(skipped, 0, "none refused");
        space.archs = {"ps-magic"};
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      opt.Enumerate(space, skipped);
                                  },
                                  {"--archs", "ps-magic"}),
                              true,
                              "unknown family");
        space.archs = {"ps-sync"};
        space.machines = 1;
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      opt.Enumerate(space, skipped);
                                  },
                                  {"no valid configuration"}),
                              true,
                              "nothing valid");
    }
};

/**
 * System: sync PS, 6 layers of 10 MB (M = 60 MB), 1 us of compute per layer and pass, 1 Gb/s,
 * N = 6, P <= 4, no overlap; the analytic rung alone (Eq. (7), the table's least error).
 * Expectations: a step is about 2 max(K M / P, M) / B, so the throughput is about
 * K b B / (2 M max(K / P, 1)): K = 3, P = 3 gives 1.5 bB/M; K = 4, P = 2, K = 2, P = 4 and
 * K = 3, P = 2 give 1.0; K = 5, P = 1 gives 0.5. The optimum is K = P = 3 (002's servers
 * against replicas), 1.5 times the runner-up.
 */
class ServersAgainstWorkersTestCase : public TestCase
{
  public:
    ServersAgainstWorkersTestCase()
        : TestCase("Optimizer splits 6 machines into K = 3 and P = 3 when communication-bound")
    {
    }

  private:
    void DoRun() override
    {
        const ConfigurationOptimizer opt
            = Optimizer(MakeProfile(std::vector<uint64_t>(6, 10000000), 1, 1, 0), 4);
        ConfigurationOptimizer::Space space = Space(6, {"ps-sync"}, 4);
        ConfigurationOptimizer::Ladder ladder;
        ladder.lastRung = ConfigurationOptimizer::ANALYTIC;
        const auto out = opt.Run(space, ladder);
        NS_TEST_ASSERT_MSG_EQ((out.rows.size() >= 2), true, "rows");
        NS_TEST_EXPECT_MSG_EQ(out.rows[0].candidate.Label(), "ps-sync K=3 P=3", "optimum");
        const auto& a = out.rows[0].rungs[ConfigurationOptimizer::ANALYTIC];
        const auto& b = out.rows[1].rungs[ConfigurationOptimizer::ANALYTIC];
        NS_TEST_EXPECT_MSG_EQ(a.variant, "sync-eq7", "variant of least error");
        NS_TEST_EXPECT_MSG_EQ_TOL(a.throughput / b.throughput, 1.5, 0.03, "1.5 x runner-up");
        NS_TEST_EXPECT_MSG_EQ(out.rungRuns[ConfigurationOptimizer::FLOW], 0, "no flow rung");
    }
};

/**
 * System: 2 layers of 100 KB, 20 ms of compute per layer and pass (80 ms a step), 1 Gb/s,
 * N = 4, ps-sync and ring, no overlap, analytic then flow.
 * Expectations: communication is about 1 % of a step, so the throughput is about K b / 80 ms:
 * the ring on all 4 machines beats any PS, which has at most K = 3; at both rungs.
 */
class RingWhenComputeBoundTestCase : public TestCase
{
  public:
    RingWhenComputeBoundTestCase()
        : TestCase("Optimizer picks the ring on every machine when compute dominates")
    {
    }

  private:
    void DoRun() override
    {
        const ConfigurationOptimizer opt
            = Optimizer(MakeProfile({100000, 100000}, 20000, 20000, 0), 6);
        ConfigurationOptimizer::Space space = Space(4, {"ps-sync", "ring"}, 1);
        ConfigurationOptimizer::Ladder ladder;
        ladder.lastRung = ConfigurationOptimizer::FLOW;
        const auto out = opt.Run(space, ladder);
        NS_TEST_EXPECT_MSG_EQ(out.rows[0].candidate.Label(), "ring K=4 Q=0", "optimum");
        NS_TEST_EXPECT_MSG_EQ(out.rows[0].rungs[ConfigurationOptimizer::ANALYTIC].rank,
                              1,
                              "analytic rank");
        NS_TEST_EXPECT_MSG_EQ(out.rows[0].rungs[ConfigurationOptimizer::FLOW].rank, 1, "flow rank");
        const double x = out.rows[0].rungs[ConfigurationOptimizer::FLOW].throughput;
        NS_TEST_EXPECT_MSG_EQ_TOL(x, 4 * 32 / 0.08, 4 * 32 / 0.08 * 0.05, "K b / 80 ms");
    }
};

/**
 * System: async PS, K = 3, P = 1, identical workers, analytic rung.
 * Expectation: while one worker does a step the two others push one update each: the
 * reported staleness, throughput / b x step time - 1, is K - 1 = 2.
 */
class AsyncStalenessTestCase : public TestCase
{
  public:
    AsyncStalenessTestCase()
        : TestCase("Optimizer reports async staleness K - 1 for identical workers")
    {
    }

  private:
    void DoRun() override
    {
        const ConfigurationOptimizer opt
            = Optimizer(MakeProfile({1000000, 1000000}, 5000, 5000, 100), 6);
        OptimizerCandidate c;
        c.mode = TrainingScenario::ASYNC;
        c.workers = 3;
        c.servers = 1;
        const OptimizerEstimate e
            = opt.Evaluate(c, ConfigurationOptimizer::ANALYTIC, ConfigurationOptimizer::Ladder{});
        NS_TEST_ASSERT_MSG_EQ(e.done, true, e.note);
        NS_TEST_EXPECT_MSG_EQ(e.variant, "mva-ps", "variant of least error");
        NS_TEST_EXPECT_MSG_EQ_TOL(e.staleness, 2, 0.01, "K - 1");
    }
};

/**
 * System: sync PS, K = 2, P = 1, a profile with three recorded steps (x0.8, x1, x1.2), the flow
 * rung with --repeat=3 passed through (SetMeasurement).
 * Expectation: the estimate is the mean of 3 runs (runs = 3), inside its error-bar interval; a
 * note of the search says how the rungs measured.
 */
class RepeatedFlowRungTestCase : public TestCase
{
  public:
    RepeatedFlowRungTestCase()
        : TestCase("Optimizer flow rung takes --repeat and reports the mean of the runs")
    {
    }

  private:
    void DoRun() override
    {
        ConfigurationOptimizer opt
            = Optimizer(MakeProfile({1000000, 1000000}, 5000, 5000, 100, {0.8, 1.0, 1.2}), 12);
        RepeatedRuns::Options measure;
        measure.repeat = 3;
        opt.SetMeasurement(measure);
        OptimizerCandidate c;
        c.workers = 2;
        c.servers = 1;
        const OptimizerEstimate e = opt.Evaluate(c, ConfigurationOptimizer::FLOW, {});
        NS_TEST_ASSERT_MSG_EQ(e.done, true, e.note);
        NS_TEST_EXPECT_MSG_EQ(e.runs, 3, "the mean of 3 runs");
        const bool inside = e.low < e.throughput && e.throughput < e.high;
        NS_TEST_EXPECT_MSG_EQ(inside, true, "inside its interval");
    }
};

/**
 * System: sync PS, 2 layers of 100 KB, 10 ms of compute per layer and pass, 1 Gb/s, N = 3,
 * P = 1: K = 1 or 2; up to 2 packet finalists of 3 steps.
 * Expectations: compute dominates, so K = 2 gives about twice K = 1 at every rung: a K = 2
 * step is 40 ms of compute plus 2 K M / B = 4 x 200 KB / 117.7 MB/s (1 Gb/s goodput at MTU
 * 1500) = 6.8 ms, 2 x 32 / 46.8 ms = 1367 samples/s; K = 1 about 32 / 43.4 ms = 737. The
 * packet rung confirms K = 2 first, and K = 1's flow interval (737 / 0.95 = 776 at most) ends
 * below K = 2's packet lower bound, so it stops after one packet run, the ranking settled.
 */
class PacketStoppingRuleTestCase : public TestCase
{
  public:
    PacketStoppingRuleTestCase()
        : TestCase("Optimizer confirms the winner at packet level and stops when settled")
    {
    }

  private:
    void DoRun() override
    {
        const ConfigurationOptimizer opt
            = Optimizer(MakeProfile({100000, 100000}, 10000, 10000, 0), 6);
        ConfigurationOptimizer::Space space = Space(3, {"ps-sync"}, 1);
        ConfigurationOptimizer::Ladder ladder;
        ladder.packetFinalists = 2;
        ladder.packetSteps = 3;
        const auto out = opt.Run(space, ladder);
        NS_TEST_EXPECT_MSG_EQ(out.rows[0].candidate.Label(), "ps-sync K=2 P=1", "optimum");
        const auto& p = out.rows[0].rungs[ConfigurationOptimizer::PACKET];
        NS_TEST_ASSERT_MSG_EQ(p.done, true, p.note);
        NS_TEST_EXPECT_MSG_EQ_TOL(p.throughput, 1367, 1367 * 0.05, "2 b / 46.8 ms");
        NS_TEST_EXPECT_MSG_EQ(out.rungRuns[ConfigurationOptimizer::PACKET], 1, "one packet run");
        NS_TEST_EXPECT_MSG_EQ(out.settled, true, "settled");
    }
};

/**
 * System: N = 4, ps-sync with P <= 2 and ring, no overlap; placements separate and colocated,
 * orders forward and reverse; ring buckets 0 and 25 MB with first buckets 0 and 1 MB.
 * Expectations: separate servers: (K, P) = (1, 1), (1, 2), (2, 1), (2, 2), (3, 1), K + P <= 4;
 * co-located: P <= K, K <= 4: (1, 1), (2, 1), (2, 2), (3, 1), (3, 2), (4, 1), (4, 2); 12
 * placements of servers, each in 2 orders: 24. Ring: per K = 1 .. 4, Q = 0 (no first bucket),
 * Q = 25 MB with F = 0 and F = 1 MB: 12. Co-located takes K machines, separate K + P. A
 * dimension not searched keeps the scenario's value: a base with --order=reverse gives only
 * reverse-order configurations (5 separate ones).
 */
class DimensionsTestCase : public TestCase
{
  public:
    DimensionsTestCase()
        : TestCase("Optimizer enumerates placements, orders and first buckets by hand count")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile profile = MakeProfile(std::vector<uint64_t>(6, 1000000), 1, 1, 0);
        const ConfigurationOptimizer opt = Optimizer(profile, 4);
        ConfigurationOptimizer::Space space = Space(4, {"ps-sync", "ring"}, 2);
        space.placements
            = {TrainingScenario::SEPARATE_SERVERS, TrainingScenario::COLOCATED_SERVERS};
        space.orders = {TrainingScenario::FORWARD_ORDER, TrainingScenario::REVERSE_ORDER};
        space.buckets = {0, 25000000};
        space.firstBuckets = {0, 1000000};
        uint32_t skipped = 0;
        uint32_t ps = 0;
        uint32_t ring = 0;
        uint32_t colocated = 0;
        bool machines = true;
        for (const auto& c : opt.Enumerate(space, skipped))
        {
            const bool ringC = c.architecture == TrainingScenario::RING_ALLREDUCE;
            ps += ringC ? 0 : 1;
            ring += ringC ? 1 : 0;
            const bool co = c.placement == TrainingScenario::COLOCATED_SERVERS;
            colocated += co ? 1 : 0;
            machines = machines && c.Machines() == c.workers + (co || ringC ? 0 : c.servers);
        }
        NS_TEST_EXPECT_MSG_EQ(ps, 24, "12 server placements x 2 orders");
        NS_TEST_EXPECT_MSG_EQ(colocated, 14, "7 co-located x 2 orders");
        NS_TEST_EXPECT_MSG_EQ(ring, 12, "3 bucket choices x 4 K");
        NS_TEST_EXPECT_MSG_EQ(machines, true, "machines taken");
        TrainingScenario base = Base(4);
        base.order = TrainingScenario::REVERSE_ORDER;
        const ConfigurationOptimizer reverse(profile,
                                             base,
                                             OptimizerErrorTable::LoadFromString(TABLE, "t"));
        const auto all = reverse.Enumerate(Space(4, {"ps-sync"}, 2), skipped);
        NS_TEST_EXPECT_MSG_EQ(all.size(), 5, "separate servers only");
        NS_TEST_EXPECT_MSG_EQ(all.front().Label(), "ps-sync K=1 P=1 rev", "the scenario's order");
    }
};

/**
 * System: sync PS, 4 layers of 15 MB (M = 60 MB), 1 us of compute, 1 Gb/s, K = 4 workers on
 * N = 8 machines, P <= 4, servers separate or co-located; analytic (sync-colocated for the
 * co-located ones) then flow.
 * Expectations: separate, the best is P = 4 (K + P = 8): a step moves K M / P = M in each
 * direction through a server's NIC, 2 M / B, throughput 4 b B / (2 M). Co-located with P = 4,
 * each NIC carries its worker's traffic to the 3 other servers and its server's from the 3
 * other workers, (K - 1) M / K each way: a step of 2 (3 / 4) M / B, throughput 4 b B / (1.5 M):
 * 4 / 3 of the separate best, on half the machines. With P = 3 one server holds two layers and
 * its NIC carries twice the others'. (With K free, one worker and its own server on one machine
 * would win: no network at all.)
 */
class ColocatedOptimumTestCase : public TestCase
{
  public:
    ColocatedOptimumTestCase()
        : TestCase("Optimizer puts 4 servers on the 4 workers when co-location is searched")
    {
    }

  private:
    void DoRun() override
    {
        const ConfigurationOptimizer opt
            = Optimizer(MakeProfile(std::vector<uint64_t>(4, 15000000), 1, 1, 0), 4);
        ConfigurationOptimizer::Space space = Space(8, {"ps-sync"}, 4);
        space.workers = {4};
        space.placements
            = {TrainingScenario::SEPARATE_SERVERS, TrainingScenario::COLOCATED_SERVERS};
        ConfigurationOptimizer::Ladder ladder;
        ladder.lastRung = ConfigurationOptimizer::FLOW;
        ladder.flowFinalists = 100;
        const auto out = opt.Run(space, ladder);
        NS_TEST_ASSERT_MSG_EQ(out.rows.empty(), false, "rows");
        NS_TEST_EXPECT_MSG_EQ(out.rows[0].candidate.Label(), "ps-sync K=4 P=4 coloc", "optimum");
        double separate = 0;
        for (const auto& r : out.rows)
        {
            if (r.candidate.Label() == "ps-sync K=4 P=4")
            {
                separate = r.rungs[ConfigurationOptimizer::FLOW].throughput;
            }
        }
        NS_TEST_ASSERT_MSG_GT(separate, 0, "separate P = 4 ran at the flow level");
        NS_TEST_EXPECT_MSG_EQ_TOL(out.rows[0].rungs[ConfigurationOptimizer::FLOW].throughput
                                      / separate,
                                  4.0 / 3,
                                  0.02,
                                  "(4 / 1.5) / (4 / 2)");
        NS_TEST_EXPECT_MSG_EQ(out.rows[0].rungs[ConfigurationOptimizer::ANALYTIC].variant,
                              "sync-colocated",
                              "the analytic rung's co-located closed form");
        NS_TEST_EXPECT_MSG_EQ(out.rows[0].rungs[ConfigurationOptimizer::ANALYTIC].rank,
                              1,
                              "first at the analytic rung too");
    }
};

/**
 * System: the linux rung's dilation and, where this host runs the linux backend (root,
 * namespaces), one search to the linux rung: sync PS, 2 layers of 100 KB, 10 ms of compute per
 * layer and pass, 1 Gb/s, N = 3, P = 1, 3 steps.
 * Expectations: the least dilation keeping a NIC at or below 250 Mb/s is ceil(rate / 250 Mb/s):
 * 40 at 10 Gb/s, 4 at 1 Gb/s, 1 at 100 Mb/s; a given one is kept. Compute dominates, so on the
 * kernel's TCP K = 2 is still about 2 x 32 / 46.8 ms = 1367 samples/s (the packet stopping rule
 * case) and is ranked first by the linux rung; without the backend the rung says why.
 */
class LinuxRungTestCase : public TestCase
{
  public:
    LinuxRungTestCase()
        : TestCase("Optimizer linux rung dilates to 250 Mbps ports and confirms the winner")
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s;
        s.nicRate = DataRate("10Gbps");
        NS_TEST_EXPECT_MSG_EQ(ConfigurationOptimizer::LinuxDilation(s, 0), 40, "10 Gb/s");
        s.nicRate = DataRate("1Gbps");
        NS_TEST_EXPECT_MSG_EQ(ConfigurationOptimizer::LinuxDilation(s, 0), 4, "1 Gb/s");
        s.nicRate = DataRate("100Mbps");
        NS_TEST_EXPECT_MSG_EQ(ConfigurationOptimizer::LinuxDilation(s, 0), 1, "100 Mb/s");
        NS_TEST_EXPECT_MSG_EQ(ConfigurationOptimizer::LinuxDilation(s, 7), 7, "given");
        const ConfigurationOptimizer opt
            = Optimizer(MakeProfile({100000, 100000}, 10000, 10000, 0), 6);
        ConfigurationOptimizer::Ladder ladder;
        ladder.lastRung = ConfigurationOptimizer::LINUX;
        ladder.packetFinalists = 2;
        ladder.packetSteps = 3;
        ladder.linuxSteps = 3;
        const auto out = opt.Run(Space(3, {"ps-sync"}, 1), ladder);
        const auto& top = out.rows[0].rungs[ConfigurationOptimizer::LINUX];
        const std::string why = CreateObject<LinuxBackend>()->GetUnavailableReason();
        if (!why.empty())
        {
            std::cerr << "SKIPPED the linux run of " << GetName() << ": " << why << std::endl;
            NS_TEST_EXPECT_MSG_EQ(top.done, false, "no linux result");
            NS_TEST_EXPECT_MSG_EQ(out.notes.back().find("linux rung: not available here"),
                                  0,
                                  "the rung says why");
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(top.done, true, top.note);
        NS_TEST_EXPECT_MSG_EQ(out.rows[0].candidate.Label(), "ps-sync K=2 P=1", "optimum");
        NS_TEST_EXPECT_MSG_EQ_TOL(top.throughput, 1367, 1367 * 0.08, "2 b / 46.8 ms");
        NS_TEST_EXPECT_MSG_EQ(top.steps, 3, "steps");
        NS_TEST_EXPECT_MSG_EQ(out.rungRuns[ConfigurationOptimizer::LINUX], 1, "one linux run");
    }
};

/**
 * \ingroup distributed-training
 * The configuration optimizer.
 */
class ConfigurationOptimizerTestSuite : public TestSuite
{
  public:
    ConfigurationOptimizerTestSuite()
        : TestSuite("distributed-training-optimizer", Type::UNIT)
    {
        AddTestCase(new ErrorTableTestCase, DT_TEST_QUICK);
        AddTestCase(new EnumerateTestCase, DT_TEST_QUICK);
        AddTestCase(new ServersAgainstWorkersTestCase, DT_TEST_QUICK);
        AddTestCase(new RingWhenComputeBoundTestCase, DT_TEST_QUICK);
        AddTestCase(new AsyncStalenessTestCase, DT_TEST_QUICK);
        AddTestCase(new RepeatedFlowRungTestCase, DT_TEST_QUICK);
        AddTestCase(new PacketStoppingRuleTestCase, DT_TEST_QUICK);
        AddTestCase(new DimensionsTestCase, DT_TEST_QUICK);
        AddTestCase(new ColocatedOptimumTestCase, DT_TEST_QUICK);
        AddTestCase(new LinuxRungTestCase, DT_TEST_QUICK);
    }
};

/// Static instance: registers the suite.
static ConfigurationOptimizerTestSuite g_configurationOptimizerTestSuite;

} // namespace

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * YanPerformanceModel (002_a4ba19759bbbfe64.txt Sec. 4-5) against numbers worked by hand in
 * this file: Eq. (5)-(9) one by one, the remote activations and error terms of the greedy
 * mapping, a whole epoch with Eq. (10) and Eq. (11), and the dynamic programme of Sec. 5.3
 * against exhaustive enumeration and against an optimum known without it.
 */

#include "training-test-utils.h"

#include "ns3/distributed-training-compat.h"
#include "ns3/test.h"
#include "ns3/yan-performance-model.h"

#include <algorithm>
#include <limits>
#include <vector>

using namespace ns3;
using ns3::tests::ThrowsInputError;

namespace
{

/// Relative tolerance of every hand-worked comparison.
const double REL = 1e-9;

/// Shorthand.
using Yan = YanPerformanceModel;

/**
 * System: layer 0 of 1000 neurons and 1e6 connections under a layer of 2e5 connections;
 * C_muladd 1 ns, C_act 10 ns, C_err 20 ns, C_ncost 0.1 ms, C_nbw 1.25 GB/s, 32-bit values,
 * C_interf slope 0.1. Expectations with P = 2:
 * Eq. (5) 1e-9 x 5e5 + 1e-8 x 500 = 5.05e-4 s; Eq. (7) 1e-9 x 1e5 + 2e-8 x 500 = 1.1e-4 s;
 * Eq. (8) 1e-9 x 5e5 = 5e-4 s; Eq. (9) at H = 5: 1 + 0.1 x 4 = 1.4;
 * Eq. (6) for 1000 remote values at H = 2: 1e-4 + 4000 B / (1.25e9 / 2) = 1.064e-4 s; 0 for none.
 */
class YanEquationsTestCase : public TestCase
{
  public:
    YanEquationsTestCase()
        : TestCase("Yan Eq. (5)-(9) match hand-worked values")
    {
    }

  private:
    void DoRun() override
    {
        Yan::Hardware hw;
        hw.mulAdd = 1e-9;
        hw.activation = 1e-8;
        hw.error = 2e-8;
        hw.latency = 1e-4;
        hw.bandwidth = 1.25e9;
        hw.interference = 0.1;
        const Yan m({{"a", 1000, 1e6, 1e6, false, 0}, {"b", 10, 2e5, 2e5, false, 0}}, hw);
        NS_TEST_EXPECT_MSG_EQ_TOL(m.Eq5(0, 2), 5.05e-4, 5.05e-4 * REL, "Eq.(5)");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.Eq7(0, 2), 1.1e-4, 1.1e-4 * REL, "Eq.(7)");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.Eq8(0, 2), 5e-4, 5e-4 * REL, "Eq.(8)");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.Eq9(5), 1.4, 1.4 * REL, "Eq.(9)");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.Eq6(1000, 2), 1.064e-4, 1.064e-4 * REL, "Eq.(6)");
        NS_TEST_EXPECT_MSG_EQ(m.Eq6(0, 2), 0, "nothing remote, no message");
    }
};

/**
 * System: layer a of 1000 neurons, layer b of 1000 neurons (full or local with a halo of 0.1),
 * layer c of 100 neurons (full).
 * Expectations (greedy mapping, Sec. 5.3):
 * - full b, a and b in 2 stripes: each b stripe needs all 1000 of a and holds 500: A = 500;
 *   each a stripe gets the errors of all 1000 b neurons and holds 500: E = 500;
 * - local b, 2 and 2 stripes: stripe [0, 0.5] needs [0, 0.6]: A = 600 - 500 = 100, E = 100;
 * - local b in 3 stripes over a in 2: the outer stripes sit with the a stripe they overlap
 *   most, the middle one [1/3, 2/3] needs 1000 (1/3 + 0.2) = 533.3 and finds no free worker
 *   holding any of it: A = 533.3;
 * - c replicated twice over b in 2 stripes: a copy needs all 1000 of b, holds 500: A = 500;
 *   a b stripe gets the errors of all 100 c neurons, of which its worker's copy holds half
 *   the samples: E = 100 - 50 = 50.
 */
class YanMappingTestCase : public TestCase
{
  public:
    YanMappingTestCase()
        : TestCase("Yan greedy mapping gives hand-worked remote activations and errors")
    {
    }

  private:
    void DoRun() override
    {
        const Yan::Hardware hw;
        const Yan full(
            {{"a", 1000, 0, 0, false, 0}, {"b", 1000, 0, 0, false, 0}, {"c", 100, 0, 0, false, 0}},
            hw);
        Yan::Exchange e = full.Map(1, 2, 1, 2, 1);
        NS_TEST_EXPECT_MSG_EQ_TOL(e.activations, 500, 500 * REL, "full: A");
        NS_TEST_EXPECT_MSG_EQ_TOL(e.errors, 500, 500 * REL, "full: E");
        e = full.Map(2, 2, 1, 1, 2);
        NS_TEST_EXPECT_MSG_EQ_TOL(e.activations, 500, 500 * REL, "replicated: A");
        NS_TEST_EXPECT_MSG_EQ_TOL(e.errors, 50, 50 * REL, "replicated: E");
        const Yan local({{"a", 1000, 0, 0, true, 0}, {"b", 1000, 0, 0, true, 0.1}}, hw);
        e = local.Map(1, 2, 1, 2, 1);
        NS_TEST_EXPECT_MSG_EQ_TOL(e.activations, 100, 100 * REL, "local: A");
        NS_TEST_EXPECT_MSG_EQ_TOL(e.errors, 100, 100 * REL, "local: E");
        e = local.Map(1, 2, 1, 3, 1);
        NS_TEST_EXPECT_MSG_EQ_TOL(e.activations, 1000 * (1.0 / 3 + 0.2), 1e-6, "3 over 2: A");
    }
};

/// \return the two-layer network and machines of YanEpochTestCase
Yan
TwoLayers(bool worstCase)
{
    Yan::Hardware hw;
    hw.mulAdd = 1e-6;
    hw.activation = 0;
    hw.error = 0;
    hw.latency = 1e-3;
    hw.bandwidth = 1e6;
    hw.samples = 100;
    hw.readInterval = 10;
    hw.worstCaseReads = worstCase;
    return Yan({{"a", 100, 1000, 1000, false, 0}, {"b", 10, 1000, 1000, false, 0}}, hw);
}

/**
 * System: layers a (100 neurons, 1000 connections and weights) and b (10 neurons, 1000
 * connections and weights); C_muladd 1 us, C_ncost 1 ms, C_nbw 1 MB/s, N_sample 100,
 * N_read 10; N_ps 1, N_mr 2, N_wr 2, H 1; a in 2 stripes, b replicated twice.
 * Expectations (s per epoch):
 * - a: compute (5e-4 + 5e-4 + 5e-4) x 100 / 2 = 0.075; Eq. (11) (1e-3 + 4000 B / 1 MB/s)
 *   x 100 / 10 = 0.05; M_b: 5 remote errors, (1e-3 + 20 / 1e6) x 100 / 2 = 0.051;
 * - b: compute (1e-3 + 0 + 1e-3) x 100 / 4 = 0.05; Eq. (11) read twice
 *   (1e-3 + 8000 / 1e6) x 10 = 0.09; M_f: 50 remote, (1e-3 + 200 / 1e6) x 100 / 4 = 0.03;
 * - total 0.346. With Eq. (10) (N_mr = 2 at once): a (1e-3 + 2 x 4e-3) x 10 = 0.09,
 *   b (1e-3 + 2 x 8e-3) x 10 = 0.17, total 0.466.
 */
class YanEpochTestCase : public TestCase
{
  public:
    YanEpochTestCase()
        : TestCase("Yan epoch time with Eq. (10) and (11) matches hand-worked values")
    {
    }

  private:
    void DoRun() override
    {
        Yan::Config c;
        c.servers = 1;
        c.replicas = 2;
        c.workersPerReplica = 2;
        c.threads = 1;
        c.partitions = {2, 1};
        c.replication = {1, 2};
        const auto t = TwoLayers(false).EpochBreakdown(c);
        NS_TEST_EXPECT_MSG_EQ_TOL(t[0].compute, 0.075, 0.075 * REL, "a compute");
        NS_TEST_EXPECT_MSG_EQ_TOL(t[0].weights, 0.05, 0.05 * REL, "a Eq.(11)");
        NS_TEST_EXPECT_MSG_EQ_TOL(t[0].activations, 0.051, 0.051 * REL, "a M_b");
        NS_TEST_EXPECT_MSG_EQ_TOL(t[1].compute, 0.05, 0.05 * REL, "b compute");
        NS_TEST_EXPECT_MSG_EQ_TOL(t[1].weights, 0.09, 0.09 * REL, "b Eq.(11)");
        NS_TEST_EXPECT_MSG_EQ_TOL(t[1].activations, 0.03, 0.03 * REL, "b M_f");
        NS_TEST_EXPECT_MSG_EQ_TOL(TwoLayers(false).EpochTime(c), 0.346, 0.346 * REL, "Eq.(11)");
        NS_TEST_EXPECT_MSG_EQ_TOL(TwoLayers(true).EpochTime(c), 0.466, 0.466 * REL, "Eq.(10)");
    }
};

/// \return a four-layer network with local and full layers
Yan
FourLayers(double weightScale)
{
    Yan::Hardware hw;
    hw.latency = 3e-5;
    hw.bandwidth = 1.25e8;
    hw.samples = 1000;
    hw.readInterval = 50;
    hw.interference = 0.05;
    return Yan({{"a", 4000, 1e7, 1e3 * weightScale, true, 0.05},
                {"b", 3000, 1e7, 1e4 * weightScale, true, 0.2},
                {"c", 1000, 3e6, 3e6 * weightScale, false, 0},
                {"d", 500, 5e5, 5e5 * weightScale, false, 0}},
               hw);
}

/**
 * System: FourLayers(1), N_ps 2, N_mr 3, H 4, N_wr = 1..4.
 * Expectation: the dynamic programme's epoch time equals the least over every assignment of
 * (P(l), R(l)) with P R <= N_wr to the four layers (1, 3^4 = 81, 5^4 = 625, 8^4 = 4096
 * assignments), and with N_wr = 1 it is the only configuration.
 */
class YanDynamicProgrammeTestCase : public TestCase
{
  public:
    YanDynamicProgrammeTestCase()
        : TestCase("Yan dynamic programme over layers equals exhaustive enumeration")
    {
    }

  private:
    void DoRun() override
    {
        const Yan m = FourLayers(1);
        for (uint32_t wr = 1; wr <= 4; ++wr)
        {
            Yan::Config c;
            c.servers = 2;
            c.replicas = 3;
            c.workersPerReplica = wr;
            c.threads = 4;
            const double dp = m.EpochTime(m.OptimiseLayers(c));
            std::vector<std::pair<uint32_t, uint32_t>> ch;
            for (uint32_t p = 1; p <= wr; ++p)
            {
                for (uint32_t r = 1; p * r <= wr; ++r)
                {
                    ch.emplace_back(p, r);
                }
            }
            double best = std::numeric_limits<double>::infinity();
            const std::size_t n = ch.size();
            for (std::size_t code = 0; code < n * n * n * n; ++code)
            {
                c.partitions.clear();
                c.replication.clear();
                for (std::size_t l = 0, x = code; l < 4; ++l, x /= n)
                {
                    c.partitions.push_back(ch[x % n].first);
                    c.replication.push_back(ch[x % n].second);
                }
                best = std::min(best, m.EpochTime(c));
            }
            NS_TEST_EXPECT_MSG_EQ_TOL(dp, best, best * REL, "N_wr = " << wr);
        }
    }
};

/**
 * System: FourLayers(0) (no weights to read), N_wr = 4.
 * Expectation: replicating every layer on all 4 workers exchanges nothing (each copy holds
 * its samples' activations) and divides the computation by 4, which nothing beats, so the
 * programme chooses P(l) = 1, R(l) = 4 everywhere; its computation is then that of N_wr = 1
 * over 4, and it has no activation time.
 */
class YanReplicateEverythingTestCase : public TestCase
{
  public:
    YanReplicateEverythingTestCase()
        : TestCase("Yan programme replicates every layer when there are no weights to read")
    {
    }

  private:
    void DoRun() override
    {
        const Yan m = FourLayers(0);
        Yan::Config c;
        c.servers = 1;
        c.replicas = 1;
        c.workersPerReplica = 4;
        const Yan::Config best = m.OptimiseLayers(c);
        for (std::size_t l = 0; l < 4; ++l)
        {
            NS_TEST_EXPECT_MSG_EQ(best.partitions[l], 1, "P of layer " << l);
            NS_TEST_EXPECT_MSG_EQ(best.replication[l], 4, "R of layer " << l);
        }
        Yan::Config one = c;
        one.workersPerReplica = 1;
        one.partitions.assign(4, 1);
        one.replication.assign(4, 1);
        double compute1 = 0;
        for (const auto& t : m.EpochBreakdown(one))
        {
            compute1 += t.compute;
        }
        double compute4 = 0;
        for (const auto& t : m.EpochBreakdown(best))
        {
            compute4 += t.compute;
            NS_TEST_EXPECT_MSG_EQ(t.activations, 0, "nothing exchanged");
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(compute4, compute1 / 4, compute1 / 4 * REL, "a quarter");
    }
};

/// Bad networks, machines and configurations are refused with the parameter's name.
class YanBadInputTestCase : public TestCase
{
  public:
    YanBadInputTestCase()
        : TestCase("Yan model refuses bad inputs naming the parameter")
    {
    }

  private:
    void DoRun() override
    {
        const Yan::Hardware hw;
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      Yan({}, hw);
                                  },
                                  {"layers"}),
                              true,
                              "none");
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      Yan({{"a", 1, 1, 1, true, 2}}, hw);
                                  },
                                  {"halo"}),
                              true,
                              "halo");
        Yan::Hardware slow = hw;
        slow.bandwidth = 0;
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      Yan({{"a", 1, 1, 1, false, 0}}, slow);
                                  },
                                  {"C_nbw"}),
                              true,
                              "bandwidth");
        const Yan m = FourLayers(1);
        Yan::Config c;
        c.workersPerReplica = 2;
        c.threads = 17;
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      m.OptimiseLayers(c);
                                  },
                                  {"H", "C2"}),
                              true,
                              "threads");
        c.threads = 1;
        c.partitions = {2, 1, 1, 1};
        c.replication = {2, 1, 1, 1};
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      m.EpochTime(c);
                                  },
                                  {"C3", "layer a"}),
                              true,
                              "P R > N_wr");
    }
};

/**
 * \ingroup distributed-training
 * The Yan et al. performance model and its layer-by-layer search.
 */
class YanPerformanceModelTestSuite : public TestSuite
{
  public:
    YanPerformanceModelTestSuite()
        : TestSuite("distributed-training-yan-model", Type::UNIT)
    {
        AddTestCase(new YanEquationsTestCase, DT_TEST_QUICK);
        AddTestCase(new YanMappingTestCase, DT_TEST_QUICK);
        AddTestCase(new YanEpochTestCase, DT_TEST_QUICK);
        AddTestCase(new YanDynamicProgrammeTestCase, DT_TEST_QUICK);
        AddTestCase(new YanReplicateEverythingTestCase, DT_TEST_QUICK);
        AddTestCase(new YanBadInputTestCase, DT_TEST_QUICK);
    }
};

/// Static instance: registers the suite.
static YanPerformanceModelTestSuite g_yanPerformanceModelTestSuite;

} // namespace

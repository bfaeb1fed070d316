/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The analytical models of the seeds, one by one, against numbers worked by hand in this file
 * (written out as arithmetic, never computed by the code under test), plus the properties the
 * models must have whatever their inputs: MVA bounds and monotonicity, exact vs approximate
 * MVA, Eq. (6) never lowering a prediction, OSF reducing to CSF and to no fusion.
 */

#include "training-test-utils.h"

#include "ns3/async-ps-model.h"
#include "ns3/cynthia-model.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/mva-solver.h"
#include "ns3/osf-model.h"
#include "ns3/ps-read-bounds-model.h"
#include "ns3/ring-allreduce-model.h"
#include "ns3/sync-ps-model.h"
#include "ns3/test.h"
#include "ns3/training-input-error.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

using namespace ns3;
using ns3::tests::ThrowsInputError;

namespace
{

/// Relative tolerance of every hand-worked comparison.
const double REL = 1e-9;

/// Largest relative error of the Schweitzer-Bard MVA against exact MVA, K <= 14, on the grid
/// of MvaApproximationErrorTestCase and examples/analytic-benchmark.cc, when the links are PS
/// (measured 3.35 %; doc/reference/backend-analytic.rst).
const double APPROX_ERROR_PS = 0.035;
/// The same with FCFS links, 000 Eq. (2) (measured 6.75 %).
const double APPROX_ERROR_FCFS = 0.07;

/**
 * Textbook single-class MVA of the seed's network with K identical customers, written out
 * independently of MvaSolver: level n uses the totals of level n-1.
 * \param z worker time \param su uplink \param ss server \param sd downlink
 * \param k customers \param fcfs FCFS links (Eq. (2)) instead of PS (Eq. (1))
 * \param tu [out] uplink response time \param td [out] downlink response time
 * \return the total throughput
 */
double
HandSingleClass(double z,
                double su,
                double ss,
                double sd,
                int k,
                bool fcfs,
                double* tu = nullptr,
                double* td = nullptr)
{
    double nU = 0, nS = 0, nD = 0, x = 0; // totals at level n-1
    double tU = 0, tD = 0;
    for (int n = 1; n <= k; ++n)
    {
        double xPrev = x;
        tU = fcfs ? su + su * (nU - 0.5 * xPrev * su) : su * (1 + nU);
        double tS = ss * (1 + nS);
        tD = fcfs ? sd + sd * (nD - 0.5 * xPrev * sd) : sd * (1 + nD);
        x = n / (z + tU + tS + tD);
        nU = x * tU;
        nS = x * tS;
        nD = x * tD;
    }
    if (tu)
    {
        *tu = tU;
    }
    if (td)
    {
        *td = tD;
    }
    return x;
}

/**
 * \ingroup distributed-training
 * 000 Eq. (1)-(4) on two and four identical workers, worked by hand.
 *
 * MVA: Eq. (1) PS and Eq. (2) FCFS links give the hand-worked throughput of Eq. (3) and (4) for
 * K = 1, 2, 4.
 */
class MvaHandWorkedTestCase : public TestCase
{
  public:
    MvaHandWorkedTestCase()
        : TestCase("MVA, PS and FCFS links, K = 1, 2, 4, matches Eq. (1)-(4) by hand")
    {
    }

  private:
    void DoRun() override
    {
        const double z = 3.0, su = 1.0, ss = 0.5, sd = 1.0;
        // K = 1: the task alone, X = 1 / (3 + 1 + 0.5 + 1) = 1 / 5.5.
        const double x1 = 1.0 / 5.5;
        // K = 2: each task sees the other one alone, N^l = x1 S^l and rho^l = x1 S^l.
        const double tuPs = su * (1 + x1 * su);
        const double tsPs = ss * (1 + x1 * ss);
        const double tdPs = sd * (1 + x1 * sd);
        const double x2Ps = 2.0 / (z + tuPs + tsPs + tdPs); // Eq. (4)
        const double tuF = su + su * (x1 * su - 0.5 * x1 * su);
        const double tdF = sd + sd * (x1 * sd - 0.5 * x1 * sd);
        const double x2F = 2.0 / (z + tuF + tsPs + tdF); // Eq. (3)

        for (auto link : {MvaSolver::PS, MvaSolver::FCFS})
        {
            const bool fcfs = link == MvaSolver::FCFS;
            MvaSolver one = AsyncPsModel::SeedNetwork(link);
            one.AddClass({z, su, ss, sd});
            NS_TEST_EXPECT_MSG_EQ_TOL(one.SolveExact(1 << 20).throughput,
                                      x1,
                                      REL * x1,
                                      "K = 1, fcfs " << fcfs);
            // Two classes of one customer each: the seed's {0,1}^2 lattice.
            MvaSolver two = AsyncPsModel::SeedNetwork(link);
            two.AddClass({z, su, ss, sd});
            two.AddClass({z, su, ss, sd});
            MvaSolver::Solution s = two.SolveExact(1 << 20);
            const double want = fcfs ? x2F : x2Ps;
            NS_TEST_EXPECT_MSG_EQ_TOL(s.throughput, want, REL * want, "K = 2, fcfs " << fcfs);
            NS_TEST_EXPECT_MSG_EQ_TOL(s.responseTime[0][1],
                                      (fcfs ? tuF : tuPs),
                                      REL,
                                      "T^U at K = 2, fcfs " << fcfs);
            NS_TEST_EXPECT_MSG_EQ_TOL(s.responseTime[1][2], tsPs, REL, "T^S at K = 2");
            // The independent single-class recursion agrees with the explicit lines above.
            NS_TEST_EXPECT_MSG_EQ_TOL(HandSingleClass(z, su, ss, sd, 2, fcfs),
                                      want,
                                      REL * want,
                                      "hand recursion at K = 2");
            // K = 4 as four classes of one customer, and as one class of four.
            const double want4 = HandSingleClass(z, su, ss, sd, 4, fcfs);
            MvaSolver four = AsyncPsModel::SeedNetwork(link);
            for (int k = 0; k < 4; ++k)
            {
                four.AddClass({z, su, ss, sd});
            }
            NS_TEST_EXPECT_MSG_EQ_TOL(four.SolveExact(1 << 20).throughput,
                                      want4,
                                      REL * want4,
                                      "K = 4 distinct classes, fcfs " << fcfs);
            MvaSolver grouped = AsyncPsModel::SeedNetwork(link);
            grouped.AddClass({z, su, ss, sd}, 4);
            NS_TEST_EXPECT_MSG_EQ_TOL(grouped.SolveExact(1 << 20).throughput,
                                      want4,
                                      REL * want4,
                                      "K = 4 one class of 4, fcfs " << fcfs);
        }
    }
};

/**
 * \ingroup distributed-training
 * Heterogeneous classes: two workers with different compute times, worked by hand.
 *
 * MVA: heterogeneous classes (two workers, compute 1 s and 3 s) match a hand-worked lattice, and
 * grouping equal workers changes nothing.
 */
class MvaHeterogeneousTestCase : public TestCase
{
  public:
    MvaHeterogeneousTestCase()
        : TestCase("MVA with two worker classes matches a hand-worked lattice")
    {
    }

  private:
    void DoRun() override
    {
        const double z1 = 1.0, z2 = 3.0, su = 0.4, ss = 0.1, sd = 0.4;
        // Population (1,0) and (0,1): each worker alone.
        const double xa = 1.0 / (z1 + su + ss + sd); // 1 / 1.9
        const double xb = 1.0 / (z2 + su + ss + sd); // 1 / 3.9
        // Population (1,1), PS links: worker 1 sees worker 2 alone, and vice versa.
        const double c1 = z1 + su * (1 + xb * su) + ss * (1 + xb * ss) + sd * (1 + xb * sd);
        const double c2 = z2 + su * (1 + xa * su) + ss * (1 + xa * ss) + sd * (1 + xa * sd);
        const double xPs = 1.0 / c1 + 1.0 / c2;
        // FCFS links: S + S (N - rho/2) of the other worker alone (N = rho = x S here).
        const double f1 = z1 + 2 * (su + su * (xb * su - 0.5 * xb * su)) + ss * (1 + xb * ss);
        const double f2 = z2 + 2 * (su + su * (xa * su - 0.5 * xa * su)) + ss * (1 + xa * ss);
        const double xF = 1.0 / f1 + 1.0 / f2;

        MvaSolver ps = AsyncPsModel::SeedNetwork(MvaSolver::PS);
        ps.AddClass({z1, su, ss, sd});
        ps.AddClass({z2, su, ss, sd});
        MvaSolver::Solution s = ps.SolveExact(1 << 20);
        NS_TEST_EXPECT_MSG_EQ_TOL(s.throughput, xPs, REL * xPs, "PS, two classes");
        NS_TEST_EXPECT_MSG_EQ_TOL(s.perCustomerThroughput[0], 1.0 / c1, REL, "X_1");
        NS_TEST_EXPECT_MSG_EQ_TOL(s.perCustomerThroughput[1], 1.0 / c2, REL, "X_2");

        MvaSolver fc = AsyncPsModel::SeedNetwork(MvaSolver::FCFS);
        fc.AddClass({z1, su, ss, sd});
        fc.AddClass({z2, su, ss, sd});
        NS_TEST_EXPECT_MSG_EQ_TOL(fc.SolveExact(1 << 20).throughput, xF, REL * xF, "FCFS");

        // Three fast and two slow workers: grouped classes equal the {0,1}^5 lattice.
        for (auto link : {MvaSolver::PS, MvaSolver::FCFS})
        {
            MvaSolver flat = AsyncPsModel::SeedNetwork(link);
            MvaSolver grouped = AsyncPsModel::SeedNetwork(link);
            for (int k = 0; k < 3; ++k)
            {
                flat.AddClass({z1, su, ss, sd});
            }
            for (int k = 0; k < 2; ++k)
            {
                flat.AddClass({z2, su, ss, sd});
            }
            grouped.AddClass({z1, su, ss, sd}, 3);
            grouped.AddClass({z2, su, ss, sd}, 2);
            NS_TEST_EXPECT_MSG_EQ(flat.GetExactStateCount(), 32u, "2^5 populations");
            NS_TEST_EXPECT_MSG_EQ(grouped.GetExactStateCount(), 12u, "4 x 3 populations");
            MvaSolver::Solution a = flat.SolveExact(1 << 20);
            MvaSolver::Solution b = grouped.SolveExact(1 << 20);
            NS_TEST_EXPECT_MSG_EQ_TOL(a.throughput, b.throughput, REL * a.throughput, "grouped");
            NS_TEST_EXPECT_MSG_EQ_TOL(a.perCustomerThroughput[4],
                                      b.perCustomerThroughput[1],
                                      REL,
                                      "slow worker");
            NS_TEST_EXPECT_MSG_EQ_TOL(a.responseTime[0][3],
                                      b.responseTime[0][3],
                                      REL,
                                      "fast worker's T^D");
        }
    }
};

/**
 * \ingroup distributed-training
 * MVA with one worker, and PS against FCFS at K = 1.
 *
 * MVA: K = 1 gives the reciprocal of the sum of service times, and PS equals FCFS at K = 1.
 */
class MvaSingleWorkerTestCase : public TestCase
{
  public:
    MvaSingleWorkerTestCase()
        : TestCase("MVA at K = 1 gives 1 over the sum of service times, PS = FCFS")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::vector<double>> cases
            = {{0.2, 0.1, 0.01, 0.1}, {0.0, 2.0, 0.0, 2.0}, {5.0, 0.001, 0.3, 0.002}};
        for (const auto& s : cases)
        {
            const double sum = s[0] + s[1] + s[2] + s[3];
            MvaSolver ps = AsyncPsModel::SeedNetwork(MvaSolver::PS);
            ps.AddClass(s);
            MvaSolver fc = AsyncPsModel::SeedNetwork(MvaSolver::FCFS);
            fc.AddClass(s);
            MvaSolver::Solution a = ps.SolveExact(2);
            MvaSolver::Solution b = fc.SolveExact(2);
            NS_TEST_EXPECT_MSG_EQ_TOL(a.throughput, 1.0 / sum, REL / sum, "PS, K = 1");
            NS_TEST_EXPECT_MSG_EQ_TOL(b.throughput, 1.0 / sum, REL / sum, "FCFS, K = 1");
            for (std::size_t l = 0; l < 4; ++l)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(a.responseTime[0][l], s[l], REL, "T = S alone");
                NS_TEST_EXPECT_MSG_EQ_TOL(b.responseTime[0][l], s[l], REL, "T = S alone");
            }
            // The approximation is exact with one customer.
            MvaSolver::Solution c = ps.SolveApproximate(1e-12, 1000);
            NS_TEST_EXPECT_MSG_EQ_TOL(c.throughput, 1.0 / sum, REL / sum, "approx, K = 1");
        }
    }
};

/**
 * \ingroup distributed-training
 * Throughput grows with K and stays below the bottleneck's capacity.
 *
 * MVA: throughput is non-decreasing in K and at most the reciprocal of the largest station demand,
 * exact and approximate, PS and FCFS links, K = 1..14.
 */
class MvaBoundsTestCase : public TestCase
{
  public:
    MvaBoundsTestCase()
        : TestCase(
            "MVA throughput is non-decreasing in K and below the bottleneck bound, K = 1..14")
    {
    }

  private:
    void DoRun() override
    {
        // {worker, link, server}: link-bound, server-bound, compute-bound, balanced.
        const std::vector<std::vector<double>> demands
            = {{0.5, 1.0, 0.1}, {0.5, 0.2, 1.0}, {10.0, 0.3, 0.1}, {1.0, 1.0, 1.0}};
        for (const auto& dm : demands)
        {
            const double cap = 1.0 / std::max(dm[1], dm[2]);
            for (auto link : {MvaSolver::PS, MvaSolver::FCFS})
            {
                for (bool exact : {true, false})
                {
                    double previous = 0;
                    for (uint32_t k = 1; k <= 14; ++k)
                    {
                        MvaSolver m = AsyncPsModel::SeedNetwork(link);
                        m.AddClass({dm[0], dm[1], dm[2], dm[1]}, k);
                        double x = exact ? m.SolveExact(1 << 20).throughput
                                         : m.SolveApproximate(1e-12, 100000).throughput;
                        NS_TEST_EXPECT_MSG_GT_OR_EQ(x,
                                                    previous * (1 - 1e-12),
                                                    "non-decreasing at K = " << k);
                        NS_TEST_EXPECT_MSG_LT_OR_EQ(x,
                                                    cap * (1 + 1e-12),
                                                    "bounded at K = " << k << " exact " << exact);
                        previous = x;
                    }
                }
            }
        }
    }
};

/**
 * \ingroup distributed-training
 * Eq. (2) by itself: its deterministic-residual correction overshoots a lone FCFS station.
 *
 * MVA: Eq. (2) alone on one FCFS station and no think time gives four thirds of its capacity at
 * K = 2 (why the bound holds only for the seed's two links).
 */
class MvaFcfsResidualTestCase : public TestCase
{
  public:
    MvaFcfsResidualTestCase()
        : TestCase("MVA Eq. (2) on one FCFS station exceeds its capacity at K = 2")
    {
    }

  private:
    void DoRun() override
    {
        // K = 1: T = 1, X = 1, N = 1, rho = 1. K = 2: T = 1 + 1 (1 - 1/2) = 1.5, X = 2 / 1.5.
        MvaSolver m;
        m.AddStation("worker", MvaSolver::DELAY);
        m.AddStation("link", MvaSolver::FCFS);
        m.AddClass({0.0, 1.0}, 2);
        const double x = m.SolveExact(16).throughput;
        NS_TEST_EXPECT_MSG_EQ_TOL(x, 2.0 / 1.5, REL, "Eq. (2) at K = 2");
    }
};

/**
 * \ingroup distributed-training
 * Schweitzer-Bard against exact MVA.
 *
 * MVA: Schweitzer-Bard is within the documented error of exact MVA for K <= 14 (3.5 % with PS
 * links, 7 % with FCFS links), homogeneous and heterogeneous.
 */
class MvaApproximationErrorTestCase : public TestCase
{
  public:
    MvaApproximationErrorTestCase()
        : TestCase("Schweitzer-Bard MVA within 3.5 pct (PS) and 7 pct (FCFS) of exact, K up to 14")
    {
    }

  private:
    void DoRun() override
    {
        // The grid of doc/reference/backend-analytic.rst: link demand 1, server 0.1, worker 0..8,
        // and a heterogeneous cluster with half the workers twice as slow.
        for (auto link : {MvaSolver::PS, MvaSolver::FCFS})
        {
            const double bound = link == MvaSolver::PS ? APPROX_ERROR_PS : APPROX_ERROR_FCFS;
            double worst = 0;
            for (double z : {0.0, 0.5, 1.0, 2.0, 4.0, 8.0})
            {
                for (uint32_t k = 1; k <= 14; ++k)
                {
                    for (bool hetero : {false, true})
                    {
                        MvaSolver m = AsyncPsModel::SeedNetwork(link);
                        if (hetero && k > 1)
                        {
                            m.AddClass({z, 1.0, 0.1, 1.0}, k / 2);
                            m.AddClass({2 * z, 1.0, 0.1, 1.0}, k - k / 2);
                        }
                        else
                        {
                            m.AddClass({z, 1.0, 0.1, 1.0}, k);
                        }
                        double e = m.SolveExact(1 << 20).throughput;
                        MvaSolver::Solution a = m.SolveApproximate(1e-12, 100000);
                        NS_TEST_EXPECT_MSG_EQ(a.converged, true, "converged");
                        worst = std::max(worst, std::abs(a.throughput - e) / e);
                    }
                }
            }
            NS_TEST_EXPECT_MSG_LT_OR_EQ(worst, bound, "worst relative error, link " << link);
            NS_TEST_EXPECT_MSG_GT(worst, 0.0, "the approximation is not exact");
        }
    }
};

/**
 * \ingroup distributed-training
 * AsyncPsModel: Eq. (3)-(6) wiring, hand-worked.
 *
 * Async PS: Eq. (3)-(6) with S^D = S^U = M over B match hand-worked throughput for K = 1, 2, 4 with
 * and without the overlap correction.
 */
class AsyncPsHandWorkedTestCase : public TestCase
{
  public:
    AsyncPsHandWorkedTestCase()
        : TestCase("async PS, K = 1, 2, 4, matches Eq. (3)-(6) by hand, with and without overlap")
    {
    }

  private:
    void DoRun() override
    {
        // S^F = 0.3, S^B = 0.6, M/B = 0.2, S^S = 0.05 (seconds).
        const double f = 0.3, b = 0.6, m = 0.2, s = 0.05;
        auto params = [&](uint32_t k)
        {
            AsyncPsModel::Params p;
            p.forward.assign(k, f);
            p.backward.assign(k, b);
            p.downlink = m;
            p.uplink = m;
            p.server = s;
            return p;
        };
        AsyncPsModel::SolverOptions opt;

        // K = 1: alone, T^D = T^U = 0.2. Uncorrected X = 1 / (0.9 + 0.2 + 0.05 + 0.2).
        // Eq. (6): S^W = max(0, 0.3 - 0.2) + max(0, 0.6 - 0.2) = 0.5, X = 1 / 0.95.
        AsyncPsModel one(params(1), opt);
        NS_TEST_EXPECT_MSG_EQ_TOL(one.Hybrid(0.6).throughput, 1 / 1.35, REL, "K = 1");
        NS_TEST_EXPECT_MSG_EQ_TOL(one.HybridOverlap(0.6).throughput, 1 / 0.95, REL, "K = 1 ov.");

        // K = 2, FCFS links (rho_T = 1 keeps FCFS). Level 1: x1 = 1 / 1.35.
        const double x1 = 1 / 1.35;
        const double tl = 0.2 + 0.2 * (x1 * 0.2 - 0.5 * x1 * 0.2); // Eq. (2)
        const double ts = 0.05 * (1 + x1 * 0.05);                  // Eq. (1)
        const double x2 = 2 / (0.9 + tl + ts + tl);                // Eq. (3)
        // Eq. (6) with T^D = T^U = tl, then K = 2 again with the new worker time.
        const double sw = std::max(0.0, 0.3 - tl) + std::max(0.0, 0.6 - tl);
        const double y1 = 1 / (sw + 0.45);
        const double ul = 0.2 + 0.2 * (y1 * 0.2 - 0.5 * y1 * 0.2);
        const double us = 0.05 * (1 + y1 * 0.05);
        const double y2 = 2 / (sw + ul + us + ul);
        AsyncPsModel two(params(2), opt);
        AsyncPsModel::Prediction h = two.Hybrid(1.0);
        NS_TEST_EXPECT_MSG_EQ(h.link, MvaSolver::FCFS, "rho_T = 1 keeps FCFS");
        NS_TEST_EXPECT_MSG_EQ_TOL(h.throughput, x2, REL * x2, "K = 2 FCFS");
        NS_TEST_EXPECT_MSG_EQ_TOL(h.downlinkTime[1], tl, REL, "T^D at K = 2");
        NS_TEST_EXPECT_MSG_EQ_TOL(two.HybridOverlap(1.0).throughput,
                                  y2,
                                  REL * y2,
                                  "K = 2 FCFS with Eq. (6)");

        // K = 4, PS links (rho_T = 0 picks PS since rho^FCFS > 0).
        double tu4 = 0, td4 = 0;
        const double x4 = HandSingleClass(0.9, m, s, m, 4, false, &tu4, &td4);
        const double sw4 = std::max(0.0, f - td4) + std::max(0.0, b - tu4);
        const double y4 = HandSingleClass(sw4, m, s, m, 4, false);
        AsyncPsModel four(params(4), opt);
        AsyncPsModel::Prediction p4 = four.Hybrid(0.0);
        NS_TEST_EXPECT_MSG_EQ(p4.link, MvaSolver::PS, "rho_T = 0 picks PS");
        NS_TEST_EXPECT_MSG_EQ_TOL(p4.throughput, x4, REL * x4, "K = 4 PS");
        NS_TEST_EXPECT_MSG_EQ_TOL(four.HybridOverlap(0.0).throughput,
                                  y4,
                                  REL * y4,
                                  "K = 4 PS with Eq. (6)");
    }
};

/**
 * \ingroup distributed-training
 * Eq. (5): the threshold.
 *
 * Async PS: Eq. (5) uses FCFS while rho^FCFS <= rho_T and PS above, with rho^FCFS the FCFS link
 * utilisation.
 */
class AsyncPsThresholdTestCase : public TestCase
{
  public:
    AsyncPsThresholdTestCase()
        : TestCase("async PS Eq. (5) switches from FCFS to PS above rho_T")
    {
    }

  private:
    void DoRun() override
    {
        AsyncPsModel::Params p;
        p.forward.assign(3, 0.2);
        p.backward.assign(3, 0.4);
        p.downlink = 0.1;
        p.uplink = 0.1;
        p.server = 0.01;
        AsyncPsModel model(p, AsyncPsModel::SolverOptions());
        AsyncPsModel::Prediction fcfs = model.Solve(MvaSolver::FCFS);
        AsyncPsModel::Prediction ps = model.Solve(MvaSolver::PS);
        // rho = X S^D for the FCFS solution.
        NS_TEST_EXPECT_MSG_EQ_TOL(fcfs.rho, fcfs.throughput * 0.1, REL, "rho = X S^D");
        const double rho = fcfs.rho;
        AsyncPsModel::Prediction at = model.Hybrid(rho);
        NS_TEST_EXPECT_MSG_EQ(at.link, MvaSolver::FCFS, "rho_T = rho^FCFS keeps FCFS");
        NS_TEST_EXPECT_MSG_EQ_TOL(at.throughput, fcfs.throughput, REL, "FCFS value");
        NS_TEST_EXPECT_MSG_EQ_TOL(at.rhoFcfs, rho, REL, "reported rho^FCFS");
        AsyncPsModel::Prediction above = model.Hybrid(rho * (1 - 1e-6));
        NS_TEST_EXPECT_MSG_EQ(above.link, MvaSolver::PS, "rho^FCFS above rho_T picks PS");
        NS_TEST_EXPECT_MSG_EQ_TOL(above.throughput, ps.throughput, REL, "PS value");
        NS_TEST_EXPECT_MSG_LT(ps.throughput, fcfs.throughput, "PS sharing is slower here");
    }
};

/**
 * \ingroup distributed-training
 * Eq. (6) only ever removes compute time.
 *
 * Async PS: the Eq. (6) overlap correction never predicts lower throughput than the uncorrected
 * model (FCFS, PS, hybrid; K = 1..10; heterogeneous).
 */
class AsyncPsOverlapMonotoneTestCase : public TestCase
{
  public:
    AsyncPsOverlapMonotoneTestCase()
        : TestCase("async PS overlap correction Eq. (6) never lowers throughput")
    {
    }

  private:
    void DoRun() override
    {
        int checked = 0;
        for (double ratio : {0.1, 0.5, 1.0, 2.0, 5.0})
        {
            for (double fb : {0.2, 1.0, 3.0})
            {
                for (uint32_t k = 1; k <= 10; ++k)
                {
                    for (bool hetero : {false, true})
                    {
                        AsyncPsModel::Params p;
                        for (uint32_t w = 0; w < k; ++w)
                        {
                            double scale = hetero && w % 2 ? 2.5 : 1.0;
                            p.forward.push_back(scale * fb / (1 + fb));
                            p.backward.push_back(scale * 1 / (1 + fb));
                        }
                        p.downlink = ratio;
                        p.uplink = ratio;
                        p.server = 0.05 * ratio;
                        AsyncPsModel model(p, AsyncPsModel::SolverOptions());
                        for (auto link : {MvaSolver::FCFS, MvaSolver::PS})
                        {
                            AsyncPsModel::Prediction base = model.Solve(link);
                            double corrected = model.CorrectOverlap(base).throughput;
                            NS_TEST_EXPECT_MSG_GT_OR_EQ(corrected,
                                                        base.throughput * (1 - 1e-12),
                                                        "link " << link << " K " << k);
                            ++checked;
                        }
                        for (double rhoT : {0.0, 0.5, 0.6, 1.0})
                        {
                            double plain = model.Hybrid(rhoT).throughput;
                            double corrected = model.HybridOverlap(rhoT).throughput;
                            NS_TEST_EXPECT_MSG_GT_OR_EQ(corrected,
                                                        plain * (1 - 1e-12),
                                                        "hybrid rho_T " << rhoT << " K " << k);
                            ++checked;
                        }
                    }
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ(checked, 5 * 3 * 10 * 2 * 6, "every case ran");
    }
};

/**
 * \ingroup distributed-training
 * Sync PS Eq. (7)-(10).
 *
 * Sync PS: Eq. (7), (8), (9), (10) match hand-worked step times for K = 1, 2, 4, and a per-flow cap
 * makes K transfers share the link.
 */
class SyncPsHandWorkedTestCase : public TestCase
{
  public:
    SyncPsHandWorkedTestCase()
        : TestCase("sync PS, K = 1, 2, 4, matches Eq. (7)-(10) by hand, and with a flow cap")
    {
    }

  private:
    void DoRun() override
    {
        // M = 100 MB, B = 1.25 GB/s (M/B = 0.08 s), T_F = 0.1, T_B = 0.2, T_S = 0.01.
        SyncPsModel::Params p;
        p.modelBytes = 100e6;
        p.serverBytes = 100e6;
        p.flowRate = 1.25e9;
        p.linkRate = 1.25e9;
        p.forward = 0.1;
        p.backward = 0.2;
        p.update = 0.01;

        struct Row
        {
            uint32_t k;
            double eq7, eq8, eq9, eq10;
        };

        const Row rows[] = {
            // K = 1: 0.08 + 0.3 + 0.08 + 0.01 for all three; Eq. (10): max(.08,.1)+max(.08,.2)
            {1,
             0.08 + 0.3 + 0.08 + 0.01,
             0.08 + 0.3 + 0.08 + 0.01,
             0.08 + 0.3 + 0.08 + 0.01,
             0.1 + 0.2 + 0.01},
            // K = 2: K M/B = 0.16, (K+1) M/(2B) = 0.12.
            {2,
             0.16 + 0.3 + 0.16 + 0.01,
             0.16 + 0.3 + 0.08 + 0.01,
             0.16 + 0.3 + 0.12 + 0.01,
             0.16 + 0.2 + 0.01},
            // K = 4: K M/B = 0.32, (K+1) M/(2B) = 0.2.
            {4,
             0.32 + 0.3 + 0.32 + 0.01,
             0.32 + 0.3 + 0.08 + 0.01,
             0.32 + 0.3 + 0.2 + 0.01,
             0.32 + 0.2 + 0.01},
        };
        for (const Row& r : rows)
        {
            p.workers = r.k;
            SyncPsModel m(p);
            NS_TEST_EXPECT_MSG_EQ_TOL(m.Eq7(), r.eq7, REL * r.eq7, "Eq. (7), K = " << r.k);
            NS_TEST_EXPECT_MSG_EQ_TOL(m.Eq8(), r.eq8, REL * r.eq8, "Eq. (8), K = " << r.k);
            NS_TEST_EXPECT_MSG_EQ_TOL(m.Eq9(), r.eq9, REL * r.eq9, "Eq. (9), K = " << r.k);
            NS_TEST_EXPECT_MSG_EQ_TOL(m.Eq10(), r.eq10, REL * r.eq10, "Eq. (10), K = " << r.k);
        }

        // 25 GB/s link, flows capped at 10: one transfer takes M/10 = 0.01 s; K transfers
        // take max(K M / 25, 0.01): 0.01 for K = 1, 2 (the cap binds), 0.016 for K = 4.
        p.flowRate = 10e9;
        p.linkRate = 25e9;
        const double drain[] = {0.01, 0.01, 0.016};
        const uint32_t ks[] = {1, 2, 4};
        for (int i = 0; i < 3; ++i)
        {
            p.workers = ks[i];
            SyncPsModel m(p);
            NS_TEST_EXPECT_MSG_EQ_TOL(m.TransferTime(), 0.01, REL, "capped transfer");
            NS_TEST_EXPECT_MSG_EQ_TOL(m.DrainTime(), drain[i], REL, "K = " << ks[i]);
            NS_TEST_EXPECT_MSG_EQ_TOL(m.Eq7(),
                                      2 * drain[i] + 0.31,
                                      REL,
                                      "Eq. (7) capped, K = " << ks[i]);
        }

        // Two servers holding 60 and 40 MB: the busiest server's 60 MB cross its link, and a
        // worker's own link carries all 100 MB: transfer = max(0.6/1.25, 1/1.25) x 0.1 = 0.08.
        p.flowRate = 1.25e9;
        p.linkRate = 1.25e9;
        p.serverBytes = 60e6;
        p.workers = 4;
        SyncPsModel two(p);
        NS_TEST_EXPECT_MSG_EQ_TOL(two.TransferTime(), 0.08, REL, "worker link bound");
        NS_TEST_EXPECT_MSG_EQ_TOL(two.DrainTime(), 4 * 0.048, REL, "busiest server's share");
    }
};

/**
 * \ingroup distributed-training
 * Ring AllReduce Eq. (11) and STASH.
 *
 * Ring: Eq. (11) and STASH's T_n, per-layer view and best node count match hand-worked numbers.
 */
class RingHandWorkedTestCase : public TestCase
{
  public:
    RingHandWorkedTestCase()
        : TestCase("ring Eq. (11) and STASH match hand-worked numbers")
    {
    }

  private:
    void DoRun() override
    {
        // M = 100 MB, B = 1.25 GB/s, T_F + T_B = 0.3: 2 (K-1) / K x 0.08.
        const double m = 100e6, b = 1.25e9, c = 0.3;
        NS_TEST_EXPECT_MSG_EQ_TOL(RingAllReduceModel::Eq11StepTime(1, m, b, c), 0.3, REL, "K=1");
        NS_TEST_EXPECT_MSG_EQ_TOL(RingAllReduceModel::Eq11StepTime(2, m, b, c),
                                  0.3 + 2 * 1 * 0.08 / 2,
                                  REL,
                                  "K = 2");
        NS_TEST_EXPECT_MSG_EQ_TOL(RingAllReduceModel::Eq11StepTime(4, m, b, c),
                                  0.3 + 2 * 3 * 0.08 / 4,
                                  REL,
                                  "K = 4");
        // STASH per step: T_C + (tau + 2G/(nB)) (n-1), tau = 1 ms.
        NS_TEST_EXPECT_MSG_EQ_TOL(RingAllReduceModel::StashStepTime(4, c, 1e-3, m, b),
                                  0.3 + (1e-3 + 2 * 0.08 / 4) * 3,
                                  REL,
                                  "STASH step, n = 4");
        // Per-layer view (003 Sec. 6.1.2): L = 100, G = 1 MB, B = 1 GB/s, tau = 0.1 ms:
        // 100 x (1e-4 + 1e6 / (100 x 1e9)) = 0.011 s, latency-bound (0.01 s > 0.001 s).
        NS_TEST_EXPECT_MSG_EQ_TOL(RingAllReduceModel::PerLayerTransferTime(100, 1e6, 1e9, 1e-4),
                                  0.011,
                                  REL,
                                  "per-layer transfer");
        NS_TEST_EXPECT_MSG_EQ(RingAllReduceModel::IsLatencyBound(100, 1e6, 1e9, 1e-4),
                              true,
                              "many small layers");
        NS_TEST_EXPECT_MSG_EQ(RingAllReduceModel::IsLatencyBound(2, 500e6, 1e9, 1e-4),
                              false,
                              "few large layers");
        // T_n = 1/n + (0.01 + 0.002/n)(n-1) with T_1 = 1, tau = 0.01, G/B = 0.001:
        // T_9 = 1/9 + (0.01 + 0.002/9) 8, T_10 = 0.1 + 0.0102 x 9 = 0.1918,
        // T_11 = 1/11 + (0.01 + 0.002/11) 10; T_10 is the smallest; sqrt(T_1/tau) = 10.
        const double t9 = 1.0 / 9 + (0.01 + 0.002 / 9) * 8;
        const double t10 = 0.1 + 0.0102 * 9;
        const double t11 = 1.0 / 11 + (0.01 + 0.002 / 11) * 10;
        NS_TEST_EXPECT_MSG_EQ_TOL(RingAllReduceModel::StashStrongScalingTime(10, 1, 0.01, 1e6, 1e9),
                                  t10,
                                  REL,
                                  "T_10");
        NS_TEST_EXPECT_MSG_LT(t10, t9, "T_10 < T_9");
        NS_TEST_EXPECT_MSG_LT(t10, t11, "T_10 < T_11");
        NS_TEST_EXPECT_MSG_EQ(RingAllReduceModel::StashBestNodes(1, 0.01, 1e6, 1e9, 100000),
                              10u,
                              "best n");
        NS_TEST_EXPECT_MSG_EQ_TOL(RingAllReduceModel::StashSqrtRule(1, 0.01), 10.0, REL, "sqrt");
        // Communication dearer than the compute saved (T_1 < 2G/B): one node is best.
        NS_TEST_EXPECT_MSG_EQ(RingAllReduceModel::StashBestNodes(0.001, 0.0, 1e6, 1e9, 1000),
                              1u,
                              "one node");
        // No latency and cheap communication: more nodes always help, up to the limit.
        NS_TEST_EXPECT_MSG_EQ(RingAllReduceModel::StashBestNodes(1, 0.0, 1e6, 1e9, 500),
                              500u,
                              "limit");
    }
};

/// The 4-layer example of the OSF tests: N = 4, beta = 1 GB/s, R = 2 GB/s, delta = 1 ms.
OsfModel::Params
FourLayers(double delta = 1e-3)
{
    OsfModel::Params p;
    p.workers = 4;
    p.bandwidth = 1e9;
    p.reductionRate = 2e9;
    p.overhead = delta;
    p.layerBytes = {4e6, 1e6, 2e6, 8e6};
    p.forward = {0.002, 0.001, 0.001, 0.003};
    p.backward = {0.004, 0.002, 0.003, 0.006};
    return p;
}

/// Eq. (7) per byte for FourLayers(): 2 (N-1) / (N beta) + (N-1) / (N R).
const double OSF_PER_BYTE = 2.0 * 3 / (4 * 1e9) + 3.0 / (4 * 2e9); // 1.875e-9

/**
 * \ingroup distributed-training
 * OSF Eq. (3)-(10), hand-worked.
 *
 * OSF: Eq. (7)-(10) and (3) match a hand-worked 4-layer example; CSF Eq. (2); N = 1, 2, 4.
 */
class OsfHandWorkedTestCase : public TestCase
{
  public:
    OsfHandWorkedTestCase()
        : TestCase("OSF Eq. (7)-(10) and CSF Eq. (2), N = 1, 2, 4, match a 4-layer example by hand")
    {
    }

  private:
    void DoRun() override
    {
        OsfModel m(FourLayers());
        // t_update(D) = 1.875e-9 D + 1e-3.
        const double t4 = OSF_PER_BYTE * 8e6 + 1e-3; // 0.016
        const double t3 = OSF_PER_BYTE * 2e6 + 1e-3; // 0.00475
        const double t2 = OSF_PER_BYTE * 1e6 + 1e-3; // 0.002875
        const double t1 = OSF_PER_BYTE * 4e6 + 1e-3; // 0.0085
        NS_TEST_EXPECT_MSG_EQ_TOL(m.TransferTime(8e6), t4, REL, "Eq. (7)");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.TransferTime(0), 0.0, REL, "nothing to send");
        // Eq. (8): tau4 = 0; tau3 = max(0 + t4, tb3); tau2 = max(tau3 + t3, tb3 + tb2);
        // tau1 = max(tau2 + t2, tb3 + tb2 + tb1).
        const double tau3 = std::max(t4, 0.003);
        const double tau2 = std::max(tau3 + t3, 0.003 + 0.002);
        const double tau1 = std::max(tau2 + t2, 0.003 + 0.002 + 0.004);
        std::vector<double> tau = m.StartTimes();
        NS_TEST_EXPECT_MSG_EQ_TOL(tau[3], 0.0, REL, "tau^(4)");
        NS_TEST_EXPECT_MSG_EQ_TOL(tau[2], 0.016, REL, "tau^(3)");
        NS_TEST_EXPECT_MSG_EQ_TOL(tau[1], 0.02075, REL, "tau^(2)");
        NS_TEST_EXPECT_MSG_EQ_TOL(tau[0], tau1, REL, "tau^(1)");
        NS_TEST_EXPECT_MSG_EQ_TOL(tau1, 0.023625, REL, "hand arithmetic");
        const double update = tau1 + t1; // Eq. (9): 0.032125
        const double comp = 0.007 + 0.015;
        const double overlap = 0.004 + 0.002 + 0.003; // Eq. (10)
        NS_TEST_EXPECT_MSG_EQ_TOL(m.UpdateTime(), update, REL, "Eq. (9)");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.Comp(), comp, REL, "T_comp");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.Overlap(), overlap, REL, "Eq. (10)");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.StepTime(), comp + update - overlap, REL, "step");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.Osf(), comp / (comp + update - overlap), REL, "Eq. (3)");
        // CSF, Eq. (2): T_comm = t_update(15 MB) = 0.028125 + 0.001.
        const double comm = OSF_PER_BYTE * 15e6 + 1e-3;
        NS_TEST_EXPECT_MSG_EQ_TOL(m.Csf(), comp / (comp + comm), REL, "Eq. (2)");

        // N = 2: t_update = (2/2e9 + 1/(2 x 2e9)) D + delta = 1.25e-9 D + 1e-3.
        OsfModel::Params p2 = FourLayers();
        p2.workers = 2;
        OsfModel m2(p2);
        const double a = 1.25e-9;
        const double s3 = std::max(a * 8e6 + 1e-3, 0.003);
        const double s2 = std::max(s3 + a * 2e6 + 1e-3, 0.005);
        const double s1 = std::max(s2 + a * 1e6 + 1e-3, 0.009);
        NS_TEST_EXPECT_MSG_EQ_TOL(m2.UpdateTime(), s1 + a * 4e6 + 1e-3, REL, "N = 2");
        // N = 1: nothing to exchange, OSF = CSF = 1.
        OsfModel::Params p1 = FourLayers();
        p1.workers = 1;
        OsfModel m1(p1);
        NS_TEST_EXPECT_MSG_EQ_TOL(m1.StepTime(), comp, REL, "N = 1 step = T_comp");
        NS_TEST_EXPECT_MSG_EQ_TOL(m1.Osf(), 1.0, REL, "N = 1 OSF");
        NS_TEST_EXPECT_MSG_EQ_TOL(m1.Csf(), 1.0, REL, "N = 1 CSF");
    }
};

/**
 * \ingroup distributed-training
 * OSF with one layer.
 *
 * OSF: with one layer and no fusion, OSF equals CSF (Eq. (3) = Eq. (2)).
 */
class OsfOneLayerTestCase : public TestCase
{
  public:
    OsfOneLayerTestCase()
        : TestCase("OSF with one layer and no fusion equals CSF")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t n : {2u, 8u, 64u})
        {
            OsfModel::Params p;
            p.workers = n;
            p.bandwidth = 3e9;
            p.overhead = 2e-4;
            p.layerBytes = {5e6};
            p.forward = {0.01};
            p.backward = {0.02};
            OsfModel m(p);
            NS_TEST_EXPECT_MSG_EQ_TOL(m.Osf(), m.Csf(), REL, "N = " << n);
            NS_TEST_EXPECT_MSG_EQ_TOL(m.StepTime(), m.CsfStepTime(), REL, "step, N = " << n);
            // And by hand: T_comp / (T_comp + 2 (N-1)/(N beta) D + delta).
            const double want = 0.03 / (0.03 + 2.0 * (n - 1) / (n * 3e9) * 5e6 + 2e-4);
            NS_TEST_EXPECT_MSG_EQ_TOL(m.Osf(), want, REL, "hand, N = " << n);
        }
    }
};

/**
 * \ingroup distributed-training
 * Tensor fusion with Q = 0 is no fusion.
 *
 * OSF: tensor fusion with Q = 0 equals no fusion (Eq. (12)-(16) reduce to Eq. (8)-(9)), any
 * timeout; Q = infinity with no timeout equals CSF.
 */
class OsfZeroBufferTestCase : public TestCase
{
  public:
    OsfZeroBufferTestCase()
        : TestCase("OSF fusion with Q = 0 equals no fusion, Q = infinity equals CSF")
    {
    }

  private:
    void DoRun() override
    {
        const double inf = std::numeric_limits<double>::infinity();
        // The 4-layer example, and 60 layers of varied sizes (some empty) and times.
        std::vector<OsfModel::Params> cases = {FourLayers()};
        OsfModel::Params big = FourLayers();
        big.layerBytes.clear();
        big.forward.clear();
        big.backward.clear();
        for (int i = 0; i < 60; ++i)
        {
            big.layerBytes.push_back(i % 7 == 3 ? 0.0 : 1000.0 * ((i * 37) % 101 + 1));
            big.forward.push_back(1e-4 * ((i * 13) % 17 + 1));
            big.backward.push_back(2e-4 * ((i * 29) % 23 + 1));
        }
        cases.push_back(big);
        for (const auto& p : cases)
        {
            OsfModel m(p);
            for (double timeout : {inf, 1e-3, 1e-5})
            {
                OsfModel::FusionPlan plan = m.Fusion(0, 0, timeout);
                NS_TEST_EXPECT_MSG_EQ_TOL(m.FusionUpdateTime(plan),
                                          m.UpdateTime(),
                                          REL * m.UpdateTime(),
                                          "Q = 0, timeout " << timeout);
                NS_TEST_EXPECT_MSG_EQ_TOL(m.OsfFusion(plan), m.Osf(), REL, "Eq. (11) = (3)");
            }
            OsfModel::FusionPlan one = m.Fusion(inf, 0, inf);
            NS_TEST_EXPECT_MSG_EQ(one.operations, 1u, "one bucket");
            NS_TEST_EXPECT_MSG_EQ_TOL(m.FusionStepTime(one),
                                      m.CsfStepTime(),
                                      REL * m.CsfStepTime(),
                                      "Q = infinity is CSF");
        }
    }
};

/**
 * \ingroup distributed-training
 * Eq. (12)-(16), hand-worked.
 *
 * OSF: Eq. (12)-(16) match a hand-worked 4-layer example (buffer full, next layer does not fit,
 * timeout, first bucket).
 */
class OsfFusionHandWorkedTestCase : public TestCase
{
  public:
    OsfFusionHandWorkedTestCase()
        : TestCase("OSF fusion Eq. (12)-(16) matches a 4-layer example by hand")
    {
    }

  private:
    void DoRun() override
    {
        OsfModel m(FourLayers());
        const double inf = std::numeric_limits<double>::infinity();
        auto t = [](double d)
        {
            return OSF_PER_BYTE * d + 1e-3;
        };

        // Q = 9 MB, no timeout. Layer 4: B = 8 MB, 8 + 2 > 9 so it is sent after waiting for
        // layer 3's backward (t_wait = 0.003). Layers 3, 2, 1 fill 2, 3, 7 MB; sent at layer 1.
        OsfModel::FusionPlan a = m.Fusion(9e6, 0, inf);
        NS_TEST_EXPECT_MSG_EQ((a.flush == std::vector<bool>{true, false, false, true}),
                              true,
                              "flushes, Q = 9 MB");
        NS_TEST_EXPECT_MSG_EQ_TOL(a.buffered[0], 7e6, REL, "B^(1)");
        NS_TEST_EXPECT_MSG_EQ_TOL(a.sent[3], 8e6, REL, "F^(4)");
        NS_TEST_EXPECT_MSG_EQ_TOL(a.wait[3], 0.003, REL, "t_wait^(4)");
        NS_TEST_EXPECT_MSG_EQ(a.operations, 2u, "two AllReduces");
        // Eq. (15): tau3 = max(0 + 0.003 + t(8 MB), 0.003) = 0.019; tau2 = max(0.019, 0.005);
        // tau1 = max(0.019, 0.009); Eq. (16): 0.019 + t(7 MB).
        const double a3 = std::max(0.003 + t(8e6), 0.003);
        const double a1 = std::max(std::max(a3, 0.005), 0.009);
        NS_TEST_EXPECT_MSG_EQ_TOL(a3, 0.019, REL, "hand arithmetic");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.FusionUpdateTime(a), a1 + t(7e6), REL, "Q = 9 MB");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.FusionStepTime(a),
                                  0.022 + a1 + t(7e6) - 0.009,
                                  REL,
                                  "step, Q = 9 MB");

        // Q = 3.5 MB, timeout 2.5 ms. Layer 4 (8 MB) fills the buffer: sent at once. Layer 3
        // (2 MB) waits for layer 2 (t_b = 2 ms < timeout, 2 + 1 <= 3.5). Layer 2 (B = 3 MB):
        // layer 1's backward (4 ms) exceeds the timeout, so it is sent after 2.5 ms. Layer 1
        // alone.
        OsfModel::FusionPlan b = m.Fusion(3.5e6, 0, 2.5e-3);
        NS_TEST_EXPECT_MSG_EQ((b.flush == std::vector<bool>{true, true, false, true}),
                              true,
                              "flushes, Q = 3.5 MB");
        NS_TEST_EXPECT_MSG_EQ_TOL(b.wait[3], 0.0, REL, "full buffer: no wait");
        NS_TEST_EXPECT_MSG_EQ_TOL(b.sent[1], 3e6, REL, "F^(2)");
        NS_TEST_EXPECT_MSG_EQ_TOL(b.wait[1], 2.5e-3, REL, "timeout wait");
        NS_TEST_EXPECT_MSG_EQ(b.operations, 3u, "three AllReduces");
        const double b3 = std::max(t(8e6), 0.003);               // 0.016
        const double b2 = std::max(b3 + 0 + 0, 0.005);           // F^(3) = 0
        const double b1 = std::max(b2 + 2.5e-3 + t(3e6), 0.009); // 0.025125
        NS_TEST_EXPECT_MSG_EQ_TOL(b1, 0.025125, REL, "hand arithmetic");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.FusionUpdateTime(b), b1 + t(4e6), REL, "Q = 3.5 MB");

        // First bucket of 8 MB, then Q = 9 MB: layer 4 fills the first bucket and goes at once;
        // layers 3-1 share one bucket of 7 MB.
        OsfModel::FusionPlan c = m.Fusion(9e6, 8e6, inf);
        NS_TEST_EXPECT_MSG_EQ((c.flush == std::vector<bool>{true, false, false, true}),
                              true,
                              "flushes, first bucket");
        NS_TEST_EXPECT_MSG_EQ_TOL(c.wait[3], 0.0, REL, "first bucket full");
        const double c1 = std::max(std::max(std::max(t(8e6), 0.003), 0.005), 0.009);
        NS_TEST_EXPECT_MSG_EQ_TOL(m.FusionUpdateTime(c), c1 + t(7e6), REL, "first bucket");
    }
};

/**
 * \ingroup distributed-training
 * adaFusion Eq. (17) and the piecewise Eq. (18).
 *
 * OSF: adaFusion Eq. (17) fuses exactly the layers whose backward is shorter than the saving, and
 * Eq. (18) matches hand-worked values.
 */
class OsfAdaFusionTestCase : public TestCase
{
  public:
    OsfAdaFusionTestCase()
        : TestCase("OSF adaFusion Eq. (17) and (18) match hand-worked values")
    {
    }

  private:
    void DoRun() override
    {
        // With Eq. (7), t(B + D) + t_b < t(B) + t(D) reduces to t_b < delta. delta = 2.5 ms:
        // only layer 2 (t_b = 2 ms) joins layer 3's buffer.
        OsfModel m(FourLayers(2.5e-3));
        OsfModel::FusionPlan p = m.AdaFusion();
        NS_TEST_EXPECT_MSG_EQ((p.flush == std::vector<bool>{true, true, false, true}),
                              true,
                              "buckets {4} {3,2} {1}");
        NS_TEST_EXPECT_MSG_EQ_TOL(p.sent[1], 3e6, REL, "fused 3 MB");
        auto t = [](double d)
        {
            return OSF_PER_BYTE * d + 2.5e-3;
        };
        const double s3 = std::max(t(8e6), 0.003);      // 0.0175
        const double s2 = std::max(s3, 0.005);          // layer 3 kept
        const double s1 = std::max(s2 + t(3e6), 0.009); // 0.025625
        NS_TEST_EXPECT_MSG_EQ_TOL(m.FusionUpdateTime(p), s1 + t(4e6), REL, "adaFusion T");
        NS_TEST_EXPECT_MSG_LT(m.FusionUpdateTime(p), m.UpdateTime(), "better than no fusion");

        // Eq. (18) with fitted coefficients: a1 = 0.1 ms, b1 = 0.2 ms, a2 = 1 ns/B, b2 = 0.5 ms,
        // D_Thresh = 64 KiB.
        OsfModel::Params q = FourLayers();
        q.transferModel = OsfModel::PIECEWISE;
        q.piecewise = {1e-4, 2e-4, 1e-9, 5e-4, 65536};
        OsfModel pw(q);
        NS_TEST_EXPECT_MSG_EQ_TOL(pw.TransferTime(1024), 1e-4 * 10 + 2e-4, REL, "log part");
        NS_TEST_EXPECT_MSG_EQ_TOL(pw.TransferTime(65536), 1e-9 * 65536 + 5e-4, REL, "at D_T");
        NS_TEST_EXPECT_MSG_EQ_TOL(pw.TransferTime(1e6), 1e-3 + 5e-4, REL, "linear part");
        NS_TEST_EXPECT_MSG_EQ_TOL(pw.LinearTransferTime(1e6),
                                  OSF_PER_BYTE * 1e6 + 1e-3,
                                  REL,
                                  "Eq. (7) kept");

        // Default coefficients: a2, b2 from Eq. (7); log part from (1 B, delta) to the linear
        // value at D_Thresh: a1 = a2 x 65536 / 16.
        OsfModel::Piecewise d = OsfModel::DefaultPiecewise(FourLayers(), 65536);
        NS_TEST_EXPECT_MSG_EQ_TOL(d.a2, OSF_PER_BYTE, REL, "a2");
        NS_TEST_EXPECT_MSG_EQ_TOL(d.b2, 1e-3, REL, "b2");
        NS_TEST_EXPECT_MSG_EQ_TOL(d.b1, 1e-3, REL, "b1");
        NS_TEST_EXPECT_MSG_EQ_TOL(d.a1, OSF_PER_BYTE * 65536 / 16, REL, "a1");
        q.piecewise = d;
        OsfModel dm(q);
        NS_TEST_EXPECT_MSG_EQ_TOL(dm.TransferTime(1), 1e-3, REL, "t(1 byte) = delta");
        NS_TEST_EXPECT_MSG_EQ_TOL(dm.TransferTime(65535.999),
                                  dm.TransferTime(65536),
                                  1e-12,
                                  "continuous at D_Thresh");
        NS_TEST_EXPECT_MSG_GT(dm.TransferTime(4096),
                              dm.LinearTransferTime(4096),
                              "slow start costs more than Eq. (7) below the BDP");
    }
};

/**
 * \ingroup distributed-training
 * 002 Eq. (10)-(11) and the Cynthia baseline.
 */
class ReadBoundsAndCynthiaTestCase : public TestCase
{
  public:
    ReadBoundsAndCynthiaTestCase()
        : TestCase("PS read bounds 002 Eq. (10)-(11) and Cynthia (001 Sec. 1) match "
                   "hand-worked values")
    {
    }

  private:
    void DoRun() override
    {
        // W = (1 MB, 3 MB), 4 replicas, 2 servers, C_ncost = 0.1 ms, C_nbw = 100 MB/s.
        PsReadBoundsModel::Params p;
        p.layerBytes = {1e6, 3e6};
        p.replicas = 4;
        p.servers = 2;
        p.workersPerReplica = 1;
        p.latency = 1e-4;
        p.bandwidth = 1e8;
        p.linkBandwidth = 1e8;
        // Worst: 2 x 0.1 ms + 4 x 4 MB / 100 MB/s; best: 2 x 0.1 ms + 4 MB / (100 MB/s x 1).
        NS_TEST_EXPECT_MSG_EQ_TOL(PsReadBoundsModel(p).WorstCase(), 2e-4 + 0.16, REL, "Eq.(10)");
        NS_TEST_EXPECT_MSG_EQ_TOL(PsReadBoundsModel(p).BestCase(), 2e-4 + 0.04, REL, "Eq.(11)");
        p.workersPerReplica = 2; // min(N_ps, N_wr) = 2
        NS_TEST_EXPECT_MSG_EQ_TOL(PsReadBoundsModel(p).BestCase(), 2e-4 + 0.02, REL, "N_wr = 2");
        // 250 MB/s link, 100 MB/s flows: per layer max(4 W / 250 MB/s, W / 100 MB/s).
        p.linkBandwidth = 2.5e8;
        NS_TEST_EXPECT_MSG_EQ_TOL(PsReadBoundsModel(p).WorstCase(),
                                  2e-4 + 0.016 + 0.048,
                                  REL,
                                  "capped flows");

        // Cynthia: K = 32, T_p = 0.2, T_C = 0.05, U_1 = 2 x 0.05 / 0.2 = 0.5.
        // W = 1: 32 / (0.2 + 0.1); W = 4: W U_1 = 2, 128 / (0.2 x 2 + 0.1) = 256.
        NS_TEST_EXPECT_MSG_EQ_TOL(CynthiaModel(1, 32, 0.2, 0.05).Throughput(),
                                  32 / 0.3,
                                  REL,
                                  "W = 1");
        NS_TEST_EXPECT_MSG_EQ_TOL(CynthiaModel(4, 32, 0.2, 0.05).Utilisation(), 0.5, REL, "U_1");
        NS_TEST_EXPECT_MSG_EQ_TOL(CynthiaModel(4, 32, 0.2, 0.05).Throughput(), 256.0, REL, "W=4");
        // Halved T_C = 0.025: W U_1 = 1, 128 / (0.2 + 0.05) = 512.
        NS_TEST_EXPECT_MSG_EQ_TOL(CynthiaModel(4, 32, 0.2, 0.05).Halved().Throughput(),
                                  512.0,
                                  REL,
                                  "halved");
        // Large W: tends to K / (2 T_C) = 320 from below.
        NS_TEST_EXPECT_MSG_LT(CynthiaModel(100000, 32, 0.2, 0.05).Throughput(),
                              320.0,
                              "below capacity");
    }
};

/**
 * \ingroup distributed-training
 * Bad input to the models.
 *
 * Models: rho_T outside [0, 1], K = 0, zero bandwidth, negative times and too large exact lattices
 * throw TrainingInputError with a clear message.
 */
class ModelsBadInputTestCase : public TestCase
{
  public:
    ModelsBadInputTestCase()
        : TestCase("analytic models reject bad input with a TrainingInputError")
    {
    }

  private:
    void DoRun() override
    {
        AsyncPsModel::Params ap;
        ap.forward = {0.1};
        ap.backward = {0.2};
        ap.downlink = 0.1;
        ap.uplink = 0.1;
        AsyncPsModel model(ap, AsyncPsModel::SolverOptions());
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      model.Hybrid(1.5);
                                  },
                                  {"RhoThreshold", "1.5", "[0, 1]"}),
                              true,
                              "rho_T = 1.5");
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      model.HybridOverlap(-0.1);
                                  },
                                  {"-0.1"}),
                              true,
                              "rho_T = -0.1");
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      model.Hybrid(std::nan(""));
                                  },
                                  {"RhoThreshold"}),
                              true,
                              "rho_T = NaN");
        AsyncPsModel::Params none = ap;
        none.forward.clear();
        none.backward.clear();
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      AsyncPsModel x(none, AsyncPsModel::SolverOptions());
                                  },
                                  {"0 workers"}),
                              true,
                              "async K = 0");
        AsyncPsModel::Params negative = ap;
        negative.downlink = -1;
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      AsyncPsModel x(negative, AsyncPsModel::SolverOptions());
                                  },
                                  {"S^D"}),
                              true,
                              "negative S^D");

        SyncPsModel::Params sp;
        sp.workers = 0;
        sp.modelBytes = sp.serverBytes = 1e6;
        sp.flowRate = sp.linkRate = 1e9;
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      SyncPsModel m(sp);
                                  },
                                  {"K"}),
                              true,
                              "sync K = 0");
        sp.workers = 2;
        sp.flowRate = 0;
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      SyncPsModel m(sp);
                                  },
                                  {"B_flow"}),
                              true,
                              "sync zero bandwidth");

        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  []
                                  {
                                      RingAllReduceModel::Eq11StepTime(0, 1e6, 1e9, 0.1);
                                  },
                                  {"K"}),
                              true,
                              "ring K = 0");
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  []
                                  {
                                      RingAllReduceModel::Eq11StepTime(4, 1e6, 0, 0.1);
                                  },
                                  {"bandwidth"}),
                              true,
                              "ring zero bandwidth");

        OsfModel::Params op = FourLayers();
        op.bandwidth = 0;
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      OsfModel m(op);
                                  },
                                  {"beta"}),
                              true,
                              "OSF zero bandwidth");
        op = FourLayers();
        op.workers = 0;
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      OsfModel m(op);
                                  },
                                  {"N"}),
                              true,
                              "OSF N = 0");
        OsfModel good(FourLayers());
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      good.Fusion(-1, 0, 1);
                                  },
                                  {"Q"}),
                              true,
                              "negative Q");

        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  []
                                  {
                                      CynthiaModel x(0, 32, 0.1, 0.1);
                                  },
                                  {"W"}),
                              true,
                              "Cynthia W = 0");
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  []
                                  {
                                      CynthiaModel x(2, 32, 0.1, 0);
                                  },
                                  {"T_C"}),
                              true,
                              "Cynthia zero transfer time (zero bandwidth upstream)");

        MvaSolver m = AsyncPsModel::SeedNetwork(MvaSolver::PS);
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      m.SolveExact(10);
                                  },
                                  {"no customer"}),
                              true,
                              "no class");
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      m.AddClass({0, 0, 0, 0});
                                  },
                                  {"zero"}),
                              true,
                              "all-zero service");
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      m.AddClass({1, std::nan(""), 0, 0});
                                  },
                                  {"service time"}),
                              true,
                              "NaN service");
        for (int k = 0; k < 12; ++k)
        {
            m.AddClass({1.0 + k, 1, 0.1, 1});
        }
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      m.SolveExact(1024);
                                  },
                                  {"4096"}),
                              true,
                              "lattice too large");
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      m.SolveApproximate(0, 10);
                                  },
                                  {"tolerance"}),
                              true,
                              "zero tolerance");
    }
};

/**
 * \ingroup distributed-training
 * The analytical models, equation by equation.
 */
class AnalyticModelsTestSuite : public TestSuite
{
  public:
    AnalyticModelsTestSuite()
        : TestSuite("distributed-training-analytic-models", Type::UNIT)
    {
        AddTestCase(new MvaHandWorkedTestCase, DT_TEST_QUICK);
        AddTestCase(new MvaHeterogeneousTestCase, DT_TEST_QUICK);
        AddTestCase(new MvaSingleWorkerTestCase, DT_TEST_QUICK);
        AddTestCase(new MvaBoundsTestCase, DT_TEST_QUICK);
        AddTestCase(new MvaFcfsResidualTestCase, DT_TEST_QUICK);
        AddTestCase(new MvaApproximationErrorTestCase, DT_TEST_QUICK);
        AddTestCase(new AsyncPsHandWorkedTestCase, DT_TEST_QUICK);
        AddTestCase(new AsyncPsThresholdTestCase, DT_TEST_QUICK);
        AddTestCase(new AsyncPsOverlapMonotoneTestCase, DT_TEST_QUICK);
        AddTestCase(new SyncPsHandWorkedTestCase, DT_TEST_QUICK);
        AddTestCase(new RingHandWorkedTestCase, DT_TEST_QUICK);
        AddTestCase(new OsfHandWorkedTestCase, DT_TEST_QUICK);
        AddTestCase(new OsfOneLayerTestCase, DT_TEST_QUICK);
        AddTestCase(new OsfZeroBufferTestCase, DT_TEST_QUICK);
        AddTestCase(new OsfFusionHandWorkedTestCase, DT_TEST_QUICK);
        AddTestCase(new OsfAdaFusionTestCase, DT_TEST_QUICK);
        AddTestCase(new ReadBoundsAndCynthiaTestCase, DT_TEST_QUICK);
        AddTestCase(new ModelsBadInputTestCase, DT_TEST_QUICK);
    }
};

/// Static instance: registers the suite.
static AnalyticModelsTestSuite g_analyticModelsTestSuite;

} // namespace

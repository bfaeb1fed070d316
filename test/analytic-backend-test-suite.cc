/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * AnalyticBackend: what Run() returns for each architecture and mode (variant names, derived
 * inputs, throughput in samples/s) on a two-layer profile whose numbers are worked by hand
 * here; heterogeneous workers, per-flow caps, multi-GPU nodes; attributes and bad input.
 */

#include "training-test-utils.h"

#include "ns3/analytic-backend.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/test.h"
#include "ns3/training-input-error.h"
#include "ns3/training-profile.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ns3;
using ns3::tests::ThrowsInputError;

namespace
{

/// Relative tolerance of every hand-worked comparison.
const double REL = 1e-9;

/**
 * Two layers: 40 MB (forward 10 ms, backward 20 ms, update 3 ms) and 60 MB (5 ms, 15 ms,
 * 2 ms); batch 32. M = 100 MB, T_F = 0.015 s, T_B = 0.035 s, T_S = 0.005 s.
 * \return the profile
 */
TrainingProfile
TwoLayers()
{
    TrainingProfile p;
    p.SetModel("two-layers");
    p.SetBatchSize(32);
    p.SetProvenance(R"({"device":"none","framework":"none","method":"test","derived":true})");
    p.AddLayer({"l0", "Linear", 40000000, 10000, 20000, 3000});
    p.AddLayer({"l1", "Linear", 60000000, 5000, 15000, 2000});
    return p;
}

/// Goodput of one TCP flow at 10 Gbps, MTU 1500: 10e9 / 8 x 1448 / 1502 bytes/s.
const double B10 = 10e9 / 8 * 1448 / 1502;
/// M = 100 MB.
const double M = 100e6;

/// The result of one variant (fails the test if it is missing).
const TrainingResult*
Find(const std::vector<TrainingResult>& rs, const std::string& variant)
{
    for (const auto& r : rs)
    {
        if (r.variant == variant)
        {
            return &r;
        }
    }
    return nullptr;
}

/// The set of variant names.
std::set<std::string>
Variants(const std::vector<TrainingResult>& rs)
{
    std::set<std::string> s;
    for (const auto& r : rs)
    {
        s.insert(r.variant);
    }
    return s;
}

/**
 * Trace sink counting results.
 * \param count the counter
 * \param result a result (unused)
 */
void
CountResult(uint32_t* count, const TrainingResult& /* result */)
{
    ++*count;
}

/**
 * \ingroup distributed-training
 * Sync PS through the backend.
 *
 * Backend: sync PS gives sync-eq7..10 and ps-read-worst and -best with K x batch over T worked by
 * hand (K = 1, 2, 4) and M, B, T_F, T_B, T_S in the inputs.
 */
class BackendSyncPsTestCase : public TestCase
{
  public:
    BackendSyncPsTestCase()
        : TestCase(
            "analytic backend, sync PS, K = 1, 2, 4, matches Eq. (7)-(10) and the PS read bounds")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<AnalyticBackend> backend = CreateObject<AnalyticBackend>();
        TrainingScenario s;
        for (uint32_t k : {1u, 2u, 4u})
        {
            s.workers = k;
            std::vector<TrainingResult> rs = backend->Run(TwoLayers(), s);
            NS_TEST_EXPECT_MSG_EQ((Variants(rs)
                                   == std::set<std::string>{"sync-eq7",
                                                            "sync-eq8",
                                                            "sync-eq9",
                                                            "sync-eq10",
                                                            "ps-read-worst",
                                                            "ps-read-best"}),
                                  true,
                                  "variants");
            const double mb = M / B10;
            // Eq. (7)-(10) with T_F + T_B = 0.05, T_S = 0.005.
            const double eq7 = k * mb + 0.05 + k * mb + 0.005;
            const double eq8 = k * mb + 0.05 + mb + 0.005;
            const double eq9 = k * mb + 0.05 + (k + 1) * mb / 2 + 0.005;
            const double eq10 = std::max(k * mb, 0.015) + std::max((k + 1) * mb / 2, 0.035) + 0.005;
            // 002: two layers, C_ncost = 4 link delays of 10 us; worst K M/B, best M/B.
            const double worst = 2 * 40e-6 + k * mb + 0.05 + (k + 1) * mb / 2 + 0.005;
            const double best = 2 * 40e-6 + mb + 0.05 + (k + 1) * mb / 2 + 0.005;
            const std::map<std::string, double> want = {{"sync-eq7", eq7},
                                                        {"sync-eq8", eq8},
                                                        {"sync-eq9", eq9},
                                                        {"sync-eq10", eq10},
                                                        {"ps-read-worst", worst},
                                                        {"ps-read-best", best}};
            for (const auto& [name, t] : want)
            {
                const TrainingResult* r = Find(rs, name);
                NS_TEST_ASSERT_MSG_NE(r, nullptr, name);
                NS_TEST_EXPECT_MSG_EQ(r->backend, "analytic", "backend name");
                NS_TEST_EXPECT_MSG_EQ_TOL(r->stepTimeMean, t, REL * t, name << " K " << k);
                NS_TEST_EXPECT_MSG_EQ_TOL(r->throughput,
                                          k * 32 / t,
                                          REL * k * 32 / t,
                                          name << " throughput, K " << k);
                NS_TEST_EXPECT_MSG_EQ_TOL(r->inputs.at("M_bytes"), M, 0.5, "M");
                NS_TEST_EXPECT_MSG_EQ_TOL(r->inputs.at("B_bytes_per_s"), B10, REL * B10, "B");
                NS_TEST_EXPECT_MSG_EQ_TOL(r->inputs.at("T_F_s"), 0.015, REL, "T_F");
                NS_TEST_EXPECT_MSG_EQ_TOL(r->inputs.at("T_B_s"), 0.035, REL, "T_B");
                NS_TEST_EXPECT_MSG_EQ_TOL(r->inputs.at("T_S_s"), 0.005, REL, "T_S");
                NS_TEST_EXPECT_MSG_EQ(r->inputs.at("K"), k, "K");
                NS_TEST_EXPECT_MSG_EQ(r->inputs.at("recommended"),
                                      (name == "sync-eq9" ? 1 : 0),
                                      "recommended without overlap");
            }
        }
        s.overlap = true;
        std::vector<TrainingResult> rs = backend->Run(TwoLayers(), s);
        NS_TEST_EXPECT_MSG_EQ(Find(rs, "sync-eq10")->inputs.at("recommended"), 1, "overlap");
    }
};

/**
 * \ingroup distributed-training
 * Async PS through the backend.
 *
 * Backend: async PS gives mva-fcfs, -ps, -hybrid, -hybrid-overlap and Cynthia with hand-worked
 * throughput for K = 1 and 2 (rho^FCFS above 0.6 picks PS).
 */
class BackendAsyncPsTestCase : public TestCase
{
  public:
    BackendAsyncPsTestCase()
        : TestCase("analytic backend, async PS, K = 1, 2, matches MVA FCFS, PS, hybrid and Cynthia")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<AnalyticBackend> backend = CreateObject<AnalyticBackend>();
        TrainingScenario s;
        s.mode = TrainingScenario::ASYNC;
        s.workers = 1;
        std::vector<TrainingResult> rs = backend->Run(TwoLayers(), s);
        NS_TEST_EXPECT_MSG_EQ((Variants(rs)
                               == std::set<std::string>{"mva-fcfs",
                                                        "mva-ps",
                                                        "mva-hybrid",
                                                        "mva-hybrid-overlap",
                                                        "cynthia",
                                                        "cynthia-halved"}),
                              true,
                              "variants");
        const double sd = M / B10; // S^D = S^U = M/B
        // K = 1: one step = T_F + T_B + 2 M/B + T_S; Eq. (6): compute hidden behind the
        // transfers (0.015 < M/B and 0.035 < M/B), step = 2 M/B + T_S.
        const double alone = 32 / (0.05 + 2 * sd + 0.005);
        for (const char* v : {"mva-fcfs", "mva-ps", "mva-hybrid"})
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, v)->throughput, alone, REL * alone, v);
        }
        const double hidden = 32 / (2 * sd + 0.005);
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "mva-hybrid-overlap")->throughput,
                                  hidden,
                                  REL * hidden,
                                  "Eq. (6), K = 1");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "mva-hybrid")->inputs.at("S_D_s"), sd, REL, "S^D");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "mva-hybrid")->inputs.at("rho_T"), 0.6, REL, "rho_T");
        // Cynthia, W = 1: 32 / (max(T_p, 2 T_C) + 2 T_C) with T_p = 0.05, T_C = M/B.
        const double cy = 32 / (std::max(0.05, 2 * sd) + 2 * sd);
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "cynthia")->throughput, cy, REL * cy, "Cynthia");

        // K = 2. Level 1: x1 = 1 / (0.05 + 2 M/B + 0.005).
        s.workers = 2;
        rs = backend->Run(TwoLayers(), s);
        const double x1 = 1 / (0.05 + 2 * sd + 0.005);
        const double ts = 0.005 * (1 + x1 * 0.005);
        const double tf = sd + sd * (x1 * sd - 0.5 * x1 * sd); // FCFS, Eq. (2)
        const double xf = 2 / (0.05 + 2 * tf + ts);
        const double tp = sd * (1 + x1 * sd); // PS, Eq. (1)
        const double xp = 2 / (0.05 + 2 * tp + ts);
        const double rhoF = xf * sd;
        NS_TEST_EXPECT_MSG_GT(rhoF, 0.6, "this example is above rho_T");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "mva-fcfs")->throughput, 32 * xf, REL * 32 * xf, "F");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "mva-ps")->throughput, 32 * xp, REL * 32 * xp, "PS");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "mva-hybrid")->throughput,
                                  32 * xp,
                                  REL * 32 * xp,
                                  "hybrid = PS");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "mva-hybrid")->inputs.at("rho_FCFS"), rhoF, REL, "rho");
        NS_TEST_EXPECT_MSG_EQ(Find(rs, "mva-hybrid")->inputs.at("link_ps"), 1, "PS chosen");
        NS_TEST_EXPECT_MSG_EQ(Find(rs, "mva-hybrid")->inputs.at("mva_exact"), 1, "exact MVA");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "mva-hybrid")->stepTimeMean, 1 / (xp / 2), REL, "step");

        // rho_T = 0.7 keeps FCFS.
        backend->SetAttribute("RhoThreshold", DoubleValue(0.7));
        rs = backend->Run(TwoLayers(), s);
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "mva-hybrid")->throughput,
                                  32 * xf,
                                  REL * 32 * xf,
                                  "hybrid = FCFS at rho_T = 0.7");
    }
};

/**
 * \ingroup distributed-training
 * Ring AllReduce through the backend.
 *
 * Backend: ring gives ring-eq11, stash, csf, osf, osf-adafusion (and osf-fusion with a bucket size)
 * with hand-worked step times for K = 4.
 */
class BackendRingTestCase : public TestCase
{
  public:
    BackendRingTestCase()
        : TestCase("analytic backend, ring, K = 4, matches Eq. (11), STASH, CSF, OSF and fusion")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<AnalyticBackend> backend = CreateObject<AnalyticBackend>();
        TrainingScenario s;
        s.architecture = TrainingScenario::RING_ALLREDUCE;
        s.workers = 4;
        std::vector<TrainingResult> rs = backend->Run(TwoLayers(), s);
        NS_TEST_EXPECT_MSG_EQ(
            (Variants(rs)
             == std::set<std::string>{"ring-eq11", "stash", "csf", "osf", "osf-adafusion"}),
            true,
            "variants without fusion");
        const double eq11 = 0.05 + 2 * 3 * M / (4 * B10);
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "ring-eq11")->stepTimeMean, eq11, REL, "Eq. (11)");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "ring-eq11")->throughput,
                                  4 * 32 / eq11,
                                  REL * 4 * 32 / eq11,
                                  "samples/s");
        NS_TEST_EXPECT_MSG_EQ(Find(rs, "ring-eq11")->inputs.at("recommended"), 1, "no overlap");
        // STASH: tau = 2 link delays = 20 us per hop, n - 1 = 3 hops.
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "stash")->stepTimeMean, eq11 + 3 * 20e-6, REL, "STASH");
        // Best n of T_n = T_1/n + (tau + 2M/(nB))(n-1), T_1 = 0.05, found by scanning here.
        uint32_t bestN = 1;
        double bestT = 1e300;
        for (uint32_t n = 1; n <= 5000; ++n)
        {
            double t = 0.05 / n + (20e-6 + 2 * M / (n * B10)) * (n - 1);
            if (t < bestT)
            {
                bestT = t;
                bestN = n;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(Find(rs, "stash")->inputs.at("stash_best_nodes"), bestN, "best n");
        // OSF: delta = 2 (N-1) x 20 us; t(D) = 2 x 3 / (4 B) D + delta.
        const double delta = 2 * 3 * 20e-6;
        auto t = [&](double d)
        {
            return 6 * d / (4 * B10) + delta;
        };
        const double osf = 0.05 + std::max(t(60e6), 0.020) + t(40e6) - 0.020;
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "osf")->stepTimeMean, osf, REL, "OSF step");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "osf")->inputs.at("OSF"), 0.05 / osf, REL, "OSF");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "osf")->inputs.at("SF"), 0.05 / osf, REL, "SF = OSF");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "ring-eq11")->inputs.at("SF"), 0.05 / eq11, REL, "SF");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "csf")->stepTimeMean, 0.05 + t(100e6), REL, "CSF");

        // A 1 MB bucket sends each layer alone (both exceed it): osf-fusion = osf; with
        // overlap on it is the recommended variant.
        s.bucketBytes = 1000000;
        s.overlap = true;
        rs = backend->Run(TwoLayers(), s);
        NS_TEST_ASSERT_MSG_NE(Find(rs, "osf-fusion"), nullptr, "osf-fusion with a bucket");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "osf-fusion")->stepTimeMean, osf, REL, "fusion");
        NS_TEST_EXPECT_MSG_EQ(Find(rs, "osf-fusion")->inputs.at("recommended"), 1, "overlap");
        // One unlimited bucket: the CSF step.
        s.bucketBytes = TrainingScenario::UNLIMITED_BUCKET;
        rs = backend->Run(TwoLayers(), s);
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "osf-fusion")->stepTimeMean,
                                  0.05 + t(100e6),
                                  REL,
                                  "one bucket");
        // Infinite inputs (Q, no timeout) become notes, not JSON nulls.
        const TrainingResult* f = Find(rs, "osf-fusion");
        NS_TEST_EXPECT_MSG_EQ(f->inputs.count("Q_bytes"), 0, "no infinite Q in inputs");
        NS_TEST_EXPECT_MSG_EQ(
            (std::find(f->notes.begin(), f->notes.end(), "Q_bytes is infinite") != f->notes.end()),
            true,
            "a note instead");
        for (const auto& r : rs)
        {
            for (const auto& [key, value] : r.inputs)
            {
                NS_TEST_EXPECT_MSG_EQ(std::isfinite(value), true, r.variant << " " << key);
            }
        }
    }
};

/**
 * \ingroup distributed-training
 * Heterogeneous workers, per-flow caps, multi-GPU nodes.
 *
 * Backend: sync waits for the slowest worker, async solves per-worker classes, a 10 Gbps flow cap
 * on 25 Gbps NICs limits one transfer, and G GPUs per node add an intra-node AllReduce and G
 * batches.
 */
class BackendClusterTestCase : public TestCase
{
  public:
    BackendClusterTestCase()
        : TestCase("analytic backend handles slow workers, flow caps and GPUs per node")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<AnalyticBackend> backend = CreateObject<AnalyticBackend>();
        const double sd = M / B10;
        TrainingScenario s;
        s.workers = 4;
        s.SetComputeScale("--computeScale", "1,1,1,2");
        std::vector<TrainingResult> rs = backend->Run(TwoLayers(), s);
        const double eq9 = 4 * sd + 0.1 + 5 * sd / 2 + 0.005;
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "sync-eq9")->stepTimeMean, eq9, REL, "slowest");

        // Async, workers with compute 0.05 s and 0.1 s, PS links (rho_T = 0).
        s.mode = TrainingScenario::ASYNC;
        s.workers = 2;
        s.SetComputeScale("--computeScale", "1,2");
        backend->SetAttribute("RhoThreshold", DoubleValue(0.0));
        rs = backend->Run(TwoLayers(), s);
        const double z1 = 0.05, z2 = 0.1, ss = 0.005;
        const double xa = 1 / (z1 + 2 * sd + ss);
        const double xb = 1 / (z2 + 2 * sd + ss);
        const double c1 = z1 + 2 * sd * (1 + xb * sd) + ss * (1 + xb * ss);
        const double c2 = z2 + 2 * sd * (1 + xa * sd) + ss * (1 + xa * ss);
        const double x = 32 * (1 / c1 + 1 / c2);
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(rs, "mva-hybrid")->throughput, x, REL * x, "2 classes");

        // 25 Gbps NICs, 10 Gbps per flow: one transfer M / B10, K transfers K M / B25. ns-3.37
        // paces payload bytes, so a capped flow's goodput is the cap itself: B10 = 10e9 / 8.
        const double b25 = 25e9 / 8 * 1448 / 1502;
        const double capB10 = 10e9 / 8;
        TrainingScenario c;
        c.nicRate = DataRate("25Gbps");
        c.flowCap = DataRate("10Gbps");
        for (uint32_t k : {1u, 2u, 4u})
        {
            c.workers = k;
            rs = backend->Run(TwoLayers(), c);
            const TrainingResult* r = Find(rs, "sync-eq7");
            NS_TEST_EXPECT_MSG_EQ_TOL(r->inputs.at("B_bytes_per_s"), capB10, REL * capB10, "B");
            NS_TEST_EXPECT_MSG_EQ_TOL(r->inputs.at("B_link_bytes_per_s"), b25, REL * b25, "B_l");
            const double drain = std::max(k * M / b25, M / capB10);
            NS_TEST_EXPECT_MSG_EQ_TOL(r->stepTimeMean, 2 * drain + 0.055, REL, "K = " << k);
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(M / capB10,
                                  std::max(2 * M / b25, M / capB10),
                                  REL,
                                  "Fig. 23 shape");

        // 8 GPUs per node, 300 Gbps and 5 us inside: 2 x 7/8 x M / 37.5 GB/s + 14 x 5 us.
        TrainingScenario g;
        g.architecture = TrainingScenario::RING_ALLREDUCE;
        g.workers = 4;
        g.gpusPerNode = 8;
        rs = backend->Run(TwoLayers(), g);
        const double intra = 2.0 * 7 / 8 * M / (300e9 / 8) + 14 * 5e-6;
        const double eq11 = 0.05 + 6 * M / (4 * B10) + intra;
        const TrainingResult* r = Find(rs, "ring-eq11");
        NS_TEST_EXPECT_MSG_EQ_TOL(r->inputs.at("T_intra_s"), intra, REL, "T_intra");
        NS_TEST_EXPECT_MSG_EQ_TOL(r->throughput,
                                  4 * 8 * 32 / eq11,
                                  REL * 4 * 8 * 32 / eq11,
                                  "G batches");
    }
};

/**
 * \ingroup distributed-training
 * Attributes: exact/approximate switch, trace source.
 *
 * Backend: exact MVA up to 2^ExactMvaMaxWorkers populations then approximate, MvaMethod forces
 * either, and the Result trace fires per result.
 */
class BackendAttributesTestCase : public TestCase
{
  public:
    BackendAttributesTestCase()
        : TestCase("analytic backend picks exact or approximate MVA and fires the Result trace")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<AnalyticBackend> backend = CreateObject<AnalyticBackend>();
        TrainingScenario s;
        s.mode = TrainingScenario::ASYNC;
        s.workers = 4;
        s.SetComputeScale("--computeScale", "1,1.5,2,2.5"); // 4 classes: 16 populations
        backend->SetAttribute("ExactMvaMaxWorkers", UintegerValue(4));
        NS_TEST_EXPECT_MSG_EQ(Find(backend->Run(TwoLayers(), s), "mva-ps")->inputs.at("mva_exact"),
                              1,
                              "16 <= 2^4: exact");
        backend->SetAttribute("ExactMvaMaxWorkers", UintegerValue(3));
        std::vector<TrainingResult> rs = backend->Run(TwoLayers(), s);
        NS_TEST_EXPECT_MSG_EQ(Find(rs, "mva-ps")->inputs.at("mva_exact"), 0, "16 > 2^3");
        NS_TEST_EXPECT_MSG_EQ(Find(rs, "mva-ps")->notes.empty(), false, "a note says so");
        // Homogeneous: 101 populations for 100 workers, exact by default.
        backend->SetAttribute("ExactMvaMaxWorkers", UintegerValue(16));
        s.computeScale.clear();
        s.workers = 100;
        NS_TEST_EXPECT_MSG_EQ(Find(backend->Run(TwoLayers(), s), "mva-ps")->inputs.at("mva_exact"),
                              1,
                              "homogeneous exact");
        backend->SetAttribute("MvaMethod", EnumValue(AnalyticBackend::MVA_APPROXIMATE));
        NS_TEST_EXPECT_MSG_EQ(Find(backend->Run(TwoLayers(), s), "mva-ps")->inputs.at("mva_exact"),
                              0,
                              "forced approximate");

        uint32_t fired = 0;
        backend->TraceConnectWithoutContext("Result", MakeBoundCallback(&CountResult, &fired));
        rs = backend->Run(TwoLayers(), s);
        NS_TEST_EXPECT_MSG_EQ(fired, rs.size(), "one trace per result");
    }
};

/**
 * \ingroup distributed-training
 * Large clusters stay fast.
 *
 * Backend: 100000 workers (homogeneous, two scales; ring) and 20000 distinct workers finish in well
 * under a second with finite results.
 */
class BackendScaleTestCase : public TestCase
{
  public:
    BackendScaleTestCase()
        : TestCase("analytic backend solves 100000 workers and 20000 distinct workers quickly")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<AnalyticBackend> backend = CreateObject<AnalyticBackend>();
        TrainingScenario s;
        s.mode = TrainingScenario::ASYNC;
        s.workers = 100000;
        auto start = std::chrono::steady_clock::now();
        for (const std::string scale : {"1", "1x50000,2x50000", ""})
        {
            if (scale.empty())
            {
                // 20000 distinct workers: 20000 classes in the approximate MVA.
                s.workers = 20000;
                s.computeScale.clear();
                for (uint32_t w = 0; w < s.workers; ++w)
                {
                    s.computeScale.push_back(1 + w * 1e-5);
                }
            }
            else
            {
                s.SetComputeScale("--computeScale", scale);
            }
            for (const auto& r : backend->Run(TwoLayers(), s))
            {
                NS_TEST_EXPECT_MSG_EQ(std::isfinite(r.throughput) && r.throughput > 0,
                                      true,
                                      r.variant << " with scales " << scale);
            }
        }
        s.architecture = TrainingScenario::RING_ALLREDUCE;
        s.mode = TrainingScenario::SYNC;
        s.workers = 100000;
        s.computeScale.clear();
        for (const auto& r : backend->Run(TwoLayers(), s))
        {
            NS_TEST_EXPECT_MSG_EQ(std::isfinite(r.throughput) && r.throughput > 0, true, "ring");
        }
        double seconds
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        NS_TEST_EXPECT_MSG_LT(seconds, 1.0, "time for four runs");
    }
};

/**
 * \ingroup distributed-training
 * Bad input to the backend.
 *
 * Backend: K = 0, zero NIC rate, async ring, rho_T outside [0, 1], unknown attributes and too many
 * distinct workers for exact MVA give clear TrainingInputErrors.
 */
class BackendBadInputTestCase : public TestCase
{
  public:
    BackendBadInputTestCase()
        : TestCase("analytic backend rejects bad scenarios with a TrainingInputError")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<AnalyticBackend> backend = CreateObject<AnalyticBackend>();
        TrainingScenario s;
        s.workers = 0;
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      backend->Run(TwoLayers(), s);
                                  },
                                  {"--workers", "0 workers"}),
                              true,
                              "K = 0");
        s.workers = 2;
        s.nicRate = DataRate(0);
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      backend->Run(TwoLayers(), s);
                                  },
                                  {"--nicRate"}),
                              true,
                              "zero bandwidth");
        s.nicRate = DataRate("10Gbps");
        s.architecture = TrainingScenario::RING_ALLREDUCE;
        s.mode = TrainingScenario::ASYNC;
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      backend->Run(TwoLayers(), s);
                                  },
                                  {"--mode"}),
                              true,
                              "async ring");

        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      backend->SetAttributeChecked("RhoThreshold", "1.5");
                                  },
                                  {"RhoThreshold", "1.5", "0:1"}),
                              true,
                              "rho_T = 1.5");
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      backend->SetAttributeChecked("RhoThreshold", "-0.1");
                                  },
                                  {"RhoThreshold"}),
                              true,
                              "rho_T = -0.1");
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      backend->SetAttributeChecked("RhoThreshold", "abc");
                                  },
                                  {"abc"}),
                              true,
                              "rho_T not a number");
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      backend->SetAttributeChecked("Rho", "0.5");
                                  },
                                  {"unknown attribute", "RhoThreshold"}),
                              true,
                              "unknown attribute");
        const std::vector<std::pair<std::string, std::string>> bad
            = {{"MvaMethod", "Foo"},
               {"ExactMvaMaxWorkers", "21"},
               {"ExactMvaMaxWorkers", "-3"},
               {"ExactMvaMaxWorkers", "x"},
               {"AllReduceOverhead", "5 parsecs"},
               {"PiecewiseA2", "1e400"}};
        for (const auto& entry : bad)
        {
            // Named references, not a structured binding: C++17 lambdas cannot capture those
            // (clang refuses; g++ accepts it as an extension).
            const std::string& name = entry.first;
            const std::string& value = entry.second;
            NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                      [&]
                                      {
                                          backend->SetAttributeChecked(name, value);
                                      },
                                      {name, value, "expected"}),
                                  true,
                                  name << " = " << value);
        }
        backend->SetAttributeChecked("MvaMethod", "Exact");
        backend->SetAttributeChecked("AllReduceOverhead", "5us");
        backend->SetAttributeChecked("ExactMvaMaxWorkers", "12");
        DtEnumValue<AnalyticBackend::MvaMethod> method;
        backend->GetAttribute("MvaMethod", method);
        NS_TEST_EXPECT_MSG_EQ(method.Get(), AnalyticBackend::MVA_EXACT, "enum by name");
        UintegerValue maxWorkers;
        backend->GetAttribute("ExactMvaMaxWorkers", maxWorkers);
        NS_TEST_EXPECT_MSG_EQ(maxWorkers.Get(), 12u, "integer");
        NS_TEST_EXPECT_MSG_EQ(backend->SetAttributeFailSafe("RhoThreshold", DoubleValue(2.0)),
                              false,
                              "the checker refuses 2.0");
        DoubleValue rho;
        backend->GetAttribute("RhoThreshold", rho);
        NS_TEST_EXPECT_MSG_EQ_TOL(rho.Get(), 0.6, REL, "default kept");
        backend->SetAttributeChecked("RhoThreshold", "0.5");
        backend->GetAttribute("RhoThreshold", rho);
        NS_TEST_EXPECT_MSG_EQ_TOL(rho.Get(), 0.5, REL, "accepted value set");

        // 21 distinct workers is 2^21 populations: forced exact MVA refuses it.
        TrainingScenario a;
        a.mode = TrainingScenario::ASYNC;
        a.workers = 21;
        for (uint32_t w = 0; w < 21; ++w)
        {
            a.computeScale.push_back(1 + 0.1 * w);
        }
        backend->SetAttribute("MvaMethod", EnumValue(AnalyticBackend::MVA_EXACT));
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]
                                  {
                                      backend->Run(TwoLayers(), a);
                                  },
                                  {"exact MVA", "2097152"}),
                              true,
                              "lattice too large");
    }
};

/**
 * \ingroup distributed-training
 * The analytical backend.
 */
class AnalyticBackendTestSuite : public TestSuite
{
  public:
    AnalyticBackendTestSuite()
        : TestSuite("distributed-training-analytic-backend", Type::UNIT)
    {
        AddTestCase(new BackendSyncPsTestCase, DT_TEST_QUICK);
        AddTestCase(new BackendAsyncPsTestCase, DT_TEST_QUICK);
        AddTestCase(new BackendRingTestCase, DT_TEST_QUICK);
        AddTestCase(new BackendClusterTestCase, DT_TEST_QUICK);
        AddTestCase(new BackendAttributesTestCase, DT_TEST_QUICK);
        AddTestCase(new BackendScaleTestCase, DT_TEST_QUICK);
        AddTestCase(new BackendBadInputTestCase, DT_TEST_QUICK);
    }
};

/// Static instance: registers the suite.
static AnalyticBackendTestSuite g_analyticBackendTestSuite;

} // namespace

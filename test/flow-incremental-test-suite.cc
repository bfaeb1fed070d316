/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The flow backend's incremental rate computation: rate classes (flow-rate-class.h) integrate a
 * piecewise-constant rate exactly, plain max-min models get one aggregate per set of identical
 * flows, and that gives the same results as handing the sharing model every flow.
 */

#include "training-test-utils.h"

#include "ns3/capped-sharing.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/fcfs-sharing.h"
#include "ns3/flow-level-simulator.h"
#include "ns3/flow-rate-class.h"
#include "ns3/ps-sharing.h"
#include "ns3/test.h"
#include "ns3/training-scenario.h"

#include <cmath>
#include <map>
#include <sstream>
#include <utility>

using namespace ns3;

namespace
{

/**
 * A rate class with rate 10 B/s on [0, 1), 0 on [1, 2) and 20 B/s from 2 on: by hand,
 * V(0.5) = 5, V(1.5) = 10, V(2.5) = 20; V reaches 15 at 2 + 5/20 = 2.25 and 10 at 1 (the flat
 * piece does not delay it); service that waits at 1.2 starts at 2.
 *
 * Rate class: the virtual bytes of rates 10, 0, 20 bytes per s over [0,1), [1,2), [2,..) and the
 * times they reach 10 and 15 bytes, as worked by hand.
 */
class RateClassIntegralTestCase : public TestCase
{
  public:
    RateClassIntegralTestCase()
        : TestCase("rate class virtual bytes and target times match by hand")
    {
    }

  private:
    void DoRun() override
    {
        flow::RateClass k;
        k.Reset(0, 10);
        k.SetRate(1, 0);
        k.SetRate(2, 20);
        NS_TEST_ASSERT_MSG_EQ(k.GetHistoryLength(), 3, "one piece per rate change");
        NS_TEST_ASSERT_MSG_EQ_TOL(k.VirtualAt(0.5), 5.0, 1e-12, "first piece");
        NS_TEST_ASSERT_MSG_EQ_TOL(k.VirtualAt(1.5), 10.0, 1e-12, "flat piece");
        NS_TEST_ASSERT_MSG_EQ_TOL(k.VirtualAt(2.5), 20.0, 1e-12, "last piece");
        NS_TEST_ASSERT_MSG_EQ_TOL(k.TimeAt(15, 0), 2.25, 1e-12, "crossing in the last piece");
        NS_TEST_ASSERT_MSG_EQ_TOL(k.TimeAt(10, 0), 1.0, 1e-12, "reached before the flat piece");
        NS_TEST_ASSERT_MSG_EQ_TOL(k.TimeAt(10, 1.5), 1.5, 1e-12, "already reached: from");
        std::size_t piece = 1;
        NS_TEST_ASSERT_MSG_EQ_TOL(k.ServiceStart(1.2, piece), 2.0, 1e-12, "waits for rate");
        NS_TEST_ASSERT_MSG_EQ(piece, 2, "the piece of the answer");
        NS_TEST_ASSERT_MSG_EQ(k.SetRate(3, 20), false, "unchanged rate: no new piece");
        k.SetRate(3, 0);
        NS_TEST_ASSERT_MSG_EQ(k.TimeAt(100, 3), flow::INF, "rate 0 now: never");
        flow::RateClass::Drain d{30.0 + 1e-7, 1e-6, 0, 0, 0, 0};
        NS_TEST_ASSERT_MSG_EQ_TOL(k.DrainTime(d), 3.0, 1e-6, "within rounding: when it stopped");
    }
};

/**
 * A history of 1,000 pieces with rates 1, 2, ..., 1000 B/s on unit intervals: V(n) = n(n+1)/2.
 * A target of n(n+1)/2 + m (0 < m < n + 1) is reached at n + m / (n + 1). The galloping search
 * from any earlier piece gives that time.
 *
 * Rate class: over 1,000 pieces of rates 1..1000 bytes per s, every target V(n) + m is reached at n
 * + m over (n+1) from any starting piece.
 */
class RateClassLongHistoryTestCase : public TestCase
{
  public:
    RateClassLongHistoryTestCase()
        : TestCase("rate class reaches every target over a 1000-piece history")
    {
    }

  private:
    void DoRun() override
    {
        flow::RateClass k;
        k.Reset(0, 1);
        for (int n = 1; n < 1000; ++n)
        {
            k.SetRate(n, n + 1);
        }
        for (int n = 0; n < 1000; n += 37)
        {
            const double target = n * (n + 1) / 2.0 + 0.5 * (n + 1);
            for (int from : {0, n / 2, n})
            {
                std::size_t piece = static_cast<std::size_t>(from);
                const double t = k.TimeAt(target, from, piece);
                NS_TEST_ASSERT_MSG_EQ_TOL(t, n + 0.5, 1e-9 * n + 1e-12, "target " << target);
                NS_TEST_ASSERT_MSG_EQ(piece, static_cast<std::size_t>(n), "piece of the answer");
            }
        }
    }
};

/// CappedSharing without its IsPlainMaxMin: the engine hands it every flow (with the window
/// model, each with its own window cap).
class PerFlowCappedSharing : public CappedSharing
{
  public:
    bool IsPlainMaxMin(bool& /* honoursCaps */) const override
    {
        return false;
    }
};

/// FcfsSharing without its IsFirstComeFirstServed: the engine hands it every flow.
class PerFlowFcfsSharing : public FcfsSharing
{
  public:
    bool IsFirstComeFirstServed() const override
    {
        return false;
    }
};

/**
 * \param s the scenario
 * \param p the profile
 * \param sharing the sharing model
 * \param sharingFlows if not null: flows handed to the sharing model (out)
 * \param computations with sharingFlows: rate computations (out)
 * \param options run options (the window model)
 * \return the result
 */
TrainingResult
RunFlow(const TrainingScenario& s,
        const TrainingProfile& p,
        Ptr<const SharingModel> sharing,
        uint64_t* sharingFlows = nullptr,
        uint64_t* computations = nullptr,
        const FlowLevelSimulator::Options& options = FlowLevelSimulator::Options())
{
    s.Validate(p);
    FlowLevelSimulator sim(p, s, sharing, options);
    TrainingResult r = sim.Run();
    if (sharingFlows)
    {
        *sharingFlows = sim.GetSharingFlows();
        *computations = sim.GetRateComputations();
    }
    return r;
}

/**
 * \return a profile of 4 layers (1, 4, 2, 8 MB) with compute and per-step samples, so that
 * async workers drift apart and flows come and go at different times
 */
TrainingProfile
DriftingProfile()
{
    return tests::MakeProfile({1000000, 4000000, 2000000, 8000000},
                              300,
                              600,
                              50,
                              {0.6, 1.0, 1.7, 0.9, 1.3});
}

/**
 * \return the window model with 64 KiB windows, a 100 us round trip and 1.5 MB (host) and
 *         150 kB (switch) buffers: a connection sends at most 655 MB/s on the empty path, less
 *         behind the other direction's standing queue, so the caps bind (at 10 Gb/s, about
 *         1.2 GB/s) while few connections share a link
 */
FlowLevelSimulator::Options
WindowOptions()
{
    FlowLevelSimulator::Options o;
    o.windowBytes = 65536;
    o.baseRtt = 100e-6;
    o.hostBufferBytes = 1.5e6;
    o.switchBufferBytes = 1.5e5;
    return o;
}

/**
 * \param a a result
 * \param b the reference
 * \param tol relative tolerance (0: bit for bit)
 * \return "" if a has b's throughput and step ends (by worker and step: workers that end at
 *         one instant may be recorded in another order) within tol, else the first difference
 */
std::string
FirstDifference(const TrainingResult& a, const TrainingResult& b, double tol)
{
    std::ostringstream out;
    out.precision(17);
    if (std::abs(a.throughput - b.throughput) > tol * b.throughput)
    {
        out << "throughput " << a.throughput << " vs " << b.throughput;
        return out.str();
    }
    std::map<std::pair<uint32_t, uint32_t>, double> ends;
    for (const auto& st : b.steps)
    {
        ends[{st.worker, st.step}] = st.end;
    }
    if (a.steps.size() != ends.size())
    {
        return "step records: " + std::to_string(a.steps.size()) + " vs "
               + std::to_string(ends.size());
    }
    for (const auto& st : a.steps)
    {
        const double ref = ends[{st.worker, st.step}];
        if (std::abs(st.end - ref) > tol * ref)
        {
            out << "worker " << st.worker << " step " << st.step << " ends " << st.end << " vs "
                << ref;
            return out.str();
        }
    }
    return "";
}

/**
 * \param c 0: star, async, K = 24, P = servers; 1: 2:1 leaf-spine, sync, K = 12, P = servers + 1,
 *          spread; 2: k = 4 fat-tree, async, K = 12, P = servers + 1, random, overlap, WIN 1 MB
 * \param servers servers of case 0
 * \return the scenario
 */
TrainingScenario
FabricCase(int c, uint32_t servers)
{
    TrainingScenario s;
    s.steps = 6;
    s.warmup = 1;
    s.workers = c == 0 ? 24 : 12;
    s.servers = c == 0 ? servers : servers + 1;
    s.mode = c == 1 ? TrainingScenario::SYNC : TrainingScenario::ASYNC;
    if (c == 1)
    {
        s.topology = "leafspine";
        s.leaves = 4;
        s.spines = 2;
        s.hostsPerLeaf = 4;
        s.uplinkRate = DataRate("5Gbps");
        s.placement = "spread";
    }
    else if (c == 2)
    {
        s.topology = "fattree";
        s.fatTreeK = 4;
        s.placement = "random";
        s.overlap = true;
        s.windowBytes = 1000000;
    }
    return s;
}

/**
 * A fast path of the engine against its reference (the same sharing rule handed every active
 * flow) on the star, a 2:1 leaf-spine (sync) and a k = 4 fat-tree (async, random placement,
 * overlap, WIN splits): the same step ends and throughput within `tolerance` (0: bit for bit).
 *  - FCFS served queue by queue (flow-ps-fcfs.cc: a server's queue stops at its full link),
 *    P = 1 and 2 on the star (2 and 3 on the fabrics): bit for bit.
 *  - PS with several servers by bundle classes (flow-ps-bundles.cc: a worker's connections that
 *    share its NIC, aggregated over workers whose bundles look the same), P = 2 on the star and
 *    3 on the fabrics: within 1e-9, not bit for bit: n bundles are one aggregate of weight n on
 *    a virtual link of n times the capacity, whose fair share n C / (n m) may round differently
 *    from C / m.
 */
class FastPathMatchesReferenceTestCase : public TestCase
{
  public:
    /**
     * \param name what the case proves
     * \param fast the model as the engine runs it
     * \param reference the same model handed every flow
     * \param servers the numbers of servers to try
     * \param tolerance largest relative difference
     * \param options run options (with the window model, the run must differ from one without)
     */
    FastPathMatchesReferenceTestCase(const std::string& name,
                                     Ptr<const SharingModel> fast,
                                     Ptr<const SharingModel> reference,
                                     std::vector<uint32_t> servers,
                                     double tolerance,
                                     const FlowLevelSimulator::Options& options
                                     = FlowLevelSimulator::Options())
        : TestCase(name),
          m_fast(fast),
          m_reference(reference),
          m_servers(std::move(servers)),
          m_tolerance(tolerance),
          m_options(options)
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = DriftingProfile();
        for (int c = 0; c < 3; ++c)
        {
            for (uint32_t servers : m_servers)
            {
                const TrainingScenario s = FabricCase(c, servers);
                const TrainingResult fast = RunFlow(s, p, m_fast, nullptr, nullptr, m_options);
                const std::string d
                    = FirstDifference(fast,
                                      RunFlow(s, p, m_reference, nullptr, nullptr, m_options),
                                      m_tolerance);
                NS_TEST_ASSERT_MSG_EQ(d, "", "case " << c << ", P = " << s.servers);
                // (Sync on the leaf-spine, 12 connections share each server link at once: there
                // the caps do not bind, and the case checks the classes' per-server keys.)
                if (m_options.windowBytes > 0 && c != 1)
                {
                    NS_TEST_ASSERT_MSG_NE(FirstDifference(fast, RunFlow(s, p, m_fast), 1e-6),
                                          "",
                                          "the window caps bind: case " << c);
                }
            }
        }
    }

    Ptr<const SharingModel> m_fast;        //!< the model as the engine runs it
    Ptr<const SharingModel> m_reference;   //!< handed every flow
    std::vector<uint32_t> m_servers;       //!< numbers of servers to try
    double m_tolerance;                    //!< largest relative difference
    FlowLevelSimulator::Options m_options; //!< run options
};

/**
 * The cost of a rate computation on the star, async, K = 50 and 400 (4 drifting layers, 4
 * steps): flows (or aggregates) handed to the sharing rule per computation stay at most `bound`,
 * where the reference, which hands it every active connection, gets more than 100 at K = 400.
 * PS, one server: every worker's connection crosses the server's link and its own NIC, which it
 * has alone, so the connections of a direction form at most 2 classes (with and without a cap).
 * FCFS, one server: one connection at a time has the server's link, so a computation serves the
 * head of the queue and stops. PS, two servers: a worker's bundle is one of {server 0}, {server 1}
 * or both, so the classes of a direction are a handful (measured: 2.13 and 2.22 aggregates per
 * computation at K = 50 and 400).
 */
class FlowsPerComputationTestCase : public TestCase
{
  public:
    /**
     * \param name the test's name
     * \param fast the model as the engine runs it
     * \param reference the same model handed every flow
     * \param servers parameter servers
     * \param bound most flows per computation
     * \param options run options (the window model)
     */
    FlowsPerComputationTestCase(const std::string& name,
                                Ptr<const SharingModel> fast,
                                Ptr<const SharingModel> reference,
                                uint32_t servers,
                                double bound,
                                const FlowLevelSimulator::Options& options
                                = FlowLevelSimulator::Options())
        : TestCase(name),
          m_fast(fast),
          m_reference(reference),
          m_servers(servers),
          m_bound(bound),
          m_options(options)
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = DriftingProfile();
        for (uint32_t k : {50U, 400U})
        {
            TrainingScenario s;
            s.workers = k;
            s.servers = m_servers;
            s.steps = 4;
            s.warmup = 1;
            s.mode = TrainingScenario::ASYNC;
            uint64_t flows = 0;
            uint64_t computations = 0;
            RunFlow(s, p, m_fast, &flows, &computations, m_options);
            NS_TEST_ASSERT_MSG_GT(computations, k, "rates were computed as flows came and went");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(flows, m_bound * computations, "K = " << k);
            if (k == 400)
            {
                RunFlow(s, p, m_reference, &flows, &computations, m_options);
                NS_TEST_ASSERT_MSG_GT(flows, 100 * computations, "the reference sees every flow");
            }
        }
    }

    Ptr<const SharingModel> m_fast;        //!< the model as the engine runs it
    Ptr<const SharingModel> m_reference;   //!< handed every flow
    uint32_t m_servers;                    //!< parameter servers
    double m_bound;                        //!< most flows per computation
    FlowLevelSimulator::Options m_options; //!< run options
};

/**
 * Rate classes for PS (one aggregate per set of flows that share the same links with the same
 * cap) against the reference (every flow handed to the same max-min): the same step times and
 * throughput within 1e-9 on a star (async, K = 24), a 2:1 leaf-spine (sync, P = 2, spread) and a
 * k = 4 fat-tree (async, random placement, overlap).
 *
 * Flow: PS by rate classes (one aggregate per set of identical flows) gives the step times of PS
 * over every flow within 1e-9 (star, 2:1 leaf-spine, fat-tree).
 */
class AggregatesMatchPerFlowTestCase : public TestCase
{
  public:
    AggregatesMatchPerFlowTestCase()
        : TestCase("flow PS by rate classes matches PS over every flow within 1e-9")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = DriftingProfile();
        for (int c = 0; c < 3; ++c)
        {
            TrainingScenario s = FabricCase(c, 1);
            if (c == 2)
            {
                s.servers = 1; // one server and no WIN splits: plain rate classes, no bundles
                s.windowBytes = 0;
            }
            const TrainingResult a = RunFlow(s, p, CreateObject<PsSharing>());
            const TrainingResult b = RunFlow(s, p, CreateObject<tests::PerFlowPsSharing>());
            NS_TEST_ASSERT_MSG_EQ_TOL(a.throughput,
                                      b.throughput,
                                      1e-9 * b.throughput,
                                      "case " << c);
            // Step records by (worker, step): workers that end at one instant may be recorded
            // in another order.
            std::map<std::pair<uint32_t, uint32_t>, double> ends;
            for (const auto& st : b.steps)
            {
                ends[{st.worker, st.step}] = st.end;
            }
            NS_TEST_ASSERT_MSG_EQ(a.steps.size(), ends.size(), "case " << c);
            for (const auto& st : a.steps)
            {
                const double ref = ends[{st.worker, st.step}];
                NS_TEST_ASSERT_MSG_EQ_TOL(st.end,
                                          ref,
                                          1e-9 * ref,
                                          "case " << c << " worker " << st.worker << " step "
                                                  << st.step);
            }
        }
    }
};

/**
 * Async PS on the star, K = 50, 400 and 2000 (4 drifting layers, 4 steps): every event is
 * O(1) engine work. Per event, the rate classes scanned (next check, drained classes) plus the
 * members advanced by rebases (FlowLevelSimulator::GetClassWork) stay below 4 (measured: 1.13,
 * 0.59, 0.20), never more than 10 % above K = 50's; events per worker and step likewise (2.97,
 * 2.37, 2.11). Counted work, not wall time: a scan or a rebase over all K connections per event
 * would multiply it by up to 40.
 *
 * Flow: async PS on the star does O(1) engine work per event: class scans and rebased members per
 * event below 4 at K = 50, 400, 2000, not growing with K.
 */
class EngineWorkPerEventTestCase : public TestCase
{
  public:
    EngineWorkPerEventTestCase()
        : TestCase("flow async PS engine work per event stays below 4 at K up to 2000")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = DriftingProfile();
        double firstWork = 0;
        double firstEvents = 0;
        for (uint32_t k : {50U, 400U, 2000U})
        {
            TrainingScenario s;
            s.workers = k;
            s.steps = 4;
            s.warmup = 1;
            s.mode = TrainingScenario::ASYNC;
            s.Validate(p);
            FlowLevelSimulator sim(p, s, CreateObject<PsSharing>(), FlowLevelSimulator::Options());
            sim.Run();
            const double events = static_cast<double>(sim.GetEventCount());
            const double work = static_cast<double>(sim.GetClassWork()) / events;
            const double perWorkerStep = events / (k * s.steps);
            NS_TEST_ASSERT_MSG_GT(work, 0.1, "K = " << k << ": the classes were scanned");
            NS_TEST_ASSERT_MSG_LT(work, 4.0, "K = " << k << ": class work per event");
            if (k == 50)
            {
                firstWork = work;
                firstEvents = perWorkerStep;
                continue;
            }
            NS_TEST_ASSERT_MSG_LT_OR_EQ(work, 1.1 * firstWork, "K = " << k << ": grew with K");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(perWorkerStep,
                                        1.1 * firstEvents,
                                        "K = " << k << ": events per worker and step grew");
        }
    }
};

/// The suite.
class FlowIncrementalTestSuite : public TestSuite
{
  public:
    FlowIncrementalTestSuite()
        : TestSuite("distributed-training-flow-incremental", Type::UNIT)
    {
        AddTestCase(new RateClassIntegralTestCase, DT_TEST_QUICK);
        AddTestCase(new RateClassLongHistoryTestCase, DT_TEST_QUICK);
        AddTestCase(new AggregatesMatchPerFlowTestCase, DT_TEST_QUICK);
        // Async PS on the star hands the sharing model at most 2 aggregates per rate computation at
        // K = 50 and 400 (the per-flow reference: more than 100 at 400).
        AddTestCase(new FlowsPerComputationTestCase(
                        "flow async PS, at most 2 aggregates per rate computation, K = 50 and 400",
                        CreateObject<PsSharing>(),
                        CreateObject<tests::PerFlowPsSharing>(),
                        1,
                        2),
                    DT_TEST_QUICK);
        AddTestCase(new EngineWorkPerEventTestCase, DT_TEST_QUICK);
        // FCFS served queue by queue gives bit for bit the step times of FcfsSharing over every
        // flow (star P = 1, 2; leaf-spine; fat-tree).
        AddTestCase(new FastPathMatchesReferenceTestCase(
                        "flow FCFS queue by queue equals FcfsSharing over every flow bit for bit",
                        CreateObject<FcfsSharing>(),
                        CreateObject<PerFlowFcfsSharing>(),
                        {1, 2},
                        0),
                    DT_TEST_QUICK);
        // PS with 2 or 3 servers by bundle classes gives the step times of PS over every flow
        // within 1e-9 (star, leaf-spine, fat-tree).
        AddTestCase(new FastPathMatchesReferenceTestCase(
                        "flow PS with several servers by bundle classes matches PS over every flow",
                        CreateObject<PsSharing>(),
                        CreateObject<tests::PerFlowPsSharing>(),
                        {2},
                        1e-9),
                    DT_TEST_QUICK);
        // Async FCFS on the star serves at most 2 flows per rate computation at K = 50 and 400 (the
        // per-flow reference: more than 100 at 400).
        AddTestCase(new FlowsPerComputationTestCase(
                        "flow async FCFS, at most 2 flows per rate computation, K = 50 and 400",
                        CreateObject<FcfsSharing>(),
                        CreateObject<PerFlowFcfsSharing>(),
                        1,
                        2),
                    DT_TEST_QUICK);
        // Async PS with 2 servers on the star hands the sharing model at most 6 aggregates per rate
        // computation at K = 50 and 400 (reference: more than 100 at 400).
        AddTestCase(new FlowsPerComputationTestCase(
                        "flow async PS, 2 servers, at most 6 aggregates per rate computation",
                        CreateObject<PsSharing>(),
                        CreateObject<tests::PerFlowPsSharing>(),
                        2,
                        6),
                    DT_TEST_QUICK);
        // PS with the window model by rate classes (the window cap of a direction and server taken
        // per class) gives the step times of capped PS over every flow within 1e-9 (star P = 1, 2;
        // leaf-spine; fat-tree).
        AddTestCase(new FastPathMatchesReferenceTestCase(
                        "flow PS window model by rate classes matches capped PS over every flow",
                        CreateObject<CappedSharing>(),
                        CreateObject<PerFlowCappedSharing>(),
                        {1, 2},
                        1e-9,
                        WindowOptions()),
                    DT_TEST_QUICK);
        // Async PS with the window model on the star hands the sharing model at most 2 aggregates
        // per rate computation at K = 50 and 400 (reference: more than 100 at 400).
        AddTestCase(new FlowsPerComputationTestCase(
                        "flow async PS window model, at most 2 aggregates per rate computation",
                        CreateObject<CappedSharing>(),
                        CreateObject<PerFlowCappedSharing>(),
                        1,
                        2,
                        WindowOptions()),
                    DT_TEST_QUICK);
    }
};

FlowIncrementalTestSuite g_flowIncrementalTestSuite; //!< the suite instance

} // namespace

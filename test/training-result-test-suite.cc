/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * TrainingResult::Finalize, the one definition of measured throughput: the async estimator on
 * hand-made step records (heterogeneous workers, short runs, too-short runs) and end to end
 * through the flow backend.
 */

#include "training-test-utils.h"

#include "ns3/analytic-backend.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/flow-backend.h"
#include "ns3/record-stream.h"
#include "ns3/test.h"
#include "ns3/training-input-error.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \param k workers
 * \param periods per worker: its step time (s); every step of worker i takes periods[i]
 * \param n steps per worker
 * \param offset start of step 0 of every worker
 * \return records of back-to-back async steps
 */
std::vector<TrainingResult::StepRecord>
BackToBack(const std::vector<double>& periods, uint32_t n, double offset = 0)
{
    std::vector<TrainingResult::StepRecord> r;
    for (uint32_t w = 0; w < periods.size(); ++w)
    {
        for (uint32_t s = 0; s < n; ++s)
        {
            r.push_back({w, s, offset + s * periods[w], offset + (s + 1) * periods[w]});
        }
    }
    return r;
}

/// An async scenario of K workers, N steps, w warm-up steps.
TrainingScenario
Async(uint32_t k, uint32_t n, uint32_t w)
{
    TrainingScenario s;
    s.mode = TrainingScenario::ASYNC;
    s.workers = k;
    s.steps = n;
    s.warmup = w;
    return s;
}

/**
 * \ingroup distributed-training
 * Heterogeneous workers: the throughput is the sum of the workers' own rates, not the steps that
 * happen to end inside a common window.
 */
class AsyncHeterogeneousRatesTestCase : public TestCase
{
  public:
    AsyncHeterogeneousRatesTestCase()
        : TestCase("async throughput of workers with 1 s and 2 s steps is batch x 1.5 per s")
    {
    }

  private:
    void DoRun() override
    {
        // Worker 0 ends steps at 1..5 s, worker 1 at 2, 4, .. 10 s; 5 steps, 1 warm-up. The
        // first worker finishes at T_A = 5 s. Worker 0: steps 1-4 in [1, 5] -> 1 step/s;
        // worker 1: step 1 in [2, 4] -> 0.5 step/s. X = 16 x 1.5 = 24 samples/s. (The old common
        // window (2, 5] counted 4 steps in 3 s: 21.3.)
        TrainingResult r;
        r.steps = BackToBack({1, 2}, 5);
        r.Finalize(Async(2, 5, 1), 16);
        NS_TEST_EXPECT_MSG_EQ_TOL(r.throughput, 24.0, 1e-12, "sum of per-worker rates");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.stepTimeMean, 1.5, 1e-12, "mean of 1 s and 2 s");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.windowStart, 2.0, 1e-12, "latest warm-up end");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.windowEnd, 5.0, 1e-12, "first worker done");

        // The same rates wherever the steps start (start at 0.5 s, no warm-up): 1 worker with
        // 0.25 s steps, 3 steps -> 4 steps/s x 8 = 32 samples/s.
        TrainingResult one;
        one.steps = BackToBack({0.25}, 3, 0.5);
        one.Finalize(Async(1, 3, 0), 8);
        NS_TEST_EXPECT_MSG_EQ_TOL(one.throughput, 32.0, 1e-12, "one worker, no warm-up");
        NS_TEST_EXPECT_MSG_EQ_TOL(one.stepTimeMean, 0.25, 1e-12, "its step time");

        // Three workers of 1, 1.5 and 3 s, 10 steps, 2 warm-up: T_A = 10 s. Worker 0: 8 steps
        // in [2, 10]; worker 1: steps 2-5 end at 4.5, 6, 7.5, 9 -> 4 in [3, 9]; worker 2: step
        // 2 ends at 9 -> 1 in [6, 9]. X = 4 x (1 + 1/1.5 + 1/3) = 8 samples/s.
        TrainingResult three;
        three.steps = BackToBack({1, 1.5, 3}, 10);
        three.Finalize(Async(3, 10, 2), 4);
        NS_TEST_EXPECT_MSG_EQ_TOL(three.throughput, 8.0, 1e-12, "three speeds");
    }
};

/**
 * \ingroup distributed-training
 * --leave: a worker's time away inside its measured span is its time without steps, by hand.
 * K = 2, 4 steps, no warm-up, batch 1; worker 0 ends steps at 1, 2, 3, 4 s (T_A = 4 s).
 *  - Worker 1 away [2, 5) s after steps ending at 1 and 2 s, then steps ending at 6 and 7 s:
 *    its measured steps end at 1 and 2 s, and it is away the rest of [0, T_A]: m = 2 in
 *    T = 2 + 2 = 4 s, not 2 s (which would count it as present and twice as fast). X = 1 + 0.5
 *    = 1.5; it left at 2 s, 2 s away, missed 2 s x 2 / 2 s = 2 steps.
 *  - Worker 1 away [1.5, 2.5) s while its step [1, 2] runs: it leaves at 2 s and comes back at
 *    2.5 s, steps ending at 3.5 and 4.5 s: m = 3 in T = 3.5 s, X = 1 + 3 / 3.5; 0.5 s away,
 *    missed 0.5 x 3 / 3 = 0.5 steps.
 */
class AsyncLeaveTestCase : public TestCase
{
  public:
    AsyncLeaveTestCase()
        : TestCase("async throughput with a worker away counts its time away, by hand")
    {
    }

  private:
    /**
     * \param spans worker 1's steps (start, end), in order
     * \return worker 0's four 1 s steps from 0 and worker 1's
     */
    static std::vector<TrainingResult::StepRecord> WithWorker1(
        const std::vector<std::pair<double, double>>& spans)
    {
        std::vector<TrainingResult::StepRecord> r = BackToBack({1}, 4);
        for (uint32_t i = 0; i < spans.size(); ++i)
        {
            r.push_back({1, i, spans[i].first, spans[i].second});
        }
        return r;
    }

    void DoRun() override
    {
        TrainingScenario s = Async(2, 4, 0);
        s.leave = {{1, 2, 3}};
        TrainingResult r;
        r.steps = WithWorker1({{0, 1}, {1, 2}, {5, 6}, {6, 7}});
        r.Finalize(s, 1);
        NS_TEST_EXPECT_MSG_EQ_TOL(r.throughput, 1.5, 1e-12, "away at T_A: 2 steps in 4 s");
        NS_TEST_ASSERT_MSG_EQ(r.absences.size(), 1, "one window");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.absences[0].left, 2.0, 1e-12, "left between steps");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.absences[0].away, 2.0, 1e-12, "away 2 s of [0, 4]");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.absences[0].missedSteps, 2.0, 1e-12, "2 steps missed");

        s.leave = {{1, 1.5, 1}};
        TrainingResult mid;
        mid.steps = WithWorker1({{0, 1}, {1, 2}, {2.5, 3.5}, {3.5, 4.5}});
        mid.Finalize(s, 1);
        NS_TEST_EXPECT_MSG_EQ_TOL(mid.throughput, 1 + 3 / 3.5, 1e-12, "3 steps in 3.5 s");
        NS_TEST_EXPECT_MSG_EQ_TOL(mid.absences.at(0).left, 2.0, 1e-12, "after its step");
        NS_TEST_EXPECT_MSG_EQ_TOL(mid.absences[0].away, 0.5, 1e-12, "0.5 s away");
        NS_TEST_EXPECT_MSG_EQ_TOL(mid.absences[0].missedSteps, 0.5, 1e-12, "half a step");
    }
};

/**
 * \ingroup distributed-training
 * The case of the bug report: a common window much shorter than a slow worker's step made the
 * old estimator count a fast worker's steps over a sliver of time (several times too high).
 *
 * Async throughput is not inflated by a window shorter than a slow worker's step.
 */
class AsyncWindowEdgeBiasTestCase : public TestCase
{
  public:
    AsyncWindowEdgeBiasTestCase()
        : TestCase("async throughput not inflated by a window shorter than a slow step")
    {
    }

  private:
    void DoRun() override
    {
        // Workers of 1 s and 1.9 s, 4 steps, 1 warm-up: worker 0 ends at 1, 2, 3, 4; worker 1
        // at 1.9, 3.8 (measured, before T_A = 4), 5.7, 7.6. Worker 0: 3 steps in [1, 4];
        // worker 1: 1 step in [1.9, 3.8]. X = 10 x (1 + 1/1.9) = 15.263 samples/s; the
        // compute-only bound is the same sum, nothing may exceed it. (The old window (1.9, 4]
        // counted 3 + 1 steps in 2.1 s: 19.05.)
        TrainingResult r;
        r.steps = BackToBack({1, 1.9}, 4);
        r.Finalize(Async(2, 4, 1), 10);
        NS_TEST_EXPECT_MSG_EQ_TOL(r.throughput, 10 * (1 + 1 / 1.9), 1e-9, "per-worker rates");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.stepTimeMean, (1 + 1.9) / 2, 1e-9, "mean step time");
    }
};

/**
 * \ingroup distributed-training
 * Too short to measure: an error naming --steps/--warmup and the steps needed, never 0 or a
 * guess.
 */
class AsyncTooShortTestCase : public TestCase
{
  public:
    AsyncTooShortTestCase()
        : TestCase("async run too short to measure is a TrainingInputError with the steps needed")
    {
    }

  private:
    void DoRun() override
    {
        // 1 s and 1.9 s workers, 3 steps, 1 warm-up: worker 0 is done at 3 s, worker 1's first
        // measured step ends at 3.8 s. Needed: ceil((1 + 1) x 1.9 / 1) = 4 steps (the case
        // above shows 4 is enough).
        TrainingResult r;
        r.steps = BackToBack({1, 1.9}, 3);
        NS_TEST_EXPECT_MSG_EQ(tests::ThrowsInputError(
                                  [&]
                                  {
                                      r.Finalize(Async(2, 3, 1), 10);
                                  },
                                  {"--steps", "--warmup", "at least about 4"}),
                              true,
                              "1 s / 1.9 s workers, 3 steps: error asking for 4");
        // The bug report's shape: 1 s and 2 s workers, 3 steps, 2 warm-up: the slow worker's
        // warm-up ends at 4 s, after the fast worker is done. Needed: ceil(3 x 2) = 6.
        TrainingResult q;
        q.steps = BackToBack({1, 2}, 3);
        NS_TEST_EXPECT_MSG_EQ(tests::ThrowsInputError(
                                  [&]
                                  {
                                      q.Finalize(Async(2, 3, 2), 16);
                                  },
                                  {"--steps=3", "--warmup=2", "about 6"}),
                              true,
                              "1 s / 2 s workers, 3 steps, 2 warm-up: error asking for 6");
        // A worker without any completed step (the simulation stopped early).
        TrainingResult none;
        none.steps = BackToBack({1}, 3);
        NS_TEST_EXPECT_MSG_EQ(tests::ThrowsInputError(
                                  [&]
                                  {
                                      none.Finalize(Async(2, 3, 1), 16);
                                  },
                                  {"worker 1 completed no step"}),
                              true,
                              "missing worker");
        // Sync: fewer completed barriers than warm-up steps.
        TrainingScenario sync;
        sync.workers = 2;
        sync.steps = 3;
        sync.warmup = 1;
        TrainingResult s;
        s.steps = {{0, 0, 0, 1}, {1, 0, 0, 1}, {0, 1, 1, 2}};
        NS_TEST_EXPECT_MSG_EQ(tests::ThrowsInputError(
                                  [&]
                                  {
                                      s.Finalize(sync, 16);
                                  },
                                  {"--steps", "only 1 of 3"}),
                              true,
                              "sync stopped after the warm-up step");
    }
};

/**
 * \ingroup distributed-training
 * End to end through the flow backend: the bug report's command is refused, a longer run of
 * the same workers stays under the compute-only bound.
 *
 * Flow backend, async 1x and 2x workers: too-short run refused, longer run within the compute-only
 * bound.
 */
class AsyncFlowBackendTestCase : public TestCase
{
  public:
    AsyncFlowBackendTestCase()
        : TestCase("flow async with unequal workers, short run refused, long run bounded")
    {
    }

  private:
    void DoRun() override
    {
        // 4 layers of 1 MB, 10 ms forward + 20 ms backward per layer: 120 ms compute per step
        // (240 ms for the 2x worker); batch 32. Compute-only bound: 32 x (1/0.12 + 1/0.24) =
        // 400 samples/s.
        TrainingProfile p = tests::MakeProfile({1000000, 1000000, 1000000, 1000000}, 1e4, 2e4, 0);
        TrainingScenario s = Async(2, 3, 2);
        s.computeScale = {1, 2};
        s.sampleSteps = false;
        Ptr<FlowBackend> flow = CreateObject<FlowBackend>();
        NS_TEST_EXPECT_MSG_EQ(tests::ThrowsInputError(
                                  [&]
                                  {
                                      flow->Run(p, s);
                                  },
                                  {"--steps", "--warmup"}),
                              true,
                              "3 steps with 2 warm-up cannot be measured");
        s.steps = 20;
        TrainingResult r = flow->Run(p, s).at(0);
        const double bound = 32 * (1 / 0.12 + 1 / 0.24);
        NS_TEST_EXPECT_MSG_EQ(std::isfinite(r.throughput) && r.throughput > 0, true, "positive");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(r.throughput, bound * (1 + 1e-9), "compute-only bound");
        // The network adds at most 8 MB at 10 Gb/s per step (6.4 ms, x 2 with contention).
        NS_TEST_EXPECT_MSG_GT(r.throughput, bound * 0.8, "network adds little");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(r.stepTimeMean, (0.12 + 0.24) / 2, "step at least compute");
    }
};

/**
 * \ingroup distributed-training
 * The compute-bound label (threshold 25 % busy): a result whose busiest link is 5 % busy is
 * compute-bound, one at 25 % or more is not (the link is the bottleneck), one with no link
 * figures is compute-bound only when the analytic backend named "worker-compute"; the JSON
 * keeps the link in "bottleneck" and says "compute_bound".
 *
 * Compute-bound below 25 % busy on the busiest link, link kept in the JSON.
 */
class ComputeBoundTestCase : public TestCase
{
  public:
    ComputeBoundTestCase()
        : TestCase("compute-bound below 25 pct busy on the busiest link")
    {
    }

  private:
    void DoRun() override
    {
        TrainingResult r;
        r.linkUtilisation = {{"switch->server0", 0.05}, {"worker0->switch", 0.04}};
        r.bottleneck = "switch->server0";
        NS_TEST_EXPECT_MSG_EQ(r.IsComputeBound(), true, "5 % busy");
        const auto j = nlohmann::json::parse(r.ToJson(false));
        NS_TEST_EXPECT_MSG_EQ(j["bottleneck"].get<std::string>(), "switch->server0", "link kept");
        NS_TEST_EXPECT_MSG_EQ(j["compute_bound"].get<bool>(), true, "JSON field");
        r.linkUtilisation["switch->server0"] = 0.25;
        NS_TEST_EXPECT_MSG_EQ(r.IsComputeBound(), false, "25 % busy: the link is the bottleneck");
        r.linkUtilisation.clear();
        r.bottleneck = "server-link";
        NS_TEST_EXPECT_MSG_EQ(r.IsComputeBound(), false, "analytic: the server's link");
        r.bottleneck = "worker-compute";
        NS_TEST_EXPECT_MSG_EQ(r.IsComputeBound(), true, "analytic: the workers' compute");
    }
};

/**
 * \ingroup distributed-training
 * The server-update label (TrainingResult::ServerUpdateSetsStep): K = 4 sync PS workers, one
 * server, 10 Gb/s, two layers of 1 MB (M = 2 MB), T_F + T_B = 2 x (1 + 2) ms = 6 ms. With an
 * update of 50 ms a layer, T_S = 100 ms; Eq. (7) gives a step of about K M/B + 6 + K M/B + 100
 * = 6.7 + 6 + 6.7 + 100 = 119 ms, so the update (100 ms) is longer than the compute (6 ms) and
 * than the rest (13 ms): both backends say "server-update" (before, flow said compute-bound,
 * its busiest link about 6 % busy, and analytic "server-link", as 2 K M/B > 6 ms). With 0.1 ms a
 * layer (T_S = 0.2 ms) the labels stay: the busiest link in flow (6.7 of about 20 ms, a third
 * busy), "server-link" in analytic.
 * The rule alone: T_S = 0.1 s, compute 0.05 s sets a step of 0.2 s (rest 0.05 s), not one of
 * 0.3 s (rest 0.15 s).
 */
class ServerUpdateLabelTestCase : public TestCase
{
  public:
    ServerUpdateLabelTestCase()
        : TestCase("a dominant server update is labelled server-update in flow and analytic")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(TrainingResult::ServerUpdateSetsStep(0.1, 0.05, 0.2), true, "sets");
        NS_TEST_EXPECT_MSG_EQ(TrainingResult::ServerUpdateSetsStep(0.1, 0.05, 0.3), false, "not");
        TrainingScenario s;
        s.architecture = TrainingScenario::PARAMETER_SERVER;
        s.mode = TrainingScenario::SYNC;
        s.workers = 4;
        s.steps = 4;
        s.warmup = 1;
        for (double update : {50e3, 100.0})
        {
            const TrainingProfile p = tests::MakeProfile({1000000, 1000000}, 1e3, 2e3, update);
            const bool dominant = update > 1e3;
            const TrainingResult flow = CreateObject<FlowBackend>()->Run(p, s).at(0);
            const bool labelled = flow.bottleneck == TrainingResult::SERVER_UPDATE;
            NS_TEST_EXPECT_MSG_EQ(labelled,
                                  dominant,
                                  "flow, update " << update << " us: " << flow.bottleneck);
            NS_TEST_EXPECT_MSG_EQ(flow.linkUtilisation.count(flow.bottleneck),
                                  (dominant ? 0u : 1u),
                                  "flow names a link unless the update sets the step");
            NS_TEST_EXPECT_MSG_EQ(dominant && flow.IsComputeBound(), false, "not compute-bound");
            for (const auto& r : CreateObject<AnalyticBackend>()->Run(p, s))
            {
                NS_TEST_EXPECT_MSG_EQ(r.bottleneck,
                                      std::string(dominant ? "server-update" : "server-link"),
                                      "analytic " << r.variant << ", update " << update);
            }
        }
    }
};

/**
 * \ingroup distributed-training
 * --recordsFile: the flow backend's records go to the JSON Lines file, not into memory, with the
 * same records and the same throughput as in memory; an unwritable file is an error.
 *
 * Records streamed to JSON Lines: same records and throughput as kept in memory, none kept; the
 * file appears only when complete; a device is refused.
 */
class RecordStreamTestCase : public TestCase
{
  public:
    RecordStreamTestCase()
        : TestCase("records streamed to JSON Lines equal those kept in memory")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = tests::MakeProfile({1000000, 2000000}, 1e3, 2e3, 100);
        TrainingScenario s = Async(3, 6, 1);
        Ptr<FlowBackend> flow = CreateObject<FlowBackend>();
        const TrainingResult kept = flow->Run(p, s).at(0);
        const std::string file = CreateTempDirFilename("records.jsonl");
        std::remove(file.c_str()); // an earlier run from the same folder leaves its file
        auto stream = std::make_shared<RecordStream>(file);
        RunContext context;
        context.records = stream;
        flow->SetRunContext(context);
        const TrainingResult streamed = flow->Run(p, s).at(0);
        NS_TEST_EXPECT_MSG_EQ(std::ifstream(file).good(), false, "no file before Close()");
        stream->WriteResult(streamed);
        stream->Close();
        NS_TEST_EXPECT_MSG_EQ(streamed.transfers.size(), 0u, "no transfer kept in memory");
        NS_TEST_EXPECT_MSG_EQ(streamed.streamedTransfers, kept.transfers.size(), "all streamed");
        NS_TEST_EXPECT_MSG_EQ(streamed.throughput, kept.throughput, "same throughput");
        std::ifstream in(file);
        std::string line;
        uint64_t steps = 0;
        uint64_t bytes = 0;
        uint64_t keptBytes = 0;
        for (const auto& t : kept.transfers)
        {
            keptBytes += t.bytes;
        }
        while (std::getline(in, line))
        {
            const auto j = nlohmann::json::parse(line);
            steps += j.at("kind") == "step";
            bytes += j.at("kind") == "transfer" ? j.at("bytes").get<uint64_t>() : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(steps, kept.steps.size(), "every step record");
        NS_TEST_EXPECT_MSG_EQ(bytes, keptBytes, "every transfer's bytes");
        NS_TEST_EXPECT_MSG_EQ(tests::ThrowsInputError(
                                  []
                                  {
                                      RecordStream full("/dev/full");
                                  },
                                  {"--recordsFile: cannot write '/dev/full'",
                                   "a character device, not a regular file"}),
                              true,
                              "a device is refused");
    }
};

/**
 * CheckSane: a result is an answer only with a finite positive throughput and step time. A
 * throughput of 0 with an infinite step time (what --computeScale=1e308 gave), an infinite
 * throughput, NaN and a zero step time are refused naming the backend and the scale options
 * with their values; 1453.49 samples/s at 44 ms passes.
 */
class CheckSaneTestCase : public TestCase
{
  public:
    CheckSaneTestCase()
        : TestCase("a non-finite or non-positive throughput or step time is refused")
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s;
        s.computeScale = {2};
        s.reductionRate = 5e9;
        const double inf = std::numeric_limits<double>::infinity();
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const std::vector<std::pair<double, double>> bad = {{0, inf}, {inf, 1}, {nan, 1}, {10, 0}};
        for (const auto& [throughput, stepTime] : bad)
        {
            TrainingResult r;
            r.backend = "flow";
            r.variant = "ps";
            r.throughput = throughput;
            r.stepTimeMean = stepTime;
            NS_TEST_EXPECT_MSG_EQ(tests::ThrowsInputError(
                                      [&]
                                      {
                                          r.CheckSane(s);
                                      },
                                      {"flow ps: throughput",
                                       "expected finite positive values",
                                       "--computeScale=2",
                                       "--reductionRate=5e+09"}),
                                  true,
                                  "refused: " << throughput << " samples/s, " << stepTime << " s");
        }
        TrainingResult good;
        good.throughput = 1453.49;
        good.stepTimeMean = 0.044;
        NS_TEST_EXPECT_MSG_EQ(tests::ThrowsInputError(
                                  [&]
                                  {
                                      good.CheckSane(s);
                                  }),
                              false,
                              "a finite positive result passes");
    }
};

/// The suite.
class TrainingResultTestSuite : public TestSuite
{
  public:
    TrainingResultTestSuite()
        : TestSuite("distributed-training-result", Type::UNIT)
    {
        AddTestCase(new AsyncLeaveTestCase, DT_TEST_QUICK);
        AddTestCase(new AsyncHeterogeneousRatesTestCase, DT_TEST_QUICK);
        AddTestCase(new AsyncWindowEdgeBiasTestCase, DT_TEST_QUICK);
        AddTestCase(new AsyncTooShortTestCase, DT_TEST_QUICK);
        AddTestCase(new AsyncFlowBackendTestCase, DT_TEST_QUICK);
        AddTestCase(new RecordStreamTestCase, DT_TEST_QUICK);
        AddTestCase(new CheckSaneTestCase, DT_TEST_QUICK);
        AddTestCase(new ComputeBoundTestCase, DT_TEST_QUICK);
        AddTestCase(new ServerUpdateLabelTestCase, DT_TEST_QUICK);
    }
};

/// The suite instance.
TrainingResultTestSuite g_trainingResultTestSuite;

} // namespace

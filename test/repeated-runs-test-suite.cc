/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * --repeat and --ciTarget (RepeatedRuns) and the one definition of their intervals
 * (ConfidenceInterval): Student t quantiles against the printed table, intervals worked by hand,
 * the median run with every run's throughput, a deterministic backend's zero-width interval,
 * seeds repeating bit for bit, and a run that adds steps until its step time's interval is
 * narrow enough or its cap stops it.
 */

#include "training-test-utils.h"

#include "ns3/analytic-backend.h"
#include "ns3/confidence-interval.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/flow-backend.h"
#include "ns3/repeated-runs.h"
#include "ns3/run-report.h"
#include "ns3/test.h"
#include "ns3/training-profile.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Three 1 MB layers, 1 ms forward and 2 ms backward each, four recorded steps (x0.8 to x1.5).
TrainingProfile
SampledProfile()
{
    return tests::MakeProfile({1000000, 1000000, 1000000}, 1000, 2000, 100, {0.8, 1.0, 1.2, 1.5});
}

/// Sync PS, 4 workers, 10 Gb/s, 12 steps of which 2 warm-up, seed 1.
TrainingScenario
SmallScenario()
{
    TrainingScenario s;
    s.workers = 4;
    s.servers = 1;
    s.steps = 12;
    s.warmup = 2;
    s.nicRate = DataRate("10Gbps");
    s.seed = 1;
    return s;
}

/// \param backend a backend \param profile the DNN \return the backend as a RunFunction
RepeatedRuns::RunFunction
Runner(Ptr<TrainingBackend> backend, const TrainingProfile& profile)
{
    return [backend, profile](const TrainingScenario& s)
    {
        return backend->Run(profile, s);
    };
}

/// \param r a result \param words words a note must hold \return whether one note holds them
bool
HasNote(const TrainingResult& r, const std::string& words)
{
    return std::any_of(r.notes.begin(),
                       r.notes.end(),
                       [&words](const std::string& n)
                       {
                           return n.find(words) != std::string::npos;
                       });
}

/**
 * \ingroup distributed-training
 * Student t quantiles t_{0.975, n-1} against the printed table (e.g. NIST/SEMATECH e-Handbook
 * 1.3.6.7.2): n = 2: 12.706, n = 5: 2.776, n = 30: 2.045.
 */
class StudentQuantileTestCase : public TestCase
{
  public:
    StudentQuantileTestCase()
        : TestCase("t quantiles for N = 2, 5, 30 match the table (12.706, 2.776, 2.045)")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ_TOL(ConfidenceInterval::StudentT95(1), 12.706, 1e-3, "N = 2");
        NS_TEST_ASSERT_MSG_EQ_TOL(ConfidenceInterval::StudentT95(4), 2.776, 1e-3, "N = 5");
        NS_TEST_ASSERT_MSG_EQ_TOL(ConfidenceInterval::StudentT95(29), 2.045, 1e-3, "N = 30");
    }
};

/**
 * \ingroup distributed-training
 * Intervals by hand.
 *
 * Samples 10, 12, 14, 16, 18: mean 14, s^2 = (16 + 4 + 0 + 4 + 16) / 4 = 10, s / sqrt(5) =
 * 1.41421, half-width 2.77645 x 1.41421 = 3.92648: [10.0735, 17.9265], relative 0.28046.
 * Three identical samples 0.1: mean exactly 0.1, half-width exactly 0. One sample: infinite.
 * Batch means of 1..20 in 10 batches: 1.5, 3.5, ..., 19.5, mean 10.5, s = 2 x 3.02765 =
 * 6.05530, s / sqrt(10) = 1.91485, t_{0.975,9} = 2.26216: half-width 4.33174. Of 0..24 in 10
 * batches the first 5 values (nearest the warm-up) are dropped: the same batches as 5..24.
 * Three values make no 10 batches: no interval.
 */
class KnownIntervalTestCase : public TestCase
{
  public:
    KnownIntervalTestCase()
        : TestCase("intervals of a known sample and of batch means match the hand-worked values")
    {
    }

  private:
    void DoRun() override
    {
        const auto e = ConfidenceInterval::OfMean({10, 12, 14, 16, 18});
        NS_TEST_ASSERT_MSG_EQ(e.samples, 5, "samples");
        NS_TEST_ASSERT_MSG_EQ_TOL(e.mean, 14, 1e-12, "mean");
        NS_TEST_ASSERT_MSG_EQ_TOL(e.halfWidth, 3.92648, 1e-4, "half-width");
        NS_TEST_ASSERT_MSG_EQ_TOL(e.Low(), 10.0735, 1e-4, "low");
        NS_TEST_ASSERT_MSG_EQ_TOL(e.High(), 17.9265, 1e-4, "high");
        NS_TEST_ASSERT_MSG_EQ_TOL(e.RelativeHalfWidth(), 0.280463, 1e-5, "relative");
        const auto same = ConfidenceInterval::OfMean({0.1, 0.1, 0.1});
        NS_TEST_ASSERT_MSG_EQ(same.mean, 0.1, "identical samples: their value exactly");
        NS_TEST_ASSERT_MSG_EQ(same.halfWidth, 0, "identical samples: zero width exactly");
        NS_TEST_ASSERT_MSG_EQ(std::isinf(ConfidenceInterval::OfMean({5}).halfWidth),
                              true,
                              "one sample has no interval");
        NS_TEST_ASSERT_MSG_EQ(std::isinf(ConfidenceInterval::OfBatchMeans({1, 2, 3}).halfWidth),
                              true,
                              "fewer values than batches: no interval");
        std::vector<double> series(20);
        for (std::size_t i = 0; i < series.size(); ++i)
        {
            series[i] = i + 1.0;
        }
        const auto b = ConfidenceInterval::OfBatchMeans(series);
        NS_TEST_ASSERT_MSG_EQ(b.samples, 10, "batches");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.mean, 10.5, 1e-12, "batch means' mean");
        NS_TEST_ASSERT_MSG_EQ_TOL(b.halfWidth, 4.33174, 1e-4, "batch means' half-width");
        std::vector<double> longer(25);
        for (std::size_t i = 0; i < longer.size(); ++i)
        {
            longer[i] = i;
        }
        const std::vector<double> tail(longer.begin() + 5, longer.end());
        NS_TEST_ASSERT_MSG_EQ_TOL(ConfidenceInterval::OfBatchMeans(longer).mean,
                                  ConfidenceInterval::OfMean(tail).mean,
                                  1e-12,
                                  "first n mod 10 values dropped");
    }
};

/**
 * \ingroup distributed-training
 * The summary of hand-made runs at 100, 130, 90 samples/s with seeds 7, 8, 9: the 100 run
 * (seed 7) is shown, the three throughputs in seed order, mean 106.667, s = 20.817, half-width
 * 4.30265 x 20.817 / sqrt(3) = 51.713; the text line and the CSV columns say them.
 */
class SummaryTestCase : public TestCase
{
  public:
    SummaryTestCase()
        : TestCase("three runs show the median run, every throughput and the interval")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<TrainingResult> runs(3);
        const double throughput[] = {100, 130, 90};
        for (std::size_t i = 0; i < runs.size(); ++i)
        {
            runs[i].backend = "flow";
            runs[i].throughput = throughput[i];
        }
        const TrainingResult r = RepeatedRuns::Summarise(runs, {7, 8, 9});
        NS_TEST_ASSERT_MSG_EQ(r.repeat.has_value(), true, "summary");
        NS_TEST_ASSERT_MSG_EQ(r.throughput, 100, "the median run");
        NS_TEST_ASSERT_MSG_EQ(r.repeat->shownSeed, 7, "its seed");
        NS_TEST_ASSERT_MSG_EQ(r.repeat->throughputs[1], 130, "seed order");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.repeat->mean, 106.6667, 1e-3, "mean");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.repeat->ciHigh - r.repeat->mean, 51.713, 1e-2, "half-width");
        NS_TEST_ASSERT_MSG_EQ(r.repeat->identical, false, "runs differ");
        NS_TEST_ASSERT_MSG_EQ(RunReport::FormatIntervals(r),
                              "          throughput 106.7 samples/s (95 % CI 55.0-158.4, 3 runs)\n",
                              "text line");
        NS_TEST_ASSERT_MSG_EQ(RunReport::CsvIntervalFields(r).rfind(",3,106.6", 0),
                              0,
                              "CSV columns");
        NS_TEST_ASSERT_MSG_EQ(RunReport::CsvIntervalFields(TrainingResult()),
                              ",1,,,,,",
                              "a plain run's CSV columns");
    }
};

/**
 * \ingroup distributed-training
 * The flow backend with a profile that has recorded steps: 5 repeats (seeds 1..5) draw other
 * steps, so their 5 throughputs differ, and the interval holds their mean. The same 5 repeats
 * again give the same JSON (metamorphic: a seed repeats bit for bit), and seeds 2..6 share 4 of
 * the runs with seeds 1..5.
 */
class FlowRepeatsTestCase : public TestCase
{
  public:
    FlowRepeatsTestCase()
        : TestCase("flow with sampled steps, 5 repeats give 5 throughputs, same seeds repeat")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = SampledProfile();
        const auto run = Runner(CreateObject<FlowBackend>(), p);
        RepeatedRuns::Options o;
        o.repeat = 5;
        const auto results = RepeatedRuns::Run(run, SmallScenario(), o);
        NS_TEST_ASSERT_MSG_EQ(results.size(), 1, "one variant");
        const TrainingResult& r = results[0];
        NS_TEST_ASSERT_MSG_EQ(r.repeat.has_value(), true, "summary");
        const auto& x = r.repeat->throughputs;
        NS_TEST_ASSERT_MSG_EQ(std::set<double>(x.begin(), x.end()).size(), 5, "5 throughputs");
        NS_TEST_ASSERT_MSG_EQ(r.repeat->seeds.front(), 1, "first seed");
        NS_TEST_ASSERT_MSG_EQ(r.repeat->seeds.back(), 5, "last seed");
        NS_TEST_ASSERT_MSG_LT(r.repeat->ciLow, r.repeat->mean, "low < mean");
        NS_TEST_ASSERT_MSG_GT(r.repeat->ciHigh, r.repeat->mean, "high > mean");
        const double lo = *std::min_element(x.begin(), x.end());
        const double hi = *std::max_element(x.begin(), x.end());
        const bool inside = r.throughput > lo && r.throughput < hi;
        NS_TEST_ASSERT_MSG_EQ(inside, true, "the median run");
        TrainingResult again = RepeatedRuns::Run(run, SmallScenario(), o).at(0);
        TrainingResult first = r;
        again.wallSeconds = first.wallSeconds = 0; // the one field that is not simulated
        NS_TEST_ASSERT_MSG_EQ(again.ToJson(), first.ToJson(), "same seeds, same result");
        TrainingScenario shifted = SmallScenario();
        shifted.seed = 2;
        const auto next = RepeatedRuns::Run(run, shifted, o);
        NS_TEST_ASSERT_MSG_EQ(next[0].repeat->throughputs[0], x[1], "seed 2 is seed 2");
    }
};

/**
 * \ingroup distributed-training
 * The analytic backend is a closed form: 3 repeats are bit-identical, the interval has zero
 * width (low = mean = high) and a note says the backend is deterministic here.
 */
class AnalyticRepeatsTestCase : public TestCase
{
  public:
    AnalyticRepeatsTestCase()
        : TestCase("analytic repeats give a zero-width interval and the deterministic note")
    {
    }

  private:
    void DoRun() override
    {
        RepeatedRuns::Options o;
        o.repeat = 3;
        const auto results
            = RepeatedRuns::Run(Runner(CreateObject<AnalyticBackend>(), SampledProfile()),
                                SmallScenario(),
                                o);
        NS_TEST_ASSERT_MSG_EQ(results.empty(), false, "results");
        for (const auto& r : results)
        {
            NS_TEST_ASSERT_MSG_EQ(r.repeat->identical, true, r.variant);
            NS_TEST_ASSERT_MSG_EQ(r.repeat->ciLow, r.repeat->mean, r.variant);
            NS_TEST_ASSERT_MSG_EQ(r.repeat->ciHigh, r.repeat->mean, r.variant);
            NS_TEST_ASSERT_MSG_EQ(r.repeat->mean, r.throughput, r.variant);
            NS_TEST_ASSERT_MSG_EQ(HasNote(r, "deterministic for this scenario"), true, r.variant);
        }
    }
};

/**
 * \ingroup distributed-training
 * --ciTarget on a flow run with 200 us start jitter and sampled steps: from 12 steps the run
 * doubles its steps until the batch-means half-width of its step time is at most 2 % of the
 * mean (the reported half-width <= 0.02, steps in 12, 24, ..., at most 1000, no cap note).
 * With a target of 1e-6 and --maxSteps=30 the cap stops it first: 24 -> 30 steps, the
 * half-width above the target, and the note naming --maxSteps.
 */
class CiTargetTestCase : public TestCase
{
  public:
    CiTargetTestCase()
        : TestCase("ciTarget on a jittered flow run stops at the target or at the cap with a note")
    {
    }

  private:
    void DoRun() override
    {
        const auto run = Runner(CreateObject<FlowBackend>(), SampledProfile());
        TrainingScenario s = SmallScenario();
        s.startJitter = MicroSeconds(200);
        RepeatedRuns::Options o;
        o.target = 0.02;
        const TrainingResult r = RepeatedRuns::Run(run, s, o).at(0);
        NS_TEST_ASSERT_MSG_EQ(r.stepInterval.has_value(), true, "interval");
        NS_TEST_ASSERT_MSG_EQ(r.stepInterval->capped, false, "reached");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(r.stepInterval->relativeHalfWidth, 0.02, "at most 2 %");
        NS_TEST_ASSERT_MSG_EQ(r.stepInterval->steps % 12, 0, "doubled from 12");
        NS_TEST_ASSERT_MSG_EQ(r.stepInterval->batches, 10, "10 batch means");
        NS_TEST_ASSERT_MSG_EQ(HasNote(r, "--maxSteps"), false, "no cap note");
        o.target = 1e-6;
        o.maxSteps = 30;
        const TrainingResult c = RepeatedRuns::Run(run, s, o).at(0);
        NS_TEST_ASSERT_MSG_EQ(c.stepInterval->capped, true, "capped");
        NS_TEST_ASSERT_MSG_EQ(c.stepInterval->steps, 30, "at the cap");
        NS_TEST_ASSERT_MSG_GT(c.stepInterval->relativeHalfWidth, 1e-6, "above the target");
        NS_TEST_ASSERT_MSG_EQ(HasNote(c, "--maxSteps=30 stopped the run"), true, "cap note");
    }
};

/// The suite.
class RepeatedRunsTestSuite : public TestSuite
{
  public:
    RepeatedRunsTestSuite()
        : TestSuite("distributed-training-repeated-runs", Type::UNIT)
    {
        AddTestCase(new StudentQuantileTestCase, DT_TEST_QUICK);
        AddTestCase(new KnownIntervalTestCase, DT_TEST_QUICK);
        AddTestCase(new SummaryTestCase, DT_TEST_QUICK);
        AddTestCase(new FlowRepeatsTestCase, DT_TEST_QUICK);
        AddTestCase(new AnalyticRepeatsTestCase, DT_TEST_QUICK);
        AddTestCase(new CiTargetTestCase, DT_TEST_QUICK);
    }
};

/// The suite's one instance.
RepeatedRunsTestSuite g_repeatedRunsTestSuite;

} // namespace

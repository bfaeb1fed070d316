/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Straggler episodes (--slowdown, --stragglers): ComputeSlowdown's pro-rating rule by hand, the
 * random process's episode count against its Poisson law, the flow level's step times by hand
 * for one worker, sync PS, the ring and async PS, metamorphic and seeding relations, the
 * per-step report (SlowedSteps) and the refusals; the packet level in a suite of its own.
 *
 * Every run below uses one profile: one layer of M = 125 kB (or 1.25 MB for one worker), forward
 * F = 1 ms and backward B = 1 ms, no update, at 10 Gb/s raw (B_link = 1.25e9 B/s, so M / B_link
 * = 0.1 ms, or 1 ms), per-layer means (no sampling), overlap off.
 */

#include "training-test-utils.h"

#include "ns3/analytic-backend.h"
#include "ns3/compute-slowdown.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/flow-level-simulator.h"
#include "ns3/packet-backend.h"
#include "ns3/ps-sharing.h"
#include "ns3/slowed-steps.h"
#include "ns3/test.h"
#include "ns3/training-scenario.h"

#include <cmath>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// 1 ms in seconds.
constexpr double MS = 1e-3;

/**
 * \param bytes the layer's parameter bytes
 * \return one layer, 1 ms forward and 1 ms backward, no update
 */
TrainingProfile
OneLayer(uint64_t bytes)
{
    return tests::MakeProfile({bytes}, 1000, 1000, 0);
}

/**
 * \param workers K
 * \param arch ps or ring
 * \return sync, 4 steps, no warm-up, no sampling, overlap off, one server
 */
TrainingScenario
Scenario(uint32_t workers, TrainingScenario::Architecture arch)
{
    TrainingScenario s;
    s.architecture = arch;
    s.workers = workers;
    s.servers = 1;
    s.steps = 4;
    s.warmup = 0;
    s.sampleSteps = false;
    s.overlap = false;
    return s;
}

/**
 * \param p the profile
 * \param s the scenario
 * \return the flow level's result on raw link rates, PS sharing
 */
TrainingResult
RunFlow(const TrainingProfile& p, const TrainingScenario& s)
{
    return tests::RunFlowRaw(p, s);
}

/**
 * \param p the profile
 * \param s the scenario
 * \return the packet level's result
 */
TrainingResult
RunPacket(const TrainingProfile& p, const TrainingScenario& s)
{
    return CreateObject<PacketBackend>()->Run(p, s).at(0);
}

/// A run without episodes and the same run with one.
struct Runs
{
    TrainingResult base;       //!< without the episode
    TrainingResult slowed;     //!< with it
    TrainingScenario scenario; //!< the scenario with it
};

/**
 * \param run a backend's run (RunFlow or RunPacket)
 * \param p the profile
 * \param s the scenario, without episodes
 * \param worker the slowed worker
 * \param length the episode's length: it is x3 from the start of the worker's step 2 in the run
 *        without it
 * \return both runs
 */
Runs RunStep2Episode(TrainingResult (*run)(const TrainingProfile&, const TrainingScenario&),
                     const TrainingProfile& p,
                     TrainingScenario s,
                     uint32_t worker,
                     double length);

/// \return the record's duration
double
Length(const TrainingResult::StepRecord& x)
{
    return x.end - x.start;
}

Runs
RunStep2Episode(TrainingResult (*run)(const TrainingProfile&, const TrainingScenario&),
                const TrainingProfile& p,
                TrainingScenario s,
                uint32_t worker,
                double length)
{
    Runs r{run(p, s), {}, s};
    r.scenario.slowdown = {{worker, tests::StepOf(r.base, worker, 2).start, length, 3}};
    r.slowed = run(p, r.scenario);
    return r;
}

/**
 * System: worker 0 with a x3 episode from 10 ms for 10 ms, and one of x2 from 40 ms for 10 ms
 * overlapping one of x3 from 45 ms for 10 ms.
 * Expectations (pro-rating: work advances at 1 / factor):
 *  - a 10 ms span from 5 ms: 5 ms of work before the episode, 10/3 ms in its 10 ms, the last
 *    5 - 10/3 = 5/3 ms after it: 5 + 10 + 5/3 = 16.667 ms;
 *  - 1 ms from 12 ms, inside the episode: 3 ms;
 *  - 10 ms from 25 ms, touching no episode: exactly 10 ms (the same double);
 *  - 10 ms from 40 ms: x2 for 5 ms (2.5 ms of work), then the larger x3 (they do not compound)
 *    until 55 ms (10/3 ms of work), the last 10 - 2.5 - 10/3 = 4.1667 ms at x1:
 *    5 + 10 + 4.1667 = 19.1667 ms;
 *  - worker 1 has no episode: any span is unchanged.
 */
class StretchByHandTestCase : public TestCase
{
  public:
    StretchByHandTestCase()
        : TestCase("pro-rated stretch across episode boundaries, by hand")
    {
    }

  private:
    void DoRun() override
    {
        const ComputeSlowdown c(
            {{0, 10 * MS, 10 * MS, 3}, {0, 40 * MS, 10 * MS, 2}, {0, 45 * MS, 10 * MS, 3}},
            {},
            2,
            1);
        NS_TEST_ASSERT_MSG_EQ_TOL(c.Stretch(0, 5 * MS, 10 * MS),
                                  (15 + 5.0 / 3) * MS,
                                  1e-12,
                                  "into and out of an episode");
        NS_TEST_ASSERT_MSG_EQ_TOL(c.Stretch(0, 12 * MS, 1 * MS), 3 * MS, 1e-12, "inside");
        NS_TEST_ASSERT_MSG_EQ(c.Stretch(0, 25 * MS, 10 * MS), 10 * MS, "untouched: unchanged");
        NS_TEST_ASSERT_MSG_EQ_TOL(c.Stretch(0, 40 * MS, 10 * MS),
                                  (15 + 10 - 2.5 - 10.0 / 3) * MS,
                                  1e-12,
                                  "overlapping episodes: the larger factor");
        NS_TEST_ASSERT_MSG_EQ(c.Stretch(1, 5 * MS, 10 * MS), 10 * MS, "another worker");
        NS_TEST_ASSERT_MSG_EQ(ComputeSlowdown().Stretch(0, 0, 1.5), 1.5, "no episodes");
    }
};

/**
 * System: the random process with mean gap 1 s and mean length 0.1 s, 4 workers, over
 * T = 10,000 s.
 * Expectations: episode starts are a Poisson process of rate 1/s per worker, so each worker's
 * count is Poisson(10,000): mean 10,000, standard deviation 100; every count lies within
 * 4 standard deviations (9,600 to 10,400), their total within 4 x 200 of 40,000. The mean length
 * of the 40,000 episodes is 0.1 s within 4 x 0.1 / 200 = 2 ms. The same seed draws the same
 * episodes; another seed others.
 */
class PoissonCountTestCase : public TestCase
{
  public:
    PoissonCountTestCase()
        : TestCase("drawn episodes per worker within their Poisson interval, seeded")
    {
    }

  private:
    void DoRun() override
    {
        const StragglerProcess process{1, 0.1, 2};
        const ComputeSlowdown c({}, process, 4, 7);
        const auto episodes = c.GetEpisodes(10000);
        std::vector<uint32_t> count(4, 0);
        double lengths = 0;
        for (const auto& e : episodes)
        {
            ++count.at(e.worker);
            lengths += e.length;
        }
        for (uint32_t w = 0; w < 4; ++w)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(count[w], 10000, 400, "worker " << w << ": Poisson(1e4)");
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(episodes.size(), 40000, 800, "total");
        NS_TEST_EXPECT_MSG_EQ_TOL(lengths / episodes.size(), 0.1, 0.002, "mean length");
        const auto again = ComputeSlowdown({}, process, 4, 7).GetEpisodes(100);
        const auto other = ComputeSlowdown({}, process, 4, 8).GetEpisodes(100);
        NS_TEST_ASSERT_MSG_EQ(!again.empty(), true, "episodes in 100 s");
        NS_TEST_EXPECT_MSG_EQ(again.front().start, episodes.front().start, "same seed");
        NS_TEST_EXPECT_MSG_EQ(again.back().length, c.GetEpisodes(100).back().length, "same");
        NS_TEST_EXPECT_MSG_NE(other.front().start, again.front().start, "another seed");
    }
};

/**
 * System: one worker, sync PS, M = 1.25 MB (1 ms each way), 4 steps; step 2 (from 0) starts at
 * t2 in the run without episodes; an x3 episode from t2 for 7.5 ms.
 * Expectations: step 2's forward and backward (2 ms) start about 1 ms into the step and fall
 * inside the episode: they take 6 ms, so step 2 is 4 ms longer than without the episode, and
 * steps 0, 1 and 3 keep their times (step 3's forward starts about 9 ms after t2, after the
 * episode); the report names step 2 and its ratio (4 + 4) / 4 ~ 2. Flow level: to 1e-6. Packet
 * level (ns-3 TCP carries the 1.25 MB each way): within 1 % (TCP after the longer idle gap could
 * differ), steps 0 and 1 bit for bit. Measured at the packet level: 4.1381 ms -> 8.1381 ms,
 * exactly + 4 ms; step 3 unchanged.
 */
class OneWorkerStepTestCase : public TestCase
{
  public:
    /// \param packet the packet level (else the flow level)
    OneWorkerStepTestCase(bool packet)
        : TestCase(std::string(packet ? "packet" : "flow")
                   + ", one worker, x3 episode over step 2, step 2 longer by 2 (F+B)"),
          m_packet(packet)
    {
    }

  private:
    void DoRun() override
    {
        const double tol = m_packet ? 0.01 : 1e-6;
        const Runs runs = RunStep2Episode(m_packet ? &RunPacket : &RunFlow,
                                          OneLayer(1250000),
                                          Scenario(1, TrainingScenario::PARAMETER_SERVER),
                                          0,
                                          7.5 * MS);
        const TrainingResult& base = runs.base;
        const TrainingResult& r = runs.slowed;
        const double expected = Length(tests::StepOf(base, 0, 2)) + 4 * MS;
        NS_TEST_ASSERT_MSG_EQ_TOL(Length(tests::StepOf(r, 0, 2)),
                                  expected,
                                  tol * expected,
                                  "step 2: + (3 - 1) (F + B)");
        for (uint32_t step : {0U, 1U})
        {
            NS_TEST_EXPECT_MSG_EQ(Length(tests::StepOf(r, 0, step)),
                                  Length(tests::StepOf(base, 0, step)),
                                  "step " << step << " unchanged");
        }
        const double three = Length(tests::StepOf(base, 0, 3));
        NS_TEST_EXPECT_MSG_EQ_TOL(Length(tests::StepOf(r, 0, 3)), three, tol * three, "step 3");
        const auto ranges = SlowedSteps::Find(runs.scenario, r);
        NS_TEST_ASSERT_MSG_EQ(ranges.size(), 1, "one range");
        NS_TEST_EXPECT_MSG_EQ(ranges[0].first, 2, "step 2");
        NS_TEST_EXPECT_MSG_EQ(ranges[0].last, 2, "step 2 only");
        NS_TEST_EXPECT_MSG_EQ_TOL(ranges[0].maxRatio, 2, 0.05, "about twice as long");
        NS_TEST_EXPECT_MSG_EQ(r.inputs.at("slowed_steps"), 1, "one slowed step");
        NS_TEST_EXPECT_MSG_NE(r.notes.back().find("slowdown episodes: 1, step 2 slower by up to"),
                              std::string::npos,
                              "the note: " << r.notes.back());
    }

    bool m_packet; //!< the packet level
};

/**
 * System: K = 4, ring AllReduce (one bucket, overlap off), M = 125 kB; worker 3 has an x3
 * episode from step 2's start t2 for 6.1 ms.
 * Expectations: the AllReduce of step 2 starts when the slowest worker has its gradient:
 * worker 3's compute takes 6 ms instead of 2, so every worker's step 2 is 4 ms longer (the
 * AllReduce itself, 2 (K-1)/K M / B_link = 0.15 ms plus hops, is unchanged) and step 3 keeps its
 * time. The episode lasts 6.1 ms: longer than worker 3's 6 ms of compute, shorter than the
 * slowed step (6 ms + the AllReduce), so step 3's compute starts after it. Flow level: to 1e-6.
 * Packet level (ns-3 TCP): within 2 % (the four ring connections restart at different times
 * after the wait). Measured at the packet level: 2.2834 ms -> 6.2612 to 6.2861 ms (-0.35 % to
 * +0.04 %); step 3 2.2743 to 2.3005 ms.
 */
class RingStragglerTestCase : public TestCase
{
  public:
    /// \param packet the packet level (else the flow level)
    RingStragglerTestCase(bool packet)
        : TestCase(std::string(packet ? "packet" : "flow")
                   + ", ring K = 4, straggler on worker 3, every step 2 longer by 2 (F+B)"),
          m_packet(packet)
    {
    }

  private:
    void DoRun() override
    {
        const double tol = m_packet ? 0.02 : 1e-6;
        const Runs runs = RunStep2Episode(m_packet ? &RunPacket : &RunFlow,
                                          OneLayer(125000),
                                          Scenario(4, TrainingScenario::RING_ALLREDUCE),
                                          3,
                                          6.1 * MS);
        for (uint32_t w = 0; w < 4; ++w)
        {
            const double expected = Length(tests::StepOf(runs.base, w, 2)) + 4 * MS;
            NS_TEST_EXPECT_MSG_EQ_TOL(Length(tests::StepOf(runs.slowed, w, 2)),
                                      expected,
                                      tol * expected,
                                      "worker " << w << " waits for worker 3");
            const double three = Length(tests::StepOf(runs.base, w, 3));
            NS_TEST_EXPECT_MSG_EQ_TOL(Length(tests::StepOf(runs.slowed, w, 3)),
                                      three,
                                      tol * three,
                                      "step 3 unchanged");
        }
    }

    bool m_packet; //!< the packet level
};

/**
 * System: K = 4, sync PS, one server, M = 125 kB (M / B_link = 0.1 ms); worker 3 has an x3
 * episode from step 2's start t2 for 6.5 ms.
 * Expectations: without it the four pushes share the server's link and end together 4 M / B =
 * 0.4 ms after the compute; with it workers 0-2 push in 3 M / B = 0.3 ms, and worker 3, 4 ms
 * later, alone in M / B = 0.1 ms: the barrier (worker 3's step 2 end, every worker's step 3
 * start) moves by 4 + 0.1 - 0.4 = 3.7 ms (to 1e-6); the length of step 3 is unchanged. (Workers
 * 0-2's own step 2 records end 0.1 ms earlier: a PS worker's step ends when its gradients are
 * applied, and theirs share the link three ways; the sync step, to the barrier, is what slows.)
 */
class SyncPsStragglerTestCase : public TestCase
{
  public:
    SyncPsStragglerTestCase()
        : TestCase("flow, sync PS K = 4, straggler on worker 3, every step 3 starts 3.7 ms later")
    {
    }

  private:
    void DoRun() override
    {
        const Runs runs = RunStep2Episode(&RunFlow,
                                          OneLayer(125000),
                                          Scenario(4, TrainingScenario::PARAMETER_SERVER),
                                          3,
                                          6.5 * MS);
        const TrainingResult& base = runs.base;
        const TrainingResult& r = runs.slowed;
        NS_TEST_EXPECT_MSG_EQ_TOL(tests::StepOf(r, 3, 2).end,
                                  tests::StepOf(base, 3, 2).end + 3.7 * MS,
                                  1e-6 * tests::StepOf(r, 3, 2).end,
                                  "worker 3's step 2: 4 + M/B - 4 M/B");
        for (uint32_t w = 0; w < 4; ++w)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(tests::StepOf(r, w, 3).start,
                                      tests::StepOf(base, w, 3).start + 3.7 * MS,
                                      1e-6 * tests::StepOf(r, w, 3).start,
                                      "worker " << w << " waits at the barrier");
            NS_TEST_EXPECT_MSG_EQ_TOL(Length(tests::StepOf(r, w, 3)),
                                      Length(tests::StepOf(base, w, 3)),
                                      1e-12,
                                      "step 3 unchanged");
        }
        NS_TEST_EXPECT_MSG_EQ(SlowedSteps::Find(runs.scenario, r).at(0).worker,
                              -1,
                              "every worker's step");
    }
};

/**
 * System: K = 4, async PS, 8 steps, M = 125 kB; worker 3 has an x3 episode over its step 2
 * (from its start for 6.5 ms).
 * Expectations: only worker 3 computes 4 ms more: its step 2 is at least 4 ms - 0.4 ms longer
 * (the most its transfers can gain from less sharing is the 4 M / B of a pull and a push with
 * everyone), so its mean step rises by about 4 ms / 8 = 0.5 ms; the others' steps are never
 * longer (they share the server's link with fewer workers for a while), and the report names
 * worker 3 alone.
 */
class AsyncStragglerTestCase : public TestCase
{
  public:
    AsyncStragglerTestCase()
        : TestCase("flow, async PS K = 4, straggler on worker 3, only its steps slow down")
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s = Scenario(4, TrainingScenario::PARAMETER_SERVER);
        s.mode = TrainingScenario::ASYNC;
        s.steps = 8;
        const Runs runs = RunStep2Episode(&RunFlow, OneLayer(125000), s, 3, 6.5 * MS);
        const TrainingResult& base = runs.base;
        const TrainingResult& r = runs.slowed;
        NS_TEST_EXPECT_MSG_GT(Length(tests::StepOf(r, 3, 2)),
                              Length(tests::StepOf(base, 3, 2)) + 3.6 * MS,
                              "worker 3's step 2");
        for (uint32_t w = 0; w < 3; ++w)
        {
            for (uint32_t step = 0; step < 8; ++step)
            {
                NS_TEST_EXPECT_MSG_LT_OR_EQ(Length(tests::StepOf(r, w, step)),
                                            Length(tests::StepOf(base, w, step)) + 1e-12,
                                            "worker " << w << " step " << step);
            }
        }
        const auto ranges = SlowedSteps::Find(runs.scenario, r);
        NS_TEST_ASSERT_MSG_EQ(ranges.size(), 1, "one range");
        NS_TEST_EXPECT_MSG_EQ(ranges[0].worker, 3, "worker 3 only");
        NS_TEST_EXPECT_MSG_EQ(ranges[0].first, 2, "its step 2");
    }
};

/**
 * Relation: an episode that starts after the run ends (at 100 s; the run lasts about 20 ms)
 * changes no step: every step record is bit-identical to the run without it, and so is the
 * throughput (sync PS, K = 4). The report says no step was touched.
 */
class EpisodeOutsideRunTestCase : public TestCase
{
  public:
    EpisodeOutsideRunTestCase()
        : TestCase("an episode after the run changes nothing, bit for bit")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = OneLayer(125000);
        TrainingScenario s = Scenario(4, TrainingScenario::PARAMETER_SERVER);
        const TrainingResult base = RunFlow(p, s);
        s.slowdown = {{3, 100, 1, 5}};
        const TrainingResult r = RunFlow(p, s);
        NS_TEST_ASSERT_MSG_EQ(r.steps.size(), base.steps.size(), "same steps");
        for (std::size_t i = 0; i < r.steps.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(r.steps[i].start, base.steps[i].start, "start " << i);
            NS_TEST_EXPECT_MSG_EQ(r.steps[i].end, base.steps[i].end, "end " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(r.throughput, base.throughput, "throughput");
        NS_TEST_EXPECT_MSG_EQ(r.inputs.at("slowdown_episodes"), 0, "none in the run");
    }
};

/**
 * Relation: drawn episodes (--stragglers=2ms:1ms:2, ring K = 4, 20 steps of about 2.4 ms, so
 * about 24 episodes per worker) depend on the seed only: the same seed gives bit-identical
 * steps, another seed other steps, and both are slower than the run without episodes.
 */
class SeededStragglersTestCase : public TestCase
{
  public:
    SeededStragglersTestCase()
        : TestCase("drawn stragglers, same seed same steps, another seed other steps")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = OneLayer(125000);
        TrainingScenario s = Scenario(4, TrainingScenario::RING_ALLREDUCE);
        s.steps = 20;
        const TrainingResult none = RunFlow(p, s);
        s.stragglers = {2 * MS, 1 * MS, 2};
        const TrainingResult a = RunFlow(p, s);
        const TrainingResult b = RunFlow(p, s);
        s.seed = 2;
        const TrainingResult c = RunFlow(p, s);
        bool same = a.steps.size() == b.steps.size();
        bool differs = false;
        for (std::size_t i = 0; same && i < a.steps.size(); ++i)
        {
            same = a.steps[i].end == b.steps[i].end;
            differs = differs || a.steps[i].end != c.steps[i].end;
        }
        NS_TEST_EXPECT_MSG_EQ(same, true, "same seed, same steps");
        NS_TEST_EXPECT_MSG_EQ(differs, true, "another seed, other steps");
        NS_TEST_EXPECT_MSG_LT(a.throughput, none.throughput, "slower with stragglers");
        NS_TEST_EXPECT_MSG_LT(c.throughput, none.throughput, "slower with stragglers");
    }
};

/**
 * Parsing: "2:50ms:200ms:3,0:1s:1s:1.5" and its JSON array give the same episodes; every
 * malformed or out-of-range value is refused naming --slowdown or --stragglers; a worker index
 * of K or more is refused by the scenario's check; the analytic backend refuses episodes.
 */
class ParseAndRefuseTestCase : public TestCase
{
  public:
    ParseAndRefuseTestCase()
        : TestCase("episodes parsed from text and JSON, hostile values refused")
    {
    }

  private:
    void DoRun() override
    {
        const auto text
            = ComputeSlowdown::ParseEpisodes("--slowdown", "2:50ms:200ms:3,0:1s:1s:1.5");
        const auto json = ComputeSlowdown::ParseEpisodes(
            "--slowdown",
            R"([{"worker": 2, "start": "50ms", "length": 0.2, "factor": 3},
                {"worker": 0, "start": 1, "length": "1s", "factor": 1.5}])");
        NS_TEST_ASSERT_MSG_EQ(text.size(), 2, "two episodes");
        NS_TEST_ASSERT_MSG_EQ(json.size(), 2, "two episodes");
        for (std::size_t i = 0; i < 2; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(text[i].worker, json[i].worker, "worker");
            NS_TEST_EXPECT_MSG_EQ_TOL(text[i].start, json[i].start, 1e-15, "start");
            NS_TEST_EXPECT_MSG_EQ_TOL(text[i].length, json[i].length, 1e-15, "length");
            NS_TEST_EXPECT_MSG_EQ(text[i].factor, json[i].factor, "factor");
        }
        for (const char* bad : {"",
                                "2:50ms:200ms",
                                "2:-5ms:1ms:2",
                                "2:5ms:0:2",
                                "2:5ms:1ms:0",
                                "2:5ms:1ms:0.5",
                                "2:5ms:1ms:nan",
                                "x:5ms:1ms:2",
                                "2:5ms:1ms:2,",
                                "[]",
                                R"([{"worker": 1, "start": 0, "length": 1, "factor": 0}])",
                                R"([{"worker": 1, "start": 0, "length": 1}])"})
        {
            NS_TEST_EXPECT_MSG_EQ(tests::ThrowsInputError(
                                      [bad]
                                      {
                                          ComputeSlowdown::ParseEpisodes("--slowdown", bad);
                                      },
                                      {"--slowdown"}),
                                  true,
                                  "refused: '" << bad << "'");
        }
        for (const char* bad : {"1s:1ms", "0s:1ms:2", "1s:1ms:0.5", "nan"})
        {
            NS_TEST_EXPECT_MSG_EQ(tests::ThrowsInputError(
                                      [bad]
                                      {
                                          ComputeSlowdown::ParseProcess("--stragglers", bad);
                                      },
                                      {"--stragglers"}),
                                  true,
                                  "refused: '" << bad << "'");
        }
        const TrainingProfile p = OneLayer(125000);
        TrainingScenario s = Scenario(4, TrainingScenario::PARAMETER_SERVER);
        s.slowdown = {{4, 0, 1, 2}};
        NS_TEST_EXPECT_MSG_EQ(tests::ThrowsInputError(
                                  [&]
                                  {
                                      s.Validate(p);
                                  },
                                  {"--slowdown: worker 4 of --workers=4"}),
                              true,
                              "worker out of range");
        s.slowdown = {{3, 0, 1, 2}};
        NS_TEST_EXPECT_MSG_NE(CreateObject<AnalyticBackend>()->GetUnsupportedReason(p, s),
                              "",
                              "the analytic backend refuses episodes");
    }
};

/// The flow-level and unit cases.
class FaultsTestSuite : public TestSuite
{
  public:
    FaultsTestSuite()
        : TestSuite("distributed-training-faults", Type::UNIT)
    {
        AddTestCase(new StretchByHandTestCase, DT_TEST_QUICK);
        AddTestCase(new PoissonCountTestCase, DT_TEST_QUICK);
        AddTestCase(new OneWorkerStepTestCase(false), DT_TEST_QUICK);
        AddTestCase(new RingStragglerTestCase(false), DT_TEST_QUICK);
        AddTestCase(new SyncPsStragglerTestCase, DT_TEST_QUICK);
        AddTestCase(new AsyncStragglerTestCase, DT_TEST_QUICK);
        AddTestCase(new EpisodeOutsideRunTestCase, DT_TEST_QUICK);
        AddTestCase(new SeededStragglersTestCase, DT_TEST_QUICK);
        AddTestCase(new ParseAndRefuseTestCase, DT_TEST_QUICK);
    }
};

FaultsTestSuite g_faultsTestSuite; //!< the suite instance

/// The packet-level cases (a few seconds each).
class FaultsPacketTestSuite : public TestSuite
{
  public:
    FaultsPacketTestSuite()
        : TestSuite("distributed-training-faults-packet", Type::UNIT)
    {
        AddTestCase(new OneWorkerStepTestCase(true), DT_TEST_QUICK);
        AddTestCase(new RingStragglerTestCase(true), DT_TEST_QUICK);
    }
};

FaultsPacketTestSuite g_faultsPacketTestSuite; //!< the packet suite instance

} // namespace

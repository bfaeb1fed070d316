/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * An async PS worker that leaves the job and rejoins it (--leave, WorkerAbsences): the rule by
 * hand, the flow level's step times by hand for one worker, the job's rate while one of four
 * workers is away (flow and packet), the time away and missed steps the result reports, the
 * runs a window cannot change, and the refusals.
 *
 * Every run uses one layer, forward F = 1 ms and backward B = 1 ms, no update, per-layer means
 * (no sampling), overlap off, one server, async PS, links at 10 Gb/s raw (1.25e9 B/s).
 */

#include "training-test-utils.h"

#include "ns3/analytic-backend.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/packet-backend.h"
#include "ns3/test.h"
#include "ns3/training-scenario.h"
#include "ns3/worker-absences.h"

#include <cmath>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// 1 ms in seconds.
constexpr double MS = 1e-3;

/**
 * \param workers K
 * \param steps steps per worker
 * \return async PS, one server, no warm-up, no sampling, overlap off
 */
TrainingScenario
AsyncScenario(uint32_t workers, uint32_t steps)
{
    TrainingScenario s;
    s.mode = TrainingScenario::ASYNC;
    s.workers = workers;
    s.servers = 1;
    s.steps = steps;
    s.warmup = 0;
    s.sampleSteps = false;
    s.overlap = false;
    return s;
}

/// A test case run at the flow level (raw rates) or at the packet level.
class LevelTestCase : public TestCase
{
  public:
    /**
     * \param name the case's name
     * \param packet run the packet level (else the flow level)
     */
    LevelTestCase(const std::string& name, bool packet)
        : TestCase(name + (packet ? ", packet level" : ", flow level")),
          m_packet(packet)
    {
    }

  protected:
    /// One layer of M = 12.5 kB, F = B = 1 ms: compute-bound at 10 Gb/s.
    const TrainingProfile m_profile = tests::MakeProfile({12500}, 1000, 1000, 0);

    /// \param s a scenario \return its result at this case's level
    TrainingResult Run(const TrainingScenario& s) const
    {
        return m_packet ? CreateObject<PacketBackend>()->Run(m_profile, s).at(0)
                        : tests::RunFlowRaw(m_profile, s);
    }

  private:
    bool m_packet; //!< packet level (else the flow level)
};

/**
 * \param r a result
 * \param from start of an interval, s
 * \param to its end, s
 * \param worker count only this worker's steps (-1: every worker's)
 * \return the steps that ended inside [from, to)
 */
uint32_t
StepsEndingIn(const TrainingResult& r, double from, double to, int64_t worker = -1)
{
    uint32_t n = 0;
    for (const auto& x : r.steps)
    {
        if ((worker < 0 || x.worker == worker) && x.end >= from && x.end < to)
        {
            ++n;
        }
    }
    return n;
}

/**
 * System: worker 0 away in [1 s, 2 s) and [2 s, 3 s) (adjacent windows), worker 1 in [5 s, 6 s).
 * Expectations: a step may start at 0.5 s (before any window) and at 3 s (a window's end is
 * outside it); at 1 s or 2.5 s it starts at 3 s (the end of the chain of adjacent windows); worker
 * 1 at 5.5 s starts at 6 s; worker 2 has no window. The text and JSON forms parse to the same
 * windows.
 */
class NextStartByHandTestCase : public TestCase
{
  public:
    NextStartByHandTestCase()
        : TestCase("next step start around windows by hand, text and JSON syntax")
    {
    }

  private:
    void DoRun() override
    {
        const WorkerAbsences a({{0, 1, 1}, {0, 2, 1}, {1, 5, 1}}, 3);
        NS_TEST_ASSERT_MSG_EQ(a.NextStart(0, 0.5), 0.5, "before the windows");
        NS_TEST_ASSERT_MSG_EQ(a.NextStart(0, 1), 3, "at a window's start: after the chain");
        NS_TEST_ASSERT_MSG_EQ(a.NextStart(0, 2.5), 3, "inside the second window");
        NS_TEST_ASSERT_MSG_EQ(a.NextStart(0, 3), 3, "at the end: not away");
        NS_TEST_ASSERT_MSG_EQ(a.NextStart(1, 5.5), 6, "worker 1");
        NS_TEST_ASSERT_MSG_EQ(a.NextStart(2, 5.5), 5.5, "no window");
        const auto text = WorkerAbsences::Parse("--leave", "2:1s:500ms,0:20ms:1s");
        const auto json = WorkerAbsences::Parse(
            "--leave",
            R"([{"worker": 2, "start": "1s", "length": 0.5}, {"worker": 0, "start": 0.02,
                "length": "1s"}])");
        NS_TEST_ASSERT_MSG_EQ(text.size(), 2, "two windows");
        for (std::size_t i = 0; i < 2; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(text[i].worker, json[i].worker, "worker");
            NS_TEST_ASSERT_MSG_EQ(text[i].start, json[i].start, "start");
            NS_TEST_ASSERT_MSG_EQ(text[i].length, json[i].length, "length");
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(text[0].End(), 1.5, 1e-15, "2:1s:500ms ends at 1.5 s");
    }
};

/**
 * System: one worker, M = 1.25 MB (1 ms each way), 6 steps of 1 + 2 + 1 = 4 ms (flow level,
 * raw rates), so step i runs [4i, 4i + 4) ms; the worker leaves at 9 ms for 5 ms.
 * Expectations by hand: step 2 (8-12 ms) is in progress at 9 ms and runs to its end; the worker
 * is away 12-14 ms and step 3 starts at 14 ms, every later step 2 ms later than without the
 * window, each still 4 ms long: steps end at 4, 8, 12, 18, 22, 26 ms. Throughput: 6 steps in
 * 26 ms (against 24). The result reports the window: left at 12 ms, 2 ms away, missed steps
 * 2 ms x 6 / (26 - 2) ms = 0.5. Tolerance 1e-9 s.
 */
class OneWorkerByHandTestCase : public TestCase
{
  public:
    OneWorkerByHandTestCase()
        : TestCase("one worker leaves after its step, by hand, flow level")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = tests::MakeProfile({1250000}, 1000, 1000, 0);
        TrainingScenario s = AsyncScenario(1, 6);
        const TrainingResult base = tests::RunFlowRaw(p, s);
        NS_TEST_ASSERT_MSG_EQ_TOL(tests::StepOf(base, 0, 5).end, 24 * MS, 1e-9, "4 ms a step");
        s.leave = {{0, 9 * MS, 5 * MS}};
        const TrainingResult r = tests::RunFlowRaw(p, s);
        const double ends[] = {4, 8, 12, 18, 22, 26};
        for (uint32_t i = 0; i < 6; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(tests::StepOf(r, 0, i).end, ends[i] * MS, 1e-9, "step end");
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(tests::StepOf(r, 0, 3).start, 14 * MS, 1e-12, "back at 14 ms");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.throughput, 32 * 6 / (26 * MS), 1e-6 * r.throughput, "X");
        NS_TEST_ASSERT_MSG_EQ(r.absences.size(), 1, "one window reported");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.absences[0].left, 12 * MS, 1e-9, "left after step 2");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.absences[0].away, 2 * MS, 1e-9, "2 ms away");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.absences[0].missedSteps, 0.5, 1e-6, "half a step missed");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.inputs.at("missed_steps"), 0.5, 1e-6, "the inputs' sum");
    }
};

/**
 * System: K = 4 compute-bound workers (M = 12.5 kB: 10 us each way, against 2 ms of compute, so
 * the server's link is busy about 2 % of the time), 60 steps each (about 121 ms); worker 3 is
 * away from 30 ms for 60 ms. Base: the same without the window.
 * Expectations (flow level, and packet level with the same tolerances):
 *  - inside [40, 80) ms, where worker 3 is away, the job completes 3/4 of the steps it completes
 *    without the window (about 60 against 80; within 5 %: a window edge cuts a step of each);
 *    worker 3 completes none there;
 *  - the throughput falls by worker 3's share of the time it is away in the measured window
 *    T_A (the first worker's last step end): X = X_base (1 - 1/4 x away / T_A), within 2 %;
 *  - its missed steps are its time away over its step time, 2.02 ms: about 60 / 2.02 = 29.7,
 *    reported as away x m_3 / (T_3 - away), within 2 % of away / (the base's mean step time).
 */
class QuarterAwayTestCase : public LevelTestCase
{
  public:
    /// \param packet run the packet level (else the flow level)
    explicit QuarterAwayTestCase(bool packet)
        : LevelTestCase("one of four workers away", packet)
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s = AsyncScenario(4, 60);
        const TrainingResult base = Run(s);
        s.leave = {{3, 30 * MS, 60 * MS}};
        const TrainingResult r = Run(s);
        const double stepsBase = StepsEndingIn(base, 40 * MS, 80 * MS);
        const double steps = StepsEndingIn(r, 40 * MS, 80 * MS);
        NS_TEST_ASSERT_MSG_EQ_TOL(steps / stepsBase, 0.75, 0.05 * 0.75, "3/4 of the steps");
        NS_TEST_ASSERT_MSG_EQ(StepsEndingIn(r, 40 * MS, 80 * MS, 3), 0, "worker 3 is away");
        NS_TEST_ASSERT_MSG_EQ(r.absences.size(), 1, "one window reported");
        const auto& a = r.absences[0];
        NS_TEST_ASSERT_MSG_GT(a.left, 30 * MS, "left after its step in progress");
        NS_TEST_ASSERT_MSG_LT(a.left, 30 * MS + 2.5 * MS, "within a step of 30 ms");
        const double expected = base.throughput * (1 - 0.25 * a.away / r.windowEnd);
        NS_TEST_ASSERT_MSG_EQ_TOL(r.throughput, expected, 0.02 * expected, "X falls by 1/4");
        const double missed = a.away / base.stepTimeMean;
        NS_TEST_ASSERT_MSG_EQ_TOL(a.missedSteps, missed, 0.02 * missed, "missed steps");
    }
};

/**
 * System: as QuarterAwayTestCase, with a window that starts after the run ends (1 s), and one of
 * 0.1 ms that starts 0.5 ms into worker 3's step 10 (it ends before the step does).
 * Expectations: neither changes anything: the step records and the throughput are bit-identical
 * to the run without a window (flow and packet level); the second window's note says the worker
 * stayed, with no time away.
 */
class WindowWithoutEffectTestCase : public LevelTestCase
{
  public:
    /// \param packet run the packet level (else the flow level)
    explicit WindowWithoutEffectTestCase(bool packet)
        : LevelTestCase("a window after the run or inside a step changes nothing", packet)
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s = AsyncScenario(4, 20);
        const TrainingResult base = Run(s);
        const double inside = tests::StepOf(base, 3, 10).start + 0.5 * MS;
        for (const LeaveWindow& w : {LeaveWindow{1, 1, 1}, LeaveWindow{3, inside, 0.1 * MS}})
        {
            s.leave = {w};
            const TrainingResult r = Run(s);
            NS_TEST_ASSERT_MSG_EQ(r.throughput, base.throughput, "throughput unchanged");
            NS_TEST_ASSERT_MSG_EQ(r.steps.size(), base.steps.size(), "as many steps");
            for (std::size_t i = 0; i < r.steps.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(r.steps[i].end, base.steps[i].end, "step end unchanged");
            }
            NS_TEST_ASSERT_MSG_EQ(r.absences.at(0).away, 0, "no time away");
        }
        const TrainingResult r = Run(s);
        bool stayed = false;
        for (const auto& n : r.notes)
        {
            stayed = stayed || n.find("worker 3 stayed") != std::string::npos;
        }
        NS_TEST_ASSERT_MSG_EQ(stayed, true, "the note says the worker stayed");
    }
};

/**
 * System: --leave in scenarios that cannot express it.
 * Expectations: refused naming --leave and what was expected: sync PS and the ring (every
 * worker waits for every other), a worker index of K, two overlapping windows of one worker,
 * the analytic backend (its stationary models), a zero length and a JSON object without a
 * length.
 */
class LeaveRefusedTestCase : public TestCase
{
  public:
    LeaveRefusedTestCase()
        : TestCase("leave windows the scenario or backend cannot express are refused")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = tests::MakeProfile({12500}, 1000, 1000, 0);
        TrainingScenario s = AsyncScenario(4, 10);
        s.leave = {{1, 0.01, 0.01}};
        TrainingScenario sync = s;
        sync.mode = TrainingScenario::SYNC;
        TrainingScenario ring = s;
        ring.architecture = TrainingScenario::RING_ALLREDUCE;
        ring.servers = 0;
        ring.mode = TrainingScenario::SYNC;
        TrainingScenario worker = s;
        worker.leave = {{4, 0, 1}};
        TrainingScenario overlap = s;
        overlap.leave = {{1, 0, 1}, {1, 0.5, 1}};
        using tests::ThrowsInputError;
        auto validate = [&p](const TrainingScenario& x)
        {
            return [&p, x]
            {
                x.Validate(p);
            };
        };
        NS_TEST_ASSERT_MSG_EQ(ThrowsInputError(validate(sync), {"--leave", "--mode=async"}),
                              true,
                              "sync");
        NS_TEST_ASSERT_MSG_EQ(ThrowsInputError(validate(ring), {"--leave", "--arch=ps"}),
                              true,
                              "ring");
        NS_TEST_ASSERT_MSG_EQ(ThrowsInputError(validate(worker), {"--leave: worker 4", "0 to 3"}),
                              true,
                              "worker index");
        NS_TEST_ASSERT_MSG_EQ(ThrowsInputError(validate(overlap), {"worker 1 overlap"}),
                              true,
                              "overlap");
        NS_TEST_ASSERT_MSG_EQ(ThrowsInputError(
                                  [&p, &s]
                                  {
                                      CreateObject<AnalyticBackend>()->Run(p, s);
                                  },
                                  {"--leave with the analytic backend"}),
                              true,
                              "analytic");
        NS_TEST_ASSERT_MSG_EQ(ThrowsInputError(
                                  []
                                  {
                                      WorkerAbsences::Parse("--leave", "1:0s:0s");
                                  },
                                  {"--leave: length '0s'", "positive time"}),
                              true,
                              "zero length");
        NS_TEST_ASSERT_MSG_EQ(ThrowsInputError(
                                  []
                                  {
                                      WorkerAbsences::Parse("--leave",
                                                            R"([{"worker": 1, "start": 0}])");
                                  },
                                  {"--leave", "length"}),
                              true,
                              "JSON without a length");
    }
};

/// The flow-level cases and the rule.
class LeaveTestSuite : public TestSuite
{
  public:
    LeaveTestSuite()
        : TestSuite("distributed-training-leave", Type::UNIT)
    {
        AddTestCase(new NextStartByHandTestCase, DT_TEST_QUICK);
        AddTestCase(new OneWorkerByHandTestCase, DT_TEST_QUICK);
        AddTestCase(new QuarterAwayTestCase(false), DT_TEST_QUICK);
        AddTestCase(new WindowWithoutEffectTestCase(false), DT_TEST_QUICK);
        AddTestCase(new LeaveRefusedTestCase, DT_TEST_QUICK);
    }
};

LeaveTestSuite g_leaveTestSuite; //!< the suite instance

/// The packet-level cases (a few seconds each).
class LeavePacketTestSuite : public TestSuite
{
  public:
    LeavePacketTestSuite()
        : TestSuite("distributed-training-leave-packet", Type::UNIT)
    {
        AddTestCase(new QuarterAwayTestCase(true), DT_TEST_QUICK);
        AddTestCase(new WindowWithoutEffectTestCase(true), DT_TEST_QUICK);
    }
};

LeavePacketTestSuite g_leavePacketTestSuite; //!< the packet suite instance

} // namespace

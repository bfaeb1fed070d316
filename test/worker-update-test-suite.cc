/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ring workers' own optimizer step (--workerUpdate, the profile's worker_update_us): the
 * profile field as the loader reads and refuses it, the option's values, and the step it adds
 * at the flow, analytic and packet levels, by hand.
 *
 * Every run below uses one profile: two layers of 125 kB (M = 250 kB), forward 1 ms and backward
 * 1 ms each, a per-layer (server) update of 0.5 ms, and worker_update_us = 3 ms; K = 4, ring,
 * 10 Gb/s raw links, overlap off, one bucket per layer, per-layer means, 4 steps, no warm-up.
 */

#include "training-test-utils.h"

#include "ns3/analytic-backend.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/flow-level-simulator.h"
#include "ns3/packet-backend.h"
#include "ns3/ps-sharing.h"
#include "ns3/test.h"
#include "ns3/training-profile.h"
#include "ns3/training-scenario.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// 1 ms in seconds.
constexpr double MS = 1e-3;

/**
 * \param workerUpdate whether the profile holds worker_update_us = 3 ms
 * \return the two-layer profile of this file
 */
TrainingProfile
TwoLayers(bool workerUpdate)
{
    TrainingProfile p = tests::MakeProfile({125000, 125000}, 1000, 1000, 500);
    if (workerUpdate)
    {
        p.SetWorkerUpdate(3000, "test: 3 ms by hand");
    }
    return p;
}

/**
 * \param arch ps or ring
 * \param workerUpdate --workerUpdate's value
 * \return K = 4, sync, 4 steps, no warm-up, no sampling, overlap off
 */
TrainingScenario
Scenario(TrainingScenario::Architecture arch, const std::string& workerUpdate = "profile")
{
    TrainingScenario s;
    s.architecture = arch;
    s.workers = 4;
    s.steps = 4;
    s.warmup = 0;
    s.sampleSteps = false;
    s.overlap = false;
    s.SetWorkerUpdate("--workerUpdate", workerUpdate);
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
 * \param p a profile
 * \param edit what to change in its JSON
 * \return the edited profile's text
 */
std::string
Edited(const TrainingProfile& p, const std::function<void(nlohmann::json&)>& edit)
{
    nlohmann::json doc = nlohmann::json::parse(p.ToJson());
    edit(doc);
    return doc.dump();
}

/**
 * System: the profile with worker_update_us = 3000, saved and loaded back; then the same
 * profile's JSON with the field negative, a string, 2 hours, without its provenance, and a
 * provenance alone.
 * Expectations: the round trip gives an equal profile holding 3000 us and its provenance; each
 * bad file is refused naming the key and what was expected.
 */
class ProfileFieldTestCase : public TestCase
{
  public:
    ProfileFieldTestCase()
        : TestCase("profile worker_update_us loads back and bad values are refused")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = TwoLayers(true);
        const TrainingProfile back = TrainingProfile::LoadFromString(p.ToJson(), "mem");
        NS_TEST_EXPECT_MSG_EQ((back == p), true, "round trip");
        NS_TEST_EXPECT_MSG_EQ(back.GetWorkerUpdateUs(), 3000, "3 ms");
        NS_TEST_EXPECT_MSG_EQ(back.GetWorkerUpdateProvenance(), "test: 3 ms by hand", "provenance");
        NS_TEST_EXPECT_MSG_EQ(TwoLayers(false).HasWorkerUpdate(), false, "absent");
        const auto load = [](const std::string& text)
        {
            return [text]
            {
                TrainingProfile::LoadFromString(text, "bad.json");
            };
        };
        const auto set = [&p](const nlohmann::json& value)
        {
            return Edited(p,
                          [value](nlohmann::json& d)
                          {
                              d["worker_update_us"] = value;
                          });
        };
        NS_TEST_EXPECT_MSG_EQ(
            tests::ThrowsInputError(load(set(-1)), {"bad.json", "worker_update_us", "negative"}),
            true,
            "negative");
        NS_TEST_EXPECT_MSG_EQ(
            tests::ThrowsInputError(load(set("abc")), {"bad.json", "worker_update_us"}),
            true,
            "a string");
        NS_TEST_EXPECT_MSG_EQ(
            tests::ThrowsInputError(load(set(7.2e9)), {"worker_update_us", "one hour"}),
            true,
            "2 hours");
        const std::string noProvenance = Edited(p,
                                                [](nlohmann::json& d)
                                                {
                                                    d.erase("worker_update_provenance");
                                                });
        NS_TEST_EXPECT_MSG_EQ(
            tests::ThrowsInputError(load(noProvenance), {"worker_update_provenance", "missing"}),
            true,
            "no provenance");
        const std::string noTime = Edited(p,
                                          [](nlohmann::json& d)
                                          {
                                              d.erase("worker_update_us");
                                          });
        NS_TEST_EXPECT_MSG_EQ(
            tests::ThrowsInputError(load(noTime), {"worker_update_provenance", "without a time"}),
            true,
            "provenance alone");
    }
};

/**
 * System: --workerUpdate with profile, none, 5ms and 0, then -1ms, abc, nan, 2h; a PS scenario
 * with --workerUpdate=5ms; a ring on a profile without the field.
 * Expectations: the ring's time is the profile's 3000 us, 0, 5000 us and 0; the bad values are
 * refused naming --workerUpdate and the accepted values; PS takes 0 with a note that it ignores
 * the option; the ring without a field takes 0 with the note of the issue.
 */
class OptionTestCase : public TestCase
{
  public:
    OptionTestCase()
        : TestCase("--workerUpdate values, refusals and notes")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = TwoLayers(true);
        const auto ring = TrainingScenario::RING_ALLREDUCE;
        NS_TEST_EXPECT_MSG_EQ(Scenario(ring).GetWorkerUpdateUs(p), 3000, "profile");
        NS_TEST_EXPECT_MSG_EQ(Scenario(ring, "none").GetWorkerUpdateUs(p), 0, "none");
        NS_TEST_EXPECT_MSG_EQ_TOL(Scenario(ring, "5ms").GetWorkerUpdateUs(p), 5000, 1e-9, "5ms");
        NS_TEST_EXPECT_MSG_EQ(Scenario(ring, "0").GetWorkerUpdateUs(p), 0, "0");
        for (const std::string bad : {"-1ms", "abc", "nan", "2h", ""})
        {
            NS_TEST_EXPECT_MSG_EQ(tests::ThrowsInputError(
                                      [bad]
                                      {
                                          Scenario(TrainingScenario::RING_ALLREDUCE, bad);
                                      },
                                      {"--workerUpdate", "profile, none, or a time"}),
                                  true,
                                  "refused: '" << bad << "'");
        }
        const TrainingScenario ps = Scenario(TrainingScenario::PARAMETER_SERVER, "5ms");
        NS_TEST_EXPECT_MSG_EQ(ps.GetWorkerUpdateUs(p), 0, "ps: the servers update");
        NS_TEST_EXPECT_MSG_NE(ps.GetWorkerUpdateNote(p).find("ignored with --arch=ps"),
                              std::string::npos,
                              "ps note");
        NS_TEST_EXPECT_MSG_EQ(Scenario(ring).GetWorkerUpdateNote(p), "", "no note");
        NS_TEST_EXPECT_MSG_NE(
            Scenario(ring)
                .GetWorkerUpdateNote(TwoLayers(false))
                .find("profile has no worker optimizer time: ring steps exclude the update"),
            std::string::npos,
            "the note of a profile without the field");
    }
};

/**
 * System: the ring at the flow level, with --workerUpdate=profile (3 ms), none and 5ms, and the
 * profile without the field.
 * Expectations: every worker's step (1 ms forward + 1 ms backward per layer and two AllReduces of
 * 125 kB, each 2 (K-1)/K 125 kB / 1.25e9 B/s = 0.15 ms plus 6 hops of 20 us) is longer by exactly
 * 3 ms (5 ms with 5ms) than with none, to 1e-9 s; none is bit for bit the profile without the
 * field; the result holds T_U_worker_s = 3e-3 and the run without the field its note.
 */
class FlowRingTestCase : public TestCase
{
  public:
    FlowRingTestCase()
        : TestCase("flow ring, each step longer by exactly the worker update")
    {
    }

  private:
    void DoRun() override
    {
        const auto ring = TrainingScenario::RING_ALLREDUCE;
        const TrainingResult none = RunFlow(TwoLayers(true), Scenario(ring, "none"));
        const TrainingResult without = RunFlow(TwoLayers(false), Scenario(ring));
        NS_TEST_EXPECT_MSG_EQ(tests::SameSteps(none, without), true, "none: bit for bit");
        NS_TEST_EXPECT_MSG_EQ(without.notes.back().find("profile has no worker optimizer time"),
                              0,
                              "note: " << without.notes.back());
        for (const auto& [option, update] :
             {std::make_pair("profile", 3 * MS), std::make_pair("5ms", 5 * MS)})
        {
            const TrainingResult r = RunFlow(TwoLayers(true), Scenario(ring, option));
            NS_TEST_ASSERT_MSG_EQ(r.steps.size(), none.steps.size(), "records");
            for (std::size_t i = 0; i < r.steps.size(); ++i)
            {
                const double base = none.steps[i].end - none.steps[i].start;
                NS_TEST_EXPECT_MSG_EQ_TOL(r.steps[i].end - r.steps[i].start,
                                          base + update,
                                          1e-9,
                                          option << ": worker " << r.steps[i].worker << " step "
                                                 << r.steps[i].step);
            }
            NS_TEST_EXPECT_MSG_EQ_TOL(r.stepTimeMean, none.stepTimeMean + update, 1e-9, option);
            NS_TEST_EXPECT_MSG_EQ_TOL(r.inputs.at("T_U_worker_s"), update, 1e-12, option);
        }
    }
};

/**
 * System: the ring at the flow level with a x3 episode on worker 0 covering its optimizer step
 * of step 2 (from the step's AllReduce end, for 9 ms).
 * Expectations: the 3 ms update takes 9 ms, so worker 0's step 2 is 6 ms longer than without the
 * episode (to 1e-9 s); the other workers' step 2 is unchanged; every worker's step 3 begins the
 * same, as the next AllReduce waits for worker 0: worker 1's step 3 is 6 ms longer.
 */
class FlowSlowdownTestCase : public TestCase
{
  public:
    FlowSlowdownTestCase()
        : TestCase("flow ring, a x3 episode stretches the worker update")
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s = Scenario(TrainingScenario::RING_ALLREDUCE);
        const TrainingResult base = RunFlow(TwoLayers(true), s);
        const auto record = [](const TrainingResult& r, uint32_t w, uint32_t step)
        {
            return r.steps.at(step * 4 + w); // the engine records step by step, worker by worker
        };
        const auto length = [](const TrainingResult::StepRecord& x)
        {
            return x.end - x.start;
        };
        NS_TEST_ASSERT_MSG_EQ(record(base, 0, 2).step, 2, "record order");
        s.slowdown = {{0, record(base, 0, 2).end - 3 * MS, 9 * MS, 3}};
        const TrainingResult slowed = RunFlow(TwoLayers(true), s);
        NS_TEST_EXPECT_MSG_EQ_TOL(length(record(slowed, 0, 2)),
                                  length(record(base, 0, 2)) + 6 * MS,
                                  1e-9,
                                  "worker 0's update x3");
        NS_TEST_EXPECT_MSG_EQ_TOL(length(record(slowed, 1, 2)),
                                  length(record(base, 1, 2)),
                                  1e-9,
                                  "worker 1 unchanged");
        NS_TEST_EXPECT_MSG_EQ_TOL(length(record(slowed, 1, 3)),
                                  length(record(base, 1, 3)) + 6 * MS,
                                  1e-9,
                                  "worker 1 waits for worker 0 in step 3");
    }
};

/**
 * System: the analytic backend, ring, with --workerUpdate=profile (3 ms) and none; and PS with
 * and without the field.
 * Expectations: every ring variant's step time (Eq. (11), stash, CSF, OSF) is longer by exactly
 * 3 ms (to 1e-12 s); PS results are the same doubles with and without the field.
 */
class AnalyticTestCase : public TestCase
{
  public:
    AnalyticTestCase()
        : TestCase("analytic ring, every variant longer by the worker update, PS unchanged")
    {
    }

  private:
    void DoRun() override
    {
        auto backend = CreateObject<AnalyticBackend>();
        const auto ring = TrainingScenario::RING_ALLREDUCE;
        const auto with = backend->Run(TwoLayers(true), Scenario(ring));
        const auto none = backend->Run(TwoLayers(true), Scenario(ring, "none"));
        NS_TEST_ASSERT_MSG_EQ(with.size(), none.size(), "variants");
        for (std::size_t i = 0; i < with.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(with[i].stepTimeMean,
                                      none[i].stepTimeMean + 3 * MS,
                                      1e-12,
                                      with[i].variant);
        }
        const auto ps = TrainingScenario::PARAMETER_SERVER;
        const auto psWith = backend->Run(TwoLayers(true), Scenario(ps));
        const auto psWithout = backend->Run(TwoLayers(false), Scenario(ps));
        NS_TEST_ASSERT_MSG_EQ(psWith.size(), psWithout.size(), "variants");
        for (std::size_t i = 0; i < psWith.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(psWith[i].stepTimeMean,
                                  psWithout[i].stepTimeMean,
                                  psWith[i].variant);
        }
    }
};

/**
 * System: sync PS at the flow level on the profile with and without worker_update_us.
 * Expectations: the same step records, bit for bit (the servers apply update_us; the worker
 * field is a ring worker's).
 */
class FlowPsTestCase : public TestCase
{
  public:
    FlowPsTestCase()
        : TestCase("flow sync PS, the worker field changes nothing")
    {
    }

  private:
    void DoRun() override
    {
        const auto ps = TrainingScenario::PARAMETER_SERVER;
        NS_TEST_EXPECT_MSG_EQ(tests::SameSteps(RunFlow(TwoLayers(true), Scenario(ps)),
                                               RunFlow(TwoLayers(false), Scenario(ps))),
                              true,
                              "bit for bit");
    }
};

/**
 * System: the ring at the packet level (ns-3 TCP) with --workerUpdate=profile (3 ms) and none.
 * Expectations: the mean step time is longer by 3 ms within 1 % of the step with the update;
 * none is bit for bit the profile without the field. Measured (the driver on the same profile and
 * scenario): 4.602 ms -> 7.602 ms, + 3.000 ms (flow: 4.551 -> 7.551 ms).
 */
class PacketRingTestCase : public TestCase
{
  public:
    PacketRingTestCase()
        : TestCase("packet ring, each step longer by the worker update within 1 percent")
    {
    }

  private:
    void DoRun() override
    {
        const auto ring = TrainingScenario::RING_ALLREDUCE;
        auto run = [](const TrainingProfile& p, const TrainingScenario& s)
        {
            return CreateObject<PacketBackend>()->Run(p, s).at(0);
        };
        const TrainingResult none = run(TwoLayers(true), Scenario(ring, "none"));
        const TrainingResult without = run(TwoLayers(false), Scenario(ring));
        NS_TEST_EXPECT_MSG_EQ(tests::SameSteps(none, without), true, "none: bit for bit");
        const TrainingResult with = run(TwoLayers(true), Scenario(ring));
        const double expected = none.stepTimeMean + 3 * MS;
        NS_TEST_EXPECT_MSG_EQ_TOL(with.stepTimeMean, expected, 0.01 * expected, "+ 3 ms");
    }
};

/// The worker update's tests without packets (loader, option, flow, analytic).
class WorkerUpdateTestSuite : public TestSuite
{
  public:
    WorkerUpdateTestSuite()
        : TestSuite("distributed-training-worker-update", Type::UNIT)
    {
        AddTestCase(new ProfileFieldTestCase, DT_TEST_QUICK);
        AddTestCase(new OptionTestCase, DT_TEST_QUICK);
        AddTestCase(new FlowRingTestCase, DT_TEST_QUICK);
        AddTestCase(new FlowSlowdownTestCase, DT_TEST_QUICK);
        AddTestCase(new AnalyticTestCase, DT_TEST_QUICK);
        AddTestCase(new FlowPsTestCase, DT_TEST_QUICK);
    }
};

WorkerUpdateTestSuite g_workerUpdateTestSuite; //!< the suite instance

/// The worker update at the packet level (ns-3 TCP), a suite of its own as it takes longer.
class WorkerUpdatePacketTestSuite : public TestSuite
{
  public:
    WorkerUpdatePacketTestSuite()
        : TestSuite("distributed-training-worker-update-packet", Type::UNIT)
    {
        AddTestCase(new PacketRingTestCase, DT_TEST_QUICK);
    }
};

WorkerUpdatePacketTestSuite g_workerUpdatePacketTestSuite; //!< the packet suite instance

} // namespace

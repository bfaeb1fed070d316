/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Link failures (--linkDown): LinkFailures' re-routing rule on a leaf-spine fabric by hand, the
 * flow level's step times by hand around a failure at a step boundary, a failure after the run
 * and one on a link no flow crosses (bit-identical), the packet level within a few percent, and
 * the refusals.
 *
 * Fabric: 2 leaves x 2 spines, 2 hosts per leaf, 10 Gb/s host links, 5 Gb/s uplinks (raw:
 * B_up = 625e6 B/s). Sync PS with K = 2 workers (worker0, worker1 under leaf0) and one server
 * (ps0 under leaf1); one layer of M = 125 kB, forward and backward 1 ms each, no update.
 */

#include "training-test-utils.h"

#include "ns3/flow-level-simulator.h"
#include "ns3/link-failures.h"
#include "ns3/packet-backend.h"
#include "ns3/ps-sharing.h"
#include "ns3/test.h"
#include "ns3/training-input-error.h"
#include "ns3/training-scenario.h"

#include <cmath>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The layer's parameter bytes.
constexpr double M = 125e3;
/// The uplinks' raw rate, bytes/s.
constexpr double B_UP = 625e6;

/// \return the scenario of the header (no outage)
TrainingScenario
LeafSpine()
{
    TrainingScenario s;
    s.architecture = TrainingScenario::PARAMETER_SERVER;
    s.workers = 2;
    s.servers = 1;
    s.steps = 6;
    s.warmup = 0;
    s.sampleSteps = false;
    s.overlap = false;
    s.topology = "leafspine";
    s.leaves = 2;
    s.spines = 2;
    s.hostsPerLeaf = 2;
    s.nicRate = DataRate("10Gbps");
    s.uplinkRate = DataRate("5Gbps");
    return s;
}

/// \return one layer of M bytes, 1 ms forward and backward
TrainingProfile
Profile()
{
    return tests::MakeProfile({static_cast<uint64_t>(M)}, 1000, 1000, 0);
}

/**
 * \param s the scenario
 * \return the flow level's result on raw link rates, PS sharing
 */
TrainingResult
RunFlow(const TrainingScenario& s)
{
    return tests::RunFlowRaw(Profile(), s);
}

/**
 * \param r a result
 * \param step a step
 * \return worker 0's duration of that step
 */
double
StepLength(const TrainingResult& r, uint32_t step)
{
    for (const auto& x : r.steps)
    {
        if (x.worker == 0 && x.step == step)
        {
            return x.end - x.start;
        }
    }
    return NAN;
}

/**
 * \param r a result
 * \param step a step
 * \return when worker 0's step starts
 */
double
StepStart(const TrainingResult& r, uint32_t step)
{
    for (const auto& x : r.steps)
    {
        if (x.worker == 0 && x.step == step)
        {
            return x.start;
        }
    }
    return NAN;
}

/**
 * \param s a scenario
 * \return whether its two workers' pushes leave leaf0 on different spines (the ECMP seed's
 *         choice; the hand-worked numbers below assume it)
 */
bool
PushesSplit(const TrainingScenario& s)
{
    const FabricTopology t = s.BuildFabric();
    std::vector<uint32_t> spineLink;
    for (uint32_t w = 0; w < 2; ++w)
    {
        const FabricTopology::FlowKey key{FabricTopology::GetHostAddress(t.GetRoleHost(w)),
                                          FabricTopology::GetHostAddress(t.GetRoleHost(2)),
                                          49153,
                                          5000,
                                          6};
        spineLink.push_back(t.GetPath(t.GetRoleHost(w), t.GetRoleHost(2), key).at(1));
    }
    return spineLink[0] != spineLink[1];
}

// System: the fabric of the header; leaf0->spine0 down. Expectations: from leaf0 to ps0 only
// leaf0->spine1 is left (spine0 no longer reaches leaf0 in 2 hops), so every path from a
// worker to ps0 crosses it, and every path from ps0 to a worker crosses spine1->leaf0; a flow
// whose path did not cross the failed link keeps it (resilient hashing).
class LinkDownReroutingTestCase : public TestCase
{
  public:
    LinkDownReroutingTestCase()
        : TestCase("leaf0-spine0 down, every cross-leaf path takes spine1, others keep theirs")
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s = LeafSpine();
        const FabricTopology t = s.BuildFabric();
        LinkFailures f(t, LinkFailures::Parse("--linkDown", "leaf0->spine0@1s"));
        for (uint32_t port = 49153; port < 49153 + 32; ++port)
        {
            for (uint32_t w = 0; w < 2; ++w)
            {
                const uint32_t a = t.GetRoleHost(w);
                const uint32_t b = t.GetRoleHost(2);
                const FabricTopology::FlowKey up{FabricTopology::GetHostAddress(a),
                                                 FabricTopology::GetHostAddress(b),
                                                 static_cast<uint16_t>(port),
                                                 5000,
                                                 6};
                const auto before = f.GetPath(a, b, up, 0.5);
                const auto after = f.GetPath(a, b, up, 1.5);
                NS_TEST_ASSERT_MSG_EQ((before == t.GetPath(a, b, up)), true, "epoch 0: GetPath");
                NS_TEST_ASSERT_MSG_EQ(t.GetLink(after.at(1)).name, "leaf0->spine1", "up");
                NS_TEST_ASSERT_MSG_EQ(after.size(), 4u, "still 4 hops");
                const auto down = f.GetPath(b, a, up, 1.5);
                NS_TEST_ASSERT_MSG_EQ(t.GetLink(down.at(2)).name, "spine1->leaf0", "down");
                if (t.GetLink(before.at(1)).name == "leaf0->spine1")
                {
                    NS_TEST_ASSERT_MSG_EQ((before == after), true, "an unaffected flow stays");
                }
            }
        }
    }
};

// System: the header's run; leaf0->spine0 goes down when step 2 starts (the step boundary of
// the run without it), and the seed (1) puts the two pushes on different spines. Expectations
// by hand: before the failure a push and a pull each have an uplink of their own (each flow
// B_up, the server NIC's 10 Gb/s shared by two is B_up each too): M / B_up = 0.2 ms each way.
// After it both pushes share leaf0->spine1 and both pulls spine1->leaf0: 2 M / B_up = 0.4 ms
// each way, so every step from 2 on is 2 x 0.2 ms = 0.4 ms longer, and steps 0 and 1 are
// bit-identical to the run without the failure.
class LinkDownStepBoundaryTestCase : public TestCase
{
  public:
    LinkDownStepBoundaryTestCase()
        : TestCase("flow, uplink down at a step boundary, each later step 2 M over B_up longer")
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s = LeafSpine();
        NS_TEST_ASSERT_MSG_EQ(PushesSplit(s), true, "the seed splits the pushes");
        const TrainingResult base = RunFlow(s);
        const double t2 = StepStart(base, 2);
        LinkOutage outage;
        outage.link = "leaf0->spine0";
        outage.start = t2; // exactly the boundary (a text time would round it)
        s.linkDown = {outage};
        const TrainingResult failed = RunFlow(s);
        for (uint32_t step = 0; step < 2; ++step)
        {
            NS_TEST_ASSERT_MSG_EQ(StepLength(failed, step), StepLength(base, step), "before");
        }
        for (uint32_t step = 2; step < s.steps; ++step)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(StepLength(failed, step) - StepLength(base, step),
                                      2 * M / B_UP,
                                      1e-9,
                                      "after: 2 M / B_up longer");
        }
    }
};

// System: the header's run with leaf0->spine0 down after the last step (100 s, for good or for
// 1 s), and with a spine link that no flow of the job crosses down from 0. Expectations: each
// result equals the run without an outage (throughput, every step's end).
class LinkDownUnchangedTestCase : public TestCase
{
  public:
    LinkDownUnchangedTestCase()
        : TestCase("flow, a failure after the run or on an idle link changes nothing")
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s = LeafSpine();
        const TrainingResult base = RunFlow(s);
        for (const std::string text : {"leaf0->spine0@100s", "leaf0->spine0@100s:1s"})
        {
            s.linkDown = LinkFailures::Parse("--linkDown", text);
            const TrainingResult r = RunFlow(s);
            NS_TEST_ASSERT_MSG_EQ(r.throughput, base.throughput, text);
            NS_TEST_ASSERT_MSG_EQ(r.steps.size(), base.steps.size(), text);
            for (std::size_t i = 0; i < r.steps.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(r.steps[i].end, base.steps[i].end, text);
            }
        }
        // The link of the spine the pushes and pulls do not use (the seed's choice) carries no
        // flow: find it, fail it from 0 to the end.
        const FabricTopology t = s.BuildFabric();
        s.linkDown.clear();
        for (uint32_t l = 0; l < t.GetNLinks(); ++l)
        {
            const std::string& name = t.GetLink(l).name;
            if (name.rfind("spine", 0) == 0 && base.linkUtilisation.count(name) == 1
                && base.linkUtilisation.at(name) == 0
                && base.linkUtilisation.count(t.GetLink(FabricTopology::Reverse(l)).name) == 1
                && base.linkUtilisation.at(t.GetLink(FabricTopology::Reverse(l)).name) == 0)
            {
                s.linkDown = LinkFailures::Parse("--linkDown", name + "@0s");
                break;
            }
        }
        if (s.linkDown.empty())
        {
            return; // every link carries a flow at this seed: nothing to check here
        }
        const TrainingResult idle = RunFlow(s);
        NS_TEST_ASSERT_MSG_EQ(idle.throughput, base.throughput, "idle link");
    }
};

// System: the scenario's checks. Expectations: each refused with TrainingInputError naming
// --linkDown and what was expected.
class LinkDownRefusalsTestCase : public TestCase
{
  public:
    LinkDownRefusalsTestCase()
        : TestCase("bad --linkDown values are refused naming the option")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = Profile();
        const std::vector<std::string> bad{"",
                                           "leaf0->spine0",
                                           "leaf0->spine0@",
                                           "leaf0->spine0@-1s",
                                           "leaf0->spine0@nan",
                                           "leaf0->spine0@1s:0s",
                                           "leaf0->spine0@1s:2s:3s",
                                           "leaf9->spine0@1s",
                                           "worker0->leaf0@1s",
                                           "leaf0->spine0@1s,leaf0->spine1@2s",
                                           "leaf0->spine0@1s:2s,spine0->leaf0@2s"};
        for (const auto& text : bad)
        {
            bool refused = false;
            try
            {
                TrainingScenario s = LeafSpine();
                s.linkDown = LinkFailures::Parse("--linkDown", text);
                s.Validate(p);
            }
            catch (const TrainingInputError& e)
            {
                refused = std::string(e.what()).find("--linkDown") != std::string::npos;
            }
            NS_TEST_ASSERT_MSG_EQ(refused, true, "refused: " + text);
        }
    }
};

/// The suite.
class LinkFailuresTestSuite : public TestSuite
{
  public:
    LinkFailuresTestSuite()
        : TestSuite("distributed-training-link-failures", UNIT)
    {
        AddTestCase(new LinkDownReroutingTestCase, TestCase::QUICK);
        AddTestCase(new LinkDownStepBoundaryTestCase, TestCase::QUICK);
        AddTestCase(new LinkDownUnchangedTestCase, TestCase::QUICK);
        AddTestCase(new LinkDownRefusalsTestCase, TestCase::QUICK);
    }
};

/// The one instance.
LinkFailuresTestSuite g_linkFailuresTestSuite;

} // namespace

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Metamorphic relations every backend must keep, on seeded random scenarios (random-scenarios.h)
 * whose exact answers nobody knows, but whose answers must agree with each other:
 *  - a job alone (TrainingBackend::Run) = the same job as the only job of a set (RunJobs);
 *  - jobs on disjoint hosts of the star share no link, so each gets what it gets alone, for every
 *    sharing model and any start times;
 *  - a leaf-spine with one leaf is a star (every path host -> switch -> host);
 *  - a faster NIC never slows sync parameter-server training with identical workers;
 *  - a job set run twice gives identical results (the same seed, the same output).
 * A failure prints the options of the case, which reproduce it.
 */

#include "random-scenarios.h"

#include "ns3/distributed-training-compat.h"
#include "ns3/flow-backend.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/training-backend.h"
#include "ns3/training-input-error.h"
#include "ns3/training-job-set.h"
#include "ns3/training-result.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::tests;

namespace
{

/// Options of a random case that are the fabric's (the same for every job of a set).
const std::vector<std::string> FABRIC_OPTIONS{"nicRate", "flowCap", "linkDelay", "mtu"};

/**
 * \param backend a registered backend
 * \param sharing for the flow backend: its --sharing ("" = the default)
 * \return the backend
 */
Ptr<TrainingBackend>
MakeBackend(const std::string& backend, const std::string& sharing)
{
    Ptr<TrainingBackend> b = TrainingBackendRegistry::Create(backend);
    if (!sharing.empty())
    {
        b->SetAttribute("Sharing", StringValue(sharing));
    }
    return b;
}

/**
 * \param cases the jobs (their options; the fabric options of the first one count)
 * \param starts start time of each job (s)
 * \param topology the fabric's --topology options (name -> value)
 * \return the placed set, jobs "j0", "j1", ... packed in order
 */
TrainingJobSet
MakeSet(const std::vector<const Case*>& cases,
        const std::vector<double>& starts,
        const std::map<std::string, std::string>& topology = {})
{
    RunRequest base = ScenarioOptions::MakeDefault();
    for (const auto& name : FABRIC_OPTIONS)
    {
        auto it = cases[0]->options.find(name);
        if (it != cases[0]->options.end())
        {
            ScenarioOptions::Set(base, name, it->second);
        }
    }
    for (const auto& [name, value] : topology)
    {
        ScenarioOptions::Set(base, name, value);
    }
    TrainingJobSet set(base);
    for (std::size_t j = 0; j < cases.size(); ++j)
    {
        // As a jobs file: the base's fabric and network, the job's own options on top.
        RunRequest own = base;
        for (const auto& [name, value] : cases[j]->options)
        {
            if (std::find(FABRIC_OPTIONS.begin(), FABRIC_OPTIONS.end(), name)
                == FABRIC_OPTIONS.end())
            {
                ScenarioOptions::Set(own, name, value);
            }
        }
        TrainingJob job;
        job.name = "j" + std::to_string(j);
        job.profile = std::make_shared<const TrainingProfile>(cases[j]->profile);
        job.scenario = own.scenario;
        job.startTime = starts[j];
        set.Add(job);
    }
    set.Place("test");
    return set;
}

/**
 * \brief Run one random case; a refusal of a valid case is a failure, not an escape.
 * \param f the case
 * \return the refusal's message, "" if none
 */
std::string
Refusal(const std::function<void()>& f)
{
    try
    {
        f();
    }
    catch (const TrainingInputError& e)
    {
        return e.what();
    }
    return "";
}

/// \return whether a and b agree within a relative tolerance
bool
Close(double a, double b, double tolerance)
{
    return std::abs(a - b) <= tolerance * std::max(std::abs(a), std::abs(b));
}

/**
 * \brief A relation checked on a number of seeded random cases of one backend; a valid case
 * that a backend refuses is a failure, not an escaped exception.
 */
class RandomCasesTestCase : public TestCase
{
  public:
    /**
     * \param relation what the cases check
     * \param backend the backend
     * \param cases random cases (or job sets)
     * \param seed first seed
     */
    RandomCasesTestCase(const std::string& relation,
                        const std::string& backend,
                        uint32_t cases,
                        uint64_t seed)
        : TestCase(backend + ", " + relation),
          m_backend(backend),
          m_cases(cases),
          m_seed(seed)
    {
    }

  protected:
    /// Run every random case of the test.
    virtual void RunAll() = 0;

    std::string m_backend; //!< backend name
    uint32_t m_cases;      //!< random cases
    uint64_t m_seed;       //!< first seed

  private:
    void DoRun() override
    {
        const std::string refused = Refusal(
            [this]
            {
                RunAll();
            });
        NS_TEST_ASSERT_MSG_EQ(refused, "", "a valid random case was refused");
    }
};

/**
 * \brief A job alone = the same job as the only job of a set (flow, packet).
 */
class AloneInSetTestCase : public RandomCasesTestCase
{
  public:
    /**
     * \param backend the backend
     * \param cases random cases
     * \param seed first seed
     */
    AloneInSetTestCase(const std::string& backend, uint32_t cases, uint64_t seed)
        : RandomCasesTestCase("job alone = one-job set", backend, cases, seed)
    {
    }

  private:
    void RunAll() override
    {
        Random rnd(m_seed);
        for (uint32_t i = 0; i < m_cases; ++i)
        {
            const Case c = RandomCase(rnd, m_backend == "packet");
            const std::string sharing
                = m_backend == "flow" ? rnd.Pick<std::string>({"", "ps", "fcfs"}) : "";
            Ptr<TrainingBackend> b = MakeBackend(m_backend, sharing);
            const TrainingResult alone = b->Run(c.profile, c.scenario).at(0);
            const TrainingResult inSet = b->RunJobs(MakeSet({&c}, {0})).at(0).jobs.at(0);
            NS_TEST_ASSERT_MSG_EQ(Close(alone.throughput, inSet.throughput, 1e-9),
                                  true,
                                  "alone " << alone.throughput << " in a set " << inSet.throughput
                                           << " sharing '" << sharing << "'" << c.text);
        }
    }
};

/**
 * \brief Jobs on disjoint hosts of the star share no link: each gets its solo throughput, for
 * every sharing model and random start times (the flow backend once gave two one-worker jobs
 * 726.7 samples/s each against 1326.9 alone: their links had the same indices).
 */
class DisjointJobsTestCase : public RandomCasesTestCase
{
  public:
    /**
     * \param backend the backend
     * \param sets random job sets
     * \param seed first seed
     */
    DisjointJobsTestCase(const std::string& backend, uint32_t sets, uint64_t seed)
        : RandomCasesTestCase("disjoint jobs on the star = each alone", backend, sets, seed)
    {
    }

  private:
    void RunAll() override
    {
        Random rnd(m_seed);
        const bool packet = m_backend == "packet";
        for (uint32_t i = 0; i < m_cases; ++i)
        {
            const uint64_t n = packet ? 2 : 2 + rnd.Below(3);
            std::vector<Case> cases;
            std::vector<double> starts;
            for (uint64_t j = 0; j < n; ++j)
            {
                cases.push_back(RandomCase(rnd, packet));
                starts.push_back(rnd.Below(2) ? 0 : rnd.Uniform(0, 0.05));
            }
            // The fabric options are the first job's: give every job the same ones.
            for (auto& c : cases)
            {
                for (const auto& name : FABRIC_OPTIONS)
                {
                    c.options.erase(name);
                    auto it = cases[0].options.find(name);
                    if (it != cases[0].options.end())
                    {
                        c.options[name] = it->second;
                    }
                }
                Rebuild(c);
            }
            std::vector<const Case*> all;
            for (const auto& c : cases)
            {
                all.push_back(&c);
            }
            const std::string sharing
                = packet ? "" : rnd.Pick<std::string>({"", "ps", "fcfs", "capped", "calibrated"});
            Ptr<TrainingBackend> b = MakeBackend(m_backend, sharing);
            const JobSetResult together = b->RunJobs(MakeSet(all, starts)).at(0);
            for (uint64_t j = 0; j < n; ++j)
            {
                const JobSetResult alone = b->RunJobs(MakeSet({all[j]}, {starts[j]})).at(0);
                NS_TEST_ASSERT_MSG_EQ(
                    Close(together.jobs[j].throughput, alone.jobs[0].throughput, 1e-9),
                    true,
                    "set " << i << " job " << j << " of " << n << ": together "
                           << together.jobs[j].throughput << " alone " << alone.jobs[0].throughput
                           << " sharing '" << sharing << "'" << cases[j].text);
            }
        }
    }
};

/**
 * \brief A leaf-spine of one leaf is a star: every path is host -> leaf -> host, through links of
 * the NIC rate, whatever the spines.
 */
class OneLeafTestCase : public RandomCasesTestCase
{
  public:
    /**
     * \param backend the backend
     * \param cases random cases
     * \param seed first seed
     */
    OneLeafTestCase(const std::string& backend, uint32_t cases, uint64_t seed)
        : RandomCasesTestCase("one-leaf leaf-spine = star", backend, cases, seed)
    {
    }

  private:
    void RunAll() override
    {
        Random rnd(m_seed);
        Ptr<TrainingBackend> b = MakeBackend(m_backend, "");
        for (uint32_t i = 0; i < m_cases; ++i)
        {
            Case c = RandomCase(rnd, m_backend == "packet");
            const TrainingResult star = b->Run(c.profile, c.scenario).at(0);
            c.options["topology"] = "leafspine";
            c.options["leaves"] = "1";
            c.options["spines"] = std::to_string(1 + rnd.Below(4));
            Rebuild(c);
            const TrainingResult leaf = b->Run(c.profile, c.scenario).at(0);
            NS_TEST_ASSERT_MSG_EQ(Close(star.throughput, leaf.throughput, 1e-9),
                                  true,
                                  "star " << star.throughput << " one leaf " << leaf.throughput
                                          << c.text);
        }
    }
};

/**
 * \brief A faster NIC never slows sync parameter-server training with identical workers (every
 * transfer gets at least the rate it had, so no step ends later).
 */
class FasterLinkTestCase : public RandomCasesTestCase
{
  public:
    /**
     * \param backend the backend
     * \param cases random cases
     * \param seed first seed
     */
    FasterLinkTestCase(const std::string& backend, uint32_t cases, uint64_t seed)
        : FasterLinkTestCase("faster NIC never slows sync PS", backend, cases, seed)
    {
    }

  protected:
    /**
     * \param relation what the cases check
     * \param backend the backend
     * \param cases random cases
     * \param seed first seed
     */
    FasterLinkTestCase(const std::string& relation,
                       const std::string& backend,
                       uint32_t cases,
                       uint64_t seed)
        : RandomCasesTestCase(relation, backend, cases, seed)
    {
    }

    /**
     * \brief Make a random case one of those the relation is about: sync PS, identical workers.
     * \param rnd the random stream
     * \param c the case
     */
    virtual void Shape(Random& /* rnd */, Case& c) const
    {
        c.options["arch"] = "ps";
        c.options["mode"] = "sync";
        c.options.erase("bucket");
        c.options.erase("collective");
        c.options.erase("flowCap");
        c.options["computeScale"] = "1";
    }

  private:
    void RunAll() override
    {
        Random rnd(m_seed);
        const std::vector<std::string> rates{"1Gbps", "10Gbps", "25Gbps", "100Gbps"};
        for (uint32_t i = 0; i < m_cases; ++i)
        {
            Case c = RandomCase(rnd, false);
            Shape(rnd, c);
            const uint64_t slow = rnd.Below(rates.size() - 1);
            const uint64_t fast = slow + 1 + rnd.Below(rates.size() - 1 - slow);
            const std::string sharing
                = m_backend == "flow" ? rnd.Pick<std::string>({"", "ps", "fcfs"}) : "";
            Ptr<TrainingBackend> b = MakeBackend(m_backend, sharing);
            c.options["nicRate"] = rates[slow];
            Rebuild(c);
            const double before = b->Run(c.profile, c.scenario).at(0).throughput;
            c.options["nicRate"] = rates[fast];
            Rebuild(c);
            const double after = b->Run(c.profile, c.scenario).at(0).throughput;
            NS_TEST_ASSERT_MSG_GT_OR_EQ(after,
                                        before * (1 - 1e-9),
                                        rates[slow] << " " << before << " -> " << rates[fast] << " "
                                                    << after << " sharing '" << sharing << "'"
                                                    << c.text);
        }
    }
};

/**
 * \brief A faster NIC never slows the AllReduce collectives other than the ring
 * (halving-doubling, tree) at the flow level: each message's flow gets at least the rate it had
 * under every sharing model tried, so no receive, and no step, ends later.
 */
class FasterCollectiveTestCase : public FasterLinkTestCase
{
  public:
    /**
     * \param cases random cases
     * \param seed first seed
     */
    FasterCollectiveTestCase(uint32_t cases, uint64_t seed)
        : FasterLinkTestCase("faster NIC never slows the collectives", "flow", cases, seed)
    {
    }

  private:
    void Shape(Random& rnd, Case& c) const override
    {
        for (const char* psOnly : {"servers", "order", "partition", "flowCap"})
        {
            c.options.erase(psOnly);
        }
        c.options["arch"] = "ring";
        c.options["mode"] = "sync";
        c.options["collective"] = rnd.Pick<std::string>({"halving-doubling", "tree"});
        c.options["bucket"] = rnd.Pick<std::string>({"0", "1MB", "25MB", "inf"});
        c.options["treeChunk"] = rnd.Pick<std::string>({"64KiB", "512KiB"});
        c.options["computeScale"] = "1";
    }
};

/**
 * \brief A job set run twice gives identical per-job results.
 */
class SetTwiceTestCase : public RandomCasesTestCase
{
  public:
    /**
     * \param backend the backend
     * \param sets random job sets
     * \param seed first seed
     */
    SetTwiceTestCase(const std::string& backend, uint32_t sets, uint64_t seed)
        : RandomCasesTestCase("job set twice = same results", backend, sets, seed)
    {
    }

  private:
    void RunAll() override
    {
        Random rnd(m_seed);
        Ptr<TrainingBackend> b = MakeBackend(m_backend, "");
        for (uint32_t i = 0; i < m_cases; ++i)
        {
            // Two jobs on one leaf-spine with few hosts per leaf: they share uplinks.
            Case a = RandomCase(rnd, m_backend == "packet");
            Case c = RandomCase(rnd, m_backend == "packet");
            for (const auto& name : FABRIC_OPTIONS)
            {
                c.options.erase(name);
                if (a.options.count(name))
                {
                    c.options[name] = a.options[name];
                }
            }
            Rebuild(c);
            const std::map<std::string, std::string> fabric{{"topology", "leafspine"},
                                                            {"leaves", "2"},
                                                            {"hostsPerLeaf", "10"}};
            const JobSetResult x = b->RunJobs(MakeSet({&a, &c}, {0, 0.001}, fabric)).at(0);
            const JobSetResult y = b->RunJobs(MakeSet({&a, &c}, {0, 0.001}, fabric)).at(0);
            for (std::size_t j = 0; j < 2; ++j)
            {
                NS_TEST_ASSERT_MSG_EQ(x.jobs[j].throughput,
                                      y.jobs[j].throughput,
                                      "job " << j << a.text << " |" << c.text);
                NS_TEST_ASSERT_MSG_EQ(x.jobs[j].stepTimeMean, y.jobs[j].stepTimeMean, a.text);
            }
        }
    }
};

/**
 * \brief --leave on random async PS cases: no step of the absent worker starts inside its
 * window, it leaves at or after the window's start, its time away is at most the window's
 * length and its missed steps are not negative; a window that starts after the run changes
 * nothing (bit for bit); the same case twice gives the same result (flow, packet).
 */
class LeaveRelationsTestCase : public RandomCasesTestCase
{
  public:
    /**
     * \param backend the backend
     * \param cases random cases
     * \param seed first seed
     */
    LeaveRelationsTestCase(const std::string& backend, uint32_t cases, uint64_t seed)
        : RandomCasesTestCase("leave windows keep the rule", backend, cases, seed)
    {
    }

  private:
    void RunAll() override
    {
        Random rnd(m_seed);
        for (uint32_t i = 0; i < m_cases; ++i)
        {
            Case c = RandomCase(rnd, m_backend == "packet");
            if (c.scenario.mode != TrainingScenario::ASYNC)
            {
                --i; // only async PS takes --leave
                continue;
            }
            Ptr<TrainingBackend> b = MakeBackend(m_backend, "");
            const TrainingResult base = b->Run(c.profile, c.scenario).at(0);
            const double end = base.steps.back().end;
            const auto w = static_cast<uint32_t>(rnd.Below(c.scenario.workers));
            const LeaveWindow window{w, rnd.Uniform(0, end), rnd.Uniform(0.01, 0.3) * end};
            c.scenario.leave = {{w, 2 * end + 1, window.length}};
            NS_TEST_ASSERT_MSG_EQ(b->Run(c.profile, c.scenario).at(0).throughput,
                                  base.throughput,
                                  "a window after the run" << c.text);
            c.scenario.leave = {window};
            const TrainingResult r = b->Run(c.profile, c.scenario).at(0);
            for (const auto& x : r.steps)
            {
                const bool inside
                    = x.worker == w && x.start >= window.start && x.start < window.End();
                NS_TEST_ASSERT_MSG_EQ(inside, false, "a step started inside the window" << c.text);
            }
            const auto& a = r.absences.at(0);
            const bool sane = a.left >= window.start && a.away >= 0
                              && a.away <= window.length * (1 + 1e-12) && a.missedSteps >= 0;
            NS_TEST_ASSERT_MSG_EQ(sane, true, "left " << a.left << " away " << a.away << c.text);
            NS_TEST_ASSERT_MSG_EQ(b->Run(c.profile, c.scenario).at(0).throughput,
                                  r.throughput,
                                  "same case, same result" << c.text);
        }
    }
};

/// The metamorphic relations, per backend that can afford them.
class MetamorphicTestSuite : public TestSuite
{
  public:
    MetamorphicTestSuite()
        : TestSuite("distributed-training-metamorphic", Type::UNIT)
    {
        AddTestCase(new AloneInSetTestCase("flow", 300, 31001), DT_TEST_QUICK);
        AddTestCase(new DisjointJobsTestCase("flow", 300, 31002), DT_TEST_QUICK);
        AddTestCase(new OneLeafTestCase("flow", 300, 31003), DT_TEST_QUICK);
        AddTestCase(new FasterLinkTestCase("flow", 300, 31004), DT_TEST_QUICK);
        AddTestCase(new FasterLinkTestCase("analytic", 300, 31005), DT_TEST_QUICK);
        AddTestCase(new FasterCollectiveTestCase(100, 31010), DT_TEST_QUICK);
        AddTestCase(new SetTwiceTestCase("flow", 100, 31006), DT_TEST_QUICK);
        AddTestCase(new AloneInSetTestCase("packet", 4, 31007), DT_TEST_QUICK);
        AddTestCase(new DisjointJobsTestCase("packet", 2, 31008), DT_TEST_QUICK);
        AddTestCase(new OneLeafTestCase("packet", 3, 31009), DT_TEST_QUICK);
        AddTestCase(new LeaveRelationsTestCase("flow", 200, 31011), DT_TEST_QUICK);
        AddTestCase(new LeaveRelationsTestCase("packet", 2, 31012), DT_TEST_QUICK);
    }
};

/// The suite's one instance.
MetamorphicTestSuite g_metamorphicTestSuite;

} // namespace

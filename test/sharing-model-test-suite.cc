/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The sharing models of the flow-level simulator on hand-worked flow sets: Algorithm 1's FCFS and
 * PS (000_466ded720105ddf3.txt Sec. 2.2.2), the per-flow cap of 000 Sec. 4.4, the two-server rule
 * of 001_33040fda0f1f6815.txt Sec. 5, and the max-min fairness conditions on random flow sets;
 * SharingModelRegistry, the one list of models by name, and a model registered from this file.
 */

#include "training-test-utils.h"

#include "ns3/allreduce-sharing.h"
#include "ns3/boolean.h"
#include "ns3/calibrated-sharing.h"
#include "ns3/capped-sharing.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/double.h"
#include "ns3/fcfs-sharing.h"
#include "ns3/flow-backend.h"
#include "ns3/nstime.h"
#include "ns3/ps-sharing.h"
#include "ns3/scenario-options.h"
#include "ns3/sharing-model-registry.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/training-input-error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const double INF = std::numeric_limits<double>::infinity();

/// A flow crossing the given links.
SharingModel::Flow
MakeFlow(std::vector<uint32_t> links, uint64_t priority, double cap = INF, double start = 0)
{
    SharingModel::Flow f;
    for (std::size_t i = 0; i < links.size(); ++i)
    {
        f.links[i] = links[i];
    }
    f.nLinks = static_cast<uint32_t>(links.size());
    f.priority = priority;
    f.cap = cap;
    f.start = start;
    return f;
}

/// Rates assigned by a model.
std::vector<double>
Rates(const SharingModel& model,
      const std::vector<SharingModel::Flow>& flows,
      const std::vector<double>& capacity)
{
    std::vector<double> rates;
    model.AssignRates(flows, capacity, rates);
    return rates;
}

/**
 * \ingroup distributed-training
 * Algorithm 1's PS: n flows on one link get 1/n each.
 *
 * ps: n flows through one server link get one n-th of it each (Algorithm 1 Share).
 */
class PsEqualShareTestCase : public TestCase
{
  public:
    PsEqualShareTestCase()
        : TestCase("ps, n flows through one server link get 1 over n each")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<PsSharing> ps = CreateObject<PsSharing>();
        NS_TEST_EXPECT_MSG_EQ(ps->GetName(), "ps", "name");
        for (uint32_t n = 1; n <= 6; ++n)
        {
            // Link 0 = server NIC; links 1..n = the workers' NICs.
            std::vector<SharingModel::Flow> flows;
            for (uint32_t i = 0; i < n; ++i)
            {
                flows.push_back(MakeFlow({1 + i, 0}, n - i));
            }
            std::vector<double> rates = Rates(*ps, flows, std::vector<double>(n + 1, 12.0));
            for (uint32_t i = 0; i < n; ++i)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(rates[i], 12.0 / n, 1e-12, "flow " << i << " of " << n);
            }
        }
    }
};

/**
 * \ingroup distributed-training
 * 000 Sec. 4.4: per-flow cap 10 on a 25 link.
 *
 * Capped: 3 flows capped at 10 G on 25 G get 8.33 G each, 2 get 10 G, 1 gets 10 G; ps ignores the
 * cap.
 */
class CappedShareTestCase : public TestCase
{
  public:
    CappedShareTestCase()
        : TestCase("capped, 10 Gbps cap on 25 Gbps links, 1 to 3 flows, ps ignores the cap")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<CappedSharing> capped = CreateObject<CappedSharing>();
        Ptr<PsSharing> ps = CreateObject<PsSharing>();
        NS_TEST_EXPECT_MSG_EQ(capped->GetName(), "capped", "name");

        struct Case
        {
            uint32_t n;
            double expected;
        };

        for (Case c : {Case{3, 25.0 / 3}, Case{2, 10.0}, Case{1, 10.0}, Case{5, 5.0}})
        {
            std::vector<SharingModel::Flow> flows;
            for (uint32_t i = 0; i < c.n; ++i)
            {
                flows.push_back(MakeFlow({1 + i, 0}, i, 10.0));
            }
            std::vector<double> cap(c.n + 1, 25.0);
            std::vector<double> rates = Rates(*capped, flows, cap);
            std::vector<double> psRates = Rates(*ps, flows, cap);
            for (uint32_t i = 0; i < c.n; ++i)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(rates[i], c.expected, 1e-12, c.n << " capped flows");
                NS_TEST_EXPECT_MSG_EQ_TOL(psRates[i], 25.0 / c.n, 1e-12, c.n << " ps flows");
            }
        }
        // A capped flow leaves room that max-min gives to an uncapped flow on the same link.
        std::vector<SharingModel::Flow> mixed
            = {MakeFlow({1, 0}, 0, 4.0), MakeFlow({2, 0}, 1, INF)};
        std::vector<double> rates = Rates(*capped, mixed, {25.0, 25.0, 25.0});
        NS_TEST_EXPECT_MSG_EQ_TOL(rates[0], 4.0, 1e-12, "capped flow");
        NS_TEST_EXPECT_MSG_EQ_TOL(rates[1], 21.0, 1e-12, "the rest to the uncapped flow");
    }
};

/**
 * \ingroup distributed-training
 * Algorithm 1's FCFS, and its generalisation to several servers.
 *
 * fcfs: the first active flow takes the whole link and the others get 0; a flow blocked at its
 * server leaves the worker's NIC to the next.
 */
class FcfsShareTestCase : public TestCase
{
  public:
    FcfsShareTestCase()
        : TestCase("fcfs, the first active flow takes the whole link")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<FcfsSharing> fcfs = CreateObject<FcfsSharing>();
        NS_TEST_EXPECT_MSG_EQ(fcfs->GetName(), "fcfs", "name");
        // One server (link 0), three workers (links 1-3), activated in the order 2, 0, 1.
        std::vector<SharingModel::Flow> flows
            = {MakeFlow({1, 0}, 20), MakeFlow({2, 0}, 30), MakeFlow({3, 0}, 10)};
        std::vector<double> rates = Rates(*fcfs, flows, {10.0, 10.0, 10.0, 10.0});
        NS_TEST_EXPECT_MSG_EQ(rates[2], 10.0, "earliest flow gets the whole link");
        NS_TEST_EXPECT_MSG_EQ(rates[0], 0.0, "second waits");
        NS_TEST_EXPECT_MSG_EQ(rates[1], 0.0, "third waits");

        // Two servers (links 0, 1), two workers (links 2, 3). Worker A (link 2) pulls from both
        // servers, worker B (link 3) from server 0 after A. A's flow from server 0 came first and
        // takes server 0 and A's NIC; A's flow from server 1 then finds A's NIC full; B waits
        // for server 0. Nothing uses server 1.
        std::vector<SharingModel::Flow> two
            = {MakeFlow({2, 0}, 1), MakeFlow({2, 1}, 2), MakeFlow({3, 0}, 3)};
        rates = Rates(*fcfs, two, {10.0, 10.0, 10.0, 10.0});
        NS_TEST_EXPECT_MSG_EQ(rates[0], 10.0, "A from server 0");
        NS_TEST_EXPECT_MSG_EQ(rates[1], 0.0, "A from server 1 waits for A's NIC");
        NS_TEST_EXPECT_MSG_EQ(rates[2], 0.0, "B waits for server 0");
        // If B had pulled from server 1 instead, it would have had server 1 to itself.
        two[2] = MakeFlow({3, 1}, 3);
        rates = Rates(*fcfs, two, {10.0, 10.0, 10.0, 10.0});
        NS_TEST_EXPECT_MSG_EQ(rates[2], 10.0, "B alone on server 1 and its own NIC");
    }
};

/**
 * \ingroup distributed-training
 * 001 Sec. 5: a worker alone on server 1 while sharing server 2 with n-1 others gets 1/n on
 * server 2 and at most 1-1/n on server 1.
 *
 * ps with two servers: a worker alone on ps1 and with n-1 others on ps2 gets 1 over n on ps2 and 1
 * - 1 over n on ps1 (001 Sec. 5).
 */
class TwoServerRuleTestCase : public TestCase
{
  public:
    TwoServerRuleTestCase()
        : TestCase("ps with two servers follows the two-server rule of paper 001 Sec. 5")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<PsSharing> ps = CreateObject<PsSharing>();
        for (uint32_t n = 2; n <= 6; ++n)
        {
            // Links: 0 = ps1, 1 = ps2, 2.. = workers' NICs. Worker 0 talks to both servers,
            // workers 1..n-1 only to ps2.
            std::vector<SharingModel::Flow> flows = {MakeFlow({2, 0}, 0), MakeFlow({2, 1}, 1)};
            for (uint32_t w = 1; w < n; ++w)
            {
                flows.push_back(MakeFlow({2 + w, 1}, 1 + w));
            }
            std::vector<double> rates = Rates(*ps, flows, std::vector<double>(n + 2, 1.0));
            NS_TEST_EXPECT_MSG_EQ_TOL(rates[1], 1.0 / n, 1e-12, "worker 0 on ps2, n = " << n);
            NS_TEST_EXPECT_MSG_EQ_TOL(rates[0], 1.0 - 1.0 / n, 1e-12, "worker 0 on ps1, n = " << n);
            for (uint32_t w = 1; w < n; ++w)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(rates[1 + w], 1.0 / n, 1e-12, "worker " << w);
            }
        }
    }
};

/**
 * \ingroup distributed-training
 * ALL_REDUCE sharing: full bandwidth regardless of the others.
 *
 * allreduce: every flow gets the smallest capacity on its path, whatever else is active, at most
 * its per-flow cap.
 */
class AllReduceShareTestCase : public TestCase
{
  public:
    AllReduceShareTestCase()
        : TestCase("allreduce, each flow gets the smallest capacity on its path")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<AllReduceSharing> ar = CreateObject<AllReduceSharing>();
        NS_TEST_EXPECT_MSG_EQ(ar->GetName(), "allreduce", "name");
        std::vector<SharingModel::Flow> flows
            = {MakeFlow({1, 0}, 0, 1.0), MakeFlow({2, 0}, 1), MakeFlow({3, 0}, 2)};
        std::vector<double> rates = Rates(*ar, flows, {10.0, 10.0, 4.0, 10.0});
        NS_TEST_EXPECT_MSG_EQ(rates[0], 1.0, "at most the per-flow cap");
        NS_TEST_EXPECT_MSG_EQ(rates[1], 4.0, "slowest link on the path");
        NS_TEST_EXPECT_MSG_EQ(rates[2], 10.0, "no sharing");
    }
};

/**
 * \ingroup distributed-training
 * On random flow sets, ps and capped are max-min fair: feasible, and every flow is either at its
 * cap or crosses a full link on which no flow gets more than it.
 *
 * ps and capped on 500 random flow sets: no link overfull, every flow at its cap or bottlenecked on
 * a full link where it has the largest rate.
 */
class MaxMinPropertyTestCase : public TestCase
{
  public:
    MaxMinPropertyTestCase()
        : TestCase("ps and capped on 500 random flow sets are max-min fair")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<PsSharing> ps = CreateObject<PsSharing>();
        Ptr<CappedSharing> capped = CreateObject<CappedSharing>();
        std::mt19937_64 gen(7);
        std::uniform_int_distribution<uint32_t> nFlows(1, 12);
        std::uniform_int_distribution<uint32_t> nLinks(2, 8);
        std::uniform_real_distribution<double> unit(0.5, 2.0);
        for (int trial = 0; trial < 500; ++trial)
        {
            uint32_t links = nLinks(gen);
            std::vector<double> capacity(links);
            for (auto& c : capacity)
            {
                c = unit(gen) * 10;
            }
            std::vector<SharingModel::Flow> flows;
            uint32_t n = nFlows(gen);
            for (uint32_t i = 0; i < n; ++i)
            {
                uint32_t a = gen() % links;
                uint32_t b = (a + 1 + gen() % (links - 1)) % links;
                flows.push_back(MakeFlow({a, b}, i, gen() % 2 ? unit(gen) * 4 : INF));
            }
            for (bool honour : {false, true})
            {
                const SharingModel& model
                    = honour ? static_cast<const SharingModel&>(*capped) : *ps;
                std::vector<double> rates = Rates(model, flows, capacity);
                std::vector<double> load(links, 0);
                std::vector<double> maxRate(links, 0);
                for (uint32_t i = 0; i < n; ++i)
                {
                    for (uint32_t k = 0; k < flows[i].nLinks; ++k)
                    {
                        load[flows[i].links[k]] += rates[i];
                        maxRate[flows[i].links[k]] = std::max(maxRate[flows[i].links[k]], rates[i]);
                    }
                }
                for (uint32_t l = 0; l < links; ++l)
                {
                    NS_TEST_ASSERT_MSG_EQ((load[l] <= capacity[l] * (1 + 1e-9)),
                                          true,
                                          "trial " << trial << ": link " << l << " overfull");
                }
                for (uint32_t i = 0; i < n; ++i)
                {
                    bool atCap = honour && rates[i] >= flows[i].cap * (1 - 1e-9);
                    NS_TEST_ASSERT_MSG_EQ((!honour || rates[i] <= flows[i].cap * (1 + 1e-9)),
                                          true,
                                          "trial " << trial << ": flow " << i << " above cap");
                    bool bottleneck = false;
                    for (uint32_t k = 0; k < flows[i].nLinks; ++k)
                    {
                        uint32_t l = flows[i].links[k];
                        bottleneck = bottleneck
                                     || (load[l] >= capacity[l] * (1 - 1e-9)
                                         && rates[i] >= maxRate[l] * (1 - 1e-9));
                    }
                    NS_TEST_ASSERT_MSG_EQ((atCap || bottleneck),
                                          true,
                                          "trial " << trial << ": flow " << i
                                                   << " could get more (not max-min fair)");
                }
            }
        }
    }
};

/**
 * \ingroup distributed-training
 * CalibratedSharing on hand-worked cases: cohorts by start time, weights w^cohort, weighted
 * max-min with caps; its limits w = 1 (PS) and w -> 0 (FCFS between cohorts).
 *
 * Calibrated: an incumbent keeps 1 over (1+w) of a link against a later flow, flows starting within
 * the cohort window share equally, w = 1 is ps, w = 0 is fcfs between cohorts, caps and other links
 * free capacity for the younger.
 */
class CalibratedShareTestCase : public TestCase
{
  public:
    CalibratedShareTestCase()
        : TestCase("calibrated, incumbent keeps 1 over (1+w), cohorts share equally")
    {
    }

  private:
    /// Rates of flows on link 0 (capacity 10) from workers on links 1.. (capacity 100).
    std::vector<double> Run(double w,
                            const std::vector<double>& starts,
                            const std::vector<double>& caps = {},
                            double workerLink0 = 100)
    {
        Ptr<CalibratedSharing> model = CreateObject<CalibratedSharing>();
        model->SetAttribute("IncumbentWeight", DoubleValue(w));
        model->SetAttribute("CohortWindow", TimeValue(MicroSeconds(200)));
        std::vector<SharingModel::Flow> flows;
        std::vector<double> capacity(starts.size() + 1, 100.0);
        capacity[0] = 10;
        capacity[1] = workerLink0;
        for (std::size_t i = 0; i < starts.size(); ++i)
        {
            flows.push_back(MakeFlow({static_cast<uint32_t>(1 + i), 0},
                                     i,
                                     i < caps.size() ? caps[i] : INF,
                                     starts[i]));
        }
        return Rates(*model, flows, capacity);
    }

    void DoRun() override
    {
        const double tol = 1e-9;
        NS_TEST_EXPECT_MSG_EQ(CreateObject<CalibratedSharing>()->GetName(), "calibrated", "name");
        // Incumbent (t = 0) and a newcomer 1 ms later, w = 0.25: 10 / 1.25 = 8 and 2.
        std::vector<double> r = Run(0.25, {0, 1e-3});
        NS_TEST_EXPECT_MSG_EQ_TOL(r[0], 8.0, tol, "incumbent keeps 1/(1+w)");
        NS_TEST_EXPECT_MSG_EQ_TOL(r[1], 2.0, tol, "newcomer gets w/(1+w)");
        // The same arrivals within the 200 us cohort window: one cohort, equal shares.
        r = Run(0.25, {0, 150e-6});
        NS_TEST_EXPECT_MSG_EQ_TOL(r[0], 5.0, tol, "same cohort");
        NS_TEST_EXPECT_MSG_EQ_TOL(r[1], 5.0, tol, "same cohort");
        // w = 1 is processor sharing whatever the starts.
        r = Run(1.0, {0, 1e-3, 5e-3});
        for (double x : r)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(x, 10.0 / 3, tol, "w = 1 is ps");
        }
        // Three cohorts, w = 0.5: weights 1, 0.5, 0.25 of a total of 1.75.
        r = Run(0.5, {0, 1e-3, 2e-3});
        NS_TEST_EXPECT_MSG_EQ_TOL(r[0], 10 / 1.75, tol, "cohort 0");
        NS_TEST_EXPECT_MSG_EQ_TOL(r[1], 5 / 1.75, tol, "cohort 1");
        NS_TEST_EXPECT_MSG_EQ_TOL(r[2], 2.5 / 1.75, tol, "cohort 2");
        // Cohorts are formed from the cohort's first start: 0, 150 us (joins), 300 us (new).
        r = Run(0.5, {0, 150e-6, 300e-6});
        NS_TEST_EXPECT_MSG_EQ_TOL(r[0], 4.0, tol, "window counts from the cohort's first");
        NS_TEST_EXPECT_MSG_EQ_TOL(r[1], 4.0, tol, "window counts from the cohort's first");
        NS_TEST_EXPECT_MSG_EQ_TOL(r[2], 2.0, tol, "window counts from the cohort's first");
        // w = 0: the newcomer gets only what the incumbent leaves (FCFS between cohorts).
        r = Run(0.0, {0, 1e-3});
        NS_TEST_EXPECT_MSG_EQ_TOL(r[0], 10.0, 1e-4, "w = 0: incumbent takes the link");
        NS_TEST_EXPECT_MSG_EQ_TOL(r[1], 0.0, 1e-4, "w = 0: newcomer waits");
        // ... unless the incumbent is capped or limited by its own NIC: the rest goes on.
        r = Run(0.0, {0, 1e-3}, {3.0});
        NS_TEST_EXPECT_MSG_EQ_TOL(r[0], 3.0, tol, "capped incumbent");
        NS_TEST_EXPECT_MSG_EQ_TOL(r[1], 7.0, 1e-6, "newcomer takes the rest");
        r = Run(0.25, {0, 1e-3}, {}, 1.0);
        NS_TEST_EXPECT_MSG_EQ_TOL(r[0], 1.0, tol, "incumbent limited by its NIC");
        NS_TEST_EXPECT_MSG_EQ_TOL(r[1], 9.0, tol, "newcomer takes the rest");
        // The weight is the smallest over a flow's links: flow 1 is the newcomer on link 0
        // only; the weights do not depend on the order of the flow vector.
        Ptr<CalibratedSharing> model = CreateObject<CalibratedSharing>();
        model->SetAttribute("IncumbentWeight", DoubleValue(0.25));
        std::vector<SharingModel::Flow> flows
            = {MakeFlow({2, 0}, 2, INF, 1e-3), MakeFlow({1, 0}, 1, INF, 0)};
        std::vector<double> weights;
        model->ComputeWeights(flows, 3, weights);
        NS_TEST_EXPECT_MSG_EQ_TOL(weights[0], 0.25, tol, "newcomer's weight");
        NS_TEST_EXPECT_MSG_EQ_TOL(weights[1], 1.0, tol, "incumbent's weight");
    }
};

/**
 * \ingroup distributed-training
 * CalibratedSharing never overfills a link and with w = 1 equals CappedSharing exactly.
 *
 * Calibrated on 300 random flow sets: no link overfull, no flow above its cap, work-conserving
 * (every flow at its cap or on a full link), w = 1 identical to capped.
 */
class CalibratedPropertyTestCase : public TestCase
{
  public:
    CalibratedPropertyTestCase()
        : TestCase("calibrated on 300 random flow sets is feasible and work-conserving")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<CappedSharing> capped = CreateObject<CappedSharing>();
        std::mt19937_64 gen(11);
        std::uniform_real_distribution<double> unit(0.5, 2.0);
        for (int trial = 0; trial < 300; ++trial)
        {
            const uint32_t links = 2 + gen() % 6;
            std::vector<double> capacity(links);
            for (auto& c : capacity)
            {
                c = unit(gen) * 10;
            }
            std::vector<SharingModel::Flow> flows;
            const uint32_t n = 1 + gen() % 12;
            for (uint32_t i = 0; i < n; ++i)
            {
                uint32_t a = gen() % links;
                uint32_t b = (a + 1 + gen() % (links - 1)) % links;
                flows.push_back(
                    MakeFlow({a, b}, i, gen() % 2 ? unit(gen) * 4 : INF, (gen() % 5) * 1e-3));
            }
            for (double w : {0.0, 0.1, 0.5, 1.0})
            {
                Ptr<CalibratedSharing> model = CreateObject<CalibratedSharing>();
                model->SetAttribute("IncumbentWeight", DoubleValue(w));
                std::vector<double> rates = Rates(*model, flows, capacity);
                std::vector<double> load(links, 0);
                for (uint32_t i = 0; i < n; ++i)
                {
                    NS_TEST_ASSERT_MSG_EQ((rates[i] <= flows[i].cap * (1 + 1e-9)),
                                          true,
                                          "trial " << trial << " w " << w << ": above cap");
                    for (uint32_t k = 0; k < flows[i].nLinks; ++k)
                    {
                        load[flows[i].links[k]] += rates[i];
                    }
                }
                for (uint32_t l = 0; l < links; ++l)
                {
                    NS_TEST_ASSERT_MSG_EQ((load[l] <= capacity[l] * (1 + 1e-9)),
                                          true,
                                          "trial " << trial << " w " << w << ": link overfull");
                }
                for (uint32_t i = 0; i < n; ++i)
                {
                    bool busy = rates[i] >= flows[i].cap * (1 - 1e-9);
                    for (uint32_t k = 0; k < flows[i].nLinks; ++k)
                    {
                        uint32_t l = flows[i].links[k];
                        busy = busy || load[l] >= capacity[l] * (1 - 1e-9);
                    }
                    NS_TEST_ASSERT_MSG_EQ(busy,
                                          true,
                                          "trial " << trial << " w " << w << ": flow " << i
                                                   << " could get more (capacity left idle)");
                }
                if (w == 1.0)
                {
                    std::vector<double> reference = Rates(*capped, flows, capacity);
                    for (uint32_t i = 0; i < n; ++i)
                    {
                        NS_TEST_ASSERT_MSG_EQ_TOL(rates[i],
                                                  reference[i],
                                                  1e-12 * (1 + reference[i]),
                                                  "w = 1 equals capped");
                    }
                }
            }
        }
    }
};

/**
 * A sharing model that only this test library registers, as a user's module would: every flow
 * gets its slowest link's capacity divided by the number of active flows (so no link carries more
 * than its capacity). With one flow at a time it is ps.
 */
class EvenTestSharing : public SharingModel
{
  public:
    /// \return the object TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::EvenTestSharing")
                                .SetParent<SharingModel>()
                                .SetGroupName("DistributedTraining")
                                .AddConstructor<EvenTestSharing>();
        return tid;
    }

    void AssignRates(const std::vector<Flow>& flows,
                     const std::vector<double>& capacity,
                     std::vector<double>& rates) const override
    {
        rates.assign(flows.size(), 0.0);
        for (std::size_t i = 0; i < flows.size(); ++i)
        {
            double slowest = INF;
            for (uint32_t k = 0; k < flows[i].nLinks; ++k)
            {
                slowest = std::min(slowest, capacity[flows[i].links[k]]);
            }
            rates[i] = slowest / flows.size();
        }
    }

    /// \return "test-even"
    std::string GetName() const override
    {
        return "test-even";
    }
};

DT_REGISTER_SHARING("test-even",
                    EvenTestSharing,
                    1000,
                    0,
                    "",
                    "test only: every flow gets its slowest link over the active flow count");

/**
 * \ingroup distributed-training
 * The registry lists the models once, in a fixed order.
 *
 * Names(): fcfs, ps, capped, hybrid, calibrated, allreduce (ranks 10 to 60), then this file's
 * test-even (rank 1000). --backend=all and the runner's default variants (IN_ALL) are the first
 * five; allreduce is the ring's model; hybrid is the mean of fcfs and ps; every single model's
 * object answers GetName() with its registered name.
 */
class RegistryOrderTestCase : public TestCase
{
  public:
    RegistryOrderTestCase()
        : TestCase("sharing registry lists the six models in order, hybrid = mean of fcfs and ps")
    {
    }

  private:
    void DoRun() override
    {
        using R = SharingModelRegistry;
        const std::vector<std::string> six{"fcfs", "ps", "capped", "hybrid", "calibrated"};
        std::vector<std::string> all = six;
        all.push_back("allreduce");
        all.push_back("test-even");
        NS_TEST_EXPECT_MSG_EQ((R::Names() == all), true, R::Join(R::Names(), ", "));
        NS_TEST_EXPECT_MSG_EQ((R::Names(R::IN_ALL) == six), true, "--backend=all");
        NS_TEST_EXPECT_MSG_EQ(R::GetRing().name, "allreduce", "the ring's model");
        NS_TEST_EXPECT_MSG_EQ(R::ListNames(),
                              "fcfs, ps, capped, hybrid, calibrated, test-even (ring: allreduce)",
                              "--sharing help");
        const R::Entry hybrid = R::Find("hybrid");
        NS_TEST_EXPECT_MSG_EQ(hybrid.IsComposite(), true, "hybrid has no object");
        NS_TEST_EXPECT_MSG_EQ(hybrid.meanOf.first + "+" + hybrid.meanOf.second, "fcfs+ps", "parts");
        NS_TEST_EXPECT_MSG_EQ(R::Find("ps").cappedForm, "capped", "ps under caps");
        for (const auto& e : R::GetEntries())
        {
            NS_TEST_EXPECT_MSG_EQ(e.summary.empty(), false, e.name << " has a summary");
            if (!e.IsComposite())
            {
                NS_TEST_EXPECT_MSG_EQ(R::Create(e.name)->GetName(), e.name, "its object's name");
            }
        }
    }
};

/**
 * \ingroup distributed-training
 * An unknown name is refused with one message that lists every registered name.
 *
 * "fifo": the registry, FlowBackend::Configure (--sharing) and the Sharing attribute's checker
 * all refuse it; the first two with "--sharing: unknown value 'fifo' (expected fcfs, ps, capped,
 * hybrid, calibrated, allreduce, test-even)".
 */
class RegistryUnknownTestCase : public TestCase
{
  public:
    RegistryUnknownTestCase()
        : TestCase("unknown sharing name, the message lists every registered name")
    {
    }

  private:
    void DoRun() override
    {
        const std::string expected = "--sharing: unknown value 'fifo' (expected fcfs, ps, capped, "
                                     "hybrid, calibrated, allreduce, test-even)";
        std::string msg;
        try
        {
            SharingModelRegistry::Find("fifo");
        }
        catch (const TrainingInputError& e)
        {
            msg = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(msg, expected, "registry");
        msg.clear();
        BackendSettings settings;
        settings.sharing = "fifo";
        try
        {
            CreateObject<FlowBackend>()->Configure(settings);
        }
        catch (const TrainingInputError& e)
        {
            msg = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(msg, expected, "--sharing");
        Ptr<FlowBackend> flow = CreateObject<FlowBackend>();
        NS_TEST_EXPECT_MSG_EQ(flow->SetAttributeFailSafe("Sharing", StringValue("fifo")),
                              false,
                              "the attribute's checker");
        NS_TEST_EXPECT_MSG_EQ(flow->SetAttributeFailSafe("Sharing", StringValue("capped")),
                              true,
                              "a registered name");
    }
};

/**
 * \ingroup distributed-training
 * A model registered from this file is chosen by name and runs; --backend=all leaves it out.
 *
 * One worker, one server, one 1 MB tensor, no compute, no link delay, raw 10 Gbps (1.25e9 B/s):
 * one flow at a time, so test-even gives it the whole link, as ps does: a step is a push and a
 * pull of 1e6 / 1.25e9 = 0.8 ms each, 1.6 ms. --backend=all (RunComparison) runs fcfs, ps,
 * capped, hybrid, calibrated, then ps-window (test-even is not IN_ALL).
 */
class RegisteredModelRunsTestCase : public TestCase
{
  public:
    RegisteredModelRunsTestCase()
        : TestCase("a model registered by a test runs as --sharing=test-even, 1 MB step 1.6 ms")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = tests::MakeProfile({1000000}, 0, 0, 0);
        TrainingScenario s; // the default steps and warm-up
        s.workers = 1;
        s.linkDelay = Seconds(0);
        s.nicRate = DataRate("10Gbps");
        BackendSettings settings;
        settings.sharing = "test-even";
        Ptr<FlowBackend> flow = CreateObject<FlowBackend>();
        flow->Configure(settings);
        flow->SetAttribute("UseGoodput", BooleanValue(false));
        const std::vector<TrainingResult> even = flow->Run(p, s);
        NS_TEST_ASSERT_MSG_EQ(even.size(), 1, "one result");
        NS_TEST_EXPECT_MSG_EQ(even[0].variant, "test-even", "variant = the registered name");
        NS_TEST_EXPECT_MSG_EQ_TOL(even[0].stepTimeMean, 1.6e-3, 1e-12, "push + pull");
        flow->SetAttribute("Sharing", StringValue("ps"));
        NS_TEST_EXPECT_MSG_EQ_TOL(even[0].throughput,
                                  flow->Run(p, s)[0].throughput,
                                  1e-9,
                                  "equals ps with one flow at a time");

        std::vector<std::string> variants;
        for (const auto& r : flow->RunComparison(p, s))
        {
            variants.push_back(r.variant);
        }
        const std::vector<std::string> expected{"fcfs",
                                                "ps",
                                                "capped",
                                                "hybrid",
                                                "calibrated",
                                                "ps-window"};
        NS_TEST_EXPECT_MSG_EQ((variants == expected),
                              true,
                              SharingModelRegistry::Join(variants, ", "));
    }
};

/**
 * \ingroup distributed-training
 * The sharing models of the flow-level backend.
 */
/**
 * \ingroup distributed-training
 * A ring ignores --sharing (it always shares as allreduce); the flow backend says so only when
 * --sharing was given: the default ps is no choice to ignore. Parsed options mark it
 * (BackendSettings::sharingGiven); a default request does not.
 */
class RingSharingNoteTestCase : public TestCase
{
  public:
    RingSharingNoteTestCase()
        : TestCase("ring sharing note appears only when --sharing is given")
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s;
        s.architecture = TrainingScenario::RING_ALLREDUCE;
        s.workers = 2;
        s.steps = 2;
        s.warmup = 1;
        const TrainingProfile p = tests::MakeProfile({1000000}, 1e3, 2e3, 0);
        RunRequest request = ScenarioOptions::MakeDefault();
        NS_TEST_EXPECT_MSG_EQ(request.settings.sharingGiven, false, "default request");
        for (bool given : {false, true})
        {
            if (given)
            {
                ScenarioOptions::Set(request, "sharing", "ps");
            }
            NS_TEST_EXPECT_MSG_EQ(request.settings.sharingGiven, given, "marked when given");
            Ptr<FlowBackend> flow = CreateObject<FlowBackend>();
            flow->Configure(request.settings);
            const auto notes = flow->Run(p, s).at(0).notes;
            const bool noted = std::any_of(notes.begin(),
                                           notes.end(),
                                           [](const std::string& n)
                                           {
                                               return n.find("does not apply") != n.npos;
                                           });
            NS_TEST_EXPECT_MSG_EQ(noted, given, "note only with --sharing");
        }
    }
};

class SharingModelTestSuite : public TestSuite
{
  public:
    SharingModelTestSuite()
        : TestSuite("distributed-training-flow-sharing", Type::UNIT)
    {
        AddTestCase(new PsEqualShareTestCase, DT_TEST_QUICK);
        AddTestCase(new RingSharingNoteTestCase, DT_TEST_QUICK);
        AddTestCase(new CappedShareTestCase, DT_TEST_QUICK);
        AddTestCase(new FcfsShareTestCase, DT_TEST_QUICK);
        AddTestCase(new TwoServerRuleTestCase, DT_TEST_QUICK);
        AddTestCase(new AllReduceShareTestCase, DT_TEST_QUICK);
        AddTestCase(new MaxMinPropertyTestCase, DT_TEST_QUICK);
        AddTestCase(new CalibratedShareTestCase, DT_TEST_QUICK);
        AddTestCase(new CalibratedPropertyTestCase, DT_TEST_QUICK);
        AddTestCase(new RegistryOrderTestCase, DT_TEST_QUICK);
        AddTestCase(new RegistryUnknownTestCase, DT_TEST_QUICK);
        AddTestCase(new RegisteredModelRunsTestCase, DT_TEST_QUICK);
    }
};

/// Static instance: registers the suite.
static SharingModelTestSuite g_sharingModelTestSuite;

} // namespace

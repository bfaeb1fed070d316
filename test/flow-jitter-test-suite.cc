/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * --startJitter in the flow and analytic backends (doc/reference/congestion.rst, "Start jitter"):
 * the packet level's rule (a worker's first step, and every transfer that starts on an idle
 * connection, wait a delay uniform in [0, J)) on hand-worked one-worker steps (the sampled
 * delays and their mean J/2), a two-worker ring written out round by round, async lockstep
 * broken, seeding, the packet level's mean step with jitter, and the analytic backend's note.
 */

#include "training-test-utils.h"

#include "ns3/analytic-backend.h"
#include "ns3/boolean.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/flow-backend.h"
#include "ns3/flow-event-core.h"
#include "ns3/nstime.h"
#include "ns3/packet-backend.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/training-profile.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Raw bytes per second of a 10 Gbps NIC (UseGoodput=false).
const double B10 = 10e9 / 8;

/// One worker, one server, sync, no link delay, the given jitter and seed.
TrainingScenario
JitterScenario(uint32_t workers, double jitterSeconds, uint64_t seed)
{
    TrainingScenario s;
    s.workers = workers;
    s.servers = 1;
    s.steps = 3;
    s.warmup = 0;
    s.linkDelay = Seconds(0);
    s.nicRate = DataRate("10Gbps");
    s.startJitter = Seconds(jitterSeconds);
    s.seed = seed;
    return s;
}

/// Run the flow backend (raw NIC rate unless useGoodput).
TrainingResult
RunFlow(const TrainingProfile& p,
        const TrainingScenario& s,
        const std::string& sharing = "ps",
        bool useGoodput = false)
{
    Ptr<FlowBackend> backend = CreateObject<FlowBackend>();
    backend->SetAttribute("Sharing", StringValue(sharing));
    backend->SetAttribute("UseGoodput", BooleanValue(useGoodput));
    return backend->Run(p, s).at(0);
}

/// The transfer record of (worker, step, direction) (one layer per step); end -1 if absent.
TrainingResult::TransferRecord
FindTransfer(const TrainingResult& r, uint32_t worker, uint32_t step, const std::string& dir)
{
    for (const auto& t : r.transfers)
    {
        if (t.worker == worker && t.step == step && t.direction == dir)
        {
            return t;
        }
    }
    return {worker, 0, step, 0, dir, 0, -1, -1};
}

/// Mean duration of worker 0's steps from step `from` on.
double
MeanStep(const TrainingResult& r, uint32_t from)
{
    double sum = 0;
    uint32_t n = 0;
    for (const auto& s : r.steps)
    {
        if (s.worker == 0 && s.step >= from)
        {
            sum += s.end - s.start;
            ++n;
        }
    }
    return n > 0 ? sum / n : -1;
}

/// The delay the flow engine draws for the transfer a connection (server p, direction d)
/// starts with its first piece: the key of FlowPsEngine::StartDelay.
double
PsDelay(const flow::StartJitter& j, uint32_t worker, uint32_t step, uint32_t p, uint32_t d)
{
    return j.Delay(worker, step, (uint64_t{p} * 2 + d) << 32);
}

/**
 * \ingroup distributed-training
 * One worker, one layer: every step's two transfers start their sampled delays late.
 *
 * Flow --startJitter=2ms, one worker, one 1.25 MB layer at 10 Gbps: step 0 starts at its sampled
 * delay; in each step the parameters leave their sampled delay after the step start and the
 * gradients theirs after the backward, each taking 1 ms (to 1e-12).
 */
class OneWorkerSampledDelaysTestCase : public TestCase
{
  public:
    OneWorkerSampledDelaysTestCase()
        : TestCase("flow start jitter, one worker, transfers start at their sampled delays")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = tests::MakeProfile({1250000}, 100, 200, 50);
        const double jit = 2e-3;
        const TrainingScenario s = JitterScenario(1, jit, 7);
        const TrainingResult r = RunFlow(p, s);
        const flow::StartJitter j(jit, 7);
        const double m = 1250000 / B10; // 1 ms
        double t = j.FirstStep(0);
        NS_TEST_EXPECT_MSG_GT(t, 0, "a delay was drawn");
        for (uint32_t step = 0; step < s.steps; ++step)
        {
            const double down = t + PsDelay(j, 0, step, 0, 0);
            const auto d = FindTransfer(r, 0, step, "down");
            NS_TEST_EXPECT_MSG_EQ_TOL(d.start, down, 1e-12, "down start, step " << step);
            NS_TEST_EXPECT_MSG_EQ_TOL(d.end, down + m, 1e-12, "down end, step " << step);
            const double ready = down + m + 300e-6; // forward and backward
            const double up = ready + PsDelay(j, 0, step, 0, 1);
            const auto u = FindTransfer(r, 0, step, "up");
            NS_TEST_EXPECT_MSG_EQ_TOL(u.start, up, 1e-12, "up start, step " << step);
            NS_TEST_EXPECT_MSG_EQ_TOL(u.end, up + m, 1e-12, "up end, step " << step);
            const double end = up + m + 50e-6; // the update
            for (const auto& st : r.steps)
            {
                if (st.step == step)
                {
                    NS_TEST_EXPECT_MSG_EQ_TOL(st.start, t, 1e-12, "step start " << step);
                    NS_TEST_EXPECT_MSG_EQ_TOL(st.end, end, 1e-12, "step end " << step);
                }
            }
            t = end;
        }
    }
};

/**
 * \ingroup distributed-training
 * The mean of the delays: J/2 per idle-connection transfer.
 *
 * Flow --startJitter=1ms, one worker, 2000 measured steps of 2.35 ms: every step within [2.35, 2.35
 * + 2J) ms and the mean step 2.35 ms + J (two idle-connection transfers of mean J over 2) within 4
 * sigma = 0.037 J; without jitter exactly 2.35 ms.
 */
class MeanStepGrowsByJitterTestCase : public TestCase
{
  public:
    MeanStepGrowsByJitterTestCase()
        : TestCase("flow start jitter, one worker, mean step grows by J")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = tests::MakeProfile({1250000}, 100, 200, 50);
        const double jit = 1e-3;
        const double base = 2e-3 + 350e-6; // 2 M/B + forward + backward + update
        TrainingScenario s = JitterScenario(1, 0, 3);
        s.steps = 2001;
        s.warmup = 1;
        NS_TEST_EXPECT_MSG_EQ_TOL(MeanStep(RunFlow(p, s), 1), base, 1e-12, "no jitter");
        s.startJitter = Seconds(jit);
        const TrainingResult r = RunFlow(p, s);
        for (const auto& st : r.steps)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(st.end - st.start, base - 1e-12, "not shorter");
            NS_TEST_EXPECT_MSG_LT(st.end - st.start, base + 2 * jit, "at most two delays");
        }
        // The sum of two U[0, J) has variance J^2 / 6: the mean of 2000 has sigma J / 110.
        const double sigma = jit * std::sqrt(2.0 / 12 / 2000);
        NS_TEST_EXPECT_MSG_EQ_TOL(MeanStep(r, 1), base + jit, 4 * sigma, "mean step");
    }
};

/**
 * \ingroup distributed-training
 * A two-worker ring written out round by round.
 *
 * Flow ring K = 2, one bucket, --startJitter=0.5ms, 10 us links: each worker's first step starts at
 * its sampled delay, the bucket's ring starts when the later worker's backward ends, and its two
 * rounds (chunks of M over 2 at B, two-link hop, each chunk sent on an idle connection after its
 * delay, else queued behind the previous one) end as written out by hand (to 1e-12).
 */
class TwoWorkerRingRoundsTestCase : public TestCase
{
  public:
    TwoWorkerRingRoundsTestCase()
        : TestCase("flow start jitter, ring K = 2, rounds match by hand")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = tests::MakeProfile({1000000, 1500000}, 100, 200, 50);
        const double jit = 5e-4;
        TrainingScenario s = JitterScenario(2, jit, 11);
        s.architecture = TrainingScenario::RING_ALLREDUCE;
        s.bucketBytes = TrainingScenario::UNLIMITED_BUCKET;
        s.linkDelay = MicroSeconds(10);
        s.steps = 2;
        const TrainingResult r = RunFlow(p, s, "allreduce");
        const flow::StartJitter j(jit, 11);
        const double tau = 2500000 / 2 / B10; // a chunk's transfer
        const double hop = 20e-6;             // two links
        double start[2] = {j.FirstStep(0), j.FirstStep(1)};
        for (uint32_t step = 0; step < s.steps; ++step)
        {
            const double t0 = std::max(start[0], start[1]) + 600e-6; // 2 x (100 + 200) us
            double sent[2];
            double arrived[2];
            for (uint32_t w = 0; w < 2; ++w)
            {
                sent[w] = t0 + j.Delay(w, step, 0) + tau; // round 0: idle after the last step
                arrived[w] = sent[w] + hop;
            }
            double end = 0;
            for (uint32_t w = 0; w < 2; ++w)
            {
                const double avail = arrived[1 - w]; // the predecessor's round-0 chunk
                const double delay = sent[w] <= avail ? j.Delay(w, step, 1) : 0;
                end = std::max(end, std::max(avail + delay, sent[w]) + tau + hop);
            }
            for (const auto& st : r.steps)
            {
                if (st.step == step)
                {
                    NS_TEST_EXPECT_MSG_EQ_TOL(st.start, start[st.worker], 1e-12, "step start");
                    NS_TEST_EXPECT_MSG_EQ_TOL(st.end, end, 1e-12, "step end, step " << step);
                }
            }
            NS_TEST_EXPECT_MSG_GT(end - t0, 2 * (tau + hop), "slower than Eq. (11)'s ring");
            start[0] = start[1] = end;
        }
    }
};

/**
 * \ingroup distributed-training
 * A larger ring stays within the delays' bounds.
 *
 * Flow ring K = 6, a bucket per layer, --startJitter=0.2ms: every bucket's ring takes at least the
 * closed form 2(K-1)(M over K B + hop) and at most 2(K-1) delays more; the six first steps start at
 * six times in [0, J).
 */
class RingWithinJitterBoundsTestCase : public TestCase
{
  public:
    RingWithinJitterBoundsTestCase()
        : TestCase("flow start jitter, ring K = 6, each bucket within its closed-form bounds")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = tests::MakeProfile({600000, 1200000, 300000}, 100, 200, 50);
        const uint32_t k = 6;
        const double jit = 2e-4;
        TrainingScenario s = JitterScenario(k, jit, 5);
        s.architecture = TrainingScenario::RING_ALLREDUCE;
        s.bucketBytes = 0;
        s.linkDelay = MicroSeconds(5);
        s.steps = 4;
        const TrainingResult r = RunFlow(p, s, "allreduce");
        uint32_t slower = 0;
        for (const auto& t : r.transfers)
        {
            const double closed = 2.0 * (k - 1) * (t.bytes / (k * B10) + 10e-6);
            NS_TEST_EXPECT_MSG_GT_OR_EQ(t.end - t.start, closed - 1e-12, "not faster");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(t.end - t.start,
                                        closed + 2 * (k - 1) * jit,
                                        "at most one delay per round");
            slower += t.end - t.start > closed + 1e-9;
        }
        NS_TEST_EXPECT_MSG_EQ(slower, r.transfers.size(), "every bucket waited for delays");
        std::vector<double> first;
        for (const auto& st : r.steps)
        {
            if (st.step == 0)
            {
                NS_TEST_EXPECT_MSG_LT(st.start, jit, "first step within J");
                first.push_back(st.start);
            }
        }
        std::sort(first.begin(), first.end());
        NS_TEST_EXPECT_MSG_EQ(std::unique(first.begin(), first.end()) - first.begin(),
                              k,
                              "six different first-step starts");
    }
};

/**
 * \ingroup distributed-training
 * Identical async workers drift apart with jitter.
 *
 * Flow async, two identical unsampled workers: without jitter every step ends at the same time on
 * both and the result notes lockstep; with --startJitter=0.5ms no step ends together and there is
 * no lockstep note.
 */
class AsyncLockstepBrokenTestCase : public TestCase
{
  public:
    AsyncLockstepBrokenTestCase()
        : TestCase("flow start jitter breaks async lockstep of identical workers")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = tests::MakeProfile({800000, 400000}, 300, 600, 40);
        TrainingScenario s = JitterScenario(2, 0, 1);
        s.mode = TrainingScenario::ASYNC;
        s.steps = 20;
        s.warmup = 2;
        s.sampleSteps = false;
        auto together = [](const TrainingResult& r)
        {
            std::vector<double> ends[2];
            for (const auto& st : r.steps)
            {
                ends[st.worker].push_back(st.end);
            }
            uint32_t n = 0;
            for (std::size_t i = 0; i < std::min(ends[0].size(), ends[1].size()); ++i)
            {
                n += std::abs(ends[0][i] - ends[1][i]) < 1e-12;
            }
            return n;
        };
        auto lockstepNote = [](const TrainingResult& r)
        {
            return std::any_of(r.notes.begin(),
                               r.notes.end(),
                               [](const std::string& n)
                               {
                                   return n.find("lockstep") != std::string::npos;
                               });
        };
        const TrainingResult locked = RunFlow(p, s);
        NS_TEST_EXPECT_MSG_EQ(together(locked), s.steps, "no jitter: in lockstep");
        NS_TEST_EXPECT_MSG_EQ(lockstepNote(locked), true, "no jitter: noted");
        s.startJitter = MicroSeconds(500);
        const TrainingResult free = RunFlow(p, s);
        NS_TEST_EXPECT_MSG_EQ(together(free), 0, "jitter: no step ends together");
        NS_TEST_EXPECT_MSG_EQ(lockstepNote(free), false, "jitter: no lockstep note");
    }
};

/**
 * \ingroup distributed-training
 * Same seed, same run; another seed, another run.
 *
 * Flow --startJitter=0.3ms (async PS with overlap and two servers, FCFS, ring): the same seed gives
 * identical step and transfer records, another seed other ones.
 */
class JitterSeedingTestCase : public TestCase
{
  public:
    JitterSeedingTestCase()
        : TestCase("flow start jitter, same seed same records, other seed other records")
    {
    }

  private:
    /// \param r a result \return its step and transfer times, in record order
    static std::vector<double> Times(const TrainingResult& r)
    {
        std::vector<double> t;
        for (const auto& s : r.steps)
        {
            t.push_back(s.start);
            t.push_back(s.end);
        }
        for (const auto& x : r.transfers)
        {
            t.push_back(x.start);
            t.push_back(x.end);
        }
        return t;
    }

    void DoRun() override
    {
        const TrainingProfile p = tests::MakeProfile({500000, 900000, 200000}, 150, 300, 30);
        for (int variant = 0; variant < 3; ++variant)
        {
            TrainingScenario s = JitterScenario(4, 3e-4, 1);
            s.steps = 6;
            std::string sharing = "ps";
            if (variant == 0)
            {
                s.mode = TrainingScenario::ASYNC;
                s.overlap = true;
                s.servers = 2;
            }
            else if (variant == 1)
            {
                sharing = "fcfs";
            }
            else
            {
                s.architecture = TrainingScenario::RING_ALLREDUCE;
                sharing = "allreduce";
            }
            const auto a = Times(RunFlow(p, s, sharing));
            const auto b = Times(RunFlow(p, s, sharing));
            s.seed = 2;
            const auto c = Times(RunFlow(p, s, sharing));
            NS_TEST_EXPECT_MSG_EQ((a == b), true, "same seed, same records: " << variant);
            NS_TEST_EXPECT_MSG_EQ((a != c), true, "another seed, others: " << variant);
        }
    }
};

/**
 * \ingroup distributed-training
 * Flow and packet levels agree on what the jitter adds.
 *
 * --startJitter=4ms, one worker, sync PS, 600 kB per step, 200 measured steps: packet and flow each
 * add J (two transfers of mean J over 2) to the mean step within 4 sigma = 0.12 J, and the jitter
 * changes their difference by at most 4 sigma = 0.16 J.
 */
class JitterFlowMatchesPacketTestCase : public TestCase
{
  public:
    JitterFlowMatchesPacketTestCase()
        : TestCase("start jitter adds the same mean to packet and flow steps")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = tests::MakeProfile({400000, 200000}, 250, 500, 20);
        const double jit = 4e-3;
        TrainingScenario s = JitterScenario(1, 0, 9);
        s.linkDelay = MicroSeconds(10);
        s.steps = 201;
        s.warmup = 1;
        Ptr<PacketBackend> packet = CreateObject<PacketBackend>();
        const double packet0 = MeanStep(packet->Run(p, s).at(0), 1);
        const double flow0 = MeanStep(RunFlow(p, s, "ps", true), 1);
        s.startJitter = Seconds(jit);
        const double packetJ = MeanStep(packet->Run(p, s).at(0), 1);
        const double flowJ = MeanStep(RunFlow(p, s, "ps", true), 1);
        // Each backend draws its own delays: the mean of 200 sums of two U[0, J) has sigma
        // J sqrt(1/6/200) = 0.029 J, the difference of two such means 0.041 J.
        // Measured 2026-11-24: packet 2.599 -> 6.512 ms (+0.978 J), flow 2.536 -> 6.589 ms
        // (+1.013 J); their difference moved by 0.035 J.
        const double sigma = jit * std::sqrt(2.0 / 12 / 200);
        NS_TEST_EXPECT_MSG_EQ_TOL(packetJ - packet0, jit, 4 * sigma, "packet adds J");
        NS_TEST_EXPECT_MSG_EQ_TOL(flowJ - flow0, jit, 4 * sigma, "flow adds J");
        NS_TEST_EXPECT_MSG_EQ_TOL(packetJ - flowJ,
                                  packet0 - flow0,
                                  4 * sigma * std::sqrt(2.0),
                                  "packet " << packet0 << " -> " << packetJ << ", flow " << flow0
                                            << " -> " << flowJ);
    }
};

/**
 * \ingroup distributed-training
 * The analytic backend says it ignores the jitter.
 *
 * Analytic --startJitter=20us: every result (sync PS, async PS, ring) notes that the closed forms
 * ignore it; without jitter none does.
 */
class AnalyticJitterNoteTestCase : public TestCase
{
  public:
    AnalyticJitterNoteTestCase()
        : TestCase("analytic backend notes that it ignores start jitter")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = tests::MakeProfile({500000, 900000}, 150, 300, 30);
        Ptr<AnalyticBackend> analytic = CreateObject<AnalyticBackend>();
        for (int variant = 0; variant < 3; ++variant)
        {
            TrainingScenario s = JitterScenario(4, 0, 1);
            s.mode = variant == 1 ? TrainingScenario::ASYNC : TrainingScenario::SYNC;
            if (variant == 2)
            {
                s.architecture = TrainingScenario::RING_ALLREDUCE;
            }
            auto noted = [](const TrainingResult& r)
            {
                return std::any_of(r.notes.begin(),
                                   r.notes.end(),
                                   [](const std::string& n)
                                   {
                                       return n.find("--startJitter") != std::string::npos
                                              && n.find("ignored") != std::string::npos;
                                   });
            };
            for (const auto& r : analytic->Run(p, s))
            {
                NS_TEST_EXPECT_MSG_EQ(noted(r), false, "no jitter, no note: " << r.variant);
            }
            s.startJitter = MicroSeconds(20);
            const auto results = analytic->Run(p, s);
            NS_TEST_EXPECT_MSG_GT(results.size(), 0, "results");
            for (const auto& r : results)
            {
                NS_TEST_EXPECT_MSG_EQ(noted(r), true, "noted: " << r.variant);
            }
        }
    }
};

/**
 * \ingroup distributed-training
 * The suite.
 */
class FlowJitterTestSuite : public TestSuite
{
  public:
    FlowJitterTestSuite()
        : TestSuite("distributed-training-flow-jitter", Type::UNIT)
    {
        AddTestCase(new OneWorkerSampledDelaysTestCase, DT_TEST_QUICK);
        AddTestCase(new MeanStepGrowsByJitterTestCase, DT_TEST_QUICK);
        AddTestCase(new TwoWorkerRingRoundsTestCase, DT_TEST_QUICK);
        AddTestCase(new RingWithinJitterBoundsTestCase, DT_TEST_QUICK);
        AddTestCase(new AsyncLockstepBrokenTestCase, DT_TEST_QUICK);
        AddTestCase(new JitterSeedingTestCase, DT_TEST_QUICK);
        AddTestCase(new AnalyticJitterNoteTestCase, DT_TEST_QUICK);
    }
};

FlowJitterTestSuite g_flowJitterTestSuite; //!< the suite

/**
 * \ingroup distributed-training
 * The packet-level comparison, a suite of its own: a name ending in -packet tells the sanitizer
 * run to skip it (20 s here, over 6 min under ASan), while the flow cases above still run there.
 */
class FlowJitterPacketTestSuite : public TestSuite
{
  public:
    FlowJitterPacketTestSuite()
        : TestSuite("distributed-training-flow-jitter-packet", Type::UNIT)
    {
        AddTestCase(new JitterFlowMatchesPacketTestCase, DT_TEST_QUICK);
    }
};

FlowJitterPacketTestSuite g_flowJitterPacketTestSuite; //!< the packet-level suite

} // namespace

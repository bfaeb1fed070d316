/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Several training jobs on one fabric (TrainingJobSet, the packet and flow backends' RunJobs):
 * two jobs that share a path halve each other's rate, jobs on disjoint racks run as alone, a
 * job that starts after another ended runs as alone, a job's own seed gives it the draws of its
 * solo run with that seed, a job whose ACKs cross another job's queue is slowed at the packet
 * level only (a modelling difference the flow backend keeps), and bad jobs files are refused with
 * the file, job and field named. Numbers worked by hand.
 */

#include "training-test-utils.h"

#include "ns3/boolean.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/flow-backend.h"
#include "ns3/job-set-report.h"
#include "ns3/packet-backend.h"
#include "ns3/pointer.h"
#include "ns3/ps-sharing.h"
#include "ns3/run-report.h"
#include "ns3/scenario-options.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/training-backend.h"
#include "ns3/training-job-set.h"
#include "ns3/training-network.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

using namespace ns3;

namespace
{

/// One layer of 10 MB, no compute: a step is a downlink and an uplink of 10 MB.
const uint64_t BYTES = 10000000;

/**
 * \param options fabric options (name -> value) on top of the driver's defaults
 * \return the base request
 */
RunRequest
MakeBase(const std::vector<std::pair<std::string, std::string>>& options)
{
    RunRequest base = ScenarioOptions::MakeDefault();
    for (const auto& [name, value] : options)
    {
        ScenarioOptions::Set(base, name, value);
    }
    return base;
}

/// A 2 x 2 leaf-spine of 10 G links with the given spines (1: every cross-rack flow on spine 0).
RunRequest
LeafSpine(uint32_t spines)
{
    return MakeBase({{"topology", "leafspine"},
                     {"leaves", "2"},
                     {"spines", std::to_string(spines)},
                     {"hostsPerLeaf", "2"},
                     {"nicRate", "10Gbps"}});
}

/**
 * \param base the fabric
 * \param name job name
 * \param placement its hosts (worker, server)
 * \param start start time (s)
 * \param steps steps (1 warm-up)
 * \return a sync PS job with K = 1, P = 1 on the 10 MB profile
 */
TrainingJob
PsJob(const RunRequest& base,
      const std::string& name,
      const std::string& placement,
      double start,
      uint32_t steps = 4)
{
    TrainingJob job;
    job.name = name;
    job.profile = std::make_shared<const TrainingProfile>(tests::MakeProfile({BYTES}, 0, 0, 0));
    job.scenario = base.scenario;
    job.scenario.workers = 1;
    job.scenario.servers = 1;
    job.scenario.steps = steps;
    job.scenario.warmup = 1;
    job.scenario.sampleSteps = false;
    job.placement = placement;
    job.startTime = start;
    return job;
}

/**
 * \param base the fabric (LeafSpine(1))
 * \return two sync-PS jobs a (hosts 0, 2) and b (hosts 1, 3), started together: both cross
 *         the one spine path in each direction
 */
TrainingJobSet
TwoJobsOnOnePath(const RunRequest& base)
{
    TrainingJobSet set(base);
    set.Add(PsJob(base, "a", "0,2", 0));
    set.Add(PsJob(base, "b", "1,3", 0));
    set.Place("test");
    return set;
}

/**
 * \param backend packet or flow
 * \param set the jobs
 * \return the backend's result
 */
JobSetResult
RunSet(const std::string& backend, const TrainingJobSet& set)
{
    return TrainingBackendRegistry::Create(backend)->RunJobs(set).front();
}

/**
 * \param backend packet or flow
 * \param job a placed job
 * \return its single-job run on its own scenario (alone on the same fabric)
 */
TrainingResult
RunSolo(const std::string& backend, const TrainingJob& job)
{
    return TrainingBackendRegistry::Create(backend)->Run(*job.profile, job.scenario).front();
}

/**
 * \param backend packet or flow
 * \param set the jobs
 * \param shared receives the shared run
 * \return per job, its step time in the shared run over its solo run's
 */
std::vector<double>
RatiosToSolo(const std::string& backend, const TrainingJobSet& set, JobSetResult& shared)
{
    shared = RunSet(backend, set);
    std::vector<double> ratios;
    for (uint32_t j = 0; j < shared.jobs.size(); ++j)
    {
        ratios.push_back(shared.jobs[j].stepTimeMean
                         / RunSolo(backend, set.GetJobs()[j]).stepTimeMean);
    }
    return ratios;
}

/**
 * \param a a run's result
 * \param b another run's result
 * \return the largest difference of the duration of one worker's step between the two
 *         (infinity if they do not hold the same (worker, step) records)
 */
double
MaxStepDifference(const TrainingResult& a, const TrainingResult& b)
{
    std::map<std::pair<uint32_t, uint32_t>, double> durations;
    for (const auto& s : a.steps)
    {
        durations[{s.worker, s.step}] = s.end - s.start;
    }
    if (a.steps.empty() || a.steps.size() != b.steps.size())
    {
        return INFINITY;
    }
    double most = 0;
    for (const auto& s : b.steps)
    {
        auto it = durations.find({s.worker, s.step});
        most
            = std::max(most,
                       it == durations.end() ? INFINITY : std::abs(it->second - (s.end - s.start)));
    }
    return most;
}

/**
 * Two sync-PS jobs (K = 1, P = 1) on a leaf-spine with one spine: worker of a on host 0, of b on
 * host 1 (rack 0); servers on hosts 2 and 3 (rack 1). Each direction of both jobs crosses the
 * one leaf-spine path, so the two downlinks (then the two uplinks) share it: each gets B/2 and a
 * step takes 2 x 10 MB / (B/2) = 4M/B, twice the solo 2M/B (B = goodput of 10 Gb/s). The flow
 * backend (PS sharing over both jobs' flows) gives it within 1 %; the packet backend (two TCP
 * connections on one 10 G path) within 10 % (slow start and the barrier's gaps cost a little).
 *
 * Two PS jobs on one spine path each get half of it: a step takes 4M over B (flow 1%, packet 10%),
 * twice the solo step.
 */
class SharedPathTestCase : public TestCase
{
  public:
    SharedPathTestCase()
        : TestCase("two PS jobs on one spine path each get half, step 4M over B")
    {
    }

  private:
    void DoRun() override
    {
        const RunRequest base = LeafSpine(1);
        const TrainingJobSet set = TwoJobsOnOnePath(base);
        // Each job crosses leaf0->spine0, spine0->leaf1 and back: 4 shared directed links.
        NS_TEST_ASSERT_MSG_EQ(set.GetJobLinks(0).size(), 8, "host links and the spine path");
        const double b = TrainingNetwork::GetLinkGoodputBytesPerSecond(set.GetFabricScenario());
        const double shared = 4.0 * BYTES / b;
        const JobSetResult flow = RunSet("flow", set);
        for (const auto& r : flow.jobs)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(r.stepTimeMean / shared, 1.0, 0.01, "flow: 4M/B");
        }
        const double solo = RunSolo("flow", set.GetJobs()[0]).stepTimeMean;
        NS_TEST_ASSERT_MSG_EQ_TOL(solo / (2.0 * BYTES / b), 1.0, 0.01, "flow solo: 2M/B");
        const JobSetResult packet = RunSet("packet", set);
        for (const auto& r : packet.jobs)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(r.stepTimeMean / shared, 1.0, 0.10, "packet: 4M/B");
        }
        NS_TEST_ASSERT_MSG_EQ(packet.countsLosses, true, "packet counts drops and marks");
        NS_TEST_ASSERT_MSG_EQ(flow.countsLosses, false, "flow models no losses");
        for (const JobSetResult* run : {&flow, &packet})
        {
            for (const TrainingResult& r : run->jobs)
            {
                // A job's own collisions: its two flows (down, up) cross the one spine path in
                // opposite directions, so none shares a directed link with another of its flows.
                NS_TEST_ASSERT_MSG_EQ(r.inputs.at("ecmp_fabric_flows"), 2, r.backend);
                NS_TEST_ASSERT_MSG_EQ(r.inputs.at("ecmp_max_flows_per_link"), 1, r.backend);
            }
        }
        bool spine = false;
        for (const auto& l : packet.links)
        {
            spine = spine || (l.name == "leaf0->spine0" && l.utilisation > 0.4);
        }
        NS_TEST_ASSERT_MSG_EQ(spine, true, "the shared uplink carries both jobs");
    }
};

/**
 * Two 2-worker sync-PS jobs, one per rack of a leaf-spine of 3 hosts per leaf (3 x 10 G under
 * 2 x 15 G uplinks, 1:1): all their traffic stays under their own leaf, so each job runs
 * exactly as alone: flow identical to its solo run, packet within 2 %.
 *
 * Two PS jobs on disjoint racks run as alone (flow identical, packet 2%).
 */
class DisjointRacksTestCase : public TestCase
{
  public:
    DisjointRacksTestCase()
        : TestCase("two PS jobs on disjoint racks run as alone")
    {
    }

  private:
    void DoRun() override
    {
        RunRequest base = MakeBase({{"topology", "leafspine"},
                                    {"leaves", "2"},
                                    {"spines", "2"},
                                    {"hostsPerLeaf", "3"},
                                    {"nicRate", "10Gbps"},
                                    {"uplinkRate", "15Gbps"}});
        TrainingJobSet set(base);
        for (const auto& [name, placement] : {std::pair{"a", "0,1,2"}, std::pair{"b", "3,4,5"}})
        {
            TrainingJob job = PsJob(base, name, placement, 0);
            job.scenario.workers = 2;
            set.Add(job);
        }
        set.Place("test");
        for (const std::string backend : {"flow", "packet"})
        {
            JobSetResult r;
            const double tol = backend == "flow" ? 1e-12 : 0.02;
            for (double ratio : RatiosToSolo(backend, set, r))
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(ratio, 1.0, tol, backend << ": as alone");
            }
        }
    }
};

/**
 * The two jobs of SharedPathTestCase, b starting 10 ms after a's last step ended (a alone:
 * 4 steps of 2M/B): neither slows the other down, so both run as alone (flow within 1e-9,
 * packet within 2 %), and b's first step starts at its start time.
 *
 * A job starting after another ended runs as alone (flow 1e-9, packet 2%).
 */
class LaterStartTestCase : public TestCase
{
  public:
    LaterStartTestCase()
        : TestCase("a job starting after another ended runs as alone")
    {
    }

  private:
    void DoRun() override
    {
        const RunRequest base = LeafSpine(1);
        const double b = TrainingNetwork::GetLinkGoodputBytesPerSecond(base.scenario);
        const double start = 4 * 2.0 * BYTES / b * 1.2 + 0.01; // after a's end in both backends
        TrainingJobSet set(base);
        set.Add(PsJob(base, "a", "0,2", 0));
        set.Add(PsJob(base, "b", "1,3", start));
        set.Place("test");
        for (const std::string backend : {"flow", "packet"})
        {
            JobSetResult r;
            const double tol = backend == "flow" ? 1e-9 : 0.02;
            for (double ratio : RatiosToSolo(backend, set, r))
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(ratio, 1.0, tol, backend << ": as alone");
            }
            double first = 1e9;
            for (const auto& s : r.jobs[1].steps)
            {
                first = std::min(first, s.start);
            }
            NS_TEST_ASSERT_MSG_GT_OR_EQ(first, start - 1e-12, backend << ": b starts then");
            double aEnd = 0;
            for (const auto& s : r.jobs[0].steps)
            {
                aEnd = std::max(aEnd, s.end);
            }
            NS_TEST_ASSERT_MSG_LT(aEnd, start, backend << ": a ended before b started");
        }
    }
};

/// Bad jobs lists: each refused with the context, the job and the field named.
class BadJobsTestCase : public TestCase
{
  public:
    BadJobsTestCase()
        : TestCase("bad jobs lists are refused naming the file, the job and the field")
    {
    }

  private:
    void DoRun() override
    {
        const RunRequest base = LeafSpine(1);
        auto refused = [&](const std::string& text, const std::vector<std::string>& words)
        {
            return tests::ThrowsInputError(
                [&]
                {
                    TrainingJobSet::FromJson(nlohmann::json::parse(text), "j.json", base);
                },
                words);
        };
        NS_TEST_ASSERT_MSG_EQ(refused(R"([{"workers": 1, "placement": "0,1"},
                                          {"workers": 1, "placement": "1,2"}])",
                                      {"j.json", "jobs[1]", ".placement", "host 1", "taken"}),
                              true,
                              "overlapping explicit hosts");
        NS_TEST_ASSERT_MSG_EQ(refused(R"([{"workers": 2}, {"workers": 2}])",
                                      {"j.json", "jobs[1]", "3 workers and servers", "1 of"}),
                              true,
                              "too many hosts");
        NS_TEST_ASSERT_MSG_EQ(refused(R"([{"workers": 1, "nicRate": "1Gbps"}])",
                                      {"j.json", "jobs[0]", ".nicRate", "not a per-job option"}),
                              true,
                              "fabric option in a job");
        NS_TEST_ASSERT_MSG_EQ(
            refused(R"([{"name": "x", "wrkers": 1}])",
                    {"j.json: jobs[0].wrkers: unknown field", "did you mean 'workers'?"}),
            true,
            "unknown field");
        NS_TEST_ASSERT_MSG_EQ(refused("[]", {"j.json", "empty list"}), true, "empty list");
        NS_TEST_ASSERT_MSG_EQ(
            refused(R"([{"name": "a"}, {"name": "a"}])", {"j.json", "jobs[1] (a)", "unique"}),
            true,
            "duplicate names");
        NS_TEST_ASSERT_MSG_EQ(refused(R"([{"workers": "1..4"}])", {"jobs[0]", "no sweep"}),
                              true,
                              "a worker sweep in a job");
        NS_TEST_ASSERT_MSG_EQ(refused(R"([{"startTime": "soon"}])", {"jobs[0]", ".startTime"}),
                              true,
                              "bad start time");
        // Found by the jobs fuzzer: a negative time reached ns-3's Time::To (undefined behaviour).
        NS_TEST_ASSERT_MSG_EQ(refused(R"([{"startTime": "-1ms"}])",
                                      {"jobs[0]", ".startTime", "negative time '-1ms'"}),
                              true,
                              "negative start time");
        NS_TEST_ASSERT_MSG_EQ(refused(R"([{"startTime": -0.5}])", {"jobs[0]", "negative time"}),
                              true,
                              "negative start time in seconds");
        TrainingJobSet set(base);
        set.Add(PsJob(base, "a", "0,2", 0));
        set.Place("test");
        NS_TEST_ASSERT_MSG_EQ(tests::ThrowsInputError(
                                  [&]
                                  {
                                      RunSet("analytic", set);
                                  },
                                  {"--jobs", "analytic", "one job and one bottleneck"}),
                              true,
                              "the analytic backend refuses several jobs");
    }
};

/// A lone job through the shared flow engine gives the single-job engine's numbers.
class LoneJobTestCase : public TestCase
{
  public:
    LoneJobTestCase()
        : TestCase("one job through the shared flow engine matches the single-job engine (1e-9)")
    {
    }

  private:
    void DoRun() override
    {
        const RunRequest base = LeafSpine(2);
        TrainingJobSet set(base);
        TrainingJob job = PsJob(base, "a", "spread", 0.5, 6);
        job.scenario.workers = 3;
        job.scenario.mode = TrainingScenario::ASYNC;
        job.profile = std::make_shared<const TrainingProfile>(
            tests::MakeProfile({BYTES, BYTES / 3, 2 * BYTES}, 500, 900, 40));
        set.Add(job);
        set.Place("test");
        const JobSetResult r = RunSet("flow", set);
        const TrainingResult solo = RunSolo("flow", set.GetJobs()[0]);
        NS_TEST_ASSERT_MSG_EQ_TOL(r.jobs[0].throughput / solo.throughput, 1.0, 1e-9, "throughput");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.jobs[0].windowStart - solo.windowStart, 0.5, 1e-9, "start");
    }
};

/**
 * A job's ACKs wait behind another job's queue at the packet level; the fluid max-min charges
 * ACKs nothing (doc/validation/fabric-congestion.rst, "Why the flow backend predicts more
 * interference"). One spine, 4 hosts per leaf, 10 G everywhere, B = goodput of 10 G. Job x (K = 3,
 * one layer of M_x = 60 MB): workers on hosts 0-2 (rack 0), server on host 4 (rack 1): its pull
 * takes 3 M_x / B = 149 ms, then its three pushes share leaf0->spine0 for as long, each
 * window-limited (256 KiB send buffer) behind a standing queue there. Job y (K = 1, one layer of
 * M_y = 2 MB, 6 steps) starts at 155 ms, worker on host 5 (rack 1), server on host 3 (rack 0):
 * its pull's data joins x's pushes on leaf0->spine0 (4 flows, B/4 each: 4 M_y / B = 6.64 ms in
 * both backends); its push's data crosses only idle links (leaf1->spine0->leaf0), but its ACKs
 * come back over leaf0->spine0. Flow: the push takes M_y / B = 1.66 ms. Packet: each ACK waits
 * behind x's three windows (about 3W/C), so y's window W is sent once per 3W/C: the push runs
 * at B/3, 3 M_y / B = 4.98 ms (measured 4.80 ms). Steps 0 and 1 are left out: y's new connection
 * ramps up through the queue (22 ms per transfer in step 0).
 *
 * A push whose ACKs cross another job's queue of 3 flows runs at B over 3 at the packet level
 * (15%), at B in the flow backend (1%); its pull at B over 4 in both.
 */
class AckQueueTestCase : public TestCase
{
  public:
    AckQueueTestCase()
        : TestCase("ACKs crossing another job queue slow a push at packet level only")
    {
    }

  private:
    /// Mean duration of job y's transfers of one direction in steps 2 and later.
    static double MeanTransfer(const TrainingResult& y, const std::string& direction)
    {
        double sum = 0;
        uint32_t n = 0;
        for (const auto& t : y.transfers)
        {
            if (t.step >= 2 && t.direction == direction)
            {
                sum += t.end - t.start;
                ++n;
            }
        }
        return n > 0 ? sum / n : INFINITY;
    }

    void DoRun() override
    {
        const RunRequest base = MakeBase({{"topology", "leafspine"},
                                          {"leaves", "2"},
                                          {"spines", "1"},
                                          {"hostsPerLeaf", "4"},
                                          {"nicRate", "10Gbps"}});
        const uint64_t mx = 60000000;
        const uint64_t my = 2000000;
        TrainingJob x = PsJob(base, "x", "0,1,2,4", 0, 1);
        x.profile = std::make_shared<const TrainingProfile>(tests::MakeProfile({mx}, 0, 0, 0));
        x.scenario.workers = 3;
        x.scenario.warmup = 0;
        TrainingJob y = PsJob(base, "y", "5,3", 0.155, 6);
        y.profile = std::make_shared<const TrainingProfile>(tests::MakeProfile({my}, 0, 0, 0));
        TrainingJobSet set(base);
        set.Add(x);
        set.Add(y);
        set.Place("test");
        const double b = TrainingNetwork::GetLinkGoodputBytesPerSecond(set.GetFabricScenario());
        const JobSetResult flow = RunSet("flow", set);
        NS_TEST_ASSERT_MSG_EQ_TOL(MeanTransfer(flow.jobs[1], "down") / (4.0 * my / b),
                                  1.0,
                                  0.01,
                                  "flow pull: B/4 on leaf0->spine0");
        NS_TEST_ASSERT_MSG_EQ_TOL(MeanTransfer(flow.jobs[1], "up") / (my / b),
                                  1.0,
                                  0.01,
                                  "flow push: its data links are idle, ACKs cost nothing");
        const JobSetResult packet = RunSet("packet", set);
        NS_TEST_ASSERT_MSG_EQ_TOL(MeanTransfer(packet.jobs[1], "down") / (4.0 * my / b),
                                  1.0,
                                  0.15,
                                  "packet pull: B/4 on leaf0->spine0");
        NS_TEST_ASSERT_MSG_EQ_TOL(MeanTransfer(packet.jobs[1], "up") / (3.0 * my / b),
                                  1.0,
                                  0.15,
                                  "packet push: its ACKs wait behind x's 3 windows");
        // x's last push ends after y's last step, so every measured step of y met the queue.
        double xEnd = 0;
        double yEnd = 0;
        for (const auto& s : packet.jobs[0].steps)
        {
            xEnd = std::max(xEnd, s.end);
        }
        for (const auto& s : packet.jobs[1].steps)
        {
            yEnd = std::max(yEnd, s.end);
        }
        NS_TEST_ASSERT_MSG_LT(yEnd, xEnd, "y ran inside x's push phase");
    }
};

/**
 * A job's own seed selects its random draws in both backends, as --seed does for one job. Two
 * sync-PS jobs (K = 1, one 1 MB layer, 1.6 ms of transfers per step at 10 Gb/s) in separate
 * racks (no shared link), seeds 3 and 7, on a profile whose recorded steps take 1, 2, 3 or 4
 * times 15 ms of compute: each step draws one, so two draws differ by 15 ms or more. In one
 * shared run each job steps as its solo run with its own seed (flow within 1e-9 s, packet within
 * 1 ms per step), while job a's solo runs with seeds 3 and 7 differ by 10 ms or more in some step
 * (so a job drawing another seed's streams fails); the same set run again repeats every step
 * record bit for bit.
 *
 * A job's seed gives it its solo run's draws with that seed (flow 1e-9 s, packet 1 ms per step);
 * same seeds repeat bit for bit.
 */
class JobSeedTestCase : public TestCase
{
  public:
    JobSeedTestCase()
        : TestCase("a job seed gives the draws of its solo run, same seeds repeat bit for bit")
    {
    }

  private:
    void DoRun() override
    {
        const RunRequest base = LeafSpine(1);
        TrainingJobSet set(base);
        const auto profile = std::make_shared<const TrainingProfile>(
            tests::MakeProfile({BYTES / 10}, 5000, 10000, 0, {1, 2, 3, 4}));
        for (const auto& [name, placement, seed] :
             {std::tuple{"a", "0,1", 3}, std::tuple{"b", "2,3", 7}})
        {
            TrainingJob job = PsJob(base, name, placement, 0, 8);
            job.profile = profile;
            job.scenario.sampleSteps = true;
            job.scenario.seed = seed;
            set.Add(job);
        }
        set.Place("test");
        TrainingJob otherSeed = set.GetJobs()[0];
        otherSeed.scenario.seed = 7;
        for (const std::string backend : {"flow", "packet"})
        {
            const double tol = backend == "flow" ? 1e-9 : 1e-3;
            const JobSetResult r = RunSet(backend, set);
            for (uint32_t j = 0; j < 2; ++j)
            {
                const TrainingResult solo = RunSolo(backend, set.GetJobs()[j]);
                NS_TEST_ASSERT_MSG_LT_OR_EQ(MaxStepDifference(r.jobs[j], solo),
                                            tol,
                                            backend << ": job " << j << " steps as its solo run");
            }
            NS_TEST_ASSERT_MSG_GT(
                MaxStepDifference(RunSolo(backend, set.GetJobs()[0]), RunSolo(backend, otherSeed)),
                0.01,
                backend << ": seeds 3 and 7 draw different steps");
            const JobSetResult again = RunSet(backend, set);
            for (uint32_t j = 0; j < 2; ++j)
            {
                NS_TEST_ASSERT_MSG_EQ(r.jobs[j].steps.size(), again.jobs[j].steps.size(), "steps");
                for (std::size_t i = 0; i < r.jobs[j].steps.size(); ++i)
                {
                    const auto& first = r.jobs[j].steps[i];
                    const auto& second = again.jobs[j].steps[i];
                    const bool same = first.start == second.start && first.end == second.end;
                    NS_TEST_ASSERT_MSG_EQ(same,
                                          true,
                                          backend << ": job " << j << " step record " << i
                                                  << " repeats bit for bit");
                }
            }
        }
    }
};

/**
 * \param base the fabric
 * \param name job name
 * \param placement its hosts
 * \param start start time (s)
 * \param steps steps (1 warm-up)
 * \return a 2-worker ring on the 10 MB profile: one bucket, each ring flow sends
 *         2(K-1)/K M = M per step
 */
TrainingJob
RingJob(const RunRequest& base,
        const std::string& name,
        const std::string& placement,
        double start,
        uint32_t steps)
{
    TrainingJob job = PsJob(base, name, placement, start, steps);
    job.scenario.architecture = TrainingScenario::RING_ALLREDUCE;
    job.scenario.workers = 2;
    return job;
}

/// \param r a flow job set's result \return whether it notes a ring sharing links as unvalidated
bool
SaysUnvalidated(const JobSetResult& r)
{
    return std::any_of(r.notes.begin(),
                       r.notes.end(),
                       [](const std::string& n)
                       {
                           return n.find("not validated") != n.npos;
                       });
}

/**
 * A 2-worker ring in separate racks from a PS job (no shared link) keeps its closed form in the
 * flow backend: both jobs step exactly as alone. The same ring across the racks, starting after
 * the PS job (on the same spine path) ended, runs through the shared rate computation and still
 * steps as alone (1e-9): with nothing else on its links it keeps the closed form's one rate.
 * The block is headed by what ran ("allreduce+ps" apart: the ring's own model and the PS job's;
 * "ps" in the shared run), and only the set whose ring shares links (in space, if not in time)
 * gets the note that this case is not validated against the packet level.
 *
 * A ring apart from a PS job, in space (closed form) or in time (shared computation), runs as alone
 * in the flow backend.
 */
class RingApartTestCase : public TestCase
{
  public:
    RingApartTestCase()
        : TestCase("a ring apart from a PS job in space or time runs as alone")
    {
    }

  private:
    void DoRun() override
    {
        const RunRequest base = LeafSpine(1);
        TrainingJobSet apart(base);
        apart.Add(RingJob(base, "r", "0,1", 0, 4));
        apart.Add(PsJob(base, "p", "2,3", 0));
        apart.Place("test");
        JobSetResult r;
        for (double ratio : RatiosToSolo("flow", apart, r))
        {
            NS_TEST_ASSERT_MSG_EQ(ratio, 1.0, "apart: exactly as alone");
        }
        NS_TEST_EXPECT_MSG_EQ(r.variant, "allreduce+ps", "headed by what ran");
        NS_TEST_EXPECT_MSG_EQ(SaysUnvalidated(r), false, "no shared ring, no note");
        const double b = TrainingNetwork::GetLinkGoodputBytesPerSecond(base.scenario);
        TrainingJobSet later(base);
        later.Add(PsJob(base, "p", "1,3", 0));
        later.Add(RingJob(base, "r", "0,2", 4 * 2.0 * BYTES / b * 1.2, 4));
        later.Place("test");
        for (double ratio : RatiosToSolo("flow", later, r))
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(ratio, 1.0, 1e-9, "after the PS job: as alone");
        }
        NS_TEST_EXPECT_MSG_EQ(r.variant, "ps", "the shared run's model");
        NS_TEST_EXPECT_MSG_EQ(SaysUnvalidated(r), true, "a ring sharing links: the note");
    }
};

/**
 * A 2-worker ring (hosts 0 and 2: one worker per rack) and a sync-PS job (worker on host 1,
 * server on host 3) on a leaf-spine with one spine. The ring's flows w0 -> w1 and w1 -> w0
 * cross the spine path in both directions; the PS job's downlink crosses it towards rack 0,
 * its uplink towards rack 1, one at a time. So while both run, one ring flow shares
 * leaf1->spine0->leaf0 or leaf0->spine0->leaf1 with the PS connection: max-min gives each B/2,
 * the other ring flow B, and the ring moves at its slowest flow's B/2. A ring step (each flow
 * sends 2(K-1)/K M = M) takes M/(B/2) = 2M/B instead of the solo M/B, a PS step 2M/(B/2) =
 * 4M/B instead of 2M/B; the ring's 8 steps and the PS job's 4 end together (16M/B). Flow within
 * 1 %, packet (TCP ring and PS connections on one 10 G path) within 10 % with 256 KiB socket
 * buffers for both jobs (--socketBuffer). Each job keeps its own buffer rule at the packet level;
 * with the ring's own 1 MiB (PS 256 KiB) both jobs' steps are shorter than max-min says (ring
 * 0.75 x 2M/B, PS 0.87 x 4M/B), and with 1 MiB for both too (0.73, 0.84): with windows of 1 MiB
 * the 1000-packet queue overflows and the jobs' transfers no longer overlap as the fluid model's
 * do (measured, not analysed further).
 *
 * A ring and a PS job sharing the spine path get half of it each: ring step 2M over B, PS step 4M
 * over B (flow 1%, packet 10%).
 */
class RingSharesLinkTestCase : public TestCase
{
  public:
    RingSharesLinkTestCase()
        : TestCase("a ring and a PS job sharing the spine path get half each")
    {
    }

  private:
    void DoRun() override
    {
        RunRequest base = LeafSpine(1);
        ScenarioOptions::Set(base, "socketBuffer", "262144");
        TrainingJobSet set(base);
        set.Add(RingJob(base, "r", "0,2", 0, 8));
        set.Add(PsJob(base, "p", "1,3", 0));
        set.Place("test");
        const double b = TrainingNetwork::GetLinkGoodputBytesPerSecond(set.GetFabricScenario());
        const double ring = 2.0 * BYTES / b;
        const double ps = 4.0 * BYTES / b;
        const JobSetResult flow = RunSet("flow", set);
        NS_TEST_ASSERT_MSG_EQ_TOL(flow.jobs[0].stepTimeMean / ring, 1.0, 0.01, "flow ring: 2M/B");
        NS_TEST_ASSERT_MSG_EQ_TOL(flow.jobs[1].stepTimeMean / ps, 1.0, 0.01, "flow PS: 4M/B");
        NS_TEST_ASSERT_MSG_EQ_TOL(flow.jobs[0].inputs.at("ring_rate_bytes_per_s") / (b / 2),
                                  1.0,
                                  1e-9,
                                  "the ring's lowest rate: B/2");
        const double soloRing = RunSolo("flow", set.GetJobs()[0]).stepTimeMean;
        NS_TEST_ASSERT_MSG_EQ_TOL(soloRing / (ring / 2), 1.0, 0.01, "flow solo ring: M/B");
        const JobSetResult packet = RunSet("packet", set);
        NS_TEST_ASSERT_MSG_EQ_TOL(packet.jobs[0].stepTimeMean / ring, 1.0, 0.10, "packet ring");
        NS_TEST_ASSERT_MSG_EQ_TOL(packet.jobs[1].stepTimeMean / ps, 1.0, 0.10, "packet PS");
    }
};

/**
 * A 4-worker ring placed across two racks in turn (hosts 0, 3, 1, 4 of a 2 x 3 leaf-spine with one
 * spine): hops w0 -> w1 and w2 -> w3 both cross leaf0->spine0->leaf1, the two others the reverse.
 * A PS job on hosts 2 and 5 uses the same spine path after the ring ended, so the ring runs in
 * the shared computation alone. Max-min gives each of the two hops on a path B/2, so the ring goes
 * at B/2 and a step (each hop sends 2(K-1)/K M = 1.5 M) takes 3M/B. Under FCFS the ring takes its
 * turn as one (each link once, its rate split among the ring's hops on it): the same B/2, where
 * serving the hops one after the other would let the first hold the path while the ring waits
 * on the second, for ever.
 *
 * A ring whose own hops share a path goes at B over 2 under ps and fcfs: step 3M over B (1%), the
 * two within 1e-9.
 */
class RingOwnHopsTestCase : public TestCase
{
  public:
    RingOwnHopsTestCase()
        : TestCase("a ring whose own hops share a path, step 3M over B under ps and fcfs")
    {
    }

  private:
    void DoRun() override
    {
        const RunRequest base = MakeBase({{"topology", "leafspine"},
                                          {"leaves", "2"},
                                          {"spines", "1"},
                                          {"hostsPerLeaf", "3"},
                                          {"nicRate", "10Gbps"}});
        const double b = TrainingNetwork::GetLinkGoodputBytesPerSecond(base.scenario);
        TrainingJobSet set(base);
        TrainingJob ring = RingJob(base, "r", "0,3,1,4", 0, 4);
        ring.scenario.workers = 4;
        set.Add(ring);
        set.Add(PsJob(base, "p", "2,5", 4 * 3.0 * BYTES / b * 1.2));
        set.Place("test");
        std::vector<double> steps;
        for (const std::string sharing : {"ps", "fcfs"})
        {
            Ptr<TrainingBackend> flow = TrainingBackendRegistry::Create("flow");
            flow->SetAttribute("Sharing", StringValue(sharing));
            steps.push_back(flow->RunJobs(set).front().jobs[0].stepTimeMean);
            NS_TEST_ASSERT_MSG_EQ_TOL(steps.back() / (3.0 * BYTES / b), 1.0, 0.01, sharing);
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(steps[1] / steps[0], 1.0, 1e-9, "fcfs as ps");
    }
};

/// A model that serves only the first flow it is given (full capacity of its path), none else.
class FirstFlowOnlySharing : public SharingModel
{
  public:
    void AssignRates(const std::vector<Flow>& flows,
                     const std::vector<double>& capacity,
                     std::vector<double>& rates) const override
    {
        rates.assign(flows.size(), 0);
        if (!flows.empty())
        {
            rates[0] = capacity[flows[0].links[0]];
        }
    }

    std::string GetName() const override
    {
        return "first-only";
    }
};

/**
 * A model that gives a ring's second hop no rate while its first holds the path leaves the ring
 * waiting for ever: the flow backend says so (naming the model) instead of reporting a run that
 * stopped early.
 *
 * A model that starves a ring's hop is refused, naming the model.
 */
class RingStarvedTestCase : public TestCase
{
  public:
    RingStarvedTestCase()
        : TestCase("a sharing model that starves a ring hop is refused by name")
    {
    }

  private:
    void DoRun() override
    {
        const RunRequest base = LeafSpine(1);
        TrainingJobSet set(base);
        set.Add(RingJob(base, "r", "0,2", 0, 3));
        set.Add(PsJob(base, "p", "1,3", 1.0));
        set.Place("test");
        Ptr<TrainingBackend> flow = TrainingBackendRegistry::Create("flow");
        flow->SetAttribute("SharingModel", PointerValue(CreateObject<FirstFlowOnlySharing>()));
        NS_TEST_ASSERT_MSG_EQ(tests::ThrowsInputError(
                                  [&]
                                  {
                                      flow->RunJobs(set);
                                  },
                                  {"--jobs", "first-only", "ring", "no rate"}),
                              true,
                              "refused");
    }
};

/**
 * --sharing=hybrid with several jobs (000 Sec. 3.2.1 per job): the two PS jobs of
 * SharedPathTestCase under FCFS take turns: a's downlink first (full B), then b's while a's
 * uplink runs in the other direction, and from then on one job's downlink always overlaps the
 * other's uplink: after b's first step (3M/B) both step every 2M/B, as alone. Under PS both
 * step every 4M/B. Hybrid: per job the mean, 3M/B (flow within 1 %), and the fcfs and ps runs
 * follow as results of their own.
 *
 * Hybrid with two PS jobs on one path: fcfs 2M over B, ps 4M over B, hybrid their mean 3M over B
 * per job (1%).
 */
class HybridJobsTestCase : public TestCase
{
  public:
    HybridJobsTestCase()
        : TestCase("hybrid with two PS jobs on one path is the mean of fcfs and ps")
    {
    }

  private:
    void DoRun() override
    {
        const RunRequest base = LeafSpine(1);
        const TrainingJobSet set = TwoJobsOnOnePath(base);
        const double b = TrainingNetwork::GetLinkGoodputBytesPerSecond(set.GetFabricScenario());
        Ptr<TrainingBackend> flow = TrainingBackendRegistry::Create("flow");
        flow->SetAttribute("Sharing", StringValue("hybrid"));
        const std::vector<JobSetResult> r = flow->RunJobs(set);
        NS_TEST_ASSERT_MSG_EQ(r.size(), 3, "hybrid, then its fcfs and ps runs");
        NS_TEST_ASSERT_MSG_EQ(r[0].variant + r[1].variant + r[2].variant,
                              "hybridfcfsps",
                              "variants");
        for (uint32_t j = 0; j < 2; ++j)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(r[1].jobs[j].stepTimeMean / (2.0 * BYTES / b),
                                      1.0,
                                      0.01,
                                      "fcfs: 2M/B");
            NS_TEST_ASSERT_MSG_EQ_TOL(r[2].jobs[j].stepTimeMean / (4.0 * BYTES / b),
                                      1.0,
                                      0.01,
                                      "ps: 4M/B");
            NS_TEST_ASSERT_MSG_EQ_TOL(r[0].jobs[j].stepTimeMean / (3.0 * BYTES / b),
                                      1.0,
                                      0.01,
                                      "hybrid: 3M/B");
        }
    }
};

/**
 * --windowModel with several jobs: each PS connection is capped by the single-job rule, w over
 * the base round trip (one connection per direction and job, directions one at a time: no
 * standing queue), and the jobs share the spine path by max-min under the caps. With the two
 * jobs of SharedPathTestCase and w/RTT = 0.3 B the caps bind (0.6 B < B): both step as alone,
 * 2M/(0.3 B); with w/RTT = 0.8 B max-min's B/2 binds: 4M/B, against a solo 2M/(0.8 B).
 *
 * Window model with two PS jobs on one path: a cap of 0.3B binds (as alone), one of 0.8B does not
 * (4M over B) (1%).
 */
class WindowJobsTestCase : public TestCase
{
  public:
    WindowJobsTestCase()
        : TestCase("window model with two PS jobs on one path, cap 0.3B binds, 0.8B does not")
    {
    }

  private:
    void DoRun() override
    {
        for (double share : {0.3, 0.8})
        {
            RunRequest base = LeafSpine(1);
            const double b = TrainingNetwork::GetLinkGoodputBytesPerSecond(base.scenario);
            const double rtt = TrainingNetwork::GetBaseRttSeconds(base.scenario);
            base.scenario.sendBufferBytes = static_cast<uint32_t>(std::lround(share * b * rtt));
            const double cap = base.scenario.sendBufferBytes / rtt;
            const TrainingJobSet set = TwoJobsOnOnePath(base);
            Ptr<TrainingBackend> flow = TrainingBackendRegistry::Create("flow");
            flow->SetAttribute("WindowModel", BooleanValue(true));
            const JobSetResult r = flow->RunJobs(set).front();
            NS_TEST_ASSERT_MSG_EQ(r.variant, "ps-window", "variant");
            const double solo = flow->Run(*set.GetJobs()[0].profile, set.GetJobs()[0].scenario)
                                    .front()
                                    .stepTimeMean;
            NS_TEST_ASSERT_MSG_EQ_TOL(solo / (2.0 * BYTES / cap), 1.0, 0.01, "solo: 2M/cap");
            const double expected = 2.0 * BYTES / std::min(cap, b / 2);
            for (const auto& job : r.jobs)
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(job.stepTimeMean / expected,
                                          1.0,
                                          0.01,
                                          "w/RTT = " << share << " B");
                NS_TEST_ASSERT_MSG_EQ(job.inputs.at("window_bytes"),
                                      base.scenario.sendBufferBytes,
                                      "the single-job rule's window");
            }
        }
        Ptr<TrainingBackend> fcfs = TrainingBackendRegistry::Create("flow");
        fcfs->SetAttribute("WindowModel", BooleanValue(true));
        fcfs->SetAttribute("Sharing", StringValue("fcfs"));
        const RunRequest base = LeafSpine(1);
        TrainingJobSet set(base);
        set.Add(PsJob(base, "a", "0,2", 0));
        set.Place("test");
        NS_TEST_ASSERT_MSG_EQ(tests::ThrowsInputError(
                                  [&]
                                  {
                                      fcfs->RunJobs(set);
                                  },
                                  {"--windowModel", "fcfs"}),
                              true,
                              "the window model needs a model that honours caps");
    }
};

/**
 * With plain max-min the shared run aggregates each job's identical connections into rate
 * classes (a link counting as private only while no flow of any job crosses it): two async PS
 * jobs of 5 workers spread over a 2 x 2 leaf-spine and a 2-worker ring across the racks (its
 * flows make links shared and private again) step as with PsSharing given every connection
 * (every step record within 1e-9 s), and the model sees fewer flows than there were connections.
 *
 * Several jobs' connections aggregate into rate classes: the same steps as per-connection max-min
 * (1e-9 s), fewer flows for the model.
 */
class AggregateJobsTestCase : public TestCase
{
  public:
    AggregateJobsTestCase()
        : TestCase("several jobs aggregate into rate classes with per-connection max-min steps")
    {
    }

  private:
    void DoRun() override
    {
        const RunRequest base = MakeBase({{"topology", "leafspine"},
                                          {"leaves", "2"},
                                          {"spines", "2"},
                                          {"hostsPerLeaf", "7"},
                                          {"nicRate", "10Gbps"}});
        TrainingJobSet set(base);
        const auto profile = std::make_shared<const TrainingProfile>(
            tests::MakeProfile({BYTES, BYTES / 3, 2 * BYTES}, 500, 900, 40, {1, 1.5, 2}));
        for (const std::string name : {"a", "b"})
        {
            TrainingJob job = PsJob(base, name, "spread", name == "a" ? 0 : 0.003, 5);
            job.scenario.workers = 5;
            job.scenario.mode = TrainingScenario::ASYNC;
            job.scenario.sampleSteps = true;
            job.profile = profile;
            set.Add(job);
        }
        set.Add(RingJob(base, "r", "spread", 0.001, 6));
        set.Place("test");
        const JobSetResult aggregated = RunSet("flow", set);
        Ptr<TrainingBackend> each = TrainingBackendRegistry::Create("flow");
        each->SetAttribute("SharingModel", PointerValue(CreateObject<tests::PerFlowPsSharing>()));
        const JobSetResult reference = each->RunJobs(set).front();
        for (uint32_t j = 0; j < 3; ++j)
        {
            const auto& a = aggregated.jobs[j].steps;
            const auto& b = reference.jobs[j].steps;
            NS_TEST_ASSERT_MSG_EQ(a.size(), b.size(), "step records");
            double most = 0;
            for (std::size_t i = 0; i < a.size(); ++i)
            {
                most = std::max(
                    {most, std::abs(a[i].start - b[i].start), std::abs(a[i].end - b[i].end)});
            }
            NS_TEST_ASSERT_MSG_LT_OR_EQ(most, 1e-9, "job " << j << ": the same steps");
        }
        for (uint32_t j = 0; j < 2; ++j)
        {
            NS_TEST_ASSERT_MSG_LT(aggregated.jobs[j].inputs.at("sharing_flows"),
                                  reference.jobs[j].inputs.at("sharing_flows"),
                                  "job " << j << ": fewer flows for the model");
        }
    }
};

/**
 * On a star every job has its own hosts' links: a 2-worker PS job and a 3-worker ring beside it
 * run as alone in the flow backend, and each link of the fabric table carries one job's bytes,
 * reported under the job's host names (the ring's hosts are 3..5 of the shared star but 0..2 of
 * its own).
 */
class StarJobsTestCase : public TestCase
{
  public:
    StarJobsTestCase()
        : TestCase("jobs on a star run as alone and their links keep their own names")
    {
    }

  private:
    void DoRun() override
    {
        const RunRequest base = MakeBase({});
        TrainingJobSet set(base);
        TrainingJob ps = PsJob(base, "p", "packed", 0);
        ps.scenario.workers = 2;
        TrainingJob ring = PsJob(base, "r", "packed", 0.005);
        ring.scenario.architecture = TrainingScenario::RING_ALLREDUCE;
        ring.scenario.workers = 3;
        set.Add(ps);
        set.Add(ring);
        set.Place("test");
        JobSetResult r;
        for (double ratio : RatiosToSolo("flow", set, r))
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(ratio, 1.0, 1e-9, "as alone");
        }
        const TrainingResult soloRing = RunSolo("flow", set.GetJobs()[1]);
        double ringLink = -1;
        for (const auto& l : r.links)
        {
            ringLink = l.name == "r.worker0->switch" ? l.utilisation : ringLink;
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(ringLink,
                                  soloRing.linkUtilisation.at("worker0->switch"),
                                  1e-12,
                                  "the ring's uplink under its own name");
    }
};

/**
 * Metamorphic: jobs on disjoint hosts do not interact, co-located servers included. A sync-PS
 * job "c" (K = 2, P = 1, --serverPlacement=colocated: its server on worker 0's host, PS = 2
 * roles on 2 hosts) shares a star, or a 2 x 3 leaf-spine (c in rack 0, hosts 0,1), with a
 * separate-server job "s" (K = 1, P = 1) on other hosts. At flow level c's records are those
 * of c alone, bit for bit: its step times, and those of the unplaced job (its own star or its
 * hosts' list) run as a single job. The set takes 2 + 2 hosts (c's server takes none), and
 * c's server is named on its worker's host. The packet level runs it: every step of both jobs
 * ends, within 5 % of c alone.
 *
 * A co-located PS job in a set runs as alone: flow bit for bit, packet within 5%.
 */
class ColocatedJobTestCase : public TestCase
{
  public:
    ColocatedJobTestCase()
        : TestCase("a co-located PS job in a set with a disjoint job runs as alone")
    {
    }

  private:
    void DoRun() override
    {
        const RunRequest leafSpine = MakeBase({{"topology", "leafspine"},
                                               {"leaves", "2"},
                                               {"spines", "2"},
                                               {"hostsPerLeaf", "3"},
                                               {"nicRate", "10Gbps"}});
        for (const auto& [base, lists] : {std::pair{MakeBase({}), false}, {leafSpine, true}})
        {
            TrainingJob c = PsJob(base, "c", lists ? "0,1" : "packed", 0);
            c.scenario.workers = 2;
            c.scenario.serverPlacement = TrainingScenario::COLOCATED_SERVERS;
            TrainingScenario alone = c.scenario; // the job as a single run would take it
            alone.placement = c.placement;
            TrainingJobSet set(base);
            set.Add(c);
            set.Add(PsJob(base, "s", lists ? "3,4" : "packed", 0));
            set.Place("test");
            const std::string what = lists ? "leaf-spine" : "star";
            const std::vector<uint32_t>& hosts = set.GetJobs()[0].hosts;
            NS_TEST_ASSERT_MSG_EQ(hosts.size(), 3, what + ": two workers and a server");
            NS_TEST_EXPECT_MSG_EQ(hosts[2], hosts[0], what + ": server 0 on worker 0's host");
            NS_TEST_EXPECT_MSG_EQ(set.GetFabric().GetNRoles(), 5, what + ": every role");
            const TrainingResult inSet = RunSet("flow", set).jobs.at(0);
            for (const TrainingResult& solo :
                 {RunSolo("flow", set.GetJobs()[0]),
                  TrainingBackendRegistry::Create("flow")->Run(*c.profile, alone).front()})
            {
                NS_TEST_EXPECT_MSG_EQ(inSet.stepTimeMean, solo.stepTimeMean, what + ": as alone");
                NS_TEST_EXPECT_MSG_EQ(MaxStepDifference(inSet, solo), 0, what + ": every step");
            }
            JobSetResult packet;
            for (double ratio : RatiosToSolo("packet", set, packet))
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(ratio, 1.0, 0.05, what + ": packet as alone");
            }
            NS_TEST_EXPECT_MSG_EQ(packet.jobs.at(0).steps.size(), 2 * 4, what + ": every step");
        }
    }
};

/**
 * Metamorphic: a job whose worker leaves and rejoins (--leave, async PS) in a set with a job on
 * other hosts runs as alone. Job "a" (async, K = 2, 12 steps) on a star, its worker 1 away from
 * the middle of its step 4 (in the run without the window) for three steps' time, beside a
 * one-worker job "s". At flow level a's step records and throughput equal those of its solo run
 * bit for bit, and so do the window's time away (positive: the worker left inside the measured
 * window) and missed steps. The job has no compute (the server's link sets its rate), so while
 * worker 1 is away worker 0 takes the whole link: the throughput is that of the run without the
 * window within 1 % (the rate a network-bound async job keeps when a worker leaves).
 */
class LeaveJobTestCase : public TestCase
{
  public:
    LeaveJobTestCase()
        : TestCase("a job whose worker leaves and rejoins runs in a set as alone")
    {
    }

  private:
    void DoRun() override
    {
        const RunRequest base = MakeBase({{"mode", "async"}});
        TrainingJob a = PsJob(base, "a", "packed", 0, 12);
        a.scenario.workers = 2;
        const TrainingResult without = RunSolo("flow", a);
        const auto step4 = tests::StepOf(without, 1, 4);
        a.scenario.leave = {{1, (step4.start + step4.end) / 2, 3 * (step4.end - step4.start)}};
        TrainingJobSet set(base);
        set.Add(a);
        set.Add(PsJob(base, "s", "packed", 0));
        set.Place("test");
        const TrainingResult inSet = RunSet("flow", set).jobs.at(0);
        const TrainingResult solo = RunSolo("flow", set.GetJobs()[0]);
        NS_TEST_ASSERT_MSG_EQ(inSet.throughput, solo.throughput, "throughput as alone");
        NS_TEST_ASSERT_MSG_EQ(MaxStepDifference(inSet, solo), 0, "every step as alone");
        NS_TEST_ASSERT_MSG_EQ(inSet.absences.size(), 1, "the window is reported");
        NS_TEST_ASSERT_MSG_GT(inSet.absences[0].away, 0, "away in the measured window");
        NS_TEST_ASSERT_MSG_EQ(inSet.absences[0].away, solo.absences.at(0).away, "time away");
        NS_TEST_ASSERT_MSG_EQ(inSet.absences[0].missedSteps,
                              solo.absences[0].missedSteps,
                              "missed steps");
        NS_TEST_ASSERT_MSG_EQ_TOL(inSet.throughput,
                                  without.throughput,
                                  0.01 * without.throughput,
                                  "network-bound: the other worker takes the whole link");
    }
};

/**
 * The driver's comparison with each job alone (--solo): two PS jobs on one spine path (see
 * SharedPathTestCase: each gets half of it, a step of 4M/B against 2M/B alone), flow backend.
 * RunEachAlone gives each job's single-job run; the change against it is -50 % (1 %); the
 * result document carries solo_samples_per_s and change_vs_solo per job; the report prints
 * "-50.0%" and lists the busiest link first. Without solo runs the change is NaN and printed "-".
 */
class SoloComparisonTestCase : public TestCase
{
  public:
    SoloComparisonTestCase()
        : TestCase("each job against itself alone, the vs solo column and busiest link first")
    {
    }

  private:
    void DoRun() override
    {
        const RunRequest base = LeafSpine(1);
        const TrainingJobSet set = TwoJobsOnOnePath(base);
        const Ptr<TrainingBackend> flow = TrainingBackendRegistry::Create("flow");
        JobSetResult r = flow->RunJobs(set).front();
        NS_TEST_ASSERT_MSG_EQ(std::isnan(r.GetChangeVsSolo(0)), true, "no solo runs");
        NS_TEST_ASSERT_MSG_NE(JobSetReport::FormatResult(set, r).find(" - "),
                              std::string::npos,
                              "printed as -");
        r.solo = set.RunEachAlone(*flow);
        NS_TEST_ASSERT_MSG_EQ(r.solo.size(), 2, "one per job");
        for (uint32_t j = 0; j < 2; ++j)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(r.solo[j],
                                      RunSolo("flow", set.GetJobs()[j]).throughput,
                                      1e-9 * r.solo[j],
                                      "the job's own single-job run");
            NS_TEST_ASSERT_MSG_EQ_TOL(r.GetChangeVsSolo(j), -0.5, 0.01, "half the path");
        }
        const auto doc = nlohmann::json::parse(JobSetResult::MakeDocument(set, {r}, false));
        const auto& job = doc["results"][0]["jobs"][1];
        NS_TEST_ASSERT_MSG_EQ_TOL(job["change_vs_solo"].get<double>(), -0.5, 0.01, "JSON");
        NS_TEST_ASSERT_MSG_EQ(job["solo_samples_per_s"].get<double>(), r.solo[1], "JSON solo");
        const std::string text = JobSetReport::FormatResult(set, r);
        NS_TEST_ASSERT_MSG_NE(text.find("-50."), std::string::npos, text);
        double busiest = 0;
        for (const auto& l : r.links)
        {
            busiest = std::max(busiest, l.utilisation);
        }
        const std::size_t table = text.find("ECN\n");
        const std::string first = text.substr(table + 4, text.find('\n', table + 4) - table - 4);
        NS_TEST_ASSERT_MSG_NE(first.find(RunReport::Format("%.1f", 100 * busiest)),
                              std::string::npos,
                              "busiest link first: " << first);
    }
};

/// The suite.
class MultiJobTestSuite : public TestSuite
{
  public:
    MultiJobTestSuite()
        : TestSuite("distributed-training-multi-job", Type::UNIT)
    {
        AddTestCase(new BadJobsTestCase, DT_TEST_QUICK);
        AddTestCase(new LoneJobTestCase, DT_TEST_QUICK);
        AddTestCase(new SharedPathTestCase, DT_TEST_QUICK);
        AddTestCase(new DisjointRacksTestCase, DT_TEST_QUICK);
        AddTestCase(new LaterStartTestCase, DT_TEST_QUICK);
        AddTestCase(new RingApartTestCase, DT_TEST_QUICK);
        AddTestCase(new RingSharesLinkTestCase, DT_TEST_QUICK);
        AddTestCase(new RingOwnHopsTestCase, DT_TEST_QUICK);
        AddTestCase(new RingStarvedTestCase, DT_TEST_QUICK);
        AddTestCase(new HybridJobsTestCase, DT_TEST_QUICK);
        AddTestCase(new WindowJobsTestCase, DT_TEST_QUICK);
        AddTestCase(new AggregateJobsTestCase, DT_TEST_QUICK);
        AddTestCase(new StarJobsTestCase, DT_TEST_QUICK);
        AddTestCase(new ColocatedJobTestCase, DT_TEST_QUICK);
        AddTestCase(new LeaveJobTestCase, DT_TEST_QUICK);
        AddTestCase(new SoloComparisonTestCase, DT_TEST_QUICK);
        AddTestCase(new JobSeedTestCase, DT_TEST_QUICK);
        AddTestCase(new AckQueueTestCase, DT_TEST_QUICK);
    }
};

MultiJobTestSuite g_multiJobTestSuite; //!< the suite instance

} // namespace

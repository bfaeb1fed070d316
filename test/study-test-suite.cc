/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The driver's studies (--vary crossed with the --workers sweep; helper/options/vary-options.h,
 * helper/study/driver-study.h, helper/report/study-report.h): --vary's refusals, a point's
 * request as the same options typed alone, a study of one value that equals the sweep without
 * --vary, and a small analytic study whose CSV holds the hand-worked compute bound and the
 * throughputs of the single runs.
 */

#include "training-test-utils.h"

#include "ns3/distributed-training-compat.h"
#include "ns3/driver-study.h"
#include "ns3/progress-reporter.h"
#include "ns3/scenario-options.h"
#include "ns3/study-report.h"
#include "ns3/sweep-report.h"
#include "ns3/test.h"
#include "ns3/training-input-error.h"
#include "ns3/vary-options.h"

#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using ns3::tests::ThrowsInputError;

namespace
{

/// \return the request the driver builds from these arguments
RunRequest
Request(const std::vector<std::string>& args)
{
    std::vector<std::string> others;
    return ScenarioOptions::FromArguments(args, others);
}

/// \return the CSV's lines, the header first
std::vector<std::string>
Lines(const std::string& csv)
{
    std::vector<std::string> lines;
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);)
    {
        lines.push_back(line);
    }
    return lines;
}

/// \return the first n comma-separated fields of a CSV line (none of them quoted)
std::vector<std::string>
Fields(const std::string& line, std::size_t n)
{
    std::vector<std::string> fields;
    std::istringstream in(line);
    for (std::string f; fields.size() < n && std::getline(in, f, ',');)
    {
        fields.push_back(f);
    }
    return fields;
}

/**
 * --vary refuses, naming --vary: an unknown option (with "did you mean"), an output option,
 * --workers (the sweep itself), an option varied twice, an empty or repeated value, text that is
 * not NAME=VALUES or a JSON object of lists; a value the option's own entry refuses gets that
 * entry's message and the point; 2 x 3 values at K = 1..200 are 1,200 points, over the default
 * --maxPoints of 1000.
 */
class VaryRefusalsTestCase : public TestCase
{
  public:
    VaryRefusalsTestCase()
        : TestCase("--vary refuses what it cannot run, naming the option and the value")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::pair<std::string, std::vector<std::string>>> cases{
            {"nicrate=1Gbps", {"--vary: unknown option --nicrate (did you mean --nicRate?)"}},
            {"output=a.json", {"--vary: --output is an output option"}},
            {"workers=1,2", {"--vary: --workers is the sweep"}},
            {"arch=ps;arch=ring", {"--vary: --arch varied twice"}},
            {"arch=ps,", {"--vary: empty value of --arch"}},
            {"arch=ps,ps", {"--vary: --arch=ps given twice"}},
            {"arch", {"--vary: 'arch' is not NAME=VALUES"}},
            {"arch=ps;", {"--vary: '' is not NAME=VALUES"}},
            {"{\"arch\": \"ps\"}", {"--vary: the values of --arch are not a list"}},
            {"{\"arch\": [\"ps\"], \"arch\": [\"ring\"]}", {"--vary", "arch"}},
            {"nicRate=10Gbps,fast", {"--vary, at nicRate=fast: --nicRate:", "'fast'"}},
            {"arch=ps,ring;nicRate=1Gbps,2Gbps,3Gbps",
             {"--maxPoints: --vary and --workers make 1200 points (2 arch x 3 nicRate x 200 K), "
              "more than 1000"}},
        };
        for (const auto& [vary, words] : cases)
        {
            const bool refused = ThrowsInputError(
                [&vary = vary]
                {
                    VaryOptions::MakePoints(Request({"--workers=1..200", "--vary=" + vary}));
                },
                words);
            NS_TEST_ASSERT_MSG_EQ(refused, true, vary);
        }
    }
};

/**
 * A point's request is the options typed alone: --vary=arch=ps,ring;nicRate=1Gbps,2Gbps gives
 * four points, the last option fastest (ps 1, ps 2, ring 1, ring 2); an explicit --nicRate is
 * replaced by the varied values; a varied preset (--hostModel=linux sets --delayedAck=true) is
 * applied before the options given, so that --delayedAck=false still wins. The JSON form takes
 * values with commas (--computeScale=1,2 per worker); in a --scenario object --vary may be that
 * object or the plain text.
 */
class VaryPointsTestCase : public TestCase
{
  public:
    VaryPointsTestCase()
        : TestCase("every point is the options typed alone, presets first")
    {
    }

  private:
    void DoRun() override
    {
        const auto points = VaryOptions::MakePoints(
            Request({"--nicRate=5Gbps", "--vary=arch=ps,ring;nicRate=1Gbps,2Gbps"}));
        NS_TEST_ASSERT_MSG_EQ(points.size(), 4, "2 x 2 points");
        NS_TEST_ASSERT_MSG_EQ(
            VaryOptions::Describe(Request({"--vary=arch=ps;nicRate=1Gbps"}).vary, points[1].values),
            "arch=ps nicRate=2Gbps",
            "the last option varies fastest");
        const TrainingScenario& ring2 = points[3].request.scenario;
        NS_TEST_ASSERT_MSG_EQ(ring2.architecture, TrainingScenario::RING_ALLREDUCE, "arch");
        NS_TEST_ASSERT_MSG_EQ(ring2.nicRate, DataRate("2Gbps"), "the varied rate, not 5Gbps");
        NS_TEST_ASSERT_MSG_EQ(points[3].request.vary.size(), 0, "a point varies nothing");

        const auto hosts = VaryOptions::MakePoints(
            Request({"--delayedAck=false", "--vary=hostModel=ns3,linux"}));
        NS_TEST_ASSERT_MSG_EQ(hosts.at(1).request.scenario.delayedAck,
                              false,
                              "a single option overrides the varied preset");
        NS_TEST_ASSERT_MSG_EQ(hosts.at(1).request.given.count("hostModel"), 1, "given");

        const auto scales = VaryOptions::MakePoints(
            Request({"--workers=2", R"(--vary={"computeScale": ["1,2"]})"}));
        NS_TEST_ASSERT_MSG_EQ(scales.at(0).request.scenario.GetComputeScale(1), 2, "one value");

        RunRequest json = ScenarioOptions::MakeDefault();
        ScenarioOptions::ApplyJsonText(R"({"vary": {"arch": ["ps", "ring"], "steps": [4, 5]}})",
                                       "s.json",
                                       json);
        NS_TEST_ASSERT_MSG_EQ(VaryOptions::MakePoints(json).at(3).request.scenario.steps,
                              5,
                              "an object of lists in a scenario file");
        ScenarioOptions::ApplyJsonText(R"({"vary": "mode=sync,async"})", "t.json", json);
        NS_TEST_ASSERT_MSG_EQ(json.vary.at(0).name, "mode", "the plain text in a scenario file");
    }
};

/**
 * Metamorphic: --vary=arch=ring over K = 1..3 (flow level) gives, row for row, the throughputs
 * of --arch=ring without --vary; the study has one row per K and backend:variant.
 */
class VaryOneValueTestCase : public TestCase
{
  public:
    VaryOneValueTestCase()
        : TestCase("a study of one value equals the sweep without --vary")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = tests::MakeProfile({4000000, 2000000}, 3000, 6000, 100);
        const std::vector<std::string> common{"--workers=1..3",
                                              "--backend=flow",
                                              "--steps=4",
                                              "--warmup=1",
                                              "--progress=false"};
        auto plain = common;
        plain.push_back("--arch=ring");
        auto varied = common;
        varied.push_back("--vary=arch=ring");
        const std::vector<std::string> sweep
            = Lines(DriverStudy::Sweep(p, Request(plain)).FormatCsv());
        const StudyReport study = DriverStudy::Study(p, Request(varied));
        const std::vector<std::string> rows = Lines(study.FormatCsv());
        NS_TEST_ASSERT_MSG_EQ(study.GetRows(), 3, "one row per K (flow:ps)");
        NS_TEST_ASSERT_MSG_EQ(rows.at(0).rfind("arch,workers,backend,variant,samples_per_s,", 0),
                              0,
                              "header");
        for (std::size_t k = 1; k <= 3; ++k)
        {
            const auto a = Fields(sweep.at(k), 2);
            const auto b = Fields(rows.at(k), 6);
            NS_TEST_ASSERT_MSG_EQ(b.at(1), a.at(0), "K");
            NS_TEST_ASSERT_MSG_EQ_TOL(std::stod(b.at(4)),
                                      std::stod(a.at(1)),
                                      1e-5 * std::stod(a.at(1)),
                                      "K = " << k);
        }
    }
};

/**
 * A small analytic study, arch = ps, ring x nicRate = 1, 10 Gb/s x K = 1, 2: each run gives the
 * analytic backend's variants of its architecture, so the rows are those of the 8 runs alone. The
 * profile: two layers of 3 ms forward and 6 ms backward, batch 32: 18 ms of compute per step,
 * so the compute bound is K x 32 / 0.018 = 1777.78 samples/s at K = 1 and 3555.56 at K = 2.
 * Every throughput is that of the same point run alone, and none is above the bound.
 */
class AnalyticStudyTestCase : public TestCase
{
  public:
    AnalyticStudyTestCase()
        : TestCase("analytic arch x rate x K study holds the bound and the single runs")
    {
    }

  private:
    void DoRun() override;
};

void
AnalyticStudyTestCase::DoRun()
{
    const TrainingProfile p = tests::MakeProfile({4000000, 2000000}, 3000, 6000, 100);
    const StudyReport study = DriverStudy::Study(
        p,
        Request(
            {"--workers=1,2", "--backend=analytic", "--vary=arch=ps,ring;nicRate=1Gbps,10Gbps"}));
    // The same points run alone: arch,nicRate,K,variant -> throughput.
    std::map<std::string, double> alone;
    for (const std::string arch : {"ps", "ring"})
    {
        for (const std::string rate : {"1Gbps", "10Gbps"})
        {
            for (const std::string k : {"1", "2"})
            {
                const RunRequest r = Request({"--backend=analytic",
                                              "--arch=" + arch,
                                              "--nicRate=" + rate,
                                              "--workers=" + k});
                for (const auto& result : DriverStudy::RunBackends(p, r.scenario, r, {}))
                {
                    alone[arch + "," + rate + "," + k + "," + result.variant] = result.throughput;
                }
            }
        }
    }
    NS_TEST_ASSERT_MSG_EQ(study.GetRows(), alone.size(), "points x K x the variants of each");
    const std::vector<std::string> rows = Lines(study.FormatCsv());
    NS_TEST_ASSERT_MSG_EQ(rows.at(0),
                          "arch,nicRate,workers,backend,variant,samples_per_s,"
                          "compute_bound_samples_per_s,bottleneck,step_time_s",
                          "header");
    for (std::size_t i = 1; i < rows.size(); ++i)
    {
        const auto f = Fields(rows[i], 7);
        const double k = std::stod(f.at(2));
        NS_TEST_ASSERT_MSG_EQ_TOL(std::stod(f.at(6)), k * 32 / 0.018, 1e-5, rows[i]);
        NS_TEST_ASSERT_MSG_LT_OR_EQ(std::stod(f.at(5)), std::stod(f.at(6)) * (1 + 1e-9), rows[i]);
        const double single = alone.at(f.at(0) + "," + f.at(1) + "," + f.at(2) + "," + f.at(4));
        NS_TEST_ASSERT_MSG_EQ_TOL(std::stod(f.at(5)), single, 1e-8 * single, rows[i]);
    }
}

/**
 * The figure: a panel per value of the first varied option (arch = ps, ring: a 1 x 2 layout),
 * each line a run of consecutive CSV rows (ps at 1 Gb/s, flow:ps: rows 0 and 1 after the
 * header), the bound dashed once per panel. A value holding a comma is quoted in the CSV.
 */
class StudyFigureTestCase : public TestCase
{
  public:
    StudyFigureTestCase()
        : TestCase("faceted gnuplot script and CSV quoting of a study")
    {
    }

  private:
    void DoRun() override
    {
        TrainingResult r;
        r.backend = "flow";
        r.variant = "ps";
        r.throughput = 100;
        r.stepTimeMean = 0.5;
        r.bottleneck = "compute";
        StudyReport t({"arch", "placement"});
        for (const std::string arch : {"ps", "ring"})
        {
            for (uint32_t k : {1, 2})
            {
                t.Add({arch, "0,1"}, k, 200.0 * k, {r});
            }
        }
        const std::vector<std::string> rows = Lines(t.FormatCsv());
        NS_TEST_ASSERT_MSG_EQ(rows.at(1), "ps,\"0,1\",1,flow,ps,100,200,compute,0.5", "quoted");
        const std::string gp = t.PlotScript("s.csv", "title");
        NS_TEST_ASSERT_MSG_NE(gp.find("set multiplot layout 1,2"), std::string::npos, gp);
        NS_TEST_ASSERT_MSG_NE(gp.find("set title 'arch=ring'"), std::string::npos, gp);
        NS_TEST_ASSERT_MSG_NE(gp.find("'s.csv' skip 1 every ::0::1 using 3:6 with linespoints "
                                      "title 'placement=0,1 flow:ps'"),
                              std::string::npos,
                              gp);
        NS_TEST_ASSERT_MSG_NE(gp.find("'s.csv' skip 1 every ::2::3 using 3:7 with lines "
                                      "dashtype 2"),
                              std::string::npos,
                              gp);
    }
};

/**
 * Progress of a loop of runs: after the first of two equal runs, with a zero interval, the line
 * names what was done, 50 % and the time left (about the time so far, 0 s here).
 */
class LoopProgressTestCase : public TestCase
{
  public:
    LoopProgressTestCase()
        : TestCase("progress of a loop of runs says the share done and the time left")
    {
    }

  private:
    void DoRun() override
    {
        std::ostringstream os;
        ProgressReporter progress("study", 2, std::chrono::duration<double>(0), os);
        progress.StartLoop();
        progress.Advance(1, "run 1 of 2 done (arch=ps K=1)");
        NS_TEST_ASSERT_MSG_EQ(os.str(),
                              "[study] run 1 of 2 done (arch=ps K=1) (50%), wall 0 s, about 0 s "
                              "remaining\n",
                              "line");
    }
};

/// The suite.
class StudyTestSuite : public TestSuite
{
  public:
    StudyTestSuite()
        : TestSuite("distributed-training-study", Type::UNIT)
    {
        AddTestCase(new VaryRefusalsTestCase, DT_TEST_QUICK);
        AddTestCase(new VaryPointsTestCase, DT_TEST_QUICK);
        AddTestCase(new VaryOneValueTestCase, DT_TEST_QUICK);
        AddTestCase(new AnalyticStudyTestCase, DT_TEST_QUICK);
        AddTestCase(new StudyFigureTestCase, DT_TEST_QUICK);
        AddTestCase(new LoopProgressTestCase, DT_TEST_QUICK);
    }
};

/// The suite's one instance.
StudyTestSuite g_studyTestSuite;

} // namespace

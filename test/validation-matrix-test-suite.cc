/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The validation runner's pure computations (helper/validation/validation-matrix.h) on hand-made
 * numbers: matrix checks, job expansion, relative errors, the Table 1-shaped error table and the
 * calibration choice. No process is run.
 */

#include "training-test-utils.h"

#include "ns3/distributed-training-compat.h"
#include "ns3/test.h"
#include "ns3/validation-matrix.h"

#include <algorithm>
#include <string>

using namespace ns3;
using ns3::tests::ThrowsInputError;

namespace
{

/// Two scenarios: a holdout sync one with K = 1, 2 and a calibrate async one with K = 4.
const char* TWO_SCENARIOS = R"({
  "defaults": {"steps": 6, "warmup": 2, "nicRate": "10Gbps"},
  "scenarios": [
    {"name": "a", "category": "sync-basic", "profile": "traces/x.json", "workers": [1, 2],
     "options": {"nicRate": "25Gbps", "flowCap": "10Gbps", "overlap": true}},
    {"name": "b", "category": "async-hetero", "profile": "/abs/y.json", "workers": [4],
     "role": "calibrate", "timeline": true, "options": {"mode": "async", "servers": 2},
     "per_workers": {"4": {"computeScale": "1,1,2,2"}}}
  ]
})";

/// \return a row with the fields the computations use
ValidationMatrix::Row
MakeRow(const std::string& scenario,
        const std::string& category,
        const std::string& role,
        uint32_t k,
        const std::string& backend,
        const std::string& variant,
        double throughput)
{
    ValidationMatrix::Row r;
    r.scenario = scenario;
    r.category = category;
    r.role = role;
    r.workers = k;
    r.backend = backend;
    r.variant = variant;
    r.throughput = throughput;
    return r;
}

/**
 * The matrix's expansion into driver jobs.
 *
 * Two scenarios with K = {1, 2} and {4} expand into 3 x (packet + analytic + 5 flow variants) = 21
 * jobs with the scenario options over the defaults; the default flow variants are the sharing
 * models of --backend=all (SharingModelRegistry IN_ALL: fcfs, ps, capped, hybrid, calibrated).
 */
class ValidationExpansionTestCase : public TestCase
{
  public:
    ValidationExpansionTestCase()
        : TestCase("validation matrix, two scenarios expand into 21 jobs")
    {
    }

  private:
    void DoRun() override
    {
        ValidationMatrix m = ValidationMatrix::Parse(TWO_SCENARIOS, "two.json");
        NS_TEST_ASSERT_MSG_EQ(m.GetVariants().size(),
                              5,
                              "default variants fcfs, ps, capped, hybrid, calibrated");
        auto jobs = m.ExpandFirstPhase("/repo");
        NS_TEST_ASSERT_MSG_EQ(jobs.size(), 21, "job count");
        NS_TEST_ASSERT_MSG_EQ(m.ExpandSecondPhase("/repo", 0.5).size(), 0, "no calibration");

        const auto& first = jobs.front();
        NS_TEST_ASSERT_MSG_EQ(first.id, "a-k1-packet", "first job id");
        auto has = [](const ValidationMatrix::Job& j, const std::string& arg)
        {
            // "--name=value" among the job's options
            const std::size_t eq = arg.find('=');
            const std::string name = arg.substr(2, eq - 2);
            return j.options.contains(name) && j.options[name] == arg.substr(eq + 1);
        };
        NS_TEST_ASSERT_MSG_EQ(has(first, "--profile=/repo/traces/x.json"),
                              true,
                              "relative profile");
        NS_TEST_ASSERT_MSG_EQ(has(first, "--nicRate=25Gbps"), true, "scenario overrides default");
        NS_TEST_ASSERT_MSG_EQ(has(first, "--nicRate=10Gbps"), false, "default replaced");
        NS_TEST_ASSERT_MSG_EQ(has(first, "--steps=6"), true, "default kept");
        NS_TEST_ASSERT_MSG_EQ(has(first, "--overlap=true"), true, "boolean option");
        NS_TEST_ASSERT_MSG_EQ(has(first, "--workers=1"), true, "workers");
        NS_TEST_ASSERT_MSG_EQ(has(first, "--backend=packet"), true, "backend");

        std::size_t flows = 0;
        std::size_t records = 0;
        for (const auto& j : jobs)
        {
            flows += j.backend == "flow";
            records += j.records;
            if (j.id == "b-k4-flow-hybrid")
            {
                NS_TEST_ASSERT_MSG_EQ(has(j, "--profile=/abs/y.json"), true, "absolute profile");
                NS_TEST_ASSERT_MSG_EQ(has(j, "--sharing=hybrid"), true, "variant args");
                NS_TEST_ASSERT_MSG_EQ(has(j, "--servers=2"), true, "number option");
                NS_TEST_ASSERT_MSG_EQ(has(j, "--computeScale=1,1,2,2"), true, "per-K option");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(flows, 15, "5 variants x 3 (scenario, K)");
        NS_TEST_ASSERT_MSG_EQ(records, 2, "records only for the timeline's packet and flow ps");
    }
};

/**
 * Calibration: the sweep on the calibrate scenarios, the chosen value on the holdout ones.
 *
 * Calibration sweeps 3 values on the calibrate scenario, picks the smallest mean absolute error and
 * runs the holdout scenarios with it.
 */
class ValidationCalibrationTestCase : public TestCase
{
  public:
    ValidationCalibrationTestCase()
        : TestCase("validation calibration picks the least mean error and runs the holdout")
    {
    }

  private:
    void DoRun() override
    {
        std::string text = R"({
          "flow_variants": [{"name": "ps", "args": ["--sharing=ps"]},
                            {"name": "calibrated", "args": ["--sharing=calibrated"]}],
          "calibration": {"variant": "calibrated", "option": "--incumbentWeight",
                          "values": [0, 0.5, 1]},
          "scenarios": [
            {"name": "cal", "category": "sync-basic", "profile": "p.json", "workers": [1, 2],
             "role": "calibrate"},
            {"name": "hold", "category": "sync-overlap", "profile": "p.json", "workers": [2]}]
        })";
        ValidationMatrix m = ValidationMatrix::Parse(text, "cal.json");
        auto first = m.ExpandFirstPhase("");
        // cal: 2 K x (packet, analytic, ps, 3 calibrated); hold: 1 K x (packet, analytic, ps).
        NS_TEST_ASSERT_MSG_EQ(first.size(), 15, "first phase job count");
        auto second = m.ExpandSecondPhase("", 0.5);
        NS_TEST_ASSERT_MSG_EQ(second.size(), 1, "one holdout (scenario, K)");
        NS_TEST_ASSERT_MSG_EQ(second[0].id, "hold-k2-flow-calibrated", "holdout job id");
        NS_TEST_ASSERT_MSG_EQ(second[0].label, "calibrated", "holdout row label");
        NS_TEST_ASSERT_MSG_EQ(second[0].options.value("incumbentWeight", ""),
                              "0.5",
                              "chosen value");
        NS_TEST_ASSERT_MSG_EQ(ValidationMatrix::FormatNumber(1), "1", "whole number");
        NS_TEST_ASSERT_MSG_EQ(ValidationMatrix::FormatNumber(0.1), "0.1", "shortest decimal");
        NS_TEST_ASSERT_MSG_EQ(ValidationMatrix::FormatNumber(-3), "-3", "negative");
        NS_TEST_ASSERT_MSG_EQ(ValidationMatrix::CalibrationLabel("calibrated", 0.5),
                              "calibrated@0.5",
                              "sweep label");

        // Packet 100 at K = 1 and K = 2; the three values err by (K=2) +30 %, -10 %, +20 %.
        // K = 1 rows (error 50 %) are left out because K > 1 points exist.
        std::vector<ValidationMatrix::Row> rows
            = {MakeRow("cal", "sync-basic", "calibrate", 1, "packet", "TcpCubic", 100),
               MakeRow("cal", "sync-basic", "calibrate", 2, "packet", "TcpCubic", 100),
               MakeRow("cal", "sync-basic", "calibrate", 1, "flow", "calibrated@0", 150),
               MakeRow("cal", "sync-basic", "calibrate", 2, "flow", "calibrated@0", 130),
               MakeRow("cal", "sync-basic", "calibrate", 2, "flow", "calibrated@0.5", 90),
               MakeRow("cal", "sync-basic", "calibrate", 2, "flow", "calibrated@1", 120)};
        auto cells = ValidationMatrix::CalibrationErrors(ValidationMatrix::AttachErrors(rows),
                                                         *m.GetCalibration());
        NS_TEST_ASSERT_MSG_EQ(cells.size(), 3, "one cell per value");
        NS_TEST_ASSERT_MSG_EQ_TOL(cells[0].meanAbs, 0.30, 1e-12, "value 0");
        NS_TEST_ASSERT_MSG_EQ(cells[0].count, 1, "K = 1 left out");
        NS_TEST_ASSERT_MSG_EQ_TOL(cells[1].meanAbs, 0.10, 1e-12, "value 0.5");
        NS_TEST_ASSERT_MSG_EQ_TOL(cells[2].meanAbs, 0.20, 1e-12, "value 1");
        NS_TEST_ASSERT_MSG_EQ(ValidationMatrix::ChooseCalibration(cells), 1, "argmin is 0.5");

        // Empty cells are skipped, ties go to the first, no data at all is an error.
        std::vector<ValidationMatrix::Cell> hand(4);
        hand[0] = {0.05, 0.05, 0};
        hand[1] = {0.2, 0.3, 2};
        hand[2] = {0.1, 0.4, 3};
        hand[3] = {0.1, 0.1, 3};
        NS_TEST_ASSERT_MSG_EQ(ValidationMatrix::ChooseCalibration(hand), 2, "argmin, first tie");
        NS_TEST_ASSERT_MSG_EQ(ThrowsInputError(
                                  []
                                  {
                                      ValidationMatrix::ChooseCalibration(
                                          std::vector<ValidationMatrix::Cell>(2));
                                  },
                                  {"calibration", "no value"}),
                              true,
                              "no data");
    }
};

/**
 * Relative errors and the Table 1-shaped aggregation.
 *
 * Errors +10 %, -20 %, +5 % give mean 11.67 % and max 20 %; the table keeps holdout points, splits
 * K = 1 from K > 1 and leaves empty cells blank.
 */
class ValidationErrorTableTestCase : public TestCase
{
  public:
    ValidationErrorTableTestCase()
        : TestCase("validation error table, mean 11.67 pct and max 20 pct by hand")
    {
    }

  private:
    void DoRun() override
    {
        auto c = ValidationMatrix::Aggregate({0.10, -0.20, 0.05});
        NS_TEST_ASSERT_MSG_EQ_TOL(c.meanAbs, 0.35 / 3, 1e-12, "mean |error|");
        NS_TEST_ASSERT_MSG_EQ_TOL(c.maxAbs, 0.20, 1e-12, "max |error|");
        NS_TEST_ASSERT_MSG_EQ(c.count, 3, "count");
        NS_TEST_ASSERT_MSG_EQ(ValidationMatrix::Aggregate({}).count, 0, "empty");

        std::vector<ValidationMatrix::Row> rows = {
            // sync-basic, K = 2 and 4: flow ps errs +10 % and -20 %.
            MakeRow("s", "sync-basic", "holdout", 2, "packet", "TcpCubic", 200),
            MakeRow("s", "sync-basic", "holdout", 2, "flow", "ps", 220),
            MakeRow("s", "sync-basic", "holdout", 2, "flow", "ps", 999), // hybrid's copy: dropped
            MakeRow("s", "sync-basic", "holdout", 4, "packet", "TcpCubic", 400),
            MakeRow("s", "sync-basic", "holdout", 4, "flow", "ps", 320),
            MakeRow("s", "sync-basic", "holdout", 4, "analytic", "sync-eq7", 420),
            // K = 1: flow ps +5 %.
            MakeRow("s", "sync-basic", "holdout", 1, "packet", "TcpCubic", 100),
            MakeRow("s", "sync-basic", "holdout", 1, "flow", "ps", 105),
            // decentralised, K = 3: +10 %.
            MakeRow("r", "decentralised", "holdout", 3, "packet", "TcpCubic", 50),
            MakeRow("r", "decentralised", "holdout", 3, "flow", "ps", 55),
            // a calibrate scenario and a scenario without packet result: not in the table.
            MakeRow("c", "async-basic", "calibrate", 2, "packet", "TcpCubic", 10),
            MakeRow("c", "async-basic", "calibrate", 2, "flow", "ps", 20),
            MakeRow("n", "async-overlap", "holdout", 2, "flow", "ps", 20)};
        auto withErrors = ValidationMatrix::AttachErrors(rows);
        NS_TEST_ASSERT_MSG_EQ(withErrors.size(), rows.size() - 1, "duplicate dropped");
        NS_TEST_ASSERT_MSG_EQ_TOL(withErrors[1].relError, 0.10, 1e-12, "(220 - 200) / 200");
        NS_TEST_ASSERT_MSG_EQ_TOL(withErrors[1].referenceThroughput,
                                  200,
                                  1e-12,
                                  "packet reference");
        NS_TEST_ASSERT_MSG_EQ((withErrors.back().referenceThroughput < 0), true, "no packet: -1");

        auto table = ValidationMatrix::BuildTable(withErrors, ValidationMatrix::K_ABOVE_ONE);
        NS_TEST_ASSERT_MSG_EQ(table.size(), 2, "rows: analytic sync-eq7 and flow ps");
        auto ps = table["flow ps"]["sync-basic"];
        NS_TEST_ASSERT_MSG_EQ(ps.count, 2, "two K > 1 points");
        NS_TEST_ASSERT_MSG_EQ_TOL(ps.meanAbs, 0.15, 1e-12, "mean of 10 % and 20 %");
        NS_TEST_ASSERT_MSG_EQ_TOL(ps.maxAbs, 0.20, 1e-12, "max");
        NS_TEST_ASSERT_MSG_EQ_TOL(table["flow ps"]["decentralised"].meanAbs, 0.10, 1e-12, "ring");
        NS_TEST_ASSERT_MSG_EQ(table["flow ps"].count("async-basic"), 0, "calibrate excluded");
        NS_TEST_ASSERT_MSG_EQ(table["flow ps"].count("async-overlap"), 0, "no packet reference");
        NS_TEST_ASSERT_MSG_EQ_TOL(table["analytic sync-eq7"]["sync-basic"].meanAbs,
                                  0.05,
                                  1e-12,
                                  "(420 - 400) / 400");

        auto one = ValidationMatrix::BuildTable(withErrors, ValidationMatrix::K_ONE);
        NS_TEST_ASSERT_MSG_EQ_TOL(one["flow ps"]["sync-basic"].meanAbs, 0.05, 1e-12, "K = 1");
        auto all = ValidationMatrix::BuildTable(withErrors, ValidationMatrix::K_ALL);
        NS_TEST_ASSERT_MSG_EQ(all["flow ps"]["sync-basic"].count, 3, "every K");
        NS_TEST_ASSERT_MSG_EQ_TOL(all["flow ps"]["sync-basic"].meanAbs,
                                  0.35 / 3,
                                  1e-12,
                                  "mean of 10, 20 and 5 %");

        std::string rst = ValidationMatrix::FormatRst(all);
        NS_TEST_ASSERT_MSG_EQ((rst.find("11.7 (20.0)") != std::string::npos), true, rst);
        NS_TEST_ASSERT_MSG_EQ((rst.find("analytic sync-eq7") < rst.find("flow ps")),
                              true,
                              "coarse rows first");
        NS_TEST_ASSERT_MSG_EQ(
            (ValidationMatrix::FormatRst({}).find("(no data)") != std::string::npos),
            true,
            "an empty table still has a body row");
        std::string csv = ValidationMatrix::FormatCsv(all, "title");
        NS_TEST_ASSERT_MSG_EQ((csv.find("flow ps,,,0,") != std::string::npos), true, csv);
        NS_TEST_ASSERT_MSG_EQ((csv.find("11.67,20.00,3") != std::string::npos), true, csv);
    }
};

/**
 * A matrix whose reference is real TCP (the linux backend).
 *
 * Reference linux: K = 2 expands into linux (exclusive, with its linux_options only) + packet +
 * analytic + 2 flow jobs; packet at 230 and flow ps at 180 against linux at 200 err +15 % and -10 %
 * in the matrix's own column.
 */
class ValidationLinuxReferenceTestCase : public TestCase
{
  public:
    ValidationLinuxReferenceTestCase()
        : TestCase("validation matrix with a linux reference, jobs and errors by hand")
    {
    }

  private:
    void DoRun() override
    {
        ValidationMatrix m = ValidationMatrix::Parse(R"({
          "reference": "linux", "categories": ["rate-1g"],
          "flow_variants": [{"name": "fcfs", "args": ["--sharing=fcfs"]},
                            {"name": "ps", "args": ["--sharing=ps"]}],
          "scenarios": [{"name": "g", "category": "rate-1g", "profile": "p.json",
                         "workers": [2], "options": {"nicRate": "1Gbps"},
                         "linux_options": {"dilation": 2, "repeat": 3}}]})",
                                                     "l.json");
        NS_TEST_ASSERT_MSG_EQ(m.GetReference(), "linux", "reference");
        NS_TEST_ASSERT_MSG_EQ(m.GetColumns().size(), 8, "seven categories and rate-1g");
        NS_TEST_ASSERT_MSG_EQ(m.GetColumns().back(), "rate-1g", "own column last");
        auto jobs = m.ExpandFirstPhase("/r");
        NS_TEST_ASSERT_MSG_EQ(jobs.size(), 5, "linux, packet, analytic, fcfs, ps");
        std::size_t exclusive = 0;
        for (const auto& j : jobs)
        {
            exclusive += j.exclusive;
            const bool linuxJob = j.backend == "linux";
            NS_TEST_ASSERT_MSG_EQ(j.exclusive, linuxJob, j.id << ": only linux runs alone");
            NS_TEST_ASSERT_MSG_EQ(j.options.contains("dilation"), linuxJob, j.id << ": dilation");
            NS_TEST_ASSERT_MSG_EQ(j.options.value("nicRate", ""), "1Gbps", j.id << ": options");
            if (linuxJob)
            {
                NS_TEST_ASSERT_MSG_EQ(j.options.value("repeat", ""), "3", "linux_options");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(exclusive, 1, "one linux job");

        std::vector<ValidationMatrix::Row> rows
            = {MakeRow("g", "rate-1g", "holdout", 2, "linux", "cubic", 200),
               MakeRow("g", "rate-1g", "holdout", 2, "packet", "TcpCubic", 230),
               MakeRow("g", "rate-1g", "holdout", 2, "flow", "ps", 180)};
        auto withErrors = ValidationMatrix::AttachErrors(rows, "linux");
        NS_TEST_ASSERT_MSG_EQ_TOL(withErrors[1].relError, 0.15, 1e-12, "(230 - 200) / 200");
        NS_TEST_ASSERT_MSG_EQ_TOL(withErrors[2].relError, -0.10, 1e-12, "(180 - 200) / 200");
        auto table
            = ValidationMatrix::BuildTable(withErrors, ValidationMatrix::K_ABOVE_ONE, "linux");
        NS_TEST_ASSERT_MSG_EQ(table.size(), 2, "packet and flow rows, not the linux reference");
        NS_TEST_ASSERT_MSG_EQ_TOL(table["packet TcpCubic"]["rate-1g"].meanAbs,
                                  0.15,
                                  1e-12,
                                  "packet");
        std::string rst = ValidationMatrix::FormatRst(table, m.GetColumns());
        NS_TEST_ASSERT_MSG_EQ((rst.find("rate-1g") != std::string::npos), true, rst);
        NS_TEST_ASSERT_MSG_EQ((rst.find("flow ps") < rst.find("packet TcpCubic")),
                              true,
                              "model rows, then the packet level: " << rst);
        std::string csv = ValidationMatrix::FormatCsv(table, "t", m.GetColumns());
        NS_TEST_ASSERT_MSG_EQ((csv.find("packet TcpCubic,,,0,") != std::string::npos), true, csv);
        NS_TEST_ASSERT_MSG_EQ((csv.find(",15.00,15.00,1") != std::string::npos), true, csv);
    }
};

/**
 * Bad matrices are refused with the file, the JSON path and what was expected.
 *
 * Bad matrices (syntax, missing, unknown and mistyped fields, empty worker list, unknown backend,
 * category, role or variant) throw TrainingInputError naming the file and JSON path.
 */
class ValidationBadMatrixTestCase : public TestCase
{
  public:
    ValidationBadMatrixTestCase()
        : TestCase("bad validation matrices are refused naming the file and JSON path")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            std::string text;
            std::vector<std::string> words;
        };

        const std::string ok = R"("name": "a", "category": "sync-basic", "profile": "p.json")";
        std::vector<Case> cases = {
            {"{\"scenarios\": [", {"m.json", "truncated JSON"}},
            {"[]", {"m.json: (top level): wrong type array"}},
            {"{}", {"m.json: scenarios: missing field"}},
            {"{\"scenarios\": []}", {"scenarios", "empty list"}},
            {"{\"scenarios\": [], \"extra\": 1}", {"m.json: extra", "unknown field"}},
            {R"({"scenarios": [{"category": "sync-basic", "profile": "p", "workers": [1]}]})",
             {"scenarios[0].name: missing field"}},
            {"{\"scenarios\": [{" + ok + ", \"workers\": []}]}",
             {"scenarios[0].workers", "empty list"}},
            {"{\"scenarios\": [{" + ok + ", \"workers\": [1, 0]}]}",
             {"scenarios[0].workers[1]: value 0 out of range", "from 1 to 1024"}},
            {"{\"scenarios\": [{" + ok + ", \"workers\": \"1..8\"}]}",
             {"scenarios[0].workers", "wrong type string", "array"}},
            {"{\"scenarios\": [{" + ok + ", \"workers\": [1], \"backends\": [\"magic\"]}]}",
             {"scenarios[0].backends[0]: unknown value \"magic\"", "analytic"}},
            {R"({"scenarios": [{"name": "a", "category": "star", "profile": "p",
                                "workers": [1]}]})",
             {"scenarios[0].category", "unknown category 'star'", "decentralised"}},
            {"{\"scenarios\": [{" + ok + ", \"workers\": [1], \"role\": \"train\"}]}",
             {"scenarios[0].role", "calibrate or holdout"}},
            {"{\"scenarios\": [{" + ok + ", \"workers\": [1], \"option\": {}}]}",
             {"scenarios[0].option", "unknown field"}},
            {"{\"scenarios\": [{" + ok + ", \"workers\": [1], \"options\": {\"workers\": 3}}]}",
             {"scenarios[0].options.workers", "set by the runner"}},
            {"{\"scenarios\": [{" + ok + ", \"workers\": [1], \"options\": {\"mtu\": [1]}}]}",
             {"scenarios[0].options.mtu", "wrong type array"}},
            {"{\"scenarios\": [{" + ok
                 + ", \"workers\": [1], \"per_workers\": {\"2\": {\"computeScale\": \"1,2\"}}}]}",
             {"scenarios[0].per_workers.2", "not one of the scenario's workers"}},
            {"{\"scenarios\": [{" + ok + ", \"workers\": [1]}, {" + ok + ", \"workers\": [2]}]}",
             {"scenarios[1].name", "repeated"}},
            {"{\"flow_variants\": [{\"name\": \"x\", \"args\": [\"sharing=ps\"]}], "
             "\"scenarios\": [{"
                 + ok + ", \"workers\": [1]}]}",
             {"flow_variants[0].args[0]", "--option=value"}},
            {"{\"calibration\": {\"variant\": \"nope\", \"option\": \"--x\", \"values\": [1]}, "
             "\"scenarios\": [{"
                 + ok + ", \"workers\": [1], \"role\": \"calibrate\"}]}",
             {"calibration.variant", "no flow variant 'nope'"}},
            {"{\"calibration\": {\"variant\": \"ps\", \"option\": \"--x\", \"values\": [1]}, "
             "\"scenarios\": [{"
                 + ok + ", \"workers\": [1]}]}",
             {"calibration", "no scenario has role"}},
            {"{\"reference\": \"flow\", \"scenarios\": [{" + ok + ", \"workers\": [1]}]}",
             {"m.json: reference: unknown value \"flow\"", "packet or linux"}},
            {"{\"categories\": [\"sync-basic\"], \"scenarios\": [{" + ok + ", \"workers\": [1]}]}",
             {"categories[0]", "bad category sync-basic"}},
            {R"({"scenarios": [{"name": "a", "category": "rate-1g", "profile": "p",
                                "workers": [1]}]})",
             {"scenarios[0].category", "unknown category 'rate-1g'", "\"categories\""}},
            {"{\"scenarios\": [{" + ok
                 + ", \"workers\": [1], \"linux_options\": {\"dilation\": 0.5}}]}",
             {"scenarios[0].linux_options.dilation", "from 1 to 10000"}},
        };
        for (const auto& c : cases)
        {
            NS_TEST_ASSERT_MSG_EQ(ThrowsInputError(
                                      [&c]
                                      {
                                          ValidationMatrix::Parse(c.text, "m.json");
                                      },
                                      c.words),
                                  true,
                                  "refused with the expected message: " + c.text);
        }
        NS_TEST_ASSERT_MSG_EQ(ThrowsInputError(
                                  []
                                  {
                                      ValidationMatrix::LoadFromFile("/nonexistent/m.json");
                                  },
                                  {"/nonexistent/m.json", "no such file"}),
                              true,
                              "missing file");
    }
};

/// The suite.
class ValidationMatrixTestSuite : public TestSuite
{
  public:
    ValidationMatrixTestSuite()
        : TestSuite("distributed-training-validation-matrix", Type::UNIT)
    {
        AddTestCase(new ValidationExpansionTestCase, DT_TEST_QUICK);
        AddTestCase(new ValidationCalibrationTestCase, DT_TEST_QUICK);
        AddTestCase(new ValidationErrorTableTestCase, DT_TEST_QUICK);
        AddTestCase(new ValidationLinuxReferenceTestCase, DT_TEST_QUICK);
        AddTestCase(new ValidationBadMatrixTestCase, DT_TEST_QUICK);
    }
};

/// Static instance.
static ValidationMatrixTestSuite g_validationMatrixTestSuite;

} // namespace

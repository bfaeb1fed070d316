/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The validation runner's helpers on hand-made results (helper/validation/validation-*.h):
 * result documents read into rows, results.csv, the throughput figure's data, a timeline
 * panel, the reference check and flow variants as JSON options. No process is run.
 */

#include "training-test-utils.h"

#include "ns3/distributed-training-compat.h"
#include "ns3/test.h"
#include "ns3/validation-figures.h"
#include "ns3/validation-matrix.h"
#include "ns3/validation-results.h"
#include "ns3/validation-runner.h"

#include <string>

using namespace ns3;
using ns3::tests::ThrowsInputError;

namespace
{

/// One scenario "s" at K = 2 with a JSON variant and an "args" variant.
const char* MATRIX = R"({
  "flow_variants": [{"name": "ps", "options": {"sharing": "ps", "windowModel": true}},
                    {"name": "old", "args": ["--sharing=fcfs", "--windowModel"]}],
  "scenarios": [{"name": "s", "category": "sync-basic", "profile": "p.json", "workers": [2],
                 "linux_options": {"repeat": 3}, "backends": ["packet", "linux", "flow"]}]
})";

/**
 * A variant's options object reaches its job as it is ({"sharing": "ps", "windowModel":
 * "true"}); the older "args" strings give the same object ("--windowModel" alone: "true");
 * the linux job gets its linux_options ("repeat": "3"), the others do not.
 */
class VariantOptionsTestCase : public TestCase
{
  public:
    VariantOptionsTestCase()
        : TestCase("variant options and linux_options reach the jobs as JSON objects")
    {
    }

  private:
    void DoRun() override
    {
        const auto jobs = ValidationMatrix::Parse(MATRIX, "m.json").ExpandFirstPhase("");
        NS_TEST_ASSERT_MSG_EQ(jobs.size(), 4, "packet, linux, two flow variants");
        for (const auto& j : jobs)
        {
            NS_TEST_ASSERT_MSG_EQ(j.options.contains("repeat"), (j.backend == "linux"), j.id);
        }
        const nlohmann::json ps = {{"sharing", "ps"}, {"windowModel", "true"}};
        const nlohmann::json old = {{"sharing", "fcfs"}, {"windowModel", "true"}};
        NS_TEST_ASSERT_MSG_EQ(jobs[2].options["sharing"], ps["sharing"], "ps sharing");
        NS_TEST_ASSERT_MSG_EQ(jobs[2].options["windowModel"], ps["windowModel"], "ps window");
        NS_TEST_ASSERT_MSG_EQ(jobs[3].options["sharing"], old["sharing"], "args sharing");
        NS_TEST_ASSERT_MSG_EQ(jobs[3].options["windowModel"], old["windowModel"], "args flag");
        NS_TEST_ASSERT_MSG_EQ(ThrowsInputError(
                                  []
                                  {
                                      ValidationMatrix::Parse(
                                          R"({"flow_variants": [{"name": "x"}],
                                              "scenarios": [{"name": "a", "profile": "p",
                                                             "category": "sync-basic",
                                                             "workers": [1]}]})",
                                          "m.json");
                                  },
                                  {"flow_variants[0]", "exactly one of 'options' and 'args'"}),
                              true,
                              "a variant without options");
    }
};

/**
 * A compared job that runs the reference compares it with itself: the flow job whose variant
 * sets backend packet is refused, naming the job and the variant.
 */
class NotReferenceTestCase : public TestCase
{
  public:
    NotReferenceTestCase()
        : TestCase("a flow variant running the packet reference is refused")
    {
    }

  private:
    void DoRun() override
    {
        ValidationMatrix::Job job;
        job.id = "s-k2-flow-again";
        job.backend = "flow";
        job.variant = "again";
        job.options = {{"backend", "packet"}};
        NS_TEST_ASSERT_MSG_EQ(ThrowsInputError(
                                  [&job]
                                  {
                                      ValidationRunner::CheckNotReference(job, "packet");
                                  },
                                  {"job s-k2-flow-again", "variant 'again'"}),
                              true,
                              "refused");
        job.options = {{"backend", "flow"}};
        ValidationRunner::CheckNotReference(job, "packet"); // accepted
    }
};

/**
 * The flow job labelled "cal@0.5" reports fcfs then ps: one row, labelled "cal@0.5" with the
 * first result's 100 samples/s; the packet row at 80 gives it a relative error of
 * (100 - 80) / 80 = 0.25 in results.csv.
 */
class ResultRowsTestCase : public TestCase
{
  public:
    ResultRowsTestCase()
        : TestCase("a relabelled job gives its first result, 25 percent above the reference")
    {
    }

  private:
    void DoRun() override
    {
        const ValidationMatrix m = ValidationMatrix::Parse(MATRIX, "m.json");
        ValidationMatrix::Job flow;
        flow.id = "s-k2-flow-cal";
        flow.workers = 2;
        flow.backend = "flow";
        flow.label = "cal@0.5";
        const auto doc = nlohmann::json::parse(R"({"results": [
            {"backend": "flow", "variant": "fcfs", "throughput_samples_per_s": 100,
             "notes": ["a", "b"]},
            {"backend": "flow", "variant": "ps", "throughput_samples_per_s": 90}]})");
        auto rows = ValidationResults::RowsOfResult(m, flow, doc, "f.json");
        NS_TEST_ASSERT_MSG_EQ(rows.size(), 1, "first result only");
        NS_TEST_ASSERT_MSG_EQ(rows[0].variant, "cal@0.5", "label");
        NS_TEST_ASSERT_MSG_EQ(rows[0].notes, "a | b", "notes");
        ValidationMatrix::Job packet = flow;
        packet.id = "s-k2-packet";
        packet.backend = "packet";
        packet.label = "";
        const auto ref = nlohmann::json::parse(
            R"({"results": [{"backend": "packet", "variant": "", "throughput_samples_per_s": 80}]})");
        auto more = ValidationResults::RowsOfResult(m, packet, ref, "p.json");
        rows.insert(rows.begin(), more.begin(), more.end());
        rows = ValidationMatrix::AttachErrors(rows, "packet");
        NS_TEST_ASSERT_MSG_EQ_TOL(rows[1].relError, 0.25, 1e-12, "relative error");
        const std::string csv = ValidationResults::FormatResultsCsv(rows, "packet");
        NS_TEST_ASSERT_MSG_NE(csv.find("packet_throughput_samples_per_s,rel_error"),
                              std::string::npos,
                              "reference column");
        NS_TEST_ASSERT_MSG_NE(csv.find("flow,cal@0.5,100,0,80,0.25,s-k2-flow-cal,a | b\n"),
                              std::string::npos,
                              "flow row");
        NS_TEST_ASSERT_MSG_EQ(ThrowsInputError(
                                  [&m, &flow, &ref]
                                  {
                                      ValidationResults::RowsOfResult(m, flow, ref, "f.json");
                                  },
                                  {"f.json", "reports a packet result"}),
                              true,
                              "a compared job reporting the reference");
    }
};

/**
 * Throughput figure: packet at K = 1 and 2, flow ps at K = 2 only; the CSV has a column per
 * series in first-seen order and NaN where flow ps has no K = 1 point; the calibration row
 * "x@1" is left out.
 */
class ThroughputFigureTestCase : public TestCase
{
  public:
    ThroughputFigureTestCase()
        : TestCase("throughput figure data has NaN where a series lacks a K")
    {
    }

  private:
    void DoRun() override
    {
        auto row = [](uint32_t k, const std::string& backend, const std::string& variant, double t)
        {
            ValidationMatrix::Row r;
            r.scenario = "s";
            r.workers = k;
            r.backend = backend;
            r.variant = variant;
            r.throughput = t;
            return r;
        };
        const std::vector<ValidationMatrix::Row> rows = {row(1, "packet", "", 10),
                                                         row(2, "packet", "", 18),
                                                         row(2, "flow", "ps", 19.5),
                                                         row(2, "flow", "x@1", 7)};
        const auto data = ValidationFigures::CollectThroughput(rows, "s", "packet");
        NS_TEST_ASSERT_MSG_EQ(data.columns.size(), 2, "packet and flow ps");
        NS_TEST_ASSERT_MSG_EQ(ValidationFigures::ThroughputCsv(data),
                              "workers,packet,flow ps\n1,10,NaN\n2,18,19.5\n",
                              "CSV");
        ValidationMatrix::Scenario s;
        s.name = "s";
        const std::string gp
            = ValidationFigures::ThroughputScript(s, "s-throughput", data.columns, "packet");
        NS_TEST_ASSERT_MSG_NE(gp.find("pt 7 lc rgb 'black' title 'packet (ns-3 TCP)'"),
                              std::string::npos,
                              "reference as black points");
    }
};

/**
 * Timeline panel: warm-up 1, so step 1 is drawn. Worker 0's uplink 1.000..1.002 s and worker
 * 1's downlink 1.001..1.004 s give lanes 0.2 and 0.8 from t0 = 1 s, ends 2 and 4 ms: span 4 ms;
 * step 0's transfer is left out.
 */
class TimelinePanelTestCase : public TestCase
{
  public:
    TimelinePanelTestCase()
        : TestCase("timeline panel draws the first measured step from its first start")
    {
    }

  private:
    void DoRun() override
    {
        const auto doc = nlohmann::json::parse(R"({"scenario": {"warmup": 1, "workers": 2},
          "results": [{"transfers": [
            {"step": 0, "worker": 0, "direction": "up", "tensor": 0, "start_s": 0, "end_s": 1},
            {"step": 1, "worker": 0, "direction": "up", "tensor": 3, "start_s": 1, "end_s": 1.002},
            {"step": 1, "worker": 1, "direction": "down", "tensor": 4, "start_s": 1.001,
             "end_s": 1.004}]}]})");
        ValidationFigures::Timeline t;
        NS_TEST_ASSERT_MSG_EQ(ValidationFigures::AddTimelinePanel(doc, "packet", t), true, "drawn");
        NS_TEST_ASSERT_MSG_EQ(t.dat,
                              "# packet: worker direction tensor start_ms end_ms\n"
                              "0.2 up 3 0 2\n0.8 down 4 1 4\n\n\n",
                              "block");
        NS_TEST_ASSERT_MSG_EQ(t.lanes.size(), 2, "lanes");
        NS_TEST_ASSERT_MSG_EQ_TOL(t.span, 4, 1e-9, "span");
    }
};

/// The suite.
class ValidationRunnerTestSuite : public TestSuite
{
  public:
    ValidationRunnerTestSuite()
        : TestSuite("distributed-training-validation-runner", Type::UNIT)
    {
        AddTestCase(new VariantOptionsTestCase, DT_TEST_QUICK);
        AddTestCase(new NotReferenceTestCase, DT_TEST_QUICK);
        AddTestCase(new ResultRowsTestCase, DT_TEST_QUICK);
        AddTestCase(new ThroughputFigureTestCase, DT_TEST_QUICK);
        AddTestCase(new TimelinePanelTestCase, DT_TEST_QUICK);
    }
};

/// The suite instance.
ValidationRunnerTestSuite g_validationRunnerTestSuite;

} // namespace

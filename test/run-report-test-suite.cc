/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The driver's reports on hand-made results (helper/report/{run,sweep}-report.h): bottleneck
 * labels, per-port drops, notes, the records' memory check, the --workers sweep table and the
 * cost said before long packet-level runs.
 */

#include "training-test-utils.h"

#include "ns3/distributed-training-compat.h"
#include "ns3/packet-backend.h"
#include "ns3/run-report.h"
#include "ns3/sweep-report.h"
#include "ns3/test.h"

#include <string>

using namespace ns3;
using ns3::tests::ThrowsInputError;

namespace
{

/**
 * A result whose bottleneck link "server0" is 97.5 % busy reads "server0 (97.5%)"; a
 * bottleneck that names no link is printed as it is; per-port drops 3 and 12.6 read
 * "a=3;b=13"; options a backend ignores become one note per result.
 */
class BottleneckTestCase : public TestCase
{
  public:
    BottleneckTestCase()
        : TestCase("bottleneck label, per-port drops and the ignored-options note")
    {
    }

  private:
    void DoRun() override
    {
        TrainingResult r;
        r.bottleneck = "compute";
        NS_TEST_ASSERT_MSG_EQ(RunReport::BottleneckLabel(r), "compute", "no link");
        r.bottleneck = "server0";
        r.linkUtilisation["server0"] = 0.975;
        NS_TEST_ASSERT_MSG_EQ(RunReport::BottleneckLabel(r), "server0 (97.5%)", "link");
        r.inputs["drops:a"] = 3;
        r.inputs["drops:b"] = 12.6;
        r.inputs["ecn_marks"] = 1;
        NS_TEST_ASSERT_MSG_EQ(RunReport::DropsByPort(r), "a=3;b=13", "drops by port");
        NS_TEST_ASSERT_MSG_EQ(RunReport::Input(r, "missing"), 0, "absent input");
        std::vector<TrainingResult> results(2);
        RunReport::AddIgnoredNote(results, {"--ecn", "--tcp"}, "flow");
        NS_TEST_ASSERT_MSG_EQ(results[1].notes.at(0),
                              "not modelled by the flow backend here, so without effect: --ecn, "
                              "--tcp",
                              "note");
        RunReport::AddIgnoredNote(results, {}, "flow");
        NS_TEST_ASSERT_MSG_EQ(results[1].notes.size(), 1, "no empty note");
        NS_TEST_ASSERT_MSG_EQ(RunReport::CsvRowHeader().rfind("model,arch,mode,workers,", 0),
                              0,
                              "CSV header");
    }
};

/**
 * Records: 2 x K x steps x layers transfers. K = 4, 10 steps, 100 layers: 8,000 records,
 * no note; with 1 kB of memory available the run is refused naming --records.
 */
class RecordsMemoryTestCase : public TestCase
{
  public:
    RecordsMemoryTestCase()
        : TestCase("8000 transfer records need no note and do not fit in 1 kB")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p;
        p.SetModel("m");
        p.SetBatchSize(1);
        for (int i = 0; i < 100; ++i)
        {
            p.AddLayer({"l" + std::to_string(i), "Linear", 4, 1, 1, 1});
        }
        TrainingScenario s;
        s.workers = 4;
        s.steps = 10;
        NS_TEST_ASSERT_MSG_EQ(RunReport::RecordsMemoryNote(p, s, 0), "", "unknown memory");
        NS_TEST_ASSERT_MSG_EQ(RunReport::RecordsMemoryNote(p, s, 1e12), "", "few records");
        NS_TEST_ASSERT_MSG_EQ(ThrowsInputError(
                                  [&p, &s]
                                  {
                                      RunReport::RecordsMemoryNote(p, s, 1e3);
                                  },
                                  {"--records: about 8000 transfer records"}),
                              true,
                              "refused");
    }
};

/**
 * Sweep: K = 1 gives packet:tcp 10.5, K = 2 adds flow:ps 19; the table prints "-" where flow:ps
 * has no K = 1 result and the CSV leaves the field empty.
 */
class SweepTableTestCase : public TestCase
{
  public:
    SweepTableTestCase()
        : TestCase("sweep table and CSV leave a missing result blank")
    {
    }

  private:
    void DoRun() override
    {
        TrainingResult a;
        a.backend = "packet";
        a.variant = "tcp";
        a.throughput = 10.5;
        TrainingResult b = a;
        b.backend = "flow";
        b.variant = "ps";
        b.throughput = 19;
        SweepReport t;
        t.Add(1, {a});
        t.Add(2, {a, b});
        NS_TEST_ASSERT_MSG_EQ(t.GetColumns(), 2, "columns");
        NS_TEST_ASSERT_MSG_EQ(t.FormatCsv(),
                              "workers,packet:tcp,flow:ps\n1,10.5,\n2,10.5,19\n",
                              "CSV");
        const std::string table = t.FormatTable();
        NS_TEST_ASSERT_MSG_NE(table.find("1                       10.50                    -\n"),
                              std::string::npos,
                              "table row with a dash");
        NS_TEST_ASSERT_MSG_EQ(SweepReport::FormatWritten("s.csv"),
                              "wrote s.csv and s.csv.gp (gnuplot s.csv.gp draws s.png)\n",
                              "written");
    }
};

/**
 * The packet level's cost estimate, by hand: two layers of 6 MB (M = 12 MB), K = 4, 3 steps,
 * MTU 1500 (1448 bytes of payload per segment), 40 us per segment. Sync PS: every worker pushes
 * and pulls M, 2 x 12e6 x 4 x 3 / 1448 = 198,895.0 segments, 7.9558 s. Ring: each node sends
 * 2 (K - 1) / K M, 1.5 x 12e6 x 4 x 3 / 1448 = 149,171.3 segments, 5.9669 s. A leaf-spine
 * doubles it (paths of four links), MTU 9000 (8948 bytes) divides the PS's by 6.18; a ring of
 * one worker sends nothing. The driver's note: none under a minute, a note to 15 minutes, then
 * a warning naming the cheaper backends.
 */
class CostEstimateTestCase : public TestCase
{
  public:
    CostEstimateTestCase()
        : TestCase("packet cost estimate and the note before long runs")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p = tests::MakeProfile({6000000, 6000000}, 100, 200, 10);
        Ptr<PacketBackend> b = CreateObject<PacketBackend>();
        b->SetAttribute("CpuPerSegment", TimeValue(MicroSeconds(40)));
        TrainingScenario s;
        s.workers = 4;
        s.steps = 3;
        s.mtu = 1500;
        NS_TEST_ASSERT_MSG_EQ_TOL(b->EstimateCpuSeconds(p, s), 7.9558, 1e-4, "sync PS");
        s.topology = "leafspine";
        NS_TEST_ASSERT_MSG_EQ_TOL(b->EstimateCpuSeconds(p, s), 15.9116, 1e-4, "leaf-spine");
        s.topology = "star";
        s.mtu = 9000;
        NS_TEST_ASSERT_MSG_EQ_TOL(b->EstimateCpuSeconds(p, s), 1.2875, 1e-4, "MTU 9000");
        s.mtu = 1500;
        s.architecture = TrainingScenario::RING_ALLREDUCE;
        NS_TEST_ASSERT_MSG_EQ_TOL(b->EstimateCpuSeconds(p, s), 5.9669, 1e-4, "ring");
        s.workers = 1;
        NS_TEST_ASSERT_MSG_EQ(b->EstimateCpuSeconds(p, s), 0, "one ring node sends nothing");
        NS_TEST_ASSERT_MSG_EQ(RunReport::CostNote(59, 1), "", "under a minute");
        NS_TEST_ASSERT_MSG_EQ(RunReport::CostNote(600, 2).rfind("note: the 2 packet-level runs", 0),
                              0,
                              "a note");
        const std::string w = RunReport::CostNote(3600, 1);
        NS_TEST_ASSERT_MSG_EQ(w.rfind("warning: the 1 packet-level run about to start will take "
                                      "about 60 CPU minutes",
                                      0),
                              0,
                              w);
        NS_TEST_ASSERT_MSG_NE(w.find("--backend=flow"), std::string::npos, "the cheaper backends");
    }
};

/// The suite.
class RunReportTestSuite : public TestSuite
{
  public:
    RunReportTestSuite()
        : TestSuite("distributed-training-run-report", Type::UNIT)
    {
        AddTestCase(new BottleneckTestCase, DT_TEST_QUICK);
        AddTestCase(new RecordsMemoryTestCase, DT_TEST_QUICK);
        AddTestCase(new SweepTableTestCase, DT_TEST_QUICK);
        AddTestCase(new CostEstimateTestCase, DT_TEST_QUICK);
    }
};

/// The suite instance.
RunReportTestSuite g_runReportTestSuite;

} // namespace

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The pure parts of the study programs' helpers on hand-worked numbers: tcp-sharing-study's
 * models, fit and outputs (helper/study/tcp-sharing-*.h), flow-benchmark's synthetic profile
 * and distributed-training-optimize's table cell. No packet is simulated.
 */

#include "ns3/calibrated-sharing.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/double.h"
#include "ns3/optimizer-report.h"
#include "ns3/synthetic-profile.h"
#include "ns3/tcp-sharing-report.h"
#include "ns3/tcp-sharing-study.h"
#include "ns3/test.h"

#include <cmath>
#include <string>

using namespace ns3;

namespace
{

/**
 * Two flows of S = 1 MB at C = 1 GB/s, arrivals 0 and 0.5 ms. FCFS: flow 0 ends at 1 ms
 * (FCT 1 ms), flow 1 runs 1..2 ms (FCT 1.5 ms): mean 1.25 ms. PS: flow 0 alone sends 0.5 MB by
 * 0.5 ms, then both at 0.5 GB/s: flow 0 ends at 1.5 ms (FCT 1.5 ms), flow 1 has 0.5 MB left
 * and ends at 2 ms (FCT 1.5 ms): mean 1.5 ms. Completion times that CalibratedSharing gives
 * at IncumbentWeight 0.3 (cohort window 10 us: two cohorts) are fitted back to w = 0.3 with a
 * zero residual.
 */
class IncumbentFitTestCase : public TestCase
{
  public:
    IncumbentFitTestCase()
        : TestCase("two flows, FCFS and PS means 1.25 and 1.5 ms, fit recovers w = 0.3")
    {
    }

  private:
    void DoRun() override
    {
        SharingIndex index({{0, 1e6}, {0.5e-3, 1e6}}, 1e9);
        const std::vector<double> fcfs = index.GetFcfsCompletionTimes();
        const std::vector<double> ps = index.GetPsCompletionTimes();
        NS_TEST_ASSERT_MSG_EQ_TOL(TcpSharingStudy::Mean(fcfs), 1.25e-3, 1e-12, "FCFS mean");
        NS_TEST_ASSERT_MSG_EQ_TOL(TcpSharingStudy::Mean(ps), 1.5e-3, 1e-12, "PS mean");
        NS_TEST_ASSERT_MSG_EQ(TcpSharingStudy::Mean({}), 0, "mean of none");
        Ptr<CalibratedSharing> model = CreateObject<CalibratedSharing>();
        model->SetAttribute("CohortWindow", TimeValue(MicroSeconds(10)));
        model->SetAttribute("IncumbentWeight", DoubleValue(0.3));
        const std::vector<double> measured = index.GetCompletionTimes(*model);
        const auto fit
            = TcpSharingStudy::FitIncumbentWeight(index, measured, fcfs, ps, MicroSeconds(10));
        NS_TEST_ASSERT_MSG_EQ_TOL(fit.weight, 0.3, 1e-9, "fitted weight");
        NS_TEST_ASSERT_MSG_EQ_TOL(fit.residual, 0, 1e-6, "residual");
        const auto same = TcpSharingStudy::FitIncumbentWeight(index, fcfs, fcfs, fcfs, Seconds(1));
        NS_TEST_ASSERT_MSG_EQ(std::isnan(same.weight), true, "FCFS = PS: nothing to fit");
    }
};

/**
 * --flowTimes: two flows, arrivals 0 and 0.5 ms; flow 0 ends at 1 ms with 1000 bytes, flow 1
 * never gets a byte (empty first-byte and end fields). --timeseries: 1000 bytes in a 1 ms
 * interval are 8e3 / 1e-3 / 1e9 = 0.008 Gb/s.
 */
class SharingReportTestCase : public TestCase
{
  public:
    SharingReportTestCase()
        : TestCase("flow times leave unfinished events empty, rates in Gbps per interval")
    {
    }

  private:
    void DoRun() override
    {
        TcpSharingOptions o;
        o.flows = 2;
        o.arrivals = {0, 0.5e-3};
        o.sample = MilliSeconds(1);
        TcpSharingStudy::Report r;
        r.m.firstByte = {0.1e-3, -1};
        r.m.completion = {1e-3, -1};
        r.m.received = {1000, 0};
        r.m.rx = {{0, 0}, {1000, 0}};
        NS_TEST_ASSERT_MSG_EQ(TcpSharingReport::FormatFlowTimes(o, r),
                              "flow,start_s,first_byte_s,end_s,bytes\n0,0,0.0001,0.001,1000\n"
                              "1,0.0005,,,0\n",
                              "flow times");
        NS_TEST_ASSERT_MSG_EQ(TcpSharingReport::FormatTimeseries(o, r),
                              "time_s,flow,gbps\n0.001,0,0.008\n0.001,1,0\n",
                              "time series");
        NS_TEST_ASSERT_MSG_EQ(TcpSharingReport::CsvHeader().rfind("rate_bps,tcp,flows,", 0),
                              0,
                              "CSV header");
    }
};

/**
 * torchvision's resnet50 has 107 parameterised modules (53 convolutions, 53 batch norms, one
 * linear layer) and 25,557,032 parameters: 102,228,128 bytes in float32.
 */
class SyntheticProfileTestCase : public TestCase
{
  public:
    SyntheticProfileTestCase()
        : TestCase("synthetic ResNet-50 has 107 layers and 25557032 parameters")
    {
    }

  private:
    void DoRun() override
    {
        uint64_t params = 0;
        for (const auto& m : SyntheticProfile::ResNet50Modules())
        {
            params += m.params;
        }
        NS_TEST_ASSERT_MSG_EQ(params, 25557032, "parameters");
        const TrainingProfile p = SyntheticProfile::ResNet50();
        NS_TEST_ASSERT_MSG_EQ(p.GetNLayers(), 107, "layers");
        NS_TEST_ASSERT_MSG_EQ(p.GetTotalParamBytes(), 4 * 25557032ULL, "bytes");
        NS_TEST_ASSERT_MSG_EQ(p.GetNSamples(), 15, "recorded steps");
    }
};

/// The optimizer's cell: 1234.4 samples/s in [1200.6, 1300] ranked 2 reads "1234 [1201,1300] #2".
class OptimizerCellTestCase : public TestCase
{
  public:
    OptimizerCellTestCase()
        : TestCase("optimizer cell shows throughput, interval and rank, or a dash")
    {
    }

  private:
    void DoRun() override
    {
        OptimizerEstimate e;
        NS_TEST_ASSERT_MSG_EQ(OptimizerReport::FormatCell(e), "-", "rung not run");
        e.done = true;
        e.throughput = 1234.4;
        e.low = 1200.6;
        e.high = 1300;
        e.rank = 2;
        NS_TEST_ASSERT_MSG_EQ(OptimizerReport::FormatCell(e), "1234 [1201,1300] #2", "cell");
    }
};

/// The suite.
class SharingStudyTestSuite : public TestSuite
{
  public:
    SharingStudyTestSuite()
        : TestSuite("distributed-training-sharing-study", Type::UNIT)
    {
        AddTestCase(new IncumbentFitTestCase, DT_TEST_QUICK);
        AddTestCase(new SharingReportTestCase, DT_TEST_QUICK);
        AddTestCase(new SyntheticProfileTestCase, DT_TEST_QUICK);
        AddTestCase(new OptimizerCellTestCase, DT_TEST_QUICK);
    }
};

/// The suite instance.
SharingStudyTestSuite g_sharingStudyTestSuite;

} // namespace

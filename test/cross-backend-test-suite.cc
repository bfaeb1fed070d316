/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Cross-backend agreement: the flow-level simulator (and where it applies the analytical model)
 * against the packet level, on small profiles, both run inside the test. Where the backends agree
 * by construction (one worker, no contention) the bound is tight; where they differ by design
 * (TCP is neither exactly PS nor FCFS), the measured figures are printed in the test message.
 */

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/distributed-training-module.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <sstream>

using namespace ns3;

namespace
{

/// A profile of a few large layers (transfers of several BDPs, as in real models).
TrainingProfile
LargeLayers()
{
    TrainingProfile p;
    p.SetModel("large-layers");
    p.SetBatchSize(32);
    p.SetProvenance(R"({"device":"none","framework":"none","method":"test","derived":true})");
    const uint64_t sizes[] = {4000000, 1500000, 6000000, 2500000};
    for (int i = 0; i < 4; ++i)
    {
        p.AddLayer({"l" + std::to_string(i), "", sizes[i], 2500, 5000, 300});
    }
    return p;
}

TrainingResult
Flow(const TrainingProfile& p, const TrainingScenario& s, const std::string& sharing)
{
    Ptr<FlowBackend> flow = CreateObject<FlowBackend>();
    flow->SetAttribute("Sharing", StringValue(sharing));
    return flow->Run(p, s).at(0);
}

/**
 * \ingroup distributed-training
 * One worker, no contention: flow and packet agree within 3 %.
 *
 * Cross-backend: one worker, flow and packet step times agree within 3%.
 */
class OneWorkerFlowMatchesPacketTestCase : public TestCase
{
  public:
    OneWorkerFlowMatchesPacketTestCase()
        : TestCase("one worker, flow and packet step times within 3 pct")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = LargeLayers();
        for (bool overlap : {false, true})
        {
            TrainingScenario s;
            s.workers = 1;
            s.steps = 4;
            s.warmup = 1;
            s.overlap = overlap;
            TrainingResult packet = CreateObject<PacketBackend>()->Run(p, s).at(0);
            TrainingResult flow = Flow(p, s, "ps");
            NS_TEST_EXPECT_MSG_EQ_TOL(flow.stepTimeMean,
                                      packet.stepTimeMean,
                                      0.03 * packet.stepTimeMean,
                                      "overlap " << overlap << ": flow " << flow.stepTimeMean * 1e3
                                                 << " ms, packet " << packet.stepTimeMean * 1e3
                                                 << " ms");
        }
    }
};

/**
 * \ingroup distributed-training
 * Sync PS with 4 workers on one 10 G server link: flow/ps within 10 % of packet throughput; the
 * packet level lies between the FCFS and PS predictions.
 *
 * Cross-backend: sync PS, 4 workers, flow ps within 10% of packet throughput.
 */
class SyncFourWorkersTestCase : public TestCase
{
  public:
    SyncFourWorkersTestCase()
        : TestCase("sync PS, K = 4, flow within 10 pct of packet throughput")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = LargeLayers();
        TrainingScenario s;
        s.workers = 4;
        s.steps = 5;
        s.warmup = 1;
        TrainingResult packet = CreateObject<PacketBackend>()->Run(p, s).at(0);
        TrainingResult ps = Flow(p, s, "ps");
        TrainingResult fcfs = Flow(p, s, "fcfs");
        std::ostringstream figures;
        figures << "packet " << packet.throughput << ", flow ps " << ps.throughput << ", flow fcfs "
                << fcfs.throughput << " samples/s (ps error "
                << 100 * (ps.throughput - packet.throughput) / packet.throughput << " %)";
        NS_TEST_EXPECT_MSG_EQ_TOL(ps.throughput,
                                  packet.throughput,
                                  0.10 * packet.throughput,
                                  figures.str());
        NS_TEST_EXPECT_MSG_GT_OR_EQ(fcfs.throughput * 1.02,
                                    packet.throughput,
                                    "packet above FCFS: " << figures.str());
        std::cout << "  sync PS K=4 10G: " << figures.str() << std::endl;
    }
};

/**
 * \ingroup distributed-training
 * The flow backend's window model (FlowBackend::WindowModel) against the packet level where ps
 * is far off: window-limited connections.
 *
 * Cross-backend: window model within 6% of packet and closer than ps: one worker with a 32 KiB send
 * buffer, and async PS with overlap, 6 workers, 1000-packet queues (ACKs queued behind the other
 * direction's data).
 */
class WindowModelTestCase : public TestCase
{
  public:
    WindowModelTestCase()
        : TestCase("flow window model within 6 pct of packet and closer than ps")
    {
    }

  private:
    void Compare(const TrainingProfile& p, const TrainingScenario& s, const std::string& what)
    {
        TrainingResult packet = CreateObject<PacketBackend>()->Run(p, s).at(0);
        Ptr<FlowBackend> flow = CreateObject<FlowBackend>();
        flow->SetAttribute("Sharing", StringValue("ps"));
        TrainingResult ps = flow->Run(p, s).at(0);
        flow->SetAttribute("WindowModel", BooleanValue(true));
        TrainingResult window = flow->Run(p, s).at(0);
        NS_TEST_EXPECT_MSG_EQ(window.variant, "ps-window", "variant name");
        std::ostringstream figures;
        figures << what << ": packet " << packet.throughput << ", flow ps-window "
                << window.throughput << ", flow ps " << ps.throughput << " samples/s";
        NS_TEST_EXPECT_MSG_EQ_TOL(window.throughput,
                                  packet.throughput,
                                  0.06 * packet.throughput,
                                  figures.str());
        // ps over-predicts and the window model is closer (with the per-worker async estimator
        // the async case's ps gap is about 5 %, no longer over 15 %).
        NS_TEST_EXPECT_MSG_GT(ps.throughput, packet.throughput, figures.str());
        NS_TEST_EXPECT_MSG_LT(std::abs(window.throughput - packet.throughput),
                              std::abs(ps.throughput - packet.throughput),
                              figures.str());
        std::cout << "  " << figures.str() << std::endl;
    }

    void DoRun() override
    {
        TrainingProfile googlenet = TrainingProfile::LoadFromFile(
            std::string(DT_SOURCE_DIR) + "/traces/googlenet-titanx-pascal-b16.json");
        TrainingScenario one;
        one.workers = 1;
        one.steps = 4;
        one.warmup = 1;
        one.sendBufferBytes = 32768;
        Compare(googlenet, one, "K = 1, 32 KiB send buffer");

        TrainingScenario async;
        async.mode = TrainingScenario::ASYNC;
        async.overlap = true;
        async.workers = 6;
        async.mtu = 9000;
        async.steps = 5;
        async.warmup = 1;
        Compare(googlenet, async, "async PS, overlap, K = 6, MTU 9000");
    }
};

/**
 * \ingroup distributed-training
 * Ring AllReduce with 4 workers: flow (allreduce sharing) within 10 % of packet throughput.
 *
 * Cross-backend: ring AllReduce, 4 workers, flow allreduce within 10% of packet throughput
 * (per-layer buckets, overlap on).
 */
class RingFourWorkersTestCase : public TestCase
{
  public:
    RingFourWorkersTestCase()
        : TestCase("ring AllReduce, K = 4, flow within 10 pct of packet throughput")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = LargeLayers();
        // Per-layer buckets (Q = 0); a one-bucket run (Q = inf) measured 2659.9 packet vs 2692.1
        // flow samples/s (+1.2 %), left out to keep the suite short.
        for (uint64_t q : {uint64_t(0)})
        {
            TrainingScenario s;
            s.architecture = TrainingScenario::RING_ALLREDUCE;
            s.workers = 4;
            s.steps = 4;
            s.warmup = 1;
            s.overlap = true;
            s.bucketBytes = q;
            TrainingResult packet = CreateObject<PacketBackend>()->Run(p, s).at(0);
            TrainingResult flow = Flow(p, s, "allreduce");
            std::ostringstream figures;
            figures << (q == 0 ? "Q = 0" : "Q = inf") << ": packet " << packet.throughput
                    << ", flow allreduce " << flow.throughput << " samples/s (flow error "
                    << 100 * (flow.throughput - packet.throughput) / packet.throughput << " %)";
            NS_TEST_EXPECT_MSG_EQ_TOL(flow.throughput,
                                      packet.throughput,
                                      0.10 * packet.throughput,
                                      figures.str());
            std::cout << "  ring K=4 10G " << figures.str() << std::endl;
        }
    }
};

/**
 * \ingroup distributed-training
 * Cross-backend tests.
 */
class CrossBackendTestSuite : public TestSuite
{
  public:
    CrossBackendTestSuite()
        : TestSuite("distributed-training-cross-backend", Type::UNIT)
    {
        AddTestCase(new OneWorkerFlowMatchesPacketTestCase, DT_TEST_QUICK);
        AddTestCase(new SyncFourWorkersTestCase, DT_TEST_QUICK);
        AddTestCase(new RingFourWorkersTestCase, DT_TEST_QUICK);
        AddTestCase(new WindowModelTestCase, DT_TEST_QUICK);
    }
};

/// Static instance: registers the suite.
static CrossBackendTestSuite g_crossBackendTestSuite;

} // namespace

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Packet-level ring AllReduce (RingAllReduceApplication over real ns-3 TCP): bucket formation
 * (004 Sec. 2.2) on hand-worked layer lists, AllReduce time against 2(K-1)/K M / goodput plus
 * 2(K-1) per-round latencies, conservation of bytes and chunks, multi-GPU nodes, bad input.
 */

#include "ns3/distributed-training-module.h"
#include "ns3/test.h"

#include <map>
#include <sstream>
#include <tuple>

using namespace ns3;

namespace
{

/// Synthetic profile: `sizes` bytes per layer, the same forward and backward time per layer.
TrainingProfile
MakeProfile(const std::vector<uint64_t>& sizes, double fwdUs, double bwdUs)
{
    TrainingProfile p;
    p.SetModel("synthetic");
    p.SetBatchSize(32);
    p.SetProvenance(R"({"device":"none","framework":"none","method":"test","derived":true})");
    for (std::size_t i = 0; i < sizes.size(); ++i)
    {
        p.AddLayer({"l" + std::to_string(i), "", sizes[i], fwdUs, bwdUs, 0});
    }
    return p;
}

/// Bucket list as text: "[4 3][2][1 0]" (layers in backward order).
std::string
Describe(const std::vector<RingAllReduceApplication::Bucket>& buckets)
{
    std::ostringstream os;
    for (const auto& b : buckets)
    {
        os << "[";
        for (std::size_t i = 0; i < b.layers.size(); ++i)
        {
            os << (i ? " " : "") << b.layers[i];
        }
        os << "]";
    }
    return os.str();
}

} // namespace

/**
 * \ingroup distributed-training
 * Bucket formation on a hand-worked layer list.
 */
class RingBucketFormationTestCase : public TestCase
{
  public:
    RingBucketFormationTestCase()
        : TestCase("ring buckets (004 Sec. 2.2): closed at >= Q bytes, at the first bucket's "
                   "size, at the fusion timeout and at layer 0; Q = 0 per layer, Q = inf one")
    {
    }

  private:
    void DoRun() override
    {
        // Forward order l0..l5; backward order (readiness) l5, l4, ..., l0.
        // Sizes:    l0=100 l1=400 l2=300 l3=200 l4=600 l5=50
        // Ready (ms, backward from 0): l5 1, l4 2, l3 3, l2 10, l1 11, l0 12
        //   (l2's backward is long: a 7 ms gap after l3).
        const std::vector<uint64_t> sizes = {100, 400, 300, 200, 600, 50};
        const std::vector<double> ready = {0.012, 0.011, 0.010, 0.003, 0.002, 0.001};
        const uint64_t inf = TrainingScenario::UNLIMITED_BUCKET;

        struct Case
        {
            const char* what;
            uint64_t q;
            uint64_t first;
            double timeout;
            const char* expected;
            bool lastByTimeout; //!< whether some bucket closed by timeout
        };

        const Case cases[] = {
            // Q = 0: every layer alone.
            {"Q=0", 0, 0, 0, "[5][4][3][2][1][0]", false},
            // Q = inf: one bucket.
            {"Q=inf", inf, 0, 0, "[5 4 3 2 1 0]", false},
            // Q = 500: 50+600=650 closes; 200+300=500 closes (>=); 400+100=500 closes at l0.
            {"Q=500", 500, 0, 0, "[5 4][3 2][1 0]", false},
            // Q = 700: 50+600=650 <700, +200=850 closes; 300+400=700 closes; [0] alone.
            {"Q=700", 700, 0, 0, "[5 4 3][2 1][0]", false},
            // First bucket 40 bytes: l5 (50) alone; then Q=700: 600+200=800; 300+400; [0].
            {"Q=700, first 40", 700, 40, 0, "[5][4 3][2 1][0]", false},
            // Q=inf with a 5 ms timeout: l5 opens at 1 ms; l2 at 10 ms > 6 ms closes [5 4 3];
            // l2 opens at 10 ms, l1 at 11, l0 at 12 <= 15: [2 1 0] closes at layer 0.
            {"Q=inf, timeout 5 ms", inf, 0, 0.005, "[5 4 3][2 1 0]", true},
            // 1.5 ms timeout: l5 at 1, l4 at 2 <= 2.5 joins, l3 at 3 > 2.5 closes [5 4];
            // l3 opens at 3, l2 at 10 > 4.5 closes [3]; [2 1 0] (11, 12 <= 11.5? 12 > 11.5).
            {"Q=inf, timeout 1.5 ms", inf, 0, 0.0015, "[5 4][3][2 1][0]", true},
            // Size and timeout together: Q = 500 closes [5 4] by size; [3 ...] times out at l2.
            {"Q=500, timeout 5 ms", 500, 0, 0.005, "[5 4][3][2 1][0]", true},
        };
        for (const auto& c : cases)
        {
            auto buckets
                = RingAllReduceApplication::FormBuckets(sizes, ready, c.q, c.first, c.timeout);
            NS_TEST_EXPECT_MSG_EQ(Describe(buckets), std::string(c.expected), c.what);
            uint64_t total = 0;
            bool anyTimeout = false;
            for (const auto& b : buckets)
            {
                uint64_t sum = 0;
                for (uint32_t l : b.layers)
                {
                    sum += sizes[l];
                }
                NS_TEST_EXPECT_MSG_EQ(b.bytes, sum, c.what << ": bucket bytes");
                total += b.bytes;
                anyTimeout = anyTimeout || b.byTimeout;
            }
            NS_TEST_EXPECT_MSG_EQ(total, 1650, c.what << ": every byte in exactly one bucket");
            NS_TEST_EXPECT_MSG_EQ(anyTimeout, c.lastByTimeout, c.what << ": closed by timeout");
        }
        // From a profile: the mean timeline (forward then backward of the means).
        TrainingProfile p = MakeProfile({100, 400, 300, 200, 600, 50}, 1000, 1000);
        auto fromProfile = RingAllReduceApplication::FormBuckets(p, inf, 0, MicroSeconds(2500));
        // Ready at 7, 8, 9, 10, 11, 12 ms (l5 first): l5 opens at 7, l4 8, l3 9 <= 9.5, l2 10
        // > 9.5 closes [5 4 3]; [2 1 0] (11, 12 <= 12.5).
        NS_TEST_EXPECT_MSG_EQ(Describe(fromProfile),
                              std::string("[5 4 3][2 1 0]"),
                              "mean-step timeline");
    }
};

/**
 * \ingroup distributed-training
 * Framework presets and bad input.
 */
class RingPresetsAndBadInputTestCase : public TestCase
{
  public:
    RingPresetsAndBadInputTestCase()
        : TestCase("ring presets carry the frameworks' defaults; unknown preset, G = 0 and "
                   "async ring are rejected naming the option; K = 1 runs without network")
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s;
        s.ApplyPreset("--preset", "ddp");
        NS_TEST_EXPECT_MSG_EQ(s.bucketBytes, 25ULL * 1024 * 1024, "DDP bucket_cap_mb=25");
        NS_TEST_EXPECT_MSG_EQ(s.firstBucketBytes, 1ULL * 1024 * 1024, "DDP first bucket");
        NS_TEST_EXPECT_MSG_EQ(s.fusionTimeout, Seconds(0), "DDP has no cycle");
        s.ApplyPreset("--preset", "horovod");
        NS_TEST_EXPECT_MSG_EQ(s.bucketBytes, 67108864ULL, "HOROVOD_FUSION_THRESHOLD <= 0.20");
        NS_TEST_EXPECT_MSG_EQ(s.firstBucketBytes, 0, "Horovod has no first bucket");
        NS_TEST_EXPECT_MSG_EQ(s.fusionTimeout, MilliSeconds(5), "HOROVOD_CYCLE_TIME <= 0.20");
        s.ApplyPreset("--preset", "horovod-0.21");
        NS_TEST_EXPECT_MSG_EQ(s.bucketBytes, 134217728ULL, "Horovod >= 0.21");
        NS_TEST_EXPECT_MSG_EQ(s.fusionTimeout, MilliSeconds(1), "Horovod >= 0.21 cycle");

        std::string message;
        try
        {
            s.ApplyPreset("--preset", "nccl");
        }
        catch (const TrainingInputError& e)
        {
            message = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(message.find("--preset"), std::string::npos, message);
        NS_TEST_EXPECT_MSG_NE(message.find("ddp, horovod or horovod-0.21"),
                              std::string::npos,
                              message);

        TrainingProfile p = MakeProfile({1000000, 1000000}, 1000, 2000);
        TrainingScenario g;
        g.architecture = TrainingScenario::RING_ALLREDUCE;
        g.gpusPerNode = 0;
        message.clear();
        try
        {
            CreateObject<PacketBackend>()->Run(p, g);
        }
        catch (const TrainingInputError& e)
        {
            message = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(message.find("--gpusPerNode"), std::string::npos, message);

        // K = 1: no network, the step is forward + backward.
        TrainingScenario one;
        one.architecture = TrainingScenario::RING_ALLREDUCE;
        one.workers = 1;
        one.steps = 3;
        one.warmup = 1;
        TrainingResult r = CreateObject<PacketBackend>()->Run(p, one).at(0);
        NS_TEST_EXPECT_MSG_EQ_TOL(r.stepTimeMean, 6e-3, 1e-9, "K = 1 step = compute");
        NS_TEST_EXPECT_MSG_EQ(r.transfers.size(), 0, "K = 1 sends nothing");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.throughput, 32 / 6e-3, 1e-6, "K = 1 throughput");
    }
};

/**
 * \ingroup distributed-training
 * Ring AllReduce test suite.
 */
class RingAllReduceTestSuite : public TestSuite
{
  public:
    RingAllReduceTestSuite()
        : TestSuite("distributed-training-ring", UNIT)
    {
        AddTestCase(new RingBucketFormationTestCase, TestCase::QUICK);
        AddTestCase(new RingPresetsAndBadInputTestCase, TestCase::QUICK);
    }
};

/// Static instance: registers the suite.
static RingAllReduceTestSuite g_ringAllReduceTestSuite;

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Packet-level ring AllReduce (RingAllReduceApplication over real ns-3 TCP): bucket formation
 * (004 Sec. 2.2) on hand-worked layer lists, AllReduce time against 2(K-1)/K M / goodput plus
 * 2(K-1) per-round latencies, conservation of bytes and chunks, multi-GPU nodes, bad input.
 */

#include "ns3/distributed-training-compat.h"
#include "ns3/distributed-training-module.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <algorithm>
#include <map>
#include <memory>
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

/// Everything one packet-level ring run reports.
struct RingRun
{
    std::vector<TrainingResult::StepRecord> steps;         //!< step records
    std::vector<TrainingResult::TransferRecord> transfers; //!< one per chunk
    /// (worker, step, bucket) -> (ring start, ring end, chunks, bytes received), and how often.
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>,
             std::tuple<double, double, uint32_t, uint64_t>>
        buckets;
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> bucketReports; //!< count
    std::vector<uint64_t> sent;       //!< per worker: payload handed to TCP
    std::vector<uint64_t> received;   //!< per worker: payload received
    uint64_t duplicates{0};           //!< chunks received twice, all workers
    std::vector<uint64_t> bucketSize; //!< M of each bucket
    double goodput{0};                //!< bytes/s of one saturated flow

    /** \param r record */
    void OnStep(const TrainingResult::StepRecord& r)
    {
        steps.push_back(r);
    }

    /** \param r record */
    void OnTransfer(const TrainingResult::TransferRecord& r)
    {
        transfers.push_back(r);
    }

    /// BucketReduced trace sink.
    void OnBucket(uint32_t w,
                  uint32_t step,
                  uint32_t b,
                  Time ringStart,
                  Time ringEnd,
                  uint32_t chunks,
                  uint64_t bytes)
    {
        auto key = std::make_tuple(w, step, b);
        buckets[key] = std::make_tuple(ringStart.GetSeconds(), ringEnd.GetSeconds(), chunks, bytes);
        ++bucketReports[key];
    }
};

/// Run a ring scenario on the packet level with the cluster helper, keeping the applications.
RingRun
RunRing(const TrainingProfile& profile, const TrainingScenario& s)
{
    s.Validate(profile);
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(s.seed);
    RingRun run;
    run.goodput = TrainingNetwork::GetGoodputBytesPerSecond(s);
    Ptr<TrainingClusterHelper> cluster = CreateObject<TrainingClusterHelper>();
    cluster->Configure(s);
    cluster->ConfigureTcp();
    cluster->Build();
    ApplicationContainer apps
        = cluster->InstallRingJob(std::make_shared<const TrainingProfile>(profile), s);
    cluster->AssignStreams(0);
    for (auto it = apps.Begin(); it != apps.End(); ++it)
    {
        (*it)->TraceConnectWithoutContext("StepCompleted", MakeCallback(&RingRun::OnStep, &run));
        (*it)->TraceConnectWithoutContext("TransferCompleted",
                                          MakeCallback(&RingRun::OnTransfer, &run));
        (*it)->TraceConnectWithoutContext("BucketReduced", MakeCallback(&RingRun::OnBucket, &run));
    }
    Simulator::Stop(Seconds(100));
    Simulator::Run();
    for (auto it = apps.Begin(); it != apps.End(); ++it)
    {
        Ptr<RingAllReduceApplication> app = DynamicCast<RingAllReduceApplication>(*it);
        run.sent.push_back(app->GetPayloadBytesSent());
        run.received.push_back(app->GetPayloadBytesReceived());
        run.duplicates += app->GetDuplicateChunks();
        if (run.bucketSize.empty())
        {
            for (const auto& b : app->GetBuckets())
            {
                run.bucketSize.push_back(b.bytes);
            }
        }
    }
    Simulator::Destroy();
    return run;
}

/// Payload bytes of chunk c of an M-byte bucket over K workers (the last takes the remainder).
uint64_t
ChunkSize(uint64_t m, uint32_t k, uint32_t c)
{
    return c + 1 < k ? m / k : m - (m / k) * (k - 1);
}

/**
 * \ingroup distributed-training
 * Bucket formation on a hand-worked layer list.
 *
 * Ring buckets (004 Sec. 2.2): closed at >= Q bytes, at the first bucket's size, at the fusion
 * timeout and at layer 0; Q = 0 per layer, Q = inf one.
 */
class RingBucketFormationTestCase : public TestCase
{
  public:
    RingBucketFormationTestCase()
        : TestCase("ring buckets close at Q bytes, first bucket size, timeout and layer 0")
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
            auto buckets = TensorFusion::FormBuckets(sizes, ready, c.q, c.first, c.timeout);
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
        auto fromProfile = TensorFusion::FormBuckets(p, inf, 0, MicroSeconds(2500));
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
 *
 * Ring presets carry the frameworks' defaults; unknown preset, G = 0 and async ring are rejected
 * naming the option; K = 1 runs without network.
 */
class RingPresetsAndBadInputTestCase : public TestCase
{
  public:
    RingPresetsAndBadInputTestCase()
        : TestCase("ring presets carry framework defaults, bad input named, K = 1 runs")
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
 * One bucket, overlap off: the AllReduce takes 2(K-1)/K M / goodput + 2(K-1) per-round latencies.
 *
 * Ring AllReduce of one M-byte bucket, overlap off, once TCP is warm (step 5), within 5% of 2(K-1)
 * over K x M over goodput + 2(K-1) x (2 link delays + 1 frame) for K = 2, 4, 8.
 */
class RingAllReduceTimeTestCase : public TestCase
{
  public:
    RingAllReduceTimeTestCase()
        : TestCase("packet ring AllReduce, K = 2, 4, 8, within 5 pct of the closed form")
    {
    }

  private:
    void DoRun() override
    {
        // M = 2.4 MB: chunks of 1.2 MB (K = 2) down to 300 kB (K = 8), 6 or more BDPs of the
        // 10 Gb/s, 40 us path.
        const uint64_t m = 2400000;
        TrainingProfile p = MakeProfile({m / 2, m / 4, m / 4}, 300, 600);
        for (uint32_t k : {2u, 4u, 8u})
        {
            TrainingScenario s;
            s.architecture = TrainingScenario::RING_ALLREDUCE;
            s.workers = k;
            s.steps = 6;
            s.warmup = 1;
            s.overlap = false;
            s.bucketBytes = TrainingScenario::UNLIMITED_BUCKET;
            RingRun run = RunRing(p, s);
            NS_TEST_ASSERT_MSG_EQ(run.bucketSize.size(), 1, "one bucket");
            NS_TEST_ASSERT_MSG_EQ(run.steps.size(), k * s.steps, "every step completed");
            const double kk = k;
            const double frame = (s.mtu + 2) * 8.0 / s.nicRate.GetBitRate();
            const double round = 2 * s.linkDelay.GetSeconds() + frame;
            const double expected = 2 * (kk - 1) / kk * m / run.goodput + 2 * (kk - 1) * round;
            for (uint32_t step = 1; step < s.steps; ++step)
            {
                // Bucket start: the earliest worker's ring start; end: the last chunk's arrival.
                double start = 1e9;
                double end = 0;
                for (const auto& [key, value] : run.buckets)
                {
                    if (std::get<1>(key) == step)
                    {
                        start = std::min(start, std::get<0>(value));
                    }
                }
                for (const auto& t : run.transfers)
                {
                    if (t.step == step)
                    {
                        end = std::max(end, t.end);
                    }
                }
                const double measured = end - start;
                std::cout << "  K = " << k << " step " << step << ": AllReduce " << measured * 1e3
                          << " ms, model " << expected * 1e3 << " ms ("
                          << 100 * (measured - expected) / expected << " %)" << std::endl;
                if (step + 1 < s.steps)
                {
                    // Cubic is still opening its window towards the 1 MiB send buffer (K = 2:
                    // about 12, 7, 4, 4 % above the model in steps 1-4): printed, not checked.
                    continue;
                }
                NS_TEST_EXPECT_MSG_EQ_TOL(measured,
                                          expected,
                                          0.05 * expected,
                                          "K = " << k << ", step " << step << ": measured "
                                                 << measured * 1e3 << " ms, expected "
                                                 << expected * 1e3 << " ms");
            }
        }
    }
};

/**
 * \ingroup distributed-training
 * Bytes and chunks conserved, with several buckets, overlap on and sampled steps.
 *
 * Ring: each worker sends exactly 2(K-1) over K x M per bucket (records and TCP payload counters)
 * and ends every step with every bucket's 2(K-1) chunks, each exactly once.
 */
class RingConservationTestCase : public TestCase
{
  public:
    RingConservationTestCase()
        : TestCase("packet ring, each worker sends 2(K-1) over K times M per bucket, chunks once")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t k : {3u, 4u})
        {
            // Sizes divisible by 12, plus one that is not (chunk remainder).
            std::vector<uint64_t> sizes = {1200000, 360000, 2400000, 600000, 1000001};
            TrainingProfile p = MakeProfile(sizes, 400, 800);
            for (double f : {0.5, 1.0, 1.7})
            {
                std::size_t n = sizes.size();
                p.AddSample({std::vector<double>(n, 400 * f),
                             std::vector<double>(n, 800 * f),
                             std::vector<double>(n, 0)});
            }
            TrainingScenario s;
            s.architecture = TrainingScenario::RING_ALLREDUCE;
            s.workers = k;
            s.steps = 4;
            s.warmup = 1;
            s.overlap = true;
            s.bucketBytes = 1000000; // [4][3 2][1 0]
            s.computeScale = {1.0};
            RingRun run = RunRing(p, s);
            NS_TEST_ASSERT_MSG_EQ(run.bucketSize.size(), 3, "K = " << k << ": three buckets");
            NS_TEST_EXPECT_MSG_EQ(run.duplicates, 0, "K = " << k << ": no chunk twice");
            NS_TEST_EXPECT_MSG_EQ(run.steps.size(), k * s.steps, "K = " << k << ": all steps");
            // Sent by worker w per bucket: all chunks but (w+1) in reduce-scatter and all but
            // (w+2) in all-gather = 2M - c(w+1) - c(w+2) = 2(K-1)/K M when K divides M.
            std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint64_t> sentBytes;
            std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> sentChunks;
            for (const auto& t : run.transfers)
            {
                NS_TEST_EXPECT_MSG_EQ(t.peer, (t.worker + 1) % k, "peer is the successor");
                NS_TEST_EXPECT_MSG_EQ(t.direction, std::string("ring"), "direction");
                NS_TEST_EXPECT_MSG_LT_OR_EQ(t.start, t.end, "first byte before last byte");
                auto key = std::make_tuple(t.worker, t.step, static_cast<uint32_t>(t.tensor));
                sentBytes[key] += t.bytes;
                ++sentChunks[key];
            }
            std::vector<uint64_t> perWorker(k, 0);
            for (uint32_t w = 0; w < k; ++w)
            {
                for (uint32_t step = 0; step < s.steps; ++step)
                {
                    for (uint32_t b = 0; b < run.bucketSize.size(); ++b)
                    {
                        const uint64_t m = run.bucketSize[b];
                        const uint64_t expected
                            = 2 * m - ChunkSize(m, k, (w + 1) % k) - ChunkSize(m, k, (w + 2) % k);
                        auto key = std::make_tuple(w, step, b);
                        NS_TEST_EXPECT_MSG_EQ(sentBytes[key],
                                              expected,
                                              "K " << k << " worker " << w << " step " << step
                                                   << " bucket " << b);
                        if (m % k == 0)
                        {
                            NS_TEST_EXPECT_MSG_EQ(sentBytes[key] * k,
                                                  2 * (k - 1) * m,
                                                  "2(K-1)/K M exactly, bucket " << b);
                        }
                        NS_TEST_EXPECT_MSG_EQ(sentChunks[key], 2 * (k - 1), "chunks sent");
                        perWorker[w] += expected;
                        // The receiver (w's successor) reduced the bucket once, with every
                        // chunk once: 2(K-1) distinct chunks, the bytes w sent.
                        auto rkey = std::make_tuple((w + 1) % k, step, b);
                        NS_TEST_EXPECT_MSG_EQ(run.bucketReports[rkey], 1, "bucket reduced once");
                        NS_TEST_EXPECT_MSG_EQ(std::get<2>(run.buckets[rkey]),
                                              2 * (k - 1),
                                              "distinct chunks received");
                        NS_TEST_EXPECT_MSG_EQ(std::get<3>(run.buckets[rkey]),
                                              expected,
                                              "bytes received for the bucket");
                    }
                }
                NS_TEST_EXPECT_MSG_EQ(run.sent[w], perWorker[w], "TCP payload sent, worker " << w);
                NS_TEST_EXPECT_MSG_EQ(run.received[(w + 1) % k],
                                      perWorker[w],
                                      "TCP payload received by the successor of " << w);
            }
        }
    }
};

/**
 * \ingroup distributed-training
 * Multi-GPU nodes: G = 1 is the flat ring; G > 1 adds the modelled intra-node delays; a faster
 * intra-node interconnect never slows a step.
 *
 * Ring multi-GPU: G = 1 equals the flat ring whatever the intra-node link; G = 2 adds a reduce and
 * a broadcast of (G-1) M over (G B_intra) + (G-1) latency per bucket; larger intra-node bandwidth
 * never slows a step.
 */
class RingMultiGpuTestCase : public TestCase
{
  public:
    RingMultiGpuTestCase()
        : TestCase("packet ring with G GPUs per node adds intra-node reduce and broadcast")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = MakeProfile({600000, 400000, 1000000, 200000}, 500, 1000);
        TrainingScenario base;
        base.architecture = TrainingScenario::RING_ALLREDUCE;
        base.workers = 4;
        base.steps = 3;
        base.warmup = 1;
        base.bucketBytes = TrainingScenario::UNLIMITED_BUCKET;

        Ptr<PacketBackend> backend = CreateObject<PacketBackend>();
        TrainingResult flat = backend->Run(p, base).at(0);
        TrainingScenario g1 = base;
        g1.gpusPerNode = 1;
        g1.intraBandwidth = DataRate("1Mbps");
        g1.intraLatency = Seconds(1);
        TrainingResult one = backend->Run(p, g1).at(0);
        NS_TEST_EXPECT_MSG_EQ(one.steps.size(), flat.steps.size(), "same steps");
        for (std::size_t i = 0; i < flat.steps.size() && i < one.steps.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(one.steps[i].end, flat.steps[i].end, "G = 1 step " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(one.throughput, flat.throughput, "G = 1 throughput");

        // G = 2, one bucket, overlap off: step = flat + 2 (M / (2 B_intra) + latency)
        // (TrainingNetwork::GetIntraNodeHalfSeconds, 000 Sec. 4.4); throughput
        // counts G batches per node.
        TrainingScenario g2 = base;
        g2.gpusPerNode = 2;
        g2.intraBandwidth = DataRate("100Gbps");
        g2.intraLatency = MicroSeconds(20);
        TrainingResult two = backend->Run(p, g2).at(0);
        const double intra = 2200000 * 8 / 100e9 / 2 + 20e-6;
        NS_TEST_EXPECT_MSG_EQ_TOL(two.stepTimeMean,
                                  flat.stepTimeMean + 2 * intra,
                                  0.01 * flat.stepTimeMean,
                                  "G = 2: flat " << flat.stepTimeMean * 1e3 << " ms + 2 x "
                                                 << intra * 1e3 << " ms");
        std::cout << "  flat " << flat.stepTimeMean * 1e3 << " ms, G = 2 " << two.stepTimeMean * 1e3
                  << " ms, flat + 2 x intra " << (flat.stepTimeMean + 2 * intra) * 1e3 << " ms"
                  << std::endl;
        NS_TEST_EXPECT_MSG_EQ_TOL(two.throughput,
                                  4 * 2 * 32 / two.stepTimeMean,
                                  1e-6 * two.throughput,
                                  "G = 2 throughput counts 2 batches per node");

        // Several buckets with overlap: step time does not grow with the intra-node rate.
        TrainingScenario multi = base;
        multi.gpusPerNode = 4;
        multi.overlap = true;
        multi.bucketBytes = 0;
        double previous = 1e9;
        std::ostringstream figures;
        for (std::string rate : {"10Gbps", "40Gbps", "100Gbps", "300Gbps", "1200Gbps"})
        {
            multi.intraBandwidth = DataRate(rate);
            TrainingResult r = backend->Run(p, multi).at(0);
            figures << rate << " " << r.stepTimeMean * 1e3 << " ms; ";
            NS_TEST_EXPECT_MSG_LT_OR_EQ(r.stepTimeMean, previous * (1 + 1e-9), figures.str());
            previous = r.stepTimeMean;
        }
        std::cout << "  G = 4 step times by intra-node rate: " << figures.str() << std::endl;
    }
};

/**
 * \ingroup distributed-training
 * Fusion timeout and overlap on the packet level: when each bucket's AllReduce starts.
 *
 * Ring bucket start: overlap on, a timeout-closed bucket starts at its first gradient + timeout and
 * the last at layer 0; overlap off, all after backward.
 */
class RingBucketStartTestCase : public TestCase
{
  public:
    RingBucketStartTestCase()
        : TestCase("packet ring bucket start times with and without overlap")
    {
    }

  private:
    void DoRun() override
    {
        // Forward 4 x 1 ms; gradients ready at 5 (l3), 6 (l2), 7 (l1), 8 (l0) ms after the step
        // start. Timeout 1.5 ms: [3 2] closes at 5 + 1.5 = 6.5 ms (l1 at 7 ms is too late);
        // [1 0] closes at layer 0, 8 ms, or when [3 2] is done if later.
        TrainingProfile p = MakeProfile({200000, 200000, 200000, 200000}, 1000, 1000);
        for (bool overlap : {true, false})
        {
            TrainingScenario s;
            s.architecture = TrainingScenario::RING_ALLREDUCE;
            s.workers = 3;
            s.steps = 3;
            s.warmup = 1;
            s.overlap = overlap;
            s.bucketBytes = TrainingScenario::UNLIMITED_BUCKET;
            s.fusionTimeout = MicroSeconds(1500);
            RingRun run = RunRing(p, s);
            NS_TEST_ASSERT_MSG_EQ(run.bucketSize.size(), 2, "two buckets");
            for (const auto& r : run.steps)
            {
                auto b0 = run.buckets[std::make_tuple(r.worker, r.step, 0u)];
                auto b1 = run.buckets[std::make_tuple(r.worker, r.step, 1u)];
                const double first = std::get<0>(b0) - r.start;
                const double second = std::get<0>(b1) - r.start;
                const double firstDone = std::get<1>(b0) - r.start;
                if (overlap)
                {
                    NS_TEST_EXPECT_MSG_EQ_TOL(first, 6.5e-3, 1e-9, "worker " << r.worker);
                    NS_TEST_EXPECT_MSG_EQ_TOL(second,
                                              std::max(8e-3, firstDone),
                                              1e-9,
                                              "worker " << r.worker);
                }
                else
                {
                    NS_TEST_EXPECT_MSG_EQ_TOL(first, 8e-3, 1e-9, "worker " << r.worker);
                    NS_TEST_EXPECT_MSG_EQ_TOL(second, firstDone, 1e-9, "worker " << r.worker);
                }
            }
        }
    }
};

/**
 * \ingroup distributed-training
 * Reduction cost (second term of 004 Eq. (7)): each of the K-1 reduce-scatter chunks costs
 * chunk / ReductionRate on the critical path.
 *
 * Ring reduction rate adds (K-1) over K x M over the rate to the AllReduce (K = 4, within 2%).
 */
class RingReductionRateTestCase : public TestCase
{
  public:
    RingReductionRateTestCase()
        : TestCase("packet ring reduction rate adds (K-1) M over K R, K = 4, within 2 pct")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t m = 2400000;
        TrainingProfile p = MakeProfile({m / 2, m / 2}, 300, 600);
        const double rate = 2e9; // bytes/s
        double ends[2] = {0, 0};
        for (int withReduction = 0; withReduction < 2; ++withReduction)
        {
            TrainingScenario s;
            s.architecture = TrainingScenario::RING_ALLREDUCE;
            s.workers = 4;
            s.steps = 2;
            s.warmup = 1;
            s.bucketBytes = TrainingScenario::UNLIMITED_BUCKET;
            s.sampleSteps = false;
            s.reductionRate = withReduction ? rate : 0;
            RingRun run = RunRing(p, s);
            for (const auto& r : run.steps)
            {
                ends[withReduction] = std::max(ends[withReduction], r.end);
            }
        }
        const double added = ends[1] - ends[0];
        const double expected = 2 * (3.0 / 4 * m / rate); // two steps
        NS_TEST_EXPECT_MSG_EQ_TOL(added,
                                  expected,
                                  0.02 * expected,
                                  "2 steps took " << added * 1e3 << " ms longer, expected 2 x "
                                                  << expected * 1e3 / 2 << " ms");
        std::cout << "  reduction at 2 GB/s: +" << added * 1e3 << " ms over 2 steps, model +"
                  << expected * 1e3 << " ms" << std::endl;
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
        : TestSuite("distributed-training-ring", Type::UNIT)
    {
        AddTestCase(new RingBucketFormationTestCase, DT_TEST_QUICK);
        AddTestCase(new RingPresetsAndBadInputTestCase, DT_TEST_QUICK);
        AddTestCase(new RingBucketStartTestCase, DT_TEST_QUICK);
        AddTestCase(new RingAllReduceTimeTestCase, DT_TEST_QUICK);
        AddTestCase(new RingReductionRateTestCase, DT_TEST_QUICK);
        AddTestCase(new RingConservationTestCase, DT_TEST_QUICK);
        AddTestCase(new RingMultiGpuTestCase, DT_TEST_QUICK);
    }
};

/// Static instance: registers the suite.
static RingAllReduceTestSuite g_ringAllReduceTestSuite;

} // namespace

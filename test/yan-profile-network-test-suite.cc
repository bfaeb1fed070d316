/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * 002's model on annotated profiles (YanProfileNetwork, the profile format's shape fields)
 * against numbers worked by hand in this file: a two-layer DP optimum, the adapter's layers
 * for a known Conv2d and Linear, the fitted C_muladd, and the refusals.
 */

#include "training-test-utils.h"

#include "ns3/test.h"
#include "ns3/training-profile.h"
#include "ns3/yan-performance-model.h"
#include "ns3/yan-profile-network.h"

#include <cmath>
#include <limits>
#include <string>

using namespace ns3;
using ns3::tests::ThrowsInputError;

namespace
{

/// Relative tolerance of every hand-worked comparison.
const double REL = 1e-9;

/// \return a profile of batch 1 with the given layers
TrainingProfile
Annotated(const std::vector<TrainingProfile::Layer>& layers)
{
    TrainingProfile p;
    p.SetModel("two");
    p.SetBatchSize(1);
    p.SetProvenance(R"({"device":"none","framework":"none","method":"test","derived":true})");
    for (const auto& l : layers)
    {
        p.AddLayer(l);
    }
    return p;
}

/**
 * System: layer a (1000 outputs, 1e6 multiply-adds, 4e6 parameter bytes, fwd 1000 us, bwd
 * 1000 us) and layer b (10 outputs, 1e4 multiply-adds, 4e4 bytes, fwd 10 us, bwd 20 us), both
 * full, batch 1. Fitted C_muladd = 2030 us / (3 (1e6 + 1e4) - 1e6) = 1e-9 s. Machines: C_act =
 * C_err = C_ncost = 0, 1e9 B/s, 32 bits, N_sample = N_read = 1, one server, one replica of
 * N_wr = 2, H = 1; choices (P, R) in {(1,1), (1,2), (2,1)}.
 * Own time (compute C (2 W_a + W_b)/(P R) or 2 C W_b/(P R), reads R x bytes / 1e9):
 * a: 6.01e-3, 9.005e-3, 5.005e-3 s; b: 6e-5, 9e-5, 5e-5 s. Exchanges into b = (2,1): from a =
 * (2,1) each b stripe misses the half of a on the other worker (500 x 4 B / 1e9 = 2e-6 s) and
 * each a stripe misses half of b's errors (5 x 4 / 1e9 = 2e-8 s). Best end states: b = (1,1)
 * 5.00704e-3 + 6e-5, b = (1,2) 5.00602e-3 + 9e-5, b = (2,1) 5.00702e-3 + 5e-5 = 5.05702e-3 s.
 * Expectations: both layers in 2 stripes, no replication, epoch 5.05702e-3 s.
 */
class YanProfileDpTestCase : public TestCase
{
  public:
    YanProfileDpTestCase()
        : TestCase("two annotated layers, N_wr = 2, DP picks 2 stripes each, 5.05702 ms")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p
            = Annotated({{"a", "Linear", 4000000, 1000, 1000, 0, {{1000, 1e6, false, 0}}},
                         {"b", "Linear", 40000, 10, 20, 0, {{10, 1e4, false, 0}}}});
        const double c = YanProfileNetwork::FittedMulAdd(p);
        NS_TEST_EXPECT_MSG_EQ_TOL(c, 1e-9, 1e-9 * REL, "C_muladd");
        YanPerformanceModel::Hardware hw;
        hw.mulAdd = c;
        hw.activation = 0;
        hw.error = 0;
        hw.latency = 0;
        hw.bandwidth = 1e9;
        hw.samples = 1;
        hw.readInterval = 1;
        const YanPerformanceModel m(YanProfileNetwork::Layers(p), hw);
        YanPerformanceModel::Config cfg;
        cfg.workersPerReplica = 2;
        cfg = m.OptimiseLayers(cfg);
        NS_TEST_EXPECT_MSG_EQ(cfg.partitions[0], 2u, "a in 2 stripes");
        NS_TEST_EXPECT_MSG_EQ(cfg.replication[0], 1u, "a not replicated");
        NS_TEST_EXPECT_MSG_EQ(cfg.partitions[1], 2u, "b in 2 stripes");
        NS_TEST_EXPECT_MSG_EQ(cfg.replication[1], 1u, "b not replicated");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.EpochTime(cfg), 5.05702e-3, 5.05702e-3 * REL, "epoch");
        // The second best end state, b replicated twice: 5.09602e-3 s.
        cfg.partitions[1] = 1;
        cfg.replication[1] = 2;
        NS_TEST_EXPECT_MSG_EQ_TOL(m.EpochTime(cfg), 5.09602e-3, 5.09602e-3 * REL, "b = (1,2)");
    }
};

/**
 * System: traces/small_cnn.py's first Conv2d (3 -> 32 channels, 3x3, padding 1, on 64x64) and
 * last Linear (256 -> 10), as `annotate` writes them.
 * Expectations: conv N = 32 x 64 x 64 = 131072 neurons, W = 9 x 3 x 131072 = 3538944
 * connections, 3584 B / 4 = 896 weights, local, halo 1 row of 64 = 0.015625; Linear N = 10,
 * W = 2560, 10280 B / 4 = 2570 weights, full. The shapes survive a save and a load.
 */
class YanProfileLayersTestCase : public TestCase
{
  public:
    YanProfileLayersTestCase()
        : TestCase("adapter turns a Conv2d and a Linear into neurons and connections")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile p
            = Annotated({{"0", "Conv2d", 3584, 1, 1, 0, {{131072, 3538944, true, 0.015625}}},
                         {"11", "Linear", 10280, 1, 1, 0, {{10, 2560, false, 0}}}});
        const auto layers = YanProfileNetwork::Layers(p);
        NS_TEST_EXPECT_MSG_EQ(layers[0].neurons, 131072, "conv N(l)");
        NS_TEST_EXPECT_MSG_EQ(layers[0].connections, 3538944, "conv W(l)");
        NS_TEST_EXPECT_MSG_EQ(layers[0].weights, 896, "conv weights");
        NS_TEST_EXPECT_MSG_EQ(layers[0].local, true, "conv local");
        NS_TEST_EXPECT_MSG_EQ(layers[0].halo, 0.015625, "conv halo");
        NS_TEST_EXPECT_MSG_EQ(layers[1].neurons, 10, "linear N(l)");
        NS_TEST_EXPECT_MSG_EQ(layers[1].connections, 2560, "linear W(l)");
        NS_TEST_EXPECT_MSG_EQ(layers[1].weights, 2570, "linear weights");
        NS_TEST_EXPECT_MSG_EQ(layers[1].local, false, "linear full");
        const TrainingProfile back = TrainingProfile::LoadFromString(p.ToJson(), "round trip");
        NS_TEST_EXPECT_MSG_EQ((back == p), true, "shapes round-trip");
        NS_TEST_EXPECT_MSG_EQ(back.HasShapes(), true, "annotated");
    }
};

/**
 * System: one layer whose shape fields are wrong in the file, one at a time.
 * Expectations: each is refused naming the file and layers[0].<field> (1e999, beyond a double,
 * is refused by the JSON reader as a number overflow).
 */
class YanProfileBadFieldsTestCase : public TestCase
{
  public:
    YanProfileBadFieldsTestCase()
        : TestCase("bad shape fields are refused naming file and field")
    {
    }

  private:
    void DoRun() override
    {
        const std::string head
            = R"({"format":"distributed-training-profile","version":1,"model":"m","batch_size":1,)"
              R"("provenance":{"device":"d","framework":"f","method":"m","derived":true},)"
              R"("layers":[{"name":"a","param_bytes":4,"forward_us":1,"backward_us":1,)"
              R"("update_us":0,)";
        const std::vector<std::pair<std::string, std::string>> cases{
            {R"("output_elements":-1,"macs":1)", "layers[0].output_elements"},
            {R"("output_elements":1,"macs":"many")", "layers[0].macs"},
            {R"("output_elements":1,"macs":1e999)", "number overflow"},
            {R"("output_elements":1,"macs":1,"local":1)", "layers[0].local"},
            {R"("output_elements":1,"macs":1,"halo":1.5)", "layers[0].halo"},
            {R"("macs":1)", "layers[0].macs"},
            {R"("local":true)", "layers[0].local"}};
        for (const auto& c : cases)
        {
            // Not a structured binding: clang before C++20 cannot capture one in the lambda.
            const std::string& fields = c.first;
            const std::string& words = c.second;
            NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                      [&]()
                                      {
                                          TrainingProfile::LoadFromString(head + fields + "}]}",
                                                                          "bad.json");
                                      },
                                      {"bad.json", words}),
                                  true,
                                  "refused: " + fields);
        }
        TrainingProfile p = Annotated(
            {{"a", "", 4, 1, 1, 0, {{std::numeric_limits<double>::quiet_NaN(), 1, false, 0}}}});
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]()
                                  {
                                      p.Validate("mem");
                                  },
                                  {"mem", "layers[0].output_elements"}),
                              true,
                              "NaN refused in memory");
    }
};

/**
 * System: a profile without shape fields (traces/README.md's format before `annotate`).
 * Expectations: it loads, and 002's adapter refuses it naming the layer and the command.
 */
class YanProfileNoShapeTestCase : public TestCase
{
  public:
    YanProfileNoShapeTestCase()
        : TestCase("profile without shapes is refused by the 002 search, run annotate")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = Annotated({{"a", "Linear", 4, 1, 1, 0}});
        NS_TEST_EXPECT_MSG_EQ(p.HasShapes(), false, "no shape");
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&]()
                                  {
                                      YanProfileNetwork::Layers(p);
                                  },
                                  {"layers[0] (a)", "profile_model.py annotate --model two"}),
                              true,
                              "refused with the command");
    }
};

/// The suite.
class YanProfileNetworkTestSuite : public TestSuite
{
  public:
    YanProfileNetworkTestSuite()
        : TestSuite("distributed-training-yan-profile", UNIT)
    {
        AddTestCase(new YanProfileDpTestCase, TestCase::QUICK);
        AddTestCase(new YanProfileLayersTestCase, TestCase::QUICK);
        AddTestCase(new YanProfileBadFieldsTestCase, TestCase::QUICK);
        AddTestCase(new YanProfileNoShapeTestCase, TestCase::QUICK);
    }
};

/// The one instance.
YanProfileNetworkTestSuite g_yanProfileNetworkTestSuite;

} // namespace

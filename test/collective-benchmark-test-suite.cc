/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * CollectiveBenchmark (examples/collective-benchmark.cc): its command line, its bandwidths and
 * one measured point.
 */

#include "ns3/distributed-training-module.h"
#include "ns3/test.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \param args a command line (without the program)
 * \return the error message of parsing it, or "" when it parses
 */
std::string
ParseError(const std::vector<std::string>& args)
{
    try
    {
        bool help = false;
        CollectiveBenchmark::ParseArguments(args, help);
    }
    catch (const TrainingInputError& e)
    {
        return e.what();
    }
    return "";
}

/**
 * \ingroup distributed-training
 * The command line: sizes, lists and defaults.
 *
 * 1KiB..256MiB by 4 is 1, 4, 16, 64, 256 KiB, 1, 4, 16, 64, 256 MiB (10 sizes); a comma list
 * is sorted and repeats dropped; --collective=all is the three collectives; --workers takes
 * the driver's list; without --steps and --warmup a point runs 3 steps of which 1 warms up.
 */
class BenchmarkArgumentsTestCase : public TestCase
{
  public:
    BenchmarkArgumentsTestCase()
        : TestCase("benchmark command line, sizes, lists and defaults")
    {
    }

  private:
    void DoRun() override
    {
        const auto range = CollectiveBenchmark::ParseSizes("1KiB..256MiB", 4);
        NS_TEST_ASSERT_MSG_EQ(range.size(), 10, "ten sizes");
        NS_TEST_EXPECT_MSG_EQ(range.front(), 1024, "first");
        NS_TEST_EXPECT_MSG_EQ(range.back(), 256ULL << 20, "last");
        const auto list = CollectiveBenchmark::ParseSizes("4MiB,64KiB,4MiB", 4);
        NS_TEST_ASSERT_MSG_EQ(list.size(), 2, "repeat dropped");
        NS_TEST_EXPECT_MSG_EQ(list[0], 64 * 1024, "sorted");
        bool help = false;
        const auto s = CollectiveBenchmark::ParseArguments(
            {"--collective=all", "--workers=4,8,16", "--backend=flow", "--nicRate=25Gbps"},
            help);
        NS_TEST_EXPECT_MSG_EQ(help, false, "no help");
        NS_TEST_EXPECT_MSG_EQ(s.collectives.size(), 5, "all collectives");
        NS_TEST_EXPECT_MSG_EQ(s.workers.size(), 3, "three K");
        NS_TEST_EXPECT_MSG_EQ(s.workers[2], 16, "K list");
        NS_TEST_EXPECT_MSG_EQ(s.backends.size(), 1, "one backend");
        NS_TEST_EXPECT_MSG_EQ(s.base.scenario.nicRate.GetBitRate(), 25000000000ULL, "nicRate");
        NS_TEST_EXPECT_MSG_EQ(s.base.scenario.steps, 3, "default steps");
        NS_TEST_EXPECT_MSG_EQ(s.base.scenario.warmup, 1, "default warm-up");
        CollectiveBenchmark::ParseArguments({"--help"}, help);
        NS_TEST_EXPECT_MSG_EQ(help, true, "--help");
    }
};

/**
 * \ingroup distributed-training
 * Hostile values are refused with a message naming the option and what was expected.
 */
class BenchmarkHostileTestCase : public TestCase
{
  public:
    BenchmarkHostileTestCase()
        : TestCase("benchmark refuses hostile values with the option named")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
            {{"--sizes=0"}, "--sizes: '0' (expected a size from 1 byte to 4GiB)"},
            {{"--sizes=inf"}, "--sizes: 'inf'"},
            {{"--sizes=5GiB"}, "--sizes: '5GiB'"},
            {{"--sizes=1MiB..1KiB"}, "--sizes: empty range"},
            {{"--sizes=1KiB,,2KiB"}, "--sizes"},
            {{"--sizes=-1"}, "--sizes"},
            {{"--sizeFactor=1"}, "--sizeFactor"},
            {{"--collective=ring,star"}, "--collective: 'star'"},
            {{"--collective="}, "--collective"},
            {{"--backend=flow,"}, "--backend"},
            {{"--backend=gpu"}, "--backend"},
            {{"--workers=0"}, "--workers"},
            {{"--workers=1..4"}, "--workers: K = 1 (expected K >= 2"},
            {{"--packetMaxBytes=lots"}, "--packetMaxBytes"},
            {{"--nicRate=fast"}, "--nicRate"},
            {{"--frobnicate=1"}, "--frobnicate=1: unknown option"},
            {{"--sizes=1KiB", "--sizes=2KiB"}, "--sizes: given twice"},
        };
        for (const auto& [args, expected] : cases)
        {
            const std::string error = ParseError(args);
            NS_TEST_EXPECT_MSG_NE(error.find(expected),
                                  std::string::npos,
                                  args.front() << ": got '" << error << "'");
        }
    }
};

/**
 * \ingroup distributed-training
 * Bandwidths and one point.
 *
 * K = 4, M = 1e6 bytes in 1 ms: algBw = 1e9 B/s, busBw = 1e9 x 2 x 3/4 = 1.5e9 B/s. The flow
 * backend's halving-doubling of M = 4 MiB at K = 4 on the 10 Gb/s star: 4 x 20 us
 * + 1.5 x 4194304 / 1.20506e9 = 5.3009 ms (FlowCollectiveTestSuite derives the rule).
 */
class BenchmarkPointTestCase : public TestCase
{
  public:
    BenchmarkPointTestCase()
        : TestCase("benchmark bandwidths and one flow point by hand")
    {
    }

  private:
    void DoRun() override
    {
        CollectiveBenchmark::Row r;
        r.workers = 4;
        r.bytes = 1000000;
        r.seconds = 1e-3;
        NS_TEST_EXPECT_MSG_EQ_TOL(CollectiveBenchmark::GetAlgBandwidth(r), 1e9, 1, "algBw");
        NS_TEST_EXPECT_MSG_EQ_TOL(CollectiveBenchmark::GetBusBandwidth(r), 1.5e9, 1, "busBw");
        bool help = false;
        const auto s = CollectiveBenchmark::ParseArguments({}, help);
        const auto row = CollectiveBenchmark::Measure(s, 4, 4 << 20, "halving-doubling", "flow");
        NS_TEST_EXPECT_MSG_EQ_TOL(row.seconds, 5.3009e-3, 1e-7, "flow halving-doubling");
        NS_TEST_EXPECT_MSG_EQ(CollectiveBenchmark::IsMeasured(s, 4, 4 << 20, "packet"),
                              true,
                              "packet up to 4 MiB");
        NS_TEST_EXPECT_MSG_EQ(CollectiveBenchmark::IsMeasured(s, 4, 8 << 20, "packet"),
                              false,
                              "not above");
        NS_TEST_EXPECT_MSG_EQ(CollectiveBenchmark::IsMeasured(s, 16, 1024, "packet"),
                              false,
                              "nor above K = 8");
    }
};

/**
 * \ingroup distributed-training
 * The collective benchmark's suite.
 */
class CollectiveBenchmarkTestSuite : public TestSuite
{
  public:
    CollectiveBenchmarkTestSuite()
        : TestSuite("distributed-training-collective-benchmark", UNIT)
    {
        AddTestCase(new BenchmarkArgumentsTestCase, TestCase::QUICK);
        AddTestCase(new BenchmarkHostileTestCase, TestCase::QUICK);
        AddTestCase(new BenchmarkPointTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
CollectiveBenchmarkTestSuite g_collectiveBenchmarkTestSuite;

} // namespace

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricTopology on hand-worked fabrics: sizes, shortest and equal-cost paths, bisection
 * bandwidth (max-flow), per-flow ECMP hashing, placement, JSON topology files and their errors.
 */

#include "training-test-utils.h"

#include "ns3/distributed-training-compat.h"
#include "ns3/fabric-topology.h"
#include "ns3/test.h"
#include "ns3/training-scenario.h"

#include <set>

using namespace ns3;

namespace
{

/// 10 Gbps, 10 us, 1000p links.
FabricTopology::LinkSpec
Spec(const std::string& rate)
{
    FabricTopology::LinkSpec s;
    s.rate = DataRate(rate);
    return s;
}

/**
 * Star, leaf-spine (2:1 oversubscribed) and k = 4 fat-tree: node and link counts, path lengths,
 * number of equal-cost paths ((k/2)^2 between pods) and bisection bandwidth by hand.
 *
 * Star, 2:1 leaf-spine and k=4 fat-tree: sizes, equal-cost paths and bisection bandwidth match the
 * hand-worked values.
 */
class FabricShapesTestCase : public TestCase
{
  public:
    FabricShapesTestCase()
        : TestCase("star, leaf-spine and fat-tree sizes, paths and bisection match by hand")
    {
    }

  private:
    void DoRun() override
    {
        auto star = FabricTopology::Star(4, Spec("10Gbps"));
        NS_TEST_ASSERT_MSG_EQ(star.GetNNodes(), 5, "4 hosts + 1 switch");
        NS_TEST_ASSERT_MSG_EQ(star.GetNLinks(), 8, "4 full-duplex links");
        NS_TEST_ASSERT_MSG_EQ(star.GetEqualCostPaths(0, 3).size(), 1, "one path");
        NS_TEST_ASSERT_MSG_EQ(star.GetEqualCostPaths(0, 3)[0].size(), 2, "host-switch-host");
        // Half the hosts (2) send at 10 Gbps each through their own NIC.
        NS_TEST_ASSERT_MSG_EQ_TOL(star.GetBisectionBandwidth(), 20e9, 1, "2 x 10 Gbps");

        // 2 leaves x 4 hosts at 10 G, 2 spines at 10 G: each leaf 40 G down, 20 G up (2:1).
        auto ls = FabricTopology::LeafSpine(2, 2, 4, Spec("10Gbps"), Spec("10Gbps"));
        NS_TEST_ASSERT_MSG_EQ(ls.GetNHosts(), 8, "2 x 4 hosts");
        NS_TEST_ASSERT_MSG_EQ(ls.GetNLinks(), 2 * (8 + 4), "8 host links + 4 uplinks");
        NS_TEST_ASSERT_MSG_EQ(ls.GetNRacks(), 2, "two racks");
        NS_TEST_ASSERT_MSG_EQ(ls.GetRack(5), 1, "host 5 under leaf 1");
        NS_TEST_ASSERT_MSG_EQ(ls.GetEqualCostPaths(0, 1).size(), 1, "same rack: one path");
        auto cross = ls.GetEqualCostPaths(0, 4);
        NS_TEST_ASSERT_MSG_EQ(cross.size(), 2, "one path per spine");
        NS_TEST_ASSERT_MSG_EQ(cross[0].size(), 4, "host-leaf-spine-leaf-host");
        NS_TEST_ASSERT_MSG_EQ_TOL(ls.GetBisectionBandwidth(), 20e9, 1, "leaf 0's two uplinks");
        auto full = FabricTopology::LeafSpine(2, 2, 4, Spec("10Gbps"), Spec("20Gbps"));
        NS_TEST_ASSERT_MSG_EQ_TOL(full.GetBisectionBandwidth(), 40e9, 1, "1:1: 4 hosts x 10 G");

        auto ft = FabricTopology::FatTree(4, Spec("10Gbps"), Spec("10Gbps"), Spec("10Gbps"));
        NS_TEST_ASSERT_MSG_EQ(ft.GetNHosts(), 16, "k^3/4 hosts");
        NS_TEST_ASSERT_MSG_EQ(ft.GetNNodes(), 16 + 4 + 8 + 8, "hosts, core, agg, edge");
        NS_TEST_ASSERT_MSG_EQ(ft.GetNLinks(), 2 * 48, "16 + 16 + 16 links");
        NS_TEST_ASSERT_MSG_EQ(ft.GetEqualCostPaths(0, 1).size(), 1, "same edge switch");
        NS_TEST_ASSERT_MSG_EQ(ft.GetEqualCostPaths(0, 2).size(), 2, "same pod: k/2 paths");
        auto pods = ft.GetEqualCostPaths(0, 15);
        NS_TEST_ASSERT_MSG_EQ(pods.size(), 4, "other pod: (k/2)^2 paths");
        NS_TEST_ASSERT_MSG_EQ(pods[0].size(), 6, "host-edge-agg-core-agg-edge-host");
        NS_TEST_ASSERT_MSG_EQ(ft.GetDistance(ft.GetHostNode(0), ft.GetHostNode(15)), 6, "hops");
        // Full bisection: 8 hosts x 10 G.
        NS_TEST_ASSERT_MSG_EQ_TOL(ft.GetBisectionBandwidth(), 80e9, 1, "k^3/8 x 10 G");
        auto ft16 = FabricTopology::FatTree(16, Spec("10Gbps"), Spec("10Gbps"), Spec("10Gbps"));
        NS_TEST_ASSERT_MSG_EQ(ft16.GetNHosts(), 1024, "k = 16: 1,024 hosts");
        NS_TEST_ASSERT_MSG_EQ(ft16.GetEqualCostPaths(0, 1023).size(), 64, "(k/2)^2 paths");
    }
};

/**
 * Per-flow ECMP: a flow's path is one of the equal-cost paths, the same for the same 5-tuple and
 * seed, and many flows spread over both spines about evenly; two flows can collide on one uplink.
 *
 * Per-flow ECMP: the same 5-tuple and seed give the same equal-cost path, 1,000 flows split about
 * evenly over two spines, collisions exist.
 */
class EcmpHashTestCase : public TestCase
{
  public:
    EcmpHashTestCase()
        : TestCase("per-flow ECMP hash is stable per seed and splits flows evenly")
    {
    }

  private:
    void DoRun() override
    {
        auto ls = FabricTopology::LeafSpine(2, 2, 4, Spec("10Gbps"), Spec("10Gbps"));
        ls.SetEcmpSeed(7);
        auto paths = ls.GetEqualCostPaths(0, 4);
        std::set<std::vector<uint32_t>> valid(paths.begin(), paths.end());
        uint32_t viaSpine0 = 0;
        const uint32_t n = 1000;
        for (uint32_t i = 0; i < n; ++i)
        {
            FabricTopology::FlowKey key{FabricTopology::GetHostAddress(0),
                                        FabricTopology::GetHostAddress(4),
                                        static_cast<uint16_t>(49153 + i),
                                        5000,
                                        6};
            auto p = ls.GetPath(0, 4, key);
            NS_TEST_ASSERT_MSG_EQ(valid.count(p), 1, "an equal-cost path");
            NS_TEST_ASSERT_MSG_EQ((ls.GetPath(0, 4, key) == p), true, "deterministic");
            viaSpine0 += ls.GetNode(ls.GetLink(p[1]).to).name == "spine0";
        }
        // Binomial(1000, 1/2): the standard deviation is 15.8; 6 sigma either side.
        NS_TEST_ASSERT_MSG_GT(viaSpine0, 405, "spine 0 not starved");
        NS_TEST_ASSERT_MSG_LT(viaSpine0, 595, "spine 1 not starved");
        // Changing the seed changes the choice of some flows (the hash depends on it).
        FabricTopology::FlowKey key{FabricTopology::GetHostAddress(0),
                                    FabricTopology::GetHostAddress(4),
                                    49153,
                                    5000,
                                    6};
        uint32_t differs = 0;
        for (uint64_t seed = 0; seed < 64; ++seed)
        {
            differs += FabricTopology::EcmpHash(key, seed, 8) % 2
                       != FabricTopology::EcmpHash(key, 7, 8) % 2;
        }
        NS_TEST_ASSERT_MSG_GT(differs, 10, "the seed matters");
    }
};

/**
 * Placement: packed, spread, random (seeded) and explicit on 2 racks of 4 hosts.
 *
 * Placement: packed fills rack 0 first, spread alternates racks, random is seeded, explicit takes
 * the list; bad lists are rejected by name.
 */
class PlacementTestCase : public TestCase
{
  public:
    PlacementTestCase()
        : TestCase("packed, spread, random and explicit placement, bad lists rejected")
    {
    }

  private:
    void DoRun() override
    {
        auto ls = FabricTopology::LeafSpine(2, 2, 4, Spec("10Gbps"), Spec("10Gbps"));
        auto packed = ls.Place("--placement", "packed", 4, 1);
        NS_TEST_ASSERT_MSG_EQ((packed == std::vector<uint32_t>{0, 1, 2, 3}), true, "rack 0");
        auto spread = ls.Place("--placement", "spread", 4, 1);
        NS_TEST_ASSERT_MSG_EQ((spread == std::vector<uint32_t>{0, 4, 1, 5}), true, "alternate");
        auto r1 = ls.Place("--placement", "random", 8, 3);
        auto r2 = ls.Place("--placement", "random", 8, 3);
        NS_TEST_ASSERT_MSG_EQ((r1 == r2), true, "seeded");
        NS_TEST_ASSERT_MSG_EQ(std::set<uint32_t>(r1.begin(), r1.end()).size(), 8, "a permutation");
        auto ex = ls.Place("--placement", "7,0,3", 3, 1);
        NS_TEST_ASSERT_MSG_EQ((ex == std::vector<uint32_t>{7, 0, 3}), true, "explicit");
        NS_TEST_ASSERT_MSG_EQ(tests::ThrowsInputError(
                                  [&]
                                  {
                                      ls.Place("--placement", "0,0,1", 3, 1);
                                  },
                                  {"--placement", "bad host '0'"}),
                              true,
                              "duplicate host");
        NS_TEST_ASSERT_MSG_EQ(tests::ThrowsInputError(
                                  [&]
                                  {
                                      ls.Place("--placement", "0,1", 3, 1);
                                  },
                                  {"--placement", "places 2 roles"}),
                              true,
                              "too short");
        NS_TEST_ASSERT_MSG_EQ(tests::ThrowsInputError(
                                  [&]
                                  {
                                      ls.Place("--placement", "packed", 9, 1);
                                  },
                                  {"--placement", "9 workers and servers on 8 hosts"}),
                              true,
                              "too many roles");
        NS_TEST_ASSERT_MSG_EQ(tests::ThrowsInputError(
                                  [&]
                                  {
                                      ls.Place("--placement", "dense", 2, 1);
                                  },
                                  {"--placement", "bad host 'dense'", "packed, spread, random"}),
                              true,
                              "unknown policy");
    }
};

/**
 * A scenario's fabric: star hosts named by role; leaf-spine sized for the roles; errors.
 *
 * A scenario's fabric: the star names links as before (worker0->switch), a leaf-spine gets enough
 * hosts, spread placement puts the server in rack 1.
 */
class ScenarioFabricTestCase : public TestCase
{
  public:
    ScenarioFabricTestCase()
        : TestCase("scenario builds its fabric, link names and placement")
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s;
        s.workers = 3;
        auto star = s.BuildFabric();
        NS_TEST_ASSERT_MSG_EQ(star.GetNHosts(), 4, "3 workers + 1 server");
        NS_TEST_ASSERT_MSG_EQ(star.GetLink(star.GetHostUplink(0)).name,
                              "worker0->switch",
                              "role names");
        NS_TEST_ASSERT_MSG_EQ(star.GetLink(star.GetHostDownlink(3)).name,
                              "switch->server0",
                              "role names");
        s.topology = "leafspine";
        s.leaves = 2;
        s.placement = "spread";
        auto ls = s.BuildFabric();
        NS_TEST_ASSERT_MSG_EQ(ls.GetNHosts(), 4, "2 leaves x ceil(4/2) hosts");
        NS_TEST_ASSERT_MSG_EQ(ls.GetRack(ls.GetRoleHost(3)), 1, "server in rack 1");
        s.topology = "fattree";
        s.fatTreeK = 3;
        NS_TEST_ASSERT_MSG_EQ(tests::ThrowsInputError(
                                  [&]
                                  {
                                      s.ValidateFabric();
                                  },
                                  {"--fatTreeK"}),
                              true,
                              "odd radix");
        s.fatTreeK = 4;
        s.workers = 16;
        NS_TEST_ASSERT_MSG_EQ(tests::ThrowsInputError(
                                  [&]
                                  {
                                      s.ValidateFabric();
                                  },
                                  {"--placement", "17 workers and servers"}),
                              true,
                              "too many roles for 16 hosts");
        s.topology = "mesh";
        NS_TEST_ASSERT_MSG_EQ(tests::ThrowsInputError(
                                  [&]
                                  {
                                      s.ValidateFabric();
                                  },
                                  {"--topology", "'mesh'"}),
                              true,
                              "unknown topology");
    }
};

/**
 * A topology file: a small two-rack fabric, and each kind of error named by file and path.
 *
 * A JSON topology: two racks under one core parse with per-link rates; every error names the file
 * and the JSON path.
 */
class JsonTopologyTestCase : public TestCase
{
  public:
    JsonTopologyTestCase()
        : TestCase("JSON topology parses per-link rates, errors name file and path")
    {
    }

  private:
    void DoRun() override
    {
        const std::string good = R"({
          "defaults": {"rate": "10Gbps", "delay": "2us"},
          "nodes": [{"name": "a", "type": "host"}, {"name": "b", "type": "host"},
                    {"name": "t0"}, {"name": "t1"}, {"name": "core"}],
          "links": [{"from": "a", "to": "t0"}, {"from": "b", "to": "t1"},
                    {"from": "t0", "to": "core", "rate": "5Gbps"},
                    {"from": "t1", "to": "core", "rate": "40Gbps", "queue": "100p"}]})";
        auto t = FabricTopology::FromJsonText(good, "f.json");
        NS_TEST_ASSERT_MSG_EQ(t.GetNHosts(), 2, "two hosts");
        NS_TEST_ASSERT_MSG_EQ(t.GetNRacks(), 2, "two racks");
        auto paths = t.GetEqualCostPaths(0, 1);
        NS_TEST_ASSERT_MSG_EQ(paths.size(), 1, "one path");
        NS_TEST_ASSERT_MSG_EQ_TOL(t.GetPathDelay(paths[0]), 8e-6, 1e-12, "4 links x 2 us");
        NS_TEST_ASSERT_MSG_EQ_TOL(t.GetBisectionBandwidth(), 5e9, 1, "the 5 G link");
        NS_TEST_ASSERT_MSG_EQ(t.GetLink(4).spec.rate.GetBitRate(), 5e9, "per-link rate");

        const std::vector<std::pair<std::string, std::vector<std::string>>> bad{
            {"{", {"f.json", "truncated JSON"}},
            {"{] ", {"f.json", "not valid JSON"}},
            {R"({"nodes": [], "nodes": []})", {"f.json", "duplicate key \"nodes\""}},
            {R"({"nodes": []})", {"f.json: nodes: empty list"}},
            {R"({"nodes": [{"name": "a", "type": "host"}], "links": [{"from": "a", "to": "x"}]})",
             {"f.json", "links[0].to", "unknown node 'x'"}},
            {R"({"nodes": [{"name": "a", "type": "host"}, {"name": "s"}],
                 "links": [{"from": "a", "to": "s", "rate": "fast"}]})",
             {"f.json: links[0].rate", "cannot parse rate 'fast'"}},
            {R"({"nodes": [{"name": "a", "type": "router"}], "links": [{"from": "a", "to": "a"}]})",
             {"f.json: nodes[0].type: unknown value \"router\"", "host or switch"}},
            {R"({"nodes": [{"name": "a", "type": "host"}, {"name": "s"}, {"name": "t"}],
                 "links": [{"from": "a", "to": "s"}]})",
             {"f.json", "node 't' is not connected"}},
            {R"({"nodes": [{"name": "a", "type": "host"}, {"name": "s"}],
                 "links": [{"from": "a", "to": "s", "speed": "1Gbps"}]})",
             {"f.json: links[0].speed: unknown field", "one of from, to, rate, delay, queue"}},
            {R"({"nodes": [{"name": "a", "type": "host"}, {"name": "s"}, {"name": "t"}],
                 "links": [{"from": "a", "to": "s"}, {"from": "a", "to": "t"}]})",
             {"f.json", "host 'a' has 2 links"}},
        };
        for (const auto& entry : bad)
        {
            // Named references, not a structured binding: C++17 lambdas cannot capture those
            // (clang refuses; g++ accepts it as an extension).
            const auto& text = entry.first;
            const auto& words = entry.second;
            NS_TEST_ASSERT_MSG_EQ(tests::ThrowsInputError(
                                      [&]
                                      {
                                          FabricTopology::FromJsonText(text, "f.json");
                                      },
                                      words),
                                  true,
                                  "rejected with a message naming the file and path: " << text);
        }
        // The shipped example: two racks of two hosts, two 5 G spines (2:1).
        auto file = FabricTopology::FromJsonFile(std::string(DT_SOURCE_DIR)
                                                 + "/test/data/topology-two-racks.json");
        NS_TEST_ASSERT_MSG_EQ(file.GetNRacks(), 2, "two racks");
        NS_TEST_ASSERT_MSG_EQ(file.GetEqualCostPaths(0, 3).size(), 2, "one path per spine");
        NS_TEST_ASSERT_MSG_EQ_TOL(file.GetBisectionBandwidth(), 10e9, 1, "2 x 5 G uplinks");
        NS_TEST_ASSERT_MSG_EQ(tests::ThrowsInputError(
                                  []
                                  {
                                      FabricTopology::FromJsonFile("/nonexistent/t.json");
                                  },
                                  {"/nonexistent/t.json", "no such file"}),
                              true,
                              "missing file");
    }
};

/// The suite.
class FabricTopologyTestSuite : public TestSuite
{
  public:
    FabricTopologyTestSuite()
        : TestSuite("distributed-training-fabric-topology", Type::UNIT)
    {
        AddTestCase(new FabricShapesTestCase, DT_TEST_QUICK);
        AddTestCase(new EcmpHashTestCase, DT_TEST_QUICK);
        AddTestCase(new PlacementTestCase, DT_TEST_QUICK);
        AddTestCase(new ScenarioFabricTestCase, DT_TEST_QUICK);
        AddTestCase(new JsonTopologyTestCase, DT_TEST_QUICK);
    }
};

FabricTopologyTestSuite g_fabricTopologyTestSuite; //!< the suite instance

} // namespace

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The AllReduce schedules (model/protocol/allreduce-schedule.h) executed as dataflow on
 * symbolic data: every node ends with every node's contribution to every byte exactly once,
 * whatever order the ready messages go in and the messages arrive in; bytes and messages per
 * node against the algorithms' published counts; the two trees of the double binary tree.
 */

#include "ns3/allreduce-schedule.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/test.h"
#include "ns3/training-input-error.h"

#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using Schedule = AllReduceSchedule;

/// A byte's symbolic value: the sum of the contributions in it, as 2^n and as a random tag of
/// each node n, so that a missing or a doubled contribution changes at least one of them.
struct Value
{
    uint64_t bits{0}; //!< sum of 2^n
    uint64_t hash{0}; //!< sum of the nodes' tags (mod 2^64)
};

/// One message on its way: the sender's bytes as they were when it was sent.
struct InFlight
{
    uint32_t from;             //!< sender
    uint32_t to;               //!< receiver
    uint32_t tag;              //!< Send::tag
    uint64_t offset;           //!< first byte
    std::vector<Value> values; //!< the bytes
};

/**
 * The plans run as dataflow: at each step a random ready send goes, or a random message in
 * flight arrives (reduced into or replacing the receiver's bytes as its Receive says).
 */
class Dataflow
{
  public:
    /**
     * \param plans every node's plan
     * \param bytes M
     * \param seed the random order's seed
     */
    Dataflow(const std::vector<Schedule::NodePlan>& plans, uint64_t bytes, uint32_t seed);
    /** \return "" if every node ends with every contribution exactly once, else what went wrong */
    std::string Run();

  private:
    /// Send the ready message at ready[pick].
    void Send(std::size_t pick);
    /**
     * \param m a message arriving
     * \return "" or what went wrong
     */
    std::string Deliver(const InFlight& m);
    /** \return "" if every node sent everything and holds every contribution once */
    std::string Check() const;

    const std::vector<Schedule::NodePlan>& m_plans;         //!< the plans
    uint32_t m_k;                                           //!< nodes
    uint64_t m_bytes;                                       //!< M
    std::mt19937_64 m_rng;                                  //!< the order
    std::vector<std::vector<Value>> m_data;                 //!< each node's bytes
    Value m_all;                                            //!< every contribution once
    std::vector<std::vector<bool>> m_arrived;               //!< receives done
    std::vector<std::vector<bool>> m_sent;                  //!< sends done
    std::vector<std::vector<std::size_t>> m_waiting;        //!< receives a send still waits for
    std::vector<std::vector<std::vector<uint32_t>>> m_next; //!< the sends after a receive
    std::vector<std::pair<uint32_t, uint32_t>> m_ready;     //!< (node, send) ready to go
    std::vector<InFlight> m_flying;                         //!< messages in flight
};

Dataflow::Dataflow(const std::vector<Schedule::NodePlan>& plans, uint64_t bytes, uint32_t seed)
    : m_plans(plans),
      m_k(static_cast<uint32_t>(plans.size())),
      m_bytes(bytes),
      m_rng(seed),
      m_data(m_k),
      m_arrived(m_k),
      m_sent(m_k),
      m_waiting(m_k),
      m_next(m_k)
{
    for (uint32_t n = 0; n < m_k; ++n)
    {
        const uint64_t tag = m_rng();
        m_data[n].assign(bytes, {uint64_t{1} << n, tag});
        m_all.bits += uint64_t{1} << n;
        m_all.hash += tag;
        m_arrived[n].assign(plans[n].receives.size(), false);
        m_sent[n].assign(plans[n].sends.size(), false);
        m_next[n].resize(plans[n].receives.size());
        for (uint32_t s = 0; s < plans[n].sends.size(); ++s)
        {
            m_waiting[n].push_back(plans[n].sends[s].after.size());
            for (uint32_t r : plans[n].sends[s].after)
            {
                m_next[n][r].push_back(s);
            }
            if (plans[n].sends[s].after.empty())
            {
                m_ready.emplace_back(n, s);
            }
        }
    }
}

std::string
Dataflow::Run()
{
    while (!m_ready.empty() || !m_flying.empty())
    {
        const uint64_t pick = m_rng() % (m_ready.size() + m_flying.size());
        if (pick < m_ready.size())
        {
            Send(pick);
            continue;
        }
        const InFlight m = std::move(m_flying[pick - m_ready.size()]);
        m_flying[pick - m_ready.size()] = std::move(m_flying.back());
        m_flying.pop_back();
        const std::string error = Deliver(m);
        if (!error.empty())
        {
            return error;
        }
    }
    return Check();
}

void
Dataflow::Send(std::size_t pick)
{
    const auto [n, s] = m_ready[pick];
    m_ready[pick] = m_ready.back();
    m_ready.pop_back();
    const Schedule::Send& send = m_plans[n].sends[s];
    m_sent[n][s] = true;
    m_flying.push_back(
        {n,
         send.peer,
         send.tag,
         send.offset,
         {m_data[n].begin() + send.offset, m_data[n].begin() + send.offset + send.bytes}});
}

std::string
Dataflow::Deliver(const InFlight& m)
{
    const auto& receives = m_plans[m.to].receives;
    uint32_t r = 0;
    while (r < receives.size() && (receives[r].peer != m.from || receives[r].tag != m.tag))
    {
        ++r;
    }
    if (r == receives.size() || m_arrived[m.to][r])
    {
        return "a message from " + std::to_string(m.from) + " to " + std::to_string(m.to)
               + " that the receiver does not expect (or expects once)";
    }
    const Schedule::Receive& rec = receives[r];
    if (rec.offset != m.offset || rec.bytes != m.values.size())
    {
        return "sender and receiver disagree on a message's bytes";
    }
    m_arrived[m.to][r] = true;
    for (uint32_t s : m_next[m.to][r])
    {
        if (--m_waiting[m.to][s] == 0)
        {
            m_ready.emplace_back(m.to, s);
        }
    }
    for (uint64_t i = 0; i < rec.bytes; ++i)
    {
        Value& v = m_data[m.to][rec.offset + i];
        v = rec.reduce ? Value{v.bits + m.values[i].bits, v.hash + m.values[i].hash} : m.values[i];
    }
    return "";
}

std::string
Dataflow::Check() const
{
    for (uint32_t n = 0; n < m_k; ++n)
    {
        for (uint32_t s = 0; s < m_sent[n].size(); ++s)
        {
            if (!m_sent[n][s])
            {
                return "node " + std::to_string(n) + " never sends its message " + std::to_string(s)
                       + " (deadlock)";
            }
        }
        for (uint64_t i = 0; i < m_bytes; ++i)
        {
            if (m_data[n][i].bits != m_all.bits || m_data[n][i].hash != m_all.hash)
            {
                return "node " + std::to_string(n) + " byte " + std::to_string(i)
                       + " does not hold every contribution exactly once";
            }
        }
    }
    return "";
}

/**
 * Run the plans as dataflow (Dataflow).
 * \return "" if every node ends with every contribution exactly once, else what went wrong
 */
std::string
Execute(const std::vector<Schedule::NodePlan>& plans, uint64_t bytes, uint32_t seed)
{
    return Dataflow(plans, bytes, seed).Run();
}

/// \return bytes and messages node n sends
std::pair<uint64_t, uint64_t>
SentBy(const Schedule::NodePlan& plan)
{
    uint64_t bytes = 0;
    for (const auto& s : plan.sends)
    {
        bytes += s.bytes;
    }
    return {bytes, plan.sends.size()};
}

/**
 * Every algorithm, K = 1..17 and 24, 32, buffers of 1 byte, fewer bytes than nodes, and a few
 * hundred bytes, chunks of 1, 5 and 64 bytes, three random interleavings each: every node
 * ends with the sum of all K contributions in every byte, none missing or counted twice, and
 * no send waits forever.
 */
class EveryNodeGetsTheSumTestCase : public TestCase
{
  public:
    EveryNodeGetsTheSumTestCase()
        : TestCase("every node ends with every contribution once, in any order")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<uint32_t> ks;
        for (uint32_t k = 1; k <= 17; ++k)
        {
            ks.push_back(k);
        }
        ks.push_back(24);
        ks.push_back(32);
        for (int a = Schedule::RING; a <= Schedule::DOUBLE_BINARY_TREE; ++a)
        {
            const auto alg = static_cast<Schedule::Algorithm>(a);
            for (uint32_t k : ks)
            {
                for (uint64_t bytes : {uint64_t{1}, uint64_t{k / 2 + 1}, uint64_t{301}})
                {
                    for (uint64_t chunk : {uint64_t{1}, uint64_t{5}, uint64_t{64}})
                    {
                        const auto plans = Schedule::PlanAll(alg, k, bytes, chunk);
                        for (uint32_t seed = 1; seed <= 3; ++seed)
                        {
                            NS_TEST_ASSERT_MSG_EQ(Execute(plans, bytes, seed * 7919 + k),
                                                  "",
                                                  Schedule::GetName(alg)
                                                      << " K=" << k << " M=" << bytes
                                                      << " chunk=" << chunk);
                        }
                    }
                }
            }
        }
    }
};

/**
 * Bytes and messages per node, M = 960 (divisible by every K used):
 * - ring: 2 (K-1) messages of M/K, 2 (K-1)/K M bytes; K = 4: 6 messages, 1440 bytes;
 * - halving-doubling at K = 8: 2 log2 8 = 6 messages, 2 (7/8) 960 = 1680 bytes;
 *   hand-worked at K = 4: node 0 sends [480, 960) to 2, [240, 480) to 1, then [0, 240) to 1
 *   and [0, 480) to 2: 480 + 240 + 240 + 480 = 1440 bytes;
 * - halving-doubling at K = 6 (4 + 2 paired): nodes 0 and 2 send their whole 960 bytes once
 *   and nothing else; node 1 sends 2 (3/4) 960 + 960 = 2400;
 * - tree at K = 8, chunk 60: each half (480 bytes) is 8 chunks; every node sends at most
 *   3 chunks per chunk index and tree (up + two down) + 1 (up in the other tree): at most
 *   2 M = 1920 bytes, and the trees' roots' single child gets both halves from above.
 */
class BytesPerNodeTestCase : public TestCase
{
  public:
    BytesPerNodeTestCase()
        : TestCase("bytes and messages per node match the algorithms counts")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t m = 960;
        for (uint32_t k : {2U, 3U, 4U, 5U, 8U, 12U})
        {
            const auto plans = Schedule::PlanAll(Schedule::RING, k, m, 1);
            for (uint32_t n = 0; n < k; ++n)
            {
                NS_TEST_EXPECT_MSG_EQ(SentBy(plans[n]).first, 2 * (k - 1) * m / k, "ring bytes");
                NS_TEST_EXPECT_MSG_EQ(SentBy(plans[n]).second, 2 * (k - 1), "ring messages");
            }
        }
        const auto hd8 = Schedule::PlanAll(Schedule::HALVING_DOUBLING, 8, m, 1);
        for (uint32_t n = 0; n < 8; ++n)
        {
            NS_TEST_EXPECT_MSG_EQ(SentBy(hd8[n]).first, 1680, "halving-doubling bytes, K=8");
            NS_TEST_EXPECT_MSG_EQ(SentBy(hd8[n]).second, 6, "2 log2 K messages");
        }
        const auto hd4 = Schedule::PlanAll(Schedule::HALVING_DOUBLING, 4, m, 1);
        const uint32_t peers[] = {2, 1, 1, 2};
        const uint64_t offsets[] = {480, 240, 0, 0};
        const uint64_t lengths[] = {480, 240, 240, 480};
        for (int i = 0; i < 4; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(hd4[0].sends[i].peer, peers[i], "node 0's partner");
            NS_TEST_EXPECT_MSG_EQ(hd4[0].sends[i].offset, offsets[i], "its range");
            NS_TEST_EXPECT_MSG_EQ(hd4[0].sends[i].bytes, lengths[i], "its range");
        }
        const auto hd6 = Schedule::PlanAll(Schedule::HALVING_DOUBLING, 6, m, 1);
        NS_TEST_EXPECT_MSG_EQ(SentBy(hd6[0]).first, m, "a paired-off node sends its vector");
        NS_TEST_EXPECT_MSG_EQ(SentBy(hd6[2]).second, 1, "and nothing else");
        NS_TEST_EXPECT_MSG_EQ(SentBy(hd6[1]).first, 2 * 3 * m / 4 + m, "its partner");
        const auto tree = Schedule::PlanAll(Schedule::DOUBLE_BINARY_TREE, 8, m, 60);
        for (uint32_t n = 0; n < 8; ++n)
        {
            NS_TEST_EXPECT_MSG_LT_OR_EQ(SentBy(tree[n]).first, 2 * m, "tree bytes");
            for (const auto& s : tree[n].sends)
            {
                NS_TEST_EXPECT_MSG_EQ(s.bytes, 60, "chunks of 60 bytes");
            }
        }
    }
};

/**
 * The two trees, K = 2..40: each has one root and every other node reaches it through its
 * parents; a node's children name it as their parent. The first tree's inner nodes are even
 * ranks; with the mirror (K even) no node is inner in both trees, with the shift (K odd) only
 * node 0 is. Hand-worked at K = 6: first tree 0 -> 4 -> {2, 5}, 2 -> {1, 3}; second
 * (mirror, n -> 5 - n) 5 -> 1 -> {3, 0}, 3 -> {4, 2}.
 */
class TwoTreesTestCase : public TestCase
{
  public:
    TwoTreesTestCase()
        : TestCase("the double binary tree, two spanning trees, inner nodes in one only")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t k = 2; k <= 40; ++k)
        {
            std::vector<int> inner(k, 0);
            for (bool second : {false, true})
            {
                uint32_t roots = 0;
                for (uint32_t n = 0; n < k; ++n)
                {
                    const auto links = Schedule::GetTree(n, k, second);
                    roots += links.parent < 0;
                    inner[n] += !links.children.empty();
                    NS_TEST_ASSERT_MSG_LT_OR_EQ(links.children.size(), 2, "binary");
                    for (uint32_t c : links.children)
                    {
                        NS_TEST_ASSERT_MSG_EQ(Schedule::GetTree(c, k, second).parent,
                                              int64_t{n},
                                              "child's parent, K=" << k);
                    }
                    uint32_t hops = 0;
                    for (int64_t p = links.parent; p >= 0 && hops <= k; ++hops)
                    {
                        p = Schedule::GetTree(static_cast<uint32_t>(p), k, second).parent;
                    }
                    NS_TEST_ASSERT_MSG_LT_OR_EQ(hops, k, "reaches the root, K=" << k);
                }
                NS_TEST_ASSERT_MSG_EQ(roots, 1, "one root, K=" << k);
            }
            for (uint32_t n = 0; n < k; ++n)
            {
                const bool exempt = k % 2 == 1 && n == 0;
                const bool once = inner[n] <= 1 || exempt;
                NS_TEST_EXPECT_MSG_EQ(once, true, "inner twice, K=" << k);
            }
        }
        auto children = [](uint32_t n, bool second)
        {
            return Schedule::GetTree(n, 6, second).children;
        };
        NS_TEST_EXPECT_MSG_EQ((children(0, false) == std::vector<uint32_t>{4}), true, "0 -> 4");
        NS_TEST_EXPECT_MSG_EQ((children(4, false) == std::vector<uint32_t>{2, 5}), true, "4");
        NS_TEST_EXPECT_MSG_EQ((children(2, false) == std::vector<uint32_t>{1, 3}), true, "2");
        NS_TEST_EXPECT_MSG_EQ((children(5, true) == std::vector<uint32_t>{1}), true, "5 -> 1");
        NS_TEST_EXPECT_MSG_EQ((children(1, true) == std::vector<uint32_t>{3, 0}), true, "1");
        NS_TEST_EXPECT_MSG_EQ((children(3, true) == std::vector<uint32_t>{4, 2}), true, "3");
    }
};

/// \param k K \param g workers per group \return each node's group: w / g
std::vector<uint32_t>
Consecutive(uint32_t k, uint32_t g)
{
    std::vector<uint32_t> groups;
    for (uint32_t w = 0; w < k; ++w)
    {
        groups.push_back(w / g);
    }
    return groups;
}

/**
 * The hierarchical ring: every node ends with the sum, for G x g = 2x2, 2x3, 3x2, 2x4, 4x2,
 * 3x4 and groups that interleave (node w in group w mod 2), M = 1, 5 and 301, three
 * interleavings each. Bytes by hand, M = 960, K = 4 as 2 groups of 2: node 0 reduce-scatters
 * 480 bytes to node 1, sends the two 240-byte halves of its shard [480, 960) to node 2 (the
 * reduce and the all-gather across groups), then 480 to node 1: 4 messages, 1440 bytes
 * = 2 (g-1)/g M + 2 (G-1)/G M/g = 960 + 480. K = 8 as 2x4: 3 + 2 + 3 messages, 2 (3/4) 960
 * + 2 (1/2) 240 = 1680 bytes; as 4x2: 1 + 6 + 1 messages, 960 + 2 (3/4) 480 = 1680.
 */
class HierarchicalTestCase : public TestCase
{
  public:
    HierarchicalTestCase()
        : TestCase("hierarchical ring, every node gets the sum, bytes per node by hand")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<std::vector<uint32_t>> layouts;
        for (auto [big, g] : {std::pair{2U, 2U}, {2U, 3U}, {3U, 2U}, {2U, 4U}, {4U, 2U}, {3U, 4U}})
        {
            layouts.push_back(Consecutive(big * g, g));
        }
        layouts.push_back({0, 1, 0, 1, 0, 1});
        for (const auto& groups : layouts)
        {
            const auto k = static_cast<uint32_t>(groups.size());
            for (uint64_t bytes : {uint64_t{1}, uint64_t{5}, uint64_t{301}})
            {
                const auto plans = Schedule::PlanAll(Schedule::HIERARCHICAL, k, bytes, 1, groups);
                for (uint32_t seed = 1; seed <= 3; ++seed)
                {
                    NS_TEST_ASSERT_MSG_EQ(Execute(plans, bytes, seed * 7919 + k),
                                          "",
                                          "hierarchical K=" << k << " M=" << bytes);
                }
            }
        }
        const uint64_t m = 960;
        const auto four = Schedule::PlanAll(Schedule::HIERARCHICAL, 4, m, 1, Consecutive(4, 2));
        const uint32_t peers[] = {1, 2, 2, 1};
        const uint64_t offsets[] = {0, 480, 720, 480};
        const uint64_t lengths[] = {480, 240, 240, 480};
        for (int i = 0; i < 4; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(four[0].sends[i].peer, peers[i], "node 0's peer");
            NS_TEST_EXPECT_MSG_EQ(four[0].sends[i].offset, offsets[i], "its range");
            NS_TEST_EXPECT_MSG_EQ(four[0].sends[i].bytes, lengths[i], "its range");
        }
        for (uint32_t g : {4U, 2U})
        {
            const auto plans
                = Schedule::PlanAll(Schedule::HIERARCHICAL, 8, m, 1, Consecutive(8, g));
            for (uint32_t n = 0; n < 8; ++n)
            {
                NS_TEST_EXPECT_MSG_EQ(SentBy(plans[n]).first, 1680, "bytes, K=8, g=" << g);
                NS_TEST_EXPECT_MSG_EQ(SentBy(plans[n]).second, 8, "messages, K=8, g=" << g);
            }
        }
    }
};

/// Names round-trip; K = 0, M = 0 and a zero chunk are refused with a message.
class NamesAndLimitsTestCase : public TestCase
{
  public:
    NamesAndLimitsTestCase()
        : TestCase("collective names round-trip, zero workers, bytes or chunk refused")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string& name : Schedule::GetNames())
        {
            Schedule::Algorithm a;
            NS_TEST_EXPECT_MSG_EQ(Schedule::FromName(name, a), true, name);
            NS_TEST_EXPECT_MSG_EQ(Schedule::GetName(a), name, "round trip");
        }
        Schedule::Algorithm a;
        NS_TEST_EXPECT_MSG_EQ(Schedule::FromName("butterfly", a), false, "unknown name");

        struct Limits
        {
            uint32_t k;     //!< workers
            uint64_t m;     //!< bytes
            uint64_t chunk; //!< chunk bytes
        };

        for (const Limits& l : {Limits{0, 8, 1}, Limits{4, 0, 1}, Limits{4, 8, 0}})
        {
            bool refused = false;
            try
            {
                Schedule::PlanAll(Schedule::RING, l.k, l.m, l.chunk);
            }
            catch (const TrainingInputError&)
            {
                refused = true;
            }
            NS_TEST_EXPECT_MSG_EQ(refused,
                                  true,
                                  "K=" << l.k << " M=" << l.m << " chunk=" << l.chunk);
        }
        // The nccl preset has no plan; hierarchical groups must be equal, >= 2 of >= 2 nodes.
        const std::vector<std::vector<uint32_t>> badGroups{{0, 0, 0, 0},
                                                           {0, 1, 2, 3},
                                                           {0, 0, 0, 1, 1, 1, 2, 2},
                                                           {0, 0, 2, 2},
                                                           {0, 0, 1}};
        for (const auto& groups : badGroups)
        {
            bool refused = false;
            try
            {
                Schedule::PlanAll(Schedule::HIERARCHICAL, 4, 8, 1, groups);
            }
            catch (const TrainingInputError&)
            {
                refused = true;
            }
            NS_TEST_EXPECT_MSG_EQ(refused, true, "groups of " << groups.size() << " nodes");
        }
        bool refused = false;
        try
        {
            Schedule::PlanAll(Schedule::NCCL, 4, 8, 1);
        }
        catch (const TrainingInputError&)
        {
            refused = true;
        }
        NS_TEST_EXPECT_MSG_EQ(refused, true, "nccl is a preset");
    }
};

/// The suite.
class AllReduceScheduleTestSuite : public TestSuite
{
  public:
    AllReduceScheduleTestSuite()
        : TestSuite("distributed-training-allreduce-schedule", Type::UNIT)
    {
        AddTestCase(new EveryNodeGetsTheSumTestCase, DT_TEST_QUICK);
        AddTestCase(new BytesPerNodeTestCase, DT_TEST_QUICK);
        AddTestCase(new TwoTreesTestCase, DT_TEST_QUICK);
        AddTestCase(new HierarchicalTestCase, DT_TEST_QUICK);
        AddTestCase(new NamesAndLimitsTestCase, DT_TEST_QUICK);
    }
};

/// The suite instance.
AllReduceScheduleTestSuite g_allReduceScheduleTestSuite;

} // namespace

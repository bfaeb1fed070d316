/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "allreduce-schedule.h"

#include "ns3/training-input-error.h"

#include <algorithm>
#include <map>
#include <utility>

namespace ns3
{

namespace
{

/// Option values, in enum order.
const char* const kNames[] = {"ring", "halving-doubling", "tree", "hierarchical", "nccl"};

/// \param x > 0 \return the largest power of two <= x
uint32_t
FloorPowerOfTwo(uint32_t x)
{
    uint32_t p = 1;
    while (p <= x / 2)
    {
        p *= 2;
    }
    return p;
}

/// \param id a message id, or -1 \return the dependency list it makes
std::vector<uint32_t>
After(int64_t id)
{
    return id < 0 ? std::vector<uint32_t>{} : std::vector<uint32_t>{static_cast<uint32_t>(id)};
}

/// \param links the tree \param k K \return the nodes, parents before children
std::vector<uint32_t>
TopDown(const std::vector<AllReduceSchedule::TreeLinks>& links, uint32_t k)
{
    std::vector<uint32_t> order;
    for (uint32_t n = 0; n < k; ++n)
    {
        if (links[n].parent < 0)
        {
            order.push_back(n);
        }
    }
    for (std::size_t i = 0; i < order.size(); ++i)
    {
        for (uint32_t c : links[order[i]].children)
        {
            order.push_back(c);
        }
    }
    return order;
}

} // namespace

/**
 * Builds every node's plan from one list of messages, so that both ends of a message agree on
 * its tag and a message's dependencies are receives of its sender.
 */
class AllReduceSchedule::Builder
{
  public:
    /// \param workers K
    explicit Builder(uint32_t workers)
        : m_plans(workers)
    {
    }

    /**
     * \brief Add a message.
     * \param from sender \param to receiver \param offset first byte \param bytes length
     * \param reduce reduced at the receiver (else it replaces those bytes)
     * \param after message ids that must have arrived at the sender first
     * \return the message's id
     */
    uint32_t Add(uint32_t from,
                 uint32_t to,
                 uint64_t offset,
                 uint64_t bytes,
                 bool reduce,
                 const std::vector<uint32_t>& after)
    {
        const uint32_t tag = m_pairCount[{from, to}]++;
        Send send{to, tag, offset, bytes, {}, m_channel};
        for (uint32_t id : after)
        {
            send.after.push_back(m_receiveIndex.at(id)); // a receive of the sender, by design
        }
        m_plans[from].sends.push_back(std::move(send));
        m_receiveIndex.push_back(static_cast<uint32_t>(m_plans[to].receives.size()));
        m_plans[to].receives.push_back({from, tag, offset, bytes, reduce, m_channel});
        return static_cast<uint32_t>(m_receiveIndex.size() - 1);
    }

    /// Ring: 2(K-1) rounds; round r: node w sends chunk (w - r) mod K to w + 1.
    /// \param k K \param bytes M
    void Ring(uint32_t k, uint64_t bytes);
    /**
     * Rounds [first, last) of the ring over `members` (member i sends to member i + 1) on the
     * bytes [offset, offset + bytes): round r carries chunk (i - r) mod n of n, the first n - 1
     * rounds reduce (reduce-scatter), the others replace (all-gather). Every send waits for the
     * ids in `start` of its sender and, after the first round, for its latest receive.
     * \param members the ring's nodes, in ring order
     * \param offset first byte \param bytes length
     * \param first first round \param last one past the last round
     * \param start per member: message ids its first send waits for (empty: none)
     * \return per member: the ids of the messages it received in these rounds
     */
    std::vector<std::vector<uint32_t>> RingRounds(const std::vector<uint32_t>& members,
                                                  uint64_t offset,
                                                  uint64_t bytes,
                                                  uint32_t first,
                                                  uint32_t last,
                                                  const std::vector<std::vector<uint32_t>>& start);
    /// The 2D ring: reduce-scatter in each group, a ring AllReduce of each shard across the
    /// groups, all-gather in each group.
    /// \param bytes M \param groups each node's group (checked)
    void Hierarchical(uint64_t bytes, const std::vector<uint32_t>& groups);
    /// Rabenseifner's AllReduce, with the pairing step for a K that is not a power of two.
    /// \param k K \param bytes M
    void HalvingDoubling(uint32_t k, uint64_t bytes);
    /// Two trees, each reducing and broadcasting half of the buffer in chunks.
    /// \param k K \param bytes M \param chunk the pipelining unit
    void DoubleTree(uint32_t k, uint64_t bytes, uint64_t chunk);

    /// \return the plans
    std::vector<NodePlan> Take()
    {
        return std::move(m_plans);
    }

  private:
    /**
     * One chunk of one tree: reduce up to the root, broadcast down.
     * \param links the tree \param topDown its nodes, parents first
     * \param credit per node: the message id a leaf's up-send waits for, or -1
     * \param offset first byte \param bytes length
     * \return per node: the id of the broadcast message it received, or -1 (the root)
     */
    std::vector<int64_t> TreeChunk(const std::vector<TreeLinks>& links,
                                   const std::vector<uint32_t>& topDown,
                                   const std::vector<int64_t>& credit,
                                   uint64_t offset,
                                   uint64_t bytes);

    std::vector<NodePlan> m_plans;        //!< per node
    uint32_t m_channel{0};                //!< the channel of the messages added now
    std::vector<uint32_t> m_receiveIndex; //!< message id -> receiver's index
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_pairCount; //!< (from, to) -> messages
};

void
AllReduceSchedule::Builder::Ring(uint32_t k, uint64_t bytes)
{
    std::vector<uint32_t> members(k);
    for (uint32_t w = 0; w < k; ++w)
    {
        members[w] = w;
    }
    RingRounds(members, 0, bytes, 0, 2 * (k - 1), std::vector<std::vector<uint32_t>>(k));
}

std::vector<std::vector<uint32_t>>
AllReduceSchedule::Builder::RingRounds(const std::vector<uint32_t>& members,
                                       uint64_t offset,
                                       uint64_t bytes,
                                       uint32_t first,
                                       uint32_t last,
                                       const std::vector<std::vector<uint32_t>>& start)
{
    const auto n = static_cast<uint32_t>(members.size());
    const uint64_t base = bytes / n;
    auto chunkBytes = [&](uint32_t c)
    {
        return c + 1 < n ? base : bytes - base * (n - 1);
    };
    std::vector<std::vector<uint32_t>> got(n);
    std::vector<std::vector<uint32_t>> after(start); // each member's next send waits for these
    for (uint32_t r = first; r < last; ++r)
    {
        std::vector<std::vector<uint32_t>> next(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint32_t c = (i + n - r % n) % n;
            const uint32_t to = (i + 1) % n;
            const uint32_t id = Add(members[i],
                                    members[to],
                                    offset + c * base,
                                    chunkBytes(c),
                                    r < n - 1,
                                    after[i]);
            // A later round's send forwards its own bytes too: they wait for `start` as well.
            next[to] = start[to];
            next[to].push_back(id);
            got[to].push_back(id);
        }
        after = std::move(next);
    }
    return got;
}

void
AllReduceSchedule::Builder::Hierarchical(uint64_t bytes, const std::vector<uint32_t>& groups)
{
    const uint32_t nGroups = CheckGroups(groups, "AllReduce schedule");
    std::vector<std::vector<uint32_t>> members(nGroups); // per group, in node order
    for (uint32_t node = 0; node < groups.size(); ++node)
    {
        members[groups[node]].push_back(node);
    }
    const auto g = static_cast<uint32_t>(members[0].size());
    const std::vector<std::vector<uint32_t>> none(g);
    std::vector<std::vector<uint32_t>> got(groups.size()); // per node: receives so far
    auto keep = [&](const std::vector<uint32_t>& ring, const auto& received)
    {
        for (uint32_t i = 0; i < ring.size(); ++i)
        {
            got[ring[i]] = received[i];
        }
    };
    for (const auto& ring : members) // phase 1: reduce-scatter; member i holds shard i + 1
    {
        keep(ring, RingRounds(ring, 0, bytes, 0, g - 1, none));
    }
    const uint64_t base = bytes / g;
    for (uint32_t local = 0; local < g; ++local) // phase 2: each shard across the groups
    {
        const uint32_t shard = (local + 1) % g;
        std::vector<uint32_t> ring;
        std::vector<std::vector<uint32_t>> start;
        for (const auto& group : members)
        {
            ring.push_back(group[local]);
            start.push_back({got[group[local]].back()}); // the receive that completed the shard
        }
        const uint64_t shardBytes = shard + 1 < g ? base : bytes - base * (g - 1);
        keep(ring, RingRounds(ring, shard * base, shardBytes, 0, 2 * (nGroups - 1), start));
    }
    for (const auto& ring : members) // phase 3: all-gather, after the whole shard came back
    {
        std::vector<std::vector<uint32_t>> start;
        for (uint32_t node : ring)
        {
            start.push_back(got[node]);
        }
        RingRounds(ring, 0, bytes, g - 1, 2 * (g - 1), start);
    }
}

void
AllReduceSchedule::Builder::HalvingDoubling(uint32_t k, uint64_t bytes)
{
    const uint32_t p = FloorPowerOfTwo(k);
    const uint32_t rem = k - p;
    // Rank q of the power-of-two group -> node: the odd node of each of the first rem pairs,
    // then the nodes from 2 rem on.
    auto node = [&](uint32_t q)
    {
        return q < rem ? 2 * q + 1 : q + rem;
    };
    // A message carries bytes that earlier receives reduced into or filled (a range is built
    // from several of them), so it waits for all of its sender's receives so far.
    std::vector<std::vector<uint32_t>> got(k);
    for (uint32_t i = 0; i < rem; ++i)
    {
        got[2 * i + 1].push_back(Add(2 * i, 2 * i + 1, 0, bytes, true, {}));
    }
    std::vector<uint64_t> lo(p, 0);
    std::vector<uint64_t> hi(p, bytes);
    auto exchange = [&](uint32_t dist, bool reduce, auto range)
    {
        std::vector<std::vector<uint32_t>> next(got);
        for (uint32_t q = 0; q < p; ++q)
        {
            const auto [from, to] = range(q);
            next[node(q ^ dist)].push_back(
                Add(node(q), node(q ^ dist), from, to - from, reduce, got[node(q)]));
        }
        got = std::move(next);
    };
    for (uint32_t dist = p / 2; dist >= 1; dist /= 2) // reduce-scatter by recursive halving
    {
        // The lower partner keeps the lower half and sends the upper, the other the reverse.
        auto half = [&](uint32_t q)
        {
            const uint64_t mid = lo[q] + (hi[q] - lo[q]) / 2;
            return (q & dist) == 0 ? std::make_pair(mid, hi[q]) : std::make_pair(lo[q], mid);
        };
        exchange(dist, true, half);
        for (uint32_t q = 0; q < p; ++q)
        {
            const uint64_t mid = lo[q] + (hi[q] - lo[q]) / 2;
            ((q & dist) == 0 ? hi[q] : lo[q]) = mid;
        }
    }
    for (uint32_t dist = 1; dist < p; dist *= 2) // all-gather by recursive doubling
    {
        exchange(dist,
                 false,
                 [&](uint32_t q)
                 {
                     return std::make_pair(lo[q], hi[q]);
                 });
        std::vector<uint64_t> lo2(lo);
        std::vector<uint64_t> hi2(hi);
        for (uint32_t q = 0; q < p; ++q)
        {
            lo2[q] = std::min(lo[q], lo[q ^ dist]);
            hi2[q] = std::max(hi[q], hi[q ^ dist]);
        }
        lo = std::move(lo2);
        hi = std::move(hi2);
    }
    for (uint32_t i = 0; i < rem; ++i)
    {
        Add(2 * i + 1, 2 * i, 0, bytes, false, got[2 * i + 1]);
    }
}

std::vector<int64_t>
AllReduceSchedule::Builder::TreeChunk(const std::vector<TreeLinks>& links,
                                      const std::vector<uint32_t>& topDown,
                                      const std::vector<int64_t>& credit,
                                      uint64_t offset,
                                      uint64_t bytes)
{
    const uint32_t k = static_cast<uint32_t>(links.size());
    std::vector<std::vector<uint32_t>> fromChildren(k); // up messages each node received
    for (auto it = topDown.rbegin(); it != topDown.rend(); ++it)
    {
        if (links[*it].parent >= 0)
        {
            const auto parent = static_cast<uint32_t>(links[*it].parent);
            // A leaf waits for its credit: the broadcast of an earlier chunk.
            const std::vector<uint32_t> after
                = links[*it].children.empty() ? After(credit[*it]) : fromChildren[*it];
            fromChildren[parent].push_back(Add(*it, parent, offset, bytes, true, after));
        }
    }
    std::vector<int64_t> fromParent(k, -1);
    for (uint32_t n : topDown)
    {
        const std::vector<uint32_t> after
            = links[n].parent < 0 ? fromChildren[n] : After(fromParent[n]);
        for (uint32_t c : links[n].children)
        {
            fromParent[c] = Add(n, c, offset, bytes, false, after);
        }
    }
    return fromParent;
}

void
AllReduceSchedule::Builder::DoubleTree(uint32_t k, uint64_t bytes, uint64_t chunk)
{
    std::vector<TreeLinks> links[2];
    std::vector<uint32_t> order[2];
    for (int t = 0; t < 2; ++t)
    {
        for (uint32_t n = 0; n < k; ++n)
        {
            links[t].push_back(AllReduceSchedule::GetTree(n, k, t == 1));
        }
        order[t] = TopDown(links[t], k);
    }
    const uint64_t half[2] = {bytes / 2, bytes - bytes / 2};
    const uint64_t start[2] = {0, bytes / 2};
    const uint64_t chunks = std::max((half[0] + chunk - 1) / chunk, (half[1] + chunk - 1) / chunk);
    // A leaf's up-send of chunk j waits for chunk j - credits to come back down (NCCL's
    // bounded steps): without it leaves queue their whole half at once, and TCP shares their
    // links with that bulk instead of the chunks on the critical path. credits = 2 D keeps the
    // pipeline full: a chunk's round trip is 2 D hops.
    uint32_t depth = 0;
    while ((uint64_t{1} << depth) < k)
    {
        ++depth;
    }
    const std::size_t credits = 2 * depth;
    const std::vector<int64_t> none(k, -1);
    std::vector<std::vector<int64_t>> down[2]; // per tree: broadcast receives, by chunk
    for (uint64_t j = 0; j < chunks; ++j)
    {
        for (int t = 0; t < 2; ++t)
        {
            const uint64_t off = j * chunk;
            if (off < half[t])
            {
                m_channel = static_cast<uint32_t>(t);
                const std::vector<int64_t>& credit = j < credits ? none : down[t][j - credits];
                down[t].push_back(TreeChunk(links[t],
                                            order[t],
                                            credit,
                                            start[t] + off,
                                            std::min(chunk, half[t] - off)));
            }
        }
    }
}

std::vector<AllReduceSchedule::NodePlan>
AllReduceSchedule::PlanAll(Algorithm algorithm,
                           uint32_t workers,
                           uint64_t bytes,
                           uint64_t chunkBytes,
                           const std::vector<uint32_t>& groups)
{
    if (workers == 0 || bytes == 0 || chunkBytes == 0)
    {
        throw TrainingInputError("AllReduce schedule: workers, bytes and chunk bytes must be "
                                 "positive (got "
                                 + std::to_string(workers) + ", " + std::to_string(bytes) + ", "
                                 + std::to_string(chunkBytes) + ")");
    }
    if (algorithm == NCCL)
    {
        throw TrainingInputError("AllReduce schedule: nccl is a preset, not a plan (expected "
                                 "the algorithm CollectiveCostModel::Resolve chose)");
    }
    if (algorithm == HIERARCHICAL && groups.size() != workers)
    {
        throw TrainingInputError("AllReduce schedule: hierarchical with "
                                 + std::to_string(groups.size()) + " group entries for "
                                 + std::to_string(workers) + " workers (expected one per worker)");
    }
    Builder b(workers);
    if (workers > 1)
    {
        switch (algorithm)
        {
            case RING:
                b.Ring(workers, bytes);
                break;
            case HALVING_DOUBLING:
                b.HalvingDoubling(workers, bytes);
                break;
            case DOUBLE_BINARY_TREE:
                b.DoubleTree(workers, bytes, chunkBytes);
                break;
            case HIERARCHICAL:
                b.Hierarchical(bytes, groups);
                break;
            case NCCL:
                break; // refused above
        }
    }
    return b.Take();
}

AllReduceSchedule::NodePlan
AllReduceSchedule::Plan(Algorithm algorithm,
                        uint32_t node,
                        uint32_t workers,
                        uint64_t bytes,
                        uint64_t chunkBytes,
                        const std::vector<uint32_t>& groups)
{
    std::vector<NodePlan> all = PlanAll(algorithm, workers, bytes, chunkBytes, groups);
    if (node >= workers)
    {
        throw TrainingInputError("AllReduce schedule: node " + std::to_string(node) + " of "
                                 + std::to_string(workers) + " workers");
    }
    return std::move(all[node]);
}

std::string
AllReduceSchedule::GetName(Algorithm algorithm)
{
    return kNames[algorithm];
}

bool
AllReduceSchedule::FromName(const std::string& name, Algorithm& algorithm)
{
    for (int a = RING; a <= NCCL; ++a)
    {
        if (name == kNames[a])
        {
            algorithm = static_cast<Algorithm>(a);
            return true;
        }
    }
    return false;
}

std::vector<std::string>
AllReduceSchedule::GetNames()
{
    return {std::begin(kNames), std::end(kNames)};
}

uint32_t
AllReduceSchedule::CheckGroups(const std::vector<uint32_t>& groups, const std::string& what)
{
    std::vector<uint32_t> size;
    for (uint32_t group : groups)
    {
        size.resize(std::max<std::size_t>(size.size(), group + std::size_t{1}), 0);
        ++size[group];
    }
    const auto k = std::to_string(groups.size());
    if (size.size() < 2)
    {
        throw TrainingInputError(what + ": --collective=hierarchical with all " + k
                                 + " workers in one group (expected at least 2 groups, e.g. "
                                   "--groupSize or a fabric with several leaves)");
    }
    for (std::size_t i = 0; i < size.size(); ++i)
    {
        if (size[i] != size[0] || size[i] < 2)
        {
            throw TrainingInputError(what + ": --collective=hierarchical with group "
                                     + std::to_string(i) + " of " + std::to_string(size[i])
                                     + " workers and group 0 of " + std::to_string(size[0])
                                     + " (expected groups of one size >= 2: K divisible by it)");
        }
    }
    return static_cast<uint32_t>(size.size());
}

AllReduceSchedule::TreeLinks
AllReduceSchedule::InOrderTree(uint32_t rank, uint32_t workers)
{
    // Rank 0 is the root with one child, the largest power of two below K; a rank r > 0 with
    // lowest set bit b hangs below r with b cleared and 2b set (or, past the end, b cleared),
    // and has r - b/2 and the largest r + b/2^i below K as children: odd ranks are the leaves.
    TreeLinks links;
    if (rank == 0)
    {
        if (workers > 1)
        {
            links.children.push_back(FloorPowerOfTwo(workers - 1));
        }
        return links;
    }
    const uint32_t bit = rank & (~rank + 1);
    const uint64_t up = (rank ^ bit) | (uint64_t{bit} << 1);
    links.parent = up < workers ? static_cast<int64_t>(up) : static_cast<int64_t>(rank ^ bit);
    for (uint32_t h = bit / 2, first = 1; h > 0; h /= 2)
    {
        if (first != 0)
        {
            links.children.push_back(rank - h);
            first = 0;
        }
        if (uint64_t{rank} + h < workers)
        {
            links.children.push_back(rank + h);
            break;
        }
    }
    return links;
}

AllReduceSchedule::TreeLinks
AllReduceSchedule::GetTree(uint32_t node, uint32_t workers, bool second)
{
    if (!second)
    {
        return InOrderTree(node, workers);
    }
    // K even: the mirror image (rank K-1-n); K odd: shifted by one (rank n-1).
    const bool mirror = workers % 2 == 0;
    auto toRank = [&](uint32_t n)
    {
        return mirror ? workers - 1 - n : (n + workers - 1) % workers;
    };
    auto toNode = [&](uint32_t r)
    {
        return mirror ? workers - 1 - r : (r + 1) % workers;
    };
    TreeLinks rankLinks = InOrderTree(toRank(node), workers);
    TreeLinks links;
    if (rankLinks.parent >= 0)
    {
        links.parent = toNode(static_cast<uint32_t>(rankLinks.parent));
    }
    for (uint32_t c : rankLinks.children)
    {
        links.children.push_back(toNode(c));
    }
    return links;
}

} // namespace ns3

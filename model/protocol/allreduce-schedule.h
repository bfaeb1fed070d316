/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ALLREDUCE_SCHEDULE_H
#define ALLREDUCE_SCHEDULE_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief What one node of an AllReduce sends, to whom and after what, for the collectives that
 * AllReduce libraries choose between by message size and scale; independent of the transport
 * and of time.
 *
 * A plan is a dataflow: a node's send may start once every receive it names in `after` has
 * arrived (and been reduced into the node's buffer, for a receive marked `reduce`); the node
 * is done when all its receives have arrived. Messages are matched by (sender, tag): the tag
 * numbers the sender's messages to one receiver. The algorithms:
 *
 * - RING: 2(K-1) rounds to the successor; round r carries chunk (w - r) mod K; the first K-1
 *   rounds reduce-scatter, the rest all-gather (Patarasuk and Yuan, J. Parallel Distrib.
 *   Comput. 69(2), 2009; the seed 000 Eq. (11)). Each node sends 2 (K-1)/K M bytes.
 * - HALVING_DOUBLING: Rabenseifner's reduce-scatter by recursive halving then all-gather by
 *   recursive doubling (Thakur, Rabenseifner and Gropp, Int. J. High Perform. Comput. Appl.
 *   19(1), 2005, Sec. 4.4): 2 log2(K) messages and 2 (K-1)/K M bytes per node at a power of
 *   two K. Other K: the first 2r nodes (r = K - 2^floor(log2 K)) pair up, each even one sends
 *   its whole vector to its odd neighbour before and receives the result after.
 * - DOUBLE_BINARY_TREE: two complementary binary trees, each reducing half of the buffer up to
 *   its root and broadcasting it back down, pipelined in chunks (Sanders, Speck and Traeff,
 *   Parallel Computing 35(12), 2009; the trees NCCL uses). A node is an inner node of at most
 *   one tree, so every node sends about M bytes up and M down in all; latency grows with the
 *   trees' depth, log2 K, instead of K. Each tree's messages travel on a channel of their own
 *   (as NCCL's tree channels): a node's parent in one tree can be its child in the other, and
 *   on one connection its broadcast in one tree would wait behind its reduction in the other.
 *   A leaf sends chunk j up only after chunk j - 2D came back down (D = ceil(log2 K), the
 *   trees' depth): the bounded buffers of NCCL's steps, which keep a leaf from queueing its
 *   whole half at once.
 * - HIERARCHICAL: the 2D (hierarchical) ring of Jia et al. 2018 ("Highly scalable deep learning
 *   training system with mixed-precision", arXiv:1807.11205, Sec. 3.3), Mikami et al. 2018
 *   (2D-torus AllReduce, arXiv:1811.05233) and Horovod's hierarchical AllReduce: the K nodes
 *   form G equal groups of g = K/G (a group: the nodes under one leaf switch, or --groupSize);
 *   phase 1 reduce-scatters M inside each group (a ring of g nodes: g - 1 rounds), phase 2
 *   AllReduces each node's reduced 1/g shard across the groups (a ring of the G nodes with the
 *   same local rank: 2 (G-1) rounds, g such rings at once), phase 3 all-gathers inside the
 *   group (g - 1 rounds). Each node sends 2 (g-1)/g M bytes to its group and 2 (G-1)/G M/g
 *   across groups: the slow links between leaves carry 1/g of the flat ring's bytes per node.
 *
 * NCCL is no plan but a preset: each bucket runs RING or DOUBLE_BINARY_TREE, whichever
 * CollectiveCostModel::Resolve() finds faster for its size (NCCL's tuning model).
 */
class AllReduceSchedule
{
  public:
    /// The collective algorithms.
    enum Algorithm
    {
        RING,               //!< ring reduce-scatter + all-gather
        HALVING_DOUBLING,   //!< Rabenseifner's recursive halving + doubling
        DOUBLE_BINARY_TREE, //!< two pipelined binary trees
        HIERARCHICAL,       //!< 2D ring: inside groups, across them, inside again
        NCCL,               //!< a preset: ring or tree per bucket (no plan of its own)
    };

    /// One message a node receives.
    struct Receive
    {
        uint32_t peer;       //!< the sender
        uint32_t tag;        //!< the Send::tag the sender gave it
        uint64_t offset;     //!< first byte of the buffer it carries
        uint64_t bytes;      //!< its length
        bool reduce;         //!< reduced into the node's buffer (else it replaces those bytes)
        uint32_t channel{0}; //!< the connection it travels on (the tree: 0 or 1; else 0)
    };

    /// One message a node sends.
    struct Send
    {
        uint32_t peer;               //!< the receiver
        uint32_t tag;                //!< its index among this node's sends to that peer
        uint64_t offset;             //!< first byte of the buffer it carries
        uint64_t bytes;              //!< its length
        std::vector<uint32_t> after; //!< indices of the node's receives it waits for
        uint32_t channel{0};         //!< the connection it travels on (the tree: 0 or 1; else 0)
    };

    /// Everything one node does for one AllReduce.
    struct NodePlan
    {
        std::vector<Send> sends;       //!< in the order they become ready on a fast network
        std::vector<Receive> receives; //!< every message the node gets
    };

    /**
     * \param algorithm the collective (not NCCL: resolve it per bucket first)
     * \param workers K >= 1
     * \param bytes M, the buffer reduced (>= 1)
     * \param chunkBytes the pipelining unit of DOUBLE_BINARY_TREE (>= 1; ignored otherwise)
     * \param groups HIERARCHICAL: each node's group, 0 .. G-1, G >= 2 equal groups of >= 2
     *        nodes (a node's local rank: its place among its group's nodes in node order);
     *        ignored otherwise
     * \return every node's plan, indexed by node
     * \throws TrainingInputError for K = 0, M = 0, a zero chunk, NCCL or bad groups
     */
    static std::vector<NodePlan> PlanAll(Algorithm algorithm,
                                         uint32_t workers,
                                         uint64_t bytes,
                                         uint64_t chunkBytes,
                                         const std::vector<uint32_t>& groups = {});

    /**
     * \param algorithm the collective (not NCCL)
     * \param node this node, 0 .. workers - 1
     * \param workers K >= 1
     * \param bytes M, the buffer reduced (>= 1)
     * \param chunkBytes the pipelining unit of DOUBLE_BINARY_TREE (>= 1; ignored otherwise)
     * \param groups HIERARCHICAL: each node's group (PlanAll); ignored otherwise
     * \return the node's plan (empty for K = 1)
     */
    static NodePlan Plan(Algorithm algorithm,
                         uint32_t node,
                         uint32_t workers,
                         uint64_t bytes,
                         uint64_t chunkBytes,
                         const std::vector<uint32_t>& groups = {});

    /**
     * \brief Check a partition of the nodes into the groups of HIERARCHICAL.
     * \param groups each node's group
     * \param what the option or source the groups came from, for the message
     * \return G, the number of groups
     * \throws TrainingInputError unless there are G >= 2 groups, numbered 0 .. G-1, of the
     *         same size g >= 2
     */
    static uint32_t CheckGroups(const std::vector<uint32_t>& groups, const std::string& what);

    /**
     * \param algorithm a collective
     * \return its option value: "ring", "halving-doubling", "tree", "hierarchical" or "nccl"
     */
    static std::string GetName(Algorithm algorithm);

    /**
     * \param name an option value
     * \param algorithm set to the collective of that name
     * \return false if there is none
     */
    static bool FromName(const std::string& name, Algorithm& algorithm);

    /// \return the names of every algorithm, in enum order
    static std::vector<std::string> GetNames();

    /// One node's place in a binary tree of the double binary tree.
    struct TreeLinks
    {
        int64_t parent{-1};             //!< -1 at the root
        std::vector<uint32_t> children; //!< zero, one or two
    };

    /**
     * \brief The two trees over K nodes: the first an in-order tree on the ranks (inner nodes
     * even, leaves odd), the second its mirror image (K even) or the first shifted by one rank
     * (K odd), so a node inner in one tree is a leaf of the other.
     * \param node the node
     * \param workers K >= 1
     * \param second false: the first tree, true: the second
     * \return the node's parent and children
     */
    static TreeLinks GetTree(uint32_t node, uint32_t workers, bool second);

  private:
    class Builder;

    /**
     * \param rank a rank of the first tree's numbering
     * \param workers K
     * \return its links in the in-order tree rooted at rank 0
     */
    static TreeLinks InOrderTree(uint32_t rank, uint32_t workers);
};

} // namespace ns3

#endif // ALLREDUCE_SCHEDULE_H

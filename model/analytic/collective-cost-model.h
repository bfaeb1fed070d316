/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_COST_MODEL_H
#define COLLECTIVE_COST_MODEL_H

#include "ns3/allreduce-schedule.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class TrainingProfile;
class TrainingScenario;

/**
 * \ingroup distributed-training
 * \brief Alpha-beta(-gamma) costs of one AllReduce of M bytes over K nodes for the collectives
 * of AllReduceSchedule: alpha the latency of one message, beta the seconds per byte of a node's
 * link, gamma the seconds per byte of reducing received data (0: free).
 *
 * - Ring(): 2 (K-1) alpha + 2 (K-1)/K M beta + (K-1)/K M gamma (Thakur, Rabenseifner and
 *   Gropp, "Optimization of collective communication operations in MPICH", Int. J. High
 *   Perform. Comput. Appl. 19(1), 2005, Sec. 4.4; Patarasuk and Yuan 2009).
 * - HalvingDoubling(): Rabenseifner's reduce-scatter by recursive halving and all-gather by
 *   recursive doubling, at a power of two K: 2 log2(K) alpha + 2 (K-1)/K M beta + (K-1)/K M
 *   gamma; otherwise, with p' = 2^floor(log2 K), the extra step before and after (Thakur et
 *   al. 2005, Sec. 4.4): (2 log2(p') + 2) alpha + (2 + 2 (p'-1)/p') M beta
 *   + (1 + (p'-1)/p') M gamma.
 * - DoubleBinaryTree(): two binary trees of depth D = ceil(log2 K) (Sanders, Speck and Traeff,
 *   "Two-tree algorithms for full bandwidth broadcast, reduction and scan", Parallel Computing
 *   35(12), 2009; the trees of NCCL 2.4), each reducing M/2 up and broadcasting it down in
 *   chunks of c = min(--treeChunk, M/2) bytes, timed as a pipeline: the first chunk's way
 *   through the empty trees (TreeFill()), then the rest of the busiest link's bytes. A node
 *   of two children receives both children's chunks over its one link and sends to both over
 *   it, so such a hop costs 2 c beta (Sanders et al.'s single-ported model: a binary tree node
 *   serves its children one after another): TreeFill() is 2 D alpha + (4 D - 2) c beta for a
 *   complete tree (K a power of two), less where a node's children are ready at different
 *   times. The busiest node sends s c bytes per chunk index (s = 4 for K >= 4: up and to two
 *   children in the tree where it is inner, up in the other; s = 3 at K = 3, 2 at K = 2), s/2
 *   M in all, of which the first chunk's c bytes are in the fill; its reducer takes r = 2
 *   chunks per chunk index (1 at K = 2), M in all, and the fill has the reductions on the way
 *   up: TreeFill() + (M/2 - c) max(s beta, r gamma). This is the module's own plan
 *   (AllReduceSchedule) in alpha-beta terms: exact against the flow level for one chunk per
 *   tree (M <= 2 c); with more and gamma = 0, from 11 % above it (K = 4, two chunks per tree:
 *   the fill overlaps the leaves' uploads) to 0.7 % below (many chunks: the busiest link idles
 *   now and then) at K = 4, 8 and 16, and up to 20 % below at K = 3 and 5, where the other
 *   tree's uploads share the first chunk's links. With gamma > 0 and many chunks the flow
 *   level lies between this (link and reducer overlapping) and their sum (the plan holds a
 *   node's sends behind its reductions). For large M it is s/2 M beta: twice the ring's
 *   bandwidth term at K >= 4, with log2 K latencies.
 * - Hierarchical(): the 2D ring of G groups of g = K/G nodes (Jia et al. 2018, arXiv:1807.11205
 *   Sec. 3.3; Mikami et al. 2018, arXiv:1811.05233): a ring reduce-scatter and all-gather of M
 *   inside the groups, 2 (g-1) alpha + 2 (g-1)/g M beta, and between them a ring AllReduce of
 *   each M/g shard across the groups at the inter-group seconds per byte beta', 2 (G-1) alpha
 *   + 2 (G-1)/G (M/g) beta'; reducing costs (g-1)/g M gamma + (G-1)/G (M/g) gamma.
 * - NCCL: the preset that runs, per bucket, the ring or the double binary tree, whichever of
 *   the two formulas is smaller at its size (Resolve(); NCCL's tuning model, src/graph/tuning.cc:
 *   per algorithm a latency plus bytes over a bandwidth, the minimum wins); Time() is that
 *   minimum.
 */
class CollectiveCostModel
{
  public:
    /// The inputs of every formula.
    struct Params
    {
        uint32_t workers{1};  //!< K
        double bytes{0};      //!< M, the buffer reduced
        double alpha{0};      //!< latency of one message (s)
        double beta{0};       //!< seconds per byte of a node's link (1 / bandwidth)
        double gamma{0};      //!< seconds per byte of reducing (0: free)
        double chunkBytes{1}; //!< c, the tree's pipelining unit
        uint32_t groups{1};   //!< G, the hierarchical ring's groups (K divisible by it)
        double betaInter{0};  //!< beta' of the hierarchical ring across groups (0: beta)
    };

    /**
     * \brief The inputs of a scenario, as the analytic backend and the nccl preset take them:
     * K, alpha = 2 link delays (a message's hop), beta = 1 / TCP goodput of a NIC
     * (TrainingNetwork), gamma = 1 / reductionRate (0: free), c = treeChunkBytes; M = 0 and
     * one group (set them for a bucket and the hierarchical ring).
     * \param s the scenario
     * \return its inputs
     */
    static Params FromScenario(const TrainingScenario& s);

    /**
     * \param p the inputs
     * \return the ring's time (s); 0 at K = 1
     * \throws TrainingInputError for K = 0 or a negative or non-finite input
     */
    static double Ring(const Params& p);
    /**
     * \param p the inputs
     * \return Rabenseifner's halving-doubling time (s), any K; 0 at K = 1
     * \throws TrainingInputError for K = 0 or a negative or non-finite input
     */
    static double HalvingDoubling(const Params& p);
    /**
     * \param p the inputs (chunkBytes > 0)
     * \return the pipelined double binary tree's time (s); 0 at K = 1
     * \throws TrainingInputError for K = 0, a zero chunk or a negative or non-finite input
     */
    static double DoubleBinaryTree(const Params& p);
    /**
     * \param p the inputs (groups G >= 1 dividing K)
     * \return the hierarchical (2D) ring's time (s); the flat ring's at G = 1 or G = K
     * \throws TrainingInputError for K = 0, G not dividing K or a bad input
     */
    static double Hierarchical(const Params& p);
    /**
     * \param algorithm the collective
     * \param p the inputs
     * \return the time of that collective's formula (s); NCCL: of the one Resolve() picks
     */
    static double Time(AllReduceSchedule::Algorithm algorithm, const Params& p);
    /**
     * \brief The one rule of the nccl preset: the algorithm a bucket of p.bytes runs.
     * \param algorithm the --collective
     * \param p the inputs, bytes the bucket's
     * \return algorithm itself, or for NCCL the ring or the double binary tree, whichever is
     *         faster by Ring() and DoubleBinaryTree() (the ring on a tie)
     */
    static AllReduceSchedule::Algorithm Resolve(AllReduceSchedule::Algorithm algorithm,
                                                const Params& p);
    /**
     * \param p the inputs (bytes ignored)
     * \param buckets bucket sizes (bytes)
     * \return the note of the nccl preset, e.g. "nccl preset: tree for buckets of 1 KB to
     *         256 KB, ring for 1 MB to 25 MB (alpha 20 us, beta 1/1.17 GB/s, tree chunk
     *         524288 B)"
     */
    static std::string DescribeNccl(const Params& p, const std::vector<double>& buckets);
    /**
     * \param s a scenario
     * \param profile its DNN (the buckets: TensorFusion::FormBuckets)
     * \return DescribeNccl() of its buckets with --collective=nccl, else ""
     */
    static std::string NcclNote(const TrainingScenario& s, const TrainingProfile& profile);
    /**
     * \param workers K >= 1
     * \return D = ceil(log2 K), the depth of the trees of AllReduceSchedule::GetTree()
     */
    static uint32_t TreeDepth(uint32_t workers);
    /**
     * \param workers K >= 1
     * \return s, the chunks the busiest node of the double binary tree sends per chunk index
     */
    static uint32_t TreeSendsPerChunk(uint32_t workers);
    /**
     * \brief The pipeline's fill: one chunk reduced up a tree of AllReduceSchedule::GetTree()
     * and broadcast back down, on links that carry nothing else. A hop costs alpha plus c beta
     * per chunk sharing the link: two where a node's two children send to it at once or it
     * sends to both; a node's children ready at different times share less.
     * \param workers K >= 1
     * \param alpha the latency of one hop (s)
     * \param chunkSeconds c beta, one chunk's time on a link (s)
     * \param reduceSeconds c gamma, reducing one chunk (s; 0: free): a node sends up (the
     *        root: down) once it reduced its children's chunks
     * \return from the start to the last leaf's arrival (s): 2 D alpha + (4 D - 2) c beta
     *         + (2 D - 1) c gamma for K a power of two, 0 at K = 1
     */
    static double TreeFill(uint32_t workers,
                           double alpha,
                           double chunkSeconds,
                           double reduceSeconds = 0);

  private:
    /// \param p the inputs \throws TrainingInputError when one is out of range
    static void Check(const Params& p);
    /**
     * \param node a node of the first tree \param workers K
     * \param hop alpha \param chunk c beta \param reduce c gamma
     * \return when its reduced first chunk is ready at it (s from the start)
     */
    static double TreeUpReady(uint32_t node,
                              uint32_t workers,
                              double hop,
                              double chunk,
                              double reduce);
    /**
     * \param node a node of the first tree \param workers K \param start when it has the
     * broadcast chunk \param hop alpha \param chunk c beta
     * \return when the last leaf below it has it (s from the start)
     */
    static double TreeDownDone(uint32_t node,
                               uint32_t workers,
                               double start,
                               double hop,
                               double chunk);
};

} // namespace ns3

#endif // COLLECTIVE_COST_MODEL_H

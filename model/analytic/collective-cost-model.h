/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_COST_MODEL_H
#define COLLECTIVE_COST_MODEL_H

#include "ns3/allreduce-schedule.h"

#include <cstdint>

namespace ns3
{

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
 *   35(12), 2009; the trees of NCCL 2.4), each reducing M/2 up and broadcasting it down in n =
 *   ceil(M/2 / c) chunks of c bytes. The busiest node sends s c bytes per chunk index (s = 4
 *   for K >= 4: up and to two children in the tree where it is inner, up in the other; s = 3
 *   at K = 3, 2 at K = 2), so the pipeline's last chunk leaves after (n-1) s c beta and
 *   takes 2D hops of alpha + c beta up and down: 2 D (alpha + c beta) + (n-1) s c beta
 *   + M gamma (an inner node reduces two children's halves, M in all). For large M this is
 *   s/2 M beta: twice the ring's bandwidth term at K >= 4, with log2 K instead of K latencies.
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
    };

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
     * \param algorithm the collective
     * \param p the inputs
     * \return the time of that collective's formula (s)
     */
    static double Time(AllReduceSchedule::Algorithm algorithm, const Params& p);
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

  private:
    /// \param p the inputs \throws TrainingInputError when one is out of range
    static void Check(const Params& p);
};

} // namespace ns3

#endif // COLLECTIVE_COST_MODEL_H

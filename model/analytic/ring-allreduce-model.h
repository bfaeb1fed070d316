/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RING_ALLREDUCE_MODEL_H
#define RING_ALLREDUCE_MODEL_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Coarse-grained models of synchronous SGD with ring AllReduce (no parameter server).
 *
 * - Eq11StepTime(): 000_466ded720105ddf3.txt Sec. 3.1.2, Eq. (11): T = (T_F + T_B) +
 *   2 (K-1) M / (K B). Each worker sends M/K bytes K-1 times to reduce-scatter and K-1 times
 *   to all-gather, over its own link at rate B; no overlap with computation.
 * - PerLayerTransferTime(): 003_82798835b3fcdcb0.txt Sec. 6.1.2: transferring G bytes in L
 *   per-layer synchronisations over a link of bandwidth B and latency tau costs
 *   (tau + G / (L B)) L = L tau + G/B. IsLatencyBound() tells which term dominates (deep
 *   nets with small layers: latency; few large layers: bandwidth).
 * - StashStepTime(): the per-step form of 003 Sec. 6.2's network stall,
 *   T = T_C + (tau + 2G/(n B)) (n-1) (weak scaling: each of the n nodes runs a full batch);
 *   Eq. (11) plus n-1 per-hop latencies.
 * - StashStrongScalingTime() and StashBestNodes(): 003 Sec. 6.2's idealised law for a fixed
 *   amount of work T_1 split over n nodes, T_n = T_1/n + (tau + 2G/(n B)) (n-1), which is
 *   convex in n; its minimum lies near sqrt(T_1/tau) (StashSqrtRule()). StashBestNodes()
 *   returns the exact integer minimiser.
 */
class RingAllReduceModel
{
  public:
    /**
     * \brief 000 Eq. (11).
     * \param workers K >= 1
     * \param modelBytes M > 0
     * \param bandwidth B > 0 (bytes/s)
     * \param compute T_F + T_B (s)
     * \return the step time (s)
     * \throws TrainingInputError on K = 0, M <= 0, B <= 0 or a negative time
     */
    static double Eq11StepTime(uint32_t workers,
                               double modelBytes,
                               double bandwidth,
                               double compute);

    /**
     * \brief 003 Sec. 6.1.2: (tau + G/(L B)) L.
     * \param layers L >= 1 synchronisation points
     * \param bytes G
     * \param bandwidth B > 0 (bytes/s)
     * \param latency tau >= 0 (s)
     * \return the transfer time (s)
     */
    static double PerLayerTransferTime(uint64_t layers,
                                       double bytes,
                                       double bandwidth,
                                       double latency);

    /**
     * \param layers L
     * \param bytes G
     * \param bandwidth B
     * \param latency tau
     * \return true when L tau > G / B (the per-layer latencies dominate)
     */
    static bool IsLatencyBound(uint64_t layers, double bytes, double bandwidth, double latency);

    /**
     * \brief Per-step time with 003 Sec. 6.2's network stall: T_C + (tau + 2G/(n B)) (n-1).
     * \param nodes n >= 1
     * \param compute T_C (s)
     * \param latency tau (s)
     * \param bytes G
     * \param bandwidth B (bytes/s)
     * \return the step time (s)
     */
    static double StashStepTime(uint32_t nodes,
                                double compute,
                                double latency,
                                double bytes,
                                double bandwidth);

    /**
     * \brief 003 Sec. 6.2: T_n = T_1/n + (tau + 2G/(n B)) (n-1).
     * \param nodes n >= 1
     * \param single T_1, the time of the whole job on one node (s)
     * \param latency tau (s)
     * \param bytes G
     * \param bandwidth B (bytes/s)
     * \return T_n (s)
     */
    static double StashStrongScalingTime(uint32_t nodes,
                                         double single,
                                         double latency,
                                         double bytes,
                                         double bandwidth);

    /**
     * \brief The n in [1, maxNodes] that minimises StashStrongScalingTime() (smallest on ties).
     * \param single T_1 (s)
     * \param latency tau (s)
     * \param bytes G
     * \param bandwidth B (bytes/s)
     * \param maxNodes the largest n considered (>= 1)
     * \return the best n
     */
    static uint32_t StashBestNodes(double single,
                                   double latency,
                                   double bytes,
                                   double bandwidth,
                                   uint32_t maxNodes);

    /**
     * \param single T_1 (s)
     * \param latency tau (s)
     * \return sqrt(T_1 / tau), 003's estimate of the best n (infinity when tau = 0)
     */
    static double StashSqrtRule(double single, double latency);
};

} // namespace ns3

#endif /* RING_ALLREDUCE_MODEL_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SYNC_PS_MODEL_H
#define SYNC_PS_MODEL_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Coarse-grained model of synchronous SGD with a parameter server:
 * 000_466ded720105ddf3.txt Sec. 3.1.1, Eq. (7)-(10) (notation of its Table 3).
 *
 * A step is downlink, forward, backward, uplink, update, all workers in lockstep:
 * - Eq. (7), PS sharing:  T = K M/B + (T_F + T_B) + K M/B + T_S;
 * - Eq. (8), FCFS:        T = K M/B + (T_F + T_B) + M/B + T_S (the downlink staggers the
 *   workers, so their uplinks do not collide);
 * - Eq. (9), hybrid:      the mean of (7) and (8), K M/B + (T_F + T_B) + (K+1) M/(2B) + T_S;
 * - Eq. (10), hybrid with overlap: max(K M/B, T_F) + max((K+1) M/(2B), T_B) + T_S.
 *
 * In the seed, M/B is the time of one transfer alone and K M/B the time for K transfers to
 * cross the server's link. This class computes both from the network it is given, which
 * reduces to the seed's M/B and K M/B with one server and no per-flow cap:
 * - TransferTime() = max(M_s / B_flow, M / B_link): one worker's transfer, limited by the flow
 *   rate for the busiest server's share M_s, and by the worker's own link for the whole model;
 * - DrainTime() = max(K M_s / B_link, TransferTime()): K transfers through the busiest
 *   server's link, which no single capped flow can fill.
 * T_F and T_B are those of the slowest worker (a barrier waits for it). An optional per-step
 * overhead (intra-node reduction and broadcast on multi-GPU nodes, 000 Sec. 4.4) is added to
 * every equation; it is 0 in the seed.
 */
class SyncPsModel
{
  public:
    /// The model's inputs (bytes, bytes per second, seconds).
    struct Params
    {
        uint32_t workers{1};   //!< K
        double modelBytes{0};  //!< M, the whole model
        double serverBytes{0}; //!< M_s, bytes held by the busiest server (M with one server)
        double flowRate{0};    //!< B_flow, goodput of one flow (B of the seed)
        double linkRate{0};    //!< B_link, goodput of a whole link (B_flow without a cap)
        double forward{0};     //!< T_F
        double backward{0};    //!< T_B
        double update{0};      //!< T_S, the busiest server's update time of one step
        double overhead{0};    //!< per-step non-overlappable time (0 in the seed)
    };

    /**
     * \param params the inputs
     * \throws TrainingInputError if K = 0, a rate is not positive, a size or time is negative,
     *         M_s > M, or B_flow > B_link
     */
    explicit SyncPsModel(const Params& params);

    /** \return M/B of the seed: one transfer alone (s) */
    double TransferTime() const;
    /** \return K M/B of the seed: K transfers through the server's link (s) */
    double DrainTime() const;
    /** \return Eq. (7): step time with PS sharing (s) */
    double Eq7() const;
    /** \return Eq. (8): step time with FCFS sharing (s) */
    double Eq8() const;
    /** \return Eq. (9): step time of the hybrid model (s) */
    double Eq9() const;
    /** \return Eq. (10): step time of the hybrid model with overlap (s) */
    double Eq10() const;
    /** \return the inputs */
    const Params& GetParams() const;

  private:
    Params m_params; //!< inputs
};

} // namespace ns3

#endif /* SYNC_PS_MODEL_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLOCATED_PS_MODEL_H
#define COLOCATED_PS_MODEL_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Synchronous SGD with parameter servers co-located with the workers
 * (--serverPlacement=colocated): 000_466ded720105ddf3.txt Eq. (7) (PS sharing, a step of
 * downlink, compute, uplink and update in lockstep) with each host's NIC carrying both its
 * worker's and its server's transfers. This extension is the module's, not the seed's.
 *
 * Server p runs on worker p's host and holds a shard of M_p bytes (P <= K). In the uplink
 * phase the worker of a server's host sends M - M_p (its own shard stays local) and its server
 * receives (K - 1) M_p from the other workers; a host without a server (K > P) sends M. The
 * downlink phase moves the same bytes the other way. With PS sharing a NIC direction runs at
 * its full goodput B_link whatever the number of flows, so each phase takes its busiest NIC
 * direction's bytes over B_link:
 * - PhaseBytes() = max((K - 1) M_max, M - M_min, M if K > P), M_max and M_min the largest and
 *   smallest shards (a host's two directions carry the same two amounts, swapped);
 * - Step() = 2 PhaseBytes() / B_link + T_F + T_B + T_S + overhead, Eq. (7) with PhaseBytes()
 *   for K M.
 * At K = P with equal shards a phase is (K - 1) M / K, the step 2 (K - 1) M / (K B_link) plus
 * compute: the separate placement's K M / P (Eq. (7) with P servers) times (K - 1) / K, on K
 * machines instead of K + P. Assumes, as Eq. (7): phases do not overlap compute, every worker
 * starts a phase together, and a link's goodput is shared without loss.
 */
class ColocatedPsModel
{
  public:
    /// The model's inputs (bytes, bytes per second, seconds).
    struct Params
    {
        uint32_t workers{1};     //!< K
        uint32_t servers{1};     //!< P <= K
        double modelBytes{0};    //!< M
        double largestShard{0};  //!< M_max, the busiest server's bytes
        double smallestShard{0}; //!< M_min
        double linkRate{0};      //!< B_link, goodput of a NIC direction
        double forward{0};       //!< T_F of the slowest worker
        double backward{0};      //!< T_B of the slowest worker
        double update{0};        //!< T_S, the busiest server's update
        double overhead{0};      //!< per-step non-overlappable time
    };

    /**
     * \param params the inputs
     * \throws TrainingInputError if K or P is 0, P > K, a size or rate is not positive, the
     *         shards are not 0 < M_min <= M_max <= M, or a time is negative
     */
    explicit ColocatedPsModel(const Params& params);

    /** \return the busiest NIC direction's bytes in one phase (uplink or downlink) */
    double PhaseBytes() const;
    /** \return the step time (s) */
    double Step() const;
    /** \return true when a server's incoming shards, not a worker's sends, set PhaseBytes() */
    bool ServerSideBusiest() const;
    /** \return the inputs */
    const Params& GetParams() const;

  private:
    Params m_params; //!< inputs
};

} // namespace ns3

#endif /* COLOCATED_PS_MODEL_H */

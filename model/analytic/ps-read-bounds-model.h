/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PS_READ_BOUNDS_MODEL_H
#define PS_READ_BOUNDS_MODEL_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Bounds on the time for model replicas to read the weights from parameter servers:
 * 002_a4ba19759bbbfe64.txt Sec. 4.2.3, Eq. (10)-(11).
 *
 * - WorstCase(), Eq. (10): all N_mr replicas read from the same server at once, so each layer
 *   l costs C_ncost + N_mr W(l) / C_nbw;
 * - BestCase(), Eq. (11): one replica reads alone (no overlap with other replicas), from
 *   min(N_ps, N_wr) servers in parallel, so each layer costs
 *   C_ncost + W(l) / (C_nbw min(N_ps, N_wr)).
 *
 * Here a replica is one worker node (data parallelism, N_wr = 1 machine per replica), C_nbw
 * is the goodput B of one flow, and C_ncost the per-layer request latency. If the server's link
 * is faster than one flow (a per-flow cap), N_mr flows can share more than C_nbw: the worst
 * case then uses max(N_mr W(l) / B_link, W(l) / C_nbw) (equal to Eq. (10) without a cap).
 */
class PsReadBoundsModel
{
  public:
    /// The model's inputs.
    struct Params
    {
        std::vector<double> layerBytes; //!< W(l), bytes of each layer's weights
        uint32_t replicas{1};           //!< N_mr, model replicas reading (the workers K)
        uint32_t servers{1};            //!< N_ps, parameter servers
        uint32_t workersPerReplica{1};  //!< N_wr, machines per replica
        double latency{0};              //!< C_ncost, s per layer read
        double bandwidth{0};            //!< C_nbw, bytes/s of one flow
        double linkBandwidth{0};        //!< B_link, bytes/s of the server's link (>= C_nbw)
    };

    /**
     * \param params the inputs
     * \throws TrainingInputError if a count is 0, there is no layer, a size or the latency is
     *         negative, or a bandwidth is not positive
     */
    explicit PsReadBoundsModel(const Params& params);

    /** \return Eq. (10), the worst-case read time M_w^max (s) */
    double WorstCase() const;
    /** \return Eq. (11), the best-case read time M_w^min (s) */
    double BestCase() const;

  private:
    Params m_params; //!< inputs
};

} // namespace ns3

#endif /* PS_READ_BOUNDS_MODEL_H */

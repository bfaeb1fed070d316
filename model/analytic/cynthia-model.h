/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CYNTHIA_MODEL_H
#define CYNTHIA_MODEL_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The Cynthia baseline for asynchronous parameter-server training, as
 * 001_33040fda0f1f6815.txt Sec. 1 states it (and 000_466ded720105ddf3.txt Sec. 5 and Fig. 4b
 * compare against it):
 *
 *   X(W) = W K / (T_p max(1, W U_1) + 2 T_C)   samples per second,
 *
 * with W workers, batch size K, T_p the time to process a batch, T_C the transmission time of
 * the model (one way) and U_1 the network utilisation caused by one worker.
 *
 * The seeds do not define U_1. We take U_1 = 2 T_C / T_p, the network time a worker needs per
 * unit of its compute time: then X is W K / (T_p + 2 T_C) while W U_1 <= 1 (one worker's
 * single-step rate, times W), and tends to K / (2 T_C) (the network carrying both directions
 * at full rate) for large W, so it never exceeds the network's capacity; other readings
 * (e.g. 2 T_C / (T_p + 2 T_C)) would. T_p max(1, W U_1) is computed as max(T_p, 2 W T_C),
 * which needs no division and stays defined at T_p = 0.
 *
 * 001 Sec. 4.4 also tries halving T_C (uplink and downlink as separate resources); Halved()
 * gives that variant.
 */
class CynthiaModel
{
  public:
    /**
     * \param workers W >= 1
     * \param batch K >= 1, samples per step of one worker
     * \param process T_p (s)
     * \param transfer T_C (s), > 0
     * \throws TrainingInputError on W = 0, K = 0, a negative T_p or T_C <= 0
     */
    CynthiaModel(uint32_t workers, uint32_t batch, double process, double transfer);

    /** \return U_1 = 2 T_C / T_p (infinity when T_p = 0) */
    double Utilisation() const;
    /** \return X(W), samples per second */
    double Throughput() const;
    /** \return the same model with T_C / 2 (001 Sec. 4.4) */
    CynthiaModel Halved() const;

  private:
    uint32_t m_workers; //!< W
    uint32_t m_batch;   //!< K
    double m_process;   //!< T_p
    double m_transfer;  //!< T_C
};

} // namespace ns3

#endif /* CYNTHIA_MODEL_H */

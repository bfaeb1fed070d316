/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SHARING_INDEX_H
#define SHARING_INDEX_H

#include "sharing-model.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Where a measured set of flow completion times sits between FCFS and processor sharing
 * (PS) on one bottleneck.
 *
 * N transfers arrive at times a_i with sizes S_i bytes at one bottleneck of capacity C bytes/s.
 * The two seed models of 000_466ded720105ddf3.txt (Sec. 3, Algorithm 1's Share) give each
 * transfer a flow completion time (FCT, from its own arrival):
 *  - FCFS: transfers are served whole, one at a time, in arrival order (ties by index), at C;
 *    f_i = end_i - a_i;
 *  - PS: every active transfer gets C / n(t), n(t) the number of active transfers;
 *    p_i = end_i - a_i.
 * With a per-flow cap c (000 Sec. 4.4) no transfer exceeds c: FCFS gives the capacity to the
 * earliest arrivals first, min(c, what is left) each (strict priority by arrival; the head
 * alone without a cap), PS gives each min(c, C / n(t)). Without a cap these are the two
 * definitions above.
 * Both may add a fixed per-transfer overhead d (e.g. handshake, propagation and slow start of a
 * lone flow, measured) to every FCT: it does not depend on the sharing discipline.
 *
 * Given measured FCTs m, the **sharing index** is the projection of m onto the line through f
 * (FCFS) and p (PS):
 *
 *   lambda = ((m - f) . (p - f)) / ||p - f||^2,
 *
 * and the **residual** is the distance from m to that line relative to the FCFS-PS distance:
 *
 *   r = ||m - (f + lambda (p - f))|| / ||p - f||.
 *
 * Why this index:
 *  - lambda = 0 exactly at the FCFS prediction and 1 exactly at the PS prediction; values in
 *    between interpolate, values outside (not clamped) say "more unequal than FCFS" (< 0) or
 *    "slower than PS" (> 1, e.g. losses and timeouts);
 *  - it is scale free: multiplying every size (or dividing C) scales f, p and an ideal m alike
 *    and leaves lambda and r unchanged, so runs of different S/BDP, rates and N are comparable;
 *  - it is sensitive to who finishes first, not only to the mean: FCFS and PS can have similar
 *    mean FCT but FCFS finishes the first arrival early and the last late; the projection weighs
 *    each flow's deviation;
 *  - the residual says "neither": r near 0 means the measurement is on the FCFS-PS line, r of
 *    order 1 or more means it is as far from both as they are from each other (e.g. all flows
 *    slower than either model, or an order that neither model has).
 * The index is undefined when p = f (one transfer, or transfers that never overlap): then
 * lambda and r are NaN and IsDefined() is false; nothing is divided by zero.
 */
class SharingIndex
{
  public:
    /** \brief One transfer: arrival time and size. */
    struct Transfer
    {
        double arrival; //!< seconds
        double bytes;   //!< bytes
    };

    /**
     * \brief Set up the bottleneck.
     * \param transfers arrival times and sizes (any order; results follow this order)
     * \param capacity bottleneck capacity in bytes/s (> 0)
     * \param overhead fixed seconds added to every model FCT (>= 0)
     * \param flowCap per-flow cap in bytes/s (0: none)
     * \throws TrainingInputError for a capacity <= 0, a negative overhead, cap or size
     */
    SharingIndex(std::vector<Transfer> transfers,
                 double capacity,
                 double overhead = 0,
                 double flowCap = 0);

    /** \return FCFS flow completion times f_i (from each arrival), seconds */
    std::vector<double> GetFcfsCompletionTimes() const;

    /** \return PS flow completion times p_i (from each arrival), seconds */
    std::vector<double> GetPsCompletionTimes() const;

    /**
     * \brief Compare measured flow completion times with the two models.
     * \param measured m_i, seconds from each arrival, same order as the transfers
     * \return lambda, r and whether they are defined
     */
    struct Result
    {
        bool defined;    //!< false when p = f (lambda and r are then NaN)
        double lambda;   //!< sharing index: 0 FCFS, 1 PS
        double residual; //!< distance from the FCFS-PS line over ||p - f||
    };

    /**
     * \brief Sharing index and residual of measured completion times.
     * \param measured m_i in seconds from each arrival (size must equal the transfers')
     * \return the result
     */
    Result Compute(const std::vector<double>& measured) const;

    /**
     * \brief Sharing index of measured completion times against given model vectors.
     * \param measured m
     * \param fcfs f
     * \param ps p
     * \return the result (undefined when ||p - f|| is 0 relative to ||f|| + ||p||)
     */
    static Result Compute(const std::vector<double>& measured,
                          const std::vector<double>& fcfs,
                          const std::vector<double>& ps);

    /**
     * \brief Completion times under any sharing model of the flow-level backend (e.g.
     * CalibratedSharing), on the one bottleneck link: every transfer is a flow crossing link 0,
     * with priority = arrival order, start = its arrival and the per-flow cap.
     * \param model the model
     * \return flow completion times (from each arrival, plus the overhead), seconds
     */
    std::vector<double> GetCompletionTimes(const SharingModel& model) const;

  private:
    /// Rates of the active transfers (indices into the transfers, in arrival order).
    using RateFunction
        = std::function<void(const std::vector<std::size_t>& active, std::vector<double>& rate)>;

    /**
     * \brief Serve the transfers on the bottleneck (event by event: arrivals and ends).
     * \param assignRates the sharing rule: fills rate[k] for active[k]
     * \return flow completion times plus the overhead, in the transfers' order
     */
    std::vector<double> Serve(const RateFunction& assignRates) const;

    std::vector<Transfer> m_transfers; //!< the transfers
    double m_capacity;                 //!< bytes/s
    double m_overhead;                 //!< seconds added to every model FCT
    double m_flowCap;                  //!< per-flow cap in bytes/s (0: none)
};

} // namespace ns3

#endif /* SHARING_INDEX_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CONFIDENCE_INTERVAL_H
#define CONFIDENCE_INTERVAL_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The one definition of the module's 95 % confidence intervals: the Student t interval
 * of a mean over independent samples (the throughputs of --repeat runs), and the batch-means
 * interval of the mean of a correlated series (the step times of one run, --ciTarget).
 *
 * The interval of n samples x_i is mean +- t_{0.975, n-1} s / sqrt(n), s the sample standard
 * deviation. The mean is computed as x_0 + sum (x_i - x_0) / n, so that n identical samples
 * (a deterministic backend) give exactly their value and a half-width of exactly 0.
 */
class ConfidenceInterval
{
  public:
    /// A mean and its 95 % interval.
    struct Estimate
    {
        uint32_t samples{0}; //!< n, the samples (or batch means) the interval is over
        double mean{0};      //!< their mean
        double halfWidth{0}; //!< t s / sqrt(n); +infinity with fewer than 2 samples
        /// \return the interval's lower end
        double Low() const;
        /// \return the interval's upper end
        double High() const;
        /// \return halfWidth / |mean| (+infinity for a zero mean)
        double RelativeHalfWidth() const;
    };

    /// Batches of the batch-means interval (Law and Kelton recommend 10 to 30).
    static constexpr uint32_t BATCHES = 10;

    /**
     * \param degreesOfFreedom n - 1 (at least 1)
     * \return t_{0.975, df}, the two-sided 95 % quantile of Student's t (Boost.Math), e.g.
     *         12.706 for 1, 2.776 for 4, 2.045 for 29
     */
    static double StudentT95(uint32_t degreesOfFreedom);

    /**
     * \param samples independent samples (may be empty)
     * \return their mean and its Student t 95 % interval
     */
    static Estimate OfMean(const std::vector<double>& samples);

    /**
     * \brief The interval of the mean of a correlated series by batch means: the series is cut
     * into `batches` batches of floor(n / batches) consecutive values (the first n mod batches
     * values, the nearest to the warm-up, are dropped), and the batch means are taken as
     * independent samples; with fewer than `batches` values (at least 2) there is no interval.
     * Consecutive step times of one run are correlated (a slow step delays the next one's
     * transfers), so their plain t interval would be too narrow. \param series the values in order
     * \param batches the batches (BATCHES by default)
     * \return the batch means' mean and interval
     */
    static Estimate OfBatchMeans(const std::vector<double>& series, uint32_t batches = BATCHES);
};

} // namespace ns3

#endif /* CONFIDENCE_INTERVAL_H */

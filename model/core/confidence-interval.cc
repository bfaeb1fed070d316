/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "confidence-interval.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>

namespace ns3
{

double
ConfidenceInterval::Estimate::Low() const
{
    return mean - halfWidth;
}

double
ConfidenceInterval::Estimate::High() const
{
    return mean + halfWidth;
}

double
ConfidenceInterval::Estimate::RelativeHalfWidth() const
{
    return mean != 0 ? halfWidth / std::abs(mean) : std::numeric_limits<double>::infinity();
}

double
ConfidenceInterval::StudentT95(uint32_t degreesOfFreedom)
{
    const boost::math::students_t t(std::max<uint32_t>(degreesOfFreedom, 1));
    return boost::math::quantile(boost::math::complement(t, 0.025));
}

ConfidenceInterval::Estimate
ConfidenceInterval::OfMean(const std::vector<double>& samples)
{
    Estimate e;
    e.samples = static_cast<uint32_t>(samples.size());
    e.halfWidth = std::numeric_limits<double>::infinity();
    if (samples.empty())
    {
        return e;
    }
    // Offsets from the first sample: identical samples give their value and zero spread exactly.
    const double x0 = samples.front();
    double offset = 0;
    for (double x : samples)
    {
        offset += x - x0;
    }
    offset /= samples.size();
    e.mean = x0 + offset;
    if (samples.size() < 2)
    {
        return e;
    }
    double squares = 0;
    for (double x : samples)
    {
        squares += (x - x0 - offset) * (x - x0 - offset);
    }
    const double n = samples.size();
    e.halfWidth = StudentT95(e.samples - 1) * std::sqrt(squares / (n - 1) / n);
    return e;
}

ConfidenceInterval::Estimate
ConfidenceInterval::OfBatchMeans(const std::vector<double>& series, uint32_t batches)
{
    // Fewer values than batches: no interval (a batch of a fraction of a step means nothing).
    const std::size_t b = std::max<uint32_t>(batches, 2);
    if (series.size() < b)
    {
        return OfMean({});
    }
    const std::size_t size = series.size() / b;
    const std::size_t first = series.size() - b * size;
    std::vector<double> means;
    for (std::size_t i = 0; i < b; ++i)
    {
        const auto begin = series.begin() + first + i * size;
        double sum = 0;
        std::for_each(begin,
                      begin + size,
                      [&sum](double x)
                      {
                          sum += x;
                      });
        means.push_back(sum / size);
    }
    return OfMean(means);
}

} // namespace ns3

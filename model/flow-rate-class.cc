/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-rate-class.h"

#include "ns3/assert.h"

#include <algorithm>

namespace ns3
{
namespace flow
{

void
RateClass::Reset(double now, double rate)
{
    m_p.assign(1, Piece{now, 0.0, rate});
}

bool
RateClass::SetRate(double now, double rate)
{
    Piece& last = m_p.back();
    NS_ASSERT_MSG(now >= last.t, "rate change before the last one");
    if (rate == last.r)
    {
        return false;
    }
    if (now == last.t)
    {
        last.r = rate; // a piece of zero length: replace its rate
        return true;
    }
    const double v = last.v + last.r * (now - last.t);
    m_p.push_back(Piece{now, v, rate});
    return true;
}

std::size_t
RateClass::PieceAt(double time) const
{
    if (time >= m_p.back().t)
    {
        return m_p.size() - 1; // the usual case: now
    }
    auto it = std::upper_bound(m_p.begin(),
                               m_p.end(),
                               time,
                               [](double x, const Piece& p)
                               {
                                   return x < p.t;
                               });
    return it == m_p.begin() ? 0 : static_cast<std::size_t>(it - m_p.begin()) - 1;
}

double
RateClass::VirtualAt(double time) const
{
    const Piece& p = m_p[PieceAt(time)];
    return p.v + p.r * std::max(0.0, time - p.t);
}

double
RateClass::TimeAt(double target, double from, std::size_t& piece) const
{
    const Piece& at = m_p[piece];
    if (target <= at.v + at.r * std::max(0.0, from - at.t))
    {
        return from;
    }
    // The first piece after `piece` whose start has V >= target: gallop (1, 2, 4, ... pieces
    // ahead), then bisect the last gap. The crossing is in the piece before it, whose rate is
    // positive since V grew across it.
    const std::size_t n = m_p.size();
    std::size_t lo = piece + 1;
    std::size_t hi = lo;
    for (std::size_t step = 1; hi < n && m_p[hi].v < target; step *= 2)
    {
        lo = hi + 1;
        hi = lo + step;
    }
    auto it = std::lower_bound(m_p.begin() + static_cast<std::ptrdiff_t>(lo),
                               m_p.begin() + static_cast<std::ptrdiff_t>(std::min(hi, n)),
                               target,
                               [](const Piece& p, double x)
                               {
                                   return p.v < x;
                               });
    const std::size_t j = static_cast<std::size_t>(it - m_p.begin()) - 1;
    const Piece& p = m_p[j];
    if (p.r <= 0)
    {
        return INF;
    }
    piece = j;
    return std::max(from, p.t + (target - p.v) / p.r);
}

double
RateClass::ServiceStart(double from, std::size_t& piece) const
{
    for (std::size_t k = piece; k < m_p.size(); ++k)
    {
        if (m_p[k].r > 0)
        {
            piece = k;
            return std::max(from, m_p[k].t);
        }
    }
    return INF;
}

} // namespace flow
} // namespace ns3

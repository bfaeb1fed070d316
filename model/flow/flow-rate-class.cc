/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-rate-class.h"

#include "flow-event-core.h"

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
    m_last = 0;
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
    ++m_last;
    return true;
}

std::size_t
RateClass::PieceBefore(double time) const
{
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
RateClass::TimeAfter(double target, double from, std::size_t& piece) const
{
    // The first piece after `piece` whose start has V >= target: gallop (1, 2, 4, ... pieces
    // ahead), then bisect the last gap. The crossing is in the piece before it, whose rate is
    // positive since V grew across it.
    const std::size_t n = m_last + 1;
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
    std::size_t j = static_cast<std::size_t>(it - m_p.begin()) - 1;
    const Piece& p = m_p[j];
    if (p.r <= 0)
    {
        return INF;
    }
    if (j > 0 && m_p[j - 1].r == 0 && target - p.v <= ByteTolerance(target))
    {
        // V paused within rounding of the target (e.g. FCFS took the rate away at the very
        // instant a segment was sent): it was reached when the pause began, not after it.
        while (j > 0 && m_p[j - 1].r == 0)
        {
            --j;
        }
        piece = j;
        return std::max(from, m_p[j].t);
    }
    piece = j;
    return std::max(from, p.t + (target - p.v) / p.r);
}

} // namespace flow
} // namespace ns3

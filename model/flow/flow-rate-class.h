/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_RATE_CLASS_H
#define FLOW_RATE_CLASS_H

#include "flow-event-core.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ns3
{
namespace flow
{

/**
 * \ingroup distributed-training
 * \brief Active connections that send at one common rate, advanced lazily.
 *
 * Why: when K connections share a parameter server's link, every arrival or departure changes
 * the rate of all K. Advancing each of them at every change costs O(K) per event and O(K^2) per
 * training step. A rate class keeps the integral of its rate instead, the "virtual bytes"
 * V(t) = bytes one member has sent since the class began, as a piecewise-linear function of time
 * (one piece per rate change). A member that joined when V was v0 has sent V(t) - v0 bytes at t,
 * and its queue drains when V reaches v0 + queued: a rate change costs O(1) for the whole class,
 * and a member is touched only when something happens to it (its queue drains, it changes class),
 * at which point the times inside its queue (tensor boundaries) are found by binary search in the
 * history.
 *
 * The history is kept from the class's base time on; FlowPsEngine rebases a class (advances its
 * members to now, then starts a one-piece history) when the history outgrows its members, so that
 * its length stays O(members) and every rebase is paid by the rate changes that preceded it.
 */
class RateClass
{
  public:
    /// A member's drain point: when V reaches `v` the admitted queue of `conn` is sent.
    struct Drain
    {
        double v;          //!< virtual bytes at which the queue is sent
        double slack;      //!< bytes within rounding of sent (ByteTolerance of the queue)
        double from;       //!< not before this time (the member's last accounting time)
        uint64_t priority; //!< the member's activation order (ties: the older first)
        uint32_t conn;     //!< connection index
        uint32_t stamp;    //!< the connection's drain stamp when pushed (stale if changed)
    };

    /**
     * \brief Start an empty history at `now` with rate `rate`.
     * \param now time (s)
     * \param rate bytes/s of each member
     */
    void Reset(double now, double rate);

    /**
     * \brief The members' rate from `now` on (a new piece unless it is unchanged).
     * \param now time (>= the last piece's start)
     * \param rate bytes/s
     * \return true if the rate changed
     */
    bool SetRate(double now, double rate);

    /** \return the current rate (bytes/s) */
    double GetRate() const
    {
        return m_p[m_last].r;
    }

    /** \return number of pieces in the history */
    std::size_t GetHistoryLength() const
    {
        return m_p.size();
    }

    /**
     * \param time a time at or after the history's start
     * \return the piece that contains it
     */
    std::size_t PieceAt(double time) const
    {
        // The usual case, now, inline (the engine asks once per segment).
        return time >= m_p[m_last].t ? m_last : PieceBefore(time);
    }

    /**
     * \param time a time at or after the history's start
     * \return V(time)
     */
    double VirtualAt(double time) const
    {
        const Piece& p = m_p[PieceAt(time)];
        return p.v + p.r * std::max(0.0, time - p.t);
    }

    /**
     * \param target virtual bytes
     * \param from a time at or after the history's start
     * \return the first time >= from at which V reaches target, or INF if the current rate never
     *         gets it there
     */
    double TimeAt(double target, double from) const
    {
        const Piece& last = m_p[m_last];
        if (from <= last.t && target > last.v)
        {
            // V(from) <= last.v < target: the crossing is in the last piece (the usual case for
            // a drain point after a rate change), no search.
            return last.r > 0 ? std::max(from, last.t + (target - last.v) / last.r) : INF;
        }
        std::size_t k = PieceAt(from);
        return TimeAt(target, from, k);
    }

    /**
     * \brief TimeAt for a sequence of lookups forward in time (a connection's segments): the
     * search gallops from the piece of the previous answer, so that a lookup costs the log of
     * the pieces it skips, not of the whole history.
     * \param target virtual bytes
     * \param from a time at or after the history's start
     * \param piece in: the piece that contains `from`; out: the one that contains the answer
     * \return as TimeAt(target, from)
     */
    double TimeAt(double target, double from, std::size_t& piece) const
    {
        // Inline: the answer is `from` itself, or inside `piece` (the next piece, if any, starts
        // at or beyond the target); else the gallop of TimeAfter.
        const Piece& at = m_p[piece];
        if (target <= at.v + at.r * std::max(0.0, from - at.t))
        {
            return from;
        }
        if (piece < m_last && m_p[piece + 1].v < target)
        {
            return TimeAfter(target, from, piece);
        }
        return at.r > 0 ? std::max(from, at.t + (target - at.v) / at.r) : INF;
    }

    /**
     * \param d a drain point
     * \return when V reaches d.v; if it never does at the current rate, when it came within
     *         d.slack of it (as Advance counts a queue within rounding of its budget as sent)
     */
    double DrainTime(const Drain& d) const
    {
        const double t = TimeAt(d.v, d.from);
        return t < INF ? t : TimeAt(d.v - d.slack, d.from);
    }

    /**
     * \param from a time at or after the history's start
     * \param piece in: the piece that contains `from`; out: the one that contains the answer
     * \return the first time >= from at which the rate is positive (INF if none so far)
     */
    double ServiceStart(double from, std::size_t& piece) const
    {
        for (std::size_t k = piece; k <= m_last; ++k)
        {
            // A piece that ended by `from` does not serve it (the rate may have dropped to 0 at
            // that very instant: FCFS gave the link to an earlier connection).
            if (m_p[k].r > 0 && (k == m_last || m_p[k + 1].t > from))
            {
                piece = k;
                return std::max(from, m_p[k].t);
            }
        }
        return INF;
    }

    /**
     * \brief Queue a member's drain point.
     * \param d the drain
     */
    void PushDrain(const Drain& d)
    {
        m_drains.push_back(d);
        std::push_heap(m_drains.begin(), m_drains.end(), Later());
    }

    /** \return true if some drain point (maybe stale) is queued */
    bool HasDrain() const
    {
        return !m_drains.empty();
    }

    /** \return the earliest drain point (maybe stale) */
    const Drain& TopDrain() const
    {
        return m_drains.front();
    }

    /// Drop the earliest drain point.
    void PopDrain()
    {
        std::pop_heap(m_drains.begin(), m_drains.end(), Later());
        m_drains.pop_back();
    }

    /// Drop every drain point.
    void ClearDrains()
    {
        m_drains.clear(); // keeps the memory: one-member classes are rebased every few changes
    }

    std::vector<uint32_t> members; //!< connections in the class
    uint32_t group{0};             //!< direction (FlowPsEngine group) of its members
    uint32_t listPos{0};           //!< index in its group's list of live classes
    uint32_t heapPos{0};           //!< index in its group's heap of classes by nextTime
    double nextTime{INF};          //!< its earliest valid drain time
    bool live{false};              //!< has members (else on the free list)

  private:
    /// Heap order: lowest virtual bytes first, then activation order.
    struct Later
    {
        /**
         * \param a one drain
         * \param b another
         * \return true if a comes after b
         */
        bool operator()(const Drain& a, const Drain& b) const
        {
            return a.v > b.v || (a.v == b.v && a.priority > b.priority);
        }
    };

    /// A piece of the history: from t on, V = v + r (time - t).
    struct Piece
    {
        double t; //!< start (s)
        double v; //!< V at the start (bytes)
        double r; //!< rate (bytes/s)
    };

    /**
     * \param time a time before the last piece's start, at or after the history's start
     * \return the piece that contains it (binary search)
     */
    std::size_t PieceBefore(double time) const;

    /**
     * \brief TimeAt when V reaches the target after the next piece's start: gallop (1, 2, 4, ...
     * pieces ahead), then bisect the last gap. If V paused (rate 0) within ByteTolerance of the
     * target, the answer is the pause's start: the bytes were sent when it began.
     * \param target virtual bytes (above V at the start of piece + 1)
     * \param from as TimeAt
     * \param piece as TimeAt
     * \return as TimeAt
     */
    double TimeAfter(double target, double from, std::size_t& piece) const;

    std::vector<Piece> m_p;      //!< the history, one piece per rate change
    std::size_t m_last{0};       //!< m_p.size() - 1, kept (pieces are 24 bytes: size() divides)
    std::vector<Drain> m_drains; //!< members' drain points, a heap in the order of Later
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_RATE_CLASS_H */

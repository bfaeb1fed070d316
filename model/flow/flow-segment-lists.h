/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_SEGMENT_LISTS_H
#define FLOW_SEGMENT_LISTS_H

#include "flow-event-core.h"
#include "flow-ps-types.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace flow
{

/**
 * What a FlowPsEngine run's connections send and when: the tensors' servers and sizes, every
 * connection's list of segments (one list per server and direction shared by every worker, one
 * per downlink connection with a random order), the gradients' ready times (overlap on) and the
 * tensors' per-layer start and arrival times where something reads them per layer. Kept apart
 * from the connections (TransferTable) so that a connection stays two cache lines
 * (flow-ps-types.h).
 */
class SegmentLists
{
  public:
    /// \param in the run's inputs (layers, servers, WIN, overlap, GPUs, transfer records)
    explicit SegmentLists(const EngineInputs& in);

    /**
     * \brief Lay out the lists and point each connection at its own (segBase, nSegs).
     * \param conns every connection (ConnIndex order)
     */
    void Lay(std::vector<Connection>& conns);
    /**
     * \brief Write the downlink segments of a transmission order into the worker's lists (the
     * shared ones unless the order is random): per server, its first services (at most WIN
     * bytes each) in order, then the second services of the tensors that had bytes left.
     * \param w worker
     * \param order the layers in transmission order
     * \param conns every connection
     */
    void WriteDownlink(uint32_t w,
                       const std::vector<uint32_t>& order,
                       const std::vector<Connection>& conns);

    /** \return the server of each layer */
    const std::vector<uint32_t>& Owners() const
    {
        return m_owner;
    }

    /** \param l layer \return its tensor's bytes */
    double LayerBytes(uint32_t l) const
    {
        return m_bytes[l];
    }

    /// \param s a segment \return its payload bytes (the tensor's, WIN, or the rest)
    double SegmentBytes(const Segment& s) const
    {
        return s.first ? (s.last ? m_bytes[s.layer] : m_win) : m_bytes[s.layer] - m_win;
    }

    /** \param c a connection \return its segments (nSegs of them) */
    const Segment* Of(const Connection& c) const
    {
        return m_segPool.data() + c.segBase;
    }

    /** \param c a connection \param i one of its segments \return when it may be sent (s) */
    double ReadyOf(const Connection& c, uint32_t i) const
    {
        return m_readyPool.empty() || c.dir == DOWN ? c.ready
                                                    : m_readyPool[Row(c.worker) + Of(c)[i].layer];
    }

    /** \param w worker \return its per-layer arrival times, or null where none are kept */
    double* ArrivalsOf(uint32_t w)
    {
        return m_ends.empty() ? nullptr : m_ends.data() + Row(w);
    }

    /** \param w worker \return its per-layer arrival times, or null where none are kept */
    const double* ArrivalsOf(uint32_t w) const
    {
        return m_ends.empty() ? nullptr : m_ends.data() + Row(w);
    }

    /** \param w worker \return its per-layer start times (transfer records on), else null */
    double* StartsOf(uint32_t w)
    {
        return m_starts.empty() ? nullptr : m_starts.data() + Row(w);
    }

    /** \param w worker \return its gradients' ready times (overlap on), else null */
    double* GradientReadyOf(uint32_t w)
    {
        return m_readyPool.empty() ? nullptr : m_readyPool.data() + Row(w);
    }

  private:
    /// \param w worker \return the start of its row in the per-worker, per-layer vectors
    std::size_t Row(uint32_t w) const
    {
        return static_cast<std::size_t>(w) * m_l;
    }

    uint32_t m_k;                   //!< workers
    uint32_t m_p;                   //!< servers
    uint32_t m_l;                   //!< layers
    double m_win;                   //!< WIN: bytes of a first service (001 Sec. 3.2.2)
    bool m_random;                  //!< a random order: a downlink list per connection
    std::vector<uint32_t> m_owner;  //!< server of each layer
    std::vector<double> m_bytes;    //!< bytes of each layer
    std::vector<Segment> m_segPool; //!< every connection's segments (Connection::segBase)
    /// Overlap on: per worker and layer, when its gradient may leave (else Connection::ready).
    std::vector<double> m_readyPool;
    /// Per worker and layer, when its tensor arrived (its parameters at the worker, then its
    /// gradient at the server: one direction at a time, since every parameter is in before the
    /// first gradient is queued and every gradient out before the next step's parameters are).
    /// Kept only when something reads it per layer (overlap, several GPUs, transfer records);
    /// else the connections' latest arrivals are all that is read.
    std::vector<double> m_ends;
    std::vector<double> m_starts;  //!< with transfer records: per worker and layer, its start
    std::vector<uint32_t> m_fill;  //!< scratch: per server, segments written
    std::vector<uint32_t> m_split; //!< scratch: tensors split by WIN
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_SEGMENT_LISTS_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-segment-lists.h"

#include "ns3/training-profile.h"
#include "ns3/training-scenario.h"

#include <algorithm>

namespace ns3
{
namespace flow
{

SegmentLists::SegmentLists(const EngineInputs& in)
    : m_k(in.scenario.workers),
      m_p(std::max<uint32_t>(1, in.scenario.servers)),
      m_l(static_cast<uint32_t>(in.profile.GetNLayers())),
      m_win(static_cast<double>(in.scenario.windowBytes)),
      m_random(in.scenario.order == TrainingScenario::RANDOM_ORDER),
      m_owner(in.scenario.AssignLayersToServers(in.profile))
{
    for (const auto& layer : in.profile.GetLayers())
    {
        m_bytes.push_back(static_cast<double>(layer.paramBytes));
    }
    const std::size_t perLayer = static_cast<std::size_t>(m_k) * m_l;
    if (in.scenario.overlap || in.scenario.gpusPerNode > 1 || in.options.recordTransfers)
    {
        m_ends.assign(perLayer, 0);
    }
    if (in.options.recordTransfers)
    {
        m_starts.assign(perLayer, 0);
    }
    if (in.scenario.overlap)
    {
        m_readyPool.assign(perLayer, 0);
    }
}

void
SegmentLists::Lay(std::vector<Connection>& conns)
{
    // Per server: its layers (one uplink segment each) and downlink segments (two for a layer
    // that WIN splits).
    std::vector<uint32_t> up(m_p, 0);
    std::vector<uint32_t> down(m_p, 0);
    for (uint32_t l = 0; l < m_l; ++l)
    {
        ++up[m_owner[l]];
        down[m_owner[l]] += m_win > 0 && m_bytes[l] > m_win ? 2 : 1;
    }
    for (uint32_t p = 0; p < m_p; ++p)
    {
        const auto base = static_cast<uint32_t>(m_segPool.size());
        // Gradients leave in backward order, whole (QueueGradients).
        for (uint32_t i = m_l; i-- > 0;)
        {
            if (m_owner[i] == p)
            {
                m_segPool.push_back(Segment{i, true, true});
            }
        }
        const auto shared = static_cast<uint32_t>(m_segPool.size());
        m_segPool.resize(m_segPool.size() + (m_random ? 0 : down[p]));
        for (uint32_t w = 0; w < m_k; ++w)
        {
            Connection& u = conns[ConnIndex(m_p, w, p, UP)];
            u.segBase = base;
            u.nSegs = up[p];
            Connection& d = conns[ConnIndex(m_p, w, p, DOWN)];
            d.segBase = shared;
            d.nSegs = down[p];
        }
    }
    if (m_random)
    {
        for (uint32_t w = 0; w < m_k; ++w)
        {
            for (uint32_t p = 0; p < m_p; ++p)
            {
                Connection& d = conns[ConnIndex(m_p, w, p, DOWN)];
                d.segBase = static_cast<uint32_t>(m_segPool.size());
                m_segPool.resize(m_segPool.size() + d.nSegs);
            }
        }
    }
}

void
SegmentLists::WriteDownlink(uint32_t w,
                            const std::vector<uint32_t>& order,
                            const std::vector<Connection>& conns)
{
    // 001 Sec. 3.2.2: first services (at most WIN bytes each) in order, then the second services
    // of the streams that had bytes left, in the order they were preempted. All streams of the
    // step are queued at once, so this is the whole FIFO schedule of Fig. 12.
    m_fill.assign(m_p, 0);
    m_split.clear();
    for (uint32_t l : order)
    {
        const Connection& c = conns[ConnIndex(m_p, w, m_owner[l], DOWN)];
        const bool whole = m_win <= 0 || m_bytes[l] <= m_win;
        m_segPool[c.segBase + m_fill[m_owner[l]]++] = Segment{l, true, whole};
        if (!whole)
        {
            m_split.push_back(l);
        }
    }
    for (uint32_t l : m_split)
    {
        const Connection& c = conns[ConnIndex(m_p, w, m_owner[l], DOWN)];
        m_segPool[c.segBase + m_fill[m_owner[l]]++] = Segment{l, false, true};
    }
}

} // namespace flow
} // namespace ns3

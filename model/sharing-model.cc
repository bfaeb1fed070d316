/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sharing-model.h"

#include "ns3/log.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SharingModel");

NS_OBJECT_ENSURE_REGISTERED(SharingModel);

TypeId
SharingModel::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::SharingModel").SetParent<Object>().SetGroupName("DistributedTraining");
    return tid;
}

SharingModel::SharingModel()
{
    NS_LOG_FUNCTION(this);
}

SharingModel::~SharingModel()
{
    NS_LOG_FUNCTION(this);
}

void
SharingModel::PrepareScratch(std::size_t nLinks) const
{
    if (m_remaining.size() < nLinks)
    {
        m_remaining.resize(nLinks, 0);
        m_count.resize(nLinks, 0);
        m_weight.resize(nLinks, 0);
        m_tight.resize(nLinks, 0);
    }
    m_touched.clear();
}

void
SharingModel::MaxMinFair(const std::vector<Flow>& flows,
                         const std::vector<double>& capacity,
                         bool honourCaps,
                         std::vector<double>& rates,
                         const std::vector<double>* weights) const
{
    const std::size_t n = flows.size();
    rates.assign(n, 0.0);
    if (n == 0)
    {
        return;
    }
    NS_ASSERT_MSG(!weights || weights->size() == n, "one weight per flow");
    auto weightOf = [weights](std::size_t i)
    {
        return weights ? (*weights)[i] : 1.0;
    };
    PrepareScratch(capacity.size());
    for (std::size_t j = 0; j < n; ++j)
    {
        const Flow& f = flows[j];
        for (uint32_t i = 0; i < f.nLinks; ++i)
        {
            uint32_t l = f.links[i];
            NS_ASSERT_MSG(l < capacity.size(), "flow crosses unknown link " << l);
            if (m_count[l] == 0)
            {
                m_touched.push_back(l);
                m_remaining[l] = capacity[l];
                m_weight[l] = 0;
            }
            ++m_count[l];
            m_weight[l] += weightOf(j);
        }
    }
    m_frozen.assign(n, 0);
    const double inf = std::numeric_limits<double>::infinity();
    std::size_t unfrozen = n;
    while (unfrozen > 0)
    {
        // Every unfrozen flow i runs at weight_i x `level`: level is the lowest fair share of a
        // link (what is left after the frozen flows, divided by the unfrozen flows' weight), or
        // the lowest cap / weight.
        double level = inf;
        for (uint32_t l : m_touched)
        {
            if (m_count[l] > 0)
            {
                level = std::min(level, std::max(0.0, m_remaining[l]) / m_weight[l]);
            }
        }
        if (honourCaps)
        {
            for (std::size_t i = 0; i < n; ++i)
            {
                if (!m_frozen[i])
                {
                    level = std::min(level, flows[i].cap / weightOf(i));
                }
            }
        }
        if (level == inf)
        {
            // Flows crossing no link and uncapped: nothing limits them.
            for (std::size_t i = 0; i < n; ++i)
            {
                if (!m_frozen[i])
                {
                    rates[i] = inf;
                }
            }
            break;
        }
        // Mark the full links first, so that freezing flows does not disturb the test.
        for (uint32_t l : m_touched)
        {
            m_tight[l] = m_count[l] > 0 && std::max(0.0, m_remaining[l]) / m_weight[l] <= level;
        }
        const std::size_t unfrozenBefore = unfrozen;
        for (std::size_t i = 0; i < n; ++i)
        {
            if (m_frozen[i])
            {
                continue;
            }
            const Flow& f = flows[i];
            const double w = weightOf(i);
            // The same expressions as above, so that the limiting flow or link compares equal.
            bool limited = honourCaps && f.cap / w <= level;
            for (uint32_t k = 0; k < f.nLinks && !limited; ++k)
            {
                limited = m_tight[f.links[k]] != 0;
            }
            if (!limited)
            {
                continue;
            }
            rates[i] = honourCaps ? std::min(w * level, f.cap) : w * level;
            m_frozen[i] = 1;
            --unfrozen;
            for (uint32_t k = 0; k < f.nLinks; ++k)
            {
                uint32_t l = f.links[k];
                m_remaining[l] -= rates[i];
                --m_count[l];
                m_weight[l] -= w;
            }
        }
        if (unfrozen == unfrozenBefore)
        {
            // Cannot happen in exact arithmetic (the flow or link that set `level` is limited);
            // a guard against rounding, so that a rate computation always ends.
            NS_ASSERT_MSG(false, "progressive filling made no progress at level " << level);
            for (std::size_t i = 0; i < n; ++i)
            {
                if (!m_frozen[i])
                {
                    rates[i] = honourCaps ? std::min(weightOf(i) * level, flows[i].cap)
                                          : weightOf(i) * level;
                    m_frozen[i] = 1;
                }
            }
            break;
        }
    }
    for (uint32_t l : m_touched)
    {
        m_count[l] = 0;
    }
}

} // namespace ns3

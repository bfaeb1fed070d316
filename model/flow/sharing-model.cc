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

bool
SharingModel::IsPlainMaxMin(bool& /* honoursCaps */) const
{
    return false;
}

bool
SharingModel::IsFirstComeFirstServed() const
{
    return false;
}

void
SharingModel::AssignAggregateRates(const std::vector<Flow>& aggregates,
                                   const std::vector<double>& weights,
                                   const std::vector<double>& capacity,
                                   std::vector<double>& rates) const
{
    // n identical flows at rate r each are one flow of weight n at n r, capped at n x cap.
    MaxMinFair(aggregates, capacity, true, rates, &weights);
}

namespace
{
/**
 * \param weights null or the weights
 * \param i flow index
 * \return flow i's weight (1 without weights)
 */
inline double
WeightOf(const std::vector<double>* weights, std::size_t i)
{
    return weights ? (*weights)[i] : 1.0;
}
} // namespace

void
SharingModel::LoadLinks(const std::vector<Flow>& flows,
                        const std::vector<double>& capacity,
                        const std::vector<double>* weights) const
{
    PrepareScratch(capacity.size());
    for (std::size_t j = 0; j < flows.size(); ++j)
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
            m_weight[l] += WeightOf(weights, j);
        }
    }
    m_live.resize(flows.size());
    for (std::size_t j = 0; j < flows.size(); ++j)
    {
        m_live[j] = static_cast<uint32_t>(j);
    }
}

double
SharingModel::NextLevel(const std::vector<Flow>& flows,
                        bool honourCaps,
                        const std::vector<double>* weights) const
{
    // Every unfrozen flow i runs at weight_i x `level`: level is the lowest fair share of a
    // link (what is left after the frozen flows, divided by the unfrozen flows' weight), or
    // the lowest cap / weight.
    double level = std::numeric_limits<double>::infinity();
    for (uint32_t l : m_touched)
    {
        if (m_count[l] > 0)
        {
            level = std::min(level, std::max(0.0, m_remaining[l]) / m_weight[l]);
        }
    }
    for (std::size_t j = 0; honourCaps && j < m_live.size(); ++j)
    {
        const uint32_t i = m_live[j];
        level = std::min(level, flows[i].cap / WeightOf(weights, i));
    }
    return level;
}

std::size_t
SharingModel::FreezeLimited(const std::vector<Flow>& flows,
                            bool honourCaps,
                            const std::vector<double>* weights,
                            double level,
                            std::vector<double>& rates) const
{
    // Mark the full links first, so that freezing flows does not disturb the test.
    for (uint32_t l : m_touched)
    {
        m_tight[l] = m_count[l] > 0 && std::max(0.0, m_remaining[l]) / m_weight[l] <= level;
    }
    // The unfrozen flows, in index order; the frozen ones leave the list, so that a level costs
    // the flows still unfrozen, not all of them.
    std::size_t kept = 0;
    for (std::size_t j = 0; j < m_live.size(); ++j)
    {
        const uint32_t i = m_live[j];
        const Flow& f = flows[i];
        const double w = WeightOf(weights, i);
        // The same expressions as in NextLevel, so that the limiting flow or link compares equal.
        bool limited = honourCaps && f.cap / w <= level;
        for (uint32_t k = 0; k < f.nLinks && !limited; ++k)
        {
            limited = m_tight[f.links[k]] != 0;
        }
        if (!limited)
        {
            m_live[kept++] = i;
            continue;
        }
        rates[i] = honourCaps ? std::min(w * level, f.cap) : w * level;
        for (uint32_t k = 0; k < f.nLinks; ++k)
        {
            uint32_t l = f.links[k];
            m_remaining[l] -= rates[i];
            --m_count[l];
            m_weight[l] -= w;
        }
    }
    const std::size_t frozen = m_live.size() - kept;
    m_live.resize(kept);
    return frozen;
}

void
SharingModel::FreezeRest(const std::vector<Flow>& flows,
                         bool honourCaps,
                         const std::vector<double>* weights,
                         double level,
                         std::vector<double>& rates) const
{
    for (uint32_t i : m_live)
    {
        const double w = WeightOf(weights, i);
        rates[i] = honourCaps ? std::min(w * level, flows[i].cap) : w * level;
    }
    m_live.clear();
}

void
SharingModel::MaxMinFair(const std::vector<Flow>& flows,
                         const std::vector<double>& capacity,
                         bool honourCaps,
                         std::vector<double>& rates,
                         const std::vector<double>* weights) const
{
    rates.assign(flows.size(), 0.0);
    if (flows.empty())
    {
        return;
    }
    NS_ASSERT_MSG(!weights || weights->size() == flows.size(), "one weight per flow");
    LoadLinks(flows, capacity, weights);
    std::size_t unfrozen = flows.size();
    while (unfrozen > 0)
    {
        const double level = NextLevel(flows, honourCaps, weights);
        if (level == std::numeric_limits<double>::infinity())
        {
            // Flows crossing no link and uncapped: nothing limits them.
            FreezeRest(flows, honourCaps, weights, level, rates);
            break;
        }
        const std::size_t frozen = FreezeLimited(flows, honourCaps, weights, level, rates);
        if (frozen == 0)
        {
            // Cannot happen in exact arithmetic (the flow or link that set `level` is limited);
            // a guard against rounding, so that a rate computation always ends.
            NS_ASSERT_MSG(false, "progressive filling made no progress at level " << level);
            FreezeRest(flows, honourCaps, weights, level, rates);
            break;
        }
        unfrozen -= frozen;
    }
    for (uint32_t l : m_touched)
    {
        m_count[l] = 0;
    }
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fcfs-sharing.h"

#include "sharing-model-registry.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FcfsSharing");

NS_OBJECT_ENSURE_REGISTERED(FcfsSharing);
DT_REGISTER_SHARING(
    "fcfs",
    FcfsSharing,
    10,
    SharingModelRegistry::IN_ALL,
    "",
    "first come, first served: each flow takes what earlier flows left on its links "
    "(Algorithm 1's FCFS Share, 000 Sec. 2.2.2; Eq. (8) for sync PS)");

TypeId
FcfsSharing::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FcfsSharing")
                            .SetParent<SharingModel>()
                            .SetGroupName("DistributedTraining")
                            .AddConstructor<FcfsSharing>();
    return tid;
}

FcfsSharing::FcfsSharing()
{
    NS_LOG_FUNCTION(this);
}

FcfsSharing::~FcfsSharing()
{
    NS_LOG_FUNCTION(this);
}

void
FcfsSharing::AssignRates(const std::vector<Flow>& flows,
                         const std::vector<double>& capacity,
                         std::vector<double>& rates) const
{
    const std::size_t n = flows.size();
    rates.assign(n, 0.0);
    m_order.resize(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        m_order[i] = static_cast<uint32_t>(i);
        for (uint32_t k = 0; k < flows[i].nLinks; ++k)
        {
            NS_ASSERT_MSG(flows[i].links[k] < capacity.size(),
                          "flow crosses unknown link " << flows[i].links[k]);
        }
    }
    auto earlier = [&flows](uint32_t a, uint32_t b)
    {
        return flows[a].priority < flows[b].priority
               || (flows[a].priority == flows[b].priority && a < b);
    };
    if (!std::is_sorted(m_order.begin(), m_order.end(), earlier))
    {
        std::sort(m_order.begin(), m_order.end(), earlier);
    }
    m_rule.Begin(capacity);
    for (uint32_t i : m_order)
    {
        rates[i] = m_rule.Serve(flows[i].links.data(), flows[i].nLinks);
    }
}

bool
FcfsSharing::IsFirstComeFirstServed() const
{
    return true;
}

std::string
FcfsSharing::GetName() const
{
    return "fcfs";
}

} // namespace ns3

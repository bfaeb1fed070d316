/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ps-sharing.h"

#include "ns3/log.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PsSharing");

NS_OBJECT_ENSURE_REGISTERED(PsSharing);

TypeId
PsSharing::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PsSharing")
                            .SetParent<SharingModel>()
                            .SetGroupName("DistributedTraining")
                            .AddConstructor<PsSharing>();
    return tid;
}

PsSharing::PsSharing()
    : PsSharing(false)
{
}

PsSharing::PsSharing(bool honourCaps)
    : m_honourCaps(honourCaps)
{
    NS_LOG_FUNCTION(this << honourCaps);
}

PsSharing::~PsSharing()
{
    NS_LOG_FUNCTION(this);
}

void
PsSharing::AssignRates(const std::vector<Flow>& flows,
                       const std::vector<double>& capacity,
                       std::vector<double>& rates) const
{
    MaxMinFair(flows, capacity, m_honourCaps, rates);
}

std::string
PsSharing::GetName() const
{
    return "ps";
}

bool
PsSharing::IsPlainMaxMin(bool& honoursCaps) const
{
    honoursCaps = m_honourCaps;
    return true;
}

} // namespace ns3

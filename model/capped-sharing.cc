/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "capped-sharing.h"

#include "ns3/log.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CappedSharing");

NS_OBJECT_ENSURE_REGISTERED(CappedSharing);

TypeId
CappedSharing::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CappedSharing")
                            .SetParent<SharingModel>()
                            .SetGroupName("DistributedTraining")
                            .AddConstructor<CappedSharing>();
    return tid;
}

CappedSharing::CappedSharing()
{
    NS_LOG_FUNCTION(this);
}

CappedSharing::~CappedSharing()
{
    NS_LOG_FUNCTION(this);
}

void
CappedSharing::AssignRates(const std::vector<Flow>& flows,
                           const std::vector<double>& capacity,
                           std::vector<double>& rates) const
{
    MaxMinFair(flows, capacity, true, rates);
}

std::string
CappedSharing::GetName() const
{
    return "capped";
}

bool
CappedSharing::IsPlainMaxMin(bool& honoursCaps) const
{
    honoursCaps = true;
    return true;
}

} // namespace ns3

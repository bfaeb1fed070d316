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
                            .SetParent<PsSharing>()
                            .SetGroupName("DistributedTraining")
                            .AddConstructor<CappedSharing>();
    return tid;
}

CappedSharing::CappedSharing()
    : PsSharing(true)
{
    NS_LOG_FUNCTION(this);
}

std::string
CappedSharing::GetName() const
{
    return "capped";
}

} // namespace ns3

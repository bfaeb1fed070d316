/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "capped-sharing.h"

#include "sharing-model-registry.h"

#include "ns3/log.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CappedSharing");

NS_OBJECT_ENSURE_REGISTERED(CappedSharing);
DT_REGISTER_SHARING(
    "capped",
    CappedSharing,
    30,
    SharingModelRegistry::IN_ALL | SharingModelRegistry::HONOURS_CAPS,
    "",
    "max-min fair with the scenario's per-flow cap (000 Sec. 4.4, the modified Share)");

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

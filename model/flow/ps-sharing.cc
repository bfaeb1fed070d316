/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ps-sharing.h"

#include "sharing-model-registry.h"

#include "ns3/log.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PsSharing");

NS_OBJECT_ENSURE_REGISTERED(PsSharing);
DT_REGISTER_SHARING(
    "ps",
    PsSharing,
    20,
    SharingModelRegistry::IN_ALL,
    "capped",
    "processor sharing: max-min fair shares, per-flow caps ignored (Algorithm 1's PS "
    "Share, 000 Sec. 2.2.2; Eq. (7) for sync PS; 001 Sec. 3.1)");

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

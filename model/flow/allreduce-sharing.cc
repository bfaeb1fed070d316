/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "allreduce-sharing.h"

#include "sharing-model-registry.h"

#include "ns3/log.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AllReduceSharing");

NS_OBJECT_ENSURE_REGISTERED(AllReduceSharing);
DT_REGISTER_SHARING(
    "allreduce",
    AllReduceSharing,
    60,
    SharingModelRegistry::HONOURS_CAPS | SharingModelRegistry::RING,
    "",
    "full bandwidth: every flow at its slowest link's rate, at most its cap; every ring "
    "uses it (Algorithm 1's ALL_REDUCE Share, 000 Sec. 3.2.2)");

TypeId
AllReduceSharing::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AllReduceSharing")
                            .SetParent<SharingModel>()
                            .SetGroupName("DistributedTraining")
                            .AddConstructor<AllReduceSharing>();
    return tid;
}

AllReduceSharing::AllReduceSharing()
{
    NS_LOG_FUNCTION(this);
}

AllReduceSharing::~AllReduceSharing()
{
    NS_LOG_FUNCTION(this);
}

void
AllReduceSharing::AssignRates(const std::vector<Flow>& flows,
                              const std::vector<double>& capacity,
                              std::vector<double>& rates) const
{
    rates.assign(flows.size(), 0.0);
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        double rate = std::numeric_limits<double>::infinity();
        for (uint32_t k = 0; k < flows[i].nLinks; ++k)
        {
            NS_ASSERT_MSG(flows[i].links[k] < capacity.size(), "flow crosses unknown link");
            rate = std::min(rate, capacity[flows[i].links[k]]);
        }
        rates[i] = std::min(rate, flows[i].cap);
    }
}

std::string
AllReduceSharing::GetName() const
{
    return "allreduce";
}

} // namespace ns3

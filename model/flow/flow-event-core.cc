/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-event-core.h"

#include "ns3/training-input-error.h"
#include "ns3/training-network.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

namespace ns3
{
namespace flow
{

FlowFabric::FlowFabric(const TrainingScenario& scenario, bool useGoodput)
    : m_topology(scenario.BuildFabric())
{
    SetLinks(scenario, useGoodput);
}

FlowFabric::FlowFabric(const TrainingScenario& scenario,
                       bool useGoodput,
                       const FabricTopology& shared,
                       const std::vector<uint32_t>& hosts)
    : m_topology(shared)
{
    std::vector<std::string> names;
    for (uint32_t r = 0; r < hosts.size(); ++r)
    {
        names.push_back(scenario.GetRoleName(r));
    }
    m_topology.SetRoles(hosts, names);
    SetLinks(scenario, useGoodput);
}

void
FlowFabric::SetLinks(const TrainingScenario& scenario, bool useGoodput)
{
    if (!scenario.linkDown.empty())
    {
        // On the placed topology: a job of a set routes its own roles around the fabric's
        // outages (its scenario holds them, TrainingJobSet::FixJob) as it does alone.
        m_failures = std::make_shared<const LinkFailures>(m_topology, scenario.linkDown);
    }
    // The scenario's goodput rule (payload / wire bytes of a full segment) at each link's rate;
    // a link at the NIC rate gets exactly the scenario's value.
    const double nic = static_cast<double>(scenario.nicRate.GetBitRate());
    const double goodput = TrainingNetwork::GetLinkGoodputBytesPerSecond(scenario);
    m_capacity.resize(m_topology.GetNLinks());
    for (uint32_t l = 0; l < m_topology.GetNLinks(); ++l)
    {
        const double rate = static_cast<double>(m_topology.GetLink(l).spec.rate.GetBitRate());
        m_capacity[l] = useGoodput ? (rate == nic ? goodput : goodput * (rate / nic)) : rate / 8.0;
    }
}

std::vector<uint32_t>
FlowFabric::GetPath(uint32_t from, uint32_t to, uint16_t srcPort, uint16_t dstPort) const
{
    return GetPathAt(from, to, srcPort, dstPort, 0);
}

std::vector<uint32_t>
FlowFabric::GetPathAt(uint32_t from, uint32_t to, uint16_t srcPort, uint16_t dstPort, double t)
    const
{
    const uint32_t a = m_topology.GetRoleHost(from);
    const uint32_t b = m_topology.GetRoleHost(to);
    FabricTopology::FlowKey key{FabricTopology::GetHostAddress(a),
                                FabricTopology::GetHostAddress(b),
                                srcPort,
                                dstPort,
                                6};
    auto path = m_failures && m_failures->GetEpoch(t) > 0 ? m_failures->GetPath(a, b, key, t)
                                                          : m_topology.GetPath(a, b, key);
    if (path.size() > SharingModel::MAX_LINKS)
    {
        throw TrainingInputError(
            "--topology: a path of " + std::to_string(path.size()) + " links from "
            + m_topology.GetNode(m_topology.GetHostNode(a)).name + " (expected at most "
            + std::to_string(SharingModel::MAX_LINKS) + " links per path in the flow backend)");
    }
    return path;
}

uint32_t
FlowFabric::GetUplink(uint32_t role) const
{
    return m_topology.GetHostUplink(m_topology.GetRoleHost(role));
}

void
FlowFabric::Report(const std::vector<double>& bytes, TrainingResult& result) const
{
    const double window = result.windowEnd - result.windowStart;
    std::vector<uint8_t> placed(m_topology.GetNNodes(), 0);
    for (uint32_t r = 0; r < m_topology.GetNRoles(); ++r)
    {
        placed[m_topology.GetHostNode(m_topology.GetRoleHost(r))] = 1;
    }
    double busiest = -1;
    for (uint32_t l = 0; l < bytes.size() && window > 0; ++l)
    {
        const auto& link = m_topology.GetLink(l);
        if (bytes[l] == 0 && !placed[link.from] && !placed[link.to])
        {
            continue; // idle links away from the job's hosts are left out of the report
        }
        const double u = bytes[l] / (m_capacity[l] * window);
        result.linkUtilisation[link.name] = u;
        if (u > busiest)
        {
            busiest = u;
            result.bottleneck = link.name;
        }
    }
}

} // namespace flow
} // namespace ns3

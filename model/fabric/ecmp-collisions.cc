/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ecmp-collisions.h"

#include "fabric-topology.h"

#include "ns3/flow-event-core.h"
#include "ns3/log.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <algorithm>
#include <map>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EcmpCollisions");

namespace
{

/// The directed links of every data flow of the job (flow::FlowFabric's 5-tuples).
std::vector<std::vector<uint32_t>>
JobPaths(const TrainingScenario& s, const flow::FlowFabric& fabric)
{
    using flow::FlowFabric;
    std::vector<std::vector<uint32_t>> paths;
    const uint32_t k = s.workers;
    if (s.architecture == TrainingScenario::RING_ALLREDUCE)
    {
        for (uint32_t w = 0; k > 1 && w < k; ++w)
        {
            paths.push_back(fabric.GetPath(w,
                                           (w + 1) % k,
                                           FlowFabric::FIRST_EPHEMERAL_PORT,
                                           FlowFabric::SERVICE_PORT));
        }
        return paths;
    }
    const uint32_t servers = std::max<uint32_t>(1, s.servers);
    for (uint32_t w = 0; w < k; ++w)
    {
        for (uint32_t p = 0; p < servers; ++p)
        {
            // The worker's p-th connection: parameters down along the reverse tuple, gradients up.
            const uint16_t port = FlowFabric::FIRST_EPHEMERAL_PORT + p;
            paths.push_back(fabric.GetPath(k + p, w, FlowFabric::SERVICE_PORT, port));
            paths.push_back(fabric.GetPath(w, k + p, port, FlowFabric::SERVICE_PORT));
        }
    }
    return paths;
}

} // namespace

EcmpCollisions
EcmpCollisions::Count(const TrainingScenario& scenario)
{
    EcmpCollisions c;
    if (scenario.topology == "star")
    {
        return c;
    }
    const flow::FlowFabric fabric(scenario, false);
    const FabricTopology& topo = fabric.GetTopology();
    std::vector<std::vector<uint32_t>> fabricLinks; // per flow: its switch-to-switch links
    std::map<uint32_t, uint32_t> flowsOnLink;
    for (const auto& path : JobPaths(scenario, fabric))
    {
        std::vector<uint32_t> inner;
        for (uint32_t l : path)
        {
            const auto& link = topo.GetLink(l);
            if (!topo.GetNode(link.from).host && !topo.GetNode(link.to).host)
            {
                inner.push_back(l);
                ++flowsOnLink[l];
            }
        }
        if (!inner.empty())
        {
            ++c.fabricFlows;
            fabricLinks.push_back(std::move(inner));
        }
    }
    for (const auto& [link, n] : flowsOnLink)
    {
        c.maxFlowsPerLink = std::max(c.maxFlowsPerLink, n);
        c.sharedLinks += n >= 2 ? 1 : 0;
    }
    for (const auto& links : fabricLinks)
    {
        const bool shared = std::any_of(links.begin(),
                                        links.end(),
                                        [&](uint32_t l)
                                        {
                                            return flowsOnLink[l] >= 2;
                                        });
        c.collidedFlows += shared ? 1 : 0;
    }
    NS_LOG_INFO("ecmp seed " << scenario.ecmpSeed << ": " << c.fabricFlows << " fabric flows, max "
                             << c.maxFlowsPerLink << " per link, " << c.sharedLinks
                             << " shared links");
    return c;
}

void
EcmpCollisions::Report(const TrainingScenario& scenario, TrainingResult& result)
{
    if (scenario.topology == "star")
    {
        return;
    }
    const EcmpCollisions c = Count(scenario);
    result.inputs["ecmp_fabric_flows"] = c.fabricFlows;
    result.inputs["ecmp_max_flows_per_link"] = c.maxFlowsPerLink;
    result.inputs["ecmp_shared_links"] = c.sharedLinks;
    result.inputs["ecmp_collided_flows"] = c.collidedFlows;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ECMP_COLLISIONS_H
#define ECMP_COLLISIONS_H

#include <cstdint>

namespace ns3
{

class TrainingResult;
class TrainingScenario;

/**
 * \ingroup distributed-training
 * \brief How a job's data flows land on the switch-to-switch links of its fabric under per-flow
 * ECMP (doc/validation/fabric-congestion.rst).
 *
 * The flows are the data directions of the job's TCP connections with the 5-tuples both
 * backends use (flow::FlowFabric: a PS worker's p-th connection to server p carries the pull
 * down and the push up; ring worker w sends to w + 1), and each one's path is
 * FabricTopology::GetPath(), the hash the packet level's FabricEcmpRouting applies. Two flows
 * "collide" when they cross one directed switch-to-switch link (an uplink, or a spine's link
 * down into a rack): host links are shared by construction and never count.
 */
struct EcmpCollisions
{
    uint32_t fabricFlows{0};     //!< flows that cross at least one switch-to-switch link
    uint32_t maxFlowsPerLink{0}; //!< most flows on one directed switch-to-switch link
    uint32_t sharedLinks{0};     //!< directed switch-to-switch links carrying 2 or more flows
    uint32_t collidedFlows{0};   //!< flows that share at least one such link with another

    /**
     * \param scenario a scenario with a fabric (--topology other than star)
     * \return the collisions of its job (all zero on the star)
     */
    static EcmpCollisions Count(const TrainingScenario& scenario);

    /**
     * \brief Add ecmp_fabric_flows, ecmp_max_flows_per_link, ecmp_shared_links and
     * ecmp_collided_flows to the result's inputs (fabrics only; nothing on the star).
     * \param scenario the scenario
     * \param result the result of the scenario's job
     */
    static void Report(const TrainingScenario& scenario, TrainingResult& result);
};

} // namespace ns3

#endif // ECMP_COLLISIONS_H

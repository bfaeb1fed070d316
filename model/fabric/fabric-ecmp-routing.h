/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_ECMP_ROUTING_H
#define FABRIC_ECMP_ROUTING_H

#include "fabric-topology.h"
#include "link-failures.h"

#include "ns3/distributed-training-compat.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-routing-helper.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"

#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Shortest-path routing with per-flow ECMP on a FabricTopology, for the packet level.
 *
 * ns-3.37's Ipv4GlobalRouting chooses among equal-cost routes per packet when
 * RandomEcmpRouting is on (Ipv4GlobalRouting::LookupGlobal draws a uniform random route for
 * every packet), which reorders the segments of one TCP connection; with it off, it always takes
 * the first route, so no load is spread at all. Switches hash each flow's 5-tuple instead: every
 * packet of a flow takes one path, different flows spread. This protocol does that: at a node,
 * a packet to host h leaves on FabricTopology::GetNextHops(node, h)[EcmpHash(5-tuple, seed, node)
 * mod n], the very choice FabricTopology::GetPath() makes for the flow backend.
 *
 * Addresses follow FabricTopology::GetHostAddress(): host h is 10.a.b.1 (a.b = h) on its link's
 * 10.a.b.0/24; switch-switch link i is 11.c.d.0/24 (c.d = i).
 */
class FabricEcmpRouting : public Ipv4RoutingProtocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FabricEcmpRouting();
    ~FabricEcmpRouting() override;

    /**
     * \brief Give the protocol its place in the fabric (after addresses are assigned).
     * \param fabric the topology (shared by every node's protocol)
     * \param node this node's index in the topology
     * \param interfaces per link leaving the node (FabricTopology::GetOutLinks order): the IPv4
     *        interface index of its device
     * \param gateways per link leaving the node: the address of the neighbour's interface
     */
    void SetFabric(std::shared_ptr<const FabricTopology> fabric,
                   uint32_t node,
                   const std::vector<uint32_t>& interfaces,
                   const std::vector<Ipv4Address>& gateways);

    /**
     * \brief Route around failed links (--linkDown) by LinkFailures' rule from each outage's
     * start; the interfaces themselves are set down by the helper that schedules the outages.
     * \param failures the job's outages (null: none)
     */
    void SetFailures(std::shared_ptr<const LinkFailures> failures);

    /**
     * \param address an IPv4 address
     * \return the host it is the address of, or -1
     */
    static int64_t HostOfAddress(Ipv4Address address);

    Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p,
                               const Ipv4Header& header,
                               Ptr<NetDevice> oif,
                               Socket::SocketErrno& sockerr) override;
    bool RouteInput(Ptr<const Packet> p,
                    const Ipv4Header& header,
                    Ptr<const NetDevice> idev,
                    DtCallbackArg<UnicastForwardCallback> ucb,
                    DtCallbackArg<MulticastForwardCallback> mcb,
                    DtCallbackArg<LocalDeliverCallback> lcb,
                    DtCallbackArg<ErrorCallback> ecb) override;
    void NotifyInterfaceUp(uint32_t interface) override;
    void NotifyInterfaceDown(uint32_t interface) override;
    void NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void SetIpv4(Ptr<Ipv4> ipv4) override;
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream,
                           Time::Unit unit = Time::S) const override;

  protected:
    void DoDispose() override;

  private:
    /**
     * \param header the IP header
     * \param p the packet from its transport header on (may be null: a socket's route lookup)
     * \return the route of the packet's flow, or null when the destination is no host
     */
    Ptr<Ipv4Route> Lookup(const Ipv4Header& header, Ptr<const Packet> p) const;
    /**
     * \param header the IP header
     * \param p the packet from its transport header on (may be null)
     * \return the 5-tuple a switch hashes
     */
    static FabricTopology::FlowKey KeyOf(const Ipv4Header& header, Ptr<const Packet> p);
    /**
     * \param host the destination host
     * \param key the flow's 5-tuple
     * \return the out-link position of the flow's next hop (the ECMP set of the unfailed
     *         fabric, or LinkFailures' rule while a link is down); -1 when there is none
     */
    int64_t PickNextHop(uint32_t host, const FabricTopology::FlowKey& key) const;

    Ptr<Ipv4> m_ipv4;                               //!< this node's IPv4
    std::shared_ptr<const FabricTopology> m_fabric; //!< the topology
    uint32_t m_node{0};                             //!< this node in the topology
    std::vector<uint32_t> m_interfaces;             //!< per out-link: interface index
    std::vector<Ipv4Address> m_gateways;            //!< per out-link: neighbour's address
    std::vector<std::vector<uint32_t>> m_nextHops;  //!< per host: out-link positions (ECMP set)
    int64_t m_ownHost{-1};                          //!< the host this node is (-1 for a switch)
    std::shared_ptr<const LinkFailures> m_failures; //!< failed links (null: none)
};

/**
 * \ingroup distributed-training
 * \brief Installs a FabricEcmpRouting on every node (InternetStackHelper::SetRoutingHelper);
 * FabricEcmpRouting::SetFabric completes each once the fabric's addresses exist.
 */
class FabricEcmpRoutingHelper : public Ipv4RoutingHelper
{
  public:
    /** \return a copy (the routing-helper interface) */
    FabricEcmpRoutingHelper* Copy() const override;
    /**
     * \param node the node
     * \return a new FabricEcmpRouting
     */
    Ptr<Ipv4RoutingProtocol> Create(Ptr<Node> node) const override;
};

} // namespace ns3

#endif /* FABRIC_ECMP_ROUTING_H */

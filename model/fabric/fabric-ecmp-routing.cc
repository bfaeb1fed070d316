/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-ecmp-routing.h"

#include "ns3/ipv4-route.h"
#include "ns3/log.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <ostream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricEcmpRouting");

NS_OBJECT_ENSURE_REGISTERED(FabricEcmpRouting);

TypeId
FabricEcmpRouting::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricEcmpRouting")
                            .SetParent<Ipv4RoutingProtocol>()
                            .SetGroupName("DistributedTraining")
                            .AddConstructor<FabricEcmpRouting>();
    return tid;
}

FabricEcmpRouting::FabricEcmpRouting()
{
    NS_LOG_FUNCTION(this);
}

FabricEcmpRouting::~FabricEcmpRouting()
{
    NS_LOG_FUNCTION(this);
}

void
FabricEcmpRouting::DoDispose()
{
    m_ipv4 = nullptr;
    m_fabric.reset();
    m_failures.reset();
    Ipv4RoutingProtocol::DoDispose();
}

void
FabricEcmpRouting::SetFabric(std::shared_ptr<const FabricTopology> fabric,
                             uint32_t node,
                             const std::vector<uint32_t>& interfaces,
                             const std::vector<Ipv4Address>& gateways)
{
    NS_LOG_FUNCTION(this << node);
    m_fabric = std::move(fabric);
    m_node = node;
    m_interfaces = interfaces;
    m_gateways = gateways;
    // The ECMP set towards every host, once: positions in this node's out-link list.
    const auto& out = m_fabric->GetOutLinks(node);
    m_nextHops.assign(m_fabric->GetNHosts(), {});
    for (uint32_t h = 0; h < m_fabric->GetNHosts(); ++h)
    {
        if (m_fabric->GetHostNode(h) == node)
        {
            m_ownHost = h;
            continue;
        }
        for (uint32_t l : m_fabric->GetNextHops(node, m_fabric->GetHostNode(h)))
        {
            m_nextHops[h].push_back(
                static_cast<uint32_t>(std::find(out.begin(), out.end(), l) - out.begin()));
        }
    }
}

void
FabricEcmpRouting::SetFailures(std::shared_ptr<const LinkFailures> failures)
{
    m_failures = std::move(failures);
}

int64_t
FabricEcmpRouting::HostOfAddress(Ipv4Address address)
{
    const uint32_t a = address.Get();
    if ((a >> 24) != 10 || (a & 0xff) != 1)
    {
        return -1;
    }
    return (a >> 8) & 0xffff;
}

Ptr<Ipv4Route>
FabricEcmpRouting::Lookup(const Ipv4Header& header, Ptr<const Packet> p) const
{
    const int64_t host = HostOfAddress(header.GetDestination());
    if (m_fabric && host >= 0 && host == m_ownHost)
    {
        // A co-located server's traffic with its host's worker: through the loopback device
        // (interface 0), which hands each packet back at once: no NIC, queue or link time.
        Ptr<Ipv4Route> route = Create<Ipv4Route>();
        route->SetDestination(header.GetDestination());
        route->SetSource(header.GetDestination());
        route->SetGateway(Ipv4Address::GetLoopback());
        route->SetOutputDevice(m_ipv4->GetNetDevice(0));
        return route;
    }
    if (!m_fabric || host < 0 || host >= m_fabric->GetNHosts() || m_nextHops[host].empty())
    {
        return nullptr;
    }
    const int64_t pick = PickNextHop(static_cast<uint32_t>(host), KeyOf(header, p));
    if (pick < 0)
    {
        return nullptr;
    }
    const uint32_t interface = m_interfaces[pick];
    Ptr<Ipv4Route> route = Create<Ipv4Route>();
    route->SetDestination(header.GetDestination());
    route->SetSource(m_ipv4->GetAddress(interface, 0).GetLocal());
    route->SetGateway(m_gateways[pick]);
    route->SetOutputDevice(m_ipv4->GetNetDevice(interface));
    return route;
}

FabricTopology::FlowKey
FabricEcmpRouting::KeyOf(const Ipv4Header& header, Ptr<const Packet> p)
{
    // TCP and UDP both start with the source and destination ports.
    uint8_t ports[4] = {0, 0, 0, 0};
    if (p && p->GetSize() >= 4)
    {
        p->CopyData(ports, 4);
    }
    return FabricTopology::FlowKey{header.GetSource().Get(),
                                   header.GetDestination().Get(),
                                   static_cast<uint16_t>(ports[0] << 8 | ports[1]),
                                   static_cast<uint16_t>(ports[2] << 8 | ports[3]),
                                   header.GetProtocol()};
}

int64_t
FabricEcmpRouting::PickNextHop(uint32_t host, const FabricTopology::FlowKey& key) const
{
    const double now = Simulator::Now().GetSeconds();
    if (m_failures && m_failures->GetEpoch(now) > 0)
    {
        const uint32_t link = m_failures->NextHop(m_node, m_fabric->GetHostNode(host), key, now);
        const auto& out = m_fabric->GetOutLinks(m_node);
        const auto it = std::find(out.begin(), out.end(), link);
        return it == out.end() ? -1 : it - out.begin();
    }
    const auto& hops = m_nextHops[host];
    if (hops.size() == 1)
    {
        return hops[0];
    }
    return hops[FabricTopology::EcmpHash(key, m_fabric->GetEcmpSeed(), m_node) % hops.size()];
}

Ptr<Ipv4Route>
FabricEcmpRouting::RouteOutput(Ptr<Packet> p,
                               const Ipv4Header& header,
                               Ptr<NetDevice> oif,
                               Socket::SocketErrno& sockerr)
{
    // A host has one link, so a socket's route does not depend on the ports it will use.
    Ptr<Ipv4Route> route = Lookup(header, p);
    sockerr = route ? Socket::ERROR_NOTERROR : Socket::ERROR_NOROUTETOHOST;
    if (route && oif && route->GetOutputDevice() != oif)
    {
        sockerr = Socket::ERROR_NOROUTETOHOST;
        return nullptr;
    }
    return route;
}

bool
FabricEcmpRouting::RouteInput(Ptr<const Packet> p,
                              const Ipv4Header& header,
                              Ptr<const NetDevice> idev,
                              DtCallbackArg<UnicastForwardCallback> ucb,
                              DtCallbackArg<MulticastForwardCallback> /* mcb */,
                              DtCallbackArg<LocalDeliverCallback> lcb,
                              DtCallbackArg<ErrorCallback> ecb)
{
    const uint32_t iif = m_ipv4->GetInterfaceForDevice(idev);
    if (m_ipv4->IsDestinationAddress(header.GetDestination(), iif))
    {
        if (!lcb.IsNull())
        {
            lcb(p, header, iif);
            return true;
        }
        return false;
    }
    if (!m_ipv4->IsForwarding(iif))
    {
        ecb(p, header, Socket::ERROR_NOROUTETOHOST);
        return true;
    }
    Ptr<Ipv4Route> route = Lookup(header, p);
    if (!route)
    {
        return false; // not a host of the fabric: Ipv4L3Protocol drops it
    }
    ucb(route, p, header);
    return true;
}

void
FabricEcmpRouting::NotifyInterfaceUp(uint32_t /* interface */)
{
}

void
FabricEcmpRouting::NotifyInterfaceDown(uint32_t /* interface */)
{
}

void
FabricEcmpRouting::NotifyAddAddress(uint32_t /* interface */, Ipv4InterfaceAddress /* address */)
{
}

void
FabricEcmpRouting::NotifyRemoveAddress(uint32_t /* interface */, Ipv4InterfaceAddress /* address */)
{
}

void
FabricEcmpRouting::SetIpv4(Ptr<Ipv4> ipv4)
{
    m_ipv4 = ipv4;
}

void
FabricEcmpRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit /* unit */) const
{
    std::ostream& os = *stream->GetStream();
    os << "FabricEcmpRouting node " << m_node << ": per-flow ECMP over";
    for (Ipv4Address gw : m_gateways)
    {
        os << " " << gw;
    }
    os << "\n";
}

FabricEcmpRoutingHelper*
FabricEcmpRoutingHelper::Copy() const
{
    return new FabricEcmpRoutingHelper(*this);
}

Ptr<Ipv4RoutingProtocol>
FabricEcmpRoutingHelper::Create(Ptr<Node> /* node */) const
{
    return CreateObject<FabricEcmpRouting>();
}

} // namespace ns3

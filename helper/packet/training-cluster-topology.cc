/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * TrainingClusterHelper (see training-cluster-helper.h). Topology building: nodes, links, buffers,
 * addresses and routes of the star or of any FabricTopology (leaf-spine, fat-tree, JSON file) with
 * per-flow ECMP.
 */

#include "training-cluster-helper.h"

#include "ns3/boolean.h"
#include "ns3/bulk-send-helper.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-ecmp-routing.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/link-failures.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/on-off-helper.h"
#include "ns3/onoff-application.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/parameter-server-application.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/ring-allreduce-application.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/training-input-error.h"
#include "ns3/training-network.h"
#include "ns3/training-worker-application.h"
#include "ns3/uinteger.h"
#include "ns3/unit-parser.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingClusterTopology");

void
TrainingClusterHelper::CheckCrossTraffic() const
{
    if (m_scenario.crossTraffic != "none" && m_scenario.crossTraffic != "bulk"
        && m_scenario.crossTraffic != "onoff")
    {
        throw TrainingInputError("--crossTraffic: unknown value '" + m_scenario.crossTraffic
                                 + "' (expected none, bulk or onoff)");
    }
    if ((m_scenario.crossTarget == "server" && GetServerNodeCount() == 0)
        || (m_scenario.crossTarget != "server" && m_scenario.crossTarget != "worker"))
    {
        if (m_scenario.crossTraffic != "none")
        {
            throw TrainingInputError(
                "--crossTarget: '" + m_scenario.crossTarget + "' with "
                + std::to_string(GetServerNodeCount())
                + " servers (expected server or worker, worker without servers)");
        }
    }
}

std::string
TrainingClusterHelper::GetQueueDiscName() const
{
    std::string disc = m_scenario.queueDisc.empty() ? "none" : m_scenario.queueDisc;
    if (IsDctcp() && disc == "none")
    {
        // DCTCP needs ECN marking, which a DropTail device queue cannot do.
        disc = "RedQueueDisc";
    }
    if (disc == "none")
    {
        return disc;
    }
    std::string name = disc.rfind("ns3::", 0) == 0 ? disc : "ns3::" + disc;
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(name, &tid) || !tid.IsChildOf(QueueDisc::GetTypeId()))
    {
        throw TrainingInputError(
            "--queueDisc: unknown queue disc '" + m_scenario.queueDisc
            + "' (expected none or an ns-3 QueueDisc, e.g. "
              "FifoQueueDisc, RedQueueDisc, CoDelQueueDisc, FqCoDelQueueDisc)");
    }
    return name;
}

bool
TrainingClusterHelper::IsDctcp() const
{
    return m_scenario.tcpVariant == "TcpDctcp" || m_scenario.tcpVariant == "ns3::TcpDctcp";
}

void
TrainingClusterHelper::ConfigureQueueDisc(Ptr<QueueDisc> qd, const QueueSize& queue) const
{
    // Attributes of one installed queue disc, set before the simulation initialises it.
    const bool dctcp = IsDctcp();
    TypeId::AttributeInformation info;
    if (qd->GetInstanceTypeId().LookupAttributeByName("MaxSize", &info))
    {
        qd->SetAttribute("MaxSize", QueueSizeValue(queue));
    }
    if ((dctcp || m_scenario.ecn) && qd->GetInstanceTypeId().LookupAttributeByName("UseEcn", &info))
    {
        // RED, CoDel and FqCoDel mark ECN-capable packets instead of dropping them.
        qd->SetAttribute("UseEcn", BooleanValue(true));
    }
    if (qd->GetInstanceTypeId() != TypeId::LookupByName("ns3::RedQueueDisc"))
    {
        return;
    }
    if (!dctcp)
    {
        // RED's defaults (5-15 packet thresholds, a 1.5 Mb/s link for the idle-time
        // estimate) are for slow links: scale the thresholds with the buffer (20 % and
        // 60 % of it, at least 1 and 3 packets) and give it the real link.
        const double packets = queue.GetUnit() == QueueSizeUnit::PACKETS
                                   ? queue.GetValue()
                                   : queue.GetValue() / double(m_scenario.mtu);
        qd->SetAttribute("MinTh", DoubleValue(std::max(1.0, 0.2 * packets)));
        qd->SetAttribute("MaxTh", DoubleValue(std::max(3.0, 0.6 * packets)));
    }
    else
    {
        // DCTCP's step marking, as ns-3's tcp-dctcp example: mark above 20 packets (the
        // instantaneous queue, QW = 1), no early drops.
        qd->SetAttribute("UseEcn", BooleanValue(true));
        qd->SetAttribute("UseHardDrop", BooleanValue(false));
        qd->SetAttribute("QW", DoubleValue(1.0));
        qd->SetAttribute("MinTh", DoubleValue(20));
        qd->SetAttribute("MaxTh", DoubleValue(60));
    }
    qd->SetAttribute("MeanPktSize", UintegerValue(m_scenario.mtu));
    qd->SetAttribute("LinkBandwidth", DataRateValue(m_scenario.nicRate));
    qd->SetAttribute("LinkDelay", TimeValue(m_scenario.linkDelay));
}

Ipv4InterfaceContainer
TrainingClusterHelper::SetUpLink(const NetDeviceContainer& link,
                                 const QueueSize& first,
                                 const QueueSize& second,
                                 const std::string& disc,
                                 Ipv4AddressHelper& address) const
{
    TrafficControlHelper tch;
    if (disc == "none")
    {
        // The device queues are the only buffers (first end, e.g. a host NIC; second end).
        DynamicCast<PointToPointNetDevice>(link.Get(0))->GetQueue()->SetMaxSize(first);
        DynamicCast<PointToPointNetDevice>(link.Get(1))->GetQueue()->SetMaxSize(second);
    }
    else
    {
        tch.SetRootQueueDisc(disc);
        QueueDiscContainer discs = tch.Install(link);
        ConfigureQueueDisc(discs.Get(0), first);
        ConfigureQueueDisc(discs.Get(1), second);
    }
    Ipv4InterfaceContainer ifaces = address.Assign(link);
    if (disc == "none")
    {
        // Ipv4AddressHelper::Assign installs ns-3's default FqCoDel queue disc; "none" means
        // the device's DropTail queue is the only buffer, as in a plain switch.
        tch.Uninstall(link);
    }
    return ifaces;
}

PointToPointHelper
TrainingClusterHelper::MakeLinkHelper(bool haveDisc, const QueueSize& queue) const
{
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(m_scenario.nicRate));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(m_scenario.mtu));
    p2p.SetChannelAttribute("Delay", TimeValue(m_scenario.linkDelay));
    // With a queue disc the backlog must build up in it, not in the device: ns-3's flow control
    // stops the disc only when the device queue is full, so the device queue is kept tiny and the
    // disc gets the QueueSize (as ns-3's traffic-control examples and BQL do).
    p2p.SetQueue("ns3::DropTailQueue<Packet>",
                 "MaxSize",
                 QueueSizeValue(haveDisc ? QueueSize("2p") : queue));
    return p2p;
}

void
TrainingClusterHelper::Build()
{
    NS_LOG_FUNCTION(this);
    CheckCrossTraffic();
    const std::string disc = GetQueueDiscName();
    if (m_fabric)
    {
        BuildFabric(disc);
        return;
    }
    m_workerNodes.Create(m_scenario.workers);
    m_serverNodes.Create(GetServerNodeCount());
    m_switch = CreateObject<Node>();
    const QueueSize queue = UnitParser::ParseQueueSize("--queue", m_scenario.queueSize);
    const QueueSize hostQueue
        = m_scenario.hostQueueSize.empty()
              ? queue
              : UnitParser::ParseQueueSize("--hostQueue", m_scenario.hostQueueSize);
    PointToPointHelper p2p = MakeLinkHelper(disc != "none", queue);
    InternetStackHelper stack;
    stack.Install(m_workerNodes);
    stack.Install(m_serverNodes);
    stack.Install(m_switch);
    Ipv4AddressHelper address("10.0.0.0", "255.255.255.252");
    // One host's link to the switch: devices, buffers (HostQueueSize on the host's NIC,
    // QueueSize on the switch port), a /30 subnet.
    auto attach = [&](Ptr<Node> host)
    {
        NetDeviceContainer link = p2p.Install(host, m_switch);
        Ipv4InterfaceContainer ifaces = SetUpLink(link, hostQueue, queue, disc, address);
        address.NewNetwork();
        return std::pair{link, ifaces};
    };
    for (uint32_t h = 0; h < m_scenario.workers + GetServerNodeCount(); ++h)
    {
        auto [link, ifaces]
            = attach(h < m_scenario.workers ? m_workerNodes.Get(h)
                                            : m_serverNodes.Get(h - m_scenario.workers));
        m_ifaces.push_back(ifaces);
        m_links.push_back(link);
    }
    if (m_scenario.crossTraffic != "none")
    {
        // Cross-traffic hosts: same links, queues and discs as the training hosts.
        m_crossNodes.Create(m_scenario.crossFlows);
        stack.Install(m_crossNodes);
        for (uint32_t c = 0; c < m_scenario.crossFlows; ++c)
        {
            m_crossLinks.push_back(attach(m_crossNodes.Get(c)).first);
        }
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
}

void
TrainingClusterHelper::BuildFabric(const std::string& disc)
{
    const FabricTopology& t = *m_fabric;
    NodeContainer nodes;
    nodes.Create(t.GetNNodes());
    FabricEcmpRoutingHelper ecmp;
    InternetStackHelper stack;
    stack.SetRoutingHelper(ecmp);
    stack.Install(nodes);
    std::vector<uint32_t> hostOf(t.GetNNodes(), 0);
    for (uint32_t h = 0; h < t.GetNHosts(); ++h)
    {
        hostOf[t.GetHostNode(h)] = h;
    }
    // Devices per directed link: m_fabricDevices[l] sends in link l's direction.
    m_fabricDevices.assign(t.GetNLinks(), nullptr);
    std::vector<Ipv4Address> remote(t.GetNLinks());
    std::vector<uint32_t> interface(t.GetNLinks());
    for (uint32_t l = 0; l < t.GetNLinks(); l += 2)
    {
        const auto& link = t.GetLink(l);
        // A host is always the first end (its address is .1, as FabricTopology says).
        const bool swap = t.GetNode(link.to).host;
        const uint32_t a = swap ? l + 1 : l;
        const auto& spec = link.spec;
        PointToPointHelper p2p = MakeLinkHelper(disc != "none", QueueSize(spec.queue));
        p2p.SetDeviceAttribute("DataRate", DataRateValue(spec.rate));
        p2p.SetChannelAttribute("Delay", TimeValue(spec.delay));
        NetDeviceContainer devices
            = p2p.Install(nodes.Get(t.GetLink(a).from), nodes.Get(t.GetLink(a).to));
        const bool host = t.GetNode(t.GetLink(a).from).host;
        // Host h's link: 10.a.b.0/24 with a.b = h; switch-switch link i: 11.c.d.0/24, c.d = i.
        const uint32_t net = host ? FabricTopology::GetHostAddress(hostOf[t.GetLink(a).from]) - 1
                                  : (11u << 24) | (l / 2) << 8;
        Ipv4AddressHelper address(Ipv4Address(net), "255.255.255.0");
        QueueSize switchQueue(spec.queue);
        QueueSize first = host && !m_scenario.hostQueueSize.empty()
                              ? UnitParser::ParseQueueSize("--hostQueue", m_scenario.hostQueueSize)
                              : switchQueue;
        Ipv4InterfaceContainer ifaces = SetUpLink(devices, first, switchQueue, disc, address);
        for (uint32_t side = 0; side < 2; ++side)
        {
            const uint32_t dir = side == 0 ? a : FabricTopology::Reverse(a);
            m_fabricDevices[dir] = devices.Get(side);
            interface[dir] = ifaces.Get(side).second;
            remote[dir] = ifaces.GetAddress(1 - side);
        }
    }
    CompleteFabric(nodes, interface, remote);
}

void
TrainingClusterHelper::CompleteFabric(const NodeContainer& nodes,
                                      const std::vector<uint32_t>& interface,
                                      const std::vector<Ipv4Address>& remote)
{
    const FabricTopology& t = *m_fabric;
    for (uint32_t n = 0; n < t.GetNNodes(); ++n)
    {
        std::vector<uint32_t> ifs;
        std::vector<Ipv4Address> gateways;
        for (uint32_t l : t.GetOutLinks(n))
        {
            ifs.push_back(interface[l]);
            gateways.push_back(remote[l]);
        }
        Ptr<Ipv4> ipv4 = nodes.Get(n)->GetObject<Ipv4>();
        DynamicCast<FabricEcmpRouting>(ipv4->GetRoutingProtocol())
            ->SetFabric(m_fabric, n, ifs, gateways);
    }
    ScheduleLinkFailures(nodes, interface);
    // Roles: workers, then servers, on their placed hosts.
    for (uint32_t r = 0; r < m_scenario.workers + GetServerNodeCount(); ++r)
    {
        const uint32_t host = t.GetRoleHost(r);
        const uint32_t up = t.GetHostUplink(host);
        Ptr<Node> node = nodes.Get(t.GetHostNode(host));
        Ptr<Node> edge = nodes.Get(t.GetLink(up).to);
        (r < m_scenario.workers ? m_workerNodes : m_serverNodes).Add(node);
        m_links.push_back(
            NetDeviceContainer(m_fabricDevices[up], m_fabricDevices[FabricTopology::Reverse(up)]));
        Ipv4InterfaceContainer ifaces;
        ifaces.Add(node->GetObject<Ipv4>(), interface[up]);
        ifaces.Add(edge->GetObject<Ipv4>(), interface[FabricTopology::Reverse(up)]);
        m_ifaces.push_back(ifaces);
        if (r == 0)
        {
            m_switch = edge;
        }
    }
}

void
TrainingClusterHelper::ScheduleLinkFailures(const NodeContainer& nodes,
                                            const std::vector<uint32_t>& interface) const
{
    if (m_scenario.linkDown.empty())
    {
        return;
    }
    const FabricTopology& t = *m_fabric;
    const auto failures = std::make_shared<const LinkFailures>(t, m_scenario.linkDown);
    for (uint32_t n = 0; n < t.GetNNodes(); ++n)
    {
        DynamicCast<FabricEcmpRouting>(nodes.Get(n)->GetObject<Ipv4>()->GetRoutingProtocol())
            ->SetFailures(failures);
    }
    for (const auto& [outage, cable] : failures->GetOutages())
    {
        for (uint32_t dir : {cable, FabricTopology::Reverse(cable)})
        {
            // Ipv4L3Protocol drops what a down interface would send or receive: the packets
            // still queued at the link or on the wire arrive at a down interface and are lost.
            Ptr<Ipv4> ipv4 = nodes.Get(t.GetLink(dir).from)->GetObject<Ipv4>();
            Simulator::Schedule(Seconds(outage.start), &Ipv4::SetDown, ipv4, interface[dir]);
            if (std::isfinite(outage.End()))
            {
                Simulator::Schedule(Seconds(outage.End()), &Ipv4::SetUp, ipv4, interface[dir]);
            }
        }
    }
}

std::vector<TrainingClusterHelper::MonitoredLink>
TrainingClusterHelper::GetMonitoredLinks() const
{
    std::vector<MonitoredLink> links;
    const double nic = static_cast<double>(m_scenario.nicRate.GetBitRate());
    if (!m_fabric)
    {
        // The star: per host, its NIC then the switch port towards it.
        for (uint32_t h = 0; h < m_links.size(); ++h)
        {
            links.push_back(
                {m_links[h].Get(0), TrainingNetwork::GetLinkName(GetHostName(h), true), nic});
            links.push_back(
                {m_links[h].Get(1), TrainingNetwork::GetLinkName(GetHostName(h), false), nic});
        }
        return links;
    }
    for (uint32_t l = 0; l < m_fabricDevices.size(); ++l)
    {
        const auto& link = m_fabric->GetLink(l);
        links.push_back(
            {m_fabricDevices[l], link.name, static_cast<double>(link.spec.rate.GetBitRate())});
    }
    return links;
}

Ipv4Address
TrainingClusterHelper::GetWorkerAddress(uint32_t w) const
{
    return m_ifaces.at(w).GetAddress(0);
}

NodeContainer
TrainingClusterHelper::GetWorkers() const
{
    return m_workerNodes;
}

NodeContainer
TrainingClusterHelper::GetServers() const
{
    return m_serverNodes;
}

Ptr<Node>
TrainingClusterHelper::GetSwitch() const
{
    return m_switch;
}

NetDeviceContainer
TrainingClusterHelper::GetLinkDevices(uint32_t host) const
{
    return m_links.at(host);
}

Ipv4Address
TrainingClusterHelper::GetServerAddress(uint32_t p) const
{
    return m_ifaces.at(m_scenario.workers + p).GetAddress(0);
}

std::string
TrainingClusterHelper::GetHostName(uint32_t host) const
{
    if (host < m_hostNames.size())
    {
        return m_hostNames[host];
    }
    TrainingScenario s;
    s.workers = m_scenario.workers;
    return s.GetRoleName(host);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "congestion-monitor.h"

#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/queue-disc.h"
#include "ns3/queue.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/traffic-control-layer.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CongestionMonitor");

NS_OBJECT_ENSURE_REGISTERED(CongestionMonitor);

TypeId
CongestionMonitor::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::CongestionMonitor")
              .SetParent<Object>()
              .SetGroupName("DistributedTraining")
              .AddConstructor<CongestionMonitor>()
              .AddTraceSource("Retransmission",
                              "A traced TCP socket sent a segment again (payload below its highest "
                              "sequence number sent)",
                              MakeTraceSourceAccessor(&CongestionMonitor::m_retx),
                              "ns3::CongestionMonitor::RetransmissionTracedCallback")
              .AddTraceSource("RtoExpired",
                              "The retransmission timer of a traced TCP socket expired (argument: "
                              "the doubled RTO)",
                              MakeTraceSourceAccessor(&CongestionMonitor::m_rtoTrace),
                              "ns3::Time::TracedCallback");
    return tid;
}

CongestionMonitor::CongestionMonitor()
{
    NS_LOG_FUNCTION(this);
}

CongestionMonitor::~CongestionMonitor()
{
    NS_LOG_FUNCTION(this);
}

void
CongestionMonitor::InstallDevice(Ptr<NetDevice> device, const std::string& port)
{
    NS_LOG_FUNCTION(this << device << port);
    if (m_ports.emplace(port, Counters()).second)
    {
        m_portOrder.push_back(port);
    }
    TypeId::AttributeInformation info;
    if (device->GetInstanceTypeId().LookupAttributeByName("TxQueue", &info))
    {
        PointerValue queue;
        device->GetAttribute("TxQueue", queue);
        if (Ptr<Queue<Packet>> q = queue.Get<Queue<Packet>>())
        {
            q->TraceConnectWithoutContext(
                "Drop",
                MakeCallback(&CongestionMonitor::OnDeviceDrop, this).Bind(port));
        }
    }
    Ptr<Node> node = device->GetNode();
    Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    const int32_t iface = ipv4 ? ipv4->GetInterfaceForDevice(device) : -1;
    if (tc && iface >= 0)
    {
        auto inserted = m_nodes.emplace(node->GetId(), NodePorts());
        inserted.first->second.ports[iface] = port;
        if (inserted.second)
        {
            // ns-3.37 stops a device's transmit queue when it is full (flow control): without a
            // queue disc the traffic-control layer then drops the packet ("TcDrop"), so the device
            // queue never overflows itself. IPv4 names the output interface just before
            // (SendOutgoing for local packets, UnicastForward for forwarded ones).
            const uint32_t id = node->GetId();
            ipv4->TraceConnectWithoutContext(
                "SendOutgoing",
                MakeCallback(&CongestionMonitor::OnIpSend, this).Bind(id));
            ipv4->TraceConnectWithoutContext(
                "UnicastForward",
                MakeCallback(&CongestionMonitor::OnIpSend, this).Bind(id));
            tc->TraceConnectWithoutContext(
                "TcDrop",
                MakeCallback(&CongestionMonitor::OnTcDrop, this).Bind(id));
        }
    }
    Ptr<QueueDisc> disc = tc ? tc->GetRootQueueDiscOnDevice(device) : nullptr;
    if (disc)
    {
        disc->TraceConnectWithoutContext(
            "Drop",
            MakeCallback(&CongestionMonitor::OnDiscDrop, this).Bind(port));
        disc->TraceConnectWithoutContext(
            "Mark",
            MakeCallback(&CongestionMonitor::OnDiscMark, this).Bind(port));
    }
}

void
CongestionMonitor::InstallSocket(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    Ptr<TcpSocketBase> tcp = DynamicCast<TcpSocketBase>(socket);
    if (!tcp)
    {
        return;
    }
    tcp->TraceConnectWithoutContext("Tx", MakeCallback(&CongestionMonitor::OnTx, this));
    tcp->TraceConnectWithoutContext("RTO", MakeCallback(&CongestionMonitor::OnRto, this));
    tcp->TraceConnectWithoutContext("CongState",
                                    MakeCallback(&CongestionMonitor::OnCongState, this));
}

void
CongestionMonitor::InstallApplications(const ApplicationContainer& apps)
{
    NS_LOG_FUNCTION(this);
    for (auto it = apps.Begin(); it != apps.End(); ++it)
    {
        (*it)->TraceConnectWithoutContext("SocketOpened",
                                          MakeCallback(&CongestionMonitor::InstallSocket, this));
    }
}

CongestionMonitor::Counters
CongestionMonitor::GetTotals() const
{
    return m_totals;
}

CongestionMonitor::Counters
CongestionMonitor::GetPort(const std::string& port) const
{
    auto it = m_ports.find(port);
    return it == m_ports.end() ? Counters() : it->second;
}

std::vector<std::string>
CongestionMonitor::GetPorts() const
{
    return m_portOrder;
}

void
CongestionMonitor::OnDeviceDrop(std::string port, Ptr<const Packet> /* packet */)
{
    ++m_totals.deviceDrops;
    ++m_ports[port].deviceDrops;
}

void
CongestionMonitor::OnIpSend(uint32_t node,
                            const Ipv4Header& /* header */,
                            Ptr<const Packet> /* packet */,
                            uint32_t interface)
{
    m_nodes[node].lastInterface = interface;
}

void
CongestionMonitor::OnTcDrop(uint32_t node, Ptr<const Packet> packet)
{
    const NodePorts& n = m_nodes[node];
    auto it = n.ports.find(n.lastInterface);
    OnDeviceDrop(it == n.ports.end() ? std::string() : it->second, packet);
}

void
CongestionMonitor::OnDiscDrop(std::string port, Ptr<const QueueDiscItem> /* item */)
{
    ++m_totals.queueDiscDrops;
    ++m_ports[port].queueDiscDrops;
}

void
CongestionMonitor::OnDiscMark(std::string port,
                              Ptr<const QueueDiscItem> /* item */,
                              const char* /* reason */)
{
    ++m_totals.ecnMarks;
    ++m_ports[port].ecnMarks;
}

void
CongestionMonitor::OnTx(Ptr<const Packet> packet,
                        const TcpHeader& header,
                        Ptr<const TcpSocketBase> socket)
{
    const uint32_t size = packet->GetSize();
    if (size == 0)
    {
        return; // SYN, FIN or pure ACK
    }
    const SequenceNumber32 seq = header.GetSequenceNumber();
    auto it = m_highTx.find(PeekPointer(socket));
    if (it == m_highTx.end())
    {
        m_highTx.emplace(PeekPointer(socket), seq + size);
        return;
    }
    if (seq < it->second)
    {
        ++m_totals.retransmittedSegments;
        m_totals.retransmittedBytes += size;
        m_retx(packet, header);
    }
    it->second = std::max(it->second, seq + size);
}

void
CongestionMonitor::OnRto(Time oldRto, Time newRto)
{
    // ReTxTimeout: m_rto = Min(2 m_rto, 60 s). RTT samples set it to the estimate, which in
    // practice never lands on exactly twice the previous value.
    const Time cap = Seconds(60);
    if (newRto > oldRto && (newRto == oldRto + oldRto || (newRto == cap && oldRto + oldRto > cap)))
    {
        ++m_totals.rtoTimeouts;
        m_rtoTrace(newRto);
    }
}

void
CongestionMonitor::OnCongState(TcpSocketState::TcpCongState_t oldState,
                               TcpSocketState::TcpCongState_t newState)
{
    if (newState == TcpSocketState::CA_RECOVERY && oldState != TcpSocketState::CA_RECOVERY)
    {
        ++m_totals.fastRecoveries;
    }
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-cluster-helper.h"

#include "ns3/boolean.h"
#include "ns3/bulk-send-helper.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/linux-buffer-tuner.h"
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
#include "ns3/string.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/training-input-error.h"
#include "ns3/training-network.h"
#include "ns3/training-worker-application.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingClusterHelper");

NS_OBJECT_ENSURE_REGISTERED(TrainingClusterHelper);

TypeId
TrainingClusterHelper::GetTypeId()
{
    // The network and run knobs are the scenario's (Configure); attributes are what only the
    // packet level has.
    static TypeId tid
        = TypeId("ns3::TrainingClusterHelper")
              .SetParent<Object>()
              .SetGroupName("DistributedTraining")
              .AddConstructor<TrainingClusterHelper>()
              .AddAttribute("DelAckCount",
                            "TCP delayed-ACK count (without the scenario's delayedAck)",
                            UintegerValue(1),
                            MakeUintegerAccessor(&TrainingClusterHelper::m_delAckCount),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("Port",
                            "TCP port of the parameter servers (and of the ring workers)",
                            UintegerValue(5000),
                            MakeUintegerAccessor(&TrainingClusterHelper::m_port),
                            MakeUintegerChecker<uint16_t>(1))
              .AddAttribute("CrossOnTime",
                            "onoff cross traffic: mean of the exponential on-periods",
                            TimeValue(MilliSeconds(1)),
                            MakeTimeAccessor(&TrainingClusterHelper::m_crossOnTime),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddAttribute("CrossPort",
                            "Port of the cross-traffic sink",
                            UintegerValue(6000),
                            MakeUintegerAccessor(&TrainingClusterHelper::m_crossPort),
                            MakeUintegerChecker<uint16_t>(1));
    return tid;
}

TrainingClusterHelper::TrainingClusterHelper()
    : m_delAckCount(1),
      m_port(5000),
      m_crossOnTime(MilliSeconds(1)),
      m_crossPort(6000)
{
    NS_LOG_FUNCTION(this);
}

TrainingClusterHelper::~TrainingClusterHelper()
{
    NS_LOG_FUNCTION(this);
}

void
TrainingClusterHelper::DoDispose()
{
    m_workerNodes = NodeContainer();
    m_serverNodes = NodeContainer();
    m_switch = nullptr;
    m_links.clear();
    m_ifaces.clear();
    m_crossNodes = NodeContainer();
    m_crossLinks.clear();
    m_apps = ApplicationContainer();
    m_fabric.reset();
    m_fabricDevices.clear();
    Object::DoDispose();
}

void
TrainingClusterHelper::Configure(const TrainingScenario& scenario)
{
    m_scenario = scenario;
    // Co-located servers run on their workers' nodes: the fabric's role-to-host map says which
    // (on the star too; its own builder gives every role a node).
    m_fabric = scenario.topology == "star" && !scenario.IsColocated()
                   ? nullptr
                   : std::make_shared<const FabricTopology>(scenario.BuildFabric());
}

void
TrainingClusterHelper::ConfigureJobs(const TrainingScenario& fabric,
                                     const FabricTopology& placed,
                                     const std::vector<std::string>& names)
{
    // Every role a "worker" node of a server-less scenario: nodes, links and addresses in the
    // set's role order; InstallJob() gives each job its own range of them, and its sockets
    // their own buffers (the applications' SendBufferBytes and ReceiveBufferBytes).
    m_scenario = fabric;
    m_scenario.workers = placed.GetNRoles();
    m_scenario.servers = 0;
    // A job's co-located servers share their workers' hosts: the fabric's role-to-host map
    // says which (on the star too, as Configure() does for one job).
    std::set<uint32_t> hosts;
    for (uint32_t r = 0; r < placed.GetNRoles(); ++r)
    {
        hosts.insert(placed.GetRoleHost(r));
    }
    m_fabric = fabric.topology == "star" && hosts.size() == placed.GetNRoles()
                   ? nullptr
                   : std::make_shared<const FabricTopology>(placed);
    m_hostNames = names;
}

const TrainingScenario&
TrainingClusterHelper::GetScenario() const
{
    return m_scenario;
}

uint32_t
TrainingClusterHelper::GetServerNodeCount() const
{
    return m_scenario.architecture == TrainingScenario::PARAMETER_SERVER ? m_scenario.servers : 0;
}

uint32_t
TrainingClusterHelper::GetSocketBufferBytes() const
{
    return TrainingNetwork::GetSocketBufferBytes(m_scenario, m_scenario.sendBufferBytes);
}

double
TrainingClusterHelper::GetBaseRttSeconds() const
{
    return TrainingNetwork::GetBaseRttSeconds(m_scenario);
}

double
TrainingClusterHelper::GetBufferBytes(bool host) const
{
    return TrainingNetwork::GetBufferBytes(m_scenario, host);
}

uint32_t
TrainingClusterHelper::GetReceiveBufferBytes() const
{
    return TrainingNetwork::GetReceiveBufferBytes(m_scenario, m_scenario.sendBufferBytes);
}

std::string
TrainingClusterHelper::GetTcpTypeName() const
{
    std::string name = m_scenario.tcpVariant.rfind("ns3::", 0) == 0
                           ? m_scenario.tcpVariant
                           : "ns3::" + m_scenario.tcpVariant;
    if (m_scenario.hostModel == "linux")
    {
        // A Linux host runs the kernel's version of the algorithm.
        if (name == "ns3::TcpCubic")
        {
            name = "ns3::TcpLinuxCubic";
        }
        else if (name == "ns3::TcpNewReno")
        {
            name = "ns3::TcpLinuxReno";
        }
    }
    return name;
}

namespace
{
/// SocketOpened sink: tune the socket's buffers.
void
TuneSocket(Ptr<Socket> socket)
{
    LinuxBufferTuner::Install(socket);
}
} // namespace

void
TrainingClusterHelper::InstallBufferTuners(const ApplicationContainer& apps) const
{
    if (!m_scenario.bufferAutotuning)
    {
        return;
    }
    for (auto it = apps.Begin(); it != apps.End(); ++it)
    {
        (*it)->TraceConnectWithoutContext("SocketOpened", MakeCallback(&TuneSocket));
    }
}

TypeId
TrainingClusterHelper::LookupTcpTypeId() const
{
    if (m_scenario.hostModel != "ns3" && m_scenario.hostModel != "linux")
    {
        throw TrainingInputError("--hostModel: unknown host model '" + m_scenario.hostModel
                                 + "' (expected ns3 or linux)");
    }
    const std::string name = GetTcpTypeName();
    TypeId tid;
    // Create one to check it: ns-3.37 registers TcpCubic with the wrong parent TypeId, so
    // IsChildOf(TcpCongestionOps) is not reliable.
    bool ok = TypeId::LookupByNameFailSafe(name, &tid) && tid.HasConstructor();
    if (ok)
    {
        ObjectFactory factory(name);
        ok = DynamicCast<TcpCongestionOps>(factory.Create()) != nullptr;
    }
    if (!ok)
    {
        throw TrainingInputError(
            "--tcp: unknown TCP variant '" + m_scenario.tcpVariant
            + "' (expected an ns-3 TcpCongestionOps, e.g. TcpCubic, TcpNewReno, "
              "TcpBbr, TcpDctcp, TcpVegas)");
    }
    return tid;
}

void
TrainingClusterHelper::ConfigureTcp() const
{
    NS_LOG_FUNCTION(this);
    const TypeId tid = LookupTcpTypeId();
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(tid));
    Config::SetDefault("ns3::TcpSocket::SegmentSize",
                       UintegerValue(TrainingNetwork::GetSegmentSize(m_scenario)));
    // RcvBufSize > SndBufSize works around an ns-3.37 crash (segfault in TcpRateLinux::SkbSent).
    // TcpTxBuffer::NextSeg rule (2) accepts m_sentSize <= rWnd and returns a segment of
    // min(SMSS, rWnd - m_sentSize) bytes (tcp-tx-buffer.cc:1023-1027): 0 bytes when the sent
    // data fills the peer's window exactly while unsent data waits. CopyFromSequence(0, ...)
    // then returns nullptr (tcp-tx-buffer.cc:237), which SendDataPacket dereferences
    // (tcp-socket-base.cc:3124-3126). SendPendingData gets there in loss recovery or after an
    // RTO (SACKed or lost bytes make cwnd - pipe > 0 with a full window) whenever the send
    // buffer holds more than the advertised window, and window scaling rounds that window down
    // to a multiple of 2^wscale (up to 16383 bytes below RcvBufSize). With the receive buffer
    // larger than the send buffer by more than that rounding, and receivers that drain their
    // socket on every receive callback (TensorConnection::HandleRead), rWnd >= SndBufSize >=
    // bytes buffered by the sender, so a full window never has unsent data behind it. As in
    // Linux (tcp_rmem above tcp_wmem) the send buffer, not the receive window, then limits a
    // flow, as before. ns-3 later fixed NextSeg (m_sentSize < rWnd).
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(GetSocketBufferBytes()));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(GetReceiveBufferBytes()));
    // Linux ACKs every second full segment, or after its delayed-ACK timer (TCP_DELACK_MIN,
    // 40 ms); ns-3's default timer is 200 ms. The module's ns-3 hosts ACK every segment.
    Config::SetDefault("ns3::TcpSocket::DelAckCount",
                       UintegerValue(m_scenario.delayedAck ? 2 : m_delAckCount));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout",
                       TimeValue(m_scenario.delayedAck ? MilliSeconds(40) : MilliSeconds(200)));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(m_scenario.minRto));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
    // DCTCP needs ECN; Config defaults outlive a run, so reset it for the other variants.
    bool dctcp = tid == TypeId::LookupByName("ns3::TcpDctcp");
    Config::SetDefault("ns3::TcpSocketBase::UseEcn",
                       StringValue(dctcp || m_scenario.ecn ? "On" : "Off"));
    ConfigurePacing();
}

void
TrainingClusterHelper::ConfigurePacing() const
{
    bool cap = m_scenario.flowCap.GetBitRate() > 0;
    Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(cap));
    if (!cap)
    {
        return; // pacing off: the ratios below are unused
    }
    Config::SetDefault("ns3::TcpSocketState::MaxPacingRate", DataRateValue(m_scenario.flowCap));
    // ns-3 paces at min(MaxPacingRate, ratio x max(cwnd, in flight) / srtt) (ratio 200 % in slow
    // start, 120 % after; TcpSocketBase::UpdatePacingRate). Its srtt is not a usable divisor
    // here: with timestamps on (as here) RTT samples come from TcpOptionTS, whose clock ticks in
    // milliseconds, so a sample is 1 us, or 1 ms for segments whose ACK crosses a millisecond
    // tick, and srtt swings between the two. Up to ns-3.41 that was hidden: cwnd kept growing
    // while pacing held the flow back, so ratio x cwnd / srtt stayed above the cap. ns-3.42
    // (commit f75345fa0, issue #966; tcp-cubic.cc, tcp-socket-base.cc m_isCwndLimited) stops
    // TcpCubic and TcpLinuxReno growing cwnd when it does not limit the flow, as Linux does, so
    // a capped flow's cwnd stays near one BDP, the pacing rate falls to cwnd / 1 ms after every
    // tick and one 10 G capped flow on 25 G links got 8.25 Gb/s in ns-3.48. The largest ratio
    // (uint16_t percent) keeps that term above the window's own rate cwnd / RTT for any
    // srtt < 655 x RTT, so in every release the cap is the only pacing limit (a per-flow rate
    // limiter, as SO_MAX_PACING_RATE) and the window, not the pacing, adapts to congestion.
    const auto ratio = UintegerValue(std::numeric_limits<uint16_t>::max());
    Config::SetDefault("ns3::TcpSocketState::PacingSsRatio", ratio);
    Config::SetDefault("ns3::TcpSocketState::PacingCaRatio", ratio);
}

} // namespace ns3

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

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingClusterHelper");

NS_OBJECT_ENSURE_REGISTERED(TrainingClusterHelper);

TypeId
TrainingClusterHelper::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::TrainingClusterHelper")
              .SetParent<Object>()
              .SetGroupName("DistributedTraining")
              .AddConstructor<TrainingClusterHelper>()
              .AddAttribute("Workers",
                            "Number of worker nodes K",
                            UintegerValue(4),
                            MakeUintegerAccessor(&TrainingClusterHelper::m_workers),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("Servers",
                            "Number of parameter-server nodes P",
                            UintegerValue(1),
                            MakeUintegerAccessor(&TrainingClusterHelper::m_servers),
                            MakeUintegerChecker<uint32_t>(0))
              .AddAttribute("NicRate",
                            "Rate of every point-to-point link (each direction)",
                            DataRateValue(DataRate("10Gbps")),
                            MakeDataRateAccessor(&TrainingClusterHelper::m_nicRate),
                            MakeDataRateChecker())
              .AddAttribute("FlowCap",
                            "Per-flow rate cap through TCP pacing (0: none)",
                            DataRateValue(DataRate(0)),
                            MakeDataRateAccessor(&TrainingClusterHelper::m_flowCap),
                            MakeDataRateChecker())
              .AddAttribute("LinkDelay",
                            "One-way propagation delay of each link",
                            TimeValue(MicroSeconds(10)),
                            MakeTimeAccessor(&TrainingClusterHelper::m_linkDelay),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("QueueSize",
                            "Buffer of every switch port, and of every host NIC unless "
                            "HostQueueSize is set (the device queue, or the disc with QueueDisc)",
                            StringValue("1000p"),
                            MakeStringAccessor(&TrainingClusterHelper::m_queueSize),
                            MakeStringChecker())
              .AddAttribute("HostQueueSize",
                            "Buffer of every host NIC (workers, servers, cross hosts); empty: "
                            "QueueSize",
                            StringValue(""),
                            MakeStringAccessor(&TrainingClusterHelper::m_hostQueueSize),
                            MakeStringChecker())
              .AddAttribute("QueueDisc",
                            "Traffic-control queue disc TypeId on every device, or \"none\" for "
                            "the device queue alone",
                            StringValue("none"),
                            MakeStringAccessor(&TrainingClusterHelper::m_queueDisc),
                            MakeStringChecker())
              .AddAttribute("TcpVariant",
                            "TCP congestion control (TypeId name, e.g. TcpCubic, TcpNewReno)",
                            StringValue("TcpCubic"),
                            MakeStringAccessor(&TrainingClusterHelper::m_tcpVariant),
                            MakeStringChecker())
              .AddAttribute("Mtu",
                            "MTU of every link in bytes",
                            UintegerValue(1500),
                            MakeUintegerAccessor(&TrainingClusterHelper::m_mtu),
                            MakeUintegerChecker<uint32_t>(576, 9000))
              .AddAttribute("MinRto",
                            "TCP minimum retransmission timeout",
                            TimeValue(MilliSeconds(200)),
                            MakeTimeAccessor(&TrainingClusterHelper::m_minRto),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("DelAckCount",
                            "TCP delayed-ACK count",
                            UintegerValue(1),
                            MakeUintegerAccessor(&TrainingClusterHelper::m_delAckCount),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("HostModel",
                            "ns3 (ns-3's congestion controls) or linux (Linux's CUBIC or Reno "
                            "for TcpCubic or TcpNewReno; doc/congestion.rst)",
                            StringValue("ns3"),
                            MakeStringAccessor(&TrainingClusterHelper::m_hostModel),
                            MakeStringChecker())
              .AddAttribute("BufferAutotuning",
                            "Linux socket-buffer autotuning on every training socket",
                            BooleanValue(false),
                            MakeBooleanAccessor(&TrainingClusterHelper::m_autotuning),
                            MakeBooleanChecker())
              .AddAttribute("DelayedAck",
                            "Linux's delayed ACKs: one per two full segments, or after 40 ms "
                            "(else DelAckCount with ns-3's 200 ms timer)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&TrainingClusterHelper::m_delayedAck),
                            MakeBooleanChecker())
              .AddAttribute(
                  "SendBuffer",
                  "TCP send buffer in bytes (0: automatic, TrainingNetwork::GetSocketBufferBytes); "
                  "Configure() sets it from the scenario's sendBufferBytes",
                  UintegerValue(0),
                  MakeUintegerAccessor(&TrainingClusterHelper::m_sendBuffer),
                  MakeUintegerChecker<uint32_t>())
              .AddAttribute("Port",
                            "TCP port of the parameter servers (and of the ring workers)",
                            UintegerValue(5000),
                            MakeUintegerAccessor(&TrainingClusterHelper::m_port),
                            MakeUintegerChecker<uint16_t>(1))
              .AddAttribute("Ecn",
                            "ECN: TCP negotiates it and queue discs with a UseEcn attribute mark "
                            "(TcpDctcp always uses it)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&TrainingClusterHelper::m_ecn),
                            MakeBooleanChecker())
              .AddAttribute("CrossTraffic",
                            "Background traffic through the switch: none, bulk or onoff",
                            StringValue("none"),
                            MakeStringAccessor(&TrainingClusterHelper::m_cross),
                            MakeStringChecker())
              .AddAttribute("CrossFlows",
                            "Cross flows, each from its own host on the switch",
                            UintegerValue(1),
                            MakeUintegerAccessor(&TrainingClusterHelper::m_crossFlows),
                            MakeUintegerChecker<uint32_t>(1, 64))
              .AddAttribute("CrossRate",
                            "onoff: mean offered load of all cross flows together",
                            DataRateValue(DataRate(0)),
                            MakeDataRateAccessor(&TrainingClusterHelper::m_crossRate),
                            MakeDataRateChecker())
              .AddAttribute("CrossTarget",
                            "Receiver of the cross flows: server (server 0, the incast port) or "
                            "worker (worker 0)",
                            StringValue("server"),
                            MakeStringAccessor(&TrainingClusterHelper::m_crossTarget),
                            MakeStringChecker())
              .AddAttribute("CrossProtocol",
                            "onoff: udp or tcp (bulk is TCP)",
                            StringValue("udp"),
                            MakeStringAccessor(&TrainingClusterHelper::m_crossProtocol),
                            MakeStringChecker())
              .AddAttribute("CrossOnTime",
                            "onoff: mean of the exponential on-periods",
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
    : m_workers(4),
      m_servers(1),
      m_nicRate("10Gbps"),
      m_flowCap(0),
      m_linkDelay(MicroSeconds(10)),
      m_queueSize("1000p"),
      m_hostQueueSize(""),
      m_queueDisc("none"),
      m_tcpVariant("TcpCubic"),
      m_mtu(1500),
      m_minRto(MilliSeconds(200)),
      m_delAckCount(1),
      m_hostModel("ns3"),
      m_autotuning(false),
      m_delayedAck(false),
      m_sendBuffer(0),
      m_port(5000),
      m_ecn(false),
      m_cross("none"),
      m_crossFlows(1),
      m_crossRate(0),
      m_crossTarget("server"),
      m_crossProtocol("udp"),
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
    m_workers = scenario.workers;
    m_servers = scenario.architecture == TrainingScenario::PARAMETER_SERVER ? scenario.servers : 0;
    m_nicRate = scenario.nicRate;
    m_flowCap = scenario.flowCap;
    m_linkDelay = scenario.linkDelay;
    m_queueSize = scenario.queueSize;
    m_hostQueueSize = scenario.hostQueueSize;
    m_queueDisc = scenario.queueDisc;
    m_tcpVariant = scenario.tcpVariant;
    m_mtu = scenario.mtu;
    m_sendBuffer = scenario.sendBufferBytes;
    m_minRto = scenario.minRto;
    m_hostModel = scenario.hostModel;
    m_autotuning = scenario.bufferAutotuning;
    m_delayedAck = scenario.delayedAck;
    m_ecn = scenario.ecn;
    m_cross = scenario.crossTraffic;
    m_crossFlows = scenario.crossFlows;
    m_crossRate = scenario.crossRate;
    m_crossTarget = scenario.crossTarget;
    m_crossProtocol = scenario.crossProtocol;
    m_fabric = scenario.topology == "star"
                   ? nullptr
                   : std::make_shared<const FabricTopology>(FabricTopology::FromScenario(scenario));
}

TrainingScenario
TrainingClusterHelper::GetNetworkScenario() const
{
    TrainingScenario s;
    s.architecture
        = m_servers == 0 ? TrainingScenario::RING_ALLREDUCE : TrainingScenario::PARAMETER_SERVER;
    s.nicRate = m_nicRate;
    s.flowCap = m_flowCap;
    s.linkDelay = m_linkDelay;
    s.queueSize = m_queueSize;
    s.hostQueueSize = m_hostQueueSize;
    s.mtu = m_mtu;
    s.sendBufferBytes = m_sendBuffer;
    s.bufferAutotuning = m_autotuning;
    return s;
}

uint32_t
TrainingClusterHelper::GetSocketBufferBytes() const
{
    return TrainingNetwork::GetSocketBufferBytes(GetNetworkScenario(), m_sendBuffer);
}

double
TrainingClusterHelper::GetBaseRttSeconds() const
{
    return TrainingNetwork::GetBaseRttSeconds(GetNetworkScenario());
}

double
TrainingClusterHelper::GetBufferBytes(bool host) const
{
    return TrainingNetwork::GetBufferBytes(GetNetworkScenario(), host);
}

uint32_t
TrainingClusterHelper::GetReceiveBufferBytes() const
{
    return TrainingNetwork::GetReceiveBufferBytes(GetNetworkScenario(), m_sendBuffer);
}

std::string
TrainingClusterHelper::GetTcpTypeName() const
{
    std::string name = m_tcpVariant.rfind("ns3::", 0) == 0 ? m_tcpVariant : "ns3::" + m_tcpVariant;
    if (m_hostModel == "linux")
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
    if (!m_autotuning)
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
    if (m_hostModel != "ns3" && m_hostModel != "linux")
    {
        throw TrainingInputError("--hostModel: unknown host model '" + m_hostModel
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
            "--tcp: unknown TCP variant '" + m_tcpVariant
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
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(m_mtu - 52));
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
                       UintegerValue(m_delayedAck ? 2 : m_delAckCount));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout",
                       TimeValue(m_delayedAck ? MilliSeconds(40) : MilliSeconds(200)));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(m_minRto));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
    // DCTCP needs ECN; Config defaults outlive a run, so reset it for the other variants.
    bool dctcp = tid == TypeId::LookupByName("ns3::TcpDctcp");
    Config::SetDefault("ns3::TcpSocketBase::UseEcn", StringValue(dctcp || m_ecn ? "On" : "Off"));
    ConfigurePacing();
}

void
TrainingClusterHelper::ConfigurePacing() const
{
    bool cap = m_flowCap.GetBitRate() > 0;
    Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(cap));
    if (!cap)
    {
        return; // pacing off: the ratios below are unused
    }
    Config::SetDefault("ns3::TcpSocketState::MaxPacingRate", DataRateValue(m_flowCap));
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

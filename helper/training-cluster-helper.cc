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
    m_ecn = scenario.ecn;
    m_cross = scenario.crossTraffic;
    m_crossFlows = scenario.crossFlows;
    m_crossRate = scenario.crossRate;
    m_crossTarget = scenario.crossTarget;
    m_crossProtocol = scenario.crossProtocol;
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

void
TrainingClusterHelper::ConfigureTcp() const
{
    NS_LOG_FUNCTION(this);
    std::string name = m_tcpVariant.rfind("ns3::", 0) == 0 ? m_tcpVariant : "ns3::" + m_tcpVariant;
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
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(m_delAckCount));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(m_minRto));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
    // DCTCP needs ECN; Config defaults outlive a run, so reset it for the other variants.
    bool dctcp = tid == TypeId::LookupByName("ns3::TcpDctcp");
    Config::SetDefault("ns3::TcpSocketBase::UseEcn", StringValue(dctcp || m_ecn ? "On" : "Off"));
    bool cap = m_flowCap.GetBitRate() > 0;
    Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(cap));
    if (cap)
    {
        Config::SetDefault("ns3::TcpSocketState::MaxPacingRate", DataRateValue(m_flowCap));
    }
}

void
TrainingClusterHelper::Build()
{
    NS_LOG_FUNCTION(this);
    m_workerNodes.Create(m_workers);
    m_serverNodes.Create(m_servers);
    m_switch = CreateObject<Node>();

    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(m_nicRate));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
    p2p.SetChannelAttribute("Delay", TimeValue(m_linkDelay));
    const QueueSize queue = TrainingScenario::ParseQueueSize("--queue", m_queueSize);
    const QueueSize hostQueue
        = m_hostQueueSize.empty()
              ? queue
              : TrainingScenario::ParseQueueSize("--hostQueue", m_hostQueueSize);
    std::string disc = m_queueDisc.empty() ? "none" : m_queueDisc;
    const bool dctcp = m_tcpVariant == "TcpDctcp" || m_tcpVariant == "ns3::TcpDctcp";
    if (dctcp && disc == "none")
    {
        // DCTCP needs ECN marking, which a DropTail device queue cannot do.
        disc = "RedQueueDisc";
    }
    const bool haveDisc = disc != "none";
    if (m_cross != "none" && m_cross != "bulk" && m_cross != "onoff")
    {
        throw TrainingInputError("--crossTraffic: unknown value '" + m_cross
                                 + "' (expected none, bulk or onoff)");
    }
    if ((m_crossTarget == "server" && m_servers == 0)
        || (m_crossTarget != "server" && m_crossTarget != "worker"))
    {
        if (m_cross != "none")
        {
            throw TrainingInputError(
                "--crossTarget: '" + m_crossTarget + "' with " + std::to_string(m_servers)
                + " servers (expected server or worker, worker without servers)");
        }
    }
    // With a queue disc the backlog must build up in it, not in the device: ns-3's flow control
    // stops the disc only when the device queue is full, so the device queue is kept tiny and the
    // disc gets the QueueSize (as ns-3's traffic-control examples and BQL do).
    p2p.SetQueue("ns3::DropTailQueue<Packet>",
                 "MaxSize",
                 QueueSizeValue(haveDisc ? QueueSize("2p") : queue));

    InternetStackHelper stack;
    stack.Install(m_workerNodes);
    stack.Install(m_serverNodes);
    stack.Install(m_switch);

    TrafficControlHelper tch;
    if (haveDisc)
    {
        std::string name = disc.rfind("ns3::", 0) == 0 ? disc : "ns3::" + disc;
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(name, &tid) || !tid.IsChildOf(QueueDisc::GetTypeId()))
        {
            throw TrainingInputError(
                "--queueDisc: unknown queue disc '" + m_queueDisc
                + "' (expected none or an ns-3 QueueDisc, e.g. "
                  "FifoQueueDisc, RedQueueDisc, CoDelQueueDisc, FqCoDelQueueDisc)");
        }
        tch.SetRootQueueDisc(name);
    }
    // Attributes of one installed queue disc, set before the simulation initialises it.
    auto configure = [this, dctcp](Ptr<QueueDisc> qd, const QueueSize& queue)
    {
        TypeId::AttributeInformation info;
        if (qd->GetInstanceTypeId().LookupAttributeByName("MaxSize", &info))
        {
            qd->SetAttribute("MaxSize", QueueSizeValue(queue));
        }
        if ((dctcp || m_ecn) && qd->GetInstanceTypeId().LookupAttributeByName("UseEcn", &info))
        {
            // RED, CoDel and FqCoDel mark ECN-capable packets instead of dropping them.
            qd->SetAttribute("UseEcn", BooleanValue(true));
        }
        const bool red = qd->GetInstanceTypeId() == TypeId::LookupByName("ns3::RedQueueDisc");
        if (red && !dctcp)
        {
            // RED's defaults (5-15 packet thresholds, a 1.5 Mb/s link for the idle-time
            // estimate) are for slow links: scale the thresholds with the buffer (20 % and
            // 60 % of it, at least 1 and 3 packets) and give it the real link.
            const double packets = queue.GetUnit() == QueueSizeUnit::PACKETS
                                       ? queue.GetValue()
                                       : queue.GetValue() / double(m_mtu);
            qd->SetAttribute("MinTh", DoubleValue(std::max(1.0, 0.2 * packets)));
            qd->SetAttribute("MaxTh", DoubleValue(std::max(3.0, 0.6 * packets)));
            qd->SetAttribute("MeanPktSize", UintegerValue(m_mtu));
            qd->SetAttribute("LinkBandwidth", DataRateValue(m_nicRate));
            qd->SetAttribute("LinkDelay", TimeValue(m_linkDelay));
        }
        if (dctcp && red)
        {
            // DCTCP's step marking, as ns-3's tcp-dctcp example: mark above 20 packets (the
            // instantaneous queue, QW = 1), no early drops.
            qd->SetAttribute("UseEcn", BooleanValue(true));
            qd->SetAttribute("UseHardDrop", BooleanValue(false));
            qd->SetAttribute("QW", DoubleValue(1.0));
            qd->SetAttribute("MinTh", DoubleValue(20));
            qd->SetAttribute("MaxTh", DoubleValue(60));
            qd->SetAttribute("MeanPktSize", UintegerValue(m_mtu));
            qd->SetAttribute("LinkBandwidth", DataRateValue(m_nicRate));
            qd->SetAttribute("LinkDelay", TimeValue(m_linkDelay));
        }
    };

    Ipv4AddressHelper address("10.0.0.0", "255.255.255.252");
    // One host's link to the switch: devices, queue discs, a /30 subnet.
    auto attach = [&](Ptr<Node> host, NetDeviceContainer* link)
    {
        *link = p2p.Install(host, m_switch);
        if (!haveDisc)
        {
            // The host's NIC buffer (HostQueueSize), the switch port's (QueueSize).
            DynamicCast<PointToPointNetDevice>(link->Get(0))->GetQueue()->SetMaxSize(hostQueue);
        }
        else
        {
            QueueDiscContainer discs = tch.Install(*link);
            configure(discs.Get(0), hostQueue);
            configure(discs.Get(1), queue);
        }
        Ipv4InterfaceContainer ifaces = address.Assign(*link);
        address.NewNetwork();
        if (!haveDisc)
        {
            // Ipv4AddressHelper::Assign installs ns-3's default FqCoDel queue disc; "none" means
            // the device's DropTail queue is the only buffer, as in a plain switch.
            tch.Uninstall(*link);
        }
        return ifaces;
    };
    const uint32_t hosts = m_workers + m_servers;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        Ptr<Node> host = h < m_workers ? m_workerNodes.Get(h) : m_serverNodes.Get(h - m_workers);
        NetDeviceContainer link;
        m_ifaces.push_back(attach(host, &link));
        m_links.push_back(link);
    }
    if (m_cross != "none")
    {
        // Cross-traffic hosts: same links, queues and discs as the training hosts.
        m_crossNodes.Create(m_crossFlows);
        stack.Install(m_crossNodes);
        for (uint32_t c = 0; c < m_crossFlows; ++c)
        {
            NetDeviceContainer link;
            attach(m_crossNodes.Get(c), &link);
            m_crossLinks.push_back(link);
        }
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
}

ApplicationContainer
TrainingClusterHelper::InstallParameterServerJob(std::shared_ptr<const TrainingProfile> profile,
                                                 const TrainingScenario& scenario)
{
    NS_LOG_FUNCTION(this);
    std::vector<uint32_t> owners = scenario.AssignLayersToServers(*profile);
    std::vector<std::vector<uint32_t>> layers(m_servers);
    for (std::size_t l = 0; l < owners.size(); ++l)
    {
        layers[owners[l]].push_back(static_cast<uint32_t>(l));
    }
    std::vector<Ipv4Address> addresses;
    for (uint32_t p = 0; p < m_servers; ++p)
    {
        if (layers[p].empty())
        {
            throw TrainingInputError("--servers: server " + std::to_string(p)
                                     + " would own no layer with --partition="
                                     + scenario.GetPartitionName() + " (expected fewer servers)");
        }
        addresses.push_back(GetServerAddress(p));
    }

    ApplicationContainer apps;
    for (uint32_t p = 0; p < m_servers; ++p)
    {
        Ptr<ParameterServerApplication> ps = CreateObject<ParameterServerApplication>();
        ps->SetAttribute("Port", UintegerValue(m_port));
        ps->SetAttribute("ServerIndex", UintegerValue(p));
        ps->SetAttribute("Workers", UintegerValue(m_workers));
        ps->SetAttribute("Mode", StringValue(scenario.GetModeName()));
        ps->SetAttribute("Overlap", BooleanValue(scenario.overlap));
        ps->SetAttribute("Order", StringValue(scenario.GetOrderName()));
        ps->SetAttribute("Window", UintegerValue(scenario.windowBytes));
        ps->SetModel(profile, layers[p]);
        m_serverNodes.Get(p)->AddApplication(ps);
        apps.Add(ps);
    }
    for (uint32_t w = 0; w < m_workers; ++w)
    {
        Ptr<TrainingWorkerApplication> worker = CreateObject<TrainingWorkerApplication>();
        worker->SetAttribute("WorkerIndex", UintegerValue(w));
        worker->SetAttribute("Port", UintegerValue(m_port));
        worker->SetAttribute("Steps", UintegerValue(scenario.steps));
        worker->SetAttribute("Overlap", BooleanValue(scenario.overlap));
        worker->SetAttribute("ComputeScale", DoubleValue(scenario.GetComputeScale(w)));
        worker->SetAttribute("SampleSteps", BooleanValue(scenario.sampleSteps));
        worker->SetAttribute("Window", UintegerValue(scenario.windowBytes));
        worker->SetAttribute("GpusPerNode", UintegerValue(scenario.gpusPerNode));
        worker->SetAttribute("IntraBandwidth", DataRateValue(scenario.intraBandwidth));
        worker->SetAttribute("IntraLatency", TimeValue(scenario.intraLatency));
        worker->SetModel(profile, owners, addresses);
        m_workerNodes.Get(w)->AddApplication(worker);
        apps.Add(worker);
    }
    m_apps.Add(apps);
    return apps;
}

ApplicationContainer
TrainingClusterHelper::InstallRingJob(std::shared_ptr<const TrainingProfile> profile,
                                      const TrainingScenario& scenario)
{
    NS_LOG_FUNCTION(this);
    ApplicationContainer apps;
    for (uint32_t w = 0; w < m_workers; ++w)
    {
        Ptr<RingAllReduceApplication> app = CreateObject<RingAllReduceApplication>();
        app->SetAttribute("WorkerIndex", UintegerValue(w));
        app->SetAttribute("Workers", UintegerValue(m_workers));
        app->SetAttribute("Port", UintegerValue(m_port));
        app->SetAttribute("Steps", UintegerValue(scenario.steps));
        app->SetAttribute("Overlap", BooleanValue(scenario.overlap));
        app->SetAttribute("ComputeScale", DoubleValue(scenario.GetComputeScale(w)));
        app->SetAttribute("SampleSteps", BooleanValue(scenario.sampleSteps));
        app->SetAttribute("BucketBytes", UintegerValue(scenario.bucketBytes));
        app->SetAttribute("FirstBucketBytes", UintegerValue(scenario.firstBucketBytes));
        app->SetAttribute("FusionTimeout", TimeValue(scenario.fusionTimeout));
        app->SetAttribute("ReductionRate", DoubleValue(scenario.reductionRate));
        app->SetAttribute("GpusPerNode", UintegerValue(scenario.gpusPerNode));
        app->SetAttribute("IntraBandwidth", DataRateValue(scenario.intraBandwidth));
        app->SetAttribute("IntraLatency", TimeValue(scenario.intraLatency));
        app->SetModel(profile, GetWorkerAddress((w + 1) % m_workers));
        m_workerNodes.Get(w)->AddApplication(app);
        apps.Add(app);
    }
    m_apps.Add(apps);
    return apps;
}

ApplicationContainer
TrainingClusterHelper::InstallCrossTraffic()
{
    NS_LOG_FUNCTION(this);
    ApplicationContainer apps;
    if (m_cross == "none")
    {
        return apps;
    }
    const bool udp = m_cross == "onoff" && m_crossProtocol == "udp";
    const std::string factory = udp ? "ns3::UdpSocketFactory" : "ns3::TcpSocketFactory";
    Ptr<Node> target = m_crossTarget == "worker" ? m_workerNodes.Get(0) : m_serverNodes.Get(0);
    Address remote(
        InetSocketAddress(m_crossTarget == "worker" ? GetWorkerAddress(0) : GetServerAddress(0),
                          m_crossPort));
    PacketSinkHelper sink(factory, InetSocketAddress(Ipv4Address::GetAny(), m_crossPort));
    apps.Add(sink.Install(target));
    if (m_cross == "bulk")
    {
        BulkSendHelper bulk(factory, remote);
        bulk.SetAttribute("MaxBytes", UintegerValue(0));
        bulk.SetAttribute("SendSize", UintegerValue(64 * 1024));
        apps.Add(bulk.Install(m_crossNodes));
    }
    else
    {
        // Each flow: on at min(NIC, 2 x its mean share), off long enough for its mean share.
        const double share = m_crossRate.GetBitRate() / double(m_crossFlows);
        const double on = std::min(double(m_nicRate.GetBitRate()), 2 * share);
        const double duty = share / on;
        OnOffHelper onoff(factory, remote);
        onoff.SetAttribute("DataRate", DataRateValue(DataRate(static_cast<uint64_t>(on))));
        onoff.SetAttribute("PacketSize", UintegerValue(m_mtu - 52));
        onoff.SetAttribute("OnTime",
                           StringValue("ns3::ExponentialRandomVariable[Mean="
                                       + std::to_string(m_crossOnTime.GetSeconds()) + "]"));
        const double off = m_crossOnTime.GetSeconds() * (1 - duty) / duty;
        onoff.SetAttribute(
            "OffTime",
            StringValue(off > 0 ? "ns3::ExponentialRandomVariable[Mean=" + std::to_string(off) + "]"
                                : "ns3::ConstantRandomVariable[Constant=0]"));
        apps.Add(onoff.Install(m_crossNodes));
    }
    m_apps.Add(apps);
    return apps;
}

NodeContainer
TrainingClusterHelper::GetCrossHosts() const
{
    return m_crossNodes;
}

NetDeviceContainer
TrainingClusterHelper::GetCrossLinkDevices(uint32_t c) const
{
    return m_crossLinks.at(c);
}

Ipv4Address
TrainingClusterHelper::GetWorkerAddress(uint32_t w) const
{
    return m_ifaces.at(w).GetAddress(0);
}

int64_t
TrainingClusterHelper::AssignStreams(int64_t stream)
{
    int64_t current = stream;
    for (auto it = m_apps.Begin(); it != m_apps.End(); ++it)
    {
        if (auto ps = DynamicCast<ParameterServerApplication>(*it))
        {
            current += ps->AssignStreams(current);
        }
        else if (auto w = DynamicCast<TrainingWorkerApplication>(*it))
        {
            current += w->AssignStreams(current);
        }
        else if (auto r = DynamicCast<RingAllReduceApplication>(*it))
        {
            current += r->AssignStreams(current);
        }
        else if (auto onoff = DynamicCast<OnOffApplication>(*it))
        {
            current += onoff->AssignStreams(current);
        }
    }
    return current - stream;
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
    return m_ifaces.at(m_workers + p).GetAddress(0);
}

std::string
TrainingClusterHelper::GetHostName(uint32_t host) const
{
    TrainingScenario s;
    s.workers = m_workers;
    return TrainingNetwork::GetHostName(s, host);
}

} // namespace ns3

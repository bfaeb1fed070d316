/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-small-queues.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/queue-disc.h"
#include "ns3/rtt-estimator.h"
#include "ns3/simulator.h"
#include "ns3/socket-factory.h"
#include "ns3/socket.h"
#include "ns3/tag.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-recovery-ops.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpSmallQueuesSocket");

NS_OBJECT_ENSURE_REGISTERED(TcpSmallQueuesSocket);
NS_OBJECT_ENSURE_REGISTERED(TcpSmallQueuesSocketFactory);

namespace
{

/// The socket that sent a packet and the bytes it counted for it (until the packet leaves).
class TsqTag : public Tag
{
  public:
    TsqTag() = default;

    /**
     * \param socket the sender's registry key
     * \param bytes payload bytes counted
     */
    TsqTag(uint64_t socket, uint32_t bytes)
        : m_socket(socket),
          m_bytes(bytes)
    {
    }

    /// \return the TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::TcpSmallQueuesTag")
                                .SetParent<Tag>()
                                .SetGroupName("DistributedTraining")
                                .AddConstructor<TsqTag>();
        return tid;
    }

    TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    uint32_t GetSerializedSize() const override
    {
        return 12;
    }

    void Serialize(TagBuffer i) const override
    {
        i.WriteU64(m_socket);
        i.WriteU32(m_bytes);
    }

    void Deserialize(TagBuffer i) override
    {
        m_socket = i.ReadU64();
        m_bytes = i.ReadU32();
    }

    void Print(std::ostream& os) const override
    {
        os << "socket=" << m_socket << " bytes=" << m_bytes;
    }

    uint64_t m_socket{0}; //!< registry key of the sender
    uint32_t m_bytes{0};  //!< payload bytes counted
};

/// Live TcpSmallQueuesSocket by registry key (a packet may outlive its socket).
std::unordered_map<uint64_t, TcpSmallQueuesSocket*>&
Registry()
{
    static std::unordered_map<uint64_t, TcpSmallQueuesSocket*> sockets;
    return sockets;
}

/// A tagged packet left its host or was dropped there: tell its socket.
void
PacketLeft(Ptr<const Packet> p)
{
    TsqTag tag;
    if (!p->PeekPacketTag(tag))
    {
        return;
    }
    auto it = Registry().find(tag.m_socket);
    if (it != Registry().end())
    {
        it->second->NotifyLeft(tag.m_bytes);
    }
}

/// Queue-disc drop sink.
void
DiscDropped(Ptr<const QueueDiscItem> item)
{
    PacketLeft(item->GetPacket());
}

/**
 * Aggregated to a node that has TCP small queues sockets: the traces of its NICs (and their
 * queue discs) where its packets leave the host or are dropped on it, connected once each.
 */
class TsqNodeHook : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::TcpSmallQueuesNodeHook")
                                .SetParent<Object>()
                                .SetGroupName("DistributedTraining");
        return tid;
    }

    /**
     * \brief Connect the traces of the node's devices not connected yet.
     * \param node the node this object is aggregated to
     */
    void Hook(Ptr<Node> node)
    {
        Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
        if (tc && !m_tc)
        {
            // Without a queue disc a full (stopped) device queue makes the layer drop.
            m_tc = tc->TraceConnectWithoutContext("TcDrop", MakeCallback(&PacketLeft));
        }
        for (; m_devices < node->GetNDevices(); ++m_devices)
        {
            Ptr<NetDevice> device = node->GetDevice(m_devices);
            // Devices without these traces (the loopback) never carry a counted packet out.
            device->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&PacketLeft));
            device->TraceConnectWithoutContext("MacTxDrop", MakeCallback(&PacketLeft));
            Ptr<QueueDisc> disc = tc ? tc->GetRootQueueDiscOnDevice(device) : nullptr;
            if (disc)
            {
                disc->TraceConnectWithoutContext("Drop", MakeCallback(&DiscDropped));
            }
        }
    }

  private:
    uint32_t m_devices{0}; //!< devices connected so far
    bool m_tc{false};      //!< TcDrop connected
};

NS_OBJECT_ENSURE_REGISTERED(TsqNodeHook);

/// \return the next registry key (never reused in a process)
uint64_t
NextId()
{
    static uint64_t next = 0;
    return ++next;
}

} // namespace

TypeId
TcpSmallQueuesSocket::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::TcpSmallQueuesSocket")
              .SetParent<TcpSocketBase>()
              .SetGroupName("DistributedTraining")
              .AddConstructor<TcpSmallQueuesSocket>()
              .AddAttribute("PacingShift",
                            "sk_pacing_shift: the limit's pacing term is pacing rate x 2^-shift "
                            "seconds of data (10: about 1 ms)",
                            UintegerValue(10),
                            MakeUintegerAccessor(&TcpSmallQueuesSocket::m_pacingShift),
                            MakeUintegerChecker<uint32_t>(0, 31))
              .AddAttribute("MinSkbs",
                            "The limit's floor in skbs (Linux: 2 x skb truesize)",
                            UintegerValue(2),
                            MakeUintegerAccessor(&TcpSmallQueuesSocket::m_minSkbs),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("GsoMaxSize",
                            "sk_gso_max_size: bytes of an skb at most (65536: Linux's default, "
                            "veth's and most NICs'); 0: one segment per skb",
                            UintegerValue(65536),
                            MakeUintegerAccessor(&TcpSmallQueuesSocket::m_gsoMaxSize),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("TsoRttLog",
                            "tcp_tso_rtt_log: an skb gains GsoMaxSize >> (min RTT in us >> "
                            "this) bytes (9: the full size below 512 us)",
                            UintegerValue(9),
                            MakeUintegerAccessor(&TcpSmallQueuesSocket::m_tsoRttLog),
                            MakeUintegerChecker<uint32_t>(0, 31))
              .AddAttribute("MinTsoSegs",
                            "tcp_min_tso_segs: segments of an skb at least",
                            UintegerValue(2),
                            MakeUintegerAccessor(&TcpSmallQueuesSocket::m_minTsoSegs),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("SkbOverhead",
                            "Bytes counted per segment beyond its payload: Linux counts each "
                            "skb's truesize (x86-64 Linux 6.1, payload in page fragments: "
                            "SKB_TRUESIZE of a 1 KiB head = 1280)",
                            UintegerValue(1280),
                            MakeUintegerAccessor(&TcpSmallQueuesSocket::m_skbOverhead),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("LimitOutputBytes",
                            "tcp_limit_output_bytes: the limit's cap for a socket without pacing "
                            "(4 MiB from Linux 6.7, 1 MiB before)",
                            UintegerValue(4194304),
                            MakeUintegerAccessor(&TcpSmallQueuesSocket::m_limitOutputBytes),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("PacingSsRatio",
                            "tcp_pacing_ss_ratio: pacing rate in % of cwnd / srtt while "
                            "cwnd < ssthresh / 2",
                            UintegerValue(200),
                            MakeUintegerAccessor(&TcpSmallQueuesSocket::m_ssRatio),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("PacingCaRatio",
                            "tcp_pacing_ca_ratio: pacing rate in % of cwnd / srtt otherwise",
                            UintegerValue(120),
                            MakeUintegerAccessor(&TcpSmallQueuesSocket::m_caRatio),
                            MakeUintegerChecker<uint32_t>(1))
              .AddTraceSource("LocalBytes",
                              "Payload bytes of the socket's segments still on its host",
                              MakeTraceSourceAccessor(&TcpSmallQueuesSocket::m_localBytes),
                              "ns3::TracedValueCallback::Uint32")
              .AddTraceSource("Throttled",
                              "The socket stopped sending: (bytes queued locally, limit)",
                              MakeTraceSourceAccessor(&TcpSmallQueuesSocket::m_throttleTrace),
                              "ns3::TcpSmallQueuesSocket::ThrottleTracedCallback");
    return tid;
}

#if DT_OVERRIDES_INSTANCE_TYPE_ID
TypeId
TcpSmallQueuesSocket::GetInstanceTypeId() const
{
    return GetTypeId(); // TcpSocketBase's would name TcpSocketBase
}
#endif

TcpSmallQueuesSocket::TcpSmallQueuesSocket()
    : m_id(NextId())
{
    NS_LOG_FUNCTION(this);
    Register();
}

TcpSmallQueuesSocket::TcpSmallQueuesSocket(const TcpSmallQueuesSocket& sock)
    : TcpSocketBase(sock),
      m_pacingShift(sock.m_pacingShift),
      m_minSkbs(sock.m_minSkbs),
      m_gsoMaxSize(sock.m_gsoMaxSize),
      m_tsoRttLog(sock.m_tsoRttLog),
      m_minTsoSegs(sock.m_minTsoSegs),
      m_skbOverhead(sock.m_skbOverhead),
      m_limitOutputBytes(sock.m_limitOutputBytes),
      m_ssRatio(sock.m_ssRatio),
      m_caRatio(sock.m_caRatio),
      m_id(NextId()),
      m_throttleTrace(sock.m_throttleTrace)
{
    NS_LOG_FUNCTION(this);
    Register();
}

TcpSmallQueuesSocket::~TcpSmallQueuesSocket()
{
    Registry().erase(m_id);
}

void
TcpSmallQueuesSocket::DoDispose()
{
    m_wakeEvent.Cancel();
    m_skbEnd.Cancel();
    Registry().erase(m_id);
    TcpSocketBase::DoDispose();
}

void
TcpSmallQueuesSocket::Register()
{
    Registry()[m_id] = this;
    // A copy (Fork) inherits its listener's connections; connect exactly once either way.
    m_txTrace.DisconnectWithoutContext(MakeCallback(&TcpSmallQueuesSocket::OnTx));
    m_txTrace.ConnectWithoutContext(MakeCallback(&TcpSmallQueuesSocket::OnTx));
    m_rxTrace.DisconnectWithoutContext(MakeCallback(&TcpSmallQueuesSocket::OnRx));
    m_rxTrace.ConnectWithoutContext(MakeCallback(&TcpSmallQueuesSocket::OnRx));
}

Ptr<Socket>
TcpSmallQueuesSocket::CreateSocket(Ptr<Node> node)
{
    Ptr<TcpL4Protocol> tcp = node->GetObject<TcpL4Protocol>();
    NS_ABORT_MSG_UNLESS(tcp, "TcpSmallQueuesSocket::CreateSocket: node without TCP");
    TypeIdValue rtt;
    TypeIdValue congestion;
    TypeIdValue recovery;
    tcp->GetAttribute("RttEstimatorType", rtt);
    tcp->GetAttribute("SocketType", congestion);
    tcp->GetAttribute("RecoveryType", recovery);
    Ptr<TcpSmallQueuesSocket> socket = CreateObject<TcpSmallQueuesSocket>();
    socket->SetNode(node);
    socket->SetTcp(tcp);
    socket->SetRtt(ObjectFactory(rtt.Get().GetName()).Create<RttEstimator>());
    socket->SetCongestionControlAlgorithm(
        ObjectFactory(congestion.Get().GetName()).Create<TcpCongestionOps>());
    socket->SetRecoveryAlgorithm(ObjectFactory(recovery.Get().GetName()).Create<TcpRecoveryOps>());
    tcp->AddSocket(socket);
    Ptr<TsqNodeHook> hook = node->GetObject<TsqNodeHook>();
    if (!hook)
    {
        hook = CreateObject<TsqNodeHook>();
        node->AggregateObject(hook);
    }
    hook->Hook(node);
    return socket;
}

Ptr<Socket>
TcpSmallQueuesSocket::CreateTcpSocket(Ptr<Node> node,
                                      bool smallQueues,
                                      uint32_t sendBuffer,
                                      uint32_t receiveBuffer)
{
    Ptr<Socket> s = smallQueues ? CreateSocket(node)
                                : Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
    // Accepted sockets are forks of their listener and keep these sizes.
    if (sendBuffer > 0)
    {
        s->SetAttribute("SndBufSize", UintegerValue(sendBuffer));
    }
    if (receiveBuffer > 0)
    {
        s->SetAttribute("RcvBufSize", UintegerValue(receiveBuffer));
    }
    return s;
}

Ptr<TcpSocketBase>
TcpSmallQueuesSocket::Fork()
{
    return CopyObject<TcpSmallQueuesSocket>(this);
}

uint32_t
TcpSmallQueuesSocket::GetLocalBytes() const
{
    return m_localBytes;
}

uint64_t
TcpSmallQueuesSocket::GetThrottleCount() const
{
    return m_throttles;
}

Time
TcpSmallQueuesSocket::GetSmoothedRtt() const
{
    return m_srtt;
}

double
TcpSmallQueuesSocket::GetPacingRate() const
{
    // Linux updates sk_pacing_rate once per ACK, after processing it (tcp_ack() ->
    // tcp_update_pacing_rate()), not as the socket sends: the first call after an ACK fixes it.
    if (m_rateStale)
    {
        m_pacingRate = ComputePacingRate();
        m_rateStale = false;
    }
    return m_pacingRate;
}

double
TcpSmallQueuesSocket::ComputePacingRate() const
{
    // tcp_update_pacing_rate(); before the first RTT sample Linux's rate is unlimited (~0UL),
    // or SO_MAX_PACING_RATE.
    const double cap = m_tcb->m_pacing ? m_tcb->m_maxPacingRate.GetBitRate() / 8.0
                                       : std::numeric_limits<double>::infinity();
    if (m_srtt.IsZero())
    {
        return cap;
    }
    const uint32_t cwnd = m_tcb->m_cWnd;
    const uint32_t ssthresh = m_tcb->m_ssThresh;
    const double ratio = (cwnd < ssthresh / 2 ? m_ssRatio : m_caRatio) / 100.0;
    // Linux grows cwnd only while it limits the flow (tcp_is_cwnd_limited(): in slow start up
    // to twice the data out, in congestion avoidance not past it); ns-3.37 grows it on every
    // ACK, so a socket that TSQ holds back would get an ever larger rate and limit. The rate
    // takes the window Linux would have: cwnd up to twice (slow start) or once the data out.
    const double out = UnAckDataCount();
    const double bound = cwnd < ssthresh ? 2 * out : out;
    const double window = std::max(std::min(static_cast<double>(cwnd), bound), out);
    const double rate = ratio * window / m_srtt.GetSeconds();
    return std::min(cap, rate);
}

Time
TcpSmallQueuesSocket::GetMinRtt() const
{
    return m_minRtt;
}

uint32_t
TcpSmallQueuesSocket::GetSkbSegments() const
{
    if (m_gsoMaxSize == 0)
    {
        return 1;
    }
    // tcp_tso_autosize(): about 1 ms of the pacing rate, plus a bonus that is the whole
    // gso_max_size at small minimum RTTs (before any sample Linux's min RTT is ~0U: no bonus).
    double bytes = std::ldexp(GetPacingRate(), -static_cast<int>(m_pacingShift));
    if (!m_minRtt.IsZero())
    {
        const uint64_t r = static_cast<uint64_t>(m_minRtt.GetMicroSeconds()) >> m_tsoRttLog;
        if (r < 32) // BITS_PER_TYPE(sk_gso_max_size)
        {
            bytes += m_gsoMaxSize >> r;
        }
    }
    bytes = std::min(bytes, static_cast<double>(m_gsoMaxSize));
    const auto segments = static_cast<uint32_t>(bytes / m_tcb->m_segmentSize);
    return std::max(segments, m_minTsoSegs);
}

uint32_t
TcpSmallQueuesSocket::GetLimitBytes() const
{
    return LimitFor(GetSkbSegments());
}

uint32_t
TcpSmallQueuesSocket::LimitFor(uint32_t skbSegments) const
{
    const double skbTruesize
        = static_cast<double>(skbSegments) * m_tcb->m_segmentSize + m_skbOverhead;
    const double floor = m_minSkbs * skbTruesize;
    double limit = std::max(floor, std::ldexp(GetPacingRate(), -static_cast<int>(m_pacingShift)));
    if (!m_tcb->m_pacing)
    {
        limit = std::min(limit, static_cast<double>(m_limitOutputBytes)); // SK_PACING_NONE
    }
    return static_cast<uint32_t>(std::min(limit, 4294967295.0));
}

uint32_t
TcpSmallQueuesSocket::AvailableWindow() const
{
    const uint32_t window = TcpSocketBase::AvailableWindow();
    const uint32_t cwnd = m_tcb->m_cWnd;
    if (window == 0 && BytesInFlight() >= cwnd)
    {
        m_validCwnd = cwnd; // the window limits the flow (is_cwnd_limited): its growth stands
    }
    else
    {
        m_validCwnd = std::min(m_validCwnd, cwnd); // reductions stand, growth does not
    }
    if (window == 0 || m_skbLeft > 0)
    {
        return window; // closed, or the rest of an skb that passed the check (tcp_write_xmit)
    }
    const uint32_t skbSegments = GetSkbSegments();
    const uint32_t skbBytes = skbSegments * m_tcb->m_segmentSize;
    const uint32_t limit = LimitFor(skbSegments);
    // tcp_small_queue_check() throttles when sk_wmem_alloc, which counts 1 besides the bytes,
    // exceeds the limit (so it sends while the bytes are below it), and never with the
    // retransmission queue empty or one skb (tcp_rtx_queue_empty_or_single_skb()).
    if (m_localBytes < limit || UnAckDataCount() <= skbBytes)
    {
        StartSkb(skbBytes);
        return window;
    }
    ValidateCwnd();
    if (!m_throttled)
    {
        m_throttled = true;
        ++m_throttles;
        m_throttleTrace(m_localBytes, limit);
    }
    return 0;
}

void
TcpSmallQueuesSocket::ValidateCwnd() const
{
    // Linux grows cwnd only while it limits the flow (tcp_is_cwnd_limited(): in slow start up
    // to twice the data out); ns-3.37 grows it on every ACK. A socket TSQ holds back is not
    // window-limited, so its cwnd would grow without bound, and once the host's queue drains
    // below about 1 ms (where the limit exceeds the data out) it would send all of it at once.
    // When TSQ holds it back, cwnd goes back to what Linux's would be: its value the last time
    // it limited the flow (m_validCwnd, lowered with every reduction), or in slow start twice
    // the data out if that is more. The m_tcb pointer is not const.
    if (m_tcb->m_congState != TcpSocketState::CA_OPEN)
    {
        return; // recovery sets the window itself (tcp_cong_avoid runs in Open only)
    }
    const uint32_t cwnd = m_tcb->m_cWnd;
    const uint32_t out = UnAckDataCount();
    const uint32_t bound = std::max(m_validCwnd, cwnd < m_tcb->m_ssThresh ? 2 * out : 0U);
    if (cwnd > bound)
    {
        m_tcb->m_cWnd = std::max(bound, m_tcb->m_segmentSize);
    }
}

void
TcpSmallQueuesSocket::StartSkb(uint32_t bytes) const
{
    // The skb is what goes out now: its segments leave in this event; what the window does not
    // let out now belongs to the next skb, which passes the check again.
    m_skbLeft = bytes;
    if (m_skbEnd.IsExpired()) // = !IsRunning(), renamed IsPending() in ns-3.42
    {
        m_skbEnd = Simulator::ScheduleNow(&TcpSmallQueuesSocket::EndSkb, this);
    }
}

void
TcpSmallQueuesSocket::EndSkb() const
{
    m_skbLeft = 0;
}

void
TcpSmallQueuesSocket::NotifyLeft(uint32_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    const uint32_t local = m_localBytes;
    m_localBytes = bytes > local ? 0 : local - bytes;
    if (m_throttled && m_localBytes < GetLimitBytes() && m_wakeEvent.IsExpired())
    {
        // tcp_wfree() defers to a tasklet: resume after the device's own event.
        m_wakeEvent = Simulator::ScheduleNow(&TcpSmallQueuesSocket::Wake, this);
    }
}

void
TcpSmallQueuesSocket::Wake()
{
    m_throttled = false; // AvailableWindow() sets it again if the limit still holds
    SendPendingData(m_connected);
}

TcpSmallQueuesSocket*
TcpSmallQueuesSocket::Sender(Ptr<const TcpSocketBase> socket)
{
    // The sender itself: const only in the traces' signature.
    return const_cast<TcpSmallQueuesSocket*>(
        dynamic_cast<const TcpSmallQueuesSocket*>(PeekPointer(socket)));
}

void
TcpSmallQueuesSocket::OnTx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase> s)
{
    if (TcpSmallQueuesSocket* self = Sender(s))
    {
        self->CountSent(p, h);
    }
}

void
TcpSmallQueuesSocket::OnRx(Ptr<const Packet> /* p */,
                           const TcpHeader& h,
                           Ptr<const TcpSocketBase> s)
{
    if (TcpSmallQueuesSocket* self = Sender(s))
    {
        self->SampleRtt(h);
    }
}

void
TcpSmallQueuesSocket::CountSent(Ptr<const Packet> p, const TcpHeader& h)
{
    if (h.GetFlags() & TcpHeader::SYN)
    {
        // A retransmitted SYN gives no sample (Karn), as in tcp_synack_rtt_meas().
        m_synPending = !m_synSent;
        m_synSent = true;
        m_synSentAt = Simulator::Now();
    }
    const uint32_t bytes = p->GetSize();
    if (bytes == 0)
    {
        return; // pure ACKs and control segments: Linux charges them almost nothing
    }
    const uint32_t truesize = bytes + m_skbOverhead;
    m_skbLeft = bytes >= m_skbLeft ? 0 : m_skbLeft - bytes;
    p->AddPacketTag(TsqTag(m_id, truesize));
    m_localBytes = m_localBytes + truesize;
    RecordSent(h.GetSequenceNumber(), bytes);
}

void
TcpSmallQueuesSocket::RecordSent(SequenceNumber32 seq, uint32_t bytes)
{
    const SequenceNumber32 end = seq + SequenceNumber32(bytes);
    if (!m_haveSent || seq >= m_highSent)
    {
        m_sent.push_back({seq, end, Simulator::Now(), false});
        m_highSent = end;
        m_haveSent = true;
        return;
    }
    // A retransmission: the ranges it covers give no sample.
    auto it = std::upper_bound(m_sent.begin(),
                               m_sent.end(),
                               seq,
                               [](SequenceNumber32 s, const Sent& e)
                               {
                                   return s < e.end;
                               });
    for (; it != m_sent.end() && it->start < end; ++it)
    {
        it->retransmitted = true;
    }
}

void
TcpSmallQueuesSocket::SampleRtt(const TcpHeader& h)
{
    if (!(h.GetFlags() & TcpHeader::ACK))
    {
        return;
    }
    m_rateStale = true;
    if (m_synPending)
    {
        m_synPending = false;
        UpdateRtt(Simulator::Now() - m_synSentAt);
    }
    const SequenceNumber32 ack = h.GetAckNumber();
    bool acked = false;
    bool retransmitted = false;
    Time oldest;
    while (!m_sent.empty() && m_sent.front().end <= ack)
    {
        if (!acked)
        {
            oldest = m_sent.front().at;
            acked = true;
        }
        retransmitted = retransmitted || m_sent.front().retransmitted;
        m_sent.pop_front();
    }
    if (acked && !retransmitted)
    {
        UpdateRtt(Simulator::Now() - oldest);
    }
}

void
TcpSmallQueuesSocket::UpdateRtt(Time sample)
{
    const Time m = std::max(sample, MicroSeconds(1)); // Linux's unit and smallest sample
    m_srtt = m_srtt.IsZero() ? m : m_srtt + (m - m_srtt) / 8;
    // tcp_min_rtt(): Linux keeps a windowed minimum (tcp_min_rtt_wlen, 300 s); runs here are
    // shorter than the window.
    m_minRtt = m_minRtt.IsZero() ? m : std::min(m_minRtt, m);
}

TypeId
TcpSmallQueuesSocketFactory::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TcpSmallQueuesSocketFactory")
                            .SetParent<SocketFactory>()
                            .SetGroupName("DistributedTraining")
                            .AddConstructor<TcpSmallQueuesSocketFactory>();
    return tid;
}

void
TcpSmallQueuesSocketFactory::Install(Ptr<Node> node)
{
    if (!node->GetObject<TcpSmallQueuesSocketFactory>())
    {
        node->AggregateObject(CreateObject<TcpSmallQueuesSocketFactory>());
    }
}

Ptr<Socket>
TcpSmallQueuesSocketFactory::CreateSocket()
{
    Ptr<Node> node = GetObject<Node>();
    NS_ABORT_MSG_UNLESS(node, "TcpSmallQueuesSocketFactory: not aggregated to a node");
    return TcpSmallQueuesSocket::CreateSocket(node);
}

} // namespace ns3

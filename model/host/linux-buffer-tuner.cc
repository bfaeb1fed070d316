/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "linux-buffer-tuner.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-rx-buffer.h"
#include "ns3/tcp-tx-buffer.h"
#include "ns3/training-network.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LinuxBufferTuner");

NS_OBJECT_ENSURE_REGISTERED(LinuxBufferTuner);

TypeId
LinuxBufferTuner::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::LinuxBufferTuner")
              .SetParent<Object>()
              .SetGroupName("DistributedTraining")
              .AddConstructor<LinuxBufferTuner>()
              .AddAttribute("WmemMax",
                            "net.ipv4.tcp_wmem max: send buffer limit, bytes of skb memory",
                            UintegerValue(TrainingNetwork::LINUX_WMEM[2]),
                            MakeUintegerAccessor(&LinuxBufferTuner::m_wmemMax),
                            MakeUintegerChecker<uint32_t>(4096))
              .AddAttribute("RmemDefault",
                            "net.ipv4.tcp_rmem default: initial receive buffer (window: half)",
                            UintegerValue(TrainingNetwork::LINUX_RMEM[1]),
                            MakeUintegerAccessor(&LinuxBufferTuner::m_rmemDefault),
                            MakeUintegerChecker<uint32_t>(4096))
              .AddAttribute("RmemMax",
                            "net.ipv4.tcp_rmem max: receive buffer limit (window: half)",
                            UintegerValue(TrainingNetwork::LINUX_RMEM[2]),
                            MakeUintegerAccessor(&LinuxBufferTuner::m_rmemMax),
                            MakeUintegerChecker<uint32_t>(4096))
              .AddAttribute("LimitReceiveWindow",
                            "Advertise the autotuned window, receive buffer = window + 64 KiB "
                            "(Linux); false: compute it, but keep the creation-time buffer (off "
                            "by default: measured further from Linux, see "
                            "doc/validation/linux-async.rst)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&LinuxBufferTuner::m_limitReceiveWindow),
                            MakeBooleanChecker())
              .AddTraceSource("SendBuffer",
                              "The send buffer set on the socket, payload bytes",
                              MakeTraceSourceAccessor(&LinuxBufferTuner::m_sendBuffer),
                              "ns3::TracedValueCallback::Uint32")
              .AddTraceSource("ReceiveWindow",
                              "The autotuned receive window, bytes (advertised plus "
                              "RECEIVE_BUFFER_MARGIN as the receive buffer if "
                              "LimitReceiveWindow)",
                              MakeTraceSourceAccessor(&LinuxBufferTuner::m_window),
                              "ns3::TracedValueCallback::Uint32");
    return tid;
}

namespace
{
/// TcpSocketBase::GetRWnd() is protected (public in no release up to 3.48); a member pointer
/// formed through a derived class reads it, as a subclass may.
struct PeerWindowReader : public TcpSocketBase
{
    /// \param socket a socket \return the window its peer advertises now, bytes (0: none yet)
    static uint32_t Get(const TcpSocketBase& socket)
    {
        return (socket.*(&PeerWindowReader::GetRWnd))();
    }
};
} // namespace

LinuxBufferTuner::LinuxBufferTuner()
    : m_wmemMax(TrainingNetwork::LINUX_WMEM[2]),
      m_rmemDefault(TrainingNetwork::LINUX_RMEM[1]),
      m_rmemMax(TrainingNetwork::LINUX_RMEM[2]),
      m_limitReceiveWindow(false)
{
    NS_LOG_FUNCTION(this);
}

LinuxBufferTuner::~LinuxBufferTuner()
{
    NS_LOG_FUNCTION(this);
}

void
LinuxBufferTuner::DoDispose()
{
    m_socket = nullptr;
    Object::DoDispose();
}

Ptr<LinuxBufferTuner>
LinuxBufferTuner::Install(Ptr<Socket> socket)
{
    Ptr<TcpSocketBase> tcp = DynamicCast<TcpSocketBase>(socket);
    if (!tcp)
    {
        return nullptr;
    }
    Ptr<LinuxBufferTuner> tuner = CreateObject<LinuxBufferTuner>();
    tcp->AggregateObject(tuner);
    tuner->Attach(PeekPointer(tcp));
    return tuner;
}

void
LinuxBufferTuner::Attach(TcpSocketBase* socket)
{
    NS_LOG_FUNCTION(this << socket);
    m_socket = socket;
    UintegerValue seg;
    socket->GetAttribute("SegmentSize", seg);
    m_mss = static_cast<uint32_t>(seg.Get());
    socket->TraceConnectWithoutContext("CongestionWindow",
                                       MakeCallback(&LinuxBufferTuner::OnCwnd, this));
    socket->TraceConnectWithoutContext("RWND", MakeCallback(&LinuxBufferTuner::OnPeerWindow, this));
    socket->TraceConnectWithoutContext("Rx", MakeCallback(&LinuxBufferTuner::OnRx, this));
    // Linux's first send buffer (tcp_sndbuf_expand at the initial window), now, before the
    // application writes: the send buffer does not enter the SYN.
    SetSendBuffer(TrainingNetwork::GetLinuxSendBufferBytes(10, m_mss, m_wmemMax));
    // After the caller's Connect(): its SYN has negotiated window scaling from the large buffer.
    Simulator::ScheduleNow(&LinuxBufferTuner::Start, this);
}

void
LinuxBufferTuner::Start()
{
    if (!m_socket)
    {
        return;
    }
    m_started = true;
    // The window the peer advertises now: ns-3 fires RWND only when it changes, and on a
    // socket accepted from a listener it arrived before this tuner (the peer's SYN and ACK),
    // then stays while the peer drains its socket. A connecting socket learns it from the
    // SYN-ACK later (0 until then).
    m_peerWindow = PeerWindowReader::Get(*m_socket);
    m_window = m_rmemDefault / 2;
    if (m_limitReceiveWindow)
    {
        m_socket->SetAttribute("RcvBufSize",
                               UintegerValue(m_window + TrainingNetwork::RECEIVE_BUFFER_MARGIN));
    }
    UpdateSendBuffer();
}

void
LinuxBufferTuner::OnCwnd(uint32_t /* oldValue */, uint32_t newValue)
{
    m_cwnd = newValue;
    UpdateSendBuffer();
}

void
LinuxBufferTuner::OnPeerWindow(uint32_t /* oldValue */, uint32_t newValue)
{
    // The window as advertised now, not the largest seen: a receiver's first (SYN) window is
    // its creation-time buffer, which its own tuner lowers at once.
    m_peerWindow = newValue;
    UpdateSendBuffer();
}

void
LinuxBufferTuner::UpdateSendBuffer()
{
    if (!m_started || m_mss == 0)
    {
        return;
    }
    uint32_t target = TrainingNetwork::GetLinuxSendBufferBytes(m_cwnd / m_mss, m_mss, m_wmemMax);
    // The peer's buffer is its window + RECEIVE_BUFFER_MARGIN (see the class comment).
    const uint32_t margin = TrainingNetwork::RECEIVE_BUFFER_MARGIN;
    target = std::min(target, m_peerWindow > margin ? m_peerWindow - margin : 0);
    if (target > m_sendBuffer)
    {
        SetSendBuffer(target);
        NS_LOG_LOGIC("send buffer " << m_sendBuffer << " at cwnd " << m_cwnd);
    }
}

void
LinuxBufferTuner::SetSendBuffer(uint32_t bytes)
{
    // Never below what the buffer holds: ns-3.37's TcpTxBuffer::Available() is max - size in
    // unsigned arithmetic, so a smaller maximum wraps it to about 4 GB and the application then
    // queues all its data (whole 30 MB flows), which also exceeds the peer's window and
    // reaches the TcpTxBuffer::NextSeg crash (see TrainingClusterHelper::ConfigureTcp).
    m_sendBuffer = std::max(bytes, m_socket->GetTxBuffer()->Size());
    m_socket->SetAttribute("SndBufSize", UintegerValue(m_sendBuffer));
}

void
LinuxBufferTuner::OnRx(Ptr<const Packet> packet,
                       const TcpHeader& header,
                       Ptr<const TcpSocketBase> /* socket */)
{
    if (!m_started || packet->GetSize() == 0)
    {
        return;
    }
    // The next byte expected once this segment is in (the trace runs before it is processed).
    SequenceNumber32 next = m_socket->GetRxBuffer()->NextRxSequence();
    if (header.GetSequenceNumber() == next)
    {
        next = next + packet->GetSize();
    }
    const Time now = Simulator::Now();
    if (!m_spaceStarted)
    {
        m_spaceStarted = true;
        m_spaceSeq = next;
        m_spaceTime = now;
        m_space = 10ULL * m_mss; // tcp_init_buffer_space: min(rcv_wnd, TCP_INIT_CWND x advmss)
        m_rttSeq = next + m_window.Get();
        m_rttStart = now;
        return;
    }
    // tcp_rcv_rtt_measure: the time one window takes to arrive, minimum over the samples.
    if (next >= m_rttSeq)
    {
        const Time sample = now - m_rttStart;
        m_rtt = m_rtt.IsZero() ? sample : std::min(m_rtt, sample);
        m_rttSeq = next + m_window.Get();
        m_rttStart = now;
    }
    // tcp_rcv_space_adjust, once per receiver RTT.
    if (m_rtt.IsZero() || now - m_spaceTime < m_rtt)
    {
        return;
    }
    const uint64_t copied = next - m_spaceSeq;
    const uint64_t window
        = TrainingNetwork::GetLinuxReceiveWindowBytes(copied, m_space, m_mss, m_rmemMax);
    if (window > m_window)
    {
        m_window = static_cast<uint32_t>(window);
        if (m_limitReceiveWindow)
        {
            m_socket->SetAttribute(
                "RcvBufSize",
                UintegerValue(m_window + TrainingNetwork::RECEIVE_BUFFER_MARGIN));
        }
        NS_LOG_LOGIC("receive window " << m_window << " after " << copied << " bytes in "
                                       << (now - m_spaceTime).As(Time::US));
    }
    m_space = std::max(m_space, copied);
    m_spaceSeq = next;
    m_spaceTime = now;
}

uint32_t
LinuxBufferTuner::GetSendBufferBytes() const
{
    return m_sendBuffer;
}

uint32_t
LinuxBufferTuner::GetReceiveWindowBytes() const
{
    return m_window;
}

Time
LinuxBufferTuner::GetReceiverRtt() const
{
    return m_rtt;
}

} // namespace ns3

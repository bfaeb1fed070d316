/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tensor-connection.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TensorConnection");

NS_OBJECT_ENSURE_REGISTERED(TensorConnection);

TypeId
TensorConnection::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TensorConnection")
                            .SetParent<Object>()
                            .SetGroupName("DistributedTraining")
                            .AddConstructor<TensorConnection>();
    return tid;
}

TensorConnection::TensorConnection()
    : m_window(0),
      m_pendingOffset(0),
      m_sentPayload(0),
      m_receivedPayload(0),
      m_payloadLeft(0)
{
    NS_LOG_FUNCTION(this);
}

TensorConnection::~TensorConnection()
{
    NS_LOG_FUNCTION(this);
}

void
TensorConnection::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
        m_socket = nullptr;
    }
    m_onChunk = ChunkCallback();
    m_control.clear();
    m_streams.clear();
    m_pending = nullptr;
    m_sendEvent.Cancel();
    m_holdEvent.Cancel();
    m_rng = nullptr;
    Object::DoDispose();
}

void
TensorConnection::Attach(Ptr<Socket> socket, uint64_t windowBytes, ChunkCallback onChunk)
{
    NS_LOG_FUNCTION(this << socket << windowBytes);
    m_socket = socket;
    m_window = windowBytes;
    m_onChunk = onChunk;
    m_socket->SetRecvCallback(MakeCallback(&TensorConnection::HandleRead, this));
    m_socket->SetSendCallback(MakeCallback(&TensorConnection::HandleSendSpace, this));
}

void
TensorConnection::SendControl(const TensorChunkHeader& header)
{
    NS_LOG_FUNCTION(this << header);
    TensorChunkHeader h = header;
    h.SetLength(0);
    h.SetOffset(0);
    h.SetTensorBytes(0);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    m_control.push_back(p);
    ScheduleSend();
}

void
TensorConnection::SendTensor(const TensorChunkHeader& header, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << header << bytes);
    const bool starts = m_streams.empty();
    m_streams.push_back({header, bytes, 0, 0, Time()});
    if (starts && m_maxJitter.IsStrictlyPositive())
    {
        // A new transfer: hold its data for a random start delay (control messages go on).
        const Time delay = Seconds(m_rng->GetValue(0, m_maxJitter.GetSeconds()));
        m_holdUntil = Simulator::Now() + delay;
        m_holdEvent.Cancel();
        m_holdEvent = Simulator::Schedule(delay, &TensorConnection::TrySend, this);
        NS_LOG_LOGIC("transfer starts after " << delay.As(Time::US));
    }
    ScheduleSend();
}

void
TensorConnection::SetStartJitter(Time maxJitter, Ptr<UniformRandomVariable> rng)
{
    NS_LOG_FUNCTION(this << maxJitter);
    NS_ABORT_MSG_IF(maxJitter.IsStrictlyPositive() && !rng, "SetStartJitter: no random stream");
    m_maxJitter = maxJitter;
    m_rng = rng;
}

void
TensorConnection::ScheduleSend()
{
    // Everything queued at the same instant is scheduled together: the streams of a step are
    // all known to the multiplexer before it picks the first chunk.
    if (m_sendEvent.IsExpired()) // = !IsRunning(), renamed IsPending() in ns-3.42
    {
        m_sendEvent = Simulator::ScheduleNow(&TensorConnection::TrySend, this);
    }
}

Ptr<Packet>
TensorConnection::NextMessage()
{
    if (!m_control.empty())
    {
        Ptr<Packet> p = m_control.front();
        m_control.pop_front();
        return p;
    }
    if (m_streams.empty() || Simulator::Now() < m_holdUntil)
    {
        return nullptr;
    }
    Stream s = m_streams.front();
    m_streams.pop_front();
    if (s.services == 0 && s.sent == 0)
    {
        s.firstByte = Simulator::Now();
    }
    uint64_t remaining = s.bytes - s.sent;
    // First service of a stream: at most WIN bytes (001 Sec. 3.2.2); later services: the rest.
    uint64_t chunk = remaining;
    if (m_window > 0 && s.services == 0)
    {
        chunk = std::min(remaining, m_window);
    }
    chunk = std::min(chunk, MAX_CHUNK);
    TensorChunkHeader h = s.header;
    h.SetOffset(s.sent);
    h.SetLength(static_cast<uint32_t>(chunk));
    h.SetTensorBytes(s.bytes);
    h.SetTimestamp(s.firstByte);
    Ptr<Packet> p = Create<Packet>(static_cast<uint32_t>(chunk));
    p->AddHeader(h);
    s.sent += chunk;
    m_sentPayload += chunk;
    if (s.sent < s.bytes)
    {
        if (m_window > 0 && s.services == 0)
        {
            s.services = 1;
            m_streams.push_back(s); // waits at the tail for its second service
        }
        else
        {
            m_streams.push_front(s); // a chunk larger than MAX_CHUNK: continue at once
        }
    }
    return p;
}

void
TensorConnection::TrySend()
{
    if (!m_socket)
    {
        return;
    }
    while (true)
    {
        if (!m_pending)
        {
            m_pending = NextMessage();
            m_pendingOffset = 0;
            if (!m_pending)
            {
                return;
            }
        }
        uint32_t available = m_socket->GetTxAvailable();
        if (available == 0)
        {
            return;
        }
        uint32_t left = m_pending->GetSize() - m_pendingOffset;
        uint32_t n = std::min(available, left);
        Ptr<Packet> piece = (m_pendingOffset == 0 && n == m_pending->GetSize())
                                ? m_pending
                                : m_pending->CreateFragment(m_pendingOffset, n);
        int sent = m_socket->Send(piece);
        if (sent <= 0)
        {
            NS_LOG_LOGIC("socket refused " << n << " bytes; waiting for send space");
            return;
        }
        m_pendingOffset += static_cast<uint32_t>(sent);
        if (m_pendingOffset >= m_pending->GetSize())
        {
            m_pending = nullptr;
        }
    }
}

void
TensorConnection::HandleSendSpace(Ptr<Socket> /* socket */, uint32_t /* available */)
{
    ScheduleSend();
}

void
TensorConnection::HandleRead(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    Ptr<Packet> packet;
    while ((packet = socket->Recv()))
    {
        if (packet->GetSize() == 0)
        {
            break;
        }
        Parse(packet);
    }
}

void
TensorConnection::Parse(Ptr<Packet> packet)
{
    const uint32_t size = packet->GetSize();
    uint32_t pos = 0;
    while (pos < size)
    {
        if (m_payloadLeft > 0)
        {
            uint64_t take = std::min<uint64_t>(m_payloadLeft, size - pos);
            pos += static_cast<uint32_t>(take);
            m_payloadLeft -= take;
            m_receivedPayload += take;
            if (m_payloadLeft == 0 && !m_onChunk.IsNull())
            {
                m_onChunk(this, m_incoming);
            }
            continue;
        }
        // Collect the bytes of the next header (it may span several received packets).
        uint32_t need = TensorChunkHeader::SIZE - static_cast<uint32_t>(m_headerBytes.size());
        uint32_t take = std::min(need, size - pos);
        std::size_t old = m_headerBytes.size();
        m_headerBytes.resize(old + take);
        // CopyData reads from the packet's start: cut the header's bytes out first if needed.
        Ptr<Packet> piece = pos == 0 ? packet : packet->CreateFragment(pos, take);
        piece->CopyData(m_headerBytes.data() + old, take);
        pos += take;
        if (m_headerBytes.size() < TensorChunkHeader::SIZE)
        {
            continue;
        }
        Ptr<Packet> h = Create<Packet>(m_headerBytes.data(), TensorChunkHeader::SIZE);
        h->RemoveHeader(m_incoming);
        m_headerBytes.clear();
        m_payloadLeft = m_incoming.GetLength();
        if (m_payloadLeft == 0 && !m_onChunk.IsNull())
        {
            m_onChunk(this, m_incoming);
        }
    }
}

uint64_t
TensorConnection::GetPayloadBytesSent() const
{
    return m_sentPayload;
}

uint64_t
TensorConnection::GetPayloadBytesReceived() const
{
    return m_receivedPayload;
}

bool
TensorConnection::IsIdle() const
{
    return !m_pending && m_control.empty() && m_streams.empty();
}

Ptr<Socket>
TensorConnection::GetSocket() const
{
    return m_socket;
}

} // namespace ns3

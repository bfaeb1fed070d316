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
    : m_pendingOffset(0)
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
    m_scheduler.Clear();
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
    m_scheduler.SetWindow(windowBytes);
    m_onChunk = onChunk;
    m_socket->SetRecvCallback(MakeCallback(&TensorConnection::HandleRead, this));
    m_socket->SetSendCallback(MakeCallback(&TensorConnection::HandleSendSpace, this));
}

void
TensorConnection::SendControl(const TensorChunkHeader& header)
{
    NS_LOG_FUNCTION(this << header);
    m_scheduler.QueueControl(header);
    ScheduleSend();
}

void
TensorConnection::SendTensor(const TensorChunkHeader& header, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << header << bytes);
    const bool starts = !m_scheduler.HasTensors();
    m_scheduler.QueueTensor(header, bytes);
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
    TensorChunkHeader h;
    if (!m_scheduler.Next(Simulator::Now(), Simulator::Now() < m_holdUntil, h))
    {
        return nullptr;
    }
    Ptr<Packet> p = Create<Packet>(h.GetLength()); // virtual (zero-filled) payload
    p->AddHeader(h);
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
        // Only header bytes are copied out of the packet; the payload is counted.
        m_parser.Feed(
            packet->GetSize(),
            [&packet](std::size_t pos, std::size_t n, uint8_t* out)
            {
                // CopyData reads from the packet's start: cut the header's bytes out first.
                Ptr<Packet> piece = pos == 0 ? packet : packet->CreateFragment(pos, n);
                piece->CopyData(out, n);
            },
            [this](const TensorChunkHeader& h)
            {
                if (!m_onChunk.IsNull())
                {
                    m_onChunk(this, h);
                }
            });
    }
}

uint64_t
TensorConnection::GetPayloadBytesSent() const
{
    return m_scheduler.GetPayloadBytes();
}

uint64_t
TensorConnection::GetPayloadBytesReceived() const
{
    return m_parser.GetPayloadBytes();
}

bool
TensorConnection::IsIdle() const
{
    return !m_pending && m_scheduler.IsEmpty();
}

Ptr<Socket>
TensorConnection::GetSocket() const
{
    return m_socket;
}

} // namespace ns3

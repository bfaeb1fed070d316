/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tensor-framing.h"

namespace ns3
{

void
TensorFrameScheduler::SetWindow(uint64_t windowBytes)
{
    m_window = windowBytes;
}

void
TensorFrameScheduler::QueueControl(const TensorChunkHeader& header)
{
    TensorChunkHeader h = header;
    h.SetLength(0);
    h.SetOffset(0);
    h.SetTensorBytes(0);
    m_control.push_back(h);
}

void
TensorFrameScheduler::QueueTensor(const TensorChunkHeader& header, uint64_t bytes)
{
    m_streams.push_back({header, bytes, 0, 0, Time()});
}

bool
TensorFrameScheduler::Next(Time now, bool tensorsHeld, TensorChunkHeader& out)
{
    if (!m_control.empty())
    {
        out = m_control.front();
        m_control.pop_front();
        return true;
    }
    if (m_streams.empty() || tensorsHeld)
    {
        return false;
    }
    Stream s = m_streams.front();
    m_streams.pop_front();
    if (s.services == 0 && s.sent == 0)
    {
        s.firstByte = now;
    }
    // First service of a stream: at most WIN bytes (001 Sec. 3.2.2); later services: the rest.
    const bool firstService = m_window > 0 && s.services == 0;
    uint64_t chunk = s.bytes - s.sent;
    if (firstService)
    {
        chunk = std::min(chunk, m_window);
    }
    chunk = std::min(chunk, MAX_CHUNK);
    out = s.header;
    out.SetOffset(s.sent);
    out.SetLength(static_cast<uint32_t>(chunk));
    out.SetTensorBytes(s.bytes);
    out.SetTimestamp(s.firstByte);
    s.sent += chunk;
    m_payload += chunk;
    if (s.sent < s.bytes)
    {
        if (firstService)
        {
            s.services = 1;
            m_streams.push_back(s); // waits at the tail for its second service
        }
        else
        {
            m_streams.push_front(s); // a chunk larger than MAX_CHUNK: continue at once
        }
    }
    return true;
}

bool
TensorFrameScheduler::HasTensors() const
{
    return !m_streams.empty();
}

bool
TensorFrameScheduler::IsEmpty() const
{
    return m_control.empty() && m_streams.empty();
}

uint64_t
TensorFrameScheduler::GetPayloadBytes() const
{
    return m_payload;
}

void
TensorFrameScheduler::Clear()
{
    m_control.clear();
    m_streams.clear();
}

uint64_t
TensorFrameParser::GetPayloadBytes() const
{
    return m_payload;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tensor-chunk-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TensorChunkHeader");

NS_OBJECT_ENSURE_REGISTERED(TensorChunkHeader);

TensorChunkHeader::TensorChunkHeader()
    : m_type(PARAMS),
      m_aux(0),
      m_tensor(-1),
      m_step(0),
      m_worker(0),
      m_offset(0),
      m_length(0),
      m_tensorBytes(0),
      m_timestampNs(0)
{
}

TypeId
TensorChunkHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TensorChunkHeader")
                            .SetParent<Header>()
                            .SetGroupName("DistributedTraining")
                            .AddConstructor<TensorChunkHeader>();
    return tid;
}

TypeId
TensorChunkHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
TensorChunkHeader::Print(std::ostream& os) const
{
    os << "type=" << static_cast<int>(m_type) << " tensor=" << m_tensor << " step=" << m_step
       << " worker=" << m_worker << " offset=" << m_offset << " length=" << m_length
       << " tensorBytes=" << m_tensorBytes << " t=" << m_timestampNs << "ns";
}

uint32_t
TensorChunkHeader::GetSerializedSize() const
{
    return SIZE;
}

void
TensorChunkHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(m_type);
    start.WriteHtonU32(m_aux);
    start.WriteHtonU32(static_cast<uint32_t>(m_tensor));
    start.WriteHtonU32(m_step);
    start.WriteHtonU32(m_worker);
    start.WriteHtonU64(m_offset);
    start.WriteHtonU32(m_length);
    start.WriteHtonU64(m_tensorBytes);
    start.WriteHtonU64(static_cast<uint64_t>(m_timestampNs));
}

uint32_t
TensorChunkHeader::Deserialize(Buffer::Iterator start)
{
    m_type = start.ReadU8();
    m_aux = start.ReadNtohU32();
    m_tensor = static_cast<int32_t>(start.ReadNtohU32());
    m_step = start.ReadNtohU32();
    m_worker = start.ReadNtohU32();
    m_offset = start.ReadNtohU64();
    m_length = start.ReadNtohU32();
    m_tensorBytes = start.ReadNtohU64();
    m_timestampNs = static_cast<int64_t>(start.ReadNtohU64());
    return SIZE;
}

void
TensorChunkHeader::ToBytes(uint8_t* out) const
{
    Buffer b;
    b.AddAtStart(SIZE);
    Serialize(b.Begin());
    b.CopyData(out, SIZE);
}

TensorChunkHeader
TensorChunkHeader::FromBytes(const uint8_t* data)
{
    Buffer b;
    b.AddAtStart(SIZE);
    b.Begin().Write(data, SIZE);
    TensorChunkHeader h;
    h.Deserialize(b.Begin());
    return h;
}

void
TensorChunkHeader::SetType(MessageType type)
{
    m_type = type;
}

TensorChunkHeader::MessageType
TensorChunkHeader::GetType() const
{
    return static_cast<MessageType>(m_type);
}

void
TensorChunkHeader::SetAux(uint32_t aux)
{
    m_aux = aux;
}

uint32_t
TensorChunkHeader::GetAux() const
{
    return m_aux;
}

void
TensorChunkHeader::SetTensor(int32_t tensor)
{
    m_tensor = tensor;
}

int32_t
TensorChunkHeader::GetTensor() const
{
    return m_tensor;
}

void
TensorChunkHeader::SetStep(uint32_t step)
{
    m_step = step;
}

uint32_t
TensorChunkHeader::GetStep() const
{
    return m_step;
}

void
TensorChunkHeader::SetWorker(uint32_t worker)
{
    m_worker = worker;
}

uint32_t
TensorChunkHeader::GetWorker() const
{
    return m_worker;
}

void
TensorChunkHeader::SetOffset(uint64_t offset)
{
    m_offset = offset;
}

uint64_t
TensorChunkHeader::GetOffset() const
{
    return m_offset;
}

void
TensorChunkHeader::SetLength(uint32_t length)
{
    m_length = length;
}

uint32_t
TensorChunkHeader::GetLength() const
{
    return m_length;
}

void
TensorChunkHeader::SetTensorBytes(uint64_t bytes)
{
    m_tensorBytes = bytes;
}

uint64_t
TensorChunkHeader::GetTensorBytes() const
{
    return m_tensorBytes;
}

void
TensorChunkHeader::SetTimestamp(Time t)
{
    m_timestampNs = t.GetNanoSeconds();
}

Time
TensorChunkHeader::GetTimestamp() const
{
    return NanoSeconds(m_timestampNs);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TENSOR_CHUNK_HEADER_H
#define TENSOR_CHUNK_HEADER_H

#include "ns3/header.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Framing of the distributed-training applications' TCP byte streams.
 *
 * Every message on a connection is this header followed by `length` payload bytes (virtual, i.e.
 * zero-filled: only sizes and timing matter). A tensor of `tensorBytes` may be sent as several
 * chunks (HTTP/2-style multiplexing, 001_33040fda0f1f6815.txt Sec. 3.2.2), each with its own
 * offset; the receiver reassembles by counting bytes per (step, tensor). Control messages
 * (HELLO, PULL, NOTICE) have no payload.
 *
 * Wire format (network byte order), 45 bytes: type (1), aux (4), tensor (4, signed), step (4),
 * worker (4), offset (8), length (4), tensorBytes (8), timestamp (8, ns).
 */
class TensorChunkHeader : public Header
{
  public:
    /// Message types.
    enum MessageType : uint8_t
    {
        HELLO = 1,    //!< worker -> server: identifies the worker (worker field)
        PULL = 2,     //!< worker -> server: send me the parameters of this step
        PARAMS = 3,   //!< server -> worker: a chunk of a layer's parameters
        GRADIENT = 4, //!< worker -> server: a chunk of a layer's gradient
        NOTICE = 5,   //!< server -> worker: updates of this step applied (timestamp = when)
        RING = 6,     //!< worker -> successor: a chunk of a ring AllReduce
    };

    TensorChunkHeader();

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// Serialized size of every header.
    static constexpr uint32_t SIZE = 45;

    /**
     * \brief Serialize() into plain bytes (for streams that are not ns-3 packets).
     * \param out SIZE bytes
     */
    void ToBytes(uint8_t* out) const;
    /**
     * \brief Deserialize() from plain bytes.
     * \param data SIZE bytes written by ToBytes() or Serialize()
     * \return the header
     */
    static TensorChunkHeader FromBytes(const uint8_t* data);

    /** \param type message type */
    void SetType(MessageType type);
    /** \return message type */
    MessageType GetType() const;
    /** \param aux application field (gradients: the profile sample index of the step) */
    void SetAux(uint32_t aux);
    /** \return application field */
    uint32_t GetAux() const;
    /** \param tensor layer or bucket index (-1 for none) */
    void SetTensor(int32_t tensor);
    /** \return layer or bucket index */
    int32_t GetTensor() const;
    /** \param step training step */
    void SetStep(uint32_t step);
    /** \return training step */
    uint32_t GetStep() const;
    /** \param worker worker index */
    void SetWorker(uint32_t worker);
    /** \return worker index */
    uint32_t GetWorker() const;
    /** \param offset byte offset of this chunk in the tensor */
    void SetOffset(uint64_t offset);
    /** \return byte offset of this chunk in the tensor */
    uint64_t GetOffset() const;
    /** \param length payload bytes following this header */
    void SetLength(uint32_t length);
    /** \return payload bytes following this header */
    uint32_t GetLength() const;
    /** \param bytes size of the whole tensor */
    void SetTensorBytes(uint64_t bytes);
    /** \return size of the whole tensor */
    uint64_t GetTensorBytes() const;
    /** \param t timestamp (sender's first byte of the tensor, or the time an event happened) */
    void SetTimestamp(Time t);
    /** \return timestamp */
    Time GetTimestamp() const;

  private:
    uint8_t m_type;         //!< MessageType
    uint32_t m_aux;         //!< application field
    int32_t m_tensor;       //!< layer or bucket index
    uint32_t m_step;        //!< step
    uint32_t m_worker;      //!< worker index
    uint64_t m_offset;      //!< chunk offset in the tensor
    uint32_t m_length;      //!< payload bytes after the header
    uint64_t m_tensorBytes; //!< whole tensor size
    int64_t m_timestampNs;  //!< timestamp, ns
};

} // namespace ns3

#endif /* TENSOR_CHUNK_HEADER_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TENSOR_FRAMING_H
#define TENSOR_FRAMING_H

#include "tensor-chunk-header.h"

#include "ns3/nstime.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The sending half of the training applications' framing, shared by the ns-3 socket
 * path (TensorConnection) and the kernel socket path (LinuxTensorConnection): which message
 * goes next and the header it carries.
 *
 * Control messages (header only) go before any tensor chunk not yet handed to the transport.
 * Tensors are *streams* served by a scheduler:
 *  - window 0: whole tensors, first in first out;
 *  - window WIN > 0: the HTTP/2 multiplexing model of 001_33040fda0f1f6815.txt Sec. 3.2.2
 *    (Fig. 12): streams wait in a FIFO; the head stream's first service sends at most WIN bytes
 *    and, if bytes remain, the stream goes to the tail for its second service, which sends the
 *    rest.
 * A chunk is at most MAX_CHUNK bytes (the header's length field is 32 bits); a longer rest
 * continues at once. Each chunk's header carries its offset, length, the tensor's size and the
 * time its first byte was picked.
 */
class TensorFrameScheduler
{
  public:
    /// Largest chunk handed to the transport at once (a header's length field is 32 bits).
    static constexpr uint64_t MAX_CHUNK = 1ULL << 30;

    /** \param windowBytes WIN (0: whole tensors in order) */
    void SetWindow(uint64_t windowBytes);

    /**
     * \brief Queue a control message; its length, offset and tensor size are set to 0.
     * \param header the message
     */
    void QueueControl(const TensorChunkHeader& header);

    /**
     * \brief Queue a tensor.
     * \param header type, tensor, step, worker and aux of every chunk
     * \param bytes payload bytes of the tensor
     */
    void QueueTensor(const TensorChunkHeader& header, uint64_t bytes);

    /**
     * \brief Pick the next message.
     * \param now the time (stamped on a tensor's chunks when its first chunk is picked)
     * \param tensorsHeld true to pick control messages only
     * \param out receives the message's header (its payload is out.GetLength() bytes)
     * \return false if there is nothing (allowed) to send
     */
    bool Next(Time now, bool tensorsHeld, TensorChunkHeader& out);

    /** \return true if a tensor is queued or partly picked */
    bool HasTensors() const;
    /** \return true if nothing is queued */
    bool IsEmpty() const;
    /** \return payload bytes of the chunks picked so far */
    uint64_t GetPayloadBytes() const;
    /// Forget everything queued.
    void Clear();

  private:
    /// A tensor being sent.
    struct Stream
    {
        TensorChunkHeader header; //!< template for its chunks
        uint64_t bytes;           //!< total payload
        uint64_t sent;            //!< payload already chunked
        uint32_t services;        //!< how many times it was served
        Time firstByte;           //!< when its first chunk was picked
    };

    uint64_t m_window{0};                    //!< WIN (0 = whole tensors)
    std::deque<TensorChunkHeader> m_control; //!< control messages not yet picked
    std::deque<Stream> m_streams;            //!< tensors not fully picked
    uint64_t m_payload{0};                   //!< payload bytes picked
};

/**
 * \ingroup distributed-training
 * \brief The receiving half of the framing: cuts a byte stream back into messages by counting
 * bytes (headers are real bytes, the payload is only counted, never read).
 */
class TensorFrameParser
{
  public:
    /**
     * \brief Consume the next `size` bytes of the stream.
     * \param size how many bytes arrived
     * \param copy copy(pos, n, out) copies n bytes starting at pos of what arrived into out (it
     * is called for header bytes only)
     * \param onMessage onMessage(header) for every message whose last byte has arrived
     */
    template<typename CopyFn, typename MessageFn>
    void Feed(std::size_t size, CopyFn&& copy, MessageFn&& onMessage)
    {
        std::size_t pos = 0;
        while (pos < size)
        {
            if (m_payloadLeft > 0)
            {
                const uint64_t take = std::min<uint64_t>(m_payloadLeft, size - pos);
                pos += static_cast<std::size_t>(take);
                m_payloadLeft -= take;
                m_payload += take;
                if (m_payloadLeft == 0)
                {
                    onMessage(m_incoming);
                }
                continue;
            }
            // Collect the bytes of the next header (it may span several arrivals).
            const std::size_t take
                = std::min<std::size_t>(TensorChunkHeader::SIZE - m_have, size - pos);
            copy(pos, take, m_header + m_have);
            pos += take;
            m_have += take;
            if (m_have < TensorChunkHeader::SIZE)
            {
                continue;
            }
            m_incoming = TensorChunkHeader::FromBytes(m_header);
            m_have = 0;
            m_payloadLeft = m_incoming.GetLength();
            if (m_payloadLeft == 0)
            {
                onMessage(m_incoming);
            }
        }
    }

    /** \return payload bytes received so far */
    uint64_t GetPayloadBytes() const;

  private:
    uint8_t m_header[TensorChunkHeader::SIZE]; //!< bytes of the incoming header read so far
    std::size_t m_have{0};                     //!< how many
    TensorChunkHeader m_incoming;              //!< header of the incoming message
    uint64_t m_payloadLeft{0};                 //!< its payload bytes still to come
    uint64_t m_payload{0};                     //!< payload bytes received
};

} // namespace ns3

#endif /* TENSOR_FRAMING_H */

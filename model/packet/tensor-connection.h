/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TENSOR_CONNECTION_H
#define TENSOR_CONNECTION_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"
#include "ns3/tensor-chunk-header.h"
#include "ns3/tensor-framing.h"
#include "ns3/training-protocol.h"

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief One TCP connection of the training applications: frames tensors and control messages
 * onto the byte stream, and parses the stream that comes back.
 *
 * Which message goes next and the header it carries is TensorFrameScheduler's (control before
 * data, whole tensors or WIN multiplexing), shared with the kernel-socket twin
 * LinuxTensorConnection; cutting the received stream back into messages is TensorFrameParser's.
 * This class adds the ns-3 socket: chunks are handed to the socket as its send buffer frees up
 * (as BulkSendApplication does), so the scheduler decides the order in which bytes enter TCP.
 * Messages queued at the same instant are scheduled together (sending starts in a zero-delay
 * event after them). Headers are real bytes, payload is virtual (zero-filled packets); the
 * chunk callback fires when a chunk's last byte has arrived.
 */
class TensorConnection : public Object, public TensorSink
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    TensorConnection();
    ~TensorConnection() override;

    /// Called with every chunk whose last byte has arrived.
    typedef Callback<void, Ptr<TensorConnection>, const TensorChunkHeader&> ChunkCallback;

    /// TracedCallback signature of the applications' "SocketOpened" trace sources.
    typedef void (*SocketTracedCallback)(Ptr<Socket> socket);

    /**
     * \brief Take over a connected socket.
     * \param socket the socket (its receive and send callbacks are replaced)
     * \param windowBytes 0 for whole tensors in order, or the multiplexing window WIN
     * \param onChunk called for every complete incoming chunk
     */
    void Attach(Ptr<Socket> socket, uint64_t windowBytes, ChunkCallback onChunk);

    /**
     * \brief Send a control message (no payload) ahead of queued tensor data.
     * \param header the message
     */
    void SendControl(const TensorChunkHeader& header) override;

    /**
     * \brief Queue a tensor for sending. The connection fills offset, length and timestamp (time
     * its first byte is handed to TCP) of each chunk.
     * \param header type, tensor, step, worker and aux of every chunk
     * \param bytes payload bytes of the tensor
     */
    void SendTensor(const TensorChunkHeader& header, uint64_t bytes) override;

    /**
     * \brief Delay the start of every transfer by a random time (--startJitter).
     *
     * A tensor queued while the connection has no tensor data waiting starts a transfer; its
     * bytes (and those of the tensors queued behind it) are handed to TCP after a delay drawn
     * uniformly from [0, maxJitter]. Tensors queued while a transfer is under way join it
     * without a new delay; control messages are never held. Real hosts start transfers with
     * such scheduling noise, which keeps identical senders from running in lockstep.
     * \param maxJitter the largest delay (0: none, the default)
     * \param rng the stream to draw from (the application's, seeded by the run number)
     */
    void SetStartJitter(Time maxJitter, Ptr<UniformRandomVariable> rng);

    /** \return payload bytes handed to TCP so far */
    uint64_t GetPayloadBytesSent() const;
    /** \return payload bytes received so far */
    uint64_t GetPayloadBytesReceived() const;
    /** \return true if nothing is waiting to be handed to TCP */
    bool IsIdle() const;
    /** \return the socket */
    Ptr<Socket> GetSocket() const;

  protected:
    void DoDispose() override;

  private:
    /// Hand as much as possible to the socket.
    void TrySend();
    /// Run TrySend() once, after everything queued at this instant.
    void ScheduleSend();
    /// \return the next message (header + virtual payload), or nullptr
    Ptr<Packet> NextMessage();
    /**
     * \param socket the socket
     * \param available free bytes in its send buffer
     */
    void HandleSendSpace(Ptr<Socket> socket, uint32_t available);
    /** \param socket the socket with data to read */
    void HandleRead(Ptr<Socket> socket);

    Ptr<Socket> m_socket;             //!< the TCP socket
    ChunkCallback m_onChunk;          //!< receive callback
    TensorFrameScheduler m_scheduler; //!< what goes next
    TensorFrameParser m_parser;       //!< the received stream
    Ptr<Packet> m_pending;            //!< message partly handed to TCP
    uint32_t m_pendingOffset;         //!< bytes of m_pending already handed to TCP
    EventId m_sendEvent;              //!< pending TrySend()
    Time m_maxJitter;                 //!< largest start delay of a transfer (0: none)
    Ptr<UniformRandomVariable> m_rng; //!< draws the start delays
    Time m_holdUntil;                 //!< tensor data waits until then (a transfer's start)
    EventId m_holdEvent;              //!< TrySend() at m_holdUntil
};

} // namespace ns3

#endif /* TENSOR_CONNECTION_H */

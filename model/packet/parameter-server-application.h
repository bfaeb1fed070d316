/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PARAMETER_SERVER_APPLICATION_H
#define PARAMETER_SERVER_APPLICATION_H

#include "tensor-connection.h"

#include "ns3/application.h"
#include "ns3/ps-server-protocol.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"
#include "ns3/training-profile.h"
#include "ns3/training-result.h"

#include <deque>
#include <map>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief A parameter server: holds some layers of the model, sends their parameters to workers
 * and applies the workers' gradients (000_466ded720105ddf3.txt Sec. 2-3, Algorithm 1 semantics).
 *
 * Protocol on each worker's TCP connection (see TensorChunkHeader): the worker says HELLO, then
 * for every step sends PULL; the server answers with one PARAMS tensor per layer it owns, in the
 * transmission order (forward, reverse, or a seeded random permutation per step). Gradients come
 * back as GRADIENT tensors. Updates: a gradient's update (the profile's update time of that layer,
 * from the step sample the worker drew) starts when the gradient has arrived (overlap on) or when
 * all of that worker's gradients of the step have arrived (overlap off). One worker's updates run
 * one after another, different workers' in parallel (Algorithm 1: the PS resource is per worker).
 * When a worker's updates of a step are all applied the server sends it a NOTICE stamped with
 * that time: at once in async mode; in sync mode only when every worker's updates of the step
 * are applied (the barrier at the server).
 *
 * The protocol's rules are PsServerProtocol's (LinuxParameterServer runs the same over kernel
 * TCP); this application carries it over ns-3 TCP and TensorConnection.
 */
class ParameterServerApplication : public Application, private SimulatorTransport
{
  public:
    /// Synchronisation mode.
    enum Mode
    {
        SYNC,
        ASYNC,
    };

    /// Downlink transmission order.
    enum Order
    {
        FORWARD,
        REVERSE,
        RANDOM,
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ParameterServerApplication();
    ~ParameterServerApplication() override;

    /**
     * \param profile the DNN (shared with the workers)
     * \param layers indices of the layers this server owns, in forward order
     */
    void SetModel(std::shared_ptr<const TrainingProfile> profile,
                  const std::vector<uint32_t>& layers);

    /**
     * \brief Assign a fixed random variable stream number to the random variables used here.
     * \param stream first stream index to use
     * \return the number of stream indices assigned
     */
    int64_t AssignStreams(int64_t stream);

    /** \return payload bytes received from all workers */
    uint64_t GetPayloadBytesReceived() const;
    /** \return payload bytes sent to all workers */
    uint64_t GetPayloadBytesSent() const;

    /// TracedCallback signature for transfers.
    typedef void (*TransferTracedCallback)(const TrainingResult::TransferRecord& record);
    /// TracedCallback signature for applied updates: worker, step, time.
    typedef void (*UpdatesAppliedTracedCallback)(uint32_t worker, uint32_t step, Time when);

  protected:
    void DoDispose() override;

  private:
    // ProtocolTransport: the connections and the trace sources
    TensorSink& GetPeer(uint32_t peer) override;
    void TransferCompleted(const TrainingResult::TransferRecord& record) override;
    void UpdatesApplied(uint32_t worker, uint32_t step, Time when) override;

    void StartApplication() override;
    void StopApplication() override;

    /**
     * \param socket listening socket
     * \param from peer address
     * \return true (accept every connection)
     */
    bool HandleConnectionRequest(Ptr<Socket> socket, const Address& from);
    /**
     * \param socket new socket
     * \param from peer address
     */
    void HandleAccept(Ptr<Socket> socket, const Address& from);
    /**
     * \param connection where it came from
     * \param header the chunk
     */
    void HandleChunk(Ptr<TensorConnection> connection, const TensorChunkHeader& header);

    uint16_t m_port;                                  //!< listening port
    uint32_t m_index;                                 //!< this server's index
    uint32_t m_workers;                               //!< K (for the sync barrier)
    Mode m_mode;                                      //!< sync or async
    bool m_overlap;                                   //!< overlap communication and computation
    Order m_order;                                    //!< downlink order
    uint64_t m_window;                                //!< multiplexing window WIN
    Time m_startJitter;                               //!< largest random transfer start delay
    Ptr<UniformRandomVariable> m_rng;                 //!< random order
    std::shared_ptr<const TrainingProfile> m_profile; //!< the DNN
    std::vector<uint32_t> m_layers;                   //!< owned layers (global indices)
    Ptr<Socket> m_listener;                           //!< listening socket
    std::vector<Ptr<TensorConnection>> m_connections; //!< every accepted connection
    std::map<uint32_t, Ptr<TensorConnection>> m_workerConnection; //!< worker -> its connection
    std::unique_ptr<PsServerProtocol> m_protocol; //!< the protocol (from StartApplication)

    TracedCallback<const TrainingResult::TransferRecord&> m_transferTrace; //!< uplinks done
    TracedCallback<uint32_t, uint32_t, Time> m_updatesTrace; //!< worker's step applied
    bool m_tcpSmallQueues{false}; //!< sockets with TCP small queues (TcpSmallQueuesSocket)
    uint32_t m_sendBuffer{0};     //!< SndBufSize of its sockets (0: the TcpSocket default)
    uint32_t m_receiveBuffer{0};  //!< RcvBufSize of its sockets (0: the TcpSocket default)
    TracedCallback<Ptr<Socket>> m_socketTrace; //!< socket opened
};

} // namespace ns3

#endif /* PARAMETER_SERVER_APPLICATION_H */

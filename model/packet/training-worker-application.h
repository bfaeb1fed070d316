/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_WORKER_APPLICATION_H
#define TRAINING_WORKER_APPLICATION_H

#include "tensor-connection.h"

#include "ns3/application.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/ps-worker-protocol.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"
#include "ns3/training-profile.h"
#include "ns3/training-result.h"

#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief A parameter-server worker: replays one DNN training step per iteration from a profile
 * (000_466ded720105ddf3.txt Algorithm 1 semantics) while real TCP carries every tensor.
 *
 * Step s: PULL to every server; each server sends the parameters of its layers. Forward of layer
 * l starts when its parameters have arrived and forward of l-1 is done (overlap on), or when all
 * parameters have arrived (overlap off). Backward runs in reverse layer order; each gradient goes
 * to its layer's server as soon as its backward is done (overlap on) or all after the whole
 * backward, last layer first (overlap off). The step ends when every server has applied this
 * worker's gradients; the next step starts when every server has sent its NOTICE (in sync mode
 * the servers send it only after the barrier). Compute times come from one recorded step of the
 * profile drawn with replacement (seeded), or from the per-layer means, times ComputeScale.
 *
 * A multi-GPU node (GpusPerNode G > 1, 000 Sec. 4.4) runs G replicas in parallel: each arriving
 * parameter tensor is first broadcast inside the node, each gradient reduced inside the node
 * before one GPU pushes it to its server. Both are modelled delays of bytes / IntraBandwidth +
 * IntraLatency per tensor, one tensor at a time in each direction (the inter-node traffic is real
 * TCP); with overlap off all reductions follow the whole backward pass.
 *
 * The protocol's rules are PsWorkerProtocol's (LinuxTrainingWorker runs the same over kernel
 * TCP); this application carries it over ns-3 TCP and TensorConnection.
 */
class TrainingWorkerApplication : public Application, private SimulatorTransport
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    TrainingWorkerApplication();
    ~TrainingWorkerApplication() override;

    /**
     * \param profile the DNN
     * \param owners server index of each layer
     * \param servers address of each server
     */
    void SetModel(std::shared_ptr<const TrainingProfile> profile,
                  const std::vector<uint32_t>& owners,
                  const std::vector<Ipv4Address>& servers);

    /**
     * \brief Slow this worker's compute during straggler episodes (--slowdown, --stragglers),
     * by ComputeSlowdown's rule; set with SetModel, before the application starts.
     * \param slowdown the job's episodes (null: none)
     */
    void SetSlowdown(std::shared_ptr<const ComputeSlowdown> slowdown);

    /**
     * \brief Let this worker leave the job and rejoin it (--leave, async PS), by
     * WorkerAbsences' rule; set with SetModel, before the application starts.
     * \param absences the job's windows (null: none)
     */
    void SetAbsences(std::shared_ptr<const WorkerAbsences> absences);

    /**
     * \brief Assign a fixed random variable stream number to the random variables used here.
     * \param stream first stream index to use
     * \return the number of stream indices assigned
     */
    int64_t AssignStreams(int64_t stream);

    /** \return steps completed */
    uint32_t GetStepsCompleted() const;
    /** \return payload bytes sent to all servers */
    uint64_t GetPayloadBytesSent() const;
    /** \return payload bytes received from all servers */
    uint64_t GetPayloadBytesReceived() const;

    /// TracedCallback signature for step records.
    typedef void (*StepTracedCallback)(const TrainingResult::StepRecord& record);
    /// TracedCallback signature for transfer records.
    typedef void (*TransferTracedCallback)(const TrainingResult::TransferRecord& record);
    /// TracedCallback signature for a worker leaving: its index and when it rejoins.
    typedef void (*AwayTracedCallback)(uint32_t worker, Time back);

  protected:
    void DoDispose() override;

  private:
    // ProtocolTransport: the connections and the trace sources
    TensorSink& GetPeer(uint32_t peer) override;
    void TransferCompleted(const TrainingResult::TransferRecord& record) override;
    void StepCompleted(const TrainingResult::StepRecord& record) override;
    void WorkerAway(uint32_t worker, Time back) override;

    void StartApplication() override;
    void StopApplication() override;

    /** \param socket connected socket */
    void HandleConnected(Ptr<Socket> socket);
    /** \param socket socket whose connection failed */
    void HandleConnectionFailed(Ptr<Socket> socket);
    /**
     * \param connection where it came from
     * \param header the chunk
     */
    void HandleChunk(Ptr<TensorConnection> connection, const TensorChunkHeader& header);

    uint32_t m_index;                                  //!< worker index
    uint16_t m_port;                                   //!< servers' port
    uint32_t m_steps;                                  //!< steps to run
    bool m_overlap;                                    //!< overlap communication and computation
    std::shared_ptr<const ComputeSlowdown> m_slowdown; //!< straggler episodes (null: none)
    std::shared_ptr<const WorkerAbsences> m_absences;  //!< --leave windows (null: none)
    double m_scale;                                    //!< compute time multiplier
    bool m_sampleSteps;               //!< draw each step from the profile's samples
    uint64_t m_window;                //!< multiplexing window of the uplinks
    uint32_t m_gpus;                  //!< GPUs per node
    DataRate m_intraRate;             //!< intra-node interconnect bandwidth
    Time m_intraLatency;              //!< intra-node per-tensor latency
    Time m_startJitter;               //!< largest random start delay (first step, transfers)
    Ptr<UniformRandomVariable> m_rng; //!< step sampling
    std::shared_ptr<const TrainingProfile> m_profile; //!< the DNN
    std::vector<uint32_t> m_owners;                   //!< server of each layer
    std::vector<Ipv4Address> m_servers;               //!< server addresses
    std::vector<Ptr<TensorConnection>> m_connections; //!< one per server
    std::unique_ptr<PsWorkerProtocol> m_protocol;     //!< the protocol (from StartApplication)

    TracedCallback<const TrainingResult::StepRecord&> m_stepTrace;         //!< step done
    TracedCallback<const TrainingResult::TransferRecord&> m_transferTrace; //!< downlink done
    bool m_tcpSmallQueues{false}; //!< sockets with TCP small queues (TcpSmallQueuesSocket)
    uint32_t m_sendBuffer{0};     //!< SndBufSize of its sockets (0: the TcpSocket default)
    uint32_t m_receiveBuffer{0};  //!< RcvBufSize of its sockets (0: the TcpSocket default)
    TracedCallback<Ptr<Socket>> m_socketTrace;  //!< socket opened
    TracedCallback<uint32_t, Time> m_awayTrace; //!< worker left (--leave)
};

} // namespace ns3

#endif /* TRAINING_WORKER_APPLICATION_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PS_WORKER_PROTOCOL_H
#define PS_WORKER_PROTOCOL_H

#include "training-protocol.h"

#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The worker's side of the PS protocol, independent of the transport: HELLO, then per
 * step a PULL to every server, forward layer by layer as parameters arrive (overlap) or after all
 * arrived, backward, the gradients up (each as it is computed, or all after backward, last layer
 * first), the intra-node broadcast and reduction around them (GPUs per node > 1), and the step's
 * end at the latest NOTICE of the servers.
 *
 * TrainingWorkerApplication carries it over ns-3 TCP, LinuxTrainingWorker over kernel TCP.
 */
class PsWorkerProtocol
{
  public:
    /**
     * \param transport clock, timer and the connection to each server (peer = server index)
     * \param profile the DNN
     * \param owners server of each layer
     * \param servers number of servers
     * \param config the configuration
     * \param rng the stream of step sampling and of the start jitter
     */
    PsWorkerProtocol(ProtocolTransport& transport,
                     std::shared_ptr<const TrainingProfile> profile,
                     const std::vector<uint32_t>& owners,
                     uint32_t servers,
                     const WorkerConfig& config,
                     Ptr<UniformRandomVariable> rng);

    /**
     * \brief The connection to a server is up: say HELLO; the first step starts when all are.
     * \param server the server
     */
    void Connected(uint32_t server);
    /**
     * \brief Handle a complete control message or one chunk of a parameter tensor.
     * \param header the message
     */
    void Receive(const TensorChunkHeader& header);
    /// Ignore what arrives from now on (the application stopped).
    void Stop();
    /** \return steps completed */
    uint32_t GetStepsCompleted() const;

  private:
    /// Begin step m_step now, or when the worker is back from a --leave window.
    void StartStep();
    /// Begin step m_step: draw its times and pull the parameters.
    void BeginStep();
    /** \param header the NOTICE of a server */
    void ReceiveNotice(const TensorChunkHeader& header);
    /// Start the next forward layer if allowed.
    void TryForward();
    /// A forward layer finished.
    void ForwardDone();
    /// A backward layer finished.
    void BackwardDone();
    /// Run the backward of layer m_nextBackward.
    void ScheduleBackward();
    /** \param layer send its gradient to its server */
    void SendGradient(uint32_t layer);
    /**
     * \brief Queue a layer's intra-node work (one reduce or broadcast at a time per direction),
     * then call done (at once with one GPU).
     * \param free when that direction is free (updated)
     * \param layer the layer
     * \param done what follows
     */
    void IntraNodeThen(Time& free, uint32_t layer, void (PsWorkerProtocol::*done)(uint32_t));
    /** \param layer its parameters were broadcast inside the node */
    void BroadcastDone(uint32_t layer);
    /** \param layer its gradient was reduced inside the node */
    void ReduceDone(uint32_t layer);

    ProtocolTransport& m_transport;                   //!< clock, timer, connections
    std::shared_ptr<const TrainingProfile> m_profile; //!< the DNN
    std::vector<uint32_t> m_owners;                   //!< server of each layer
    uint32_t m_servers;                               //!< number of servers
    WorkerConfig m_config;                            //!< the configuration
    Ptr<UniformRandomVariable> m_rng;                 //!< step sampling
    TrainingProfile::StepTimes m_mean;                //!< mean step, when not sampling
    uint32_t m_connected{0};                          //!< connections up
    bool m_running{true};                             //!< not stopped
    uint32_t m_step{0};                               //!< current step
    StepDraw m_draw;                                  //!< this step's times
    Time m_stepStart;                                 //!< when the step began
    Time m_stepEnd;                   //!< latest update time reported by the servers
    std::vector<bool> m_arrived;      //!< parameters of each layer usable
    std::vector<uint64_t> m_received; //!< parameter bytes received per layer
    uint32_t m_arrivedCount{0};       //!< layers whose parameters are usable
    uint32_t m_nextForward{0};        //!< next layer to run forward
    int64_t m_nextBackward{-1};       //!< next layer to run backward (-1: none)
    bool m_busy{false};               //!< the processor is computing
    uint32_t m_reduced{0};            //!< gradients reduced inside the node (overlap off)
    uint32_t m_notices{0};            //!< NOTICEs of the current step
    uint32_t m_completed{0};          //!< steps completed
    Time m_broadcastFree;             //!< when the intra-node broadcast path is free
    Time m_reduceFree;                //!< when the intra-node reduction path is free
};

} // namespace ns3

#endif /* PS_WORKER_PROTOCOL_H */

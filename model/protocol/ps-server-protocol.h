/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PS_SERVER_PROTOCOL_H
#define PS_SERVER_PROTOCOL_H

#include "training-protocol.h"

#include "ns3/training-scenario.h"

#include <deque>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The parameter server's side of the PS protocol, independent of the transport:
 * HELLO/PULL, the parameters down in the configured order, gradients up, the updates applied
 * one at a time per worker (as soon as each gradient arrives, or after all of the worker's step
 * without overlap), and the NOTICE to the worker (sync: after the barrier over all workers).
 *
 * ParameterServerApplication carries it over ns-3 TCP, LinuxParameterServer over kernel TCP.
 */
class PsServerProtocol
{
  public:
    /// What a server is configured with.
    struct Config
    {
        uint32_t index{0};   //!< this server's index
        uint32_t workers{1}; //!< K (the sync barrier)
        bool sync{true};     //!< barrier after each step
        bool overlap{false}; //!< apply on arrival
        TrainingScenario::TransmissionOrder order{TrainingScenario::FORWARD_ORDER}; //!< downlink
    };

    /**
     * \param transport clock, timer and the connection of each worker (peer = worker index)
     * \param profile the DNN
     * \param layers the layers this server owns (global indices)
     * \param config the configuration
     * \param rng the stream of the random order
     */
    PsServerProtocol(ProtocolTransport& transport,
                     std::shared_ptr<const TrainingProfile> profile,
                     const std::vector<uint32_t>& layers,
                     const Config& config,
                     Ptr<UniformRandomVariable> rng);

    /**
     * \param header a message from a worker
     * \return true if it names the connection it came on as that worker's (HELLO, PULL): the
     *         transport sends to the worker on it from then on
     */
    static bool IdentifiesWorker(const TensorChunkHeader& header);
    /**
     * \brief Handle a complete message (control) or one chunk of a gradient from a worker (the
     * transport has bound the worker's connection, see IdentifiesWorker()).
     * \param header the message
     */
    void Receive(const TensorChunkHeader& header);
    /** \return gradient payload bytes received */
    uint64_t GetGradientBytesReceived() const;

  private:
    /// State of one worker at this server.
    struct WorkerState
    {
        uint32_t step{0};               //!< the step its gradients belong to
        std::vector<uint64_t> received; //!< gradient bytes received per owned layer
        uint32_t gradientsComplete{0};  //!< gradients fully received this step
        std::deque<std::pair<uint32_t, uint32_t>> ready; //!< (local layer, sample+1) to apply
        std::vector<std::pair<uint32_t, uint32_t>> held; //!< gradients held (overlap off)
        bool updating{false};                            //!< an update is running
        uint32_t updatesDone{0};                         //!< updates applied this step
        Time doneTime; //!< when its updates of the step were applied
    };

    /**
     * \param worker worker index
     * \return its state (created on first use)
     */
    WorkerState& State(uint32_t worker);
    /**
     * \param header one chunk of a gradient
     */
    void ReceiveGradient(const TensorChunkHeader& header);
    /**
     * \param worker worker index
     * \param step the step whose parameters are asked for
     */
    void SendParameters(uint32_t worker, uint32_t step);
    /** \param worker start that worker's next update if idle */
    void ProcessUpdates(uint32_t worker);
    /** \param worker worker whose running update finished */
    void UpdateDone(uint32_t worker);
    /** \param worker worker whose updates of its current step are all applied */
    void WorkerStepApplied(uint32_t worker);
    /**
     * \param worker worker index
     * \param st its state: send it the NOTICE of its applied step
     */
    void Notify(uint32_t worker, const WorkerState& st);

    ProtocolTransport& m_transport;                   //!< clock, timer, connections
    std::shared_ptr<const TrainingProfile> m_profile; //!< the DNN
    std::vector<uint32_t> m_layers;                   //!< owned layers (global indices)
    std::vector<int32_t> m_localIndex;       //!< global layer -> local index, -1 if not owned
    Config m_config;                         //!< the configuration
    Ptr<UniformRandomVariable> m_rng;        //!< random order
    std::map<uint32_t, WorkerState> m_state; //!< per worker
    uint32_t m_barrierCount{0};              //!< workers whose current step is applied (sync)
    uint64_t m_bytesReceived{0};             //!< gradient payload received
};

} // namespace ns3

#endif /* PS_SERVER_PROTOCOL_H */

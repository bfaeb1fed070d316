/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_PS_STEP_MACHINE_H
#define FLOW_PS_STEP_MACHINE_H

#include "flow-event-core.h"
#include "flow-ps-types.h"

#include "ns3/compute-slowdown.h"
#include "ns3/training-profile.h"
#include "ns3/worker-absences.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class TrainingScenario;

namespace flow
{

class TransferTable;

/**
 * The workers and servers of a FlowPsEngine run (Algorithm 1 of 001): each worker's step from
 * the parameters' downlink through the forward and backward passes, the gradients' uplink and
 * the servers' updates to the step's end, and the barrier (sync) or the next step (async). It
 * queues and resets the connections of the TransferTable and schedules its events (step start
 * and end, connection activations) on the engine's queue; the engine calls it back when a
 * worker's connections of one direction are done.
 */
class PsStepMachine
{
  public:
    /**
     * \param in the run's inputs (profile, scenario, parsing overheads, step records)
     * \param table the run's connections
     * \param queue the engine's pending events
     */
    PsStepMachine(const EngineInputs& in, TransferTable& table, EventQueue& queue);

    /// Reserve the records, open the window without warm-up and start every worker's step 0.
    void StartAll();
    /**
     * \brief Begin a worker's step now (or, inside a --leave window, schedule it at the
     * window's end): draw its times, queue its downlink tensors (in the transmission order,
     * split by WIN) and activate its downlink connections.
     * \param w worker
     * \param step step index
     */
    void StartStep(uint32_t w, uint32_t step);
    /**
     * \brief The worker's last update is applied: record the step, then the barrier (sync) or
     * the worker's next step (async).
     * \param w worker
     */
    void StepEnd(uint32_t w);
    /**
     * \brief A connection went idle with segments left: activate it when the next is ready
     * (and after its start jitter).
     * \param ci connection index
     */
    void ScheduleActivation(uint32_t ci);
    /**
     * \brief A connection has sent all segments of its step.
     * \param ci connection index
     */
    void ConnectionDone(uint32_t ci);

  private:
    /**
     * \brief Fill m_order with this step's transmission order of the worker's tensors.
     * \param w worker
     * \param step step index
     */
    void MakeOrder(uint32_t w, uint32_t step);
    /**
     * \brief Point the worker at the compute times of a recorded step (drawn with replacement)
     * or at the means.
     * \param w worker
     * \param step step index
     */
    void SelectSample(uint32_t w, uint32_t step);
    /**
     * \brief When each layer's parameters are usable on the node (into m_usable): their
     * arrival, or with G GPUs the end of their intra-node broadcast (one tensor after another,
     * in arrival order).
     * \param w worker
     */
    void UsableTimes(uint32_t w);
    /**
     * \param w worker
     * \return the time the worker's forward pass ends
     */
    double ForwardEnd(uint32_t w);
    /**
     * \brief Backward pass from time t: queue each gradient on its uplink connection, ready when
     * its backward (and intra-node reduction) is done.
     * \param w worker
     * \param t when the backward pass starts
     * \return when the last gradient is ready (all of them with overlap off)
     */
    double QueueGradients(uint32_t w, double t);
    /**
     * \brief Schedule the activation of the worker's uplink connections.
     * \param w worker
     * \param allReady overlap off: when every gradient may leave
     */
    void ScheduleUplinks(uint32_t w, double allReady);
    /**
     * \brief All parameters of the worker's step are in: evaluate its forward and backward
     * chain and queue its gradients (ready when their backward ends, or all at the end).
     * \param w worker
     */
    void DownlinkDone(uint32_t w);
    /**
     * \brief All gradients of the worker's step are at the servers: evaluate the update chains
     * and schedule the step's end.
     * \param w worker
     */
    void UplinkDone(uint32_t w);
    /**
     * \brief Open or close the measurement window (once closed, async, it stays closed).
     * \param on open
     */
    void SetCounting(bool on);
    /**
     * \param l layer
     * \return the intra-node transfer time of its tensor (000 Sec. 4.4)
     */
    double IntraNode(uint32_t l) const;
    /**
     * \param layer layer index
     * \return the parsing overhead alpha * size + beta of its tensor (seconds)
     */
    double Overhead(uint32_t layer) const;
    /**
     * \brief A transfer starts on the idle connection c with its head segment (--startJitter:
     * it waits a random delay; the segments that become ready meanwhile join it, as tensors
     * queued behind a held transfer do at the packet level).
     * \param c the connection
     * \return the delay (s; 0 without jitter)
     */
    double StartDelay(const Connection& c) const;

    TransferTable& m_table;             //!< the connections
    EventQueue& m_queue;                //!< the engine's pending events
    const TrainingProfile& m_profile;   //!< the DNN
    const TrainingScenario& m_scenario; //!< the scenario
    FlowRunOptions m_options;           //!< parsing overheads
    TrainingResult& m_result;           //!< step records go here
    uint32_t m_k;                       //!< workers
    uint32_t m_p;                       //!< servers
    uint32_t m_l;                       //!< layers
    TrainingProfile::StepTimes m_mean;  //!< the mean step
    StartJitter m_jitter;               //!< --startJitter's delays
    ComputeSlowdown m_slowdown;         //!< --slowdown's and --stragglers' episodes
    WorkerAbsences m_absences;          //!< --leave's windows
    std::vector<WorkerState> m_workers; //!< per worker
    std::vector<uint32_t> m_order;      //!< scratch: transmission order
    std::vector<double> m_usable;       //!< scratch: per layer, when its parameters are usable
    std::vector<uint32_t> m_byArrival;  //!< scratch: layers in arrival order
    std::vector<uint8_t> m_flag;        //!< scratch: per-server flags
    uint32_t m_barrierCount{0};         //!< sync: workers at barrier
    uint32_t m_warmDone{0};             //!< async: workers past warm-up
    bool m_windowClosed{false};         //!< async: window already closed
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_PS_STEP_MACHINE_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_LEVEL_SIMULATOR_H
#define FLOW_LEVEL_SIMULATOR_H

#include "flow-run-options.h"
#include "sharing-model.h"

#include "ns3/ptr.h"
#include "ns3/training-result.h"

#include <chrono>
#include <cstdint>
#include <vector>

namespace ns3
{

class TrainingProfile;
class TrainingScenario;
class FabricTopology;

namespace flow
{
class FlowFabric;
}

/**
 * \ingroup distributed-training
 * \brief The flow-level simulator: Algorithm 1 (GenerateTrace / StartRandomStep / Share) of
 * 000_466ded720105ddf3.txt Sec. 2.2.2, generalised, as a discrete-event simulation in which every
 * transfer is a fluid flow whose rate comes from a SharingModel.
 *
 * What is kept from Algorithm 1: one worker's operations run on its own resources (downlink,
 * compute, uplink, parameter-server updates), each operation starts when the operations it waits
 * for are done, workers only interact through the links they share, and the rates of the active
 * transfers are given by Share. Steps are drawn with replacement from the profile's recorded
 * steps (StartRandomStep); sync mode has the barrier of lines 36-39, async mode starts a worker's
 * next step as soon as its own step ends (line 35).
 *
 * What is generalised:
 * - Resources are links, not directions: each transfer crosses its worker's NIC and its
 *   server's NIC (a star through one switch), so several parameter servers (001_33040fda0f1f6815
 *   .txt Sec. 3.4 and 5), per-flow caps (000 Sec. 4.4) and FCFS/PS/max-min sharing all fit one
 *   Share interface (SharingModel).
 * - A (worker, server, direction) connection carries one transfer at a time, FIFO; with a
 *   multiplexing window WIN > 0 the downlink follows the HTTP/2 model of 001 Sec. 3.2.2 (Fig. 12):
 *   a stream's first service sends at most WIN bytes, a stream with bytes left goes to the tail
 *   of the connection's queue and its second service sends the rest.
 * - Overlap on/off, transmission order (forward, reverse, seeded random permutation per step),
 *   heterogeneous compute scale, the parsing overhead alpha*size+beta of 001 Sec. 3.2.1
 *   (charged to the computation that consumes the tensor), and ring AllReduce with gradient
 *   buckets (000 Sec. 3.2.2 with op.remaining = 2(K-1)/K * size/B; tensor fusion of
 *   004_87a6f364a233f56c.txt Sec. 2.2) and G GPUs per node (000 Sec. 4.4).
 *
 * How it stays fast (001 Sec. 3.4 notes that its queue is sorted only for presentation):
 * - events sit in a binary heap; Q is never re-sorted;
 * - rates are recomputed only when the set of active connections of one direction changes; a
 *   connection that goes on to its next queued tensor keeps its rate and costs no event at all:
 *   tensor boundaries inside a busy period are book-keeping, interpolated when the connection is
 *   next advanced;
 * - computations that only depend on known times (the forward/backward chain once all
 *   parameters of the step are in, the update chain once all gradients are in) are evaluated in
 *   one pass when their inputs are known, not event by event.
 * Work per event is O(active connections), independent of the number of steps; memory is
 * O(workers x layers) plus the records.
 *
 * The exact step semantics (shared with the packet-level backend) are in
 * doc/reference/backend-flow.rst.
 */
class FlowLevelSimulator
{
  public:
    /// Knobs of one run (set by FlowBackend from its attributes).
    using Options = FlowRunOptions;

    /**
     * \param profile the DNN (validated)
     * \param scenario the scenario (validated against the profile)
     * \param sharing the sharing model (its name becomes the result's variant)
     * \param options run options
     */
    FlowLevelSimulator(const TrainingProfile& profile,
                       const TrainingScenario& scenario,
                       Ptr<const SharingModel> sharing,
                       const Options& options);

    /**
     * \brief Simulate scenario.steps steps and finalize the result.
     * \return the result (backend "flow", variant = the sharing model's name)
     */
    TrainingResult Run();

    /** \return events handled by the last Run() (for ring: operations evaluated) */
    uint64_t GetEventCount() const;
    /** \return rate computations (calls of the sharing model) of the last Run() */
    uint64_t GetRateComputations() const;
    /**
     * \return flows handed to the sharing model over the last Run(), summed over its calls
     * (parameter servers; plain max-min models see one aggregate per set of identical flows)
     */
    uint64_t GetSharingFlows() const;

    /**
     * \return the parameter-server engine's own work in the last run besides the sharing model:
     * rate classes scanned for the next check or the drained ones, plus members advanced by
     * rebases (FlowPsEngine::GetClassWork); per event it does not grow with K where classes
     * aggregate (async PS on the star)
     */
    uint64_t GetClassWork() const;
    /** \return the capacity of one NIC link in one direction (bytes/s) used as B */
    double GetLinkCapacity() const;
    /** \return the per-flow cap (bytes/s), infinity when the scenario has none */
    double GetFlowCap() const;

    /// One job of RunJobs.
    struct Job
    {
        const TrainingProfile* profile;   //!< its DNN (validated)
        const TrainingScenario* scenario; //!< its scenario (parameter server, validated)
        double startTime;                 //!< when its workers begin (s)
        /// The fabric every job shares, with all jobs' roles placed (required: a job's own
        /// scenario on the star builds a star of its own roles only, whose links would carry
        /// the same indices as another job's).
        const FabricTopology* fabric{nullptr};
        std::vector<uint32_t> hosts; //!< with fabric: the host of each of the job's roles
    };

    /**
     * \brief Several parameter-server jobs on one fabric (issue 16): one clock, one event loop
     * over the jobs' engines, and one rate computation of the sharing model over the active
     * connections of every job whenever an active set changes, so that jobs crossing a link
     * share it as the model says. Every job runs on the one shared fabric, Job::fabric.
     * \param jobs the jobs
     * \param sharing the sharing model
     * \param options run options (the window model is not supported here)
     * \return one finalized result per job, in order, at the shared clock's times
     */
    static std::vector<TrainingResult> RunJobs(const std::vector<Job>& jobs,
                                               Ptr<const SharingModel> sharing,
                                               const Options& options);

  private:
    /**
     * \brief Run() with co-located servers (TrainingScenario::IsColocated): RunJobs with this one
     * job, whose rate computation takes both directions' connections together.
     * \return the result
     */
    TrainingResult RunColocated();

    /**
     * \brief Finalize a run: window and throughput, link report, lockstep note, inputs.
     * \param result the run's records
     * \param fabric its fabric
     * \param bytes bytes per directed link inside the window
     * \param wallStart when the run began (wall clock)
     */
    void Finish(TrainingResult& result,
                const flow::FlowFabric& fabric,
                const std::vector<double>& bytes,
                std::chrono::steady_clock::time_point wallStart) const;

    /**
     * \brief The model inputs of the run (B, cap, M, T_F, T_B, T_S, layers, events).
     * \param result the result to complete
     */
    void AddInputs(TrainingResult& result) const;
    /**
     * \param result a finished run
     * \return true when, in every measured step, all workers ended at the same time
     */
    bool IsLockstep(const TrainingResult& result) const;

    const TrainingProfile& m_profile;   //!< the DNN
    const TrainingScenario& m_scenario; //!< the scenario
    Ptr<const SharingModel> m_sharing;  //!< the sharing model
    Options m_options;                  //!< run options
    uint64_t m_events;                  //!< events of the last run
    uint64_t m_rateComputations;        //!< sharing-model calls of the last run
    uint64_t m_sharingFlows;            //!< flows those calls saw, summed (parameter servers)
    uint64_t m_classWork;               //!< the PS engine's class scans and rebases
};

} // namespace ns3

#endif /* FLOW_LEVEL_SIMULATOR_H */

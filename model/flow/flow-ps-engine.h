/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_PS_ENGINE_H
#define FLOW_PS_ENGINE_H

#include "flow-event-core.h"
#include "flow-ps-step-machine.h"
#include "flow-ps-types.h"
#include "flow-rate-solver.h"
#include "flow-shared-job.h"
#include "flow-transfer-table.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

namespace flow
{

/**
 * The parameter-server simulation of one run. Connections of one direction share the links of
 * that direction (DOWN: server NICs' send side, workers' receive side; UP: the reverse), so the
 * two directions are independent groups whose rates are computed separately. The engine drives
 * the clock and composes three parts: the TransferTable (connections, their rate classes and
 * bytes), the PsStepMachine (the workers' and servers' steps) and a RateSolver (the rates).
 */
class FlowPsEngine
{
  public:
    /**
     * \param in the run's inputs (the sharing model, fabric and flow cap are asked for rates)
     */
    explicit FlowPsEngine(const EngineInputs& in);

    /// Run to the end.
    void Run();

    /**
     * \param d direction
     * \return bytes carried by each link of that direction inside the measurement window
     */
    std::vector<double> GetLinkBytes(Direction d) const;

    // ---- several jobs on one fabric (FlowJobSimulator): one clock, one rate computation ----

    /**
     * \brief Begin the run at startTime without computing rates: the caller drives the events
     * (NextEventTime, HandleNext) and computes the rates of every job's flows together
     * (CollectShared, sharing model, ApplyShared). Without links every connection is its own
     * rate class (EachFlowSolver: a link private to one job's connection may carry another
     * job's); with links (plain max-min, one server) the connections aggregate into rate classes
     * as in the single-job engine, a link counting as private while no other flow of any job
     * crosses it (MaxMinSolver, SharedLinks).
     * \param startTime when the workers begin their first step (s)
     * \param prioritySeq activation counter shared by the jobs (FCFS order across jobs)
     * \param links every job's flows per link, or null (a class per connection)
     * \param id this job's id in links
     */
    void BeginShared(double startTime, uint64_t* prioritySeq, SharedLinks* links, uint32_t id);
    /** \return the time of the next pending event, infinity if none */
    double NextEventTime() const;
    /**
     * \brief Handle the next pending event (not before now).
     */
    void HandleNext();
    /** \param now the shared clock (s); the engine's present moves to it */
    void SetNow(double now);
    /** \return true when an active set changed since the last CollectShared */
    bool IsDirty() const;

    /**
     * \brief Describe the active connections (DOWN, then UP) to the sharing model: each one
     * (weights 1), or with aggregation one aggregate per rate class.
     * \param flows where to append
     * \param weights where to append each one's connections
     */
    void CollectShared(std::vector<SharingModel::Flow>& flows, std::vector<double>& weights);
    /**
     * \brief Take the rates of CollectShared's flows and schedule the next checks.
     * \param rates the rates of CollectShared's flows
     */
    void ApplyShared(const double* rates);
    /**
     * \brief Another job's flow made link l shared, or left this job's connection alone on it:
     * re-key the connection of either direction that crosses it alone.
     * \param l link
     * \param now the shared clock (s)
     */
    void RekeyLink(uint32_t l, double now);

    /**
     * \return the engine's own per-event work besides the sharing model's: rate classes looked
     *         at to find the next check or the drained ones, plus members advanced by rebases
     */
    uint64_t GetClassWork() const;

    uint64_t events{0};           //!< events handled
    uint64_t rateComputations{0}; //!< sharing-model calls
    uint64_t sharingFlows{0};     //!< flows (or aggregates) handed to the sharing model, summed

  private:
    /**
     * \brief Take a rate solver; the transfer table tells it of every change from now on.
     * \param solver the solver
     */
    void UseSolver(std::unique_ptr<RateSolver> solver);
    /**
     * \brief Handle one event of the heap.
     * \param e the event
     */
    void Handle(const Event& e);
    /// Rates of every group whose active set changed.
    void RecomputeDirty();
    /**
     * \brief Ask the solver for the rates of a group's rate classes (Solved).
     * \param gi group index
     */
    void Recompute(uint32_t gi);
    /**
     * \brief A rate computation of a group is done: count it, schedule the group's next check.
     * \param gi group index
     * \param flows flows the sharing model saw (or FCFS served)
     */
    void Solved(uint32_t gi, uint64_t flows);
    /**
     * \brief Schedule the group's check at its earliest class drain time (new version).
     * \param gi group index
     */
    void PushCheck(uint32_t gi);
    /**
     * \brief Handle the connections of a group whose queues drained now: go on with newly ready
     * segments (same rate, no event), or go idle, or finish the step's transfers.
     * \param gi group index
     */
    void GroupCheck(uint32_t gi);
    /**
     * \brief What a connection does once its queue drained (or, local, was delivered).
     * \param ci connection index
     * \param drain what the table says it does next
     */
    void AfterDrain(uint32_t ci, TransferTable::Drain drain);

    const SharingModel& m_sharing;        //!< the sharing model (a shared run's EachFlowSolver)
    const FlowFabric& m_fabric;           //!< the placed fabric (--linkDown re-paths)
    TransferTable m_table;                //!< connections, segments, rate classes
    EventQueue m_queue;                   //!< pending events
    PsStepMachine m_steps;                //!< the workers' and servers' steps
    std::unique_ptr<RateSolver> m_solver; //!< the rates of the active connections
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_PS_ENGINE_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_RATE_SOLVER_H
#define FLOW_RATE_SOLVER_H

#include "flow-transfer-table.h"
#include "sharing-model.h"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{
namespace flow
{

class ClassHeap;
class SharedLinks;

/**
 * What a sharing model is, as far as the flow engines' rates go: the one place that asks the
 * model (SharingModel::IsPlainMaxMin, IsFirstComeFirstServed). The parameter-server engine
 * chooses its RateSolver from it, the ring engine whether its hops take their FCFS turn as one,
 * and a shared run of several jobs whether their flows aggregate into rate classes.
 */
struct SolverChoice
{
    /// The rule the model's rates follow.
    enum Rule
    {
        EACH_FLOW, //!< none the engines know: the model's AssignRates sees every flow
        MAX_MIN,   //!< plain max-min: interchangeable flows aggregate (AssignAggregateRates)
        FCFS,      //!< first come, first served (FcfsRule)
    };

    /**
     * \param sharing a sharing model
     * \return what it is
     */
    static SolverChoice Of(const SharingModel& sharing);

    Rule rule{EACH_FLOW};    //!< the rule
    bool honoursCaps{false}; //!< MAX_MIN: the model honours the flow cap
};

/**
 * The rates of a FlowPsEngine's active connections: the one interface the engine asks. A solver
 * sorts each activated connection into a rate class (flow-rate-class.h) and, when the active set
 * of a direction changed, sets every class's rate; it also says when the next class drains. Its
 * state (keys, link counts, queues) is its own; the connections, their classes and the links'
 * capacities are the TransferTable's, which it reads and changes through that table's public
 * interface (and which tells it of every activation and class change).
 *
 * The solvers, chosen once per run from the sharing model (SolverChoice) by the engine that
 * composes them (FlowPsEngine):
 *  - EachFlowSolver: any model; every active connection its own class and flow (AssignRates);
 *  - MaxMinSolver: plain max-min; interchangeable connections aggregate into one class, one
 *    aggregate flow per class (SharingModel::AssignAggregateRates);
 *  - BundledMaxMinSolver: the same with several servers (a worker's bundle of connections);
 *  - FcfsSolver: first come, first served, served queue by queue (FcfsRule).
 */
class RateSolver : public TableListener
{
  public:
    /**
     * \param table the run's connections and rate classes
     * \param sharing the sharing model
     */
    RateSolver(TransferTable& table, const SharingModel& sharing);
    ~RateSolver() override;

    /// \copydoc TableListener::Activated
    void Activated(uint32_t ci) override = 0;
    /// \copydoc TableListener::Deactivated
    void Deactivated(uint32_t ci) override;
    /// \copydoc TableListener::ClassAdded
    void ClassAdded(uint32_t k) override;
    /// \copydoc TableListener::ClassReleased
    void ClassReleased(uint32_t k) override;
    /**
     * \brief Set the rate of every class of a direction (the sharing model's answer).
     * \param gi group (direction) index
     * \return flows handed to the sharing model (or served)
     */
    virtual uint64_t Solve(uint32_t gi) = 0;
    /**
     * \param gi group index
     * \return the earliest drain time of its classes (infinity if none); a scan by default
     */
    virtual double NextDrain(uint32_t gi);
    /// \copydoc TableListener::DueClasses
    void DueClasses(uint32_t gi, std::vector<uint32_t>& due) override;
    /// \copydoc TableListener::ByTime
    ClassHeap* ByTime(uint32_t gi) override;

    // ---- several jobs on one fabric (FlowJobSimulator, through FlowPsEngine) ----

    /**
     * \brief Describe the active flows of both directions to the sharing model (DOWN, then UP);
     * only the solvers of a shared run (EachFlowSolver, MaxMinSolver) can.
     * \param flows where to append them
     * \param weights where to append each one's connections
     */
    virtual void CollectShared(std::vector<SharingModel::Flow>& flows,
                               std::vector<double>& weights);
    /**
     * \brief Take the rates of CollectShared's flows, in its order.
     * \param rates their rates (bytes/s)
     * \return the flows of each direction the sharing model saw
     */
    virtual std::array<uint64_t, 2> ApplyShared(const double* rates);
    /**
     * \brief Another job's flow made link l shared, or left one of this job's alone on it.
     * \param l link
     */
    virtual void RekeyLink(uint32_t l);
    /**
     * \brief Aggregate with every job's flows counted per link.
     * \param links every job's flows per link
     * \param id this job's id in links
     */
    virtual void ShareLinks(SharedLinks* links, uint32_t id);

  protected:
    TransferTable& m_t;            //!< connections, classes, capacities
    const SharingModel& m_sharing; //!< the sharing model
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_RATE_SOLVER_H */

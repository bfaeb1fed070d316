/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_SHARED_JOB_H
#define FLOW_SHARED_JOB_H

#include "sharing-model.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace flow
{

/**
 * One job's engine as FlowLevelSimulator::RunJobs drives it (several jobs on one fabric, one
 * clock, one rate computation): the caller handles the earliest pending event of any job, and
 * whenever some job's active set changed it collects every job's active flows, asks the sharing
 * model once and hands each job its rates back. FlowPsEngine and FlowRingEngine implement the
 * calls; SharedJobOf adapts either to this interface.
 */
class SharedJob
{
  public:
    virtual ~SharedJob() = default;

    /**
     * \brief Begin the run at startTime without computing rates.
     * \param startTime when the workers begin their first step (s)
     * \param prioritySeq activation counter shared by the jobs (FCFS order across jobs)
     */
    virtual void BeginShared(double startTime, uint64_t* prioritySeq) = 0;
    /** \return the time of the next pending event, infinity if none */
    virtual double NextEventTime() const = 0;
    /// Handle the next pending event.
    virtual void HandleNext() = 0;
    /** \param now the shared clock (s) */
    virtual void SetNow(double now) = 0;
    /** \return true when the job's active flows changed since its last CollectFlows */
    virtual bool IsDirty() const = 0;
    /**
     * \brief Append the job's active flows for the sharing model (the job counts them).
     * \param flows where to append
     */
    virtual void CollectFlows(std::vector<SharingModel::Flow>& flows) = 0;
    /**
     * \brief Take the rates of the flows CollectFlows appended, in its order.
     * \param rates their rates (bytes/s)
     */
    virtual void ApplyRates(const double* rates) = 0;
};

/// SharedJob over an engine that has the same calls (FlowPsEngine, FlowRingEngine).
template<class Engine>
class SharedJobOf : public SharedJob
{
  public:
    /** \param engine the engine (outlives this adapter) */
    explicit SharedJobOf(Engine& engine)
        : m_engine(engine)
    {
    }

    void BeginShared(double startTime, uint64_t* prioritySeq) override
    {
        m_engine.BeginShared(startTime, prioritySeq);
    }

    double NextEventTime() const override
    {
        return m_engine.NextEventTime();
    }

    void HandleNext() override
    {
        m_engine.HandleNext();
    }

    void SetNow(double now) override
    {
        m_engine.SetNow(now);
    }

    bool IsDirty() const override
    {
        return m_engine.IsDirty();
    }

    void CollectFlows(std::vector<SharingModel::Flow>& flows) override
    {
        m_engine.CollectFlows(flows);
    }

    void ApplyRates(const double* rates) override
    {
        m_engine.ApplyRates(rates);
    }

  private:
    Engine& m_engine; //!< the engine
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_SHARED_JOB_H */

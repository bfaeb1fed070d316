/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_SHARED_JOB_H
#define FLOW_SHARED_JOB_H

#include "sharing-model.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{
namespace flow
{

class SharedJob;

/**
 * Several jobs with a plain max-min model (issue 16): which directed links carry active flows
 * of more than one connection, across all jobs. A parameter-server engine folds a link only its
 * connection crosses into that connection's cap, as the single-job engine does (flow-ps-classes.cc,
 * LinkKeyOf), so that its connections aggregate into rate classes; with several jobs "only its
 * connection" must count every job's flows, and when a link goes from one flow to two (or back)
 * the job whose connection had (or now has) it alone must re-key that connection.
 */
class SharedLinks
{
  public:
    /** \param links directed links of the fabric */
    explicit SharedLinks(std::size_t links)
        : m_count(links, 0),
          m_xor(links, 0)
    {
    }

    /**
     * \param job a job's engine
     * \return its id (1, 2, ...) for Count
     */
    uint32_t AddJob(SharedJob* job)
    {
        m_jobs.push_back(job);
        return static_cast<uint32_t>(m_jobs.size());
    }

    /**
     * \brief A flow of job id begins (add) or ends on link l.
     * \param l link
     * \param id the job's id
     * \param add begins
     * \return the id of the job whose flow had l alone before (add: 1 -> 2) or has it alone now
     *         (remove: 2 -> 1); 0 if the count did not cross 1 <-> 2
     */
    uint32_t Count(uint32_t l, uint32_t id, bool add)
    {
        m_xor[l] ^= id;
        m_count[l] += add ? 1 : -1;
        if (m_count[l] == (add ? 2 : 1))
        {
            return m_xor[l] ^ (add ? id : 0);
        }
        return 0;
    }

    /**
     * \param l link
     * \return whether two or more active flows (of any jobs) cross it
     */
    bool IsShared(uint32_t l) const
    {
        return m_count[l] >= 2;
    }

    /**
     * \param id a job's id
     * \return its engine
     */
    SharedJob* GetJob(uint32_t id) const
    {
        return m_jobs[id - 1];
    }

  private:
    std::vector<uint32_t> m_count;  //!< per link: active flows of all jobs
    std::vector<uint32_t> m_xor;    //!< per link: XOR of their jobs' ids (the job, if alone)
    std::vector<SharedJob*> m_jobs; //!< by id - 1
};

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
     * \param links plain max-min with aggregation: every job's flows per link (else null)
     * \param id this job's id in links
     */
    virtual void BeginShared(double startTime,
                             uint64_t* prioritySeq,
                             SharedLinks* links,
                             uint32_t id)
        = 0;
    /** \return the time of the next pending event, infinity if none */
    virtual double NextEventTime() const = 0;
    /// Handle the next pending event.
    virtual void HandleNext() = 0;
    /** \param now the shared clock (s) */
    virtual void SetNow(double now) = 0;
    /** \return true when the job's active flows changed since its last CollectFlows */
    virtual bool IsDirty() const = 0;
    /**
     * \brief Append the job's active flows, or aggregates of identical ones, for the sharing
     * model (the job counts them).
     * \param flows where to append (an aggregate's cap is its members' sum)
     * \param weights where to append each one's flows (1 for a single flow)
     */
    virtual void CollectFlows(std::vector<SharingModel::Flow>& flows, std::vector<double>& weights)
        = 0;
    /**
     * \brief Take the rates of the flows CollectFlows appended, in its order.
     * \param rates their rates (bytes/s; an aggregate's is its members' sum)
     */
    virtual void ApplyRates(const double* rates) = 0;
    /**
     * \brief Another job's flow began or ended on link l, which this job's connection had, or
     * now has, alone: re-key that connection (SharedLinks).
     * \param l link
     * \param now the shared clock (s)
     */
    virtual void RekeyLink(uint32_t l, double now) = 0;
};

/// SharedJob over an engine that has the calls (FlowPsEngine, FlowRingEngine: their
/// BeginShared, CollectShared, ApplyShared and RekeyLink).
template<class Engine>
class SharedJobOf : public SharedJob
{
  public:
    /** \param engine the engine (outlives this adapter) */
    explicit SharedJobOf(Engine& engine)
        : m_engine(engine)
    {
    }

    void BeginShared(double startTime,
                     uint64_t* prioritySeq,
                     SharedLinks* links,
                     uint32_t id) override
    {
        m_engine.BeginShared(startTime, prioritySeq, links, id);
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

    void CollectFlows(std::vector<SharingModel::Flow>& flows, std::vector<double>& weights) override
    {
        m_engine.CollectShared(flows, weights);
    }

    void ApplyRates(const double* rates) override
    {
        m_engine.ApplyShared(rates);
    }

    void RekeyLink(uint32_t l, double now) override
    {
        m_engine.RekeyLink(l, now);
    }

  private:
    Engine& m_engine; //!< the engine
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_SHARED_JOB_H */

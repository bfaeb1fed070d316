/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// FlowLevelSimulator::RunJobs: several jobs on one fabric, one clock and one rate computation
// (issue 16): parameter servers' connections and rings' transfers (flow-ring-shared.cc). The
// single-job run is in flow-level-simulator.cc.

#include "flow-event-core.h"
#include "flow-level-simulator.h"
#include "flow-ps-engine.h"
#include "flow-rate-solver.h"
#include "flow-ring-engine.h"
#include "flow-shared-job.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/training-input-error.h"
#include "ns3/training-profile.h"
#include "ns3/training-scenario.h"

#include <limits>
#include <memory>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowJobSimulator");

namespace
{

/// The jobs' engines on one clock: events in time order across jobs, rates computed together.
class SharedRun
{
  public:
    /**
     * \param sharing the sharing model
     * \param capacity capacity of every directed link of the shared fabric (bytes/s)
     * \param aggregate the jobs' connections aggregate into rate classes (plain max-min, one
     *        server per job): the engines count every job's flows per link (SharedLinks)
     */
    SharedRun(const SharingModel& sharing, const std::vector<double>& capacity, bool aggregate)
        : m_sharing(sharing),
          m_capacity(capacity)
    {
        if (aggregate)
        {
            m_links = std::make_unique<flow::SharedLinks>(capacity.size());
        }
    }

    /**
     * \param engine a job's engine (not begun)
     * \param start when the job begins
     */
    void Add(flow::SharedJob* engine, double start)
    {
        m_engines.push_back(engine);
        m_start.push_back(start);
        m_started.push_back(false);
        m_ids.push_back(m_links ? m_links->AddJob(engine) : 0);
    }

    /// Run every job to its end.
    void Run()
    {
        while (true)
        {
            const auto [t, j, start] = Next();
            if (t == flow::INF)
            {
                break;
            }
            m_now = t;
            if (start)
            {
                m_engines[j]->BeginShared(t, &m_prioritySeq, m_links.get(), m_ids[j]);
                m_started[j] = true;
            }
            else
            {
                m_engines[j]->HandleNext();
            }
            // Rates matter only once time moves on: batch all changes of one instant.
            if (std::get<0>(Next()) > m_now && AnyDirty())
            {
                Share();
            }
        }
    }

  private:
    /// \return (time, job, is a start) of the next thing to do: earliest first, then starts
    /// before events (jobs that start together are shared from their first instant), then
    /// the lowest job index
    std::tuple<double, std::size_t, bool> Next() const
    {
        std::tuple<double, bool, std::size_t> best{flow::INF, true, 0};
        for (std::size_t j = 0; j < m_engines.size(); ++j)
        {
            const double t = m_started[j] ? m_engines[j]->NextEventTime() : m_start[j];
            best = std::min(best, std::tuple<double, bool, std::size_t>{t, m_started[j], j});
        }
        return {std::get<0>(best), std::get<2>(best), !std::get<1>(best)};
    }

    /// \return true when some started job's active set changed
    bool AnyDirty() const
    {
        for (std::size_t j = 0; j < m_engines.size(); ++j)
        {
            if (m_started[j] && m_engines[j]->IsDirty())
            {
                return true;
            }
        }
        return false;
    }

    /// One rate computation over the active connections of every started job.
    void Share()
    {
        m_flows.clear();
        m_weights.clear();
        m_counts.clear();
        for (std::size_t j = 0; j < m_engines.size(); ++j)
        {
            if (m_started[j])
            {
                const std::size_t before = m_flows.size();
                m_engines[j]->SetNow(m_now);
                m_engines[j]->CollectFlows(m_flows, m_weights);
                m_counts.push_back(m_flows.size() - before);
            }
        }
        if (m_links)
        {
            m_sharing.AssignAggregateRates(m_flows, m_weights, m_capacity, m_rates);
        }
        else
        {
            m_sharing.AssignRates(m_flows, m_capacity, m_rates);
        }
        const double* rates = m_rates.data();
        std::size_t c = 0;
        for (std::size_t j = 0; j < m_engines.size(); ++j)
        {
            if (m_started[j])
            {
                m_engines[j]->ApplyRates(rates);
                rates += m_counts[c++];
            }
        }
    }

    const SharingModel& m_sharing;              //!< the sharing model
    const std::vector<double>& m_capacity;      //!< per directed link (bytes/s)
    std::vector<flow::SharedJob*> m_engines;    //!< per job
    std::vector<double> m_start;                //!< per job: start time
    std::vector<bool> m_started;                //!< per job: begun
    double m_now{0};                            //!< the shared clock
    uint64_t m_prioritySeq{0};                  //!< activations of all jobs (FCFS order)
    std::vector<SharingModel::Flow> m_flows;    //!< scratch: every job's active connections
    std::vector<std::size_t> m_counts;          //!< scratch: flows per started job
    std::vector<double> m_weights;              //!< scratch: their weights (aggregates)
    std::vector<double> m_rates;                //!< scratch: their rates
    std::unique_ptr<flow::SharedLinks> m_links; //!< aggregation: every job's flows per link
    std::vector<uint32_t> m_ids;                //!< per job: its id in m_links
};

} // namespace

namespace
{

/**
 * \param jobs the jobs
 * \param sharing the model
 * \param options run options
 * \return whether their connections can aggregate into rate classes as in the single-job
 *         engine: a plain max-min model without the window model (its caps are per connection),
 *         and one server per parameter-server job (several servers aggregate through bundles
 *         of virtual links, which are per job)
 */
bool
CanAggregate(const std::vector<FlowLevelSimulator::Job>& jobs,
             const SharingModel& sharing,
             const FlowLevelSimulator::Options& options)
{
    if (options.windowBytes > 0
        || flow::SolverChoice::Of(sharing).rule != flow::SolverChoice::MAX_MIN)
    {
        return false;
    }
    for (const auto& job : jobs)
    {
        if (job.scenario->architecture == TrainingScenario::PARAMETER_SERVER
            && job.scenario->servers > 1)
        {
            return false;
        }
    }
    return true;
}

/// One job's engine in the shared run: a parameter server's or a ring's, and its SharedJob.
struct JobEngine
{
    std::unique_ptr<flow::FlowPsEngine> ps;     //!< parameter server
    std::unique_ptr<flow::FlowRingEngine> ring; //!< ring AllReduce
    std::unique_ptr<flow::SharedJob> shared;    //!< what the shared run drives

    /// \param in the job's inputs
    explicit JobEngine(const flow::EngineInputs& in)
    {
        if (in.scenario.architecture == TrainingScenario::PARAMETER_SERVER)
        {
            ps = std::make_unique<flow::FlowPsEngine>(in);
            shared = std::make_unique<flow::SharedJobOf<flow::FlowPsEngine>>(*ps);
        }
        else
        {
            ring = std::make_unique<flow::FlowRingEngine>(in);
            shared = std::make_unique<flow::SharedJobOf<flow::FlowRingEngine>>(*ring);
        }
    }

    /// \return bytes each directed link carried inside the job's window
    std::vector<double> GetLinkBytes() const
    {
        if (ring)
        {
            return ring->linkBytes;
        }
        std::vector<double> bytes = ps->GetLinkBytes(flow::DOWN);
        const std::vector<double> up = ps->GetLinkBytes(flow::UP);
        for (std::size_t l = 0; l < bytes.size(); ++l)
        {
            bytes[l] += up[l];
        }
        return bytes;
    }
};

/**
 * \param engines the jobs' engines after the shared run
 * \param sharing the model
 * \throws TrainingInputError when a ring stopped before its last step: nothing was left to
 *         change its rate, so the model gave its transfer none (its hops waited on each other)
 */
void
CheckRingsDone(const std::vector<std::unique_ptr<JobEngine>>& engines, const SharingModel& sharing)
{
    for (const auto& engine : engines)
    {
        if (engine->ring && !engine->ring->IsDone())
        {
            throw TrainingInputError("--jobs: the " + sharing.GetName()
                                     + " sharing model gave a ring job's transfer no rate while "
                                       "no other flow could end (expected a model that gives "
                                       "every flow a share, e.g. ps, or fcfs)");
        }
    }
}

} // namespace

std::vector<TrainingResult>
FlowLevelSimulator::RunJobs(const std::vector<Job>& jobs,
                            Ptr<const SharingModel> sharing,
                            const Options& options)
{
    NS_LOG_FUNCTION(jobs.size());
    auto wallStart = std::chrono::steady_clock::now();
    const std::size_t n = jobs.size();
    std::vector<TrainingResult> results;
    for (std::size_t j = 0; j < n; ++j)
    {
        results.emplace_back(options.records); // each takes its own run number
    }
    std::vector<std::unique_ptr<FlowLevelSimulator>> sims;
    std::vector<std::unique_ptr<flow::FlowFabric>> fabrics;
    std::vector<std::unique_ptr<JobEngine>> engines;
    for (std::size_t j = 0; j < n; ++j)
    {
        const Job& job = jobs[j];
        sims.push_back(
            std::make_unique<FlowLevelSimulator>(*job.profile, *job.scenario, sharing, options));
        NS_ABORT_MSG_UNLESS(job.fabric && job.fabric == jobs[0].fabric,
                            "RunJobs: every job needs the one shared fabric");
        fabrics.push_back(std::make_unique<flow::FlowFabric>(*job.scenario,
                                                             options.useGoodput,
                                                             *job.fabric,
                                                             job.hosts));
        results[j].backend = "flow";
        results[j].variant = sharing->GetName();
        const flow::EngineInputs in{*job.profile,
                                    *job.scenario,
                                    *sharing,
                                    sims[j]->m_options,
                                    *fabrics[j],
                                    sims[j]->GetFlowCap(),
                                    results[j]};
        engines.push_back(std::make_unique<JobEngine>(in));
    }
    SharedRun run(*sharing, fabrics[0]->GetCapacity(), CanAggregate(jobs, *sharing, options));
    for (std::size_t j = 0; j < n; ++j)
    {
        run.Add(engines[j]->shared.get(), jobs[j].startTime);
    }
    run.Run();
    CheckRingsDone(engines, *sharing);
    for (std::size_t j = 0; j < n; ++j)
    {
        FlowLevelSimulator& sim = *sims[j];
        const JobEngine& engine = *engines[j];
        if (engine.ps)
        {
            sim.m_events = engine.ps->events;
            sim.m_rateComputations = engine.ps->rateComputations;
            sim.m_sharingFlows = engine.ps->sharingFlows;
            sim.m_classWork = engine.ps->GetClassWork();
        }
        else
        {
            sim.m_events = engine.ring->events;
            sim.m_rateComputations = engine.ring->rateComputations;
            sim.m_sharingFlows = engine.ring->sharingFlows;
            results[j].inputs["ring_rate_bytes_per_s"] = engine.ring->ringRate;
        }
        sim.Finish(results[j], *fabrics[j], engine.GetLinkBytes(), wallStart);
    }
    return results;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PACKET_BACKEND_H
#define PACKET_BACKEND_H

#include "training-backend.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/training-profile.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <vector>

namespace ns3
{

class TrainingClusterHelper;

/**
 * \ingroup distributed-training
 * \brief The packet-level backend: runs a scenario as an ns-3 simulation (TrainingClusterHelper,
 * ParameterServerApplication and TrainingWorkerApplication, or RingAllReduceApplication with
 * --arch=ring, over real TCP) and returns its result.
 *
 * Each call builds a fresh simulation, runs it until every worker has finished its steps, fills a
 * TrainingResult (per-step and per-transfer records from the applications' trace sources, link
 * utilisation from the devices' PhyTxEnd traces over the measurement window, the busiest link as
 * bottleneck) and destroys the simulation, so several runs can happen in one process.
 */
class PacketBackend : public TrainingBackend
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PacketBackend();
    ~PacketBackend() override;

    /**
     * \brief Simulate the scenario.
     * \param profile the DNN
     * \param scenario the scenario (validated here)
     * \return one result (backend "packet", variant the TCP variant)
     * \throws TrainingInputError for an invalid or unsupported scenario
     */
    std::vector<TrainingResult> Run(const TrainingProfile& profile,
                                    const TrainingScenario& scenario) const override;

    /**
     * \brief Several jobs in one simulation: every job's applications on its hosts of the one
     * fabric (TrainingClusterHelper::ConfigureJobs / InstallJob), started at its start time;
     * per-job results (with the TCP counters of its own sockets: retransmissions, RTO
     * expiries, fast recoveries) and per-link bytes, drops and ECN marks.
     * \param set the jobs
     * \return one result
     */
    std::vector<JobSetResult> RunJobs(const TrainingJobSet& set) const override;

    /**
     * \brief The TCP segments the run carries (every worker's bytes of every step, PS pushes and
     * pulls or the collective's sends, over MTU - 52 bytes of payload) times CpuPerSegment; twice
     * that on a fabric other than the star, whose paths cross about twice the links.
     * \param profile the DNN
     * \param scenario the scenario
     * \return CPU seconds
     */
    double EstimateCpuSeconds(const TrainingProfile& profile,
                              const TrainingScenario& scenario) const override;

    /**
     * \brief Dilation from the options, when given.
     * \param settings the backend options
     */
    void Configure(const BackendSettings& settings) override;

  private:
    /**
     * \brief Refuse Dilation != 1 outside what the linux backend runs (one job on a star, no
     * cross traffic), whose twin a dilated packet run is.
     * \param scenario the scenario
     * \throws TrainingInputError otherwise
     */
    void CheckDilation(const TrainingScenario& scenario) const;

    /**
     * \brief Build the cluster, install the job, simulate and fill the result.
     * \param profile the DNN
     * \param scenario the validated scenario
     * \param cluster the cluster helper, configured from the scenario
     * \param result the result to fill
     */
    void RunCluster(const TrainingProfile& profile,
                    const TrainingScenario& scenario,
                    Ptr<TrainingClusterHelper> cluster,
                    TrainingResult& result) const;

    Time m_maxSimTime;    //!< stop the simulation at this time (0: no limit)
    int64_t m_streamBase; //!< first random stream index
    double m_dilation;    //!< time dilation D (1: none)
    Time m_cpuPerSegment; //!< CPU time per simulated segment on the star (the estimate)
};

} // namespace ns3

#endif /* PACKET_BACKEND_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_BACKEND_H
#define FLOW_BACKEND_H

#include "training-backend.h"

#include "ns3/flow-level-simulator.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/training-profile.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The flow-level backend (`--backend=flow`): runs a scenario through FlowLevelSimulator
 * with the sharing model chosen by the "Sharing" attribute and returns its result.
 *
 * - fcfs, ps, capped, allreduce: one run, one result (variant = the model's name).
 * - hybrid (000_466ded720105ddf3.txt Sec. 3.2.1): one run with fcfs and one with ps; the first
 *   result (variant "hybrid") has the mean of their throughputs and of their step times; the two
 *   runs follow as results of their own (variants "fcfs" and "ps") unless HybridParts is false.
 * - Ring scenarios always use AllReduceSharing (000 Sec. 3.2.2); a note says so when another
 *   model was asked for.
 * - A sharing model that is not in the list (any SharingModel subclass) is plugged in through the
 *   "SharingModel" attribute, which then replaces "Sharing" for parameter-server scenarios.
 *
 * Link capacity B: by default the TCP goodput of a NIC (TrainingScenario's payload/wire ratio,
 * 1448/1502 at MTU 1500) so that flow-level times compare with packet-level TCP; UseGoodput=false
 * uses the raw NIC rate, as the seeds' closed forms do.
 */
class FlowBackend : public TrainingBackend
{
  public:
    /// The sharing models the backend knows.
    enum Sharing
    {
        FCFS,       //!< FcfsSharing
        PS,         //!< PsSharing
        CAPPED,     //!< CappedSharing
        HYBRID,     //!< mean of an FCFS and a PS run
        ALLREDUCE,  //!< AllReduceSharing
        CALIBRATED, //!< CalibratedSharing
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FlowBackend();
    ~FlowBackend() override;

    /**
     * \brief Parse a --sharing value.
     * \param value "fcfs", "ps", "capped", "hybrid", "calibrated" or "allreduce"
     * \return the model
     * \throws TrainingInputError "--sharing: unknown value 'x' (expected fcfs, ps, capped,
     *         hybrid, calibrated)"
     */
    static Sharing ParseSharing(const std::string& value);

    /**
     * \param sharing a model
     * \return its name, as accepted by ParseSharing()
     */
    static std::string GetSharingName(Sharing sharing);

    /**
     * \param profile the DNN
     * \param scenario the scenario (valid)
     * \return why a collective other than the ring cannot run here (not modelled at the flow
     *         level yet), else ""
     */
    std::string GetUnsupportedReason(const TrainingProfile& profile,
                                     const TrainingScenario& scenario) const override;

    /**
     * \brief Simulate the scenario.
     * \param profile the DNN
     * \param scenario the scenario (validated here against the profile)
     * \return the results: one, or three for hybrid (see the class description)
     * \throws TrainingInputError for an invalid profile or scenario
     */
    std::vector<TrainingResult> Run(const TrainingProfile& profile,
                                    const TrainingScenario& scenario) const override;

    /**
     * \brief Every sharing model side by side (--backend=all): fcfs, ps, capped, hybrid and
     * calibrated without the window model, then ps with it; ring scenarios: allreduce.
     * \param profile the DNN
     * \param scenario the scenario
     * \return the results
     */
    std::vector<TrainingResult> RunComparison(const TrainingProfile& profile,
                                              const TrainingScenario& scenario) const override;

    /**
     * \brief Sharing, WindowModel and RecordTransfers from the options, and the calibrated
     * model's parameters when given (set on each CalibratedSharing this backend creates).
     * \param settings the backend options
     */
    void Configure(const BackendSettings& settings) override;

  protected:
    void DoDispose() override;

    /**
     * \brief Several jobs: the parameter-server jobs, and every ring that crosses a link another
     * job uses, in one shared run (FlowLevelSimulator::RunJobs: one clock, one rate computation
     * of the Sharing model over every job's active flows; a ring moves at its slowest flow's
     * rate); a ring on links of its own on its own engine (closed-form steps, exact there).
     * Hybrid: the fcfs and the ps shared runs and, per job, their mean (as for one job);
     * WindowModel: each parameter server's connections capped by the single-job rule.
     * \param set the jobs
     * \return one result (the Sharing attribute's variant), or three for hybrid
     * \throws TrainingInputError for --windowModel with fcfs or hybrid sharing
     */
    std::vector<JobSetResult> RunJobs(const TrainingJobSet& set) const override;

  private:
    /**
     * \param set the jobs
     * \param sharing a single model (not HYBRID)
     * \return per job, its result at the shared clock's times (RunJobs)
     */
    std::vector<TrainingResult> RunJobResults(const TrainingJobSet& set, Sharing sharing) const;

    /**
     * \param set the jobs
     * \param sharing a single model (not HYBRID)
     * \return the set's result with that model: jobs, fabric links, window
     */
    JobSetResult RunJobSet(const TrainingJobSet& set, Sharing sharing) const;

    /**
     * \param parameterServer the run has parameter-server jobs
     * \throws TrainingInputError for the window model with fcfs or hybrid sharing (the window
     *         limit is a per-flow cap, which fcfs ignores)
     */
    void CheckWindowSharing(bool parameterServer) const;

    /**
     * \param fcfs a run with fcfs sharing
     * \param ps the same with ps sharing
     * \return the hybrid result (000 Sec. 3.2.1): the mean of their throughputs and step times
     */
    static TrainingResult MakeHybrid(const TrainingResult& fcfs, const TrainingResult& ps);

    /**
     * \brief The window model's variant name and inputs.
     * \param sharing the model asked for
     * \param options the run's options (window, round trip, buffers)
     * \param result the result to complete
     */
    static void AddWindowInputs(Sharing sharing,
                                const FlowLevelSimulator::Options& options,
                                TrainingResult& result);

    /**
     * \param scenario the scenario (the window model takes its socket buffer, round trip and
     *        buffers from it, as TrainingClusterHelper would build them)
     * \return the simulator options given by the attributes
     */
    FlowLevelSimulator::Options MakeOptions(const TrainingScenario& scenario) const;

    /**
     * \brief Put the parameters of a parameterised sharing model (CalibratedSharing) into the
     * result's inputs.
     * \param model the model that produced the result
     * \param result the result
     */
    static void RecordModelParameters(Ptr<const SharingModel> model, TrainingResult& result);

    /**
     * \param sharing a single model (not HYBRID)
     * \return a new instance of it
     */
    static Ptr<SharingModel> CreateSharing(Sharing sharing);

    /**
     * \brief Give a model this backend created the parameters of the options (Configure).
     * \param model the model
     */
    void ConfigureModel(Ptr<SharingModel> model) const;

    /**
     * \brief One simulation with one model.
     * \param profile the DNN
     * \param scenario the scenario
     * \param sharing a single model (not HYBRID)
     * \return its result
     */
    TrainingResult RunOne(const TrainingProfile& profile,
                          const TrainingScenario& scenario,
                          Sharing sharing) const;

    Sharing m_sharing;                       //!< the sharing model
    Ptr<SharingModel> m_customSharing;       //!< replaces m_sharing in PS scenarios when set
    bool m_useGoodput;                       //!< B = TCP goodput of the NIC (else the raw NIC rate)
    bool m_recordTransfers;                  //!< keep one record per tensor transfer
    bool m_hybridParts;                      //!< hybrid: also return the fcfs and ps runs
    double m_parsingPerByte;                 //!< alpha of 001 Sec. 3.2.1 (seconds per byte)
    Time m_parsingPerTensor;                 //!< beta of 001 Sec. 3.2.1
    bool m_windowModel;                      //!< limit connections by window / round trip
    std::optional<double> m_incumbentWeight; //!< --incumbentWeight for CalibratedSharing
    std::optional<Time> m_cohortWindow;      //!< --cohortWindow for CalibratedSharing
};

} // namespace ns3

#endif /* FLOW_BACKEND_H */

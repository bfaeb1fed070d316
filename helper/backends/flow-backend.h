/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_BACKEND_H
#define FLOW_BACKEND_H

#include "training-backend.h"

#include "ns3/flow-level-simulator.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/sharing-model-registry.h"
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
 * with the sharing model chosen by the "Sharing" attribute (a name in SharingModelRegistry) and
 * returns its result.
 *
 * - A single model (fcfs, ps, capped, calibrated, allreduce): one run, one result (variant = the
 *   model's name).
 * - A composite, hybrid (000_466ded720105ddf3.txt Sec. 3.2.1), registered here: one run with each
 *   of its two models (fcfs, ps); the first result (variant "hybrid") has the mean of their
 *   throughputs and of their step times; the two runs follow as results of their own (variants
 *   "fcfs" and "ps") unless HybridParts is false.
 * - Ring scenarios with the ring collective always use the registry's RING model,
 *   AllReduceSharing (000 Sec. 3.2.2: each NIC direction carries one ring flow); a note says so
 *   when another model was asked for. The other collectives (halving-doubling, tree) put several
 *   flows on one NIC at once and use the chosen model as parameter servers do.
 * - A sharing model that is registered by no name (any SharingModel subclass) is plugged in
 *   through the "SharingModel" attribute, which then replaces "Sharing" for parameter-server
 *   scenarios and the collectives other than the ring; a registered one (DT_REGISTER_SHARING) is
 *   chosen by name like the others.
 *
 * Link capacity B: by default the TCP goodput of a NIC (TrainingScenario's payload/wire ratio,
 * 1448/1502 at MTU 1500) so that flow-level times compare with packet-level TCP; UseGoodput=false
 * uses the raw NIC rate, as the seeds' closed forms do.
 */
class FlowBackend : public TrainingBackend
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FlowBackend();
    ~FlowBackend() override;

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
     * \brief Every sharing model side by side (--backend=all): the registry's IN_ALL models
     * (fcfs, ps, capped, hybrid, calibrated) without the window model, then the default model
     * (ps) with it; ring scenarios: the RING model (allreduce).
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
     * \param sharing a single model's name (not a composite)
     * \return per job, its result at the shared clock's times (RunJobs)
     */
    std::vector<TrainingResult> RunJobResults(const TrainingJobSet& set,
                                              const std::string& sharing) const;

    /**
     * \param set the jobs
     * \param sharing a single model's name (not a composite)
     * \return the set's result with that model: jobs, fabric links, window
     */
    JobSetResult RunJobSet(const TrainingJobSet& set, const std::string& sharing) const;

    /**
     * \param set the jobs
     * \param composite a composite model's entry (hybrid)
     * \return its result, then (HybridParts) its two models' shared runs
     */
    std::vector<JobSetResult> RunJobSetMean(const TrainingJobSet& set,
                                            const SharingModelRegistry::Entry& composite) const;

    /**
     * \param parameterServer the run has parameter-server jobs
     * \throws TrainingInputError for the window model with a model that ignores per-flow caps
     *         and has no capped form (fcfs, hybrid): the window limit is a per-flow cap
     */
    void CheckWindowSharing(bool parameterServer) const;

    /**
     * \param composite the composite's entry (hybrid)
     * \param first a run with its first model (fcfs)
     * \param second the same with its second model (ps)
     * \return the composite's result (000 Sec. 3.2.1): the mean of their throughputs and step
     *         times
     */
    static TrainingResult MakeMean(const SharingModelRegistry::Entry& composite,
                                   const TrainingResult& first,
                                   const TrainingResult& second);

    /**
     * \brief The window model's variant name and inputs.
     * \param sharing the name of the model asked for
     * \param options the run's options (window, round trip, buffers)
     * \param result the result to complete
     */
    static void AddWindowInputs(const std::string& sharing,
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
     * \param sharing a single model's name
     * \param window whether per-flow caps must hold (the window model)
     * \return the model that runs: sharing, or its capped form when it ignores caps
     */
    static std::string GetModelToRun(const std::string& sharing, bool window);

    /**
     * \brief Give a model this backend created the parameters of the options (Configure).
     * \param model the model
     */
    void ConfigureModel(Ptr<SharingModel> model) const;

    /**
     * \brief One simulation with one model.
     * \param profile the DNN
     * \param scenario the scenario
     * \param sharing a single model's name (not a composite)
     * \return its result
     */
    TrainingResult RunOne(const TrainingProfile& profile,
                          const TrainingScenario& scenario,
                          const std::string& sharing) const;

    std::string m_sharing;                   //!< the sharing model's registered name
    Ptr<SharingModel> m_customSharing;       //!< replaces m_sharing in PS scenarios when set
    bool m_useGoodput;                       //!< B = TCP goodput of the NIC (else the raw NIC rate)
    bool m_recordTransfers;                  //!< keep one record per tensor transfer
    bool m_hybridParts;                      //!< hybrid: also return the fcfs and ps runs
    double m_parsingPerByte;                 //!< alpha of 001 Sec. 3.2.1 (seconds per byte)
    Time m_parsingPerTensor;                 //!< beta of 001 Sec. 3.2.1
    bool m_windowModel;                      //!< limit connections by window / round trip
    bool m_sharingGiven{false};              //!< --sharing was chosen (Configure)
    std::optional<double> m_incumbentWeight; //!< --incumbentWeight for CalibratedSharing
    std::optional<Time> m_cohortWindow;      //!< --cohortWindow for CalibratedSharing
};

} // namespace ns3

#endif /* FLOW_BACKEND_H */

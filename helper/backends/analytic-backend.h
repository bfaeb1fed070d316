/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ANALYTIC_BACKEND_H
#define ANALYTIC_BACKEND_H

#include "training-backend.h"

#include "ns3/nstime.h"
#include "ns3/osf-model.h"
#include "ns3/traced-callback.h"
#include "ns3/training-result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class TrainingProfile;
class TrainingScenario;
struct AnalyticInputs;

/**
 * \ingroup distributed-training
 * \brief The analytical backend (--backend=analytic): every closed form and queueing model of
 * the seeds that applies to a scenario, evaluated in microseconds, one TrainingResult each.
 *
 * Run() derives the models' inputs from the profile's per-layer means and the scenario, and
 * returns (backend "analytic"):
 *
 * | architecture / mode | variants (model file, seed equations) |
 * |---|---|
 * | ps, async | mva-fcfs, mva-ps, mva-hybrid, mva-hybrid-overlap (AsyncPsModel, 000 Eq. (1)-(6));
 * cynthia, cynthia-halved (CynthiaModel, 001 Sec. 1 and 4.4) | | ps, sync | sync-eq7, sync-eq8,
 * sync-eq9, sync-eq10 (SyncPsModel, 000 Eq. (7)-(10)); ps-read-worst, ps-read-best
 * (PsReadBoundsModel, 002 Eq. (10)-(11)) | | ring, sync | ring-eq11 (RingAllReduceModel, 000 Eq.
 * (11)); stash (003 Sec. 6.2); csf, osf, osf-fusion (when a bucket size or timeout is set),
 * osf-adafusion (OsfModel, 004 Eq. (2)-(18)) |
 *
 * Every result lists the derived inputs (M, B, T_F, T_B, T_S, K, rho, ...) in
 * TrainingResult::inputs, "assumes_overlap" (1 if the variant models overlapped communication)
 * and "recommended" (1 for the variant the seeds recommend for this scenario's overlap
 * setting: mva-hybrid(-overlap), sync-eq9/10, ring-eq11 or osf(-fusion)).
 *
 * Bandwidth: B is TrainingNetwork::GetGoodputBytesPerSecond(scenario), the TCP payload rate of one
 * flow (which includes a per-flow cap); B_link is the same without the cap. Without a cap and with
 * one server, every model is its seed's equation with that B. Times are the sums of the profile's
 * per-layer means (T_F, T_B; T_S of the busiest server), scaled per worker by
 * scenario.GetComputeScale(w). Multi-GPU nodes add an intra-node reduction and broadcast,
 * modelled as a ring AllReduce of M over the G GPUs: 2(G-1)/G M/B_intra + 2(G-1) latency, and
 * process G batches per step. See doc/reference/backend-analytic.rst for each model's assumptions.
 */
class AnalyticBackend : public TrainingBackend
{
  public:
    /// How the async PS queueing network is solved.
    enum MvaMethod
    {
        MVA_AUTO,        //!< exact up to 2^ExactMvaMaxWorkers populations, else approximate
        MVA_EXACT,       //!< always exact (an error if the lattice is too large)
        MVA_APPROXIMATE, //!< always Schweitzer-Bard
    };

    /// Which formula gives the AllReduce time of a tensor in the OSF models.
    enum TransferModel
    {
        TRANSFER_LINEAR,    //!< 004 Eq. (7)
        TRANSFER_PIECEWISE, //!< 004 Eq. (18)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    AnalyticBackend();
    ~AnalyticBackend() override;

    /**
     * \brief Evaluate every model that applies to the scenario.
     * \param profile the DNN (per-layer means are used)
     * \param scenario the cluster and architecture
     * \return one result per model variant
     * \throws TrainingInputError on an invalid profile or scenario (e.g. 0 workers, zero
     *         bandwidth), naming the option and what was expected
     */
    std::vector<TrainingResult> Run(const TrainingProfile& profile,
                                    const TrainingScenario& scenario) const override;

    /**
     * \param set several jobs
     * \return never
     * \throws TrainingInputError always: the closed forms are of one job and one bottleneck
     */
    std::vector<JobSetResult> RunJobs(const TrainingJobSet& set) const override;

    /**
     * \return why a fabric (--topology other than star) is not for the closed forms, else ""
     *         (--backend=all then skips this backend on fabrics with that note)
     */
    std::string GetUnsupportedReason(const TrainingProfile& profile,
                                     const TrainingScenario& scenario) const override;

    /**
     * \brief Set an attribute from text, reporting a rejected value as TrainingInputError
     * (SetAttribute() would abort the program instead).
     * \param name attribute name, e.g. "RhoThreshold"
     * \param value its value as text, e.g. "0.5"
     * \throws TrainingInputError naming the attribute and the accepted values
     */
    void SetAttributeChecked(const std::string& name, const std::string& value);

    /**
     * \brief RhoThreshold from the options, when given.
     * \param settings the backend options
     */
    void Configure(const BackendSettings& settings) override;

    /**
     * TracedCallback signature for a model's result.
     * \param [in] result the result of one variant
     */
    typedef void (*ResultTracedCallback)(const TrainingResult& result);

  protected:
    void DoDispose() override;

  private:
    /**
     * \param tid the TypeId being built
     * \return it with the attributes of the OSF ring models (004 Eqs. (7), (18))
     */
    static TypeId AddOsfAttributes(TypeId tid);

    /// One family of closed forms: when it applies, and what it evaluates.
    struct Evaluator
    {
        const char* models; //!< the seed models it evaluates, for readers
        bool (*applies)(const TrainingScenario& scenario); //!< architecture and mode it fits
        /// Evaluate every variant of the family.
        std::vector<TrainingResult> (AnalyticBackend::*run)(const AnalyticInputs& in,
                                                            const TrainingScenario& s) const;
    };

    /// \return the evaluators, in the order their results are listed
    static const std::vector<Evaluator>& GetEvaluators();

    /**
     * \brief Async PS, 000 Eq. (1)-(6): exact or approximate MVA with FCFS or PS links, the
     * hybrid choice by rho_T and the overlap correction.
     * \param in the models' inputs
     * \param s the scenario
     *
eturn mva-fcfs, mva-ps, mva-hybrid, mva-hybrid-overlap
     */
    std::vector<TrainingResult> RunAsyncMva(const AnalyticInputs& in,
                                            const TrainingScenario& s) const;

    /**
     * \brief Async PS baseline of 001 Sec. 1 (Cynthia), with and without T_C halved (Sec. 4.4).
     * \param in the models' inputs
     * \param s the scenario
     *
eturn cynthia, cynthia-halved
     */
    std::vector<TrainingResult> RunCynthia(const AnalyticInputs& in,
                                           const TrainingScenario& s) const;

    /**
     * \brief Sync PS, 000 Eq. (7)-(10).
     * \param in the models' inputs
     * \param s the scenario
     *
eturn sync-eq7 .. sync-eq10
     */
    std::vector<TrainingResult> RunSyncPs(const AnalyticInputs& in,
                                          const TrainingScenario& s) const;

    /**
     * \brief Sync PS with servers co-located with the workers (ColocatedPsModel: 000 Eq. (7)
     * with each host's NIC carrying both roles).
     * \param in the models' inputs
     * \param s the scenario
     * \return sync-colocated
     */
    std::vector<TrainingResult> RunColocatedPs(const AnalyticInputs& in,
                                               const TrainingScenario& s) const;

    /**
     * \brief Sync PS with 002's read-time bounds, Eq. (10)-(11), as the downlink of Eq. (9).
     * \param in the models' inputs
     * \param s the scenario
     *
eturn ps-read-worst, ps-read-best
     */
    std::vector<TrainingResult> RunReadBounds(const AnalyticInputs& in,
                                              const TrainingScenario& s) const;

    /**
     * \brief Ring AllReduce, 000 Eq. (11) and 003's idealised scaling (STASH).
     * \param in the models' inputs
     * \param s the scenario
     *
eturn ring-eq11, stash
     */
    std::vector<TrainingResult> RunRingClosedForms(const AnalyticInputs& in,
                                                   const TrainingScenario& s) const;

    /**
     * \brief AllReduce with --collective=halving-doubling or tree: CollectiveCostModel's
     * alpha-beta time of each fused bucket, the buckets one after another after the backward
     * pass (alpha: the hop latency, beta: 1 / B, gamma: 1 / ReductionRate).
     * \param in the models' inputs
     * \param s the scenario
     * \return allreduce-halving-doubling or allreduce-tree
     */
    std::vector<TrainingResult> RunCollective(const AnalyticInputs& in,
                                              const TrainingScenario& s) const;

    /**
     * \brief Ring AllReduce with overlap and tensor fusion, 004 Eq. (3)-(18).
     * \param in the models' inputs
     * \param s the scenario
     *
eturn csf, osf, osf-fusion (with a fusion buffer or timeout), osf-adafusion
     */
    std::vector<TrainingResult> RunOsf(const AnalyticInputs& in, const TrainingScenario& s) const;

    /**
     * \param in the models' inputs
     * \param s the scenario
     * \return OSF's parameters: the attributes' overhead and transfer model, the inputs' layers
     */
    OsfModel::Params MakeOsfParams(const AnalyticInputs& in, const TrainingScenario& s) const;

    double m_rhoThreshold;          //!< rho_T of 000 Eq. (5)
    MvaMethod m_mvaMethod;          //!< exact, approximate or automatic
    uint32_t m_exactMvaMaxWorkers;  //!< exact when <= 2^this populations
    double m_approxTolerance;       //!< Schweitzer-Bard convergence
    uint32_t m_approxMaxIterations; //!< Schweitzer-Bard iteration limit
    Time m_allReduceOverhead;       //!< fixed part of delta, 004 Eq. (7)
    TransferModel m_transferModel;  //!< Eq. (7) or Eq. (18)
    double m_a1;                    //!< Eq. (18) a1 (s per log2 byte)
    double m_b1;                    //!< Eq. (18) b1 (s)
    double m_a2;                    //!< Eq. (18) a2 (s per byte)
    double m_b2;                    //!< Eq. (18) b2 (s)
    uint64_t m_threshold;           //!< Eq. (18) D_Thresh (bytes; 0 = BDP)
    uint32_t m_stashMaxNodes;       //!< largest node count StashBestNodes() considers
    /// Fired once per result Run() returns.
    TracedCallback<const TrainingResult&> m_resultTrace;
};

} // namespace ns3

#endif /* ANALYTIC_BACKEND_H */

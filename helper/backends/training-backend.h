/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_BACKEND_H
#define TRAINING_BACKEND_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/run-context.h"
#include "ns3/training-profile.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

class TrainingJobSet;
struct JobSetResult;

/**
 * \ingroup distributed-training
 * \brief The backend options of the driver's table (scope "backend"), as typed values. The
 * program hands them to the backend object it creates (TrainingBackend::Configure); each backend
 * sets the attributes of its own that they name and ignores the rest. An absent value leaves the
 * attribute as it is (its default, or what Config / --ns3::... set).
 */
struct BackendSettings
{
    std::string sharing{"ps"};             //!< --sharing: FlowBackend::Sharing
    bool sharingGiven{false};              //!< whether the user chose --sharing (its notes)
    bool windowModel{false};               //!< --windowModel: FlowBackend::WindowModel
    bool recordTransfers{true};            //!< --records: FlowBackend::RecordTransfers
    std::optional<double> incumbentWeight; //!< --incumbentWeight: CalibratedSharing's
    std::optional<Time> cohortWindow;      //!< --cohortWindow: CalibratedSharing's
    std::optional<double> rhoThreshold;    //!< --rhoT: AnalyticBackend::RhoThreshold
    std::optional<double> dilation;        //!< --dilation: Packet- and LinuxBackend::Dilation
    std::optional<uint32_t> repeat;        //!< --repeat: runs with seeds (RepeatedRuns)
    std::optional<double> ciTarget;        //!< --ciTarget: step-time interval (RepeatedRuns)
    std::optional<uint32_t> maxSteps;      //!< --maxSteps: --ciTarget's cap (RepeatedRuns)
};

/**
 * \ingroup distributed-training
 * \brief What every backend is: scenario + profile -> results of one schema.
 *
 * A backend is an ns-3 Object (its knobs are attributes, so Config::SetDefault reaches them) that
 * registers itself by name with TrainingBackendRegistry (DT_REGISTER_BACKEND in its .cc file).
 * The driver, --backend=all and the validation runner iterate the registry; none of them names a
 * backend, so adding one is one class and one registration line.
 *
 * A program gives the object it created the driver's backend options as values (Configure) and
 * the run context its runs report to (SetRunContext: record sink, progress); without them a
 * backend runs with its attributes and keeps its records in its results.
 */
class TrainingBackend : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ~TrainingBackend() override;

    /**
     * \brief Run the scenario with the variant the attributes choose.
     * \param profile the DNN
     * \param scenario the scenario (validated by the backend against the profile)
     * \return one or more results (backend name, variant, numbers, records)
     * \throws TrainingInputError for an invalid or unsupported scenario
     */
    virtual std::vector<TrainingResult> Run(const TrainingProfile& profile,
                                            const TrainingScenario& scenario) const = 0;

    /**
     * \brief Run every variant worth showing side by side (--backend=all); Run() by default.
     * \param profile the DNN
     * \param scenario the scenario
     * \return the results
     * \throws TrainingInputError for an invalid or unsupported scenario
     */
    virtual std::vector<TrainingResult> RunComparison(const TrainingProfile& profile,
                                                      const TrainingScenario& scenario) const;

    /**
     * \brief Run several jobs on one fabric (TrainingJobSet, --jobs).
     * \param set the placed, validated jobs
     * \return one result per variant: per-job results and fabric counters
     * \throws TrainingInputError if the backend cannot (the default: it runs one job at a time)
     */
    virtual std::vector<JobSetResult> RunJobs(const TrainingJobSet& set) const;

    /**
     * \return an empty string if the backend can run on this host, else why not and what to do
     *         (the linux backend needs root and network namespaces, for example)
     */
    virtual std::string GetUnavailableReason() const;

    /**
     * \param profile the DNN
     * \param scenario the scenario (valid)
     * \return an empty string if this backend can run this scenario here, else why not and what
     *         to change (--backend=all skips the backend with that note instead of failing; the
     *         linux backend refuses, e.g., what it cannot emulate faithfully). "" by default.
     */
    virtual std::string GetUnsupportedReason(const TrainingProfile& profile,
                                             const TrainingScenario& scenario) const;

    /**
     * \brief The CPU time a run of the scenario takes here, estimated before it starts from the
     * work it must simulate, so that a user hears of an hours-long run before it begins.
     * \param profile the DNN
     * \param scenario the scenario (valid)
     * \return CPU seconds; 0 (the default) where the cost is small or grows with nothing the
     *         scenario says (the flow and analytic backends answer in seconds)
     */
    virtual double EstimateCpuSeconds(const TrainingProfile& profile,
                                      const TrainingScenario& scenario) const;

    /**
     * \brief Take the backend options this backend models (SetAttribute on this object); the
     * others are left alone. Nothing by default.
     * \param settings the options
     * \throws TrainingInputError naming the option if an attribute refuses its value
     */
    virtual void Configure(const BackendSettings& settings);

    /**
     * \param context where the following runs send their records and progress
     */
    void SetRunContext(const RunContext& context);

    /// \return the run context (the default one unless SetRunContext was called)
    const RunContext& GetRunContext() const;

  protected:
    /**
     * \brief SetAttribute that names the option instead of aborting when the attribute's
     * checker refuses the value.
     * \param option the option, e.g. "--cohortWindow"
     * \param object the object whose attribute it is (this backend, or a model it made)
     * \param name the attribute
     * \param value its value
     * \throws TrainingInputError naming the option
     */
    static void SetChecked(const std::string& option,
                           ObjectBase& object,
                           const std::string& name,
                           const AttributeValue& value);

  private:
    RunContext m_context; //!< records and progress of the runs
};

/**
 * \ingroup distributed-training
 * \brief The backends by name, in a fixed order (packet, flow, analytic, linux, ...).
 */
class TrainingBackendRegistry
{
  public:
    /// One backend.
    struct Entry
    {
        std::string name;        //!< --backend value, e.g. "flow"
        std::string typeName;    //!< its TypeId name, e.g. "ns3::FlowBackend"
        std::string description; //!< one line for --help
        uint32_t rank;           //!< position in listings and in --backend=all
        bool inAll;              //!< part of --backend=all when available
    };

    /**
     * \brief Add a backend (called by DT_REGISTER_BACKEND at load time).
     * \param entry the backend
     */
    static void Add(const Entry& entry);

    /// \return every backend, ordered by rank
    static std::vector<Entry> GetEntries();

    /**
     * \param backend a --backend value: a name, or "all"
     * \return the backends it runs: that one, or every one that is part of "all", by rank
     */
    static std::vector<Entry> GetSelected(const std::string& backend);

    /**
     * \param name a --backend value
     * \return its entry
     * \throws TrainingInputError naming --backend and every known name
     */
    static Entry Find(const std::string& name);

    /**
     * \brief Create a backend by name; its attributes take their (Config::SetDefault) defaults.
     * \param name a --backend value
     * \return the backend
     * \throws TrainingInputError naming --backend and every known name
     */
    static Ptr<TrainingBackend> Create(const std::string& name);

    /**
     * \brief Create a backend by name and give it the options and the run context.
     * \param name a --backend value
     * \param settings the backend options (Configure)
     * \param context where its runs report (SetRunContext)
     * \return the backend
     * \throws TrainingInputError naming --backend, or an option its attributes refuse
     */
    static Ptr<TrainingBackend> Create(const std::string& name,
                                       const BackendSettings& settings,
                                       const RunContext& context);

    /// What runs will cost (EstimateCost), to say before they start and to weigh progress.
    struct Cost
    {
        double cpuSeconds{0}; //!< TrainingBackend::EstimateCpuSeconds, summed
        std::size_t runs{0};  //!< the runs with a non-zero estimate (packet-level ones)
    };

    /**
     * \param backend a --backend value: a name, or "all"
     * \param profile the DNN
     * \param scenario the scenario
     * \param workers the numbers of workers it runs at (a --workers sweep)
     * \param repeat the runs of each point (--repeat)
     * \return each selected backend's TrainingBackend::EstimateCpuSeconds at each K, summed,
     *         times repeat
     */
    static Cost EstimateCost(const std::string& backend,
                             const TrainingProfile& profile,
                             TrainingScenario scenario,
                             const std::vector<uint32_t>& workers,
                             uint32_t repeat = 1);

    /**
     * \brief What the runs about to start will cost (each selected backend's
     * TrainingBackend::EstimateCpuSeconds at each K), to say before they start.
     * \param backend a --backend value: a name, or "all"
     * \param profile the DNN
     * \param scenario the scenario
     * \param workers the numbers of workers it runs at (a --workers sweep)
     * \param repeat the runs of each point (--repeat)
     * \return RunReport::CostNote's note or warning, or ""
     */
    static std::string CostNote(const std::string& backend,
                                const TrainingProfile& profile,
                                TrainingScenario scenario,
                                const std::vector<uint32_t>& workers,
                                uint32_t repeat = 1);

    /**
     * \brief What a job set about to start will cost: the shared run simulates every job's
     * traffic (the sum of the jobs' TrainingBackend::EstimateCpuSeconds), and each solo run one
     * job's.
     * \param backend a --backend value: a name, or "all"
     * \param set the jobs
     * \param solo whether each job also runs alone (--solo)
     * \return RunReport::CostNote's note or warning, or ""
     */
    static std::string CostNote(const std::string& backend, const TrainingJobSet& set, bool solo);

    /// \return "packet, flow, analytic, linux": the names for help and error messages
    static std::string ListNames();
};

} // namespace ns3

/**
 * \brief Register a TrainingBackend subclass by name at load time (in its .cc file).
 * \param name the --backend value
 * \param type the class (inside namespace ns3)
 * \param rank position in listings
 * \param inAll part of --backend=all
 * \param description one line for --help
 */
#define DT_REGISTER_BACKEND(name, type, rank, inAll, description)           \
    static const bool g_##type##Registered = []                             \
    {                                                                       \
        ns3::TrainingBackendRegistry::Add(                                  \
            {name, type::GetTypeId().GetName(), description, rank, inAll}); \
        return true;                                                        \
    }()

#endif /* TRAINING_BACKEND_H */

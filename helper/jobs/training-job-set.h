/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_JOB_SET_H
#define TRAINING_JOB_SET_H

#include "ns3/fabric-topology.h"
#include "ns3/link-failures.h"
#include "ns3/scenario-options.h"
#include "ns3/training-backend.h"
#include "ns3/training-profile.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief One training job of a shared cluster: its own DNN, architecture, mode, workers,
 * servers, steps, fusion options, placement and start time on the fabric of its TrainingJobSet.
 */
struct TrainingJob
{
    std::string name;                               //!< unique; "job<i>" unless given
    std::shared_ptr<const TrainingProfile> profile; //!< its DNN
    /// The set's fabric scenario with the job's own fields. Once placed: placement = the list of
    /// its hosts on the shared fabric (a star: "packed" on a star of its own roles), and a
    /// leaf-spine's hostsPerLeaf fixed to the shared fabric's, so that the scenario alone
    /// rebuilds the same fabric, hosts and ECMP paths (a single-job backend can run it).
    TrainingScenario scenario;
    std::string placement{"packed"}; //!< the policy asked for: packed, spread, random or a list
    double startTime{0};             //!< seconds: its workers begin their first step then
    std::vector<uint32_t> hosts;     //!< once placed: fabric host of each role (workers, servers)

    /** \return workers plus servers (parameter servers only) */
    uint32_t GetNRoles() const;
};

/**
 * \ingroup distributed-training
 * \brief Several training jobs on one fabric (issue 16): the fabric and network come from one
 * base scenario, each job brings its own per-job options, and the jobs are placed one after
 * another on disjoint hosts.
 *
 * API (used by the driver's --jobs, the validation runner and fabric-benchmark):
 * \code
 *   RunRequest base = ScenarioOptions::MakeDefault();      // fabric, network, TCP options
 *   ScenarioOptions::Set(base, "topology", "leafspine");
 *   TrainingJobSet set = TrainingJobSet::FromFile("jobs.json", base);  // or FromJson / Add+Place
 *   std::vector<JobSetResult> r = TrainingBackendRegistry::Create("flow")->RunJobs(set);
 *   // r[0].jobs[j] is job j's TrainingResult; r[0].links the fabric counters
 * \endcode
 * Placement: job j takes its hosts among those the jobs before it left free, in the order of
 * its policy (packed: host order; spread: one per rack in turn; random: a shuffle seeded by
 * its seed; a list: exactly those hosts, which must be free). The placed hosts are renamed
 * "<job>.worker<i>" / "<job>.server<p>", so link names say whose traffic they carry.
 */
class TrainingJobSet
{
  public:
    /// Options a job may set (the rest are the fabric's, or the run's: set them once).
    static const std::vector<std::string>& GetPerJobOptions();

    /**
     * \param base the fabric/network/TCP options (its per-job fields are every job's defaults)
     */
    explicit TrainingJobSet(const RunRequest& base);

    /**
     * \brief A jobs file: a JSON array of job objects, or {"jobs": [...]}. A job object holds
     * per-job driver options (GetPerJobOptions()), "name" and "startTime" (seconds, or an
     * ns-3 time such as "50ms").
     * \param file the file
     * \param base the base request (fabric options; per-job defaults)
     * \return the placed, validated set
     * \throws TrainingInputError naming the file, job index (and name) and field
     */
    static TrainingJobSet FromFile(const std::string& file, const RunRequest& base);

    /**
     * \brief As FromFile, from JSON text (--jobs='[...]', the validation runner's inline lists).
     * \param text the JSON text
     * \param where context for messages
     * \param base the base request
     * \return the placed, validated set
     * \throws TrainingInputError for bad JSON or a bad job
     */
    static TrainingJobSet FromText(const std::string& text,
                                   const std::string& where,
                                   const RunRequest& base);

    /**
     * \brief As FromFile, from parsed JSON (the validation runner's inline "jobs" lists).
     * \param jobs an array of job objects, or {"jobs": [...]}
     * \param where file or context for messages
     * \param base the base request
     * \return the placed, validated set
     * \throws TrainingInputError naming where, job index and field
     */
    static TrainingJobSet FromJson(const nlohmann::json& jobs,
                                   const std::string& where,
                                   const RunRequest& base);

    /**
     * \brief Add a job built in code (not yet placed; call Place() after the last one).
     * \param job name, profile, scenario (its fabric, network and TCP fields must be the
     *        base's: start from the base request's scenario), placement and start time
     */
    void Add(TrainingJob job);

    /**
     * \brief Place every job (disjoint hosts), rename the hosts and validate every job; the
     * base's --linkDown applies to every job (the fabric's outages).
     * \param where file or context for messages
     * \throws TrainingInputError for an empty set, duplicate names, too few hosts, a host taken
     *         twice, a job invalid on its own, or --linkDown cutting placed hosts apart
     */
    void Place(const std::string& where);

    /** \return the base scenario: fabric, network and TCP fields of every job */
    const TrainingScenario& GetFabricScenario() const;
    /** \return the jobs in file order */
    const std::vector<TrainingJob>& GetJobs() const;
    /** \return the shared fabric with every job's roles placed (role order: job by job) */
    const FabricTopology& GetFabric() const;
    /**
     * \param job job index
     * \return the index of its first role in GetFabric()'s role order
     */
    uint32_t GetRoleOffset(uint32_t job) const;
    /**
     * \param job job index
     * \return the directed links its connections cross, sorted (ECMP with the 5-tuples of the
     *         packet level: service port 5000, the connecting side's n-th ephemeral port), at
     *         any time of the run: with --linkDown, also the links they are re-routed over
     */
    std::vector<uint32_t> GetJobLinks(uint32_t job) const;

    /**
     * \brief Run every job alone on its own hosts of the fabric (its scenario names them), with
     * nothing else on the fabric: the reference of each job's slowdown in the set.
     * \param backend the backend that runs the set
     * \return each job's throughput alone (samples/s), in set order
     */
    std::vector<double> RunEachAlone(const TrainingBackend& backend) const;

  private:
    /**
     * \param where context for messages
     * \param index job index
     * \param object the job object
     */
    void ParseJob(const std::string& where, std::size_t index, const nlohmann::json& object);
    /**
     * \param j job index
     * \param taken per host: taken by an earlier job
     * \param where context for messages
     * \return the job's hosts
     */
    std::vector<uint32_t> PlaceJob(uint32_t j,
                                   std::vector<uint8_t>& taken,
                                   const std::string& where) const;

    /**
     * \brief After placement: the job's scenario names its hosts (and a leaf-spine's size) so
     * that it rebuilds the shared fabric alone; then validate it against its profile.
     * \param j job index
     * \param where context for messages
     */
    void FixJob(uint32_t j, const std::string& where);

    RunRequest m_base;               //!< the base request (fabric options, per-job defaults)
    std::vector<TrainingJob> m_jobs; //!< the jobs
    FabricTopology m_fabric;         //!< shared fabric, every role placed
    std::vector<uint32_t> m_offsets; //!< first role of each job
    /// --linkDown on the shared fabric, every job's hosts placed (null: no outage)
    std::shared_ptr<const LinkFailures> m_failures;
};

/**
 * \ingroup distributed-training
 * \brief What one backend reports for a TrainingJobSet: one TrainingResult per job (each in the
 * single-job schema, its steps at the simulator's times, i.e. after its start time) and the
 * fabric counters over the fabric window (first job's window start to last job's window end).
 */
struct JobSetResult
{
    /// One directed link of the fabric.
    struct Link
    {
        std::string name;      //!< e.g. "a.worker0->leaf0"
        double utilisation{0}; //!< bytes / (rate x fabric window)
        double drops{0};       //!< packets dropped (device queue and queue disc); packet only
        double ecnMarks{0};    //!< packets CE-marked by its queue disc; packet only
    };

    std::string backend;              //!< "packet" or "flow"
    std::string variant;              //!< e.g. "TcpCubic", "ps"
    std::vector<TrainingResult> jobs; //!< per job, in set order (inputs: rto_timeouts, ...)
    std::vector<Link> links;          //!< every directed link that carried bytes or is at a host
    double windowStart{0};            //!< fabric window (s)
    double windowEnd{0};              //!< fabric window (s)
    bool countsLosses{false};         //!< drops and marks measured (packet); flow: none modelled
    std::vector<std::string> notes;   //!< e.g. why the flow backend has no drop counters
    double wallSeconds{0};            //!< wall-clock time of the run
    /// Each job's throughput alone on the fabric (TrainingJobSet::RunEachAlone), in set order;
    /// empty when not run (--solo=false)
    std::vector<double> solo;

    /**
     * \param j job index
     * \return the job's throughput in the set over its throughput alone, minus one (-0.25: a
     *         quarter slower than alone); NaN without solo runs
     */
    double GetChangeVsSolo(std::size_t j) const;

    /**
     * \param set the jobs
     * \param includeRecords include per-step and per-transfer records of each job
     * \return the JSON object {"backend", "variant", "jobs": [...], "fabric": {...}} (an
     * object, not text: MakeDocument nests it without printing and parsing it again)
     */
    nlohmann::ordered_json ToJson(const TrainingJobSet& set, bool includeRecords) const;

    /**
     * \brief TrainingResult::CheckSane of every job's result.
     * \param set the jobs (their scenarios are named in a message)
     * \throws TrainingInputError naming the job
     */
    void CheckSane(const TrainingJobSet& set) const;

    /**
     * \param set the jobs
     * \param results one per backend
     * \param includeRecords include records
     * \return the result document {"scenario", "jobs": [job scenarios], "results": [...]}
     */
    static std::string MakeDocument(const TrainingJobSet& set,
                                    const std::vector<JobSetResult>& results,
                                    bool includeRecords);
};

} // namespace ns3

#endif /* TRAINING_JOB_SET_H */

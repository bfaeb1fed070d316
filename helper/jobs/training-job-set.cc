/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-job-set.h"

#include "ns3/json-input.h"
#include "ns3/json-object-reader.h"
#include "ns3/log.h"
#include "ns3/training-input-error.h"
#include "ns3/training-network.h"
#include "ns3/unit-parser.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <regex>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingJobSet");

namespace
{

/// Limits of a jobs file: far above any real one.
const JsonInput::Limits&
JobsJsonLimits()
{
    static const JsonInput::Limits limits{1 << 20, 64, "a JSON array of job objects"};
    return limits;
}

/// \return "where: jobs[i]" or "where: jobs[i] (name)"
std::string
JobContext(const std::string& where, std::size_t index, const std::string& name)
{
    return where + ": jobs[" + std::to_string(index) + "]"
           + (name.empty() ? "" : " (" + name + ")");
}

/// \return the schema of one job: its name, its start time and the per-job options
const JsonSchema&
JobSchema()
{
    static const JsonSchema schema = []
    {
        JsonSchema fields{{"name",
                           JsonField::OPTIONAL,
                           JsonSpec::String("1 to 32 letters, digits, '_' or '-'", 1),
                           {}},
                          {"startTime",
                           JsonField::OPTIONAL,
                           JsonSpec::Scalar("seconds or a time like 50ms"),
                           {}}};
        for (const std::string& name : TrainingJobSet::GetPerJobOptions())
        {
            // The values are checked by the option table (ScenarioOptions::ApplyJson).
            fields.push_back({name, JsonField::OPTIONAL, JsonSpec{}, {}});
        }
        return fields;
    }();
    return schema;
}

/// Refuse a driver option that is set once for all jobs. \param place job \param object job
void
RejectClusterOptions(const JsonPlace& place, const nlohmann::json& object)
{
    const auto& perJob = TrainingJobSet::GetPerJobOptions();
    for (const auto& [key, value] : object.items())
    {
        if (ScenarioOptions::Find(key)
            && std::find(perJob.begin(), perJob.end(), key) == perJob.end())
        {
            place.Member(key).Fail("not a per-job option",
                                   "an option of one job: fabric, network, TCP, backend and "
                                   "output options are set once for all jobs, outside the jobs "
                                   "file");
        }
    }
}

/// \return a job's start time in seconds \param place its place \param t seconds or "50ms"
double
ParseStartTime(const JsonPlace& place, const nlohmann::json& t)
{
    const std::string text = t.is_string() ? t.get<std::string>() : t.dump() + "s";
    // Refused as a Time, before GetSeconds: ns-3.37 converts a negative Time by shifting a
    // negative value left (undefined behaviour; the jobs fuzzer's sanitizers caught it).
    return UnitParser::ParseDuration(place.ToString(), text).GetSeconds();
}

/// The ECMP paths of one job's connections, as the packet level opens them, and with --linkDown
/// the paths the re-routing rule gives them while the links are down (failures: null if none).
void
AddJobPaths(const FabricTopology& fabric,
            const LinkFailures* failures,
            uint32_t offset,
            const TrainingScenario& s,
            std::set<uint32_t>& links)
{
    const bool ps = s.architecture == TrainingScenario::PARAMETER_SERVER;
    const uint32_t k = s.workers;
    const uint32_t p = ps ? s.servers : 0;
    auto add = [&](uint32_t from, uint32_t to, uint16_t srcPort, uint16_t dstPort)
    {
        const uint32_t a = fabric.GetRoleHost(offset + from);
        const uint32_t b = fabric.GetRoleHost(offset + to);
        FabricTopology::FlowKey key{FabricTopology::GetHostAddress(a),
                                    FabricTopology::GetHostAddress(b),
                                    srcPort,
                                    dstPort,
                                    6};
        for (uint32_t l : fabric.GetPath(a, b, key))
        {
            links.insert(l);
        }
        for (double t : failures ? failures->GetChangeTimes() : std::vector<double>{})
        {
            for (uint32_t l : failures->GetPath(a, b, key, t))
            {
                links.insert(l);
            }
        }
    };
    constexpr uint16_t service = 5000;
    constexpr uint16_t ephemeral = 49153;
    for (uint32_t w = 0; w < k; ++w)
    {
        for (uint32_t q = 0; q < p; ++q)
        {
            const uint16_t port = static_cast<uint16_t>(ephemeral + q);
            add(w, k + q, port, service);
            add(k + q, w, service, port);
        }
        if (!ps && k > 1)
        {
            add(w, (w + 1) % k, ephemeral, service);
        }
    }
}

/// \return the hosts a job takes: its roles, less its co-located servers (on its workers' hosts,
/// TrainingScenario::BuildFabric) \param job the job
uint32_t
CountHosts(const TrainingJob& job)
{
    return job.scenario.IsColocated() ? job.scenario.workers : job.GetNRoles();
}

/**
 * \param fabric the set's fabric
 * \param policy packed, spread or random
 * \param count hosts to take
 * \param seed the job's seed (random)
 * \param taken hosts the jobs before took
 * \param option the option for messages
 * \return the policy's first count hosts over all of the fabric's, without those taken
 */
std::vector<uint32_t>
PlaceOnFree(const FabricTopology& fabric,
            const std::string& policy,
            uint32_t count,
            uint64_t seed,
            const std::vector<uint8_t>& taken,
            const std::string& option)
{
    std::vector<uint32_t> hosts;
    for (uint32_t h : fabric.Place(option, policy, fabric.GetNHosts(), seed))
    {
        if (!taken[h] && hosts.size() < count)
        {
            hosts.push_back(h);
        }
    }
    return hosts;
}

/// Refuse a host an earlier job took. \param hosts a job's hosts \param taken the earlier jobs'
/// \param option the option for messages
void
CheckFree(const std::vector<uint32_t>& hosts,
          const std::vector<uint8_t>& taken,
          const std::string& option)
{
    for (uint32_t h : hosts)
    {
        if (taken[h])
        {
            throw TrainingInputError(option + ": host " + std::to_string(h)
                                     + " is already taken by an earlier job (expected hosts no "
                                       "other job uses)");
        }
    }
}

/**
 * \param fabric the set's fabric
 * \param job a job with co-located servers
 * \param taken hosts the jobs before took
 * \param option the option for messages
 * \return its roles' hosts: the workers' as any job's (a policy over the free hosts; a list
 *         checked whole, servers included), then each server on a worker's host by the
 *         single-job rule (TrainingScenario::PlaceColocated)
 */
std::vector<uint32_t>
PlaceColocatedJob(const FabricTopology& fabric,
                  const TrainingJob& job,
                  const std::vector<uint8_t>& taken,
                  const std::string& option)
{
    TrainingScenario s = job.scenario;
    s.placement = job.placement;
    if (s.placement == "packed" || s.placement == "spread" || s.placement == "random")
    {
        s.placement.clear();
        for (uint32_t h : PlaceOnFree(fabric, job.placement, s.workers, s.seed, taken, option))
        {
            s.placement += (s.placement.empty() ? "" : ",") + std::to_string(h);
        }
    }
    std::vector<uint32_t> hosts;
    try
    {
        hosts = s.PlaceColocated(fabric);
    }
    catch (const TrainingInputError& e)
    {
        throw TrainingInputError(option + ": " + e.what());
    }
    CheckFree(hosts, taken, option);
    return hosts;
}

/**
 * \param job a placed job with co-located servers on a star
 * \return its placement on a star of its own workers' hosts: "0,...,K-1" and, per server, the
 *         index of the worker whose host it shares (TrainingScenario::PlaceColocated's map)
 */
std::string
ColocatedMap(const TrainingJob& job)
{
    const TrainingScenario& s = job.scenario;
    std::string list;
    for (uint32_t w = 0; w < s.workers; ++w)
    {
        list += (list.empty() ? "" : ",") + std::to_string(w);
    }
    for (uint32_t p = 0; p < s.servers; ++p)
    {
        const auto at
            = std::find(job.hosts.begin(), job.hosts.begin() + s.workers, job.hosts[s.workers + p]);
        list += "," + std::to_string(at - job.hosts.begin());
    }
    return list;
}

} // namespace

uint32_t
TrainingJob::GetNRoles() const
{
    return scenario.workers
           + (scenario.architecture == TrainingScenario::PARAMETER_SERVER ? scenario.servers : 0);
}

const std::vector<std::string>&
TrainingJobSet::GetPerJobOptions()
{
    // What one job is (the table's job scope): its DNN, architecture, schedule, fusion, compute
    // and placement. Links, buffers, TCP, ECMP, cross traffic, backend and output options are
    // the cluster's.
    static const std::vector<std::string> names = ScenarioOptions::GetNames(OptionScope::JOB);
    return names;
}

TrainingJobSet::TrainingJobSet(const RunRequest& base)
    : m_base(base)
{
}

TrainingJobSet
TrainingJobSet::FromFile(const std::string& file, const RunRequest& base)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
    {
        throw TrainingInputError("--jobs: '" + file + "' is not a regular file");
    }
    return FromText(JsonInput::ReadFile(file, JobsJsonLimits()), file, base);
}

TrainingJobSet
TrainingJobSet::FromText(const std::string& text, const std::string& where, const RunRequest& base)
{
    return FromJson(nlohmann::json(JsonInput::Parse(text, where, JobsJsonLimits())), where, base);
}

TrainingJobSet
TrainingJobSet::FromJson(const nlohmann::json& jobs,
                         const std::string& where,
                         const RunRequest& base)
{
    static const JsonSpec list = JsonSpec::Array(
        1,
        "a non-empty list of job objects, e.g. [{\"workers\": 2}, {\"workers\": 2}], or "
        "{\"jobs\": [...]}");
    static const JsonSchema wrapper{{"jobs", JsonField::REQUIRED, list, {}}};
    const nlohmann::json* items = &jobs;
    if (jobs.is_object())
    {
        items = &SortedJsonObjectReader(jobs, JsonPlace(where), wrapper).Get("jobs");
    }
    else
    {
        JsonPlace(where).Check(jobs, list);
    }
    TrainingJobSet set(base);
    for (std::size_t i = 0; i < items->size(); ++i)
    {
        set.ParseJob(where, i, (*items)[i]);
    }
    set.Place(where);
    return set;
}

void
TrainingJobSet::ParseJob(const std::string& where, std::size_t index, const nlohmann::json& object)
{
    const JsonPlace place(where, "jobs[" + std::to_string(index) + "]");
    if (object.is_object())
    {
        RejectClusterOptions(place, object);
    }
    const SortedJsonObjectReader job(object, place, JobSchema());
    const std::string name = job.GetString("name");
    if (!name.empty() && !std::regex_match(name, std::regex("[A-Za-z0-9_-]{1,32}")))
    {
        job.At("name").Fail("name '" + name + "'", "1 to 32 letters, digits, '_' or '-'");
    }
    const std::string ctx = JobContext(where, index, name);
    RunRequest r = m_base;
    TrainingJob parsed;
    parsed.name = name.empty() ? "job" + std::to_string(index) : name;
    nlohmann::json options = object;
    options.erase("name");
    options.erase("startTime");
    ScenarioOptions::ApplyJson(options, ctx, r);
    if (r.workerSweep.size() > 1)
    {
        throw TrainingInputError(ctx + ": .workers: one worker count per job (no sweep)");
    }
    if (job.Has("startTime"))
    {
        parsed.startTime = ParseStartTime(job.At("startTime"), job.Get("startTime"));
    }
    try
    {
        parsed.profile
            = std::make_shared<const TrainingProfile>(TrainingProfile::LoadFromFile(r.profile));
    }
    catch (const TrainingInputError& e)
    {
        throw TrainingInputError(ctx + ": .profile: " + e.what());
    }
    parsed.scenario = r.scenario;
    parsed.placement = r.scenario.placement;
    m_jobs.push_back(std::move(parsed));
}

void
TrainingJobSet::Add(TrainingJob job)
{
    m_jobs.push_back(std::move(job));
}

std::vector<uint32_t>
TrainingJobSet::PlaceJob(uint32_t j, std::vector<uint8_t>& taken, const std::string& where) const
{
    const TrainingJob& job = m_jobs[j];
    const std::string ctx = JobContext(where, j, job.name);
    const uint32_t count = CountHosts(job);
    uint32_t free = 0;
    for (uint8_t t : taken)
    {
        free += t ? 0 : 1;
    }
    if (count > free)
    {
        throw TrainingInputError(ctx + ": " + std::to_string(count)
                                 + (job.scenario.IsColocated() ? " workers (servers co-located)"
                                                               : " workers and servers")
                                 + ", but " + std::to_string(free) + " of the fabric's "
                                 + std::to_string(taken.size())
                                 + " hosts are left by the jobs before it (expected a larger "
                                   "fabric, e.g. --hostsPerLeaf, or fewer roles)");
    }
    const std::string option = ctx + ": .placement";
    std::vector<uint32_t> hosts;
    const std::string& policy = job.placement;
    const bool word = policy == "packed" || policy == "spread" || policy == "random";
    if (job.scenario.IsColocated())
    {
        hosts = PlaceColocatedJob(m_fabric, job, taken, option);
    }
    else if (word)
    {
        hosts = PlaceOnFree(m_fabric, policy, count, job.scenario.seed, taken, option);
    }
    else
    {
        hosts = m_fabric.Place(option, policy, count, job.scenario.seed);
        CheckFree(hosts, taken, option);
    }
    for (uint32_t h : hosts)
    {
        taken[h] = 1;
    }
    return hosts;
}

void
TrainingJobSet::Place(const std::string& where)
{
    if (m_jobs.empty())
    {
        throw TrainingInputError(where + ": no job (expected at least one)");
    }
    const TrainingScenario& base = m_base.scenario;
    if (base.crossTraffic != "none")
    {
        throw TrainingInputError(where
                                 + ": --crossTraffic with several jobs (expected none: the "
                                   "other jobs are the cross traffic)");
    }
    std::set<std::string> names;
    uint32_t hosts = 0;
    for (std::size_t j = 0; j < m_jobs.size(); ++j)
    {
        if (!names.insert(m_jobs[j].name).second)
        {
            throw TrainingInputError(JobContext(where, j, m_jobs[j].name)
                                     + ": .name: used by an earlier job (expected unique names)");
        }
        hosts += CountHosts(m_jobs[j]);
    }
    try
    {
        m_fabric = base.BuildUnplacedFabric(hosts);
    }
    catch (const TrainingInputError& e)
    {
        throw TrainingInputError(where + ": " + e.what());
    }
    std::vector<uint8_t> taken(m_fabric.GetNHosts(), 0);
    std::vector<uint32_t> allHosts;
    std::vector<std::string> allNames;
    m_offsets.clear();
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        TrainingJob& job = m_jobs[j];
        m_offsets.push_back(static_cast<uint32_t>(allHosts.size()));
        job.hosts = PlaceJob(j, taken, where);
        for (uint32_t r = 0; r < job.hosts.size(); ++r)
        {
            allHosts.push_back(job.hosts[r]);
            allNames.push_back(job.name + "." + job.scenario.GetRoleName(r));
        }
    }
    m_fabric.SetRoles(allHosts, allNames);
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        FixJob(j, where);
    }
    m_failures.reset();
    if (!base.linkDown.empty())
    {
        try
        {
            // Every job's hosts at once: the packet level routes the whole fabric by this rule.
            m_failures = std::make_shared<const LinkFailures>(m_fabric, base.linkDown);
        }
        catch (const TrainingInputError& e)
        {
            throw TrainingInputError(where + ": " + e.what());
        }
    }
}

void
TrainingJobSet::FixJob(uint32_t j, const std::string& where)
{
    const TrainingScenario& base = m_base.scenario;
    TrainingJob& job = m_jobs[j];
    // Its fabric fields are the base's (ParseJob starts from the base request); fixing the
    // leaf size and its hosts makes its scenario rebuild the same fabric and paths.
    TrainingScenario& s = job.scenario;
    if (base.topology == "leafspine")
    {
        s.hostsPerLeaf = m_fabric.GetNHosts() / base.leaves;
    }
    s.linkDown = base.linkDown; // the fabric's outages (a job of the jobs file cannot set them)
    if (base.topology == "star")
    {
        s.placement = "packed"; // a star of its own roles: every host alike
        for (uint32_t p = 0; s.IsColocated() && p < s.servers; ++p)
        {
            if (job.hosts[s.workers + p] != job.hosts[p])
            {
                s.placement = ColocatedMap(job); // a server not on its worker's host
            }
        }
    }
    else
    {
        std::string list;
        for (uint32_t h : job.hosts)
        {
            list += (list.empty() ? "" : ",") + std::to_string(h);
        }
        s.placement = list;
    }
    try
    {
        job.scenario.Validate(*job.profile);
    }
    catch (const TrainingInputError& e)
    {
        throw TrainingInputError(JobContext(where, j, job.name) + ": " + e.what());
    }
}

const TrainingScenario&
TrainingJobSet::GetFabricScenario() const
{
    return m_base.scenario;
}

const std::vector<TrainingJob>&
TrainingJobSet::GetJobs() const
{
    return m_jobs;
}

const FabricTopology&
TrainingJobSet::GetFabric() const
{
    return m_fabric;
}

uint32_t
TrainingJobSet::GetRoleOffset(uint32_t job) const
{
    return m_offsets.at(job);
}

std::vector<uint32_t>
TrainingJobSet::GetJobLinks(uint32_t job) const
{
    std::set<uint32_t> links;
    AddJobPaths(m_fabric, m_failures.get(), m_offsets.at(job), m_jobs.at(job).scenario, links);
    return {links.begin(), links.end()};
}

nlohmann::ordered_json
JobSetResult::ToJson(const TrainingJobSet& set, bool includeRecords) const
{
    nlohmann::ordered_json o;
    o["backend"] = backend;
    o["variant"] = variant;
    o["wall_time_s"] = wallSeconds;
    auto jobs = nlohmann::ordered_json::array();
    for (std::size_t j = 0; j < this->jobs.size(); ++j)
    {
        nlohmann::ordered_json job;
        job["name"] = set.GetJobs()[j].name;
        job["start_time_s"] = set.GetJobs()[j].startTime;
        job.update(this->jobs[j].ToJsonObject(includeRecords));
        if (j < solo.size())
        {
            job["solo_samples_per_s"] = solo[j];
            job["change_vs_solo"] = GetChangeVsSolo(j);
        }
        jobs.push_back(std::move(job));
    }
    o["jobs"] = std::move(jobs);
    nlohmann::ordered_json fabric;
    fabric["description"] = set.GetFabric().Describe();
    fabric["window_start_s"] = windowStart;
    fabric["window_end_s"] = windowEnd;
    fabric["counts_losses"] = countsLosses;
    auto links = nlohmann::ordered_json::array();
    for (const auto& l : this->links)
    {
        nlohmann::ordered_json x{{"link", l.name}, {"utilisation", l.utilisation}};
        if (countsLosses)
        {
            x["drops"] = l.drops;
            x["ecn_marks"] = l.ecnMarks;
        }
        links.push_back(std::move(x));
    }
    fabric["links"] = std::move(links);
    fabric["notes"] = notes;
    o["fabric"] = std::move(fabric);
    return o;
}

std::vector<double>
TrainingJobSet::RunEachAlone(const TrainingBackend& backend) const
{
    std::vector<double> solo;
    for (const auto& job : m_jobs)
    {
        // FixJob made the job's scenario name its hosts and the fabric's size, so it runs
        // alone on the same hosts and paths (the metamorphic suite holds alone = one-job set).
        solo.push_back(backend.Run(*job.profile, job.scenario).at(0).throughput);
    }
    return solo;
}

double
JobSetResult::GetChangeVsSolo(std::size_t j) const
{
    if (j >= solo.size() || j >= jobs.size() || !(solo[j] > 0))
    {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return jobs[j].throughput / solo[j] - 1;
}

void
JobSetResult::CheckSane(const TrainingJobSet& set) const
{
    for (std::size_t j = 0; j < jobs.size(); ++j)
    {
        try
        {
            jobs[j].CheckSane(set.GetJobs()[j].scenario);
        }
        catch (const TrainingInputError& e)
        {
            throw TrainingInputError("job " + set.GetJobs()[j].name + ": " + e.what());
        }
    }
}

std::string
JobSetResult::MakeDocument(const TrainingJobSet& set,
                           const std::vector<JobSetResult>& results,
                           bool includeRecords)
{
    nlohmann::ordered_json doc;
    doc["scenario"] = nlohmann::ordered_json::parse(set.GetFabricScenario().ToJson());
    auto jobs = nlohmann::ordered_json::array();
    for (const auto& job : set.GetJobs())
    {
        jobs.push_back({{"name", job.name},
                        {"start_time_s", job.startTime},
                        {"hosts", job.hosts},
                        {"profile",
                         {{"model", job.profile->GetModel()},
                          {"file", job.profile->GetSourceName()},
                          {"batch_size", job.profile->GetBatchSize()}}},
                        {"scenario", nlohmann::ordered_json::parse(job.scenario.ToJson())}});
    }
    doc["jobs"] = std::move(jobs);
    auto list = nlohmann::ordered_json::array();
    for (const auto& r : results)
    {
        list.push_back(r.ToJson(set, includeRecords));
    }
    doc["results"] = std::move(list);
    return doc.dump(1);
}

} // namespace ns3

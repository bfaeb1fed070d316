/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-backend.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/calibrated-sharing.h"
#include "ns3/double.h"
#include "ns3/fabric-topology.h"
#include "ns3/flow-level-simulator.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/string.h"
#include "ns3/training-input-error.h"
#include "ns3/training-job-set.h"
#include "ns3/training-network.h"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <limits>
#include <map>
#include <sstream>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowBackend");

NS_OBJECT_ENSURE_REGISTERED(FlowBackend);
DT_REGISTER_BACKEND("flow",
                    FlowBackend,
                    20,
                    true,
                    "flow-level simulator, Algorithm 1 of 000 with pluggable sharing (ms)");

namespace
{
/// hybrid, a composite: no model object of its own; Run and RunJobs run its two models and
/// average them (MakeMean), so it is registered here, where that is done.
const bool g_hybridRegistered = []
{
    SharingModelRegistry::Add({"hybrid",
                               "the mean of an fcfs and a ps run's throughputs and step times, "
                               "computed by FlowBackend (000 Sec. 3.2.1)",
                               40,
                               SharingModelRegistry::IN_ALL,
                               "",
                               {"fcfs", "ps"},
                               ""});
    return true;
}();

/// The Sharing attribute's default, and the model --backend=all also runs with the window model:
/// Algorithm 1's PS (000 Sec. 2.2.2).
const char* const DEFAULT_SHARING = "ps";
} // namespace

TypeId
FlowBackend::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::FlowBackend")
              .SetParent<TrainingBackend>()
              .SetGroupName("DistributedTraining")
              .AddConstructor<FlowBackend>()
              .AddAttribute("Sharing",
                            "How concurrent transfers share the links: the name of a sharing "
                            "model registered with SharingModelRegistry (--sharing's help lists "
                            "them). Ring scenarios always use the registry's ring model.",
                            StringValue(DEFAULT_SHARING),
                            MakeStringAccessor(&FlowBackend::m_sharing),
                            SharingModelRegistry::MakeNameChecker())
              .AddAttribute("UseGoodput",
                            "Link capacity B = TCP goodput of the NIC rate (payload/wire bytes of "
                            "a full segment, as TrainingScenario::GetGoodputBytesPerSecond), so "
                            "that times compare with packet-level TCP; false: the raw NIC rate.",
                            BooleanValue(true),
                            MakeBooleanAccessor(&FlowBackend::m_useGoodput),
                            MakeBooleanChecker())
              .AddAttribute("RecordTransfers",
                            "Keep one transfer record per tensor (false saves memory on long runs; "
                            "step records are always kept).",
                            BooleanValue(true),
                            MakeBooleanAccessor(&FlowBackend::m_recordTransfers),
                            MakeBooleanChecker())
              .AddAttribute("HybridParts",
                            "With Sharing=hybrid, also return the fcfs and ps runs it averages.",
                            BooleanValue(true),
                            MakeBooleanAccessor(&FlowBackend::m_hybridParts),
                            MakeBooleanChecker())
              .AddAttribute("ParsingOverheadPerByte",
                            "alpha of the parsing overhead alpha*size+beta of 001 Sec. 3.2.1, in "
                            "seconds per byte: added to the computation that consumes a received "
                            "tensor (forward of its layer, or its update at the server).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&FlowBackend::m_parsingPerByte),
                            MakeDoubleChecker<double>(0.0))
              .AddAttribute("ParsingOverheadPerTensor",
                            "beta of the parsing overhead alpha*size+beta of 001 Sec. 3.2.1.",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&FlowBackend::m_parsingPerTensor),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute(
                  "WindowModel",
                  "Parameter servers: limit every connection to its socket buffer per "
                  "round trip, the round trip including the standing queues in front "
                  "of its server's link in both directions (doc/reference/backend-flow.rst, Window "
                  "model). Needs a model that honours per-flow caps: ps runs as capped, "
                  "calibrated and capped as they are; the variant gets '-window'.",
                  BooleanValue(false),
                  MakeBooleanAccessor(&FlowBackend::m_windowModel),
                  MakeBooleanChecker())
              .AddAttribute(
                  "SharingModel",
                  "A sharing model object (any SharingModel subclass) to use instead of "
                  "the Sharing attribute in parameter-server scenarios; null: use Sharing.",
                  PointerValue(nullptr),
                  MakePointerAccessor(&FlowBackend::m_customSharing),
                  MakePointerChecker<SharingModel>());
    return tid;
}

FlowBackend::FlowBackend()
    : m_sharing(DEFAULT_SHARING),
      m_useGoodput(true),
      m_recordTransfers(true),
      m_hybridParts(true),
      m_parsingPerByte(0),
      m_parsingPerTensor(Seconds(0)),
      m_windowModel(false)
{
    NS_LOG_FUNCTION(this);
}

FlowBackend::~FlowBackend()
{
    NS_LOG_FUNCTION(this);
}

void
FlowBackend::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_customSharing = nullptr;
    Object::DoDispose();
}

std::string
FlowBackend::GetModelToRun(const std::string& sharing, bool window)
{
    // The window model works through per-flow caps: a model that ignores them runs as its capped
    // form (ps as capped, which is ps while no cap binds). CheckWindowSharing refused the others.
    const SharingModelRegistry::Entry entry = SharingModelRegistry::Find(sharing);
    return window && !entry.Has(SharingModelRegistry::HONOURS_CAPS) ? entry.cappedForm : sharing;
}

void
FlowBackend::Configure(const BackendSettings& settings)
{
    SharingModelRegistry::Find(settings.sharing); // the unknown-name message, naming --sharing
    SetChecked("--sharing", *this, "Sharing", StringValue(settings.sharing));
    m_sharingGiven = settings.sharingGiven;
    SetChecked("--windowModel", *this, "WindowModel", BooleanValue(settings.windowModel));
    SetChecked("--records", *this, "RecordTransfers", BooleanValue(settings.recordTransfers));
    // Checked here, before any run, against the calibrated model's own attribute checkers.
    Ptr<CalibratedSharing> probe = CreateObject<CalibratedSharing>();
    if (settings.incumbentWeight)
    {
        SetChecked("--incumbentWeight",
                   *probe,
                   "IncumbentWeight",
                   DoubleValue(*settings.incumbentWeight));
        m_incumbentWeight = settings.incumbentWeight;
    }
    if (settings.cohortWindow)
    {
        SetChecked("--cohortWindow", *probe, "CohortWindow", TimeValue(*settings.cohortWindow));
        m_cohortWindow = settings.cohortWindow;
    }
}

void
FlowBackend::ConfigureModel(Ptr<SharingModel> model) const
{
    Ptr<CalibratedSharing> calibrated = DynamicCast<CalibratedSharing>(model);
    if (!calibrated)
    {
        return;
    }
    if (m_incumbentWeight)
    {
        calibrated->SetAttribute("IncumbentWeight", DoubleValue(*m_incumbentWeight));
    }
    if (m_cohortWindow)
    {
        calibrated->SetAttribute("CohortWindow", TimeValue(*m_cohortWindow));
    }
}

void
FlowBackend::RecordModelParameters(Ptr<const SharingModel> model, TrainingResult& result)
{
    Ptr<const CalibratedSharing> calibrated = DynamicCast<const CalibratedSharing>(model);
    if (calibrated)
    {
        DoubleValue weight;
        TimeValue window;
        calibrated->GetAttribute("IncumbentWeight", weight);
        calibrated->GetAttribute("CohortWindow", window);
        result.inputs["incumbent_weight"] = weight.Get();
        result.inputs["cohort_window_s"] = window.Get().GetSeconds();
    }
}

FlowLevelSimulator::Options
FlowBackend::MakeOptions(const TrainingScenario& scenario) const
{
    FlowLevelSimulator::Options options;
    if (m_windowModel && scenario.architecture == TrainingScenario::PARAMETER_SERVER)
    {
        // The packet level's socket buffer, round trip and buffers (one rule for both).
        options.windowBytes
            = TrainingNetwork::GetSocketBufferBytes(scenario, scenario.sendBufferBytes);
        options.baseRtt = TrainingNetwork::GetBaseRttSeconds(scenario);
        options.switchBufferBytes = TrainingNetwork::GetBufferBytes(scenario, false);
        options.hostBufferBytes = TrainingNetwork::GetBufferBytes(scenario, true);
    }
    options.useGoodput = m_useGoodput;
    options.recordTransfers = m_recordTransfers;
    options.records = GetRunContext().records;
    options.parsingPerByte = m_parsingPerByte;
    options.parsingPerTensor = m_parsingPerTensor.GetSeconds();
    return options;
}

void
FlowBackend::AddWindowInputs(const std::string& sharing,
                             const FlowLevelSimulator::Options& options,
                             TrainingResult& result)
{
    result.variant = sharing + "-window";
    result.inputs["window_bytes"] = options.windowBytes;
    result.inputs["window_base_rtt_s"] = options.baseRtt;
    result.inputs["window_host_buffer_bytes"] = options.hostBufferBytes;
    result.inputs["window_switch_buffer_bytes"] = options.switchBufferBytes;
}

namespace
{

/**
 * \param scenario a scenario
 * \return whether it runs with the registry's RING model: the ring collective of --arch=ring,
 *         whose every NIC direction carries one flow (the other collectives put several on one
 *         NIC and use the chosen model)
 */
bool
UsesRingSharing(const TrainingScenario& scenario)
{
    return scenario.architecture == TrainingScenario::RING_ALLREDUCE
           && scenario.collective == "ring";
}

/**
 * \brief The notes on per-flow caps: the model that ran ignores the scenario's cap, or, without a
 * cap, the model asked for is another's capped form and so equals it (capped: ps).
 * \param scenario the scenario
 * \param sharing the model asked for
 * \param run the model that ran (FlowBackend::GetModelToRun)
 * \param result the result to complete
 */
void
AddCapNotes(const TrainingScenario& scenario,
            const std::string& sharing,
            const std::string& run,
            TrainingResult& result)
{
    const bool capped = scenario.flowCap.GetBitRate() > 0;
    if (capped && !SharingModelRegistry::Find(run).Has(SharingModelRegistry::HONOURS_CAPS))
    {
        std::ostringstream os;
        os << "the " << sharing << " model ignores the per-flow cap of "
           << scenario.flowCap.GetBitRate() / 1e9 << " Gbps (as Algorithm 1 does); "
           << "--sharing=capped honours it";
        result.notes.push_back(os.str());
    }
    for (const auto& e : SharingModelRegistry::GetEntries())
    {
        if (!capped && e.cappedForm == sharing && e.name != sharing)
        {
            result.notes.push_back("no --flowCap: " + sharing + " sharing equals " + e.name);
        }
    }
}

} // namespace

TrainingResult
FlowBackend::RunOne(const TrainingProfile& profile,
                    const TrainingScenario& scenario,
                    const std::string& sharing) const
{
    NS_LOG_FUNCTION(this << sharing);
    const bool window
        = m_windowModel && scenario.architecture == TrainingScenario::PARAMETER_SERVER;
    const std::string run = GetModelToRun(sharing, window);
    Ptr<SharingModel> model = SharingModelRegistry::Create(run);
    ConfigureModel(model);
    FlowLevelSimulator::Options options = MakeOptions(scenario);
    FlowLevelSimulator simulator(profile, scenario, model, options);
    TrainingResult result = simulator.Run();
    RecordModelParameters(model, result);
    if (window)
    {
        AddWindowInputs(sharing, options, result);
    }
    AddCapNotes(scenario, sharing, run, result);
    if (m_parsingPerByte > 0 || m_parsingPerTensor.IsStrictlyPositive())
    {
        result.inputs["parsing_alpha_s_per_byte"] = m_parsingPerByte;
        result.inputs["parsing_beta_s"] = m_parsingPerTensor.GetSeconds();
    }
    return result;
}

std::vector<TrainingResult>
FlowBackend::RunComparison(const TrainingProfile& profile, const TrainingScenario& scenario) const
{
    NS_LOG_FUNCTION(this);
    if (UsesRingSharing(scenario))
    {
        return {RunOne(profile, scenario, SharingModelRegistry::GetRing().name)};
    }
    std::vector<TrainingResult> results;
    for (const std::string& sharing : SharingModelRegistry::Names(SharingModelRegistry::IN_ALL))
    {
        Ptr<FlowBackend> one = CopyObject<FlowBackend>(this);
        one->m_sharing = sharing;
        one->m_hybridParts = false;
        one->m_windowModel = false;
        one->m_customSharing = nullptr;
        for (auto& r : one->Run(profile, scenario))
        {
            results.push_back(std::move(r));
        }
    }
    if (scenario.architecture != TrainingScenario::PARAMETER_SERVER)
    {
        return results; // the window model is the parameter servers'
    }
    Ptr<FlowBackend> window = CopyObject<FlowBackend>(this);
    window->m_sharing = DEFAULT_SHARING;
    window->m_windowModel = true;
    window->m_customSharing = nullptr;
    for (auto& r : window->Run(profile, scenario))
    {
        results.push_back(std::move(r));
    }
    return results;
}

void
FlowBackend::CheckWindowSharing(bool parameterServer) const
{
    if (!m_windowModel || !parameterServer || m_customSharing
        || !GetModelToRun(m_sharing, true).empty())
    {
        return;
    }
    // The models to suggest: those of --backend=all that honour caps or have a capped form.
    std::vector<std::string> usable;
    for (const auto& e : SharingModelRegistry::GetEntries())
    {
        if (e.Has(SharingModelRegistry::IN_ALL) && !GetModelToRun(e.name, true).empty())
        {
            usable.push_back(e.name);
        }
    }
    throw TrainingInputError(
        "--windowModel: needs --sharing=" + SharingModelRegistry::Join(usable, " or ")
        + " (the window limit is a per-flow cap, which " + m_sharing + " ignores)");
}

TrainingResult
FlowBackend::MakeMean(const SharingModelRegistry::Entry& composite,
                      const TrainingResult& first,
                      const TrainingResult& second)
{
    const std::string& name = composite.name;
    const std::string& a = composite.meanOf.first;
    const std::string& b = composite.meanOf.second;
    TrainingResult mean(first.recordStream);
    mean.backend = "flow";
    mean.variant = name;
    mean.throughput = (first.throughput + second.throughput) / 2;
    mean.stepTimeMean = (first.stepTimeMean + second.stepTimeMean) / 2;
    mean.wallSeconds = first.wallSeconds + second.wallSeconds;
    mean.inputs = second.inputs;
    mean.inputs.erase("events");
    mean.inputs.erase("rate_computations");
    mean.inputs.erase("sharing_flows");
    mean.inputs["throughput_" + a] = first.throughput;
    mean.inputs["throughput_" + b] = second.throughput;
    mean.inputs["step_time_" + a + "_s"] = first.stepTimeMean;
    mean.inputs["step_time_" + b + "_s"] = second.stepTimeMean;
    mean.notes.push_back(name + " = mean of the " + a + " and " + b
                         + " throughputs (000 Sec. 3.2.1) and of their step times; per-step and "
                           "per-transfer records are in those two results");
    for (const auto& n : second.notes)
    {
        mean.notes.push_back(b + ": " + n);
    }
    for (const auto& n : first.notes)
    {
        mean.notes.push_back(a + ": " + n);
    }
    return mean;
}

std::vector<TrainingResult>
FlowBackend::Run(const TrainingProfile& profile, const TrainingScenario& scenario) const
{
    NS_LOG_FUNCTION(this);
    profile.Validate(profile.GetSourceName().empty() ? "profile" : profile.GetSourceName());
    scenario.Validate(profile);

    if (UsesRingSharing(scenario))
    {
        const std::string ring = SharingModelRegistry::GetRing().name;
        TrainingResult r = RunOne(profile, scenario, ring);
        if (m_sharingGiven && m_sharing != ring)
        {
            // Only when chosen: the default ps is no choice a ring could ignore.
            r.notes.push_back("ring AllReduce uses " + ring
                              + " sharing (000 Sec. 3.2.2); --sharing=" + m_sharing
                              + " does not apply");
        }
        if (m_windowModel)
        {
            r.notes.push_back("--windowModel applies to parameter servers only (a ring NIC "
                              "direction carries one flow, and its send buffer is at least 1 MiB)");
        }
        return {r};
    }
    CheckWindowSharing(scenario.architecture == TrainingScenario::PARAMETER_SERVER);
    if (m_customSharing)
    {
        FlowLevelSimulator simulator(profile, scenario, m_customSharing, MakeOptions(scenario));
        TrainingResult r = simulator.Run();
        RecordModelParameters(m_customSharing, r);
        return {r};
    }
    const SharingModelRegistry::Entry entry = SharingModelRegistry::Find(m_sharing);
    if (!entry.IsComposite())
    {
        return {RunOne(profile, scenario, m_sharing)};
    }

    // 000 Sec. 3.2.1 (hybrid): simulate with FCFS and with PS sharing, predict the mean.
    TrainingResult first = RunOne(profile, scenario, entry.meanOf.first);
    TrainingResult second = RunOne(profile, scenario, entry.meanOf.second);
    TrainingResult mean = MakeMean(entry, first, second);
    if (!m_hybridParts)
    {
        return {mean};
    }
    first.notes.push_back("part of --sharing=" + entry.name);
    second.notes.push_back("part of --sharing=" + entry.name);
    return {mean, first, second};
}

namespace
{

/// Move a job's records and window by its start time (an engine begins at 0, and nothing in it
/// depends on absolute time: random streams are keyed by worker and step).
void
ShiftResult(TrainingResult& r, double t0)
{
    for (auto& x : r.steps)
    {
        x.start += t0;
        x.end += t0;
    }
    for (auto& x : r.transfers)
    {
        x.start += t0;
        x.end += t0;
    }
    r.windowStart += t0;
    r.windowEnd += t0;
}

/**
 * \param own a link name of a job's own fabric ("worker0->leaf0")
 * \param hosts the job's SharedHostNames
 * \return its name in the shared fabric, where the job's hosts are "<job>.<role>"
 */
std::string
SharedLinkName(const std::string& own, const std::unordered_map<std::string, std::string>& hosts)
{
    auto host = [&](const std::string& n)
    {
        auto it = hosts.find(n);
        return it == hosts.end() ? n : it->second;
    };
    const auto arrow = own.find("->");
    return arrow == std::string::npos
               ? own
               : host(own.substr(0, arrow)) + "->" + host(own.substr(arrow + 2));
}

/**
 * \param job a job
 * \return its hosts' names in its own scenario ("worker0") -> in the shared fabric ("a.worker0")
 *         (a map, so that renaming a link costs O(1), not O(roles))
 */
std::unordered_map<std::string, std::string>
SharedHostNames(const TrainingJob& job)
{
    std::unordered_map<std::string, std::string> hosts;
    for (uint32_t r = 0; r < job.GetNRoles(); ++r)
    {
        const std::string n = job.scenario.GetRoleName(r);
        hosts.emplace(n, job.name + "." + n);
    }
    return hosts;
}

/**
 * \param set the jobs
 * \param j a job
 * \return whether a directed link of job j is crossed by another job too (its transfers then
 *         take part in the shared rate computation)
 */
bool SharesLink(const TrainingJobSet& set, uint32_t j);

/**
 * \param set the jobs
 * \return whether one of them is a parameter server (the window model applies to those)
 */
bool
HasParameterServer(const TrainingJobSet& set)
{
    for (const auto& job : set.GetJobs())
    {
        if (job.scenario.architecture == TrainingScenario::PARAMETER_SERVER)
        {
            return true;
        }
    }
    return false;
}

bool
SharesLink(const TrainingJobSet& set, uint32_t j)
{
    const auto mine = set.GetJobLinks(j);
    for (uint32_t i = 0; i < set.GetJobs().size(); ++i)
    {
        const auto theirs = i == j ? std::vector<uint32_t>{} : set.GetJobLinks(i);
        std::vector<uint32_t> common;
        std::set_intersection(mine.begin(),
                              mine.end(),
                              theirs.begin(),
                              theirs.end(),
                              std::back_inserter(common));
        if (!common.empty())
        {
            return true;
        }
    }
    return false;
}

/// A ring that shares links with another job is the shared run's least checked case: say so.
void
NoteSharedRing(const TrainingJobSet& set, JobSetResult& out)
{
    for (uint32_t j = 0; j < set.GetJobs().size(); ++j)
    {
        if (set.GetJobs()[j].scenario.architecture == TrainingScenario::RING_ALLREDUCE
            && SharesLink(set, j))
        {
            out.notes.push_back(
                "a ring that shares links with another job is not validated against the packet "
                "level: two rings spread over a 2:1 leaf-spine lost 38 % each here and 5-16 % "
                "at the packet level (doc/validation/fabric-congestion.rst, \"Rings sharing "
                "links\")");
            return;
        }
    }
}

} // namespace

std::vector<TrainingResult>
FlowBackend::RunJobResults(const TrainingJobSet& set, const std::string& sharing) const
{
    const auto& jobs = set.GetJobs();
    const TrainingScenario* psScenario = nullptr; // the window model's network (one for all)
    for (const auto& job : jobs)
    {
        if (!psScenario && job.scenario.architecture == TrainingScenario::PARAMETER_SERVER)
        {
            psScenario = &job.scenario;
        }
    }
    const bool window = m_windowModel && psScenario;
    // As for one job: the window limit is a cap (GetModelToRun).
    Ptr<SharingModel> model = m_customSharing
                                  ? m_customSharing
                                  : SharingModelRegistry::Create(GetModelToRun(sharing, window));
    if (!m_customSharing)
    {
        ConfigureModel(model);
    }
    const FlowLevelSimulator::Options options
        = MakeOptions(psScenario ? *psScenario : set.GetFabricScenario());
    // One clock and one rate computation for the parameter servers and every ring that crosses
    // a link another job uses; a ring on links of its own keeps its closed form (exact there).
    std::vector<FlowLevelSimulator::Job> shared;
    std::vector<bool> inShared;
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        inShared.push_back(jobs[j].scenario.architecture == TrainingScenario::PARAMETER_SERVER
                           || SharesLink(set, j));
        if (inShared.back())
        {
            shared.push_back({jobs[j].profile.get(),
                              &jobs[j].scenario,
                              jobs[j].startTime,
                              &set.GetFabric(),
                              jobs[j].hosts});
        }
    }
    std::vector<TrainingResult> sharedResults;
    if (!shared.empty())
    {
        sharedResults = FlowLevelSimulator::RunJobs(shared, model, options);
    }
    std::vector<TrainingResult> results;
    std::size_t next = 0;
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        if (!inShared[j])
        {
            // As for one job alone (Run): the ring collective with the ring's model, the others
            // with the chosen one, so that a job alone and the same job in a set agree.
            TrainingResult r = RunOne(
                *jobs[j].profile,
                jobs[j].scenario,
                UsesRingSharing(jobs[j].scenario) ? SharingModelRegistry::GetRing().name : sharing);
            ShiftResult(r, jobs[j].startTime);
            results.push_back(std::move(r));
            continue;
        }
        TrainingResult& r = sharedResults[next++];
        RecordModelParameters(model, r);
        if (window && jobs[j].scenario.architecture == TrainingScenario::PARAMETER_SERVER)
        {
            AddWindowInputs(sharing, options, r);
        }
        results.push_back(std::move(r));
    }
    return results;
}

JobSetResult
FlowBackend::RunJobSet(const TrainingJobSet& set, const std::string& sharing) const
{
    NS_LOG_FUNCTION(this << sharing);
    auto wallStart = std::chrono::steady_clock::now();
    const auto& jobs = set.GetJobs();
    const FabricTopology& placed = set.GetFabric();
    JobSetResult out;
    out.backend = "flow";
    std::vector<double> utilisation(placed.GetNLinks(), 0);
    std::vector<uint8_t> listed(placed.GetNLinks(), 0);
    std::vector<TrainingResult> results = RunJobResults(set, sharing);
    // Headed by what ran: a ring on links of its own runs with allreduce, the shared run with
    // the chosen model ("ps+allreduce" when both ran).
    for (const auto& r : results)
    {
        if (("+" + out.variant + "+").find("+" + r.variant + "+") == std::string::npos)
        {
            out.variant += (out.variant.empty() ? "" : "+") + r.variant;
        }
    }
    std::map<std::string, uint32_t> index;
    for (uint32_t l = 0; l < placed.GetNLinks(); ++l)
    {
        index[placed.GetLink(l).name] = l;
    }
    for (std::size_t j = 0; j < jobs.size(); ++j)
    {
        TrainingResult& r = results[j];
        r.inputs["start_time_s"] = jobs[j].startTime;
        // The job's own scenario names its roles' hosts "worker0", ...; the shared fabric
        // "<job>.worker0" (on a star, the job's own star is smaller: match by name, not index).
        const auto hosts = SharedHostNames(jobs[j]);
        std::map<std::string, double> renamed;
        for (const auto& [name, u] : r.linkUtilisation)
        {
            const std::string shared = SharedLinkName(name, hosts);
            auto it = index.find(shared);
            NS_ABORT_MSG_IF(it == index.end(), "no link " << shared << " in the shared fabric");
            renamed[shared] = u;
            utilisation[it->second] += u;
            listed[it->second] = 1;
        }
        r.bottleneck = r.bottleneck.empty() ? "" : SharedLinkName(r.bottleneck, hosts);
        r.linkUtilisation = renamed;
        out.jobs.push_back(std::move(r));
    }
    out.windowStart = std::numeric_limits<double>::infinity();
    for (const auto& r : out.jobs)
    {
        out.windowStart = std::min(out.windowStart, r.windowStart);
        out.windowEnd = std::max(out.windowEnd, r.windowEnd);
    }
    for (uint32_t l = 0; l < placed.GetNLinks(); ++l)
    {
        if (listed[l])
        {
            out.links.push_back({placed.GetLink(l).name, utilisation[l], 0, 0});
        }
    }
    out.notes.push_back("flow: parameter-server jobs and rings that cross another job's link "
                        "share one clock and one rate computation (a ring at its slowest "
                        "flow's rate); a ring on links of its own keeps its closed form; link "
                        "utilisation = the sum of the jobs' utilisations in their own windows; "
                        "the fluid model has no queues: no drops, ECN marks or RTOs are "
                        "modelled");
    NoteSharedRing(set, out);
    out.wallSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    return out;
}

std::vector<JobSetResult>
FlowBackend::RunJobs(const TrainingJobSet& set) const
{
    NS_LOG_FUNCTION(this);
    CheckWindowSharing(HasParameterServer(set));
    if (m_customSharing)
    {
        return {RunJobSet(set, m_sharing)};
    }
    const SharingModelRegistry::Entry entry = SharingModelRegistry::Find(m_sharing);
    return entry.IsComposite() ? RunJobSetMean(set, entry)
                               : std::vector<JobSetResult>{RunJobSet(set, m_sharing)};
}

std::vector<JobSetResult>
FlowBackend::RunJobSetMean(const TrainingJobSet& set,
                           const SharingModelRegistry::Entry& composite) const
{
    // 000 Sec. 3.2.1 per job, as for one job: the two shared runs (fcfs, ps), then the mean of
    // each job's throughput and step time; the fabric's utilisation is the two runs' mean.
    JobSetResult first = RunJobSet(set, composite.meanOf.first);
    JobSetResult second = RunJobSet(set, composite.meanOf.second);
    JobSetResult mean = second;
    mean.variant = composite.name;
    for (std::size_t j = 0; j < mean.jobs.size(); ++j)
    {
        mean.jobs[j] = MakeMean(composite, first.jobs[j], second.jobs[j]);
    }
    for (std::size_t l = 0; l < mean.links.size(); ++l)
    {
        NS_ABORT_MSG_IF(first.links[l].name != second.links[l].name, "the runs list other links");
        mean.links[l].utilisation = (first.links[l].utilisation + second.links[l].utilisation) / 2;
    }
    mean.windowStart = std::min(first.windowStart, second.windowStart);
    mean.windowEnd = std::max(first.windowEnd, second.windowEnd);
    mean.wallSeconds = first.wallSeconds + second.wallSeconds;
    mean.notes.insert(mean.notes.begin(),
                      composite.name + " = per job the mean of the " + composite.meanOf.first
                          + " and " + composite.meanOf.second
                          + " shared runs' throughputs and step times (000 Sec. 3.2.1); link "
                            "utilisation = the mean of their utilisations; records are in those "
                            "two results");
    if (!m_hybridParts)
    {
        return {mean};
    }
    first.notes.push_back("part of --sharing=" + composite.name);
    second.notes.push_back("part of --sharing=" + composite.name);
    return {mean, first, second};
}

} // namespace ns3

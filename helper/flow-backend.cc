/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-backend.h"

#include "training-job-set.h"

#include "ns3/allreduce-sharing.h"
#include "ns3/boolean.h"
#include "ns3/calibrated-sharing.h"
#include "ns3/capped-sharing.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-topology.h"
#include "ns3/fcfs-sharing.h"
#include "ns3/flow-level-simulator.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/ps-sharing.h"
#include "ns3/training-input-error.h"
#include "ns3/training-network.h"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <limits>
#include <map>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowBackend");

NS_OBJECT_ENSURE_REGISTERED(FlowBackend);
DT_REGISTER_BACKEND("flow",
                    FlowBackend,
                    20,
                    true,
                    "flow-level simulator, Algorithm 1 of 000 with pluggable sharing (ms)");

TypeId
FlowBackend::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::FlowBackend")
              .SetParent<TrainingBackend>()
              .SetGroupName("DistributedTraining")
              .AddConstructor<FlowBackend>()
              .AddAttribute("Sharing",
                            "How concurrent transfers share the links: fcfs, ps, capped (max-min "
                            "with the scenario's per-flow cap), hybrid (mean of fcfs and ps, 000 "
                            "Sec. 3.2.1), calibrated (age-weighted, CalibratedSharing; its "
                            "attributes set its parameters) or allreduce (full bandwidth). Ring "
                            "scenarios always use allreduce.",
                            EnumValue(PS),
                            DtMakeEnumAccessor<Sharing>(&FlowBackend::m_sharing),
                            MakeEnumChecker(FCFS,
                                            "fcfs",
                                            PS,
                                            "ps",
                                            CAPPED,
                                            "capped",
                                            HYBRID,
                                            "hybrid",
                                            CALIBRATED,
                                            "calibrated",
                                            ALLREDUCE,
                                            "allreduce"))
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
              .AddAttribute("WindowModel",
                            "Parameter servers: limit every connection to its socket buffer per "
                            "round trip, the round trip including the standing queues in front "
                            "of its server's link in both directions (doc/flow-level.rst, Window "
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
    : m_sharing(PS),
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

FlowBackend::Sharing
FlowBackend::ParseSharing(const std::string& value)
{
    for (Sharing s : {FCFS, PS, CAPPED, HYBRID, CALIBRATED, ALLREDUCE})
    {
        if (value == GetSharingName(s))
        {
            return s;
        }
    }
    throw TrainingInputError("--sharing: unknown value '" + value
                             + "' (expected fcfs, ps, capped, hybrid, calibrated)");
}

std::string
FlowBackend::GetSharingName(Sharing sharing)
{
    switch (sharing)
    {
        case FCFS:
            return "fcfs";
        case PS:
            return "ps";
        case CAPPED:
            return "capped";
        case HYBRID:
            return "hybrid";
        case CALIBRATED:
            return "calibrated";
        case ALLREDUCE:
            return "allreduce";
    }
    return "?";
}

Ptr<SharingModel>
FlowBackend::CreateSharing(Sharing sharing)
{
    switch (sharing)
    {
        case FCFS:
            return CreateObject<FcfsSharing>();
        case PS:
            return CreateObject<PsSharing>();
        case CAPPED:
            return CreateObject<CappedSharing>();
        case ALLREDUCE:
            return CreateObject<AllReduceSharing>();
        case CALIBRATED:
            return CreateObject<CalibratedSharing>();
        case HYBRID:
            break;
    }
    NS_FATAL_ERROR("no single sharing model for " << GetSharingName(sharing));
    return nullptr;
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
    options.parsingPerByte = m_parsingPerByte;
    options.parsingPerTensor = m_parsingPerTensor.GetSeconds();
    return options;
}

TrainingResult
FlowBackend::RunOne(const TrainingProfile& profile,
                    const TrainingScenario& scenario,
                    Sharing sharing) const
{
    NS_LOG_FUNCTION(this << GetSharingName(sharing));
    const bool window
        = m_windowModel && scenario.architecture == TrainingScenario::PARAMETER_SERVER;
    // The window model works through per-flow caps, which PsSharing ignores; with caps that do
    // not bind, CappedSharing is PsSharing.
    Ptr<SharingModel> model = CreateSharing(window && sharing == PS ? CAPPED : sharing);
    FlowLevelSimulator::Options options = MakeOptions(scenario);
    FlowLevelSimulator simulator(profile, scenario, model, options);
    TrainingResult result = simulator.Run();
    RecordModelParameters(model, result);
    if (window)
    {
        result.variant = GetSharingName(sharing) + "-window";
        result.inputs["window_bytes"] = options.windowBytes;
        result.inputs["window_base_rtt_s"] = options.baseRtt;
        result.inputs["window_host_buffer_bytes"] = options.hostBufferBytes;
        result.inputs["window_switch_buffer_bytes"] = options.switchBufferBytes;
    }
    if (scenario.flowCap.GetBitRate() > 0 && (sharing == FCFS || (sharing == PS && !window)))
    {
        std::ostringstream os;
        os << "the " << GetSharingName(sharing) << " model ignores the per-flow cap of "
           << scenario.flowCap.GetBitRate() / 1e9 << " Gbps (as Algorithm 1 does); "
           << "--sharing=capped honours it";
        result.notes.push_back(os.str());
    }
    if (sharing == CAPPED && scenario.flowCap.GetBitRate() == 0)
    {
        result.notes.push_back("no --flowCap: capped sharing equals ps");
    }
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
    if (scenario.architecture == TrainingScenario::RING_ALLREDUCE)
    {
        return {RunOne(profile, scenario, ALLREDUCE)};
    }
    std::vector<TrainingResult> results;
    for (Sharing sharing : {FCFS, PS, CAPPED, HYBRID, CALIBRATED})
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
    Ptr<FlowBackend> window = CopyObject<FlowBackend>(this);
    window->m_sharing = PS;
    window->m_windowModel = true;
    window->m_customSharing = nullptr;
    for (auto& r : window->Run(profile, scenario))
    {
        results.push_back(std::move(r));
    }
    return results;
}

std::vector<TrainingResult>
FlowBackend::Run(const TrainingProfile& profile, const TrainingScenario& scenario) const
{
    NS_LOG_FUNCTION(this);
    profile.Validate(profile.GetSourceName().empty() ? "profile" : profile.GetSourceName());
    scenario.Validate(profile);

    if (scenario.architecture == TrainingScenario::RING_ALLREDUCE)
    {
        TrainingResult r = RunOne(profile, scenario, ALLREDUCE);
        if (m_sharing != ALLREDUCE)
        {
            r.notes.push_back("ring AllReduce uses allreduce sharing (000 Sec. 3.2.2); --sharing="
                              + GetSharingName(m_sharing) + " does not apply");
        }
        if (m_windowModel)
        {
            r.notes.push_back("--windowModel applies to parameter servers only (a ring NIC "
                              "direction carries one flow, and its send buffer is at least 1 MiB)");
        }
        return {r};
    }
    if (m_windowModel && scenario.architecture == TrainingScenario::PARAMETER_SERVER
        && !m_customSharing && (m_sharing == FCFS || m_sharing == HYBRID))
    {
        throw TrainingInputError("--windowModel: needs --sharing=ps, capped or calibrated (the "
                                 "window limit is a per-flow cap, which "
                                 + GetSharingName(m_sharing) + " ignores)");
    }
    if (m_customSharing)
    {
        FlowLevelSimulator simulator(profile, scenario, m_customSharing, MakeOptions(scenario));
        TrainingResult r = simulator.Run();
        RecordModelParameters(m_customSharing, r);
        return {r};
    }
    if (m_sharing != HYBRID)
    {
        return {RunOne(profile, scenario, m_sharing)};
    }

    // 000 Sec. 3.2.1: simulate with FCFS and with PS sharing, predict the mean throughput.
    TrainingResult fcfs = RunOne(profile, scenario, FCFS);
    TrainingResult ps = RunOne(profile, scenario, PS);
    TrainingResult hybrid;
    hybrid.backend = "flow";
    hybrid.variant = "hybrid";
    hybrid.throughput = (fcfs.throughput + ps.throughput) / 2;
    hybrid.stepTimeMean = (fcfs.stepTimeMean + ps.stepTimeMean) / 2;
    hybrid.wallSeconds = fcfs.wallSeconds + ps.wallSeconds;
    hybrid.inputs = ps.inputs;
    hybrid.inputs.erase("events");
    hybrid.inputs.erase("rate_computations");
    hybrid.inputs.erase("sharing_flows");
    hybrid.inputs["throughput_fcfs"] = fcfs.throughput;
    hybrid.inputs["throughput_ps"] = ps.throughput;
    hybrid.inputs["step_time_fcfs_s"] = fcfs.stepTimeMean;
    hybrid.inputs["step_time_ps_s"] = ps.stepTimeMean;
    hybrid.notes.push_back("hybrid = mean of the fcfs and ps throughputs (000 Sec. 3.2.1) and of "
                           "their step times; per-step and per-transfer records are in those two "
                           "results");
    for (const auto& n : ps.notes)
    {
        hybrid.notes.push_back("ps: " + n);
    }
    for (const auto& n : fcfs.notes)
    {
        hybrid.notes.push_back("fcfs: " + n);
    }
    if (!m_hybridParts)
    {
        return {hybrid};
    }
    fcfs.notes.push_back("part of --sharing=hybrid");
    ps.notes.push_back("part of --sharing=hybrid");
    return {hybrid, fcfs, ps};
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

/// \return [first step start, last step end] of a result
std::pair<double, double>
ActiveInterval(const TrainingResult& r)
{
    std::pair<double, double> span{std::numeric_limits<double>::infinity(), 0};
    for (const auto& x : r.steps)
    {
        span.first = std::min(span.first, x.start);
        span.second = std::max(span.second, x.end);
    }
    return span;
}

/**
 * Refuse two jobs of which one is a ring that cross one directed link while both run: the ring
 * engine evaluates a step in closed form, so it cannot share a link with another job's flows.
 */
void
CheckIndependent(const TrainingJobSet& set, const std::vector<TrainingResult>& results)
{
    const auto& jobs = set.GetJobs();
    auto ring = [&](uint32_t j)
    {
        return jobs[j].scenario.architecture == TrainingScenario::RING_ALLREDUCE;
    };
    for (uint32_t i = 0; i < jobs.size(); ++i)
    {
        const auto a = ActiveInterval(results[i]);
        const auto li = set.GetJobLinks(i);
        for (uint32_t j = i + 1; j < jobs.size(); ++j)
        {
            const auto b = ActiveInterval(results[j]);
            if ((!ring(i) && !ring(j)) || a.first >= b.second || b.first >= a.second)
            {
                continue; // shared by the PS engines, or one ends before the other starts
            }
            const auto lj = set.GetJobLinks(j);
            std::vector<uint32_t> common;
            std::set_intersection(li.begin(),
                                  li.end(),
                                  lj.begin(),
                                  lj.end(),
                                  std::back_inserter(common));
            if (!common.empty())
            {
                throw TrainingInputError(
                    "--jobs: jobs " + jobs[i].name + " and " + jobs[j].name + " both cross "
                    + set.GetFabric().GetLink(common.front()).name + " (and "
                    + std::to_string(common.size() - 1)
                    + " more links) while both run, and one is a ring: the flow backend's ring "
                      "engine computes steps in closed form and cannot share a link with another "
                      "job (expected --backend=packet, or placements or start times that keep "
                      "a ring apart)");
            }
        }
    }
}

} // namespace

std::vector<TrainingResult>
FlowBackend::RunJobResults(const TrainingJobSet& set) const
{
    const auto& jobs = set.GetJobs();
    if (m_windowModel || (!m_customSharing && m_sharing == HYBRID))
    {
        throw TrainingInputError("--jobs: with --windowModel or --sharing=hybrid (expected one "
                                 "job; several jobs run with one sharing model, no window)");
    }
    Ptr<SharingModel> model = m_customSharing ? m_customSharing : CreateSharing(m_sharing);
    std::vector<FlowLevelSimulator::Job> ps;
    for (const auto& job : jobs)
    {
        if (job.scenario.architecture == TrainingScenario::PARAMETER_SERVER)
        {
            ps.push_back({job.profile.get(), &job.scenario, job.startTime});
        }
    }
    // Parameter-server jobs: one clock, one rate computation over all their connections.
    std::vector<TrainingResult> shared;
    if (!ps.empty())
    {
        shared = FlowLevelSimulator::RunJobs(ps, model, MakeOptions(set.GetFabricScenario()));
    }
    std::vector<TrainingResult> results;
    std::size_t next = 0;
    for (const auto& job : jobs)
    {
        if (job.scenario.architecture == TrainingScenario::PARAMETER_SERVER)
        {
            RecordModelParameters(model, shared[next]);
            results.push_back(std::move(shared[next++]));
            continue;
        }
        // A ring on its own (CheckIndependent makes sure it shares no link while it runs).
        TrainingResult r = RunOne(*job.profile, job.scenario, ALLREDUCE);
        ShiftResult(r, job.startTime);
        results.push_back(std::move(r));
    }
    return results;
}

std::vector<JobSetResult>
FlowBackend::RunJobs(const TrainingJobSet& set) const
{
    NS_LOG_FUNCTION(this);
    auto wallStart = std::chrono::steady_clock::now();
    const auto& jobs = set.GetJobs();
    const FabricTopology& placed = set.GetFabric();
    JobSetResult out;
    out.backend = "flow";
    out.variant = m_customSharing ? m_customSharing->GetName() : GetSharingName(m_sharing);
    std::vector<double> utilisation(placed.GetNLinks(), 0);
    std::vector<uint8_t> listed(placed.GetNLinks(), 0);
    std::vector<TrainingResult> results = RunJobResults(set);
    for (std::size_t j = 0; j < jobs.size(); ++j)
    {
        TrainingResult& r = results[j];
        r.inputs["start_time_s"] = jobs[j].startTime;
        // The job's own fabric has the shared one's links in the same order; only the placed
        // hosts' names differ ("worker0" there, "<job>.worker0" here).
        const FabricTopology own = FabricTopology::FromScenario(jobs[j].scenario);
        std::map<std::string, double> renamed;
        for (uint32_t l = 0; l < own.GetNLinks(); ++l)
        {
            auto it = r.linkUtilisation.find(own.GetLink(l).name);
            if (it != r.linkUtilisation.end())
            {
                renamed[placed.GetLink(l).name] = it->second;
                utilisation[l] += it->second;
                listed[l] = 1;
                if (r.bottleneck == it->first)
                {
                    r.bottleneck = placed.GetLink(l).name;
                }
            }
        }
        r.linkUtilisation = renamed;
        out.jobs.push_back(std::move(r));
    }
    CheckIndependent(set, out.jobs);
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
    out.notes.push_back("flow: parameter-server jobs share one clock and one rate computation; "
                        "a ring job runs on its own (it shares no link while it runs); link "
                        "utilisation = the sum of the jobs' utilisations in their own windows; "
                        "the fluid model has no queues: no drops, ECN marks or RTOs are "
                        "modelled");
    out.wallSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    return {out};
}

} // namespace ns3

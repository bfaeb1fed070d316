/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-backend.h"

#include "ns3/allreduce-sharing.h"
#include "ns3/boolean.h"
#include "ns3/calibrated-sharing.h"
#include "ns3/capped-sharing.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fcfs-sharing.h"
#include "ns3/flow-level-simulator.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/ps-sharing.h"
#include "ns3/training-input-error.h"
#include "ns3/training-network.h"

#include <chrono>
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

} // namespace ns3

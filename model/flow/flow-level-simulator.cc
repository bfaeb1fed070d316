/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-level-simulator.h"

#include "flow-event-core.h"
#include "flow-ps-engine.h"
#include "flow-ring-engine.h"

#include "ns3/collective-cost-model.h"
#include "ns3/ecmp-collisions.h"
#include "ns3/fabric-topology.h"
#include "ns3/log.h"
#include "ns3/training-network.h"
#include "ns3/training-profile.h"
#include "ns3/training-scenario.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowLevelSimulator");

namespace
{
constexpr double INF = flow::INF; //!< no cap / never
} // namespace

FlowLevelSimulator::FlowLevelSimulator(const TrainingProfile& profile,
                                       const TrainingScenario& scenario,
                                       Ptr<const SharingModel> sharing,
                                       const Options& options)
    : m_profile(profile),
      m_scenario(scenario),
      m_sharing(sharing),
      m_options(options),
      m_events(0),
      m_rateComputations(0),
      m_sharingFlows(0),
      m_classWork(0)
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT_MSG(sharing, "no sharing model");
}

double
FlowLevelSimulator::GetLinkCapacity() const
{
    double raw = static_cast<double>(m_scenario.nicRate.GetBitRate()) / 8.0;
    if (!m_options.useGoodput)
    {
        return raw;
    }
    // The scenario's goodput rule (payload / wire bytes of a full segment).
    return TrainingNetwork::GetLinkGoodputBytesPerSecond(m_scenario);
}

double
FlowLevelSimulator::GetFlowCap() const
{
    if (m_scenario.flowCap.GetBitRate() == 0)
    {
        return INF;
    }
    double raw = static_cast<double>(m_scenario.flowCap.GetBitRate()) / 8.0;
    return m_options.useGoodput ? TrainingNetwork::GetGoodputBytesPerSecond(m_scenario) : raw;
}

uint64_t
FlowLevelSimulator::GetEventCount() const
{
    return m_events;
}

uint64_t
FlowLevelSimulator::GetRateComputations() const
{
    return m_rateComputations;
}

uint64_t
FlowLevelSimulator::GetSharingFlows() const
{
    return m_sharingFlows;
}

uint64_t
FlowLevelSimulator::GetClassWork() const
{
    return m_classWork;
}

TrainingResult
FlowLevelSimulator::Run()
{
    NS_LOG_FUNCTION(this);
    if (m_scenario.IsColocated())
    {
        return RunColocated();
    }
    auto wallStart = std::chrono::steady_clock::now();
    TrainingResult result(m_options.records);
    result.backend = "flow";
    result.variant = m_sharing->GetName();
    m_events = 0;
    m_rateComputations = 0;
    m_sharingFlows = 0;
    m_classWork = 0;
    const double flowCap = GetFlowCap();

    // The fabric (the star unless the scenario says otherwise) and the bytes each of its
    // directed links carried inside the measurement window.
    const flow::FlowFabric fabric(m_scenario, m_options.useGoodput);
    std::vector<double> bytes(fabric.GetCapacity().size(), 0);
    const flow::EngineInputs
        in{m_profile, m_scenario, *m_sharing, m_options, fabric, flowCap, result};
    if (m_scenario.architecture == TrainingScenario::PARAMETER_SERVER)
    {
        flow::FlowPsEngine engine(in);
        engine.Run();
        m_events = engine.events;
        m_rateComputations = engine.rateComputations;
        m_sharingFlows = engine.sharingFlows;
        m_classWork = engine.GetClassWork();
        for (flow::Direction d : {flow::DOWN, flow::UP})
        {
            const auto b = engine.GetLinkBytes(d);
            for (std::size_t l = 0; l < bytes.size(); ++l)
            {
                bytes[l] += b[l];
            }
        }
    }
    else
    {
        flow::FlowRingEngine engine(in);
        engine.Run();
        m_events = engine.events;
        m_rateComputations = engine.rateComputations;
        m_sharingFlows = engine.sharingFlows;
        bytes = engine.linkBytes;
        if (m_scenario.collective == "ring")
        {
            result.inputs["ring_rate_bytes_per_s"] = engine.ringRate;
        }
    }

    Finish(result, fabric, bytes, wallStart);
    return result;
}

TrainingResult
FlowLevelSimulator::RunColocated()
{
    // A host's NIC carries its server's parameters and its worker's gradients: the two
    // directions share links, so their rates are computed together, as several jobs' are.
    const FabricTopology fabric = m_scenario.BuildFabric();
    Job job{&m_profile, &m_scenario, 0.0, &fabric, {}};
    for (uint32_t r = 0; r < fabric.GetNRoles(); ++r)
    {
        job.hosts.push_back(fabric.GetRoleHost(r));
    }
    TrainingResult result = std::move(RunJobs({job}, m_sharing, m_options).at(0));
    m_events = static_cast<uint64_t>(result.inputs.at("events"));
    m_rateComputations = static_cast<uint64_t>(result.inputs.at("rate_computations"));
    return result;
}

void
FlowLevelSimulator::Finish(TrainingResult& result,
                           const flow::FlowFabric& fabric,
                           const std::vector<double>& bytes,
                           std::chrono::steady_clock::time_point wallStart) const
{
    const uint32_t k = m_scenario.workers;
    m_scenario.NoteWorkerUpdate(result, m_profile);
    // A node of G GPUs processes G batches per step (as the analytic and packet backends).
    result.Finalize(m_scenario, m_profile.GetBatchSize() * m_scenario.gpusPerNode);
    const std::string ncclNote = CollectiveCostModel::NcclNote(m_scenario, m_profile);
    if (!ncclNote.empty())
    {
        result.notes.push_back(ncclNote);
    }
    fabric.Report(bytes, result);
    result.NameServerUpdate(m_profile, m_scenario);
    if (m_scenario.topology != "star")
    {
        result.inputs["bisection_bps"] = fabric.GetTopology().GetBisectionBandwidth();
        EcmpCollisions::Report(m_scenario, result);
    }

    if (m_scenario.mode == TrainingScenario::ASYNC && k > 1 && IsLockstep(result))
    {
        result.notes.push_back(
            "async workers stayed in lockstep (every measured step ended at the same time on "
            "every worker): identical workers that start together never drift apart, unlike "
            "real ones; sample steps from a profile with per-step samples");
    }

    AddInputs(result);
    result.wallSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
}

void
FlowLevelSimulator::AddInputs(TrainingResult& result) const
{
    const double capacity = GetLinkCapacity();
    const double flowCap = GetFlowCap();
    result.inputs["B_bytes_per_s"] = capacity;
    if (flowCap < INF)
    {
        result.inputs["flow_cap_bytes_per_s"] = flowCap;
    }
    result.inputs["use_goodput"] = m_options.useGoodput ? 1 : 0;
    result.inputs["M_bytes"] = static_cast<double>(m_profile.GetTotalParamBytes());
    result.inputs["T_F_s"] = m_profile.GetForwardTime().GetSeconds();
    result.inputs["T_B_s"] = m_profile.GetBackwardTime().GetSeconds();
    result.inputs["T_S_s"] = m_profile.GetUpdateTime().GetSeconds();
    result.inputs["layers"] = static_cast<double>(m_profile.GetNLayers());
    result.inputs["events"] = static_cast<double>(m_events);
    result.inputs["rate_computations"] = static_cast<double>(m_rateComputations);
    if (m_sharingFlows > 0)
    {
        // What the rate computations cost: flows (or aggregates of identical flows) they saw.
        result.inputs["sharing_flows"] = static_cast<double>(m_sharingFlows);
    }
}

bool
FlowLevelSimulator::IsLockstep(const TrainingResult& result) const
{
    const uint32_t n = m_scenario.steps;
    std::vector<double> lo(n, INF);
    std::vector<double> hi(n, -INF);
    for (const auto& s : result.steps)
    {
        if (s.step < n)
        {
            lo[s.step] = std::min(lo[s.step], s.end);
            hi[s.step] = std::max(hi[s.step], s.end);
        }
    }
    bool any = false;
    for (uint32_t s = m_scenario.warmup; s < n; ++s)
    {
        if (hi[s] < lo[s])
        {
            continue;
        }
        any = true;
        if (hi[s] - lo[s] > 1e-9 * std::max(1e-9, hi[s]))
        {
            return false;
        }
    }
    return any;
}

} // namespace ns3
/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "analytic-backend.h"

#include "ns3/async-ps-model.h"
#include "ns3/collective-cost-model.h"
#include "ns3/colocated-ps-model.h"
#include "ns3/cynthia-model.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-topology.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/osf-model.h"
#include "ns3/ps-read-bounds-model.h"
#include "ns3/ring-allreduce-model.h"
#include "ns3/string.h"
#include "ns3/sync-ps-model.h"
#include "ns3/tensor-fusion.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/training-input-error.h"
#include "ns3/training-network.h"
#include "ns3/training-profile.h"
#include "ns3/training-scenario.h"
#include "ns3/uinteger.h"
#include "ns3/unit-parser.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AnalyticBackend");
NS_OBJECT_ENSURE_REGISTERED(AnalyticBackend);
DT_REGISTER_BACKEND("analytic",
                    AnalyticBackend,
                    30,
                    true,
                    "the seeds' closed forms and mean-value analysis, every variant that applies");

/// Everything the models need, derived once from the profile and scenario.
struct AnalyticInputs
{
    uint32_t workers{1};               //!< K
    uint32_t servers{1};               //!< P
    uint32_t gpus{1};                  //!< G
    uint32_t batch{1};                 //!< samples per step of one GPU
    double samplesPerStep{1};          //!< samples per step of one worker node (G batch)
    double modelBytes{0};              //!< M
    double serverBytes{0};             //!< M_s, busiest server's share
    double smallestServerBytes{0};     //!< the least-loaded server's share
    double flowRate{0};                //!< B
    double linkRate{0};                //!< B_link
    double forward{0};                 //!< T_F of one unscaled worker
    double backward{0};                //!< T_B of one unscaled worker
    double update{0};                  //!< T_S of the busiest server
    double workerUpdate{0};            //!< ring: a worker's own optimizer step, unscaled (s)
    double maxScale{1};                //!< slowest worker's compute multiplier
    double meanScale{1};               //!< mean compute multiplier
    double linkDelay{0};               //!< one-way propagation delay of one link
    double hopLatency{0};              //!< worker to worker through the switch: 2 link delays
    double roundTrip{0};               //!< worker to server and back: 4 link delays
    double intraPerByte{0};            //!< intra-node AllReduce: 2(G-1)/G / B_intra
    double intraPerOperation{0};       //!< intra-node AllReduce: 2(G-1) latency
    double intra{0};                   //!< intra-node AllReduce of M
    std::vector<double> layerBytes;    //!< D of each layer
    std::vector<double> layerForward;  //!< t_f of each layer (s)
    std::vector<double> layerBackward; //!< t_b of each layer (s)
    /// The run context's record sink: each result takes a run number in it, as the
    /// simulating backends' results do (the --recordsFile summary lines tell them apart).
    std::shared_ptr<TrainingResult::RecordSink> records;
    std::vector<double> bucketBytes; //!< ring: bytes of each fused bucket (TensorFusion)
};

namespace
{

using Derived = AnalyticInputs; //!< the inputs, as the helpers below call them

Derived
Derive(const TrainingProfile& profile, const TrainingScenario& scenario)
{
    Derived d;
    d.workers = scenario.workers;
    d.servers = scenario.servers;
    d.gpus = scenario.gpusPerNode;
    d.batch = profile.GetBatchSize();
    d.samplesPerStep = static_cast<double>(d.gpus) * d.batch;
    for (const auto& layer : profile.GetLayers())
    {
        d.layerBytes.push_back(static_cast<double>(layer.paramBytes));
        d.layerForward.push_back(layer.forwardUs * 1e-6);
        d.layerBackward.push_back(layer.backwardUs * 1e-6);
        d.modelBytes += static_cast<double>(layer.paramBytes);
        d.forward += layer.forwardUs * 1e-6;
        d.backward += layer.backwardUs * 1e-6;
    }
    if (scenario.architecture == TrainingScenario::PARAMETER_SERVER)
    {
        std::vector<uint32_t> owner = scenario.AssignLayersToServers(profile);
        std::vector<double> bytes(std::max<uint32_t>(d.servers, 1), 0.0);
        std::vector<double> update(bytes.size(), 0.0);
        for (std::size_t l = 0; l < owner.size(); ++l)
        {
            bytes[owner[l]] += static_cast<double>(profile.GetLayer(l).paramBytes);
            update[owner[l]] += profile.GetLayer(l).updateUs * 1e-6;
        }
        d.serverBytes = *std::max_element(bytes.begin(), bytes.end());
        d.smallestServerBytes = *std::min_element(bytes.begin(), bytes.end());
        d.update = *std::max_element(update.begin(), update.end());
    }
    if (scenario.architecture == TrainingScenario::RING_ALLREDUCE)
    {
        d.workerUpdate = scenario.GetWorkerUpdateUs(profile) * 1e-6;
        for (const auto& b : TensorFusion::FormBuckets(profile,
                                                       scenario.bucketBytes,
                                                       scenario.firstBucketBytes,
                                                       scenario.fusionTimeout))
        {
            d.bucketBytes.push_back(static_cast<double>(b.bytes));
        }
    }
    d.flowRate = TrainingNetwork::GetGoodputBytesPerSecond(scenario);
    if (!(d.flowRate > 0) || !std::isfinite(d.flowRate))
    {
        throw TrainingInputError("--nicRate: zero goodput (expected a positive NIC rate and, "
                                 "if set, a positive per-flow cap)");
    }
    d.linkRate = TrainingNetwork::GetLinkGoodputBytesPerSecond(scenario);
    d.maxScale = 0;
    d.meanScale = 0;
    for (uint32_t w = 0; w < d.workers; ++w)
    {
        d.maxScale = std::max(d.maxScale, scenario.GetComputeScale(w));
        d.meanScale += scenario.GetComputeScale(w) / d.workers;
    }
    d.linkDelay = scenario.linkDelay.GetSeconds();
    d.hopLatency = 2 * d.linkDelay;
    d.roundTrip = TrainingNetwork::GetPropagationRttSeconds(scenario);
    if (d.gpus > 1)
    {
        // Reduce before and broadcast after the exchange (TrainingNetwork, 000 Sec. 4.4).
        d.intraPerOperation = 2 * TrainingNetwork::GetIntraNodeHalfSeconds(scenario, 0.0);
        d.intraPerByte
            = 2 * TrainingNetwork::GetIntraNodeHalfSeconds(scenario, 1.0) - d.intraPerOperation;
        d.intra = 2 * TrainingNetwork::GetIntraNodeHalfSeconds(scenario, d.modelBytes);
    }
    return d;
}

/// A result with the inputs every variant shares.
TrainingResult
NewResult(const Derived& d, const std::string& variant)
{
    TrainingResult r(d.records);
    r.backend = "analytic";
    r.variant = variant;
    r.inputs["K"] = d.workers;
    r.inputs["G"] = d.gpus;
    r.inputs["batch"] = d.batch;
    r.inputs["samples_per_step_per_worker"] = d.samplesPerStep;
    r.inputs["M_bytes"] = d.modelBytes;
    r.inputs["B_bytes_per_s"] = d.flowRate;
    r.inputs["B_link_bytes_per_s"] = d.linkRate;
    r.inputs["T_F_s"] = d.forward;
    r.inputs["T_B_s"] = d.backward;
    r.inputs["compute_scale_max"] = d.maxScale;
    r.inputs["compute_scale_mean"] = d.meanScale;
    r.inputs["layers"] = static_cast<double>(d.layerBytes.size());
    r.inputs["link_delay_s"] = d.linkDelay;
    r.inputs["T_intra_s"] = d.intra;
    return r;
}

/// Set throughput and step time of a synchronous step of duration t.
void
SetSync(TrainingResult& r, const Derived& d, double stepTime)
{
    if (!(stepTime > 0) || !std::isfinite(stepTime))
    {
        throw TrainingInputError("profile: step time " + std::to_string(stepTime) + " s in model "
                                 + r.variant
                                 + " (expected a positive step time: give the layers forward or "
                                   "backward times)");
    }
    r.stepTimeMean = stepTime;
    r.throughput = d.workers * d.samplesPerStep / stepTime;
}

double
Mean(const std::vector<double>& v)
{
    double s = 0;
    for (double x : v)
    {
        s += x;
    }
    return v.empty() ? 0 : s / v.size();
}

} // namespace

TypeId
AnalyticBackend::AddOsfAttributes(TypeId tid)
{
    return tid
        .AddAttribute("AllReduceOverhead",
                      "Fixed per-AllReduce overhead of 004 Eq. (7) (framework, "
                      "negotiation); the latency part 2(N-1) x 2 link delays is added to "
                      "it.",
                      TimeValue(Seconds(0)),
                      MakeTimeAccessor(&AnalyticBackend::m_allReduceOverhead),
                      MakeTimeChecker(Seconds(0), Seconds(3600)))
        .AddAttribute("OsfTransferModel",
                      "AllReduce time of a tensor in the OSF models: Linear (004 Eq. (7)) "
                      "or Piecewise (004 Eq. (18)).",
                      EnumValue(TRANSFER_LINEAR),
                      DtMakeEnumAccessor<TransferModel>(&AnalyticBackend::m_transferModel),
                      MakeEnumChecker(TRANSFER_LINEAR, "Linear", TRANSFER_PIECEWISE, "Piecewise"))
        .AddAttribute("PiecewiseA1",
                      "004 Eq. (18) a1, seconds per log2(byte) below the threshold. If "
                      "a1, b1, a2 and b2 are all 0, they are derived from Eq. (7) (see "
                      "OsfModel::DefaultPiecewise).",
                      DoubleValue(0.0),
                      MakeDoubleAccessor(&AnalyticBackend::m_a1),
                      MakeDoubleChecker<double>(-1e3, 1e3))
        .AddAttribute("PiecewiseB1",
                      "004 Eq. (18) b1, seconds, below the threshold.",
                      DoubleValue(0.0),
                      MakeDoubleAccessor(&AnalyticBackend::m_b1),
                      MakeDoubleChecker<double>(-1e3, 1e3))
        .AddAttribute("PiecewiseA2",
                      "004 Eq. (18) a2, seconds per byte, at or above the threshold.",
                      DoubleValue(0.0),
                      MakeDoubleAccessor(&AnalyticBackend::m_a2),
                      MakeDoubleChecker<double>(0.0, 1.0))
        .AddAttribute("PiecewiseB2",
                      "004 Eq. (18) b2, seconds, at or above the threshold.",
                      DoubleValue(0.0),
                      MakeDoubleAccessor(&AnalyticBackend::m_b2),
                      MakeDoubleChecker<double>(-1e3, 1e3))
        .AddAttribute("PiecewiseThreshold",
                      "004 Eq. (18) D_Thresh in bytes; 0 = the bandwidth-delay product "
                      "B x 4 link delays (a worker-switch-worker round trip).",
                      UintegerValue(0),
                      MakeUintegerAccessor(&AnalyticBackend::m_threshold),
                      MakeUintegerChecker<uint64_t>());
}

TypeId
AnalyticBackend::GetTypeId()
{
    // AddAttribute needs the parent set first: the OSF attributes are added last.
    static TypeId tid = AddOsfAttributes(
        TypeId("ns3::AnalyticBackend")
            .SetParent<TrainingBackend>()
            .SetGroupName("DistributedTraining")
            .AddConstructor<AnalyticBackend>()
            .AddAttribute("RhoThreshold",
                          "rho_T of 000 Eq. (5): the async PS model uses FCFS links when the "
                          "FCFS link utilisation is at most rho_T, else PS. 000 Sec. 4.2.1 "
                          "uses 0.6 on 10 Gbps GPU clusters and 0.5 on a 1 Gbps CPU cluster.",
                          DoubleValue(0.6),
                          MakeDoubleAccessor(&AnalyticBackend::m_rhoThreshold),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("MvaMethod",
                          "How the async PS queueing network is solved: Auto (exact up to "
                          "2^ExactMvaMaxWorkers populations, else Schweitzer-Bard), Exact, or "
                          "Approximate.",
                          EnumValue(MVA_AUTO),
                          DtMakeEnumAccessor<MvaMethod>(&AnalyticBackend::m_mvaMethod),
                          MakeEnumChecker(MVA_AUTO,
                                          "Auto",
                                          MVA_EXACT,
                                          "Exact",
                                          MVA_APPROXIMATE,
                                          "Approximate"))
            .AddAttribute("ExactMvaMaxWorkers",
                          "Exact MVA is used while the population lattice has at most "
                          "2^ExactMvaMaxWorkers states: up to this many workers with distinct "
                          "compute scales (workers with equal scales share a class, so a "
                          "homogeneous cluster of up to 2^ExactMvaMaxWorkers - 1 workers is "
                          "exact too).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&AnalyticBackend::m_exactMvaMaxWorkers),
                          MakeUintegerChecker<uint32_t>(1, 20))
            .AddAttribute("ApproxMvaTolerance",
                          "Schweitzer-Bard MVA stops when no worker's throughput changes by "
                          "more than this fraction in an iteration.",
                          DoubleValue(1e-10),
                          MakeDoubleAccessor(&AnalyticBackend::m_approxTolerance),
                          MakeDoubleChecker<double>(1e-15, 1e-2))
            .AddAttribute("ApproxMvaMaxIterations",
                          "Schweitzer-Bard MVA iteration limit (a note is added if it is hit).",
                          UintegerValue(100000),
                          MakeUintegerAccessor(&AnalyticBackend::m_approxMaxIterations),
                          MakeUintegerChecker<uint32_t>(1, 10000000))
            .AddAttribute("StashMaxNodes",
                          "Largest node count the STASH best-node search (003 Sec. 6.2) "
                          "considers.",
                          UintegerValue(100000),
                          MakeUintegerAccessor(&AnalyticBackend::m_stashMaxNodes),
                          MakeUintegerChecker<uint32_t>(1, 10000000))
            .AddTraceSource("Result",
                            "A model variant's result, as Run() returns it.",
                            MakeTraceSourceAccessor(&AnalyticBackend::m_resultTrace),
                            "ns3::AnalyticBackend::ResultTracedCallback"));
    return tid;
}

AnalyticBackend::AnalyticBackend()
{
    NS_LOG_FUNCTION(this);
}

AnalyticBackend::~AnalyticBackend()
{
    NS_LOG_FUNCTION(this);
}

void
AnalyticBackend::DoDispose()
{
    NS_LOG_FUNCTION(this);
    Object::DoDispose();
}

void
AnalyticBackend::Configure(const BackendSettings& settings)
{
    if (settings.rhoThreshold)
    {
        SetChecked("--rhoT", *this, "RhoThreshold", DoubleValue(*settings.rhoThreshold));
    }
}

void
AnalyticBackend::SetAttributeChecked(const std::string& name, const std::string& value)
{
    NS_LOG_FUNCTION(this << name << value);
    TypeId::AttributeInformation info;
    if (!GetTypeId().LookupAttributeByName(name, &info))
    {
        std::string names;
        for (uint32_t i = 0; i < GetTypeId().GetAttributeN(); ++i)
        {
            names += (i ? ", " : "") + GetTypeId().GetAttribute(i).name;
        }
        throw TrainingInputError("AnalyticBackend: unknown attribute '" + name
                                 + "' (expected one of " + names + ")");
    }
    // ns-3 aborts on malformed numbers (DoubleValue, UintegerValue) and accepts unknown enum
    // names: parse the text here and hand the checker a typed value.
    const std::string type = info.checker->GetValueTypeName();
    const std::string expected = info.checker->GetUnderlyingTypeInformation();
    auto reject = [&](const std::string& why)
    {
        throw TrainingInputError("AnalyticBackend::" + name + ": " + why + " '" + value
                                 + "' (expected " + expected + ")");
    };
    bool ok = false;
    try
    {
        std::size_t used = 0;
        if (type == "ns3::DoubleValue")
        {
            double v = std::stod(value, &used);
            if (used != value.size() || !std::isfinite(v))
            {
                reject("not a number");
            }
            ok = SetAttributeFailSafe(name, DoubleValue(v));
        }
        else if (type == "ns3::UintegerValue")
        {
            if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos)
            {
                reject("not a non-negative integer");
            }
            ok = SetAttributeFailSafe(name, UintegerValue(std::stoull(value, &used)));
        }
        else if (type == "ns3::TimeValue")
        {
            ok = SetAttributeFailSafe(name, TimeValue(UnitParser::ParseTime(name, value)));
        }
        else if (type.rfind("ns3::EnumValue", 0) == 0) // "ns3::EnumValue<T>" from ns-3.41
        {
            std::istringstream names(expected);
            std::string item;
            while (std::getline(names, item, '|'))
            {
                ok = ok || item == value;
            }
            ok = ok && SetAttributeFailSafe(name, StringValue(value));
        }
        else
        {
            ok = SetAttributeFailSafe(name, StringValue(value));
        }
    }
    catch (const std::invalid_argument&)
    {
        reject("not a number");
    }
    catch (const std::out_of_range&)
    {
        reject("out of range");
    }
    if (!ok)
    {
        reject("rejected value");
    }
}

namespace
{

/// Seconds since start.
double
Since(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Say so when a variant assumes the other overlap setting than the scenario's.
void
NoteOverlap(TrainingResult& r, const TrainingScenario& s, bool assumesOverlap)
{
    r.inputs["assumes_overlap"] = assumesOverlap ? 1 : 0;
    if (s.overlap != assumesOverlap)
    {
        r.notes.push_back(std::string("this variant assumes overlap ")
                          + (assumesOverlap ? "on" : "off") + "; the scenario has it "
                          + (s.overlap ? "on" : "off"));
    }
}

/// \return true for async parameter-server scenarios
bool
IsAsyncPs(const TrainingScenario& s)
{
    return s.architecture == TrainingScenario::PARAMETER_SERVER
           && s.mode == TrainingScenario::ASYNC;
}

/// \return true for sync parameter-server scenarios with servers on hosts of their own
bool
IsSyncPs(const TrainingScenario& s)
{
    return s.architecture == TrainingScenario::PARAMETER_SERVER && s.mode == TrainingScenario::SYNC
           && !s.IsColocated();
}

/// \return true for sync parameter-server scenarios with co-located servers
bool
IsColocatedSyncPs(const TrainingScenario& s)
{
    return s.mode == TrainingScenario::SYNC && s.IsColocated();
}

/// \return true for ring AllReduce scenarios whose collective is the ring (the seeds' models)
bool
IsRing(const TrainingScenario& s)
{
    return s.architecture == TrainingScenario::RING_ALLREDUCE && s.collective == "ring";
}

/// \return true for AllReduce scenarios with another collective (CollectiveCostModel)
bool
IsOtherCollective(const TrainingScenario& s)
{
    return s.architecture == TrainingScenario::RING_ALLREDUCE && s.collective != "ring";
}

/// The async PS model's stations: the busiest server's share at the link rate is queued;
/// whatever one (capped) flow needs beyond that is a delay.
AsyncPsModel::Params
AsyncParams(const Derived& d, const TrainingScenario& scenario)
{
    AsyncPsModel::Params p;
    for (uint32_t w = 0; w < d.workers; ++w)
    {
        p.forward.push_back(scenario.GetComputeScale(w) * d.forward);
        p.backward.push_back(scenario.GetComputeScale(w) * d.backward);
    }
    const double queued = d.serverBytes / d.linkRate;
    const double alone = std::max(d.serverBytes / d.flowRate, d.modelBytes / d.linkRate);
    p.downlink = queued;
    p.uplink = queued;
    p.server = d.update;
    p.workerOverhead = d.intra;
    p.transferExtra = alone - queued;
    return p;
}

/// One MVA prediction as a result.
TrainingResult
AsyncResult(const Derived& d,
            const AsyncPsModel::Params& p,
            const AsyncPsModel::Prediction& pr,
            const std::string& name)
{
    TrainingResult r = NewResult(d, name);
    r.inputs["P"] = d.servers;
    r.inputs["M_server_bytes"] = d.serverBytes;
    r.inputs["T_S_s"] = d.update;
    r.inputs["S_D_s"] = p.downlink + p.transferExtra;
    r.inputs["S_U_s"] = p.uplink + p.transferExtra;
    r.inputs["S_link_queued_s"] = p.downlink;
    r.inputs["S_transfer_extra_s"] = p.transferExtra;
    r.inputs["S_S_s"] = p.server;
    r.inputs["S_W_mean_s"] = Mean(pr.workerService);
    r.inputs["T_D_mean_s"] = Mean(pr.downlinkTime);
    r.inputs["T_U_mean_s"] = Mean(pr.uplinkTime);
    r.inputs["T_S_response_mean_s"] = Mean(pr.serverTime);
    r.inputs["rho"] = pr.rho;
    r.inputs["server_utilisation"] = pr.serverUtilisation;
    r.inputs["link_ps"] = pr.link == MvaSolver::PS ? 1 : 0;
    r.inputs["mva_exact"] = pr.method == MvaSolver::EXACT ? 1 : 0;
    r.inputs["mva_states"] = static_cast<double>(pr.states);
    r.inputs["mva_iterations"] = pr.iterations;
    r.inputs["steps_per_s"] = pr.throughput;
    r.throughput = pr.throughput * d.samplesPerStep;
    std::vector<double> cycle;
    for (double x : pr.perWorkerThroughput)
    {
        cycle.push_back(1.0 / x);
    }
    r.stepTimeMean = Mean(cycle);
    r.linkUtilisation["server-uplink"] = pr.rho;
    r.linkUtilisation["server-downlink"] = pr.rho;
    // The MVA's server is a queue: busier than the link, it sets the cycle (or by the rule of
    // every backend, TrainingResult::ServerUpdateSetsStep()).
    const bool update
        = pr.serverUtilisation > pr.rho
          || TrainingResult::ServerUpdateSetsStep(d.update,
                                                  d.maxScale * (d.forward + d.backward),
                                                  r.stepTimeMean);
    r.bottleneck = update ? TrainingResult::SERVER_UPDATE : "server-link";
    return r;
}

/// The notes every MVA result may carry.
void
NoteMva(TrainingResult& r, const Derived& d, const AsyncPsModel::Prediction& pr)
{
    if (!pr.converged)
    {
        r.notes.push_back("approximate MVA stopped at its iteration limit ("
                          + std::to_string(pr.iterations) + ") before converging");
    }
    if (pr.method == MvaSolver::APPROXIMATE)
    {
        r.notes.push_back(
            "Schweitzer-Bard approximate MVA (more than 2^ExactMvaMaxWorkers "
            "populations, or MvaMethod=Approximate); see doc/reference/backend-analytic.rst "
            "for its error");
    }
    if (d.servers > 1)
    {
        r.notes.push_back("several servers: the link and server stations are the busiest "
                          "server's (an extension of 000's one-server model)");
    }
}

/// Remove non-finite inputs (JSON has no infinity) with a note saying which; per-flow cap and
/// start jitter notes.
void
FinishResults(std::vector<TrainingResult>& results, const TrainingScenario& scenario)
{
    const bool capped = scenario.flowCap.GetBitRate() > 0
                        && scenario.flowCap.GetBitRate() < scenario.nicRate.GetBitRate();
    for (auto& r : results)
    {
        if (capped)
        {
            r.notes.push_back("per-flow cap: one transfer runs at B, several share B_link");
        }
        if (scenario.startJitter.IsStrictlyPositive())
        {
            // The closed forms are steady states of identical workers without per-transfer
            // start delays; the delays' mean J/2 per idle-connection transfer is not one
            // additive term (under sharing it partly overlaps other transfers), so it is left
            // out, and said so.
            r.notes.push_back("--startJitter=" + std::to_string(scenario.startJitter.GetSeconds())
                              + "s is ignored: the closed forms have no per-transfer start "
                                "delays (the packet and flow backends model them)");
        }
        for (auto it = r.inputs.begin(); it != r.inputs.end();)
        {
            if (std::isfinite(it->second))
            {
                ++it;
                continue;
            }
            r.notes.push_back(it->first + " is " + (it->second > 0 ? "infinite" : "undefined"));
            it = r.inputs.erase(it);
        }
    }
}

} // namespace

const std::vector<AnalyticBackend::Evaluator>&
AnalyticBackend::GetEvaluators()
{
    static const std::vector<Evaluator> evaluators = {
        {"000 Eq. (1)-(6): async PS by MVA", IsAsyncPs, &AnalyticBackend::RunAsyncMva},
        {"001 Sec. 1: Cynthia", IsAsyncPs, &AnalyticBackend::RunCynthia},
        {"000 Eq. (7)-(10): sync PS", IsSyncPs, &AnalyticBackend::RunSyncPs},
        {"000 Eq. (7), co-located NICs: sync PS",
         IsColocatedSyncPs,
         &AnalyticBackend::RunColocatedPs},
        {"002 Eq. (10)-(11): PS read bounds", IsSyncPs, &AnalyticBackend::RunReadBounds},
        {"000 Eq. (11), 003 Sec. 6.2: ring", IsRing, &AnalyticBackend::RunRingClosedForms},
        {"004 Eq. (3)-(18): OSF and fusion", IsRing, &AnalyticBackend::RunOsf},
        {"alpha-beta: halving-doubling, tree", IsOtherCollective, &AnalyticBackend::RunCollective},
    };
    return evaluators;
}

std::vector<JobSetResult>
AnalyticBackend::RunJobs(const TrainingJobSet& /* set */) const
{
    throw TrainingInputError("--jobs: several jobs with the analytic backend (expected one job: "
                             "its models have one job and one bottleneck, a NIC; use "
                             "--backend=packet or flow)");
}

std::string
AnalyticBackend::GetUnsupportedReason(const TrainingProfile& /* profile */,
                                      const TrainingScenario& scenario) const
{
    if (scenario.IsColocated() && scenario.mode == TrainingScenario::ASYNC)
    {
        // The queueing models of 000 and 001 charge every transfer to a server NIC that carries
        // nothing else; a co-located NIC also carries its worker's transfers, and its local
        // shard none. (Sync PS has ColocatedPsModel.)
        return "--serverPlacement: colocated with --mode=async and the analytic backend "
               "(expected separate or sync: the async models assume each server's NIC carries "
               "only that server's transfers; use --backend=flow or packet)";
    }
    if (!scenario.linkDown.empty())
    {
        return "--linkDown with the analytic backend (expected none: its models give a "
               "stationary step time on fixed paths; use --backend=flow or packet)";
    }
    if (scenario.HasSlowdown())
    {
        // The seeds' closed forms and MVA give a stationary step time; an episode makes a few
        // steps slower, which no formula of theirs expresses.
        return "--slowdown/--stragglers with the analytic backend (expected none: its models "
               "give a stationary step time, not the steps an episode slows; use --backend=flow "
               "or packet)";
    }
    if (!scenario.leave.empty())
    {
        return "--leave with the analytic backend (expected none: its models give the "
               "stationary rate of a fixed set of workers, not the steps a worker misses while "
               "away; use --backend=flow or packet)";
    }
    if (scenario.topology == "star")
    {
        return "";
    }
    return "--topology: '" + scenario.topology
           + "' with the analytic backend (expected star: its models have one bottleneck, the "
             "server's or a worker's NIC, and no ECMP paths or oversubscribed uplinks; use "
             "--backend=flow)";
}

std::vector<TrainingResult>
AnalyticBackend::Run(const TrainingProfile& profile, const TrainingScenario& scenario) const
{
    NS_LOG_FUNCTION(this);
    profile.Validate(profile.GetSourceName().empty() ? "profile" : profile.GetSourceName());
    scenario.Validate(profile);
    const std::string unsupported = GetUnsupportedReason(profile, scenario);
    if (!unsupported.empty())
    {
        throw TrainingInputError(unsupported);
    }
    AsyncPsModel::CheckRhoThreshold(m_rhoThreshold);
    Derived d = Derive(profile, scenario);
    d.records = GetRunContext().records;
    std::vector<TrainingResult> results;
    for (const auto& e : GetEvaluators())
    {
        if (e.applies(scenario))
        {
            for (auto& r : (this->*e.run)(d, scenario))
            {
                results.push_back(std::move(r));
            }
        }
    }
    FinishResults(results, scenario);
    for (auto& r : results)
    {
        scenario.NoteWorkerUpdate(r, profile);
        m_resultTrace(r);
    }
    return results;
}

std::vector<TrainingResult>
AnalyticBackend::RunAsyncMva(const AnalyticInputs& d, const TrainingScenario& scenario) const
{
    const auto start = std::chrono::steady_clock::now();
    const AsyncPsModel::Params p = AsyncParams(d, scenario);
    AsyncPsModel::SolverOptions options;
    // Forced exact MVA is still limited to 2^20 populations (memory: 2^20 x 3 doubles).
    options.choice = m_mvaMethod == MVA_EXACT         ? AsyncPsModel::SolverOptions::EXACT
                     : m_mvaMethod == MVA_APPROXIMATE ? AsyncPsModel::SolverOptions::APPROXIMATE
                                                      : AsyncPsModel::SolverOptions::AUTO;
    options.maxExactStates
        = m_mvaMethod == MVA_EXACT ? (uint64_t{1} << 20) : (uint64_t{1} << m_exactMvaMaxWorkers);
    options.tolerance = m_approxTolerance;
    options.maxIterations = m_approxMaxIterations;
    AsyncPsModel model(p, options);
    const AsyncPsModel::Prediction fcfs = model.Solve(MvaSolver::FCFS);
    const AsyncPsModel::Prediction ps = model.Solve(MvaSolver::PS);
    const AsyncPsModel::Prediction hybrid = AsyncPsModel::Choose(fcfs, ps, m_rhoThreshold);
    const AsyncPsModel::Prediction overlap = model.CorrectOverlap(hybrid); // Eq. (6)
    std::vector<TrainingResult> results;
    for (const auto& [name, pr] : {std::make_pair("mva-fcfs", fcfs),
                                   std::make_pair("mva-ps", ps),
                                   std::make_pair("mva-hybrid", hybrid),
                                   std::make_pair("mva-hybrid-overlap", overlap)})
    {
        TrainingResult r = AsyncResult(d, p, pr, name);
        const bool hybridVariant = std::string(name).rfind("mva-hybrid", 0) == 0;
        if (hybridVariant)
        {
            r.inputs["rho_FCFS"] = pr.rhoFcfs;
            r.inputs["rho_T"] = pr.rhoThreshold;
            if (scenario.nicRate.GetBitRate() < 10000000000ULL)
            {
                r.notes.push_back("rho_T = " + std::to_string(pr.rhoThreshold)
                                  + "; 000 Sec. 4.2.1 used 0.5 on its 1 Gbps CPU cluster and 0.6 "
                                    "on 10 Gbps GPU clusters");
            }
        }
        const bool assumesOverlap = std::string(name) == "mva-hybrid-overlap";
        NoteMva(r, d, pr);
        NoteOverlap(r, scenario, assumesOverlap);
        r.inputs["recommended"] = assumesOverlap == scenario.overlap && hybridVariant ? 1 : 0;
        r.wallSeconds = Since(start);
        results.push_back(r);
    }
    return results;
}

std::vector<TrainingResult>
AnalyticBackend::RunCynthia(const AnalyticInputs& d, const TrainingScenario& /* scenario */) const
{
    std::vector<TrainingResult> results;
    const double alone = std::max(d.serverBytes / d.flowRate, d.modelBytes / d.linkRate);
    for (bool halved : {false, true})
    {
        const auto start = std::chrono::steady_clock::now();
        const double process = d.meanScale * (d.forward + d.backward) + d.intra;
        CynthiaModel base(d.workers, static_cast<uint32_t>(d.samplesPerStep), process, alone);
        CynthiaModel model = halved ? base.Halved() : base;
        TrainingResult r = NewResult(d, halved ? "cynthia-halved" : "cynthia");
        r.inputs["P"] = d.servers;
        r.inputs["T_p_s"] = process;
        r.inputs["T_C_s"] = halved ? alone / 2 : alone;
        r.inputs["U_1"] = model.Utilisation();
        r.inputs["assumes_overlap"] = 0;
        r.inputs["recommended"] = 0;
        r.throughput = model.Throughput();
        r.stepTimeMean = d.workers * d.samplesPerStep / r.throughput;
        r.notes.push_back("baseline (001 Sec. 1): T_p = mean worker compute, T_C = M/B, "
                          "U_1 = 2 T_C / T_p");
        r.wallSeconds = Since(start);
        results.push_back(r);
    }
    return results;
}

namespace
{

/// 000 Eq. (7)-(10)'s parameters.
SyncPsModel::Params
SyncParams(const Derived& d)
{
    SyncPsModel::Params p;
    p.workers = d.workers;
    p.modelBytes = d.modelBytes;
    p.serverBytes = d.serverBytes;
    p.flowRate = d.flowRate;
    p.linkRate = d.linkRate;
    p.forward = d.maxScale * d.forward;
    p.backward = d.maxScale * d.backward;
    p.update = d.update;
    p.overhead = d.intra;
    return p;
}

/// A sync PS result of step time `step`.
TrainingResult
SyncResult(const Derived& d,
           const TrainingScenario& scenario,
           const SyncPsModel& model,
           const std::string& name,
           double step)
{
    const SyncPsModel::Params& p = model.GetParams();
    TrainingResult r = NewResult(d, name);
    r.inputs["P"] = d.servers;
    r.inputs["M_server_bytes"] = d.serverBytes;
    r.inputs["T_S_s"] = d.update;
    r.inputs["T_F_slowest_s"] = p.forward;
    r.inputs["T_B_slowest_s"] = p.backward;
    r.inputs["M_over_B_s"] = model.TransferTime();
    r.inputs["KM_over_B_s"] = model.DrainTime();
    r.inputs["recommended"] = (name == (scenario.overlap ? "sync-eq10" : "sync-eq9")) ? 1 : 0;
    SetSync(r, d, step);
    r.bottleneck
        = 2 * model.DrainTime() > p.forward + p.backward ? "server-link" : "worker-compute";
    if (TrainingResult::ServerUpdateSetsStep(p.update, p.forward + p.backward, step))
    {
        r.bottleneck = TrainingResult::SERVER_UPDATE;
    }
    if (d.servers > 1)
    {
        r.notes.push_back("several servers: transfers use the busiest server's share (an "
                          "extension of 000's one-server equations)");
    }
    NoteOverlap(r, scenario, name == "sync-eq10");
    return r;
}

} // namespace

std::vector<TrainingResult>
AnalyticBackend::RunSyncPs(const AnalyticInputs& d, const TrainingScenario& scenario) const
{
    const auto start = std::chrono::steady_clock::now();
    const SyncPsModel model(SyncParams(d));
    std::vector<TrainingResult> results;
    for (const auto& [name, step] : {std::make_pair("sync-eq7", model.Eq7()),
                                     std::make_pair("sync-eq8", model.Eq8()),
                                     std::make_pair("sync-eq9", model.Eq9()),
                                     std::make_pair("sync-eq10", model.Eq10())})
    {
        results.push_back(SyncResult(d, scenario, model, name, step));
        results.back().wallSeconds = Since(start);
    }
    return results;
}

std::vector<TrainingResult>
AnalyticBackend::RunColocatedPs(const AnalyticInputs& d, const TrainingScenario& scenario) const
{
    const auto start = std::chrono::steady_clock::now();
    ColocatedPsModel::Params p;
    p.workers = d.workers;
    p.servers = d.servers;
    p.modelBytes = d.modelBytes;
    p.largestShard = d.serverBytes;
    p.smallestShard = d.smallestServerBytes;
    p.linkRate = d.linkRate;
    p.forward = d.maxScale * d.forward;
    p.backward = d.maxScale * d.backward;
    p.update = d.update;
    p.overhead = d.intra;
    const ColocatedPsModel model(p);
    TrainingResult r = NewResult(d, "sync-colocated");
    r.inputs["P"] = d.servers;
    r.inputs["M_server_bytes"] = d.serverBytes;
    r.inputs["phase_bytes"] = model.PhaseBytes();
    r.inputs["T_S_s"] = d.update;
    r.inputs["recommended"] = 1;
    SetSync(r, d, model.Step());
    const bool network = 2 * model.PhaseBytes() / p.linkRate > p.forward + p.backward;
    r.bottleneck = !network                    ? "worker-compute"
                   : model.ServerSideBusiest() ? "server-link"
                                               : "worker-link";
    if (TrainingResult::ServerUpdateSetsStep(p.update, p.forward + p.backward, r.stepTimeMean))
    {
        r.bottleneck = TrainingResult::SERVER_UPDATE;
    }
    r.notes.push_back("co-located servers: 000's Eq. (7) with each host's NIC carrying its "
                      "worker's and its server's transfers (the module's extension; PS sharing, "
                      "no overlap)");
    NoteOverlap(r, scenario, false);
    r.wallSeconds = Since(start);
    return {r};
}

std::vector<TrainingResult>
AnalyticBackend::RunReadBounds(const AnalyticInputs& d, const TrainingScenario& scenario) const
{
    const auto start = std::chrono::steady_clock::now();
    const SyncPsModel model(SyncParams(d));
    const SyncPsModel::Params& p = model.GetParams();
    PsReadBoundsModel::Params rp;
    rp.layerBytes = d.layerBytes;
    rp.replicas = d.workers;
    rp.servers = d.servers;
    rp.workersPerReplica = 1;
    rp.latency = d.roundTrip;
    rp.bandwidth = d.flowRate;
    rp.linkBandwidth = d.linkRate;
    const PsReadBoundsModel bounds(rp);
    // Eq. (9)'s uplink: the mean of the PS and FCFS drains.
    const double uplink = (model.DrainTime() + model.TransferTime()) / 2;
    std::vector<TrainingResult> results;
    for (bool worst : {true, false})
    {
        const double read = worst ? bounds.WorstCase() : bounds.BestCase();
        const double step = read + p.forward + p.backward + uplink + p.update + p.overhead;
        TrainingResult r
            = SyncResult(d, scenario, model, worst ? "ps-read-worst" : "ps-read-best", step);
        r.inputs["C_ncost_s"] = rp.latency;
        r.inputs["N_wr"] = rp.workersPerReplica;
        r.inputs["T_D_read_s"] = read;
        r.inputs["T_U_hybrid_s"] = uplink;
        r.notes.insert(
            r.notes.begin(),
            std::string("Eq. (9) with its downlink phase replaced by 002's ")
                + (worst ? "worst-case read time, Eq. (10)" : "best-case read time, Eq. (11)"));
        r.wallSeconds = Since(start);
        results.push_back(r);
    }
    return results;
}

namespace
{

/// A ring result of step time `step`; SF of 004 Eq. (1) per step and the bottleneck.
TrainingResult
RingResult(const Derived& d,
           const TrainingScenario& scenario,
           const std::string& name,
           bool recommended,
           double step,
           TrainingResult r)
{
    r.inputs["T_C_slowest_s"] = d.maxScale * (d.forward + d.backward);
    // The worker's own optimizer step after the last bucket's AllReduce (DDP, Horovod), on
    // the slowest worker: a term added to each model's step time, whose equations (000
    // Eq. (11), 003 Sec. 6.2, 004 Eq. (3)-(18)) have none (0 without --workerUpdate).
    const double update = d.maxScale * d.workerUpdate;
    step += update;
    const double compute = d.maxScale * (d.forward + d.backward) + update;
    r.inputs["recommended"] = recommended ? 1 : 0;
    NoteOverlap(r, scenario, name.rfind("osf", 0) == 0);
    SetSync(r, d, step);
    r.inputs["SF"] = (compute + d.intra) / step;
    r.bottleneck = step > compute + d.intra + 1e-12 * step ? "network" : "worker-compute";
    return r;
}

/// \return true if the scenario fuses tensors (a bucket size or a fusion timeout)
bool
Fuses(const TrainingScenario& s)
{
    return s.bucketBytes > 0 || s.fusionTimeout.IsStrictlyPositive();
}

/// \return the ring variant that fits the scenario best
std::string
RecommendedRing(const TrainingScenario& s)
{
    return s.overlap ? (Fuses(s) ? "osf-fusion" : "osf") : "ring-eq11";
}

} // namespace

std::vector<TrainingResult>
AnalyticBackend::RunRingClosedForms(const AnalyticInputs& d, const TrainingScenario& scenario) const
{
    auto start = std::chrono::steady_clock::now();
    const double compute = d.maxScale * (d.forward + d.backward);
    const double tau = d.hopLatency;
    const std::string best = RecommendedRing(scenario);
    std::vector<TrainingResult> results;

    TrainingResult eq11 = NewResult(d, "ring-eq11");
    eq11.inputs["T_allreduce_s"] = 2.0 * (d.workers - 1) * d.modelBytes / (d.workers * d.flowRate);
    const double eq11Step
        = RingAllReduceModel::Eq11StepTime(d.workers, d.modelBytes, d.flowRate, compute) + d.intra;
    results.push_back(RingResult(d, scenario, "ring-eq11", best == "ring-eq11", eq11Step, eq11));
    results.back().wallSeconds = Since(start);

    start = std::chrono::steady_clock::now();
    const double single = compute + d.intra;
    const std::size_t layers = d.layerBytes.size();
    TrainingResult stash = NewResult(d, "stash");
    stash.inputs["tau_s"] = tau;
    stash.inputs["stash_T1_s"] = single;
    stash.inputs["stash_best_nodes"] = RingAllReduceModel::StashBestNodes(single,
                                                                          tau,
                                                                          d.modelBytes,
                                                                          d.flowRate,
                                                                          m_stashMaxNodes);
    stash.inputs["stash_sqrt_T1_over_tau"] = RingAllReduceModel::StashSqrtRule(single, tau);
    stash.inputs["per_layer_transfer_s"]
        = RingAllReduceModel::PerLayerTransferTime(layers, d.modelBytes, d.flowRate, tau);
    stash.inputs["latency_bound"]
        = RingAllReduceModel::IsLatencyBound(layers, d.modelBytes, d.flowRate, tau) ? 1 : 0;
    stash.notes.push_back("stash_best_nodes: the n minimising 003's T_n = T_1/n + "
                          "(tau + 2M/(nB))(n-1) for one step's work T_1 split over n nodes");
    const double stashStep
        = RingAllReduceModel::StashStepTime(d.workers, compute, tau, d.modelBytes, d.flowRate)
          + d.intra;
    results.push_back(RingResult(d, scenario, "stash", best == "stash", stashStep, stash));
    results.back().wallSeconds = Since(start);
    return results;
}

namespace
{

/**
 * \brief The hierarchical ring's seconds per byte across groups: the g flows of a group's phase
 * 2 (one per local rank) leave its leaf switch over that switch's uplinks, each at the NIC's
 * goodput or its share of the uplinks, whichever is less (ECMP balancing them perfectly);
 * groups that are not each the whole of one leaf's workers (--groupSize): the NIC's beta.
 * \param s the scenario \param groups each worker's group \param beta the NIC's
 * \param note set to how beta' was found
 * \return beta'
 */
double
InterGroupBeta(const TrainingScenario& s,
               const std::vector<uint32_t>& groups,
               double beta,
               std::string& note)
{
    const FabricTopology fabric = s.BuildFabric();
    std::map<uint32_t, uint32_t> switchOfGroup;   // group -> its leaf switch
    std::map<uint32_t, uint32_t> workersOfSwitch; // leaf switch -> workers below it
    for (uint32_t w = 0; w < groups.size(); ++w)
    {
        const uint32_t sw = fabric.GetLink(fabric.GetHostUplink(fabric.GetRoleHost(w))).to;
        ++workersOfSwitch[sw];
        if (!switchOfGroup.emplace(groups[w], sw).second && switchOfGroup[groups[w]] != sw)
        {
            switchOfGroup.clear(); // a group across leaves
            break;
        }
    }
    const double g
        = static_cast<double>(groups.size()) / std::max<std::size_t>(1, switchOfGroup.size());
    double share = 1; // the least of uplinks / (g x NIC rate) over the groups, at most 1
    for (const auto& [group, sw] : switchOfGroup)
    {
        double uplinks = 0;
        for (uint32_t link : fabric.GetOutLinks(sw))
        {
            const auto& l = fabric.GetLink(link);
            uplinks += fabric.GetNode(l.to).host ? 0 : l.spec.rate.GetBitRate();
        }
        if (workersOfSwitch[sw] != g || uplinks == 0)
        {
            note = "hierarchical: groups are not whole leaves, beta' = beta (the closed form "
                   "assumes the links between groups are as fast as the NICs)";
            return beta;
        }
        share = std::min(share, uplinks / (g * s.nicRate.GetBitRate()));
    }
    note = "hierarchical: beta' = beta / min(1, leaf uplinks / (g x NIC rate)), ECMP "
           "balancing the g inter-group flows of a leaf perfectly";
    return switchOfGroup.empty() ? beta : beta / share;
}

} // namespace

std::vector<TrainingResult>
AnalyticBackend::RunCollective(const AnalyticInputs& d, const TrainingScenario& scenario) const
{
    const auto start = std::chrono::steady_clock::now();
    AllReduceSchedule::Algorithm algorithm = AllReduceSchedule::RING;
    AllReduceSchedule::FromName(scenario.collective, algorithm);
    CollectiveCostModel::Params p = CollectiveCostModel::FromScenario(scenario);
    std::string groupNote;
    if (algorithm == AllReduceSchedule::HIERARCHICAL)
    {
        const std::vector<uint32_t> groups = scenario.GetCollectiveGroups();
        p.groups = AllReduceSchedule::CheckGroups(groups, "--collective=hierarchical");
        p.betaInter = InterGroupBeta(scenario, groups, p.beta, groupNote);
    }
    // The buckets one after another after the backward pass (no overlap), each with its
    // intra-node reduce and broadcast.
    double allReduce = 0;
    for (double bytes : d.bucketBytes)
    {
        p.bytes = bytes;
        allReduce += CollectiveCostModel::Time(algorithm, p);
    }
    const double compute = d.maxScale * (d.forward + d.backward);
    const std::string name = "allreduce-" + scenario.collective;
    TrainingResult r = NewResult(d, name);
    r.inputs["alpha_s"] = p.alpha;
    r.inputs["beta_s_per_byte"] = p.beta;
    r.inputs["gamma_s_per_byte"] = p.gamma;
    r.inputs["buckets"] = static_cast<double>(d.bucketBytes.size());
    r.inputs["T_allreduce_s"] = allReduce;
    if (algorithm == AllReduceSchedule::DOUBLE_BINARY_TREE || algorithm == AllReduceSchedule::NCCL)
    {
        r.inputs["tree_chunk_bytes"] = p.chunkBytes;
        r.inputs["tree_depth"] = CollectiveCostModel::TreeDepth(d.workers);
    }
    if (algorithm == AllReduceSchedule::HIERARCHICAL)
    {
        r.inputs["groups"] = p.groups;
        r.inputs["beta_inter_s_per_byte"] = p.betaInter;
        r.notes.push_back(groupNote);
    }
    if (algorithm == AllReduceSchedule::NCCL)
    {
        r.notes.push_back(CollectiveCostModel::DescribeNccl(p, d.bucketBytes));
    }
    std::vector<TrainingResult> results;
    results.push_back(RingResult(d, scenario, name, true, compute + allReduce + d.intra, r));
    results.back().wallSeconds = Since(start);
    return results;
}

OsfModel::Params
AnalyticBackend::MakeOsfParams(const AnalyticInputs& d, const TrainingScenario& scenario) const
{
    OsfModel::Params op;
    op.workers = d.workers;
    op.bandwidth = d.flowRate;
    op.reductionRate = scenario.reductionRate;
    op.overhead = d.workers > 1
                      ? m_allReduceOverhead.GetSeconds() + 2.0 * (d.workers - 1) * d.hopLatency
                      : 0;
    op.extraPerByte = d.intraPerByte;
    op.extraPerOperation = d.intraPerOperation;
    op.layerBytes = d.layerBytes;
    for (std::size_t i = 0; i < d.layerBytes.size(); ++i)
    {
        op.forward.push_back(d.maxScale * d.layerForward[i]);
        op.backward.push_back(d.maxScale * d.layerBackward[i]);
    }
    const double bdp = d.flowRate * d.roundTrip;
    const double threshold = m_threshold > 0 ? static_cast<double>(m_threshold) : bdp;
    op.transferModel
        = m_transferModel == TRANSFER_PIECEWISE ? OsfModel::PIECEWISE : OsfModel::LINEAR;
    op.piecewise = m_a1 == 0 && m_b1 == 0 && m_a2 == 0 && m_b2 == 0
                       ? OsfModel::DefaultPiecewise(op, threshold)
                       : OsfModel::Piecewise{m_a1, m_b1, m_a2, m_b2, threshold};
    return op;
}

namespace
{

/// The inputs every OSF variant reports.
void
OsfInputs(TrainingResult& r, const OsfModel& osf, const OsfModel::Params& op)
{
    r.inputs["N"] = op.workers;
    r.inputs["delta_s"] = op.overhead;
    r.inputs["R_bytes_per_s"] = op.reductionRate;
    r.inputs["T_comp_s"] = osf.Comp();
    r.inputs["T_overlap_s"] = osf.Overlap();
    r.inputs["CSF"] = osf.Csf();
    r.inputs["OSF"] = osf.Osf();
    r.inputs["piecewise"] = op.transferModel == OsfModel::PIECEWISE ? 1 : 0;
    if (op.transferModel == OsfModel::PIECEWISE)
    {
        r.inputs["a1"] = op.piecewise.a1;
        r.inputs["b1"] = op.piecewise.b1;
        r.inputs["a2"] = op.piecewise.a2;
        r.inputs["b2"] = op.piecewise.b2;
        r.inputs["D_thresh_bytes"] = op.piecewise.threshold;
    }
}

} // namespace

std::vector<TrainingResult>
AnalyticBackend::RunOsf(const AnalyticInputs& d, const TrainingScenario& scenario) const
{
    const auto start = std::chrono::steady_clock::now();
    const OsfModel::Params op = MakeOsfParams(d, scenario);
    const OsfModel osf(op);
    const double inf = std::numeric_limits<double>::infinity();
    const double q = scenario.bucketBytes == TrainingScenario::UNLIMITED_BUCKET
                         ? inf
                         : static_cast<double>(scenario.bucketBytes);
    const double firstQ = static_cast<double>(scenario.firstBucketBytes);
    const double timeout
        = scenario.fusionTimeout.IsStrictlyPositive() ? scenario.fusionTimeout.GetSeconds() : inf;
    // One node with one GPU has nothing to reduce: no AllReduce is launched.
    const bool exchanges = d.workers > 1 || d.gpus > 1;
    const auto nonEmpty = std::count_if(d.layerBytes.begin(),
                                        d.layerBytes.end(),
                                        [](double b)
                                        {
                                            return b > 0;
                                        });
    const std::string best = RecommendedRing(scenario);
    std::vector<TrainingResult> results;
    auto add = [&](const std::string& name, double step, TrainingResult r)
    {
        OsfInputs(r, osf, op);
        results.push_back(RingResult(d, scenario, name, best == name, step, r));
        results.back().wallSeconds = Since(start);
    };
    TrainingResult csf = NewResult(d, "csf");
    csf.inputs["T_comm_s"] = osf.CommTime();
    add("csf", osf.CsfStepTime(), csf);
    TrainingResult plain = NewResult(d, "osf");
    plain.inputs["T_update_s"] = osf.UpdateTime();
    plain.inputs["allreduce_operations"] = exchanges ? static_cast<double>(nonEmpty) : 0.0;
    add("osf", osf.StepTime(), plain);
    for (const std::string name : {"osf-fusion", "osf-adafusion"})
    {
        if (name == "osf-fusion" && !Fuses(scenario))
        {
            continue;
        }
        const OsfModel::FusionPlan plan
            = name == "osf-fusion" ? osf.Fusion(q, firstQ, timeout) : osf.AdaFusion();
        TrainingResult r = NewResult(d, name);
        r.inputs["T_update_fusion_s"] = osf.FusionUpdateTime(plan);
        r.inputs["OSF_fusion"] = osf.OsfFusion(plan);
        r.inputs["allreduce_operations"] = exchanges ? plan.operations : 0;
        if (name == "osf-fusion")
        {
            r.inputs["Q_bytes"] = q;
            r.inputs["first_Q_bytes"] = firstQ;
            r.inputs["timeout_s"] = timeout;
        }
        add(name, osf.FusionStepTime(plan), r);
    }
    return results;
}

} // namespace ns3

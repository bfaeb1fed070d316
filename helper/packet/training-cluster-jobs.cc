/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * TrainingClusterHelper (see training-cluster-helper.h). Job installation: the parameter-server and
 * ring applications on the cluster's nodes.
 */

#include "training-cluster-helper.h"

#include "ns3/attribute-container.h"
#include "ns3/boolean.h"
#include "ns3/bulk-send-helper.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/on-off-helper.h"
#include "ns3/onoff-application.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/parameter-server-application.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/ring-allreduce-application.h"
#include "ns3/string.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/training-input-error.h"
#include "ns3/training-network.h"
#include "ns3/training-worker-application.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingClusterJobs");

namespace
{

/**
 * \brief The socket attributes of every training application: the job's own TCP small
 * queues and buffers (in a set of several jobs each keeps its own rule).
 * \param app the application
 * \param scenario the job's scenario
 */
void
SetSocketAttributes(Ptr<Application> app, const TrainingScenario& scenario)
{
    app->SetAttribute("TcpSmallQueues", BooleanValue(scenario.tcpSmallQueues));
    app->SetAttribute(
        "SendBufferBytes",
        UintegerValue(TrainingNetwork::GetSocketBufferBytes(scenario, scenario.sendBufferBytes)));
    app->SetAttribute(
        "ReceiveBufferBytes",
        UintegerValue(TrainingNetwork::GetReceiveBufferBytes(scenario, scenario.sendBufferBytes)));
}

/**
 * \brief The attributes every worker application has, whatever the architecture
 * (TrainingWorkerApplication, RingAllReduceApplication), from the scenario.
 * \param app the application
 * \param w its worker index
 * \param port the port of the job
 * \param scenario the job's scenario
 */
void
SetWorkerAttributes(Ptr<Application> app,
                    uint32_t w,
                    uint16_t port,
                    const TrainingScenario& scenario)
{
    app->SetAttribute("WorkerIndex", UintegerValue(w));
    app->SetAttribute("Port", UintegerValue(port));
    app->SetAttribute("Steps", UintegerValue(scenario.steps));
    app->SetAttribute("Overlap", BooleanValue(scenario.overlap));
    app->SetAttribute("ComputeScale", DoubleValue(scenario.GetComputeScale(w)));
    app->SetAttribute("SampleSteps", BooleanValue(scenario.sampleSteps));
    app->SetAttribute("GpusPerNode", UintegerValue(scenario.gpusPerNode));
    app->SetAttribute("IntraBandwidth", DataRateValue(scenario.intraBandwidth));
    app->SetAttribute("IntraLatency", TimeValue(scenario.intraLatency));
    app->SetAttribute("StartJitter", TimeValue(scenario.startJitter));
    SetSocketAttributes(app, scenario);
}

} // namespace

ApplicationContainer
TrainingClusterHelper::InstallParameterServerJob(std::shared_ptr<const TrainingProfile> profile,
                                                 const TrainingScenario& scenario)
{
    NS_LOG_FUNCTION(this);
    std::vector<Ipv4Address> addresses;
    for (uint32_t p = 0; p < GetServerNodeCount(); ++p)
    {
        addresses.push_back(GetServerAddress(p));
    }
    return InstallPs(profile, scenario, m_workerNodes, m_serverNodes, addresses);
}

ApplicationContainer
TrainingClusterHelper::InstallPs(std::shared_ptr<const TrainingProfile> profile,
                                 const TrainingScenario& scenario,
                                 const NodeContainer& workers,
                                 const NodeContainer& servers,
                                 const std::vector<Ipv4Address>& addresses)
{
    std::vector<uint32_t> owners = scenario.AssignLayersToServers(*profile);
    std::vector<std::vector<uint32_t>> layers(servers.GetN());
    for (std::size_t l = 0; l < owners.size(); ++l)
    {
        layers[owners[l]].push_back(static_cast<uint32_t>(l));
    }
    for (uint32_t p = 0; p < servers.GetN(); ++p)
    {
        if (layers[p].empty())
        {
            throw TrainingInputError("--servers: server " + std::to_string(p)
                                     + " would own no layer with --partition="
                                     + scenario.GetPartitionName() + " (expected fewer servers)");
        }
    }

    ApplicationContainer apps;
    const auto slowdown = ComputeSlowdown::FromScenario(scenario); // one for the job's workers
    const auto absences = WorkerAbsences::FromScenario(scenario);
    for (uint32_t p = 0; p < servers.GetN(); ++p)
    {
        Ptr<ParameterServerApplication> ps = CreateObject<ParameterServerApplication>();
        ps->SetAttribute("Port", UintegerValue(m_port));
        ps->SetAttribute("ServerIndex", UintegerValue(p));
        ps->SetAttribute("Workers", UintegerValue(scenario.workers));
        ps->SetAttribute("Mode", StringValue(scenario.GetModeName()));
        ps->SetAttribute("Overlap", BooleanValue(scenario.overlap));
        ps->SetAttribute("Order", StringValue(scenario.GetOrderName()));
        ps->SetAttribute("Window", UintegerValue(scenario.windowBytes));
        ps->SetAttribute("StartJitter", TimeValue(scenario.startJitter));
        SetSocketAttributes(ps, scenario);
        ps->SetModel(profile, layers[p]);
        servers.Get(p)->AddApplication(ps);
        apps.Add(ps);
    }
    for (uint32_t w = 0; w < scenario.workers; ++w)
    {
        Ptr<TrainingWorkerApplication> worker = CreateObject<TrainingWorkerApplication>();
        SetWorkerAttributes(worker, w, m_port, scenario);
        worker->SetAttribute("Window", UintegerValue(scenario.windowBytes));
        worker->SetModel(profile, owners, addresses);
        worker->SetSlowdown(slowdown);
        worker->SetAbsences(absences);
        workers.Get(w)->AddApplication(worker);
        apps.Add(worker);
    }
    InstallBufferTuners(apps);
    m_apps.Add(apps);
    return apps;
}

ApplicationContainer
TrainingClusterHelper::InstallRingJob(std::shared_ptr<const TrainingProfile> profile,
                                      const TrainingScenario& scenario)
{
    NS_LOG_FUNCTION(this);
    std::vector<Ipv4Address> addresses;
    for (uint32_t w = 0; w < m_workerNodes.GetN(); ++w)
    {
        addresses.push_back(GetWorkerAddress(w));
    }
    return InstallRing(profile, scenario, m_workerNodes, addresses);
}

ApplicationContainer
TrainingClusterHelper::InstallRing(std::shared_ptr<const TrainingProfile> profile,
                                   const TrainingScenario& scenario,
                                   const NodeContainer& workers,
                                   const std::vector<Ipv4Address>& addresses)
{
    ApplicationContainer apps;
    const auto slowdown = ComputeSlowdown::FromScenario(scenario); // one for the job's workers
    // The groups of the hierarchical ring and the cost model of the nccl preset, as the linux
    // backend gets them.
    const auto ring = RingAllReduceProtocol::RingConfig::FromScenario(scenario, *profile);
    const CollectiveCostModel::Params& cost = ring.cost;
    AttributeContainerValue<UintegerValue, std::vector> groups;
    groups.Set(ring.groups);
    for (uint32_t w = 0; w < scenario.workers; ++w)
    {
        Ptr<RingAllReduceApplication> app = CreateObject<RingAllReduceApplication>();
        SetWorkerAttributes(app, w, m_port, scenario);
        app->SetAttribute("Workers", UintegerValue(scenario.workers));
        app->SetAttribute("BucketBytes", UintegerValue(scenario.bucketBytes));
        app->SetAttribute("FirstBucketBytes", UintegerValue(scenario.firstBucketBytes));
        app->SetAttribute("FusionTimeout", TimeValue(scenario.fusionTimeout));
        app->SetAttribute("ReductionRate", DoubleValue(scenario.reductionRate));
        app->SetAttribute("Collective", StringValue(scenario.collective));
        app->SetAttribute("TreeChunkBytes", UintegerValue(scenario.treeChunkBytes));
        app->SetAttribute(
            "WorkerUpdate",
            TimeValue(TrainingProfile::FromMicroseconds(scenario.GetWorkerUpdateUs(*profile))));
        app->SetAttribute("Groups", groups);
        app->SetAttribute("CostAlpha", TimeValue(Seconds(cost.alpha)));
        app->SetAttribute("CostBeta", DoubleValue(cost.beta));
        app->SetModel(profile, addresses);
        app->SetSlowdown(slowdown);
        workers.Get(w)->AddApplication(app);
        apps.Add(app);
    }
    InstallBufferTuners(apps);
    m_apps.Add(apps);
    return apps;
}

ApplicationContainer
TrainingClusterHelper::InstallJob(std::shared_ptr<const TrainingProfile> profile,
                                  const TrainingScenario& scenario,
                                  uint32_t offset,
                                  Time start)
{
    NS_LOG_FUNCTION(this << offset << start);
    const bool ps = scenario.architecture == TrainingScenario::PARAMETER_SERVER;
    NodeContainer workers;
    NodeContainer servers;
    std::vector<Ipv4Address> workerAddresses;
    std::vector<Ipv4Address> serverAddresses;
    for (uint32_t r = 0; r < scenario.workers + (ps ? scenario.servers : 0); ++r)
    {
        const bool worker = r < scenario.workers;
        (worker ? workers : servers).Add(m_workerNodes.Get(offset + r));
        (worker ? workerAddresses : serverAddresses).push_back(GetWorkerAddress(offset + r));
    }
    ApplicationContainer apps = ps ? InstallPs(profile, scenario, workers, servers, serverAddresses)
                                   : InstallRing(profile, scenario, workers, workerAddresses);
    apps.Start(start);
    return apps;
}

int64_t
TrainingClusterHelper::AssignStreams(int64_t stream)
{
    return AssignStreams(m_apps, stream);
}

int64_t
TrainingClusterHelper::AssignStreams(const ApplicationContainer& apps, int64_t stream)
{
    int64_t current = stream;
    for (auto it = apps.Begin(); it != apps.End(); ++it)
    {
        if (auto ps = DynamicCast<ParameterServerApplication>(*it))
        {
            current += ps->AssignStreams(current);
        }
        else if (auto w = DynamicCast<TrainingWorkerApplication>(*it))
        {
            current += w->AssignStreams(current);
        }
        else if (auto r = DynamicCast<RingAllReduceApplication>(*it))
        {
            current += r->AssignStreams(current);
        }
        else if (auto onoff = DynamicCast<OnOffApplication>(*it))
        {
            current += onoff->AssignStreams(current);
        }
    }
    return current - stream;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * TrainingClusterHelper (see training-cluster-helper.h). Cross traffic: background senders through
 * the star's switch.
 */

#include "training-cluster-helper.h"

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

NS_LOG_COMPONENT_DEFINE("TrainingClusterCrossTraffic");

ApplicationContainer
TrainingClusterHelper::InstallCrossTraffic()
{
    NS_LOG_FUNCTION(this);
    ApplicationContainer apps;
    if (m_scenario.crossTraffic == "none")
    {
        return apps;
    }
    const bool udp = m_scenario.crossTraffic == "onoff" && m_scenario.crossProtocol == "udp";
    const std::string factory = udp ? "ns3::UdpSocketFactory" : "ns3::TcpSocketFactory";
    Ptr<Node> target
        = m_scenario.crossTarget == "worker" ? m_workerNodes.Get(0) : m_serverNodes.Get(0);
    Address remote(InetSocketAddress(m_scenario.crossTarget == "worker" ? GetWorkerAddress(0)
                                                                        : GetServerAddress(0),
                                     m_crossPort));
    PacketSinkHelper sink(factory, InetSocketAddress(Ipv4Address::GetAny(), m_crossPort));
    apps.Add(sink.Install(target));
    if (m_scenario.crossTraffic == "bulk")
    {
        BulkSendHelper bulk(factory, remote);
        bulk.SetAttribute("MaxBytes", UintegerValue(0));
        bulk.SetAttribute("SendSize", UintegerValue(64 * 1024));
        apps.Add(bulk.Install(m_crossNodes));
    }
    else
    {
        // Each flow: on at min(NIC, 2 x its mean share), off long enough for its mean share.
        const double share = m_scenario.crossRate.GetBitRate() / double(m_scenario.crossFlows);
        const double on = std::min(double(m_scenario.nicRate.GetBitRate()), 2 * share);
        const double duty = share / on;
        OnOffHelper onoff(factory, remote);
        onoff.SetAttribute("DataRate", DataRateValue(DataRate(static_cast<uint64_t>(on))));
        onoff.SetAttribute("PacketSize",
                           UintegerValue(TrainingNetwork::GetSegmentSize(m_scenario)));
        onoff.SetAttribute("OnTime",
                           StringValue("ns3::ExponentialRandomVariable[Mean="
                                       + std::to_string(m_crossOnTime.GetSeconds()) + "]"));
        const double off = m_crossOnTime.GetSeconds() * (1 - duty) / duty;
        onoff.SetAttribute(
            "OffTime",
            StringValue(off > 0 ? "ns3::ExponentialRandomVariable[Mean=" + std::to_string(off) + "]"
                                : "ns3::ConstantRandomVariable[Constant=0]"));
        apps.Add(onoff.Install(m_crossNodes));
    }
    m_apps.Add(apps);
    return apps;
}

NodeContainer
TrainingClusterHelper::GetCrossHosts() const
{
    return m_crossNodes;
}

NetDeviceContainer
TrainingClusterHelper::GetCrossLinkDevices(uint32_t c) const
{
    return m_crossLinks.at(c);
}

} // namespace ns3

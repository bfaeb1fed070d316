/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-network.h"

#include "ns3/unit-parser.h"

#include <algorithm>

namespace ns3
{

uint32_t
TrainingNetwork::GetSegmentSize(const TrainingScenario& s)
{
    return GetSegmentSize(s.mtu);
}

uint32_t
TrainingNetwork::GetSegmentSize(uint32_t mtu)
{
    return mtu - 52;
}

uint32_t
TrainingNetwork::GetFrameBytes(const TrainingScenario& s)
{
    return s.mtu + 2;
}

double
TrainingNetwork::GetFlowRateBps(const TrainingScenario& s)
{
    double rate = static_cast<double>(s.nicRate.GetBitRate());
    if (s.flowCap.GetBitRate() > 0)
    {
        rate = std::min(rate, static_cast<double>(s.flowCap.GetBitRate()));
    }
    return rate;
}

double
TrainingNetwork::GetLinkGoodputBytesPerSecond(const TrainingScenario& s)
{
    const double efficiency = static_cast<double>(GetSegmentSize(s)) / GetFrameBytes(s);
    return s.nicRate.GetBitRate() / 8.0 * efficiency;
}

double
TrainingNetwork::GetEthernetGoodputBytesPerSecond(double rateBps, uint32_t mtu)
{
    return rateBps / 8 * GetSegmentSize(mtu) / GetEthernetFrameBytes(mtu);
}

uint32_t
TrainingNetwork::GetEthernetFrameBytes(uint32_t mtu)
{
    return mtu + 14;
}

double
TrainingNetwork::GetGoodputBytesPerSecond(const TrainingScenario& s)
{
    double goodput = GetLinkGoodputBytesPerSecond(s);
    if (s.flowCap.GetBitRate() > 0)
    {
        // ns-3 paces the segment payload (TcpSocketBase::SendDataPacket times the pacing
        // interval with the payload size, unchanged from 3.37 to 3.48), so the cap bounds
        // goodput, not wire bytes; TrainingClusterHelper::ConfigurePacing makes the cap the only
        // pacing limit in every release.
        goodput = std::min(goodput, s.flowCap.GetBitRate() / 8.0);
    }
    return goodput;
}

double
TrainingNetwork::GetBaseRttSeconds(const TrainingScenario& s)
{
    const double rate = s.nicRate.GetBitRate() / 8.0; // bytes/s
    return GetPropagationRttSeconds(s) + 4 * GetFrameBytes(s) / rate;
}

double
TrainingNetwork::GetPropagationRttSeconds(const TrainingScenario& s)
{
    return 4 * s.linkDelay.GetSeconds();
}

uint32_t
TrainingNetwork::GetSocketBufferBytes(const TrainingScenario& s, uint32_t configured)
{
    double bytes = configured;
    if (bytes == 0 && s.bufferAutotuning)
    {
        // Autotuned Linux buffers grow until they no longer limit the flow, up to the sysctl
        // maxima: the steady-state window is that limit (LinuxBufferTuner at the packet level).
        bytes = GetLinuxWindowLimitBytes(GetSegmentSize(s));
    }
    if (bytes == 0)
    {
        const double rate = s.nicRate.GetBitRate() / 8.0; // bytes/s
        bytes = std::max(256.0 * 1024, 2 * rate * GetBaseRttSeconds(s));
        if (s.architecture == TrainingScenario::RING_ALLREDUCE)
        {
            bytes = std::max(bytes, 1024.0 * 1024);
        }
    }
    return static_cast<uint32_t>(
        std::min(bytes, double(MAX_ADVERTISED_WINDOW - RECEIVE_BUFFER_MARGIN)));
}

uint32_t
TrainingNetwork::GetLinuxSegmentTruesize(uint32_t mss)
{
    uint32_t p = 1;
    while (p < mss + 320 + 320)
    {
        p <<= 1;
    }
    return p + 256;
}

uint32_t
TrainingNetwork::GetLinuxSendBufferBytes(uint32_t cwndSegments, uint32_t mss, uint32_t wmemMax)
{
    const uint64_t truesize = GetLinuxSegmentTruesize(mss);
    const uint64_t segments
        = std::min<uint64_t>(2ULL * std::max(cwndSegments, 10U), wmemMax / truesize);
    return static_cast<uint32_t>(std::max<uint64_t>(segments, 1) * mss);
}

uint64_t
TrainingNetwork::GetLinuxReceiveWindowBytes(uint64_t copied,
                                            uint64_t space,
                                            uint32_t mss,
                                            uint32_t rmemMax)
{
    if (copied <= space || space == 0)
    {
        return 0;
    }
    uint64_t rcvwin = 2 * copied + 16ULL * mss;
    const uint64_t grow = rcvwin * (copied - space) / space;
    rcvwin += 2 * grow;
    return std::min<uint64_t>(2 * rcvwin, rmemMax) / 2;
}

uint32_t
TrainingNetwork::GetLinuxWindowLimitBytes(uint32_t mss)
{
    return std::min(GetLinuxSendBufferBytes(UINT32_MAX / 2, mss, LINUX_WMEM[2]), LINUX_RMEM[2] / 2);
}

uint32_t
TrainingNetwork::GetReceiveBufferBytes(const TrainingScenario& s, uint32_t configured)
{
    return GetSocketBufferBytes(s, configured) + RECEIVE_BUFFER_MARGIN;
}

double
TrainingNetwork::GetBufferBytes(const TrainingScenario& s, bool host)
{
    const bool own = host && !s.hostQueueSize.empty();
    const QueueSize q = UnitParser::ParseQueueSize(own ? "--hostQueue" : "--queue",
                                                   own ? s.hostQueueSize : s.queueSize);
    return q.GetUnit() == QueueSizeUnit::PACKETS ? q.GetValue() * double(GetFrameBytes(s))
                                                 : static_cast<double>(q.GetValue());
}

double
TrainingNetwork::GetIntraNodeHalfSeconds(const TrainingScenario& s, double bytes)
{
    return GetIntraNodeHalfSeconds(s.gpusPerNode,
                                   s.intraBandwidth.GetBitRate() / 8.0,
                                   s.intraLatency.GetSeconds(),
                                   bytes);
}

double
TrainingNetwork::GetIntraNodeHalfSeconds(uint32_t gpus,
                                         double bytesPerSecond,
                                         double latency,
                                         double bytes)
{
    if (gpus <= 1)
    {
        return 0;
    }
    const double g = gpus;
    return (g - 1) / g * bytes / bytesPerSecond + (g - 1) * latency;
}

std::string
TrainingNetwork::GetLinkName(const std::string& host, bool toSwitch)
{
    return toSwitch ? host + "->switch" : "switch->" + host;
}

} // namespace ns3

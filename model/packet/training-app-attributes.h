/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_APP_ATTRIBUTES_H
#define TRAINING_APP_ATTRIBUTES_H

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/training-scenario.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The attributes a worker has in every architecture (TrainingWorkerApplication,
 * RingAllReduceApplication): GPUs per node with the intra-node interconnect, and the start
 * jitter. One definition of their names, help texts and defaults (TrainingScenario's).
 * \tparam T the application class
 * \param tid the TypeId being built
 * \param gpus member: GPUs per node G
 * \param bandwidth member: intra-node interconnect rate
 * \param latency member: intra-node per-operation latency
 * \param jitter member: largest random start delay
 * \return tid
 */
template<typename T>
TypeId
AddWorkerHostAttributes(TypeId tid,
                        uint32_t T::*gpus,
                        DataRate T::*bandwidth,
                        Time T::*latency,
                        Time T::*jitter)
{
    const TrainingScenario d;
    return tid
        .AddAttribute("GpusPerNode",
                      "GPUs per node G (> 1: every network transfer is framed by a modelled "
                      "intra-node reduce or broadcast, TrainingNetwork::GetIntraNodeHalfSeconds)",
                      UintegerValue(d.gpusPerNode),
                      MakeUintegerAccessor(gpus),
                      MakeUintegerChecker<uint32_t>(1))
        .AddAttribute("IntraBandwidth",
                      "Intra-node interconnect rate (GpusPerNode > 1)",
                      DataRateValue(d.intraBandwidth),
                      MakeDataRateAccessor(bandwidth),
                      MakeDataRateChecker())
        .AddAttribute("IntraLatency",
                      "Intra-node per-operation latency (GpusPerNode > 1)",
                      TimeValue(d.intraLatency),
                      MakeTimeAccessor(latency),
                      MakeTimeChecker(Seconds(0)))
        .AddAttribute("StartJitter",
                      "Largest random delay of the first step and of every transfer start "
                      "(uniform, from the run's random stream; 0: none)",
                      TimeValue(d.startJitter),
                      MakeTimeAccessor(jitter),
                      MakeTimeChecker(Seconds(0)));
}

/**
 * \ingroup distributed-training
 * \brief The socket attributes of every training application: TcpSmallQueues (its TCP sockets
 * are TcpSmallQueuesSocket: --tcpSmallQueues) and the job's own send and receive buffers, so
 * that jobs of one simulation keep their own buffer rule (a ring's is larger than a parameter
 * server's) instead of sharing the TcpSocket defaults. One definition of names, help, defaults.
 * \tparam T the application class
 * \param tid the TypeId being built
 * \param smallQueues member: the flag
 * \param sendBuffer member: SndBufSize of its sockets (0: the TcpSocket default)
 * \param receiveBuffer member: RcvBufSize of its sockets (0: the TcpSocket default)
 * \return tid
 */
template<typename T>
TypeId
AddSocketAttributes(TypeId tid,
                    bool T::*smallQueues,
                    uint32_t T::*sendBuffer,
                    uint32_t T::*receiveBuffer)
{
    return tid
        .AddAttribute("TcpSmallQueues",
                      "Open TCP sockets with Linux's TCP small queues (TcpSmallQueuesSocket) "
                      "instead of ns-3's TcpSocketBase",
                      BooleanValue(TrainingScenario().tcpSmallQueues),
                      MakeBooleanAccessor(smallQueues),
                      MakeBooleanChecker())
        .AddAttribute("SendBufferBytes",
                      "SndBufSize of the application's TCP sockets (0: ns3::TcpSocket's default; "
                      "TrainingNetwork::GetSocketBufferBytes gives the job's)",
                      UintegerValue(0),
                      MakeUintegerAccessor(sendBuffer),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("ReceiveBufferBytes",
                      "RcvBufSize of the application's TCP sockets (0: ns3::TcpSocket's default; "
                      "TrainingNetwork::GetReceiveBufferBytes gives the job's)",
                      UintegerValue(0),
                      MakeUintegerAccessor(receiveBuffer),
                      MakeUintegerChecker<uint32_t>());
}

} // namespace ns3

#endif /* TRAINING_APP_ATTRIBUTES_H */

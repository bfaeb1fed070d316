/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "parameter-server-application.h"

#include "training-app-attributes.h"

#include "ns3/boolean.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-small-queues.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ParameterServerApplication");

NS_OBJECT_ENSURE_REGISTERED(ParameterServerApplication);

TypeId
ParameterServerApplication::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::ParameterServerApplication")
              .SetParent<Application>()
              .SetGroupName("DistributedTraining")
              .AddConstructor<ParameterServerApplication>()
              .AddAttribute("Port",
                            "TCP port the server listens on",
                            UintegerValue(5000),
                            MakeUintegerAccessor(&ParameterServerApplication::m_port),
                            MakeUintegerChecker<uint16_t>(1))
              .AddAttribute("ServerIndex",
                            "Index of this server (peer field of its transfer records)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&ParameterServerApplication::m_index),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("Workers",
                            "Number of workers K (the sync barrier waits for all of them)",
                            UintegerValue(1),
                            MakeUintegerAccessor(&ParameterServerApplication::m_workers),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("Mode",
                            "sync: barrier over all workers after each step; async: none",
                            EnumValue(ParameterServerApplication::SYNC),
                            DtMakeEnumAccessor<Mode>(&ParameterServerApplication::m_mode),
                            MakeEnumChecker(ParameterServerApplication::SYNC,
                                            "sync",
                                            ParameterServerApplication::ASYNC,
                                            "async"))
              .AddAttribute("Overlap",
                            "Apply each gradient as soon as it arrives (else after all of the "
                            "worker's gradients of the step)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&ParameterServerApplication::m_overlap),
                            MakeBooleanChecker())
              .AddAttribute("Order",
                            "Order of the parameter tensors sent to a worker",
                            EnumValue(ParameterServerApplication::FORWARD),
                            DtMakeEnumAccessor<Order>(&ParameterServerApplication::m_order),
                            MakeEnumChecker(ParameterServerApplication::FORWARD,
                                            "forward",
                                            ParameterServerApplication::REVERSE,
                                            "reverse",
                                            ParameterServerApplication::RANDOM,
                                            "random"))
              .AddAttribute("Window",
                            "Multiplexing window WIN in bytes (0: whole tensors in order)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&ParameterServerApplication::m_window),
                            MakeUintegerChecker<uint64_t>())
              .AddAttribute("StartJitter",
                            "Largest random delay of every transfer start "
                            "(uniform, from the run's random stream; 0: none)",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&ParameterServerApplication::m_startJitter),
                            MakeTimeChecker(Seconds(0)))
              .AddTraceSource("TransferCompleted",
                              "A worker's gradient tensor arrived completely",
                              MakeTraceSourceAccessor(&ParameterServerApplication::m_transferTrace),
                              "ns3::ParameterServerApplication::TransferTracedCallback")
              .AddTraceSource("UpdatesApplied",
                              "All gradients of a worker's step owned here were applied",
                              MakeTraceSourceAccessor(&ParameterServerApplication::m_updatesTrace),
                              "ns3::ParameterServerApplication::UpdatesAppliedTracedCallback")
              .AddTraceSource("SocketOpened",
                              "A TCP socket carrying tensors was opened (created to connect, or "
                              "accepted): trace its "
                              "TCP trace sources from here (CongestionMonitor does)",
                              MakeTraceSourceAccessor(&ParameterServerApplication::m_socketTrace),
                              "ns3::TensorConnection::SocketTracedCallback");
    // The attribute every training application has (training-app-attributes.h).
    static const TypeId withSocket
        = AddSocketAttributes(tid,
                              &ParameterServerApplication::m_tcpSmallQueues,
                              &ParameterServerApplication::m_sendBuffer,
                              &ParameterServerApplication::m_receiveBuffer);
    return withSocket;
}

ParameterServerApplication::ParameterServerApplication()
    : m_port(5000),
      m_index(0),
      m_workers(1),
      m_mode(SYNC),
      m_overlap(false),
      m_order(FORWARD),
      m_window(0)
{
    NS_LOG_FUNCTION(this);
    m_rng = CreateObject<UniformRandomVariable>();
}

ParameterServerApplication::~ParameterServerApplication()
{
    NS_LOG_FUNCTION(this);
}

void
ParameterServerApplication::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& c : m_connections)
    {
        c->Dispose();
    }
    m_connections.clear();
    m_workerConnection.clear();
    m_listener = nullptr;
    m_rng = nullptr;
    m_profile.reset();
    Application::DoDispose();
}

void
ParameterServerApplication::SetModel(std::shared_ptr<const TrainingProfile> profile,
                                     const std::vector<uint32_t>& layers)
{
    NS_LOG_FUNCTION(this << layers.size());
    m_profile = profile;
    m_layers = layers;
}

int64_t
ParameterServerApplication::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

uint64_t
ParameterServerApplication::GetPayloadBytesReceived() const
{
    return m_protocol ? m_protocol->GetGradientBytesReceived() : 0;
}

uint64_t
ParameterServerApplication::GetPayloadBytesSent() const
{
    uint64_t total = 0;
    for (const auto& c : m_connections)
    {
        total += c->GetPayloadBytesSent();
    }
    return total;
}

void
ParameterServerApplication::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_profile || m_layers.empty(),
                    "ParameterServerApplication: SetModel() with at least one layer first");
    const auto order = m_order == REVERSE  ? TrainingScenario::REVERSE_ORDER
                       : m_order == RANDOM ? TrainingScenario::RANDOM_ORDER
                                           : TrainingScenario::FORWARD_ORDER;
    const PsServerProtocol::Config config{m_index, m_workers, m_mode == SYNC, m_overlap, order};
    ProtocolTransport& transport = *this; // a private base: convert here, where it is accessible
    m_protocol = std::make_unique<PsServerProtocol>(transport, m_profile, m_layers, config, m_rng);
    m_listener = TcpSmallQueuesSocket::CreateTcpSocket(GetNode(),
                                                       m_tcpSmallQueues,
                                                       m_sendBuffer,
                                                       m_receiveBuffer);
    if (m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0)
    {
        NS_FATAL_ERROR("ParameterServerApplication: cannot bind port " << m_port);
    }
    m_listener->Listen();
    m_listener->SetAcceptCallback(
        MakeCallback(&ParameterServerApplication::HandleConnectionRequest, this),
        MakeCallback(&ParameterServerApplication::HandleAccept, this));
}

void
ParameterServerApplication::StopApplication()
{
    NS_LOG_FUNCTION(this);
    if (m_listener)
    {
        m_listener->Close();
    }
    for (auto& c : m_connections)
    {
        c->GetSocket()->Close();
    }
}

bool
ParameterServerApplication::HandleConnectionRequest(Ptr<Socket> /* socket */,
                                                    const Address& /* from */)
{
    return true;
}

void
ParameterServerApplication::HandleAccept(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_FUNCTION(this << socket << from);
    Ptr<TensorConnection> c = CreateObject<TensorConnection>();
    c->Attach(socket, m_window, MakeCallback(&ParameterServerApplication::HandleChunk, this));
    c->SetStartJitter(m_startJitter, m_rng);
    m_connections.push_back(c);
    m_socketTrace(socket);
}

void
ParameterServerApplication::HandleChunk(Ptr<TensorConnection> connection,
                                        const TensorChunkHeader& header)
{
    NS_LOG_FUNCTION(this << header);
    if (PsServerProtocol::IdentifiesWorker(header))
    {
        m_workerConnection[header.GetWorker()] = connection;
    }
    m_protocol->Receive(header);
}

TensorSink&
ParameterServerApplication::GetPeer(uint32_t worker)
{
    return *m_workerConnection.at(worker);
}

void
ParameterServerApplication::TransferCompleted(const TrainingResult::TransferRecord& record)
{
    m_transferTrace(record);
}

void
ParameterServerApplication::UpdatesApplied(uint32_t worker, uint32_t step, Time when)
{
    m_updatesTrace(worker, step, when);
}

} // namespace ns3

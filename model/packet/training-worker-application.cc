/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-worker-application.h"

#include "training-app-attributes.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-small-queues.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/training-scenario.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingWorkerApplication");

NS_OBJECT_ENSURE_REGISTERED(TrainingWorkerApplication);

TypeId
TrainingWorkerApplication::GetTypeId()
{
    static TypeId tid
        = AddWorkerHostAttributes(
              TypeId("ns3::TrainingWorkerApplication")
                  .SetParent<Application>()
                  .SetGroupName("DistributedTraining")
                  .AddConstructor<TrainingWorkerApplication>()
                  .AddAttribute("WorkerIndex",
                                "Index of this worker",
                                UintegerValue(0),
                                MakeUintegerAccessor(&TrainingWorkerApplication::m_index),
                                MakeUintegerChecker<uint32_t>())
                  .AddAttribute("Port",
                                "TCP port of the parameter servers",
                                UintegerValue(5000),
                                MakeUintegerAccessor(&TrainingWorkerApplication::m_port),
                                MakeUintegerChecker<uint16_t>(1))
                  .AddAttribute("Steps",
                                "Training steps to run",
                                UintegerValue(TrainingScenario().steps),
                                MakeUintegerAccessor(&TrainingWorkerApplication::m_steps),
                                MakeUintegerChecker<uint32_t>(1))
                  .AddAttribute("Overlap",
                                "Overlap communication with computation, layer by layer",
                                BooleanValue(false),
                                MakeBooleanAccessor(&TrainingWorkerApplication::m_overlap),
                                MakeBooleanChecker())
                  .AddAttribute("ComputeScale",
                                "Multiplier of this worker's forward and backward times "
                                "(heterogeneous workers)",
                                DoubleValue(1.0),
                                MakeDoubleAccessor(&TrainingWorkerApplication::m_scale),
                                MakeDoubleChecker<double>(1e-6, 1e6))
                  .AddAttribute("SampleSteps",
                                "Draw each step's times from the profile's recorded steps (with "
                                "replacement); else use the per-layer means",
                                BooleanValue(true),
                                MakeBooleanAccessor(&TrainingWorkerApplication::m_sampleSteps),
                                MakeBooleanChecker())
                  .AddAttribute("Window",
                                "Multiplexing window WIN of the uplink in bytes (0: whole tensors)",
                                UintegerValue(0),
                                MakeUintegerAccessor(&TrainingWorkerApplication::m_window),
                                MakeUintegerChecker<uint64_t>()),
              &TrainingWorkerApplication::m_gpus,
              &TrainingWorkerApplication::m_intraRate,
              &TrainingWorkerApplication::m_intraLatency,
              &TrainingWorkerApplication::m_startJitter)
              .AddTraceSource("StepCompleted",
                              "A step ended (all its gradients applied at every server)",
                              MakeTraceSourceAccessor(&TrainingWorkerApplication::m_stepTrace),
                              "ns3::TrainingWorkerApplication::StepTracedCallback")
              .AddTraceSource("TransferCompleted",
                              "A parameter tensor arrived completely",
                              MakeTraceSourceAccessor(&TrainingWorkerApplication::m_transferTrace),
                              "ns3::TrainingWorkerApplication::TransferTracedCallback")
              .AddTraceSource("Away",
                              "The worker left the job after its step (--leave, async PS): its "
                              "index and when it rejoins",
                              MakeTraceSourceAccessor(&TrainingWorkerApplication::m_awayTrace),
                              "ns3::TrainingWorkerApplication::AwayTracedCallback")
              .AddTraceSource("SocketOpened",
                              "A TCP socket carrying tensors was opened (created to connect, or "
                              "accepted): trace its "
                              "TCP trace sources from here (CongestionMonitor does)",
                              MakeTraceSourceAccessor(&TrainingWorkerApplication::m_socketTrace),
                              "ns3::TensorConnection::SocketTracedCallback");
    // The attribute every training application has (training-app-attributes.h).
    static const TypeId withSocket
        = AddSocketAttributes(tid,
                              &TrainingWorkerApplication::m_tcpSmallQueues,
                              &TrainingWorkerApplication::m_sendBuffer,
                              &TrainingWorkerApplication::m_receiveBuffer);
    return withSocket;
}

TrainingWorkerApplication::TrainingWorkerApplication()
    : m_index(0),
      m_port(5000),
      m_steps(TrainingScenario().steps),
      m_overlap(false),
      m_scale(1.0),
      m_sampleSteps(true),
      m_window(0),
      m_gpus(1),
      m_intraRate("300Gbps"),
      m_intraLatency(MicroSeconds(5))
{
    NS_LOG_FUNCTION(this);
    m_rng = CreateObject<UniformRandomVariable>();
}

TrainingWorkerApplication::~TrainingWorkerApplication()
{
    NS_LOG_FUNCTION(this);
}

void
TrainingWorkerApplication::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& c : m_connections)
    {
        c->Dispose();
    }
    m_connections.clear();
    m_rng = nullptr;
    m_profile.reset();
    Application::DoDispose();
}

void
TrainingWorkerApplication::SetModel(std::shared_ptr<const TrainingProfile> profile,
                                    const std::vector<uint32_t>& owners,
                                    const std::vector<Ipv4Address>& servers)
{
    NS_LOG_FUNCTION(this);
    m_profile = profile;
    m_owners = owners;
    m_servers = servers;
}

void
TrainingWorkerApplication::SetSlowdown(std::shared_ptr<const ComputeSlowdown> slowdown)
{
    m_slowdown = std::move(slowdown);
}

void
TrainingWorkerApplication::SetAbsences(std::shared_ptr<const WorkerAbsences> absences)
{
    m_absences = std::move(absences);
}

int64_t
TrainingWorkerApplication::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

uint32_t
TrainingWorkerApplication::GetStepsCompleted() const
{
    return m_protocol ? m_protocol->GetStepsCompleted() : 0;
}

uint64_t
TrainingWorkerApplication::GetPayloadBytesSent() const
{
    uint64_t total = 0;
    for (const auto& c : m_connections)
    {
        total += c->GetPayloadBytesSent();
    }
    return total;
}

uint64_t
TrainingWorkerApplication::GetPayloadBytesReceived() const
{
    uint64_t total = 0;
    for (const auto& c : m_connections)
    {
        total += c->GetPayloadBytesReceived();
    }
    return total;
}

void
TrainingWorkerApplication::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_profile || m_servers.empty(),
                    "TrainingWorkerApplication: SetModel() with at least one server first");
    WorkerConfig config{m_index, m_steps, m_overlap, m_sampleSteps, m_startJitter, {}, {}};
    config.timing = WorkerTiming::Make(m_scale, m_gpus, m_intraRate, m_intraLatency);
    config.timing.slowdown = m_slowdown;
    config.timing.worker = m_index;
    config.absences = m_absences;
    ProtocolTransport& transport = *this; // a private base: convert here, where it is accessible
    m_protocol = std::make_unique<PsWorkerProtocol>(transport,
                                                    m_profile,
                                                    m_owners,
                                                    static_cast<uint32_t>(m_servers.size()),
                                                    config,
                                                    m_rng);
    for (std::size_t p = 0; p < m_servers.size(); ++p)
    {
        Ptr<Socket> s = TcpSmallQueuesSocket::CreateTcpSocket(GetNode(),
                                                              m_tcpSmallQueues,
                                                              m_sendBuffer,
                                                              m_receiveBuffer);
        s->Bind();
        s->SetConnectCallback(
            MakeCallback(&TrainingWorkerApplication::HandleConnected, this),
            MakeCallback(&TrainingWorkerApplication::HandleConnectionFailed, this));
        Ptr<TensorConnection> c = CreateObject<TensorConnection>();
        c->Attach(s, m_window, MakeCallback(&TrainingWorkerApplication::HandleChunk, this));
        c->SetStartJitter(m_startJitter, m_rng);
        m_connections.push_back(c);
        m_socketTrace(s);
        s->Connect(InetSocketAddress(m_servers[p], m_port));
    }
}

void
TrainingWorkerApplication::StopApplication()
{
    NS_LOG_FUNCTION(this);
    if (m_protocol)
    {
        m_protocol->Stop();
    }
    for (auto& c : m_connections)
    {
        c->GetSocket()->Close();
    }
}

void
TrainingWorkerApplication::HandleConnected(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    for (std::size_t p = 0; p < m_connections.size(); ++p)
    {
        if (m_connections[p]->GetSocket() == socket)
        {
            m_protocol->Connected(static_cast<uint32_t>(p));
        }
    }
}

void
TrainingWorkerApplication::HandleConnectionFailed(Ptr<Socket> /* socket */)
{
    NS_FATAL_ERROR("worker " << m_index << ": connection to a parameter server failed");
}

void
TrainingWorkerApplication::HandleChunk(Ptr<TensorConnection> /* connection */,
                                       const TensorChunkHeader& header)
{
    m_protocol->Receive(header);
}

TensorSink&
TrainingWorkerApplication::GetPeer(uint32_t server)
{
    return *m_connections.at(server);
}

void
TrainingWorkerApplication::TransferCompleted(const TrainingResult::TransferRecord& record)
{
    m_transferTrace(record);
}

void
TrainingWorkerApplication::StepCompleted(const TrainingResult::StepRecord& record)
{
    m_stepTrace(record);
}

void
TrainingWorkerApplication::WorkerAway(uint32_t worker, Time back)
{
    m_awayTrace(worker, back);
}

} // namespace ns3

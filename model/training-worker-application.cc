/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-worker-application.h"

#include "training-app-attributes.h"
#include "training-network.h"
#include "training-scenario.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>

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
              .AddTraceSource("SocketOpened",
                              "A TCP socket carrying tensors was opened (created to connect, or "
                              "accepted): trace its "
                              "TCP trace sources from here (CongestionMonitor does)",
                              MakeTraceSourceAccessor(&TrainingWorkerApplication::m_socketTrace),
                              "ns3::TensorConnection::SocketTracedCallback");
    return tid;
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
      m_intraLatency(MicroSeconds(5)),
      m_reduced(0),
      m_connected(0),
      m_step(0),
      m_sample(0),
      m_fwd(nullptr),
      m_bwd(nullptr),
      m_arrivedCount(0),
      m_nextForward(0),
      m_nextBackward(-1),
      m_busy(false),
      m_notices(0),
      m_completed(0),
      m_running(false)
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
    m_mean = profile->GetMeanStep();
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
    return m_completed;
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
    m_running = true;
    for (std::size_t p = 0; p < m_servers.size(); ++p)
    {
        Ptr<Socket> s = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
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
    m_running = false;
    for (auto& c : m_connections)
    {
        c->GetSocket()->Close();
    }
}

void
TrainingWorkerApplication::HandleConnected(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    for (auto& c : m_connections)
    {
        if (c->GetSocket() == socket)
        {
            TensorChunkHeader hello;
            hello.SetType(TensorChunkHeader::HELLO);
            hello.SetWorker(m_index);
            c->SendControl(hello);
        }
    }
    if (++m_connected == m_connections.size())
    {
        m_step = 0;
        // Identical workers would otherwise start in lockstep (see StartJitter).
        if (m_startJitter.IsStrictlyPositive())
        {
            Simulator::Schedule(Seconds(m_rng->GetValue(0, m_startJitter.GetSeconds())),
                                &TrainingWorkerApplication::StartStep,
                                this);
            return;
        }
        StartStep();
    }
}

void
TrainingWorkerApplication::HandleConnectionFailed(Ptr<Socket> /* socket */)
{
    NS_FATAL_ERROR("worker " << m_index << ": connection to a parameter server failed");
}

void
TrainingWorkerApplication::StartStep()
{
    NS_LOG_FUNCTION(this << m_step);
    const std::size_t n = m_profile->GetNLayers();
    if (m_sampleSteps && m_profile->GetNSamples() > 0)
    {
        uint32_t k = m_rng->GetInteger(0, static_cast<uint32_t>(m_profile->GetNSamples() - 1));
        m_sample = k + 1;
        m_fwd = &m_profile->GetSample(k).forwardUs;
        m_bwd = &m_profile->GetSample(k).backwardUs;
    }
    else
    {
        m_sample = 0;
        m_fwd = &m_mean.forwardUs;
        m_bwd = &m_mean.backwardUs;
    }
    m_stepStart = Simulator::Now();
    m_stepEnd = Time();
    m_arrived.assign(n, false);
    m_received.assign(n, 0);
    m_arrivedCount = 0;
    m_broadcastFree = m_stepStart;
    m_reduceFree = m_stepStart;
    m_reduced = 0;
    m_nextForward = 0;
    m_nextBackward = -1;
    m_notices = 0;
    for (std::size_t p = 0; p < m_connections.size(); ++p)
    {
        TensorChunkHeader pull;
        pull.SetType(TensorChunkHeader::PULL);
        pull.SetWorker(m_index);
        pull.SetStep(m_step);
        m_connections[p]->SendControl(pull);
    }
}

void
TrainingWorkerApplication::HandleChunk(Ptr<TensorConnection> /* connection */,
                                       const TensorChunkHeader& header)
{
    NS_LOG_FUNCTION(this << header);
    if (!m_running)
    {
        return;
    }
    if (header.GetType() == TensorChunkHeader::PARAMS)
    {
        uint32_t l = static_cast<uint32_t>(header.GetTensor());
        m_received.at(l) += header.GetLength();
        if (m_received[l] < header.GetTensorBytes() || m_arrived[l])
        {
            return;
        }
        m_transferTrace({m_index,
                         m_owners[l],
                         header.GetStep(),
                         header.GetTensor(),
                         "down",
                         header.GetTensorBytes(),
                         header.GetTimestamp().GetSeconds(),
                         Simulator::Now().GetSeconds()});
        Broadcast(l);
    }
    else if (header.GetType() == TensorChunkHeader::NOTICE)
    {
        m_stepEnd = std::max(m_stepEnd, header.GetTimestamp());
        if (++m_notices < m_connections.size())
        {
            return;
        }
        m_stepTrace({m_index, m_step, m_stepStart.GetSeconds(), m_stepEnd.GetSeconds()});
        ++m_completed;
        if (++m_step < m_steps)
        {
            StartStep();
        }
    }
}

Time
TrainingWorkerApplication::Compute(double us) const
{
    return TrainingProfile::FromMicroseconds(us * m_scale);
}

Time
TrainingWorkerApplication::IntraNode(uint32_t layer) const
{
    return Seconds(TrainingNetwork::GetIntraNodeHalfSeconds(m_gpus,
                                                            m_intraRate.GetBitRate() / 8.0,
                                                            m_intraLatency.GetSeconds(),
                                                            m_profile->GetLayer(layer).paramBytes));
}

void
TrainingWorkerApplication::Broadcast(uint32_t layer)
{
    if (m_gpus <= 1)
    {
        BroadcastDone(layer);
        return;
    }
    m_broadcastFree = std::max(m_broadcastFree, Simulator::Now()) + IntraNode(layer);
    Simulator::Schedule(m_broadcastFree - Simulator::Now(),
                        &TrainingWorkerApplication::BroadcastDone,
                        this,
                        layer);
}

void
TrainingWorkerApplication::BroadcastDone(uint32_t layer)
{
    m_arrived[layer] = true;
    ++m_arrivedCount;
    TryForward();
}

void
TrainingWorkerApplication::Reduce(uint32_t layer)
{
    if (m_gpus <= 1)
    {
        ReduceDone(layer);
        return;
    }
    m_reduceFree = std::max(m_reduceFree, Simulator::Now()) + IntraNode(layer);
    Simulator::Schedule(m_reduceFree - Simulator::Now(),
                        &TrainingWorkerApplication::ReduceDone,
                        this,
                        layer);
}

void
TrainingWorkerApplication::ReduceDone(uint32_t layer)
{
    if (m_overlap)
    {
        SendGradient(layer);
        return;
    }
    // Overlap off: every gradient goes up after all are reduced, last layer first.
    if (++m_reduced == m_profile->GetNLayers())
    {
        for (int64_t l = static_cast<int64_t>(m_profile->GetNLayers()) - 1; l >= 0; --l)
        {
            SendGradient(static_cast<uint32_t>(l));
        }
    }
}

void
TrainingWorkerApplication::TryForward()
{
    const uint32_t n = static_cast<uint32_t>(m_profile->GetNLayers());
    if (m_busy || m_nextForward >= n || m_nextBackward >= 0)
    {
        return;
    }
    bool ready = m_overlap ? m_arrived[m_nextForward] : m_arrivedCount == n;
    if (!ready)
    {
        return;
    }
    m_busy = true;
    Simulator::Schedule(Compute((*m_fwd)[m_nextForward]),
                        &TrainingWorkerApplication::ForwardDone,
                        this);
}

void
TrainingWorkerApplication::ForwardDone()
{
    m_busy = false;
    const uint32_t n = static_cast<uint32_t>(m_profile->GetNLayers());
    if (++m_nextForward < n)
    {
        TryForward();
        return;
    }
    m_nextBackward = n - 1;
    m_busy = true;
    Simulator::Schedule(Compute((*m_bwd)[m_nextBackward]),
                        &TrainingWorkerApplication::BackwardDone,
                        this);
}

void
TrainingWorkerApplication::BackwardDone()
{
    m_busy = false;
    const uint32_t layer = static_cast<uint32_t>(m_nextBackward);
    if (m_overlap)
    {
        Reduce(layer);
    }
    if (layer == 0)
    {
        if (!m_overlap)
        {
            for (int64_t l = static_cast<int64_t>(m_profile->GetNLayers()) - 1; l >= 0; --l)
            {
                Reduce(static_cast<uint32_t>(l));
            }
        }
        return;
    }
    --m_nextBackward;
    m_busy = true;
    Simulator::Schedule(Compute((*m_bwd)[m_nextBackward]),
                        &TrainingWorkerApplication::BackwardDone,
                        this);
}

void
TrainingWorkerApplication::SendGradient(uint32_t layer)
{
    TensorChunkHeader h;
    h.SetType(TensorChunkHeader::GRADIENT);
    h.SetTensor(static_cast<int32_t>(layer));
    h.SetStep(m_step);
    h.SetWorker(m_index);
    h.SetAux(m_sample);
    m_connections[m_owners[layer]]->SendTensor(h, m_profile->GetLayer(layer).paramBytes);
}

} // namespace ns3

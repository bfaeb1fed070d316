/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "parameter-server-application.h"

#include "ns3/boolean.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <numeric>

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
    return tid;
}

ParameterServerApplication::ParameterServerApplication()
    : m_port(5000),
      m_index(0),
      m_workers(1),
      m_mode(SYNC),
      m_overlap(false),
      m_order(FORWARD),
      m_window(0),
      m_barrierCount(0),
      m_bytesReceived(0)
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
    m_state.clear();
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
    m_localIndex.assign(profile->GetNLayers(), -1);
    for (std::size_t i = 0; i < layers.size(); ++i)
    {
        m_localIndex.at(layers[i]) = static_cast<int32_t>(i);
    }
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
    return m_bytesReceived;
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
    m_listener = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
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

ParameterServerApplication::WorkerState&
ParameterServerApplication::State(uint32_t worker)
{
    auto it = m_state.find(worker);
    if (it == m_state.end())
    {
        it = m_state.emplace(worker, WorkerState()).first;
        it->second.received.assign(m_layers.size(), 0);
    }
    return it->second;
}

void
ParameterServerApplication::HandleChunk(Ptr<TensorConnection> connection,
                                        const TensorChunkHeader& header)
{
    NS_LOG_FUNCTION(this << header);
    const uint32_t w = header.GetWorker();
    WorkerState& st = State(w);
    switch (header.GetType())
    {
        case TensorChunkHeader::HELLO:
            st.connection = connection;
            break;
        case TensorChunkHeader::PULL:
            st.connection = connection;
            SendParameters(w, header.GetStep());
            break;
        case TensorChunkHeader::GRADIENT:
        {
            int32_t local
                = header.GetTensor() >= 0
                          && static_cast<std::size_t>(header.GetTensor()) < m_localIndex.size()
                      ? m_localIndex[header.GetTensor()]
                      : -1;
            NS_ABORT_MSG_IF(local < 0,
                            "server " << m_index << " got a gradient of layer "
                                      << header.GetTensor() << " it does not own");
            if (st.gradientsComplete == 0 && st.received[local] == 0)
            {
                st.step = header.GetStep();
            }
            st.received[local] += header.GetLength();
            m_bytesReceived += header.GetLength();
            if (st.received[local] < header.GetTensorBytes())
            {
                break;
            }
            st.received[local] = 0;
            ++st.gradientsComplete;
            m_transferTrace({w,
                             m_index,
                             header.GetStep(),
                             header.GetTensor(),
                             "up",
                             header.GetTensorBytes(),
                             header.GetTimestamp().GetSeconds(),
                             Simulator::Now().GetSeconds()});
            std::pair<uint32_t, uint32_t> op(static_cast<uint32_t>(local), header.GetAux());
            if (m_overlap)
            {
                st.ready.push_back(op);
            }
            else
            {
                st.held.push_back(op);
                if (st.gradientsComplete == m_layers.size())
                {
                    st.ready.insert(st.ready.end(), st.held.begin(), st.held.end());
                    st.held.clear();
                }
            }
            ProcessUpdates(w);
            break;
        }
        default:
            NS_LOG_WARN("server " << m_index << " ignores message " << header);
    }
}

void
ParameterServerApplication::SendParameters(uint32_t worker, uint32_t step)
{
    NS_LOG_FUNCTION(this << worker << step);
    std::vector<uint32_t> order(m_layers.size());
    std::iota(order.begin(), order.end(), 0);
    if (m_order == REVERSE)
    {
        std::reverse(order.begin(), order.end());
    }
    else if (m_order == RANDOM)
    {
        for (std::size_t i = order.size(); i > 1; --i) // Fisher-Yates with the seeded stream
        {
            std::swap(order[i - 1], order[m_rng->GetInteger(0, static_cast<uint32_t>(i - 1))]);
        }
    }
    WorkerState& st = State(worker);
    for (uint32_t local : order)
    {
        uint32_t layer = m_layers[local];
        TensorChunkHeader h;
        h.SetType(TensorChunkHeader::PARAMS);
        h.SetTensor(static_cast<int32_t>(layer));
        h.SetStep(step);
        h.SetWorker(worker);
        st.connection->SendTensor(h, m_profile->GetLayer(layer).paramBytes);
    }
}

void
ParameterServerApplication::ProcessUpdates(uint32_t worker)
{
    WorkerState& st = State(worker);
    if (st.updating || st.ready.empty())
    {
        return;
    }
    auto [local, sample] = st.ready.front();
    st.ready.pop_front();
    st.updating = true;
    uint32_t layer = m_layers[local];
    double us = sample == 0 ? m_profile->GetLayer(layer).updateUs
                            : m_profile->GetSample(sample - 1).updateUs.at(layer);
    Simulator::Schedule(TrainingProfile::FromMicroseconds(us),
                        &ParameterServerApplication::UpdateDone,
                        this,
                        worker);
}

void
ParameterServerApplication::UpdateDone(uint32_t worker)
{
    WorkerState& st = State(worker);
    st.updating = false;
    if (++st.updatesDone == m_layers.size())
    {
        WorkerStepApplied(worker);
        return;
    }
    ProcessUpdates(worker);
}

void
ParameterServerApplication::WorkerStepApplied(uint32_t worker)
{
    NS_LOG_FUNCTION(this << worker);
    WorkerState& st = State(worker);
    st.doneTime = Simulator::Now();
    st.updatesDone = 0;
    st.gradientsComplete = 0;
    m_updatesTrace(worker, st.step, st.doneTime);

    auto notify = [](uint32_t w, WorkerState& s)
    {
        TensorChunkHeader n;
        n.SetType(TensorChunkHeader::NOTICE);
        n.SetWorker(w);
        n.SetStep(s.step);
        n.SetTimestamp(s.doneTime);
        s.connection->SendControl(n);
    };
    if (m_mode == ASYNC)
    {
        notify(worker, st);
        return;
    }
    if (++m_barrierCount < m_workers)
    {
        return;
    }
    m_barrierCount = 0;
    for (auto& [w, s] : m_state)
    {
        notify(w, s);
    }
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ps-server-protocol.h"

#include "ns3/log.h"

#include <algorithm>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PsServerProtocol");

PsServerProtocol::PsServerProtocol(ProtocolTransport& transport,
                                   std::shared_ptr<const TrainingProfile> profile,
                                   const std::vector<uint32_t>& layers,
                                   const Config& config,
                                   Ptr<UniformRandomVariable> rng)
    : m_transport(transport),
      m_profile(std::move(profile)),
      m_layers(layers),
      m_config(config),
      m_rng(rng)
{
    m_localIndex.assign(m_profile->GetNLayers(), -1);
    for (std::size_t i = 0; i < layers.size(); ++i)
    {
        m_localIndex.at(layers[i]) = static_cast<int32_t>(i);
    }
}

bool
PsServerProtocol::IdentifiesWorker(const TensorChunkHeader& header)
{
    return header.GetType() == TensorChunkHeader::HELLO
           || header.GetType() == TensorChunkHeader::PULL;
}

uint64_t
PsServerProtocol::GetGradientBytesReceived() const
{
    return m_bytesReceived;
}

PsServerProtocol::WorkerState&
PsServerProtocol::State(uint32_t worker)
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
PsServerProtocol::Receive(const TensorChunkHeader& header)
{
    NS_LOG_FUNCTION(this << header);
    State(header.GetWorker());
    switch (header.GetType())
    {
        case TensorChunkHeader::HELLO:
            break;
        case TensorChunkHeader::PULL:
            SendParameters(header.GetWorker(), header.GetStep());
            break;
        case TensorChunkHeader::GRADIENT:
            ReceiveGradient(header);
            break;
        default:
            NS_LOG_WARN("server " << m_config.index << " ignores message " << header);
    }
}

void
PsServerProtocol::ReceiveGradient(const TensorChunkHeader& header)
{
    const uint32_t w = header.GetWorker();
    WorkerState& st = State(w);
    int32_t local = header.GetTensor() >= 0
                            && static_cast<std::size_t>(header.GetTensor()) < m_localIndex.size()
                        ? m_localIndex[header.GetTensor()]
                        : -1;
    if (local < 0)
    {
        m_transport.Fail("server " + std::to_string(m_config.index) + " got a gradient of layer "
                         + std::to_string(header.GetTensor()) + " it does not own");
        return;
    }
    if (st.gradientsComplete == 0 && st.received[local] == 0)
    {
        st.step = header.GetStep();
    }
    st.received[local] += header.GetLength();
    m_bytesReceived += header.GetLength();
    if (st.received[local] < header.GetTensorBytes())
    {
        return;
    }
    st.received[local] = 0;
    ++st.gradientsComplete;
    m_transport.TransferCompleted({w,
                                   m_config.index,
                                   header.GetStep(),
                                   header.GetTensor(),
                                   "up",
                                   header.GetTensorBytes(),
                                   header.GetTimestamp().GetSeconds(),
                                   m_transport.Now().GetSeconds()});
    std::pair<uint32_t, uint32_t> op(static_cast<uint32_t>(local), header.GetAux());
    if (m_config.overlap)
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
}

void
PsServerProtocol::SendParameters(uint32_t worker, uint32_t step)
{
    NS_LOG_FUNCTION(this << worker << step);
    std::vector<uint32_t> order(m_layers.size());
    std::iota(order.begin(), order.end(), 0);
    if (m_config.order == TrainingScenario::REVERSE_ORDER)
    {
        std::reverse(order.begin(), order.end());
    }
    else if (m_config.order == TrainingScenario::RANDOM_ORDER)
    {
        for (std::size_t i = order.size(); i > 1; --i) // Fisher-Yates with the seeded stream
        {
            std::swap(order[i - 1], order[m_rng->GetInteger(0, static_cast<uint32_t>(i - 1))]);
        }
    }
    for (uint32_t local : order)
    {
        uint32_t layer = m_layers[local];
        TensorChunkHeader h;
        h.SetType(TensorChunkHeader::PARAMS);
        h.SetTensor(static_cast<int32_t>(layer));
        h.SetStep(step);
        h.SetWorker(worker);
        m_transport.GetPeer(worker).SendTensor(h, m_profile->GetLayer(layer).paramBytes);
    }
}

void
PsServerProtocol::ProcessUpdates(uint32_t worker)
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
    m_transport.Schedule(TrainingProfile::FromMicroseconds(us),
                         [this, worker]
                         {
                             UpdateDone(worker);
                         });
}

void
PsServerProtocol::UpdateDone(uint32_t worker)
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
PsServerProtocol::WorkerStepApplied(uint32_t worker)
{
    NS_LOG_FUNCTION(this << worker);
    WorkerState& st = State(worker);
    st.doneTime = m_transport.Now();
    st.updatesDone = 0;
    st.gradientsComplete = 0;
    m_transport.UpdatesApplied(worker, st.step, st.doneTime);
    if (!m_config.sync)
    {
        Notify(worker, st);
        return;
    }
    if (++m_barrierCount < m_config.workers)
    {
        return;
    }
    m_barrierCount = 0;
    for (const auto& [w, s] : m_state)
    {
        Notify(w, s);
    }
}

void
PsServerProtocol::Notify(uint32_t worker, const WorkerState& st)
{
    TensorChunkHeader n;
    n.SetType(TensorChunkHeader::NOTICE);
    n.SetWorker(worker);
    n.SetStep(st.step);
    n.SetTimestamp(st.doneTime);
    m_transport.GetPeer(worker).SendControl(n);
}

} // namespace ns3

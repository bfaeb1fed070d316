/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ps-worker-protocol.h"

#include "ns3/log.h"

#include <algorithm>
#include <functional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PsWorkerProtocol");

PsWorkerProtocol::PsWorkerProtocol(ProtocolTransport& transport,
                                   std::shared_ptr<const TrainingProfile> profile,
                                   const std::vector<uint32_t>& owners,
                                   uint32_t servers,
                                   const WorkerConfig& config,
                                   Ptr<UniformRandomVariable> rng)
    : m_transport(transport),
      m_profile(std::move(profile)),
      m_owners(owners),
      m_servers(servers),
      m_config(config),
      m_rng(rng),
      m_mean(m_profile->GetMeanStep())
{
}

uint32_t
PsWorkerProtocol::GetStepsCompleted() const
{
    return m_completed;
}

void
PsWorkerProtocol::Stop()
{
    m_running = false;
}

void
PsWorkerProtocol::Connected(uint32_t server)
{
    TensorChunkHeader hello;
    hello.SetType(TensorChunkHeader::HELLO);
    hello.SetWorker(m_config.index);
    m_transport.GetPeer(server).SendControl(hello);
    if (++m_connected < m_servers)
    {
        return;
    }
    m_step = 0;
    m_transport.ScheduleStart(m_config.startJitter,
                              m_rng,
                              std::bind(&PsWorkerProtocol::StartStep, this));
}

void
PsWorkerProtocol::StartStep()
{
    NS_LOG_FUNCTION(this << m_step);
    if (m_config.absences)
    {
        // --leave: no step starts inside a window; the worker comes back at its end.
        const double now = m_transport.Now().GetSeconds();
        const double back = m_config.absences->NextStart(m_config.index, now);
        if (back > now)
        {
            // (BeginStep, not StartStep: Seconds(back) may round to just before the window's
            // end, which would find the worker still away.)
            const Time delay = std::max(Seconds(back) - m_transport.Now(), Time());
            m_transport.WorkerAway(m_config.index, m_transport.Now() + delay);
            m_transport.Schedule(delay,
                                 [this]
                                 {
                                     if (m_running)
                                     {
                                         BeginStep();
                                     }
                                 });
            return;
        }
    }
    BeginStep();
}

void
PsWorkerProtocol::BeginStep()
{
    const std::size_t n = m_profile->GetNLayers();
    m_draw = StepDraw::Draw(*m_profile, m_mean, m_config.sampleSteps, m_rng);
    m_stepStart = m_transport.Now();
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
    for (uint32_t p = 0; p < m_servers; ++p)
    {
        TensorChunkHeader pull;
        pull.SetType(TensorChunkHeader::PULL);
        pull.SetWorker(m_config.index);
        pull.SetStep(m_step);
        m_transport.GetPeer(p).SendControl(pull);
    }
}

void
PsWorkerProtocol::Receive(const TensorChunkHeader& header)
{
    NS_LOG_FUNCTION(this << header);
    if (!m_running)
    {
        return;
    }
    if (header.GetType() == TensorChunkHeader::NOTICE)
    {
        ReceiveNotice(header);
        return;
    }
    if (header.GetType() != TensorChunkHeader::PARAMS)
    {
        return;
    }
    uint32_t l = static_cast<uint32_t>(header.GetTensor());
    m_received.at(l) += header.GetLength();
    if (m_received[l] < header.GetTensorBytes() || m_arrived[l])
    {
        return;
    }
    m_transport.TransferCompleted({m_config.index,
                                   m_owners[l],
                                   header.GetStep(),
                                   header.GetTensor(),
                                   "down",
                                   header.GetTensorBytes(),
                                   header.GetTimestamp().GetSeconds(),
                                   m_transport.Now().GetSeconds()});
    IntraNodeThen(m_broadcastFree, l, &PsWorkerProtocol::BroadcastDone);
}

void
PsWorkerProtocol::ReceiveNotice(const TensorChunkHeader& header)
{
    m_stepEnd = std::max(m_stepEnd, header.GetTimestamp());
    if (++m_notices < m_servers)
    {
        return;
    }
    m_transport.StepCompleted(
        {m_config.index, m_step, m_stepStart.GetSeconds(), m_stepEnd.GetSeconds()});
    ++m_completed;
    if (++m_step < m_config.steps)
    {
        StartStep();
    }
}

void
PsWorkerProtocol::IntraNodeThen(Time& free,
                                uint32_t layer,
                                void (PsWorkerProtocol::*done)(uint32_t))
{
    if (m_config.timing.gpusPerNode <= 1)
    {
        (this->*done)(layer);
        return;
    }
    const Time now = m_transport.Now();
    free = std::max(free, now)
           + m_config.timing.IntraNode(static_cast<double>(m_profile->GetLayer(layer).paramBytes));
    m_transport.Schedule(free - now,
                         [this, layer, done]
                         {
                             (this->*done)(layer);
                         });
}

void
PsWorkerProtocol::BroadcastDone(uint32_t layer)
{
    m_arrived[layer] = true;
    ++m_arrivedCount;
    TryForward();
}

void
PsWorkerProtocol::ReduceDone(uint32_t layer)
{
    if (m_config.overlap)
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
PsWorkerProtocol::TryForward()
{
    const uint32_t n = static_cast<uint32_t>(m_profile->GetNLayers());
    if (m_busy || m_nextForward >= n || m_nextBackward >= 0)
    {
        return;
    }
    bool ready = m_config.overlap ? m_arrived[m_nextForward] : m_arrivedCount == n;
    if (!ready)
    {
        return;
    }
    m_busy = true;
    m_transport.Schedule(
        m_config.timing.Compute(m_transport.Now(), (*m_draw.forward)[m_nextForward]),
        [this]
        {
            ForwardDone();
        });
}

void
PsWorkerProtocol::ForwardDone()
{
    m_busy = false;
    const uint32_t n = static_cast<uint32_t>(m_profile->GetNLayers());
    if (++m_nextForward < n)
    {
        TryForward();
        return;
    }
    m_nextBackward = n - 1;
    ScheduleBackward();
}

void
PsWorkerProtocol::ScheduleBackward()
{
    m_busy = true;
    m_transport.Schedule(
        m_config.timing.Compute(m_transport.Now(), (*m_draw.backward)[m_nextBackward]),
        [this]
        {
            BackwardDone();
        });
}

void
PsWorkerProtocol::BackwardDone()
{
    m_busy = false;
    const uint32_t layer = static_cast<uint32_t>(m_nextBackward);
    if (m_config.overlap)
    {
        IntraNodeThen(m_reduceFree, layer, &PsWorkerProtocol::ReduceDone);
    }
    if (layer == 0)
    {
        if (!m_config.overlap)
        {
            for (int64_t l = static_cast<int64_t>(m_profile->GetNLayers()) - 1; l >= 0; --l)
            {
                IntraNodeThen(m_reduceFree,
                              static_cast<uint32_t>(l),
                              &PsWorkerProtocol::ReduceDone);
            }
        }
        return;
    }
    --m_nextBackward;
    ScheduleBackward();
}

void
PsWorkerProtocol::SendGradient(uint32_t layer)
{
    TensorChunkHeader h;
    h.SetType(TensorChunkHeader::GRADIENT);
    h.SetTensor(static_cast<int32_t>(layer));
    h.SetStep(m_step);
    h.SetWorker(m_config.index);
    h.SetAux(m_draw.sample);
    m_transport.GetPeer(m_owners[layer]).SendTensor(h, m_profile->GetLayer(layer).paramBytes);
}

} // namespace ns3

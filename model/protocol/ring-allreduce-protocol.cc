/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-allreduce-protocol.h"

#include "ns3/log.h"

#include <algorithm>
#include <functional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingAllReduceProtocol");

RingAllReduceProtocol::RingAllReduceProtocol(ProtocolTransport& transport,
                                             std::shared_ptr<const TrainingProfile> profile,
                                             const WorkerConfig& config,
                                             const RingConfig& ring,
                                             Ptr<UniformRandomVariable> rng)
    : m_transport(transport),
      m_profile(std::move(profile)),
      m_config(config),
      m_ring(ring),
      m_rng(rng),
      m_mean(m_profile->GetMeanStep())
{
    m_buckets = TensorFusion::FormBuckets(*m_profile,
                                          ring.bucketBytes,
                                          ring.firstBucket,
                                          ring.fusionTimeout);
    m_bucketOfLayer.assign(m_profile->GetNLayers(), 0);
    for (std::size_t b = 0; b < m_buckets.size(); ++b)
    {
        for (uint32_t l : m_buckets[b].layers)
        {
            m_bucketOfLayer[l] = static_cast<uint32_t>(b);
        }
    }
}

RingAllReduceProtocol::~RingAllReduceProtocol()
{
    *m_running = false;
}

const std::vector<TensorFusion::Bucket>&
RingAllReduceProtocol::GetBuckets() const
{
    return m_buckets;
}

uint64_t
RingAllReduceProtocol::ChunkBytes(uint64_t bucketBytes, uint32_t workers, uint32_t chunk)
{
    const uint64_t base = bucketBytes / workers;
    return chunk + 1 < workers ? base : bucketBytes - base * (workers - 1);
}

uint32_t
RingAllReduceProtocol::ChunkOfRound(uint32_t index, uint32_t workers, uint32_t round)
{
    return (index + workers - round % workers) % workers;
}

uint32_t
RingAllReduceProtocol::GetStepsCompleted() const
{
    return m_completed;
}

uint64_t
RingAllReduceProtocol::GetDuplicateChunks() const
{
    return m_duplicates;
}

RingAllReduceProtocol::RingConfig
RingAllReduceProtocol::RingConfig::FromScenario(const TrainingScenario& s)
{
    return {s.workers, s.bucketBytes, s.firstBucketBytes, s.fusionTimeout, s.reductionRate};
}

void
RingAllReduceProtocol::Stop()
{
    *m_running = false;
}

void
RingAllReduceProtocol::SuccessorUp()
{
    m_nextUp = true;
    MaybeStart();
}

void
RingAllReduceProtocol::PredecessorUp()
{
    m_prevUp = true;
    MaybeStart();
}

void
RingAllReduceProtocol::MaybeStart()
{
    if (m_started || !*m_running)
    {
        return;
    }
    if (m_ring.workers > 1 && (!m_nextUp || !m_prevUp))
    {
        return;
    }
    m_started = true;
    m_step = 0;
    m_transport.ScheduleStart(m_config.startJitter,
                              m_rng,
                              std::bind(&RingAllReduceProtocol::StartStep, this));
}

void
RingAllReduceProtocol::ScheduleWhileRunning(const Time& delay, void (RingAllReduceProtocol::*fn)())
{
    m_transport.Schedule(delay,
                         [this, fn, running = m_running]
                         {
                             if (*running)
                             {
                                 (this->*fn)();
                             }
                         });
}

void
RingAllReduceProtocol::StartStep()
{
    NS_LOG_FUNCTION(this << m_step);
    m_draw = StepDraw::Draw(*m_profile, m_mean, m_config.sampleSteps, m_rng);
    m_stepStart = m_transport.Now();
    m_backwardDone = false;
    m_firstReady.assign(m_buckets.size(), Time());
    m_closed.assign(m_buckets.size(), false);
    m_nextBucket = 0;
    m_bucketBusy = false;
    Time forward;
    for (double us : *m_draw.forward)
    {
        forward += m_config.timing.Compute(us);
    }
    ScheduleWhileRunning(forward, &RingAllReduceProtocol::ForwardDone);
}

void
RingAllReduceProtocol::ForwardDone()
{
    m_nextBackward = static_cast<int64_t>(m_profile->GetNLayers()) - 1;
    ScheduleBackward();
}

void
RingAllReduceProtocol::ScheduleBackward()
{
    ScheduleWhileRunning(m_config.timing.Compute((*m_draw.backward)[m_nextBackward]),
                         &RingAllReduceProtocol::BackwardDone);
}

void
RingAllReduceProtocol::BackwardDone()
{
    const uint32_t layer = static_cast<uint32_t>(m_nextBackward);
    const uint32_t b = m_bucketOfLayer[layer];
    const TensorFusion::Bucket& bucket = m_buckets[b];
    const Time now = m_transport.Now();
    if (bucket.layers.front() == layer)
    {
        m_firstReady[b] = now;
    }
    if (bucket.layers.back() == layer)
    {
        // The bucket is complete here. A bucket the timeout closed goes at the fusion cycle,
        // first-gradient time + timeout, or now if this worker is later than that.
        Time close = now;
        if (bucket.byTimeout)
        {
            close = std::max(close, m_firstReady[b] + m_ring.fusionTimeout);
        }
        const uint32_t step = m_step;
        m_transport.Schedule(close - now,
                             [this, step, b]
                             {
                                 BucketClosed(step, b);
                             });
    }
    if (layer == 0)
    {
        m_backwardDone = true;
        TryStartBucket();
        return;
    }
    --m_nextBackward;
    ScheduleBackward();
}

void
RingAllReduceProtocol::BucketClosed(uint32_t step, uint32_t bucket)
{
    if (step != m_step)
    {
        return; // overlap off: the step ended before this bucket's fusion cycle fired
    }
    m_closed[bucket] = true;
    TryStartBucket();
}

void
RingAllReduceProtocol::TryStartBucket()
{
    if (!*m_running || m_bucketBusy || m_nextBucket >= m_buckets.size())
    {
        return;
    }
    bool ready = m_config.overlap ? m_closed[m_nextBucket] : m_backwardDone;
    if (!ready)
    {
        return;
    }
    m_bucketBusy = true;
    AfterIntraNode(&RingAllReduceProtocol::StartRing); // the reduce inside the node
}

void
RingAllReduceProtocol::AfterIntraNode(void (RingAllReduceProtocol::*next)())
{
    if (m_config.timing.gpusPerNode > 1)
    {
        ScheduleWhileRunning(
            m_config.timing.IntraNode(static_cast<double>(m_buckets[m_nextBucket].bytes)),
            next);
        return;
    }
    (this->*next)();
}

void
RingAllReduceProtocol::StartRing()
{
    m_ringStart = m_transport.Now();
    if (m_ring.workers == 1)
    {
        m_ringEnd = m_ringStart;
        RingDone();
        return;
    }
    m_ringActive = true;
    m_reducing = false;
    m_nextRound = 0;
    Advance();
}

void
RingAllReduceProtocol::Advance()
{
    const uint32_t k = m_ring.workers;
    const uint32_t rounds = 2 * (k - 1);
    while (m_ringActive && !m_reducing)
    {
        if (m_nextRound >= rounds)
        {
            if (m_arrived.count(ChunkKey{m_step, m_nextBucket, rounds - 1}) > 0)
            {
                m_ringActive = false;
                RingDone();
            }
            return;
        }
        if (m_nextRound > 0)
        {
            const uint32_t previous = m_nextRound - 1;
            if (m_arrived.count(ChunkKey{m_step, m_nextBucket, previous}) == 0)
            {
                return; // wait for the predecessor's chunk
            }
            if (previous < k - 1 && m_ring.reductionRate > 0)
            {
                // Reduce the received reduce-scatter chunk into ours before forwarding it.
                const uint32_t chunk = ChunkOfRound((m_config.index + k - 1) % k, k, previous);
                const uint64_t bytes = ChunkBytes(m_buckets[m_nextBucket].bytes, k, chunk);
                m_reducing = true;
                ScheduleWhileRunning(Seconds(static_cast<double>(bytes) / m_ring.reductionRate),
                                     &RingAllReduceProtocol::ReductionDone);
                return;
            }
        }
        SendRound(m_nextRound++);
    }
}

void
RingAllReduceProtocol::ReductionDone()
{
    m_reducing = false;
    SendRound(m_nextRound++);
    Advance();
}

void
RingAllReduceProtocol::SendRound(uint32_t round)
{
    const uint32_t chunk = ChunkOfRound(m_config.index, m_ring.workers, round);
    TensorChunkHeader h;
    h.SetType(TensorChunkHeader::RING);
    h.SetTensor(static_cast<int32_t>(m_nextBucket));
    h.SetStep(m_step);
    h.SetWorker(m_config.index);
    h.SetAux(round);
    NS_LOG_LOGIC("worker " << m_config.index << " step " << m_step << " bucket " << m_nextBucket
                           << " round " << round << " chunk " << chunk);
    m_transport.GetPeer(0).SendTensor(
        h,
        ChunkBytes(m_buckets[m_nextBucket].bytes, m_ring.workers, chunk));
}

void
RingAllReduceProtocol::Receive(const TensorChunkHeader& header)
{
    NS_LOG_FUNCTION(this << header);
    if (!*m_running || header.GetType() != TensorChunkHeader::RING)
    {
        return;
    }
    ChunkKey key{header.GetStep(), static_cast<uint32_t>(header.GetTensor()), header.GetAux()};
    uint64_t& got = m_partial[key];
    got += header.GetLength();
    if (got < header.GetTensorBytes())
    {
        return;
    }
    m_partial.erase(key);
    auto& arrived = m_arrived[key];
    arrived.second = header.GetTensorBytes();
    if (++arrived.first > 1)
    {
        ++m_duplicates;
        return;
    }
    const uint32_t k = m_ring.workers;
    m_transport.TransferCompleted({(m_config.index + k - 1) % k,
                                   m_config.index,
                                   header.GetStep(),
                                   header.GetTensor(),
                                   "ring",
                                   header.GetTensorBytes(),
                                   header.GetTimestamp().GetSeconds(),
                                   m_transport.Now().GetSeconds()});
    if (m_ringActive && std::get<0>(key) == m_step && std::get<1>(key) == m_nextBucket)
    {
        Advance();
    }
}

void
RingAllReduceProtocol::RingDone()
{
    m_ringEnd = m_transport.Now();
    AfterIntraNode(&RingAllReduceProtocol::BucketDone); // the broadcast inside the node
}

void
RingAllReduceProtocol::BucketDone()
{
    uint32_t chunks = 0;
    uint64_t bytes = 0;
    for (uint32_t r = 0; m_ring.workers > 1 && r < 2 * (m_ring.workers - 1); ++r)
    {
        auto it = m_arrived.find(ChunkKey{m_step, m_nextBucket, r});
        if (it != m_arrived.end())
        {
            ++chunks;
            bytes += it->second.second;
        }
    }
    m_transport.BucketCompleted(
        {m_config.index, m_step, m_nextBucket, m_ringStart, m_ringEnd, chunks, bytes});
    m_bucketBusy = false;
    if (++m_nextBucket < m_buckets.size())
    {
        TryStartBucket();
        return;
    }
    m_transport.StepCompleted(
        {m_config.index, m_step, m_stepStart.GetSeconds(), m_transport.Now().GetSeconds()});
    ++m_completed;
    if (++m_step < m_config.steps)
    {
        StartStep();
    }
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-allreduce-protocol.h"

#include "ns3/log.h"
#include "ns3/training-input-error.h"

#include <algorithm>
#include <functional>
#include <set>

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
    PlanBuckets();
}

void
RingAllReduceProtocol::PlanBuckets()
{
    // Buckets of one size share a plan: compute each size's once (PlanAll plans every node).
    std::map<uint64_t, AllReduceSchedule::NodePlan> bySize;
    std::set<std::pair<uint32_t, uint32_t>> to; // (node, channel)
    std::set<std::pair<uint32_t, uint32_t>> from;
    for (const TensorFusion::Bucket& bucket : m_buckets)
    {
        auto it = bySize.find(bucket.bytes);
        if (it == bySize.end() && m_ring.workers > 1)
        {
            CollectiveCostModel::Params cost = m_ring.cost;
            cost.bytes = static_cast<double>(bucket.bytes);
            it = bySize
                     .emplace(bucket.bytes,
                              AllReduceSchedule::Plan(
                                  CollectiveCostModel::Resolve(m_ring.collective, cost),
                                  m_config.index,
                                  m_ring.workers,
                                  bucket.bytes,
                                  m_ring.treeChunkBytes,
                                  m_ring.groups))
                     .first;
        }
        m_plans.push_back(it == bySize.end() ? AllReduceSchedule::NodePlan{} : it->second);
        m_receiveIndex.emplace_back();
        const AllReduceSchedule::NodePlan& plan = m_plans.back();
        for (uint32_t i = 0; i < plan.receives.size(); ++i)
        {
            m_receiveIndex.back()[{plan.receives[i].peer, plan.receives[i].tag}] = i;
            from.insert({plan.receives[i].peer, plan.receives[i].channel});
        }
        for (const AllReduceSchedule::Send& send : plan.sends)
        {
            to.insert({send.peer, send.channel});
        }
    }
    for (const auto& [node, channel] : to)
    {
        m_peerSlot[{node, channel}] = static_cast<uint32_t>(m_sendPeers.size());
        m_sendPeers.push_back(node);
    }
    for (const auto& peer : from)
    {
        m_receivePeers.push_back(peer.first);
    }
}

const std::vector<uint32_t>&
RingAllReduceProtocol::GetSendPeers() const
{
    return m_sendPeers;
}

const std::vector<uint32_t>&
RingAllReduceProtocol::GetReceivePeers() const
{
    return m_receivePeers;
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
RingAllReduceProtocol::RingConfig::FromScenario(const TrainingScenario& s,
                                                const TrainingProfile& profile)
{
    RingConfig ring{s.workers, s.bucketBytes, s.firstBucketBytes, s.fusionTimeout, s.reductionRate};
    if (!AllReduceSchedule::FromName(s.collective, ring.collective))
    {
        throw TrainingInputError("--collective: '" + s.collective
                                 + "' (expected ring, halving-doubling, tree, hierarchical or "
                                   "nccl)");
    }
    ring.treeChunkBytes = s.treeChunkBytes;
    ring.workerUpdateUs = s.GetWorkerUpdateUs(profile);
    ring.groups = s.GetCollectiveGroups();
    ring.cost = CollectiveCostModel::FromScenario(s);
    return ring;
}

void
RingAllReduceProtocol::Stop()
{
    *m_running = false;
}

void
RingAllReduceProtocol::OutgoingUp()
{
    ++m_outUp;
    MaybeStart();
}

void
RingAllReduceProtocol::IncomingUp()
{
    ++m_inUp;
    MaybeStart();
}

void
RingAllReduceProtocol::MaybeStart()
{
    if (m_started || !*m_running)
    {
        return;
    }
    if (m_outUp < m_sendPeers.size() || m_inUp < m_receivePeers.size())
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
        forward += m_config.timing.Compute(m_stepStart + forward, us);
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
    ScheduleWhileRunning(
        m_config.timing.Compute(m_transport.Now(), (*m_draw.backward)[m_nextBackward]),
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
    const AllReduceSchedule::NodePlan& plan = m_plans[m_nextBucket];
    if (plan.sends.empty() && plan.receives.empty())
    {
        m_ringEnd = m_ringStart;
        RingDone();
        return;
    }
    m_ringActive = true;
    m_reducing = false;
    m_sent.assign(plan.sends.size(), false);
    m_reduced.assign(plan.receives.size(), false);
    m_have.assign(plan.receives.size(), false);
    m_firstUnsent = 0;
    m_sentCount = 0;
    m_haveCount = 0;
    for (uint32_t i = 0; i < plan.receives.size(); ++i) // those that arrived early
    {
        const AllReduceSchedule::Receive& r = plan.receives[i];
        if (m_arrived.count(ChunkKey{m_step, m_nextBucket, r.peer, r.tag}) > 0)
        {
            m_have[i] = true;
            ++m_haveCount;
        }
    }
    Advance();
}

int64_t
RingAllReduceProtocol::NextReadySend() const
{
    const AllReduceSchedule::NodePlan& plan = m_plans[m_nextBucket];
    for (std::size_t i = m_firstUnsent; i < plan.sends.size(); ++i)
    {
        if (m_sent[i])
        {
            continue;
        }
        const std::vector<uint32_t>& after = plan.sends[i].after;
        if (std::all_of(after.begin(),
                        after.end(),
                        [this](uint32_t r)
                        {
                            return m_have[r];
                        }))
        {
            return static_cast<int64_t>(i);
        }
    }
    return -1;
}

bool
RingAllReduceProtocol::NeedsReduction(uint32_t send, uint64_t& bytes) const
{
    const AllReduceSchedule::NodePlan& plan = m_plans[m_nextBucket];
    bool needed = false;
    bytes = 0;
    for (uint32_t r : plan.sends[send].after)
    {
        if (plan.receives[r].reduce && !m_reduced[r])
        {
            needed = true; // even of 0 bytes (a bucket smaller than K): the ring always had it
            bytes += plan.receives[r].bytes;
        }
    }
    return needed;
}

void
RingAllReduceProtocol::Advance()
{
    const AllReduceSchedule::NodePlan& plan = m_plans[m_nextBucket];
    while (m_ringActive && !m_reducing)
    {
        const int64_t next = NextReadySend();
        if (next < 0)
        {
            if (m_sentCount == plan.sends.size() && m_haveCount == plan.receives.size())
            {
                m_ringActive = false;
                RingDone();
            }
            return; // wait for a receive
        }
        const auto send = static_cast<uint32_t>(next);
        uint64_t reduce = 0;
        if (NeedsReduction(send, reduce) && m_ring.reductionRate > 0)
        {
            // Reduce the received data into ours before forwarding it.
            m_reducing = true;
            m_reducingFor = send;
            ScheduleWhileRunning(Seconds(static_cast<double>(reduce) / m_ring.reductionRate),
                                 &RingAllReduceProtocol::ReductionDone);
            return;
        }
        SendMessage(send);
    }
}

void
RingAllReduceProtocol::ReductionDone()
{
    m_reducing = false;
    for (uint32_t r : m_plans[m_nextBucket].sends[m_reducingFor].after)
    {
        m_reduced[r] = true;
    }
    SendMessage(m_reducingFor);
    Advance();
}

void
RingAllReduceProtocol::SendMessage(uint32_t send)
{
    const AllReduceSchedule::Send& s = m_plans[m_nextBucket].sends[send];
    m_sent[send] = true;
    ++m_sentCount;
    while (m_firstUnsent < m_sent.size() && m_sent[m_firstUnsent])
    {
        ++m_firstUnsent;
    }
    TensorChunkHeader h;
    h.SetType(TensorChunkHeader::RING);
    h.SetTensor(static_cast<int32_t>(m_nextBucket));
    h.SetStep(m_step);
    h.SetWorker(m_config.index);
    h.SetAux(s.tag);
    NS_LOG_LOGIC("worker " << m_config.index << " step " << m_step << " bucket " << m_nextBucket
                           << " to " << s.peer << " tag " << s.tag << " offset " << s.offset);
    m_transport.GetPeer(m_peerSlot.at({s.peer, s.channel})).SendTensor(h, s.bytes);
}

void
RingAllReduceProtocol::Receive(const TensorChunkHeader& header)
{
    NS_LOG_FUNCTION(this << header);
    if (!*m_running || header.GetType() != TensorChunkHeader::RING)
    {
        return;
    }
    ChunkKey key{header.GetStep(),
                 static_cast<uint32_t>(header.GetTensor()),
                 header.GetWorker(),
                 header.GetAux()};
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
    m_transport.TransferCompleted({header.GetWorker(),
                                   m_config.index,
                                   header.GetStep(),
                                   header.GetTensor(),
                                   "ring",
                                   header.GetTensorBytes(),
                                   header.GetTimestamp().GetSeconds(),
                                   m_transport.Now().GetSeconds()});
    if (m_ringActive && std::get<0>(key) == m_step && std::get<1>(key) == m_nextBucket)
    {
        auto it = m_receiveIndex[m_nextBucket].find({header.GetWorker(), header.GetAux()});
        if (it == m_receiveIndex[m_nextBucket].end())
        {
            m_transport.Fail("AllReduce node " + std::to_string(m_config.index)
                             + ": unexpected message from " + std::to_string(header.GetWorker())
                             + " tag " + std::to_string(header.GetAux()));
            return;
        }
        m_have[it->second] = true;
        ++m_haveCount;
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
    for (const AllReduceSchedule::Receive& r : m_plans[m_nextBucket].receives)
    {
        auto it = m_arrived.find(ChunkKey{m_step, m_nextBucket, r.peer, r.tag});
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
    RunWorkerUpdate();
}

void
RingAllReduceProtocol::RunWorkerUpdate()
{
    // The averaged gradients are applied by the worker itself once every bucket is reduced
    // (DDP: optimizer.step() after backward() returns); the next forward waits for it.
    if (m_ring.workerUpdateUs > 0)
    {
        ScheduleWhileRunning(m_config.timing.Compute(m_transport.Now(), m_ring.workerUpdateUs),
                             &RingAllReduceProtocol::StepDone);
        return;
    }
    StepDone();
}

void
RingAllReduceProtocol::StepDone()
{
    m_transport.StepCompleted(
        {m_config.index, m_step, m_stepStart.GetSeconds(), m_transport.Now().GetSeconds()});
    ++m_completed;
    if (++m_step < m_config.steps)
    {
        StartStep();
    }
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-allreduce-application.h"

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

NS_LOG_COMPONENT_DEFINE("RingAllReduceApplication");

NS_OBJECT_ENSURE_REGISTERED(RingAllReduceApplication);

TypeId
RingAllReduceApplication::AddFusionAttributes(TypeId tid)
{
    const TrainingScenario d; // the defaults are the scenario's
    return tid
        .AddAttribute("BucketBytes",
                      "Fusion threshold Q in bytes (0: one bucket per layer; 2^64-1: one "
                      "bucket)",
                      UintegerValue(d.bucketBytes),
                      MakeUintegerAccessor(&RingAllReduceApplication::m_bucketBytes),
                      MakeUintegerChecker<uint64_t>())
        .AddAttribute("FirstBucketBytes",
                      "Size of the first bucket in bytes (0: BucketBytes)",
                      UintegerValue(d.firstBucketBytes),
                      MakeUintegerAccessor(&RingAllReduceApplication::m_firstBucket),
                      MakeUintegerChecker<uint64_t>())
        .AddAttribute("FusionTimeout",
                      "A bucket also closes this long after its first gradient was ready "
                      "(0: never)",
                      TimeValue(d.fusionTimeout),
                      MakeTimeAccessor(&RingAllReduceApplication::m_fusionTimeout),
                      MakeTimeChecker(Seconds(0)))
        .AddAttribute("ReductionRate",
                      "Bytes per second of reducing a received reduce-scatter chunk "
                      "(0: free)",
                      DoubleValue(d.reductionRate),
                      MakeDoubleAccessor(&RingAllReduceApplication::m_reductionRate),
                      MakeDoubleChecker<double>(0));
}

TypeId
RingAllReduceApplication::GetTypeId()
{
    static TypeId tid
        = AddWorkerHostAttributes(
              AddFusionAttributes(TypeId("ns3::RingAllReduceApplication")
                                      .SetParent<Application>()
                                      .SetGroupName("DistributedTraining")
                                      .AddConstructor<RingAllReduceApplication>()),
              &RingAllReduceApplication::m_gpusPerNode,
              &RingAllReduceApplication::m_intraBandwidth,
              &RingAllReduceApplication::m_intraLatency,
              &RingAllReduceApplication::m_startJitter)
              .AddAttribute("WorkerIndex",
                            "Index w of this worker in the ring",
                            UintegerValue(0),
                            MakeUintegerAccessor(&RingAllReduceApplication::m_index),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("Workers",
                            "Number of workers (nodes) K in the ring",
                            UintegerValue(1),
                            MakeUintegerAccessor(&RingAllReduceApplication::m_workers),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("Port",
                            "TCP port every worker listens on for its predecessor",
                            UintegerValue(5000),
                            MakeUintegerAccessor(&RingAllReduceApplication::m_port),
                            MakeUintegerChecker<uint16_t>(1))
              .AddAttribute("Steps",
                            "Training steps to run",
                            UintegerValue(TrainingScenario().steps),
                            MakeUintegerAccessor(&RingAllReduceApplication::m_steps),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("Overlap",
                            "Start a bucket's AllReduce as soon as it is closed, while backward "
                            "continues (else after the whole backward)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&RingAllReduceApplication::m_overlap),
                            MakeBooleanChecker())
              .AddAttribute("ComputeScale",
                            "Multiplier of this worker's forward and backward times",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&RingAllReduceApplication::m_scale),
                            MakeDoubleChecker<double>(1e-6, 1e6))
              .AddAttribute("SampleSteps",
                            "Draw each step's times from the profile's recorded steps (with "
                            "replacement); else use the per-layer means",
                            BooleanValue(true),
                            MakeBooleanAccessor(&RingAllReduceApplication::m_sampleSteps),
                            MakeBooleanChecker())
              .AddTraceSource("StepCompleted",
                              "A step ended (every bucket reduced at this worker)",
                              MakeTraceSourceAccessor(&RingAllReduceApplication::m_stepTrace),
                              "ns3::RingAllReduceApplication::StepTracedCallback")
              .AddTraceSource("TransferCompleted",
                              "A ring chunk from the predecessor arrived completely",
                              MakeTraceSourceAccessor(&RingAllReduceApplication::m_transferTrace),
                              "ns3::RingAllReduceApplication::TransferTracedCallback")
              .AddTraceSource("BucketReduced",
                              "A bucket's AllReduce (and intra-node broadcast) finished here",
                              MakeTraceSourceAccessor(&RingAllReduceApplication::m_bucketTrace),
                              "ns3::RingAllReduceApplication::BucketTracedCallback")
              .AddTraceSource("SocketOpened",
                              "A TCP socket carrying tensors was opened (created to connect, or "
                              "accepted): trace its "
                              "TCP trace sources from here (CongestionMonitor does)",
                              MakeTraceSourceAccessor(&RingAllReduceApplication::m_socketTrace),
                              "ns3::TensorConnection::SocketTracedCallback");
    return tid;
}

RingAllReduceApplication::RingAllReduceApplication()
    : m_index(0),
      m_workers(1),
      m_port(5000),
      m_steps(TrainingScenario().steps),
      m_overlap(false),
      m_scale(1.0),
      m_sampleSteps(true),
      m_bucketBytes(0),
      m_firstBucket(0),
      m_fusionTimeout(Seconds(0)),
      m_reductionRate(0),
      m_gpusPerNode(1),
      m_intraBandwidth("300Gbps"),
      m_intraLatency(MicroSeconds(5)),
      m_nextUp(false),
      m_started(false),
      m_step(0),
      m_fwd(nullptr),
      m_bwd(nullptr),
      m_nextBackward(-1),
      m_backwardDone(false),
      m_nextBucket(0),
      m_bucketBusy(false),
      m_ringActive(false),
      m_reducing(false),
      m_nextRound(0),
      m_duplicates(0),
      m_completed(0),
      m_running(false)
{
    NS_LOG_FUNCTION(this);
    m_rng = CreateObject<UniformRandomVariable>();
}

RingAllReduceApplication::~RingAllReduceApplication()
{
    NS_LOG_FUNCTION(this);
}

void
RingAllReduceApplication::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_computeEvent.Cancel();
    m_delayEvent.Cancel();
    if (m_next)
    {
        m_next->Dispose();
        m_next = nullptr;
    }
    if (m_prev)
    {
        m_prev->Dispose();
        m_prev = nullptr;
    }
    if (m_listener)
    {
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeNullCallback<void, Ptr<Socket>, const Address&>());
        m_listener = nullptr;
    }
    m_rng = nullptr;
    m_profile.reset();
    m_partial.clear();
    m_arrived.clear();
    Application::DoDispose();
}

void
RingAllReduceApplication::SetModel(std::shared_ptr<const TrainingProfile> profile,
                                   Ipv4Address successor)
{
    NS_LOG_FUNCTION(this << successor);
    m_profile = profile;
    m_successor = successor;
    m_mean = profile->GetMeanStep();
}

int64_t
RingAllReduceApplication::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

uint32_t
RingAllReduceApplication::GetStepsCompleted() const
{
    return m_completed;
}

const std::vector<RingAllReduceApplication::Bucket>&
RingAllReduceApplication::GetBuckets() const
{
    return m_buckets;
}

uint64_t
RingAllReduceApplication::GetPayloadBytesSent() const
{
    return m_next ? m_next->GetPayloadBytesSent() : 0;
}

uint64_t
RingAllReduceApplication::GetPayloadBytesReceived() const
{
    return m_prev ? m_prev->GetPayloadBytesReceived() : 0;
}

uint64_t
RingAllReduceApplication::GetDuplicateChunks() const
{
    return m_duplicates;
}

void
RingAllReduceApplication::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_profile, "RingAllReduceApplication: SetModel() first");
    NS_ABORT_MSG_IF(m_index >= m_workers,
                    "RingAllReduceApplication: WorkerIndex " << m_index << " >= Workers "
                                                             << m_workers);
    m_running = true;
    m_buckets
        = TensorFusion::FormBuckets(*m_profile, m_bucketBytes, m_firstBucket, m_fusionTimeout);
    m_bucketOfLayer.assign(m_profile->GetNLayers(), 0);
    for (std::size_t b = 0; b < m_buckets.size(); ++b)
    {
        for (uint32_t l : m_buckets[b].layers)
        {
            m_bucketOfLayer[l] = static_cast<uint32_t>(b);
        }
    }
    if (m_workers == 1)
    {
        MaybeStart(); // no network
        return;
    }
    m_listener = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    if (m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0)
    {
        NS_FATAL_ERROR("RingAllReduceApplication: cannot bind port " << m_port);
    }
    m_listener->Listen();
    m_listener->SetAcceptCallback(
        MakeCallback(&RingAllReduceApplication::HandleConnectionRequest, this),
        MakeCallback(&RingAllReduceApplication::HandleAccept, this));

    Ptr<Socket> s = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    s->Bind();
    s->SetConnectCallback(MakeCallback(&RingAllReduceApplication::HandleConnected, this),
                          MakeCallback(&RingAllReduceApplication::HandleConnectionFailed, this));
    m_next = CreateObject<TensorConnection>();
    // Nothing comes back on the connection to the successor.
    m_next->Attach(s, 0, MakeNullCallback<void, Ptr<TensorConnection>, const TensorChunkHeader&>());
    m_next->SetStartJitter(m_startJitter, m_rng);
    m_socketTrace(s);
    s->Connect(InetSocketAddress(m_successor, m_port));
}

void
RingAllReduceApplication::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_running = false;
    m_computeEvent.Cancel();
    m_delayEvent.Cancel();
    if (m_next)
    {
        m_next->GetSocket()->Close();
    }
    if (m_prev)
    {
        m_prev->GetSocket()->Close();
    }
    if (m_listener)
    {
        m_listener->Close();
    }
}

bool
RingAllReduceApplication::HandleConnectionRequest(Ptr<Socket> /* socket */,
                                                  const Address& /* from */)
{
    return !m_prev; // only the predecessor connects, once
}

void
RingAllReduceApplication::HandleAccept(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_FUNCTION(this << socket << from);
    m_prev = CreateObject<TensorConnection>();
    m_prev->Attach(socket, 0, MakeCallback(&RingAllReduceApplication::HandleChunk, this));
    m_socketTrace(socket);
    MaybeStart();
}

void
RingAllReduceApplication::HandleConnected(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    m_nextUp = true;
    MaybeStart();
}

void
RingAllReduceApplication::HandleConnectionFailed(Ptr<Socket> /* socket */)
{
    NS_FATAL_ERROR("ring worker " << m_index << ": connection to its successor failed");
}

void
RingAllReduceApplication::MaybeStart()
{
    if (m_started || !m_running)
    {
        return;
    }
    if (m_workers > 1 && (!m_nextUp || !m_prev))
    {
        return;
    }
    m_started = true;
    m_step = 0;
    if (m_startJitter.IsStrictlyPositive())
    {
        Simulator::Schedule(Seconds(m_rng->GetValue(0, m_startJitter.GetSeconds())),
                            &RingAllReduceApplication::StartStep,
                            this);
        return;
    }
    StartStep();
}

Time
RingAllReduceApplication::Compute(double us) const
{
    return TrainingProfile::FromMicroseconds(us * m_scale);
}

Time
RingAllReduceApplication::IntraDelay(uint64_t bytes) const
{
    return Seconds(TrainingNetwork::GetIntraNodeHalfSeconds(m_gpusPerNode,
                                                            m_intraBandwidth.GetBitRate() / 8.0,
                                                            m_intraLatency.GetSeconds(),
                                                            static_cast<double>(bytes)));
}

uint64_t
RingAllReduceApplication::ChunkBytes(uint32_t bucket, uint32_t chunk) const
{
    const uint64_t m = m_buckets[bucket].bytes;
    const uint64_t base = m / m_workers;
    return chunk + 1 < m_workers ? base : m - base * (m_workers - 1);
}

void
RingAllReduceApplication::StartStep()
{
    NS_LOG_FUNCTION(this << m_step);
    const std::size_t n = m_profile->GetNLayers();
    if (m_sampleSteps && m_profile->GetNSamples() > 0)
    {
        uint32_t k = m_rng->GetInteger(0, static_cast<uint32_t>(m_profile->GetNSamples() - 1));
        m_fwd = &m_profile->GetSample(k).forwardUs;
        m_bwd = &m_profile->GetSample(k).backwardUs;
    }
    else
    {
        m_fwd = &m_mean.forwardUs;
        m_bwd = &m_mean.backwardUs;
    }
    m_stepStart = Simulator::Now();
    m_backwardDone = false;
    m_firstReady.assign(m_buckets.size(), Time());
    m_closed.assign(m_buckets.size(), false);
    m_nextBucket = 0;
    m_bucketBusy = false;
    Time forward;
    for (std::size_t l = 0; l < n; ++l)
    {
        forward += Compute((*m_fwd)[l]);
    }
    m_computeEvent = Simulator::Schedule(forward, &RingAllReduceApplication::ForwardDone, this);
}

void
RingAllReduceApplication::ForwardDone()
{
    m_nextBackward = static_cast<int64_t>(m_profile->GetNLayers()) - 1;
    m_computeEvent = Simulator::Schedule(Compute((*m_bwd)[m_nextBackward]),
                                         &RingAllReduceApplication::BackwardDone,
                                         this);
}

void
RingAllReduceApplication::BackwardDone()
{
    const uint32_t layer = static_cast<uint32_t>(m_nextBackward);
    const uint32_t b = m_bucketOfLayer[layer];
    const Bucket& bucket = m_buckets[b];
    if (bucket.layers.front() == layer)
    {
        m_firstReady[b] = Simulator::Now();
    }
    if (bucket.layers.back() == layer)
    {
        // The bucket is complete here. A bucket the timeout closed goes at the fusion cycle,
        // first-gradient time + timeout, or now if this worker is later than that.
        Time close = Simulator::Now();
        if (bucket.byTimeout)
        {
            close = std::max(close, m_firstReady[b] + m_fusionTimeout);
        }
        Simulator::Schedule(close - Simulator::Now(),
                            &RingAllReduceApplication::BucketClosed,
                            this,
                            m_step,
                            b);
    }
    if (layer == 0)
    {
        m_backwardDone = true;
        TryStartBucket();
        return;
    }
    --m_nextBackward;
    m_computeEvent = Simulator::Schedule(Compute((*m_bwd)[m_nextBackward]),
                                         &RingAllReduceApplication::BackwardDone,
                                         this);
}

void
RingAllReduceApplication::BucketClosed(uint32_t step, uint32_t bucket)
{
    if (step != m_step)
    {
        return; // overlap off: the step ended before this bucket's fusion cycle fired
    }
    m_closed[bucket] = true;
    TryStartBucket();
}

void
RingAllReduceApplication::TryStartBucket()
{
    if (!m_running || m_bucketBusy || m_nextBucket >= m_buckets.size())
    {
        return;
    }
    bool ready = m_overlap ? m_closed[m_nextBucket] : m_backwardDone;
    if (!ready)
    {
        return;
    }
    m_bucketBusy = true;
    if (m_gpusPerNode > 1)
    {
        m_delayEvent = Simulator::Schedule(IntraDelay(m_buckets[m_nextBucket].bytes),
                                           &RingAllReduceApplication::StartRing,
                                           this);
    }
    else
    {
        StartRing();
    }
}

void
RingAllReduceApplication::StartRing()
{
    m_ringStart = Simulator::Now();
    if (m_workers == 1)
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
RingAllReduceApplication::Advance()
{
    const uint32_t rounds = 2 * (m_workers - 1);
    while (m_ringActive && !m_reducing)
    {
        if (m_nextRound < rounds)
        {
            if (m_nextRound > 0)
            {
                ChunkKey need{m_step, m_nextBucket, m_nextRound - 1};
                if (m_arrived.find(need) == m_arrived.end())
                {
                    return; // wait for the predecessor's chunk
                }
                if (m_nextRound - 1 < m_workers - 1 && m_reductionRate > 0)
                {
                    // Reduce the received reduce-scatter chunk into ours before forwarding it.
                    uint32_t chunk
                        = (m_index + m_workers - (m_nextRound - 1) % m_workers - 1) % m_workers;
                    m_reducing = true;
                    m_delayEvent = Simulator::Schedule(
                        Seconds(static_cast<double>(ChunkBytes(m_nextBucket, chunk))
                                / m_reductionRate),
                        &RingAllReduceApplication::ReductionDone,
                        this);
                    return;
                }
            }
            SendRound(m_nextRound++);
            continue;
        }
        ChunkKey last{m_step, m_nextBucket, rounds - 1};
        if (m_arrived.find(last) != m_arrived.end())
        {
            m_ringActive = false;
            RingDone();
        }
        return;
    }
}

void
RingAllReduceApplication::ReductionDone()
{
    m_reducing = false;
    SendRound(m_nextRound++);
    Advance();
}

void
RingAllReduceApplication::SendRound(uint32_t round)
{
    const uint32_t chunk = (m_index + m_workers - round % m_workers) % m_workers;
    TensorChunkHeader h;
    h.SetType(TensorChunkHeader::RING);
    h.SetTensor(static_cast<int32_t>(m_nextBucket));
    h.SetStep(m_step);
    h.SetWorker(m_index);
    h.SetAux(round);
    NS_LOG_LOGIC("worker " << m_index << " step " << m_step << " bucket " << m_nextBucket
                           << " round " << round << " chunk " << chunk);
    m_next->SendTensor(h, ChunkBytes(m_nextBucket, chunk));
}

void
RingAllReduceApplication::HandleChunk(Ptr<TensorConnection> /* connection */,
                                      const TensorChunkHeader& header)
{
    NS_LOG_FUNCTION(this << header);
    if (!m_running || header.GetType() != TensorChunkHeader::RING)
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
    m_transferTrace({(m_index + m_workers - 1) % m_workers,
                     m_index,
                     header.GetStep(),
                     header.GetTensor(),
                     "ring",
                     header.GetTensorBytes(),
                     header.GetTimestamp().GetSeconds(),
                     Simulator::Now().GetSeconds()});
    if (m_ringActive && std::get<0>(key) == m_step && std::get<1>(key) == m_nextBucket)
    {
        Advance();
    }
}

void
RingAllReduceApplication::RingDone()
{
    m_ringEnd = Simulator::Now();
    if (m_gpusPerNode > 1)
    {
        m_delayEvent = Simulator::Schedule(IntraDelay(m_buckets[m_nextBucket].bytes),
                                           &RingAllReduceApplication::BucketDone,
                                           this);
    }
    else
    {
        BucketDone();
    }
}

void
RingAllReduceApplication::BucketDone()
{
    uint32_t chunks = 0;
    uint64_t bytes = 0;
    for (uint32_t r = 0; m_workers > 1 && r < 2 * (m_workers - 1); ++r)
    {
        auto it = m_arrived.find(ChunkKey{m_step, m_nextBucket, r});
        if (it != m_arrived.end())
        {
            ++chunks;
            bytes += it->second.second;
        }
    }
    m_bucketTrace(m_index, m_step, m_nextBucket, m_ringStart, m_ringEnd, chunks, bytes);
    m_bucketBusy = false;
    if (++m_nextBucket < m_buckets.size())
    {
        TryStartBucket();
        return;
    }
    m_stepTrace({m_index, m_step, m_stepStart.GetSeconds(), Simulator::Now().GetSeconds()});
    ++m_completed;
    if (++m_step < m_steps)
    {
        StartStep();
    }
}

} // namespace ns3

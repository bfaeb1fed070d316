/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-allreduce-application.h"

#include "training-app-attributes.h"

#include "ns3/attribute-container.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-small-queues.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/training-scenario.h"
#include "ns3/uinteger.h"

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
                      MakeDoubleChecker<double>(0))
        .AddAttribute("Collective",
                      "The AllReduce algorithm of each bucket (AllReduceSchedule)",
                      EnumValue(AllReduceSchedule::RING),
                      MakeEnumAccessor(&RingAllReduceApplication::m_collective),
                      MakeEnumChecker(AllReduceSchedule::RING,
                                      "ring",
                                      AllReduceSchedule::HALVING_DOUBLING,
                                      "halving-doubling",
                                      AllReduceSchedule::DOUBLE_BINARY_TREE,
                                      "tree",
                                      AllReduceSchedule::HIERARCHICAL,
                                      "hierarchical",
                                      AllReduceSchedule::NCCL,
                                      "nccl"))
        .AddAttribute("Groups",
                      "Collective hierarchical: each worker's group, e.g. 0,0,1,1 "
                      "(TrainingScenario::GetCollectiveGroups)",
                      AttributeContainerValue<UintegerValue, std::vector>(),
                      MakeAttributeContainerAccessor<UintegerValue, std::vector>(
                          &RingAllReduceApplication::m_groups),
                      MakeAttributeContainerChecker<UintegerValue, std::vector>(
                          MakeUintegerChecker<uint32_t>()))
        .AddAttribute("CostAlpha",
                      "Collective nccl: the alpha-beta model's latency of one message, by which "
                      "each bucket runs the ring or the tree (CollectiveCostModel::Resolve)",
                      TimeValue(Seconds(2 * d.linkDelay.GetSeconds())),
                      MakeTimeAccessor(&RingAllReduceApplication::m_costAlpha),
                      MakeTimeChecker(Seconds(0)))
        .AddAttribute("CostBeta",
                      "Collective nccl: the alpha-beta model's seconds per byte (1 / goodput)",
                      DoubleValue(1e-9),
                      MakeDoubleAccessor(&RingAllReduceApplication::m_costBeta),
                      MakeDoubleChecker<double>(0))
        .AddAttribute("TreeChunkBytes",
                      "Pipelining unit of the double binary tree in bytes",
                      UintegerValue(d.treeChunkBytes),
                      MakeUintegerAccessor(&RingAllReduceApplication::m_treeChunk),
                      MakeUintegerChecker<uint64_t>(1))
        .AddAttribute("WorkerUpdate",
                      "This worker's optimizer step after the last bucket's AllReduce, before "
                      "the next forward (x ComputeScale, stretched by slowdown episodes; 0: "
                      "none). TrainingScenario::GetWorkerUpdateUs gives it (--workerUpdate)",
                      TimeValue(Seconds(0)),
                      MakeTimeAccessor(&RingAllReduceApplication::m_workerUpdate),
                      MakeTimeChecker(Seconds(0)));
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
                            "Number of workers (nodes) K of the AllReduce",
                            UintegerValue(1),
                            MakeUintegerAccessor(&RingAllReduceApplication::m_workers),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("Port",
                            "TCP port every worker listens on for the nodes that send to it",
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
                              "An AllReduce message from a peer arrived completely",
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
    // The attribute every training application has (training-app-attributes.h).
    static const TypeId withSocket
        = AddSocketAttributes(tid,
                              &RingAllReduceApplication::m_tcpSmallQueues,
                              &RingAllReduceApplication::m_sendBuffer,
                              &RingAllReduceApplication::m_receiveBuffer);
    return withSocket;
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
      m_collective(AllReduceSchedule::RING),
      m_treeChunk(TrainingScenario().treeChunkBytes),
      m_costBeta(1e-9),
      m_gpusPerNode(1),
      m_intraBandwidth("300Gbps"),
      m_intraLatency(MicroSeconds(5))
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
    if (m_protocol)
    {
        m_protocol->Stop(); // its pending compute and delay events do nothing from now on
    }
    for (auto& c : m_outgoing)
    {
        c->Dispose();
    }
    m_outgoing.clear();
    for (auto& c : m_incoming)
    {
        c->Dispose();
    }
    m_incoming.clear();
    if (m_listener)
    {
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeNullCallback<void, Ptr<Socket>, const Address&>());
        m_listener = nullptr;
    }
    m_rng = nullptr;
    m_profile.reset();
    Application::DoDispose();
}

void
RingAllReduceApplication::SetModel(std::shared_ptr<const TrainingProfile> profile,
                                   const std::vector<Ipv4Address>& workers)
{
    NS_LOG_FUNCTION(this << workers.size());
    m_profile = profile;
    m_addresses = workers;
}

void
RingAllReduceApplication::SetSlowdown(std::shared_ptr<const ComputeSlowdown> slowdown)
{
    m_slowdown = std::move(slowdown);
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
    return m_protocol ? m_protocol->GetStepsCompleted() : 0;
}

const std::vector<RingAllReduceApplication::Bucket>&
RingAllReduceApplication::GetBuckets() const
{
    static const std::vector<Bucket> none;
    return m_protocol ? m_protocol->GetBuckets() : none;
}

uint64_t
RingAllReduceApplication::GetPayloadBytesSent() const
{
    uint64_t bytes = 0;
    for (const auto& c : m_outgoing)
    {
        bytes += c->GetPayloadBytesSent();
    }
    return bytes;
}

uint64_t
RingAllReduceApplication::GetPayloadBytesReceived() const
{
    uint64_t bytes = 0;
    for (const auto& c : m_incoming)
    {
        bytes += c->GetPayloadBytesReceived();
    }
    return bytes;
}

uint64_t
RingAllReduceApplication::GetDuplicateChunks() const
{
    return m_protocol ? m_protocol->GetDuplicateChunks() : 0;
}

void
RingAllReduceApplication::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_profile, "RingAllReduceApplication: SetModel() first");
    NS_ABORT_MSG_IF(m_index >= m_workers,
                    "RingAllReduceApplication: WorkerIndex " << m_index << " >= Workers "
                                                             << m_workers);
    WorkerConfig config{m_index, m_steps, m_overlap, m_sampleSteps, m_startJitter, {}, {}};
    config.timing = WorkerTiming::Make(m_scale, m_gpusPerNode, m_intraBandwidth, m_intraLatency);
    config.timing.slowdown = m_slowdown;
    config.timing.worker = m_index;
    RingAllReduceProtocol::RingConfig ring{m_workers,
                                           m_bucketBytes,
                                           m_firstBucket,
                                           m_fusionTimeout,
                                           m_reductionRate};
    ring.collective = m_collective;
    ring.treeChunkBytes = m_treeChunk;
    ring.workerUpdateUs = m_workerUpdate.GetSeconds() * 1e6;
    ring.groups.assign(m_groups.begin(), m_groups.end());
    ring.cost.workers = m_workers;
    ring.cost.alpha = m_costAlpha.GetSeconds();
    ring.cost.beta = m_costBeta;
    ring.cost.gamma = m_reductionRate > 0 ? 1 / m_reductionRate : 0;
    ring.cost.chunkBytes = static_cast<double>(m_treeChunk);
    ProtocolTransport& transport = *this; // a private base: convert here, where it is accessible
    m_protocol = std::make_unique<RingAllReduceProtocol>(transport, m_profile, config, ring, m_rng);
    NS_ABORT_MSG_IF(m_workers > 1 && m_addresses.size() != m_workers,
                    "RingAllReduceApplication: SetModel() with every worker's address first");
    if (m_workers == 1)
    {
        m_protocol->MaybeStart(); // no network
        return;
    }
    m_listener = TcpSmallQueuesSocket::CreateTcpSocket(GetNode(),
                                                       m_tcpSmallQueues,
                                                       m_sendBuffer,
                                                       m_receiveBuffer);
    if (m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0)
    {
        NS_FATAL_ERROR("RingAllReduceApplication: cannot bind port " << m_port);
    }
    m_listener->Listen();
    m_listener->SetAcceptCallback(
        MakeCallback(&RingAllReduceApplication::HandleConnectionRequest, this),
        MakeCallback(&RingAllReduceApplication::HandleAccept, this));
    for (uint32_t peer : m_protocol->GetSendPeers())
    {
        Connect(m_addresses[peer]);
    }
}

void
RingAllReduceApplication::Connect(Ipv4Address peer)
{
    Ptr<Socket> s = TcpSmallQueuesSocket::CreateTcpSocket(GetNode(),
                                                          m_tcpSmallQueues,
                                                          m_sendBuffer,
                                                          m_receiveBuffer);
    s->Bind();
    s->SetConnectCallback(MakeCallback(&RingAllReduceApplication::HandleConnected, this),
                          MakeCallback(&RingAllReduceApplication::HandleConnectionFailed, this));
    Ptr<TensorConnection> c = CreateObject<TensorConnection>();
    // Nothing comes back on a connection this node opened.
    c->Attach(s, 0, MakeNullCallback<void, Ptr<TensorConnection>, const TensorChunkHeader&>());
    c->SetStartJitter(m_startJitter, m_rng);
    m_outgoing.push_back(c);
    m_socketTrace(s);
    s->Connect(InetSocketAddress(peer, m_port));
}

void
RingAllReduceApplication::StopApplication()
{
    NS_LOG_FUNCTION(this);
    if (m_protocol)
    {
        m_protocol->Stop();
    }
    for (auto& c : m_outgoing)
    {
        c->GetSocket()->Close();
    }
    for (auto& c : m_incoming)
    {
        c->GetSocket()->Close();
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
    // only the nodes that send to this one connect, once each
    return m_protocol && m_incoming.size() < m_protocol->GetReceivePeers().size();
}

void
RingAllReduceApplication::HandleAccept(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_FUNCTION(this << socket << from);
    Ptr<TensorConnection> c = CreateObject<TensorConnection>();
    c->Attach(socket, 0, MakeCallback(&RingAllReduceApplication::HandleChunk, this));
    m_incoming.push_back(c);
    m_socketTrace(socket);
    m_protocol->IncomingUp();
}

void
RingAllReduceApplication::HandleConnected(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    m_protocol->OutgoingUp();
}

void
RingAllReduceApplication::HandleConnectionFailed(Ptr<Socket> /* socket */)
{
    NS_FATAL_ERROR("AllReduce worker " << m_index << ": a connection to a peer failed");
}

void
RingAllReduceApplication::HandleChunk(Ptr<TensorConnection> /* connection */,
                                      const TensorChunkHeader& header)
{
    m_protocol->Receive(header);
}

TensorSink&
RingAllReduceApplication::GetPeer(uint32_t peer)
{
    return *m_outgoing.at(peer);
}

void
RingAllReduceApplication::TransferCompleted(const TrainingResult::TransferRecord& record)
{
    m_transferTrace(record);
}

void
RingAllReduceApplication::StepCompleted(const TrainingResult::StepRecord& record)
{
    m_stepTrace(record);
}

void
RingAllReduceApplication::BucketCompleted(const BucketRecord& r)
{
    m_bucketTrace(r.worker, r.step, r.bucket, r.ringStart, r.ringEnd, r.chunks, r.bytes);
}

} // namespace ns3

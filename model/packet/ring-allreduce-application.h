/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RING_ALLREDUCE_APPLICATION_H
#define RING_ALLREDUCE_APPLICATION_H

#include "tensor-connection.h"

#include "ns3/application.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/random-variable-stream.h"
#include "ns3/ring-allreduce-protocol.h"
#include "ns3/tensor-fusion.h"
#include "ns3/traced-callback.h"
#include "ns3/training-profile.h"
#include "ns3/training-result.h"

#include <map>
#include <memory>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief One worker (node) of a ring AllReduce job (000_466ded720105ddf3.txt Sec. 3.1.2, 3.2.2;
 * tensor fusion of 004_87a6f364a233f56c.txt Sec. 2.2): replays forward and backward from a
 * profile while real TCP carries every chunk of the collective.
 *
 * K workers form a logical ring; worker w listens for its predecessor w-1 and holds one
 * persistent TCP connection to its successor w+1. Gradients become ready in reverse layer order
 * during backward and are fused into buckets (TensorFusion::FormBuckets()). The AllReduce of an
 * M-byte bucket is a reduce-scatter followed by an all-gather, each K-1 rounds; chunk c is M/K
 * bytes (the last chunk takes the remainder). In global round g = 0 .. 2K-3 worker w sends chunk (w
 * - g) mod K to w+1; round g >= 1 may go as soon as round g-1's chunk from w-1 has arrived (after a
 * reduction delay of chunkBytes / ReductionRate if that chunk was a reduce-scatter chunk and
 * ReductionRate > 0). There is no global barrier: chunks that arrive early (later rounds, buckets
 * or steps) are buffered by (step, bucket, round). Buckets are reduced one after another. With
 * Overlap a bucket's AllReduce starts when it is closed, while backward continues; without, after
 * the whole backward. The step ends when the last bucket is reduced, and the next forward starts
 * then.
 *
 * With GpusPerNode G > 1 each bucket is first reduced inside the node and afterwards broadcast
 * inside it; both are modelled as a delay of M / IntraBandwidth + IntraLatency each (not
 * simulated); the inter-node ring is real TCP.
 *
 * The protocol's rules are RingAllReduceProtocol's (LinuxRingNode runs the same over kernel
 * TCP); this application carries it over ns-3 TCP and TensorConnection.
 */
class RingAllReduceApplication : public Application, private SimulatorTransport
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RingAllReduceApplication();
    ~RingAllReduceApplication() override;

    /// One fused gradient bucket (TensorFusion).
    using Bucket = TensorFusion::Bucket;

    /**
     * \param profile the DNN
     * \param workers every worker's address, by index (ignored when Workers = 1); the node
     *        connects to those its AllReduce plan sends to (the ring: its successor)
     */
    void SetModel(std::shared_ptr<const TrainingProfile> profile,
                  const std::vector<Ipv4Address>& workers);

    /**
     * \brief Slow this worker's compute during straggler episodes (--slowdown, --stragglers),
     * by ComputeSlowdown's rule; set with SetModel, before the application starts.
     * \param slowdown the job's episodes (null: none)
     */
    void SetSlowdown(std::shared_ptr<const ComputeSlowdown> slowdown);

    /**
     * \brief Assign a fixed random variable stream number to the random variables used here.
     * \param stream first stream index to use
     * \return the number of stream indices assigned
     */
    int64_t AssignStreams(int64_t stream);

    /** \return steps completed */
    uint32_t GetStepsCompleted() const;
    /** \return the bucket membership in use (valid after the application started) */
    const std::vector<Bucket>& GetBuckets() const;
    /** \return payload bytes handed to TCP towards its peers (the ring: the successor) */
    uint64_t GetPayloadBytesSent() const;
    /** \return payload bytes received from its peers (the ring: the predecessor) */
    uint64_t GetPayloadBytesReceived() const;
    /** \return messages received for a (step, bucket, sender, tag) that had already arrived */
    uint64_t GetDuplicateChunks() const;

    /// TracedCallback signature for step records.
    typedef void (*StepTracedCallback)(const TrainingResult::StepRecord& record);
    /// TracedCallback signature for transfer records.
    typedef void (*TransferTracedCallback)(const TrainingResult::TransferRecord& record);
    /**
     * TracedCallback signature for a bucket reduced at this worker.
     * \param worker this worker
     * \param step step index
     * \param bucket bucket index
     * \param ringStart when the inter-node ring of the bucket began here
     * \param ringEnd when the last chunk of the bucket arrived here
     * \param chunks distinct chunks received for the bucket
     * \param bytes payload bytes received for the bucket
     */
    typedef void (*BucketTracedCallback)(uint32_t worker,
                                         uint32_t step,
                                         uint32_t bucket,
                                         Time ringStart,
                                         Time ringEnd,
                                         uint32_t chunks,
                                         uint64_t bytes);

  protected:
    void DoDispose() override;

  private:
    // ProtocolTransport: the connection and the trace sources
    TensorSink& GetPeer(uint32_t peer) override;
    void TransferCompleted(const TrainingResult::TransferRecord& record) override;
    void StepCompleted(const TrainingResult::StepRecord& record) override;
    void BucketCompleted(const BucketRecord& record) override;

    /**
     * \param tid the TypeId being built (its parent set)
     * \return it with the tensor-fusion, reduction and intra-node attributes
     */
    static TypeId AddFusionAttributes(TypeId tid);

    void StartApplication() override;
    void StopApplication() override;

    /** \param peer open a connection to this node */
    void Connect(Ipv4Address peer);
    /**
     * \param socket the listening socket
     * \param from the peer
     * \return true while a node that sends to this one has not connected
     */
    bool HandleConnectionRequest(Ptr<Socket> socket, const Address& from);
    /**
     * \param socket the accepted socket
     * \param from the peer
     */
    void HandleAccept(Ptr<Socket> socket, const Address& from);
    /** \param socket connected socket */
    void HandleConnected(Ptr<Socket> socket);
    /** \param socket socket whose connection failed */
    void HandleConnectionFailed(Ptr<Socket> socket);
    /**
     * \param connection where it came from
     * \param header the chunk
     */
    void HandleChunk(Ptr<TensorConnection> connection, const TensorChunkHeader& header);

    uint32_t m_index;                                  //!< worker index w
    uint32_t m_workers;                                //!< K
    uint16_t m_port;                                   //!< ring port (every worker listens on it)
    uint32_t m_steps;                                  //!< steps to run
    bool m_overlap;                                    //!< start buckets during backward
    std::shared_ptr<const ComputeSlowdown> m_slowdown; //!< straggler episodes (null: none)
    double m_scale;                                    //!< compute time multiplier
    bool m_sampleSteps;                        //!< draw each step from the profile's samples
    uint64_t m_bucketBytes;                    //!< Q
    uint64_t m_firstBucket;                    //!< first bucket size (0: Q)
    Time m_fusionTimeout;                      //!< fusion timeout (0: none)
    double m_reductionRate;                    //!< bytes/s of reducing a received chunk (0: free)
    AllReduceSchedule::Algorithm m_collective; //!< each bucket's AllReduce
    uint64_t m_treeChunk;                      //!< pipelining unit of the double binary tree
    Time m_workerUpdate;            //!< the optimizer step after the last bucket (0: none)
    std::vector<uint64_t> m_groups; //!< hierarchical: each worker's group
    Time m_costAlpha;               //!< nccl: the cost model's latency of one message
    double m_costBeta;              //!< nccl: the cost model's seconds per byte
    uint32_t m_gpusPerNode;         //!< G
    DataRate m_intraBandwidth;      //!< intra-node interconnect
    Time m_intraLatency;            //!< intra-node per-operation latency
    Time m_startJitter;             //!< largest random start delay (first step, transfers)

    Ptr<UniformRandomVariable> m_rng;                  //!< step sampling
    std::shared_ptr<const TrainingProfile> m_profile;  //!< the DNN
    std::vector<Ipv4Address> m_addresses;              //!< every worker's address
    Ptr<Socket> m_listener;                            //!< listening socket
    std::vector<Ptr<TensorConnection>> m_outgoing;     //!< to GetSendPeers(), in that order
    std::vector<Ptr<TensorConnection>> m_incoming;     //!< from the nodes sending here
    std::unique_ptr<RingAllReduceProtocol> m_protocol; //!< the protocol (from StartApplication)

    TracedCallback<const TrainingResult::StepRecord&> m_stepTrace;         //!< step done
    TracedCallback<const TrainingResult::TransferRecord&> m_transferTrace; //!< chunk arrived
    TracedCallback<uint32_t, uint32_t, uint32_t, Time, Time, uint32_t, uint64_t>
        m_bucketTrace;            //!< bucket reduced
    bool m_tcpSmallQueues{false}; //!< sockets with TCP small queues (TcpSmallQueuesSocket)
    uint32_t m_sendBuffer{0};     //!< SndBufSize of its sockets (0: the TcpSocket default)
    uint32_t m_receiveBuffer{0};  //!< RcvBufSize of its sockets (0: the TcpSocket default)
    TracedCallback<Ptr<Socket>> m_socketTrace; //!< socket opened
};

} // namespace ns3

#endif /* RING_ALLREDUCE_APPLICATION_H */

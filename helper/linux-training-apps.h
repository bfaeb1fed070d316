/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LINUX_TRAINING_APPS_H
#define LINUX_TRAINING_APPS_H

#include "ns3/random-variable-stream.h"
#include "ns3/ring-allreduce-application.h"
#include "ns3/tensor-chunk-header.h"
#include "ns3/training-profile.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <boost/asio.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Set a socket's congestion control, TCP_NODELAY (as the ns-3 sockets' TcpNoDelay
 * default: control messages go at once) and the per-flow cap (SO_MAX_PACING_RATE: without the
 * fq qdisc the kernel then paces the socket itself).
 * \param fd the socket
 * \param congestion cubic, reno or bbr
 * \param paceBytesPerSecond cap in payload bytes/s (0: none)
 * \throws std::runtime_error when the kernel refuses
 */
void TuneLinuxSocket(int fd, const std::string& congestion, double paceBytesPerSecond);

/**
 * \ingroup distributed-training
 * \brief Time of a run over real sockets: wall-clock time since Start(), divided by the
 * dilation D (a run at rate/D with compute x D reports what the undilated run would take).
 */
class LinuxClock
{
  public:
    /** \param dilation D >= 1 */
    explicit LinuxClock(double dilation);
    /// Set time zero to now.
    void Start();
    /** \return undilated seconds since Start() */
    double Now() const;
    /**
     * \param seconds an undilated duration
     * \return the wall-clock duration to wait for it (x D)
     */
    std::chrono::nanoseconds Dilate(double seconds) const;
    /** \return D */
    double GetDilation() const;

  private:
    double m_dilation;                            //!< D
    std::chrono::steady_clock::time_point m_zero; //!< time zero
};

/**
 * \ingroup distributed-training
 * \brief What the applications report during a run (the linux twin of the packet backend's
 * trace sinks), and the run's shared event loop.
 */
struct LinuxJob
{
    boost::asio::io_context io;                            //!< the one event loop of every host
    LinuxClock clock{1.0};                                 //!< run time
    std::shared_ptr<const TrainingProfile> profile;        //!< the DNN
    TrainingScenario scenario;                             //!< the scenario
    std::vector<TrainingResult::StepRecord> steps;         //!< completed worker steps
    std::vector<TrainingResult::TransferRecord> transfers; //!< completed tensors
    std::function<void(double)> onWindowCandidate;         //!< a time the window may start/end at
    uint32_t expected{0};                                  //!< worker steps to complete
    std::string error;                                     //!< first error (the run stops)

    /**
     * \brief Run fn after an undilated delay (x D in wall-clock time).
     * \param seconds the delay
     * \param fn what to run
     */
    void After(double seconds, std::function<void()> fn);
    /** \param r a completed step (stops the loop when all are done) */
    void StepDone(const TrainingResult::StepRecord& r);
    /** \param what the first error stops the run */
    void Fail(const std::string& what);
};

/**
 * \ingroup distributed-training
 * \brief The TensorConnection framing (TensorChunkHeader, WIN multiplexing, control before data)
 * over a kernel TCP socket with Boost.Asio. Payload is zeros; only sizes and timing matter.
 */
class LinuxTensorConnection : public std::enable_shared_from_this<LinuxTensorConnection>
{
  public:
    /// Called for every complete message (a control message or one chunk of a tensor).
    using ChunkHandler = std::function<void(LinuxTensorConnection&, const TensorChunkHeader&)>;

    /**
     * \param job the run
     * \param socket a connected socket
     * \param windowBytes WIN (0: whole tensors in order)
     * \param onChunk message handler (may be empty)
     */
    LinuxTensorConnection(LinuxJob& job,
                          boost::asio::ip::tcp::socket socket,
                          uint64_t windowBytes,
                          ChunkHandler onChunk);
    /// Start reading.
    void Start();
    /**
     * \brief Connect the socket (opened, not yet connected) to a listener.
     * \param to the listener
     * \param done called with the outcome
     */
    void Connect(const boost::asio::ip::tcp::endpoint& to,
                 std::function<void(const boost::system::error_code&)> done);
    /** \param header a control message (length 0) */
    void SendControl(const TensorChunkHeader& header);
    /**
     * \param header the tensor's header (type, tensor, step, worker, aux)
     * \param bytes tensor size
     */
    void SendTensor(const TensorChunkHeader& header, uint64_t bytes);
    /** \return payload bytes handed to the kernel */
    uint64_t GetPayloadBytesSent() const;
    /** \return payload bytes received */
    uint64_t GetPayloadBytesReceived() const;

  private:
    /// A tensor waiting to be sent (as TensorConnection::Stream).
    struct Stream
    {
        TensorChunkHeader header; //!< header template
        uint64_t bytes;           //!< tensor size
        uint64_t sent;            //!< bytes sent
        uint32_t services;        //!< times picked
        double firstByte;         //!< when its first chunk was picked
    };

    /// Pick the next message (control first; WIN multiplexing as TensorConnection).
    bool NextMessage();
    /// Write the pending message, or pick the next one.
    void TrySend();
    /// Read more bytes.
    void Read();
    /**
     * \param data received bytes
     * \param size how many
     */
    void Parse(const uint8_t* data, std::size_t size);

    LinuxJob& m_job;                           //!< the run
    boost::asio::ip::tcp::socket m_socket;     //!< the kernel socket
    uint64_t m_window;                         //!< WIN
    ChunkHandler m_onChunk;                    //!< message handler
    std::deque<TensorChunkHeader> m_control;   //!< control messages to send
    std::deque<Stream> m_streams;              //!< tensors to send
    bool m_writing{false};                     //!< an async write is in progress
    bool m_posted{false};                      //!< a TrySend is posted
    uint8_t m_header[TensorChunkHeader::SIZE]; //!< serialized header of the pending message
    bool m_headerPending{false};               //!< m_header not yet written
    uint64_t m_payloadLeft{0};                 //!< payload bytes of the pending message to write
    uint64_t m_sent{0};                        //!< payload bytes sent
    uint64_t m_received{0};                    //!< payload bytes received
    std::vector<uint8_t> m_rx;                 //!< receive buffer
    std::vector<uint8_t> m_headerBytes;        //!< a header being collected
    TensorChunkHeader m_incoming;              //!< header of the message being received
    uint64_t m_incomingLeft{0};                //!< its payload bytes still to come
};

/**
 * \ingroup distributed-training
 * \brief ParameterServerApplication's protocol over kernel TCP: HELLO/PULL, parameters down in
 * the configured order, gradients up, updates replayed as timed waits, the sync barrier.
 */
class LinuxParameterServer
{
  public:
    /**
     * \param job the run
     * \param index server index
     * \param layers the layers this server owns
     * \param stream random stream (random order)
     */
    LinuxParameterServer(LinuxJob& job,
                         uint32_t index,
                         const std::vector<uint32_t>& layers,
                         int64_t stream);
    /**
     * \brief Open the listening socket (call inside the server's namespace).
     * \param port TCP port
     * \param congestion the TCP congestion control
     * \param paceBytesPerSecond per-socket pacing cap (0: none)
     */
    void Listen(uint16_t port, const std::string& congestion, double paceBytesPerSecond);

  private:
    /// One worker's state at this server (as ParameterServerApplication::WorkerState).
    struct WorkerState
    {
        std::shared_ptr<LinuxTensorConnection> connection; //!< the worker's connection
        std::vector<uint64_t> received;                    //!< bytes per local layer
        uint32_t gradientsComplete{0};                     //!< complete gradients this step
        std::deque<std::pair<uint32_t, uint32_t>> ready;   //!< (local layer, sample) to apply
        std::vector<std::pair<uint32_t, uint32_t>> held;   //!< held until all arrived
        bool updating{false};                              //!< an update is running
        uint32_t updatesDone{0};                           //!< updates applied this step
        uint32_t step{0};                                  //!< the step
        double doneTime{0};                                //!< when its updates finished
    };

    /// Accept the next worker.
    void Accept();
    /**
     * \param c the connection
     * \param h the message
     */
    void HandleChunk(LinuxTensorConnection& c, const TensorChunkHeader& h);
    /**
     * \param worker worker index
     * \param step step
     */
    void SendParameters(uint32_t worker, uint32_t step);
    /** \param worker worker index */
    void ProcessUpdates(uint32_t worker);
    /** \param worker worker index */
    void WorkerStepApplied(uint32_t worker);
    /**
     * \param worker worker index
     * \return its state
     */
    WorkerState& State(uint32_t worker);

    LinuxJob& m_job;                                            //!< the run
    uint32_t m_index;                                           //!< server index
    std::vector<uint32_t> m_layers;                             //!< owned layers
    std::vector<int32_t> m_localIndex;                          //!< layer -> local index or -1
    Ptr<UniformRandomVariable> m_rng;                           //!< random order
    std::unique_ptr<boost::asio::ip::tcp::acceptor> m_acceptor; //!< listening socket
    std::vector<std::shared_ptr<LinuxTensorConnection>> m_connections; //!< accepted
    std::map<uint32_t, WorkerState> m_state;                           //!< per worker
    uint32_t m_barrierCount{0}; //!< workers done this step (sync)
};

/**
 * \ingroup distributed-training
 * \brief TrainingWorkerApplication's protocol over kernel TCP: PULL, forward and backward
 * replayed as timed waits (x computeScale), gradients up, step ends at the servers' NOTICE.
 */
class LinuxTrainingWorker
{
  public:
    /**
     * \param job the run
     * \param index worker index
     * \param owners server of each layer
     * \param stream random stream (step sampling)
     */
    LinuxTrainingWorker(LinuxJob& job,
                        uint32_t index,
                        const std::vector<uint32_t>& owners,
                        int64_t stream);
    /**
     * \brief Connect to every server (call inside the worker's namespace).
     * \param servers server addresses
     * \param port TCP port
     * \param congestion the TCP congestion control
     * \param paceBytesPerSecond per-socket pacing cap (0: none)
     */
    void Connect(const std::vector<std::string>& servers,
                 uint16_t port,
                 const std::string& congestion,
                 double paceBytesPerSecond);

  private:
    /// Begin a step: sample its times and PULL from every server.
    void StartStep();
    /**
     * \param c the connection
     * \param h the message
     */
    void HandleChunk(LinuxTensorConnection& c, const TensorChunkHeader& h);
    /** \param layer a parameter tensor that arrived */
    void Broadcast(uint32_t layer);
    /**
     * \brief Queue a layer's intra-node work (one reduce or broadcast at a time), then call done.
     * \param free when the intra-node link is free (updated)
     * \param layer the layer
     * \param done what follows
     */
    void IntraNodeThen(double& free, uint32_t layer, void (LinuxTrainingWorker::*done)(uint32_t));
    /** \param layer its intra-node broadcast finished */
    void BroadcastDone(uint32_t layer);
    /** \param layer a gradient computed */
    void Reduce(uint32_t layer);
    /** \param layer its intra-node reduction finished */
    void ReduceDone(uint32_t layer);
    /// Start the next forward layer if allowed.
    void TryForward();
    /// A forward layer finished.
    void ForwardDone();
    /// A backward layer finished.
    void BackwardDone();
    /** \param layer send its gradient */
    void SendGradient(uint32_t layer);
    /**
     * \param us profile microseconds
     * \return seconds x computeScale
     */
    double Compute(double us) const;
    /**
     * \param layer a layer
     * \return intra-node transfer time of its tensor, seconds
     */
    double IntraNode(uint32_t layer) const;

    LinuxJob& m_job;                                                   //!< the run
    uint32_t m_index;                                                  //!< worker index
    std::vector<uint32_t> m_owners;                                    //!< server of each layer
    Ptr<UniformRandomVariable> m_rng;                                  //!< step sampling
    TrainingProfile::StepTimes m_mean;                                 //!< mean step
    double m_scale;                                                    //!< compute scale
    std::vector<std::shared_ptr<LinuxTensorConnection>> m_connections; //!< one per server
    uint32_t m_connected{0};                                           //!< connections up
    uint32_t m_step{0};                                                //!< current step
    uint32_t m_sample{0};                      //!< sample index + 1 (0: mean)
    const std::vector<double>* m_fwd{nullptr}; //!< forward times of the step
    const std::vector<double>* m_bwd{nullptr}; //!< backward times of the step
    std::vector<bool> m_arrived;               //!< layer's parameters usable
    std::vector<uint64_t> m_received;          //!< parameter bytes received
    uint32_t m_arrivedCount{0};                //!< layers arrived
    uint32_t m_nextForward{0};                 //!< next forward layer
    int64_t m_nextBackward{-1};                //!< next backward layer (-1: none)
    bool m_busy{false};                        //!< compute busy
    uint32_t m_reduced{0};                     //!< gradients reduced (overlap off)
    uint32_t m_notices{0};                     //!< NOTICEs this step
    double m_stepStart{0};                     //!< step start
    double m_stepEnd{0};                       //!< latest NOTICE time
    double m_broadcastFree{0};                 //!< intra-node broadcast free at
    double m_reduceFree{0};                    //!< intra-node reduction free at
};

/**
 * \ingroup distributed-training
 * \brief RingAllReduceApplication's protocol over kernel TCP: buckets formed by
 * TensorFusion::FormBuckets, 2(K-1) rounds per bucket to the successor.
 */
class LinuxRingNode
{
  public:
    /**
     * \param job the run
     * \param index position in the ring
     * \param stream random stream (step sampling)
     */
    LinuxRingNode(LinuxJob& job, uint32_t index, int64_t stream);
    /**
     * \brief Listen for the predecessor (inside this node's namespace).
     * \param port TCP port
     * \param congestion the TCP congestion control
     * \param paceBytesPerSecond per-socket pacing cap (0: none)
     */
    void Listen(uint16_t port, const std::string& congestion, double paceBytesPerSecond);
    /**
     * \brief Connect to the successor (inside this node's namespace, after every Listen()).
     * \param successor its address
     * \param port TCP port
     * \param congestion the TCP congestion control
     * \param paceBytesPerSecond per-socket pacing cap (0: none)
     */
    void Connect(const std::string& successor,
                 uint16_t port,
                 const std::string& congestion,
                 double paceBytesPerSecond);
    /// Start (single worker: no network).
    void MaybeStart();

  private:
    /// (step, bucket, round)
    using ChunkKey = std::tuple<uint32_t, uint32_t, uint32_t>;
    /// Begin a step.
    void StartStep();
    /// Backward of one layer finished.
    void BackwardDone();
    /**
     * \param step the step
     * \param bucket a bucket that closed
     */
    void BucketClosed(uint32_t step, uint32_t bucket);
    /// Start the next bucket if allowed.
    void TryStartBucket();
    /// Start the ring of the current bucket.
    void StartRing();
    /// Send what can be sent.
    void Advance();
    /** \param round send this round's chunk */
    void SendRound(uint32_t round);
    /**
     * \param c the connection
     * \param h the message
     */
    void HandleChunk(LinuxTensorConnection& c, const TensorChunkHeader& h);
    /// The current bucket's ring finished.
    void RingDone();
    /// The current bucket finished (after the intra-node broadcast).
    void BucketDone();
    /**
     * \param bucket bucket
     * \param chunk chunk
     * \return its bytes
     */
    uint64_t ChunkBytes(uint32_t bucket, uint32_t chunk) const;
    /**
     * \param bytes a bucket's size
     * \return intra-node time, seconds
     */
    double IntraDelay(uint64_t bytes) const;

    LinuxJob& m_job;                                            //!< the run
    uint32_t m_index;                                           //!< ring position
    uint32_t m_workers;                                         //!< K
    Ptr<UniformRandomVariable> m_rng;                           //!< step sampling
    TrainingProfile::StepTimes m_mean;                          //!< mean step
    double m_scale;                                             //!< compute scale
    std::vector<RingAllReduceApplication::Bucket> m_buckets;    //!< the buckets
    std::vector<uint32_t> m_bucketOfLayer;                      //!< layer -> bucket
    std::unique_ptr<boost::asio::ip::tcp::acceptor> m_acceptor; //!< for the predecessor
    std::shared_ptr<LinuxTensorConnection> m_next;              //!< to the successor
    std::shared_ptr<LinuxTensorConnection> m_prev;              //!< from the predecessor
    bool m_nextUp{false};                                       //!< connected to the successor
    bool m_started{false};                                      //!< steps started
    uint32_t m_step{0};                                         //!< current step
    const std::vector<double>* m_fwd{nullptr};                  //!< forward times
    const std::vector<double>* m_bwd{nullptr};                  //!< backward times
    int64_t m_nextBackward{-1};                                 //!< next backward layer
    bool m_backwardDone{false};                                 //!< backward finished
    std::vector<double> m_firstReady;                           //!< bucket's first gradient time
    std::vector<bool> m_closed;                                 //!< bucket closed
    uint32_t m_nextBucket{0};                                   //!< bucket in progress / next
    bool m_bucketBusy{false};                                   //!< a bucket is being reduced
    bool m_ringActive{false};                                   //!< rounds in progress
    bool m_reducing{false};                                     //!< reduction delay running
    uint32_t m_nextRound{0};                                    //!< next round to send
    double m_stepStart{0};                                      //!< step start
    std::map<ChunkKey, uint64_t> m_partial;                     //!< bytes of chunks arriving
    std::map<ChunkKey, uint64_t> m_arrived;                     //!< complete chunks
};

} // namespace ns3

#endif /* LINUX_TRAINING_APPS_H */

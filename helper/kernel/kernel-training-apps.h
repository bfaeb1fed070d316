/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef KERNEL_TRAINING_APPS_H
#define KERNEL_TRAINING_APPS_H

#include "ns3/ps-server-protocol.h"
#include "ns3/ps-worker-protocol.h"
#include "ns3/random-variable-stream.h"
#include "ns3/ring-allreduce-protocol.h"
#include "ns3/tensor-chunk-header.h"
#include "ns3/tensor-framing.h"
#include "ns3/training-profile.h"
#include "ns3/training-protocol.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <atomic>
#include <boost/asio.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
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
 * \brief A thread of its own that writes one socket with blocking writes
 * (--writePattern=thread-per-connection: what gRPC-based parameter servers and many collective
 * libraries do), reporting each completed write to the run's event loop.
 *
 * The socket stays non-blocking for the event loop that reads it (the descriptor's O_NONBLOCK is
 * shared by every user of it), so the thread blocks in poll() for POLLOUT between writes: the
 * kernel wakes both a blocked write and POLLOUT from the same write-space callback once a third
 * of the send buffer is free (sk_stream_write_space), so the thread refills the socket when a
 * blocking write would.
 */
class LinuxWriterThread
{
  public:
    /// Called on the event loop with the outcome of one Write().
    using Done = std::function<void(const boost::system::error_code&)>;

    /** \param loop the run's event loop (receives every Done; must outlive Stop()) */
    explicit LinuxWriterThread(boost::asio::io_context& loop);
    /// Stops the thread (Stop()).
    ~LinuxWriterThread();
    LinuxWriterThread(const LinuxWriterThread&) = delete;
    LinuxWriterThread& operator=(const LinuxWriterThread&) = delete;

    /**
     * \brief Write every byte of buffers to fd in this thread (queued behind earlier writes),
     * then post done to the event loop.
     * \param fd a connected socket
     * \param buffers what to write (must stay valid until done runs)
     * \param done called on the event loop with the outcome
     */
    void Write(int fd, std::vector<boost::asio::const_buffer> buffers, Done done);
    /// Abandon any write in progress and join the thread (idempotent; no Done after it).
    void Stop();

  private:
    /**
     * \param fd the socket \param buffers what to write
     * \return the outcome (operation_aborted once stopped)
     */
    boost::system::error_code WriteAll(int fd,
                                       const std::vector<boost::asio::const_buffer>& buffers);

    boost::asio::io_context& m_loop; //!< the run's event loop
    boost::asio::io_context m_own;   //!< this thread's queue of writes
    /// keeps m_own running between writes
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> m_guard;
    std::atomic<bool> m_stop{false}; //!< set by Stop()
    std::thread m_thread;            //!< the writer
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
    /// --writePattern=thread-per-connection: every connection's writer (stopped before the
    /// event loop goes away, so that none posts to it while it is destroyed)
    std::vector<std::shared_ptr<LinuxWriterThread>> writers;

    LinuxJob() = default;
    /// Stops every writer thread before the event loop is destroyed (StopWriters()).
    ~LinuxJob();
    LinuxJob(const LinuxJob&) = delete;
    LinuxJob& operator=(const LinuxJob&) = delete;

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
    /// Stop every writer thread (before the sockets they write are closed).
    void StopWriters();
};

/**
 * \ingroup distributed-training
 * \brief TensorConnection's framing (the same TensorFrameScheduler and TensorFrameParser:
 * TensorChunkHeader, WIN multiplexing, control before data) over a kernel TCP socket with
 * Boost.Asio. Payload is zeros; only sizes and timing matter.
 */
class LinuxTensorConnection : public std::enable_shared_from_this<LinuxTensorConnection>,
                              public TensorSink
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
    /// Stops the connection's writer thread, if any (it may be writing from a member).
    ~LinuxTensorConnection() override;
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
    void SendControl(const TensorChunkHeader& header) override;
    /**
     * \param header the tensor's header (type, tensor, step, worker, aux)
     * \param bytes tensor size
     */
    void SendTensor(const TensorChunkHeader& header, uint64_t bytes) override;
    /** \return payload bytes handed to the kernel */
    uint64_t GetPayloadBytesSent() const;
    /** \return payload bytes received */
    uint64_t GetPayloadBytesReceived() const;

  private:
    /// Run TrySend after the current event (once, however many messages it queues).
    void PostSend();
    /// Pick the next message (control first; WIN multiplexing as TensorConnection).
    bool NextMessage();
    /// Write the pending message, or pick the next one.
    void TrySend();
    /**
     * \brief A write of the pending message ended: account for it and go on.
     * \param ec the outcome
     * \param piece payload bytes it carried
     */
    void Written(const boost::system::error_code& ec, std::size_t piece);
    /// Read more bytes.
    void Read();

    LinuxJob& m_job;                           //!< the run
    boost::asio::ip::tcp::socket m_socket;     //!< the kernel socket
    ChunkHandler m_onChunk;                    //!< message handler
    TensorFrameScheduler m_scheduler;          //!< what goes next (as TensorConnection)
    TensorFrameParser m_parser;                //!< the received stream (as TensorConnection)
    bool m_writing{false};                     //!< an async write is in progress
    bool m_posted{false};                      //!< a TrySend is posted
    uint8_t m_header[TensorChunkHeader::SIZE]; //!< serialized header of the pending message
    bool m_headerPending{false};               //!< m_header not yet written
    uint64_t m_payloadLeft{0};                 //!< payload bytes of the pending message to write
    std::vector<uint8_t> m_rx;                 //!< receive buffer
    /// thread-per-connection: this connection's writer (created at the first write)
    std::shared_ptr<LinuxWriterThread> m_writer;
};

/**
 * \ingroup distributed-training
 * \brief ProtocolTransport over a LinuxJob: the run's clock (undilated), its event loop's timers,
 * and its records. The host programs below add the connections.
 */
class LinuxProtocolHost : public ProtocolTransport
{
  public:
    /** \param job the run */
    explicit LinuxProtocolHost(LinuxJob& job);
    Time Now() const override;
    void Schedule(const Time& delay, std::function<void()> fn) override;
    void TransferCompleted(const TrainingResult::TransferRecord& record) override;
    void StepCompleted(const TrainingResult::StepRecord& record) override;
    void Fail(const std::string& what) override;

  protected:
    /**
     * \brief Report the end of a step as a time the measurement window may start or end at (the
     * end of the last warm-up step or of the last step).
     * \param step the step
     * \param seconds when it ended
     */
    void WindowCandidate(uint32_t step, double seconds);
    /**
     * \param peer what the connection leads to (error messages)
     * \param done called once the connection is up
     * \return the handler of a connection attempt's outcome
     */
    std::function<void(const boost::system::error_code&)> OnConnected(const std::string& peer,
                                                                      std::function<void()> done);

    LinuxJob& m_job; //!< the run
};

/**
 * \ingroup distributed-training
 * \brief A parameter server over kernel TCP: PsServerProtocol (the protocol of
 * ParameterServerApplication) with one LinuxTensorConnection per worker.
 */
class LinuxParameterServer : public LinuxProtocolHost
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
    /// Accept the next worker.
    void Accept();
    /**
     * \param c the connection
     * \param h the message
     */
    void HandleChunk(LinuxTensorConnection& c, const TensorChunkHeader& h);
    TensorSink& GetPeer(uint32_t peer) override;
    void UpdatesApplied(uint32_t worker, uint32_t step, Time when) override;

    std::unique_ptr<boost::asio::ip::tcp::acceptor> m_acceptor;        //!< listening socket
    std::vector<std::shared_ptr<LinuxTensorConnection>> m_connections; //!< accepted
    std::map<uint32_t, std::shared_ptr<LinuxTensorConnection>> m_workerConnection; //!< per worker
    std::unique_ptr<PsServerProtocol> m_protocol;                                  //!< the protocol
};

/**
 * \ingroup distributed-training
 * \brief A PS worker over kernel TCP: PsWorkerProtocol (the protocol of
 * TrainingWorkerApplication) with one LinuxTensorConnection per server; compute and intra-node
 * work are timed waits.
 */
class LinuxTrainingWorker : public LinuxProtocolHost
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
    TensorSink& GetPeer(uint32_t peer) override;

    uint32_t m_index;                                                  //!< worker index
    std::vector<uint32_t> m_owners;                                    //!< server of each layer
    Ptr<UniformRandomVariable> m_rng;                                  //!< step sampling
    std::vector<std::shared_ptr<LinuxTensorConnection>> m_connections; //!< one per server
    std::unique_ptr<PsWorkerProtocol> m_protocol; //!< the protocol (from Connect)
};

/**
 * \ingroup distributed-training
 * \brief An AllReduce node over kernel TCP: RingAllReduceProtocol (the protocol of
 * RingAllReduceApplication, any collective) with a LinuxTensorConnection to each node its plan
 * sends to and one from each node that sends to it (the ring: successor and predecessor).
 */
class LinuxRingNode : public LinuxProtocolHost
{
  public:
    /**
     * \param job the run
     * \param index position in the ring
     * \param stream random stream (step sampling)
     */
    LinuxRingNode(LinuxJob& job, uint32_t index, int64_t stream);
    /**
     * \brief Listen for the nodes that send to this one (inside this node's namespace).
     * \param port TCP port
     * \param congestion the TCP congestion control
     * \param paceBytesPerSecond per-socket pacing cap (0: none)
     */
    void Listen(uint16_t port, const std::string& congestion, double paceBytesPerSecond);
    /**
     * \brief Connect to the nodes this one sends to (inside this node's namespace, after every
     * Listen()).
     * \param workers every worker's address, by index
     * \param port TCP port
     * \param congestion the TCP congestion control
     * \param paceBytesPerSecond per-socket pacing cap (0: none)
     */
    void Connect(const std::vector<std::string>& workers,
                 uint16_t port,
                 const std::string& congestion,
                 double paceBytesPerSecond);
    /// Start (single worker: no network).
    void MaybeStart();

  private:
    TensorSink& GetPeer(uint32_t peer) override;
    void StepCompleted(const TrainingResult::StepRecord& record) override;
    /// Accept the next node that sends to this one.
    void Accept();

    uint32_t m_index;                                               //!< ring position
    std::unique_ptr<boost::asio::ip::tcp::acceptor> m_acceptor;     //!< for the senders
    std::vector<std::shared_ptr<LinuxTensorConnection>> m_outgoing; //!< to the send peers
    std::vector<std::shared_ptr<LinuxTensorConnection>> m_incoming; //!< from the senders
    std::unique_ptr<RingAllReduceProtocol> m_protocol;              //!< the protocol
};

} // namespace ns3

#endif /* KERNEL_TRAINING_APPS_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "kernel-training-apps.h"

#include "ns3/log.h"
#include "ns3/training-input-error.h"

#include <algorithm>
#include <cerrno>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LinuxTrainingApps");

using boost::asio::ip::tcp;

namespace
{

/// Largest payload piece handed to one write (bounded memory: the payload is a zero block).
constexpr std::size_t ZERO_BLOCK = 1 << 20;

/// The zeros every payload is made of.
const std::vector<uint8_t>&
Zeros()
{
    static const std::vector<uint8_t> zeros(ZERO_BLOCK, 0);
    return zeros;
}

/// Open a listening socket on port (in the calling thread's namespace).
std::unique_ptr<tcp::acceptor>
OpenAcceptor(boost::asio::io_context& io, uint16_t port, const std::string& congestion, double pace)
{
    auto a = std::make_unique<tcp::acceptor>(io);
    a->open(tcp::v4());
    a->set_option(tcp::acceptor::reuse_address(true));
    TuneLinuxSocket(a->native_handle(), congestion, pace); // accepted sockets inherit these
    a->bind(tcp::endpoint(tcp::v4(), port));
    a->listen(64);
    return a;
}

/// Accept one connection; a failure (not a closed acceptor) stops the run.
void
AcceptOne(LinuxJob& job, tcp::acceptor& acceptor, std::function<void(tcp::socket)> onSocket)
{
    acceptor.async_accept(
        [&job, onSocket = std::move(onSocket)](const boost::system::error_code& ec,
                                               tcp::socket socket)
        {
            if (ec)
            {
                if (ec != boost::asio::error::operation_aborted)
                {
                    job.Fail("linux backend: accept failed: " + ec.message());
                }
                return;
            }
            onSocket(std::move(socket));
        });
}

/// A connection on a new socket, opened and tuned (not yet connected).
std::shared_ptr<LinuxTensorConnection>
OpenConnection(LinuxJob& job,
               const std::string& congestion,
               double pace,
               uint64_t windowBytes,
               LinuxTensorConnection::ChunkHandler onChunk)
{
    tcp::socket s(job.io);
    s.open(tcp::v4());
    TuneLinuxSocket(s.native_handle(), congestion, pace);
    return std::make_shared<LinuxTensorConnection>(job,
                                                   std::move(s),
                                                   windowBytes,
                                                   std::move(onChunk));
}

/// Seconds to ns-3 Time (the header's timestamp field).
Time
ToTime(double seconds)
{
    return NanoSeconds(static_cast<int64_t>(seconds * 1e9));
}

} // namespace

void
TuneLinuxSocket(int fd, const std::string& congestion, double paceBytesPerSecond)
{
    if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, congestion.c_str(), congestion.size()) != 0)
    {
        throw TrainingInputError("linux backend: setsockopt(TCP_CONGESTION, " + congestion
                                 + ") failed");
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    if (paceBytesPerSecond > 0)
    {
        // Without the fq qdisc the kernel paces internally once SO_MAX_PACING_RATE is set.
        uint64_t rate = static_cast<uint64_t>(paceBytesPerSecond);
        if (setsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE, &rate, sizeof(rate)) != 0)
        {
            throw TrainingInputError("linux backend: setsockopt(SO_MAX_PACING_RATE) failed");
        }
    }
}

// ---- LinuxClock ----------------------------------------------------------------------------

LinuxClock::LinuxClock(double dilation)
    : m_dilation(dilation),
      m_zero(std::chrono::steady_clock::now())
{
}

void
LinuxClock::Start()
{
    m_zero = std::chrono::steady_clock::now();
}

double
LinuxClock::Now() const
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_zero).count()
           / m_dilation;
}

std::chrono::nanoseconds
LinuxClock::Dilate(double seconds) const
{
    return std::chrono::nanoseconds(static_cast<int64_t>(seconds * m_dilation * 1e9));
}

double
LinuxClock::GetDilation() const
{
    return m_dilation;
}

// ---- LinuxWriterThread ---------------------------------------------------------------------

LinuxWriterThread::LinuxWriterThread(boost::asio::io_context& loop)
    : m_loop(loop),
      m_guard(boost::asio::make_work_guard(m_own)),
      m_thread(
          [this]
          {
              m_own.run();
          })
{
}

LinuxWriterThread::~LinuxWriterThread()
{
    Stop();
}

void
LinuxWriterThread::Stop()
{
    if (m_thread.joinable())
    {
        m_stop = true;
        m_guard.reset();
        m_own.stop();
        m_thread.join();
    }
}

void
LinuxWriterThread::Write(int fd, std::vector<boost::asio::const_buffer> buffers, Done done)
{
    boost::asio::post(m_own,
                      [this, fd, buffers = std::move(buffers), done = std::move(done)]
                      {
                          const boost::system::error_code ec = WriteAll(fd, buffers);
                          if (!m_stop)
                          {
                              boost::asio::post(m_loop,
                                                [done, ec]
                                                {
                                                    done(ec);
                                                });
                          }
                      });
}

boost::system::error_code
LinuxWriterThread::WriteAll(int fd, const std::vector<boost::asio::const_buffer>& buffers)
{
    std::vector<iovec> iov;
    for (const auto& b : buffers)
    {
        iov.push_back(iovec{const_cast<void*>(b.data()), b.size()});
    }
    std::size_t first = 0;
    while (first < iov.size())
    {
        if (m_stop)
        {
            return boost::asio::error::operation_aborted;
        }
        msghdr message{};
        message.msg_iov = &iov[first];
        message.msg_iovlen = iov.size() - first;
        const ssize_t sent = sendmsg(fd, &message, MSG_NOSIGNAL);
        if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        {
            // Block until the kernel reports write space; wake now and then to see Stop().
            pollfd p{fd, POLLOUT, 0};
            poll(&p, 1, 20);
            continue;
        }
        if (sent < 0)
        {
            return boost::system::error_code(errno, boost::system::system_category());
        }
        auto left = static_cast<std::size_t>(sent);
        while (first < iov.size() && (left > 0 || iov[first].iov_len == 0))
        {
            const std::size_t n = std::min(left, iov[first].iov_len);
            iov[first].iov_base = static_cast<uint8_t*>(iov[first].iov_base) + n;
            iov[first].iov_len -= n;
            left -= n;
            first += iov[first].iov_len == 0 ? 1 : 0;
        }
    }
    return {};
}

// ---- LinuxJob ------------------------------------------------------------------------------

LinuxJob::~LinuxJob()
{
    StopWriters();
}

void
LinuxJob::StopWriters()
{
    for (const auto& w : writers)
    {
        w->Stop();
    }
}

void
LinuxJob::After(double seconds, std::function<void()> fn)
{
    if (seconds <= 0)
    {
        boost::asio::post(io, std::move(fn));
        return;
    }
    auto timer = std::make_shared<boost::asio::steady_timer>(io, clock.Dilate(seconds));
    timer->async_wait(
        [timer, fn = std::move(fn)](const boost::system::error_code& ec)
        {
            if (!ec)
            {
                fn();
            }
        });
}

void
LinuxJob::StepDone(const TrainingResult::StepRecord& r)
{
    steps.push_back(r);
    if (steps.size() >= expected)
    {
        io.stop();
    }
}

void
LinuxJob::Fail(const std::string& what)
{
    if (error.empty())
    {
        error = what;
    }
    io.stop();
}

// ---- LinuxTensorConnection -----------------------------------------------------------------

LinuxTensorConnection::LinuxTensorConnection(LinuxJob& job,
                                             tcp::socket socket,
                                             uint64_t windowBytes,
                                             ChunkHandler onChunk)
    : m_job(job),
      m_socket(std::move(socket)),
      m_onChunk(std::move(onChunk)),
      m_rx(256 * 1024)
{
    m_scheduler.SetWindow(windowBytes);
}

LinuxTensorConnection::~LinuxTensorConnection()
{
    if (m_writer)
    {
        m_writer->Stop(); // it may be writing from m_header
    }
}

void
LinuxTensorConnection::Start()
{
    Read();
}

void
LinuxTensorConnection::Connect(const tcp::endpoint& to,
                               std::function<void(const boost::system::error_code&)> done)
{
    m_socket.async_connect(
        to,
        [self = shared_from_this(), done = std::move(done)](const boost::system::error_code& ec)
        {
            done(ec);
        });
}

void
LinuxTensorConnection::SendControl(const TensorChunkHeader& header)
{
    m_scheduler.QueueControl(header);
    PostSend();
}

void
LinuxTensorConnection::SendTensor(const TensorChunkHeader& header, uint64_t bytes)
{
    m_scheduler.QueueTensor(header, bytes);
    // As TensorConnection::ScheduleSend: everything queued in this instant is known to the
    // multiplexer before it picks the first chunk.
    PostSend();
}

void
LinuxTensorConnection::PostSend()
{
    if (!m_posted)
    {
        m_posted = true;
        boost::asio::post(m_job.io,
                          [self = shared_from_this()]
                          {
                              self->m_posted = false;
                              self->TrySend();
                          });
    }
}

bool
LinuxTensorConnection::NextMessage()
{
    TensorChunkHeader h;
    if (!m_scheduler.Next(ToTime(m_job.clock.Now()), false, h))
    {
        return false;
    }
    h.ToBytes(m_header);
    m_headerPending = true;
    m_payloadLeft = h.GetLength();
    return true;
}

void
LinuxTensorConnection::TrySend()
{
    if (m_writing || (!m_headerPending && m_payloadLeft == 0 && !NextMessage()))
    {
        return;
    }
    std::vector<boost::asio::const_buffer> buffers;
    if (m_headerPending)
    {
        buffers.emplace_back(m_header, TensorChunkHeader::SIZE);
    }
    const std::size_t piece
        = static_cast<std::size_t>(std::min<uint64_t>(m_payloadLeft, ZERO_BLOCK));
    if (piece > 0)
    {
        buffers.emplace_back(Zeros().data(), piece);
    }
    m_writing = true;
    if (m_job.scenario.writePattern == "thread-per-connection")
    {
        if (!m_writer)
        {
            m_writer = std::make_shared<LinuxWriterThread>(m_job.io);
            m_job.writers.push_back(m_writer);
        }
        // Only a weak reference travels through the writer thread: the connection is released
        // on the event loop's thread, never on the writer's (which its destruction would join).
        m_writer->Write(m_socket.native_handle(),
                        buffers,
                        [weak = weak_from_this(), piece](const boost::system::error_code& ec)
                        {
                            if (auto self = weak.lock())
                            {
                                self->Written(ec, piece);
                            }
                        });
        return;
    }
    boost::asio::async_write(
        m_socket,
        buffers,
        [self = shared_from_this(), piece](const boost::system::error_code& ec, std::size_t)
        {
            self->Written(ec, piece);
        });
}

void
LinuxTensorConnection::Written(const boost::system::error_code& ec, std::size_t piece)
{
    m_writing = false;
    if (ec)
    {
        m_job.Fail("linux backend: send failed: " + ec.message());
        return;
    }
    m_headerPending = false;
    m_payloadLeft -= piece;
    TrySend();
}

void
LinuxTensorConnection::Read()
{
    m_socket.async_read_some(
        boost::asio::buffer(m_rx),
        [self = shared_from_this()](const boost::system::error_code& ec, std::size_t n)
        {
            if (ec)
            {
                if (ec != boost::asio::error::operation_aborted)
                {
                    self->m_job.Fail("linux backend: connection closed early: " + ec.message());
                }
                return;
            }
            self->m_parser.Feed(
                n,
                [&self](std::size_t pos, std::size_t len, uint8_t* out)
                {
                    std::copy_n(self->m_rx.data() + pos, len, out);
                },
                [&self](const TensorChunkHeader& h)
                {
                    if (self->m_onChunk)
                    {
                        self->m_onChunk(*self, h);
                    }
                });
            self->Read();
        });
}

uint64_t
LinuxTensorConnection::GetPayloadBytesSent() const
{
    return m_scheduler.GetPayloadBytes();
}

uint64_t
LinuxTensorConnection::GetPayloadBytesReceived() const
{
    return m_parser.GetPayloadBytes();
}

// ---- LinuxProtocolHost ---------------------------------------------------------------------

LinuxProtocolHost::LinuxProtocolHost(LinuxJob& job)
    : m_job(job)
{
}

Time
LinuxProtocolHost::Now() const
{
    return ToTime(m_job.clock.Now());
}

void
LinuxProtocolHost::Schedule(const Time& delay, std::function<void()> fn)
{
    m_job.After(delay.GetSeconds(), std::move(fn));
}

void
LinuxProtocolHost::TransferCompleted(const TrainingResult::TransferRecord& record)
{
    m_job.transfers.push_back(record);
}

void
LinuxProtocolHost::StepCompleted(const TrainingResult::StepRecord& record)
{
    m_job.StepDone(record);
}

void
LinuxProtocolHost::Fail(const std::string& what)
{
    m_job.Fail("linux backend: " + what);
}

void
LinuxProtocolHost::WindowCandidate(uint32_t step, double seconds)
{
    if (m_job.onWindowCandidate
        && (step + 1 == m_job.scenario.warmup || step + 1 == m_job.scenario.steps))
    {
        m_job.onWindowCandidate(seconds);
    }
}

std::function<void(const boost::system::error_code&)>
LinuxProtocolHost::OnConnected(const std::string& peer, std::function<void()> done)
{
    return [this, peer, done = std::move(done)](const boost::system::error_code& ec)
    {
        if (ec)
        {
            Fail(peer + " failed: " + ec.message());
            return;
        }
        done();
    };
}

// ---- LinuxParameterServer ------------------------------------------------------------------

LinuxParameterServer::LinuxParameterServer(LinuxJob& job,
                                           uint32_t index,
                                           const std::vector<uint32_t>& layers,
                                           int64_t stream)
    : LinuxProtocolHost(job)
{
    auto rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(stream);
    const TrainingScenario& s = job.scenario;
    const PsServerProtocol::Config config{index,
                                          s.workers,
                                          s.mode == TrainingScenario::SYNC,
                                          s.overlap,
                                          s.order};
    m_protocol = std::make_unique<PsServerProtocol>(*this, job.profile, layers, config, rng);
}

void
LinuxParameterServer::Listen(uint16_t port, const std::string& congestion, double pace)
{
    m_acceptor = OpenAcceptor(m_job.io, port, congestion, pace);
    Accept();
}

void
LinuxParameterServer::Accept()
{
    AcceptOne(m_job,
              *m_acceptor,
              [this](tcp::socket socket)
              {
                  auto c = std::make_shared<LinuxTensorConnection>(
                      m_job,
                      std::move(socket),
                      m_job.scenario.windowBytes,
                      [this](LinuxTensorConnection& conn, const TensorChunkHeader& h)
                      {
                          HandleChunk(conn, h);
                      });
                  m_connections.push_back(c);
                  c->Start();
                  if (m_connections.size() < m_job.scenario.workers)
                  {
                      Accept();
                  }
              });
}

void
LinuxParameterServer::HandleChunk(LinuxTensorConnection& c, const TensorChunkHeader& h)
{
    if (PsServerProtocol::IdentifiesWorker(h))
    {
        m_workerConnection[h.GetWorker()] = c.shared_from_this();
    }
    m_protocol->Receive(h);
}

TensorSink&
LinuxParameterServer::GetPeer(uint32_t worker)
{
    return *m_workerConnection.at(worker);
}

void
LinuxParameterServer::UpdatesApplied(uint32_t /* worker */, uint32_t step, Time when)
{
    WindowCandidate(step, when.GetSeconds());
}

// ---- LinuxTrainingWorker -------------------------------------------------------------------

LinuxTrainingWorker::LinuxTrainingWorker(LinuxJob& job,
                                         uint32_t index,
                                         const std::vector<uint32_t>& owners,
                                         int64_t stream)
    : LinuxProtocolHost(job),
      m_index(index),
      m_owners(owners)
{
    m_rng = CreateObject<UniformRandomVariable>();
    m_rng->SetStream(stream);
}

void
LinuxTrainingWorker::Connect(const std::vector<std::string>& servers,
                             uint16_t port,
                             const std::string& congestion,
                             double pace)
{
    const TrainingScenario& s = m_job.scenario;
    m_protocol = std::make_unique<PsWorkerProtocol>(*this,
                                                    m_job.profile,
                                                    m_owners,
                                                    static_cast<uint32_t>(servers.size()),
                                                    WorkerConfig::FromScenario(s, m_index),
                                                    m_rng);
    for (std::size_t p = 0; p < servers.size(); ++p)
    {
        m_connections.push_back(
            OpenConnection(m_job,
                           congestion,
                           pace,
                           s.windowBytes,
                           [this](LinuxTensorConnection&, const TensorChunkHeader& h)
                           {
                               m_protocol->Receive(h);
                           }));
    }
    for (std::size_t p = 0; p < servers.size(); ++p)
    {
        auto c = m_connections[p];
        c->Connect(
            tcp::endpoint(boost::asio::ip::make_address_v4(servers[p]), port),
            OnConnected("worker " + std::to_string(m_index) + ": connection to a parameter server",
                        [this, c, p]
                        {
                            c->Start();
                            m_protocol->Connected(static_cast<uint32_t>(p));
                        }));
    }
}

TensorSink&
LinuxTrainingWorker::GetPeer(uint32_t server)
{
    return *m_connections.at(server);
}

// ---- LinuxRingNode -------------------------------------------------------------------------

LinuxRingNode::LinuxRingNode(LinuxJob& job, uint32_t index, int64_t stream)
    : LinuxProtocolHost(job),
      m_index(index)
{
    auto rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(stream);
    m_protocol = std::make_unique<RingAllReduceProtocol>(
        *this,
        job.profile,
        WorkerConfig::FromScenario(job.scenario, index),
        RingAllReduceProtocol::RingConfig::FromScenario(job.scenario, *job.profile),
        rng);
}

void
LinuxRingNode::Listen(uint16_t port, const std::string& congestion, double pace)
{
    m_acceptor = OpenAcceptor(m_job.io, port, congestion, pace);
    Accept();
}

void
LinuxRingNode::Accept()
{
    AcceptOne(m_job,
              *m_acceptor,
              [this](tcp::socket socket)
              {
                  auto c = std::make_shared<LinuxTensorConnection>(
                      m_job,
                      std::move(socket),
                      0,
                      [this](LinuxTensorConnection&, const TensorChunkHeader& h)
                      {
                          m_protocol->Receive(h);
                      });
                  m_incoming.push_back(c);
                  c->Start();
                  m_protocol->IncomingUp();
                  if (m_incoming.size() < m_protocol->GetReceivePeers().size())
                  {
                      Accept();
                  }
              });
}

void
LinuxRingNode::Connect(const std::vector<std::string>& workers,
                       uint16_t port,
                       const std::string& congestion,
                       double pace)
{
    for (uint32_t peer : m_protocol->GetSendPeers())
    {
        auto c = OpenConnection(m_job, congestion, pace, 0, nullptr);
        m_outgoing.push_back(c);
        c->Connect(tcp::endpoint(boost::asio::ip::make_address_v4(workers.at(peer)), port),
                   OnConnected("AllReduce worker " + std::to_string(m_index)
                                   + ": connection to worker " + std::to_string(peer),
                               [this, c]
                               {
                                   c->Start(); // nothing comes back; reading detects a
                                               // peer that went away
                                   m_protocol->OutgoingUp();
                               }));
    }
}

void
LinuxRingNode::MaybeStart()
{
    m_protocol->MaybeStart();
}

TensorSink&
LinuxRingNode::GetPeer(uint32_t peer)
{
    return *m_outgoing.at(peer);
}

void
LinuxRingNode::StepCompleted(const TrainingResult::StepRecord& record)
{
    WindowCandidate(record.step, record.end);
    LinuxProtocolHost::StepCompleted(record);
}

} // namespace ns3

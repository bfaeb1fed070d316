/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "linux-training-apps.h"

#include "ns3/buffer.h"
#include "ns3/log.h"
#include "ns3/training-input-error.h"
#include "ns3/training-network.h"

#include <algorithm>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <numeric>
#include <sys/socket.h>

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

/// Serialize a header exactly as the packet level does.
void
Serialize(const TensorChunkHeader& h, uint8_t* out)
{
    Buffer b;
    b.AddAtStart(TensorChunkHeader::SIZE);
    h.Serialize(b.Begin());
    b.CopyData(out, TensorChunkHeader::SIZE);
}

/// Parse a header written by Serialize.
TensorChunkHeader
Deserialize(const uint8_t* data)
{
    Buffer b;
    b.AddAtStart(TensorChunkHeader::SIZE);
    b.Begin().Write(data, TensorChunkHeader::SIZE);
    TensorChunkHeader h;
    h.Deserialize(b.Begin());
    return h;
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

// ---- LinuxJob ------------------------------------------------------------------------------

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
      m_window(windowBytes),
      m_onChunk(std::move(onChunk)),
      m_rx(256 * 1024)
{
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
    TensorChunkHeader h = header;
    h.SetLength(0);
    h.SetOffset(0);
    h.SetTensorBytes(0);
    m_control.push_back(h);
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

void
LinuxTensorConnection::SendTensor(const TensorChunkHeader& header, uint64_t bytes)
{
    m_streams.push_back({header, bytes, 0, 0, 0});
    // As TensorConnection::ScheduleSend: everything queued in this instant is known to the
    // multiplexer before it picks the first chunk.
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
    if (!m_control.empty())
    {
        Serialize(m_control.front(), m_header);
        m_control.pop_front();
        m_headerPending = true;
        m_payloadLeft = 0;
        return true;
    }
    if (m_streams.empty())
    {
        return false;
    }
    Stream s = m_streams.front();
    m_streams.pop_front();
    if (s.services == 0 && s.sent == 0)
    {
        s.firstByte = m_job.clock.Now();
    }
    uint64_t chunk = s.bytes - s.sent;
    if (m_window > 0 && s.services == 0)
    {
        chunk = std::min(chunk, m_window); // first service: at most WIN (001 Sec. 3.2.2)
    }
    chunk = std::min<uint64_t>(chunk, 1ULL << 30); // TensorConnection::MAX_CHUNK
    TensorChunkHeader h = s.header;
    h.SetOffset(s.sent);
    h.SetLength(static_cast<uint32_t>(chunk));
    h.SetTensorBytes(s.bytes);
    h.SetTimestamp(ToTime(s.firstByte));
    Serialize(h, m_header);
    m_headerPending = true;
    m_payloadLeft = chunk;
    s.sent += chunk;
    m_sent += chunk;
    if (s.sent < s.bytes)
    {
        if (m_window > 0 && s.services == 0)
        {
            s.services = 1;
            m_streams.push_back(s);
        }
        else
        {
            m_streams.push_front(s);
        }
    }
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
    boost::asio::async_write(
        m_socket,
        buffers,
        [self = shared_from_this(), piece](const boost::system::error_code& ec, std::size_t)
        {
            self->m_writing = false;
            if (ec)
            {
                self->m_job.Fail("linux backend: send failed: " + ec.message());
                return;
            }
            self->m_headerPending = false;
            self->m_payloadLeft -= piece;
            self->TrySend();
        });
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
            self->Parse(self->m_rx.data(), n);
            self->Read();
        });
}

void
LinuxTensorConnection::Parse(const uint8_t* data, std::size_t size)
{
    std::size_t pos = 0;
    while (pos < size)
    {
        if (m_incomingLeft > 0)
        {
            uint64_t take = std::min<uint64_t>(m_incomingLeft, size - pos);
            pos += take;
            m_incomingLeft -= take;
            m_received += take;
            if (m_incomingLeft == 0 && m_onChunk)
            {
                m_onChunk(*this, m_incoming);
            }
            continue;
        }
        std::size_t take = std::min(TensorChunkHeader::SIZE - m_headerBytes.size(), size - pos);
        m_headerBytes.insert(m_headerBytes.end(), data + pos, data + pos + take);
        pos += take;
        if (m_headerBytes.size() < TensorChunkHeader::SIZE)
        {
            continue;
        }
        m_incoming = Deserialize(m_headerBytes.data());
        m_headerBytes.clear();
        m_incomingLeft = m_incoming.GetLength();
        if (m_incomingLeft == 0 && m_onChunk)
        {
            m_onChunk(*this, m_incoming);
        }
    }
}

uint64_t
LinuxTensorConnection::GetPayloadBytesSent() const
{
    return m_sent;
}

uint64_t
LinuxTensorConnection::GetPayloadBytesReceived() const
{
    return m_received;
}

// ---- LinuxParameterServer ------------------------------------------------------------------

LinuxParameterServer::LinuxParameterServer(LinuxJob& job,
                                           uint32_t index,
                                           const std::vector<uint32_t>& layers,
                                           int64_t stream)
    : m_job(job),
      m_index(index),
      m_layers(layers)
{
    m_localIndex.assign(job.profile->GetNLayers(), -1);
    for (std::size_t i = 0; i < layers.size(); ++i)
    {
        m_localIndex.at(layers[i]) = static_cast<int32_t>(i);
    }
    m_rng = CreateObject<UniformRandomVariable>();
    m_rng->SetStream(stream);
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
    m_acceptor->async_accept(
        [this](const boost::system::error_code& ec, tcp::socket socket)
        {
            if (ec)
            {
                if (ec != boost::asio::error::operation_aborted)
                {
                    m_job.Fail("linux backend: accept failed: " + ec.message());
                }
                return;
            }
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

LinuxParameterServer::WorkerState&
LinuxParameterServer::State(uint32_t worker)
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
LinuxParameterServer::HandleChunk(LinuxTensorConnection& c, const TensorChunkHeader& h)
{
    const uint32_t w = h.GetWorker();
    WorkerState& st = State(w);
    if (h.GetType() == TensorChunkHeader::HELLO || h.GetType() == TensorChunkHeader::PULL)
    {
        st.connection = c.shared_from_this();
        if (h.GetType() == TensorChunkHeader::PULL)
        {
            SendParameters(w, h.GetStep());
        }
        return;
    }
    if (h.GetType() != TensorChunkHeader::GRADIENT)
    {
        return;
    }
    int32_t local
        = h.GetTensor() >= 0 && static_cast<std::size_t>(h.GetTensor()) < m_localIndex.size()
              ? m_localIndex[h.GetTensor()]
              : -1;
    if (local < 0)
    {
        m_job.Fail("linux backend: server " + std::to_string(m_index)
                   + " got a gradient of a layer it does not own");
        return;
    }
    if (st.gradientsComplete == 0 && st.received[local] == 0)
    {
        st.step = h.GetStep();
    }
    st.received[local] += h.GetLength();
    if (st.received[local] < h.GetTensorBytes())
    {
        return;
    }
    st.received[local] = 0;
    ++st.gradientsComplete;
    m_job.transfers.push_back({w,
                               m_index,
                               h.GetStep(),
                               h.GetTensor(),
                               "up",
                               h.GetTensorBytes(),
                               h.GetTimestamp().GetSeconds(),
                               m_job.clock.Now()});
    std::pair<uint32_t, uint32_t> op(static_cast<uint32_t>(local), h.GetAux());
    if (m_job.scenario.overlap)
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
LinuxParameterServer::SendParameters(uint32_t worker, uint32_t step)
{
    std::vector<uint32_t> order(m_layers.size());
    std::iota(order.begin(), order.end(), 0);
    if (m_job.scenario.order == TrainingScenario::REVERSE_ORDER)
    {
        std::reverse(order.begin(), order.end());
    }
    else if (m_job.scenario.order == TrainingScenario::RANDOM_ORDER)
    {
        for (std::size_t i = order.size(); i > 1; --i) // as ParameterServerApplication
        {
            std::swap(order[i - 1], order[m_rng->GetInteger(0, static_cast<uint32_t>(i - 1))]);
        }
    }
    WorkerState& st = State(worker);
    for (uint32_t local : order)
    {
        uint32_t layer = m_layers[local];
        TensorChunkHeader h;
        h.SetType(TensorChunkHeader::PARAMS);
        h.SetTensor(static_cast<int32_t>(layer));
        h.SetStep(step);
        h.SetWorker(worker);
        st.connection->SendTensor(h, m_job.profile->GetLayer(layer).paramBytes);
    }
}

void
LinuxParameterServer::ProcessUpdates(uint32_t worker)
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
    double us = sample == 0 ? m_job.profile->GetLayer(layer).updateUs
                            : m_job.profile->GetSample(sample - 1).updateUs.at(layer);
    m_job.After(us * 1e-6,
                [this, worker]
                {
                    WorkerState& s = State(worker);
                    s.updating = false;
                    if (++s.updatesDone == m_layers.size())
                    {
                        WorkerStepApplied(worker);
                        return;
                    }
                    ProcessUpdates(worker);
                });
}

void
LinuxParameterServer::WorkerStepApplied(uint32_t worker)
{
    WorkerState& st = State(worker);
    st.doneTime = m_job.clock.Now();
    st.updatesDone = 0;
    st.gradientsComplete = 0;
    if (m_job.onWindowCandidate
        && (st.step + 1 == m_job.scenario.warmup || st.step + 1 == m_job.scenario.steps))
    {
        m_job.onWindowCandidate(st.doneTime);
    }
    auto notify = [](uint32_t w, WorkerState& s)
    {
        TensorChunkHeader n;
        n.SetType(TensorChunkHeader::NOTICE);
        n.SetWorker(w);
        n.SetStep(s.step);
        n.SetTimestamp(ToTime(s.doneTime));
        s.connection->SendControl(n);
    };
    if (m_job.scenario.mode == TrainingScenario::ASYNC)
    {
        notify(worker, st);
        return;
    }
    if (++m_barrierCount < m_job.scenario.workers)
    {
        return;
    }
    m_barrierCount = 0;
    for (auto& [w, s] : m_state)
    {
        notify(w, s);
    }
}

// ---- LinuxTrainingWorker -------------------------------------------------------------------

LinuxTrainingWorker::LinuxTrainingWorker(LinuxJob& job,
                                         uint32_t index,
                                         const std::vector<uint32_t>& owners,
                                         int64_t stream)
    : m_job(job),
      m_index(index),
      m_owners(owners),
      m_mean(job.profile->GetMeanStep()),
      m_scale(job.scenario.GetComputeScale(index))
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
    for (std::size_t p = 0; p < servers.size(); ++p)
    {
        tcp::socket s(m_job.io);
        s.open(tcp::v4());
        TuneLinuxSocket(s.native_handle(), congestion, pace);
        auto c = std::make_shared<LinuxTensorConnection>(
            m_job,
            std::move(s),
            m_job.scenario.windowBytes,
            [this](LinuxTensorConnection& conn, const TensorChunkHeader& h)
            {
                HandleChunk(conn, h);
            });
        m_connections.push_back(c);
    }
    for (std::size_t p = 0; p < servers.size(); ++p)
    {
        tcp::endpoint to(boost::asio::ip::make_address_v4(servers[p]), port);
        // The connection object owns the socket; connect through a reference to it.
        auto c = m_connections[p];
        c->Connect(to,
                   [this, c](const boost::system::error_code& ec)
                   {
                       if (ec)
                       {
                           m_job.Fail("linux backend: worker " + std::to_string(m_index)
                                      + ": connection to a parameter server failed: "
                                      + ec.message());
                           return;
                       }
                       TensorChunkHeader hello;
                       hello.SetType(TensorChunkHeader::HELLO);
                       hello.SetWorker(m_index);
                       c->SendControl(hello);
                       c->Start();
                       if (++m_connected == m_connections.size())
                       {
                           m_step = 0;
                           StartStep();
                       }
                   });
    }
}

void
LinuxTrainingWorker::StartStep()
{
    const std::size_t n = m_job.profile->GetNLayers();
    if (m_job.scenario.sampleSteps && m_job.profile->GetNSamples() > 0)
    {
        uint32_t k = m_rng->GetInteger(0, static_cast<uint32_t>(m_job.profile->GetNSamples() - 1));
        m_sample = k + 1;
        m_fwd = &m_job.profile->GetSample(k).forwardUs;
        m_bwd = &m_job.profile->GetSample(k).backwardUs;
    }
    else
    {
        m_sample = 0;
        m_fwd = &m_mean.forwardUs;
        m_bwd = &m_mean.backwardUs;
    }
    m_stepStart = m_job.clock.Now();
    m_stepEnd = 0;
    m_arrived.assign(n, false);
    m_received.assign(n, 0);
    m_arrivedCount = 0;
    m_broadcastFree = m_stepStart;
    m_reduceFree = m_stepStart;
    m_reduced = 0;
    m_nextForward = 0;
    m_nextBackward = -1;
    m_notices = 0;
    for (auto& c : m_connections)
    {
        TensorChunkHeader pull;
        pull.SetType(TensorChunkHeader::PULL);
        pull.SetWorker(m_index);
        pull.SetStep(m_step);
        c->SendControl(pull);
    }
}

void
LinuxTrainingWorker::HandleChunk(LinuxTensorConnection& /* c */, const TensorChunkHeader& h)
{
    if (h.GetType() == TensorChunkHeader::PARAMS)
    {
        uint32_t l = static_cast<uint32_t>(h.GetTensor());
        m_received.at(l) += h.GetLength();
        if (m_received[l] < h.GetTensorBytes() || m_arrived[l])
        {
            return;
        }
        m_job.transfers.push_back({m_index,
                                   m_owners[l],
                                   h.GetStep(),
                                   h.GetTensor(),
                                   "down",
                                   h.GetTensorBytes(),
                                   h.GetTimestamp().GetSeconds(),
                                   m_job.clock.Now()});
        Broadcast(l);
    }
    else if (h.GetType() == TensorChunkHeader::NOTICE)
    {
        m_stepEnd = std::max(m_stepEnd, h.GetTimestamp().GetSeconds());
        if (++m_notices < m_connections.size())
        {
            return;
        }
        const TrainingResult::StepRecord record{m_index, m_step, m_stepStart, m_stepEnd};
        if (++m_step < m_job.scenario.steps)
        {
            StartStep();
        }
        m_job.StepDone(record);
    }
}

double
LinuxTrainingWorker::Compute(double us) const
{
    return us * 1e-6 * m_scale;
}

double
LinuxTrainingWorker::IntraNode(uint32_t layer) const
{
    return TrainingNetwork::GetIntraNodeHalfSeconds(m_job.scenario,
                                                    m_job.profile->GetLayer(layer).paramBytes);
}

void
LinuxTrainingWorker::IntraNodeThen(double& free,
                                   uint32_t layer,
                                   void (LinuxTrainingWorker::*done)(uint32_t))
{
    if (m_job.scenario.gpusPerNode <= 1)
    {
        (this->*done)(layer);
        return;
    }
    const double now = m_job.clock.Now();
    free = std::max(free, now) + IntraNode(layer);
    m_job.After(free - now,
                [this, layer, done]
                {
                    (this->*done)(layer);
                });
}

void
LinuxTrainingWorker::Broadcast(uint32_t layer)
{
    IntraNodeThen(m_broadcastFree, layer, &LinuxTrainingWorker::BroadcastDone);
}

void
LinuxTrainingWorker::BroadcastDone(uint32_t layer)
{
    m_arrived[layer] = true;
    ++m_arrivedCount;
    TryForward();
}

void
LinuxTrainingWorker::Reduce(uint32_t layer)
{
    IntraNodeThen(m_reduceFree, layer, &LinuxTrainingWorker::ReduceDone);
}

void
LinuxTrainingWorker::ReduceDone(uint32_t layer)
{
    if (m_job.scenario.overlap)
    {
        SendGradient(layer);
        return;
    }
    if (++m_reduced == m_job.profile->GetNLayers())
    {
        for (int64_t l = static_cast<int64_t>(m_job.profile->GetNLayers()) - 1; l >= 0; --l)
        {
            SendGradient(static_cast<uint32_t>(l));
        }
    }
}

void
LinuxTrainingWorker::TryForward()
{
    const uint32_t n = static_cast<uint32_t>(m_job.profile->GetNLayers());
    if (m_busy || m_nextForward >= n || m_nextBackward >= 0)
    {
        return;
    }
    bool ready = m_job.scenario.overlap ? m_arrived[m_nextForward] : m_arrivedCount == n;
    if (!ready)
    {
        return;
    }
    m_busy = true;
    m_job.After(Compute((*m_fwd)[m_nextForward]),
                [this]
                {
                    ForwardDone();
                });
}

void
LinuxTrainingWorker::ForwardDone()
{
    m_busy = false;
    const uint32_t n = static_cast<uint32_t>(m_job.profile->GetNLayers());
    if (++m_nextForward < n)
    {
        TryForward();
        return;
    }
    m_nextBackward = n - 1;
    m_busy = true;
    m_job.After(Compute((*m_bwd)[m_nextBackward]),
                [this]
                {
                    BackwardDone();
                });
}

void
LinuxTrainingWorker::BackwardDone()
{
    m_busy = false;
    const uint32_t layer = static_cast<uint32_t>(m_nextBackward);
    if (m_job.scenario.overlap)
    {
        Reduce(layer);
    }
    if (layer == 0)
    {
        if (!m_job.scenario.overlap)
        {
            for (int64_t l = static_cast<int64_t>(m_job.profile->GetNLayers()) - 1; l >= 0; --l)
            {
                Reduce(static_cast<uint32_t>(l));
            }
        }
        return;
    }
    --m_nextBackward;
    m_busy = true;
    m_job.After(Compute((*m_bwd)[m_nextBackward]),
                [this]
                {
                    BackwardDone();
                });
}

void
LinuxTrainingWorker::SendGradient(uint32_t layer)
{
    TensorChunkHeader h;
    h.SetType(TensorChunkHeader::GRADIENT);
    h.SetTensor(static_cast<int32_t>(layer));
    h.SetStep(m_step);
    h.SetWorker(m_index);
    h.SetAux(m_sample);
    m_connections[m_owners[layer]]->SendTensor(h, m_job.profile->GetLayer(layer).paramBytes);
}

// ---- LinuxRingNode -------------------------------------------------------------------------

LinuxRingNode::LinuxRingNode(LinuxJob& job, uint32_t index, int64_t stream)
    : m_job(job),
      m_index(index),
      m_workers(job.scenario.workers),
      m_mean(job.profile->GetMeanStep()),
      m_scale(job.scenario.GetComputeScale(index))
{
    m_rng = CreateObject<UniformRandomVariable>();
    m_rng->SetStream(stream);
    const TrainingScenario& s = job.scenario;
    m_buckets = TensorFusion::FormBuckets(*job.profile,
                                          s.bucketBytes,
                                          s.firstBucketBytes,
                                          s.fusionTimeout);
    m_bucketOfLayer.assign(job.profile->GetNLayers(), 0);
    for (std::size_t b = 0; b < m_buckets.size(); ++b)
    {
        for (uint32_t l : m_buckets[b].layers)
        {
            m_bucketOfLayer[l] = static_cast<uint32_t>(b);
        }
    }
}

void
LinuxRingNode::Listen(uint16_t port, const std::string& congestion, double pace)
{
    m_acceptor = OpenAcceptor(m_job.io, port, congestion, pace);
    m_acceptor->async_accept(
        [this](const boost::system::error_code& ec, tcp::socket socket)
        {
            if (ec)
            {
                if (ec != boost::asio::error::operation_aborted)
                {
                    m_job.Fail("linux backend: ring accept failed: " + ec.message());
                }
                return;
            }
            m_prev = std::make_shared<LinuxTensorConnection>(
                m_job,
                std::move(socket),
                0,
                [this](LinuxTensorConnection& c, const TensorChunkHeader& h)
                {
                    HandleChunk(c, h);
                });
            m_prev->Start();
            MaybeStart();
        });
}

void
LinuxRingNode::Connect(const std::string& successor,
                       uint16_t port,
                       const std::string& congestion,
                       double pace)
{
    tcp::socket s(m_job.io);
    s.open(tcp::v4());
    TuneLinuxSocket(s.native_handle(), congestion, pace);
    m_next = std::make_shared<LinuxTensorConnection>(m_job, std::move(s), 0, nullptr);
    tcp::endpoint to(boost::asio::ip::make_address_v4(successor), port);
    m_next->Connect(
        to,
        [this](const boost::system::error_code& ec)
        {
            if (ec)
            {
                m_job.Fail("linux backend: ring worker " + std::to_string(m_index)
                           + ": connection to its successor failed: " + ec.message());
                return;
            }
            m_next->Start(); // nothing comes back; reading detects a peer that went away
            m_nextUp = true;
            MaybeStart();
        });
}

void
LinuxRingNode::MaybeStart()
{
    if (m_started || (m_workers > 1 && (!m_nextUp || !m_prev)))
    {
        return;
    }
    m_started = true;
    m_step = 0;
    StartStep();
}

double
LinuxRingNode::IntraDelay(uint64_t bytes) const
{
    return TrainingNetwork::GetIntraNodeHalfSeconds(m_job.scenario, static_cast<double>(bytes));
}

uint64_t
LinuxRingNode::ChunkBytes(uint32_t bucket, uint32_t chunk) const
{
    const uint64_t m = m_buckets[bucket].bytes;
    const uint64_t base = m / m_workers;
    return chunk + 1 < m_workers ? base : m - base * (m_workers - 1);
}

void
LinuxRingNode::StartStep()
{
    if (m_job.scenario.sampleSteps && m_job.profile->GetNSamples() > 0)
    {
        uint32_t k = m_rng->GetInteger(0, static_cast<uint32_t>(m_job.profile->GetNSamples() - 1));
        m_fwd = &m_job.profile->GetSample(k).forwardUs;
        m_bwd = &m_job.profile->GetSample(k).backwardUs;
    }
    else
    {
        m_fwd = &m_mean.forwardUs;
        m_bwd = &m_mean.backwardUs;
    }
    m_stepStart = m_job.clock.Now();
    m_backwardDone = false;
    m_firstReady.assign(m_buckets.size(), 0);
    m_closed.assign(m_buckets.size(), false);
    m_nextBucket = 0;
    m_bucketBusy = false;
    double forward = 0;
    for (double us : *m_fwd)
    {
        forward += us * 1e-6 * m_scale;
    }
    m_job.After(forward,
                [this]
                {
                    m_nextBackward = static_cast<int64_t>(m_job.profile->GetNLayers()) - 1;
                    m_job.After((*m_bwd)[m_nextBackward] * 1e-6 * m_scale,
                                [this]
                                {
                                    BackwardDone();
                                });
                });
}

void
LinuxRingNode::BackwardDone()
{
    const uint32_t layer = static_cast<uint32_t>(m_nextBackward);
    const uint32_t b = m_bucketOfLayer[layer];
    const auto& bucket = m_buckets[b];
    const double now = m_job.clock.Now();
    if (bucket.layers.front() == layer)
    {
        m_firstReady[b] = now;
    }
    if (bucket.layers.back() == layer)
    {
        double close = now;
        if (bucket.byTimeout)
        {
            close = std::max(close, m_firstReady[b] + m_job.scenario.fusionTimeout.GetSeconds());
        }
        const uint32_t step = m_step;
        m_job.After(close - now,
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
    m_job.After((*m_bwd)[m_nextBackward] * 1e-6 * m_scale,
                [this]
                {
                    BackwardDone();
                });
}

void
LinuxRingNode::BucketClosed(uint32_t step, uint32_t bucket)
{
    if (step != m_step)
    {
        return;
    }
    m_closed[bucket] = true;
    TryStartBucket();
}

void
LinuxRingNode::TryStartBucket()
{
    if (m_bucketBusy || m_nextBucket >= m_buckets.size())
    {
        return;
    }
    if (!(m_job.scenario.overlap ? m_closed[m_nextBucket] : m_backwardDone))
    {
        return;
    }
    m_bucketBusy = true;
    if (m_job.scenario.gpusPerNode > 1)
    {
        m_job.After(IntraDelay(m_buckets[m_nextBucket].bytes),
                    [this]
                    {
                        StartRing();
                    });
    }
    else
    {
        StartRing();
    }
}

void
LinuxRingNode::StartRing()
{
    if (m_workers == 1)
    {
        RingDone();
        return;
    }
    m_ringActive = true;
    m_reducing = false;
    m_nextRound = 0;
    Advance();
}

void
LinuxRingNode::Advance()
{
    const uint32_t rounds = 2 * (m_workers - 1);
    while (m_ringActive && !m_reducing)
    {
        if (m_nextRound < rounds)
        {
            if (m_nextRound > 0)
            {
                if (m_arrived.count(ChunkKey{m_step, m_nextBucket, m_nextRound - 1}) == 0)
                {
                    return; // wait for the predecessor's chunk
                }
                if (m_nextRound - 1 < m_workers - 1 && m_job.scenario.reductionRate > 0)
                {
                    uint32_t chunk
                        = (m_index + m_workers - (m_nextRound - 1) % m_workers - 1) % m_workers;
                    m_reducing = true;
                    m_job.After(static_cast<double>(ChunkBytes(m_nextBucket, chunk))
                                    / m_job.scenario.reductionRate,
                                [this]
                                {
                                    m_reducing = false;
                                    SendRound(m_nextRound++);
                                    Advance();
                                });
                    return;
                }
            }
            SendRound(m_nextRound++);
            continue;
        }
        if (m_arrived.count(ChunkKey{m_step, m_nextBucket, rounds - 1}) > 0)
        {
            m_ringActive = false;
            RingDone();
        }
        return;
    }
}

void
LinuxRingNode::SendRound(uint32_t round)
{
    const uint32_t chunk = (m_index + m_workers - round % m_workers) % m_workers;
    TensorChunkHeader h;
    h.SetType(TensorChunkHeader::RING);
    h.SetTensor(static_cast<int32_t>(m_nextBucket));
    h.SetStep(m_step);
    h.SetWorker(m_index);
    h.SetAux(round);
    m_next->SendTensor(h, ChunkBytes(m_nextBucket, chunk));
}

void
LinuxRingNode::HandleChunk(LinuxTensorConnection& /* c */, const TensorChunkHeader& h)
{
    if (h.GetType() != TensorChunkHeader::RING)
    {
        return;
    }
    ChunkKey key{h.GetStep(), static_cast<uint32_t>(h.GetTensor()), h.GetAux()};
    uint64_t& got = m_partial[key];
    got += h.GetLength();
    if (got < h.GetTensorBytes())
    {
        return;
    }
    m_partial.erase(key);
    m_arrived[key] = h.GetTensorBytes();
    m_job.transfers.push_back({(m_index + m_workers - 1) % m_workers,
                               m_index,
                               h.GetStep(),
                               h.GetTensor(),
                               "ring",
                               h.GetTensorBytes(),
                               h.GetTimestamp().GetSeconds(),
                               m_job.clock.Now()});
    if (m_ringActive && std::get<0>(key) == m_step && std::get<1>(key) == m_nextBucket)
    {
        Advance();
    }
}

void
LinuxRingNode::RingDone()
{
    if (m_job.scenario.gpusPerNode > 1)
    {
        m_job.After(IntraDelay(m_buckets[m_nextBucket].bytes),
                    [this]
                    {
                        BucketDone();
                    });
    }
    else
    {
        BucketDone();
    }
}

void
LinuxRingNode::BucketDone()
{
    m_bucketBusy = false;
    if (++m_nextBucket < m_buckets.size())
    {
        TryStartBucket();
        return;
    }
    const double now = m_job.clock.Now();
    const TrainingResult::StepRecord record{m_index, m_step, m_stepStart, now};
    if (m_job.onWindowCandidate
        && (m_step + 1 == m_job.scenario.warmup || m_step + 1 == m_job.scenario.steps))
    {
        m_job.onWindowCandidate(now);
    }
    if (++m_step < m_job.scenario.steps)
    {
        StartStep();
    }
    m_job.StepDone(record);
}

} // namespace ns3

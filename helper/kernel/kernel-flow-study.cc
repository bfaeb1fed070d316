/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "kernel-flow-study.h"

#include "kernel-testbed.h"
#include "kernel-training-apps.h"

#include "ns3/log.h"
#include "ns3/training-input-error.h"
#include "ns3/training-network.h"

#include <boost/asio.hpp>
#include <exception>
#include <memory>
#include <thread>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LinuxFlowStudy");

namespace
{

using boost::asio::ip::tcp;

/// One run's state, in the run thread.
struct Study
{
    /** \param c what to run */
    explicit Study(const LinuxFlowStudy::Config& c)
        : config(c)
    {
    }

    /// Stops the writer threads before the sockets they write are closed (on every path).
    ~Study()
    {
        job.StopWriters();
    }

    Study(const Study&) = delete;            //!< not copied
    Study& operator=(const Study&) = delete; //!< not copied

    const LinuxFlowStudy::Config& config;                      //!< what to run
    LinuxJob job;                                              //!< event loop and clock
    LinuxFlowStudy::Result result;                             //!< output
    std::vector<std::unique_ptr<tcp::acceptor>> acceptors;     //!< one per flow (port 6000 + i)
    std::vector<std::shared_ptr<tcp::socket>> receivers;       //!< accepted sockets
    std::vector<std::shared_ptr<tcp::socket>> senders;         //!< sending sockets
    std::vector<uint8_t> sink = std::vector<uint8_t>(1 << 18); //!< receive buffer (shared)
    std::vector<uint64_t> written;                             //!< per flow bytes written

    /// Read flow i until it is complete.
    void Receive(uint32_t i)
    {
        receivers[i]->async_read_some(boost::asio::buffer(sink),
                                      [this, i](const boost::system::error_code& ec, std::size_t n)
                                      {
                                          if (ec)
                                          {
                                              return; // the sender closed after its last byte
                                          }
                                          if (result.received[i] == 0 && n > 0)
                                          {
                                              result.firstByte[i] = job.clock.Now();
                                          }
                                          result.received[i] += n;
                                          if (result.completion[i] < 0
                                              && result.received[i] >= config.size)
                                          {
                                              result.completion[i] = job.clock.Now();
                                              if (++result.done == result.completion.size())
                                              {
                                                  job.io.stop();
                                              }
                                          }
                                          Receive(i);
                                      });
    }

    /// Write the rest of flow i: from the event loop 1 MiB per write; from flow i's own thread
    /// (when the job has writers) in one blocking write of every byte left, as a thread that
    /// owns its connection does.
    void Send(uint32_t i)
    {
        static const std::vector<uint8_t> zeros(1 << 20, 0);
        std::vector<boost::asio::const_buffer> pieces;
        std::size_t n = 0;
        const bool whole = !job.writers.empty();
        for (uint64_t left = config.size - written[i]; left > 0 && (whole || pieces.empty());)
        {
            const auto piece = static_cast<std::size_t>(std::min<uint64_t>(left, zeros.size()));
            pieces.push_back(boost::asio::buffer(zeros.data(), piece));
            n += piece;
            left -= piece;
        }
        if (n == 0)
        {
            senders[i]->shutdown(tcp::socket::shutdown_send);
            return;
        }
        auto done = [this, i, n](const boost::system::error_code& ec)
        {
            if (ec)
            {
                job.Fail("linux flow study: send failed: " + ec.message());
                return;
            }
            written[i] += n;
            Send(i);
        };
        if (!job.writers.empty())
        {
            job.writers[i]->Write(senders[i]->native_handle(), pieces, done);
            return;
        }
        boost::asio::async_write(*senders[i],
                                 pieces,
                                 [done](const boost::system::error_code& ec, std::size_t)
                                 {
                                     done(ec);
                                 });
    }

    /// Record every flow's bytes every sampleSeconds.
    void Sample()
    {
        result.rx.push_back(result.received);
        job.After(config.sampleSeconds,
                  [this]
                  {
                      Sample();
                  });
    }
};

/// Listen for flows 0..n-1 on ports 6000 + i in the receiver's namespace (host `receiver`).
void
OpenReceivers(Study& st, const LinuxTestbed& bed, uint32_t receiver, uint32_t n)
{
    const LinuxFlowStudy::Config& c = st.config;
    bed.RunIn(receiver,
              [&]
              {
                  for (uint32_t i = 0; i < n; ++i)
                  {
                      auto a = std::make_unique<tcp::acceptor>(st.job.io);
                      a->open(tcp::v4());
                      a->set_option(tcp::acceptor::reuse_address(true));
                      TuneLinuxSocket(a->native_handle(), c.congestion, 0);
                      a->bind(tcp::endpoint(tcp::v4(), static_cast<uint16_t>(6000 + i)));
                      a->listen(4);
                      a->async_accept(
                          [&st, i](const boost::system::error_code& ec, tcp::socket s)
                          {
                              if (!ec)
                              {
                                  st.receivers[i] = std::make_shared<tcp::socket>(std::move(s));
                                  st.Receive(i);
                              }
                          });
                      st.acceptors.push_back(std::move(a));
                  }
              });
}

/// Build the testbed, open sockets in their namespaces, run the flows.
void
Execute(Study& st)
{
    const LinuxFlowStudy::Config& c = st.config;
    const uint32_t n = static_cast<uint32_t>(c.arrivals.size());
    LinuxTestbed::Config bedConfig;
    // Hosts 0..n-1 send and host n receives; with sharedSender host 0 sends every flow.
    const uint32_t receiver = c.sharedSender ? 1 : n;
    bedConfig.hosts = receiver + 1;
    bedConfig.mtu = c.mtu;
    bedConfig.rateBps = c.rateBps / c.dilation;
    bedConfig.switchQueue = c.queue;
    bedConfig.hostQueue = c.queue;
    bedConfig.burstSeconds = c.burstSeconds;
    bedConfig.sysctls = c.sysctls;
    LinuxTestbed bed(bedConfig);
    st.job.clock = LinuxClock(c.dilation);
    st.result.completion.assign(n, -1);
    st.result.firstByte.assign(n, -1);
    st.result.received.assign(n, 0);
    st.written.assign(n, 0);
    st.receivers.resize(n);
    const double pace = c.capBps > 0 ? c.capBps / 8 / c.dilation : 0;
    OpenReceivers(st, bed, receiver, n);
    for (uint32_t i = 0; i < n; ++i)
    {
        bed.RunIn(c.sharedSender ? 0 : i,
                  [&]
                  {
                      auto s = std::make_shared<tcp::socket>(st.job.io);
                      s->open(tcp::v4());
                      TuneLinuxSocket(s->native_handle(), c.congestion, pace);
                      st.senders.push_back(s);
                  });
        if (c.writePattern == "thread-per-connection")
        {
            st.job.writers.push_back(std::make_shared<LinuxWriterThread>(st.job.io));
        }
    }
    const tcp::endpoint server(boost::asio::ip::make_address_v4(LinuxTestbed::GetAddress(receiver)),
                               0);
    st.job.clock.Start();
    for (uint32_t i = 0; i < n; ++i)
    {
        st.job.After(c.arrivals[i],
                     [&st, i, server]
                     {
                         tcp::endpoint to(server.address(), static_cast<uint16_t>(6000 + i));
                         st.senders[i]->async_connect(
                             to,
                             [&st, i](const boost::system::error_code& ec)
                             {
                                 if (ec)
                                 {
                                     st.job.Fail("linux flow study: connect failed: "
                                                 + ec.message());
                                     return;
                                 }
                                 st.Send(i);
                             });
                     });
    }
    if (c.sampleSeconds > 0)
    {
        st.Sample();
    }
    st.job.io.run_for(std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::duration<double>(c.maxWallSeconds)));
    st.job.StopWriters(); // the last writes may still block: the run is over
    st.result.drops = bed.CountQdiscDrops();
    if (!st.job.error.empty())
    {
        throw TrainingInputError(st.job.error);
    }
}

} // namespace

LinuxFlowStudy::Result
LinuxFlowStudy::Run(const Config& config)
{
    if (config.arrivals.empty() || config.size == 0 || !(config.dilation >= 1))
    {
        throw TrainingInputError("linux flow study: needs at least one flow, size > 0 and "
                                 "dilation >= 1");
    }
    const std::string why = LinuxTestbed::GetUnavailableReason();
    if (!why.empty())
    {
        throw TrainingInputError("--stack=linux: " + why);
    }
    auto wallStart = std::chrono::steady_clock::now();
    Study st(config);
    std::exception_ptr failure;
    // The namespaces are entered by this thread only (setns is per thread).
    std::thread worker(
        [&]
        {
            LinuxTestbed::RaisePriority(config.nice);
            try
            {
                Execute(st);
            }
            catch (...)
            {
                failure = std::current_exception();
            }
        });
    worker.join();
    if (failure)
    {
        std::rethrow_exception(failure);
    }
    st.result.wallSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    return st.result;
}

double
LinuxFlowStudy::GetGoodputBytesPerSecond(double rateBps, uint32_t mtu)
{
    return TrainingNetwork::GetEthernetGoodputBytesPerSecond(rateBps, mtu);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The transport-independent protocols (PsServerProtocol, PsWorkerProtocol, RingAllReduceProtocol)
 * over an in-memory transport: the ring's chunk schedule reduces every chunk over all K nodes,
 * the PS server's sync barrier and update timing, and the worker's forward/backward/gradient
 * timeline, all against hand-worked numbers. The ns-3 applications and the linux backend carry
 * these same classes (their suites check them over real TCP).
 */

#include "ns3/distributed-training-compat.h"
#include "ns3/distributed-training-module.h"
#include "ns3/test.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// A synthetic profile: per layer its bytes, forward, backward and update time (us).
std::shared_ptr<const TrainingProfile>
MakeProfile(const std::vector<TrainingProfile::Layer>& layers)
{
    auto p = std::make_shared<TrainingProfile>();
    p->SetModel("synthetic");
    p->SetBatchSize(32);
    p->SetProvenance(R"({"device":"none","framework":"none","method":"test","derived":true})");
    for (const auto& l : layers)
    {
        p->AddLayer(l);
    }
    return p;
}

/// ProtocolTransport in memory: a clock and an event queue; sends and records are kept.
class MemoryTransport : public ProtocolTransport
{
  public:
    /// A message handed to a connection.
    struct Sent
    {
        Time when;                //!< when
        uint32_t peer;            //!< to whom
        TensorChunkHeader header; //!< what
        uint64_t bytes;           //!< tensor size (0: control)
    };

    Time Now() const override
    {
        return m_now;
    }

    void Schedule(const Time& delay, std::function<void()> fn) override
    {
        m_events.emplace(std::make_pair(m_now + delay, m_seq++), std::move(fn));
    }

    TensorSink& GetPeer(uint32_t peer) override
    {
        auto it = m_peers.find(peer);
        if (it == m_peers.end())
        {
            it = m_peers.emplace(peer, Peer(*this, peer)).first;
        }
        return it->second;
    }

    void TransferCompleted(const TrainingResult::TransferRecord& record) override
    {
        transfers.push_back(record);
    }

    void Fail(const std::string& what) override
    {
        errors.push_back(what);
    }

    void StepCompleted(const TrainingResult::StepRecord& record) override
    {
        steps.push_back(record);
    }

    void UpdatesApplied(uint32_t worker, uint32_t step, Time when) override
    {
        applied.emplace_back(worker, step, when);
    }

    /** \param until run every event due up to this time, then set the clock to it */
    void RunUntil(Time until)
    {
        while (!m_events.empty() && m_events.begin()->first.first <= until)
        {
            auto it = m_events.begin();
            m_now = it->first.first;
            auto fn = std::move(it->second);
            m_events.erase(it);
            fn();
        }
        m_now = until;
    }

    /**
     * \param type a message type
     * \return the messages of that type sent so far
     */
    std::vector<Sent> Of(TensorChunkHeader::MessageType type) const
    {
        std::vector<Sent> out;
        for (const auto& s : sent)
        {
            if (s.header.GetType() == type)
            {
                out.push_back(s);
            }
        }
        return out;
    }

    std::vector<Sent> sent;                                    //!< every send
    std::vector<TrainingResult::TransferRecord> transfers;     //!< completed transfers
    std::vector<TrainingResult::StepRecord> steps;             //!< completed steps
    std::vector<std::tuple<uint32_t, uint32_t, Time>> applied; //!< UpdatesApplied calls
    std::vector<std::string> errors;                           //!< Fail calls

  private:
    /// A connection that records what is sent on it.
    class Peer : public TensorSink
    {
      public:
        /**
         * \param t the transport
         * \param peer the peer
         */
        Peer(MemoryTransport& t, uint32_t peer)
            : m_t(t),
              m_peer(peer)
        {
        }

        void SendControl(const TensorChunkHeader& header) override
        {
            m_t.sent.push_back({m_t.m_now, m_peer, header, 0});
        }

        void SendTensor(const TensorChunkHeader& header, uint64_t bytes) override
        {
            m_t.sent.push_back({m_t.m_now, m_peer, header, bytes});
        }

      private:
        MemoryTransport& m_t; //!< the transport
        uint32_t m_peer;      //!< the peer
    };

    std::map<uint32_t, Peer> m_peers;                                    //!< connections by peer
    Time m_now;                                                          //!< the clock
    uint64_t m_seq{0};                                                   //!< FIFO among equal times
    std::map<std::pair<Time, uint64_t>, std::function<void()>> m_events; //!< pending
};

/**
 * \param type message type
 * \param worker worker
 * \param step step
 * \param tensor layer
 * \param bytes whole tensor, sent as one chunk (0: control)
 * \return the header as it arrives
 */
TensorChunkHeader
Message(TensorChunkHeader::MessageType type,
        uint32_t worker,
        uint32_t step,
        int32_t tensor,
        uint64_t bytes)
{
    TensorChunkHeader h;
    h.SetType(type);
    h.SetWorker(worker);
    h.SetStep(step);
    h.SetTensor(tensor);
    h.SetLength(static_cast<uint32_t>(bytes));
    h.SetTensorBytes(bytes);
    return h;
}

/**
 * \ingroup distributed-training
 * The ring schedule (round r: node w sends chunk (w - r) mod K to w + 1): after the K - 1
 * reduce-scatter rounds each chunk is reduced over all K nodes at exactly one node, after the
 * K - 1 all-gather rounds every node holds every chunk reduced over all K; chunk sizes sum to M.
 *
 * Ring schedule: 2(K-1) rounds of chunk (w - r) mod K reduce every chunk over all K nodes at every
 * node (K = 2..7); chunk sizes sum to M.
 */
class RingScheduleTestCase : public TestCase
{
  public:
    RingScheduleTestCase()
        : TestCase("ring schedule, K = 2..7, reduces every chunk at every node")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t k = 2; k <= 7; ++k)
        {
            // have[w][c]: bit set of the nodes whose contribution node w's chunk c contains.
            std::vector<std::vector<uint32_t>> have(k, std::vector<uint32_t>(k));
            for (uint32_t w = 0; w < k; ++w)
            {
                for (uint32_t c = 0; c < k; ++c)
                {
                    have[w][c] = 1U << w;
                }
            }
            const uint32_t all = (1U << k) - 1;
            for (uint32_t r = 0; r < 2 * (k - 1); ++r)
            {
                auto before = have;
                for (uint32_t w = 0; w < k; ++w)
                {
                    uint32_t c = RingAllReduceProtocol::ChunkOfRound(w, k, r);
                    uint32_t& to = have[(w + 1) % k][c];
                    // reduce-scatter adds the contribution; all-gather replaces the chunk
                    to = r < k - 1 ? (to | before[w][c]) : before[w][c];
                }
                if (r == k - 2)
                {
                    for (uint32_t c = 0; c < k; ++c)
                    {
                        uint32_t complete = 0;
                        for (uint32_t w = 0; w < k; ++w)
                        {
                            complete += have[w][c] == all ? 1 : 0;
                        }
                        NS_TEST_EXPECT_MSG_EQ(complete, 1, "K=" << k << " chunk " << c);
                    }
                }
            }
            for (uint32_t w = 0; w < k; ++w)
            {
                for (uint32_t c = 0; c < k; ++c)
                {
                    NS_TEST_EXPECT_MSG_EQ(have[w][c], all, "K=" << k << " node " << w);
                }
            }
            uint64_t sum = 0;
            for (uint32_t c = 0; c < k; ++c)
            {
                sum += RingAllReduceProtocol::ChunkBytes(1000003, k, c);
            }
            NS_TEST_EXPECT_MSG_EQ(sum, 1000003, "K=" << k);
            NS_TEST_EXPECT_MSG_EQ(RingAllReduceProtocol::ChunkBytes(1000003, k, 0),
                                  1000003 / k,
                                  "K=" << k);
        }
    }
};

/**
 * \ingroup distributed-training
 * PsServerProtocol, K = 2, two owned layers with updates of 10 and 20 us, overlap off: the
 * parameters go down in the configured order; a worker's updates run one after another once all
 * its gradients are in (done 30 us later); in sync mode no NOTICE before both workers' updates
 * are applied, then both, each stamped with its own time; in async mode at once.
 *
 * PS server: reverse order down; updates 10 + 20 us after the last gradient; sync NOTICEs wait for
 * both workers (30 and 130 us), async at once.
 */
class PsServerBarrierTestCase : public TestCase
{
  public:
    PsServerBarrierTestCase()
        : TestCase("PS server update times and sync and async NOTICEs by hand")
    {
    }

  private:
    void DoRun() override
    {
        auto profile = MakeProfile({{"a", "", 400, 1, 1, 10}, {"b", "", 800, 1, 1, 20}});
        for (bool sync : {true, false})
        {
            MemoryTransport t;
            const PsServerProtocol::Config config{0,
                                                  2,
                                                  sync,
                                                  false,
                                                  TrainingScenario::REVERSE_ORDER};
            PsServerProtocol server(t, profile, {0, 1}, config, nullptr);
            server.Receive(Message(TensorChunkHeader::PULL, 0, 0, -1, 0));
            auto params = t.Of(TensorChunkHeader::PARAMS);
            NS_TEST_ASSERT_MSG_EQ(params.size(), 2, "one tensor per owned layer");
            NS_TEST_EXPECT_MSG_EQ(params[0].header.GetTensor(), 1, "reverse: last layer first");
            NS_TEST_EXPECT_MSG_EQ(params[0].bytes, 800, "its size");
            NS_TEST_EXPECT_MSG_EQ(params[1].header.GetTensor(), 0, "then the first");
            for (uint32_t w : {0U, 1U})
            {
                t.RunUntil(MicroSeconds(100 * w));
                server.Receive(Message(TensorChunkHeader::GRADIENT, w, 0, 1, 800));
                server.Receive(Message(TensorChunkHeader::GRADIENT, w, 0, 0, 400));
                t.RunUntil(MicroSeconds(100 * w + 29));
                NS_TEST_EXPECT_MSG_EQ(t.applied.size(), w, "updates still running");
                t.RunUntil(MicroSeconds(100 * w + 30));
                NS_TEST_EXPECT_MSG_EQ(t.applied.size(), w + 1, "applied at +30 us");
                const std::size_t expected = sync ? 2 * w : w + 1; // sync: all at the barrier
                NS_TEST_EXPECT_MSG_EQ(t.Of(TensorChunkHeader::NOTICE).size(), expected, "barrier");
            }
            auto notices = t.Of(TensorChunkHeader::NOTICE);
            NS_TEST_ASSERT_MSG_EQ(notices.size(), 2, "one NOTICE per worker");
            for (const auto& n : notices)
            {
                NS_TEST_EXPECT_MSG_EQ(n.peer, n.header.GetWorker(), "to that worker");
                NS_TEST_EXPECT_MSG_EQ(n.header.GetTimestamp(),
                                      MicroSeconds(100 * n.header.GetWorker() + 30),
                                      "stamped with its own update end");
            }
            NS_TEST_EXPECT_MSG_EQ(t.transfers.size(), 4, "four gradients up");
            NS_TEST_EXPECT_MSG_EQ(server.GetGradientBytesReceived(), 2400, "bytes");
            server.Receive(Message(TensorChunkHeader::GRADIENT, 0, 1, 5, 8));
            NS_TEST_EXPECT_MSG_EQ(t.errors.size(), 1, "a layer the server does not own fails");
        }
    }
};

/**
 * \ingroup distributed-training
 * PsWorkerProtocol, overlap on, one GPU, two layers (forward 100 us, backward 200 us each, one
 * server): parameters of layer 0 at 0 us and layer 1 at 150 us: forward 0-100 and 150-250,
 * backward of layer 1 250-450 (its gradient goes up then), of layer 0 450-650; the step ends at
 * the NOTICE's time stamp (700 us) and the next PULL follows at once.
 *
 * PS worker, overlap: forward waits for each layer's parameters, gradients up at 450 and 650 us,
 * step [0, 700] us from the NOTICE, next PULL.
 */
class PsWorkerTimelineTestCase : public TestCase
{
  public:
    PsWorkerTimelineTestCase()
        : TestCase("PS worker timeline with overlap matches by hand")
    {
    }

  private:
    void DoRun() override
    {
        auto profile = MakeProfile({{"a", "", 400, 100, 200, 0}, {"b", "", 800, 100, 200, 0}});
        MemoryTransport t;
        WorkerConfig config{3, 2, true, false, Time(), {}, {}};
        config.timing = WorkerTiming::Make(1.0, 1, DataRate("300Gbps"), MicroSeconds(5));
        PsWorkerProtocol worker(t, profile, {0, 0}, 1, config, nullptr);
        worker.Connected(0);
        NS_TEST_ASSERT_MSG_EQ(t.sent.size(), 2, "HELLO, then the PULL of step 0");
        NS_TEST_EXPECT_MSG_EQ(t.sent[0].header.GetType(), TensorChunkHeader::HELLO, "HELLO");
        NS_TEST_EXPECT_MSG_EQ(t.sent[1].header.GetType(), TensorChunkHeader::PULL, "PULL");
        worker.Receive(Message(TensorChunkHeader::PARAMS, 3, 0, 0, 400));
        t.RunUntil(MicroSeconds(150));
        worker.Receive(Message(TensorChunkHeader::PARAMS, 3, 0, 1, 800));
        t.RunUntil(MicroSeconds(1000));
        auto grads = t.Of(TensorChunkHeader::GRADIENT);
        NS_TEST_ASSERT_MSG_EQ(grads.size(), 2, "two gradients");
        NS_TEST_EXPECT_MSG_EQ(grads[0].header.GetTensor(), 1, "last layer first");
        NS_TEST_EXPECT_MSG_EQ(grads[0].when, MicroSeconds(450), "after its backward");
        NS_TEST_EXPECT_MSG_EQ(grads[1].when, MicroSeconds(650), "after the whole backward");
        NS_TEST_EXPECT_MSG_EQ(grads[1].bytes, 400, "layer 0's size");
        TensorChunkHeader notice = Message(TensorChunkHeader::NOTICE, 3, 0, -1, 0);
        notice.SetTimestamp(MicroSeconds(700));
        worker.Receive(notice);
        NS_TEST_ASSERT_MSG_EQ(t.steps.size(), 1, "step 0 done");
        NS_TEST_EXPECT_MSG_EQ(t.steps[0].worker, 3, "worker");
        NS_TEST_EXPECT_MSG_EQ_TOL(t.steps[0].end, 700e-6, 1e-12, "ends at the NOTICE's time");
        NS_TEST_EXPECT_MSG_EQ(t.Of(TensorChunkHeader::PULL).size(), 2, "step 1 pulls");
        NS_TEST_EXPECT_MSG_EQ(worker.GetStepsCompleted(), 1, "count");
        NS_TEST_EXPECT_MSG_EQ(t.transfers.size(), 2, "two parameter tensors recorded");
    }
};

/**
 * \ingroup distributed-training
 * Protocol test suite.
 */
class TrainingProtocolTestSuite : public TestSuite
{
  public:
    TrainingProtocolTestSuite()
        : TestSuite("distributed-training-protocol", Type::UNIT)
    {
        AddTestCase(new RingScheduleTestCase, DT_TEST_QUICK);
        AddTestCase(new PsServerBarrierTestCase, DT_TEST_QUICK);
        AddTestCase(new PsWorkerTimelineTestCase, DT_TEST_QUICK);
    }
};

/// Static instance: registers the suite.
static TrainingProtocolTestSuite g_trainingProtocolTestSuite;

} // namespace

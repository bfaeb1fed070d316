/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * TcpLinuxCubic (model/host/tcp-linux-cubic.h) against hand-computed window trajectories: the cubic
 * curve W(t) = C (t - K)^3 + W_max after a loss, HyStart's exit points (ACK train, delay increase
 * with its 4..16 ms clamp, the low window), beta and fast convergence; and two real ns-3 TCP flows
 * with it over a shared bottleneck.
 *
 * The trajectory cases drive the congestion control as TcpSocketBase does (PktsAcked, then
 * IncreaseWindow, on every ACK) from a small ACK-clocked path: segments leave through one
 * bottleneck that serialises each in `s`, travel a fixed `R` (plus an extra delay per round of
 * the window, to emulate a growing queue) and are ACKed one by one; the sender keeps cwnd
 * segments in flight. Its timing is exact, so exits can be worked out by hand.
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/distributed-training-module.h"
#include "ns3/internet-module.h"
#include "ns3/test.h"

#include <cmath>

using namespace ns3;

namespace
{

/// The kernel's C: bic_scale x 10 / 1024 segments per s^3 at bic_scale 41.
constexpr double C = 410.0 / 1024.0;
/// Segment size of the hand-driven cases.
constexpr uint32_t SEG = 1000;

/// An ACK-clocked sender around one TcpLinuxCubic (see the file comment).
class AckClockedPath
{
  public:
    /**
     * \param cc the congestion control (Init() is called here)
     * \param cwnd initial window, segments
     * \param ssthresh initial ssthresh, segments
     * \param rtt propagation R
     * \param s serialisation time per segment at the bottleneck
     * \param extra added delay per round (generation) of the window
     */
    AckClockedPath(Ptr<TcpLinuxCubic> cc,
                   uint32_t cwnd,
                   uint32_t ssthresh,
                   Time rtt,
                   Time s,
                   Time extra = Time(0))
        : m_cc(cc),
          m_tcb(CreateObject<TcpSocketState>()),
          m_rtt(rtt),
          m_s(s),
          m_extra(extra)
    {
        m_tcb->m_segmentSize = SEG;
        m_tcb->m_cWnd = cwnd * SEG;
        m_tcb->m_ssThresh = ssthresh * SEG;
        m_cc->Init(m_tcb);
        Simulator::ScheduleNow(&AckClockedPath::Send, this, 0);
    }

    /// Multiplicative decrease now, as after fast recovery: ssthresh from CUBIC, cwnd = ssthresh.
    void Reduce()
    {
        m_tcb->m_ssThresh = m_cc->GetSsThresh(m_tcb, m_inFlight * SEG);
        m_tcb->m_cWnd = m_tcb->m_ssThresh.Get();
    }

    /// \return the window in segments
    uint32_t Cwnd() const
    {
        return m_tcb->GetCwndInSegments();
    }

    /// \return ssthresh in segments
    uint32_t SsThresh() const
    {
        return m_tcb->m_ssThresh.Get() / SEG;
    }

  private:
    /// Fill the window; new segments belong to round `gen`.
    void Send(uint32_t gen)
    {
        while (m_inFlight < Cwnd())
        {
            ++m_inFlight;
            m_tcb->m_highTxMark = m_tcb->m_highTxMark.Get() + SEG; // fires HighestSequence
            m_lastDeparture = std::max(Simulator::Now(), m_lastDeparture) + m_s;
            Time ack = m_lastDeparture + m_rtt + m_extra * gen;
            Simulator::Schedule(ack - Simulator::Now(),
                                &AckClockedPath::Ack,
                                this,
                                m_tcb->m_highTxMark.Get(),
                                gen);
        }
    }

    /// One ACK: what TcpSocketBase::ProcessAck does in the Open state.
    void Ack(SequenceNumber32 seq, uint32_t gen)
    {
        --m_inFlight;
        m_tcb->m_lastAckedSeq = seq;
        m_cc->PktsAcked(m_tcb, 1, Time(0));
        m_cc->IncreaseWindow(m_tcb, 1);
        Send(gen + 1);
    }

    Ptr<TcpLinuxCubic> m_cc;   //!< congestion control
    Ptr<TcpSocketState> m_tcb; //!< its socket state
    Time m_rtt;                //!< propagation
    Time m_s;                  //!< serialisation per segment
    Time m_extra;              //!< extra delay per round
    Time m_lastDeparture{0};   //!< bottleneck busy until
    uint32_t m_inFlight{0};    //!< segments in flight
};

/// HyStart exit as traced: window and test.
struct Exit
{
    uint32_t cwnd{0}; //!< window at the exit, segments
    uint32_t test{0}; //!< HYSTART_ACK_TRAIN or HYSTART_DELAY
};

/// HyStartExit trace sink.
void
OnExit(Exit* e, uint32_t cwnd, uint32_t test)
{
    *e = {cwnd, test};
}

/**
 * Run slow start from 10 segments on an ACK-clocked path until 2 s.
 * \param rtt propagation
 * \param s serialisation per segment
 * \param extra extra delay per round
 * \param detect HyStartDetect
 * \return the traced exit
 */
Exit
SlowStartExit(Time rtt, Time s, Time extra, uint32_t detect)
{
    Ptr<TcpLinuxCubic> cc = CreateObject<TcpLinuxCubic>();
    cc->SetAttribute("HyStartDetect", UintegerValue(detect));
    Exit e;
    cc->TraceConnectWithoutContext("HyStartExit", MakeBoundCallback(&OnExit, &e));
    AckClockedPath path(cc, 10, 1000000, rtt, s, extra);
    Simulator::Stop(Seconds(2));
    Simulator::Run();
    Simulator::Destroy();
    return e;
}

/**
 * \ingroup distributed-training
 * HyStart's two exits and their clamps, worked by hand.
 *
 * HyStart leaves slow start where Linux's ACK-train and delay tests say: train longer than
 * delay_min over 2, delay above delay_min + clamp(delay_min over 8, 4 ms, 16 ms) after 8 samples,
 * never below hystart_low_window = 16.
 */
class HystartExitTestCase : public TestCase
{
  public:
    HystartExitTestCase()
        : TestCase("HyStart leaves slow start where the Linux ACK-train and delay tests say")
    {
    }

  private:
    void DoRun() override
    {
        // ACK train. R = 10 ms, s = 100 us: the first segment's ACK comes at 10.1 ms, so
        // delay_min = 10100 us and the train threshold 5050 us. Rounds of 10, 20, 40, 80
        // segments return as ACK trains spaced 100 us (the link idles between rounds: 8 ms
        // < R); the 80-segment round starts at cwnd 80 and its ACK j is 100 j us after the
        // first: j = 51 is the first with 5100 > 5050, at cwnd 80 + 51 = 131. Each round's first
        // RTT sample saw no queue, so the delay test (default: both tests) never fires here.
        Exit train = SlowStartExit(MilliSeconds(10), MicroSeconds(100), Time(0), 3);
        NS_TEST_EXPECT_MSG_EQ(train.test, TcpLinuxCubic::HYSTART_ACK_TRAIN, "train: test");
        NS_TEST_EXPECT_MSG_EQ(train.cwnd, 131, "train: exit window");

        // Delay. R = 10 ms, s = 10 us, round g delayed 1.5 g ms more: delay_min = 10010 us,
        // threshold clamp(1251, 4000, 16000) = 4000 us. Round 2 (3 ms) stays below, round 3
        // (4.5 ms, starting at cwnd 80) exceeds it on its 9th sample (8 are collected first):
        // cwnd 80 + 8 = 88. Without the 4 ms floor round 1 (20 segments) would end it at 28.
        Exit delay = SlowStartExit(MilliSeconds(10), MicroSeconds(10), MicroSeconds(1500), 3);
        NS_TEST_EXPECT_MSG_EQ(delay.test, TcpLinuxCubic::HYSTART_DELAY, "delay: test");
        NS_TEST_EXPECT_MSG_EQ(delay.cwnd, 88, "delay: exit window (4 ms floor)");

        // The 16 ms ceiling: R = 200 ms, 5 ms more per round: delay_min / 8 = 25 ms is clamped
        // to 16 ms, so round 4 (20 ms, cwnd 160) ends slow start at 168, not round 6 (30 ms).
        Exit ceiling = SlowStartExit(MilliSeconds(200), MicroSeconds(10), MilliSeconds(5), 2);
        NS_TEST_EXPECT_MSG_EQ(ceiling.test, TcpLinuxCubic::HYSTART_DELAY, "ceiling: test");
        NS_TEST_EXPECT_MSG_EQ(ceiling.cwnd, 168, "ceiling: exit window (16 ms ceiling)");

        // Low window. R = 40 us, s = 10 us: delay_min = 50 us, threshold 25 us; ACKs return
        // 10 us apart, so the train is long enough from the 4th ACK on, but the test waits for
        // cwnd >= 16: the 7th ACK (cwnd 10 + 6).
        Exit low = SlowStartExit(MicroSeconds(40), MicroSeconds(10), Time(0), 1);
        NS_TEST_EXPECT_MSG_EQ(low.test, TcpLinuxCubic::HYSTART_ACK_TRAIN, "low: test");
        NS_TEST_EXPECT_MSG_EQ(low.cwnd, 16, "low: exit at hystart_low_window");
    }
};

/// Sample a path's window.
void
Probe(const AckClockedPath* path, std::vector<uint32_t>* out)
{
    out->push_back(path->Cwnd());
}

/**
 * A loss at W_max = 100 segments (cwnd 70 after it) in congestion avoidance, then the window
 * sampled at the given times after the first ACK of the new epoch.
 * \param rtt propagation
 * \param s serialisation per segment
 * \param friendliness TcpFriendliness
 * \param times sampling times after the epoch start, seconds
 * \return the window at each time, segments
 */
std::vector<uint32_t>
AfterLoss(Time rtt, Time s, bool friendliness, const std::vector<double>& times)
{
    Ptr<TcpLinuxCubic> cc = CreateObject<TcpLinuxCubic>();
    cc->SetAttribute("TcpFriendliness", BooleanValue(friendliness));
    // ssthresh = cwnd: congestion avoidance from the start, no HyStart.
    AckClockedPath path(cc, 100, 100, rtt, s);
    Simulator::Schedule(rtt / 2, &AckClockedPath::Reduce, &path);
    std::vector<uint32_t> cwnd;
    for (double t : times)
    {
        // The epoch starts with the first ACK, at R + s.
        Simulator::Schedule(rtt + s + Seconds(t), &Probe, &path, &cwnd);
    }
    Simulator::Stop(rtt + Seconds(times.back() + 0.01));
    Simulator::Run();
    Simulator::Destroy();
    return cwnd;
}

/**
 * \ingroup distributed-training
 * The cubic curve after a loss.
 *
 * After a loss at W_max = 100 the window follows W(t) = C (t - K)^3 + W_max, C = 0.4004,
 * K = cbrt(W_max (1 - 717 over 1024) over C) = 4.215 s, within 2.5 segments (100 ms RTT).
 */
class CubicCurveTestCase : public TestCase
{
  public:
    CubicCurveTestCase()
        : TestCase("after a loss at W_max = 100 the window follows the cubic curve, K = 4.215 s")
    {
    }

  private:
    void DoRun() override
    {
        // cwnd 100 -> ssthresh 100 x 717 / 1024 = 70 (integer, as the kernel). The kernel
        // evaluates the curve one minimum RTT ahead and cnt makes the window reach the target
        // within an RTT, so at RTT 100 ms the window at t is W(t) up to the curve's change over
        // a few jiffies (4 ms each at HZ 250).
        const double k = std::cbrt((100 - 70) / C);
        NS_TEST_EXPECT_MSG_EQ_TOL(k, 4.215, 0.001, "K");
        std::vector<double> times = {0.5, 1, 2, 3, 4, k, 5, 6, 7};
        std::vector<uint32_t> cwnd = AfterLoss(MilliSeconds(100), MicroSeconds(10), false, times);
        NS_TEST_ASSERT_MSG_EQ(cwnd.size(), times.size(), "samples");
        for (std::size_t i = 0; i < times.size(); ++i)
        {
            double w = 100 + C * std::pow(times[i] - k, 3);
            NS_TEST_EXPECT_MSG_EQ_TOL(double(cwnd[i]), w, 2.5, "t = " << times[i] << " s");
        }
    }
};

/**
 * \ingroup distributed-training
 * Beta and fast convergence.
 *
 * beta 717 over 1024 and fast convergence: a loss at 90 below W_max = 100 sets W_max = 90 x 1741
 * over 2048 = 76 (90 without), ssthresh 63, K = cbrt(13 over C).
 */
class FastConvergenceTestCase : public TestCase
{
  public:
    FastConvergenceTestCase()
        : TestCase("Cubic beta and fast convergence, loss at 90 below W_max = 100 sets W_max = 76")
    {
    }

  private:
    /// Epoch start trace sink.
    static void OnEpoch(uint32_t* out, uint32_t k, uint32_t, uint32_t)
    {
        *out = k;
    }

    void DoRun() override
    {
        for (bool fast : {true, false})
        {
            Ptr<TcpLinuxCubic> cc = CreateObject<TcpLinuxCubic>();
            cc->SetAttribute("FastConvergence", BooleanValue(fast));
            uint32_t k = 0;
            cc->TraceConnectWithoutContext("EpochStart", MakeBoundCallback(&OnEpoch, &k));
            Ptr<TcpSocketState> tcb = CreateObject<TcpSocketState>();
            tcb->m_segmentSize = SEG;
            cc->Init(tcb);
            tcb->m_cWnd = 100 * SEG;
            NS_TEST_EXPECT_MSG_EQ(cc->GetSsThresh(tcb, 0), 70 * SEG, "100 x 717 / 1024");
            NS_TEST_EXPECT_MSG_EQ(cc->GetLastMaxCwnd(), 100, "first loss: W_max = cwnd");
            tcb->m_cWnd = 90 * SEG;
            tcb->m_ssThresh = cc->GetSsThresh(tcb, 0);
            NS_TEST_EXPECT_MSG_EQ(tcb->m_ssThresh.Get(), 63 * SEG, "90 x 717 / 1024");
            // Parenthesised: ns-3.37's NS_TEST_EXPECT_MSG_EQ streams its limit unparenthesised.
            NS_TEST_EXPECT_MSG_EQ(cc->GetLastMaxCwnd(), (fast ? 76 : 90), "second loss: W_max");
            tcb->m_cWnd = tcb->m_ssThresh.Get();
            cc->IncreaseWindow(tcb, 1); // starts the epoch
            const double wmax = fast ? 76 : 90;
            NS_TEST_EXPECT_MSG_EQ_TOL(k / 1024.0,
                                      std::cbrt((wmax - 63) / C),
                                      0.002,
                                      "K in 1/1024 s");
            tcb->m_cWnd = 2 * SEG;
            NS_TEST_EXPECT_MSG_EQ(cc->GetSsThresh(tcb, 0), 2 * SEG, "ssthresh at least 2");
        }
        Simulator::Destroy();
    }
};

/// Sample a path's window and CUBIC's Reno estimate.
void
ProbeBoth(const AckClockedPath* path,
          Ptr<const TcpLinuxCubic> cc,
          std::vector<std::pair<uint32_t, uint32_t>>* out)
{
    out->emplace_back(path->Cwnd(), cc->GetRenoEstimate());
}

/**
 * As AfterLoss, but samples (cwnd, Reno estimate).
 * \param rtt propagation
 * \param friendliness TcpFriendliness
 * \param times sampling times after the epoch start, seconds
 * \return (window, Reno estimate) at each time, segments
 */
std::vector<std::pair<uint32_t, uint32_t>>
AfterLossWithEstimate(Time rtt, bool friendliness, const std::vector<double>& times)
{
    Ptr<TcpLinuxCubic> cc = CreateObject<TcpLinuxCubic>();
    cc->SetAttribute("TcpFriendliness", BooleanValue(friendliness));
    const Time s = MicroSeconds(1);
    AckClockedPath path(cc, 100, 100, rtt, s);
    Simulator::Schedule(rtt / 2, &AckClockedPath::Reduce, &path);
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (double t : times)
    {
        Simulator::Schedule(rtt + s + Seconds(t), &ProbeBoth, &path, cc, &out);
    }
    Simulator::Stop(rtt + Seconds(times.back() + 0.01));
    Simulator::Run();
    Simulator::Destroy();
    return out;
}

/**
 * \ingroup distributed-training
 * The TCP-friendly region at small RTT, including the kernel's batching of its updates.
 *
 * At 1 ms RTT the Reno estimate (8 over 15 segment per RTT) takes over from the cubic curve: cwnd
 * 73 at 30 ms, 73 x 1.25^4 = 178 at 45 ms, estimate 212..231 and cwnd above it at 300 ms (cubic
 * alone: 76); at 100 ms RTT it changes nothing.
 */
class FriendlyRegionTestCase : public TestCase
{
  public:
    FriendlyRegionTestCase()
        : TestCase("Cubic Reno-friendly region takes over at 1 ms RTT, not at 100 ms")
    {
    }

  private:
    void DoRun() override
    {
        // W_max = 100, cwnd 70 after the loss, R = 1 ms, s = 1 us (no queue: RTT 1.001 ms),
        // Hz 250 (4 ms jiffies). Worked through bictcp_update:
        // - first ACK: epoch start, Reno estimate 70; t = 1 jiffy (delay_min 1001 us, rounded
        //   up) = 4/1024 s, K = 4316/1024 s, target 100 - floor(410 x 4312^3 / 2^40) = 71:
        //   cnt = 70 / (71 - 70) = 70, kept for the whole first jiffy (the cubic part runs once
        //   per jiffy): about 3 ms at 70 ACKs per ms, cwnd 70 -> 73.
        // - 4 ms: target still 71 < 73, cnt = 7300; then cwnd = last_cwnd, so every call
        //   returns before the friendliness block until HZ / 32 = 7 jiffies have passed: the
        //   estimate stays at 71 while ack_cnt accumulates. At 30 ms: cwnd 73, estimate 71.
        // - 36 ms (8 jiffies on): ack_cnt is about 73 x 32 ACKs; one estimate segment per
        //   floor(73 x 15 / 8) = 136 ACKs: estimate 71 + 18 = 89, cnt = 73 / (89 - 73) = 4,
        //   kept for the rest of the jiffy (4 RTTs): cwnd x 1.25 per RTT, 73 x 1.25^4 = 178.
        // - afterwards cwnd leads the estimate; the estimate grows 8/15 segment per RTT
        //   (cwnd ACKs per RTT, one segment per 15 cwnd / 8 of them), applied in batches of up
        //   to 8 jiffies (32 ms = 17 segments): at 300 ms 70 + 8/15 x 300/1.001 = 230, minus
        //   up to 17: 212..231. The cubic curve alone gives W(0.3 s) = 100 - C (4.215 - 0.3)^3
        //   = 76.
        auto on = AfterLossWithEstimate(MilliSeconds(1), true, {0.03, 0.045, 0.3});
        NS_TEST_ASSERT_MSG_EQ(on.size(), 3, "samples");
        NS_TEST_EXPECT_MSG_EQ_TOL(double(on[0].first), 73, 1, "30 ms: cwnd after jiffy 1");
        NS_TEST_EXPECT_MSG_EQ_TOL(double(on[0].second), 71, 1, "30 ms: estimate not updated");
        NS_TEST_EXPECT_MSG_EQ_TOL(double(on[1].second), 89, 2, "45 ms: batched estimate");
        NS_TEST_EXPECT_MSG_EQ_TOL(double(on[1].first), 178, 8, "45 ms: one jiffy at cnt 4");
        NS_TEST_EXPECT_MSG_EQ_TOL(double(on[2].second), 221.5, 9.5, "300 ms: estimate");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(on[2].first, on[2].second, "300 ms: cwnd leads estimate");
        auto off = AfterLossWithEstimate(MilliSeconds(1), false, {0.3});
        const double cubic = 100 - C * std::pow(std::cbrt(30 / C) - 0.3, 3);
        NS_TEST_EXPECT_MSG_EQ_TOL(double(off[0].first), cubic, 4, "300 ms, cubic alone");
        NS_TEST_EXPECT_MSG_GT(on[2].first, 3 * off[0].first, "friendly region takes over");
        // At 100 ms RTT the estimate gains only 8/15 segment per 100 ms (75 at 1 s, 85 at 3 s)
        // while the cubic curve is at 87 and 101: the window is the cubic one either way.
        const std::vector<double> times = {0.5, 1, 2, 3};
        auto slowOn = AfterLossWithEstimate(MilliSeconds(100), true, times);
        auto slowOff = AfterLossWithEstimate(MilliSeconds(100), false, times);
        for (std::size_t i = 0; i < times.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(slowOn[i].first, slowOff[i].first, "t = " << times[i]);
            NS_TEST_EXPECT_MSG_LT(slowOn[i].second, slowOn[i].first, "estimate below cubic");
        }
    }
};

/// What the sinks of the two-flow case saw.
struct TwoFlowRx
{
    uint64_t size;                    //!< bytes per flow
    std::vector<uint64_t> got{0, 0};  //!< bytes received per flow
    std::vector<double> done{-1, -1}; //!< time (s) each flow had all its bytes
    uint64_t total{0};                //!< bytes received by both
    double bulkDone{-1};              //!< time (s) both together had 99 % of 2 S
};

/// PacketSink Rx: count bytes of flow i; note when it has all, and when both have 99 %.
void
OnRx(TwoFlowRx* rx, uint32_t i, Ptr<const Packet> p, const Address&)
{
    const double now = Simulator::Now().GetSeconds();
    rx->got[i] += p->GetSize();
    rx->total += p->GetSize();
    if (rx->done[i] < 0 && rx->got[i] >= rx->size)
    {
        rx->done[i] = now;
    }
    if (rx->bulkDone < 0 && rx->total >= 0.99 * 2 * rx->size)
    {
        rx->bulkDone = now;
    }
}

/**
 * \ingroup distributed-training
 * Two real ns-3 TCP flows with TcpLinuxCubic.
 *
 * Two TcpLinuxCubic flows of 4 MB through a 1 Gbps bottleneck both complete and deliver 99 % of
 * their 2 S bytes within 25 % of 2 S over C.
 */
class LinuxCubicFlowsTestCase : public TestCase
{
  public:
    LinuxCubicFlowsTestCase()
        : TestCase("two TcpLinuxCubic flows through 1 Gbps complete within 25 pct of 2S over C")
    {
    }

  private:
    void DoRun() override
    {
        TrainingScenario s;
        s.workers = 2;
        s.servers = 1;
        s.nicRate = DataRate("1Gbps");
        s.queueSize = "100p";
        s.tcpVariant = "TcpLinuxCubic";
        Ptr<TrainingClusterHelper> cluster = CreateObject<TrainingClusterHelper>();
        cluster->Configure(s);
        cluster->ConfigureTcp();
        cluster->Build();
        const uint64_t size = 4000000;
        TwoFlowRx rx{size};
        for (uint32_t i = 0; i < 2; ++i)
        {
            uint16_t port = 7000 + i;
            PacketSinkHelper sink("ns3::TcpSocketFactory",
                                  InetSocketAddress(Ipv4Address::GetAny(), port));
            ApplicationContainer s = sink.Install(cluster->GetServers().Get(0));
            s.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnRx, &rx, i));
            BulkSendHelper bulk("ns3::TcpSocketFactory",
                                InetSocketAddress(cluster->GetServerAddress(0), port));
            bulk.SetAttribute("MaxBytes", UintegerValue(size));
            bulk.Install(cluster->GetWorkers().Get(i)).Start(Seconds(0));
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        Simulator::Destroy();
        const double c = 1e9 / 8 * 1448 / 1500;
        for (uint32_t i = 0; i < 2; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(rx.got[i], size, "flow " << i << " bytes");
            NS_TEST_EXPECT_MSG_GT(rx.done[i], 0, "flow " << i << " completes");
        }
        NS_TEST_EXPECT_MSG_GT_OR_EQ(std::max(rx.done[0], rx.done[1]),
                                    2 * size / c,
                                    "no faster than the link");
        // The bulk, not the last segment: when a flow's final segment is dropped, no later
        // segment raises duplicate ACKs, and ns-3 (3.37-3.48) has no tail-loss probe (RFC 8985),
        // so that segment waits for the 200 ms RTO where Linux probes after about 2 RTT. Whether
        // the tail is hit depends on ns-3's loss recovery (it is in 3.44 and 3.48, not in 3.37),
        // not on the congestion control under test.
        NS_TEST_EXPECT_MSG_GT(rx.bulkDone, 0, "99 % of 2 S arrives");
        NS_TEST_EXPECT_MSG_LT(rx.bulkDone, 1.25 * 2 * size / c, "close to the link rate");
    }
};

/**
 * \ingroup distributed-training
 * The suite.
 */
class TcpLinuxCubicTestSuite : public TestSuite
{
  public:
    TcpLinuxCubicTestSuite()
        : TestSuite("distributed-training-tcp-linux-cubic", Type::UNIT)
    {
        AddTestCase(new HystartExitTestCase, DT_TEST_QUICK);
        AddTestCase(new CubicCurveTestCase, DT_TEST_QUICK);
        AddTestCase(new FastConvergenceTestCase, DT_TEST_QUICK);
        AddTestCase(new FriendlyRegionTestCase, DT_TEST_QUICK);
        AddTestCase(new LinuxCubicFlowsTestCase, DT_TEST_QUICK);
    }
};

TcpLinuxCubicTestSuite g_tcpLinuxCubicTestSuite; //!< the suite

} // namespace

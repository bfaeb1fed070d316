/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-linux-cubic.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpLinuxCubic");

NS_OBJECT_ENSURE_REGISTERED(TcpLinuxCubic);

namespace
{
/// The kernel's BICTCP_BETA_SCALE.
constexpr uint32_t BETA_SCALE = 1024;
/// The kernel's BICTCP_HZ: the cubic clock ticks 2^10 times a second.
constexpr uint32_t BICTCP_HZ = 10;

/**
 * Floor of the cube root of a 64-bit integer (the kernel's cubic_root, which approximates it by a
 * table and one Newton step within 0.2 %).
 * \param a the radicand
 * \return floor(cbrt(a))
 */
uint32_t
CubicRoot(uint64_t a)
{
    auto x = static_cast<uint64_t>(std::cbrt(static_cast<double>(a)));
    while (x > 0 && x * x * x > a)
    {
        --x;
    }
    while ((x + 1) * (x + 1) * (x + 1) <= a)
    {
        ++x;
    }
    return static_cast<uint32_t>(x);
}
} // namespace

TypeId
TcpLinuxCubic::AddHyStartAttributes(TypeId tid)
{
    // HyStart's switches and constants (tcp_cubic.c module parameters and #defines).
    return tid
        .AddAttribute("HyStart",
                      "Hybrid slow start (hystart)",
                      BooleanValue(true),
                      MakeBooleanAccessor(&TcpLinuxCubic::m_hystart),
                      MakeBooleanChecker())
        .AddAttribute("HyStartDetect",
                      "HyStart tests: 1 ACK train, 2 delay increase, 3 both (hystart_detect)",
                      UintegerValue(3),
                      MakeUintegerAccessor(&TcpLinuxCubic::m_hystartDetect),
                      MakeUintegerChecker<uint32_t>(0, 3))
        .AddAttribute("HyStartLowWindow",
                      "HyStart tests only from this window on, segments (hystart_low_window)",
                      UintegerValue(16),
                      MakeUintegerAccessor(&TcpLinuxCubic::m_hystartLowWindow),
                      MakeUintegerChecker<uint32_t>(2))
        .AddAttribute("HyStartAckDelta",
                      "ACKs closer than this form a train, microseconds "
                      "(hystart_ack_delta_us)",
                      UintegerValue(2000),
                      MakeUintegerAccessor(&TcpLinuxCubic::m_hystartAckDeltaUs),
                      MakeUintegerChecker<uint32_t>(1))
        .AddAttribute("HyStartMinSamples",
                      "RTT samples per round before the delay test (HYSTART_MIN_SAMPLES)",
                      UintegerValue(8),
                      MakeUintegerAccessor(&TcpLinuxCubic::m_hystartMinSamples),
                      MakeUintegerChecker<uint32_t>(1, 255))
        .AddAttribute("HyStartDelayMin",
                      "Lower clamp of the delay threshold, microseconds (HYSTART_DELAY_MIN)",
                      UintegerValue(4000),
                      MakeUintegerAccessor(&TcpLinuxCubic::m_hystartDelayMinUs),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("HyStartDelayMax",
                      "Upper clamp of the delay threshold, microseconds (HYSTART_DELAY_MAX)",
                      UintegerValue(16000),
                      MakeUintegerAccessor(&TcpLinuxCubic::m_hystartDelayMaxUs),
                      MakeUintegerChecker<uint32_t>());
}

TypeId
TcpLinuxCubic::GetTypeId()
{
    static TypeId tid
        = AddHyStartAttributes(
              TypeId("ns3::TcpLinuxCubic")
                  .SetParent<TcpCongestionOps>()
                  .SetGroupName("DistributedTraining")
                  .AddConstructor<TcpLinuxCubic>()
                  .AddAttribute("Beta",
                                "Multiplicative decrease x 1024 (tcp_cubic beta; 717 = 0.7)",
                                UintegerValue(717),
                                MakeUintegerAccessor(&TcpLinuxCubic::m_beta),
                                MakeUintegerChecker<uint32_t>(1, BETA_SCALE - 1))
                  .AddAttribute("BicScale",
                                "C x 1024 / 10 (tcp_cubic bic_scale; 41: C = 0.4)",
                                UintegerValue(41),
                                MakeUintegerAccessor(&TcpLinuxCubic::m_bicScale),
                                MakeUintegerChecker<uint32_t>(1, 1024))
                  .AddAttribute("FastConvergence",
                                "Lower W_max after a loss below the last W_max (fast_convergence)",
                                BooleanValue(true),
                                MakeBooleanAccessor(&TcpLinuxCubic::m_fastConvergence),
                                MakeBooleanChecker())
                  .AddAttribute("TcpFriendliness",
                                "Grow at least as fast as the Reno estimate (tcp_friendliness)",
                                BooleanValue(true),
                                MakeBooleanAccessor(&TcpLinuxCubic::m_tcpFriendliness),
                                MakeBooleanChecker()))
              .AddAttribute("InitialSsThresh",
                            "Initial ssthresh in segments, used only with HyStart off "
                            "(initial_ssthresh; 0: none)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&TcpLinuxCubic::m_initialSsThresh),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("Hz",
                            "Kernel timer frequency CONFIG_HZ: the cubic curve's clock ticks in "
                            "jiffies (Debian: 250)",
                            UintegerValue(250),
                            MakeUintegerAccessor(&TcpLinuxCubic::m_hz),
                            MakeUintegerChecker<uint32_t>(100, 1000))
              .AddTraceSource("HyStartExit",
                              "HyStart ended slow start: window (segments) and test",
                              MakeTraceSourceAccessor(&TcpLinuxCubic::m_hystartExit),
                              "ns3::TcpLinuxCubic::HystartExitCallback")
              .AddTraceSource("EpochStart",
                              "A cubic epoch started: K (1/1024 s), origin and cwnd (segments)",
                              MakeTraceSourceAccessor(&TcpLinuxCubic::m_epochTrace),
                              "ns3::TcpLinuxCubic::EpochStartCallback");
    return tid;
}

TcpLinuxCubic::TcpLinuxCubic()
    : TcpCongestionOps()
{
    NS_LOG_FUNCTION(this);
}

TcpLinuxCubic::TcpLinuxCubic(const TcpLinuxCubic& sock) = default;

TcpLinuxCubic::~TcpLinuxCubic()
{
    NS_LOG_FUNCTION(this);
}

std::string
TcpLinuxCubic::GetName() const
{
    return "TcpLinuxCubic";
}

uint32_t
TcpLinuxCubic::Jiffies() const
{
    // +1: the kernel marks "no epoch" by epoch_start == 0, so time 0 must not be tick 0.
    return static_cast<uint32_t>(Simulator::Now().GetMicroSeconds() * m_hz / 1000000) + 1;
}

uint32_t
TcpLinuxCubic::UsecsToJiffies(uint32_t us) const
{
    const uint64_t tick = 1000000 / m_hz;
    return static_cast<uint32_t>((us + tick - 1) / tick);
}

bool
TcpLinuxCubic::InSlowStart(Ptr<const TcpSocketState> tcb)
{
    return tcb->m_cWnd.Get() / tcb->m_segmentSize < tcb->m_ssThresh.Get() / tcb->m_segmentSize;
}

void
TcpLinuxCubic::Reset()
{
    // bictcp_reset: everything up to the HyStart round state.
    m_cnt = 0;
    m_lastMaxCwnd = 0;
    m_lastCwnd = 0;
    m_lastTime = 0;
    m_bicOriginPoint = 0;
    m_bicK = 0;
    m_delayMin = 0;
    m_epochStart = 0;
    m_ackCnt = 0;
    m_tcpCwnd = 0;
    m_sampleCnt = 0;
    m_found = false;
}

void
TcpLinuxCubic::HystartReset(Ptr<const TcpSocketState> tcb)
{
    // bictcp_hystart_reset: a round ends when everything sent so far is ACKed.
    m_roundStart = m_lastAck = static_cast<uint32_t>(Simulator::Now().GetMicroSeconds());
    m_endSeq = tcb->m_highTxMark;
    m_currRtt = ~0U;
    m_sampleCnt = 0;
}

void
TcpLinuxCubic::Init(Ptr<TcpSocketState> tcb)
{
    NS_LOG_FUNCTION(this << tcb);
    // cubictcp_init.
    Reset();
    m_cwndCnt = 0;
    m_sent.clear();
    m_sampledAck = tcb->m_lastAckedSeq;
    if (m_hystart)
    {
        HystartReset(tcb);
    }
    // ns-3 sets ssthresh from the socket's InitialSlowStartThreshold after Init() (at the SYN
    // exchange), so initial_ssthresh is applied on the first ACK instead (IncreaseWindow).
    m_initialSsThreshApplied = false;
    tcb->TraceConnectWithoutContext("HighestSequence",
                                    MakeCallback(&TcpLinuxCubic::OnHighTxMark, this));
}

void
TcpLinuxCubic::OnHighTxMark(SequenceNumber32 oldValue, SequenceNumber32 newValue)
{
    if (newValue > oldValue)
    {
        m_sent.emplace_back(newValue, Simulator::Now());
    }
}

int64_t
TcpLinuxCubic::TakeRttSample(Ptr<const TcpSocketState> tcb)
{
    const SequenceNumber32 ack = tcb->m_lastAckedSeq;
    if (ack <= m_sampledAck)
    {
        return -1; // a duplicate ACK, or the same ACK passed twice: no new data, no sample
    }
    m_sampledAck = ack;
    bool covered = false;
    Time sent;
    while (!m_sent.empty() && m_sent.front().first <= ack)
    {
        sent = m_sent.front().second;
        covered = true;
        m_sent.pop_front();
    }
    // Karn's rule: in Recovery and Loss the ACK may cover retransmitted segments.
    const auto state = tcb->m_congState.Get();
    if (!covered || (state != TcpSocketState::CA_OPEN && state != TcpSocketState::CA_DISORDER))
    {
        return -1;
    }
    return std::max<int64_t>(1, (Simulator::Now() - sent).GetMicroSeconds());
}

void
TcpLinuxCubic::PktsAcked(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked, const Time& rtt)
{
    NS_LOG_FUNCTION(this << tcb << segmentsAcked << rtt);
    // cubictcp_acked; the RTT sample is our own (see the class comment), not ns-3's `rtt`.
    m_lastAckTime = Simulator::Now();
    const int64_t sample = TakeRttSample(tcb);
    if (sample < 0)
    {
        return;
    }
    // Discard delay samples right after fast recovery (the first second of an epoch).
    if (m_epochStart != 0 && static_cast<int32_t>(Jiffies() - m_epochStart) < int32_t(m_hz))
    {
        return;
    }
    const auto delay = static_cast<uint32_t>(std::min<int64_t>(sample, UINT32_MAX));
    if (m_delayMin == 0 || m_delayMin > delay)
    {
        m_delayMin = delay;
    }
    if (!m_found && InSlowStart(tcb) && m_hystart)
    {
        HystartUpdate(tcb, delay);
    }
}

void
TcpLinuxCubic::HystartUpdate(Ptr<TcpSocketState> tcb, uint32_t delayUs)
{
    // hystart_update.
    if (tcb->m_lastAckedSeq > m_endSeq)
    {
        HystartReset(tcb);
    }
    const uint32_t cwnd = tcb->GetCwndInSegments();
    if (cwnd < m_hystartLowWindow)
    {
        return;
    }
    if (m_hystartDetect & HYSTART_ACK_TRAIN)
    {
        const auto now = static_cast<uint32_t>(Simulator::Now().GetMicroSeconds());
        if (static_cast<int32_t>(now - m_lastAck) <= static_cast<int32_t>(m_hystartAckDeltaUs))
        {
            m_lastAck = now;
            // hystart_ack_delay is 0 here (no GSO); without pacing the train may take half
            // the minimum RTT, since ACKs of a window sent at line rate return in a burst.
            uint32_t threshold = m_delayMin;
            if (!tcb->m_pacing)
            {
                threshold >>= 1;
            }
            if (static_cast<int32_t>(now - m_roundStart) > static_cast<int32_t>(threshold))
            {
                m_found = true;
                NS_LOG_DEBUG("HyStart ACK train: " << now - m_roundStart << " us > " << threshold
                                                   << " us at cwnd " << cwnd);
                tcb->m_ssThresh = cwnd * tcb->m_segmentSize;
                m_hystartExit(cwnd, HYSTART_ACK_TRAIN);
            }
        }
    }
    if (m_hystartDetect & HYSTART_DELAY)
    {
        m_currRtt = std::min(m_currRtt, delayUs);
        if (m_sampleCnt < m_hystartMinSamples)
        {
            ++m_sampleCnt;
        }
        else
        {
            const uint32_t thresh
                = std::clamp(m_delayMin >> 3, m_hystartDelayMinUs, m_hystartDelayMaxUs);
            if (m_currRtt > m_delayMin + thresh)
            {
                m_found = true;
                NS_LOG_DEBUG("HyStart delay: " << m_currRtt << " us > " << m_delayMin << " + "
                                               << thresh << " us at cwnd " << cwnd);
                tcb->m_ssThresh = cwnd * tcb->m_segmentSize;
                m_hystartExit(cwnd, HYSTART_DELAY);
            }
        }
    }
}

uint32_t
TcpLinuxCubic::SlowStart(Ptr<TcpSocketState> tcb, uint32_t acked) const
{
    // tcp_slow_start: grow by the segments ACKed, at most to ssthresh; return the rest.
    const uint32_t seg = tcb->m_segmentSize;
    const uint32_t cwnd = tcb->GetCwndInSegments();
    const uint32_t ssthresh = tcb->m_ssThresh.Get() / seg;
    const uint32_t grown = std::min(cwnd + acked, ssthresh);
    tcb->m_cWnd = grown * seg;
    return acked - (grown - cwnd);
}

void
TcpLinuxCubic::CongAvoidAi(Ptr<TcpSocketState> tcb, uint32_t acked)
{
    // tcp_cong_avoid_ai with w = cnt (never 0: Update() sets it first).
    const uint32_t w = std::max(m_cnt, 1U);
    uint32_t cwnd = tcb->GetCwndInSegments();
    if (m_cwndCnt >= w)
    {
        m_cwndCnt = 0;
        ++cwnd;
    }
    m_cwndCnt += acked;
    if (m_cwndCnt >= w)
    {
        const uint32_t delta = m_cwndCnt / w;
        m_cwndCnt -= delta * w;
        cwnd += delta;
    }
    tcb->m_cWnd = cwnd * tcb->m_segmentSize;
}

void
TcpLinuxCubic::IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked)
{
    NS_LOG_FUNCTION(this << tcb << segmentsAcked);
    if (!m_initialSsThreshApplied)
    {
        m_initialSsThreshApplied = true;
        if (!m_hystart && m_initialSsThresh > 0)
        {
            tcb->m_ssThresh = m_initialSsThresh * tcb->m_segmentSize;
        }
    }
    // cubictcp_cong_avoid (tcp_is_cwnd_limited is not available in ns-3.37: always true).
    uint32_t acked = segmentsAcked;
    if (InSlowStart(tcb))
    {
        acked = SlowStart(tcb, acked);
        if (acked == 0)
        {
            return;
        }
    }
    Update(tcb->GetCwndInSegments(), acked);
    CongAvoidAi(tcb, acked);
}

void
TcpLinuxCubic::Update(uint32_t cwnd, uint32_t acked)
{
    // bictcp_update.
    m_ackCnt += acked;
    const uint32_t now = Jiffies();
    if (m_lastCwnd == cwnd && static_cast<int32_t>(now - m_lastTime) <= int32_t(m_hz / 32))
    {
        return;
    }
    // The cubic function updates cnt at most once per jiffy; friendliness on every call.
    if (m_epochStart == 0 || now != m_lastTime)
    {
        m_lastCwnd = cwnd;
        m_lastTime = now;
        if (m_epochStart == 0)
        {
            m_epochStart = now;
            m_ackCnt = acked;
            m_tcpCwnd = cwnd;
            if (m_lastMaxCwnd <= cwnd)
            {
                m_bicK = 0;
                m_bicOriginPoint = cwnd;
            }
            else
            {
                // K = cbrt((W_max - cwnd) / C) in 1/1024 s: cube_factor = 2^40 / (bic_scale 10)
                const uint64_t cubeFactor = (1ULL << (10 + 3 * BICTCP_HZ)) / (m_bicScale * 10);
                m_bicK = CubicRoot(cubeFactor * (m_lastMaxCwnd - cwnd));
                m_bicOriginPoint = m_lastMaxCwnd;
            }
            m_epochTrace(m_bicK, m_bicOriginPoint, cwnd);
        }
        // t: jiffies since the epoch start plus the minimum RTT, in 1/1024 s.
        uint64_t t = static_cast<int32_t>(now - m_epochStart);
        t += UsecsToJiffies(m_delayMin);
        t = (t << BICTCP_HZ) / m_hz;
        const uint64_t offs = t < m_bicK ? m_bicK - t : t - m_bicK;
        // C (t - K)^3 with C = bic_scale x 10 / 2^10 and t in 2^-10 s.
        const auto delta = static_cast<uint32_t>(
            (static_cast<uint64_t>(m_bicScale * 10) * offs * offs * offs) >> (10 + 3 * BICTCP_HZ));
        const uint32_t target = t < m_bicK ? m_bicOriginPoint - delta : m_bicOriginPoint + delta;
        m_cnt = target > cwnd ? cwnd / (target - cwnd) : 100 * cwnd;
        // Before the first loss the bandwidth is unknown: grow at least 5 % per RTT.
        if (m_lastMaxCwnd == 0 && m_cnt > 20)
        {
            m_cnt = 20;
        }
    }
    ApplyFriendliness(cwnd);
    // At most one segment per 2 ACKed: 1.5x per RTT.
    m_cnt = std::max(m_cnt, 2U);
}

void
TcpLinuxCubic::ApplyFriendliness(uint32_t cwnd)
{
    if (!m_tcpFriendliness)
    {
        return;
    }
    // The Reno estimate grows by one segment per cwnd x beta_scale / 8 segments ACKed, i.e.
    // 3 (1 - beta) / (1 + beta) segments per RTT (AIMD with the same average rate as Reno).
    const uint32_t betaScale = 8 * (BETA_SCALE + m_beta) / 3 / (BETA_SCALE - m_beta);
    const uint32_t per = std::max<uint32_t>(1, (cwnd * betaScale) >> 3);
    while (m_ackCnt > per)
    {
        m_ackCnt -= per;
        ++m_tcpCwnd;
    }
    if (m_tcpCwnd > cwnd)
    {
        const uint32_t maxCnt = cwnd / (m_tcpCwnd - cwnd);
        m_cnt = std::min(m_cnt, maxCnt);
    }
}

uint32_t
TcpLinuxCubic::GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight)
{
    NS_LOG_FUNCTION(this << tcb << bytesInFlight);
    // cubictcp_recalc_ssthresh.
    const uint32_t cwnd = tcb->GetCwndInSegments();
    m_epochStart = 0;
    if (cwnd < m_lastMaxCwnd && m_fastConvergence)
    {
        // Fast convergence: release bandwidth to newer flows.
        m_lastMaxCwnd = cwnd * (BETA_SCALE + m_beta) / (2 * BETA_SCALE);
    }
    else
    {
        m_lastMaxCwnd = cwnd;
    }
    return std::max(cwnd * m_beta / BETA_SCALE, 2U) * tcb->m_segmentSize;
}

void
TcpLinuxCubic::CongestionStateSet(Ptr<TcpSocketState> tcb,
                                  const TcpSocketState::TcpCongState_t newState)
{
    NS_LOG_FUNCTION(this << tcb << newState);
    // cubictcp_state.
    if (newState == TcpSocketState::CA_LOSS)
    {
        Reset();
        HystartReset(tcb);
    }
}

void
TcpLinuxCubic::CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event)
{
    NS_LOG_FUNCTION(this << tcb << event);
    // cubictcp_cwnd_event: after idle, shift the epoch so that the curve does not jump.
    if (event != TcpSocketState::CA_EVENT_TX_START || m_epochStart == 0)
    {
        return;
    }
    const uint32_t now = Jiffies();
    const auto idle = static_cast<int32_t>((Simulator::Now() - m_lastAckTime).GetMicroSeconds()
                                           * m_hz / 1000000);
    if (idle > 0)
    {
        m_epochStart += idle;
        if (static_cast<int32_t>(m_epochStart - now) > 0)
        {
            m_epochStart = now;
        }
    }
}

Ptr<TcpCongestionOps>
TcpLinuxCubic::Fork()
{
    return CopyObject<TcpLinuxCubic>(this);
}

uint32_t
TcpLinuxCubic::GetDelayMinMicroSeconds() const
{
    return m_delayMin;
}

uint32_t
TcpLinuxCubic::GetLastMaxCwnd() const
{
    return m_lastMaxCwnd;
}

uint32_t
TcpLinuxCubic::GetRenoEstimate() const
{
    return m_tcpCwnd;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_LINUX_CUBIC_H
#define TCP_LINUX_CUBIC_H

#include "ns3/nstime.h"
#include "ns3/sequence-number.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <utility>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief CUBIC as the Linux 6.x kernel runs it (net/ipv4/tcp_cubic.c), for ns-3.37.
 *
 * ns-3.37's TcpCubic differs from the hosts it stands for where it decides how flows share a
 * link: it has no TCP-friendly (Reno-estimate) region, its HyStart ACK-train test compares the
 * train with the whole minimum RTT (Linux: half of it) and it feeds HyStart with ns-3's smoothed
 * RTT, which ns-3 measures in whole milliseconds once timestamps are on. This class follows the
 * kernel function by function (the kernel names are given at each method); integers and units
 * are the kernel's, so that window trajectories match it step for step:
 *
 * - cubictcp_cong_avoid: slow start (tcp_slow_start: the window grows by the segments ACKed,
 *   capped at ssthresh, the rest goes to congestion avoidance), then bictcp_update and
 *   tcp_cong_avoid_ai (one segment per `cnt` segments ACKed).
 * - bictcp_update: W(t) = C (t - K)^3 + W_max with C = BicScale x 10 / 1024 (0.4004 segments per
 *   s^3 at the default 41), t in 1/1024 s from the epoch start plus the minimum RTT, and
 *   K = cbrt((W_max - cwnd) / C); t is counted in jiffies (Hz), as the kernel does. The target
 *   is recomputed at most once per jiffy; cnt = cwnd / (target - cwnd), at most 20 while no loss
 *   has been seen, at least 2. TCP friendliness: a Reno estimate that grows by one segment per
 *   cwnd x 8 (1024 + beta) / 3 / (1024 - beta) / 8 segments ACKed (integer as in the kernel:
 *   15/8 cwnd at beta 717) caps cnt whenever it is above the cubic window.
 * - cubictcp_recalc_ssthresh: ssthresh = max(cwnd x beta / 1024, 2) with beta = 717; fast
 *   convergence lowers W_max to cwnd (1024 + beta) / 2048 when cwnd is below the last W_max.
 * - cubictcp_acked / hystart_update: the minimum RTT in microseconds from each ACK's RTT sample
 *   (discarded during the first second of an epoch); in slow start, from hystart_low_window (16)
 *   segments on, per round of one window: the ACK-train test (ACKs closer than
 *   hystart_ack_delta_us = 2 ms apart, the train longer than delay_min / 2, or delay_min with
 *   pacing) and the delay test (the round's minimum RTT after 8 samples above delay_min +
 *   clamp(delay_min / 8, 4 ms, 16 ms)); either sets ssthresh = cwnd.
 * - cubictcp_state: on a retransmission timeout (CA_LOSS) everything is reset.
 * - cubictcp_cwnd_event (CA_EVENT_TX_START): after an idle period the epoch start moves forward
 *   by the idle time, so that the curve does not jump. ns-3 does not tell the congestion control
 *   when the last segment was sent (the kernel's lsndtime); the time of the last ACK is used.
 * - cubictcp_init: HyStart round reset; initial_ssthresh (InitialSsThresh) applies only with
 *   HyStart off, as in the kernel.
 *
 * RTT samples: ns-3.37 passes PktsAcked() its smoothed RTT (and with the Timestamp option, ns-3's
 * default, measures it in whole milliseconds), while Linux feeds CUBIC the microsecond RTT of the
 * newest segment an ACK covers. This class therefore takes its own samples: it records when each
 * new highest sequence number is sent (the socket state's HighestSequence trace) and, on an ACK
 * that advances the cumulative ACK point in the Open or Disorder state, measures from the send
 * time of the newest segment it covers (Karn: none after a retransmission, as the kernel).
 *
 * Not modelled (documented in doc/reference/congestion.rst): tcp_is_cwnd_limited (ns-3.37 does not
 * expose whether the sender was limited by its window; the window grows on every ACK, as in ns-3's
 * own variants); hystart_ack_delay (the TSO/GRO cushion of up to 1 ms, zero without GSO, which ns-3
 * lacks and the linux backend turns off); the kernel's table-based cube root (here exact, the
 * kernel's is within 0.2 %); undo of spurious reductions (ns-3.37 has no undo).
 */
class TcpLinuxCubic : public TcpCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    TcpLinuxCubic();

    /**
     * \brief Copy constructor (used by Fork()).
     * \param sock the object to copy
     */
    TcpLinuxCubic(const TcpLinuxCubic& sock);

    ~TcpLinuxCubic() override;

    std::string GetName() const override;
    void Init(Ptr<TcpSocketState> tcb) override;
    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override;
    void IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked) override;
    void PktsAcked(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked, const Time& rtt) override;
    void CongestionStateSet(Ptr<TcpSocketState> tcb,
                            const TcpSocketState::TcpCongState_t newState) override;
    void CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event) override;
    Ptr<TcpCongestionOps> Fork() override;

    /**
     * \brief The minimum RTT CUBIC has seen (the kernel's delay_min).
     * \return the minimum RTT in microseconds (0: no sample yet)
     */
    uint32_t GetDelayMinMicroSeconds() const;

    /**
     * \brief W_max of the current epoch (the kernel's last_max_cwnd).
     * \return segments
     */
    uint32_t GetLastMaxCwnd() const;

    /**
     * \brief The Reno estimate of the TCP-friendly region (the kernel's tcp_cwnd).
     * \return segments
     */
    uint32_t GetRenoEstimate() const;

    /// HyStart exit tests (the kernel's HYSTART_ACK_TRAIN and HYSTART_DELAY bits).
    enum HystartDetect : uint32_t
    {
        HYSTART_ACK_TRAIN = 0x1, //!< ACK-train length test
        HYSTART_DELAY = 0x2,     //!< delay-increase test
    };

    /**
     * TracedCallback signature of the HyStart exit.
     * \param cwnd the window in segments at which slow start ends (the new ssthresh)
     * \param test HYSTART_ACK_TRAIN or HYSTART_DELAY
     */
    typedef void (*HystartExitCallback)(uint32_t cwnd, uint32_t test);

    /**
     * TracedCallback signature of an epoch start.
     * \param k the kernel's bic_K: time from the epoch start to W_max, in 1/1024 s
     * \param origin the kernel's bic_origin_point (W_max, or cwnd when above it), segments
     * \param cwnd the window at the epoch start, segments
     */
    typedef void (*EpochStartCallback)(uint32_t k, uint32_t origin, uint32_t cwnd);

  private:
    /**
     * \brief Add the HyStart attributes (part of GetTypeId).
     * \param tid the TypeId being built
     * \return tid
     */
    static TypeId AddHyStartAttributes(TypeId tid);

    /// Reset all state (the kernel's bictcp_reset).
    void Reset();
    /**
     * \brief Start a new HyStart round (the kernel's bictcp_hystart_reset).
     * \param tcb the socket state
     */
    void HystartReset(Ptr<const TcpSocketState> tcb);
    /**
     * \brief Update cnt, the segments ACKed per window increase (the kernel's bictcp_update).
     * \param cwnd window in segments
     * \param acked segments ACKed
     */
    void Update(uint32_t cwnd, uint32_t acked);
    /**
     * \brief Reno-estimate cap on cnt (the tcp_friendliness block of bictcp_update).
     * \param cwnd window in segments
     */
    void ApplyFriendliness(uint32_t cwnd);
    /**
     * \brief The HyStart exit tests for one RTT sample (the kernel's hystart_update).
     * \param tcb the socket state
     * \param delayUs the RTT sample in microseconds
     */
    void HystartUpdate(Ptr<TcpSocketState> tcb, uint32_t delayUs);
    /**
     * \brief Grow the window by segments ACKed in slow start (the kernel's tcp_slow_start).
     * \param tcb the socket state
     * \param acked segments ACKed
     * \return the segments left over for congestion avoidance
     */
    uint32_t SlowStart(Ptr<TcpSocketState> tcb, uint32_t acked) const;
    /**
     * \brief One segment per m_cnt segments ACKed (the kernel's tcp_cong_avoid_ai).
     * \param tcb the socket state
     * \param acked segments ACKed
     */
    void CongAvoidAi(Ptr<TcpSocketState> tcb, uint32_t acked);
    /**
     * \brief The kernel's tcp_in_slow_start: cwnd below ssthresh, in segments.
     * \param tcb the socket state
     * \return whether the window is in slow start
     */
    static bool InSlowStart(Ptr<const TcpSocketState> tcb);
    /**
     * \brief The jiffies clock (the kernel's tcp_jiffies32 at Hz ticks per second).
     * \return the current tick count, never 0 (0 marks "no epoch", as in the kernel)
     */
    uint32_t Jiffies() const;
    /**
     * \brief The kernel's usecs_to_jiffies (rounding up).
     * \param us microseconds
     * \return ticks
     */
    uint32_t UsecsToJiffies(uint32_t us) const;
    /**
     * \brief HighestSequence trace sink: note when each new highest sequence is sent.
     * \param oldValue previous highest sequence
     * \param newValue new highest sequence
     */
    void OnHighTxMark(SequenceNumber32 oldValue, SequenceNumber32 newValue);
    /**
     * \brief The RTT of the newest segment that the current ACK covers.
     * \param tcb the socket state
     * \return microseconds, or -1 when this ACK gives no sample
     */
    int64_t TakeRttSample(Ptr<const TcpSocketState> tcb);

    // Attributes (the kernel's module parameters).
    uint32_t m_beta{717};                //!< beta x 1024
    uint32_t m_bicScale{41};             //!< C x 1024 / 10
    bool m_fastConvergence{true};        //!< fast_convergence
    bool m_tcpFriendliness{true};        //!< tcp_friendliness
    bool m_hystart{true};                //!< hystart
    uint32_t m_hystartDetect{3};         //!< hystart_detect
    uint32_t m_hystartLowWindow{16};     //!< hystart_low_window, segments
    uint32_t m_hystartAckDeltaUs{2000};  //!< hystart_ack_delta_us
    uint32_t m_hystartMinSamples{8};     //!< HYSTART_MIN_SAMPLES
    uint32_t m_hystartDelayMinUs{4000};  //!< HYSTART_DELAY_MIN
    uint32_t m_hystartDelayMaxUs{16000}; //!< HYSTART_DELAY_MAX
    uint32_t m_initialSsThresh{0};       //!< initial_ssthresh, segments (0: none)
    uint32_t m_hz{250};                  //!< CONFIG_HZ of the modelled kernel

    // struct bictcp.
    uint32_t m_cnt{0};                    //!< segments ACKed per window increase
    uint32_t m_lastMaxCwnd{0};            //!< W_max, segments
    uint32_t m_lastCwnd{0};               //!< cwnd at the last update
    uint32_t m_lastTime{0};               //!< jiffies of the last update
    uint32_t m_bicOriginPoint{0};         //!< origin of the cubic curve, segments
    uint32_t m_bicK{0};                   //!< K in 1/1024 s
    uint32_t m_delayMin{0};               //!< minimum RTT, microseconds
    uint32_t m_epochStart{0};             //!< jiffies at the epoch start (0: none)
    uint32_t m_ackCnt{0};                 //!< segments ACKed in the epoch (Reno estimate)
    uint32_t m_tcpCwnd{0};                //!< Reno estimate, segments
    uint32_t m_sampleCnt{0};              //!< HyStart delay samples in this round
    bool m_found{false};                  //!< HyStart has ended slow start
    uint32_t m_roundStart{0};             //!< microseconds at the round start
    SequenceNumber32 m_endSeq{0};         //!< the round ends when this is ACKed
    uint32_t m_lastAck{0};                //!< microseconds of the last ACK of the train
    uint32_t m_currRtt{0};                //!< minimum RTT of the round, microseconds
    uint32_t m_cwndCnt{0};                //!< the kernel's snd_cwnd_cnt
    bool m_initialSsThreshApplied{false}; //!< InitialSsThresh has been applied

    // Own RTT samples (see the class comment).
    std::deque<std::pair<SequenceNumber32, Time>> m_sent; //!< (highest sequence, send time)
    SequenceNumber32 m_sampledAck{0};                     //!< ACK point of the last sample
    Time m_lastAckTime{0};                                //!< time of the last ACK

    TracedCallback<uint32_t, uint32_t> m_hystartExit;          //!< HyStart exit trace
    TracedCallback<uint32_t, uint32_t, uint32_t> m_epochTrace; //!< epoch start trace
};

} // namespace ns3

#endif /* TCP_LINUX_CUBIC_H */

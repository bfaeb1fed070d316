/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_SMALL_QUEUES_H
#define TCP_SMALL_QUEUES_H

#include "ns3/distributed-training-compat.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/sequence-number.h"
#include "ns3/socket-factory.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <deque>
#include <limits>

namespace ns3
{

class Node;
class Packet;
class Socket;

/**
 * \ingroup distributed-training
 * \brief ns-3 TCP with Linux's TCP small queues (TSQ; --tcpSmallQueues).
 *
 * A Linux sender keeps only a few of its segments below TCP, in the qdisc and the device
 * (net/ipv4/tcp_output.c, tcp_small_queue_check() from tcp_write_xmit()): while the socket's
 * bytes there exceed
 *
 *   limit = min(max(2 x skb truesize, pacing_rate >> sk_pacing_shift), tcp_limit_output_bytes)
 *
 * (no tcp_limit_output_bytes cap for a paced socket) the socket sends nothing more; the rest
 * waits in its write queue, and it resumes when one of its packets leaves the host (TX
 * completion, tcp_wfree() -> tcp_tsq_handler()). A host's queue therefore holds about
 * ratio x 1 ms of its link rate, or two segments per socket, however many sockets share it.
 * ns-3 has no such limit: every segment the window allows goes down to the NIC queue at once.
 *
 * This socket counts each data segment (payload + SkbOverhead, Linux's skb truesize) from the
 * moment it sends it (its "Tx" trace; the packet carries a tag naming the socket) until it
 * leaves the host's NIC (PhyTxEnd) or is dropped on the host (the device's MacTxDrop, the
 * traffic-control layer's TcDrop, the root queue disc's Drop), and makes AvailableWindow()
 * return 0 while that count is at least the limit, with the pacing rate worked out once per
 * ACK as Linux's tcp_update_pacing_rate(): ratio x max(cwnd, unacknowledged) / srtt (ratio
 * 200 % while cwnd < ssthresh / 2, else 120 %), capped by the socket's MaxPacingRate when
 * pacing is on.
 * srtt is this socket's own (microseconds, from the handshake and from segments never
 * retransmitted, Linux's rules): ns-3's estimate counts whole milliseconds when timestamps are
 * on. As Linux, it never throttles a socket with at most one segment unacknowledged, and its
 * cwnd does not grow while TSQ rather than the window holds it back (tcp_is_cwnd_limited();
 * ns-3.37 grows cwnd on every ACK: ValidateCwnd()). Retransmissions in ns-3's SendPendingData()
 * obey the same limit; the first fast retransmission and the RTO's go out unconditionally, as
 * tcp_retransmit_skb() does (Linux doubles the limit for its other recovery retransmissions;
 * not modelled), and a drop in the host's own queue is a loss to ns-3's TCP (Linux's qdisc
 * returns it: NET_XMIT_DROP; not modelled).
 *
 * Linux sends in skbs of several segments (TCP always builds GSO skbs; a device without GSO
 * or TSO splits them as they leave the qdisc, tbf as it enqueues them), sized by
 * tcp_tso_autosize() (tcp_output.c): (pacing_rate >> sk_pacing_shift) + (gso_max_size >>
 * (min_rtt_us >> tcp_tso_rtt_log)) bytes, at most gso_max_size, at least tcp_min_tso_segs
 * segments. Below 512 us of minimum RTT (tcp_tso_rtt_log 9) that is gso_max_size, 64 KiB:
 * a datacenter socket's skbs are 45 segments, its limit's floor (2 x skb truesize) about 90,
 * and a host's NIC serves its sockets in turns of an skb, not packet by packet (measured:
 * doc/reference/backend-linux.rst, "Why a shared NIC is not processor sharing"). This socket sends
 * an skb as Linux's tcp_write_xmit() does: when its local bytes are below the limit, a whole skb
 * (as much of it as the window allows) goes out in one burst. GsoMaxSize 0 models one-segment skbs
 * (the model before GSO sizing). Not modelled: tcp_tso_should_defer() (Linux delays a cwnd-limited
 * send until a third of cwnd can go at once).
 *
 * Accepted sockets are TcpSmallQueuesSocket too (Fork()). Create sockets with CreateSocket()
 * (the way TcpL4Protocol::CreateSocket() makes a TcpSocketBase, which it hard-codes); it also
 * connects the node's NICs' completion and drop traces. Counted hosts: point-to-point-like
 * devices with PhyTxEnd (a device without it would never complete a packet).
 *
 * Measured against the linux backend (doc/reference/backend-linux.rst, "TCP small queues").
 */
class TcpSmallQueuesSocket : public TcpSocketBase
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
#if DT_OVERRIDES_INSTANCE_TYPE_ID
    TypeId GetInstanceTypeId() const override;
#endif

    TcpSmallQueuesSocket();
    /**
     * \brief Copy (Fork): a new socket with the same attributes and nothing queued locally.
     * \param sock the socket copied
     */
    TcpSmallQueuesSocket(const TcpSmallQueuesSocket& sock);
    ~TcpSmallQueuesSocket() override;

    /**
     * \brief A TCP socket with small queues on \p node, made as TcpL4Protocol::CreateSocket()
     * makes its sockets (the node's RttEstimatorType, SocketType and RecoveryType), and the
     * node's NICs watched for its packets leaving.
     * \param node a node with an internet stack
     * \return the socket
     */
    static Ptr<Socket> CreateSocket(Ptr<Node> node);
    /**
     * \param node a node with an internet stack
     * \param smallQueues whether the socket has TCP small queues
     * \param sendBuffer its SndBufSize (0: the TcpSocket default)
     * \param receiveBuffer its RcvBufSize (0: the TcpSocket default)
     * \return CreateSocket(node) if smallQueues, else ns-3's TCP socket (TcpSocketFactory)
     */
    static Ptr<Socket> CreateTcpSocket(Ptr<Node> node,
                                       bool smallQueues,
                                       uint32_t sendBuffer = 0,
                                       uint32_t receiveBuffer = 0);

    /// \return payload bytes of this socket's segments still on its host (queue disc, NIC)
    uint32_t GetLocalBytes() const;
    /// \return the TSQ limit in bytes now (the formula above)
    uint32_t GetLimitBytes() const;
    /// \return segments per skb now (tcp_tso_autosize(); 1 with GsoMaxSize 0)
    uint32_t GetSkbSegments() const;
    /// \return the socket's minimum RTT sample (0 before its first)
    Time GetMinRtt() const;
    /// \return how many times the socket became throttled
    uint64_t GetThrottleCount() const;
    /// \return the socket's own smoothed RTT (0 before its first sample)
    Time GetSmoothedRtt() const;
    /// \return the pacing rate of the limit in bytes per second (the formula above), as
    /// worked out at the first call after the last ACK
    double GetPacingRate() const;

    /**
     * \brief One of this socket's packets left its host or was dropped there (TX completion).
     * \param bytes the payload bytes counted for it
     */
    void NotifyLeft(uint32_t bytes);

    /**
     * TracedCallback signature of Throttled.
     * \param [in] localBytes bytes queued locally
     * \param [in] limit the limit they reached
     */
    typedef void (*ThrottleTracedCallback)(uint32_t localBytes, uint32_t limit);

  protected:
    uint32_t AvailableWindow() const override;
    Ptr<TcpSocketBase> Fork() override;
    void DoDispose() override;

  private:
    /// A first transmission not yet acknowledged, for the RTT samples.
    struct Sent
    {
        SequenceNumber32 start; //!< first byte
        SequenceNumber32 end;   //!< one past the last byte
        Time at;                //!< when it was sent
        bool retransmitted;     //!< sent again since (Karn: no sample)
    };

    /// \return the TcpSmallQueuesSocket a trace names, or nullptr
    static TcpSmallQueuesSocket* Sender(Ptr<const TcpSocketBase> socket);
    /// "Tx" sink of every TcpSmallQueuesSocket (the sender is the third argument, so that the
    /// connection a forked socket copies from its listener stays right).
    static void OnTx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase> socket);
    /// "Rx" sink, likewise.
    static void OnRx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase> socket);
    /// Connect OnTx and OnRx once, and enter the socket in the registry the tags name.
    void Register();
    /// Tag and count a data segment; record it for the RTT.
    void CountSent(Ptr<const Packet> p, const TcpHeader& h);
    /// Record a segment's transmission (or mark a retransmitted range).
    void RecordSent(SequenceNumber32 seq, uint32_t bytes);
    /// Take an RTT sample from an ACK (Linux: the oldest newly acknowledged segment).
    void SampleRtt(const TcpHeader& h);
    /// srtt = 7/8 srtt + 1/8 sample (tcp_rtt_estimator); the first sample sets it.
    void UpdateRtt(Time sample);
    /// \return the pacing rate from the socket's state now (tcp_update_pacing_rate())
    double ComputePacingRate() const;
    /// Hold cwnd where Linux's validated window would be (see the .cc).
    void ValidateCwnd() const;
    /// \param skbSegments segments per skb now (GetSkbSegments())
    /// \return the TSQ limit in bytes for skbs of that size
    uint32_t LimitFor(uint32_t skbSegments) const;
    /// Let \p bytes go out in this event as one skb (the check passed for it).
    void StartSkb(uint32_t bytes) const;
    /// The event that started an skb is over.
    void EndSkb() const;
    /// Resume sending after a TX completion (tcp_tsq_handler).
    void Wake();

    // Attributes: set from their defaults (GetTypeId, the one place they are written) when
    // CreateObject constructs the socket, or copied by Fork.
    uint32_t m_pacingShift{0};      //!< sk_pacing_shift (10: about 1 ms of the pacing rate)
    uint32_t m_minSkbs{0};          //!< the "2 x truesize" term, in skbs
    uint32_t m_gsoMaxSize{0};       //!< sk_gso_max_size (0: one segment per skb)
    uint32_t m_tsoRttLog{0};        //!< tcp_tso_rtt_log
    uint32_t m_minTsoSegs{0};       //!< tcp_min_tso_segs
    uint32_t m_skbOverhead{0};      //!< truesize - payload of a segment
    uint32_t m_limitOutputBytes{0}; //!< tcp_limit_output_bytes
    uint32_t m_ssRatio{0};          //!< tcp_pacing_ss_ratio, percent
    uint32_t m_caRatio{0};          //!< tcp_pacing_ca_ratio, percent

    uint64_t m_id;                         //!< the registry key the packet tags carry
    TracedValue<uint32_t> m_localBytes{0}; //!< bytes queued locally
    mutable bool m_throttled{false};       //!< TSQ_THROTTLED
    mutable double m_pacingRate{0};        //!< sk_pacing_rate, bytes per second
    mutable bool m_rateStale{true};        //!< an ACK arrived since m_pacingRate was worked out
    mutable uint64_t m_throttles{0};       //!< times throttled
    /// cwnd Linux would have: ns-3's the last time it limited the flow, lowered by reductions
    mutable uint32_t m_validCwnd{std::numeric_limits<uint32_t>::max()};
    TracedCallback<uint32_t, uint32_t> m_throttleTrace; //!< Throttled
    EventId m_wakeEvent;                                //!< pending Wake()
    mutable uint32_t m_skbLeft{0}; //!< bytes of the skb being sent that may still go now
    mutable EventId m_skbEnd;      //!< ends the skb after the event that started it

    std::deque<Sent> m_sent;     //!< first transmissions not yet acknowledged
    bool m_haveSent{false};      //!< whether m_highSent is set
    SequenceNumber32 m_highSent; //!< one past the highest byte sent
    bool m_synSent{false};       //!< a SYN (or SYN-ACK) was sent
    Time m_synSentAt;            //!< when the last one was sent
    bool m_synPending{false};    //!< a handshake sample is possible
    Time m_srtt;                 //!< smoothed RTT (0: no sample yet)
    Time m_minRtt;               //!< minimum RTT sample (0: no sample yet)
};

/**
 * \ingroup distributed-training
 * \brief A socket factory that makes TcpSmallQueuesSocket: aggregate it to a node (Install())
 * and name its TypeId where an application takes a socket factory ("Protocol" of BulkSend,
 * OnOff, PacketSink), so that any ns-3 application sends with TCP small queues.
 */
class TcpSmallQueuesSocketFactory : public SocketFactory
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    /**
     * \brief Aggregate a factory to \p node unless it has one already.
     * \param node a node with an internet stack
     */
    static void Install(Ptr<Node> node);
    /// \return TcpSmallQueuesSocket::CreateSocket() on the node this factory is aggregated to
    Ptr<Socket> CreateSocket() override;
};

} // namespace ns3

#endif /* TCP_SMALL_QUEUES_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_NETWORK_H
#define TRAINING_NETWORK_H

#include "ns3/training-scenario.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The network rules every backend uses, written once: TCP segment size and goodput, the
 * base round trip, the socket-buffer rule, buffer sizes in bytes, the intra-node (multi-GPU)
 * cost and the names of hosts and links.
 *
 * The packet level builds its cluster with these numbers (TrainingClusterHelper), the flow level
 * takes its link capacity and window model from them, the analytic models their service times;
 * so when a rule changes, every backend changes with it. All rules are functions of the
 * scenario only (plain, like the analytic model classes).
 */
class TrainingNetwork
{
  public:
    /// Largest window TCP can advertise: 16-bit field, window scale at most 14 (RFC 7323).
    static constexpr uint32_t MAX_ADVERTISED_WINDOW = 65535u << 14;
    /// Receive buffer minus send buffer: more than the rounding of the largest window scale
    /// (2^14 - 1 bytes), see GetReceiveBufferBytes().
    static constexpr uint32_t RECEIVE_BUFFER_MARGIN = 64 * 1024;

    /**
     * \param s the scenario
     * \return TCP payload bytes per segment: MTU - 40 (IPv4 + TCP) - 12 (timestamp option,
     *         which ns-3 and Linux send by default)
     */
    static uint32_t GetSegmentSize(const TrainingScenario& s);
    /**
     * \param mtu an MTU (bytes, at least 53)
     * \return GetSegmentSize() of a scenario with that MTU
     */
    static uint32_t GetSegmentSize(uint32_t mtu);

    /**
     * \param s the scenario
     * \return bytes of a point-to-point frame carrying one full segment: MTU + 2 (PPP header)
     */
    static uint32_t GetFrameBytes(const TrainingScenario& s);

    /**
     * \brief The rate a single TCP flow can reach on the wire: the NIC rate, or the per-flow cap
     * if lower.
     * \param s the scenario
     * \return bits per second
     */
    static double GetFlowRateBps(const TrainingScenario& s);

    /**
     * \brief Payload bytes per second a link carries when saturated by full segments: NIC rate x
     * segment / frame (1448/1502 at MTU 1500).
     * \param s the scenario
     * \return bytes per second
     */
    static double GetLinkGoodputBytesPerSecond(const TrainingScenario& s);

    /**
     * \brief Payload rate of a saturated Linux veth link shaped by tbf: the shaper counts the
     * IP packet plus the 14-byte Ethernet header (no preamble, no FCS), so rate x (MTU - 52) /
     * (MTU + 14) (the linux backend's links).
     * \param rateBps the shaped rate in bit/s
     * \param mtu the MTU in bytes
     * \return bytes per second
     */
    static double GetEthernetGoodputBytesPerSecond(double rateBps, uint32_t mtu);
    /**
     * \param mtu the MTU in bytes
     * \return bytes a Linux tbf shaper or fifo counts for one full-size packet: MTU + 14
     *         (Ethernet header, no preamble, no FCS)
     */
    static uint32_t GetEthernetFrameBytes(uint32_t mtu);

    /**
     * \brief Goodput of one saturated TCP flow: the link goodput, at most the per-flow cap
     * (ns-3 paces the segment payload, so a 10 Gb/s cap gives 10 Gb/s of goodput).
     * \param s the scenario
     * \return bytes per second
     */
    static double GetGoodputBytesPerSecond(const TrainingScenario& s);

    /**
     * \brief Round trip of the empty path host - switch - host: four link delays and four
     * serialisations of a full frame.
     * \param s the scenario
     * \return seconds
     */
    static double GetBaseRttSeconds(const TrainingScenario& s);

    /**
     * \brief Propagation round trip of the path host - switch - host: four link delays (the
     * analytic models' latency and the sharing study's BDP; GetBaseRttSeconds adds the frames).
     * \param s the scenario
     * \return seconds
     */
    static double GetPropagationRttSeconds(const TrainingScenario& s);

    /**
     * \brief The TCP send buffer of every training socket.
     *
     * Automatic (configured = 0): twice the bandwidth-delay product of the empty path, at least
     * 256 KiB: enough for one flow to fill the link (ns-3's 128 KiB default caps one flow at
     * about 16.6 Gb/s on a 25 G, 40 us path), small enough that a few flows converging on one
     * switch port do not overrun its queue at once. A ring (no servers) gets at least 1 MiB:
     * every NIC direction carries one data flow, and every NIC queue holds the host's outgoing
     * data ahead of the ACKs of its incoming flow; ns-3 has no TCP small queues, so those ACKs
     * wait behind up to a send buffer of data (at 256 KiB a 10 Gb/s ring ran 8-10 % below
     * goodput, at 1 MiB 2-6 %). Never more than the largest advertisable window less the
     * receive-buffer margin.
     * \param s the scenario
     * \param configured a send buffer chosen by the user (0: automatic)
     * \return bytes
     */
    static uint32_t GetSocketBufferBytes(const TrainingScenario& s, uint32_t configured = 0);

    // ---- Linux 6.x socket-buffer autotuning (--bufferAutotuning, LinuxBufferTuner) ----------

    /// net.ipv4.tcp_wmem of Linux 6.x: min, default, max (bytes of skb truesize).
    static constexpr uint32_t LINUX_WMEM[3] = {4096, 16384, 4194304};
    /// net.ipv4.tcp_rmem of Linux 6.x: min, default, max.
    static constexpr uint32_t LINUX_RMEM[3] = {4096, 131072, 6291456};

    /**
     * \brief Memory one full segment takes in a Linux socket buffer (tcp_sndbuf_expand's
     * per_mss): roundup_pow_of_two(mss + MAX_TCP_HEADER + skb_shared_info) + sk_buff, with the
     * x86-64 sizes 320, 320 and 256 bytes (one segment per skb: no GSO, as the linux backend).
     * \param mss payload bytes per segment
     * \return bytes (4352 at MSS 1448)
     */
    static uint32_t GetLinuxSegmentTruesize(uint32_t mss);

    /**
     * \brief Payload bytes a Linux send buffer holds after tcp_sndbuf_expand: sk_sndbuf =
     * min(2 x max(cwnd, TCP_INIT_CWND = 10) x per_mss, tcp_wmem max) holds that many segments.
     * \param cwndSegments the congestion window
     * \param mss payload bytes per segment
     * \param wmemMax tcp_wmem[2]
     * \return payload bytes
     */
    static uint32_t GetLinuxSendBufferBytes(uint32_t cwndSegments, uint32_t mss, uint32_t wmemMax);

    /**
     * \brief The receive window after one tcp_rcv_space_adjust (once per receiver RTT): when the
     * application read more than last time (copied > space), rcvwin = 2 copied + 16 MSS, plus
     * 2 rcvwin (copied - space) / space for a growing rate; the buffer (2 rcvwin: the window is
     * half of it, tcp_adv_win_scale = 1) is capped at tcp_rmem max.
     * \param copied bytes read in the last receiver RTT
     * \param space bytes read in the RTT before (rcvq_space.space; at least 10 MSS at start)
     * \param mss payload bytes per segment
     * \param rmemMax tcp_rmem[2]
     * \return the new window in bytes (0: copied <= space, no change)
     */
    static uint64_t GetLinuxReceiveWindowBytes(uint64_t copied,
                                               uint64_t space,
                                               uint32_t mss,
                                               uint32_t rmemMax);

    /**
     * \brief The window autotuned Linux buffers allow one flow at most: the send buffer's
     * payload at tcp_wmem max, and half of tcp_rmem max (1,394,424 bytes at MSS 1448).
     * \param mss payload bytes per segment
     * \return bytes
     */
    static uint32_t GetLinuxWindowLimitBytes(uint32_t mss);

    /**
     * \brief Receive buffer = send buffer + RECEIVE_BUFFER_MARGIN, so that the advertised window
     * (rounded down by window scaling) always covers the peer's whole send buffer: with equal
     * buffers ns-3.37 crashes in loss recovery (TcpTxBuffer::NextSeg hands out a 0-byte
     * segment).
     * \param s the scenario
     * \param configured a send buffer chosen by the user (0: automatic)
     * \return bytes
     */
    static uint32_t GetReceiveBufferBytes(const TrainingScenario& s, uint32_t configured = 0);

    /**
     * \param s the scenario
     * \param host true: a host's NIC buffer (--hostQueue, else --queue); false: a switch port's
     * \return the buffer in bytes (packets count as full frames)
     */
    static double GetBufferBytes(const TrainingScenario& s, bool host);

    /**
     * \brief Time to reduce (or, the same, to broadcast) B bytes among the G GPUs of a node.
     *
     * 000_466ded720105ddf3.txt Sec. 4.4: a multi-GPU node first AllReduces its gradients
     * inside the node, one GPU exchanges them with the servers or the other nodes, and the GPU
     * that received the new model broadcasts it inside the node. Both halves run as the ring
     * algorithm of 003_82798835b3fcdcb0.txt Sec. 3 over the intra-node interconnect (NCCL
     * does): reduce-scatter then gather, each GPU sending (G-1)/G x B bytes in G-1 steps of
     * one per-operation latency. So reduce = broadcast = (G-1)/G x B / intraBandwidth
     * + (G-1) x intraLatency, and a whole intra-node AllReduce costs twice that:
     * 2(G-1)/G x B / intraBandwidth + 2(G-1) x intraLatency. Zero for G = 1.
     * \param s the scenario (gpusPerNode, intraBandwidth, intraLatency)
     * \param bytes the tensor or bucket size
     * \return seconds
     */
    static double GetIntraNodeHalfSeconds(const TrainingScenario& s, double bytes);

    /**
     * \brief The same rule from its parts (for applications, which hold no scenario).
     * \param gpus G
     * \param bytesPerSecond intra-node interconnect rate
     * \param latency intra-node per-operation latency in seconds
     * \param bytes the tensor or bucket size
     * \return (G-1)/G x bytes / bytesPerSecond + (G-1) x latency; 0 for G <= 1
     */
    static double GetIntraNodeHalfSeconds(uint32_t gpus,
                                          double bytesPerSecond,
                                          double latency,
                                          double bytes);

    /**
     * \param host a host name
     * \param toSwitch direction
     * \return "<host>->switch" or "switch-><host>", as every backend names its links
     */
    static std::string GetLinkName(const std::string& host, bool toSwitch);
};

} // namespace ns3

#endif /* TRAINING_NETWORK_H */

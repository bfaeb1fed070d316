/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CONGESTION_MONITOR_H
#define CONGESTION_MONITOR_H

#include "ns3/application-container.h"
#include "ns3/ipv4-header.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/queue-item.h"
#include "ns3/sequence-number.h"
#include "ns3/socket.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-socket-state.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

class TcpSocketBase;

/**
 * \ingroup distributed-training
 * \brief Counts congestion events of one simulation from ns-3's own trace sources: packets
 * dropped by device queues and by queue discs, ECN marks of queue discs, retransmitted TCP
 * segments, retransmission timeouts and fast recoveries.
 *
 * What is traced (ns-3.37):
 *  - device drops (the device's DropTail buffer is full): ns-3.37 stops a device's transmit
 *    queue when it fills up (flow control through NetDeviceQueueInterface), and without a
 *    queue disc the TrafficControlLayer then drops the packet and fires its "TcDrop" trace, so
 *    the Queue<Packet> itself never overflows. The port is the output interface that IPv4
 *    reported just before ("SendOutgoing" or "UnicastForward", same call chain). The device
 *    queue's own "Drop" trace is counted too (it fires if a packet gets past a stopped queue);
 *  - queue disc drops and marks: the "Drop" and "Mark" traces of the device's root queue disc
 *    (a child disc's drops, e.g. FqCoDel's per-flow CoDel, reach the root's "Drop");
 *  - retransmitted segments: TcpSocketBase "Tx" fires in SendDataPacket before the socket's
 *    highest transmitted sequence number is advanced, so a segment with payload that does not
 *    start at the highest sequence number sent so far is a retransmission (ns-3.37 has no
 *    "Retransmission" trace; this is its own test, TcpTxItem::IsRetrans, seen from outside);
 *  - RTO expiries: TcpSocketBase::ReTxTimeout doubles the RTO (capped at 60 s) on every
 *    expiry with data outstanding, before it enters CA_LOSS, so a change of the "RTO" traced
 *    value to exactly twice its old value (or to the 60 s cap) is one expiry; back-to-back
 *    expiries of one loss episode count each (CongState would report one transition only);
 *  - fast recoveries: transitions of "CongState" into CA_RECOVERY (three duplicate ACKs or
 *    SACK loss detection); DCTCP's ECN reaction is CA_CWR, not counted here.
 *
 * Sockets are traced when the module's applications report them ("SocketOpened"), see
 * InstallApplications().
 */
class CongestionMonitor : public Object
{
  public:
    /// What was counted (totals, or one port's queue events).
    struct Counters
    {
        uint64_t deviceDrops{0};           //!< packets dropped by device queues
        uint64_t queueDiscDrops{0};        //!< packets dropped by queue discs
        uint64_t ecnMarks{0};              //!< packets CE-marked by queue discs
        uint64_t retransmittedSegments{0}; //!< TCP segments sent again
        uint64_t retransmittedBytes{0};    //!< their payload bytes
        uint64_t rtoTimeouts{0};           //!< retransmission timer expiries
        uint64_t fastRecoveries{0};        //!< entries into fast recovery
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    CongestionMonitor();
    ~CongestionMonitor() override;

    /**
     * \brief Count the drops of a device's queue and the drops and marks of its root queue disc
     * (if one is installed now: call after the traffic-control configuration).
     * \param device the device
     * \param port its name in per-port counts, e.g. "switch->server0"
     */
    void InstallDevice(Ptr<NetDevice> device, const std::string& port);

    /**
     * \brief Count the retransmissions, RTO expiries and fast recoveries of a TCP socket
     * (other sockets are ignored).
     * \param socket the socket
     */
    void InstallSocket(Ptr<Socket> socket);

    /**
     * \brief Trace every TCP socket the applications open, through their "SocketOpened" trace
     * source (applications without one are skipped).
     * \param apps the applications, before the simulation runs
     */
    void InstallApplications(const ApplicationContainer& apps);

    /** \return every event counted so far */
    Counters GetTotals() const;

    /**
     * \param port a name given to InstallDevice()
     * \return the queue events of that port (zero if unknown)
     */
    Counters GetPort(const std::string& port) const;

    /** \return the port names given to InstallDevice(), in order */
    std::vector<std::string> GetPorts() const;

    /// TracedCallback signature of "Retransmission".
    typedef void (*RetransmissionTracedCallback)(Ptr<const Packet> packet, const TcpHeader& header);

  private:
    /**
     * \param port the port
     * \param packet the dropped packet
     */
    void OnDeviceDrop(std::string port, Ptr<const Packet> packet);
    /**
     * \param node node id
     * \param header IPv4 header
     * \param packet the packet
     * \param interface its output interface
     */
    void OnIpSend(uint32_t node,
                  const Ipv4Header& header,
                  Ptr<const Packet> packet,
                  uint32_t interface);
    /**
     * \param node node id
     * \param packet the packet the traffic-control layer dropped (device queue stopped)
     */
    void OnTcDrop(uint32_t node, Ptr<const Packet> packet);
    /**
     * \param port the port
     * \param item the dropped item
     */
    void OnDiscDrop(std::string port, Ptr<const QueueDiscItem> item);
    /**
     * \param port the port
     * \param item the marked item
     * \param reason why
     */
    void OnDiscMark(std::string port, Ptr<const QueueDiscItem> item, const char* reason);
    /**
     * \param packet the segment's payload
     * \param header its TCP header
     * \param socket the sender
     */
    void OnTx(Ptr<const Packet> packet, const TcpHeader& header, Ptr<const TcpSocketBase> socket);
    /**
     * \param oldRto previous retransmission timeout
     * \param newRto new one
     */
    void OnRto(Time oldRto, Time newRto);
    /**
     * \param oldState previous congestion state
     * \param newState new one
     */
    void OnCongState(TcpSocketState::TcpCongState_t oldState,
                     TcpSocketState::TcpCongState_t newState);

    /// Per node: the port of each IPv4 interface, and the interface used last.
    struct NodePorts
    {
        std::map<uint32_t, std::string> ports; //!< interface -> port name
        uint32_t lastInterface{0};             //!< output interface of the latest packet
    };

    Counters m_totals;                                          //!< all events
    std::map<uint32_t, NodePorts> m_nodes;                      //!< per node id
    std::map<std::string, Counters> m_ports;                    //!< queue events per port
    std::vector<std::string> m_portOrder;                       //!< ports in install order
    std::map<const TcpSocketBase*, SequenceNumber32> m_highTx;  //!< per socket: highest seq sent
    TracedCallback<Ptr<const Packet>, const TcpHeader&> m_retx; //!< retransmitted segment
    TracedCallback<Time> m_rtoTrace;                            //!< RTO expired (new RTO)
};

} // namespace ns3

#endif /* CONGESTION_MONITOR_H */

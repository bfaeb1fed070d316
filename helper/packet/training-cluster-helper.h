/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_CLUSTER_HELPER_H
#define TRAINING_CLUSTER_HELPER_H

#include "ns3/application-container.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-topology.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/queue-disc.h"
#include "ns3/training-profile.h"
#include "ns3/training-scenario.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Builds a training cluster: K workers and P parameter servers, each on its own
 * point-to-point link to one switch node (an IPv4 router with global routing), and installs the
 * training applications on it.
 *
 * The network and run knobs come from a TrainingScenario (Configure(): rates, delays, queues,
 * TCP variant, MTU, host model, cross traffic, fabric; one definition of each default, the
 * scenario's); the attributes are what only the packet level has (ports, DelAckCount). TCP defaults
 * that matter at 10-25 Gbps are applied by ConfigureTcp() through Config::SetDefault before any
 * socket exists:
 *  - SegmentSize = MTU - 52 (20 IP + 20 TCP + 12 timestamp option bytes);
 *  - SndBufSize = max(256 KiB, 2 x BDP of the empty path) unless the scenario's sendBufferBytes
 *    (--socketBuffer) says otherwise: enough for one flow to fill the link (ns-3's 128 KiB default
 * caps one flow at about 16.6 Gb/s on a 25 G, 40 us RTT path), small enough that a few flows
 * converging on one switch port do not overrun its queue at once; at least 1 MiB for a ring cluster
 * (no servers), whose ACKs queue behind the reverse data flow in every NIC queue;
 *  - RcvBufSize = SndBufSize + 64 KiB, so the advertised window (rounded down by window
 *    scaling) always covers the peer's whole send buffer: with equal buffers ns-3.37 crashes
 *    in loss recovery (TcpTxBuffer::NextSeg hands out a 0-byte segment, see ConfigureTcp());
 *  - DelAckCount = 1: with the default 2, a flow that hit an RTO was measured crawling one
 *    segment per RTO for tens of simulated seconds;
 *  - MinRto = 200 ms (Linux); SACK on; InitialCwnd 10 (ns-3 3.37 default, as Linux);
 *  - ECN (UseEcn) with TcpDctcp or the scenario's ecn; queue discs with a UseEcn attribute
 *    (RED, CoDel, FqCoDel) then mark instead of dropping;
 *  - per-flow cap: TcpSocketState::EnablePacing and MaxPacingRate = the scenario's flowCap (ns-3.37
 * has no per-socket setter, so the cap applies to every TCP socket created afterwards).
 */
class TrainingClusterHelper : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    TrainingClusterHelper();
    ~TrainingClusterHelper() override;

    /**
     * \brief Take the network and run knobs from a scenario (workers, servers, rates, delays,
     * queues, TCP, host model, cross traffic, fabric). Without it the helper builds
     * TrainingScenario's defaults.
     * \param scenario the scenario
     */
    void Configure(const TrainingScenario& scenario);

    /** \return the scenario the helper builds (Configure) */
    const TrainingScenario& GetScenario() const;

    /**
     * \brief Apply the TCP defaults described above (Config::SetDefault). Call before Build().
     * \throws TrainingInputError for an unknown TCP variant
     */
    void ConfigureTcp() const;

    /**
     * \brief Create the nodes, links, internet stack, addresses and routes.
     * \throws TrainingInputError for an unknown queue disc
     */
    void Build();

    /**
     * \brief Install a parameter server on every server node and a worker on every worker node.
     * \param profile the DNN
     * \param scenario mode, overlap, order, window, partition, compute scale, steps, sampling
     * \return the applications: servers first, then workers
     * \throws TrainingInputError when a server would own no layer
     */
    ApplicationContainer InstallParameterServerJob(std::shared_ptr<const TrainingProfile> profile,
                                                   const TrainingScenario& scenario);

    /**
     * \brief Install a RingAllReduceApplication on every worker node (there are no server
     * nodes with --arch=ring): worker w connects to each worker its AllReduce plan sends to (the
     * ring: (w + 1) mod K) on Port.
     * \param profile the DNN
     * \param scenario overlap, compute scale, steps, sampling, tensor fusion, GPUs per node
     * \return the applications, worker 0 first
     */
    ApplicationContainer InstallRingJob(std::shared_ptr<const TrainingProfile> profile,
                                        const TrainingScenario& scenario);

    /**
     * \brief Several jobs on one cluster (TrainingJobSet): the set's fabric scenario with one
     * node per role of every job, in the set's role order (job by job, each its workers then
     * its servers), hosts named "<job>.worker<i>" / "<job>.server<p>". Call before Build();
     * then InstallJob() each job. Every role node is in GetWorkers(), role r at index r.
     * \param fabric the set's fabric scenario (network, TCP, topology); its architecture
     *        chooses the socket-buffer rule of every socket (TrainingNetwork)
     * \param placed the set's placed fabric (GetFabric())
     * \param names host name of each role
     */
    void ConfigureJobs(const TrainingScenario& fabric,
                       const FabricTopology& placed,
                       const std::vector<std::string>& names);

    /**
     * \brief Install one job of a ConfigureJobs() cluster on its role nodes. Jobs use their
     * own hosts, so they share the service port (Port) and the ephemeral ports without clash,
     * and both backends see the same 5-tuples (FlowFabric).
     * \param profile the job's DNN
     * \param scenario the job's scenario
     * \param offset its first role
     * \param start when its applications start (its first step)
     * \return its applications (servers first)
     */
    ApplicationContainer InstallJob(std::shared_ptr<const TrainingProfile> profile,
                                    const TrainingScenario& scenario,
                                    uint32_t offset,
                                    Time start);

    /**
     * \brief Install the background traffic (the scenario's crossTraffic; nothing for "none"): one
     * PacketSink on the target (server 0 or worker 0, CrossTarget) on CrossPort, and one sender
     * per cross host, started at time 0 and never stopped: a BulkSendApplication (TCP) for
     * "bulk"; for "onoff" an OnOffApplication (CrossProtocol: UDP or TCP) sending at
     * min(NicRate, 2 CrossRate / CrossFlows) during exponential on-periods of mean
     * CrossOnTime and exponential off-periods sized for a mean load of CrossRate / CrossFlows.
     * \return the sink first, then the senders
     */
    ApplicationContainer InstallCrossTraffic();

    /** \return the cross-traffic hosts (CrossFlows of them unless CrossTraffic is "none") */
    NodeContainer GetCrossHosts() const;
    /**
     * \brief Devices of cross host c's link: index 0 on the host, index 1 on the switch.
     * \param c cross host index
     * \return the two devices
     */
    NetDeviceContainer GetCrossLinkDevices(uint32_t c) const;

    /** \return address of worker w */
    Ipv4Address GetWorkerAddress(uint32_t w) const;

    /** \return the worker nodes */
    NodeContainer GetWorkers() const;
    /** \return the server nodes */
    NodeContainer GetServers() const;
    /** \return the switch node */
    Ptr<Node> GetSwitch() const;
    /**
     * \brief Devices of host i's link: index 0 on the host, index 1 on the switch.
     * Hosts are the workers (0..K-1) then the servers (K..K+P-1).
     * \param host host index
     * \return the two devices
     */
    NetDeviceContainer GetLinkDevices(uint32_t host) const;
    /** \return the address of server p */
    Ipv4Address GetServerAddress(uint32_t p) const;
    /**
     * \param host host index (workers then servers)
     * \return "worker3" or "server0"
     */
    std::string GetHostName(uint32_t host) const;

    /**
     * \brief Assign fixed random variable streams to the installed applications.
     * \param stream first stream index
     * \return the number of streams assigned
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief Assign random streams to some of the installed applications (one job of a
     * ConfigureJobs() cluster: from the same first stream as its solo run, it draws as alone).
     * \param apps the applications
     * \param stream first stream index
     * \return the number of streams used
     */
    static int64_t AssignStreams(const ApplicationContainer& apps, int64_t stream);

    /**
     * \return the congestion control ConfigureTcp() installs: TcpVariant, or with HostModel
     * linux Linux's version of it (TcpCubic: TcpLinuxCubic, TcpNewReno: TcpLinuxReno)
     */
    std::string GetTcpTypeName() const;

    /**
     * \brief With BufferAutotuning, give every socket these applications open (their
     * "SocketOpened" trace) a LinuxBufferTuner.
     * \param apps the applications
     */
    void InstallBufferTuners(const ApplicationContainer& apps) const;

    /** \return the socket send buffer size ConfigureTcp() uses, in bytes */
    uint32_t GetSocketBufferBytes() const;

    /**
     * \return the round trip of the empty path host - switch - host in seconds: four link delays
     * plus four frame times of a full MTU-sized packet (two links each way); a double, not a
     * Time, because frame times are not whole nanoseconds
     */
    double GetBaseRttSeconds() const;

    /**
     * \param host true: a host NIC's buffer (HostQueueSize, else QueueSize); false: a switch
     *        port's (QueueSize)
     * \return that buffer in bytes (a size in packets counts MTU + 2 wire bytes per packet)
     */
    double GetBufferBytes(bool host) const;

    /** \return the socket receive buffer size ConfigureTcp() uses, in bytes (larger than the
     * send buffer, see ConfigureTcp()) */
    uint32_t GetReceiveBufferBytes() const;

    /// One direction of one link, as the packet backend counts it.
    struct MonitoredLink
    {
        Ptr<NetDevice> device; //!< the device sending in this direction
        std::string name;      //!< "worker0->switch", "leaf0->spine1", ...
        double bitRate;        //!< its rate (bit/s)
    };

    /**
     * \return every link direction of the built network: on the star, per host its NIC then
     * the switch port towards it; on a fabric, every directed link in FabricTopology order
     */
    std::vector<MonitoredLink> GetMonitoredLinks() const;

  protected:
    void DoDispose() override;

  private:
    /// Check the scenario's cross-traffic knobs. \throws TrainingInputError naming the option
    void CheckCrossTraffic() const;
    /**
     * \return the TypeId of GetTcpTypeName(), checked to be a TcpCongestionOps
     * \throws TrainingInputError naming --hostModel or --tcp
     */
    TypeId LookupTcpTypeId() const;
    /**
     * \return the queue-disc TypeId name, or "none" (RED for DCTCP without a disc)
     * \throws TrainingInputError for an unknown queue disc
     */
    std::string GetQueueDiscName() const;
    /** \return true for TCP DCTCP */
    bool IsDctcp() const;
    /**
     * \brief Set the buffer, ECN and RED attributes of one installed queue disc.
     * \param qd the disc
     * \param queue its buffer
     */
    void ConfigureQueueDisc(Ptr<QueueDisc> qd, const QueueSize& queue) const;

    /// The per-flow cap: pacing at the scenario's flowCap, and only the cap (see the .cc file for
    /// why).
    void ConfigurePacing() const;

    /**
     * \brief Buffers (device queues, or queue discs) and addresses of one installed link.
     * \param link the two devices
     * \param first buffer at the first device
     * \param second buffer at the second device
     * \param disc queue-disc TypeId name or "none"
     * \param address the subnet to assign
     * \return the two interfaces
     */
    Ipv4InterfaceContainer SetUpLink(const NetDeviceContainer& link,
                                     const QueueSize& first,
                                     const QueueSize& second,
                                     const std::string& disc,
                                     Ipv4AddressHelper& address) const;
    /**
     * \param haveDisc a queue disc will hold the backlog
     * \param queue the device buffer otherwise
     * \return a point-to-point helper at the NIC rate, MTU and link delay
     */
    PointToPointHelper MakeLinkHelper(bool haveDisc, const QueueSize& queue) const;
    /**
     * \brief Build a FabricTopology (not the star): every node, every link at its tier's rate,
     * delay and buffer, per-flow ECMP routing (FabricEcmpRouting).
     * \param disc queue-disc TypeId name or "none"
     */
    void BuildFabric(const std::string& disc);
    /**
     * \brief Give every node its routing state and the roles their nodes.
     * \param nodes one per fabric node
     * \param interface per directed link: IPv4 interface index at its sending end
     * \param remote per directed link: the address at its receiving end
     */
    void CompleteFabric(const NodeContainer& nodes,
                        const std::vector<uint32_t>& interface,
                        const std::vector<Ipv4Address>& remote);
    /**
     * \brief --linkDown: every node's routing follows LinkFailures' rule, and each failed link's
     * two IPv4 interfaces go down at its outage's start (and up at its end), so the packets in
     * flight on it are lost.
     * \param nodes one per fabric node
     * \param interface per directed link: IPv4 interface index at its sending end
     */
    void ScheduleLinkFailures(const NodeContainer& nodes,
                              const std::vector<uint32_t>& interface) const;

    uint32_t m_delAckCount; //!< TCP delayed-ACK count
    /** \return server nodes: the scenario's servers, none for a ring */
    uint32_t GetServerNodeCount() const;

    /**
     * \brief The parameter-server applications of one job on given nodes.
     * \param profile the DNN
     * \param scenario the job
     * \param workers its worker nodes
     * \param servers its server nodes
     * \param addresses its servers' addresses
     * \return the applications: servers first, then workers
     */
    ApplicationContainer InstallPs(std::shared_ptr<const TrainingProfile> profile,
                                   const TrainingScenario& scenario,
                                   const NodeContainer& workers,
                                   const NodeContainer& servers,
                                   const std::vector<Ipv4Address>& addresses);
    /**
     * \brief The ring applications of one job on given nodes.
     * \param profile the DNN
     * \param scenario the job
     * \param workers its nodes, ring order
     * \param addresses their addresses
     * \return the applications, worker 0 first
     */
    ApplicationContainer InstallRing(std::shared_ptr<const TrainingProfile> profile,
                                     const TrainingScenario& scenario,
                                     const NodeContainer& workers,
                                     const std::vector<Ipv4Address>& addresses);

    TrainingScenario m_scenario; //!< the network and run knobs (Configure)

    uint16_t m_port;      //!< servers' port
    Time m_crossOnTime;   //!< onoff: mean on-period
    uint16_t m_crossPort; //!< port of the cross-traffic sink

    NodeContainer m_workerNodes;                    //!< workers
    NodeContainer m_serverNodes;                    //!< servers
    Ptr<Node> m_switch;                             //!< the switch
    std::vector<NetDeviceContainer> m_links;        //!< per host: host device, switch device
    std::vector<Ipv4InterfaceContainer> m_ifaces;   //!< per host: host, switch interface
    NodeContainer m_crossNodes;                     //!< cross-traffic hosts
    std::vector<NetDeviceContainer> m_crossLinks;   //!< per cross host: host, switch device
    ApplicationContainer m_apps;                    //!< installed applications
    std::shared_ptr<const FabricTopology> m_fabric; //!< the fabric (null: the star)
    std::vector<Ptr<NetDevice>> m_fabricDevices;    //!< per directed link: its sending device
    std::vector<std::string> m_hostNames;           //!< ConfigureJobs: name of each role's host
};

} // namespace ns3

#endif /* TRAINING_CLUSTER_HELPER_H */

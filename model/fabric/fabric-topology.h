/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_TOPOLOGY_H
#define FABRIC_TOPOLOGY_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The network fabric of a training cluster as a graph: hosts (the nodes that run workers
 * and parameter servers), switches, and full-duplex links with a rate, a one-way delay and a
 * queue size per direction. Both the packet level (which builds it out of ns-3 nodes and
 * point-to-point links) and the flow level (whose transfers cross its directed links) read the
 * same object, so a transfer takes the same path in both.
 *
 * Shapes: Star() (every host on one switch: the module's original topology), LeafSpine()
 * (hosts under leaves, every leaf linked to every spine), FatTree() (the k-ary three-tier Clos
 * of Al-Fares et al., SIGCOMM 2008: k pods of k/2 edge and k/2 aggregation switches, (k/2)^2
 * core switches, k^3/4 hosts), and FromJsonFile() (any graph). The graph is held and queried
 * with Boost.Graph (breadth-first distances for shortest and equal-cost paths, max-flow for the
 * bisection bandwidth); the header keeps Boost out of the module's interface.
 *
 * Routing is shortest-path by hop count with per-flow ECMP: at every node the next hop is
 * chosen among the neighbours one hop closer to the destination by hashing the flow's 5-tuple
 * with the fabric's seed and the node id (EcmpHash()), as a switch hashes packet headers. The
 * same function decides the path of a flow in the flow backend (GetPath()) and the next hop of
 * its packets at the packet level, so ECMP collisions are the same in both.
 *
 * Indices: nodes 0..N-1 (hosts have host indices 0..H-1 in addition), directed links 0..2L-1:
 * link 2i is full-duplex link i in its "from -> to" direction, 2i+1 the reverse.
 */
class FabricTopology
{
  public:
    /// Rate, delay and queue of the links of one tier.
    struct LinkSpec
    {
        DataRate rate{DataRate("10Gbps")}; //!< each direction
        Time delay{MicroSeconds(10)};      //!< one-way propagation delay
        std::string queue{"1000p"};        //!< buffer of the port feeding each direction
    };

    /// One node of the graph.
    struct Node
    {
        std::string name; //!< unique, e.g. "host3", "leaf1", "spine0"
        bool host{false}; //!< runs a worker or server (else a switch)
        uint32_t rack{0}; //!< hosts: the edge switch (rack) they hang off; switches: tier
    };

    /// One direction of one full-duplex link.
    struct Link
    {
        uint32_t from{0}; //!< sending node
        uint32_t to{0};   //!< receiving node
        LinkSpec spec;    //!< rate, delay, queue
        std::string name; //!< "<from>-><to>"
    };

    /// The 5-tuple a switch hashes for ECMP (addresses and ports as on the wire).
    struct FlowKey
    {
        uint32_t srcAddress{0}; //!< IPv4 source address
        uint32_t dstAddress{0}; //!< IPv4 destination address
        uint16_t srcPort{0};    //!< source port
        uint16_t dstPort{0};    //!< destination port
        uint8_t protocol{6};    //!< IP protocol (6 = TCP)
    };

    FabricTopology();
    ~FabricTopology();
    /// Copy (the Boost graph is rebuilt lazily).
    FabricTopology(const FabricTopology& other);
    /**
     * \param other topology to copy
     * \return this
     */
    FabricTopology& operator=(const FabricTopology& other);

    /**
     * \param hosts number of hosts (>= 1)
     * \param host the host links
     * \return every host on one switch "switch"; host i is named "host<i>"
     */
    static FabricTopology Star(uint32_t hosts, const LinkSpec& host);

    /**
     * \param leaves number of leaf (top-of-rack) switches (>= 1)
     * \param spines number of spine switches (>= 1)
     * \param hostsPerLeaf hosts under each leaf (>= 1)
     * \param host host - leaf links
     * \param uplink leaf - spine links (one per leaf and spine); the oversubscription of a leaf
     *        is hostsPerLeaf x host rate / (spines x uplink rate)
     * \return the leaf-spine fabric; host h is under leaf h / hostsPerLeaf
     */
    static FabricTopology LeafSpine(uint32_t leaves,
                                    uint32_t spines,
                                    uint32_t hostsPerLeaf,
                                    const LinkSpec& host,
                                    const LinkSpec& uplink);

    /**
     * \param k switch radix (even, >= 2)
     * \param host host - edge links
     * \param edgeAgg edge - aggregation links
     * \param aggCore aggregation - core links
     * \return the k-ary fat-tree: k^3/4 hosts, host h under edge switch h / (k/2)
     */
    static FabricTopology FatTree(uint32_t k,
                                  const LinkSpec& host,
                                  const LinkSpec& edgeAgg,
                                  const LinkSpec& aggCore);

    /**
     * \brief Read a topology from a JSON file:
     * \code
     * { "defaults": {"rate": "10Gbps", "delay": "10us", "queue": "1000p"},
     *   "nodes": [ {"name": "h0", "type": "host", "rack": 0}, {"name": "s0", "type": "switch"} ],
     *   "links": [ {"from": "h0", "to": "s0", "rate": "25Gbps", "delay": "1us", "queue": "100p"} ]
     * } \endcode Links are full duplex; rate, delay and queue default to "defaults" (then 10Gbps,
     * 10us, 1000p); a host's rack defaults to the index of the switch it is linked to. \param path
     * the file \return the topology \throws TrainingInputError naming the file and the JSON path of
     * what is wrong
     */
    static FabricTopology FromJsonFile(const std::string& path);

    /**
     * \brief Parse JSON text (FromJsonFile() without the file).
     * \param text the JSON document
     * \param where name for messages (the file)
     * \return the topology
     * \throws TrainingInputError naming where and the JSON path
     */
    static FabricTopology FromJsonText(const std::string& text, const std::string& where);

    /**
     * \brief Place roles on chosen hosts and rename those hosts (several jobs on one fabric:
     * TrainingJobSet places each job and names its hosts "<job>.worker<i>").
     * \param hosts host of each role (valid; a host named twice holds a worker and its
     *        co-located server, and keeps the first role's name)
     * \param names new name of each role's host (unique)
     */
    void SetRoles(const std::vector<uint32_t>& hosts, const std::vector<std::string>& names);

    /** \return number of placed roles (workers, then servers) */
    uint32_t GetNRoles() const;
    /**
     * \param role role index (worker w, or K + p for server p)
     * \return its host index
     */
    uint32_t GetRoleHost(uint32_t role) const;

    /** \return "star", "leafspine", "fattree" or "file" */
    const std::string& GetKind() const;
    /** \return number of nodes */
    uint32_t GetNNodes() const;
    /** \return number of hosts */
    uint32_t GetNHosts() const;
    /** \return number of directed links (twice the full-duplex links) */
    uint32_t GetNLinks() const;
    /**
     * \param node node index
     * \return the node
     */
    const Node& GetNode(uint32_t node) const;
    /**
     * \param link directed link index
     * \return the link
     */
    const Link& GetLink(uint32_t link) const;
    /**
     * \param host host index
     * \return its node index
     */
    uint32_t GetHostNode(uint32_t host) const;
    /**
     * \param host host index
     * \return its rack (the index of the edge switch among the racks, 0..GetNRacks()-1)
     */
    uint32_t GetRack(uint32_t host) const;
    /** \return number of racks (edge switches with hosts) */
    uint32_t GetNRacks() const;
    /**
     * \param node node index
     * \return its directed links leaving it, in link order
     */
    const std::vector<uint32_t>& GetOutLinks(uint32_t node) const;
    /**
     * \param host host index
     * \return the host's NIC link towards the fabric (the first link leaving it)
     */
    uint32_t GetHostUplink(uint32_t host) const;
    /**
     * \param host host index
     * \return the directed link into the host (reverse of its uplink)
     */
    uint32_t GetHostDownlink(uint32_t host) const;

    /**
     * \param link directed link
     * \return the same link in the other direction
     */
    static uint32_t Reverse(uint32_t link)
    {
        return link ^ 1u;
    }

    /**
     * \param from source node
     * \param to destination node
     * \return hops of the shortest paths (breadth-first search)
     */
    uint32_t GetDistance(uint32_t from, uint32_t to) const;
    /**
     * \param node current node
     * \param to destination node
     * \return the links leaving node that lie on a shortest path to `to` (the ECMP set), in
     *         link order
     */
    std::vector<uint32_t> GetNextHops(uint32_t node, uint32_t to) const;
    /**
     * \param fromHost source host
     * \param toHost destination host
     * \return every shortest path as directed links, in lexicographic order of link indices
     */
    std::vector<std::vector<uint32_t>> GetEqualCostPaths(uint32_t fromHost, uint32_t toHost) const;
    /**
     * \brief The path of one flow: at every node the ECMP choice of EcmpHash().
     * \param fromHost source host
     * \param toHost destination host
     * \param key the flow's 5-tuple
     * \return the directed links from the source host to the destination host
     */
    std::vector<uint32_t> GetPath(uint32_t fromHost, uint32_t toHost, const FlowKey& key) const;
    /**
     * \param path directed links
     * \return the sum of their one-way delays (seconds)
     */
    double GetPathDelay(const std::vector<uint32_t>& path) const;

    /**
     * \brief Bisection bandwidth: the max-flow (Boost.Graph, push-relabel) from the first half
     * of the hosts (in host order, i.e. rack order) to the second half, with every link at its
     * rate in each direction. For the symmetric Clos fabrics this split is a worst one, so the
     * value is their bisection bandwidth; for other graphs it is the cut of that split (an
     * upper bound on the minimum bisection).
     * \return bits per second, one direction
     */
    double GetBisectionBandwidth() const;

    /**
     * \brief The ECMP hash: a 64-bit mix of the 5-tuple, the fabric's seed and the deciding
     * node, so that switches choose independently (no polarisation). Both backends call it.
     * \param key the 5-tuple
     * \param seed the hash seed
     * \param node the node choosing the next hop
     * \return the hash
     */
    static uint64_t EcmpHash(const FlowKey& key, uint64_t seed, uint32_t node);

    /**
     * \param host host index
     * \return the IPv4 address the packet level gives the host, as a 32-bit number:
     *         10.a.b.1 with a.b = host index (its link subnet 10.a.b.0/24); at most 65,536 hosts
     */
    static uint32_t GetHostAddress(uint32_t host);

    /**
     * \brief Choose the hosts of count roles (workers first, then servers).
     *  - "packed": hosts in order, filling one rack after another;
     *  - "spread": one host per rack in turn (rack 0's first host, rack 1's first host, ...);
     *  - "random": a seeded random choice (Fisher-Yates shuffle of all hosts);
     *  - a list "3,7,12,...": exactly those hosts (the "explicit" placement).
     * \param option option name for messages (e.g. "--placement")
     * \param policy packed, spread, random or a comma-separated host list
     * \param count roles to place (<= hosts)
     * \param seed seed of "random"
     * \return the host of each role
     * \throws TrainingInputError for an unknown policy, too few hosts or a bad list
     */
    std::vector<uint32_t> Place(const std::string& option,
                                const std::string& policy,
                                uint32_t count,
                                uint64_t seed) const;

    /**
     * \brief Rename a host (and the links at it), e.g. "host5" to "worker0" once placed, so
     * that link names say which role they serve.
     * \param host host index
     * \param name new unique name
     */
    void SetHostName(uint32_t host, const std::string& name);

    /** \param seed the ECMP hash seed */
    void SetEcmpSeed(uint64_t seed);
    /** \return the ECMP hash seed */
    uint64_t GetEcmpSeed() const;

    /**
     * \brief The tier of hosts' links, of the first switch-switch links and of the next ones
     * (e.g. "host 10 Gbps, uplink 10 Gbps x 2 per leaf"): one line for the scenario printout.
     * \return the description
     */
    std::string Describe() const;

  private:
    struct Graph; //!< the Boost.Graph view (adjacency list), built on demand

    /**
     * \param name node name (unique)
     * \param host true for a host
     * \param rack rack of a host / tier of a switch
     * \return the node index
     */
    uint32_t AddNode(const std::string& name, bool host, uint32_t rack);
    /**
     * \brief Add a full-duplex link (two directed links).
     * \param a one end
     * \param b the other end
     * \param spec rate, delay, queue (both directions)
     */
    void AddLink(uint32_t a, uint32_t b, const LinkSpec& spec);
    /**
     * \param option option name for messages
     * \param list comma-separated host indices
     * \param count roles to place
     * \return the hosts
     */
    std::vector<uint32_t> PlaceExplicit(const std::string& option,
                                        const std::string& list,
                                        uint32_t count) const;
    /**
     * \brief Add the nodes of a topology file.
     * \param where file name for messages
     * \param nodes the "nodes" array
     * \param byName output: node index by name
     */
    void ReadJsonNodes(const std::string& where,
                       const nlohmann::json& nodes,
                       std::map<std::string, uint32_t>& byName);
    /**
     * \brief Add the links of a topology file.
     * \param where file name for messages
     * \param links the "links" array
     * \param byName node index by name
     * \param defaults rate, delay and queue of links that do not say
     */
    void ReadJsonLinks(const std::string& where,
                       const nlohmann::json& links,
                       const std::map<std::string, uint32_t>& byName,
                       const LinkSpec& defaults);
    /// Number the racks and reset the cached views.
    void Finish();
    /**
     * \brief Check a graph read from a file: hosts present, one link per host, connected.
     * \param where file name for the message
     * \throws TrainingInputError otherwise
     */
    void ValidateShape(const std::string& where) const;
    /**
     * \param to destination node
     * \return hops from every node to `to` (cached per destination)
     */
    const std::vector<uint32_t>& DistancesTo(uint32_t to) const;

    std::string m_kind;                       //!< shape
    std::vector<Node> m_nodes;                //!< nodes
    std::vector<Link> m_links;                //!< directed links
    std::vector<uint32_t> m_hosts;            //!< node of each host
    std::vector<std::vector<uint32_t>> m_out; //!< directed links leaving each node
    std::vector<uint32_t> m_rackOf;           //!< rack of each host
    uint32_t m_racks{0};                      //!< racks
    uint64_t m_seed{0};                       //!< ECMP hash seed
    std::vector<uint32_t> m_roleHost;         //!< host of each placed role
    mutable std::map<uint32_t, std::vector<uint32_t>> m_distances; //!< per destination
    mutable std::unique_ptr<Graph> m_graph;                        //!< Boost.Graph view
};

} // namespace ns3

#endif /* FABRIC_TOPOLOGY_H */

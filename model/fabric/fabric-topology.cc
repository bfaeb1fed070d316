/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-topology.h"

#include "ns3/assert.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/json-input.h"
#include "ns3/json-object-reader.h"
#include "ns3/log.h"
#include "ns3/split-mix64.h"
#include "ns3/training-input-error.h"
#include "ns3/unit-parser.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>
#include <boost/graph/visitors.hpp>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricTopology");

/// The Boost.Graph view of the fabric: one vertex per node, one edge per directed link.
struct FabricTopology::Graph
{
    /// Undirected connectivity is enough for hop distances (every link is full duplex).
    using Adjacency = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
    Adjacency g; //!< the graph
};

FabricTopology::FabricTopology() = default;
FabricTopology::~FabricTopology() = default;

FabricTopology::FabricTopology(const FabricTopology& other)
    : m_kind(other.m_kind),
      m_nodes(other.m_nodes),
      m_links(other.m_links),
      m_hosts(other.m_hosts),
      m_out(other.m_out),
      m_rackOf(other.m_rackOf),
      m_racks(other.m_racks),
      m_seed(other.m_seed),
      m_roleHost(other.m_roleHost),
      m_distances(other.m_distances)
{
}

FabricTopology&
FabricTopology::operator=(const FabricTopology& other)
{
    if (this != &other)
    {
        FabricTopology copy(other);
        std::swap(m_kind, copy.m_kind);
        std::swap(m_nodes, copy.m_nodes);
        std::swap(m_links, copy.m_links);
        std::swap(m_hosts, copy.m_hosts);
        std::swap(m_out, copy.m_out);
        std::swap(m_rackOf, copy.m_rackOf);
        std::swap(m_racks, copy.m_racks);
        std::swap(m_seed, copy.m_seed);
        std::swap(m_roleHost, copy.m_roleHost);
        std::swap(m_distances, copy.m_distances);
        m_graph.reset();
    }
    return *this;
}

uint32_t
FabricTopology::AddNode(const std::string& name, bool host, uint32_t rack)
{
    m_nodes.push_back(Node{name, host, rack});
    m_out.emplace_back();
    if (host)
    {
        m_hosts.push_back(static_cast<uint32_t>(m_nodes.size() - 1));
    }
    return static_cast<uint32_t>(m_nodes.size() - 1);
}

void
FabricTopology::AddLink(uint32_t a, uint32_t b, const LinkSpec& spec)
{
    for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}})
    {
        m_out[from].push_back(static_cast<uint32_t>(m_links.size()));
        m_links.push_back(Link{from, to, spec, m_nodes[from].name + "->" + m_nodes[to].name});
    }
}

void
FabricTopology::Finish()
{
    // Racks: the switch each host's first link goes to, numbered in order of first appearance.
    std::map<uint32_t, uint32_t> rackOfSwitch;
    m_rackOf.clear();
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        NS_ASSERT_MSG(!m_out[m_hosts[h]].empty(), "host without a link");
        uint32_t edge = m_links[m_out[m_hosts[h]].front()].to;
        auto it = rackOfSwitch.emplace(edge, static_cast<uint32_t>(rackOfSwitch.size())).first;
        m_rackOf.push_back(it->second);
        m_nodes[m_hosts[h]].rack = it->second;
    }
    m_racks = static_cast<uint32_t>(rackOfSwitch.size());
    m_distances.clear();
    m_graph.reset();
}

FabricTopology
FabricTopology::Star(uint32_t hosts, const LinkSpec& host)
{
    NS_ASSERT_MSG(hosts >= 1, "a star needs a host");
    FabricTopology t;
    t.m_kind = "star";
    uint32_t sw = t.AddNode("switch", false, 1);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        uint32_t n = t.AddNode("host" + std::to_string(h), true, 0);
        t.AddLink(n, sw, host);
    }
    t.Finish();
    return t;
}

FabricTopology
FabricTopology::LeafSpine(uint32_t leaves,
                          uint32_t spines,
                          uint32_t hostsPerLeaf,
                          const LinkSpec& host,
                          const LinkSpec& uplink)
{
    NS_ASSERT_MSG(leaves >= 1 && spines >= 1 && hostsPerLeaf >= 1, "empty leaf-spine");
    FabricTopology t;
    t.m_kind = "leafspine";
    std::vector<uint32_t> leaf(leaves);
    std::vector<uint32_t> spine(spines);
    for (uint32_t l = 0; l < leaves; ++l)
    {
        leaf[l] = t.AddNode("leaf" + std::to_string(l), false, 1);
    }
    for (uint32_t s = 0; s < spines; ++s)
    {
        spine[s] = t.AddNode("spine" + std::to_string(s), false, 2);
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        for (uint32_t i = 0; i < hostsPerLeaf; ++i)
        {
            uint32_t n = t.AddNode("host" + std::to_string(l * hostsPerLeaf + i), true, l);
            t.AddLink(n, leaf[l], host);
        }
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        for (uint32_t s = 0; s < spines; ++s)
        {
            t.AddLink(leaf[l], spine[s], uplink);
        }
    }
    t.Finish();
    return t;
}

FabricTopology
FabricTopology::FatTree(uint32_t k,
                        const LinkSpec& host,
                        const LinkSpec& edgeAgg,
                        const LinkSpec& aggCore)
{
    NS_ASSERT_MSG(k >= 2 && k % 2 == 0, "fat-tree radix must be even");
    const uint32_t half = k / 2;
    FabricTopology t;
    t.m_kind = "fattree";
    std::vector<uint32_t> core(half * half);
    for (uint32_t c = 0; c < half * half; ++c)
    {
        core[c] = t.AddNode("core" + std::to_string(c), false, 3);
    }
    for (uint32_t pod = 0; pod < k; ++pod)
    {
        std::vector<uint32_t> edge(half);
        std::vector<uint32_t> agg(half);
        for (uint32_t i = 0; i < half; ++i)
        {
            agg[i] = t.AddNode("agg" + std::to_string(pod * half + i), false, 2);
        }
        for (uint32_t i = 0; i < half; ++i)
        {
            edge[i] = t.AddNode("edge" + std::to_string(pod * half + i), false, 1);
            for (uint32_t j = 0; j < half; ++j)
            {
                uint32_t h = (pod * half + i) * half + j;
                uint32_t n = t.AddNode("host" + std::to_string(h), true, pod * half + i);
                t.AddLink(n, edge[i], host);
            }
            for (uint32_t j = 0; j < half; ++j)
            {
                t.AddLink(edge[i], agg[j], edgeAgg);
            }
        }
        // Aggregation switch i of every pod connects to core switches i*k/2 .. i*k/2 + k/2 - 1.
        for (uint32_t i = 0; i < half; ++i)
        {
            for (uint32_t j = 0; j < half; ++j)
            {
                t.AddLink(agg[i], core[i * half + j], aggCore);
            }
        }
    }
    t.Finish();
    return t;
}

namespace
{

/// Limits of a topology file: nodes and links of a few thousand hosts fit in far less.
const JsonInput::Limits&
TopologyLimits()
{
    static const JsonInput::Limits limits{64 << 20,
                                          16,
                                          "a topology JSON object with \"nodes\" and \"links\""};
    return limits;
}

} // namespace

FabricTopology
FabricTopology::FromJsonFile(const std::string& path)
{
    return FromJsonText(JsonInput::ReadFile(path, TopologyLimits()), path);
}

namespace
{

using Json = nlohmann::json;

/// The link fields of "defaults" and of every link.
const JsonSchema&
SpecSchema()
{
    static const JsonSchema schema{
        {"rate", JsonField::OPTIONAL, JsonSpec::String("a rate such as \"10Gbps\""), {}},
        {"delay", JsonField::OPTIONAL, JsonSpec::String("a delay such as \"1us\""), {}},
        {"queue", JsonField::OPTIONAL, JsonSpec::String("a queue size such as \"100p\""), {}}};
    return schema;
}

/// The schema of a topology file.
const JsonSchema&
TopologySchema()
{
    static const JsonSchema schema{
        {"defaults", JsonField::OPTIONAL, JsonSpec::Object("an object of link fields"), {}},
        {"nodes",
         JsonField::REQUIRED,
         JsonSpec::Array(1, "a non-empty array of nodes"),
         JsonSpec::Object("a node object")},
        {"links",
         JsonField::REQUIRED,
         JsonSpec::Array(1, "a non-empty array of links"),
         JsonSpec::Object("a link object")}};
    return schema;
}

/// The schema of nodes[i].
const JsonSchema&
NodeSchema()
{
    static const JsonSchema schema{
        {"name", JsonField::REQUIRED, JsonSpec::String("a unique node name", 1), {}},
        {"type", JsonField::OPTIONAL, JsonSpec::OneOf({"host", "switch"}), {}}};
    return schema;
}

/// The schema of links[i]: its ends and the link fields.
const JsonSchema&
LinkSchema()
{
    static const JsonSchema schema = []
    {
        JsonSchema s{{"from", JsonField::REQUIRED, JsonSpec::String("a node name"), {}},
                     {"to", JsonField::REQUIRED, JsonSpec::String("a node name"), {}}};
        s.insert(s.end(), SpecSchema().begin(), SpecSchema().end());
        return s;
    }();
    return schema;
}

/**
 * \brief Read rate, delay and queue of a link or of "defaults" over a base spec.
 * \param object the link or "defaults", its keys checked
 * \param base the values of absent keys
 * \return the spec
 */
FabricTopology::LinkSpec
ReadSpec(const SortedJsonObjectReader& object, FabricTopology::LinkSpec base)
{
    if (object.Has("rate"))
    {
        base.rate
            = UnitParser::ParseDataRate(object.At("rate").ToString(), object.GetString("rate"));
        if (base.rate.GetBitRate() == 0)
        {
            object.At("rate").Fail("zero rate", "a positive rate");
        }
    }
    if (object.Has("delay"))
    {
        base.delay
            = UnitParser::ParseTime(object.At("delay").ToString(), object.GetString("delay"));
        if (base.delay.IsNegative())
        {
            object.At("delay").Fail("negative delay", "a delay >= 0");
        }
    }
    if (object.Has("queue"))
    {
        base.queue = object.GetString("queue");
        UnitParser::ParseQueueSize(object.At("queue").ToString(), base.queue);
    }
    return base;
}

} // namespace

FabricTopology
FabricTopology::FromJsonText(const std::string& text, const std::string& where)
{
    const Json doc = JsonInput::ParseSorted(text, where, TopologyLimits());
    const SortedJsonObjectReader object(doc, JsonPlace(where), TopologySchema());
    LinkSpec defaults;
    if (const Json* d = object.Find("defaults"))
    {
        defaults
            = ReadSpec(SortedJsonObjectReader(*d, object.At("defaults"), SpecSchema()), defaults);
    }
    FabricTopology t;
    t.m_kind = "file";
    std::map<std::string, uint32_t> byName;
    t.ReadJsonNodes(where, object.Get("nodes"), byName);
    t.ReadJsonLinks(where, object.Get("links"), byName, defaults);
    t.ValidateShape(where);
    t.Finish();
    return t;
}

void
FabricTopology::ReadJsonNodes(const std::string& where,
                              const nlohmann::json& nodes,
                              std::map<std::string, uint32_t>& byName)
{
    const JsonPlace list = JsonPlace(where).Member("nodes");
    for (std::size_t i = 0; i < nodes.size(); ++i)
    {
        const SortedJsonObjectReader node(nodes[i], list.Element(i), NodeSchema());
        const std::string name = node.GetString("name");
        const bool host = node.GetString("type", "switch") == "host";
        if (byName.count(name))
        {
            node.At("name").Fail("duplicate name '" + name + "'", "a unique node name");
        }
        byName[name] = AddNode(name, host, host ? 0 : 1);
    }
}

void
FabricTopology::ReadJsonLinks(const std::string& where,
                              const nlohmann::json& links,
                              const std::map<std::string, uint32_t>& byName,
                              const LinkSpec& defaults)
{
    const JsonPlace list = JsonPlace(where).Member("links");
    std::map<std::pair<uint32_t, uint32_t>, std::size_t> seen;
    for (std::size_t i = 0; i < links.size(); ++i)
    {
        const SortedJsonObjectReader link(links[i], list.Element(i), LinkSchema());
        uint32_t ends[2];
        for (int e = 0; e < 2; ++e)
        {
            const char* key = e == 0 ? "from" : "to";
            const std::string name = link.GetString(key);
            auto it = byName.find(name);
            if (it == byName.end())
            {
                link.At(key).Fail("unknown node '" + name + "'", "a node name");
            }
            ends[e] = it->second;
        }
        if (ends[0] == ends[1])
        {
            link.GetPlace().Fail("link from a node to itself", "two different nodes");
        }
        auto pair = std::minmax(ends[0], ends[1]);
        if (!seen.emplace(std::pair{pair.first, pair.second}, i).second)
        {
            link.GetPlace().Fail("second link between the same nodes", "at most one link");
        }
        if (m_nodes[ends[0]].host && m_nodes[ends[1]].host)
        {
            link.GetPlace().Fail("link between two hosts", "hosts linked to switches");
        }
        AddLink(ends[0], ends[1], ReadSpec(link, defaults));
    }
}

void
FabricTopology::ValidateShape(const std::string& where) const
{
    if (m_hosts.empty())
    {
        JsonPlace(where, "nodes").Fail("no host", "at least one node with \"type\": \"host\"");
    }
    for (uint32_t n : m_hosts)
    {
        if (m_out[n].size() != 1)
        {
            JsonPlace(where, "links")
                .Fail("host '" + m_nodes[n].name + "' has " + std::to_string(m_out[n].size())
                          + " links",
                      "exactly one link per host (its NIC)");
        }
    }
    // Connected: every node reachable from host 0 (breadth-first search over the links).
    std::vector<uint8_t> seen(m_nodes.size(), 0);
    std::vector<uint32_t> todo{m_hosts.front()};
    seen[m_hosts.front()] = 1;
    while (!todo.empty())
    {
        uint32_t n = todo.back();
        todo.pop_back();
        for (uint32_t l : m_out[n])
        {
            if (!seen[m_links[l].to])
            {
                seen[m_links[l].to] = 1;
                todo.push_back(m_links[l].to);
            }
        }
    }
    for (uint32_t n = 0; n < m_nodes.size(); ++n)
    {
        if (!seen[n])
        {
            JsonPlace(where, "links")
                .Fail("node '" + m_nodes[n].name + "' is not connected to '"
                          + m_nodes[m_hosts.front()].name + "'",
                      "a connected fabric");
        }
    }
}

const std::string&
FabricTopology::GetKind() const
{
    return m_kind;
}

uint32_t
FabricTopology::GetNNodes() const
{
    return static_cast<uint32_t>(m_nodes.size());
}

uint32_t
FabricTopology::GetNHosts() const
{
    return static_cast<uint32_t>(m_hosts.size());
}

uint32_t
FabricTopology::GetNLinks() const
{
    return static_cast<uint32_t>(m_links.size());
}

const FabricTopology::Node&
FabricTopology::GetNode(uint32_t node) const
{
    return m_nodes.at(node);
}

const FabricTopology::Link&
FabricTopology::GetLink(uint32_t link) const
{
    return m_links.at(link);
}

uint32_t
FabricTopology::GetHostNode(uint32_t host) const
{
    return m_hosts.at(host);
}

uint32_t
FabricTopology::GetRack(uint32_t host) const
{
    return m_rackOf.at(host);
}

uint32_t
FabricTopology::GetNRacks() const
{
    return m_racks;
}

const std::vector<uint32_t>&
FabricTopology::GetOutLinks(uint32_t node) const
{
    return m_out.at(node);
}

uint32_t
FabricTopology::GetHostUplink(uint32_t host) const
{
    return m_out[m_hosts.at(host)].front();
}

uint32_t
FabricTopology::GetHostDownlink(uint32_t host) const
{
    return Reverse(GetHostUplink(host));
}

const std::vector<uint32_t>&
FabricTopology::DistancesTo(uint32_t to) const
{
    auto it = m_distances.find(to);
    if (it != m_distances.end())
    {
        return it->second;
    }
    if (!m_graph)
    {
        m_graph = std::make_unique<Graph>();
        m_graph->g = Graph::Adjacency(m_nodes.size());
        for (uint32_t l = 0; l < m_links.size(); l += 2)
        {
            boost::add_edge(m_links[l].from, m_links[l].to, m_graph->g);
        }
    }
    // Every link is full duplex, so hops to `to` equal hops from it: one breadth-first search.
    std::vector<uint32_t> dist(m_nodes.size(), std::numeric_limits<uint32_t>::max());
    dist[to] = 0;
    boost::breadth_first_search(m_graph->g,
                                boost::vertex(to, m_graph->g),
                                boost::visitor(boost::make_bfs_visitor(
                                    boost::record_distances(dist.data(), boost::on_tree_edge()))));
    return m_distances.emplace(to, std::move(dist)).first->second;
}

uint32_t
FabricTopology::GetDistance(uint32_t from, uint32_t to) const
{
    if (from != to && m_nodes.at(to).host)
    {
        // A host hangs off one switch: one search per switch, not per host.
        const uint32_t edge = m_links[m_out[to].front()].to;
        return from == edge ? 1 : DistancesTo(edge).at(from) + 1;
    }
    return DistancesTo(to).at(from);
}

std::vector<uint32_t>
FabricTopology::GetNextHops(uint32_t node, uint32_t to) const
{
    std::vector<uint32_t> hops;
    if (node == to)
    {
        return hops;
    }
    uint32_t target = to;
    if (m_nodes.at(to).host)
    {
        target = m_links[m_out[to].front()].to; // the destination's edge switch
        if (node == target)
        {
            hops.push_back(Reverse(m_out[to].front()));
            return hops;
        }
    }
    const auto& dist = DistancesTo(target);
    for (uint32_t l : m_out.at(node))
    {
        if (dist[m_links[l].to] + 1 == dist[node])
        {
            hops.push_back(l);
        }
    }
    return hops;
}

std::vector<std::vector<uint32_t>>
FabricTopology::GetEqualCostPaths(uint32_t fromHost, uint32_t toHost) const
{
    const uint32_t to = GetHostNode(toHost);
    std::vector<std::vector<uint32_t>> paths;
    std::vector<std::vector<uint32_t>> partial{{}};
    // Depth-first over the next-hop sets (the number of paths is the product of their sizes
    // along the way: (k/2)^2 between pods of a fat-tree).
    std::vector<std::pair<uint32_t, std::vector<uint32_t>>> stack{{GetHostNode(fromHost), {}}};
    while (!stack.empty())
    {
        auto [node, path] = std::move(stack.back());
        stack.pop_back();
        if (node == to)
        {
            paths.push_back(std::move(path));
            continue;
        }
        auto hops = GetNextHops(node, to);
        for (auto it = hops.rbegin(); it != hops.rend(); ++it)
        {
            auto next = path;
            next.push_back(*it);
            stack.emplace_back(m_links[*it].to, std::move(next));
        }
    }
    return paths;
}

std::vector<uint32_t>
FabricTopology::GetPath(uint32_t fromHost, uint32_t toHost, const FlowKey& key) const
{
    const uint32_t to = GetHostNode(toHost);
    std::vector<uint32_t> path;
    uint32_t node = GetHostNode(fromHost);
    while (node != to)
    {
        auto hops = GetNextHops(node, to);
        NS_ASSERT_MSG(!hops.empty(), "no route");
        uint32_t l = hops.size() == 1 ? hops[0] : hops[EcmpHash(key, m_seed, node) % hops.size()];
        path.push_back(l);
        node = m_links[l].to;
    }
    return path;
}

double
FabricTopology::GetPathDelay(const std::vector<uint32_t>& path) const
{
    double d = 0;
    for (uint32_t l : path)
    {
        d += m_links.at(l).spec.delay.GetSeconds();
    }
    return d;
}

double
FabricTopology::GetBisectionBandwidth() const
{
    using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
    using FlowGraph = boost::adjacency_list<
        boost::vecS,
        boost::vecS,
        boost::directedS,
        boost::no_property,
        boost::property<
            boost::edge_capacity_t,
            double,
            boost::property<boost::edge_residual_capacity_t,
                            double,
                            boost::property<boost::edge_reverse_t, Traits::edge_descriptor>>>>;
    const uint32_t n = GetNNodes();
    FlowGraph g(n + 2);
    auto capacity = boost::get(boost::edge_capacity, g);
    auto reverse = boost::get(boost::edge_reverse, g);
    auto addArc = [&](uint32_t a, uint32_t b, double c)
    {
        auto e = boost::add_edge(a, b, g).first;
        auto r = boost::add_edge(b, a, g).first;
        capacity[e] = c;
        capacity[r] = 0;
        reverse[e] = r;
        reverse[r] = e;
    };
    double total = 0;
    for (const auto& l : m_links)
    {
        addArc(l.from, l.to, static_cast<double>(l.spec.rate.GetBitRate()));
        total += static_cast<double>(l.spec.rate.GetBitRate());
    }
    const uint32_t source = n;
    const uint32_t sink = n + 1;
    const uint32_t half = GetNHosts() / 2;
    for (uint32_t h = 0; h < 2 * half; ++h)
    {
        h < half ? addArc(source, m_hosts[h], total) : addArc(m_hosts[h], sink, total);
    }
    if (half == 0)
    {
        return 0;
    }
    return boost::push_relabel_max_flow(g, source, sink);
}

uint64_t
FabricTopology::EcmpHash(const FlowKey& key, uint64_t seed, uint32_t node)
{
    uint64_t h = SplitMix64(seed ^ (static_cast<uint64_t>(node) << 32));
    h = SplitMix64(h ^ (static_cast<uint64_t>(key.srcAddress) << 32 | key.dstAddress));
    h = SplitMix64(h
                   ^ (static_cast<uint64_t>(key.srcPort) << 24
                      | static_cast<uint64_t>(key.dstPort) << 8 | key.protocol));
    return h;
}

uint32_t
FabricTopology::GetHostAddress(uint32_t host)
{
    NS_ASSERT_MSG(host < 65536, "at most 65,536 hosts");
    return (10u << 24) | (host << 8) | 1u;
}

void
FabricTopology::SetEcmpSeed(uint64_t seed)
{
    m_seed = seed;
}

uint64_t
FabricTopology::GetEcmpSeed() const
{
    return m_seed;
}

std::string
FabricTopology::Describe() const
{
    std::ostringstream os;
    os << m_kind << ": " << GetNHosts() << " hosts, " << GetNNodes() - GetNHosts() << " switches, "
       << m_links.size() / 2 << " links, " << m_racks << " racks, bisection "
       << GetBisectionBandwidth() / 1e9 << " Gbps";
    return os.str();
}

} // namespace ns3

namespace ns3
{

std::vector<uint32_t>
FabricTopology::Place(const std::string& option,
                      const std::string& policy,
                      uint32_t count,
                      uint64_t seed) const
{
    const uint32_t hosts = GetNHosts();
    if (count > hosts)
    {
        throw TrainingInputError(option + ": " + std::to_string(count) + " workers and servers on "
                                 + std::to_string(hosts) + " hosts of the " + m_kind
                                 + " fabric (expected at most one role per host)");
    }
    std::vector<uint32_t> order(hosts);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        order[h] = h;
    }
    if (policy == "spread")
    {
        // Rank of each host inside its rack, then sort by (rank, rack).
        std::vector<uint32_t> rank(hosts);
        std::vector<uint32_t> seen(m_racks, 0);
        for (uint32_t h = 0; h < hosts; ++h)
        {
            rank[h] = seen[m_rackOf[h]]++;
        }
        std::stable_sort(
            order.begin(),
            order.end(),
            [&](uint32_t a, uint32_t b)
            {
                return std::pair{rank[a], m_rackOf[a]} < std::pair{rank[b], m_rackOf[b]};
            });
    }
    else if (policy == "random")
    {
        uint64_t state = SplitMix64(seed ^ 0x706c6163656dULL);
        for (uint32_t i = hosts; i > 1; --i)
        {
            state = SplitMix64(state);
            uint32_t j = static_cast<uint32_t>(DtMulHigh64(state, i));
            std::swap(order[i - 1], order[j]);
        }
    }
    else if (policy != "packed")
    {
        return PlaceExplicit(option, policy, count);
    }
    order.resize(count);
    return order;
}

std::vector<uint32_t>
FabricTopology::PlaceExplicit(const std::string& option,
                              const std::string& list,
                              uint32_t count) const
{
    const std::string expected = "packed, spread, random or a list of " + std::to_string(count)
                                 + " distinct host indices below " + std::to_string(GetNHosts())
                                 + ", workers first, e.g. 0,4,8";
    std::vector<uint32_t> hosts;
    std::vector<uint8_t> used(GetNHosts(), 0);
    std::stringstream ss(list);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        std::size_t pos = 0;
        unsigned long v = 0;
        try
        {
            v = std::stoul(item, &pos);
        }
        catch (const std::exception&)
        {
            pos = 0;
        }
        if (pos == 0 || pos != item.size() || v >= GetNHosts() || used[v])
        {
            throw TrainingInputError(option + ": bad host '" + item + "' in '" + list
                                     + "' (expected " + expected + ")");
        }
        used[v] = 1;
        hosts.push_back(static_cast<uint32_t>(v));
    }
    if (hosts.size() != count)
    {
        throw TrainingInputError(option + ": '" + list + "' places " + std::to_string(hosts.size())
                                 + " roles (expected " + expected + ")");
    }
    return hosts;
}

void
FabricTopology::SetHostName(uint32_t host, const std::string& name)
{
    const uint32_t n = GetHostNode(host);
    m_nodes[n].name = name;
    for (uint32_t l : m_out[n])
    {
        for (uint32_t d : {l, Reverse(l)})
        {
            m_links[d].name = m_nodes[m_links[d].from].name + "->" + m_nodes[m_links[d].to].name;
        }
    }
}

} // namespace ns3

namespace ns3
{

void
FabricTopology::SetRoles(const std::vector<uint32_t>& hosts, const std::vector<std::string>& names)
{
    NS_ASSERT(hosts.size() == names.size());
    m_roleHost = hosts;
    // A host of several roles (a co-located server) keeps its first role's name. One pass with
    // a set of named hosts: a search of the earlier roles made 100,000 roles take minutes.
    std::unordered_set<uint32_t> named;
    for (std::size_t r = 0; r < hosts.size(); ++r)
    {
        if (named.insert(hosts[r]).second)
        {
            SetHostName(hosts[r], names[r]);
        }
    }
}

uint32_t
FabricTopology::GetNRoles() const
{
    return static_cast<uint32_t>(m_roleHost.size());
}

uint32_t
FabricTopology::GetRoleHost(uint32_t role) const
{
    return m_roleHost.at(role);
}

} // namespace ns3

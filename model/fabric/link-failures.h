/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LINK_FAILURES_H
#define LINK_FAILURES_H

#include "fabric-topology.h"

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief One link outage (--linkDown): a full-duplex link of the fabric, named as the link
 * report names either of its directions ("leaf0->spine1"), is down from start for length
 * (simulation seconds; infinity: to the end of the run).
 */
struct LinkOutage
{
    std::string link; //!< "<from>-><to>", either direction of the cable
    double start{0};  //!< when it goes down, s (>= 0)
    double length{std::numeric_limits<double>::infinity()}; //!< how long it stays down, s (> 0)

    /// \return start + length
    double End() const;
};

/**
 * \ingroup distributed-training
 * \brief The one rule of how per-flow ECMP routes around failed links, used by the packet
 * level's FabricEcmpRouting and the flow engines alike.
 *
 * While a set of links is down, every node routes by hop count over the surviving graph (the
 * converged routing protocol: a spine that lost its link to leaf0 withdraws leaf0's prefixes,
 * so the other leaves stop choosing it for leaf0's hosts). The ECMP group of a node towards a
 * destination thus shrinks to the surviving next hops one hop closer. A flow keeps the next hop
 * the unfailed fabric's hash gives it (FabricTopology::GetPath) while that next hop is in the
 * shrunken group; only the flows whose next hop left the group re-hash, with the same hash, over
 * the survivors (survivors[EcmpHash mod n]). This is resilient hashing, what data-centre switches
 * do when an ECMP group shrinks (Broadcom's resilient hashing, Cumulus/Arista "resilient ECMP"):
 * plain modulo-n hashing would move most of the flows that never crossed the failed link and
 * reorder their TCP streams, which is why switches avoid it. It also means a failure that no flow
 * crosses changes nothing. When no link is down the rule is exactly FabricTopology::GetPath's.
 */
class LinkFailures
{
  public:
    /**
     * \param fabric the placed fabric (its link names); copied
     * \param outages the outages (names resolved here)
     * \throws TrainingInputError naming --linkDown: an unknown link, a host's own link on a
     *         fabric where it is the host's only link, overlapping outages of one link, or a set
     *         of links down at once that disconnects two placed hosts
     */
    LinkFailures(const FabricTopology& fabric, const std::vector<LinkOutage>& outages);

    /**
     * \brief Parse --linkDown: "link@start[:length]" entries separated by commas, e.g.
     * "leaf0->spine0@50ms" or "leaf0->spine0@50ms:200ms" (the link comes back after length).
     * \param option the option, for messages
     * \param text the value
     * \return the outages (names not yet checked against a fabric)
     * \throws TrainingInputError naming the option and what was expected
     */
    static std::vector<LinkOutage> Parse(const std::string& option, const std::string& text);

    /** \return whether no outage was given */
    bool IsEmpty() const;

    /**
     * \return the times (s, ascending, distinct) at which the set of down links changes
     */
    const std::vector<double>& GetChangeTimes() const;

    /**
     * \param t a time (s)
     * \return the index of the interval of constant down links containing t (0 before the first
     *         change)
     */
    uint32_t GetEpoch(double t) const;

    /**
     * \param link a directed link
     * \param t a time (s)
     * \return whether the link (either direction of its cable) is down at t
     */
    bool IsDown(uint32_t link, double t) const;

    /**
     * \param node the deciding node
     * \param to the destination host's node
     * \param key the flow's 5-tuple
     * \param t the time (s)
     * \return the directed link the flow leaves node on (the rule above)
     */
    uint32_t NextHop(uint32_t node,
                     uint32_t to,
                     const FabricTopology::FlowKey& key,
                     double t) const;

    /**
     * \param fromHost source host
     * \param toHost destination host
     * \param key the flow's 5-tuple
     * \param t the time (s)
     * \return the flow's directed links at t (FabricTopology::GetPath when no link is down)
     */
    std::vector<uint32_t> GetPath(uint32_t fromHost,
                                  uint32_t toHost,
                                  const FabricTopology::FlowKey& key,
                                  double t) const;

    /**
     * \param t a time (s)
     * \return the cables (the even directed link of each) down at t, ascending
     */
    std::vector<uint32_t> GetDownLinks(double t) const;

    /** \return the outages with their cables (the even directed link), as given */
    const std::vector<std::pair<LinkOutage, uint32_t>>& GetOutages() const;

  private:
    /**
     * \param name a link name
     * \return the cable (even directed link) it names
     * \throws TrainingInputError naming --linkDown
     */
    uint32_t Resolve(const std::string& name) const;
    /// Refuse overlapping outages of one cable and down sets that disconnect placed hosts.
    void CheckConnected() const;
    /**
     * \param epoch an interval of constant down links
     * \param target a node
     * \return hops from every node to target over the surviving links (cached)
     */
    const std::vector<uint32_t>& Distances(uint32_t epoch, uint32_t target) const;

    FabricTopology m_fabric;                                //!< the placed fabric
    std::vector<std::pair<LinkOutage, uint32_t>> m_outages; //!< outages and their cables
    std::vector<double> m_changes;                          //!< change times, ascending
    std::vector<std::vector<uint8_t>> m_down;               //!< per epoch: per cable, down
    mutable std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> m_dist; //!< cache
};

} // namespace ns3

#endif /* LINK_FAILURES_H */

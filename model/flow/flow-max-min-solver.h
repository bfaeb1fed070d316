/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_MAX_MIN_SOLVER_H
#define FLOW_MAX_MIN_SOLVER_H

#include "flow-ps-types.h"
#include "flow-rate-solver.h"

#include <map>

namespace ns3
{
namespace flow
{

/**
 * The incremental solver of plain max-min models (SharingModel::IsPlainMaxMin). Plain max-min
 * gives flows that cross the same shared links with the same cap the same rate, so such
 * connections form one rate class, keyed by those links and that cap (ClassKey; a link only one
 * connection crosses limits it like a cap of its capacity, so it goes into the cap), and each
 * class is one aggregate flow of weight = its members (SharingModel::AssignAggregateRates): a
 * rate computation costs per class, not per connection. The keys follow the links' counts of
 * active connections as they change. In a shared run of several jobs (one server each), a link
 * counts as shared while two flows of any job cross it (SharedLinks).
 */
class MaxMinSolver : public RateSolver
{
  public:
    /**
     * \param table the run's connections and rate classes
     * \param sharing the sharing model
     * \param honourCaps the model honours the flow cap
     */
    MaxMinSolver(TransferTable& table, const SharingModel& sharing, bool honourCaps);

    void Activated(uint32_t ci) override;
    void Deactivated(uint32_t ci) override;
    void ClassReleased(uint32_t k) override;
    uint64_t Solve(uint32_t gi) override;
    void CollectShared(std::vector<SharingModel::Flow>& flows,
                       std::vector<double>& weights) override;
    std::array<uint64_t, 2> ApplyShared(const double* rates) override;
    void RekeyLink(uint32_t l) override;
    void ShareLinks(SharedLinks* links, uint32_t id) override;

  protected:
    /// One direction's link counts, classes by key and capacities.
    struct Links
    {
        std::vector<uint32_t> count;        //!< active connections per link
        std::vector<uint32_t> xorOf;        //!< XOR of their indices (the one if alone)
        std::map<ClassKey, uint32_t> byKey; //!< the class of each key
        std::vector<double> capacity;       //!< per link (bytes/s), then BundledMaxMinSolver's
    };

    /**
     * \param ci connection index
     * \return its class key with the current link counts
     */
    virtual ClassKey KeyOf(uint32_t ci);
    /**
     * \brief The keys that a connection's (de)activation changed: the connections given (whose
     * link went from one connection to two or back) are re-keyed.
     * \param ci connection index
     * \param add true when it was added
     * \param others the connections whose link went from one connection to two or back
     * \param nOthers how many
     */
    virtual void Recount(uint32_t ci, bool add, const uint32_t* others, uint32_t nOthers);
    /**
     * \brief Before a rate computation of the group.
     * \param gi group index
     */
    virtual void Prepare(uint32_t gi);

    /**
     * \param ci connection index
     * \return its key by its own links: those two connections cross, the others in the cap
     */
    ClassKey LinkKeyOf(uint32_t ci) const;
    /**
     * \brief Move an active connection to the class of its current key.
     * \param ci connection index
     */
    void Rekey(uint32_t ci);

    /**
     * \param gi group
     * \param l link
     * \return whether two or more flows cross l: the group's connections, or in a shared run
     *         every job's flows
     */
    bool IsSharedLink(uint32_t gi, uint32_t l) const;

    Links m_links[2];               //!< per direction
    std::vector<ClassKey> m_keys;   //!< each class's key
    bool m_honourCaps;              //!< the model honours the flow cap
    SharedLinks* m_shared{nullptr}; //!< shared run: every job's link use
    uint32_t m_sharedId{0};         //!< this job's id in m_shared

  private:
    /**
     * \brief Count the connection on its links (+1 or -1); a link that goes from one connection
     * to two, or back to one, changes the key of the other one.
     * \param ci connection index
     * \param add true to add, false to remove
     */
    void CountLinks(uint32_t ci, bool add);
    /**
     * \brief Shared run: count the connection's links in SharedLinks, and re-key the connection
     * of another job, or of this job's other direction, that had (or now has) one of them alone.
     * \param ci connection index
     * \param add true to add, false to remove
     */
    void CountShared(uint32_t ci, bool add);
    /**
     * \param gi group index
     * \param key a key
     * \return the group's class of that key (new if none)
     */
    uint32_t ClassOf(uint32_t gi, const ClassKey& key);
    /**
     * \param k a live class
     * \param i its index in its group's list (the aggregate's priority)
     * \return the aggregate flow of its members (cap: members x the per-flow cap)
     */
    SharingModel::Flow AggregateOf(uint32_t k, std::size_t i) const;

    std::vector<SharingModel::Flow> m_flows; //!< scratch: aggregates
    std::vector<double> m_weights;           //!< scratch: their members
    std::vector<double> m_rates;             //!< scratch: their rates
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_MAX_MIN_SOLVER_H */

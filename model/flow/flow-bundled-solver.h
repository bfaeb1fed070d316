/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_BUNDLED_SOLVER_H
#define FLOW_BUNDLED_SOLVER_H

#include "flow-max-min-solver.h"

#include <map>
#include <utility>

namespace ns3
{
namespace flow
{

/**
 * MaxMinSolver with several parameter servers. A worker's connections of one direction (its
 * bundle: one per server it is sending to or receiving from) cross its NIC together, so no two
 * of them are interchangeable with each other, and by MaxMinSolver's rule (a link is in a class's
 * key once two connections cross it) each would be a class of its own: a rate computation would
 * cost per active connection. But two workers whose bundles look the same (the same servers, the
 * same shared links and caps, links they have to themselves crossed by the same members with the
 * same capacities) are interchangeable as a whole, and max-min fairness, whose allocation is
 * unique, gives both the same rates. So the class of a bundle's member is keyed by the bundle's
 * signature and its server, and the links a bundle has to itself become virtual links of that
 * signature: n bundles of one signature are n times one bundle, a virtual link of n times the
 * capacity crossed by aggregates of weight n.
 */
class BundledMaxMinSolver : public MaxMinSolver
{
  public:
    /**
     * \param table the run's connections and rate classes
     * \param sharing the sharing model
     * \param honourCaps the model honours the flow cap
     * \param servers parameter servers (> 1)
     */
    BundledMaxMinSolver(TransferTable& table,
                        const SharingModel& sharing,
                        bool honourCaps,
                        uint32_t servers);

  protected:
    ClassKey KeyOf(uint32_t ci) override;
    void Recount(uint32_t ci, bool add, const uint32_t* others, uint32_t nOthers) override;
    void Prepare(uint32_t gi) override;

  private:
    /// One direction's workers per link and bundle signatures.
    struct Bundles
    {
        std::vector<uint32_t> workers;                         //!< workers active per link
        std::vector<uint32_t> workerXor;                       //!< XOR of those workers
        std::map<std::vector<uint64_t>, uint32_t> bySignature; //!< its first virtual link
        std::vector<double> virtualCap; //!< per virtual link: the capacity of one bundle's link
    };

    /**
     * \param ci connection index
     * \param l link
     * \return whether another active connection of its worker and direction crosses l
     */
    bool MateCrosses(uint32_t ci, uint32_t l) const;
    /**
     * \param gi group
     * \param l link
     * \return whether two or more connections, all of one worker, cross l
     */
    bool IsBundleLink(uint32_t gi, uint32_t l) const;
    /**
     * \brief Fill m_bundle and m_private for the worker of ci.
     * \param ci connection index
     */
    void FindBundle(uint32_t ci);
    /**
     * \param gi group index
     * \return the first virtual link of the signature of m_bundle / m_private (new if none)
     */
    uint32_t BundleBase(uint32_t gi);

    uint32_t m_p;                   //!< servers
    uint32_t m_realLinks;           //!< links of the fabric (then virtual ones)
    Bundles m_bundles[2];           //!< per direction
    std::vector<uint32_t> m_rekey;  //!< scratch: workers whose bundles to rekey
    std::vector<uint32_t> m_bundle; //!< scratch: a worker's active connections
    std::vector<std::pair<uint32_t, uint64_t>> m_private; //!< scratch: (link, members mask)
    std::vector<uint64_t> m_sig;                          //!< scratch: a bundle signature
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_BUNDLED_SOLVER_H */

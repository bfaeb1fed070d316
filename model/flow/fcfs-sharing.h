/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FCFS_SHARING_H
#define FCFS_SHARING_H

#include "fcfs-rule.h"
#include "sharing-model.h"

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief First come, first served: Share of Algorithm 1 in 000_466ded720105ddf3.txt with
 * LINK_MODEL == FCFS (Sec. 2.2.2, and Sec. 3.1.1 Fig. 8b / Eq. (8) for sync PS).
 *
 * In Algorithm 1 the worker at the front of active[r] (the one that became active first on the
 * server's downlink or uplink) gets the whole link and the others wait. Generalised to flows that
 * cross several links: flows are served in priority order (the order in which their connections
 * became active) and each takes all the capacity still free on every link it crosses. With one
 * server this is exactly Algorithm 1; with several, a worker served by server 0 blocks its own
 * NIC for server 1's flow to it, and another worker can use server 1 meanwhile. Per-flow caps
 * are ignored, as in the paper. The rule itself is FcfsRule (shared with the flow engine).
 */
class FcfsSharing : public SharingModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FcfsSharing();
    ~FcfsSharing() override;

    void AssignRates(const std::vector<Flow>& flows,
                     const std::vector<double>& capacity,
                     std::vector<double>& rates) const override;

    /** \return "fcfs" */
    std::string GetName() const override;

    /** \return true */
    bool IsFirstComeFirstServed() const override;

  private:
    mutable FcfsRule m_rule; //!< the rule, with its per-link scratch (not thread-safe)
};

} // namespace ns3

#endif /* FCFS_SHARING_H */

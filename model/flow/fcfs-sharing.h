/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FCFS_SHARING_H
#define FCFS_SHARING_H

#include "sharing-model.h"

#include <algorithm>
#include <limits>

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
 * are ignored, as in the paper.
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

    /**
     * \brief The rule for one flow, in priority order: it takes all the capacity still free on
     * every link it crosses (infinity if it crosses none), never less than 0.
     * \param links the links it crosses
     * \param nLinks how many
     * \param capacity link capacities (bytes/s)
     * \param remaining per link: capacity still free before it (reduced by its rate)
     * \return its rate (bytes/s)
     */
    static double Serve(const uint32_t* links,
                        uint32_t nLinks,
                        const std::vector<double>& capacity,
                        double* remaining)
    {
        double rate = nLinks == 0 ? std::numeric_limits<double>::infinity() : capacity[links[0]];
        for (uint32_t k = 0; k < nLinks; ++k)
        {
            rate = std::min(rate, remaining[links[k]]);
        }
        rate = std::max(rate, 0.0);
        for (uint32_t k = 0; k < nLinks; ++k)
        {
            remaining[links[k]] -= rate;
        }
        return rate;
    }
};

} // namespace ns3

#endif /* FCFS_SHARING_H */

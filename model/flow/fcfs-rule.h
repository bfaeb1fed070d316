/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FCFS_RULE_H
#define FCFS_RULE_H

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The first come, first served rule of one rate computation, defined once: flows are
 * served in priority order and each takes all the capacity still free on every link it crosses
 * (Share of Algorithm 1 in 000_466ded720105ddf3.txt with LINK_MODEL == FCFS, generalised to
 * flows that cross several links). FcfsSharing::AssignRates serves every flow through it; the
 * flow engine's FcfsSolver serves the same flows in the same order, less those behind a full
 * link (IsFull), whose rate would be 0 and which would leave every link as it was.
 *
 * A link's free capacity is its capacity when first met in the round (stamped per round), so
 * that a rate computation never sweeps all links.
 */
class FcfsRule
{
  public:
    /**
     * \brief Start a rate computation: every link's capacity is free again.
     * \param capacity link capacities (bytes/s); kept by reference until the next Begin
     */
    void Begin(const std::vector<double>& capacity)
    {
        m_capacity = &capacity;
        if (m_stamp.size() < capacity.size())
        {
            m_stamp.resize(capacity.size(), 0);
            m_free.resize(capacity.size(), 0);
        }
        ++m_round;
    }

    /**
     * \param l a link
     * \return whether flows served earlier in this round took all of its capacity
     */
    bool IsFull(uint32_t l) const
    {
        return m_stamp[l] == m_round && m_free[l] <= 0;
    }

    /**
     * \brief Serve the next flow in priority order: it takes all the capacity still free on
     * every link it crosses (infinity if it crosses none), never less than 0.
     * \param links the links it crosses
     * \param nLinks how many
     * \return its rate (bytes/s)
     */
    double Serve(const uint32_t* links, uint32_t nLinks)
    {
        const std::vector<double>& capacity = *m_capacity;
        for (uint32_t k = 0; k < nLinks; ++k)
        {
            if (m_stamp[links[k]] != m_round)
            {
                m_stamp[links[k]] = m_round;
                m_free[links[k]] = capacity[links[k]];
            }
        }
        double rate = nLinks == 0 ? std::numeric_limits<double>::infinity() : capacity[links[0]];
        for (uint32_t k = 0; k < nLinks; ++k)
        {
            rate = std::min(rate, m_free[links[k]]);
        }
        rate = std::max(rate, 0.0);
        for (uint32_t k = 0; k < nLinks; ++k)
        {
            m_free[links[k]] -= rate;
        }
        return rate;
    }

  private:
    const std::vector<double>* m_capacity{nullptr}; //!< the round's link capacities
    std::vector<double> m_free;                     //!< per link: capacity still free
    std::vector<uint32_t> m_stamp;                  //!< per link: the round that set m_free
    uint32_t m_round{0};                            //!< rate computations so far
};

} // namespace ns3

#endif /* FCFS_RULE_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SHARING_MODEL_H
#define SHARING_MODEL_H

#include "ns3/object.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief How concurrent transfers share the network: the Share procedure of Algorithm 1 in
 * 000_466ded720105ddf3.txt (Sec. 2.2.2), generalised from "one link per direction" to any set of
 * links, so that the flow-level simulator can ask it for the rate of every active flow.
 *
 * The simulator describes each active flow by the links it crosses (in the star topology of the
 * module: the sender's NIC link and the receiver's NIC link), by its priority (the order in which
 * the connection carrying it became active, which is what FCFS needs), by the time at which that
 * happened (what an age-dependent model such as CalibratedSharing needs) and by its per-flow rate
 * cap.
 * The model returns a rate for every flow such that no link carries more than its capacity.
 * A model is free to ignore the cap (Algorithm 1's FCFS and PS do; CappedSharing honours it).
 *
 * A new sharing rule (RTT-weighted, calibrated on packet-level runs, ...) is one subclass that
 * implements AssignRates() and GetName().
 */
class SharingModel : public Object
{
  public:
    /// Largest number of links a flow may cross (2 on the star, 4 on a leaf-spine, 6 on a
    /// three-tier fat-tree; FabricTopology paths).
    static constexpr std::size_t MAX_LINKS = 8;

    /// One active flow, as the sharing model sees it.
    struct Flow
    {
        std::array<uint32_t, MAX_LINKS> links{}; //!< indices into the capacity vector
        uint32_t nLinks{0};                      //!< how many entries of links are used
        uint64_t priority{0};                    //!< smaller = its connection became active earlier
        double cap{0};   //!< per-flow rate cap (bytes/s); infinity when uncapped
        double start{0}; //!< when its connection last became active (seconds)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    SharingModel();
    ~SharingModel() override;

    /**
     * \brief Assign a rate to every active flow.
     * \param flows the active flows (any order)
     * \param capacity capacity of every link (bytes/s), indexed by Flow::links
     * \param rates output: rates[i] is the rate of flows[i] (bytes/s), resized by the model
     */
    virtual void AssignRates(const std::vector<Flow>& flows,
                             const std::vector<double>& capacity,
                             std::vector<double>& rates) const = 0;

    /** \return the model's name as used by --sharing and in result variants ("ps", ...) */
    virtual std::string GetName() const = 0;

    /**
     * \brief Whether AssignRates is plain max-min fairness (MaxMinFair, equal weights): then two
     * flows that cross the same links with the same cap always get the same rate, and an engine
     * may hand such flows to AssignAggregateRates as one aggregate (the flow engines do, so that a
     * rate computation costs per set of interchangeable flows, not per flow).
     * \param honoursCaps output: whether Flow::cap is honoured (set when true is returned)
     * \return true for plain max-min; false (the default) otherwise
     */
    virtual bool IsPlainMaxMin(bool& honoursCaps) const;

    /**
     * \brief Whether AssignRates is first come, first served (FcfsSharing): flows are served in
     * priority order and each takes FcfsSharing::Serve of what its predecessors left. Then a flow
     * crossing a link that earlier flows filled gets 0 and changes nothing for the later ones, so
     * an engine may serve the flows in that order itself and stop on a link once it is full (the
     * flow engines do: a rate computation then costs per flow that can get a rate, not per flow).
     * \return true for FCFS; false (the default) otherwise
     */
    virtual bool IsFirstComeFirstServed() const;

    /**
     * \brief Max-min fair rates of aggregates of identical flows (IsPlainMaxMin models): aggregate
     * i stands for weights[i] flows and its Flow::cap is weights[i] times theirs (caps are always
     * honoured: give infinity for none). rates[i] is the aggregate's rate, weights[i] times each
     * flow's.
     * \param aggregates the aggregates
     * \param weights flows per aggregate (> 0)
     * \param capacity link capacities (bytes/s)
     * \param rates output
     */
    void AssignAggregateRates(const std::vector<Flow>& aggregates,
                              const std::vector<double>& weights,
                              const std::vector<double>& capacity,
                              std::vector<double>& rates) const;

  protected:
    /**
     * \brief Max-min fair rates by progressive filling: raise every unfrozen flow's rate
     * together; when a link fills (or a flow reaches its cap, if caps are honoured), freeze the
     * flows it limits; repeat. With one shared link this is the 1/n equal share of Algorithm 1's
     * PS; with several servers it gives a worker contending with n-1 others on one server at
     * most 1-1/n of its NIC towards another (001_33040fda0f1f6815.txt Sec. 5).
     * \param flows the active flows
     * \param capacity link capacities (bytes/s)
     * \param honourCaps limit every flow to its Flow::cap
     * \param rates output rates
     * \param weights null for equal shares; else weights[i] > 0 is flow i's weight: the
     *        progressive filling raises flow i's rate as weights[i] x level (weighted max-min, or
     *        generalised processor sharing on a single link)
     */
    void MaxMinFair(const std::vector<Flow>& flows,
                    const std::vector<double>& capacity,
                    bool honourCaps,
                    std::vector<double>& rates,
                    const std::vector<double>* weights = nullptr) const;

    /**
     * \brief Scratch vectors sized to the capacity vector, reused between calls so that a rate
     * computation allocates nothing (a model object is therefore not thread-safe).
     * \param nLinks number of links
     */
    void PrepareScratch(std::size_t nLinks) const;

  private:
    /**
     * \brief MaxMinFair, first part: every used link's capacity, flow count and summed weight.
     * \param flows the active flows
     * \param capacity link capacities (bytes/s)
     * \param weights null or one weight per flow
     */
    void LoadLinks(const std::vector<Flow>& flows,
                   const std::vector<double>& capacity,
                   const std::vector<double>* weights) const;
    /**
     * \brief MaxMinFair, one round: the level at which the next link fills or cap binds.
     * \param flows the active flows
     * \param honourCaps caps count
     * \param weights null or one weight per flow
     * \return the level (infinity when nothing limits the unfrozen flows)
     */
    double NextLevel(const std::vector<Flow>& flows,
                     bool honourCaps,
                     const std::vector<double>* weights) const;
    /**
     * \brief MaxMinFair, one round: freeze at `level` the flows that a full link or their cap
     * limits, and take their rates off their links.
     * \param flows the active flows
     * \param honourCaps caps count
     * \param weights null or one weight per flow
     * \param level the round's level
     * \param rates output rates of the frozen flows
     * \return how many flows were frozen
     */
    std::size_t FreezeLimited(const std::vector<Flow>& flows,
                              bool honourCaps,
                              const std::vector<double>* weights,
                              double level,
                              std::vector<double>& rates) const;
    /**
     * \brief MaxMinFair, the end: every flow still unfrozen gets weight x level (capped).
     * \param flows the active flows
     * \param honourCaps caps count
     * \param weights null or one weight per flow
     * \param level the level
     * \param rates output rates
     */
    void FreezeRest(const std::vector<Flow>& flows,
                    bool honourCaps,
                    const std::vector<double>* weights,
                    double level,
                    std::vector<double>& rates) const;

  protected:
    mutable std::vector<double> m_remaining; //!< remaining capacity per link
    mutable std::vector<uint32_t> m_count;   //!< unfrozen flows per link
    mutable std::vector<double> m_weight;    //!< summed weight of the unfrozen flows per link
    mutable std::vector<uint8_t> m_tight;    //!< per link: full at the current level
    mutable std::vector<uint32_t> m_touched; //!< links used by some flow
    mutable std::vector<uint32_t> m_live;    //!< flows whose rate is not fixed yet, in order
    mutable std::vector<uint32_t> m_order;   //!< flow indices in some order
};

} // namespace ns3

#endif /* SHARING_MODEL_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PS_SHARING_H
#define PS_SHARING_H

#include "sharing-model.h"

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Processor sharing: Share of Algorithm 1 in 000_466ded720105ddf3.txt with LINK_MODEL
 * == PS (n active workers get 1/n of the link each; Sec. 2.2.2, and Eq. (7) for sync PS), and the
 * bandwidth-sharing model of 001_33040fda0f1f6815.txt Sec. 3.1.
 *
 * Generalised to several servers as max-min fairness over all links (the workers' and the
 * servers' NICs): connections to one server share its NIC equally, and a worker contending with
 * n-1 others on one server gets at most 1-1/n of its own NIC towards another server, which is
 * the two-server rule of 001 Sec. 5. Per-flow caps are ignored (see CappedSharing).
 */
class PsSharing : public SharingModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PsSharing();
    ~PsSharing() override;

    void AssignRates(const std::vector<Flow>& flows,
                     const std::vector<double>& capacity,
                     std::vector<double>& rates) const override;

    /** \return "ps" */
    std::string GetName() const override;

    /**
     * \param honoursCaps set to whether Flow::cap is honoured (false here, true in CappedSharing)
     * \return true: AssignRates is MaxMinFair without weights
     */
    bool IsPlainMaxMin(bool& honoursCaps) const override;

  protected:
    /**
     * \brief Max-min fairness that honours the per-flow caps or not (CappedSharing: it does).
     * \param honourCaps limit every flow to its Flow::cap
     */
    explicit PsSharing(bool honourCaps);

  private:
    bool m_honourCaps; //!< Flow::cap is honoured
};

} // namespace ns3

#endif /* PS_SHARING_H */

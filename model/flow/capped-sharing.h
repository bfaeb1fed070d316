/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CAPPED_SHARING_H
#define CAPPED_SHARING_H

#include "ps-sharing.h"

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Max-min fair sharing with a per-flow rate cap: the modified Share procedure of
 * 000_466ded720105ddf3.txt Sec. 4.4 (AWS limits every flow to 10 Gbps on 25 Gbps NICs, Fig. 23).
 *
 * Every flow gets its max-min fair share of the links it crosses, but never more than its cap:
 * three flows capped at 10 G on a 25 G link get 8.33 G each, two get 10 G each, one gets 10 G.
 * Without a cap it equals PsSharing, whose max-min filling it is with the caps honoured.
 */
class CappedSharing : public PsSharing
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    CappedSharing();

    /** \return "capped" */
    std::string GetName() const override;
};

} // namespace ns3

#endif /* CAPPED_SHARING_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ALLREDUCE_SHARING_H
#define ALLREDUCE_SHARING_H

#include "sharing-model.h"

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Full bandwidth for every flow: Share of Algorithm 1 in 000_466ded720105ddf3.txt with
 * LINK_MODEL == ALL_REDUCE (Sec. 3.2.2: in a ring every worker has its NIC to itself).
 *
 * Each flow gets the smallest capacity among the links it crosses, whatever else is active,
 * and at most its per-flow cap. This is exact for the ring of AllReduce (each NIC carries one
 * flow per direction); applied to a parameter server it is the contention-free bound. The cap
 * applies because the module's ring (packet level) carries each neighbour's chunks over one TCP
 * connection, which the scenario's per-flow cap paces; NCCL can open several sockets per peer
 * and so escape a per-flow cap (000 Sec. 4.4): model that with no cap.
 */
class AllReduceSharing : public SharingModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    AllReduceSharing();
    ~AllReduceSharing() override;

    void AssignRates(const std::vector<Flow>& flows,
                     const std::vector<double>& capacity,
                     std::vector<double>& rates) const override;

    /** \return "allreduce" */
    std::string GetName() const override;
};

} // namespace ns3

#endif /* ALLREDUCE_SHARING_H */

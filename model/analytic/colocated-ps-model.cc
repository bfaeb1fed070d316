/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "colocated-ps-model.h"

#include "ns3/training-input-error.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

namespace
{

/// The checks of this model's inputs.
constexpr TrainingInputError::Checker Check("co-located PS model");

} // namespace

ColocatedPsModel::ColocatedPsModel(const Params& p)
    : m_params(p)
{
    Check(p.workers >= 1, "K", p.workers, "at least 1 worker");
    Check(p.servers >= 1 && p.servers <= p.workers, "P", p.servers, "1 <= P <= K");
    Check(std::isfinite(p.modelBytes) && p.modelBytes > 0, "M", p.modelBytes, "bytes > 0");
    Check(std::isfinite(p.largestShard) && p.largestShard <= p.modelBytes,
          "M_max",
          p.largestShard,
          "bytes <= M");
    Check(std::isfinite(p.smallestShard) && p.smallestShard > 0
              && p.smallestShard <= p.largestShard,
          "M_min",
          p.smallestShard,
          "bytes in (0, M_max]");
    Check(std::isfinite(p.linkRate) && p.linkRate > 0, "B_link", p.linkRate, "bytes/s > 0");
    for (double t : {p.forward, p.backward, p.update, p.overhead})
    {
        Check(std::isfinite(t) && t >= 0, "T_F, T_B, T_S or overhead", t, "a time >= 0");
    }
}

double
ColocatedPsModel::PhaseBytes() const
{
    const Params& p = m_params;
    const double serverSide = (p.workers - 1) * p.largestShard;
    const double workerSide = p.workers > p.servers ? p.modelBytes : p.modelBytes - p.smallestShard;
    return std::max(serverSide, workerSide);
}

bool
ColocatedPsModel::ServerSideBusiest() const
{
    const Params& p = m_params;
    return (p.workers - 1) * p.largestShard >= PhaseBytes();
}

double
ColocatedPsModel::Step() const
{
    const Params& p = m_params;
    return 2 * PhaseBytes() / p.linkRate + p.forward + p.backward + p.update + p.overhead;
}

const ColocatedPsModel::Params&
ColocatedPsModel::GetParams() const
{
    return m_params;
}

} // namespace ns3

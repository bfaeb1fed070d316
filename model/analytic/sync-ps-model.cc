/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sync-ps-model.h"

#include "ns3/log.h"
#include "ns3/training-input-error.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SyncPsModel");

namespace
{

/// The checks of this model's inputs.
constexpr TrainingInputError::Checker Check("sync PS model");

} // namespace

SyncPsModel::SyncPsModel(const Params& p)
    : m_params(p)
{
    NS_LOG_FUNCTION(this);
    Check(p.workers >= 1, "K", p.workers, "at least 1 worker");
    Check(std::isfinite(p.modelBytes) && p.modelBytes > 0, "M", p.modelBytes, "bytes > 0");
    Check(std::isfinite(p.serverBytes) && p.serverBytes > 0 && p.serverBytes <= p.modelBytes,
          "M_s",
          p.serverBytes,
          "bytes in (0, M]");
    Check(std::isfinite(p.flowRate) && p.flowRate > 0, "B_flow", p.flowRate, "bytes/s > 0");
    Check(std::isfinite(p.linkRate) && p.linkRate >= p.flowRate,
          "B_link",
          p.linkRate,
          "bytes/s >= B_flow");
    for (double t : {p.forward, p.backward, p.update, p.overhead})
    {
        Check(std::isfinite(t) && t >= 0, "T_F, T_B, T_S or overhead", t, "a time >= 0");
    }
}

const SyncPsModel::Params&
SyncPsModel::GetParams() const
{
    return m_params;
}

double
SyncPsModel::TransferTime() const
{
    return std::max(m_params.serverBytes / m_params.flowRate,
                    m_params.modelBytes / m_params.linkRate);
}

double
SyncPsModel::DrainTime() const
{
    return std::max(m_params.workers * m_params.serverBytes / m_params.linkRate, TransferTime());
}

double
SyncPsModel::Eq7() const
{
    const Params& p = m_params;
    return DrainTime() + (p.forward + p.backward) + DrainTime() + p.update + p.overhead;
}

double
SyncPsModel::Eq8() const
{
    const Params& p = m_params;
    return DrainTime() + (p.forward + p.backward) + TransferTime() + p.update + p.overhead;
}

double
SyncPsModel::Eq9() const
{
    const Params& p = m_params;
    return DrainTime() + (p.forward + p.backward) + (DrainTime() + TransferTime()) / 2 + p.update
           + p.overhead;
}

double
SyncPsModel::Eq10() const
{
    const Params& p = m_params;
    return std::max(DrainTime(), p.forward)
           + std::max((DrainTime() + TransferTime()) / 2, p.backward) + p.update + p.overhead;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ps-read-bounds-model.h"

#include "ns3/training-input-error.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

namespace ns3
{

namespace
{

/// The checks of this model's inputs.
constexpr TrainingInputError::Checker Check("PS read-time bounds");

} // namespace

PsReadBoundsModel::PsReadBoundsModel(const Params& p)
    : m_params(p)
{
    Check(!p.layerBytes.empty(), "layers", 0, "at least one layer");
    for (double w : p.layerBytes)
    {
        Check(std::isfinite(w) && w >= 0, "W(l)", w, "bytes >= 0");
    }
    Check(p.replicas >= 1, "N_mr", p.replicas, "at least 1 replica");
    Check(p.servers >= 1, "N_ps", p.servers, "at least 1 server");
    Check(p.workersPerReplica >= 1, "N_wr", p.workersPerReplica, "at least 1 machine");
    Check(std::isfinite(p.latency) && p.latency >= 0, "C_ncost", p.latency, "a time >= 0");
    Check(std::isfinite(p.bandwidth) && p.bandwidth > 0, "C_nbw", p.bandwidth, "bytes/s > 0");
    Check(std::isfinite(p.linkBandwidth) && p.linkBandwidth >= p.bandwidth,
          "B_link",
          p.linkBandwidth,
          "bytes/s >= C_nbw");
}

double
PsReadBoundsModel::WorstCase() const
{
    const Params& p = m_params;
    double t = 0;
    for (double w : p.layerBytes)
    {
        t += p.latency + std::max(p.replicas * w / p.linkBandwidth, w / p.bandwidth);
    }
    return t;
}

double
PsReadBoundsModel::BestCase() const
{
    const Params& p = m_params;
    const double spread = std::min(p.servers, p.workersPerReplica);
    double t = 0;
    for (double w : p.layerBytes)
    {
        t += p.latency + w / (p.bandwidth * spread);
    }
    return t;
}

} // namespace ns3

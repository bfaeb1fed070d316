/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cynthia-model.h"

#include "ns3/training-input-error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

namespace ns3
{

CynthiaModel::CynthiaModel(uint32_t workers, uint32_t batch, double process, double transfer)
    : m_workers(workers),
      m_batch(batch),
      m_process(process),
      m_transfer(transfer)
{
    std::ostringstream os;
    if (workers == 0)
    {
        os << "Cynthia model: W = 0 (expected at least 1 worker)";
    }
    else if (batch == 0)
    {
        os << "Cynthia model: batch 0 (expected at least 1 sample per step)";
    }
    else if (!std::isfinite(process) || process < 0)
    {
        os << "Cynthia model: T_p = " << process << " s (expected a time >= 0)";
    }
    else if (!std::isfinite(transfer) || transfer <= 0)
    {
        os << "Cynthia model: T_C = " << transfer << " s (expected a time > 0)";
    }
    if (!os.str().empty())
    {
        throw TrainingInputError(os.str());
    }
}

double
CynthiaModel::Utilisation() const
{
    if (m_process == 0)
    {
        return std::numeric_limits<double>::infinity();
    }
    return 2 * m_transfer / m_process;
}

double
CynthiaModel::Throughput() const
{
    const double w = m_workers;
    // T_p max(1, W U_1) = max(T_p, W 2 T_C) with U_1 = 2 T_C / T_p.
    return w * m_batch / (std::max(m_process, w * 2 * m_transfer) + 2 * m_transfer);
}

CynthiaModel
CynthiaModel::Halved() const
{
    return CynthiaModel(m_workers, m_batch, m_process, m_transfer / 2);
}

} // namespace ns3

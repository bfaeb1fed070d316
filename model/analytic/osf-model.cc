/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "osf-model.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/training-input-error.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OsfModel");

namespace
{

/// The checks of this model's inputs.
constexpr TrainingInputError::Checker Check("OSF model");

void
CheckNonNegative(const std::string& what, double v)
{
    Check(std::isfinite(v) && v >= 0, what, v, "a finite value >= 0");
}

/**
 * \param n layers
 * \return a plan that buffers, sends and waits nothing after any of them
 */
OsfModel::FusionPlan
EmptyPlan(std::size_t n)
{
    OsfModel::FusionPlan plan;
    plan.buffered.assign(n, 0.0);
    plan.sent.assign(n, 0.0);
    plan.wait.assign(n, 0.0);
    plan.flush.assign(n, false);
    return plan;
}

} // namespace

OsfModel::OsfModel(const Params& p)
    : m_params(p)
{
    NS_LOG_FUNCTION(this);
    Check(p.workers >= 1, "N", p.workers, "at least 1 worker");
    Check(std::isfinite(p.bandwidth) && p.bandwidth > 0, "beta", p.bandwidth, "bytes/s > 0");
    CheckNonNegative("R", p.reductionRate);
    CheckNonNegative("delta", p.overhead);
    CheckNonNegative("extra per byte", p.extraPerByte);
    CheckNonNegative("extra per operation", p.extraPerOperation);
    const std::size_t n = p.layerBytes.size();
    Check(n >= 1, "layers", 0, "at least one layer");
    Check(p.forward.size() == n && p.backward.size() == n,
          "forward/backward times",
          static_cast<double>(p.forward.size()),
          "one forward and one backward time per layer");
    for (std::size_t i = 0; i < n; ++i)
    {
        CheckNonNegative("D^(" + std::to_string(i + 1) + ")", p.layerBytes[i]);
        CheckNonNegative("t_forward^(" + std::to_string(i + 1) + ")", p.forward[i]);
        CheckNonNegative("t_backward^(" + std::to_string(i + 1) + ")", p.backward[i]);
    }
    if (p.transferModel == PIECEWISE)
    {
        Check(std::isfinite(p.piecewise.a1), "a1", p.piecewise.a1, "a finite value");
        Check(std::isfinite(p.piecewise.b1), "b1", p.piecewise.b1, "a finite value");
        CheckNonNegative("a2", p.piecewise.a2);
        Check(std::isfinite(p.piecewise.b2), "b2", p.piecewise.b2, "a finite value");
        CheckNonNegative("D_Thresh", p.piecewise.threshold);
    }
}

const OsfModel::Params&
OsfModel::GetParams() const
{
    return m_params;
}

double
OsfModel::LinearTransferTime(double bytes) const
{
    const Params& p = m_params;
    if (bytes <= 0)
    {
        return 0;
    }
    double t = p.extraPerByte * bytes + p.extraPerOperation;
    if (p.workers > 1)
    {
        const double n = p.workers;
        t += 2 * (n - 1) / (p.bandwidth * n) * bytes + p.overhead;
        if (p.reductionRate > 0)
        {
            t += (n - 1) / (n * p.reductionRate) * bytes;
        }
    }
    return t;
}

double
OsfModel::TransferTime(double bytes) const
{
    const Params& p = m_params;
    if (p.transferModel == LINEAR || bytes <= 0)
    {
        return LinearTransferTime(bytes);
    }
    double t = p.extraPerByte * bytes + p.extraPerOperation;
    if (p.workers > 1)
    {
        const Piecewise& c = p.piecewise;
        double network = bytes < c.threshold ? c.a1 * std::log2(std::max(bytes, 1.0)) + c.b1
                                             : c.a2 * bytes + c.b2;
        t += std::max(0.0, network); // a fitted curve must not make a transfer take < 0 s
    }
    return t;
}

OsfModel::Piecewise
OsfModel::DefaultPiecewise(const Params& p, double threshold)
{
    Piecewise c;
    c.threshold = threshold;
    if (p.workers > 1)
    {
        const double n = p.workers;
        c.a2 = 2 * (n - 1) / (p.bandwidth * n);
        if (p.reductionRate > 0)
        {
            c.a2 += (n - 1) / (n * p.reductionRate);
        }
        c.b2 = p.overhead;
    }
    c.b1 = c.b2;
    c.a1 = threshold > 1 ? c.a2 * threshold / std::log2(threshold) : 0.0;
    return c;
}

double
OsfModel::Comp() const
{
    double t = 0;
    for (std::size_t i = 0; i < m_params.forward.size(); ++i)
    {
        t += m_params.forward[i] + m_params.backward[i];
    }
    return t;
}

double
OsfModel::Overlap() const
{
    // Eq. (10): sum of t_backward^(i) for i = 1 .. n-1.
    double t = 0;
    for (std::size_t i = 0; i + 1 < m_params.backward.size(); ++i)
    {
        t += m_params.backward[i];
    }
    return t;
}

std::vector<double>
OsfModel::StartTimes() const
{
    const std::size_t n = m_params.layerBytes.size();
    std::vector<double> tau(n, 0.0);
    // backwardDone = sum_{j=i}^{n-1} t_backward^(j): when layer i's backward ends.
    double backwardDone = 0;
    for (std::size_t i = n - 1; i-- > 0;)
    {
        backwardDone += m_params.backward[i];
        tau[i] = std::max(tau[i + 1] + TransferTime(m_params.layerBytes[i + 1]), backwardDone);
    }
    return tau;
}

double
OsfModel::UpdateTime() const
{
    return StartTimes()[0] + TransferTime(m_params.layerBytes[0]);
}

double
OsfModel::StepTimeOf(double update) const
{
    return Comp() + update - Overlap();
}

double
OsfModel::StepTime() const
{
    return StepTimeOf(UpdateTime());
}

double
OsfModel::Osf() const
{
    const double step = StepTime();
    return step > 0 ? Comp() / step : 1.0;
}

double
OsfModel::CommTime() const
{
    double m = 0;
    for (double d : m_params.layerBytes)
    {
        m += d;
    }
    return TransferTime(m);
}

double
OsfModel::CsfStepTime() const
{
    return Comp() + CommTime();
}

double
OsfModel::Csf() const
{
    const double step = CsfStepTime();
    return step > 0 ? Comp() / step : 1.0;
}

OsfModel::FusionPlan
OsfModel::Fusion(double bufferBytes, double firstBufferBytes, double timeout) const
{
    NS_LOG_FUNCTION(this << bufferBytes << firstBufferBytes << timeout);
    Check(!std::isnan(bufferBytes) && bufferBytes >= 0, "Q", bufferBytes, "bytes >= 0");
    Check(!std::isnan(firstBufferBytes) && firstBufferBytes >= 0,
          "first bucket",
          firstBufferBytes,
          "bytes >= 0");
    Check(!std::isnan(timeout) && timeout >= 0, "timeout", timeout, "a time >= 0");
    const std::vector<double>& d = m_params.layerBytes;
    const std::vector<double>& tb = m_params.backward;
    const std::size_t n = d.size();
    FusionPlan plan = EmptyPlan(n);
    bool firstBucket = true;
    for (std::size_t i = n; i-- > 0;)
    {
        // Eq. (12): start a new buffer at layer n or after a flush.
        plan.buffered[i] = (i == n - 1 || plan.flush[i + 1]) ? d[i] : plan.buffered[i + 1] + d[i];
        const double capacity
            = (firstBucket && firstBufferBytes > 0) ? firstBufferBytes : bufferBytes;
        // Eq. (13): send after layer 1, on a timeout while layer i-1 computes, or when layer
        // i-1 does not fit.
        bool flush = i == 0 || tb[i - 1] > timeout || plan.buffered[i] + d[i - 1] > capacity;
        plan.flush[i] = flush;
        if (!flush)
        {
            continue;
        }
        plan.sent[i] = plan.buffered[i];
        if (plan.sent[i] > 0)
        {
            ++plan.operations;
        }
        firstBucket = false;
        // Eq. (14), except that a full buffer is sent at once.
        if (i == 0 || plan.buffered[i] >= capacity)
        {
            plan.wait[i] = 0;
        }
        else if (tb[i - 1] > timeout)
        {
            plan.wait[i] = timeout;
        }
        else
        {
            plan.wait[i] = tb[i - 1];
        }
    }
    return plan;
}

OsfModel::FusionPlan
OsfModel::AdaFusion() const
{
    NS_LOG_FUNCTION(this);
    const std::vector<double>& d = m_params.layerBytes;
    const std::vector<double>& tb = m_params.backward;
    const std::size_t n = d.size();
    FusionPlan plan = EmptyPlan(n);
    plan.buffered[n - 1] = d[n - 1];
    for (std::size_t i = n - 1; i-- > 0;)
    {
        const double held = plan.buffered[i + 1];
        const bool fuse
            = TransferTime(held + d[i]) + tb[i] < TransferTime(held) + TransferTime(d[i]);
        if (fuse)
        {
            plan.buffered[i] = held + d[i];
        }
        else
        {
            plan.flush[i + 1] = true;
            plan.buffered[i] = d[i];
        }
    }
    plan.flush[0] = true;
    for (std::size_t i = 0; i < n; ++i)
    {
        if (plan.flush[i])
        {
            plan.sent[i] = plan.buffered[i];
            if (plan.sent[i] > 0)
            {
                ++plan.operations;
            }
        }
    }
    return plan;
}

std::vector<double>
OsfModel::FusionStartTimes(const FusionPlan& plan) const
{
    const std::size_t n = m_params.layerBytes.size();
    NS_ABORT_MSG_UNLESS(plan.sent.size() == n && plan.wait.size() == n, "a plan of this model");
    std::vector<double> tau(n, 0.0);
    double backwardDone = 0;
    for (std::size_t i = n - 1; i-- > 0;)
    {
        backwardDone += m_params.backward[i];
        tau[i] = std::max(tau[i + 1] + plan.wait[i + 1] + TransferTime(plan.sent[i + 1]),
                          backwardDone);
    }
    return tau;
}

double
OsfModel::FusionUpdateTime(const FusionPlan& plan) const
{
    return FusionStartTimes(plan)[0] + TransferTime(plan.sent[0]);
}

double
OsfModel::FusionStepTime(const FusionPlan& plan) const
{
    return StepTimeOf(FusionUpdateTime(plan));
}

double
OsfModel::OsfFusion(const FusionPlan& plan) const
{
    const double step = FusionStepTime(plan);
    return step > 0 ? Comp() / step : 1.0;
}

} // namespace ns3

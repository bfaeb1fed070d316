/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sharing-index.h"

#include "ns3/log.h"
#include "ns3/training-input-error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SharingIndex");

SharingIndex::SharingIndex(std::vector<Transfer> transfers,
                           double capacity,
                           double overhead,
                           double flowCap)
    : m_transfers(std::move(transfers)),
      m_capacity(capacity),
      m_overhead(overhead),
      m_flowCap(flowCap)
{
    NS_LOG_FUNCTION(this << capacity << overhead << flowCap);
    if (!(flowCap >= 0) || !std::isfinite(flowCap))
    {
        throw TrainingInputError("SharingIndex: flow cap must be >= 0 bytes/s (0: none)");
    }
    if (!(capacity > 0) || !std::isfinite(capacity))
    {
        throw TrainingInputError("SharingIndex: capacity must be a positive number of bytes/s");
    }
    if (!(overhead >= 0) || !std::isfinite(overhead))
    {
        throw TrainingInputError("SharingIndex: overhead must be >= 0 seconds");
    }
    for (const auto& t : m_transfers)
    {
        if (!(t.bytes >= 0) || !std::isfinite(t.bytes) || !std::isfinite(t.arrival))
        {
            throw TrainingInputError("SharingIndex: transfer sizes must be >= 0 and times finite");
        }
    }
}

namespace
{
/// Indices of the transfers in arrival order (ties by index).
std::vector<std::size_t>
ArrivalOrder(const std::vector<SharingIndex::Transfer>& transfers)
{
    std::vector<std::size_t> order(transfers.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(),
                     order.end(),
                     [&](std::size_t x, std::size_t y)
                     {
                         return transfers[x].arrival < transfers[y].arrival;
                     });
    return order;
}
} // namespace

std::vector<double>
SharingIndex::GetFcfsCompletionTimes() const
{
    const double cap = m_flowCap > 0 ? m_flowCap : std::numeric_limits<double>::infinity();
    // FCFS gives the capacity to the earliest arrivals first (each at most the cap: without a
    // cap, the head alone).
    return Serve(
        [this, cap](const std::vector<std::size_t>& active, std::vector<double>& rate)
        {
            double left = m_capacity;
            for (std::size_t k = 0; k < active.size(); ++k)
            {
                rate[k] = std::min(cap, left);
                left -= rate[k];
            }
        });
}

std::vector<double>
SharingIndex::GetPsCompletionTimes() const
{
    const double cap = m_flowCap > 0 ? m_flowCap : std::numeric_limits<double>::infinity();
    // PS splits the capacity equally (at most the cap each).
    return Serve(
        [this, cap](const std::vector<std::size_t>& active, std::vector<double>& rate)
        {
            for (std::size_t k = 0; k < active.size(); ++k)
            {
                rate[k] = std::min(cap, m_capacity / active.size());
            }
        });
}

std::vector<double>
SharingIndex::GetCompletionTimes(const SharingModel& model) const
{
    const double cap = m_flowCap > 0 ? m_flowCap : std::numeric_limits<double>::infinity();
    const std::vector<double> capacity = {m_capacity};
    std::vector<SharingModel::Flow> flows;
    return Serve(
        [&](const std::vector<std::size_t>& active, std::vector<double>& rate)
        {
            flows.resize(active.size());
            for (std::size_t k = 0; k < active.size(); ++k)
            {
                SharingModel::Flow& f = flows[k];
                f.links[0] = 0;
                f.nLinks = 1;
                f.priority = k; // `active` is in arrival order
                f.start = m_transfers[active[k]].arrival;
                f.cap = cap;
            }
            model.AssignRates(flows, capacity, rate);
        });
}

std::vector<double>
SharingIndex::Serve(const RateFunction& assignRates) const
{
    const std::size_t n = m_transfers.size();
    std::vector<double> fct(n);
    std::vector<std::size_t> order = ArrivalOrder(m_transfers);
    std::vector<double> remaining(n);
    std::vector<std::size_t> active; // in arrival order
    std::vector<double> rate;
    std::size_t next = 0; // next arrival in `order`
    double t = n > 0 ? m_transfers[order[0]].arrival : 0;
    while (next < n || !active.empty())
    {
        // Admit every transfer that has arrived by t.
        while (next < n && m_transfers[order[next]].arrival <= t)
        {
            std::size_t i = order[next++];
            remaining[i] = m_transfers[i].bytes;
            active.push_back(i);
        }
        // Transfers with nothing left finish now.
        for (auto it = active.begin(); it != active.end();)
        {
            if (remaining[*it] <= 0)
            {
                fct[*it] = t - m_transfers[*it].arrival + m_overhead;
                it = active.erase(it);
            }
            else
            {
                ++it;
            }
        }
        if (active.empty())
        {
            if (next < n)
            {
                t = m_transfers[order[next]].arrival;
            }
            continue;
        }
        rate.assign(active.size(), 0);
        assignRates(active, rate);
        double dt = std::numeric_limits<double>::infinity();
        for (std::size_t k = 0; k < active.size(); ++k)
        {
            if (rate[k] > 0)
            {
                dt = std::min(dt, remaining[active[k]] / rate[k]);
            }
        }
        bool arrivalFirst = next < n && m_transfers[order[next]].arrival < t + dt;
        if (arrivalFirst)
        {
            dt = m_transfers[order[next]].arrival - t;
        }
        for (std::size_t k = 0; k < active.size(); ++k)
        {
            if (rate[k] <= 0)
            {
                continue;
            }
            double& rem = remaining[active[k]];
            // The transfer(s) with the least time left end exactly at t + dt.
            rem = (!arrivalFirst && rem / rate[k] <= dt) ? 0 : rem - rate[k] * dt;
        }
        t = arrivalFirst ? m_transfers[order[next]].arrival : t + dt;
    }
    return fct;
}

SharingIndex::Result
SharingIndex::Compute(const std::vector<double>& measured) const
{
    return Compute(measured, GetFcfsCompletionTimes(), GetPsCompletionTimes());
}

SharingIndex::Result
SharingIndex::Compute(const std::vector<double>& measured,
                      const std::vector<double>& fcfs,
                      const std::vector<double>& ps)
{
    if (measured.size() != fcfs.size() || ps.size() != fcfs.size())
    {
        throw TrainingInputError("SharingIndex: " + std::to_string(measured.size())
                                 + " measured completion times for " + std::to_string(fcfs.size())
                                 + " transfers");
    }
    double dd = 0;    // ||p - f||^2
    double md = 0;    // (m - f) . (p - f)
    double scale = 0; // ||f||^2 + ||p||^2
    for (std::size_t i = 0; i < fcfs.size(); ++i)
    {
        double d = ps[i] - fcfs[i];
        dd += d * d;
        md += (measured[i] - fcfs[i]) * d;
        scale += fcfs[i] * fcfs[i] + ps[i] * ps[i];
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // p = f up to rounding (the PS event loop accumulates ~1e-16 relative errors).
    if (!(dd > 1e-18 * scale) || dd == 0)
    {
        return {false, nan, nan};
    }
    double lambda = md / dd;
    double off = 0;
    for (std::size_t i = 0; i < fcfs.size(); ++i)
    {
        double e = measured[i] - (fcfs[i] + lambda * (ps[i] - fcfs[i]));
        off += e * e;
    }
    return {true, lambda, std::sqrt(off / dd)};
}

} // namespace ns3

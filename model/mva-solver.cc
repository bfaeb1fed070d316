/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mva-solver.h"

#include "training-input-error.h"

#include "ns3/log.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MvaSolver");

namespace
{

std::string
Str(double v)
{
    std::ostringstream os;
    os << v;
    return os.str();
}

} // namespace

MvaSolver::MvaSolver()
{
    NS_LOG_FUNCTION(this);
}

std::size_t
MvaSolver::AddStation(const std::string& name, Discipline discipline)
{
    NS_LOG_FUNCTION(this << name << discipline);
    if (!m_classes.empty())
    {
        throw TrainingInputError("MvaSolver: station '" + name
                                 + "' added after a class (expected every station before the "
                                   "first class)");
    }
    m_stations.push_back({name, discipline});
    return m_stations.size() - 1;
}

std::size_t
MvaSolver::AddClass(const std::vector<double>& serviceTimes, uint32_t multiplicity)
{
    NS_LOG_FUNCTION(this << multiplicity);
    const std::string where = "MvaSolver class " + std::to_string(m_classes.size());
    if (serviceTimes.size() != m_stations.size())
    {
        throw TrainingInputError(where + ": " + std::to_string(serviceTimes.size())
                                 + " service times (expected one per station, "
                                 + std::to_string(m_stations.size()) + ")");
    }
    if (multiplicity == 0)
    {
        throw TrainingInputError(where + ": multiplicity 0 (expected at least 1 customer)");
    }
    double total = 0;
    for (std::size_t l = 0; l < serviceTimes.size(); ++l)
    {
        double s = serviceTimes[l];
        if (!std::isfinite(s) || s < 0)
        {
            throw TrainingInputError(where + ": service time " + Str(s) + " s at station '"
                                     + m_stations[l].name + "' (expected a finite time >= 0)");
        }
        total += s;
    }
    if (!(total > 0))
    {
        throw TrainingInputError(where
                                 + ": zero service time at every station (expected a positive "
                                   "cycle time, else the throughput is unbounded)");
    }
    m_classes.push_back({serviceTimes, multiplicity});
    return m_classes.size() - 1;
}

std::size_t
MvaSolver::GetNStations() const
{
    return m_stations.size();
}

std::size_t
MvaSolver::GetNClasses() const
{
    return m_classes.size();
}

uint64_t
MvaSolver::GetNCustomers() const
{
    uint64_t n = 0;
    for (const auto& c : m_classes)
    {
        n += c.multiplicity;
    }
    return n;
}

const std::string&
MvaSolver::GetStationName(std::size_t station) const
{
    return m_stations.at(station).name;
}

uint64_t
MvaSolver::GetExactStateCount() const
{
    const uint64_t maxValue = std::numeric_limits<uint64_t>::max();
    uint64_t states = 1;
    for (const auto& c : m_classes)
    {
        uint64_t radix = static_cast<uint64_t>(c.multiplicity) + 1;
        if (states > maxValue / radix)
        {
            return maxValue;
        }
        states *= radix;
    }
    return states;
}

void
MvaSolver::CheckSolvable() const
{
    if (m_classes.empty())
    {
        throw TrainingInputError("MvaSolver: no customer class (expected at least one worker)");
    }
}

MvaSolver::Solution
MvaSolver::SolveExact(uint64_t maxStates) const
{
    NS_LOG_FUNCTION(this << maxStates);
    CheckSolvable();
    const uint64_t states = GetExactStateCount();
    if (states > maxStates)
    {
        throw TrainingInputError("exact MVA: " + std::to_string(states)
                                 + " populations (expected at most " + std::to_string(maxStates)
                                 + "; use the approximate MVA for this many distinct workers)");
    }
    const std::size_t nClasses = m_classes.size();
    const std::size_t nStations = m_stations.size();

    // Only queueing stations need the aggregate of the population without one customer:
    // PS:   A^l(n) = sum_g N_g^l(n)                          (Eq. (1))
    // FCFS: A^l(n) = sum_g S_g^l (N_g^l(n) - rho_g^l(n) / 2)  (Eq. (2))
    std::vector<std::size_t> queueIndex(nStations, 0);
    std::size_t nQueues = 0;
    for (std::size_t l = 0; l < nStations; ++l)
    {
        if (m_stations[l].discipline != DELAY)
        {
            queueIndex[l] = nQueues++;
        }
    }
    std::vector<uint64_t> stride(nClasses, 1);
    for (std::size_t g = 1; g < nClasses; ++g)
    {
        stride[g] = stride[g - 1] * (static_cast<uint64_t>(m_classes[g - 1].multiplicity) + 1);
    }

    std::vector<double> aggregate(static_cast<std::size_t>(states) * nQueues, 0.0);
    std::vector<uint32_t> count(nClasses, 0);
    std::vector<std::vector<double>> response(nClasses, std::vector<double>(nStations, 0.0));
    std::vector<double> perCustomer(nClasses, 0.0);

    for (uint64_t idx = 1; idx < states; ++idx)
    {
        // Mixed-radix increment of the population vector.
        for (std::size_t g = 0; g < nClasses; ++g)
        {
            if (count[g] < m_classes[g].multiplicity)
            {
                ++count[g];
                break;
            }
            count[g] = 0;
        }
        double* here = aggregate.data() + idx * nQueues;
        for (std::size_t g = 0; g < nClasses; ++g)
        {
            if (count[g] == 0)
            {
                continue;
            }
            const double* without = aggregate.data() + (idx - stride[g]) * nQueues;
            const std::vector<double>& s = m_classes[g].service;
            double cycle = 0;
            for (std::size_t l = 0; l < nStations; ++l)
            {
                double t = s[l];
                switch (m_stations[l].discipline)
                {
                    case PS:
                        t = s[l] * (1.0 + without[queueIndex[l]]);
                        break;
                    case FCFS:
                        t = s[l] + without[queueIndex[l]];
                        break;
                    case DELAY:
                        break;
                }
                response[g][l] = t;
                cycle += t;
            }
            const double x = 1.0 / cycle; // one customer's throughput
            perCustomer[g] = x;
            const double n = count[g];
            for (std::size_t l = 0; l < nStations; ++l)
            {
                if (m_stations[l].discipline == PS)
                {
                    here[queueIndex[l]] += n * x * response[g][l];
                }
                else if (m_stations[l].discipline == FCFS)
                {
                    here[queueIndex[l]] += s[l] * (n * x * response[g][l] - 0.5 * n * x * s[l]);
                }
            }
        }
    }

    // The last population is the full one: count[g] == multiplicity for every g.
    Solution sol;
    sol.method = EXACT;
    sol.states = static_cast<std::size_t>(states);
    sol.perCustomerThroughput = perCustomer;
    sol.responseTime = response;
    sol.queueLength.assign(nStations, 0.0);
    sol.utilisation.assign(nStations, 0.0);
    for (std::size_t g = 0; g < nClasses; ++g)
    {
        const double n = m_classes[g].multiplicity;
        sol.throughput += n * perCustomer[g];
        for (std::size_t l = 0; l < nStations; ++l)
        {
            sol.queueLength[l] += n * perCustomer[g] * response[g][l];
            sol.utilisation[l] += n * perCustomer[g] * m_classes[g].service[l];
        }
    }
    return sol;
}

MvaSolver::Solution
MvaSolver::SolveApproximate(double tolerance, uint32_t maxIterations) const
{
    NS_LOG_FUNCTION(this << tolerance << maxIterations);
    CheckSolvable();
    if (!(tolerance > 0) || !std::isfinite(tolerance))
    {
        throw TrainingInputError("approximate MVA: tolerance " + Str(tolerance)
                                 + " (expected a positive fraction, e.g. 1e-10)");
    }
    const std::size_t nClasses = m_classes.size();
    const std::size_t nStations = m_stations.size();

    // contrib[g][l]: class g's share of the aggregate A^l at the full population (see
    // SolveExact()); the population without one customer of class g is approximated by
    // removing contrib[g][l] / m_g (Schweitzer-Bard).
    std::vector<std::vector<double>> contrib(nClasses, std::vector<double>(nStations, 0.0));
    std::vector<std::vector<double>> response(nClasses, std::vector<double>(nStations, 0.0));
    std::vector<double> perCustomer(nClasses, 0.0);
    for (std::size_t g = 0; g < nClasses; ++g)
    {
        const std::vector<double>& s = m_classes[g].service;
        double total = 0;
        for (double v : s)
        {
            total += v;
        }
        for (std::size_t l = 0; l < nStations; ++l)
        {
            // Start with the customers spread in proportion to their service times.
            double n = m_classes[g].multiplicity * s[l] / total;
            contrib[g][l] = m_stations[l].discipline == PS     ? n
                            : m_stations[l].discipline == FCFS ? s[l] * n
                                                               : 0.0;
        }
    }

    std::vector<double> aggregate(nStations, 0.0);
    Solution sol;
    sol.method = APPROXIMATE;
    sol.converged = false;
    uint32_t it = 0;
    while (it < maxIterations)
    {
        ++it;
        std::fill(aggregate.begin(), aggregate.end(), 0.0);
        for (std::size_t g = 0; g < nClasses; ++g)
        {
            for (std::size_t l = 0; l < nStations; ++l)
            {
                aggregate[l] += contrib[g][l];
            }
        }
        double change = 0;
        for (std::size_t g = 0; g < nClasses; ++g)
        {
            const std::vector<double>& s = m_classes[g].service;
            const double m = m_classes[g].multiplicity;
            double cycle = 0;
            for (std::size_t l = 0; l < nStations; ++l)
            {
                double without = std::max(0.0, aggregate[l] - contrib[g][l] / m);
                double t = s[l];
                if (m_stations[l].discipline == PS)
                {
                    t = s[l] * (1.0 + without);
                }
                else if (m_stations[l].discipline == FCFS)
                {
                    t = s[l] + without;
                }
                response[g][l] = t;
                cycle += t;
            }
            double x = 1.0 / cycle;
            if (perCustomer[g] > 0)
            {
                change = std::max(change, std::abs(x - perCustomer[g]) / perCustomer[g]);
            }
            else
            {
                change = std::numeric_limits<double>::infinity();
            }
            perCustomer[g] = x;
        }
        for (std::size_t g = 0; g < nClasses; ++g)
        {
            const std::vector<double>& s = m_classes[g].service;
            const double m = m_classes[g].multiplicity;
            for (std::size_t l = 0; l < nStations; ++l)
            {
                double n = m * perCustomer[g] * response[g][l];
                double rho = m * perCustomer[g] * s[l];
                contrib[g][l] = m_stations[l].discipline == PS     ? n
                                : m_stations[l].discipline == FCFS ? s[l] * (n - 0.5 * rho)
                                                                   : 0.0;
            }
        }
        if (change <= tolerance)
        {
            sol.converged = true;
            break;
        }
    }
    sol.iterations = it;
    sol.perCustomerThroughput = perCustomer;
    sol.responseTime = response;
    sol.queueLength.assign(nStations, 0.0);
    sol.utilisation.assign(nStations, 0.0);
    for (std::size_t g = 0; g < nClasses; ++g)
    {
        const double m = m_classes[g].multiplicity;
        sol.throughput += m * perCustomer[g];
        for (std::size_t l = 0; l < nStations; ++l)
        {
            sol.queueLength[l] += m * perCustomer[g] * response[g][l];
            sol.utilisation[l] += m * perCustomer[g] * m_classes[g].service[l];
        }
    }
    return sol;
}

MvaSolver::Solution
MvaSolver::Solve(uint64_t maxExactStates, double tolerance, uint32_t maxIterations) const
{
    NS_LOG_FUNCTION(this << maxExactStates);
    if (GetExactStateCount() <= maxExactStates)
    {
        return SolveExact(maxExactStates);
    }
    return SolveApproximate(tolerance, maxIterations);
}

} // namespace ns3

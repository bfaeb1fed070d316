/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mva-solver.h"

#include "ns3/log.h"
#include "ns3/training-input-error.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MvaSolver");

namespace
{

/**
 * \return a class's share of the aggregate A^l of a station (000 Eqs. (1), (2)): PS: its queue
 * length N; FCFS: S (N - rho / 2), the mean residual work it leaves ahead of an arrival; delay: 0
 * \param d the station's discipline
 * \param s the class's service time there
 * \param n the class's queue length there
 * \param rho the class's utilisation there
 */
double
Contribution(MvaSolver::Discipline d, double s, double n, double rho)
{
    return d == MvaSolver::PS ? n : d == MvaSolver::FCFS ? s * (n - 0.5 * rho) : 0.0;
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
    m_stations.push_back(name);
    m_disciplines.push_back(discipline);
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
            throw TrainingInputError(where + ": service time " + TrainingInputError::Number(s)
                                     + " s at station '" + m_stations[l]
                                     + "' (expected a finite time >= 0)");
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
    return std::accumulate(m_classes.begin(),
                           m_classes.end(),
                           uint64_t{0},
                           [](uint64_t sum, const Class& c)
                           {
                               return sum + c.multiplicity;
                           });
}

const std::string&
MvaSolver::GetStationName(std::size_t station) const
{
    return m_stations.at(station);
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

template<typename F>
double
MvaSolver::CycleTime(std::size_t g, F without, std::vector<double>& response) const
{
    const std::vector<double>& s = m_classes[g].service;
    const std::size_t nStations = m_disciplines.size();
    const Discipline* disc = m_disciplines.data();
    double cycle = 0;
    for (std::size_t l = 0; l < nStations; ++l)
    {
        double t = s[l];
        switch (disc[l])
        {
            case PS:
                t = s[l] * (1.0 + without(l));
                break;
            case FCFS:
                t = s[l] + without(l);
                break;
            case DELAY:
                break;
        }
        response[l] = t;
        cycle += t;
    }
    return cycle;
}

void
MvaSolver::FillTotals(Solution& sol) const
{
    const std::size_t nStations = m_stations.size();
    sol.queueLength.assign(nStations, 0.0);
    sol.utilisation.assign(nStations, 0.0);
    sol.throughput = 0;
    for (std::size_t g = 0; g < m_classes.size(); ++g)
    {
        const double x = m_classes[g].multiplicity * sol.perCustomerThroughput[g];
        sol.throughput += x;
        for (std::size_t l = 0; l < nStations; ++l)
        {
            sol.queueLength[l] += x * sol.responseTime[g][l];
            sol.utilisation[l] += x * m_classes[g].service[l];
        }
    }
}

MvaSolver::ExactLattice
MvaSolver::MakeExactLattice() const
{
    // Only queueing stations need the aggregate A^l of the population without one customer
    // (see Contribution()).
    ExactLattice lattice;
    lattice.queueIndex.assign(m_stations.size(), 0);
    for (std::size_t l = 0; l < m_stations.size(); ++l)
    {
        lattice.queueIndex[l] = m_disciplines[l] == DELAY ? 0 : lattice.nQueues++;
    }
    lattice.stride.assign(m_classes.size(), 1);
    for (std::size_t g = 1; g < m_classes.size(); ++g)
    {
        lattice.stride[g] = lattice.stride[g - 1] * (uint64_t{m_classes[g - 1].multiplicity} + 1);
    }
    return lattice;
}

void
MvaSolver::SolvePopulation(const std::vector<uint32_t>& count,
                           uint64_t idx,
                           const ExactLattice& lattice,
                           std::vector<double>& aggregate,
                           Solution& sol) const
{
    const std::size_t nQueues = lattice.nQueues;
    const std::size_t nStations = m_disciplines.size();
    const Discipline* disc = m_disciplines.data();
    const std::size_t* q = lattice.queueIndex.data();
    double* here = aggregate.data() + idx * nQueues;
    for (std::size_t g = 0; g < m_classes.size(); ++g)
    {
        if (count[g] == 0)
        {
            continue;
        }
        const double* without = aggregate.data() + (idx - lattice.stride[g]) * nQueues;
        std::vector<double>& response = sol.responseTime[g];
        const double x = 1.0
                         / CycleTime(
                             g,
                             [without, q](std::size_t l)
                             {
                                 return without[q[l]];
                             },
                             response);
        sol.perCustomerThroughput[g] = x;
        const double nx = count[g] * x;
        const double* s = m_classes[g].service.data();
        const double* r = response.data();
        for (std::size_t l = 0; l < nStations; ++l)
        {
            // Contribution() written out: this loop is the exact solver's hot path.
            const double n = nx * r[l];
            if (disc[l] == PS)
            {
                here[q[l]] += n;
            }
            else if (disc[l] == FCFS)
            {
                here[q[l]] += s[l] * (n - 0.5 * nx * s[l]);
            }
        }
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
    const ExactLattice lattice = MakeExactLattice();
    std::vector<double> aggregate(static_cast<std::size_t>(states) * lattice.nQueues, 0.0);
    std::vector<uint32_t> count(m_classes.size(), 0);
    Solution sol;
    sol.method = EXACT;
    sol.states = static_cast<std::size_t>(states);
    sol.perCustomerThroughput.assign(m_classes.size(), 0.0);
    sol.responseTime.assign(m_classes.size(), std::vector<double>(m_stations.size(), 0.0));
    for (uint64_t idx = 1; idx < states; ++idx)
    {
        for (std::size_t g = 0; g < m_classes.size(); ++g) // mixed-radix increment
        {
            if (count[g] < m_classes[g].multiplicity)
            {
                ++count[g];
                break;
            }
            count[g] = 0;
        }
        SolvePopulation(count, idx, lattice, aggregate, sol);
    }
    // The last population is the full one: count[g] == multiplicity for every g.
    FillTotals(sol);
    return sol;
}

MvaSolver::Solution
MvaSolver::SolveApproximate(double tolerance, uint32_t maxIterations) const
{
    NS_LOG_FUNCTION(this << tolerance << maxIterations);
    CheckSolvable();
    if (!(tolerance > 0) || !std::isfinite(tolerance))
    {
        throw TrainingInputError("approximate MVA: tolerance "
                                 + TrainingInputError::Number(tolerance)
                                 + " (expected a positive fraction, e.g. 1e-10)");
    }
    const std::size_t nClasses = m_classes.size();
    const std::size_t nStations = m_stations.size();

    // contrib[g][l]: class g's share of the aggregate A^l at the full population; the population
    // without one customer of class g is approximated by removing contrib[g][l] / m_g
    // (Schweitzer-Bard). Start with the customers spread in proportion to their service times.
    std::vector<std::vector<double>> contrib(nClasses, std::vector<double>(nStations, 0.0));
    for (std::size_t g = 0; g < nClasses; ++g)
    {
        const std::vector<double>& s = m_classes[g].service;
        const double total = std::accumulate(s.begin(), s.end(), 0.0);
        for (std::size_t l = 0; l < nStations; ++l)
        {
            const double n = m_classes[g].multiplicity * s[l] / total;
            contrib[g][l] = Contribution(m_disciplines[l], s[l], n, 0.0);
        }
    }
    Solution sol;
    sol.method = APPROXIMATE;
    sol.converged = false;
    sol.perCustomerThroughput.assign(nClasses, 0.0);
    sol.responseTime.assign(nClasses, std::vector<double>(nStations, 0.0));
    std::vector<double> aggregate(nStations, 0.0);
    while (sol.iterations < maxIterations && !sol.converged)
    {
        ++sol.iterations;
        std::fill(aggregate.begin(), aggregate.end(), 0.0);
        for (std::size_t g = 0; g < nClasses; ++g)
        {
            std::transform(aggregate.begin(),
                           aggregate.end(),
                           contrib[g].begin(),
                           aggregate.begin(),
                           std::plus<double>());
        }
        double change = 0;
        for (std::size_t g = 0; g < nClasses; ++g)
        {
            const double m = m_classes[g].multiplicity;
            auto without = [&](std::size_t l)
            {
                return std::max(0.0, aggregate[l] - contrib[g][l] / m);
            };
            const double x = 1.0 / CycleTime(g, without, sol.responseTime[g]);
            double& old = sol.perCustomerThroughput[g];
            change = std::max(change,
                              old > 0 ? std::abs(x - old) / old
                                      : std::numeric_limits<double>::infinity());
            old = x;
        }
        for (std::size_t g = 0; g < nClasses; ++g)
        {
            const double mx = m_classes[g].multiplicity * sol.perCustomerThroughput[g];
            for (std::size_t l = 0; l < nStations; ++l)
            {
                const double s = m_classes[g].service[l];
                contrib[g][l]
                    = Contribution(m_disciplines[l], s, mx * sol.responseTime[g][l], mx * s);
            }
        }
        sol.converged = change <= tolerance;
    }
    FillTotals(sol);
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

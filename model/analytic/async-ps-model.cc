/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "async-ps-model.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/training-input-error.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AsyncPsModel");

namespace
{

void
CheckTime(const std::string& what, double v)
{
    if (!std::isfinite(v) || v < 0)
    {
        throw TrainingInputError("async PS model: " + what + " = " + TrainingInputError::Number(v)
                                 + " s (expected a finite time >= 0)");
    }
}

/// \return the solution by the method the options choose
MvaSolver::Solution
RunSolver(const MvaSolver& solver, const AsyncPsModel::SolverOptions& o)
{
    switch (o.choice)
    {
        case AsyncPsModel::SolverOptions::EXACT:
            return solver.SolveExact(o.maxExactStates);
        case AsyncPsModel::SolverOptions::APPROXIMATE:
            return solver.SolveApproximate(o.tolerance, o.maxIterations);
        case AsyncPsModel::SolverOptions::AUTO:
            break;
    }
    return solver.Solve(o.maxExactStates, o.tolerance, o.maxIterations);
}

} // namespace

AsyncPsModel::AsyncPsModel(const Params& params, const SolverOptions& options)
    : m_params(params),
      m_options(options)
{
    NS_LOG_FUNCTION(this);
    if (params.forward.empty())
    {
        throw TrainingInputError("async PS model: 0 workers (expected at least 1 worker)");
    }
    if (params.backward.size() != params.forward.size())
    {
        throw TrainingInputError("async PS model: " + std::to_string(params.forward.size())
                                 + " forward times and " + std::to_string(params.backward.size())
                                 + " backward times (expected one of each per worker)");
    }
    for (std::size_t k = 0; k < params.forward.size(); ++k)
    {
        CheckTime("S^F of worker " + std::to_string(k), params.forward[k]);
        CheckTime("S^B of worker " + std::to_string(k), params.backward[k]);
    }
    CheckTime("S^D", params.downlink);
    CheckTime("S^U", params.uplink);
    CheckTime("S^S", params.server);
    CheckTime("worker overhead", params.workerOverhead);
    CheckTime("transfer extra", params.transferExtra);
}

const AsyncPsModel::Params&
AsyncPsModel::GetParams() const
{
    return m_params;
}

void
AsyncPsModel::CheckRhoThreshold(double rhoThreshold)
{
    if (!(rhoThreshold >= 0 && rhoThreshold <= 1))
    {
        throw TrainingInputError("RhoThreshold: " + TrainingInputError::Number(rhoThreshold)
                                 + " (expected a utilisation threshold rho_T in [0, 1], 000 Eq. "
                                   "(5); the seed uses 0.5 on 1 Gbps and 0.6 on 10 Gbps)");
    }
}

MvaSolver
AsyncPsModel::SeedNetwork(MvaSolver::Discipline link)
{
    MvaSolver m;
    m.AddStation("worker", MvaSolver::DELAY);
    m.AddStation("uplink", link);
    m.AddStation("server", MvaSolver::PS);
    m.AddStation("downlink", link);
    return m;
}

AsyncPsModel::Prediction
AsyncPsModel::Solve(MvaSolver::Discipline link) const
{
    std::vector<double> service(m_params.forward.size());
    for (std::size_t k = 0; k < service.size(); ++k)
    {
        service[k] = m_params.forward[k] + m_params.backward[k];
    }
    return Solve(link, service);
}

AsyncPsModel::Prediction
AsyncPsModel::Solve(MvaSolver::Discipline link, const std::vector<double>& workerService) const
{
    NS_LOG_FUNCTION(this << link);
    NS_ABORT_MSG_UNLESS(workerService.size() == m_params.forward.size(),
                        "one worker service time per worker");
    NS_ABORT_MSG_UNLESS(link == MvaSolver::FCFS || link == MvaSolver::PS,
                        "link stations are FCFS or PS");
    const bool extra = m_params.transferExtra > 0;

    MvaSolver solver = SeedNetwork(link);
    const std::size_t worker = WORKER;
    const std::size_t uplink = UPLINK;
    const std::size_t server = SERVER;
    const std::size_t downlink = DOWNLINK;
    const std::size_t latency
        = extra ? solver.AddStation("transfer-extra", MvaSolver::DELAY) : solver.GetNStations();

    // Workers with equal service times are one class (identical results, smaller lattice).
    std::map<double, std::size_t> classOf;
    std::vector<std::size_t> workerClass(workerService.size());
    std::vector<double> demand;
    std::vector<uint32_t> multiplicity;
    for (std::size_t k = 0; k < workerService.size(); ++k)
    {
        double sw = workerService[k] + m_params.workerOverhead;
        CheckTime("S^W of worker " + std::to_string(k), sw);
        auto it = classOf.find(sw);
        if (it == classOf.end())
        {
            it = classOf.emplace(sw, demand.size()).first;
            demand.push_back(sw);
            multiplicity.push_back(0);
        }
        workerClass[k] = it->second;
        ++multiplicity[it->second];
    }
    for (std::size_t g = 0; g < demand.size(); ++g)
    {
        std::vector<double> s(solver.GetNStations(), 0.0);
        s[worker] = demand[g];
        s[uplink] = m_params.uplink;
        s[server] = m_params.server;
        s[downlink] = m_params.downlink;
        if (extra)
        {
            s[latency] = 2 * m_params.transferExtra;
        }
        solver.AddClass(s, multiplicity[g]);
    }
    const MvaSolver::Solution sol = RunSolver(solver, m_options);
    Prediction p;
    p.throughput = sol.throughput;
    p.link = link;
    p.method = sol.method;
    p.converged = sol.converged;
    p.states = sol.states;
    p.iterations = sol.iterations;
    p.rho = std::max(sol.utilisation[uplink], sol.utilisation[downlink]);
    p.serverUtilisation = sol.utilisation[server];
    const std::size_t n = workerService.size();
    p.perWorkerThroughput.resize(n);
    p.workerService.resize(n);
    p.workerTime.resize(n);
    p.uplinkTime.resize(n);
    p.serverTime.resize(n);
    p.downlinkTime.resize(n);
    for (std::size_t k = 0; k < n; ++k)
    {
        const std::size_t g = workerClass[k];
        const std::vector<double>& t = sol.responseTime[g];
        p.perWorkerThroughput[k] = sol.perCustomerThroughput[g];
        p.workerService[k] = demand[g];
        p.workerTime[k] = t[worker];
        p.uplinkTime[k] = t[uplink] + m_params.transferExtra;
        p.serverTime[k] = t[server];
        p.downlinkTime[k] = t[downlink] + m_params.transferExtra;
    }
    return p;
}

AsyncPsModel::Prediction
AsyncPsModel::Hybrid(double rhoThreshold) const
{
    NS_LOG_FUNCTION(this << rhoThreshold);
    CheckRhoThreshold(rhoThreshold);
    Prediction fcfs = Solve(MvaSolver::FCFS);
    if (fcfs.rho <= rhoThreshold)
    {
        return Choose(fcfs, fcfs, rhoThreshold);
    }
    return Choose(fcfs, Solve(MvaSolver::PS), rhoThreshold);
}

AsyncPsModel::Prediction
AsyncPsModel::Choose(const Prediction& fcfs, const Prediction& ps, double rhoThreshold)
{
    CheckRhoThreshold(rhoThreshold);
    Prediction chosen = fcfs.rho <= rhoThreshold ? fcfs : ps;
    chosen.rhoFcfs = fcfs.rho;
    chosen.rhoThreshold = rhoThreshold;
    return chosen;
}

AsyncPsModel::Prediction
AsyncPsModel::CorrectOverlap(const Prediction& base) const
{
    NS_LOG_FUNCTION(this);
    const std::size_t n = m_params.forward.size();
    NS_ABORT_MSG_UNLESS(base.downlinkTime.size() == n && base.uplinkTime.size() == n,
                        "a solution of this model");
    std::vector<double> service(n);
    for (std::size_t k = 0; k < n; ++k)
    {
        service[k] = std::max(0.0, m_params.forward[k] - base.downlinkTime[k])
                     + std::max(0.0, m_params.backward[k] - base.uplinkTime[k]);
    }
    Prediction corrected = Solve(base.link, service);
    corrected.rhoFcfs = base.rhoFcfs;
    corrected.rhoThreshold = base.rhoThreshold;
    return corrected;
}

AsyncPsModel::Prediction
AsyncPsModel::HybridOverlap(double rhoThreshold) const
{
    return CorrectOverlap(Hybrid(rhoThreshold));
}

} // namespace ns3

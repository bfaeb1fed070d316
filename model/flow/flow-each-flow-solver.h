/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_EACH_FLOW_SOLVER_H
#define FLOW_EACH_FLOW_SOLVER_H

#include "flow-rate-solver.h"

namespace ns3
{
namespace flow
{

/**
 * The generic solver, for any sharing model: every active connection is a rate class of its own
 * and a flow of its own, handed to SharingModel::AssignRates in activation order (with the
 * window model, each with its cap). Also the solver of every job in a shared run without
 * aggregation: the jobs' flows are then described together (CollectShared).
 */
class EachFlowSolver : public RateSolver
{
  public:
    /** \param table the run's connections and rate classes
     * \param sharing the sharing model */
    explicit EachFlowSolver(TransferTable& table, const SharingModel& sharing);

    void Activated(uint32_t ci) override;
    uint64_t Solve(uint32_t gi) override;
    void CollectShared(std::vector<SharingModel::Flow>& flows,
                       std::vector<double>& weights) override;
    std::array<uint64_t, 2> ApplyShared(const double* rates) override;

  private:
    /**
     * \brief Fill m_flows with the group's active connections (dropping stale entries of its
     * list) and, with the window model, their caps.
     * \param gi group index
     */
    void DescribeActive(uint32_t gi);
    /**
     * \brief Each active connection of the group takes its rate (DescribeActive's order).
     * \param gi group index
     * \param rates the rates
     */
    void ApplyEach(uint32_t gi, const double* rates);

    std::vector<SharingModel::Flow> m_flows; //!< scratch: flows for the sharing model
    std::vector<double> m_rates;             //!< scratch: rates from the sharing model
    std::size_t m_collected[2]{0, 0};        //!< shared run: flows CollectShared gave per group
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_EACH_FLOW_SOLVER_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OPTIMIZER_REPORT_H
#define OPTIMIZER_REPORT_H

#include "configuration-optimizer.h"

#include <cstddef>
#include <string>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief What distributed-training-optimize reports of a ConfigurationOptimizer run: the ranked
 * table it prints and the search space as CSV with a gnuplot script (--spaceCsv).
 */
class OptimizerReport
{
  public:
    /**
     * \param e one rung's estimate
     * \return "thr [lo, hi] #rank", or "-" if the rung did not run
     */
    static std::string FormatCell(const OptimizerEstimate& e);

    /**
     * \param out the outcome
     * \param samples the data-set size (the epoch time)
     * \param rows the most rows to list
     * \return the ranked table, each rung's runs and wall time, whether the ranking is settled,
     *         and the notes
     */
    static std::string FormatTable(const ConfigurationOptimizer::Outcome& out,
                                   double samples,
                                   std::size_t rows);

    /**
     * \param out the outcome
     * \param samples the data-set size (the epoch time)
     * \return the space as CSV: the best estimate of each configuration that has one
     */
    static std::string SpaceCsv(const ConfigurationOptimizer::Outcome& out, double samples);

    /**
     * \param csv the CSV file's name
     * \return the gnuplot script CSV.gp in the style of 002 Fig. 15 (x = K, y = P, point size
     *         and colour the epoch time)
     */
    static std::string SpaceScript(const std::string& csv);
};

} // namespace ns3

#endif /* OPTIMIZER_REPORT_H */

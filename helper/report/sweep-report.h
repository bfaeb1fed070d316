/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SWEEP_REPORT_H
#define SWEEP_REPORT_H

#include "ns3/training-profile.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The table of a --workers sweep of the driver: throughput per (workers,
 * backend:variant), printed as a table and written as CSV with a gnuplot script.
 */
class SweepReport
{
  public:
    /**
     * Add the results of one sweep point (a new backend:variant becomes a new column).
     * \param workers its K
     * \param results its results
     */
    void Add(uint32_t workers, const std::vector<TrainingResult>& results);

    /// \return the number of columns (backend:variant) so far
    std::size_t GetColumns() const;

    /// \return the table as the driver prints it ("-" where a column has no result)
    std::string FormatTable() const;

    /// \return the table as CSV: workers, then one column per backend:variant (empty if none)
    std::string FormatCsv() const;

    /**
     * \param csv the CSV file's name
     * \param profile the profile (the title)
     * \param s the scenario (the title)
     * \return the gnuplot script CSV.gp that draws CSV.png: one line per backend:variant
     */
    std::string PlotScript(const std::string& csv,
                           const TrainingProfile& profile,
                           const TrainingScenario& s) const;

    /**
     * \param csv the CSV file's name
     * \return the line that says where the CSV and its script are
     */
    static std::string FormatWritten(const std::string& csv);

  private:
    std::vector<uint32_t> m_workers;                   //!< the sweep
    std::vector<std::string> m_columns;                //!< backend:variant, first-seen order
    std::vector<std::map<std::string, double>> m_rows; //!< per point: column -> samples/s
};

} // namespace ns3

#endif /* SWEEP_REPORT_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef STUDY_REPORT_H
#define STUDY_REPORT_H

#include "ns3/training-profile.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The results of a --vary study of the driver as one tidy table: a row per point, K and
 * backend:variant, with a column per varied option; printed, written as CSV, and drawn by a
 * gnuplot script as one faceted figure (a panel per value of the first varied option, a line per
 * value of the others and backend:variant, the compute bound dashed; throughput against K).
 *
 * Rows are kept in series order (a series: the values of the varied options and a
 * backend:variant, in the order first seen), then in the order added (K), so that each line of
 * the figure is a run of consecutive rows: the script selects them by row number, never by
 * comparing text, which gnuplot cannot do for a quoted CSV field that holds a comma.
 */
class StudyReport
{
  public:
    /// \param varied the names of the varied options, in --vary order
    explicit StudyReport(std::vector<std::string> varied);

    /**
     * Add the results of one point at one K.
     * \param values the point's value of each varied option
     * \param workers its K
     * \param bound its compute bound (ComputeBound)
     * \param results its results
     */
    void Add(const std::vector<std::string>& values,
             uint32_t workers,
             double bound,
             const std::vector<TrainingResult>& results);

    /// \return the rows so far: points x K x backend:variant
    std::size_t GetRows() const;

    /// \return the table as the driver prints it
    std::string FormatTable() const;

    /**
     * \return the CSV: a header, then one row per point, K and backend:variant: the varied
     *         options (but --backend, which the backend column holds), workers, backend, variant,
     *         samples_per_s, compute_bound_samples_per_s, bottleneck, step_time_s (text fields
     *         quoted as CsvField)
     */
    std::string FormatCsv() const;

    /**
     * \param csv the CSV file's name
     * \param title the figure's title
     * \return the gnuplot script CSV.gp that draws CSV.png
     */
    std::string PlotScript(const std::string& csv, const std::string& title) const;

    /**
     * \brief The throughput of a scenario without any network: every worker computes (forward
     * and backward of every layer of the profile, times its --computeScale) back to back.
     * Sync: K x B / (slowest worker's compute); async: the sum of B / (each worker's compute);
     * B is the batch times --gpusPerNode. The times are the profile's means: a short run that
     * draws its steps from the recorded ones (--sampleSteps) can land a little above it.
     * \param profile the profile
     * \param s the scenario
     * \return samples per second
     */
    static double ComputeBound(const TrainingProfile& profile, const TrainingScenario& s);

  private:
    /// One line of the figure: a value of each varied option and a backend:variant.
    struct Series
    {
        std::vector<std::string> values; //!< the varied options' values
        std::string backend;             //!< the backend
        std::string variant;             //!< its variant
    };

    /// One row of the table.
    struct Row
    {
        std::size_t series;     //!< index into m_series
        uint32_t workers;       //!< K
        double throughput;      //!< samples per second
        double bound;           //!< the compute bound (samples per second)
        std::string bottleneck; //!< RunReport::BottleneckLabel
        double stepTime;        //!< mean step time (s)
    };

    /// \return the rows in series order, then in the order added
    std::vector<Row> Ordered() const;

    /// \return the indices of the varied options that are columns (all but backend)
    std::vector<std::size_t> VariedColumns() const;

    /**
     * \param panel the value of the first varied option of a panel
     * \param csv the CSV file
     * \param rows the ordered rows
     * \return the plot command of that panel
     */
    std::string PlotPanel(const std::string& panel,
                          const std::string& csv,
                          const std::vector<Row>& rows) const;

    std::vector<std::string> m_varied; //!< the varied options
    std::vector<Series> m_series;      //!< the lines, in the order first seen
    std::vector<Row> m_rows;           //!< the rows, in the order added
};

} // namespace ns3

#endif /* STUDY_REPORT_H */

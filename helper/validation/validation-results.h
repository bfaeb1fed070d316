/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef VALIDATION_RESULTS_H
#define VALIDATION_RESULTS_H

#include "validation-matrix.h"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The validation runner's results: the job result files read into rows, and the rows
 * written as results.csv, wall-times.csv, the error tables and calibration.csv.
 *
 * Reading a result file goes through the input checks (JsonInput); everything else is text
 * made from rows, so that each file's format can be tested on hand-made rows
 * (doc/reference/validation-runner.rst describes the files).
 */
class ValidationResults
{
  public:
    /// The error tables of one run (K > 1, K = 1 and every K against the reference).
    struct ErrorTables
    {
        std::string csv;     //!< error-table.csv: the three tables, each under its title
        std::string rst;     //!< error-table.rst: the same as RST simple tables
        std::string summary; //!< the K > 1 table, printed at the end of a run
    };

    /**
     * \param outDir the runner's output folder
     * \param id a job id
     * \return the job's JSON result file
     */
    static std::string ResultFile(const std::string& outDir, const std::string& id);

    /**
     * \param file a result JSON file
     * \param doc receives its contents
     * \return false if the file is missing, unreadable, not a regular file or holds no result
     */
    static bool ReadResultFile(const std::string& file, nlohmann::json& doc);

    /**
     * The rows of one job's result document.
     * \param matrix the matrix
     * \param job the job
     * \param doc its result document (ReadResultFile())
     * \param file the document's file, for messages
     * \return one row per reported result (a relabelled job gives its first result only; a
     *         result of several jobs one row per job, "<scenario>/<job>")
     * \throws TrainingInputError if a compared job reports a result of the reference backend
     */
    static std::vector<ValidationMatrix::Row> RowsOfResult(const ValidationMatrix& matrix,
                                                           const ValidationMatrix::Job& job,
                                                           const nlohmann::json& doc,
                                                           const std::string& file);

    /**
     * Read the rows of the finished jobs (a job without a result file gives none).
     * \param matrix the matrix
     * \param jobs the jobs
     * \param outDir the runner's output folder
     * \return the rows, in job order
     */
    static std::vector<ValidationMatrix::Row> ReadRows(
        const ValidationMatrix& matrix,
        const std::vector<ValidationMatrix::Job>& jobs,
        const std::string& outDir);

    /**
     * \param rows rows after ValidationMatrix::AttachErrors()
     * \param reference the reference backend (its throughput column is named after it)
     * \return results.csv: every prediction next to the reference
     */
    static std::string FormatResultsCsv(const std::vector<ValidationMatrix::Row>& rows,
                                        const std::string& reference);

    /**
     * \param rows the rows
     * \return wall-times.csv: each result's wall time (real-time runs against simulations)
     */
    static std::string FormatWallTimesCsv(const std::vector<ValidationMatrix::Row>& rows);

    /**
     * \param rows rows after ValidationMatrix::AttachErrors()
     * \param matrix the matrix (reference and columns)
     * \return the error tables (K > 1, K = 1 and all K) against the reference
     */
    static ErrorTables FormatErrorTables(const std::vector<ValidationMatrix::Row>& rows,
                                         const ValidationMatrix& matrix);

    /**
     * \param calibration the calibration
     * \param cells one cell per value (ValidationMatrix::CalibrationErrors())
     * \param chosen the chosen value's index (cells.size(): none)
     * \return calibration.csv
     */
    static std::string FormatCalibrationCsv(const ValidationMatrix::Calibration& calibration,
                                            const std::vector<ValidationMatrix::Cell>& cells,
                                            std::size_t chosen);

    /**
     * \param file a file (a job's log)
     * \param n lines
     * \return its last n non-empty lines (the read error's message if it cannot be read)
     */
    static std::vector<std::string> LastLines(const std::string& file, std::size_t n);

    /**
     * \param v a number
     * \return it with 6 significant digits, as every number of the runner's CSV files
     */
    static std::string Num(double v);
};

} // namespace ns3

#endif /* VALIDATION_RESULTS_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef VALIDATION_MATRIX_H
#define VALIDATION_MATRIX_H

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief A declared scenario matrix for the validation runner, and the pure computations on it.
 *
 * The matrix (a JSON file, doc/reference/validation-runner.rst) lists scenarios, each a set of
 * options of the driver distributed-training-sim, a category of the seed 000's Table 1 and the
 * worker counts K to run. This class checks the file, expands it into jobs (one driver process
 * each: packet, analytic, and one flow job per sharing variant), chooses a calibration value, and
 * aggregates the results into the relative errors against the packet level and into a Table
 * 1-shaped error table. It runs no process: examples/validation-runner.cc does that, so every
 * computation here can be tested on hand-made numbers.
 */
class ValidationMatrix
{
  public:
    /**
     * Driver options as a JSON object: option name (ScenarioOptions, without "--") -> its value
     * as the text the driver parses, e.g. {"nicRate": "10Gbps", "steps": "4"}. Every level of
     * the matrix (defaults, scenario options, per-K options, linux_options, flow variants, the
     * calibration sweep) keeps its options in this form up to the job file.
     */
    using Options = nlohmann::json;

    /// A flow-backend variant: a name and the driver options selecting it.
    struct Variant
    {
        std::string name;                    //!< label of the variant, e.g. "ps"
        Options options = Options::object(); //!< its driver options, e.g. {"sharing": "ps"}
    };

    /// One scenario of the matrix.
    struct Scenario
    {
        std::string name;                    //!< unique name, used in job ids and figure file names
        std::string category;                //!< one of GetCategories()
        std::string profile;                 //!< profile path as written in the matrix
        std::vector<uint32_t> workers;       //!< the K values to run
        Options options = Options::object(); //!< driver options
        /// driver options for one K only (e.g. --computeScale, which needs K values)
        std::map<uint32_t, Options> perWorkers;
        /// driver options of the linux job only (e.g. dilation, repeat), over the options
        Options linuxOptions = Options::object();
        std::vector<std::string> backends; //!< subset of packet, analytic, flow, linux
        std::string role;                  //!< "calibrate" or "holdout"
        bool timeline{false};              //!< draw a transfer timeline at the largest K
    };

    /// Optional calibration of one flow variant's option on the "calibrate" scenarios.
    struct Calibration
    {
        std::string variant; //!< the flow variant calibrated, e.g. "calibrated"
        std::string option;  //!< the driver option swept, e.g. "--incumbentWeight"

        /// \return the swept option's name in a job's options, e.g. "incumbentWeight"
        std::string OptionName() const
        {
            return option.substr(2);
        }

        std::vector<double> values; //!< the values tried
    };

    /// One driver process.
    struct Job
    {
        std::string id;          //!< file-name-safe id: scenario-kK-backend[-variant]
        std::size_t scenario{0}; //!< index into GetScenarios()
        uint32_t workers{0};     //!< K
        std::string backend;     //!< packet, analytic, flow or linux
        std::string variant;     //!< flow variant name (empty for the other backends)
        std::string label;       //!< row label override for the results ("" = as reported)
        nlohmann::json options;  //!< driver options (ScenarioOptions names) without the outputs
        bool records{false};     //!< keep per-transfer records (timeline figures)
        bool exclusive{false};   //!< real time (linux): runs alone, never beside another job
    };

    /// One result row: a model's (or the reference's) throughput for one (scenario, K).
    struct Row
    {
        std::string scenario;           //!< scenario name
        std::string category;           //!< its category
        std::string role;               //!< its role
        std::string profile;            //!< its profile
        uint32_t workers{0};            //!< K
        std::string backend;            //!< packet, flow, analytic or linux
        std::string variant;            //!< variant as reported (or the job's label)
        double throughput{0};           //!< samples/s
        double stepTime{0};             //!< mean step time (s)
        double referenceThroughput{-1}; //!< the reference's throughput of (scenario, K); -1: none
        double relError{0};             //!< (throughput - reference) / reference if reference > 0
        std::string job;                //!< id of the job that produced it
        double wallSeconds{0};          //!< the backend's wall time for this result
        std::string notes;              //!< the result's notes, joined by " | "
    };

    /// Mean and maximum of |relative error| over a set of points.
    struct Cell
    {
        double meanAbs{0};    //!< mean |error| (fraction)
        double maxAbs{0};     //!< max |error| (fraction)
        std::size_t count{0}; //!< number of points (0: blank cell)
    };

    /// Which K enter the error table.
    enum KFilter
    {
        K_ABOVE_ONE, //!< K > 1 (contention)
        K_ONE,       //!< K = 1 (no contention: the must-agree case)
        K_ALL        //!< every K
    };

    /// A Table 1-shaped error table: row label -> category -> cell.
    using Table = std::map<std::string, std::map<std::string, Cell>>;

    /**
     * Parse a matrix.
     * \param text the JSON text
     * \param fileName the file's name, for messages
     * \return the matrix
     * \throws TrainingInputError naming the file, the JSON path and what was expected
     */
    static ValidationMatrix Parse(const std::string& text, const std::string& fileName);

    /**
     * Read and parse a matrix file.
     * \param fileName the file
     * \return the matrix
     * \throws TrainingInputError if unreadable or invalid
     */
    static ValidationMatrix LoadFromFile(const std::string& fileName);

    /// \return the seven categories, in the column order of 000 Table 1
    static const std::vector<std::string>& GetCategories();

    /// \return the error tables' columns: the seven categories, then the matrix's own
    ///         "categories" (e.g. rate-1g, buffer-100p)
    std::vector<std::string> GetColumns() const;

    /// \return the reference backend every other backend is compared with: packet (default) or
    ///         linux (the matrix's "reference")
    const std::string& GetReference() const;

    /// \return the scenarios in file order
    const std::vector<Scenario>& GetScenarios() const;

    /// \return the flow variants (the defaults if the matrix gives none)
    const std::vector<Variant>& GetVariants() const;

    /// \return the driver options applied to every scenario (scenario options override them)
    const Options& GetDefaults() const;

    /// \return the calibration, if the matrix declares one
    const std::optional<Calibration>& GetCalibration() const;

    /**
     * Jobs of the first phase: every scenario's packet and analytic jobs and its flow jobs for
     * every variant but the calibrated one; with a calibration, the calibrated variant once per
     * value on the "calibrate" scenarios (labelled "<variant>@<value>"). Without a calibration,
     * every variant.
     * \param root folder that relative profile paths are resolved against
     * \return the jobs
     */
    std::vector<Job> ExpandFirstPhase(const std::string& root) const;

    /**
     * Jobs of the second phase: the calibrated variant with the chosen value on the "holdout"
     * scenarios. Empty without a calibration.
     * \param root folder that relative profile paths are resolved against
     * \param value the chosen calibration value
     * \return the jobs
     */
    std::vector<Job> ExpandSecondPhase(const std::string& root, double value) const;

    /**
     * Fill referenceThroughput and relError of every row from the reference row of the same
     * (scenario, K), and drop repeated (scenario, K, backend, variant) rows (the hybrid flow job
     * also reports fcfs and ps): the first one is kept.
     * \param rows the rows
     * \param reference the reference backend (packet or linux)
     * \return the rows with errors, in input order
     */
    static std::vector<Row> AttachErrors(const std::vector<Row>& rows,
                                         const std::string& reference = "packet");

    /**
     * \param errors relative errors (fractions, any sign)
     * \return their mean and max absolute value
     */
    static Cell Aggregate(const std::vector<double>& errors);

    /**
     * Build the error table over the "holdout" rows with a reference result.
     * \param rows rows after AttachErrors()
     * \param filter which K enter
     * \param reference the reference backend, whose rows are excluded
     * \return row label ("<backend> <variant>") -> category -> cell
     */
    static Table BuildTable(const std::vector<Row>& rows,
                            KFilter filter,
                            const std::string& reference = "packet");

    /**
     * \param table a table from BuildTable()
     * \param title the table's caption line
     * \param columns the categories, in column order
     * \return the table as CSV (label, then mean and max % per category; blank when no data)
     */
    static std::string FormatCsv(const Table& table,
                                 const std::string& title,
                                 const std::vector<std::string>& columns = GetCategories());

    /**
     * \param table a table from BuildTable()
     * \param columns the categories, in column order
     * \return the table as an RST simple table, cells "mean (max)" in %
     */
    static std::string FormatRst(const Table& table,
                                 const std::vector<std::string>& columns = GetCategories());

    /**
     * Mean |error| of each calibration value on the "calibrate" rows.
     * \param rows rows after AttachErrors()
     * \param calibration the calibration
     * \return one cell per value (K > 1 points if any calibrate row has K > 1, else all)
     */
    static std::vector<Cell> CalibrationErrors(const std::vector<Row>& rows,
                                               const Calibration& calibration);

    /**
     * \param cells one cell per candidate value
     * \return the index of the smallest mean |error| among cells with data (first on ties)
     * \throws TrainingInputError if no cell has data
     */
    static std::size_t ChooseCalibration(const std::vector<Cell>& cells);

    /**
     * \param variant the calibrated variant's name
     * \param value a calibration value
     * \return the row label of the calibration run with that value, e.g. "calibrated@0.25"
     */
    static std::string CalibrationLabel(const std::string& variant, double value);

    /**
     * \param v a number
     * \return its shortest text that reads back to the same double, whole numbers without a
     *         decimal point (0.25, 1, -3)
     */
    static std::string FormatNumber(double v);

  private:
    /// \param index scenario index \param k workers \return the scenario's options for K
    nlohmann::json JobOptions(const std::string& root, std::size_t index, uint32_t k) const;

    /**
     * The jobs of one scenario and K.
     * \param root folder of relative profile paths
     * \param index scenario index
     * \param k workers
     * \param variants flow variants to run, each with its row label ("" = as reported)
     * \param baseJobs include the packet and analytic jobs
     * \return the jobs
     */
    std::vector<Job> ExpandOne(const std::string& root,
                               std::size_t index,
                               uint32_t k,
                               const std::vector<std::pair<Variant, std::string>>& variants,
                               bool baseJobs) const;

    std::string m_fileName;                     //!< matrix file, for messages
    Options m_defaults = Options::object();     //!< default driver options
    std::vector<Variant> m_variants;            //!< flow variants
    std::vector<Scenario> m_scenarios;          //!< scenarios
    std::optional<Calibration> m_calibration;   //!< optional calibration
    std::string m_reference{"packet"};          //!< reference backend
    std::vector<std::string> m_extraCategories; //!< the matrix's own columns
};

} // namespace ns3

#endif /* VALIDATION_MATRIX_H */

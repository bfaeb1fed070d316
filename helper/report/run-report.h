/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUN_REPORT_H
#define RUN_REPORT_H

#include "ns3/training-profile.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <string>
#include <vector>

namespace ns3
{

class OutputFile;

/**
 * \ingroup distributed-training
 * \brief What the driver distributed-training-sim reports of one scenario's results: the
 * summary it prints (one line per result, its bottleneck, notes and congestion counters) and
 * the rows it appends to --csvRow.
 *
 * Every report is text made from the profile, the scenario and the results, so that its format
 * can be tested on hand-made results; the driver prints or writes it.
 */
class RunReport
{
  public:
    /**
     * \param format a printf format
     * \return the text printf would print
     */
    static std::string Format(const char* format, ...) __attribute__((format(printf, 1, 2)));

    /**
     * \param r a result
     * \param key an input
     * \return r.inputs[key], or 0 if absent
     */
    static double Input(const TrainingResult& r, const std::string& key);

    /**
     * \param profile the profile
     * \param scenario the scenario
     * \return the summary's first line (model, architecture, K, NIC, overlap) and, on a fabric,
     *         its description
     */
    static std::string FormatHeading(const TrainingProfile& profile,
                                     const TrainingScenario& scenario);

    /**
     * \param r a result
     * \return its bottleneck with the link's utilisation, "compute-bound (busiest link ...)"
     *         below the threshold, or the bottleneck as reported
     */
    static std::string BottleneckLabel(const TrainingResult& r);

    /**
     * \param r a result
     * \return the packet backend's congestion counters and cross traffic lines ("" if none)
     */
    static std::string FormatCongestion(const TrainingResult& r);

    /**
     * \param r a result
     * \return its interval lines ("" for a plain run): of --repeat "throughput 1234.5 samples/s
     *         (95 % CI 1220.1-1248.9, 5 runs)", of --ciTarget the steps used and the step
     *         time's interval reached
     */
    static std::string FormatIntervals(const TrainingResult& r);

    /**
     * \param r a result
     * \return its --csvRow interval columns (the last six of CsvRowHeader()): the runs, the mean
     * and its interval, the steps used and the step time's relative half-width (empty when the run
     * had none)
     */
    static std::string CsvIntervalFields(const TrainingResult& r);

    /**
     * \param profile the profile
     * \param scenario the scenario
     * \param results its results
     * \return the summary the driver prints: the heading, then one line per result with its
     *         notes and congestion
     */
    static std::string FormatSummary(const TrainingProfile& profile,
                                     const TrainingScenario& scenario,
                                     const std::vector<TrainingResult>& results);

    /**
     * \param r a result
     * \return its non-zero per-port drop counters as "port=n;port=n" (no commas: one CSV field)
     */
    static std::string DropsByPort(const TrainingResult& r);

    /// \return the header line of the --csvRow file
    static std::string CsvRowHeader();

    /**
     * \param profile the profile
     * \param s the scenario
     * \param results its results
     * \return one --csvRow row per result with the key numbers of the congestion study (text
     *         fields are CsvField()s)
     */
    static std::string FormatCsvRows(const TrainingProfile& profile,
                                     const TrainingScenario& s,
                                     const std::vector<TrainingResult>& results);

    /**
     * Append the rows to the --csvRow file (opened before the run; committed by the caller),
     * the header first if the file was empty.
     * \param file the file
     * \param profile the profile
     * \param s the scenario
     * \param results its results
     */
    static void AppendCsvRows(OutputFile& file,
                              const TrainingProfile& profile,
                              const TrainingScenario& s,
                              const std::vector<TrainingResult>& results);

    /**
     * \param ignored the options the user set that a backend does not model
     *        (ScenarioOptions::GetIgnored())
     * \param backend the backend
     * \return the note added to each of its results ("" if none)
     */
    static std::string IgnoredNote(const std::vector<std::string>& ignored,
                                   const std::string& backend);

    /**
     * Add the IgnoredNote() of a backend to each of its results.
     * \param results the results
     * \param ignored the options the user set that the backend does not model
     * \param backend the backend
     */
    static void AddIgnoredNote(std::vector<TrainingResult>& results,
                               const std::vector<std::string>& ignored,
                               const std::string& backend);

    /// \return the memory the kernel says is available for a new allocation (bytes), 0 if
    ///         unknown
    static double AvailableMemoryBytes();

    /**
     * The transfer records of a result kept in memory (and written to --output): one per
     * worker, step and layer in each direction.
     * \param profile the profile
     * \param s the scenario
     * \param available the memory available (bytes; 0: unknown)
     * \return a note when they are many (over 1e6 per result), else ""
     * \throws TrainingInputError naming --records when they need more than half the memory
     *         available (the kernel would kill the run part way)
     */
    static std::string RecordsMemoryNote(const TrainingProfile& profile,
                                         const TrainingScenario& s,
                                         double available);

    /**
     * What the runs about to start will cost (TrainingBackend::EstimateCpuSeconds, summed over
     * the backends and the --workers sweep), said before they start.
     * \param cpuSeconds the estimate
     * \param runs the runs it covers
     * \return "" under a minute; a note to a quarter of an hour; above, a warning that names
     *         the cheaper backends
     */
    static std::string CostNote(double cpuSeconds, std::size_t runs);

  private:
    /// \return the inputs of a result that are --csvRow columns, in column order
    static const std::vector<std::string>& CsvCounters();
};

} // namespace ns3

#endif /* RUN_REPORT_H */

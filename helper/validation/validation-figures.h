/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef VALIDATION_FIGURES_H
#define VALIDATION_FIGURES_H

#include "validation-matrix.h"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The validation runner's figures: per scenario a throughput-vs-workers figure (like
 * 000 Fig. 9 and 12-22) and, where asked, a transfer timeline (like 000 Fig. 7 and 23), each
 * a data file and a gnuplot script in the output folder, drawn when gnuplot is installed.
 *
 * The data and scripts are text made from rows and result documents (testable as such); only
 * the Write* methods touch files and RunGnuplot() starts a process.
 */
class ValidationFigures
{
  public:
    /// One series of a throughput figure: a backend (and variant) of one scenario or one job.
    struct Series
    {
        std::string label; //!< column name: "<backend> <variant>", "<job>: ..." for a job's rows
        bool reference;    //!< drawn as points (the reference backend), else as a line
    };

    /// The data of a throughput figure.
    struct Throughput
    {
        std::vector<Series> columns;                             //!< in first-seen order
        std::map<uint32_t, std::map<std::string, double>> table; //!< K -> label -> samples/s
    };

    /// The data of a timeline figure: one gnuplot data block per panel.
    struct Timeline
    {
        std::string dat;                //!< the blocks (base.dat)
        std::vector<std::string> lanes; //!< the lanes' labels (of the last panel)
        double span{0};                 //!< the longest panel's end (ms)
    };

    /**
     * \param rows the result rows
     * \param scenario a scenario's name (its jobs' rows "<scenario>/<job>" included)
     * \param reference the reference backend
     * \return its throughput per K and series (calibration sweeps "x@v" left out)
     */
    static Throughput CollectThroughput(const std::vector<ValidationMatrix::Row>& rows,
                                        const std::string& scenario,
                                        const std::string& reference);

    /**
     * \param data a figure's data
     * \return the CSV: workers, then one column per series (NaN where missing)
     */
    static std::string ThroughputCsv(const Throughput& data);

    /**
     * \param s the scenario
     * \param base the figure's base name (base.csv holds the data)
     * \param columns the series of base.csv's columns 2, 3, ...
     * \param reference the reference backend
     * \return the gnuplot script: the reference as points (black if it is one series), the
     *         rest as lines (analytic dashed)
     */
    static std::string ThroughputScript(const ValidationMatrix::Scenario& s,
                                        const std::string& base,
                                        const std::vector<Series>& columns,
                                        const std::string& reference);

    /**
     * Write NAME-throughput.{csv,gp} of one scenario (one series per job and backend for a
     * scenario of several jobs).
     * \param outDir the output folder
     * \param s the scenario
     * \param rows the result rows
     * \param reference the reference backend
     * \return the script's file name (relative to outDir); empty if the scenario has no result
     */
    static std::string WriteThroughputFigure(const std::string& outDir,
                                             const ValidationMatrix::Scenario& s,
                                             const std::vector<ValidationMatrix::Row>& rows,
                                             const std::string& reference);

    /**
     * Add the panel of one job's result: the transfers of its first measured step.
     * \param doc a result document with records
     * \param title the panel's title (a comment line)
     * \param timeline receives the block; its lanes become the worker indices
     * \return false if the document has no transfer of that step
     */
    static bool AddTimelinePanel(const nlohmann::json& doc,
                                 const std::string& title,
                                 Timeline& timeline);

    /**
     * Add the panel of a several-jobs result: every job's transfers on one clock, over the
     * window from the earliest start to the latest end of any job's first measured step
     * (clipped to it), job j's worker w on lane (workers of the jobs before j) + w, labelled
     * "<job> w<w>".
     * \param doc a several-jobs result document with records
     * \param title the panel's title (a comment line)
     * \param timeline receives the block and the lanes
     * \return false if the document lacks a job's result or no job has a transfer in its
     *         first measured step
     */
    static bool AddJobsTimelinePanel(const nlohmann::json& doc,
                                     const std::string& title,
                                     Timeline& timeline);

    /**
     * \param name the scenario's name
     * \param base the figure's base name (its data file is base.dat)
     * \param timeline the panels' data
     * \param titles the panels' titles
     * \param jobs whether the panels are of several jobs
     * \return the gnuplot script: one panel per result, uplinks red, downlinks blue
     */
    static std::string TimelineScript(const std::string& name,
                                      const std::string& base,
                                      const Timeline& timeline,
                                      const std::vector<std::string>& titles,
                                      bool jobs);

    /**
     * Write NAME-timeline.{dat,gp}: packet above flow, per worker one bar per transfer, uplink
     * and downlink on two lanes.
     * \param outDir the output folder
     * \param s the scenario
     * \param packetJson the packet job's result file (with records)
     * \param flowJson the flow ps job's result file (with records)
     * \param jobs whether the scenario runs several jobs
     * \return the script's file name, or "" if a record file is missing or empty
     */
    static std::string WriteTimelineFigure(const std::string& outDir,
                                           const ValidationMatrix::Scenario& s,
                                           const std::string& packetJson,
                                           const std::string& flowJson,
                                           bool jobs);

    /**
     * \param name a program
     * \return its path on PATH, or ""
     */
    static std::string FindOnPath(const std::string& name);

    /**
     * Run gnuplot on a script inside dir. The script draws NAME.png by default; here it is
     * told to draw NAME.png.part, renamed to NAME.png once gnuplot exited 0, so that an
     * interrupted run never leaves a truncated figure.
     * \param gnuplot the program
     * \param dir the folder (gnuplot's messages go to its gnuplot.log)
     * \param script the script, relative to dir
     * \return true if gnuplot exited 0 and the figure was renamed
     */
    static bool RunGnuplot(const std::string& gnuplot,
                           const std::string& dir,
                           const std::string& script);
};

} // namespace ns3

#endif /* VALIDATION_FIGURES_H */

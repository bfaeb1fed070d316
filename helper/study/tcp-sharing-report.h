/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_SHARING_REPORT_H
#define TCP_SHARING_REPORT_H

#include "tcp-sharing-study.h"

#include <string>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief What tcp-sharing-study reports of a TcpSharingStudy run: the one-line summary, the
 * --csv row, the --timeseries and --flowTimes files (text made from the report, testable as
 * such).
 */
class TcpSharingReport
{
  public:
    /**
     * \param o the options
     * \param p the rates
     * \param r the report
     * \return the summary line: the setting, lambda and residual, mean FCTs and the fit
     */
    static std::string FormatSummary(const TcpSharingOptions& o,
                                     const TcpSharingStudy::Plan& p,
                                     const TcpSharingStudy::Report& r);

    /// \return the header line of the --csv file
    static std::string CsvHeader();

    /**
     * \param o the options
     * \param p the rates
     * \param r the report
     * \return the --csv row of the run
     */
    static std::string FormatCsvRow(const TcpSharingOptions& o,
                                    const TcpSharingStudy::Plan& p,
                                    const TcpSharingStudy::Report& r);

    /**
     * \param o the options (the sampling interval)
     * \param r the report (its samples)
     * \return --timeseries: time_s,flow,gbps per sampling interval and flow
     */
    static std::string FormatTimeseries(const TcpSharingOptions& o,
                                        const TcpSharingStudy::Report& r);

    /**
     * \param o the options (the arrivals)
     * \param r the report
     * \return --flowTimes: one row per flow, times in seconds from the start of the run (an
     *         empty field: the event did not happen)
     */
    static std::string FormatFlowTimes(const TcpSharingOptions& o,
                                       const TcpSharingStudy::Report& r);
};

} // namespace ns3

#endif /* TCP_SHARING_REPORT_H */

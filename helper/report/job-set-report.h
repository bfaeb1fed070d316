/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JOB_SET_REPORT_H
#define JOB_SET_REPORT_H

#include "ns3/training-job-set.h"

#include <string>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief What the driver prints of several jobs on one fabric (--jobs): the placed jobs before
 * the run, and per backend result one block per job and the fabric's links.
 */
class JobSetReport
{
  public:
    /**
     * \param set the job set
     * \return the fabric and one line per placed job
     */
    static std::string FormatJobs(const TrainingJobSet& set);

    /**
     * \param set the job set
     * \param r one backend's result
     * \return one line per job (its throughput, step time and, where losses are counted, its
     *         RTOs and retransmissions), then the fabric's links
     */
    static std::string FormatResult(const TrainingJobSet& set, const JobSetResult& r);

    /**
     * \param r one backend's result
     * \return the fabric window, the links that carried data (utilisation, drops, ECN marks)
     *         and the result's notes
     */
    static std::string FormatFabricLinks(const JobSetResult& r);
};

} // namespace ns3

#endif /* JOB_SET_REPORT_H */

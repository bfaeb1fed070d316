/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUN_CONTEXT_H
#define RUN_CONTEXT_H

#include "ns3/nstime.h"
#include "ns3/training-result.h"

#include <memory>
#include <ostream>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief What a backend's runs report to besides their results: the record sink and the
 * progress of long simulations. The program that runs a backend gives it one
 * (TrainingBackend::SetRunContext); nothing of it is process-global, so two backends (or two
 * tests) with different contexts never see each other's records.
 *
 * The default context keeps every record in its result and reports no progress.
 */
struct RunContext
{
    /// Where the results' step and transfer records go (the driver's --recordsFile); nullptr:
    /// each result keeps its own.
    std::shared_ptr<TrainingResult::RecordSink> records;
    /// Where a long simulation reports its progress (ProgressReporter); nullptr: no reports.
    std::ostream* progress{nullptr};
    /// Wall-clock time between progress reports.
    Time progressInterval{Seconds(10)};

    /// \return a new result attached to the record sink (it takes the next run number), or one
    /// that keeps its records without a sink
    TrainingResult NewResult() const
    {
        return TrainingResult(records);
    }
};

} // namespace ns3

#endif /* RUN_CONTEXT_H */

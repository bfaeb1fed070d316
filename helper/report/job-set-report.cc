/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-set-report.h"

#include "run-report.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

std::string
JobSetReport::FormatFabricLinks(const JobSetResult& r)
{
    std::string text
        = RunReport::Format("  fabric window %.6f .. %.6f s; links that carried data:\n",
                            r.windowStart,
                            r.windowEnd);
    text += RunReport::Format("  %-32s %8s %8s %8s\n", "link", "util %", "drops", "ECN");
    // Most congested first: losses (packet level), then utilisation; the fabric's order breaks
    // ties, so the listing is the same from run to run.
    std::vector<JobSetResult::Link> links = r.links;
    std::stable_sort(links.begin(),
                     links.end(),
                     [](const JobSetResult::Link& a, const JobSetResult::Link& b)
                     {
                         const double la = a.drops + a.ecnMarks;
                         const double lb = b.drops + b.ecnMarks;
                         return la != lb ? la > lb : a.utilisation > b.utilisation;
                     });
    for (const auto& l : links)
    {
        if (l.utilisation <= 0 && l.drops <= 0)
        {
            continue;
        }
        text += r.countsLosses ? RunReport::Format("  %-32s %8.1f %8.0f %8.0f\n",
                                                   l.name.c_str(),
                                                   100 * l.utilisation,
                                                   l.drops,
                                                   l.ecnMarks)
                               : RunReport::Format("  %-32s %8.1f %8s %8s\n",
                                                   l.name.c_str(),
                                                   100 * l.utilisation,
                                                   "-",
                                                   "-");
    }
    for (const auto& note : r.notes)
    {
        text += RunReport::Format("  note: %s\n", note.c_str());
    }
    return text;
}

std::string
JobSetReport::FormatResult(const TrainingJobSet& set, const JobSetResult& r)
{
    std::string text = RunReport::Format("%s %s (%.1f s wall)\n",
                                         r.backend.c_str(),
                                         r.variant.c_str(),
                                         r.wallSeconds);
    text += RunReport::Format("  %-10s %-22s %-10s %4s %8s %12s %8s %11s %6s %6s\n",
                              "job",
                              "model",
                              "arch",
                              "K",
                              "start(s)",
                              "samples/s",
                              "vs solo",
                              "step (ms)",
                              "RTOs",
                              "retx");
    for (std::size_t j = 0; j < r.jobs.size(); ++j)
    {
        const TrainingJob& job = set.GetJobs()[j];
        const TrainingResult& x = r.jobs[j];
        const std::string arch = job.scenario.GetArchitectureName() + "-"
                                 + (job.scenario.architecture == TrainingScenario::RING_ALLREDUCE
                                        ? std::string("sync")
                                        : job.scenario.GetModeName());
        const auto count = [&r, &x](const std::string& key)
        {
            return r.countsLosses ? std::to_string(static_cast<long>(RunReport::Input(x, key)))
                                  : std::string("-");
        };
        const double change = r.GetChangeVsSolo(j);
        const std::string vsSolo
            = std::isnan(change) ? std::string("-") : RunReport::Format("%+.1f%%", 100 * change);
        text += RunReport::Format("  %-10s %-22s %-10s %4u %8.3f %12.2f %8s %11.3f %6s %6s\n",
                                  job.name.c_str(),
                                  job.profile->GetModel().substr(0, 22).c_str(),
                                  arch.c_str(),
                                  job.scenario.workers,
                                  job.startTime,
                                  x.throughput,
                                  vsSolo.c_str(),
                                  x.stepTimeMean * 1e3,
                                  count("rto_timeouts").c_str(),
                                  count("retransmitted_segments").c_str());
        for (const auto& note : x.notes)
        {
            text += RunReport::Format("             note: %s\n", note.c_str());
        }
    }
    return text + FormatFabricLinks(r);
}

std::string
JobSetReport::FormatJobs(const TrainingJobSet& set)
{
    std::string text = RunReport::Format("fabric: %s\n", set.GetFabric().Describe().c_str());
    for (const auto& job : set.GetJobs())
    {
        std::string hosts;
        for (uint32_t h : job.hosts)
        {
            hosts += (hosts.empty() ? "" : ",") + std::to_string(h);
        }
        text += RunReport::Format(
            "job %s: %s, %s, K=%u, %u steps (%u warm-up), hosts %s, start %.3f s\n",
            job.name.c_str(),
            job.profile->GetModel().c_str(),
            job.scenario.GetArchitectureName().c_str(),
            job.scenario.workers,
            job.scenario.steps,
            job.scenario.warmup,
            hosts.c_str(),
            job.startTime);
    }
    return text;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "optimizer-report.h"

#include "ns3/run-report.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace ns3
{

std::string
OptimizerReport::FormatCell(const OptimizerEstimate& e)
{
    if (!e.done)
    {
        return "-";
    }
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.0f [%.0f,%.0f] #%u", e.throughput, e.low, e.high, e.rank);
    return buf;
}

std::string
OptimizerReport::FormatTable(const ConfigurationOptimizer::Outcome& out,
                             double samples,
                             std::size_t rows)
{
    using F = RunReport;
    using O = ConfigurationOptimizer;
    // The linux column only when that rung ran; labels as wide as the longest shown.
    const int rungs = out.rungRuns[O::LINUX] > 0 ? O::RUNGS : O::LINUX;
    int width = 22;
    for (std::size_t i = 0; i < out.rows.size() && i < rows; ++i)
    {
        width = std::max<int>(width, out.rows[i].candidate.Label().size());
    }
    std::string text = F::Format("%4s  %-*s", "rank", width, "configuration");
    for (int k = 0; k < rungs; ++k)
    {
        text += F::Format(" %-26s", (O::RungName(O::Rung(k)) + " samples/s").c_str());
    }
    text += F::Format(" %9s %6s\n", "epoch min", "stale");
    for (std::size_t i = 0; i < out.rows.size() && i < rows; ++i)
    {
        const auto& r = out.rows[i];
        const OptimizerEstimate& top = r.rungs[std::max(r.Top(), 0)];
        text += F::Format("%4zu  %-*s", i + 1, width, r.candidate.Label().c_str());
        for (int k = 0; k < rungs; ++k)
        {
            text += F::Format(" %-26s", FormatCell(r.rungs[k]).c_str());
        }
        text += F::Format(" %9.1f ", top.done ? samples / top.throughput / 60 : 0.0);
        text += top.staleness >= 0 ? F::Format("%6.1f\n", top.staleness) : F::Format("%6s\n", "-");
    }
    for (int k = 0; k < rungs; ++k)
    {
        text += F::Format("%s rung: %u runs, %.2f s wall\n",
                          O::RungName(O::Rung(k)).c_str(),
                          out.rungRuns[k],
                          out.rungWall[k]);
    }
    text += F::Format("ranking %s; %u configurations refused by the scenario\n",
                      out.settled ? "settled (the winner's lower bound beats every other interval)"
                                  : "not settled (intervals overlap: confirm more finalists)",
                      out.skipped);
    for (const std::string& n : out.notes)
    {
        text += F::Format("note: %s\n", n.c_str());
    }
    return text;
}

std::string
OptimizerReport::SpaceCsv(const ConfigurationOptimizer::Outcome& out, double samples)
{
    std::ostringstream f;
    f << "label,family,workers,servers,bucket_bytes,overlap,backend,throughput,low,high,"
         "epoch_min\n";
    for (const auto& r : out.rows)
    {
        const int t = r.Top();
        if (t < 0)
        {
            continue;
        }
        const auto& c = r.candidate;
        const OptimizerEstimate& e = r.rungs[t];
        const int family = c.Class().rfind("ring", 0) == 0     ? 2
                           : c.mode == TrainingScenario::ASYNC ? 1
                                                               : 0;
        f << c.Label() << "," << family << "," << c.workers << "," << c.servers << ","
          << c.bucketBytes << "," << c.overlap << ","
          << ConfigurationOptimizer::RungName(ConfigurationOptimizer::Rung(t)) << ","
          << e.throughput << "," << e.low << "," << e.high << "," << samples / e.throughput / 60
          << "\n";
    }
    return f.str();
}

std::string
OptimizerReport::SpaceScript(const std::string& csv)
{
    std::ostringstream gp;
    gp << "# The search space in the style of 002 Fig. 15: x = K, y = P (ring: 0), point size\n"
       << "# and colour the epoch time of each configuration's highest-rung estimate.\n"
       << "set terminal pngcairo size 900,600\nset output '" << csv << ".png'\n"
       << "set datafile separator ','\nset xlabel 'workers K'\nset ylabel 'servers P (ring: 0)'\n"
       << "set cblabel 'epoch (min)'\nset palette rgbformulae 33,13,10\nset key outside\n"
       << "set offsets 0.5,0.5,0.5,0.5\n"
       << "plot for [fam=0:2] '" << csv
       << "' every ::1 using ($2==fam?$3+0.2*$6-0.1+0.1*fam:1/0):4:"
       << "(1+$11/20):11 with points pt (fam==0?7:fam==1?5:9) ps variable palette "
       << "title (fam==0?'ps-sync':fam==1?'ps-async':'ring')\n";
    return gp.str();
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "run-report.h"

#include "ns3/fabric-topology.h"
#include "ns3/output-file.h"
#include "ns3/training-input-error.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace ns3
{

std::string
RunReport::Format(const char* format, ...)
{
    va_list args;
    va_start(args, format);
    va_list copy;
    va_copy(copy, args);
    const int n = std::vsnprintf(nullptr, 0, format, copy);
    va_end(copy);
    std::string text(n > 0 ? n : 0, '\0');
    if (n > 0)
    {
        std::vsnprintf(text.data(), n + 1, format, args);
    }
    va_end(args);
    return text;
}

double
RunReport::Input(const TrainingResult& r, const std::string& key)
{
    auto it = r.inputs.find(key);
    return it == r.inputs.end() ? 0 : it->second;
}

std::string
RunReport::FormatCongestion(const TrainingResult& r)
{
    std::string text;
    const double drops = Input(r, "drops_device") + Input(r, "drops_queue_disc");
    if (drops + Input(r, "ecn_marks") + Input(r, "retransmitted_segments") > 0)
    {
        text += Format("          congestion: %.0f drops (%.0f at server ports), %.0f ECN marks, "
                       "%.0f retransmitted segments, %.0f RTO expiries, %.0f fast recoveries\n",
                       drops,
                       Input(r, "drops_server_ports"),
                       Input(r, "ecn_marks"),
                       Input(r, "retransmitted_segments"),
                       Input(r, "rto_timeouts"),
                       Input(r, "fast_recoveries"));
    }
    if (r.inputs.count("cross_rx_bytes"))
    {
        text += Format("          cross traffic: %.1f MB delivered, %.3f Gb/s in the window\n",
                       Input(r, "cross_rx_bytes") / 1e6,
                       Input(r, "cross_goodput_bps") / 1e9);
    }
    return text;
}

std::string
RunReport::FormatHeading(const TrainingProfile& profile, const TrainingScenario& scenario)
{
    std::string text = Format(
        "%s, batch %u, %zu layers, %.1f MB | %s %s, K=%u, %s, %s NIC%s, overlap %s\n",
        profile.GetModel().c_str(),
        profile.GetBatchSize(),
        profile.GetNLayers(),
        profile.GetTotalParamBytes() / 1e6,
        scenario.GetArchitectureName().c_str(),
        scenario.GetModeName().c_str(),
        scenario.workers,
        scenario.architecture == TrainingScenario::PARAMETER_SERVER
            ? ("P=" + std::to_string(scenario.servers)).c_str()
            : ("Q="
               + (scenario.bucketBytes == TrainingScenario::UNLIMITED_BUCKET
                      ? std::string("inf")
                      : std::to_string(scenario.bucketBytes))
               + (scenario.gpusPerNode > 1 ? ", G=" + std::to_string(scenario.gpusPerNode) : ""))
                  .c_str(),
        (std::to_string(scenario.nicRate.GetBitRate() / 1000000000.0).substr(0, 5) + "G").c_str(),
        scenario.flowCap.GetBitRate() > 0
            ? (", cap " + std::to_string(scenario.flowCap.GetBitRate() / 1000000000.0).substr(0, 5)
               + "G")
                  .c_str()
            : "",
        scenario.overlap ? "on" : "off");
    if (scenario.topology != "star")
    {
        text += Format("fabric: %s\n", scenario.BuildFabric().Describe().c_str());
    }
    return text;
}

std::string
RunReport::BottleneckLabel(const TrainingResult& r)
{
    auto it = r.linkUtilisation.find(r.bottleneck);
    if (it == r.linkUtilisation.end())
    {
        return r.bottleneck;
    }
    // Below the threshold no link is the bottleneck: say so, and still name the busiest.
    char buf[160];
    std::snprintf(buf,
                  sizeof(buf),
                  r.IsComputeBound() ? "compute-bound (busiest link %s, %.1f%%)" : "%s (%.1f%%)",
                  r.bottleneck.c_str(),
                  100 * it->second);
    return buf;
}

std::string
RunReport::FormatIntervals(const TrainingResult& r)
{
    std::string text;
    if (r.repeat)
    {
        text += Format("          throughput %.1f samples/s (95 %% CI %.1f-%.1f, %zu runs)\n",
                       r.repeat->mean,
                       r.repeat->ciLow,
                       r.repeat->ciHigh,
                       r.repeat->throughputs.size());
    }
    if (r.stepInterval)
    {
        const auto& i = *r.stepInterval;
        text += Format("          steps %u: step time %.3f ms +- %.2f %% (95 %% CI, %u batch "
                       "means; target %.2f %%%s)\n",
                       i.steps,
                       i.stepTimeMean * 1e3,
                       100 * i.relativeHalfWidth,
                       i.batches,
                       100 * i.target,
                       i.capped ? ", not reached" : "");
    }
    return text;
}

std::string
RunReport::CsvIntervalFields(const TrainingResult& r)
{
    std::ostringstream out;
    out << "," << (r.repeat ? r.repeat->throughputs.size() : 1) << ",";
    if (r.repeat)
    {
        out << r.repeat->mean << "," << r.repeat->ciLow << "," << r.repeat->ciHigh;
    }
    else
    {
        out << ",,";
    }
    out << ",";
    if (r.stepInterval)
    {
        out << r.stepInterval->steps << "," << r.stepInterval->relativeHalfWidth;
    }
    else
    {
        out << ",";
    }
    return out.str();
}

std::string
RunReport::FormatSummary(const TrainingProfile& profile,
                         const TrainingScenario& scenario,
                         const std::vector<TrainingResult>& results)
{
    std::string text = FormatHeading(profile, scenario);
    text += Format("%-9s %-20s %14s %13s  %s\n",
                   "backend",
                   "variant",
                   "samples/s",
                   "step (ms)",
                   "bottleneck (utilisation)");
    for (const auto& r : results)
    {
        text += Format("%-9s %-20s %14.2f %13.3f  %s\n",
                       r.backend.c_str(),
                       r.variant.c_str(),
                       r.throughput,
                       r.stepTimeMean * 1e3,
                       BottleneckLabel(r).c_str());
        text += FormatIntervals(r);
        for (const auto& note : r.notes)
        {
            text += Format("          note: %s\n", note.c_str());
        }
        text += FormatCongestion(r);
    }
    return text;
}

std::string
RunReport::DropsByPort(const TrainingResult& r)
{
    std::string out;
    for (const auto& [key, value] : r.inputs)
    {
        if (key.rfind("drops:", 0) == 0)
        {
            out += (out.empty() ? "" : ";") + key.substr(6) + "="
                   + std::to_string(std::lround(value));
        }
    }
    return out;
}

const std::vector<std::string>&
RunReport::CsvCounters()
{
    static const std::vector<std::string> counters = {"drops_device",
                                                      "drops_queue_disc",
                                                      "ecn_marks",
                                                      "retransmitted_segments",
                                                      "rto_timeouts",
                                                      "fast_recoveries",
                                                      "drops_server_ports",
                                                      "cross_goodput_bps",
                                                      "ecmp_fabric_flows",
                                                      "ecmp_max_flows_per_link",
                                                      "ecmp_shared_links",
                                                      "ecmp_collided_flows"};
    return counters;
}

std::string
RunReport::CsvRowHeader()
{
    std::string h = "model,arch,mode,workers,nic_bps,queue,host_queue,queue_disc,tcp,min_rto_s,ecn,"
                    "cross_traffic,cross_flows,cross_rate_bps,backend,variant,throughput,"
                    "step_time_s,bottleneck,bottleneck_utilisation,wall_s";
    for (const auto& c : CsvCounters())
    {
        h += "," + c;
    }
    return h
           + ",topology,uplink_bps,placement,ecmp_seed,drops_by_port,repeat_runs,"
             "throughput_mean,ci95_low,ci95_high,steps_used,step_ci_relative\n";
}

std::string
RunReport::FormatCsvRows(const TrainingProfile& profile,
                         const TrainingScenario& s,
                         const std::vector<TrainingResult>& results)
{
    std::ostringstream out;
    const auto q = [](const std::string& field)
    {
        return CsvField(field);
    };
    for (const auto& r : results)
    {
        auto u = r.linkUtilisation.find(r.bottleneck);
        out << q(profile.GetModel()) << "," << s.GetArchitectureName() << "," << s.GetModeName()
            << "," << s.workers << "," << s.nicRate.GetBitRate() << "," << q(s.queueSize) << ","
            << q(s.hostQueueSize.empty() ? s.queueSize : s.hostQueueSize) << "," << q(s.queueDisc)
            << "," << q(s.tcpVariant) << "," << s.minRto.GetSeconds() << "," << s.ecn << ","
            << q(s.crossTraffic) << "," << (s.crossTraffic == "none" ? 0 : s.crossFlows) << ","
            << s.crossRate.GetBitRate() << "," << q(r.backend) << "," << q(r.variant) << ","
            << r.throughput << "," << r.stepTimeMean << "," << q(r.bottleneck) << ","
            << (u == r.linkUtilisation.end() ? 0 : u->second) << "," << r.wallSeconds;
        for (const auto& c : CsvCounters())
        {
            out << "," << Input(r, c);
        }
        // Fabric columns (doc/validation/fabric-congestion.rst); a list placement's commas become
        // ';'.
        std::string placement = s.placement;
        std::replace(placement.begin(), placement.end(), ',', ';');
        out << "," << q(s.topology) << "," << s.uplinkRate.GetBitRate() << "," << q(placement)
            << "," << s.ecmpSeed << "," << q(DropsByPort(r)) << CsvIntervalFields(r) << "\n";
    }
    return out.str();
}

void
RunReport::AppendCsvRows(OutputFile& file,
                         const TrainingProfile& profile,
                         const TrainingScenario& s,
                         const std::vector<TrainingResult>& results)
{
    std::ostream& out = file.Stream();
    if (file.WasEmpty())
    {
        out << CsvRowHeader();
    }
    out << FormatCsvRows(profile, s, results);
}

std::string
RunReport::IgnoredNote(const std::vector<std::string>& ignored, const std::string& backend)
{
    std::string list;
    for (const auto& name : ignored)
    {
        list += (list.empty() ? "" : ", ") + name;
    }
    return list.empty()
               ? ""
               : "not modelled by the " + backend + " backend here, so without effect: " + list;
}

void
RunReport::AddIgnoredNote(std::vector<TrainingResult>& results,
                          const std::vector<std::string>& ignored,
                          const std::string& backend)
{
    const std::string note = IgnoredNote(ignored, backend);
    for (auto& r : results)
    {
        if (!note.empty())
        {
            r.notes.push_back(note);
        }
    }
}

double
RunReport::AvailableMemoryBytes()
{
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    double kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit)
    {
        if (key == "MemAvailable:")
        {
            return kib * 1024;
        }
    }
    return 0;
}

std::string
RunReport::RecordsMemoryNote(const TrainingProfile& profile,
                             const TrainingScenario& s,
                             double available)
{
    // Per worker and step: one record per layer and direction (PS) or per bucket (ring).
    const double transfers = 2.0 * s.workers * s.steps * profile.GetNLayers();
    const double bytes = transfers * sizeof(TrainingResult::TransferRecord);
    if (available > 0 && bytes > available / 2)
    {
        throw TrainingInputError(
            "--records: about " + std::to_string(static_cast<uint64_t>(transfers))
            + " transfer records per result need ~" + std::to_string(uint64_t(bytes / 1e6))
            + " MB, more than half of the " + std::to_string(uint64_t(available / 1e6))
            + " MB of memory available (expected --recordsFile=FILE.jsonl, which streams "
              "them to a file, or --records=false)");
    }
    if (transfers <= 1e6)
    {
        return "";
    }
    return Format("note: about %.3g transfer records per result (~%.0f MB in memory, "
                  "~%.0f MB of JSON): --recordsFile=FILE.jsonl streams them to a file, "
                  "--records=false leaves them out\n",
                  transfers,
                  transfers * sizeof(TrainingResult::TransferRecord) / 1e6,
                  transfers * 150 / 1e6);
}

std::string
RunReport::CostNote(double cpuSeconds, std::size_t runs)
{
    if (cpuSeconds < 60)
    {
        return "";
    }
    const std::string what = Format("%s: the %zu packet-level run%s about to start will take "
                                    "about %.0f CPU minutes here (estimated from the TCP "
                                    "segments to simulate)",
                                    cpuSeconds < 900 ? "note" : "warning",
                                    runs,
                                    runs == 1 ? "" : "s",
                                    std::ceil(cpuSeconds / 60));
    if (cpuSeconds < 900)
    {
        return what + "\n";
    }
    return what
           + "; --backend=flow or analytic answer in seconds, fewer --steps or a larger "
             "--mtu cost less\n";
}

} // namespace ns3

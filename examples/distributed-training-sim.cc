/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * distributed-training-sim: the module's driver. Reads a profile and a scenario from the command
 * line, runs the chosen backend(s), prints a short summary and writes the common JSON result.
 *
 *   ./build/bin/distributed-training-sim --profile=traces/resnet50-p100-b64.json \
 *       --arch=ps --mode=sync --workers=4 --nicRate=10Gbps --steps=10 --output=result.json
 *
 * With no option it runs the main scenario: GoogLeNet (TITAN X-class profile), sync parameter
 * server, 4 workers, 10 Gb/s, 10 steps of which 2 are warm-up, packet backend.
 *
 * Run with --help for every option. Invalid options or impossible scenarios end with a message
 * naming the option and exit status 1.
 */

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/distributed-training-module.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/string.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

/// \return the note of the options the user set that backend does not model ("" if none)
std::string
IgnoredNote(const RunRequest& request, const std::string& backend)
{
    std::string list;
    for (const auto& name : ScenarioOptions::GetIgnored(request, backend))
    {
        list += (list.empty() ? "" : ", ") + name;
    }
    return list.empty()
               ? ""
               : "not modelled by the " + backend + " backend here, so without effect: " + list;
}

/// Run the chosen backend(s) on one scenario: one registry entry, or every one in "all".
std::vector<TrainingResult>
RunBackends(const TrainingProfile& profile,
            const TrainingScenario& s,
            const RunRequest& request,
            const RunContext& context)
{
    const std::string& backend = request.backend;
    std::vector<TrainingResult> results;
    for (const auto& entry : TrainingBackendRegistry::GetEntries())
    {
        if (backend == "all" ? !entry.inAll : backend != entry.name)
        {
            continue;
        }
        Ptr<TrainingBackend> b
            = TrainingBackendRegistry::Create(entry.name, request.settings, context);
        // What the scenario asks that the backend cannot do comes first: it holds on any host.
        const std::string unsupported = b->GetUnsupportedReason(profile, s);
        if (backend != "all" && !unsupported.empty())
        {
            throw TrainingInputError(unsupported);
        }
        std::string why = b->GetUnavailableReason();
        if (backend == "all")
        {
            // Skipped whole (never a partial result), with one note per reason and process.
            static std::set<std::string> noted;
            why = why.empty() ? unsupported : why;
            if (!why.empty() && noted.insert(entry.name + why).second)
            {
                std::fprintf(stderr,
                             "note: --backend=all: backend %s skipped: %s\n",
                             entry.name.c_str(),
                             why.c_str());
            }
            if (!why.empty())
            {
                continue;
            }
        }
        if (!why.empty())
        {
            throw TrainingInputError("--backend=" + entry.name + ": " + why);
        }
        auto r = backend == "all" ? b->RunComparison(profile, s) : b->Run(profile, s);
        const std::string ignored = IgnoredNote(request, entry.name);
        for (auto& x : r)
        {
            if (!ignored.empty())
            {
                x.notes.push_back(ignored);
            }
        }
        results.insert(results.end(), r.begin(), r.end());
    }
    return results;
}

/// Throughput per (workers, backend:variant) of a --workers sweep.
struct SweepTable
{
    std::vector<uint32_t> workers;                   //!< the sweep
    std::vector<std::string> columns;                //!< backend:variant, first-seen order
    std::vector<std::map<std::string, double>> rows; //!< per sweep point: column -> samples/s
};

/// Write a file of the --csv option whole; a failure names the option.
void
WriteSweepFile(const std::string& file, const std::string& text)
{
    OutputFile::Write(file, text, "--csv");
}

/// Print the table and write it as CSV (atomically; --csv names the file).
void
WriteSweepCsv(const std::string& csv, const SweepTable& t)
{
    std::ostringstream out;
    out << "workers";
    std::printf("%-8s", "workers");
    for (const auto& c : t.columns)
    {
        out << "," << CsvField(c);
        std::printf(" %20s", c.c_str());
    }
    out << "\n";
    std::printf("\n");
    for (std::size_t i = 0; i < t.workers.size(); ++i)
    {
        out << t.workers[i];
        std::printf("%-8u", t.workers[i]);
        for (const auto& c : t.columns)
        {
            auto it = t.rows[i].find(c);
            out << ",";
            if (it != t.rows[i].end())
            {
                out << it->second;
                std::printf(" %20.2f", it->second);
            }
            else
            {
                std::printf(" %20s", "-");
            }
        }
        out << "\n";
        std::printf("\n");
    }
    WriteSweepFile(csv, out.str());
}

/// The gnuplot script CSV.gp that draws CSV.png: one line per backend:variant.
void
WriteSweepPlot(const std::string& csv,
               const TrainingProfile& profile,
               const TrainingScenario& s,
               std::size_t columns)
{
    const std::string png = csv.substr(0, csv.rfind('.')) + ".png";
    std::ostringstream gp;
    gp << "# gnuplot " << csv << ".gp  (Debian: apt-get install gnuplot-nox)\n"
       << "set datafile separator ','\nset terminal pngcairo size 1000,650\n"
       << "set output '" << png << "'\nset key outside right\nset grid\n"
       << "set xlabel 'workers K'\nset ylabel 'throughput (samples/s)'\n"
       << "set title '" << profile.GetModel() << ", " << s.GetArchitectureName() << " "
       << s.GetModeName() << "'\n"
       << "plot for [i=2:" << columns + 1 << "] '" << csv
       << "' using 1:i with linespoints title columnhead(i)\n";
    WriteSweepFile(csv + ".gp", gp.str());
    std::printf("wrote %s and %s.gp (gnuplot %s.gp draws %s)\n",
                csv.c_str(),
                csv.c_str(),
                csv.c_str(),
                png.c_str());
}

/// --workers=A,B,...: every backend at every K, as a table, a CSV and a gnuplot script.
int
RunSweep(const TrainingProfile& profile, const RunRequest& request)
{
    TrainingScenario s = request.scenario;
    SweepTable t;
    t.workers = request.workerSweep;
    for (uint32_t k : t.workers)
    {
        s.workers = k;
        s.Validate(profile);
        std::map<std::string, double> row;
        for (const auto& r : RunBackends(profile, s, request, request.MakeRunContext(nullptr)))
        {
            r.CheckSane(s);
            std::string name = r.backend + ":" + r.variant;
            if (std::find(t.columns.begin(), t.columns.end(), name) == t.columns.end())
            {
                t.columns.push_back(name);
            }
            row[name] = r.throughput;
        }
        t.rows.push_back(row);
    }
    const std::string csv = request.csv.empty() ? "sweep.csv" : request.csv;
    WriteSweepCsv(csv, t);
    WriteSweepPlot(csv, profile, s, t.columns.size());
    return 0;
}

/// \return result.inputs[key], or 0 if absent
double
Input(const TrainingResult& r, const std::string& key)
{
    auto it = r.inputs.find(key);
    return it == r.inputs.end() ? 0 : it->second;
}

/// The packet backend's congestion counters and cross traffic, when there are any.
void
PrintCongestion(const TrainingResult& r)
{
    const double drops = Input(r, "drops_device") + Input(r, "drops_queue_disc");
    if (drops + Input(r, "ecn_marks") + Input(r, "retransmitted_segments") > 0)
    {
        std::printf("          congestion: %.0f drops (%.0f at server ports), %.0f ECN marks, "
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
        std::printf("          cross traffic: %.1f MB delivered, %.3f Gb/s in the window\n",
                    Input(r, "cross_rx_bytes") / 1e6,
                    Input(r, "cross_goodput_bps") / 1e9);
    }
}

/// Print one line per result.
void
PrintSummary(const TrainingProfile& profile,
             const TrainingScenario& scenario,
             const std::vector<TrainingResult>& results)
{
    std::printf(
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
        std::printf("fabric: %s\n", FabricTopology::FromScenario(scenario).Describe().c_str());
    }
    std::printf("%-9s %-20s %14s %13s  %s\n",
                "backend",
                "variant",
                "samples/s",
                "step (ms)",
                "bottleneck (utilisation)");
    for (const auto& r : results)
    {
        std::string bottleneck = r.bottleneck;
        auto it = r.linkUtilisation.find(r.bottleneck);
        if (it != r.linkUtilisation.end())
        {
            // Below the threshold no link is the bottleneck: say so, and still name the busiest.
            char buf[160];
            std::snprintf(buf,
                          sizeof(buf),
                          r.IsComputeBound() ? "compute-bound (busiest link %s, %.1f%%)"
                                             : "%s (%.1f%%)",
                          r.bottleneck.c_str(),
                          100 * it->second);
            bottleneck = buf;
        }
        std::printf("%-9s %-20s %14.2f %13.3f  %s\n",
                    r.backend.c_str(),
                    r.variant.c_str(),
                    r.throughput,
                    r.stepTimeMean * 1e3,
                    bottleneck.c_str());
        for (const auto& note : r.notes)
        {
            std::printf("          note: %s\n", note.c_str());
        }
        PrintCongestion(r);
    }
}

/// The non-zero per-port drop counters of a result as "port=n;port=n" (no commas: one CSV field).
std::string
DropsByPort(const TrainingResult& r)
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

/// The header of the --csvRow file.
std::string
CsvRowHeader(const std::vector<std::string>& counters)
{
    std::string h = "model,arch,mode,workers,nic_bps,queue,host_queue,queue_disc,tcp,min_rto_s,ecn,"
                    "cross_traffic,cross_flows,cross_rate_bps,backend,variant,throughput,"
                    "step_time_s,bottleneck,bottleneck_utilisation,wall_s";
    for (const auto& c : counters)
    {
        h += "," + c;
    }
    return h + ",topology,uplink_bps,placement,ecmp_seed,drops_by_port\n";
}

/// --csvRow: one row per result with the key numbers of the congestion study, appended to the
/// file (opened before the run; committed whole by the caller). Text fields are CsvField()s.
void
AppendCsvRows(OutputFile& file,
              const TrainingProfile& profile,
              const TrainingScenario& s,
              const std::vector<TrainingResult>& results)
{
    const std::vector<std::string> counters = {"drops_device",
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
    std::ostream& out = file.Stream();
    if (file.WasEmpty())
    {
        out << CsvRowHeader(counters);
    }
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
        for (const auto& c : counters)
        {
            out << "," << Input(r, c);
        }
        // Fabric columns (doc/validation/fabric-congestion.rst); a list placement's commas become
        // ';'.
        std::string placement = s.placement;
        std::replace(placement.begin(), placement.end(), ',', ';');
        out << "," << q(s.topology) << "," << s.uplinkRate.GetBitRate() << "," << q(placement)
            << "," << s.ecmpSeed << "," << q(DropsByPort(r)) << "\n";
    }
}

/// \param file a file name (empty: none) \param option its option \param mode replace or append
/// \return the file opened for writing (checked and created before the run), or nullptr
std::unique_ptr<OutputFile>
OpenOutput(const std::string& file, const std::string& option, OutputFile::Mode mode)
{
    return file.empty() ? nullptr : std::make_unique<OutputFile>(file, option, mode);
}

/// \return the memory the kernel says is available for a new allocation (bytes), 0 if unknown
double
AvailableMemoryBytes()
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

/**
 * --recordsFile: stream the records of every result to a JSON Lines file. Without it, say when
 * the records kept in memory (and written to --output) would be large, and refuse a run whose
 * records would not fit in the memory available (the kernel would kill it part way).
 * \return the stream new results attach to, or nullptr
 */
std::shared_ptr<RecordStream>
OpenRecordStream(const TrainingProfile& profile, const RunRequest& request)
{
    const TrainingScenario& s = request.scenario;
    if (!request.records)
    {
        return nullptr;
    }
    if (request.recordsFile.empty())
    {
        // Per worker and step: one record per layer and direction (PS) or per bucket (ring).
        const double transfers = 2.0 * s.workers * s.steps * profile.GetNLayers();
        const double bytes = transfers * sizeof(TrainingResult::TransferRecord);
        const double available = AvailableMemoryBytes();
        if (available > 0 && bytes > available / 2)
        {
            throw TrainingInputError(
                "--records: about " + std::to_string(static_cast<uint64_t>(transfers))
                + " transfer records per result need ~" + std::to_string(uint64_t(bytes / 1e6))
                + " MB, more than half of the " + std::to_string(uint64_t(available / 1e6))
                + " MB of memory available (expected --recordsFile=FILE.jsonl, which streams "
                  "them to a file, or --records=false)");
        }
        if (transfers > 1e6)
        {
            std::fprintf(stderr,
                         "note: about %.3g transfer records per result (~%.0f MB in memory, "
                         "~%.0f MB of JSON): --recordsFile=FILE.jsonl streams them to a file, "
                         "--records=false leaves them out\n",
                         transfers,
                         transfers * sizeof(TrainingResult::TransferRecord) / 1e6,
                         transfers * 150 / 1e6);
        }
        return nullptr;
    }
    return std::make_shared<RecordStream>(request.recordsFile);
}

/// Write the summary line of every result, close the stream and say where the records are.
void
CloseRecordStream(RecordStream& stream, const std::vector<TrainingResult>& results)
{
    for (const auto& r : results)
    {
        stream.WriteResult(r);
    }
    stream.Close();
    std::printf("wrote %llu records to %s\n",
                static_cast<unsigned long long>(stream.GetRecords()),
                stream.GetPath().c_str());
}

/// The fabric table of a multi-job result: links that carried data, notes.
void
PrintFabricLinks(const JobSetResult& r)
{
    std::printf("  fabric window %.6f .. %.6f s; links that carried data:\n",
                r.windowStart,
                r.windowEnd);
    std::printf("  %-32s %8s %8s %8s\n", "link", "util %", "drops", "ECN");
    for (const auto& l : r.links)
    {
        if (l.utilisation <= 0 && l.drops <= 0)
        {
            continue;
        }
        if (r.countsLosses)
        {
            std::printf("  %-32s %8.1f %8.0f %8.0f\n",
                        l.name.c_str(),
                        100 * l.utilisation,
                        l.drops,
                        l.ecnMarks);
        }
        else
        {
            std::printf("  %-32s %8.1f %8s %8s\n", l.name.c_str(), 100 * l.utilisation, "-", "-");
        }
    }
    for (const auto& note : r.notes)
    {
        std::printf("  note: %s\n", note.c_str());
    }
}

/// --jobs: one block per job and the fabric table of one backend's result.
void
PrintJobSet(const TrainingJobSet& set, const JobSetResult& r)
{
    std::printf("%s %s (%.1f s wall)\n", r.backend.c_str(), r.variant.c_str(), r.wallSeconds);
    std::printf("  %-10s %-22s %-10s %4s %8s %12s %11s %6s %6s\n",
                "job",
                "model",
                "arch",
                "K",
                "start(s)",
                "samples/s",
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
        std::printf(
            "  %-10s %-22s %-10s %4u %8.3f %12.2f %11.3f %6s %6s\n",
            job.name.c_str(),
            job.profile->GetModel().substr(0, 22).c_str(),
            arch.c_str(),
            job.scenario.workers,
            job.startTime,
            x.throughput,
            x.stepTimeMean * 1e3,
            r.countsLosses ? std::to_string(static_cast<long>(Input(x, "rto_timeouts"))).c_str()
                           : "-",
            r.countsLosses
                ? std::to_string(static_cast<long>(Input(x, "retransmitted_segments"))).c_str()
                : "-");
        for (const auto& note : x.notes)
        {
            std::printf("             note: %s\n", note.c_str());
        }
    }
    PrintFabricLinks(r);
}

/// --jobs: the fabric and one line per placed job.
void
PrintJobs(const TrainingJobSet& set)
{
    std::printf("fabric: %s\n", set.GetFabric().Describe().c_str());
    for (const auto& job : set.GetJobs())
    {
        std::string hosts;
        for (uint32_t h : job.hosts)
        {
            hosts += (hosts.empty() ? "" : ",") + std::to_string(h);
        }
        std::printf("job %s: %s, %s, K=%u, %u steps (%u warm-up), hosts %s, start %.3f s\n",
                    job.name.c_str(),
                    job.profile->GetModel().c_str(),
                    job.scenario.GetArchitectureName().c_str(),
                    job.scenario.workers,
                    job.scenario.steps,
                    job.scenario.warmup,
                    hosts.c_str(),
                    job.startTime);
    }
}

/// --jobs: run the chosen backend(s) (every available one of "all" that takes several jobs).
std::vector<JobSetResult>
RunJobBackends(const TrainingJobSet& set, const RunRequest& request)
{
    const std::string& backend = request.backend;
    std::vector<JobSetResult> results;
    for (const auto& entry : TrainingBackendRegistry::GetEntries())
    {
        if (backend == "all" ? !entry.inAll : backend != entry.name)
        {
            continue;
        }
        Ptr<TrainingBackend> b = TrainingBackendRegistry::Create(entry.name,
                                                                 request.settings,
                                                                 request.MakeRunContext(nullptr));
        try
        {
            const std::string why = b->GetUnavailableReason();
            if (!why.empty())
            {
                throw TrainingInputError("--backend=" + entry.name + ": " + why);
            }
            const std::string ignored = IgnoredNote(request, entry.name);
            for (auto& r : b->RunJobs(set))
            {
                if (!ignored.empty())
                {
                    r.notes.push_back(ignored);
                }
                r.CheckSane(set);
                PrintJobSet(set, r);
                results.push_back(std::move(r));
            }
        }
        catch (const TrainingInputError& e)
        {
            if (backend != "all")
            {
                throw;
            }
            std::fprintf(stderr,
                         "note: --backend=all: backend %s skipped: %s\n",
                         entry.name.c_str(),
                         e.what());
        }
    }
    return results;
}

/// --jobs: several jobs on one fabric with the chosen backend(s) (packet and flow for "all").
void
RunJobSet(const RunRequest& request)
{
    if (request.workerSweep.size() > 1 || !request.csv.empty() || !request.csvRow.empty()
        || !request.recordsFile.empty())
    {
        throw TrainingInputError("--jobs: with a --workers sweep, --csv, --csvRow or "
                                 "--recordsFile (expected per-job options in the jobs file and "
                                 "--output for the result)");
    }
    // Inline JSON text (the validation runner's scenarios) or a file name.
    const bool text = request.jobs.front() == '[' || request.jobs.front() == '{';
    const TrainingJobSet set = text ? TrainingJobSet::FromText(request.jobs, "--jobs", request)
                                    : TrainingJobSet::FromFile(request.jobs, request);
    PrintJobs(set);
    const auto output = OpenOutput(request.output, "--output", OutputFile::REPLACE);
    const std::vector<JobSetResult> results = RunJobBackends(set, request);
    if (output)
    {
        output->Stream() << JobSetResult::MakeDocument(set, results, request.records) << "\n";
        output->Commit();
        std::printf("wrote %s\n", request.output.c_str());
    }
}

/// One scenario: the outputs are opened (and refused) before the run, written after it.
void
RunOne(const TrainingProfile& profile, const RunRequest& request)
{
    const TrainingScenario& s = request.scenario;
    OutputFile::RequireDistinct({{"--output", request.output},
                                 {"--recordsFile", request.recordsFile},
                                 {"--csvRow", request.csvRow},
                                 {"--csv", request.csv}});
    const auto output = OpenOutput(request.output, "--output", OutputFile::REPLACE);
    const auto csvRow = OpenOutput(request.csvRow, "--csvRow", OutputFile::APPEND);
    const std::shared_ptr<RecordStream> stream = OpenRecordStream(profile, request);
    const std::vector<TrainingResult> results
        = RunBackends(profile, s, request, request.MakeRunContext(stream));
    for (const auto& r : results)
    {
        r.CheckSane(s);
    }
    PrintSummary(profile, s, results);
    if (stream)
    {
        CloseRecordStream(*stream, results);
    }
    if (output)
    {
        output->Stream() << TrainingResult::MakeDocument(profile, s, results, request.records)
                         << "\n";
        output->Commit();
        std::printf("wrote %s\n", request.output.c_str());
    }
    if (csvRow)
    {
        AppendCsvRows(*csvRow, profile, s, results);
        csvRow->Commit();
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    try
    {
        RunRequest request = ScenarioOptions::ParseArguments(
            argc,
            argv,
            "Simulate distributed DNN training (parameter server or ring AllReduce) with the "
            "packet-level (ns-3 TCP), flow-level, analytical or Linux-kernel backend.");
        if (!request.jobs.empty())
        {
            RunJobSet(request);
            return 0;
        }
        const TrainingProfile profile = TrainingProfile::LoadFromFile(request.profile);
        if (request.workerSweep.size() > 1)
        {
            request.settings.recordTransfers = false; // a sweep keeps only its table
            return RunSweep(profile, request);
        }
        const TrainingScenario& s = request.scenario;
        s.Validate(profile);
        RunOne(profile, request);
    }
    catch (const TrainingInputError& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-benchmark.h"

#include "ns3/allreduce-schedule.h"
#include "ns3/program-options.h"
#include "ns3/training-backend.h"
#include "ns3/training-input-error.h"
#include "ns3/unit-parser.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

namespace ns3
{

namespace
{

/// The largest message: 4 GiB (a double binary tree of 512 KiB chunks: 4096 chunks per tree).
constexpr uint64_t MAX_BYTES = uint64_t{4} << 30;
/// The most sizes of one run.
constexpr std::size_t MAX_SIZES = 64;

/**
 * \param option the option, for messages
 * \param text a comma list
 * \return its items (an empty item is kept, and refused by the caller's check)
 */
std::vector<std::string>
SplitList(const std::string& option, const std::string& text)
{
    std::vector<std::string> items;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        items.push_back(item);
    }
    if (items.empty() || text.back() == ',')
    {
        throw TrainingInputError(option + ": '" + text + "' (expected a comma list of names)");
    }
    return items;
}

/**
 * \param text --collective's value: names of AllReduceSchedule, comma-separated, or "all"
 * \return the collectives
 */
std::vector<std::string>
ParseCollectives(const std::string& text)
{
    if (text == "all")
    {
        return AllReduceSchedule::GetNames();
    }
    std::vector<std::string> list = SplitList("--collective", text);
    for (const std::string& name : list)
    {
        AllReduceSchedule::Algorithm a;
        if (!AllReduceSchedule::FromName(name, a))
        {
            throw TrainingInputError("--collective: '" + name
                                     + "' (expected all or a comma list of ring, "
                                       "halving-doubling, tree, hierarchical and nccl)");
        }
    }
    return list;
}

/**
 * \param text --backend's value: registered backend names, comma-separated
 * \return the backends
 */
std::vector<std::string>
ParseBackends(const std::string& text)
{
    std::vector<std::string> list = SplitList("--backend", text);
    for (const std::string& name : list)
    {
        TrainingBackendRegistry::Find(name); // its message names --backend and every backend
    }
    return list;
}

/**
 * \param s the settings to fill
 * \param sizes receives --sizes's text
 * \param factor receives --sizeFactor
 * \return the benchmark's own options
 */
ProgramOptions
OwnOptions(CollectiveBenchmark::Settings& s, std::string& sizes, uint64_t& factor)
{
    ProgramOptions o("One AllReduce of M bytes with no compute per point (nccl-tests style): "
                     "time, algorithm and bus bandwidth against M, K, collective and backend. "
                     "Every option of distributed-training-sim sets the network.");
    o.Add("sizes", "message sizes: FIRST..LAST (powers of --sizeFactor) or a comma list", sizes);
    o.Add("sizeFactor", "step of a --sizes range", factor, 2, 1024);
    o.Add("collective",
          "collectives: all or a comma list of ring, halving-doubling, tree, hierarchical "
          "(groups: --groupSize, else a leaf each, else on a star K/2), nccl",
          "ring",
          [&s](const std::string& v)
          {
              s.collectives = ParseCollectives(v);
          });
    o.Add("backend",
          "backends, a comma list (analytic, flow, packet, ...)",
          "analytic,flow,packet",
          [&s](const std::string& v)
          {
              s.backends = ParseBackends(v);
          });
    o.Add("packetMaxBytes",
          "the packet backend runs only up to this message size",
          "4MiB",
          [&s](const std::string& v)
          {
              s.packetMaxBytes = UnitParser::ParseBytes("--packetMaxBytes", v);
          });
    o.Add("packetMaxWorkers",
          "the packet backend runs only up to this K",
          s.packetMaxWorkers,
          0,
          100000);
    o.Add("csv", "write the rows as CSV to this file", s.csv);
    return o;
}

} // namespace

std::vector<uint64_t>
CollectiveBenchmark::ParseSizes(const std::string& text, uint64_t factor)
{
    auto parse = [](const std::string& item)
    {
        const uint64_t b = UnitParser::ParseBytes("--sizes", item);
        if (b == 0 || b > MAX_BYTES)
        {
            throw TrainingInputError("--sizes: '" + item
                                     + "' (expected a size from 1 byte to 4GiB)");
        }
        return b;
    };
    std::vector<uint64_t> sizes;
    const auto range = text.find("..");
    if (range != std::string::npos)
    {
        const uint64_t first = parse(text.substr(0, range));
        const uint64_t last = parse(text.substr(range + 2));
        if (last < first)
        {
            throw TrainingInputError("--sizes: empty range '" + text
                                     + "' (expected FIRST..LAST with FIRST <= LAST)");
        }
        for (uint64_t m = first; m <= last && sizes.size() <= MAX_SIZES; m *= factor)
        {
            sizes.push_back(m);
        }
    }
    else
    {
        for (const std::string& item : SplitList("--sizes", text))
        {
            sizes.push_back(parse(item));
        }
    }
    if (sizes.size() > MAX_SIZES)
    {
        throw TrainingInputError("--sizes: '" + text
                                 + "' gives more than 64 sizes (expected at "
                                   "most 64: a larger --sizeFactor or a shorter range)");
    }
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

CollectiveBenchmark::Settings
CollectiveBenchmark::ParseArguments(const std::vector<std::string>& args, bool& help)
{
    Settings s;
    std::string sizes = "1KiB..256MiB";
    uint64_t factor = 4;
    s.collectives = {"ring"};
    s.backends = {"analytic", "flow", "packet"};
    const ProgramOptions own = OwnOptions(s, sizes, factor);
    const std::vector<std::string> others = own.ParseKnown(args);
    help = std::find(others.begin(), others.end(), "--help") != others.end();
    if (help)
    {
        return s;
    }
    std::vector<std::string> rest;
    s.base = ScenarioOptions::FromArguments(others, rest);
    if (!rest.empty())
    {
        throw TrainingInputError(rest.front()
                                 + ": unknown option (see --help: the benchmark's "
                                   "own and every option of distributed-training-sim)");
    }
    s.sizes = ParseSizes(sizes, factor);
    if (s.base.given.count("workers") > 0)
    {
        s.workers = s.base.workerSweep;
    }
    if (std::find(s.workers.begin(), s.workers.end(), 1U) != s.workers.end())
    {
        throw TrainingInputError("--workers: K = 1 (expected K >= 2: an AllReduce of one node "
                                 "moves nothing)");
    }
    // nccl-tests' warm-up iterations: TCP opens its windows in the first step.
    if (s.base.given.count("steps") == 0)
    {
        s.base.scenario.steps = 3;
    }
    if (s.base.given.count("warmup") == 0)
    {
        s.base.scenario.warmup = 1;
    }
    return s;
}

void
CollectiveBenchmark::PrintHelp(int argc, char* argv[])
{
    Settings s;
    std::string sizes;
    uint64_t factor = 4;
    std::printf("Also every option of distributed-training-sim --help sets the network and the "
                "run (--nicRate, --linkDelay, --mtu, --reductionRate, --treeChunk, --topology, "
                "--steps, --warmup, ...); --workers takes a list (4,8,16 or 2..8).\n");
    OwnOptions(s, sizes, factor).Parse(argc, argv);
}

TrainingProfile
CollectiveBenchmark::OneLayerProfile(uint64_t bytes)
{
    TrainingProfile p;
    p.SetModel("allreduce-" + std::to_string(bytes));
    p.SetBatchSize(1);
    p.SetProvenance(
        R"({"device":"none","framework":"none","method":"collective-benchmark","derived":true})");
    p.AddLayer({"buffer", "", bytes, 0, 0, 0});
    return p;
}

uint32_t
CollectiveBenchmark::GroupSize(const Settings& s, uint32_t workers)
{
    if (s.base.scenario.groupSize != 0 || s.base.scenario.topology != "star")
    {
        return s.base.scenario.groupSize; // given, or 0: a group per leaf switch
    }
    return workers / 2; // a star has one switch: two groups
}

bool
CollectiveBenchmark::IsMeasured(const Settings& s,
                                uint32_t workers,
                                uint64_t bytes,
                                const std::string& backend)
{
    return backend != "packet" || (bytes <= s.packetMaxBytes && workers <= s.packetMaxWorkers);
}

CollectiveBenchmark::Row
CollectiveBenchmark::Measure(const Settings& s,
                             uint32_t workers,
                             uint64_t bytes,
                             const std::string& collective,
                             const std::string& backend)
{
    TrainingScenario scenario = s.base.scenario;
    scenario.architecture = TrainingScenario::RING_ALLREDUCE;
    scenario.mode = TrainingScenario::SYNC;
    scenario.workers = workers;
    scenario.collective = collective;
    scenario.groupSize = collective == "hierarchical" ? GroupSize(s, workers) : 0;
    scenario.bucketBytes = TrainingScenario::UNLIMITED_BUCKET;
    scenario.firstBucketBytes = 0;
    scenario.computeScale.clear();
    const TrainingProfile profile = OneLayerProfile(bytes);
    Ptr<TrainingBackend> b
        = TrainingBackendRegistry::Create(backend, s.base.settings, RunContext{});
    const auto start = std::chrono::steady_clock::now();
    const std::vector<TrainingResult> results = b->Run(profile, scenario);
    Row r;
    r.workers = workers;
    r.bytes = bytes;
    r.collective = collective;
    r.backend = backend;
    r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // The analytic backend's closed form of this collective; every other backend: its result.
    const std::string variant = collective == "ring" ? "ring-eq11" : "allreduce-" + collective;
    auto it = std::find_if(results.begin(),
                           results.end(),
                           [&](const TrainingResult& t)
                           {
                               return t.variant == variant;
                           });
    r.seconds = (backend == "analytic" && it != results.end() ? *it : results.at(0)).stepTimeMean;
    return r;
}

void
CollectiveBenchmark::Run(const Settings& s, const std::function<void(const Row&)>& each)
{
    for (uint32_t k : s.workers)
    {
        for (uint64_t m : s.sizes)
        {
            for (const std::string& c : s.collectives)
            {
                for (const std::string& backend : s.backends)
                {
                    if (IsMeasured(s, k, m, backend))
                    {
                        each(Measure(s, k, m, c, backend));
                    }
                }
            }
        }
    }
}

double
CollectiveBenchmark::GetAlgBandwidth(const Row& r)
{
    return r.seconds > 0 ? static_cast<double>(r.bytes) / r.seconds : 0;
}

double
CollectiveBenchmark::GetBusBandwidth(const Row& r)
{
    // nccl-tests' busBw for AllReduce: the ring's bytes per node per byte reduced.
    const double k = r.workers;
    return GetAlgBandwidth(r) * 2 * (k - 1) / k;
}

std::string
CollectiveBenchmark::CsvHeader()
{
    return "workers,bytes,collective,backend,time_us,algbw_GBps,busbw_GBps,wall_s\n";
}

std::string
CollectiveBenchmark::CsvLine(const Row& r)
{
    return FormatRow(r, "%u,%llu,%s,%s,%.3f,%.4f,%.4f,%.3f\n");
}

std::string
CollectiveBenchmark::TableLine(const Row& r)
{
    return FormatRow(r, "%4u %12llu %-17s %-9s %14.2f %10.4f %10.4f %9.2f");
}

std::string
CollectiveBenchmark::FormatRow(const Row& r, const char* format)
{
    char line[256];
    std::snprintf(line,
                  sizeof(line),
                  format,
                  r.workers,
                  static_cast<unsigned long long>(r.bytes),
                  r.collective.c_str(),
                  r.backend.c_str(),
                  r.seconds * 1e6,
                  GetAlgBandwidth(r) / 1e9,
                  GetBusBandwidth(r) / 1e9,
                  r.wallSeconds);
    return line;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Which configuration should I run? Given a profile, N machines and the network (every
 * option of distributed-training-sim: --nicRate, --flowCap, --topology, ...), search the
 * architecture (PS sync or async, ring), K, the servers P and their placement, partition,
 * downlink order and window, the ring's buckets and first bucket, and overlap: screen them all
 * with the analytic backend, re-rank the best with the flow level, confirm the finalists at
 * packet level and, as root, on the kernel's TCP (ConfigurationOptimizer,
 * doc/reference/optimizer.rst).
 *
 *   ./build/bin/distributed-training-optimize --profile=traces/googlenet-titanx-pascal-b16.json \
 *       --nicRate=10Gbps --machines=6 --maxServers=2 --buckets=0,25MB --json=opt.json
 */

#include "ns3/core-module.h"
#include "ns3/distributed-training-module.h"
#include "ns3/unit-parser.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>

using namespace ns3;

namespace
{

/// The optimizer's own options (the scenario's come from ScenarioOptions).
struct Options
{
    ConfigurationOptimizer::Space space;   //!< what to search
    ConfigurationOptimizer::Ladder ladder; //!< how far to climb
    RunRequest table; //!< the option table's --machines and --samples (default: ImageNet-1k)
    std::string errorTable = OptimizerErrorTable::ShippedPath(); //!< error bars
    std::string json;                                            //!< JSON output file
    std::string spaceCsv;                                        //!< the space as CSV + .gp
};

/// \return text split at commas, each part parsed by f
template<typename T, typename F>
std::vector<T>
ParseList(const std::string& option, const std::string& text, F f)
{
    std::vector<T> out;
    std::string part;
    std::stringstream in(text);
    while (std::getline(in, part, ','))
    {
        out.push_back(f(option, part));
    }
    if (out.empty())
    {
        throw TrainingInputError("--" + option + ": empty list (expected comma-separated values)");
    }
    return out;
}

/// \return the values of a list option, each set on a scratch scenario by its own setter (one
/// definition of the names: TrainingScenario's)
template<typename T>
std::vector<T>
ScenarioValues(const std::string& option,
               const std::string& text,
               void (TrainingScenario::*set)(const std::string&, const std::string&),
               T TrainingScenario::*field)
{
    return ParseList<T>(option,
                        text,
                        [&](auto& n, auto& v)
                        {
                            TrainingScenario s;
                            (s.*set)("--" + n, v);
                            return s.*field;
                        });
}

/// Add the parameter server's search dimensions to cmd, bound to o.
void
AddPsSpaceOptions(ProgramOptions& cmd, Options& o)
{
    using S = TrainingScenario;
    cmd.Add("placements",
            "PS server placements to try: separate, colocated (servers on the workers' hosts: "
            "P <= K and K <= N; default: the scenario's)",
            "",
            [&o](const std::string& v)
            {
                o.space.placements
                    = ScenarioValues("placements", v, &S::SetServerPlacement, &S::serverPlacement);
            });
    cmd.Add("partitions",
            "PS layer-to-server partitions to try: greedy, round-robin (default: the scenario's)",
            "",
            [&o](const std::string& v)
            {
                o.space.partitions
                    = ScenarioValues("partitions", v, &S::SetPartition, &S::partition);
            });
    cmd.Add("orders",
            "PS downlink orders to try: forward, reverse, random (default: the scenario's)",
            "",
            [&o](const std::string& v)
            {
                o.space.orders = ScenarioValues("orders", v, &S::SetOrder, &S::order);
            });
    cmd.Add("windows",
            "PS downlink windows WIN to try (0: none), e.g. 0,1MB (default: the scenario's)",
            "",
            [&o](const std::string& v)
            {
                o.space.windows = ParseList<uint64_t>(
                    "windows",
                    v,
                    [](auto& n, auto& s)
                    {
                        const uint64_t w = UnitParser::ParseBytes("--" + n, s);
                        if (w == UnitParser::UNLIMITED)
                        {
                            throw TrainingInputError("--windows: 'inf' (expected a size in "
                                                     "bytes, 0 for whole tensors)");
                        }
                        return w;
                    });
            });
}

/// Add the options of the search space to cmd, bound to o.
void
AddSpaceOptions(ProgramOptions& cmd, Options& o)
{
    ScenarioOptions::Bind(cmd, o.table, OptionScope::PROGRAM, {"machines"});
    cmd.Add("archs",
            "ps-sync,ps-async,ring (any of them)",
            "ps-sync,ps-async,ring",
            [&o](const std::string& v)
            {
                o.space.archs = ParseList<std::string>("archs",
                                                       v,
                                                       [](auto&, auto& s)
                                                       {
                                                           return s;
                                                       });
            });
    cmd.Add("searchWorkers",
            "K values to try, e.g. 4 or 2,4,8 (default: 1 .. N)",
            "",
            [&o](const std::string& v)
            {
                o.space.workers = ParseList<uint32_t>(
                    "searchWorkers",
                    v,
                    [](auto& n, auto& s)
                    {
                        return uint32_t(UnitParser::ParseUnsigned("--" + n, s, 1, 1024));
                    });
            });
    cmd.Add("maxServers", "P at most (parameter server)", o.space.maxServers, 1, 1024);
    cmd.Add("buckets",
            "ring fusion buckets Q to try (0: per layer)",
            "0",
            [&o](const std::string& v)
            {
                o.space.buckets
                    = ParseList<uint64_t>("buckets",
                                          v,
                                          [](auto& n, auto& s)
                                          {
                                              return UnitParser::ParseBytes("--" + n, s);
                                          });
            });
    cmd.Add("firstBuckets",
            "ring first buckets to try (0: the bucket itself; larger than the bucket: skipped; "
            "default: the scenario's)",
            "",
            [&o](const std::string& v)
            {
                o.space.firstBuckets
                    = ParseList<uint64_t>("firstBuckets",
                                          v,
                                          [](auto& n, auto& s)
                                          {
                                              return UnitParser::ParseBytes("--" + n, s);
                                          });
            });
    AddPsSpaceOptions(cmd, o);
    cmd.Add("overlaps",
            "overlap choices: both, on or off",
            "both",
            [&o](const std::string& v)
            {
                if (v != "both" && v != "on" && v != "off")
                {
                    throw TrainingInputError("--overlaps: '" + v + "' (expected both, on or off)");
                }
                o.space.overlaps
                    = v == "both" ? std::vector<bool>{false, true} : std::vector<bool>{v == "on"};
            });
}

/// \return the optimizer's option table bound to o
ProgramOptions
OptionTable(Options& o)
{
    ProgramOptions cmd("Search the configurations of a training job (analytic -> flow -> packet). "
                       "Every option of distributed-training-sim sets the network and run.");
    AddSpaceOptions(cmd, o);
    cmd.Add("lastRung",
            "highest rung: analytic, flow, packet or linux (the kernel's TCP: root, namespaces)",
            "packet",
            [&o](const std::string& v)
            {
                const std::vector<std::string> n{"analytic", "flow", "packet", "linux"};
                const auto it = std::find(n.begin(), n.end(), v);
                if (it == n.end())
                {
                    throw TrainingInputError("--lastRung: '" + v
                                             + "' (expected analytic, flow, packet or linux)");
                }
                o.ladder.lastRung = ConfigurationOptimizer::Rung(it - n.begin());
            });
    cmd.Add("flowFinalists",
            "configurations the flow level re-ranks (at least)",
            o.ladder.flowFinalists,
            1,
            100000);
    cmd.Add("packetFinalists",
            "configurations confirmed at packet level (at most)",
            o.ladder.packetFinalists,
            1,
            1000);
    cmd.Add("packetSteps", "steps per packet run (first = warm-up)", o.ladder.packetSteps, 2, 1000);
    cmd.Add("exhaustive", "also run every configuration at packet level", o.ladder.exhaustive);
    cmd.Add("linuxFinalists",
            "--lastRung=linux: the packet rung's best re-run on the kernel's TCP (at most)",
            o.ladder.linuxFinalists,
            1,
            100);
    cmd.Add("linuxSteps", "steps per linux run (first = warm-up)", o.ladder.linuxSteps, 2, 1000);
    cmd.Add("linuxDilation",
            "time dilation of the linux rung (0: the least that keeps every NIC at or below "
            "250 Mb/s, the rate its validation covers)",
            o.ladder.linuxDilation,
            0.0,
            10000.0);
    ScenarioOptions::Bind(cmd, o.table, OptionScope::PROGRAM, {"samples"});
    cmd.Add("errorTable", "error bars CSV (examples/optimizer-error-table.py)", o.errorTable);
    cmd.Add("json", "write the ranked table as JSON to this file", o.json);
    cmd.Add("spaceCsv", "write the search space as CSV (+ a gnuplot script)", o.spaceCsv);
    return cmd;
}

} // namespace

int
main(int argc, char* argv[])
{
    return ProgramOptions::Run(
        [&]()
        {
            Options o;
            const ProgramOptions table = OptionTable(o);
            std::vector<std::string> args(argv + 1, argv + argc);
            std::vector<std::string> rest;
            const std::vector<std::string> others = table.ParseKnown(args);
            o.space.machines = o.table.program.machines;
            if (std::find(others.begin(), others.end(), "--help") != others.end())
            {
                std::cout << "Also every option of distributed-training-sim --help (the network "
                             "and run: --profile, --nicRate, --flowCap, --topology, --steps, "
                             "...); --arch, --mode, --workers, --servers, --bucket and --overlap "
                             "are what the search sets, and --serverPlacement, --partition, "
                             "--order, --window and --firstBucket unless searched.\n";
                table.Parse(argc, argv);
                return;
            }
            const RunRequest request = ScenarioOptions::FromArguments(others, rest);
            if (!rest.empty())
            {
                throw TrainingInputError(rest.front()
                                         + ": unknown option (see --help: the optimizer's own "
                                           "and every option of distributed-training-sim)");
            }
            const TrainingProfile profile = TrainingProfile::LoadFromFile(request.profile);
            ConfigurationOptimizer opt(profile,
                                       request.scenario,
                                       OptimizerErrorTable::LoadFromFile(o.errorTable));
            opt.SetMeasurement(RepeatedRuns::FromSettings(request.settings));
            const ConfigurationOptimizer::Outcome out = opt.Run(o.space, o.ladder);
            std::printf("%s: %zu configurations on %u machines\n",
                        profile.GetModel().c_str(),
                        out.rows.size(),
                        o.space.machines);
            std::fputs(OptimizerReport::FormatTable(out, o.table.program.samples, 25).c_str(),
                       stdout);
            if (!o.json.empty())
            {
                std::ofstream f(o.json);
                if (!(f << OptimizerOutcomeToJson(out, o.table.program.samples) << "\n"))
                {
                    throw TrainingInputError("--json: cannot write '" + o.json + "'");
                }
            }
            if (!o.spaceCsv.empty())
            {
                std::ofstream f(o.spaceCsv);
                if (!f)
                {
                    throw TrainingInputError("--spaceCsv: cannot write '" + o.spaceCsv + "'");
                }
                f << OptimizerReport::SpaceCsv(out, o.table.program.samples);
                std::ofstream(o.spaceCsv + ".gp") << OptimizerReport::SpaceScript(o.spaceCsv);
            }
        });
}

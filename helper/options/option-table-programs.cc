/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The entries of the programs other than the driver. Which options are entries here, and which
 * a program may define itself (ProgramOptions::Add), is decided by one rule:
 * - an option the driver has is the driver's entry, bound by name (ScenarioOptions::Bind), with
 *   the program's default and, where it takes fewer values, a Narrowing; never a local copy;
 * - an option that two or more programs take and the driver does not is an entry of their scope
 *   here: STUDY (tcp-sharing-study), RUNNER (validation-runner) or PROGRAM (the benchmarks and
 *   examples: --repeat, --machines, --samples, --maxWorkers);
 * - an option of one program only (fabric-benchmark's --vsStar, collective-benchmark's --sizes,
 *   the optimizer's --packetFinalists, ...) stays in that program, next to the code that reads it.
 */

#include "option-table.h"

#include "ns3/abort.h"
#include "ns3/kernel-testbed.h"
#include "ns3/training-input-error.h"
#include "ns3/unit-parser.h"

#include <algorithm>

namespace ns3
{
namespace option_table
{

namespace
{

/**
 * \brief A study entry under its own name that parses as a driver entry: the study calls the
 * NIC rate --rate, the flow cap --cap and the link delay --delay (its help, the driver's parser).
 * \param o the table so far (holding the driver's entry)
 * \param name the study's name
 * \param driver the driver's entry
 * \param def the study's default
 * \param help the study's help
 */
void
AddAlias(std::vector<ScenarioOptions::Option>& o,
         const std::string& name,
         const std::string& driver,
         const std::string& def,
         const std::string& help)
{
    const auto entry = std::find_if(o.begin(),
                                    o.end(),
                                    [&driver](const ScenarioOptions::Option& e)
                                    {
                                        return e.name == driver;
                                    });
    NS_ABORT_MSG_IF(entry == o.end(), "no driver option --" << driver);
    o.push_back(Make(name, OptionScope::STUDY, "", def, help, entry->parse));
}

/// The sharing study's flows: how many, how large, when they start.
void
AddStudyWorkload(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("flows",
                     OptionScope::STUDY,
                     "",
                     "2",
                     "Number of flows N (1..64)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.study.flows = UnitParser::ParseUnsigned(n, v, 1, 64);
                     }));
    o.push_back(Make("size",
                     OptionScope::STUDY,
                     "",
                     "0",
                     "Bytes per flow S (0: use --sizeBdp; e.g. 1000000, 30MB)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.study.size = UnitParser::ParseBytes(n, v);
                         if (r.study.size > 1000000000000ULL)
                         {
                             throw TrainingInputError(n + ": '" + v
                                                      + "' out of range (expected 1..1e12)");
                         }
                     }));
    o.push_back(Make("sizeBdp",
                     OptionScope::STUDY,
                     "",
                     "10",
                     "Bytes per flow in units of the BDP (goodput x 4 x delay)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.study.sizeBdp
                             = UnitParser::ParseReal(n, v, 1e-9, 1e9, "a number of BDPs > 0");
                     }));
    o.push_back(Make("stagger",
                     OptionScope::STUDY,
                     "",
                     "0s",
                     "Flow i starts at i x stagger",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.study.stagger = UnitParser::ParseDuration(n, v);
                     }));
}

/// The sharing study's star (its names for the driver's NIC rate, flow cap and link delay) and
/// senders.
void
AddStudyNetwork(std::vector<ScenarioOptions::Option>& o)
{
    AddAlias(o,
             "rate",
             "nicRate",
             "10Gbps",
             "Link rate (every link; the receiver's is the bottleneck)");
    AddAlias(o, "cap", "flowCap", "0", "Per-flow cap by TCP pacing (0: none)");
    AddAlias(o, "delay", "linkDelay", "10us", "One-way delay of each link (RTT = 4 x delay)");
    o.push_back(Make("sharedQueue",
                     OptionScope::STUDY,
                     "",
                     "false",
                     "Every flow leaves one sending host through its one NIC queue "
                     "(as a multi-flow host); false: one host and NIC per flow",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.study.sharedQueue = UnitParser::ParseBool(n, v);
                     }));
    o.push_back(Make("stack",
                     OptionScope::STUDY,
                     "",
                     "ns3",
                     "ns3 (simulated TCP) or linux (kernel TCP in namespaces, root)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         if (v != "ns3" && v != "linux")
                         {
                             throw TrainingInputError(n + ": '" + v + "' (expected ns3 or linux)");
                         }
                         r.study.stack = v;
                     }));
    o.push_back(Make("linuxSysctl",
                     OptionScope::STUDY,
                     "",
                     "",
                     "--stack=linux: sysctls set in every namespace before the run, "
                     "name=value[,name=value] (e.g. net.ipv4.tcp_tso_rtt_log=0)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.study.sysctls = LinuxTestbed::ParseSysctls(n, v);
                     }));
}

/// The sharing study's measurement and output.
void
AddStudyOutput(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("sample",
                     OptionScope::STUDY,
                     "",
                     "0s",
                     "Sampling interval of received bytes (0s: RTT/4)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.study.sample = UnitParser::ParseDuration(n, v);
                     }));
    o.push_back(Make("baseline",
                     OptionScope::STUDY,
                     "",
                     "true",
                     "Run one flow alone first and add its overhead over S/C to both models",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.study.baseline = UnitParser::ParseBool(n, v);
                     }));
    o.push_back(Make("maxSimTime",
                     OptionScope::STUDY,
                     "",
                     "0s",
                     "Simulated time limit (0s: 20 x N S / C + 10 s)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.study.maxSimTime = UnitParser::ParseDuration(n, v);
                     }));
    o.push_back(Make("csv",
                     OptionScope::STUDY,
                     "",
                     "",
                     "Append one summary row to this CSV file",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.study.csv = v;
                     }));
    o.push_back(Make("timeseries",
                     OptionScope::STUDY,
                     "",
                     "",
                     "Write per-flow rate over time (time_s,flow,gbps) to this file",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.study.timeseries = v;
                     }));
    o.push_back(Make("flowTimes",
                     OptionScope::STUDY,
                     "",
                     "",
                     "Write one row per flow (flow,start_s,first_byte_s,end_s,bytes) to this CSV "
                     "file",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.study.flowTimes = v;
                     }));
}

/// The validation runner's matrix, folders, programs and the internal --run-job.
void
AddRunnerFiles(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("matrix",
                     OptionScope::RUNNER,
                     "",
                     "",
                     "Matrix JSON file, e.g. validation/matrix.json",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.runner.matrixFile = v;
                     }));
    o.push_back(Make("out",
                     OptionScope::RUNNER,
                     "",
                     "validation-out",
                     "Output folder (results.csv, error tables, figures, jobs/)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.runner.outDir = v;
                     }));
    o.push_back(Make("sim",
                     OptionScope::RUNNER,
                     "",
                     "",
                     "The driver (default: distributed-training-sim next to this program)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.runner.sim = v;
                     }));
    o.push_back(Make("root",
                     OptionScope::RUNNER,
                     "",
                     "",
                     "Folder of relative profile paths (default: the matrix file's repository)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.runner.root = v;
                     }));
    o.push_back(Make("run-job",
                     OptionScope::RUNNER,
                     "",
                     "",
                     "Internal: run the one job described by this job file",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.runner.runJob = v;
                     }));
}

/// The validation runner's sweep engine: where and how many jobs run, reuse and merge.
void
AddRunnerEngine(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("jobs",
                     OptionScope::RUNNER,
                     "",
                     "", // the program's: the number of cores (ValidationRunner::ParseOptions)
                     "Jobs at a time (default: number of cores; slurm: array throttle)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos
                             || v.size() > 4 || std::stoul(v) < 1)
                         {
                             throw TrainingInputError(
                                 n + ": cannot parse '" + v
                                 + "' (expected a whole number from 1 to 9999)");
                         }
                         r.runner.engine.slots = static_cast<uint32_t>(std::stoul(v));
                     }));
    o.push_back(Make("engine",
                     OptionScope::RUNNER,
                     "",
                     "local",
                     "local (processes here), parallel (GNU parallel) or slurm (writes a "
                     "job-array script and a merge step)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.runner.engine.engine = v; // SweepEngine checks it
                     }));
    o.push_back(Make("sshloginfile",
                     OptionScope::RUNNER,
                     "",
                     "",
                     "--engine=parallel: GNU parallel's --sshloginfile (hosts sharing OUT and the "
                     "build by path; ':' is this machine)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.runner.engine.sshLoginFile = v;
                     }));
    o.push_back(Make("resume",
                     OptionScope::RUNNER,
                     "",
                     "false",
                     "Reuse the results in OUT/jobs of jobs whose argument list is unchanged",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.runner.engine.resume = UnitParser::ParseBool(n, v);
                     }));
    o.push_back(Make("merge",
                     OptionScope::RUNNER,
                     "",
                     "false",
                     "Run nothing: merge the results in OUT/jobs (the Slurm merge step); a "
                     "missing result is an error",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.runner.merge = UnitParser::ParseBool(n, v);
                     }));
}

/// Options several benchmarks and examples share (scope PROGRAM, RunRequest::program).
void
AddProgramEntries(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("repeat",
                     OptionScope::PROGRAM,
                     "",
                     "1",
                     "Benchmarks: timed runs of each case (the fastest is reported; "
                     "analytic-benchmark: the median)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.program.repeat = UnitParser::ParseUnsigned(n, v, 1, 10000);
                     }));
    o.push_back(Make("machines",
                     OptionScope::PROGRAM,
                     "",
                     "8",
                     "Configuration searches: machines N (distributed-training-optimize: K "
                     "workers + P servers <= N; yan-configuration-space: servers and replicas)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.program.machines = UnitParser::ParseUnsigned(n, v, 1, 1024);
                     }));
    o.push_back(Make("samples",
                     OptionScope::PROGRAM,
                     "",
                     "1281167",
                     "Configuration searches: samples of one epoch (data-set size), for the "
                     "epoch time",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.program.samples
                             = UnitParser::ParseReal(n, v, 1, 1e15, "a number from 1 to 1e+15");
                     }));
    o.push_back(Make("maxWorkers",
                     OptionScope::PROGRAM,
                     "",
                     "4",
                     "ring-vs-ps-scaling and flow-cap-example: the largest number of workers K "
                     "of their sweep",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.program.maxWorkers = UnitParser::ParseUnsigned(n, v, 1, MAX_HOSTS);
                     }));
}

} // namespace

void
AddProgramOptions(std::vector<ScenarioOptions::Option>& o)
{
    AddProgramEntries(o);
}

void
AddStudyOptions(std::vector<ScenarioOptions::Option>& o)
{
    AddStudyWorkload(o);
    AddStudyNetwork(o);
    AddStudyOutput(o);
}

void
AddRunnerOptions(std::vector<ScenarioOptions::Option>& o)
{
    AddRunnerFiles(o);
    AddRunnerEngine(o);
}

} // namespace option_table
} // namespace ns3

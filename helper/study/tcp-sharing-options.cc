/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-sharing-options.h"

#include "ns3/kernel-testbed.h"
#include "ns3/program-options.h"
#include "ns3/training-input-error.h"
#include "ns3/training-scenario.h"
#include "ns3/unit-parser.h"

#include <algorithm>
#include <functional>
#include <sstream>

namespace ns3
{

namespace
{

using Options = TcpSharingOptions;

/// One command-line option of the study.
struct StudyOption
{
    const char* name; //!< without "--"
    const char* def;  //!< default value
    const char* help; //!< one line for --help
    bool preset;      //!< applied before the others (which then override it)
    std::function<void(Options&, const std::string&, const std::string&)> apply; //!< parse
};

using TS = TrainingScenario;

/// The host and TCP options (presets first).
void
AddTcpOptions(std::vector<StudyOption>& t)
{
    t.insert(t.end(),
             {
                 {"hostModel",
                  "ns3",
                  "ns3, or linux: Linux CUBIC/Reno for TcpCubic/TcpNewReno, --delayedAck, "
                  "--bufferAutotuning, --tcpSmallQueues, --startJitter=20us (options given "
                  "with it override it)",
                  true,
                  [](Options& o, auto& n, auto& v)
                  {
                      TS s;
                      s.ApplyHostModel(n, v);
                      o.hostModel = s.hostModel;
                      o.autotuning = s.bufferAutotuning;
                      o.delayedAck = s.delayedAck;
                      o.smallQueues = s.tcpSmallQueues;
                      o.startJitter = s.startJitter;
                  }},
                 {"tcp",
                  "TcpCubic",
                  "TcpNewReno, TcpCubic, TcpLinuxCubic, TcpLinuxReno, TcpDctcp "
                  "(RED/ECN queue) or TcpBbr",
                  false,
                  [](Options& o, auto&, auto& v)
                  {
                      o.tcp = v;
                  }},
                 {"delayedAck",
                  "false",
                  "Linux's delayed ACKs (one per two segments, or after 40 ms)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.delayedAck = UnitParser::ParseBool(n, v);
                  }},
                 {"bufferAutotuning",
                  "false",
                  "Linux socket-buffer autotuning (tcp_wmem/tcp_rmem)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.autotuning = UnitParser::ParseBool(n, v);
                  }},
             });
}

/// The flows: how many, how large, when they start.
void
AddWorkloadOptions(std::vector<StudyOption>& t)
{
    t.insert(t.end(),
             {
                 {"flows",
                  "2",
                  "Number of flows N (1..64)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.flows = UnitParser::ParseUnsigned(n, v, 1, 64);
                  }},
                 {"size",
                  "0",
                  "Bytes per flow S (0: use --sizeBdp; e.g. 1000000, 30MB)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.size = UnitParser::ParseBytes(n, v);
                      if (o.size > 1000000000000ULL)
                      {
                          throw TrainingInputError(n + ": '" + v
                                                   + "' out of range (expected 1..1e12)");
                      }
                  }},
                 {"sizeBdp",
                  "10",
                  "Bytes per flow in units of the BDP (goodput x 4 x delay)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.sizeBdp = UnitParser::ParseReal(n, v, 1e-9, 1e9, "a number of BDPs > 0");
                  }},
                 {"stagger",
                  "0s",
                  "Flow i starts at i x stagger",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.stagger = UnitParser::ParseDuration(n, v);
                  }},
                 {"startJitter",
                  "0",
                  "Largest random delay added to every flow's start (drawn with "
                  "--seed)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.startJitter = UnitParser::ParseDuration(n, v);
                  }},
                 {"seed",
                  "1",
                  "Run number of the random streams (start jitter, ns-3's TCP)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.seed = UnitParser::ParseUnsigned(n, v, 1, UINT32_MAX);
                  }},
             });
}

/// The star: rates, delays, queues.
void
AddNetworkOptions(std::vector<StudyOption>& t)
{
    t.insert(t.end(),
             {
                 {"rate",
                  "10Gbps",
                  "Link rate (every link; the receiver's is the bottleneck)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.rate = UnitParser::ParseDataRate(n, v);
                  }},
                 {"cap",
                  "0",
                  "Per-flow cap by TCP pacing (0: none)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.cap = UnitParser::ParseRateOrZero(n, v);
                  }},
                 {"delay",
                  "10us",
                  "One-way delay of each link (RTT = 4 x delay)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.delay = UnitParser::ParseDuration(n, v);
                  }},
                 {"queue",
                  "1000p",
                  "Bottleneck queue size (e.g. 1000p, 262144B)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      UnitParser::ParseQueueSize(n, v);
                      o.queue = v;
                  }},
                 {"hostQueue",
                  "",
                  "Queue of the sending NICs (default: --queue)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      if (!v.empty())
                      {
                          UnitParser::ParseQueueSize(n, v);
                      }
                      o.hostQueue = v;
                  }},
                 {"mtu",
                  "1500",
                  "MTU (576..9000)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.mtu = UnitParser::ParseUnsigned(n, v, 576, 9000);
                  }},
             });
}

/// Who sends: one host or one per flow, and which stack.
void
AddStackOptions(std::vector<StudyOption>& t)
{
    t.insert(t.end(),
             {
                 {"sharedQueue",
                  "false",
                  "Every flow leaves one sending host through its one NIC queue "
                  "(as a multi-flow host); false: one host and NIC per flow",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.sharedQueue = UnitParser::ParseBool(n, v);
                  }},
                 {"tcpSmallQueues",
                  "false",
                  "ns-3 senders with Linux's TCP small queues (TcpSmallQueuesSocket; part of "
                  "--hostModel=linux; a Linux sender always has them)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.smallQueues = UnitParser::ParseBool(n, v);
                  }},
                 {"stack",
                  "ns3",
                  "ns3 (simulated TCP) or linux (kernel TCP in namespaces, root)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      if (v != "ns3" && v != "linux")
                      {
                          throw TrainingInputError(n + ": '" + v + "' (expected ns3 or linux)");
                      }
                      o.stack = v;
                  }},
                 {"linuxSysctl",
                  "",
                  "--stack=linux: sysctls set in every namespace before the run, "
                  "name=value[,name=value] (e.g. net.ipv4.tcp_tso_rtt_log=0)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.sysctls = LinuxTestbed::ParseSysctls(n, v);
                  }},
                 {"dilation",
                  "1",
                  "Run at rate/D (arrivals and sampling x D), report times / D: linux, so that "
                  "the host CPU keeps up; ns3, to simulate the network that linux run executes "
                  "(TCP timers not scaled)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.dilation = UnitParser::ParseReal(n, v, 1, 1000, "a factor from 1 to 1000");
                  }},
             });
}

/// Measurement and output.
void
AddOutputOptions(std::vector<StudyOption>& t)
{
    t.insert(t.end(),
             {
                 {"sample",
                  "0s",
                  "Sampling interval of received bytes (0s: RTT/4)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.sample = UnitParser::ParseDuration(n, v);
                  }},
                 {"baseline",
                  "true",
                  "Run one flow alone first and add its overhead over S/C to both "
                  "models",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.baseline = UnitParser::ParseBool(n, v);
                  }},
                 {"maxSimTime",
                  "0s",
                  "Simulated time limit (0s: 20 x N S / C + 10 s)",
                  false,
                  [](Options& o, auto& n, auto& v)
                  {
                      o.maxSimTime = UnitParser::ParseDuration(n, v);
                  }},
                 {"csv",
                  "",
                  "Append one summary row to this CSV file",
                  false,
                  [](Options& o, auto&, auto& v)
                  {
                      o.csv = v;
                  }},
                 {"timeseries",
                  "",
                  "Write per-flow rate over time (time_s,flow,gbps) to this file",
                  false,
                  [](Options& o, auto&, auto& v)
                  {
                      o.timeseries = v;
                  }},
                 {"flowTimes",
                  "",
                  "Write one row per flow (flow,start_s,first_byte_s,end_s,bytes) to "
                  "this CSV file",
                  false,
                  [](Options& o, auto&, auto& v)
                  {
                      o.flowTimes = v;
                  }},
             });
}

/// The study's options: the table that parses, checks and documents them.
const std::vector<StudyOption>&
GetStudyOptions()
{
    static const std::vector<StudyOption> table = []
    {
        std::vector<StudyOption> t;
        AddTcpOptions(t);
        AddWorkloadOptions(t);
        AddNetworkOptions(t);
        AddStackOptions(t);
        AddOutputOptions(t);
        return t;
    }();
    return table;
}

} // namespace

std::string
TcpSharingOptions::FormatHelp()
{
    std::ostringstream out;
    out << "tcp-sharing-study: N flows through one bottleneck, compared with FCFS and PS\n"
           "(examples/tcp-sharing-study.cc). Options (--name=value):\n";
    for (const StudyOption& o : GetStudyOptions())
    {
        out << "  --" << o.name << " [" << o.def << "]: " << o.help << "\n";
    }
    return out.str();
}

TcpSharingOptions
TcpSharingOptions::Parse(int argc, char* argv[])
{
    Options o;
    for (const StudyOption& opt : GetStudyOptions())
    {
        opt.apply(o, std::string("--") + opt.name, opt.def);
    }
    std::vector<std::pair<const StudyOption*, std::string>> given;
    ProgramOptions cmd("N TCP flows through one bottleneck port: how they share it (FCFS..PS "
                       "index and lambda), on ns-3's TCP or the Linux kernel's (--stack=linux).");
    for (const StudyOption& opt : GetStudyOptions())
    {
        cmd.Add(opt.name,
                opt.help,
                opt.def,
                [&given, &opt](const std::string& v)
                {
                    given.emplace_back(&opt, v);
                });
    }
    cmd.Parse(argc, argv);
    std::stable_partition(given.begin(),
                          given.end(),
                          [](const auto& g)
                          {
                              return g.first->preset;
                          });
    for (const auto& [opt, value] : given)
    {
        opt->apply(o, std::string("--") + opt->name, value);
    }
    return o;
}

} // namespace ns3

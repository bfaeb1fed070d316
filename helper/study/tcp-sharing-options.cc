/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-sharing-options.h"

#include "ns3/program-options.h"

#include <sstream>

namespace ns3
{

namespace
{

/// The study's options, in --help order: its own entries (OptionScope::STUDY) and the driver's.
const std::vector<std::string>&
GetStudyNames()
{
    static const std::vector<std::string> names{"hostModel",   "tcp",
                                                "delayedAck",  "bufferAutotuning",
                                                "flows",       "size",
                                                "sizeBdp",     "stagger",
                                                "startJitter", "seed",
                                                "rate",        "cap",
                                                "delay",       "queue",
                                                "hostQueue",   "mtu",
                                                "sharedQueue", "tcpSmallQueues",
                                                "stack",       "linuxSysctl",
                                                "dilation",    "sample",
                                                "baseline",    "maxSimTime",
                                                "csv",         "timeseries",
                                                "flowTimes",   "writePattern"};
    return names;
}

/// What the study's --help says it does.
const char* const USAGE = "N TCP flows through one bottleneck port: how they share it (FCFS..PS "
                          "index and lambda), on ns-3's TCP or the Linux kernel's (--stack=linux).";

} // namespace

TcpSharingOptions
TcpSharingOptions::FromRequest(const RunRequest& request)
{
    TcpSharingOptions o;
    static_cast<StudySettings&>(o) = request.study;
    o.scenario = request.scenario;
    o.dilation = request.settings.dilation.value_or(1);
    return o;
}

std::string
TcpSharingOptions::FormatHelp()
{
    std::ostringstream out;
    out << "tcp-sharing-study: N flows through one bottleneck, compared with FCFS and PS\n"
           "(examples/tcp-sharing-study.cc). Options (--name=value):\n";
    for (const std::string& name : GetStudyNames())
    {
        const ScenarioOptions::Option& o = ScenarioOptions::Get(name, OptionScope::STUDY);
        out << "  --" << o.name << " [" << o.defaultValue << "]: " << o.help << "\n";
    }
    return out.str();
}

TcpSharingOptions
TcpSharingOptions::Parse(int argc, char* argv[])
{
    RunRequest request;
    ProgramOptions cmd(USAGE);
    ScenarioOptions::Bind(cmd, request, OptionScope::STUDY, GetStudyNames());
    cmd.Parse(argc, argv);
    return FromRequest(request);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "program-options.h"

#include "scenario-options.h"

#include "ns3/command-line.h"
#include "ns3/training-input-error.h"
#include "ns3/training-scenario.h"

#include <algorithm>
#include <iostream>
#include <set>
#include <sstream>

namespace ns3
{

namespace
{

/// \return v as --help shows it
template<typename T>
std::string
Text(const T& v)
{
    std::ostringstream os;
    os << v;
    return os.str();
}

} // namespace

ProgramOptions::ProgramOptions(std::string usage)
    : m_usage(std::move(usage))
{
}

void
ProgramOptions::Add(const std::string& name,
                    const std::string& help,
                    const std::string& defaultText,
                    std::function<void(const std::string&)> apply)
{
    m_options.push_back({name, help, defaultText, std::move(apply)});
}

void
ProgramOptions::Add(const std::string& name,
                    const std::string& help,
                    uint32_t& value,
                    uint32_t min,
                    uint32_t max)
{
    Add(name,
        help,
        Text(value),
        [&value, name, min, max](const std::string& v)
        {
            value = static_cast<uint32_t>(ScenarioOptions::ParseUnsigned("--" + name, v, min, max));
        });
}

void
ProgramOptions::Add(const std::string& name,
                    const std::string& help,
                    uint64_t& value,
                    uint64_t min,
                    uint64_t max)
{
    Add(name,
        help,
        Text(value),
        [&value, name, min, max](const std::string& v)
        {
            value = ScenarioOptions::ParseUnsigned("--" + name, v, min, max);
        });
}

void
ProgramOptions::Add(const std::string& name,
                    const std::string& help,
                    double& value,
                    double min,
                    double max)
{
    const std::string expected = "a number from " + Text(min) + " to " + Text(max);
    Add(name,
        help,
        Text(value),
        [&value, name, min, max, expected](const std::string& v)
        {
            value = ScenarioOptions::ParseReal("--" + name, v, min, max, expected);
        });
}

void
ProgramOptions::Add(const std::string& name, const std::string& help, bool& value)
{
    Add(name,
        help,
        value ? "true" : "false",
        [&value, name](const std::string& v)
        {
            value = ScenarioOptions::ParseBool("--" + name, v);
        });
}

void
ProgramOptions::Add(const std::string& name, const std::string& help, std::string& value)
{
    Add(name,
        help,
        value,
        [&value](const std::string& v)
        {
            value = v;
        });
}

void
ProgramOptions::Add(const std::string& name,
                    const std::string& help,
                    std::string& value,
                    const std::vector<std::string>& choices)
{
    std::string list;
    for (std::size_t i = 0; i < choices.size(); ++i)
    {
        list += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
    }
    Add(name,
        help + " (" + list + ")",
        value,
        [&value, name, choices, list](const std::string& v)
        {
            if (std::find(choices.begin(), choices.end(), v) == choices.end())
            {
                throw TrainingInputError("--" + name + ": unknown value '" + v + "' (expected "
                                         + list + ")");
            }
            value = v;
        });
}

void
ProgramOptions::Add(const std::string& name, const std::string& help, DataRate& value)
{
    Add(name,
        help,
        Text(value),
        [&value, name](const std::string& v)
        {
            value = TrainingScenario::ParseDataRate("--" + name, v);
        });
}

void
ProgramOptions::Add(const std::string& name, const std::string& help, Time& value)
{
    Add(name,
        help,
        Text(value.As(Time::US)),
        [&value, name](const std::string& v)
        {
            const Time t = TrainingScenario::ParseTime("--" + name, v);
            if (t.IsStrictlyNegative())
            {
                throw TrainingInputError("--" + name + ": negative time '" + v
                                         + "' (expected a time >= 0, e.g. 10us)");
            }
            value = t;
        });
}

void
ProgramOptions::AddProfile(std::string& file, const std::string& trace, const std::string& help)
{
    file = std::string(DT_SOURCE_DIR) + "/traces/" + trace;
    Add("profile", help, file);
}

int
ProgramOptions::Run(const std::function<void()>& body)
{
    try
    {
        body();
    }
    catch (const TrainingInputError& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}

const ProgramOptions::Option*
ProgramOptions::Find(const std::string& name) const
{
    for (const auto& o : m_options)
    {
        if (o.name == name)
        {
            return &o;
        }
    }
    return nullptr;
}

ProgramOptions::Given
ProgramOptions::Split(const std::vector<std::string>& args, std::vector<std::string>& others) const
{
    Given given;
    std::set<std::string> seen;
    for (const std::string& arg : args)
    {
        if (arg.rfind("--", 0) != 0)
        {
            throw TrainingInputError("'" + arg + "': stray argument (expected --name=value)");
        }
        const std::size_t eq = arg.find('=');
        const std::string name
            = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
        const Option* o = name.find("::") == std::string::npos ? Find(name) : nullptr;
        if (!o)
        {
            others.push_back(arg); // --help, ns-3's own options and unknown ones
            continue;
        }
        if (!seen.insert(name).second)
        {
            throw TrainingInputError("--" + name + ": given twice (expected each option once)");
        }
        given.emplace_back(o, eq == std::string::npos ? "true" : arg.substr(eq + 1));
    }
    return given;
}

std::vector<std::string>
ProgramOptions::ParseKnown(const std::vector<std::string>& args) const
{
    std::vector<std::string> others;
    for (const auto& [option, value] : Split(args, others))
    {
        option->apply(value);
    }
    return others;
}

void
ProgramOptions::Parse(int argc, char* argv[]) const
{
    // Our options are checked here; --help, ns-3's own --Print* and --ns3::... options and
    // unknown names are left to ns3::CommandLine below (which refuses the unknown ones). It
    // knows our options only for --help: it would refuse a bare --flag bound to a string.
    std::vector<std::string> rest{argv[0]}; // what CommandLine sees: all but our options
    const Given given = Split(std::vector<std::string>(argv + 1, argv + argc), rest);
    CommandLine cmd;
    cmd.Usage(m_usage);
    std::vector<std::string> sink(m_options.size());
    for (std::size_t i = 0; i < m_options.size(); ++i)
    {
        sink[i] = m_options[i].defaultText;
        cmd.AddValue(m_options[i].name, m_options[i].help, sink[i]);
    }
    cmd.Parse(rest);
    for (const auto& [option, value] : given)
    {
        option->apply(value);
    }
}

} // namespace ns3

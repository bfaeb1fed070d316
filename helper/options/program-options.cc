/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "program-options.h"

#include "ns3/closest-name.h"
#include "ns3/command-line.h"
#include "ns3/global-value.h"
#include "ns3/training-input-error.h"
#include "ns3/unit-parser.h"

#include <algorithm>
#include <cctype>
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
                    std::function<void(const std::string&)> apply,
                    bool first)
{
    m_options.push_back({name, help, defaultText, std::move(apply), first});
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
            value = static_cast<uint32_t>(UnitParser::ParseUnsigned("--" + name, v, min, max));
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
            value = UnitParser::ParseUnsigned("--" + name, v, min, max);
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
            value = UnitParser::ParseReal("--" + name, v, min, max, expected);
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
            value = UnitParser::ParseBool("--" + name, v);
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
            value = UnitParser::ParseDataRate("--" + name, v);
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
            value = UnitParser::ParseDuration("--" + name, v);
        });
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

void
ProgramOptions::Apply(Given given)
{
    std::stable_partition(given.begin(),
                          given.end(),
                          [](const auto& g)
                          {
                              return g.first->first;
                          });
    for (const auto& [option, value] : given)
    {
        option->apply(value);
    }
}

std::vector<std::string>
ProgramOptions::ParseKnown(const std::vector<std::string>& args) const
{
    std::vector<std::string> others;
    Apply(Split(args, others));
    return others;
}

namespace
{

/// \return whether ns3::CommandLine handles --name itself (help, Print..., global values)
bool
IsCommandLineOwn(const std::string& name)
{
    static const std::set<std::string> own{"help",
                                           "PrintHelp",
                                           "version",
                                           "PrintVersion",
                                           "PrintGlobals",
                                           "PrintGroups",
                                           "PrintGroup",
                                           "PrintTypeIds",
                                           "PrintAttributes"};
    if (own.count(name) || name.find("::") != std::string::npos)
    {
        return true;
    }
    for (auto i = GlobalValue::Begin(); i != GlobalValue::End(); ++i)
    {
        if ((*i)->GetName() == name)
        {
            return true;
        }
    }
    return false;
}

} // namespace

std::string
ProgramOptions::Suggestion(const std::string& name, const std::vector<std::string>& known)
{
    const std::string closest = ClosestName(name, known);
    return closest.empty() ? "--help lists every option" : "did you mean --" + closest + "?";
}

void
ProgramOptions::Parse(int argc, char* argv[]) const
{
    // Our options are checked here; --help and ns-3's own --Print*, global value and
    // --ns3::... options are left to ns3::CommandLine below. It knows our options only for
    // --help: it would refuse a bare --flag bound to a string.
    std::vector<std::string> rest{argv[0]}; // what CommandLine sees: all but our options
    const Given given = Split(std::vector<std::string>(argv + 1, argv + argc), rest);
    // An unknown name is refused here, with the closest option, rather than by CommandLine,
    // which would print the whole --help after it.
    std::vector<std::string> names;
    for (const Option& o : m_options)
    {
        names.push_back(o.name);
    }
    for (std::size_t i = 1; i < rest.size(); ++i)
    {
        const std::string name = rest[i].substr(2, rest[i].find('=') - 2);
        if (!IsCommandLineOwn(name))
        {
            throw TrainingInputError("unknown option --" + name + " (" + Suggestion(name, names)
                                     + ")");
        }
    }
    CommandLine cmd(argv[0]); // its name heads --help
    cmd.Usage(m_usage);
    std::vector<std::string> sink(m_options.size());
    for (std::size_t i = 0; i < m_options.size(); ++i)
    {
        sink[i] = m_options[i].defaultText;
        cmd.AddValue(m_options[i].name, m_options[i].help, sink[i]);
    }
    cmd.Parse(rest);
    Apply(given);
}

} // namespace ns3

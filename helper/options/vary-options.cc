/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "vary-options.h"

#include "program-options.h"

#include "ns3/json-input.h"
#include "ns3/training-input-error.h"
#include "ns3/unit-parser.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace ns3
{

namespace
{

/// What --vary takes, for messages.
const char* const EXPECTED = "NAME=V1,V2;NAME=V1,V2 or a JSON object {\"NAME\": [\"V1\", \"V2\"]}";

/// Limits of a JSON --vary: a small object of lists.
const JsonInput::Limits&
VaryJsonLimits()
{
    static const JsonInput::Limits limits{1 << 16, 3, "a JSON object of option lists"};
    return limits;
}

} // namespace

void
VaryOptions::CheckVariable(const std::string& name)
{
    const ScenarioOptions::Option* o = ScenarioOptions::Find(name);
    if (!o)
    {
        std::vector<std::string> names;
        for (const auto& option : ScenarioOptions::GetOptions())
        {
            if (ScenarioOptions::IsDriverScope(option.scope) && option.scope != OptionScope::OUTPUT)
            {
                names.push_back(option.name);
            }
        }
        throw TrainingInputError("--vary: unknown option --" + name + " ("
                                 + ProgramOptions::Suggestion(name, names) + ")");
    }
    if (name == "workers")
    {
        // The sweep is the figure's x axis; crossing it with itself would repeat points.
        throw ScenarioOptions::Refusal("--vary",
                                       "--workers is the sweep every study runs",
                                       "--workers=1..16 or 1,2,4,8 for the values of K");
    }
    if (o->scope == OptionScope::OUTPUT)
    {
        throw ScenarioOptions::Refusal("--vary",
                                       "--" + name + " is an output option, one for the study",
                                       "a scenario, job or backend option (--help)");
    }
}

void
VaryOptions::Add(std::vector<VariedOption>& vary,
                 const std::string& name,
                 const std::vector<std::string>& values)
{
    CheckVariable(name);
    for (const auto& v : vary)
    {
        if (v.name == name)
        {
            throw ScenarioOptions::Refusal("--vary",
                                           "--" + name + " varied twice",
                                           "each option once, with all its values");
        }
    }
    if (values.empty())
    {
        throw ScenarioOptions::Refusal("--vary", "no values of --" + name, EXPECTED);
    }
    for (std::size_t i = 0; i < values.size(); ++i)
    {
        if (values[i].empty())
        {
            throw ScenarioOptions::Refusal("--vary", "empty value of --" + name, EXPECTED);
        }
        if (std::find(values.begin(), values.begin() + i, values[i]) != values.begin() + i)
        {
            throw ScenarioOptions::Refusal("--vary",
                                           "--" + name + "=" + values[i] + " given twice",
                                           "each value once");
        }
    }
    vary.push_back({name, values});
}

std::vector<VariedOption>
VaryOptions::ParseJson(const std::string& text)
{
    const JsonInput::Json object = JsonInput::Parse(text, "--vary", VaryJsonLimits());
    if (!object.is_object() || object.empty())
    {
        throw ScenarioOptions::Refusal("--vary", "not a JSON object of lists", EXPECTED);
    }
    std::vector<VariedOption> vary;
    for (const auto& [name, list] : object.items())
    {
        const bool scalars = list.is_array() && !list.empty()
                             && std::all_of(list.begin(),
                                            list.end(),
                                            [](const auto& v)
                                            {
                                                return v.is_primitive() && !v.is_null();
                                            });
        if (!scalars)
        {
            throw ScenarioOptions::Refusal("--vary",
                                           "the values of --" + name + " are not a list",
                                           "a non-empty list of strings, numbers or booleans");
        }
        std::vector<std::string> values;
        for (const auto& v : list)
        {
            values.push_back(ScenarioOptions::JsonText(nlohmann::json(v)));
        }
        Add(vary, name, values);
    }
    return vary;
}

std::vector<VariedOption>
VaryOptions::Parse(const std::string& text)
{
    if (text.find_first_not_of(" \t") != std::string::npos
        && text[text.find_first_not_of(" \t")] == '{')
    {
        return ParseJson(text);
    }
    std::vector<VariedOption> vary;
    for (const std::string& part : UnitParser::Split(text, ';'))
    {
        const auto eq = part.find('=');
        if (eq == std::string::npos || eq == 0)
        {
            throw ScenarioOptions::Refusal("--vary", "'" + part + "' is not NAME=VALUES", EXPECTED);
        }
        // "--arch=ps,ring" reads as "arch=ps,ring": the option as it is typed alone.
        const std::string name
            = part.compare(0, 2, "--") == 0 ? part.substr(2, eq - 2) : part.substr(0, eq);
        Add(vary, name, UnitParser::Split(part.substr(eq + 1), ','));
    }
    return vary;
}

RunRequest
VaryOptions::MakeRequest(const RunRequest& base, const std::vector<std::string>& values)
{
    const auto varied = [&base](const std::string& name)
    {
        return std::any_of(base.vary.begin(),
                           base.vary.end(),
                           [&name](const VariedOption& v)
                           {
                               return v.name == name;
                           });
    };
    const auto setVaried = [&base, &values](RunRequest& r, bool presets)
    {
        for (std::size_t i = 0; i < base.vary.size(); ++i)
        {
            if (ScenarioOptions::IsPreset(base.vary[i].name) == presets)
            {
                ScenarioOptions::Set(r, base.vary[i].name, values[i]);
            }
        }
    };
    // As if typed on a command line: the varied presets, the options given in their order
    // (other than the varied ones and --vary), then the other varied options.
    RunRequest r = ScenarioOptions::MakeDefault();
    setVaried(r, true);
    for (const auto& [name, value] : base.applied)
    {
        if (name != "vary" && !varied(name))
        {
            ScenarioOptions::Set(r, name, value);
        }
    }
    setVaried(r, false);
    return r;
}

std::vector<VaryOptions::Point>
VaryOptions::MakePoints(const RunRequest& base)
{
    // A double holds the count of any text's values without overflow, for the check only.
    double count = base.workerSweep.size();
    std::string factors;
    for (const auto& v : base.vary)
    {
        count *= v.values.size();
        factors += std::to_string(v.values.size()) + " " + v.name + " x ";
    }
    if (count > base.maxPoints)
    {
        std::ostringstream what;
        what << "--vary and --workers make " << std::fixed << std::setprecision(0) << count
             << " points (" << factors << base.workerSweep.size() << " K), more than "
             << base.maxPoints;
        throw ScenarioOptions::Refusal(
            "--maxPoints",
            what.str(),
            "fewer values, or --maxPoints=N with N at least the points when the study is meant");
    }
    const auto combinations = static_cast<uint64_t>(count) / base.workerSweep.size();
    std::vector<Point> points;
    std::vector<std::size_t> index(base.vary.size(), 0);
    for (uint64_t p = 0; p < combinations; ++p)
    {
        Point point;
        for (std::size_t i = 0; i < index.size(); ++i)
        {
            point.values.push_back(base.vary[i].values[index[i]]);
        }
        try
        {
            point.request = MakeRequest(base, point.values);
        }
        catch (const TrainingInputError& e)
        {
            throw TrainingInputError("--vary, at " + Describe(base.vary, point.values) + ": "
                                     + e.what());
        }
        points.push_back(std::move(point));
        // The last option varies fastest (the first is outermost).
        for (std::size_t i = index.size(); i-- > 0 && ++index[i] == base.vary[i].values.size();)
        {
            index[i] = 0;
        }
    }
    return points;
}

std::string
VaryOptions::Describe(const std::vector<VariedOption>& vary, const std::vector<std::string>& values)
{
    std::string text;
    for (std::size_t i = 0; i < vary.size(); ++i)
    {
        text += (i == 0 ? "" : " ") + vary[i].name + "=" + values[i];
    }
    return text;
}

} // namespace ns3

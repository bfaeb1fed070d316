/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-options.h"

#include "program-options.h"

#include "ns3/abort.h"
#include "ns3/closest-name.h"
#include "ns3/json-input.h"
#include "ns3/json-object-reader.h"
#include "ns3/training-input-error.h"
#include "ns3/unit-parser.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace ns3
{

namespace
{

/// \return whether text is valid UTF-8 without control characters (every value ends up in JSON)
bool
IsUtf8Text(const std::string& text)
{
    if (std::any_of(text.begin(),
                    text.end(),
                    [](char c)
                    {
                        return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
                    }))
    {
        return false;
    }
    try
    {
        (void) nlohmann::json(text).dump(); // nlohmann's UTF-8 check: throws on a bad sequence
    }
    catch (const nlohmann::json::type_error&)
    {
        return false;
    }
    return true;
}

/// Limits of a --scenario file: a flat object of options; 1 MiB and 64 levels are far above any
/// real one.
const JsonInput::Limits&
ScenarioJsonLimits()
{
    static const JsonInput::Limits limits{1 << 20, 64, "a JSON object of driver options"};
    return limits;
}

} // namespace

std::string
ScenarioOptions::JsonText(const nlohmann::json& v)
{
    if (v.is_string())
    {
        return v.get<std::string>();
    }
    if (v.is_number_float())
    {
        std::ostringstream os;
        os.precision(17);
        os << v.get<double>();
        return os.str();
    }
    return v.dump(); // true, false or a whole number
}

namespace
{

/// \return the schema of a JSON object of options: every option of the table, a scalar each
/// (--jobs and --slowdown also take their lists inline, --vary its object of lists)
const JsonSchema&
OptionsSchema()
{
    static const JsonSchema schema = []
    {
        JsonSchema fields;
        for (const auto& option : ScenarioOptions::GetOptions())
        {
            if (!ScenarioOptions::IsDriverScope(option.scope))
            {
                continue; // the study's and the runner's own options are not scenario keys
            }
            fields.push_back({option.name,
                              JsonField::OPTIONAL,
                              option.name == "jobs" || option.name == "vary"
                                      || option.name == "slowdown" || option.name == "leave"
                                  ? JsonSpec{}
                                  : JsonSpec::Scalar("a number, a boolean or a string"),
                              {}});
        }
        return fields;
    }();
    return schema;
}

} // namespace

RunContext
RunRequest::MakeRunContext(std::shared_ptr<TrainingResult::RecordSink> records) const
{
    RunContext context;
    context.records = std::move(records);
    context.progress = progress ? &std::cerr : nullptr;
    return context;
}

void
ScenarioOptions::Option::Apply(RunRequest& request, const std::string& value) const
{
    parse(request, "--" + name, value);
}

bool
ScenarioOptions::IsPreset(const std::string& name)
{
    return name == "hostModel" || name == "preset";
}

TrainingInputError
ScenarioOptions::Refusal(const std::string& option,
                         const std::string& what,
                         const std::string& expected)
{
    return TrainingInputError(option + ": " + what + " (expected " + expected + ")");
}

bool
ScenarioOptions::IsDriverScope(OptionScope scope)
{
    return scope != OptionScope::STUDY && scope != OptionScope::RUNNER
           && scope != OptionScope::PROGRAM;
}

const ScenarioOptions::Option*
ScenarioOptions::Find(const std::string& name)
{
    for (const auto& o : GetOptions())
    {
        if (o.name == name && IsDriverScope(o.scope))
        {
            return &o;
        }
    }
    return nullptr;
}

const ScenarioOptions::Option*
ScenarioOptions::Find(const std::string& name, OptionScope scope)
{
    for (const auto& o : GetOptions())
    {
        if (o.name == name && o.scope == scope)
        {
            return &o;
        }
    }
    return nullptr;
}

const ScenarioOptions::Option&
ScenarioOptions::Get(const std::string& name, OptionScope own)
{
    const Option* o = IsDriverScope(own) ? nullptr : Find(name, own);
    o = o ? o : Find(name);
    NS_ABORT_MSG_IF(!o, "no option --" << name << " in the table");
    return *o;
}

RunRequest
ScenarioOptions::MakeDefault()
{
    RunRequest r;
    for (const auto& o : GetOptions())
    {
        if (!o.defaultValue.empty() && IsDriverScope(o.scope))
        {
            o.Apply(r, o.defaultValue);
        }
    }
    return r;
}

namespace
{

/// \return whether backend is one of the space-separated names in scope
bool
InScope(const std::string& scope, const std::string& backend)
{
    std::istringstream words(scope);
    std::string w;
    while (words >> w)
    {
        if (w == backend)
        {
            return true;
        }
    }
    return false;
}

} // namespace

std::vector<std::string>
ScenarioOptions::GetNames(OptionScope scope)
{
    std::vector<std::string> names;
    for (const auto& o : GetOptions())
    {
        if (o.scope == scope)
        {
            names.push_back(o.name);
        }
    }
    return names;
}

std::string
ScenarioOptions::GetScopeName(OptionScope scope)
{
    switch (scope)
    {
        case OptionScope::SCENARIO:
            return "scenario";
        case OptionScope::JOB:
            return "job";
        case OptionScope::BACKEND:
            return "backend";
        case OptionScope::OUTPUT:
            return "output";
        case OptionScope::STUDY:
            return "study";
        case OptionScope::RUNNER:
            return "runner";
        case OptionScope::PROGRAM:
            return "program";
    }
    return "?";
}

std::string
ScenarioOptions::GetScope(const std::string& name)
{
    const Option* o = Find(name);
    return o ? o->models : "";
}

std::vector<std::string>
ScenarioOptions::GetIgnored(const RunRequest& request, const std::string& backend)
{
    const TrainingScenario& s = request.scenario;
    const bool flowWindow
        = request.settings.windowModel && s.architecture == TrainingScenario::PARAMETER_SERVER;
    std::vector<std::string> ignored;
    for (const std::string& name : request.given)
    {
        const std::string scope = GetScope(name);
        const bool models = scope.empty() || (scope == "fabric" && s.topology != "star")
                            || InScope(scope, backend)
                            || (backend == "flow" && flowWindow && InScope(scope, "flow-window"));
        if (!models)
        {
            ignored.push_back("--" + name);
        }
    }
    return ignored;
}

namespace
{

/// Set an option of the table: its value checked as text, parsed and marked as given.
void
SetOption(RunRequest& request, const ScenarioOptions::Option& option, const std::string& value)
{
    if (!IsUtf8Text(value))
    {
        // Found by fuzzing: such a value reached the JSON result and ended the program there.
        throw ScenarioOptions::Refusal("--" + option.name,
                                       "value is not UTF-8 text",
                                       "printable UTF-8 text");
    }
    option.Apply(request, value);
    request.given.insert(option.name);
    request.applied.emplace_back(option.name, value);
    // Defaults are applied without SetOption: the flow backend notes a ring's sharing only
    // when the user chose one.
    request.settings.sharingGiven = request.given.count("sharing") > 0;
    ScenarioOptions::ApplyArchitectureDefaults(request);
}

} // namespace

void
ScenarioOptions::ApplyArchitectureDefaults(RunRequest& request)
{
    // Recomputed from the given options after every option, so that the outcome depends
    // neither on the options' order nor on whether a --jobs entry changes its base's --arch.
    TrainingScenario& s = request.scenario;
    const TrainingScenario plain;
    const bool ring = s.architecture == TrainingScenario::RING_ALLREDUCE;
    auto given = [&request](const char* name)
    {
        return request.given.count(name) > 0;
    };
    if (!given("overlap"))
    {
        s.overlap = ring;
    }
    if (given("preset"))
    {
        return;
    }
    if (ring && !given("bucket") && !given("firstBucket") && !given("fusionTimeout"))
    {
        s.ApplyPreset("--preset", RING_FUSION_DEFAULT);
        return;
    }
    s.bucketBytes = given("bucket") ? s.bucketBytes : plain.bucketBytes;
    s.firstBucketBytes = given("firstBucket") ? s.firstBucketBytes : plain.firstBucketBytes;
    s.fusionTimeout = given("fusionTimeout") ? s.fusionTimeout : plain.fusionTimeout;
}

void
ScenarioOptions::Set(RunRequest& request, const std::string& name, const std::string& value)
{
    const Option* o = Find(name);
    if (!o)
    {
        std::vector<std::string> names;
        for (const auto& option : GetOptions())
        {
            if (IsDriverScope(option.scope))
            {
                names.push_back(option.name);
            }
        }
        throw TrainingInputError("--" + name + ": unknown option ("
                                 + ProgramOptions::Suggestion(name, names) + ")");
    }
    SetOption(request, *o, value);
}

ScenarioOptions::Narrowing
ScenarioOptions::Narrowing::Words(std::vector<std::string> words)
{
    return {std::move(words), 0, 0};
}

ScenarioOptions::Narrowing
ScenarioOptions::Narrowing::Range(uint64_t min, uint64_t max)
{
    return {{}, min, max};
}

std::string
ScenarioOptions::Narrowing::Describe() const
{
    return words.empty() ? std::to_string(min) + " to " + std::to_string(max) : OrList(words);
}

void
ScenarioOptions::Narrowing::Check(const std::string& option, const std::string& text) const
{
    bool taken = false;
    if (words.empty())
    {
        try
        {
            UnitParser::ParseUnsigned(option, text, min, max);
            taken = true;
        }
        catch (const TrainingInputError&)
        {
            // refused below, with what this program takes
        }
    }
    else
    {
        taken = std::find(words.begin(), words.end(), text) != words.end();
    }
    if (!taken)
    {
        throw Refusal(option,
                      "'" + text + "' is not taken by this program",
                      words.empty() ? "a whole number from " + Describe() : Describe());
    }
}

ScenarioOptions::Narrowing
ScenarioOptions::MeasuredSteps()
{
    // The first step is a warm-up: one step alone measures nothing.
    return Narrowing::Range(2, MAX_STEPS);
}

void
ScenarioOptions::Bind(ProgramOptions& cmd,
                      RunRequest& request,
                      OptionScope own,
                      const std::vector<std::string>& names,
                      const std::map<std::string, std::string>& defaults,
                      const std::map<std::string, Narrowing>& narrowed)
{
    for (const std::string& name : names)
    {
        const Option* o = &Get(name, own);
        const auto program = defaults.find(name);
        const std::string def = program == defaults.end() ? o->defaultValue : program->second;
        if (!def.empty())
        {
            o->Apply(request, def);
        }
        const auto narrowing = narrowed.find(name);
        const bool narrow = narrowing != narrowed.end();
        const Narrowing n = narrow ? narrowing->second : Narrowing{};
        cmd.Add(
            name,
            narrow ? o->help + " (this program: " + n.Describe() + ")" : o->help,
            def,
            [&request, o, narrow, n](const std::string& v)
            {
                if (narrow)
                {
                    n.Check("--" + o->name, v);
                }
                SetOption(request, *o, v);
            },
            IsPreset(name));
    }
}

void
ScenarioOptions::ApplyJson(const nlohmann::json& object,
                           const std::string& where,
                           RunRequest& request)
{
    // Every key and type is checked before any option is set.
    const SortedJsonObjectReader checked(object,
                                         JsonPlace(where),
                                         OptionsSchema(),
                                         "an option of distributed-training-sim --help");
    for (bool presets : {true, false})
    {
        for (const auto& [key, value] : object.items())
        {
            if (IsPreset(key) != presets)
            {
                continue;
            }
            try
            {
                // --jobs and --vary also take JSON inline: the JSON text of the list or object.
                const bool inlineJson = value.is_array() || value.is_object();
                Set(request, key, inlineJson ? value.dump() : JsonText(value));
            }
            catch (const TrainingInputError& e)
            {
                throw TrainingInputError(where + ": " + e.what());
            }
        }
    }
}

void
ScenarioOptions::ApplyJsonText(const std::string& text,
                               const std::string& source,
                               RunRequest& request)
{
    // JsonInput refuses deep nesting and repeated keys; options do not depend on key order.
    ApplyJson(nlohmann::json(JsonInput::Parse(text, source, ScenarioJsonLimits())),
              source,
              request);
}

void
ScenarioOptions::ApplyJsonFile(const std::string& file, RunRequest& request)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
    {
        throw TrainingInputError("--scenario: '" + file + "' is not a regular file");
    }
    ApplyJsonText(JsonInput::ReadFile(file, ScenarioJsonLimits()), file, request);
}

namespace
{

/// Options of the table given on a command line, in order, and the --scenario file.
struct GivenArguments
{
    std::vector<std::pair<std::string, std::string>> options; //!< name, value
    std::string scenarioFile;                                 //!< --scenario, if given
};

/**
 * \brief The table as a command line (ProgramOptions splits and checks the line); the values
 * are only collected, and applied afterwards by BuildRequest.
 * \param usage for --help
 * \param given receives the options given
 * \return the command line
 */
ProgramOptions
TableCommandLine(const std::string& usage, GivenArguments& given)
{
    ProgramOptions cmd(usage);
    cmd.Add("scenario",
            "JSON file of options (command-line options override it)",
            "",
            [&given](const std::string& v)
            {
                given.scenarioFile = v;
            });
    for (const ScenarioOptions::Option& o : ScenarioOptions::GetOptions())
    {
        if (!ScenarioOptions::IsDriverScope(o.scope))
        {
            continue;
        }
        cmd.Add(o.name,
                o.help,
                o.defaultValue,
                [&given, name = o.name](const std::string& v)
                {
                    given.options.emplace_back(name, v);
                });
    }
    return cmd;
}

/// \return the defaults, then the --scenario file, then the command line's options (presets
/// first, so that single options override them whatever their order)
RunRequest
BuildRequest(GivenArguments given)
{
    RunRequest request = ScenarioOptions::MakeDefault();
    if (!given.scenarioFile.empty())
    {
        ScenarioOptions::ApplyJsonFile(given.scenarioFile, request);
    }
    std::stable_partition(given.options.begin(),
                          given.options.end(),
                          [](const auto& g)
                          {
                              return ScenarioOptions::IsPreset(g.first);
                          });
    for (const auto& [name, value] : given.options)
    {
        ScenarioOptions::Set(request, name, value);
    }
    return request;
}

} // namespace

RunRequest
ScenarioOptions::FromArguments(const std::vector<std::string>& args,
                               std::vector<std::string>& others)
{
    GivenArguments given;
    others = TableCommandLine("", given).ParseKnown(args);
    return BuildRequest(std::move(given));
}

RunRequest
ScenarioOptions::ParseArguments(int argc, char* argv[], const std::string& usage)
{
    GivenArguments given;
    TableCommandLine(usage, given).Parse(argc, argv);
    return BuildRequest(std::move(given));
}

void
ScenarioOptions::BindProfile(ProgramOptions& cmd, RunRequest& request, const std::string& trace)
{
    Bind(cmd, request, OptionScope::JOB, {"profile"}, {{"profile", GetTrace(trace)}});
}

uint32_t
ScenarioOptions::GetOneWorkerCount(const RunRequest& request)
{
    if (request.workerSweep.size() > 1)
    {
        throw Refusal("--workers",
                      "a sweep of " + std::to_string(request.workerSweep.size()) + " values",
                      "one number of workers");
    }
    return request.scenario.workers;
}

std::string
ScenarioOptions::GetTrace(const std::string& file)
{
    return std::string(DT_SOURCE_DIR) + "/traces/" + file;
}

std::vector<uint32_t>
ScenarioOptions::ParseWorkers(const std::string& text)
{
    std::vector<uint32_t> list;
    const auto range = text.find("..");
    if (range != std::string::npos)
    {
        const uint64_t a
            = UnitParser::ParseUnsigned("--workers", text.substr(0, range), 1, MAX_HOSTS);
        const uint64_t b
            = UnitParser::ParseUnsigned("--workers", text.substr(range + 2), 1, MAX_HOSTS);
        if (b < a)
        {
            throw Refusal("--workers",
                          "empty range '" + text + "'",
                          "FIRST..LAST with FIRST <= LAST");
        }
        for (uint64_t k = a; k <= b; ++k)
        {
            list.push_back(static_cast<uint32_t>(k));
        }
        return list;
    }
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        list.push_back(
            static_cast<uint32_t>(UnitParser::ParseUnsigned("--workers", item, 1, MAX_HOSTS)));
    }
    if (list.empty())
    {
        throw Refusal("--workers", "empty", "a number, 1..8 or 1,2,4,8");
    }
    return list;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "validation-matrix.h"

#include "ns3/closest-name.h"
#include "ns3/json-input.h"
#include "ns3/json-object-reader.h"
#include "ns3/log.h"
#include "ns3/output-file.h"
#include "ns3/scenario-options.h"
#include "ns3/sharing-model-registry.h"
#include "ns3/sweep-engine.h"
#include "ns3/training-input-error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ValidationMatrix");

namespace
{

using Json = nlohmann::json;

/// Options the runner sets itself; a matrix may not set them.
const std::set<std::string> RUNNER_OPTIONS
    = {"workers", "profile", "backend", "sharing", "output", "csv", "records", "progress"};

/// Letters, digits, '.', '_' and '-': safe in file names and gnuplot strings.
bool
IsSafeName(const std::string& s)
{
    static const std::regex re("^[A-Za-z0-9._-]+$");
    return std::regex_match(s, re);
}

/**
 * Checks one matrix document; every failure names the file and the JSON path.
 */
class MatrixReader
{
  public:
    /// \param file the matrix file's name
    explicit MatrixReader(const std::string& file)
        : m_file(file)
    {
    }

    /**
     * Throw the error.
     * \param path JSON path ("" for the document)
     * \param what what is wrong
     * \param expected what was expected
     */
    [[noreturn]] void Fail(const std::string& path,
                           const std::string& what,
                           const std::string& expected) const
    {
        Place(path).Fail(what, expected);
    }

    /// \param path a JSON path \return where it is
    JsonPlace Place(const std::string& path) const
    {
        return JsonPlace(m_file, path);
    }

    /**
     * A driver option's value as text.
     * \param value the JSON value (string, number or boolean)
     * \param path its JSON path
     * \return the text the driver parses
     */
    std::string OptionText(const Json& value, const std::string& path) const
    {
        Place(path).Check(value,
                          JsonSpec::Scalar("a string, number or boolean driver option value"));
        return value.is_string() ? value.get<std::string>() : value.dump();
    }

    /**
     * Read an object of driver options.
     * \param object the object
     * \param path its JSON path
     * \return option name (without "--") -> value as the text the driver parses
     */
    ValidationMatrix::Options Options(const Json& object, const std::string& path) const
    {
        ValidationMatrix::Options options = Json::object();
        for (const auto& [key, value] : object.items())
        {
            const std::string name = OptionName(key, path);
            if (RUNNER_OPTIONS.count(name))
            {
                Fail(Join(path, key),
                     "option set by the runner",
                     "scenario fields 'workers', 'profile', 'backends' or flow_variants instead");
            }
            // --jobs takes its list inline (JSON text) as well as a file name.
            const std::string text = name == "jobs" && (value.is_array() || value.is_object())
                                         ? value.dump()
                                         : OptionText(value, Join(path, key));
            // The driver's own option table checks the value now, not 600 jobs later.
            try
            {
                RunRequest probe = ScenarioOptions::MakeDefault();
                ScenarioOptions::Set(probe, name, text);
            }
            catch (const TrainingInputError& e)
            {
                Fail(Join(path, key),
                     e.what(),
                     "a valid driver option (distributed-training-sim --help)");
            }
            options[name] = text;
        }
        return options;
    }

    /**
     * Read a flow variant's options: the runner's own options (sharing, backend) allowed, the
     * values checked when the job runs (a variant may need the options of its scenario).
     * \param object the object
     * \param path its JSON path
     * \return option name (without "--") -> value as the text the driver parses
     */
    ValidationMatrix::Options VariantOptions(const Json& object, const std::string& path) const
    {
        ValidationMatrix::Options options = Json::object();
        for (const auto& [key, value] : object.items())
        {
            options[OptionName(key, path)] = OptionText(value, Join(path, key));
        }
        return options;
    }

    /**
     * \param key a member of an object of driver options
     * \param path the object's JSON path
     * \return the option's name without a leading "--"
     */
    std::string OptionName(const std::string& key, const std::string& path) const
    {
        std::string name = key.rfind("--", 0) == 0 ? key.substr(2) : key;
        if (name.empty() || !IsSafeName(name))
        {
            Fail(Join(path, key), "bad option name", "a driver option name such as nicRate");
        }
        return name;
    }

    /**
     * \param path a JSON path
     * \param key a member
     * \return path.key
     */
    static std::string Join(const std::string& path, const std::string& key)
    {
        return path.empty() ? key : path + "." + key;
    }

    /**
     * \param path a JSON path
     * \param i an index
     * \return path[i]
     */
    static std::string Index(const std::string& path, std::size_t i)
    {
        return path + "[" + std::to_string(i) + "]";
    }

  private:
    std::string m_file; //!< the matrix file, for messages
};

/// The default flow variants: the sharing models of --backend=all (fcfs, ps, capped, hybrid,
/// calibrated).
std::vector<ValidationMatrix::Variant>
DefaultVariants()
{
    std::vector<ValidationMatrix::Variant> list;
    for (const auto& name : SharingModelRegistry::Names(SharingModelRegistry::IN_ALL))
    {
        list.push_back({name, {{"sharing", name}}});
    }
    return list;
}

/// \param root folder \param profile path from the matrix \return the path the driver gets
std::string
ResolveProfile(const std::string& root, const std::string& profile)
{
    if (profile.empty() || profile[0] == '/' || root.empty())
    {
        return profile;
    }
    return root + "/" + profile;
}

} // namespace

namespace
{

/// The limits of a matrix file (doc/reference/design.rst, "Input limits").
const JsonInput::Limits&
MatrixLimits()
{
    // The shipped matrices are < 10 kB and nest 4 levels (scenarios[i].per_workers.K.option).
    static const JsonInput::Limits limits{
        16 << 20,
        64,
        "a validation matrix JSON file (see doc/reference/validation-runner.rst)"};
    return limits;
}

} // namespace

ValidationMatrix
ValidationMatrix::LoadFromFile(const std::string& fileName)
{
    NS_LOG_FUNCTION(fileName);
    return Parse(JsonInput::ReadFile(fileName, MatrixLimits()), fileName);
}

namespace
{

/// The backends a scenario may list; the reference is one of the first two.
const std::vector<std::string> BACKENDS = {"packet", "linux", "analytic", "flow"};

/// The schema of a matrix document.
const JsonSchema&
MatrixSchema()
{
    static const JsonSchema schema{
        {"defaults", JsonField::OPTIONAL, JsonSpec::Object("an object of driver options"), {}},
        {"flow_variants",
         JsonField::OPTIONAL,
         JsonSpec::Array(1, "a non-empty array of flow variants"),
         JsonSpec::Object("an object {\"name\": ..., \"options\": {...}}")},
        {"scenarios",
         JsonField::REQUIRED,
         JsonSpec::Array(1, "a non-empty array of scenarios"),
         JsonSpec::Object("a scenario object")},
        {"calibration",
         JsonField::OPTIONAL,
         JsonSpec::Object("an object {\"variant\", \"option\", \"values\"}"),
         {}},
        {"reference", JsonField::OPTIONAL, JsonSpec::OneOf({"packet", "linux"}), {}},
        {"categories",
         JsonField::OPTIONAL,
         JsonSpec::Array(0, "an array of column names"),
         JsonSpec::String("a column name")},
        {"comment", JsonField::OPTIONAL, {}, {}}};
    return schema;
}

/// The schema of flow_variants[i].
const JsonSchema&
VariantSchema()
{
    static const JsonSchema schema{
        {"name", JsonField::REQUIRED, JsonSpec::String("a variant name"), {}},
        {"options", JsonField::OPTIONAL, JsonSpec::Object("an object of driver options"), {}},
        {"args",
         JsonField::OPTIONAL,
         JsonSpec::Array(0, "an array of \"--option=value\" strings"),
         JsonSpec::String("a string \"--option=value\"")}};
    return schema;
}

/// The schema of scenarios[i].
const JsonSchema&
ScenarioSchema()
{
    const JsonSpec options = JsonSpec::Object("an object of driver options");
    static const JsonSchema schema{
        {"name", JsonField::REQUIRED, JsonSpec::String("a scenario name"), {}},
        {"category", JsonField::REQUIRED, JsonSpec::String("a category"), {}},
        {"profile", JsonField::REQUIRED, JsonSpec::String("a profile path", 1), {}},
        {"workers",
         JsonField::REQUIRED,
         JsonSpec::Array(1, "a non-empty array of worker counts such as [1, 2, 4]"),
         JsonSpec::Unsigned(1, 1024, "a whole number from 1 to 1024")},
        {"options", JsonField::OPTIONAL, options, {}},
        {"linux_options", JsonField::OPTIONAL, options, {}},
        {"per_workers",
         JsonField::OPTIONAL,
         JsonSpec::Object("an object of worker count -> driver options"),
         {}},
        {"backends",
         JsonField::OPTIONAL,
         JsonSpec::Array(1, "a non-empty subset of " + OrList(BACKENDS)),
         JsonSpec::OneOf(BACKENDS)},
        {"role", JsonField::OPTIONAL, JsonSpec::OneOf({"calibrate", "holdout"}), {}},
        {"timeline", JsonField::OPTIONAL, JsonSpec::Boolean("true or false"), {}},
        {"comment", JsonField::OPTIONAL, {}, {}}};
    return schema;
}

/// The schema of "calibration".
const JsonSchema&
CalibrationSchema()
{
    static const JsonSchema schema{
        {"variant", JsonField::REQUIRED, JsonSpec::String("a flow variant's name"), {}},
        {"option", JsonField::REQUIRED, JsonSpec::String("a driver option such as --x"), {}},
        {"values",
         JsonField::REQUIRED,
         JsonSpec::Array(1, "a non-empty array of numbers"),
         JsonSpec::Number(-INFINITY, INFINITY, "a number")}};
    return schema;
}

/// The schema of "per_workers": free keys (worker counts), each an object of driver options.
const JsonSchema&
PerWorkersSchema()
{
    static const JsonSchema schema{{JsonField::OTHER,
                                    JsonField::OPTIONAL,
                                    JsonSpec::Object("an object of driver options"),
                                    {}}};
    return schema;
}

/**
 * Read a variant's "args", the older spelling of its options: "--name=value" strings ("--name"
 * alone: true), turned into the options object once, here.
 */
ValidationMatrix::Options
ParseVariantArgs(const SortedJsonObjectReader& item)
{
    ValidationMatrix::Options options = Json::object();
    const std::vector<std::string> args = item.GetArray<std::string>("args");
    for (std::size_t a = 0; a < args.size(); ++a)
    {
        const std::string& text = args[a];
        if (text.rfind("--", 0) != 0)
        {
            item.At("args").Element(a).Fail("not a driver option", "a string \"--option=value\"");
        }
        const std::size_t eq = text.find('=');
        options[text.substr(2, eq - 2)] = eq == std::string::npos ? "true" : text.substr(eq + 1);
    }
    return options;
}

/// Read flow_variants (the defaults when absent).
std::vector<ValidationMatrix::Variant>
ParseVariants(const MatrixReader& reader, const SortedJsonObjectReader& doc)
{
    const Json* v = doc.Find("flow_variants");
    if (!v)
    {
        return DefaultVariants();
    }
    std::vector<ValidationMatrix::Variant> variants;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < v->size(); ++i)
    {
        const SortedJsonObjectReader item((*v)[i],
                                          doc.At("flow_variants").Element(i),
                                          VariantSchema());
        ValidationMatrix::Variant variant;
        variant.name = item.GetString("name");
        if (!IsSafeName(variant.name) || !seen.insert(variant.name).second)
        {
            item.At("name").Fail("'" + variant.name + "' empty, repeated or not file-name safe",
                                 "a unique name of letters, digits, '.', '_' or '-'");
        }
        if (item.Has("options") == item.Has("args"))
        {
            item.GetPlace().Fail("needs exactly one of 'options' and 'args'",
                                 "\"options\": {\"sharing\": \"ps\", ...}");
        }
        variant.options = item.Has("options") ? reader.VariantOptions(item.Get("options"),
                                                                      item.At("options").GetPath())
                                              : ParseVariantArgs(item);
        variants.push_back(variant);
    }
    return variants;
}

/// Read "categories": the matrix's own columns after the seven of 000 Table 1.
std::vector<std::string>
ParseExtraCategories(const SortedJsonObjectReader& doc)
{
    std::vector<std::string> extra;
    const auto& seven = ValidationMatrix::GetCategories();
    for (const std::string& text : doc.GetArray<std::string>("categories"))
    {
        if (!IsSafeName(text) || std::find(seven.begin(), seven.end(), text) != seven.end()
            || std::find(extra.begin(), extra.end(), text) != extra.end())
        {
            doc.At("categories")
                .Element(extra.size())
                .Fail("bad category " + text,
                      "a new, file-name-safe column name (the seven of 000 Table 1 exist "
                      "already)");
        }
        extra.push_back(text);
    }
    return extra;
}

/// Read a scenario's "per_workers" (its keys must be among its workers).
void
ParsePerWorkers(const MatrixReader& reader,
                const SortedJsonObjectReader& item,
                ValidationMatrix::Scenario& s)
{
    const Json* p = item.Find("per_workers");
    if (!p)
    {
        return;
    }
    const SortedJsonObjectReader perWorkers(*p, item.At("per_workers"), PerWorkersSchema());
    for (const auto& [key, value] : p->items())
    {
        auto k = std::find_if(s.workers.begin(),
                              s.workers.end(),
                              [&key = key](uint32_t w)
                              {
                                  return std::to_string(w) == key;
                              });
        if (k == s.workers.end())
        {
            perWorkers.At(key).Fail("not one of the scenario's workers", "a K of its workers list");
        }
        s.perWorkers[*k] = reader.Options(value, perWorkers.At(key).GetPath());
    }
}

/// Read a scenario's "backends" (default: packet, analytic, flow and the reference).
std::vector<std::string>
ParseBackends(const SortedJsonObjectReader& item, const std::string& reference)
{
    if (!item.Has("backends"))
    {
        std::vector<std::string> list = {"packet", "analytic", "flow"};
        if (reference != "packet")
        {
            list.insert(list.begin(), reference);
        }
        return list;
    }
    return item.GetArray<std::string>("backends");
}

/// Read a scenario's name and category (columns: the seven and the matrix's own).
void
ParseNameAndCategory(const SortedJsonObjectReader& item,
                     const std::vector<std::string>& columns,
                     std::set<std::string>& names,
                     ValidationMatrix::Scenario& s)
{
    s.name = item.GetString("name");
    if (!IsSafeName(s.name) || !names.insert(s.name).second)
    {
        item.At("name").Fail("'" + s.name + "' empty, repeated or not file-name safe",
                             "a unique name of letters, digits, '.', '_' or '-'");
    }
    s.category = item.GetString("category");
    if (std::find(columns.begin(), columns.end(), s.category) == columns.end())
    {
        item.At("category")
            .Fail("unknown category '" + s.category + "'",
                  OrList(columns) + ", or a name added to the matrix's \"categories\"");
    }
}

/// Read one scenario.
ValidationMatrix::Scenario
ParseScenario(const MatrixReader& reader,
              const SortedJsonObjectReader& item,
              const std::vector<std::string>& columns,
              const std::string& reference,
              std::set<std::string>& names)
{
    ValidationMatrix::Scenario s;
    ParseNameAndCategory(item, columns, names, s);
    s.profile = item.GetString("profile");
    for (uint64_t k : item.GetArray<uint64_t>("workers"))
    {
        s.workers.push_back(static_cast<uint32_t>(k));
    }
    if (item.Has("options"))
    {
        s.options = reader.Options(item.Get("options"), item.At("options").GetPath());
    }
    if (item.Has("linux_options"))
    {
        s.linuxOptions
            = reader.Options(item.Get("linux_options"), item.At("linux_options").GetPath());
    }
    ParsePerWorkers(reader, item, s);
    s.backends = ParseBackends(item, reference);
    s.role = item.GetString("role", "holdout");
    s.timeline = item.GetBool("timeline", s.timeline);
    return s;
}

/// Read "calibration" (its variant must exist and some scenario must calibrate).
ValidationMatrix::Calibration
ParseCalibration(const SortedJsonObjectReader& c,
                 const std::vector<ValidationMatrix::Variant>& variants,
                 const std::vector<ValidationMatrix::Scenario>& scenarios)
{
    ValidationMatrix::Calibration cal;
    cal.variant = c.GetString("variant");
    if (std::none_of(variants.begin(),
                     variants.end(),
                     [&cal](const ValidationMatrix::Variant& v)
                     {
                         return v.name == cal.variant;
                     }))
    {
        c.At("variant").Fail("no flow variant '" + cal.variant + "'",
                             "the name of one of flow_variants");
    }
    cal.option = c.GetString("option");
    if (cal.option.rfind("--", 0) != 0 || !IsSafeName(cal.option))
    {
        c.At("option").Fail("'" + cal.option + "' is not a driver option",
                            "an option such as --incumbentWeight");
    }
    cal.values = c.GetArray<double>("values");
    if (std::none_of(scenarios.begin(),
                     scenarios.end(),
                     [](const ValidationMatrix::Scenario& s)
                     {
                         return s.role == "calibrate";
                     }))
    {
        c.GetPlace().Fail("no scenario has role \"calibrate\"",
                          "at least one scenario with \"role\": \"calibrate\"");
    }
    return cal;
}

} // namespace

ValidationMatrix
ValidationMatrix::Parse(const std::string& text, const std::string& fileName)
{
    NS_LOG_FUNCTION(fileName << text.size());
    MatrixReader reader(fileName);
    const Json doc = JsonInput::Parse(text, fileName, MatrixLimits());
    const SortedJsonObjectReader object(doc, reader.Place(""), MatrixSchema());
    ValidationMatrix m;
    m.m_fileName = fileName;
    if (object.Has("defaults"))
    {
        m.m_defaults = reader.Options(object.Get("defaults"), "defaults");
    }
    m.m_variants = ParseVariants(reader, object);
    m.m_reference = object.GetString("reference", "packet");
    m.m_extraCategories = ParseExtraCategories(object);
    const std::vector<std::string> columns = m.GetColumns();
    std::set<std::string> names;
    const Json& scenarios = object.Get("scenarios");
    for (std::size_t i = 0; i < scenarios.size(); ++i)
    {
        const SortedJsonObjectReader item(scenarios[i],
                                          object.At("scenarios").Element(i),
                                          ScenarioSchema());
        m.m_scenarios.push_back(ParseScenario(reader, item, columns, m.m_reference, names));
    }
    if (object.Has("calibration"))
    {
        const SortedJsonObjectReader c(object.Get("calibration"),
                                       object.At("calibration"),
                                       CalibrationSchema());
        m.m_calibration = ParseCalibration(c, m.m_variants, m.m_scenarios);
    }
    return m;
}

const std::vector<std::string>&
ValidationMatrix::GetCategories()
{
    static const std::vector<std::string> categories = {"async-basic",
                                                        "async-overlap",
                                                        "async-hetero",
                                                        "async-hetero-overlap",
                                                        "sync-basic",
                                                        "sync-overlap",
                                                        "decentralised"};
    return categories;
}

std::vector<std::string>
ValidationMatrix::GetColumns() const
{
    std::vector<std::string> columns = GetCategories();
    columns.insert(columns.end(), m_extraCategories.begin(), m_extraCategories.end());
    return columns;
}

const std::string&
ValidationMatrix::GetReference() const
{
    return m_reference;
}

const std::vector<ValidationMatrix::Scenario>&
ValidationMatrix::GetScenarios() const
{
    return m_scenarios;
}

const std::vector<ValidationMatrix::Variant>&
ValidationMatrix::GetVariants() const
{
    return m_variants;
}

const ValidationMatrix::Options&
ValidationMatrix::GetDefaults() const
{
    return m_defaults;
}

const std::optional<ValidationMatrix::Calibration>&
ValidationMatrix::GetCalibration() const
{
    return m_calibration;
}

nlohmann::json
ValidationMatrix::JobOptions(const std::string& root, std::size_t index, uint32_t k) const
{
    const Scenario& s = m_scenarios[index];
    // The job is a JSON object of driver options (ScenarioOptions), not a command line: the
    // scenario's options override the defaults, per-K options both.
    nlohmann::json common = m_defaults;
    common.update(s.options);
    auto perK = s.perWorkers.find(k);
    if (perK != s.perWorkers.end())
    {
        common.update(perK->second);
    }
    common["profile"] = ResolveProfile(root, s.profile);
    common["workers"] = std::to_string(k);
    return common;
}

namespace
{

/**
 * One job of a scenario and K.
 * \param s the scenario \param index its index \param k workers
 * \param common the scenario's driver options for K
 * \param backend packet, linux, analytic or flow
 * \param variant its name ("" but for flow) and the arguments added to the options
 * \param label the rows' label ("" = as reported)
 * \return the job (records off; exclusive for the real-time linux backend)
 */
ValidationMatrix::Job
NewJob(const ValidationMatrix::Scenario& s,
       std::size_t index,
       uint32_t k,
       const nlohmann::json& common,
       const std::string& backend,
       const ValidationMatrix::Variant& variant,
       const std::string& label)
{
    ValidationMatrix::Job j;
    std::string suffix = label.empty() ? variant.name : label;
    j.id = s.name + "-k" + std::to_string(k) + "-" + backend + (suffix.empty() ? "" : "-" + suffix);
    j.scenario = index;
    j.workers = k;
    j.backend = backend;
    j.variant = variant.name;
    j.label = label;
    j.options = common;
    j.options["backend"] = backend;
    j.options.update(variant.options); // a flow variant, the calibration sweep or linux_options
    j.exclusive = backend == "linux";
    return j;
}

} // namespace

std::vector<ValidationMatrix::Job>
ValidationMatrix::ExpandOne(const std::string& root,
                            std::size_t index,
                            uint32_t k,
                            const std::vector<std::pair<Variant, std::string>>& variants,
                            bool baseJobs) const
{
    const Scenario& s = m_scenarios[index];
    const nlohmann::json common = JobOptions(root, index, k);
    // Timelines need the records of the packet and flow ps jobs at the largest K.
    const bool timeline = s.timeline && k == *std::max_element(s.workers.begin(), s.workers.end());
    auto has = [&s](const std::string& backend)
    {
        return std::find(s.backends.begin(), s.backends.end(), backend) != s.backends.end();
    };
    const Variant linuxOnly{"", s.linuxOptions}; // the linux job's own options
    std::vector<Job> jobs;
    for (const std::string backend : {"packet", "linux", "analytic"})
    {
        if (baseJobs && has(backend))
        {
            jobs.push_back(NewJob(s,
                                  index,
                                  k,
                                  common,
                                  backend,
                                  backend == "linux" ? linuxOnly : Variant{},
                                  ""));
            jobs.back().records = timeline && backend == "packet";
        }
    }
    for (std::size_t i = 0; has("flow") && i < variants.size(); ++i)
    {
        const auto& [variant, label] = variants[i];
        jobs.push_back(NewJob(s, index, k, common, "flow", variant, label));
        jobs.back().records = timeline && variant.name == "ps";
    }
    return jobs;
}

std::vector<ValidationMatrix::Job>
ValidationMatrix::ExpandFirstPhase(const std::string& root) const
{
    std::vector<Job> jobs;
    for (std::size_t i = 0; i < m_scenarios.size(); ++i)
    {
        std::vector<std::pair<Variant, std::string>> variants;
        for (const auto& v : m_variants)
        {
            if (!m_calibration || v.name != m_calibration->variant)
            {
                variants.emplace_back(v, "");
            }
            else if (m_scenarios[i].role == "calibrate")
            {
                for (double value : m_calibration->values)
                {
                    Variant swept = v;
                    swept.options[m_calibration->OptionName()] = FormatNumber(value);
                    variants.emplace_back(swept, CalibrationLabel(v.name, value));
                }
            }
        }
        for (uint32_t k : m_scenarios[i].workers)
        {
            auto more = ExpandOne(root, i, k, variants, true);
            jobs.insert(jobs.end(), more.begin(), more.end());
        }
    }
    return jobs;
}

std::vector<ValidationMatrix::Job>
ValidationMatrix::ExpandSecondPhase(const std::string& root, double value) const
{
    std::vector<Job> jobs;
    if (!m_calibration)
    {
        return jobs;
    }
    for (std::size_t i = 0; i < m_scenarios.size(); ++i)
    {
        if (m_scenarios[i].role != "holdout")
        {
            continue;
        }
        for (const auto& v : m_variants)
        {
            if (v.name != m_calibration->variant)
            {
                continue;
            }
            Variant chosen = v;
            chosen.options[m_calibration->OptionName()] = FormatNumber(value);
            for (uint32_t k : m_scenarios[i].workers)
            {
                auto more = ExpandOne(root, i, k, {{chosen, v.name}}, false);
                jobs.insert(jobs.end(), more.begin(), more.end());
            }
        }
    }
    return jobs;
}

std::vector<ValidationMatrix::Row>
ValidationMatrix::AttachErrors(const std::vector<Row>& rows, const std::string& reference)
{
    std::map<std::pair<std::string, uint32_t>, double> truth;
    for (const auto& r : rows)
    {
        if (r.backend == reference)
        {
            truth.emplace(std::make_pair(r.scenario, r.workers), r.throughput);
        }
    }
    std::set<std::string> seen;
    std::vector<Row> out;
    for (Row r : rows)
    {
        std::string key
            = r.scenario + "|" + std::to_string(r.workers) + "|" + r.backend + "|" + r.variant;
        if (!seen.insert(key).second)
        {
            continue;
        }
        auto it = truth.find(std::make_pair(r.scenario, r.workers));
        r.referenceThroughput = it == truth.end() ? -1 : it->second;
        r.relError = r.referenceThroughput > 0
                         ? (r.throughput - r.referenceThroughput) / r.referenceThroughput
                         : 0;
        out.push_back(r);
    }
    return out;
}

ValidationMatrix::Cell
ValidationMatrix::Aggregate(const std::vector<double>& errors)
{
    Cell c;
    for (double e : errors)
    {
        c.meanAbs += std::fabs(e);
        c.maxAbs = std::max(c.maxAbs, std::fabs(e));
    }
    c.count = errors.size();
    if (c.count > 0)
    {
        c.meanAbs /= c.count;
    }
    return c;
}

ValidationMatrix::Table
ValidationMatrix::BuildTable(const std::vector<Row>& rows,
                             KFilter filter,
                             const std::string& reference)
{
    std::map<std::string, std::map<std::string, std::vector<double>>> errors;
    for (const auto& r : rows)
    {
        bool kOk = filter == K_ALL || (filter == K_ONE ? r.workers == 1 : r.workers > 1);
        if (r.backend == reference || r.role != "holdout" || r.referenceThroughput <= 0 || !kOk)
        {
            continue;
        }
        errors[r.backend + " " + r.variant][r.category].push_back(r.relError);
    }
    Table table;
    for (const auto& [label, perCategory] : errors)
    {
        for (const auto& [category, list] : perCategory)
        {
            table[label][category] = Aggregate(list);
        }
    }
    return table;
}

namespace
{

/// \param c a cell \return "mean (max)" in %, or "" if blank
std::string
CellText(const ValidationMatrix::Cell& c)
{
    if (c.count == 0)
    {
        return "";
    }
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.1f (%.1f)", 100 * c.meanAbs, 100 * c.maxAbs);
    return buf;
}

/// \param table a table \param label a row \param category a column \return the cell or blank
ValidationMatrix::Cell
Lookup(const ValidationMatrix::Table& table, const std::string& label, const std::string& category)
{
    auto row = table.find(label);
    if (row == table.end())
    {
        return {};
    }
    auto cell = row->second.find(category);
    return cell == row->second.end() ? ValidationMatrix::Cell{} : cell->second;
}

/// \param table a table \return its row labels: analytic ("coarse"), flow, packet, linux
std::vector<std::string>
RowOrder(const ValidationMatrix::Table& table)
{
    std::vector<std::string> labels;
    for (const char* backend : {"analytic ", "flow ", "packet ", "linux "})
    {
        for (const auto& [label, cells] : table)
        {
            if (label.rfind(backend, 0) == 0)
            {
                labels.push_back(label);
            }
        }
    }
    return labels;
}

} // namespace

std::string
ValidationMatrix::FormatCsv(const Table& table,
                            const std::string& title,
                            const std::vector<std::string>& columns)
{
    std::ostringstream out;
    out << "# " << title << "\nmodel";
    for (const auto& c : columns)
    {
        out << "," << c << " mean %," << c << " max %," << c << " points";
    }
    out << "\n";
    for (const auto& label : RowOrder(table))
    {
        out << CsvField(label);
        for (const auto& category : columns)
        {
            Cell c = Lookup(table, label, category);
            if (c.count == 0)
            {
                out << ",,,0";
                continue;
            }
            char buf[96];
            std::snprintf(buf,
                          sizeof(buf),
                          ",%.2f,%.2f,%zu",
                          100 * c.meanAbs,
                          100 * c.maxAbs,
                          c.count);
            out << buf;
        }
        out << "\n";
    }
    return out.str();
}

std::string
ValidationMatrix::FormatRst(const Table& table, const std::vector<std::string>& columns)
{
    std::vector<std::string> header = {"model"};
    header.insert(header.end(), columns.begin(), columns.end());
    std::vector<std::vector<std::string>> lines;
    for (const auto& label : RowOrder(table))
    {
        std::vector<std::string> line = {label};
        for (const auto& category : columns)
        {
            line.push_back(CellText(Lookup(table, label, category)));
        }
        lines.push_back(line);
    }
    if (lines.empty())
    {
        lines.push_back(std::vector<std::string>(header.size()));
        lines.back()[0] = "(no data)"; // a simple table needs a body row
    }
    std::vector<std::size_t> width(header.size());
    for (std::size_t i = 0; i < header.size(); ++i)
    {
        width[i] = header[i].size();
        for (const auto& line : lines)
        {
            width[i] = std::max(width[i], line[i].size());
        }
    }
    auto rule = [&width]()
    {
        std::string s;
        for (std::size_t i = 0; i < width.size(); ++i)
        {
            s += (i ? " " : "") + std::string(width[i], '=');
        }
        return s + "\n";
    };
    auto format = [&width](const std::vector<std::string>& cells)
    {
        std::string s;
        for (std::size_t i = 0; i < cells.size(); ++i)
        {
            std::string cell = cells[i];
            if (i == 0 && cell.empty())
            {
                cell = "-"; // RST simple tables need the first column filled
            }
            s += (i ? " " : "") + cell + std::string(width[i] - cell.size(), ' ');
        }
        while (!s.empty() && s.back() == ' ')
        {
            s.pop_back();
        }
        return s + "\n";
    };
    std::string out = rule() + format(header) + rule();
    for (const auto& line : lines)
    {
        out += format(line);
    }
    return out + rule();
}

std::vector<ValidationMatrix::Cell>
ValidationMatrix::CalibrationErrors(const std::vector<Row>& rows, const Calibration& calibration)
{
    bool anyAboveOne = std::any_of(rows.begin(),
                                   rows.end(),
                                   [](const Row& r)
                                   {
                                       return r.role == "calibrate" && r.workers > 1
                                              && r.referenceThroughput > 0;
                                   });
    std::vector<Cell> cells;
    for (double value : calibration.values)
    {
        std::string label = CalibrationLabel(calibration.variant, value);
        std::vector<double> errors;
        for (const auto& r : rows)
        {
            if (r.role == "calibrate" && r.backend == "flow" && r.variant == label
                && r.referenceThroughput > 0 && (!anyAboveOne || r.workers > 1))
            {
                errors.push_back(r.relError);
            }
        }
        cells.push_back(Aggregate(errors));
    }
    return cells;
}

std::size_t
ValidationMatrix::ChooseCalibration(const std::vector<Cell>& cells)
{
    std::size_t best = cells.size();
    for (std::size_t i = 0; i < cells.size(); ++i)
    {
        if (cells[i].count > 0 && (best == cells.size() || cells[i].meanAbs < cells[best].meanAbs))
        {
            best = i;
        }
    }
    if (best == cells.size())
    {
        throw TrainingInputError(
            "calibration: no value has a result on a calibrate scenario with a "
            "reference result (expected finished reference and flow jobs)");
    }
    return best;
}

std::string
ValidationMatrix::CalibrationLabel(const std::string& variant, double value)
{
    return variant + "@" + FormatNumber(value);
}

std::string
ValidationMatrix::FormatNumber(double v)
{
    // Whole numbers without ".0": driver options such as --seed take integers only.
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15)
    {
        return Json(static_cast<int64_t>(v)).dump();
    }
    return Json(v).dump();
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_OPTIONS_H
#define SCENARIO_OPTIONS_H

#include "ns3/training-backend.h"
#include "ns3/training-scenario.h"

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

class CommandLine;

/**
 * \ingroup distributed-training
 * \brief Everything one run of the driver needs: the scenario and how to run and report it.
 */
struct RunRequest
{
    std::string profile;               //!< --profile: the profile JSON
    TrainingScenario scenario;         //!< the scenario (workers = the sweep's first K)
    std::vector<uint32_t> workerSweep; //!< --workers: one K, or several (a sweep)
    std::string backend{"packet"};     //!< --backend: a registered name or "all"
    BackendSettings settings;          //!< the backend options, for the backend that runs
    std::string output;                //!< --output: JSON result file
    std::string csv;                   //!< --csv: sweep CSV
    std::string csvRow;                //!< --csvRow: CSV file to append one row per result
    bool records{true};                //!< --records: per-step and per-transfer records
    std::string recordsFile;     //!< --recordsFile: stream the records to this JSON Lines file
    bool progress{true};         //!< --progress: progress of long runs on stderr
    std::string jobs;            //!< --jobs: several jobs on one fabric (TrainingJobSet file)
    std::set<std::string> given; //!< options set explicitly (ScenarioOptions::Set), not defaults

    /**
     * \param records the record sink of the run (--recordsFile), or nullptr
     * \return the run context of this request: the sink and, with --progress, progress on stderr
     */
    RunContext MakeRunContext(std::shared_ptr<TrainingResult::RecordSink> records) const;
};

/**
 * \ingroup distributed-training
 * \brief What an option of the table describes.
 */
enum class OptionScope
{
    SCENARIO, //!< the cluster: network, TCP, fabric, cross traffic (one for all jobs)
    JOB,      //!< one training job: its DNN, architecture, schedule, placement (--jobs entries)
    BACKEND,  //!< the backend and its settings (RunRequest::backend and ::settings)
    OUTPUT,   //!< what is written and reported, and where
};

/**
 * \ingroup distributed-training
 * \brief The driver's options, each defined once: name, default, help and a strict parser that
 * writes it into a RunRequest.
 *
 * The same table builds a request from a command line (ParseArguments, with ns3::CommandLine for
 * --help and ns-3's own --PrintAttributes and friends), from a JSON object whose keys are option
 * names (FromJson: the validation runner's job files, `--scenario=FILE`), and writes one back
 * (ToJson). Every bad value ends in a TrainingInputError that names the option and says what was
 * expected; numbers are range-checked (no overflow, no NaN), duplicate options and stray
 * arguments are refused.
 */
class ScenarioOptions
{
  public:
    /// One option.
    struct Option
    {
        std::string name;  //!< without "--"
        OptionScope scope; //!< what it describes (JOB: allowed in a --jobs entry)
        /// The backends that model it, e.g. "packet linux"; "fabric": every backend, but only
        /// off the star; "flow-window": the flow backend with --windowModel on a parameter
        /// server; "" when every backend does (GetScope, GetIgnored).
        std::string models;
        std::string defaultValue; //!< applied when the option is absent ("" = leave as is)
        std::string help;         //!< one line for --help
        /// Parse the text and store it (throws TrainingInputError naming --name).
        std::function<void(RunRequest&, const std::string&)> apply;
    };

    /// \return every option, in --help order
    static const std::vector<Option>& GetOptions();

    /**
     * \param name an option name (without "--")
     * \return the option, or nullptr if there is none of that name
     */
    static const Option* Find(const std::string& name);

    /**
     * \return a request with every option at its default
     */
    static RunRequest MakeDefault();

    /**
     * \brief Set one option.
     * \param request the request
     * \param name the option name (without "--")
     * \param value its text
     * \throws TrainingInputError for an unknown option or a bad value
     */
    static void Set(RunRequest& request, const std::string& name, const std::string& value);

    /**
     * \param name an option name (without "--")
     * \return the backends that model it (the entry's models: "packet linux", "fabric" for a
     *         fabric option, no effect on the star), or "" when every backend does
     */
    static std::string GetScope(const std::string& name);

    /**
     * \param scope a scope
     * \return the names of the options of that scope, in --help order (JOB: what a --jobs
     *         entry may set)
     */
    static std::vector<std::string> GetNames(OptionScope scope);

    /**
     * \param scope a scope
     * \return its name: scenario, job, backend or output
     */
    static std::string GetScopeName(OptionScope scope);

    /**
     * \brief The options the user set that a backend does not model in this request: its
     * result would silently be the same without them, so the driver notes them.
     * \param request the request (its given options)
     * \param backend a backend name (packet, flow, analytic, linux)
     * \return "--name" of each such option, in name order
     */
    static std::vector<std::string> GetIgnored(const RunRequest& request,
                                               const std::string& backend);

    /**
     * \brief Build a request from the program's arguments: --name=value pairs, --scenario=FILE
     * (a JSON object of options, applied first; options on the command line override it).
     * \param argc argument count
     * \param argv arguments (argv[0] is the program)
     * \param usage what the program does, for --help
     * \return the request (scenario not yet validated against a profile)
     * \throws TrainingInputError for a stray argument, a repeated option or a bad value
     */
    static RunRequest ParseArguments(int argc, char* argv[], const std::string& usage);

    /**
     * \brief Build a request from a JSON object {"workers": 4, "nicRate": "10Gbps", ...}.
     * \param object the options (numbers, booleans or strings)
     * \param where the file or context, for messages
     * \param request the request to change (defaults already in it)
     * \throws TrainingInputError for a non-object, an unknown key or a bad value
     */
    static void ApplyJson(const nlohmann::json& object,
                          const std::string& where,
                          RunRequest& request);

    /**
     * \brief ApplyJson() on JSON text, read with JsonInput's checks (at most 1 MiB, 64 levels
     * deep, no repeated key).
     * \param text the JSON text of one object of options
     * \param source the file or context, for messages
     * \param request the request to change
     * \throws TrainingInputError for bad JSON or a bad option
     */
    static void ApplyJsonText(const std::string& text,
                              const std::string& source,
                              RunRequest& request);

    /**
     * \brief ParseArguments() without ns3::CommandLine: what the table makes of the arguments.
     * \param args the arguments (without the program name)
     * \param others receives the arguments the table does not know (--help, ns-3's own
     * --ns3::...=, --Print..., unknown options), which ParseArguments leaves to CommandLine
     * \return the request
     * \throws TrainingInputError for a stray argument, a repeated option or a bad value
     */
    static RunRequest FromArguments(const std::vector<std::string>& args,
                                    std::vector<std::string>& others);

    /**
     * \param file a JSON file holding one object of options
     * \param request the request to change
     * \throws TrainingInputError if it cannot be read or is not valid
     */
    static void ApplyJsonFile(const std::string& file, RunRequest& request);

    /**
     * \param text "4", "1..8" or "1,2,4,8"
     * \return the worker counts
     */
    static std::vector<uint32_t> ParseWorkers(const std::string& text);
};

} // namespace ns3

#endif /* SCENARIO_OPTIONS_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_OPTIONS_H
#define SCENARIO_OPTIONS_H

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
    std::map<std::string, std::string> backendDefaults; //!< attribute path -> validated value
    std::string output;                                 //!< --output: JSON result file
    std::string csv;                                    //!< --csv: sweep CSV
    std::string csvRow;          //!< --csvRow: CSV file to append one row per result
    bool records{true};          //!< --records: per-step and per-transfer records
    std::string recordsFile;     //!< --recordsFile: stream the records to this JSON Lines file
    bool progress{true};         //!< --progress: progress of long runs on stderr
    std::string jobs;            //!< --jobs: several jobs on one fabric (TrainingJobSet file)
    std::set<std::string> given; //!< options set explicitly (ScenarioOptions::Set), not defaults

    /// Apply backendDefaults through Config::SetDefault (before creating backends).
    void ApplyBackendDefaults() const;
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
        std::string name;         //!< without "--"
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
     * \return the backends that model it ("packet linux"), "fabric" for a fabric option (no
     *         effect on the star), or "" when every backend does
     */
    static std::string GetScope(const std::string& name);

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

    // ---- strict parsers shared by every option and program ---------------------------------

    /**
     * \param option the option, for messages
     * \param text the value
     * \param min smallest accepted
     * \param max largest accepted
     * \return the whole number
     */
    static uint64_t ParseUnsigned(const std::string& option,
                                  const std::string& text,
                                  uint64_t min,
                                  uint64_t max);

    /**
     * \param option the option, for messages
     * \param text the value
     * \param min smallest accepted
     * \param max largest accepted
     * \param expected what a valid value looks like
     * \return the finite real number
     */
    static double ParseReal(const std::string& option,
                            const std::string& text,
                            double min,
                            double max,
                            const std::string& expected);

    /**
     * \param option the option, for messages
     * \param text true/false/1/0/on/off/yes/no
     * \return the value
     */
    static bool ParseBool(const std::string& option, const std::string& text);

    /**
     * \param option the option, for messages
     * \param text a byte count: 0, 1048576, 25MB, 64MiB or inf
     * \return bytes (TrainingScenario::UNLIMITED_BUCKET for inf)
     */
    static uint64_t ParseBytes(const std::string& option, const std::string& text);

    /**
     * \param text "4", "1..8" or "1,2,4,8"
     * \return the worker counts
     */
    static std::vector<uint32_t> ParseWorkers(const std::string& text);
};

} // namespace ns3

#endif /* SCENARIO_OPTIONS_H */

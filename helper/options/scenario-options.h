/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_OPTIONS_H
#define SCENARIO_OPTIONS_H

#include "ns3/sweep-engine.h"
#include "ns3/training-backend.h"
#include "ns3/training-input-error.h"
#include "ns3/training-scenario.h"

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class CommandLine;
class ProgramOptions;

/**
 * \ingroup distributed-training
 * \brief The tcp-sharing-study's own settings: its OptionScope::STUDY entries (the network and
 * TCP options it shares with the driver are the request's scenario).
 *
 * The defaults are the entries' (ScenarioOptions::Bind applies them).
 */
struct StudySettings
{
    uint32_t flows{0};       //!< --flows: number of flows N
    uint64_t size{0};        //!< --size: bytes per flow (0: --sizeBdp)
    double sizeBdp{0};       //!< --sizeBdp: bytes per flow in BDPs
    Time stagger{0};         //!< --stagger: flow i starts at i x stagger
    Time sample{0};          //!< --sample: sampling interval (0: RTT/4)
    bool baseline{false};    //!< --baseline: run one flow alone first
    Time maxSimTime{0};      //!< --maxSimTime (0: automatic)
    std::string csv;         //!< --csv: summary row file
    std::string timeseries;  //!< --timeseries: per-flow rate file
    std::string flowTimes;   //!< --flowTimes: per-flow times file
    std::string stack;       //!< --stack: ns3 or linux
    bool sharedQueue{false}; //!< --sharedQueue: every flow from one host
    std::vector<std::pair<std::string, std::string>> sysctls; //!< --linuxSysctl
};

/**
 * \ingroup distributed-training
 * \brief The validation runner's settings: its OptionScope::RUNNER entries
 * (ValidationRunner::Options).
 */
struct RunnerSettings
{
    std::string matrixFile;      //!< --matrix
    std::string outDir;          //!< --out
    std::string sim;             //!< --sim
    std::string root;            //!< --root
    bool merge{false};           //!< --merge: run nothing, merge the results there are
    std::string runJob;          //!< --run-job: run the one job of this job file
    SweepEngine::Options engine; //!< --engine, --jobs, --sshloginfile, --resume
};

/**
 * \ingroup distributed-training
 * \brief The benchmarks' and examples' shared settings: their OptionScope::PROGRAM entries,
 * options that several of them take and the driver does not. Each program gives its own
 * default (ScenarioOptions::Bind); the entries' defaults are the first program's.
 */
struct ProgramSettings
{
    uint32_t repeat{1};     //!< --repeat: timed runs of each case
    uint32_t machines{8};   //!< --machines: machines N of a configuration search
    double samples{0};      //!< --samples: samples of one epoch (the epoch time)
    uint32_t maxWorkers{0}; //!< --maxWorkers: largest K of a program's sweep
};

/**
 * \ingroup distributed-training
 * \brief One option a study varies (--vary) and its values, in the order given (VaryOptions).
 */
struct VariedOption
{
    std::string name;                //!< the option, without "--"
    std::vector<std::string> values; //!< its values as text, each parsed by the option's entry
};

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
    bool solo{true};             //!< --solo: with --jobs, also run each job alone
    std::set<std::string> given; //!< options set explicitly (ScenarioOptions::Set), not defaults
    /// Every option set explicitly, in the order applied: a study rebuilds each of its points'
    /// requests from them with its varied values in place (VaryOptions::MakePoints)
    std::vector<std::pair<std::string, std::string>> applied;
    std::vector<VariedOption> vary; //!< --vary: the options a study crosses with --workers
    uint64_t maxPoints{0};          //!< --maxPoints: the most points a --vary study runs
    StudySettings study;            //!< the tcp-sharing-study's own options
    RunnerSettings runner;          //!< the validation runner's options
    ProgramSettings program;        //!< the benchmarks' and examples' shared options

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
    STUDY,    //!< tcp-sharing-study's own options (RunRequest::study)
    RUNNER,   //!< the validation runner's options (RunRequest::runner)
    PROGRAM,  //!< options several benchmarks and examples share (RunRequest::program)
};

/**
 * \ingroup distributed-training
 * \brief The option table of every program, each option defined once: name, scope, default,
 * help and a strict parser that writes it into a RunRequest.
 *
 * The driver reads the scenario, job, backend and output entries. The sharing study and the
 * validation runner read their own (STUDY, RUNNER) and the driver's they share, the benchmarks
 * and examples the driver's they take and the ones they share among themselves (PROGRAM), each
 * by name with Bind(); a name is unique among the driver's entries and among each program's own
 * (the study's --csv is not the driver's, the benchmarks' --repeat not the linux backend's). A
 * program that takes fewer values of an entry than the table narrows it in Bind (Narrowing).
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
        /// Parse the text and store it: (request, "--name" for messages, text); throws
        /// TrainingInputError naming the option.
        std::function<void(RunRequest&, const std::string&, const std::string&)> parse;

        /**
         * \brief Parse a value of this option into a request (errors name --name).
         * \param request the request
         * \param value the text
         */
        void Apply(RunRequest& request, const std::string& value) const;
    };

    /**
     * \brief The values a program takes of an entry when they are fewer than the table's
     * (fabric-benchmark's --backend: flow or packet; a benchmark's --steps: at least 2). Bind
     * checks a value against it before the entry's parser, so that the refusal names the option
     * and what the program takes, in the table's message shape.
     */
    struct Narrowing
    {
        std::vector<std::string> words; //!< the words it takes (empty: a range of numbers)
        uint64_t min{0};                //!< otherwise the least whole number it takes
        uint64_t max{0};                //!< and the largest

        /**
         * \param words the words a program takes
         * \return the narrowing to them
         */
        static Narrowing Words(std::vector<std::string> words);
        /**
         * \param min the least whole number a program takes
         * \param max the largest
         * \return the narrowing to [min, max]
         */
        static Narrowing Range(uint64_t min, uint64_t max);
        /// \return what it takes, for --help ("flow or packet", "2 to 10000000")
        std::string Describe() const;
        /**
         * \param option the option ("--backend")
         * \param text a value
         * \throws TrainingInputError "--backend: 'analytic' is not taken by this program
         *         (expected flow or packet)", "--steps: '1' is not taken by this program
         *         (expected a whole number from 2 to 10000000)" when the program does not take it
         */
        void Check(const std::string& option, const std::string& text) const;
    };

    /// \return --steps of a program that measures after a warm-up step: 2 to MAX_STEPS (the
    /// benchmarks and examples that time or average steps)
    static Narrowing MeasuredSteps();

    /// Largest K or P the driver accepts (the flow backend has run K = 10,000).
    static constexpr uint64_t MAX_HOSTS = 100000;
    /// Largest --steps (and --warmup) the driver accepts.
    static constexpr uint64_t MAX_STEPS = 10000000;

    /**
     * \param name an option name (without "--")
     * \return whether the option sets other options (--hostModel, --preset): it is applied first,
     *         so that the others override it
     */
    static bool IsPreset(const std::string& name);

    /**
     * \param option the option ("--workers")
     * \param what what is wrong
     * \param expected what is acceptable
     * \return the error "<option>: <what> (expected <expected>)", every entry's message shape
     */
    static TrainingInputError Refusal(const std::string& option,
                                      const std::string& what,
                                      const std::string& expected);

    /// \return every option of every program, the driver's in its --help order first (defined
    /// with the entries, option-table.cc)
    static const std::vector<Option>& GetOptions();

    /**
     * \param scope a scope
     * \return whether the driver reads the options of that scope (scenario, job, backend, output)
     */
    static bool IsDriverScope(OptionScope scope);

    /**
     * \param name an option name (without "--")
     * \return the driver's option of that name, or nullptr if there is none
     */
    static const Option* Find(const std::string& name);

    /**
     * \param name an option name (without "--")
     * \param scope its scope
     * \return the option of that name and scope, or nullptr if there is none
     */
    static const Option* Find(const std::string& name, OptionScope scope);

    /**
     * \param name an option name (without "--")
     * \param own the program's own scope (STUDY, RUNNER, PROGRAM), or a driver scope for the
     *        driver's
     * \return the entry a program reads under that name: its own, else the driver's (aborts
     *         when there is none: a program names its options in its code)
     */
    static const Option& Get(const std::string& name, OptionScope own);

    /**
     * \brief Let a program read entries of the table: each is added to its command line with the
     * entry's help and parser, its default applied to the request now, a given value applied
     * by cmd.Parse() (--hostModel and --preset before the others, which override them).
     * \param cmd the program's command line
     * \param request receives the defaults now and the given values when cmd parses
     * \param own the program's own scope (STUDY, RUNNER; PROGRAM for the benchmarks' and
     *        examples' shared entries), whose entries are looked up before the driver's (Get); a
     *        program that reads only the driver's gives a driver scope
     * \param names the options, in --help order
     * \param defaults the program's own default text of some of them (a benchmark's size)
     * \param narrowed the values the program takes of some of them when fewer than the
     *        entry's: checked before the entry's parser and named in --help
     */
    static void Bind(ProgramOptions& cmd,
                     RunRequest& request,
                     OptionScope own,
                     const std::vector<std::string>& names,
                     const std::map<std::string, std::string>& defaults = {},
                     const std::map<std::string, Narrowing>& narrowed = {});

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
     * \return its name: scenario, job, backend, output, study, runner or program
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

    /// The fusion preset a ring gets when no fusion option is given (PyTorch DDP's buckets).
    static constexpr const char* RING_FUSION_DEFAULT = "ddp";

    /**
     * \brief The defaults a practitioner means for the architecture: a ring fuses its gradients
     * as PyTorch DDP does (--preset=ddp) unless one of --preset, --bucket, --firstBucket or
     * --fusionTimeout is given, and overlaps communication with the backward pass unless
     * --overlap is given; a parameter server gets neither. Set() applies it after every
     * option, from the options given so far (RunRequest::given).
     * \param request the request to complete
     */
    static void ApplyArchitectureDefaults(RunRequest& request);

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
     * \param v a JSON scalar (a string, a number or a boolean)
     * \return it as option text: a string as it is, whole numbers without ".0"
     */
    static std::string JsonText(const nlohmann::json& v);

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
     * \brief Bind() the table's --profile with a program's default trace (the benchmarks and
     * examples).
     * \param cmd the program's command line
     * \param request receives the profile path
     * \param trace the default: a file name in the module's traces/ folder
     */
    static void BindProfile(ProgramOptions& cmd, RunRequest& request, const std::string& trace);

    /**
     * \param request a request whose --workers a program takes as one K (a benchmark)
     * \return that K
     * \throws TrainingInputError when --workers gave a sweep
     */
    static uint32_t GetOneWorkerCount(const RunRequest& request);

    /**
     * \param file a file name in the module's traces/ folder
     * \return its path (the default --profile of the driver, a benchmark or an example)
     */
    static std::string GetTrace(const std::string& file);

    /**
     * \param text "4", "1..8" or "1,2,4,8"
     * \return the worker counts
     */
    static std::vector<uint32_t> ParseWorkers(const std::string& text);
};

} // namespace ns3

#endif /* SCENARIO_OPTIONS_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ScenarioOptions, the one options layer of the driver and the validation runner: every bad
 * value is refused with a message naming the option and what it expects (the checks that used to
 * be CMake scripts starting the driver, plus the hostile inputs of overflow, out-of-range reals
 * and malformed rates); a JSON object of options builds the same scenario as the same options on
 * a command line; every option has a default that parses and help text.
 */

#include "training-test-utils.h"

#include "ns3/closest-name.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/program-options.h"
#include "ns3/scenario-options.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/training-backend.h"
#include "ns3/training-input-error.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/// One bad option value and the message it must give.
struct BadValue
{
    const char* name;     //!< option without "--"
    const char* value;    //!< its text
    const char* expected; //!< a part of the message
};

/**
 * \ingroup distributed-training
 * Every bad value of an option ends in a TrainingInputError naming the option.
 *
 * Options: every bad value is refused with a message naming the option and what it expects (no
 * crash, no wrap-around, no silent default).
 */
class BadOptionValuesTestCase : public TestCase
{
  public:
    BadOptionValuesTestCase()
        : TestCase("every bad option value is refused naming the option and what it expects")
    {
    }

  private:
    void DoRun() override
    {
        // Beyond a double: found by dt-fuzz-scenario (std::stod threw out_of_range).
        const std::string digits400(400, '2');
        const BadValue cases[] = {
            {"workers", "0", "--workers: 0 out of range"},
            {"workers", "four", "--workers: cannot parse 'four'"},
            {"workers", "99999999999999999999", "--workers: 99999999999999999999 out of range"},
            {"workers", "8..2", "--workers: empty range"},
            {"servers", "-1", "--servers: cannot parse '-1'"},
            {"arch", "star", "--arch: unknown value 'star' (expected ps or ring"},
            {"mode", "lazy", "--mode: unknown value 'lazy'"},
            {"backend", "magic", "--backend: unknown value 'magic'"},
            {"sharing", "fair", "--sharing: unknown value 'fair'"},
            {"nicRate", "fast", "--nicRate: cannot parse rate 'fast'"},
            {"nicRate", "10", "--nicRate: cannot parse rate '10'"},
            {"nicRate", "10Gbps garbage", "--nicRate: cannot parse rate"},
            {"nicRate", "1e30Gbps", "--nicRate: rate '1e30Gbps' out of range"},
            {"flowCap", "lots", "--flowCap: cannot parse rate 'lots'"},
            {"linkDelay", "10parsecs", "--linkDelay: cannot parse time '10parsecs'"},
            {"linkDelay", "1e400s", "--linkDelay: time '1e400s' out of range"},
            {"queue", "lots", "--queue: cannot parse queue size 'lots'"},
            {"hostQueue", "lots", "--hostQueue: cannot parse queue size 'lots'"},
            {"mtu", "100", "--mtu: 100 out of range"},
            {"overlap", "maybe", "--overlap: cannot parse 'maybe'"},
            {"ecn", "maybe", "--ecn: cannot parse 'maybe'"},
            {"order", "sideways", "--order: unknown value 'sideways'"},
            {"partition", "best", "--partition: unknown value 'best'"},
            {"computeScale", "1,x", "--computeScale: cannot parse 'x'"},
            {"bucket", "-1", "--bucket: negative size '-1'"},
            {"bucket", "1e30", "--bucket: cannot parse '1e30'"},
            {"bucket", "99999999999GiB", "--bucket: size '99999999999GiB' out of range"},
            {"firstBucket", "inf", "--firstBucket: 'inf'"},
            {"window", "inf", "--window: 'inf'"},
            {"preset", "nccl", "--preset: unknown preset 'nccl' (expected ddp, horovod or"},
            {"gpusPerNode", "0", "--gpusPerNode: 0 out of range"},
            {"fusionTimeout", "soon", "--fusionTimeout: cannot parse time 'soon'"},
            {"reductionRate", "fast", "--reductionRate: cannot parse 'fast'"},
            {"reductionRate", "-5", "--reductionRate: '-5'"},
            {"reductionRate", "nan", "--reductionRate:"},
            {"minRto", "soon", "--minRto: cannot parse time 'soon'"},
            {"crossFlows", "0", "--crossFlows: 0 out of range"},
            {"crossRate", "fast", "--crossRate: cannot parse rate 'fast'"},
            {"incumbentWeight", "2", "--incumbentWeight: '2' (expected a weight from 0 to 1)"},
            {"cohortWindow", "abc", "--cohortWindow: cannot parse time 'abc'"},
            {"cohortWindow", "-1ms", "--cohortWindow: negative time '-1ms'"},
            {"bucket", digits400.c_str(), "--bucket: size '222"},
            {"startJitter", "-5us", "--startJitter: negative time '-5us'"},
            {"fusionTimeout", "-1s", "--fusionTimeout: negative time '-1s'"},
            {"windowModel", "maybe", "--windowModel: cannot parse 'maybe'"},
            {"rhoT", "1.5", "--rhoT: '1.5' (expected a utilisation from 0 to 1)"},
            {"records", "maybe", "--records: cannot parse 'maybe'"},
            {"socketBuffer", "-1", "--socketBuffer: cannot parse '-1'"},
            {"steps", "0", "--steps: 0 out of range"},
            {"seed", "0", "--seed: 0 out of range"},
            {"nonsense", "1", "--nonsense: unknown option"},
        };
        for (const auto& c : cases)
        {
            RunRequest r = ScenarioOptions::MakeDefault();
            std::string message;
            try
            {
                ScenarioOptions::Set(r, c.name, c.value);
            }
            catch (const TrainingInputError& e)
            {
                message = e.what();
            }
            NS_TEST_EXPECT_MSG_NE(message.find(c.expected),
                                  std::string::npos,
                                  "--" << c.name << "=" << c.value << ": got '" << message << "'");
        }
    }
};

/// \return the message of the TrainingInputError that parsing args throws ("" if none)
std::string
ParseError(const ProgramOptions& cmd, std::vector<std::string> args)
{
    args.insert(args.begin(), "program");
    std::vector<char*> argv;
    for (auto& a : args)
    {
        argv.push_back(a.data());
    }
    try
    {
        cmd.Parse(static_cast<int>(argv.size()), argv.data());
    }
    catch (const TrainingInputError& e)
    {
        return e.what();
    }
    return "";
}

/**
 * \ingroup distributed-training
 * The benchmarks' and examples' command line (ProgramOptions) binds typed variables with the
 * same strict parsers: good values land in the variables, a bare flag is true, and overflow,
 * garbage, unknown words, negative times, repeats and stray arguments are refused by name; an
 * unknown option name is refused with the closest known one (not by ns3::CommandLine, which
 * would print the whole --help and exit).
 *
 * Program options: typed values parse strictly; overflow, garbage, repeats, stray arguments and
 * unknown names are refused naming the option.
 */
class ProgramOptionsTestCase : public TestCase
{
  public:
    ProgramOptionsTestCase()
        : TestCase("program options parse strictly and refuse bad input naming the option")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t workers = 4;
        double scale = 1;
        bool flag = false;
        std::string mode = "sync";
        DataRate rate("1Gbps");
        Time delay = MicroSeconds(10);
        ProgramOptions cmd("test");
        cmd.Add("workers", "K", workers, 1, 1000);
        cmd.Add("scale", "factor", scale, 0.5, 2);
        cmd.Add("flag", "a flag", flag);
        cmd.Add("mode", "mode", mode, {"sync", "async"});
        cmd.Add("rate", "rate", rate);
        cmd.Add("delay", "delay", delay);

        NS_TEST_EXPECT_MSG_EQ(ParseError(cmd,
                                         {"--workers=12",
                                          "--scale=1.5",
                                          "--flag",
                                          "--mode=async",
                                          "--rate=25Gbps",
                                          "--delay=2ms"}),
                              "",
                              "valid line refused");
        NS_TEST_EXPECT_MSG_EQ(workers, 12, "--workers not applied");
        NS_TEST_EXPECT_MSG_EQ_TOL(scale, 1.5, 1e-12, "--scale not applied");
        NS_TEST_EXPECT_MSG_EQ(flag, true, "a bare --flag is true");
        NS_TEST_EXPECT_MSG_EQ(mode, "async", "--mode not applied");
        NS_TEST_EXPECT_MSG_EQ(rate.GetBitRate(), 25000000000ULL, "--rate not applied");
        NS_TEST_EXPECT_MSG_EQ(delay, MilliSeconds(2), "--delay not applied");

        const std::pair<std::vector<std::string>, std::string> bad[] = {
            {{"--workers=99999999999999999999"}, "--workers: 99999999999999999999 out of range"},
            {{"--workers=0"}, "--workers: 0 out of range"},
            {{"--workers=4x"}, "--workers: cannot parse '4x'"},
            {{"--scale=3"}, "--scale: '3' (expected a number from 0.5 to 2)"},
            {{"--scale=nan"}, "--scale:"},
            {{"--flag=maybe"}, "--flag: cannot parse 'maybe'"},
            {{"--mode=lazy"}, "--mode: unknown value 'lazy' (expected sync or async)"},
            {{"--rate=10"}, "--rate: cannot parse rate '10'"},
            {{"--rate=10Gbps garbage"}, "--rate: cannot parse rate"},
            {{"--delay=-1ms"}, "--delay: negative time '-1ms'"},
            {{"--delay=1e400s"}, "--delay: time '1e400s' out of range"},
            {{"--workers=2", "--workers=3"}, "--workers: given twice"},
            {{"4"}, "'4': stray argument"},
            {{"--worker=4"}, "unknown option --worker (did you mean --workers?)"},
            {{"--nonsense"}, "unknown option --nonsense (--help lists every option)"},
        };
        for (const auto& [args, expected] : bad)
        {
            const std::string message = ParseError(cmd, args);
            NS_TEST_EXPECT_MSG_NE(message.find(expected),
                                  std::string::npos,
                                  args.front() << ": got '" << message << "'");
        }
    }
};

/**
 * \ingroup distributed-training
 * A benchmark binds the table's entries by name (ScenarioOptions::Bind), with its own defaults
 * and narrowings. System: --backend narrowed to flow or packet with default flow, --steps
 * narrowed to MeasuredSteps() (2 to 10,000,000) with default 100, --repeat (scope program,
 * default 3). Expectations: the defaults land in the request before parsing (flow, 100, 3) and
 * the linux backend's --repeat stays unset; --backend=packet --steps=2 --repeat=7 land;
 * --backend=analytic and --steps=1, which the driver takes, are refused naming what this
 * program takes; --steps=x is refused the same way, and a value the entry itself refuses
 * (--backend=nope) too, before the entry's parser.
 *
 * Bind: defaults, narrowed values and the programs' --repeat.
 */
class BindNarrowingTestCase : public TestCase
{
  public:
    BindNarrowingTestCase()
        : TestCase("bound entries take program defaults and refuse values outside a narrowing")
    {
    }

  private:
    void DoRun() override
    {
        using N = ScenarioOptions::Narrowing;
        RunRequest r;
        ProgramOptions cmd("test");
        ScenarioOptions::Bind(cmd,
                              r,
                              OptionScope::PROGRAM,
                              {"backend", "steps", "repeat"},
                              {{"backend", "flow"}, {"steps", "100"}, {"repeat", "3"}},
                              {{"backend", N::Words({"flow", "packet"})},
                               {"steps", ScenarioOptions::MeasuredSteps()}});
        NS_TEST_EXPECT_MSG_EQ(r.backend, "flow", "--backend default");
        NS_TEST_EXPECT_MSG_EQ(r.scenario.steps, 100, "--steps default");
        NS_TEST_EXPECT_MSG_EQ(r.program.repeat, 3, "--repeat default");
        NS_TEST_EXPECT_MSG_EQ(r.settings.repeat.has_value(),
                              false,
                              "the linux backend's --repeat is another");
        NS_TEST_EXPECT_MSG_EQ(ParseError(cmd, {"--backend=packet", "--steps=2", "--repeat=7"}),
                              "",
                              "valid line refused");
        NS_TEST_EXPECT_MSG_EQ(r.backend, "packet", "--backend not applied");
        NS_TEST_EXPECT_MSG_EQ(r.scenario.steps, 2, "--steps not applied");
        NS_TEST_EXPECT_MSG_EQ(r.program.repeat, 7, "--repeat not applied");
        const std::pair<std::string, std::string> bad[] = {
            {"--backend=analytic",
             "--backend: 'analytic' is not taken by this program (expected flow or packet)"},
            {"--backend=nope", "--backend: 'nope' is not taken by this program"},
            {"--steps=1",
             "--steps: '1' is not taken by this program (expected a whole number from 2 to "
             "10000000)"},
            {"--steps=x", "--steps: 'x' is not taken by this program"},
            {"--repeat=0", "--repeat: 0 out of range"},
        };
        for (const auto& [arg, expected] : bad)
        {
            const std::string message = ParseError(cmd, {arg});
            NS_TEST_EXPECT_MSG_NE(message.find(expected),
                                  std::string::npos,
                                  arg << ": got '" << message << "'");
        }
    }
};

/**
 * \ingroup distributed-training
 * A JSON object of options gives the same scenario as the options one by one; bad JSON is named.
 *
 * Options: a JSON object of options builds the same scenario as the same options set one by one;
 * unknown keys and non-scalar values are refused.
 */
class JsonOptionsTestCase : public TestCase
{
  public:
    JsonOptionsTestCase()
        : TestCase("JSON options build the same scenario as the options set one by one")
    {
    }

  private:
    void DoRun() override
    {
        RunRequest fromJson = ScenarioOptions::MakeDefault();
        ScenarioOptions::ApplyJson(nlohmann::json::parse(R"({"workers": 6, "arch": "ring",
            "nicRate": "25Gbps", "overlap": true, "reductionRate": 5e9, "bucket": "25MiB",
            "backend": "flow", "sharing": "fcfs"})"),
                                   "test",
                                   fromJson);
        RunRequest byHand = ScenarioOptions::MakeDefault();
        for (auto [n, v] :
             std::vector<std::pair<std::string, std::string>>{{"workers", "6"},
                                                              {"arch", "ring"},
                                                              {"nicRate", "25Gbps"},
                                                              {"overlap", "true"},
                                                              {"reductionRate", "5e9"},
                                                              {"bucket", "25MiB"},
                                                              {"backend", "flow"},
                                                              {"sharing", "fcfs"}})
        {
            ScenarioOptions::Set(byHand, n, v);
        }
        NS_TEST_EXPECT_MSG_EQ(fromJson.scenario.ToJson(),
                              byHand.scenario.ToJson(),
                              "same scenario");
        NS_TEST_EXPECT_MSG_EQ(fromJson.backend, "flow", "backend");
        NS_TEST_EXPECT_MSG_EQ(fromJson.settings.sharing, "fcfs", "sharing");
        NS_TEST_EXPECT_MSG_EQ(fromJson.scenario.bucketBytes, 25u * 1024 * 1024, "25 MiB");

        for (const char* bad : {R"({"wokers": 4})", R"({"workers": [4]})", R"([1, 2])"})
        {
            std::string message;
            try
            {
                RunRequest r = ScenarioOptions::MakeDefault();
                ScenarioOptions::ApplyJson(nlohmann::json::parse(bad), "m.json", r);
            }
            catch (const TrainingInputError& e)
            {
                message = e.what();
            }
            NS_TEST_EXPECT_MSG_EQ(message.rfind("m.json: ", 0), 0, bad << ": got '" << message);
        }
    }
};

/**
 * \ingroup distributed-training
 * The scenario JSON (--scenario=FILE, the runner's job files) is read with JsonInput's limits, and
 * the command-line layer without ns3::CommandLine sorts and checks its arguments.
 *
 * Options: a scenario JSON with a repeated key or 80 nested arrays is refused naming the file;
 * arguments the table does not know are left to CommandLine.
 */
class ScenarioTextTestCase : public TestCase
{
  public:
    ScenarioTextTestCase()
        : TestCase(
            "bad scenario JSON is refused naming the file, unknown arguments left to CommandLine")
    {
    }

  private:
    /// \return the message of ApplyJsonText on text ("" if accepted)
    static std::string Refusal(const std::string& text)
    {
        try
        {
            RunRequest r = ScenarioOptions::MakeDefault();
            ScenarioOptions::ApplyJsonText(text, "s.json", r);
        }
        catch (const TrainingInputError& e)
        {
            return e.what();
        }
        return "";
    }

    void DoRun() override
    {
        const std::string dup = Refusal(R"({"workers": 4, "workers": 5})");
        NS_TEST_EXPECT_MSG_NE(dup.find("s.json"), std::string::npos, dup);
        NS_TEST_EXPECT_MSG_NE(dup.find("duplicate key \"workers\""), std::string::npos, dup);
        const std::string deep
            = Refusal("{\"workers\": " + std::string(80, '[') + "4" + std::string(80, ']') + "}");
        NS_TEST_EXPECT_MSG_NE(deep.find("nesting deeper than 64"), std::string::npos, deep);
        NS_TEST_EXPECT_MSG_EQ(Refusal(R"({"workers": 4, "mode": "async"})"), "", "accepted");

        // Found by fuzzing (dt-fuzz-options): a value that is not UTF-8 was accepted and ended
        // the program when the result JSON was written.
        NS_TEST_EXPECT_MSG_EQ(tests::ThrowsInputError(
                                  []
                                  {
                                      RunRequest r = ScenarioOptions::MakeDefault();
                                      ScenarioOptions::Set(r, "queueDisc", "ns3\xfe::RedQueueDisc");
                                  },
                                  {"--queueDisc: value is not UTF-8 text"}),
                              true,
                              "not UTF-8");
        NS_TEST_EXPECT_MSG_EQ(tests::ThrowsInputError(
                                  []
                                  {
                                      RunRequest r = ScenarioOptions::MakeDefault();
                                      ScenarioOptions::Set(r, "output", "a\tb.json");
                                  },
                                  {"--output: value is not UTF-8 text"}),
                              true,
                              "control character");

        std::vector<std::string> others;
        const RunRequest r = ScenarioOptions::FromArguments(
            {"--workers=3", "--help", "--ns3::TcpSocket::SegmentSize=9000", "--foo=1"},
            others);
        NS_TEST_EXPECT_MSG_EQ(r.scenario.workers, 3u, "--workers applied");
        NS_TEST_EXPECT_MSG_EQ(others.size(), 3u, "--help, ns-3's own and --foo left over");
        NS_TEST_EXPECT_MSG_EQ(tests::ThrowsInputError(
                                  []
                                  {
                                      std::vector<std::string> o;
                                      ScenarioOptions::FromArguments({"--workers=3", "4"}, o);
                                  },
                                  {"'4': stray argument"}),
                              true,
                              "stray");
    }
};

/**
 * \ingroup distributed-training
 * Every option has help text, a unique name, and a default that its own parser accepts.
 *
 * Options: names are unique, every option has help, every default parses.
 */
class OptionTableTestCase : public TestCase
{
  public:
    OptionTableTestCase()
        : TestCase("option names are unique, each has help, each default parses")
    {
    }

  private:
    void DoRun() override
    {
        // One set of names per program: the driver's scopes, the study's, the runner's, the
        // benchmarks' and examples' shared ones.
        std::map<std::string, std::set<std::string>> names;
        for (const auto& o : ScenarioOptions::GetOptions())
        {
            const std::string program = ScenarioOptions::IsDriverScope(o.scope)
                                            ? "driver"
                                            : ScenarioOptions::GetScopeName(o.scope);
            NS_TEST_EXPECT_MSG_EQ(names[program].insert(o.name).second, true, "unique: " << o.name);
            NS_TEST_EXPECT_MSG_EQ(o.help.empty(), false, "help: " << o.name);
            RunRequest r;
            if (!o.defaultValue.empty())
            {
                o.Apply(r, o.defaultValue);
            }
        }
        NS_TEST_EXPECT_MSG_GT(names["driver"].size(), 40u, "the driver's options");
    }
};

/**
 * \ingroup distributed-training
 * Options a backend does not model are named for it, so that its result says they had no
 * effect: --minRto is packet and linux only; --queue reaches the flow backend only through its
 * window model on a parameter server; --leaves does nothing on the star; defaults are never named.
 *
 * Options: those a backend ignores are named for it.
 */
class IgnoredOptionsTestCase : public TestCase
{
  public:
    IgnoredOptionsTestCase()
        : TestCase("options a backend ignores are named for it")
    {
    }

  private:
    /// \return GetIgnored joined by spaces, for the request given by options
    static std::string Ignored(const std::map<std::string, std::string>& options,
                               const std::string& backend)
    {
        RunRequest r = ScenarioOptions::MakeDefault();
        for (const auto& [name, value] : options)
        {
            ScenarioOptions::Set(r, name, value);
        }
        std::string text;
        for (const auto& name : ScenarioOptions::GetIgnored(r, backend))
        {
            text += (text.empty() ? "" : " ") + name;
        }
        return text;
    }

    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(Ignored({}, "flow"), "", "defaults are not the user's");
        NS_TEST_EXPECT_MSG_EQ(Ignored({{"workers", "8"}}, "analytic"), "", "every backend");
        NS_TEST_EXPECT_MSG_EQ(Ignored({{"minRto", "1ms"}}, "flow"), "--minRto", "");
        NS_TEST_EXPECT_MSG_EQ(Ignored({{"minRto", "1ms"}}, "packet"), "", "");
        NS_TEST_EXPECT_MSG_EQ(Ignored({{"queue", "10p"}, {"linkDelay", "1us"}}, "flow"),
                              "--linkDelay --queue",
                              "no window model");
        NS_TEST_EXPECT_MSG_EQ(Ignored({{"queue", "10p"}, {"windowModel", "true"}}, "flow"),
                              "",
                              "the window model takes the buffers");
        NS_TEST_EXPECT_MSG_EQ(Ignored({{"queue", "10p"}, {"linkDelay", "1us"}}, "analytic"),
                              "--queue",
                              "");
        NS_TEST_EXPECT_MSG_EQ(Ignored({{"leaves", "3"}}, "packet"), "--leaves", "the star");
        NS_TEST_EXPECT_MSG_EQ(Ignored({{"leaves", "3"}, {"topology", "leafspine"}}, "packet"),
                              "",
                              "");
        NS_TEST_EXPECT_MSG_EQ(Ignored({{"dilation", "10"}, {"repeat", "3"}}, "analytic"),
                              "--dilation",
                              "every backend repeats");
    }
};

/**
 * \ingroup distributed-training
 * "Did you mean": the closest option by optimal-string-alignment distance, case ignored,
 * within max(2, length / 3) edits. Worked by hand on the driver's table:
 * - worker -> workers (one insertion), nicrate -> nicRate (0 after lower case),
 *   wrokers -> workers (one swap of neighbours), nicRte -> nicRate (one insertion);
 * - sever (5 letters, limit 2) -> servers (two insertions);
 * - xyz (limit 2) finds nothing: every option is more than 2 edits away;
 * - the first of equals wins: "ab" is one edit from both "a" and "b" and gets "a".
 *
 * Options: a misspelled name gets the closest option, a far one gets none.
 */
class DidYouMeanTestCase : public TestCase
{
  public:
    DidYouMeanTestCase()
        : TestCase("a misspelled option gets the closest name, a far one none")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<std::string> names;
        for (const auto& o : ScenarioOptions::GetOptions())
        {
            names.push_back(o.name);
        }
        const std::pair<std::string, std::string> cases[] = {
            {"worker", "workers"},
            {"nicrate", "nicRate"},
            {"wrokers", "workers"},
            {"nicRte", "nicRate"},
            {"sever", "servers"},
            {"xyz", ""},
            {"foo", ""}, // two edits from "solo": too far for three letters
        };
        for (const auto& [given, expected] : cases)
        {
            NS_TEST_EXPECT_MSG_EQ(ClosestName(given, names), expected, given);
        }
        NS_TEST_EXPECT_MSG_EQ(ClosestName("ab", {"a", "b"}), "a", "first of equals");
        std::string message;
        try
        {
            RunRequest r = ScenarioOptions::MakeDefault();
            ScenarioOptions::Set(r, "worker", "4");
        }
        catch (const TrainingInputError& e)
        {
            message = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(message,
                              "--worker: unknown option (did you mean --workers?)",
                              "a scenario key");
    }
};

/**
 * \ingroup distributed-training
 * The options layer's suite.
 */
/**
 * \ingroup distributed-training
 * Backend options are values handed to the backend object that runs, not global defaults:
 * --sharing=fcfs and --cohortWindow=50us reach the flow backend created with the request's
 * settings (Sharing reads "fcfs"), while a flow backend created without them still has the
 * attribute's default "ps". The table's job-scope entries are what a --jobs entry may set:
 * --workers is one of them, --nicRate (the cluster's) is not.
 */
class BackendSettingsTestCase : public TestCase
{
  public:
    BackendSettingsTestCase()
        : TestCase("backend settings reach the backend that runs, not a global default")
    {
    }

  private:
    void DoRun() override
    {
        RunRequest r = ScenarioOptions::MakeDefault();
        ScenarioOptions::Set(r, "sharing", "fcfs");
        ScenarioOptions::Set(r, "cohortWindow", "50us");
        Ptr<TrainingBackend> configured
            = TrainingBackendRegistry::Create("flow", r.settings, r.MakeRunContext(nullptr));
        StringValue sharing;
        configured->GetAttribute("Sharing", sharing);
        NS_TEST_EXPECT_MSG_EQ(sharing.Get(), "fcfs", "the configured backend");
        TrainingBackendRegistry::Create("flow")->GetAttribute("Sharing", sharing);
        NS_TEST_EXPECT_MSG_EQ(sharing.Get(), "ps", "a backend created without the settings");
        NS_TEST_EXPECT_MSG_EQ((r.MakeRunContext(nullptr).progress != nullptr),
                              true,
                              "--progress (default true) reports to stderr");

        const auto job = ScenarioOptions::GetNames(OptionScope::JOB);
        NS_TEST_EXPECT_MSG_EQ(std::count(job.begin(), job.end(), "workers"), 1, "job scope");
        NS_TEST_EXPECT_MSG_EQ(std::count(job.begin(), job.end(), "nicRate"), 0, "cluster's");
        NS_TEST_EXPECT_MSG_EQ((ScenarioOptions::Find("nicRate")->scope == OptionScope::SCENARIO),
                              true,
                              "nicRate is a scenario option");
        NS_TEST_EXPECT_MSG_EQ(ScenarioOptions::GetScope("rhoT"), "analytic", "modelled by");
    }
};

class ScenarioOptionsTestSuite : public TestSuite
{
  public:
    ScenarioOptionsTestSuite()
        : TestSuite("distributed-training-options", Type::UNIT)
    {
        AddTestCase(new BadOptionValuesTestCase, DT_TEST_QUICK);
        AddTestCase(new ProgramOptionsTestCase, DT_TEST_QUICK);
        AddTestCase(new BindNarrowingTestCase, DT_TEST_QUICK);
        AddTestCase(new JsonOptionsTestCase, DT_TEST_QUICK);
        AddTestCase(new OptionTableTestCase, DT_TEST_QUICK);
        AddTestCase(new IgnoredOptionsTestCase, DT_TEST_QUICK);
        AddTestCase(new ScenarioTextTestCase, DT_TEST_QUICK);
        AddTestCase(new DidYouMeanTestCase, DT_TEST_QUICK);
        AddTestCase(new BackendSettingsTestCase, DT_TEST_QUICK);
    }
};

ScenarioOptionsTestSuite g_scenarioOptionsTestSuite; //!< registers the suite

} // namespace

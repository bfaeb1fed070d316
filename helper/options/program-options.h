/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PROGRAM_OPTIONS_H
#define PROGRAM_OPTIONS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The strict command line of every program of the module (driver, validation runner,
 * sharing study, benchmarks, examples).
 *
 * Options are --name=value (a bare --name means true). Each option is bound to a variable with
 * a typed Add overload that parses with the module's strict parsers (UnitParser): numbers are
 * range-checked, rates and times need their unit, texts with trailing garbage are refused. A stray
 * argument, a repeated option or a bad value ends in a TrainingInputError naming the option and
 * what was expected, and so does an unknown name, with the closest known one ("did you mean").
 * ns3::CommandLine still prints --help (built from the same table) and handles ns-3's own
 * --PrintAttributes, --RngRun=... (its global values) and --ns3::Class::Attribute=value.
 *
 * Values are parsed in command-line order (presets added with `first` before the others) once
 * the whole line has been checked for stray and repeated options and --help has been handled.
 * Options of the module's option table are added with ScenarioOptions::Bind.
 */
class ProgramOptions
{
  public:
    /// \param usage what the program does, for --help
    explicit ProgramOptions(std::string usage);

    /**
     * \brief Add an option with its own parser.
     * \param name the option (without "--")
     * \param help one line for --help
     * \param defaultText the default shown by --help
     * \param apply parses the text and stores it (throws TrainingInputError naming --name)
     * \param first apply it before the options without this flag (a preset that sets others,
     *        which then override it whatever their order on the line)
     */
    void Add(const std::string& name,
             const std::string& help,
             const std::string& defaultText,
             std::function<void(const std::string&)> apply,
             bool first = false);

    /// A whole number in [min, max].
    void Add(const std::string& name,
             const std::string& help,
             uint32_t& value,
             uint32_t min,
             uint32_t max);
    /// A whole number in [min, max].
    void Add(const std::string& name,
             const std::string& help,
             uint64_t& value,
             uint64_t min,
             uint64_t max);
    /// A finite real number in [min, max].
    void Add(const std::string& name,
             const std::string& help,
             double& value,
             double min,
             double max);
    /// true/false (1/0, on/off, yes/no); a bare --name is true.
    void Add(const std::string& name, const std::string& help, bool& value);
    /// Any text (a file name, a label).
    void Add(const std::string& name, const std::string& help, std::string& value);
    /// One of the given words.
    void Add(const std::string& name,
             const std::string& help,
             std::string& value,
             const std::vector<std::string>& choices);
    /// A rate with its unit (10Gbps, 200Mbps).
    void Add(const std::string& name, const std::string& help, DataRate& value);
    /// A positive time with its unit (10us, 2ms).
    void Add(const std::string& name, const std::string& help, Time& value);

    /**
     * \brief Run a program's body with the module's error convention: a TrainingInputError is
     * printed as "error: ..." on stderr and gives exit status 1.
     * \param body the program (parsing its command line included)
     * \return the exit status (0 when body returns)
     */
    static int Run(const std::function<void()>& body);

    /**
     * \brief Parse the program's arguments into the bound variables.
     * \param argc argument count
     * \param argv arguments (argv[0] is the program)
     * \throws TrainingInputError for a stray argument, a repeated option or a bad value
     */
    void Parse(int argc, char* argv[]) const;

    /**
     * \brief Parse() without ns3::CommandLine: check the arguments and apply the table's own.
     * \param args the arguments (without the program name)
     * \return the arguments the table does not know (--help, ns-3's own --ns3::...= and
     * --Print..., unknown names), which Parse() hands to ns3::CommandLine
     * \throws TrainingInputError for a stray argument, a repeated option or a bad value
     */
    std::vector<std::string> ParseKnown(const std::vector<std::string>& args) const;

    /**
     * \param name an unknown option name (without "--")
     * \param known the names the program knows
     * \return "did you mean --known?" (ClosestName), or "--help lists every option" when no
     *         name is close
     */
    static std::string Suggestion(const std::string& name, const std::vector<std::string>& known);

  private:
    /// One option.
    struct Option
    {
        std::string name;                              //!< without "--"
        std::string help;                              //!< for --help
        std::string defaultText;                       //!< for --help
        std::function<void(const std::string&)> apply; //!< parse and store
        bool first;                                    //!< applied before the others
    };

    /// Options given on a line, in order, with their value texts.
    using Given = std::vector<std::pair<const Option*, std::string>>;

    /// \return the option of that name, or nullptr
    const Option* Find(const std::string& name) const;

    /**
     * \brief Sort a line: the table's options (stray arguments and repeats refused) and others.
     * \param args the arguments (without the program name)
     * \param others receives the arguments the table does not know
     * \return the table's options in line order
     */
    Given Split(const std::vector<std::string>& args, std::vector<std::string>& others) const;

    /// Apply the options given: those added with first before the others, else in line order.
    /// \param given the options and their texts
    static void Apply(Given given);

    std::string m_usage;           //!< for --help
    std::vector<Option> m_options; //!< in --help order
};

} // namespace ns3

#endif /* PROGRAM_OPTIONS_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef VARY_OPTIONS_H
#define VARY_OPTIONS_H

#include "scenario-options.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The driver's --vary: several values of any scenario, job or backend option of the table,
 * crossed with each other and with the --workers sweep into the points of one study.
 *
 * Written `NAME=V1,V2;NAME=V1,V2` (a shell needs it quoted) or, for values that hold `,` or `;`,
 * as a JSON object of lists `{"NAME": ["V1", "V2"]}` (in a --scenario file either form: the text,
 * or the object itself). Each point's request is rebuilt from the defaults and the options the
 * user set, in their order, with the point's values in place of the varied options' own: presets
 * (--hostModel, --preset) first, so that single options override them as on a command line. So
 * every value is parsed and checked by its option's own entry, in the context of the others,
 * before anything runs.
 */
class VaryOptions
{
  public:
    /// One point of a study (without its K): a value of each varied option and its request.
    struct Point
    {
        std::vector<std::string> values; //!< the value of each varied option, in --vary order
        RunRequest request;              //!< the request with those values in place
    };

    /**
     * \param text the --vary text: plain or JSON
     * \return the varied options, in the order given
     * \throws TrainingInputError naming --vary: bad syntax, an unknown option (with "did you
     *         mean"), one that cannot vary (output options, --workers, --vary itself), an option
     *         or a value given twice, an empty value
     */
    static std::vector<VariedOption> Parse(const std::string& text);

    /**
     * \param base the request of the study: its --vary, its --maxPoints and the options set
     * \return every combination of the varied values (the first option outermost), each with its
     *         request (no --vary of its own)
     * \throws TrainingInputError naming --maxPoints when the points (combinations times the
     *         --workers values) are more, or the point and the option's own message for a value
     *         its entry refuses
     */
    static std::vector<Point> MakePoints(const RunRequest& base);

    /**
     * \param vary the varied options
     * \param values a value of each
     * \return "arch=ps nicRate=10Gbps", the point for messages and progress
     */
    static std::string Describe(const std::vector<VariedOption>& vary,
                                const std::vector<std::string>& values);

  private:
    /**
     * \param name an option name, without "--"
     * \throws TrainingInputError unless it is a driver option that may vary
     */
    static void CheckVariable(const std::string& name);

    /**
     * \param vary the varied options so far
     * \param name the option
     * \param values its values
     * \throws TrainingInputError as Parse() does, or append it to vary
     */
    static void Add(std::vector<VariedOption>& vary,
                    const std::string& name,
                    const std::vector<std::string>& values);

    /// \param text a JSON object of lists \return its varied options (Parse)
    static std::vector<VariedOption> ParseJson(const std::string& text);

    /**
     * \param base the study's request (its options set, in order)
     * \param values a value of each varied option
     * \return the request of that point
     */
    static RunRequest MakeRequest(const RunRequest& base, const std::vector<std::string>& values);
};

} // namespace ns3

#endif /* VARY_OPTIONS_H */

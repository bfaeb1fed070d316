/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OPTION_TABLE_H
#define OPTION_TABLE_H

#include "scenario-options.h"

#include "ns3/training-input-error.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup distributed-training
 * The entries of the one option table (ScenarioOptions::GetOptions), written in one file per
 * scope: option-table-scenario.cc (the cluster and the job), option-table-backend.cc (backends and
 * output), option-table-programs.cc (the sharing study's, the validation runner's and the
 * benchmarks' and examples' shared ones, with the rule of which options are entries).
 * option-table.cc composes them in --help order (ScenarioOptions::GetOptions); nothing else
 * includes this header.
 */

namespace ns3
{
namespace option_table
{

/// Largest K or P the driver accepts.
constexpr uint64_t MAX_HOSTS = ScenarioOptions::MAX_HOSTS;
/// Largest --steps and --warmup the driver accepts.
constexpr uint64_t MAX_STEPS = ScenarioOptions::MAX_STEPS;

/// \return a TrainingInputError "--option: what (expected ...)"
inline TrainingInputError
Bad(const std::string& option, const std::string& what, const std::string& expected)
{
    return ScenarioOptions::Refusal(option, what, expected);
}

/// \return an option that parses with f(request, "--name", text)
ScenarioOptions::Option Make(
    const std::string& name,
    OptionScope scope,
    const std::string& models,
    const std::string& def,
    const std::string& help,
    std::function<void(RunRequest&, const std::string&, const std::string&)> f);

/// Append the cluster's and the job's options (architecture to collective), in --help order.
void AddScenarioOptions(std::vector<ScenarioOptions::Option>& o);
/// Append the backend choice and the backends' own options.
void AddBackendOptions(std::vector<ScenarioOptions::Option>& o);
/// Append the input and output options.
void AddOutputOptions(std::vector<ScenarioOptions::Option>& o);
/// Append the sharing study's own options (scope STUDY).
void AddStudyOptions(std::vector<ScenarioOptions::Option>& o);
/// Append the options several benchmarks and examples share (scope PROGRAM).
void AddProgramOptions(std::vector<ScenarioOptions::Option>& o);
/// Append the validation runner's own options (scope RUNNER).
void AddRunnerOptions(std::vector<ScenarioOptions::Option>& o);

} // namespace option_table
} // namespace ns3

#endif /* OPTION_TABLE_H */

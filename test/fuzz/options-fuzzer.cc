/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target for the option layer on a command line (ScenarioOptions::FromArguments, the
 * part of ParseArguments that is ours; ns3::CommandLine, which ends the program on --help or an
 * unknown option by design, is left out). The input is split at line breaks into arguments. The
 * contract: any argument list either gives a request whose scenario validates (or is refused by
 * Validate) with a TrainingInputError, or is refused with one; nothing else may escape (no other
 * exception, crash, sanitizer report, hang). An accepted scenario's ToJson() must be valid JSON.
 * See "Sanitizers and fuzzing" in doc/reference/testing.rst.
 */

#include "fuzz-common.h"

#include "ns3/scenario-options.h"
#include "ns3/training-input-error.h"

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

extern "C" int
LLVMFuzzerInitialize(int* /* argc */, char*** /* argv */)
{
    ns3::fuzz::StopTimeMarking();
    return 0;
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> args;
    std::size_t begin = 0;
    while (begin <= text.size() && args.size() < 64)
    {
        const std::size_t end = std::min(text.find('\n', begin), text.size());
        args.push_back(text.substr(begin, end - begin));
        begin = end + 1;
    }
    try
    {
        std::vector<std::string> others;
        const ns3::RunRequest request = ns3::ScenarioOptions::FromArguments(args, others);
        request.scenario.Validate(ns3::fuzz::SmallProfile());
        (void) nlohmann::json::parse(request.scenario.ToJson());
    }
    catch (const ns3::TrainingInputError&)
    {
        return 0; // refused with a message: the expected outcome for most inputs
    }
    return 0;
}

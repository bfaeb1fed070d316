/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target for the scenario JSON (--scenario=FILE and the validation runner's job files:
 * ScenarioOptions::ApplyJsonText, a JSON object of driver options, then
 * TrainingScenario::Validate against a small profile). The contract: any byte string either
 * gives a valid scenario or is refused with a TrainingInputError; nothing else may escape (no
 * other exception, crash, sanitizer report, hang), and an accepted scenario's ToJson() is valid
 * JSON. See "Sanitizers and fuzzing" in doc/reference/testing.rst.
 */

#include "fuzz-common.h"

#include "ns3/scenario-options.h"
#include "ns3/training-input-error.h"

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

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
    try
    {
        ns3::RunRequest request = ns3::ScenarioOptions::MakeDefault();
        ns3::ScenarioOptions::ApplyJsonText(text, "fuzz.json", request);
        request.scenario.Validate(ns3::fuzz::SmallProfile());
        (void) nlohmann::json::parse(request.scenario.ToJson());
    }
    catch (const ns3::TrainingInputError&)
    {
        return 0; // refused with a message: the expected outcome for most inputs
    }
    return 0;
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target for the profile loader (TrainingProfile::LoadFromString). The contract under
 * test: any byte string either loads or is refused with a TrainingInputError; nothing else may
 * escape (no other exception, crash, sanitizer report, hang), and a loaded profile survives its
 * own round trip (ToJson() loads back into an equal profile). Build and run: doc/fuzzing in
 * doc/reference/testing.rst ("Sanitizers and fuzzing").
 */

#include "fuzz-common.h"

#include "ns3/training-input-error.h"
#include "ns3/training-profile.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
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
    ns3::TrainingProfile profile;
    try
    {
        profile = ns3::TrainingProfile::LoadFromString(text, "fuzz.json");
    }
    catch (const ns3::TrainingInputError&)
    {
        return 0; // refused with a message: the expected outcome for most inputs
    }
    const ns3::TrainingProfile again
        = ns3::TrainingProfile::LoadFromString(profile.ToJson(), "round-trip.json");
    if (!(again == profile))
    {
        std::fprintf(stderr, "profile changed in its ToJson() round trip\n");
        __builtin_trap();
    }
    return 0;
}

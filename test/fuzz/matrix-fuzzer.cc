/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target for the validation-matrix parser (ValidationMatrix::Parse). The contract
 * under test: any byte string is either a matrix or refused with a TrainingInputError; nothing
 * else may escape (no other exception, crash, sanitizer report, hang). An accepted matrix is also
 * expanded into its jobs, which must not fail either. See "Sanitizers and fuzzing" in
 * doc/reference/testing.rst.
 */

#include "fuzz-common.h"

#include "ns3/training-input-error.h"
#include "ns3/validation-matrix.h"

#include <cstddef>
#include <cstdint>
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
        const ns3::ValidationMatrix m = ns3::ValidationMatrix::Parse(text, "fuzz.json");
        const auto jobs = m.ExpandFirstPhase("/root-of-fuzz");
        if (m.GetCalibration())
        {
            m.ExpandSecondPhase("/root-of-fuzz", m.GetCalibration()->values.front());
        }
        (void) jobs;
    }
    catch (const ns3::TrainingInputError&)
    {
        return 0;
    }
    return 0;
}

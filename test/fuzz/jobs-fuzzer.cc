/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target for the jobs file (--jobs=FILE or inline text: TrainingJobSet::FromText, a
 * JSON array of job objects of per-job driver options, names and start times, placed on the
 * base request's fabric). The contract: any byte string is either a placed, valid job set or
 * refused with a TrainingInputError; nothing else may escape (no other exception, crash,
 * sanitizer report, hang). A small accepted set is also run by the flow backend, and every
 * job's throughput must be finite and positive. See "Sanitizers and fuzzing" in
 * doc/reference/testing.rst.
 */

#include "fuzz-common.h"

#include "ns3/scenario-options.h"
#include "ns3/training-backend.h"
#include "ns3/training-input-error.h"
#include "ns3/training-job-set.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace
{

/// \return the base request: the small two-layer profile, so that a parse costs little
const ns3::RunRequest&
Base()
{
    static const ns3::RunRequest base = []
    {
        ns3::RunRequest r = ns3::ScenarioOptions::MakeDefault();
        ns3::ScenarioOptions::Set(r,
                                  "profile",
                                  std::string(DT_SOURCE_DIR) + "/test/data/two-layers-12mb.json");
        return r;
    }();
    return base;
}

/// \return whether the set is small enough to run inside one fuzz iteration
bool
IsSmall(const ns3::TrainingJobSet& set)
{
    uint64_t work = 0;
    for (const auto& job : set.GetJobs())
    {
        work += uint64_t{job.GetNRoles()} * job.scenario.steps;
    }
    return work <= 64;
}

} // namespace

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
        const ns3::TrainingJobSet set = ns3::TrainingJobSet::FromText(text, "fuzz.json", Base());
        if (!IsSmall(set))
        {
            return 0;
        }
        for (const auto& r : ns3::TrainingBackendRegistry::Create("flow")->RunJobs(set))
        {
            for (const auto& job : r.jobs)
            {
                if (!std::isfinite(job.throughput) || job.throughput <= 0)
                {
                    std::abort(); // a finished run must have a finite, positive throughput
                }
            }
        }
    }
    catch (const ns3::TrainingInputError&)
    {
        return 0; // refused with a message: the expected outcome for most inputs
    }
    return 0;
}

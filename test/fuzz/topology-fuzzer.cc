/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target for topology files (--topology=FILE.json: FabricTopology::FromJsonText). The
 * contract: any byte string is either a fabric or refused with a TrainingInputError; nothing else
 * may escape (no other exception, crash, sanitizer report, hang). On an accepted fabric every
 * host reaches the first host by a path of existing links, and placing roles on it either works
 * or is refused likewise. See "Sanitizers and fuzzing" in doc/reference/testing.rst.
 */

#include "fuzz-common.h"

#include "ns3/fabric-topology.h"
#include "ns3/training-input-error.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
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
        const ns3::FabricTopology t = ns3::FabricTopology::FromJsonText(text, "fuzz.json");
        const uint32_t hosts = t.GetNHosts();
        for (uint32_t h = 1; h < hosts && h < 64; ++h)
        {
            const ns3::FabricTopology::FlowKey key{ns3::FabricTopology::GetHostAddress(h),
                                                   ns3::FabricTopology::GetHostAddress(0),
                                                   49153,
                                                   5000,
                                                   6};
            for (uint32_t l : t.GetPath(h, 0, key))
            {
                if (l >= t.GetNLinks())
                {
                    std::abort(); // a path through a link that does not exist
                }
            }
        }
        (void) t.Place("--placement", "spread", hosts < 4 ? hosts : 4, 1);
    }
    catch (const ns3::TrainingInputError&)
    {
        return 0;
    }
    return 0;
}

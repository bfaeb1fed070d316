/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DT_FUZZ_COMMON_H
#define DT_FUZZ_COMMON_H

#include "ns3/simulator.h"
#include "ns3/training-profile.h"

namespace ns3
{
namespace fuzz
{

/// \return a four-layer profile that the fuzzed scenarios are validated against (loaded once)
inline const TrainingProfile&
SmallProfile()
{
    static const TrainingProfile profile = TrainingProfile::LoadFromString(R"({
      "format": "distributed-training-profile", "version": 1, "model": "fuzz-four-layers",
      "batch_size": 32,
      "provenance": {"device": "none", "framework": "none", "method": "synthetic",
                     "derived": true},
      "layers": [
        {"name": "l0", "param_bytes": 1000000, "forward_us": 500, "backward_us": 900,
         "update_us": 50},
        {"name": "l1", "param_bytes": 4000000, "forward_us": 800, "backward_us": 1500,
         "update_us": 80},
        {"name": "l2", "param_bytes": 250000, "forward_us": 300, "backward_us": 400,
         "update_us": 20},
        {"name": "l3", "param_bytes": 2000000, "forward_us": 100, "backward_us": 200,
         "update_us": 40}]})",
                                                                           "fuzz-profile.json");
    return profile;
}

/**
 * Stops ns-3 from recording every Time object. Until the first Simulator::Run, each Time is
 * inserted into (and erased from) a global set under a mutex, so that a later
 * Time::SetResolution can convert it; the parsers build many Time values and never run the
 * simulator, so that bookkeeping took about a tenth of each execution. An empty run clears it.
 */
inline void
StopTimeMarking()
{
    Simulator::Run();
    Simulator::Destroy();
}

} // namespace fuzz
} // namespace ns3

#endif /* DT_FUZZ_COMMON_H */

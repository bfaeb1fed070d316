/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Seeded random valid scenarios for the invariant and metamorphic suites (not part of the
 * module's API): small random profiles and driver options built through ScenarioOptions, so
 * that a failing case prints the command-line options that reproduce it.
 */

#ifndef RANDOM_SCENARIOS_H
#define RANDOM_SCENARIOS_H

#include "ns3/scenario-options.h"
#include "ns3/split-mix64.h"
#include "ns3/training-profile.h"
#include "ns3/training-scenario.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{
namespace tests
{

/// A seeded stream of random numbers (SplitMix64).
class Random
{
  public:
    /// \param seed the seed
    explicit Random(uint64_t seed)
        : m_state(seed)
    {
    }

    /// \param n the number of choices \return a whole number in [0, n)
    uint64_t Below(uint64_t n)
    {
        m_state = SplitMix64(m_state);
        return m_state % n;
    }

    /// \param a low \param b high \return a real number in [a, b)
    double Uniform(double a, double b)
    {
        return a
               + (b - a) * static_cast<double>(Below(1ULL << 53)) / static_cast<double>(1ULL << 53);
    }

    /// \param choices the choices \return one of them
    template<typename T>
    const T& Pick(const std::vector<T>& choices)
    {
        return choices[Below(choices.size())];
    }

  private:
    uint64_t m_state; //!< the generator's state
};

/// What a backend gets for one random case.
struct Case
{
    TrainingProfile profile;                    //!< random small profile
    std::map<std::string, std::string> options; //!< driver options, as on the command line
    TrainingScenario scenario;                  //!< the scenario they give
    std::string text;                           //!< the options as one line, for messages
};

/// Random per-layer sizes (1 kB to 4 MB) and times (0.1 to 3 ms): 1 to 6 layers.
inline TrainingProfile
RandomProfile(Random& rnd)
{
    const uint64_t layers = 1 + rnd.Below(6);
    TrainingProfile p;
    p.SetModel("random");
    p.SetBatchSize(static_cast<uint32_t>(1 + rnd.Below(64)));
    p.SetProvenance(R"({"device":"none","framework":"none","method":"test","derived":true})");
    for (uint64_t l = 0; l < layers; ++l)
    {
        const uint64_t bytes = 1000 + rnd.Below(4000000);
        p.AddLayer({"l" + std::to_string(l),
                    "",
                    bytes,
                    rnd.Uniform(100, 3000),
                    rnd.Uniform(100, 3000),
                    rnd.Uniform(0, 300)});
    }
    return p;
}

/**
 * \brief Build a case's scenario and text again from its options (after changing one).
 * \param c the case
 */
inline void
Rebuild(Case& c)
{
    RunRequest request = ScenarioOptions::MakeDefault();
    std::ostringstream text;
    for (const auto& [name, value] : c.options)
    {
        ScenarioOptions::Set(request, name, value);
        text << " --" << name << "=" << value;
    }
    c.scenario = request.scenario;
    c.scenario.Validate(c.profile);
    c.text = text.str();
}

/**
 * \param rnd the random stream
 * \param packet a packet-level case (kept small: at most 4 workers, 3 steps, jumbo frames)
 * \return a valid random case
 */
inline Case
RandomCase(Random& rnd, bool packet)
{
    Case c;
    c.profile = RandomProfile(rnd);
    auto& o = c.options;
    const bool ring = rnd.Below(3) == 0;
    const uint32_t k = static_cast<uint32_t>(1 + rnd.Below(packet ? 4 : 8));
    o["arch"] = ring ? "ring" : "ps";
    o["mode"] = ring || rnd.Below(2) ? "sync" : "async";
    o["workers"] = std::to_string(k);
    o["overlap"] = rnd.Below(2) ? "true" : "false";
    o["nicRate"] = rnd.Pick<std::string>({"1Gbps", "10Gbps", "25Gbps"});
    if (o["nicRate"] == "25Gbps" && rnd.Below(2))
    {
        o["flowCap"] = "10Gbps";
    }
    o["linkDelay"] = rnd.Pick<std::string>({"1us", "10us", "100us"});
    o["mtu"] = packet ? "9000" : rnd.Pick<std::string>({"1500", "9000"});
    // Heterogeneous workers: a compute scale of 1, 1.5 or 2 each.
    std::string scale;
    for (uint32_t w = 0; w < k; ++w)
    {
        scale += (w ? "," : "") + rnd.Pick<std::string>({"1", "1.5", "2"});
    }
    o["computeScale"] = scale;
    // Async needs enough steps for the slowest worker to finish one after its warm-up while
    // every worker runs (TrainingResult::Finalize): (warm-up + 1) x 2 x the fastest's steps.
    o["warmup"] = "1";
    o["steps"] = packet ? "3" : (o["mode"] == "async" ? "8" : std::to_string(2 + rnd.Below(4)));
    if (packet && o["mode"] == "async")
    {
        o["steps"] = "6";
    }
    o["seed"] = std::to_string(1 + rnd.Below(1000));
    if (ring)
    {
        o["bucket"] = rnd.Pick<std::string>({"0", "1MB", "25MB", "inf"});
        if (!packet)
        {
            // Every AllReduce the flow level runs (the packet level's are checked against it in
            // the collectives suite; here they would cost minutes).
            o["collective"] = rnd.Pick<std::string>({"ring", "halving-doubling", "tree"});
        }
    }
    else
    {
        const uint64_t maxServers = std::min<uint64_t>(3, c.profile.GetNLayers());
        o["servers"] = std::to_string(1 + rnd.Below(maxServers));
        o["order"] = rnd.Pick<std::string>({"forward", "reverse", "random"});
        o["partition"] = rnd.Pick<std::string>({"greedy", "round-robin"});
    }
    Rebuild(c);
    return c;
}

} // namespace tests
} // namespace ns3

#endif /* RANDOM_SCENARIOS_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Small helpers shared by the module's test suites (not part of the module's API).
 */

#ifndef TRAINING_TEST_UTILS_H
#define TRAINING_TEST_UTILS_H

#include "ns3/flow-level-simulator.h"
#include "ns3/ps-sharing.h"
#include "ns3/training-input-error.h"
#include "ns3/training-profile.h"
#include "ns3/training-scenario.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{
namespace tests
{

/**
 * \param f code expected to reject its input
 * \param words fragments the message must contain
 * \return true if f throws TrainingInputError whose message contains every word
 */
inline bool
ThrowsInputError(const std::function<void()>& f, const std::vector<std::string>& words = {})
{
    try
    {
        f();
    }
    catch (const TrainingInputError& e)
    {
        std::string m = e.what();
        return std::all_of(words.begin(),
                           words.end(),
                           [&m](const std::string& w)
                           {
                               return m.find(w) != std::string::npos;
                           });
    }
    return false;
}

/// \param file a file \return its content ("" if it cannot be read)
inline std::string
Slurp(const std::string& file)
{
    std::ifstream in(file);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/**
 * A synthetic profile: `sizes` bytes per layer, the same forward/backward/update time per layer,
 * and optional recorded steps whose times are the means scaled by the given factors.
 */
inline TrainingProfile
MakeProfile(const std::vector<uint64_t>& sizes,
            double fwdUs,
            double bwdUs,
            double updUs,
            const std::vector<double>& sampleFactors = {})
{
    TrainingProfile p;
    p.SetModel("synthetic");
    p.SetBatchSize(32);
    p.SetProvenance(R"({"device":"none","framework":"none","method":"test","derived":true})");
    for (std::size_t i = 0; i < sizes.size(); ++i)
    {
        p.AddLayer({"l" + std::to_string(i), "", sizes[i], fwdUs, bwdUs, updUs});
    }
    for (double f : sampleFactors)
    {
        std::size_t n = sizes.size();
        p.AddSample({std::vector<double>(n, fwdUs * f),
                     std::vector<double>(n, bwdUs * f),
                     std::vector<double>(n, updUs)});
    }
    return p;
}

/**
 * \param r a result
 * \param worker a worker
 * \param step a step
 * \return that worker's record of that step (NaN times when it has none)
 */
inline TrainingResult::StepRecord
StepOf(const TrainingResult& r, uint32_t worker, uint32_t step)
{
    for (const auto& x : r.steps)
    {
        if (x.worker == worker && x.step == step)
        {
            return x;
        }
    }
    return {worker, step, NAN, NAN};
}

/// A profile's per-layer figures summed: M (bytes) and T_F, T_B, T_S (seconds) of the papers'
/// closed forms.
struct LayerSums
{
    double bytes{0};    //!< M
    double forward{0};  //!< T_F
    double backward{0}; //!< T_B
    double update{0};   //!< T_S
};

/**
 * \param p a profile
 * \return its layers' mean figures summed
 */
inline LayerSums
SumLayers(const TrainingProfile& p)
{
    LayerSums s;
    for (const auto& l : p.GetLayers())
    {
        s.bytes += l.paramBytes;
        s.forward += l.forwardUs * 1e-6;
        s.backward += l.backwardUs * 1e-6;
        s.update += l.updateUs * 1e-6;
    }
    return s;
}

/**
 * \param p the profile
 * \param s the scenario (validated here)
 * \param sharing the flow sharing model (default PS)
 * \return the flow level's result on raw link rates (no goodput correction), so that hand-worked
 * numbers use the links' rates as they are
 */
inline TrainingResult
RunFlowRaw(const TrainingProfile& p, const TrainingScenario& s, Ptr<SharingModel> sharing = nullptr)
{
    s.Validate(p);
    FlowLevelSimulator::Options options;
    options.useGoodput = false;
    if (!sharing)
    {
        sharing = CreateObject<PsSharing>();
    }
    return FlowLevelSimulator(p, s, sharing, options).Run();
}

/**
 * \param a a result
 * \param b another
 * \return whether their step records are the same doubles
 */
inline bool
SameSteps(const TrainingResult& a, const TrainingResult& b)
{
    if (a.steps.size() != b.steps.size())
    {
        return false;
    }
    for (std::size_t i = 0; i < a.steps.size(); ++i)
    {
        const auto& x = a.steps[i];
        const auto& y = b.steps[i];
        if (x.worker != y.worker || x.step != y.step || x.start != y.start || x.end != y.end)
        {
            return false;
        }
    }
    return true;
}

/// PsSharing without its IsPlainMaxMin: the flow engines hand it every connection, one flow each
/// (the reference for their rate classes).
class PerFlowPsSharing : public PsSharing
{
  public:
    bool IsPlainMaxMin(bool& /* honoursCaps */) const override
    {
        return false;
    }
};

} // namespace tests
} // namespace ns3

#endif /* TRAINING_TEST_UTILS_H */

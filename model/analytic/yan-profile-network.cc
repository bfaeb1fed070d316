/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "yan-profile-network.h"

#include "ns3/training-input-error.h"
#include "ns3/training-profile.h"

namespace ns3
{

std::vector<YanPerformanceModel::Layer>
YanProfileNetwork::Layers(const TrainingProfile& profile)
{
    std::vector<YanPerformanceModel::Layer> out;
    for (std::size_t i = 0; i < profile.GetNLayers(); ++i)
    {
        const TrainingProfile::Layer& l = profile.GetLayer(i);
        if (!l.shape)
        {
            throw TrainingInputError(
                profile.GetSourceName() + ": layers[" + std::to_string(i) + "] (" + l.name
                + "): no shape (expected output_elements and macs on every layer for 002's "
                  "model; add them with: /usr/bin/python3 traces/profile_model.py annotate "
                  "--model "
                + profile.GetModel() + " " + profile.GetSourceName() + ")");
        }
        const TrainingProfile::Shape& s = *l.shape;
        out.push_back({l.name,
                       s.outputElements,
                       s.macs,
                       double(l.paramBytes) / 4, // float32 parameters (traces/README.md)
                       s.local,
                       s.halo});
    }
    return out;
}

double
YanProfileNetwork::FittedMulAdd(const TrainingProfile& profile)
{
    const std::vector<YanPerformanceModel::Layer> layers = Layers(profile);
    double muladds = -layers.front().connections;
    for (const YanPerformanceModel::Layer& l : layers)
    {
        muladds += 3 * l.connections;
    }
    double us = 0; // the profile's own numbers, not rounded to ns-3 time ticks
    for (const TrainingProfile::Layer& l : profile.GetLayers())
    {
        us += l.forwardUs + l.backwardUs;
    }
    const double seconds = us * 1e-6 / profile.GetBatchSize();
    if (!(muladds > 0) || !(seconds > 0))
    {
        throw TrainingInputError(profile.GetSourceName() + ": " + std::to_string(muladds)
                                 + " multiply-adds and " + std::to_string(seconds)
                                 + " s per sample (expected both > 0 to fit C_muladd)");
    }
    return seconds / muladds;
}

} // namespace ns3

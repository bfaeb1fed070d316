/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "synthetic-profile.h"

#include <algorithm>
#include <random>

namespace ns3
{

std::vector<SyntheticProfile::Module>
SyntheticProfile::ResNet50Modules()
{
    std::vector<Module> m;
    auto conv = [&m](const std::string& name, uint32_t k, uint32_t cin, uint32_t cout, double hw)
    {
        m.push_back(
            {name, "Conv2d", uint64_t(k) * k * cin * cout, double(k) * k * cin * cout * hw});
    };
    auto bn = [&m](const std::string& name, uint32_t c, double hw)
    {
        m.push_back({name, "BatchNorm2d", 2ULL * c, 2.0 * c * hw});
    };
    conv("conv1", 7, 3, 64, 112 * 112);
    bn("bn1", 64, 112 * 112);
    const uint32_t blocks[] = {3, 4, 6, 3};
    const uint32_t planes[] = {64, 128, 256, 512};
    uint32_t inplanes = 64;
    double side = 56; // after the max pool
    for (int stage = 0; stage < 4; ++stage)
    {
        const uint32_t p = planes[stage];
        for (uint32_t b = 0; b < blocks[stage]; ++b)
        {
            const std::string prefix
                = "layer" + std::to_string(stage + 1) + "." + std::to_string(b) + ".";
            const bool downsample = b == 0;
            const double inSide = side;
            const double outSide = (downsample && stage > 0) ? side / 2 : side;
            conv(prefix + "conv1", 1, inplanes, p, inSide * inSide);
            bn(prefix + "bn1", p, inSide * inSide);
            conv(prefix + "conv2", 3, p, p, outSide * outSide);
            bn(prefix + "bn2", p, outSide * outSide);
            conv(prefix + "conv3", 1, p, 4 * p, outSide * outSide);
            bn(prefix + "bn3", 4 * p, outSide * outSide);
            if (downsample)
            {
                conv(prefix + "downsample.0", 1, inplanes, 4 * p, outSide * outSide);
                bn(prefix + "downsample.1", 4 * p, outSide * outSide);
            }
            inplanes = 4 * p;
            side = outSide;
        }
    }
    m.push_back({"fc", "Linear", 2048ULL * 1000 + 1000, 2048.0 * 1000});
    return m;
}

namespace
{

/// \param layers the layers' nominal times \return 15 steps of jittered times (seeded)
std::vector<TrainingProfile::StepTimes>
JitteredSamples(const std::vector<TrainingProfile::Layer>& layers)
{
    std::mt19937_64 gen(50);
    std::normal_distribution<double> stepJitter(1.0, 0.05);
    std::normal_distribution<double> layerJitter(1.0, 0.03);
    std::vector<TrainingProfile::StepTimes> samples(15);
    for (auto& s : samples)
    {
        double f = std::max(0.5, stepJitter(gen));
        for (const auto& l : layers)
        {
            s.forwardUs.push_back(l.forwardUs * f * std::max(0.5, layerJitter(gen)));
            s.backwardUs.push_back(l.backwardUs * f * std::max(0.5, layerJitter(gen)));
            s.updateUs.push_back(l.updateUs * std::max(0.5, layerJitter(gen)));
        }
    }
    return samples;
}

} // namespace

TrainingProfile
SyntheticProfile::ResNet50()
{
    const std::vector<Module> modules = ResNet50Modules();
    double macs = 0;
    for (const auto& m : modules)
    {
        macs += m.macs;
    }
    TrainingProfile p;
    p.SetModel("resnet50-synthetic");
    p.SetBatchSize(8);
    p.SetProvenance(
        R"({"device":"synthetic","framework":"none","method":"examples/)"
        R"(flow-benchmark.cc: torchvision resnet50 parameter counts, forward time )"
        R"(proportional to MACs (420 ms total), backward 1.7x, update 4.6 GB/s + 5 us, )"
        R"(15 jittered steps","derived":true})");
    std::vector<TrainingProfile::Layer> layers;
    for (const auto& m : modules)
    {
        double fwd = 420e3 * m.macs / macs + 10; // us; 10 us of fixed cost per module
        layers.push_back({m.name, m.type, 4 * m.params, fwd, 1.7 * fwd, 4 * m.params / 4.6e3 + 5});
    }
    const std::vector<TrainingProfile::StepTimes> samples = JitteredSamples(layers);
    // Layer times are the means of the samples, as in a measured profile.
    for (std::size_t i = 0; i < layers.size(); ++i)
    {
        double f = 0;
        double b = 0;
        double u = 0;
        for (const auto& s : samples)
        {
            f += s.forwardUs[i] / samples.size();
            b += s.backwardUs[i] / samples.size();
            u += s.updateUs[i] / samples.size();
        }
        layers[i].forwardUs = f;
        layers[i].backwardUs = b;
        layers[i].updateUs = u;
        p.AddLayer(layers[i]);
    }
    for (const auto& s : samples)
    {
        p.AddSample(s);
    }
    p.Validate("synthetic resnet50");
    return p;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SYNTHETIC_PROFILE_H
#define SYNTHETIC_PROFILE_H

#include "ns3/training-profile.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief A synthetic ResNet-50 profile for speed measurements (flow-benchmark) when no measured
 * profile is at hand.
 *
 * The 107 parameterised modules of torchvision's resnet50 (v1.5: stride on the 3x3 convolution)
 * in forward order, with their exact parameter counts (25,557,032 in all); forward times
 * proportional to each module's multiply-accumulates at 224x224 (total 420 ms, as measured on a
 * CPU at batch 8) plus 10 us, backward 1.7x forward, updates at 4.6 GB/s plus 5 us, and 15
 * recorded steps with a seeded +-5 % step-to-step and +-3 % layer-to-layer jitter (so async
 * workers drift apart as real ones do). Only a simulator's speed is measured with it; the times
 * only need to be plausible.
 */
class SyntheticProfile
{
  public:
    /// One parameterised module of the synthetic ResNet-50.
    struct Module
    {
        std::string name; //!< torchvision module path
        std::string type; //!< Conv2d, BatchNorm2d or Linear
        uint64_t params;  //!< trainable parameters
        double macs;      //!< multiply-accumulates of its forward at batch 1
    };

    /// \return torchvision resnet50's parameterised modules, in forward order
    static std::vector<Module> ResNet50Modules();

    /// \return the synthetic ResNet-50 profile (model "resnet50-synthetic", batch 8)
    static TrainingProfile ResNet50();
};

} // namespace ns3

#endif /* SYNTHETIC_PROFILE_H */

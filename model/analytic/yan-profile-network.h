/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef YAN_PROFILE_NETWORK_H
#define YAN_PROFILE_NETWORK_H

#include "yan-performance-model.h"

#include <vector>

namespace ns3
{

class TrainingProfile;

/**
 * \ingroup distributed-training
 * \brief The network of 002_a4ba19759bbbfe64.txt Sec. 4 read from an annotated profile: each
 * profile layer becomes one YanPerformanceModel::Layer, in forward order.
 *
 * - N(l), neurons: the layer's output elements per sample;
 * - W(l), connections: its multiply-adds per sample (a Conv2d output sees k_h k_w C_in/groups
 *   inputs, a Linear output `in` inputs, a normalisation one);
 * - weights: param_bytes / 4 (the profiles count float32 parameters);
 * - local and halo: as annotated (Conv2d local with its kernel's reach, Linear full).
 *
 * The layers form a chain, as in 002: a residual or concatenating network (ResNet, Inception)
 * is taken in the profile's forward order, so a branch's input counts as its predecessor's
 * output.
 */
class YanProfileNetwork
{
  public:
    /**
     * \param profile a profile whose every layer has a shape
     * \return its layers for YanPerformanceModel
     * \throws TrainingInputError naming the file and the first layer without a shape, and the
     *         command (traces/profile_model.py annotate) that adds them
     */
    static std::vector<YanPerformanceModel::Layer> Layers(const TrainingProfile& profile);

    /**
     * \brief C_muladd fitted to the profile: the measured forward + backward time of one
     * sample divided by the multiply-adds the model charges for it on one worker (P = R = 1,
     * H = 1, C_act = C_err = 0): sum_l (W(l) + W'(l) + W(l)) = 3 sum_l W(l) - W(0), Eq. (5),
     * (7) and (8); the first layer propagates no error to the input.
     * \param profile an annotated profile
     * \return seconds per multiply-add
     * \throws TrainingInputError if the profile has no shape, no multiply-adds or no time
     */
    static double FittedMulAdd(const TrainingProfile& profile);
};

} // namespace ns3

#endif /* YAN_PROFILE_NETWORK_H */

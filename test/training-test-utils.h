/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Small helpers shared by the module's test suites (not part of the module's API).
 */

#ifndef TRAINING_TEST_UTILS_H
#define TRAINING_TEST_UTILS_H

#include "ns3/training-input-error.h"

#include <algorithm>
#include <functional>
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

} // namespace tests
} // namespace ns3

#endif /* TRAINING_TEST_UTILS_H */

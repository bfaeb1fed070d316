/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SPLIT_MIX64_H
#define SPLIT_MIX64_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief SplitMix64 finalizer (Steele, Lea, Flood, OOPSLA 2014): a 64-bit mixing function, the
 * one hash behind the flow backend's step draws and the fabric's ECMP choice.
 * \param x input
 * \return mixed bits
 */
inline uint64_t
SplitMix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

} // namespace ns3

#endif /* SPLIT_MIX64_H */

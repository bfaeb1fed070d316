/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DISTRIBUTED_TRAINING_COMPAT_H
#define DISTRIBUTED_TRAINING_COMPAT_H

/**
 * \file
 * \ingroup distributed-training
 * The ns-3 API differences between the releases this module builds against (3.37 to 3.48),
 * in one place, so the rest of the sources are written once.
 *
 * DT_NS3_VERSION is 100 * major + minor of the ns-3 in use (337 for ns-3.37). CMakeLists.txt
 * sets it: in an ns-3 source tree from ns-3's VERSION file, standalone from the installed
 * ns3/version-defines.h. It is not read from ns3/version-defines.h here because in a source tree
 * that header only exists with --enable-build-version, and a stale copy from an installed ns-3
 * may be on the include path.
 *
 * Differences (checked against the ns-3 sources at each release tag):
 *  - ns-3.41: EnumValue became a class template over the enum type, and MakeEnumAccessor needs
 *    that type as its first template argument: DtEnumValue and DtMakeEnumAccessor.
 *  - ns-3.39: Ipv4RoutingProtocol::RouteInput takes its four callbacks by const reference
 *    (by value before): DtCallbackArg.
 *  - ns-3.42: TestCase::TestDuration became the scoped enum TestCase::Duration (and
 *    TestSuite::Type became scoped; TestSuite::Type::UNIT is valid in every release, so it is
 *    written directly): DT_TEST_QUICK.
 *  - ns-3.42 deprecated EventId::IsRunning for IsPending (removed later); both are
 *    !IsExpired(), which every release has, so the sources use that and need nothing here.
 *  - ns-3.42: Create<T>() refuses Object subclasses; CreateObject<T>() works in every release.
 *  - ns-3.45: Object::GetInstanceTypeId() became final (CHANGES.md). Before, TcpSocketBase
 *    overrode it to return its own TypeId, so a subclass (TcpSmallQueuesSocket) must override it
 *    again up to 3.44 and may not from 3.45: DT_OVERRIDES_INSTANCE_TYPE_ID.
 *  - ns-3.42 behaviour (no API change): TcpCubic and TcpLinuxReno stop growing cwnd while it
 *    does not limit the flow (commit f75345fa0, issue #966). With ns-3's pacing rate
 *    ratio x cwnd / srtt and its millisecond timestamp RTT samples, that cut one 10 G capped
 *    flow to 8.25 Gb/s; TrainingClusterHelper::ConfigurePacing makes the cap the only pacing
 *    limit in every release, so no version test is needed for it.
 */

#include "ns3/enum.h"

#include <cstdint>

#ifndef DT_NS3_VERSION
#error "DT_NS3_VERSION is not defined: build the module through its CMakeLists.txt"
#endif

/// Whether a subclass of TcpSocketBase overrides GetInstanceTypeId() (final from ns-3.45).
#define DT_OVERRIDES_INSTANCE_TYPE_ID (DT_NS3_VERSION < 345)

namespace ns3
{

#if DT_NS3_VERSION >= 341
/// The attribute value type of an enum attribute of type \p T.
template<typename T>
using DtEnumValue = EnumValue<T>;
#else
/// The attribute value type of an enum attribute (not a template before ns-3.41).
template<typename T>
using DtEnumValue = EnumValue;
#endif

#if DT_NS3_VERSION >= 339
/// How Ipv4RoutingProtocol::RouteInput takes its callback parameters of type \p T.
template<typename T>
using DtCallbackArg = const T&;
#else
/// How Ipv4RoutingProtocol::RouteInput takes its callback parameters (by value before 3.39).
template<typename T>
using DtCallbackArg = T;
#endif

/**
 * MakeEnumAccessor for an attribute of enum type \p T.
 * \param member the class member (or getter/setter) that holds the attribute
 * \return the accessor
 */
template<typename T, typename M>
Ptr<const AttributeAccessor>
DtMakeEnumAccessor(M member)
{
#if DT_NS3_VERSION >= 341
    return MakeEnumAccessor<T>(member);
#else
    return MakeEnumAccessor(member);
#endif
}

/**
 * \brief The high 64 bits of the 128-bit product a x b (Lemire's multiply-shift maps a random
 * 64-bit word to [0, b) with it), from 32-bit halves: the same value as unsigned __int128
 * arithmetic, which ISO C++ (-Wpedantic) does not have.
 * \param a a 64-bit word
 * \param b a 64-bit word
 * \return (a x b) >> 64
 */
inline uint64_t
DtMulHigh64(uint64_t a, uint64_t b)
{
    const uint64_t aLo = a & 0xffffffffULL;
    const uint64_t aHi = a >> 32;
    const uint64_t bLo = b & 0xffffffffULL;
    const uint64_t bHi = b >> 32;
    const uint64_t lo = aLo * bLo;
    const uint64_t cross1 = aHi * bLo;
    const uint64_t cross2 = aLo * bHi;
    const uint64_t mid = (lo >> 32) + (cross1 & 0xffffffffULL) + (cross2 & 0xffffffffULL);
    return aHi * bHi + (cross1 >> 32) + (cross2 >> 32) + (mid >> 32);
}

} // namespace ns3

// The test duration of TestSuite::AddTestCase. A macro because ns3/test.h is not needed here.
#if DT_NS3_VERSION >= 342
#define DT_TEST_QUICK ns3::TestCase::Duration::QUICK
#else
#define DT_TEST_QUICK ns3::TestCase::QUICK
#endif

#endif // DISTRIBUTED_TRAINING_COMPAT_H

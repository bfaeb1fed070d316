/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef UNIT_PARSER_H
#define UNIT_PARSER_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The one home of the module's value parsers: whole and real numbers, booleans, byte
 * counts, rates, times and queue sizes, for every option table, program, job file and fabric
 * file.
 *
 * Each parser reads the whole text (trailing garbage is refused), range-checks the value (no
 * overflow, no NaN) and only then builds an ns-3 value, so that bad input never reaches an ns-3
 * constructor that would abort. Every failure is a TrainingInputError "OPTION: what (expected
 * ...)" naming the option, file or field given as \p option.
 */
class UnitParser
{
  public:
    /// ParseBytes() of "inf" (or "unlimited"): no limit.
    static constexpr uint64_t UNLIMITED = std::numeric_limits<uint64_t>::max();

    /**
     * \param option the option, for messages
     * \param text the value
     * \param min smallest accepted
     * \param max largest accepted
     * \return the whole number
     */
    static uint64_t ParseUnsigned(const std::string& option,
                                  const std::string& text,
                                  uint64_t min,
                                  uint64_t max);

    /**
     * \param option the option, for messages
     * \param text the value
     * \param min smallest accepted
     * \param max largest accepted
     * \param expected what a valid value looks like
     * \return the finite real number
     */
    static double ParseReal(const std::string& option,
                            const std::string& text,
                            double min,
                            double max,
                            const std::string& expected);

    /**
     * \param option the option, for messages
     * \param text true/false/1/0/on/off/yes/no
     * \return the value
     */
    static bool ParseBool(const std::string& option, const std::string& text);

    /**
     * \param option the option, for messages
     * \param text a byte count: 0, 1048576, 25MB, 64MiB or inf
     * \return bytes (UNLIMITED for inf)
     */
    static uint64_t ParseBytes(const std::string& option, const std::string& text);

    /**
     * \brief Parse a data rate without aborting on bad input (unlike DataRate(std::string)).
     * \param option the option, for messages
     * \param text e.g. "10Gbps", "25Gb/s", "1.5GBps", "1e9bps"
     * \return the rate
     */
    static DataRate ParseDataRate(const std::string& option, const std::string& text);

    /**
     * \param option the option, for messages
     * \param text "0" (none) or a rate as ParseDataRate()
     * \return the rate
     */
    static DataRate ParseRateOrZero(const std::string& option, const std::string& text);

    /**
     * \brief Parse a time ("10us", "1.5ms", "2s", "100ns") without aborting on bad input.
     * \param option the option, for messages
     * \param text the value, with its unit (it may be negative)
     * \return the time
     */
    static Time ParseTime(const std::string& option, const std::string& text);

    /**
     * \param option the option, for messages
     * \param text "0" or a time >= 0 with its unit, e.g. 20us
     * \return the time
     */
    static Time ParseDuration(const std::string& option, const std::string& text);

    /**
     * \brief Parse a queue size ("100p", "150000B") without aborting on bad input.
     * \param option the option, for messages
     * \param text the value
     * \return the size
     */
    static QueueSize ParseQueueSize(const std::string& option, const std::string& text);

    /**
     * \brief Split a list value at every separator, empty pieces kept (the caller refuses them).
     * \param text the value
     * \param sep the separator
     * \return the pieces ("a," gives "a" and "")
     */
    static std::vector<std::string> Split(const std::string& text, char sep);
};

} // namespace ns3

#endif /* UNIT_PARSER_H */

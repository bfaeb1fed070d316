/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "unit-parser.h"

#include "training-input-error.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <regex>
#include <sstream>

namespace ns3
{

namespace
{

/// Throw "--option: what (expected ...)", the form of every option error.
[[noreturn]] void
Fail(const std::string& option, const std::string& what, const std::string& expected)
{
    throw TrainingInputError(option + ": " + what + " (expected " + expected + ")");
}

} // namespace

uint64_t
UnitParser::ParseUnsigned(const std::string& option,
                          const std::string& text,
                          uint64_t min,
                          uint64_t max)
{
    static const std::regex re(R"(^\s*[0-9]+\s*$)");
    const std::string expected
        = "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
    if (!std::regex_match(text, re))
    {
        Fail(option, "cannot parse '" + text + "'", expected);
    }
    errno = 0;
    const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
    if (errno == ERANGE || v < min || v > max)
    {
        Fail(option, text + " out of range", expected);
    }
    return v;
}

double
UnitParser::ParseReal(const std::string& option,
                      const std::string& text,
                      double min,
                      double max,
                      const std::string& expected)
{
    std::istringstream in(text);
    double v = 0;
    std::string rest;
    if (!(in >> v) || (in >> rest))
    {
        Fail(option, "cannot parse '" + text + "'", expected);
    }
    if (!std::isfinite(v) || !(v >= min && v <= max))
    {
        Fail(option, "'" + text + "'", expected);
    }
    return v;
}

bool
UnitParser::ParseBool(const std::string& option, const std::string& text)
{
    if (text == "1" || text == "true" || text == "on" || text == "yes")
    {
        return true;
    }
    if (text == "0" || text == "false" || text == "off" || text == "no")
    {
        return false;
    }
    Fail(option, "cannot parse '" + text + "'", "true or false");
}

uint64_t
UnitParser::ParseBytes(const std::string& option, const std::string& text)
{
    const std::string expected = "bytes >= 0, e.g. 0, 1048576, 25MB, 64MiB or inf";
    if (text == "inf" || text == "unlimited")
    {
        return UNLIMITED;
    }
    if (text.find('-') != std::string::npos)
    {
        Fail(option, "negative size '" + text + "'", expected);
    }
    static const std::regex re(R"(^\s*([0-9]*\.?[0-9]+)\s*(B|KB|kB|MB|GB|KiB|MiB|GiB)?\s*$)");
    std::smatch m;
    if (!std::regex_match(text, m, re))
    {
        Fail(option, "cannot parse '" + text + "'", expected);
    }
    static const std::map<std::string, double> units = {{"", 1},
                                                        {"B", 1},
                                                        {"KB", 1e3},
                                                        {"kB", 1e3},
                                                        {"MB", 1e6},
                                                        {"GB", 1e9},
                                                        {"KiB", 1024.0},
                                                        {"MiB", 1048576.0},
                                                        {"GiB", 1073741824.0}};
    // strtod, not stod: a number beyond a double (400 digits) gives HUGE_VAL, refused below;
    // stod threw std::out_of_range past every handler (found by dt-fuzz-scenario).
    const double v = std::strtod(m.str(1).c_str(), nullptr) * units.at(m[2]);
    // Sizes beyond 1 PB are typing errors, and would overflow (or wrap to 0) below.
    if (!(v <= 1e15))
    {
        Fail(option, "size '" + text + "' out of range", "at most 1 PB, or inf");
    }
    return static_cast<uint64_t>(v + 0.5);
}

DataRate
UnitParser::ParseDataRate(const std::string& option, const std::string& text)
{
    // ns-3's DataRate parser takes a bare number as bit/s and ignores what follows the unit:
    // parse a number with a unit and nothing after it here.
    static const std::regex re(
        R"(^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)([kKMGT]?)(i?)(bps|b/s|Bps|B/s)\s*$)");
    const std::string expected = "a rate like 10Gbps, 25Gb/s, 1.5GBps or 1e9bps";
    std::smatch m;
    if (!std::regex_match(text, m, re))
    {
        Fail(option, "cannot parse rate '" + text + "'", expected);
    }
    const std::string prefix = m[2];
    const double base = m[3] == "i" ? 1024.0 : 1000.0;
    const int power = std::string(" kMGT").find(prefix == "K" ? "k" : prefix);
    double bps
        = std::strtod(m.str(1).c_str(), nullptr) * std::pow(base, prefix.empty() ? 0 : power);
    bps *= m.str(4)[0] == 'B' ? 8 : 1;
    if (!std::isfinite(bps) || bps > 1e15)
    {
        Fail(option, "rate '" + text + "' out of range", "a rate up to 1 Pbps");
    }
    DataRate rate(static_cast<uint64_t>(bps + 0.5));
    return rate;
}

Time
UnitParser::ParseTime(const std::string& option, const std::string& text)
{
    // ns-3's Time(std::string) aborts on a bad unit: parse here and only build valid values.
    static const std::regex re(
        R"(^\s*([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(s|ms|us|ns)\s*$)");
    std::smatch m;
    if (!std::regex_match(text, m, re))
    {
        Fail(option,
             "cannot parse time '" + text + "'",
             "a number with a unit s, ms, us or ns, e.g. 10us");
    }
    const double v = std::strtod(m.str(1).c_str(), nullptr); // +-HUGE_VAL on overflow
    std::string unit = m[2];
    double seconds = unit == "s" ? v : unit == "ms" ? v * 1e-3 : unit == "us" ? v * 1e-6 : v * 1e-9;
    if (!std::isfinite(seconds) || std::abs(seconds) > 1e9)
    {
        Fail(option, "time '" + text + "' out of range", "a time below 10^9 s");
    }
    return Seconds(seconds);
}

QueueSize
UnitParser::ParseQueueSize(const std::string& option, const std::string& text)
{
    // ns-3's QueueSize keeps a uint32_t and casts the parsed double to it unchecked, so
    // 4294967296p became 0 packets ("zero queue size") and larger values anything at all:
    // the number and its unit are read here, the value range-checked, and only then built.
    static const std::regex re(R"(^([0-9]*\.?[0-9]+)(|k|K|Ki|M|Mi|G|Gi)(B|p)$)");
    std::smatch m;
    if (!std::regex_match(text, m, re))
    {
        Fail(option,
             "cannot parse queue size '" + text + "'",
             "a size like 100p or 150000B (prefixes k, Ki, M, Mi, G, Gi)");
    }
    static const std::map<std::string, double> prefixes = {{"", 1},
                                                           {"k", 1e3},
                                                           {"K", 1e3},
                                                           {"Ki", 1024.0},
                                                           {"M", 1e6},
                                                           {"Mi", 1048576.0},
                                                           {"G", 1e9},
                                                           {"Gi", 1073741824.0}};
    const double value = std::floor(std::strtod(m.str(1).c_str(), nullptr) * prefixes.at(m[2]));
    constexpr double kMax = std::numeric_limits<uint32_t>::max();
    if (!(value >= 1))
    {
        Fail(option, "zero queue size '" + text + "'", "a positive size like 100p");
    }
    if (!(value <= kMax))
    {
        Fail(option,
             "queue size '" + text + "' out of range",
             "at most 4294967295 packets or bytes (ns-3 counts a queue in 32 bits)");
    }
    return QueueSize(m.str(3) == "p" ? QueueSizeUnit::PACKETS : QueueSizeUnit::BYTES,
                     static_cast<uint32_t>(value));
}

Time
UnitParser::ParseDuration(const std::string& option, const std::string& text)
{
    const Time t = text == "0" ? Seconds(0) : ParseTime(option, text);
    if (t.IsStrictlyNegative())
    {
        Fail(option, "negative time '" + text + "'", "0 or a positive time, e.g. 20us");
    }
    return t;
}

std::vector<std::string>
UnitParser::Split(const std::string& text, char sep)
{
    std::vector<std::string> pieces;
    std::string piece;
    std::istringstream in(text);
    while (std::getline(in, piece, sep))
    {
        pieces.push_back(piece);
    }
    if (!text.empty() && text.back() == sep)
    {
        pieces.emplace_back(); // getline drops a last empty piece
    }
    return pieces;
}

DataRate
UnitParser::ParseRateOrZero(const std::string& option, const std::string& text)
{
    return text == "0" ? DataRate(0) : ParseDataRate(option, text);
}

} // namespace ns3

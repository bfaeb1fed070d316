/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "compute-slowdown.h"

#include "json-input.h"
#include "json-object-reader.h"
#include "split-mix64.h"
#include "training-input-error.h"
#include "training-scenario.h"
#include "unit-parser.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

namespace
{

/// Largest factor of an episode (the range of --computeScale).
constexpr double kMaxFactor = 1e6;

/**
 * \param withFactor a --slowdown entry (worker:start:length:factor) or a --leave window
 * \return what an entry looks like, for messages
 */
std::string
WindowSyntax(bool withFactor)
{
    return withFactor ? "worker:start:length:factor entries separated by commas, e.g. "
                        "2:50ms:200ms:3, or a JSON array of {\"worker\", \"start\", \"length\", "
                        "\"factor\"} objects"
                      : "worker:start:length entries separated by commas, e.g. 2:1s:500ms, or a "
                        "JSON array of {\"worker\", \"start\", \"length\"} objects";
}

/// \return a factor >= 1 parsed from text, refused naming option
double
ParseFactor(const std::string& option, const std::string& text)
{
    return UnitParser::ParseReal(option,
                                 text,
                                 1,
                                 kMaxFactor,
                                 "a slowdown factor from 1 to 1e6 (speed-ups: --computeScale)");
}

/// \return a time > 0 in seconds parsed from text, refused naming option and what
double
ParsePositive(const std::string& option, const std::string& text, const std::string& what)
{
    const double s = UnitParser::ParseDuration(option, text).GetSeconds();
    if (!(s > 0))
    {
        throw TrainingInputError(option + ": " + what + " '" + text
                                 + "' (expected a positive time, e.g. 200ms)");
    }
    return s;
}

/// \return one "worker:start:length[:factor]" entry (factor 1 without withFactor)
SlowdownEpisode
ParseEntry(const std::string& option, const std::string& entry, bool withFactor)
{
    const std::vector<std::string> f = UnitParser::Split(entry, ':');
    if (f.size() != (withFactor ? 4U : 3U))
    {
        throw TrainingInputError(option + ": cannot parse '" + entry + "' (expected "
                                 + WindowSyntax(withFactor) + ")");
    }
    SlowdownEpisode e;
    e.worker = static_cast<uint32_t>(UnitParser::ParseUnsigned(option, f[0], 0, UINT32_MAX));
    e.start = UnitParser::ParseDuration(option, f[1]).GetSeconds();
    e.length = ParsePositive(option, f[2], withFactor ? "episode length" : "length");
    e.factor = withFactor ? ParseFactor(option, f[3]) : 1;
    return e;
}

/// \return a time field of a JSON episode: a number of seconds or a string with its unit
double
JsonTime(const JsonObjectReader& r, const std::string& key)
{
    const auto& v = r.Get(key);
    const std::string where = r.At(key).ToString();
    const std::string text = v.is_string() ? v.get<std::string>() : v.dump() + "s";
    return UnitParser::ParseDuration(where, text).GetSeconds();
}

/// \return the episodes (or windows, without withFactor) of a JSON array
std::vector<SlowdownEpisode>
ParseJsonEpisodes(const std::string& option, const std::string& text, bool withFactor)
{
    static const JsonInput::Limits limits{1 << 20, 4, "a JSON array of worker time windows"};
    JsonSchema schema{
        {"worker", JsonField::REQUIRED, JsonSpec::Unsigned(0, UINT32_MAX, "a worker index"), {}},
        {"start", JsonField::REQUIRED, JsonSpec::Scalar("seconds or a time such as 50ms"), {}},
        {"length", JsonField::REQUIRED, JsonSpec::Scalar("seconds or a time such as 200ms"), {}}};
    if (withFactor)
    {
        schema.push_back(
            {"factor", JsonField::REQUIRED, JsonSpec::Number(1, kMaxFactor, "from 1 to 1e6"), {}});
    }
    const JsonInput::Json doc = JsonInput::Parse(text, option, limits);
    const JsonPlace place(option);
    place.Check(doc, JsonSpec::Array(1, "a non-empty array of time windows"));
    std::vector<SlowdownEpisode> out;
    for (std::size_t i = 0; i < doc.size(); ++i)
    {
        const JsonObjectReader r(doc[i], place.Element(i), schema);
        SlowdownEpisode e;
        e.worker = static_cast<uint32_t>(r.GetUnsigned("worker"));
        e.start = JsonTime(r, "start");
        e.length = JsonTime(r, "length");
        e.factor = withFactor ? r.GetNumber("factor") : 1;
        if (!(e.length > 0))
        {
            r.At("length").Fail("a length of 0", "a positive time");
        }
        out.push_back(e);
    }
    return out;
}

} // namespace

double
SlowdownEpisode::End() const
{
    return start + length;
}

bool
StragglerProcess::IsOn() const
{
    return meanGap > 0;
}

ComputeSlowdown::ComputeSlowdown(const std::vector<SlowdownEpisode>& episodes,
                                 const StragglerProcess& process,
                                 uint32_t workers,
                                 uint64_t seed)
    : m_process(process),
      m_seed(seed),
      m_empty(episodes.empty() && !process.IsOn()),
      m_episodes(workers)
{
    for (const auto& e : episodes)
    {
        Insert(m_episodes.at(e.worker), e);
    }
    for (uint32_t w = 0; w < workers && process.IsOn(); ++w)
    {
        m_episodes[w].nextDrawnStart = process.meanGap * Exponential(w, 0, 0);
    }
}

std::shared_ptr<const ComputeSlowdown>
ComputeSlowdown::FromScenario(const TrainingScenario& s)
{
    if (!s.HasSlowdown())
    {
        return nullptr;
    }
    return std::make_shared<const ComputeSlowdown>(s.slowdown, s.stragglers, s.workers, s.seed);
}

bool
ComputeSlowdown::IsEmpty() const
{
    return m_empty;
}

void
ComputeSlowdown::Insert(WorkerEpisodes& w, const SlowdownEpisode& e)
{
    auto it = std::upper_bound(w.list.begin(),
                               w.list.end(),
                               e.start,
                               [](double t, const SlowdownEpisode& x)
                               {
                                   return t < x.start;
                               });
    const std::size_t i = static_cast<std::size_t>(it - w.list.begin());
    w.list.insert(it, e);
    w.maxEnd.resize(w.list.size());
    for (std::size_t j = i; j < w.list.size(); ++j)
    {
        const double before = j == 0 ? -std::numeric_limits<double>::infinity() : w.maxEnd[j - 1];
        w.maxEnd[j] = std::max(before, w.list[j].End());
    }
}

double
ComputeSlowdown::Exponential(uint32_t worker, uint64_t index, uint32_t draw) const
{
    // One stream per (seed, worker), two draws per episode; 53 bits into (0, 1).
    const uint64_t key = SplitMix64(SplitMix64(m_seed ^ 0x5157a66e7ULL) + worker);
    const uint64_t bits = SplitMix64(key + 2 * index + draw);
    const double u = (static_cast<double>(bits >> 11) + 0.5) * 0x1.0p-53;
    return -std::log(u);
}

void
ComputeSlowdown::DrawUntil(uint32_t worker, double t) const
{
    WorkerEpisodes& w = m_episodes[worker];
    while (m_process.IsOn() && w.nextDrawnStart <= t)
    {
        SlowdownEpisode e;
        e.worker = worker;
        e.start = w.nextDrawnStart;
        e.length = m_process.meanLength * Exponential(worker, w.drawn, 1);
        e.factor = m_process.factor;
        Insert(w, e);
        ++w.drawn;
        w.nextDrawnStart += m_process.meanGap * Exponential(worker, w.drawn, 0);
    }
}

double
ComputeSlowdown::Stretch(uint32_t worker, double start, double seconds) const
{
    if (m_empty)
    {
        return seconds;
    }
    const WorkerEpisodes& w = m_episodes.at(worker);
    double t = start;
    double work = seconds; // what is left, in seconds at factor 1
    double elapsed = 0;
    while (true)
    {
        DrawUntil(worker, t);
        // The episodes before j all ended by t (maxEnd is non-decreasing).
        const auto j = static_cast<std::size_t>(
            std::upper_bound(w.maxEnd.begin(), w.maxEnd.end(), t) - w.maxEnd.begin());
        double factor = 1;
        double next = std::numeric_limits<double>::infinity(); // the next boundary after t
        std::size_t i = j;
        for (; i < w.list.size() && w.list[i].start <= t; ++i)
        {
            if (w.list[i].End() > t)
            {
                factor = std::max(factor, w.list[i].factor);
                next = std::min(next, w.list[i].End());
            }
        }
        const double finish = t + work * factor;
        DrawUntil(worker, finish); // an episode drawn now starts after t: it lands beyond i
        if (i < w.list.size())
        {
            next = std::min(next, w.list[i].start);
        }
        if (!(next < finish))
        {
            return elapsed + work * factor;
        }
        elapsed += next - t;
        work -= (next - t) / factor;
        t = next;
    }
}

std::vector<SlowdownEpisode>
ComputeSlowdown::GetEpisodes(double until) const
{
    std::vector<SlowdownEpisode> out;
    for (uint32_t w = 0; w < m_episodes.size(); ++w)
    {
        DrawUntil(w, until);
        for (const auto& e : m_episodes[w].list)
        {
            if (e.start < until)
            {
                out.push_back(e);
            }
        }
    }
    std::stable_sort(out.begin(),
                     out.end(),
                     [](const SlowdownEpisode& a, const SlowdownEpisode& b)
                     {
                         return a.start < b.start;
                     });
    return out;
}

std::vector<SlowdownEpisode>
ComputeSlowdown::ParseEpisodes(const std::string& option, const std::string& text)
{
    return ParseWindows(option, text, true);
}

std::vector<SlowdownEpisode>
ComputeSlowdown::ParseWindows(const std::string& option, const std::string& text, bool withFactor)
{
    const auto first = text.find_first_not_of(" \t\n");
    if (first != std::string::npos && text[first] == '[')
    {
        return ParseJsonEpisodes(option, text, withFactor);
    }
    if (text.empty())
    {
        throw TrainingInputError(option + ": empty value (expected " + WindowSyntax(withFactor)
                                 + ")");
    }
    std::vector<SlowdownEpisode> out;
    for (const auto& entry : UnitParser::Split(text, ','))
    {
        out.push_back(ParseEntry(option, entry, withFactor));
    }
    return out;
}

StragglerProcess
ComputeSlowdown::ParseProcess(const std::string& option, const std::string& text)
{
    if (text == "0")
    {
        return {};
    }
    const std::vector<std::string> f = UnitParser::Split(text, ':');
    if (f.size() != 3)
    {
        throw TrainingInputError(option + ": cannot parse '" + text
                                 + "' (expected meanGap:meanLength:factor, e.g. 2s:100ms:2, or "
                                   "0 for none)");
    }
    StragglerProcess p;
    p.meanGap = ParsePositive(option, f[0], "mean gap");
    p.meanLength = ParsePositive(option, f[1], "mean length");
    p.factor = ParseFactor(option, f[2]);
    return p;
}

void
ComputeSlowdown::CheckWorkers(const std::vector<SlowdownEpisode>& episodes, uint32_t workers)
{
    for (const auto& e : episodes)
    {
        if (e.worker >= workers)
        {
            throw TrainingInputError("--slowdown: worker " + std::to_string(e.worker)
                                     + " of --workers=" + std::to_string(workers)
                                     + " (expected a worker index from 0 to "
                                     + std::to_string(workers - 1) + ")");
        }
    }
}

} // namespace ns3

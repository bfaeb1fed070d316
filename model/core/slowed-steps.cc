/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "slowed-steps.h"

#include "compute-slowdown.h"
#include "training-result.h"
#include "training-scenario.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>

namespace ns3
{

namespace
{

/// One step of a worker (or a sync run's global step): when it began and ended.
struct StepSpan
{
    uint32_t step; //!< the step
    double start;  //!< its start, s
    double end;    //!< its end, s
};

/// Largest number of async workers named in the note (the rest are counted).
constexpr std::size_t kNamedWorkers = 8;

/// \return a sync run's global steps: each ends at its last worker's end, begins at the previous
/// one's end (step 0 at its first worker's start); only steps every worker completed
std::vector<StepSpan>
SyncSpans(const TrainingScenario& s, const TrainingResult& r)
{
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<StepSpan> spans(s.steps, StepSpan{0, inf, -inf});
    std::vector<uint32_t> count(s.steps, 0);
    for (const auto& x : r.steps)
    {
        if (x.step < s.steps && x.worker < s.workers)
        {
            spans[x.step].start = std::min(spans[x.step].start, x.start);
            spans[x.step].end = std::max(spans[x.step].end, x.end);
            ++count[x.step];
        }
    }
    std::vector<StepSpan> out;
    for (uint32_t i = 0; i < s.steps && count[i] == s.workers; ++i)
    {
        out.push_back({i, i == 0 ? spans[0].start : out.back().end, spans[i].end});
    }
    return out;
}

/// \return per key (a worker for async, -1 for sync) its steps in step order
std::map<int64_t, std::vector<StepSpan>>
Spans(const TrainingScenario& s, const TrainingResult& r)
{
    std::map<int64_t, std::vector<StepSpan>> out;
    if (s.mode == TrainingScenario::SYNC)
    {
        out[-1] = SyncSpans(s, r);
        return out;
    }
    for (const auto& x : r.steps)
    {
        if (x.step < s.steps && x.worker < s.workers)
        {
            out[x.worker].push_back({x.step, x.start, x.end});
        }
    }
    for (auto& [w, v] : out)
    {
        std::sort(v.begin(),
                  v.end(),
                  [](const StepSpan& a, const StepSpan& b)
                  {
                      return a.step < b.step;
                  });
    }
    return out;
}

/// \return whether an episode of worker (any worker if -1) overlaps [a, b)
bool
Touches(const std::vector<SlowdownEpisode>& episodes, int64_t worker, double a, double b)
{
    for (const auto& e : episodes)
    {
        if ((worker < 0 || e.worker == worker) && e.start < b && e.End() > a)
        {
            return true;
        }
    }
    return false;
}

/// \return when the run's last step ended
double
LastEnd(const TrainingResult& r)
{
    double end = 0;
    for (const auto& x : r.steps)
    {
        end = std::max(end, x.end);
    }
    return end;
}

/// \return the median of v (0 if empty)
double
Median(std::vector<double> v)
{
    if (v.empty())
    {
        return 0;
    }
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// \return the baseline step time: the median of the untouched measured steps, or of all the
/// untouched ones (0 when every step is touched)
double
Baseline(const std::vector<StepSpan>& spans, const std::vector<bool>& touched, uint32_t warmup)
{
    std::vector<double> measured;
    std::vector<double> all;
    for (std::size_t i = 0; i < spans.size(); ++i)
    {
        if (!touched[i])
        {
            all.push_back(spans[i].end - spans[i].start);
            if (spans[i].step >= warmup)
            {
                measured.push_back(all.back());
            }
        }
    }
    return Median(measured.empty() ? all : measured);
}

/// \return the touched ranges of one key's steps
std::vector<SlowedSteps::Range>
RangesOf(int64_t key,
         const std::vector<StepSpan>& spans,
         const std::vector<SlowdownEpisode>& episodes,
         uint32_t warmup)
{
    std::vector<bool> touched(spans.size());
    for (std::size_t i = 0; i < spans.size(); ++i)
    {
        touched[i] = Touches(episodes, key, spans[i].start, spans[i].end);
    }
    const double base = Baseline(spans, touched, warmup);
    std::vector<SlowedSteps::Range> out;
    for (std::size_t i = 0; i < spans.size(); ++i)
    {
        if (!touched[i])
        {
            continue;
        }
        const double ratio = base > 0 ? (spans[i].end - spans[i].start) / base : 0;
        if (!out.empty() && out.back().last + 1 == spans[i].step)
        {
            out.back().last = spans[i].step;
            out.back().maxRatio = std::max(out.back().maxRatio, ratio);
            continue;
        }
        out.push_back({key, spans[i].step, spans[i].step, ratio});
    }
    return out;
}

/// \return "steps 1, 3-5 slower by up to 2.0x" for one key's ranges
std::string
Describe(const std::vector<SlowedSteps::Range>& ranges)
{
    std::string text = ranges.size() == 1 && ranges[0].first == ranges[0].last ? "step " : "steps ";
    double ratio = 0;
    for (std::size_t i = 0; i < ranges.size(); ++i)
    {
        text += (i ? ", " : "") + std::to_string(ranges[i].first);
        if (ranges[i].last != ranges[i].first)
        {
            text += "-" + std::to_string(ranges[i].last);
        }
        ratio = std::max(ratio, ranges[i].maxRatio);
    }
    char buf[64];
    std::snprintf(buf, sizeof(buf), " slower by up to %.2fx", ratio);
    return text + (ratio > 0 ? buf : " (every step touched: no baseline)");
}

} // namespace

std::vector<SlowedSteps::Range>
SlowedSteps::Find(const TrainingScenario& scenario, const TrainingResult& result)
{
    std::vector<Range> out;
    const auto slowdown = ComputeSlowdown::FromScenario(scenario);
    if (!slowdown)
    {
        return out;
    }
    const std::vector<SlowdownEpisode> episodes = slowdown->GetEpisodes(LastEnd(result));
    for (const auto& [key, spans] : Spans(scenario, result))
    {
        for (const auto& r : RangesOf(key, spans, episodes, scenario.warmup))
        {
            out.push_back(r);
        }
    }
    return out;
}

void
SlowedSteps::Annotate(const TrainingScenario& scenario, TrainingResult& result)
{
    const auto slowdown = ComputeSlowdown::FromScenario(scenario);
    if (!slowdown)
    {
        return;
    }
    const std::vector<Range> ranges = Find(scenario, result);
    const std::size_t episodes = slowdown->GetEpisodes(LastEnd(result)).size();
    double steps = 0;
    double ratio = 0;
    std::map<int64_t, std::vector<Range>> byKey;
    for (const auto& r : ranges)
    {
        steps += r.last - r.first + 1;
        ratio = std::max(ratio, r.maxRatio);
        byKey[r.worker].push_back(r);
    }
    result.inputs["slowdown_episodes"] = static_cast<double>(episodes);
    result.inputs["slowed_steps"] = steps;
    result.inputs["slowdown_max_step_ratio"] = ratio;
    std::string note = "slowdown episodes: " + std::to_string(episodes);
    std::size_t named = 0;
    for (const auto& [key, list] : byKey)
    {
        if (++named > kNamedWorkers)
        {
            note += "; and " + std::to_string(byKey.size() - kNamedWorkers) + " more workers";
            break;
        }
        note += (key < 0 ? ", " : "; worker " + std::to_string(key) + ": ") + Describe(list);
    }
    if (byKey.empty())
    {
        note += ", no step touched";
    }
    result.notes.push_back(note);
}

} // namespace ns3

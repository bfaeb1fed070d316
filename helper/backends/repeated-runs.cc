/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "repeated-runs.h"

#include "training-backend.h"

#include "ns3/abort.h"
#include "ns3/run-report.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>

namespace ns3
{

RepeatedRuns::Options
RepeatedRuns::FromSettings(const BackendSettings& settings)
{
    Options o;
    o.repeat = settings.repeat.value_or(1);
    o.target = settings.ciTarget;
    o.maxSteps = settings.maxSteps.value_or(MAX_STEPS);
    return o;
}

std::vector<uint64_t>
RepeatedRuns::Seeds(uint64_t seed, uint32_t n)
{
    std::vector<uint64_t> seeds(n);
    std::iota(seeds.begin(), seeds.end(), seed);
    return seeds;
}

std::vector<TrainingResult>
RepeatedRuns::Run(const RunFunction& run, const TrainingScenario& scenario, const Options& options)
{
    if (options.repeat <= 1 && !options.target)
    {
        return run(scenario); // a plain run, untouched
    }
    const std::vector<uint64_t> seeds = Seeds(scenario.seed, std::max<uint32_t>(options.repeat, 1));
    std::vector<std::vector<TrainingResult>> runs;
    for (uint64_t seed : seeds)
    {
        TrainingScenario s = scenario;
        s.seed = seed;
        runs.push_back(options.target ? RunToTarget(run, s, *options.target, options.maxSteps)
                                      : run(s));
    }
    if (runs.size() == 1)
    {
        return runs.front();
    }
    // Variant j of every run makes result j (a backend returns its variants in a fixed order).
    std::vector<TrainingResult> out;
    for (std::size_t j = 0; j < runs.front().size(); ++j)
    {
        std::vector<TrainingResult> variant;
        const std::string name = runs.front()[j].variant;
        for (auto& r : runs)
        {
            NS_ABORT_MSG_UNLESS(r.size() == runs.front().size() && r[j].variant == name,
                                "a backend returned other variants for another seed");
            variant.push_back(std::move(r[j]));
        }
        out.push_back(Summarise(std::move(variant), seeds));
    }
    return out;
}

TrainingResult
RepeatedRuns::Summarise(std::vector<TrainingResult> runs, const std::vector<uint64_t>& seeds)
{
    NS_ASSERT(!runs.empty());
    double wall = 0;
    std::vector<double> throughputs;
    bool identical = true;
    for (const auto& r : runs)
    {
        wall += r.wallSeconds;
        throughputs.push_back(r.throughput);
        identical = identical && r.throughput == runs.front().throughput
                    && r.stepTimeMean == runs.front().stepTimeMean;
    }
    // The median run (of an even count, the upper middle one) stands for the point, with its
    // own records, so that throughput, step times and records stay one consistent run.
    std::vector<std::size_t> order(runs.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(),
                     order.end(),
                     [&throughputs](std::size_t a, std::size_t b)
                     {
                         return throughputs[a] < throughputs[b];
                     });
    const std::size_t median = order[order.size() / 2];
    TrainingResult r = std::move(runs[median]);
    const double lo = throughputs[order.front()];
    const double hi = throughputs[order.back()];
    r.wallSeconds = wall;
    r.inputs["repeat"] = static_cast<double>(runs.size());
    r.inputs["throughput_min"] = lo;
    r.inputs["throughput_max"] = hi;
    r.inputs["throughput_spread"] = r.throughput > 0 ? (hi - lo) / r.throughput : 0;
    if (runs.size() < 2)
    {
        return r;
    }
    r.notes.push_back(
        RunReport::Format("%zu runs: median throughput %.4g samples/s (the median run's records), "
                          "min %.4g, max %.4g, spread (max - min) / median %.1f %%",
                          runs.size(),
                          r.throughput,
                          lo,
                          hi,
                          100 * r.inputs["throughput_spread"]));
    const ConfidenceInterval::Estimate e = ConfidenceInterval::OfMean(throughputs);
    TrainingResult::RepeatSummary summary;
    summary.seeds = seeds;
    summary.throughputs = throughputs;
    summary.mean = e.mean;
    summary.ciLow = e.Low();
    summary.ciHigh = e.High();
    summary.shownSeed = median < seeds.size() ? seeds[median] : 0;
    summary.identical = identical;
    r.repeat = summary;
    if (identical)
    {
        r.notes.push_back(
            RunReport::Format("the %zu runs are bit-identical: the %s backend is deterministic "
                              "for this scenario (no sampled step times, no start jitter), so "
                              "the interval has zero width",
                              runs.size(),
                              r.backend.c_str()));
    }
    return r;
}

std::vector<double>
RepeatedRuns::StepTimes(const TrainingResult& r, uint32_t warmup)
{
    std::map<uint32_t, double> ends; // E_s
    double firstStart = std::numeric_limits<double>::infinity();
    for (const auto& s : r.steps)
    {
        auto [it, added] = ends.emplace(s.step, s.end);
        it->second = std::max(it->second, s.end);
        if (s.step == 0)
        {
            firstStart = std::min(firstStart, s.start);
        }
    }
    double previous = firstStart;
    if (warmup > 0)
    {
        const auto it = ends.find(warmup - 1);
        if (it == ends.end())
        {
            return {};
        }
        previous = it->second;
    }
    std::vector<double> times;
    for (auto it = ends.lower_bound(warmup); it != ends.end(); ++it)
    {
        times.push_back(it->second - previous);
        previous = it->second;
    }
    return times;
}

double
RepeatedRuns::WorstHalfWidth(const std::vector<TrainingResult>& results, uint32_t warmup)
{
    double worst = 0;
    for (const auto& r : results)
    {
        const auto times = StepTimes(r, warmup);
        if (!times.empty())
        {
            worst = std::max(worst, ConfidenceInterval::OfBatchMeans(times).RelativeHalfWidth());
        }
    }
    return worst;
}

std::vector<TrainingResult>
RepeatedRuns::RunToTarget(const RunFunction& run,
                          TrainingScenario scenario,
                          double target,
                          uint32_t maxSteps)
{
    std::vector<TrainingResult> results = run(scenario);
    // Doubling the steps re-runs at most twice the work of the last run in all (a run cannot
    // be continued from outside its backend; with the same seed it repeats its first steps).
    while (WorstHalfWidth(results, scenario.warmup) > target && scenario.steps < maxSteps)
    {
        scenario.steps = static_cast<uint32_t>(std::min<uint64_t>(2ULL * scenario.steps, maxSteps));
        results = run(scenario);
    }
    for (auto& r : results)
    {
        const auto times = StepTimes(r, scenario.warmup);
        if (times.empty())
        {
            r.notes.push_back("--ciTarget: the " + r.backend
                              + " backend has no step records "
                                "here (a closed form): its step time has no interval to narrow");
            continue;
        }
        const ConfidenceInterval::Estimate e = ConfidenceInterval::OfBatchMeans(times);
        TrainingResult::StepInterval interval;
        interval.steps = scenario.steps;
        interval.batches = e.samples;
        interval.target = target;
        interval.relativeHalfWidth = e.RelativeHalfWidth();
        interval.stepTimeMean = e.mean;
        interval.capped = interval.relativeHalfWidth > target;
        r.stepInterval = interval;
        if (interval.capped)
        {
            r.notes.push_back(
                RunReport::Format("--maxSteps=%u stopped the run before its step time's 95 %% "
                                  "interval reached --ciTarget=%g (half-width %.3g %% of the "
                                  "mean, %u batch means)",
                                  maxSteps,
                                  target,
                                  100 * interval.relativeHalfWidth,
                                  interval.batches));
        }
    }
    return results;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-result.h"

#include "training-profile.h"
#include "training-scenario.h"

#include "ns3/log.h"

#include <algorithm>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingResult");

void
TrainingResult::Finalize(const TrainingScenario& scenario, uint32_t batchSize)
{
    NS_LOG_FUNCTION(this << batchSize);
    const uint32_t k = scenario.workers;
    const uint32_t n = scenario.steps;
    const uint32_t w = scenario.warmup;
    throughput = 0;
    stepTimeMean = 0;
    windowStart = windowEnd = 0;
    if (steps.empty() || n <= w)
    {
        notes.push_back("no step completed: throughput is 0");
        return;
    }
    const double inf = std::numeric_limits<double>::infinity();
    // Per step index: latest end; per worker: end of its warm-up and of its last step.
    std::vector<double> latestEnd(n, -inf);
    std::vector<uint32_t> count(n, 0);
    std::vector<double> warmEnd(k, -inf);
    std::vector<double> lastEnd(k, -inf);
    std::vector<uint32_t> perWorker(k, 0);
    double firstStart = inf;
    for (const auto& s : steps)
    {
        if (s.step >= n || s.worker >= k)
        {
            continue;
        }
        latestEnd[s.step] = std::max(latestEnd[s.step], s.end);
        ++count[s.step];
        ++perWorker[s.worker];
        lastEnd[s.worker] = std::max(lastEnd[s.worker], s.end);
        if (s.step + 1 == w)
        {
            warmEnd[s.worker] = s.end;
        }
        if (s.step == 0)
        {
            firstStart = std::min(firstStart, s.start);
        }
    }
    if (w == 0)
    {
        std::fill(warmEnd.begin(), warmEnd.end(), firstStart);
    }

    if (scenario.mode == TrainingScenario::SYNC)
    {
        uint32_t done = 0;
        while (done < n && count[done] == k)
        {
            ++done;
        }
        if (done <= w)
        {
            notes.push_back("fewer steps than warm-up completed: throughput is 0");
            return;
        }
        windowStart = w == 0 ? firstStart : latestEnd[w - 1];
        windowEnd = latestEnd[done - 1];
        double window = windowEnd - windowStart;
        if (done < n)
        {
            notes.push_back("only " + std::to_string(done) + " of " + std::to_string(n)
                            + " steps completed by every worker");
        }
        if (window > 0)
        {
            throughput = static_cast<double>(k) * batchSize * (done - w) / window;
            stepTimeMean = window / (done - w);
        }
        return;
    }

    // Async.
    windowStart = *std::max_element(warmEnd.begin(), warmEnd.end());
    windowEnd = *std::min_element(lastEnd.begin(), lastEnd.end());
    if (!(windowEnd > windowStart))
    {
        notes.push_back("async window is empty (a worker finished before another's warm-up)");
        return;
    }
    uint64_t inWindow = 0;
    double sum = 0;
    uint64_t measured = 0;
    for (const auto& s : steps)
    {
        if (s.end > windowStart && s.end <= windowEnd)
        {
            ++inWindow;
        }
        if (s.step >= w)
        {
            sum += s.end - s.start;
            ++measured;
        }
    }
    throughput = static_cast<double>(batchSize) * inWindow / (windowEnd - windowStart);
    stepTimeMean = measured ? sum / measured : 0;
}

double
TrainingResult::GetMeanDownlinkTime(uint32_t warmup) const
{
    std::map<uint32_t, double> start;
    std::map<uint32_t, double> end;
    for (const auto& s : steps)
    {
        auto it = start.find(s.step);
        start[s.step] = it == start.end() ? s.start : std::min(it->second, s.start);
    }
    for (const auto& t : transfers)
    {
        if (t.direction == "down")
        {
            end[t.step] = std::max(end[t.step], t.end);
        }
    }
    double sum = 0;
    uint32_t n = 0;
    for (const auto& [step, last] : end)
    {
        auto it = start.find(step);
        if (step >= warmup && it != start.end())
        {
            sum += last - it->second;
            ++n;
        }
    }
    return n ? sum / n : 0;
}

std::string
TrainingResult::ToJson(bool includeRecords) const
{
    nlohmann::ordered_json j;
    j["backend"] = backend;
    j["variant"] = variant;
    j["throughput_samples_per_s"] = throughput;
    j["step_time_mean_s"] = stepTimeMean;
    j["window_s"] = {windowStart, windowEnd};
    j["wall_time_s"] = wallSeconds;
    j["bottleneck"] = bottleneck;
    j["link_utilisation"] = linkUtilisation;
    j["inputs"] = inputs;
    j["notes"] = notes;
    if (includeRecords)
    {
        auto stepsJson = nlohmann::ordered_json::array();
        for (const auto& s : steps)
        {
            stepsJson.push_back(
                {{"worker", s.worker}, {"step", s.step}, {"start_s", s.start}, {"end_s", s.end}});
        }
        j["steps"] = std::move(stepsJson);
        auto transfersJson = nlohmann::ordered_json::array();
        for (const auto& t : transfers)
        {
            transfersJson.push_back({{"worker", t.worker},
                                     {"peer", t.peer},
                                     {"step", t.step},
                                     {"tensor", t.tensor},
                                     {"direction", t.direction},
                                     {"bytes", t.bytes},
                                     {"start_s", t.start},
                                     {"end_s", t.end}});
        }
        j["transfers"] = std::move(transfersJson);
    }
    return j.dump();
}

std::string
TrainingResult::MakeDocument(const TrainingProfile& profile,
                             const TrainingScenario& scenario,
                             const std::vector<TrainingResult>& results,
                             bool includeRecords)
{
    nlohmann::ordered_json doc;
    doc["scenario"] = nlohmann::ordered_json::parse(scenario.ToJson());
    doc["profile"] = {{"model", profile.GetModel()},
                      {"file", profile.GetSourceName()},
                      {"batch_size", profile.GetBatchSize()},
                      {"layers", profile.GetNLayers()},
                      {"param_bytes", profile.GetTotalParamBytes()},
                      {"device", profile.GetProvenanceField("device")},
                      {"derived", profile.IsDerived()}};
    auto list = nlohmann::ordered_json::array();
    for (const auto& r : results)
    {
        list.push_back(nlohmann::ordered_json::parse(r.ToJson(includeRecords)));
    }
    doc["results"] = std::move(list);
    return doc.dump(1);
}

} // namespace ns3

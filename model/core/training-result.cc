/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-result.h"

#include "slowed-steps.h"
#include "training-input-error.h"
#include "training-profile.h"
#include "training-scenario.h"
#include "worker-absences.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingResult");

namespace
{

/// One worker's completed steps, as Finalize() reads them.
struct WorkerSteps
{
    double firstStart{std::numeric_limits<double>::infinity()}; //!< start of its first step
    double warmEnd{0}; //!< end of its last warm-up step (first start without warm-up)
    double lastEnd{-std::numeric_limits<double>::infinity()}; //!< end of its last step
    uint32_t completed{0};                                    //!< steps it completed
    std::vector<std::pair<uint32_t, double>> ends;            //!< (step index, end) per step
};

/// Per worker: its completed steps (records outside the scenario's K x N are ignored).
std::vector<WorkerSteps>
CollectWorkerSteps(const std::vector<TrainingResult::StepRecord>& steps,
                   uint32_t k,
                   uint32_t n,
                   uint32_t w)
{
    std::vector<WorkerSteps> ws(k);
    for (const auto& s : steps)
    {
        if (s.step >= n || s.worker >= k)
        {
            continue;
        }
        WorkerSteps& x = ws[s.worker];
        x.firstStart = std::min(x.firstStart, s.start);
        x.lastEnd = std::max(x.lastEnd, s.end);
        ++x.completed;
        x.ends.emplace_back(s.step, s.end);
        if (w > 0 && s.step + 1 == w)
        {
            x.warmEnd = s.end;
        }
    }
    for (auto& x : ws)
    {
        if (w == 0)
        {
            x.warmEnd = x.firstStart;
        }
    }
    return ws;
}

/**
 * \param m a map (keys sorted and unique)
 * \return it as a JSON object in the same order, built in linear time: assigning a std::map
 * to an ordered_json inserts key by key, each insert a linear search for a duplicate, which
 * made the --output file of K = 100,000 workers (a key per link) quadratic
 */
nlohmann::ordered_json
SortedObject(const std::map<std::string, double>& m)
{
    return nlohmann::ordered_json(nlohmann::ordered_json::object_t(m.begin(), m.end()));
}

std::string
Seconds3(double s)
{
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.4g s", s);
    return buf;
}

/**
 * \param scenario an async run's scenario
 * \param worker a worker with no measured step
 * \param allActiveEnd T_A
 * \return why, when the worker has --leave windows (else "")
 */
std::string
LeaveTooShortMessage(const TrainingScenario& scenario, uint32_t worker, double allActiveEnd)
{
    std::string away;
    for (const auto& l : scenario.leave)
    {
        if (l.worker == worker && l.start < allActiveEnd) // (a window after T_A is no cause)
        {
            away += ", " + Seconds3(l.start) + " to " + Seconds3(l.End());
        }
    }
    if (away.empty())
    {
        return "";
    }
    return "--leave/--steps: async run too short to measure: worker " + std::to_string(worker)
           + " is away" + away.substr(1)
           + " (--leave) and completes no step after its warm-up while every worker is still "
             "running (the first worker finished at "
           + Seconds3(allActiveEnd)
           + ") (expected windows that end well before the other workers finish their --steps="
           + std::to_string(scenario.steps) + ", or more --steps)";
}

} // namespace

TrainingResult::TrainingResult(std::shared_ptr<RecordSink> sink)
    : recordStream(std::move(sink)),
      recordsRun(recordStream ? recordStream->NewRun() : 0)
{
}

nlohmann::ordered_json
TrainingResult::RecordJson(const StepRecord& r)
{
    return {{"worker", r.worker}, {"step", r.step}, {"start_s", r.start}, {"end_s", r.end}};
}

nlohmann::ordered_json
TrainingResult::RecordJson(const TransferRecord& r)
{
    return {{"worker", r.worker},
            {"peer", r.peer},
            {"step", r.step},
            {"tensor", r.tensor},
            {"direction", r.direction},
            {"bytes", r.bytes},
            {"start_s", r.start},
            {"end_s", r.end}};
}

void
TrainingResult::AddStep(const StepRecord& r)
{
    steps.push_back(r);
    if (recordStream)
    {
        recordStream->WriteStep(recordsRun, r);
    }
}

void
TrainingResult::AddTransfer(const TransferRecord& r)
{
    if (recordStream)
    {
        recordStream->WriteTransfer(recordsRun, r);
        ++streamedTransfers;
    }
    else
    {
        transfers.push_back(r);
    }
}

void
TrainingResult::Finalize(const TrainingScenario& scenario, uint32_t batchSize)
{
    NS_LOG_FUNCTION(this << batchSize);
    throughput = 0;
    stepTimeMean = 0;
    windowStart = windowEnd = 0;
    const uint32_t n = scenario.steps;
    const uint32_t w = scenario.warmup;
    if (n <= w)
    {
        throw TrainingInputError("--warmup: " + std::to_string(w)
                                 + " warm-up steps of --steps=" + std::to_string(n)
                                 + " leave no step to measure (expected "
                                   "--steps of at least "
                                 + std::to_string(w + 1) + ")");
    }
    if (scenario.mode == TrainingScenario::SYNC)
    {
        FinalizeSync(scenario, batchSize);
    }
    else
    {
        FinalizeAsync(scenario, batchSize);
        NoteAbsences();
    }
    SlowedSteps::Annotate(scenario, *this);
}

void
TrainingResult::FinalizeSync(const TrainingScenario& scenario, uint32_t batchSize)
{
    const uint32_t k = scenario.workers;
    const uint32_t n = scenario.steps;
    const uint32_t w = scenario.warmup;
    // Per step index: latest end among the workers (the barrier) and how many workers did it.
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> latestEnd(n, -inf);
    std::vector<uint32_t> count(n, 0);
    double firstStart = inf;
    for (const auto& s : steps)
    {
        if (s.step >= n || s.worker >= k)
        {
            continue;
        }
        latestEnd[s.step] = std::max(latestEnd[s.step], s.end);
        ++count[s.step];
        if (s.step == 0)
        {
            firstStart = std::min(firstStart, s.start);
        }
    }
    uint32_t done = 0;
    while (done < n && count[done] == k)
    {
        ++done;
    }
    if (done <= w)
    {
        throw TrainingInputError(
            "--steps: only " + std::to_string(done) + " of " + std::to_string(n)
            + " steps were completed by every worker (the simulation stopped early), none after "
              "the --warmup="
            + std::to_string(w) + " warm-up steps (expected at least " + std::to_string(w + 1)
            + " completed steps: a later stop time or fewer steps)");
    }
    windowStart = w == 0 ? firstStart : latestEnd[w - 1];
    windowEnd = latestEnd[done - 1];
    const double window = windowEnd - windowStart;
    if (done < n)
    {
        notes.push_back("only " + std::to_string(done) + " of " + std::to_string(n)
                        + " steps completed by every worker");
    }
    if (!(window > 0))
    {
        throw TrainingInputError("--steps: the measured sync steps took no simulated time "
                                 "(expected a positive window; is the profile empty?)");
    }
    throughput = static_cast<double>(k) * batchSize * (done - w) / window;
    stepTimeMean = window / (done - w);
}

void
TrainingResult::FinalizeAsync(const TrainingScenario& scenario, uint32_t batchSize)
{
    const uint32_t k = scenario.workers;
    const uint32_t w = scenario.warmup;
    const std::vector<WorkerSteps> ws = CollectWorkerSteps(steps, k, scenario.steps, w);
    // Every worker is active until the first one has done its last step.
    double allActiveEnd = std::numeric_limits<double>::infinity();
    for (const auto& x : ws)
    {
        allActiveEnd = std::min(allActiveEnd, x.lastEnd);
    }
    absences = WorkerAbsences::Measure(scenario, steps);
    double rateSum = 0;
    double periodSum = 0;
    windowStart = -std::numeric_limits<double>::infinity();
    for (uint32_t i = 0; i < k; ++i)
    {
        uint32_t measured = 0;
        double end = -std::numeric_limits<double>::infinity();
        for (const auto& [step, e] : ws[i].ends)
        {
            if (step >= w && e <= allActiveEnd)
            {
                ++measured;
                end = std::max(end, e);
            }
        }
        const double time
            = end - ws[i].warmEnd + AwayAfter(i, measured, {ws[i].warmEnd, end}, allActiveEnd);
        if (measured == 0 || !(time > 0))
        {
            throw TrainingInputError(AsyncTooShortMessage(scenario, i, allActiveEnd));
        }
        rateSum += measured / time;
        periodSum += time / measured;
        windowStart = std::max(windowStart, ws[i].warmEnd);
    }
    windowEnd = allActiveEnd;
    throughput = batchSize * rateSum;
    stepTimeMean = periodSum / k;
}

double
TrainingResult::AwayAfter(uint32_t worker,
                          uint32_t measured,
                          std::pair<double, double> span,
                          double allActiveEnd)
{
    if (absences.empty())
    {
        return 0;
    }
    const auto [warmEnd, end] = span;
    // A worker's time away inside its measured span [warmEnd, T_A] counts as its time with no
    // step: the part before its last measured step's end is already in end - warmEnd; the part
    // after it (a worker away when the window closes) is added. Each window records its share
    // and the steps it cost at the worker's rate while present.
    // (absences are sorted by worker: Measure)
    const auto [first, last] = std::equal_range(absences.begin(),
                                                absences.end(),
                                                AbsenceRecord{worker},
                                                [](const AbsenceRecord& a, const AbsenceRecord& b)
                                                {
                                                    return a.worker < b.worker;
                                                });
    double inside = 0;
    double after = 0;
    for (auto a = first; a != last; ++a)
    {
        inside += WorkerAbsences::AwayIn(*a, warmEnd, end);
        after += WorkerAbsences::AwayIn(*a, end, allActiveEnd);
    }
    const double present = end - warmEnd - inside;
    for (auto a = first; a != last; ++a)
    {
        a->away = WorkerAbsences::AwayIn(*a, warmEnd, allActiveEnd);
        a->missedSteps = present > 0 ? a->away * measured / present : 0;
    }
    return after;
}

void
TrainingResult::NoteAbsences()
{
    if (absences.empty())
    {
        return;
    }
    double away = 0;
    double missed = 0;
    std::string note = "workers away (--leave):";
    char buf[160];
    constexpr std::size_t named = 8; // the rest are in the result's absences
    for (const auto& a : absences)
    {
        away += a.away;
        missed += a.missedSteps;
        if (&a - absences.data() >= static_cast<std::ptrdiff_t>(named))
        {
            continue;
        }
        if (a.left < a.end)
        {
            std::snprintf(
                buf,
                sizeof(buf),
                " worker %u %.4g-%.4g s, %.4g s of it in the measured window, %.3g steps missed;",
                a.worker,
                a.left,
                a.end,
                a.away,
                a.missedSteps);
        }
        else
        {
            std::snprintf(buf,
                          sizeof(buf),
                          " worker %u stayed (its step in progress at %.4g s ran past %.4g s);",
                          a.worker,
                          a.start,
                          a.end);
        }
        note += buf;
    }
    note.pop_back();
    if (absences.size() > named)
    {
        note += "; and " + std::to_string(absences.size() - named) + " more windows (absences)";
    }
    notes.push_back(note);
    inputs["away_s"] = away;
    inputs["missed_steps"] = missed;
}

std::string
TrainingResult::AsyncTooShortMessage(const TrainingScenario& scenario,
                                     uint32_t worker,
                                     double allActiveEnd) const
{
    const uint32_t k = scenario.workers;
    const uint32_t n = scenario.steps;
    const uint32_t w = scenario.warmup;
    const std::string away = LeaveTooShortMessage(scenario, worker, allActiveEnd);
    if (!away.empty())
    {
        return away;
    }
    const std::vector<WorkerSteps> ws = CollectWorkerSteps(steps, k, n, w);
    // Estimate: the fastest worker's N steps must outlast the slowest one's warm-up and one
    // measured step, N d_fast >= (w + 1) d_slow, with d the mean step time of each worker.
    double fastest = std::numeric_limits<double>::infinity();
    double slowest = 0;
    for (const auto& x : ws)
    {
        if (x.completed == 0)
        {
            return "--steps: worker " + std::to_string(&x - ws.data())
                   + " completed no step (the simulation stopped early; expected every worker "
                     "to complete at least --warmup + 1 = "
                   + std::to_string(w + 1) + " steps)";
        }
        const double d = (x.lastEnd - x.firstStart) / x.completed;
        fastest = std::min(fastest, d);
        slowest = std::max(slowest, d);
    }
    const double ratio = fastest > 0 ? slowest / fastest : 1;
    const auto estimate = static_cast<uint64_t>(std::ceil((w + 1) * ratio - 1e-9));
    const uint64_t needed = std::max<uint64_t>(estimate, uint64_t{n} + 1);
    return "--steps/--warmup: async run too short to measure: with --steps=" + std::to_string(n)
           + " and --warmup=" + std::to_string(w) + ", worker " + std::to_string(worker)
           + " completes no step after its warm-up while every worker is still running (the "
             "first worker finished at "
           + Seconds3(allActiveEnd) + "; step times range from " + Seconds3(fastest) + " to "
           + Seconds3(slowest)
           + " per worker) (expected --steps of "
             "at least about "
           + std::to_string(needed)
           + " = ceil((warmup + 1) x slowest / "
             "fastest step time), or a smaller --warmup)";
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

bool
TrainingResult::ServerUpdateSetsStep(double update, double compute, double step)
{
    return update > compute && update > step - update - compute;
}

void
TrainingResult::NameServerUpdate(const TrainingProfile& profile, const TrainingScenario& scenario)
{
    if (scenario.architecture != TrainingScenario::PARAMETER_SERVER)
    {
        return;
    }
    const std::vector<uint32_t> owner = scenario.AssignLayersToServers(profile);
    std::vector<double> update(std::max<uint32_t>(scenario.servers, 1), 0.0);
    for (std::size_t l = 0; l < owner.size(); ++l)
    {
        update[owner[l]] += profile.GetLayer(l).updateUs * 1e-6;
    }
    double scale = 0;
    for (uint32_t w = 0; w < scenario.workers; ++w)
    {
        scale = std::max(scale, scenario.GetComputeScale(w));
    }
    const double compute
        = scale * (profile.GetForwardTime() + profile.GetBackwardTime()).GetSeconds();
    if (ServerUpdateSetsStep(*std::max_element(update.begin(), update.end()),
                             compute,
                             stepTimeMean))
    {
        bottleneck = SERVER_UPDATE;
    }
}

bool
TrainingResult::IsComputeBound() const
{
    const auto link = linkUtilisation.find(bottleneck);
    if (link == linkUtilisation.end())
    {
        return bottleneck == "worker-compute";
    }
    return link->second < COMPUTE_BOUND_UTILISATION;
}

nlohmann::ordered_json
TrainingResult::ToJsonObject(bool includeRecords) const
{
    nlohmann::ordered_json j;
    j["backend"] = backend;
    j["variant"] = variant;
    j["throughput_samples_per_s"] = throughput;
    j["step_time_mean_s"] = stepTimeMean;
    j["window_s"] = {windowStart, windowEnd};
    j["wall_time_s"] = wallSeconds;
    j["bottleneck"] = bottleneck;
    j["compute_bound"] = IsComputeBound();
    j["link_utilisation"] = SortedObject(linkUtilisation);
    j["inputs"] = SortedObject(inputs);
    j["notes"] = notes;
    if (repeat)
    {
        j["repeat"] = {{"runs", repeat->throughputs.size()},
                       {"seeds", repeat->seeds},
                       {"samples_per_s", repeat->throughputs},
                       {"mean", repeat->mean},
                       {"ci95", {repeat->ciLow, repeat->ciHigh}},
                       {"shown_seed", repeat->shownSeed},
                       {"identical", repeat->identical}};
    }
    if (stepInterval)
    {
        j["step_interval"] = {{"steps", stepInterval->steps},
                              {"batches", stepInterval->batches},
                              {"target", stepInterval->target},
                              {"relative_half_width", stepInterval->relativeHalfWidth},
                              {"step_time_mean_s", stepInterval->stepTimeMean},
                              {"capped", stepInterval->capped}};
    }
    for (const auto& a : absences)
    {
        j["absences"].push_back({{"worker", a.worker},
                                 {"start_s", a.start},
                                 {"end_s", a.end},
                                 {"left_s", a.left},
                                 {"away_s", a.away},
                                 {"missed_steps", a.missedSteps}});
    }
    if (includeRecords && recordStream)
    {
        j["records_file"] = recordStream->GetPath();
        j["records_run"] = recordsRun;
        j["records_streamed"] = {{"steps", steps.size()}, {"transfers", streamedTransfers}};
    }
    else if (includeRecords)
    {
        auto stepsJson = nlohmann::ordered_json::array();
        stepsJson.get_ref<nlohmann::ordered_json::array_t&>().reserve(steps.size());
        for (const auto& s : steps)
        {
            stepsJson.push_back(RecordJson(s));
        }
        j["steps"] = std::move(stepsJson);
        auto transfersJson = nlohmann::ordered_json::array();
        transfersJson.get_ref<nlohmann::ordered_json::array_t&>().reserve(transfers.size());
        for (const auto& t : transfers)
        {
            transfersJson.push_back(RecordJson(t));
        }
        j["transfers"] = std::move(transfersJson);
    }
    return j;
}

std::string
TrainingResult::ToJson(bool includeRecords) const
{
    return ToJsonObject(includeRecords).dump();
}

void
TrainingResult::CheckSane(const TrainingScenario& s) const
{
    if (std::isfinite(throughput) && throughput > 0 && std::isfinite(stepTimeMean)
        && stepTimeMean > 0)
    {
        return;
    }
    std::string scale;
    for (double c : s.computeScale)
    {
        scale += (scale.empty() ? "" : ",") + TrainingInputError::Number(c);
    }
    throw TrainingInputError(
        backend + " " + variant + ": throughput " + TrainingInputError::Number(throughput)
        + " samples/s, mean step time " + TrainingInputError::Number(stepTimeMean)
        + " s (expected finite positive values; the scenario's scales leave what the simulation "
          "can represent: look at --computeScale="
        + (scale.empty() ? "1" : scale)
        + ", --reductionRate=" + TrainingInputError::Number(s.reductionRate)
        + ", --nicRate=" + TrainingInputError::Number(s.nicRate.GetBitRate())
        + "bps, --intraBw=" + TrainingInputError::Number(s.intraBandwidth.GetBitRate())
        + "bps, --linkDelay=" + TrainingInputError::Number(s.linkDelay.GetSeconds())
        + "s and the profile's compute times)");
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
        list.push_back(r.ToJsonObject(includeRecords));
    }
    doc["results"] = std::move(list);
    return doc.dump(1);
}

} // namespace ns3

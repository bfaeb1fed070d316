/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "configuration-optimizer.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/kernel-backend.h"
#include "ns3/run-report.h"
#include "ns3/string.h"
#include "ns3/training-backend.h"
#include "ns3/training-input-error.h"
#include "ns3/training-result.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>

namespace ns3
{

namespace
{

/// \return s split at commas
std::vector<std::string>
SplitCsv(const std::string& s)
{
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string field;
    while (std::getline(in, field, ','))
    {
        out.push_back(field);
    }
    return out;
}

/// \return a number of a table field, or throws naming the source, line and column
double
TableNumber(const std::string& text,
            const std::string& source,
            std::size_t line,
            const std::string& column)
{
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v))
    {
        throw TrainingInputError(source + ": line " + std::to_string(line) + ": " + column + " = '"
                                 + text + "' (expected a number)");
    }
    return v;
}

/// \return seconds since t0
double
Since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// \return the bytes as "25MB", "512KB" or "0"
std::string
Bytes(uint64_t b)
{
    if (b >= 1000000 && b % 1000000 == 0)
    {
        return std::to_string(b / 1000000) + "MB";
    }
    if (b >= 1000 && b % 1000 == 0)
    {
        return std::to_string(b / 1000) + "KB";
    }
    return std::to_string(b);
}

/// \return the rows' indices with the rung done, best throughput first
std::vector<std::size_t>
RankedAt(const std::vector<ConfigurationOptimizer::Row>& rows, int rung)
{
    std::vector<std::size_t> idx;
    for (std::size_t i = 0; i < rows.size(); ++i)
    {
        if (rows[i].rungs[rung].done)
        {
            idx.push_back(i);
        }
    }
    std::stable_sort(idx.begin(),
                     idx.end(),
                     [&](std::size_t a, std::size_t b)
                     {
                         return rows[a].rungs[rung].throughput > rows[b].rungs[rung].throughput;
                     });
    return idx;
}

} // namespace

// ---- OptimizerCandidate ---------------------------------------------------------------------

uint32_t
OptimizerCandidate::Machines() const
{
    const bool own = architecture == TrainingScenario::PARAMETER_SERVER
                     && placement == TrainingScenario::SEPARATE_SERVERS;
    return workers + (own ? servers : 0);
}

std::string
OptimizerCandidate::Label() const
{
    std::string s;
    if (architecture == TrainingScenario::RING_ALLREDUCE)
    {
        s = "ring K=" + std::to_string(workers) + " Q=" + Bytes(bucketBytes);
        s += firstBucketBytes ? " F=" + Bytes(firstBucketBytes) : "";
    }
    else
    {
        s = std::string(mode == TrainingScenario::SYNC ? "ps-sync" : "ps-async")
            + " K=" + std::to_string(workers) + " P=" + std::to_string(servers);
        s += placement == TrainingScenario::COLOCATED_SERVERS ? " coloc" : "";
        s += partition == TrainingScenario::ROUND_ROBIN_PARTITION ? " rr" : "";
        s += order == TrainingScenario::REVERSE_ORDER  ? " rev"
             : order == TrainingScenario::RANDOM_ORDER ? " rand"
                                                       : "";
        s += windowBytes ? " W=" + Bytes(windowBytes) : "";
    }
    return s + (overlap ? " ov" : "");
}

std::string
OptimizerCandidate::Class() const
{
    if (architecture == TrainingScenario::RING_ALLREDUCE)
    {
        return "ring";
    }
    return std::string(mode == TrainingScenario::SYNC ? "ps-sync" : "ps-async")
           + (overlap ? "-overlap" : "");
}

TrainingScenario
OptimizerCandidate::Apply(const TrainingScenario& base) const
{
    const bool ring = architecture == TrainingScenario::RING_ALLREDUCE;
    TrainingScenario s = base;
    s.architecture = architecture;
    s.mode = ring ? TrainingScenario::SYNC : mode;
    s.workers = workers;
    s.servers = ring ? 1 : servers;
    s.bucketBytes = ring ? bucketBytes : 0;
    s.firstBucketBytes = ring ? firstBucketBytes : 0;
    s.overlap = overlap;
    s.serverPlacement = ring ? TrainingScenario::SEPARATE_SERVERS : placement;
    s.partition = partition;
    s.order = order;
    s.windowBytes = ring ? 0 : windowBytes;
    return s;
}

// ---- OptimizerErrorTable --------------------------------------------------------------------

OptimizerErrorTable
OptimizerErrorTable::LoadFromString(const std::string& text, const std::string& source)
{
    static const std::vector<std::string>
        header{"class", "backend", "variant", "points", "mean", "p05", "p95", "mean_abs"};
    OptimizerErrorTable t;
    std::stringstream in(text);
    std::string line;
    bool sawHeader = false;
    for (std::size_t n = 1; std::getline(in, line); ++n)
    {
        if (line.empty() || line[0] == '#')
        {
            continue;
        }
        const std::vector<std::string> f = SplitCsv(line);
        if (!sawHeader)
        {
            if (f != header)
            {
                throw TrainingInputError(source + ": line " + std::to_string(n)
                                         + ": expected the header class,backend,variant,points,"
                                           "mean,p05,p95,mean_abs");
            }
            sawHeader = true;
            continue;
        }
        if (f.size() != header.size())
        {
            throw TrainingInputError(source + ": line " + std::to_string(n) + ": "
                                     + std::to_string(f.size()) + " fields (expected 8)");
        }
        Row r{f[0], f[1], f[2], 0, 0, 0, 0, 0};
        r.points = uint32_t(TableNumber(f[3], source, n, "points"));
        r.mean = TableNumber(f[4], source, n, "mean");
        r.p05 = TableNumber(f[5], source, n, "p05");
        r.p95 = TableNumber(f[6], source, n, "p95");
        r.meanAbs = TableNumber(f[7], source, n, "mean_abs");
        if (!(r.p05 <= r.p95) || r.p05 <= -1)
        {
            throw TrainingInputError(source + ": line " + std::to_string(n)
                                     + ": p05 > p95 or p05 <= -1 (expected -1 < p05 <= p95)");
        }
        t.m_rows.push_back(r);
    }
    if (!sawHeader)
    {
        throw TrainingInputError(source
                                 + ": no header line (expected a CSV written by "
                                   "examples/optimizer-error-table.py)");
    }
    return t;
}

OptimizerErrorTable
OptimizerErrorTable::LoadFromFile(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw TrainingInputError("--errorTable: cannot read '" + path
                                 + "' (expected the CSV of examples/optimizer-error-table.py)");
    }
    std::stringstream text;
    text << in.rdbuf();
    return LoadFromString(text.str(), path);
}

std::string
OptimizerErrorTable::ShippedPath()
{
    return std::string(DT_SOURCE_DIR) + "/doc/figures/optimizer/error-bars.csv";
}

const OptimizerErrorTable::Row*
OptimizerErrorTable::Best(const std::string& cls,
                          const std::string& backend,
                          const std::vector<std::string>& variants) const
{
    const Row* best = nullptr;
    for (const Row& r : m_rows)
    {
        const bool allowed
            = variants.empty()
              || std::find(variants.begin(), variants.end(), r.variant) != variants.end();
        if (r.cls == cls && r.backend == backend && allowed && (!best || r.meanAbs < best->meanAbs))
        {
            best = &r;
        }
    }
    return best;
}

std::pair<double, double>
OptimizerErrorTable::Interval(const Row* row, double prediction)
{
    if (!row)
    {
        return {prediction, prediction};
    }
    return {prediction / (1 + row->p95), prediction / (1 + row->p05)};
}

const std::vector<OptimizerErrorTable::Row>&
OptimizerErrorTable::GetRows() const
{
    return m_rows;
}

// ---- ConfigurationOptimizer -----------------------------------------------------------------

int
ConfigurationOptimizer::Row::Top() const
{
    for (int r = LINUX; r >= ANALYTIC; --r)
    {
        if (rungs[r].done)
        {
            return r;
        }
    }
    return -1;
}

ConfigurationOptimizer::ConfigurationOptimizer(TrainingProfile profile,
                                               const TrainingScenario& base,
                                               OptimizerErrorTable table)
    : m_profile(std::move(profile)),
      m_base(base),
      m_table(std::move(table))
{
}

void
ConfigurationOptimizer::SetMeasurement(const RepeatedRuns::Options& measure)
{
    m_measure = measure;
}

std::string
ConfigurationOptimizer::RungName(Rung rung)
{
    static const char* names[] = {"analytic", "flow", "packet", "linux"};
    return names[rung];
}

namespace
{

/// \return the parameter-server configurations of one K and overlap: every P the machines
/// allow for each placement, times the partitions, orders and windows
std::vector<OptimizerCandidate>
PsFamily(OptimizerCandidate c, const ConfigurationOptimizer::Space& space)
{
    std::vector<OptimizerCandidate> all;
    for (auto placement : space.placements)
    {
        c.placement = placement;
        for (uint32_t p = 1; p <= space.maxServers; ++p)
        {
            c.servers = p;
            const bool colocated = placement == TrainingScenario::COLOCATED_SERVERS;
            if (c.Machines() > space.machines || (colocated && p > c.workers))
            {
                break;
            }
            for (auto partition : space.partitions)
            {
                for (auto order : space.orders)
                {
                    for (uint64_t w : space.windows)
                    {
                        c.partition = partition;
                        c.order = order;
                        c.windowBytes = w;
                        all.push_back(c);
                    }
                }
            }
        }
    }
    return all;
}

/// \return the ring configurations of one K and overlap: each bucket with each first bucket
/// no larger than it (per-layer rings have no first bucket)
std::vector<OptimizerCandidate>
RingFamily(OptimizerCandidate c, const ConfigurationOptimizer::Space& space)
{
    std::vector<OptimizerCandidate> all;
    for (uint64_t q : space.buckets)
    {
        for (uint64_t f : space.firstBuckets)
        {
            if (c.workers <= space.machines && (f == 0 || (q != 0 && f <= q)))
            {
                c.bucketBytes = q;
                c.firstBucketBytes = f;
                all.push_back(c);
            }
        }
    }
    return all;
}

/// \return the configurations of one family ("ps-sync", "ps-async", "ring") over the K values
std::vector<OptimizerCandidate>
Family(const std::string& arch,
       const std::vector<uint32_t>& ks,
       const ConfigurationOptimizer::Space& space)
{
    const bool ring = arch == "ring";
    if (!ring && arch != "ps-sync" && arch != "ps-async")
    {
        throw TrainingInputError("--archs: '" + arch + "' (expected ps-sync, ps-async or ring)");
    }
    std::vector<OptimizerCandidate> all;
    for (uint32_t k : ks)
    {
        for (bool ov : space.overlaps)
        {
            OptimizerCandidate c;
            c.architecture
                = ring ? TrainingScenario::RING_ALLREDUCE : TrainingScenario::PARAMETER_SERVER;
            c.mode = arch == "ps-async" ? TrainingScenario::ASYNC : TrainingScenario::SYNC;
            c.workers = k;
            c.overlap = ov;
            const std::vector<OptimizerCandidate> f
                = ring ? RingFamily(c, space) : PsFamily(c, space);
            all.insert(all.end(), f.begin(), f.end());
        }
    }
    return all;
}

} // namespace

std::vector<OptimizerCandidate>
ConfigurationOptimizer::Enumerate(const Space& given, uint32_t& skipped) const
{
    // A dimension the user did not search keeps the scenario's value (--order=reverse alone
    // searches with the reverse order).
    Space space = given;
    auto keep = [](auto& values, auto value)
    {
        if (values.empty())
        {
            values.push_back(value);
        }
    };
    keep(space.firstBuckets, m_base.firstBucketBytes);
    keep(space.placements, m_base.serverPlacement);
    keep(space.partitions, m_base.partition);
    keep(space.orders, m_base.order);
    keep(space.windows, m_base.windowBytes);
    std::vector<uint32_t> ks = space.workers;
    if (ks.empty())
    {
        ks.resize(space.machines);
        std::iota(ks.begin(), ks.end(), 1);
    }
    std::vector<OptimizerCandidate> all;
    for (const std::string& arch : space.archs)
    {
        const std::vector<OptimizerCandidate> f = Family(arch, ks, space);
        all.insert(all.end(), f.begin(), f.end());
    }
    std::vector<OptimizerCandidate> valid;
    skipped = 0;
    for (const OptimizerCandidate& c : all)
    {
        try
        {
            c.Apply(m_base).Validate(m_profile);
            valid.push_back(c);
        }
        catch (const TrainingInputError&)
        {
            ++skipped; // e.g. more servers than layers
        }
    }
    if (valid.empty())
    {
        throw TrainingInputError("--machines, --searchWorkers, --maxServers, --archs: no valid "
                                 "configuration to search (expected at least one that the "
                                 "scenario accepts)");
    }
    return valid;
}

OptimizerEstimate
ConfigurationOptimizer::PickAnalytic(const OptimizerCandidate& c, const TrainingScenario& s) const
{
    const std::vector<TrainingResult> results
        = TrainingBackendRegistry::Create("analytic")->Run(m_profile, s);
    // The variants whose overlap assumption is the scenario's (the others answer another
    // question), of which the one with the least validation error.
    std::vector<std::string> variants;
    for (const TrainingResult& r : results)
    {
        const auto ov = r.inputs.find("assumes_overlap");
        if (ov == r.inputs.end() || (ov->second == 1) == s.overlap)
        {
            variants.push_back(r.variant);
        }
    }
    const OptimizerErrorTable::Row* row = m_table.Best(c.Class(), "analytic", variants);
    OptimizerEstimate e;
    for (const TrainingResult& r : results)
    {
        const auto rec = r.inputs.find("recommended");
        const bool recommended = rec != r.inputs.end() && rec->second == 1;
        if ((row && r.variant == row->variant) || (!row && recommended))
        {
            e.variant = r.variant;
            e.throughput = r.throughput;
            e.stepTime = r.stepTimeMean;
        }
    }
    if (e.variant.empty() && !results.empty())
    {
        e.variant = results.front().variant;
        e.throughput = results.front().throughput;
        e.stepTime = results.front().stepTimeMean;
    }
    std::tie(e.low, e.high) = OptimizerErrorTable::Interval(row, e.throughput);
    e.note = row ? "" : "no error bar for this class";
    return e;
}

namespace
{

/// \return the packet-level interval from per-step times: mean +- 2 standard errors
std::pair<double, double>
StepInterval(const TrainingResult& r, uint32_t warmup)
{
    std::vector<double> d;
    for (const TrainingResult::StepRecord& x : r.steps)
    {
        if (x.step >= warmup && x.end > x.start)
        {
            d.push_back(x.end - x.start);
        }
    }
    if (d.size() < 2)
    {
        return {r.throughput, r.throughput};
    }
    const double mean = std::accumulate(d.begin(), d.end(), 0.0) / d.size();
    double ss = 0;
    for (double x : d)
    {
        ss += (x - mean) * (x - mean);
    }
    const double h = 2 * std::sqrt(ss / (d.size() - 1) / d.size()) / mean;
    return {r.throughput / (1 + h), r.throughput / std::max(1 - h, 0.1)};
}

/// \return the estimate of a backend's first result
OptimizerEstimate
FromResult(const std::vector<TrainingResult>& results)
{
    OptimizerEstimate e;
    if (!results.empty())
    {
        e.variant = results.front().variant;
        e.throughput = results.front().throughput;
        e.stepTime = results.front().stepTimeMean;
        if (results.front().repeat)
        {
            e.throughput = results.front().repeat->mean; // the runs' mean, not the median run
            e.runs = results.front().repeat->throughputs.size();
        }
    }
    return e;
}

/**
 * \param r a packet-level result
 * \param warmup its warm-up steps
 * \return its measured interval: of repeats their 95 % confidence interval, of --ciTarget the
 *         step time's batch-means interval, else mean +- 2 standard errors of its step times
 */
std::pair<double, double>
MeasuredInterval(const TrainingResult& r, uint32_t warmup)
{
    if (r.repeat)
    {
        return {r.repeat->ciLow, r.repeat->ciHigh};
    }
    if (r.stepInterval)
    {
        const double h = r.stepInterval->relativeHalfWidth;
        return {r.throughput / (1 + h), r.throughput / std::max(1 - h, 0.1)};
    }
    return StepInterval(r, warmup);
}

} // namespace

double
ConfigurationOptimizer::LinuxDilation(const TrainingScenario& s, double dilation)
{
    if (dilation > 0)
    {
        return dilation;
    }
    return std::max(1.0, std::ceil(s.nicRate.GetBitRate() / LinuxBackend::VALIDATED_PORT_BPS));
}

OptimizerEstimate
ConfigurationOptimizer::RunRung(const OptimizerCandidate& c,
                                TrainingScenario s,
                                Rung rung,
                                const Ladder& ladder) const
{
    if (rung == ANALYTIC)
    {
        return PickAnalytic(c, s);
    }
    if (rung == FLOW)
    {
        // The flow variant with the least validation error of this class.
        const OptimizerErrorTable::Row* row = m_table.Best(c.Class(), "flow");
        std::string variant = row ? row->variant : "ps";
        const std::string suffix = "-window";
        const bool window
            = variant.size() > suffix.size()
              && variant.compare(variant.size() - suffix.size(), suffix.size(), suffix) == 0;
        Ptr<TrainingBackend> flow = TrainingBackendRegistry::Create("flow");
        flow->SetAttribute("Sharing",
                           StringValue(window ? variant.substr(0, variant.size() - 7) : variant));
        flow->SetAttribute("WindowModel", BooleanValue(window));
        flow->SetAttribute("RecordTransfers", BooleanValue(false));
        const auto r = RepeatedRuns::Run(
            [this, &flow](const TrainingScenario& point)
            {
                return flow->Run(m_profile, point);
            },
            s,
            m_measure);
        OptimizerEstimate e = FromResult(r);
        // The error bars of the model, applied to the ends of the measured interval.
        const auto& x = r.front().repeat;
        e.low = OptimizerErrorTable::Interval(row, x ? x->ciLow : e.throughput).first;
        e.high = OptimizerErrorTable::Interval(row, x ? x->ciHigh : e.throughput).second;
        e.note = row ? "" : "no error bar for this class";
        return e;
    }
    // Packet and linux: the run's own interval from its per-step times.
    s.steps = rung == PACKET ? ladder.packetSteps : ladder.linuxSteps;
    s.warmup = 1;
    Ptr<TrainingBackend> backend = TrainingBackendRegistry::Create(RungName(rung));
    if (rung == LINUX)
    {
        const std::string why = backend->GetUnavailableReason();
        if (!why.empty())
        {
            throw TrainingInputError("not available here: " + why);
        }
        backend->SetAttribute("Dilation", DoubleValue(LinuxDilation(s, ladder.linuxDilation)));
    }
    const std::vector<TrainingResult> r = RepeatedRuns::Run(
        [this, &backend](const TrainingScenario& point)
        {
            return backend->Run(m_profile, point);
        },
        s,
        m_measure);
    OptimizerEstimate e = FromResult(r);
    std::tie(e.low, e.high) = MeasuredInterval(r.front(), s.warmup);
    e.steps = r.front().stepInterval ? r.front().stepInterval->steps : s.steps;
    return e;
}

OptimizerEstimate
ConfigurationOptimizer::Evaluate(const OptimizerCandidate& c, Rung rung, const Ladder& ladder) const
{
    const auto t0 = std::chrono::steady_clock::now();
    OptimizerEstimate e;
    try
    {
        e = RunRung(c, c.Apply(m_base), rung, ladder);
        e.done = e.throughput > 0;
        e.note = e.done ? e.note : "no throughput";
    }
    catch (const TrainingInputError& err)
    {
        e.done = false;
        e.note = err.what();
    }
    if (e.done && c.architecture == TrainingScenario::PARAMETER_SERVER
        && c.mode == TrainingScenario::ASYNC)
    {
        // Updates pushed by the others while one worker does one step (K - 1 when alike).
        e.staleness = e.throughput / m_profile.GetBatchSize() * e.stepTime - 1;
    }
    e.wallSeconds = Since(t0);
    return e;
}

void
ConfigurationOptimizer::Climb(std::vector<Row>& rows,
                              const std::vector<std::size_t>& which,
                              Rung rung,
                              Outcome& out,
                              const Ladder& ladder) const
{
    for (std::size_t i : which)
    {
        rows[i].rungs[rung] = Evaluate(rows[i].candidate, rung, ladder);
        out.rungWall[rung] += rows[i].rungs[rung].wallSeconds;
        ++out.rungRuns[rung];
    }
    uint32_t rank = 0;
    for (std::size_t i : RankedAt(rows, rung))
    {
        rows[i].rungs[rung].rank = ++rank;
    }
}

namespace
{

/// \return the rows the flow level re-ranks: the analytic best, those whose interval reaches
/// the best's lower bound (at most 3 n), and those the analytic backend refused
std::vector<std::size_t>
FlowFinalists(const std::vector<ConfigurationOptimizer::Row>& rows, uint32_t n)
{
    const std::vector<std::size_t> ranked = RankedAt(rows, ConfigurationOptimizer::ANALYTIC);
    std::vector<std::size_t> out;
    for (std::size_t j = 0; j < ranked.size(); ++j)
    {
        const OptimizerEstimate& e = rows[ranked[j]].rungs[ConfigurationOptimizer::ANALYTIC];
        const double bestLow = rows[ranked[0]].rungs[ConfigurationOptimizer::ANALYTIC].low;
        if (j < n || (e.high >= bestLow && j < 3 * n))
        {
            out.push_back(ranked[j]);
        }
    }
    for (std::size_t i = 0; i < rows.size(); ++i)
    {
        if (!rows[i].rungs[ConfigurationOptimizer::ANALYTIC].done)
        {
            out.push_back(i);
        }
    }
    return out;
}

} // namespace

void
ConfigurationOptimizer::Confirm(std::vector<Row>& rows,
                                const Ladder& ladder,
                                const std::map<std::string, OptimizerEstimate>& cache,
                                Outcome& out) const
{
    const Rung below = out.rungRuns[FLOW] > 0 ? FLOW : ANALYTIC;
    const std::vector<std::size_t> ranked = RankedAt(rows, below);
    double bestThroughput = 0;
    double bestLow = 0;
    for (std::size_t j = 0; j < ranked.size() && j < ladder.packetFinalists; ++j)
    {
        Row& row = rows[ranked[j]];
        if (bestLow > row.rungs[below].high)
        {
            out.notes.push_back("packet rung stopped after " + std::to_string(j)
                                + " finalists: the next one's " + RungName(below)
                                + " interval ends below the best confirmed lower bound");
            break;
        }
        const auto hit = cache.find(row.candidate.Label());
        row.rungs[PACKET]
            = hit != cache.end() ? hit->second : Evaluate(row.candidate, PACKET, ladder);
        out.rungWall[PACKET] += row.rungs[PACKET].wallSeconds;
        ++out.rungRuns[PACKET];
        if (row.rungs[PACKET].done && row.rungs[PACKET].throughput > bestThroughput)
        {
            bestThroughput = row.rungs[PACKET].throughput;
            bestLow = row.rungs[PACKET].low;
        }
    }
    uint32_t rank = 0;
    for (std::size_t i : RankedAt(rows, PACKET))
    {
        rows[i].rungs[PACKET].rank = ++rank;
    }
}

void
ConfigurationOptimizer::Verify(std::vector<Row>& rows, const Ladder& ladder, Outcome& out) const
{
    const std::vector<std::size_t> ranked = RankedAt(rows, PACKET);
    std::vector<std::size_t> which(
        ranked.begin(),
        ranked.begin() + std::min<std::size_t>(ranked.size(), ladder.linuxFinalists));
    Climb(rows, which, LINUX, out, ladder);
    const std::vector<std::size_t> kernel = RankedAt(rows, LINUX);
    if (kernel.empty() && !which.empty())
    {
        out.notes.push_back("linux rung: " + rows[which.front()].rungs[LINUX].note);
    }
    else if (!kernel.empty() && kernel.front() != which.front())
    {
        out.notes.push_back("the kernel's TCP ranks " + rows[kernel.front()].candidate.Label()
                            + " first, the packet level " + rows[which.front()].candidate.Label());
    }
}

ConfigurationOptimizer::Outcome
ConfigurationOptimizer::Run(const Space& space, const Ladder& ladder) const
{
    Outcome out;
    if (m_measure.repeat > 1)
    {
        out.notes.push_back(RunReport::Format(
            "flow and packet rungs: each estimate is the mean of %u runs (seeds --seed and on); "
            "the packet interval is its 95 %% confidence interval (Student t), the flow "
            "interval the error bars applied to its ends",
            m_measure.repeat));
    }
    if (m_measure.target)
    {
        out.notes.push_back(RunReport::Format(
            "flow and packet rungs: each run adds steps until its step time's 95 %% interval "
            "(10 batch means) is within %g %% of the mean, at most %u steps",
            100 * *m_measure.target,
            m_measure.maxSteps));
    }
    std::vector<Row> rows;
    for (const OptimizerCandidate& c : Enumerate(space, out.skipped))
    {
        rows.push_back(Row{c, {}});
    }
    std::map<std::string, OptimizerEstimate> cache;
    if (ladder.exhaustive)
    {
        out.exhaustive = rows;
        std::vector<std::size_t> all(rows.size());
        std::iota(all.begin(), all.end(), 0);
        Outcome sink; // every rung on every configuration: the reference, not the ladder
        Climb(out.exhaustive, all, ANALYTIC, sink, ladder);
        Climb(out.exhaustive, all, FLOW, sink, ladder);
        Climb(out.exhaustive, all, PACKET, sink, ladder);
        for (const Row& r : out.exhaustive)
        {
            cache[r.candidate.Label()] = r.rungs[PACKET];
        }
    }
    std::vector<std::size_t> all(rows.size());
    std::iota(all.begin(), all.end(), 0);
    Climb(rows, all, ANALYTIC, out, ladder);
    if (ladder.lastRung >= FLOW)
    {
        if (out.rungRuns[ANALYTIC] > 0 && RankedAt(rows, ANALYTIC).empty())
        {
            out.notes.push_back("the analytic backend refused every configuration: the flow "
                                "level screens them all");
        }
        Climb(rows, FlowFinalists(rows, ladder.flowFinalists), FLOW, out, ladder);
    }
    if (ladder.lastRung >= PACKET)
    {
        Confirm(rows, ladder, cache, out);
    }
    if (ladder.lastRung >= LINUX)
    {
        Verify(rows, ladder, out);
    }
    std::stable_sort(rows.begin(),
                     rows.end(),
                     [](const Row& a, const Row& b)
                     {
                         if (a.Top() != b.Top())
                         {
                             return a.Top() > b.Top();
                         }
                         return a.Top() >= 0
                                && a.rungs[a.Top()].throughput > b.rungs[b.Top()].throughput;
                     });
    out.settled = !rows.empty() && rows.front().Top() >= 0;
    for (std::size_t i = 1; i < rows.size() && out.settled; ++i)
    {
        const int t = rows[i].Top();
        out.settled = t < 0 || rows[i].rungs[t].high < rows[0].rungs[rows[0].Top()].low;
    }
    out.rows = std::move(rows);
    return out;
}

std::string
OptimizerOutcomeToJson(const ConfigurationOptimizer::Outcome& outcome, double samples)
{
    auto rowsJson = [samples](const std::vector<ConfigurationOptimizer::Row>& rows)
    {
        nlohmann::json a = nlohmann::json::array();
        for (const ConfigurationOptimizer::Row& r : rows)
        {
            const OptimizerCandidate& c = r.candidate;
            TrainingScenario names;
            names.serverPlacement = c.placement;
            names.partition = c.partition;
            names.order = c.order;
            nlohmann::json j{{"label", c.Label()},
                             {"class", c.Class()},
                             {"workers", c.workers},
                             {"servers", c.servers},
                             {"machines", c.Machines()},
                             {"bucket_bytes", c.bucketBytes},
                             {"first_bucket_bytes", c.firstBucketBytes},
                             {"overlap", c.overlap},
                             {"server_placement", names.GetServerPlacementName()},
                             {"partition", names.GetPartitionName()},
                             {"order", names.GetOrderName()},
                             {"window_bytes", c.windowBytes}};
            for (int k = 0; k < ConfigurationOptimizer::RUNGS; ++k)
            {
                const OptimizerEstimate& e = r.rungs[k];
                if (!e.done && e.note.empty())
                {
                    continue;
                }
                nlohmann::json x{{"done", e.done},
                                 {"variant", e.variant},
                                 {"throughput_samples_per_s", e.throughput},
                                 {"interval", {e.low, e.high}},
                                 {"epoch_s", e.done ? samples / e.throughput : 0},
                                 {"rank", e.rank},
                                 {"wall_s", e.wallSeconds},
                                 {"runs", e.runs},
                                 {"note", e.note}};
                if (e.staleness >= 0)
                {
                    x["staleness_updates"] = e.staleness;
                }
                if (e.steps > 0)
                {
                    x["steps"] = e.steps;
                }
                j[ConfigurationOptimizer::RungName(ConfigurationOptimizer::Rung(k))] = x;
            }
            a.push_back(j);
        }
        return a;
    };
    nlohmann::json doc{{"rows", rowsJson(outcome.rows)},
                       {"settled", outcome.settled},
                       {"skipped", outcome.skipped},
                       {"notes", outcome.notes},
                       {"samples_per_epoch", samples}};
    for (int k = 0; k < ConfigurationOptimizer::RUNGS; ++k)
    {
        const std::string n = ConfigurationOptimizer::RungName(ConfigurationOptimizer::Rung(k));
        doc["rungs"][n] = {{"runs", outcome.rungRuns[k]}, {"wall_s", outcome.rungWall[k]}};
    }
    if (!outcome.exhaustive.empty())
    {
        doc["exhaustive"] = rowsJson(outcome.exhaustive);
    }
    doc["async_note"] = "async: throughput only; statistical efficiency (staleness's effect on "
                        "convergence) is not modelled";
    return doc.dump(2);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "yan-performance-model.h"

#include "ps-read-bounds-model.h"

#include "ns3/training-input-error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

namespace ns3
{

namespace
{

/// The checks of this model's inputs.
constexpr TrainingInputError::Checker Check("Yan performance model");

/// A stripe of a layer's extent, normalised to [0, 1].
struct Interval
{
    double lo; //!< start
    double hi; //!< end
};

/// \return the length of a and b's intersection
double
Overlap(const Interval& a, const Interval& b)
{
    return std::max(0.0, std::min(a.hi, b.hi) - std::max(a.lo, b.lo));
}

/// \return stripe s of p
Interval
Stripe(uint32_t s, uint32_t p)
{
    return {double(s) / p, double(s + 1) / p};
}

/// \return what a neuron range of one layer connects to in its neighbour (halo on each side)
Interval
Reach(const Interval& own, const YanPerformanceModel::Layer& layer)
{
    if (!layer.local)
    {
        return {0, 1};
    }
    return {std::max(0.0, own.lo - layer.halo), std::min(1.0, own.hi + layer.halo)};
}

/**
 * \param senders R of the sending layer \param receivers R of the receiving layer
 * \param same whether the two segments have the same replica index
 * \return the fraction of the receiver's samples whose sender-side values the sender holds
 */
double
SampleShare(uint32_t senders, uint32_t receivers, bool same)
{
    if (senders == 1)
    {
        return 1;
    }
    if (senders == receivers)
    {
        return same ? 1 : 0;
    }
    return 1.0 / senders;
}

/// One segment: stripe and replica index.
struct Segment
{
    Interval stripe;  //!< its part of the layer
    uint32_t replica; //!< its replica index
};

/// \return the p r segments of a layer; segment i sits on worker i in canonical order
std::vector<Segment>
Segments(uint32_t p, uint32_t r)
{
    std::vector<Segment> v;
    for (uint32_t rr = 0; rr < r; ++rr)
    {
        for (uint32_t s = 0; s < p; ++s)
        {
            v.push_back({Stripe(s, p), rr});
        }
    }
    return v;
}

} // namespace

double
YanPerformanceModel::LayerTime::Total() const
{
    return compute + activations + weights;
}

YanPerformanceModel::YanPerformanceModel(std::vector<Layer> layers, const Hardware& hw)
    : m_layers(std::move(layers)),
      m_hw(hw)
{
    Check(!m_layers.empty(), "layers", 0, "at least one layer");
    for (const Layer& l : m_layers)
    {
        Check(std::isfinite(l.neurons) && l.neurons >= 0, "N(l)", l.neurons, "neurons >= 0");
        Check(std::isfinite(l.connections) && l.connections >= 0,
              "W(l)",
              l.connections,
              "connections >= 0");
        Check(std::isfinite(l.weights) && l.weights >= 0, "weights", l.weights, ">= 0");
        Check(l.halo >= 0 && l.halo <= 1, "halo", l.halo, "a fraction in [0, 1]");
    }
    for (double t : {hw.mulAdd, hw.activation, hw.error, hw.latency, hw.interference})
    {
        Check(std::isfinite(t) && t >= 0, "C_muladd, C_act, C_err, C_ncost, slope", t, ">= 0");
    }
    for (double x : {hw.bandwidth, hw.bitsPerValue, hw.samples, hw.readInterval})
    {
        Check(std::isfinite(x) && x > 0, "C_nbw, C_bits, N_sample, N_read", x, "> 0");
    }
    Check(hw.cores >= 1, "cores", hw.cores, "at least 1");
}

double
YanPerformanceModel::Eq5(std::size_t l, uint32_t p) const
{
    const Layer& x = m_layers.at(l);
    return m_hw.mulAdd * x.connections / p + m_hw.activation * x.neurons / p;
}

double
YanPerformanceModel::Eq6(double remote, uint32_t threads) const
{
    if (remote <= 0)
    {
        return 0; // nothing crosses a machine boundary: no message (Sec. 5.3's base case)
    }
    return m_hw.latency + remote * m_hw.bitsPerValue / 8 / (m_hw.bandwidth / threads);
}

double
YanPerformanceModel::Eq7(std::size_t l, uint32_t p) const
{
    // W'(l, p): the connections from layer l+1 into the segment; none above the output layer.
    const double above = l + 1 < m_layers.size() ? m_layers[l + 1].connections : 0;
    return m_hw.mulAdd * above / p + m_hw.error * m_layers.at(l).neurons / p;
}

double
YanPerformanceModel::Eq8(std::size_t l, uint32_t p) const
{
    return m_hw.mulAdd * m_layers.at(l).connections / p;
}

double
YanPerformanceModel::Eq9(uint32_t threads) const
{
    return 1 + m_hw.interference * (threads - 1.0);
}

YanPerformanceModel::Exchange
YanPerformanceModel::Map(std::size_t l, uint32_t pPrev, uint32_t rPrev, uint32_t p, uint32_t r)
    const
{
    const Layer& below = m_layers.at(l - 1);
    const Layer& layer = m_layers.at(l);
    const std::vector<Segment> prev = Segments(pPrev, rPrev);
    const std::vector<Segment> cur = Segments(p, r);
    // Greedy mapping (Sec. 5.3): every (segment, worker) pair by how much of the segment's
    // input the worker holds, best first; a pair is taken when both are still free.
    std::vector<std::tuple<double, std::size_t, std::size_t>> pairs;
    for (std::size_t i = 0; i < cur.size(); ++i)
    {
        const Interval need = Reach(cur[i].stripe, layer);
        for (std::size_t w = 0; w < prev.size(); ++w)
        {
            const double held = below.neurons * Overlap(need, prev[w].stripe)
                                * SampleShare(rPrev, r, prev[w].replica == cur[i].replica);
            pairs.emplace_back(-held, i, w);
        }
    }
    std::sort(pairs.begin(), pairs.end());
    std::vector<int> workerOf(cur.size(), -1);
    std::vector<bool> taken(prev.size(), false);
    for (const auto& [negHeld, i, w] : pairs)
    {
        if (workerOf[i] < 0 && !taken[w] && negHeld < 0)
        {
            workerOf[i] = int(w);
            taken[w] = true;
        }
    }
    Exchange e;
    for (std::size_t i = 0; i < cur.size(); ++i)
    {
        const Interval need = Reach(cur[i].stripe, layer);
        double held = 0;
        if (workerOf[i] >= 0)
        {
            const Segment& q = prev[workerOf[i]];
            held = Overlap(need, q.stripe) * SampleShare(rPrev, r, q.replica == cur[i].replica);
        }
        e.activations = std::max(e.activations, below.neurons * (Overlap(need, {0, 1}) - held));
    }
    // Backward: a segment of layer l-1 receives the error terms of the layer-l neurons that
    // reach it, less those of the layer-l segment on its own worker.
    for (std::size_t w = 0; w < prev.size(); ++w)
    {
        const Interval reached = Reach(prev[w].stripe, layer);
        double held = 0;
        for (std::size_t i = 0; i < cur.size(); ++i)
        {
            if (workerOf[i] == int(w))
            {
                held = Overlap(reached, cur[i].stripe)
                       * SampleShare(r, rPrev, prev[w].replica == cur[i].replica);
            }
        }
        e.errors = std::max(e.errors, layer.neurons * (Overlap(reached, {0, 1}) - held));
    }
    return e;
}

void
YanPerformanceModel::CheckConfig(const Config& c) const
{
    Check(c.servers >= 1, "N_ps", c.servers, "at least 1 server");
    Check(c.replicas >= 1, "N_mr", c.replicas, "at least 1 replica");
    Check(c.workersPerReplica >= 1, "N_wr", c.workersPerReplica, "at least 1 worker");
    Check(c.threads >= 1 && c.threads <= m_hw.cores, "H", c.threads, "1 to the cores (C2)");
    Check(c.partitions.size() == m_layers.size(),
          "P(l) entries",
          c.partitions.size(),
          "one per layer");
    Check(c.replication.size() == m_layers.size(),
          "R(l) entries",
          c.replication.size(),
          "one per layer");
    for (std::size_t l = 0; l < m_layers.size(); ++l)
    {
        const uint32_t p = c.partitions[l];
        const uint32_t r = c.replication[l];
        Check(p >= 1 && r >= 1 && p * r <= c.workersPerReplica,
              "P(l) R(l) of layer " + m_layers[l].name,
              double(p) * r,
              "1 to N_wr segments on distinct workers (C3)");
    }
}

YanPerformanceModel::LayerTime
YanPerformanceModel::OwnTime(std::size_t l, uint32_t p, uint32_t r, const Config& c) const
{
    LayerTime t;
    const double q = double(c.threads) * r * c.replicas; // Q(l) of Sec. 4.2.3
    const double perSample = Eq9(c.threads) * (Eq5(l, p) + Eq7(l, p) + Eq8(l, p));
    t.compute = perSample * m_hw.samples / q;
    // Eq. (10)/(11) for this layer alone; a replicated layer is read once per copy.
    PsReadBoundsModel::Params read;
    read.layerBytes = {r * m_layers[l].weights * m_hw.bitsPerValue / 8};
    read.replicas = c.replicas;
    read.servers = c.servers;
    read.workersPerReplica = c.workersPerReplica;
    read.latency = m_hw.latency;
    // One read serves the H threads of a worker, which share its weights (Sec. 4.2.1): the
    // read gets the whole NIC, not the C_nbw(H) = C_nbw / H of one thread's activations.
    read.bandwidth = m_hw.bandwidth;
    read.linkBandwidth = read.bandwidth;
    const PsReadBoundsModel bounds(read);
    const double mw = m_hw.worstCaseReads ? bounds.WorstCase() : bounds.BestCase();
    t.weights = mw * m_hw.samples / m_hw.readInterval;
    return t;
}

std::pair<double, double>
YanPerformanceModel::ExchangeTime(const Exchange& e,
                                  uint32_t rPrev,
                                  uint32_t r,
                                  const Config& c) const
{
    // M_f belongs to layer l, M_b to layer l-1, each over its own Q (Sec. 4.2.3).
    const double perThread = double(c.threads) * c.replicas;
    return {Eq6(e.activations, c.threads) * m_hw.samples / (perThread * r),
            Eq6(e.errors, c.threads) * m_hw.samples / (perThread * rPrev)};
}

std::vector<YanPerformanceModel::LayerTime>
YanPerformanceModel::EpochBreakdown(const Config& c) const
{
    CheckConfig(c);
    std::vector<LayerTime> out;
    for (std::size_t l = 0; l < m_layers.size(); ++l)
    {
        out.push_back(OwnTime(l, c.partitions[l], c.replication[l], c));
    }
    for (std::size_t l = 1; l < m_layers.size(); ++l)
    {
        const uint32_t pp = c.partitions[l - 1];
        const uint32_t rp = c.replication[l - 1];
        const uint32_t r = c.replication[l];
        const auto [forward, backward] = ExchangeTime(Map(l, pp, rp, c.partitions[l], r), rp, r, c);
        out[l].activations += forward;
        out[l - 1].activations += backward;
    }
    return out;
}

double
YanPerformanceModel::EpochTime(const Config& c) const
{
    double t = 0;
    for (const LayerTime& x : EpochBreakdown(c))
    {
        t += x.Total();
    }
    return t;
}

std::vector<std::pair<uint32_t, uint32_t>>
YanPerformanceModel::LayerChoices(uint32_t workersPerReplica) const
{
    std::vector<std::pair<uint32_t, uint32_t>> v;
    for (uint32_t p = 1; p <= workersPerReplica; ++p)
    {
        for (uint32_t r = 1; p * r <= workersPerReplica; ++r)
        {
            v.emplace_back(p, r);
        }
    }
    return v;
}

YanPerformanceModel::Config
YanPerformanceModel::OptimiseLayers(Config c) const
{
    const auto choices = LayerChoices(c.workersPerReplica);
    const std::size_t n = choices.size();
    const std::size_t layers = m_layers.size();
    c.partitions.assign(layers, 1);
    c.replication.assign(layers, 1);
    CheckConfig(c);
    // best[l][s]: the least time of layers 0..l with layer l in choice s (Sec. 5.3's
    // T_epoch([1, l], p_l)); from[l][s] the choice of layer l-1 that gave it.
    std::vector<std::vector<double>> best(layers, std::vector<double>(n, 0));
    std::vector<std::vector<std::size_t>> from(layers, std::vector<std::size_t>(n, 0));
    for (std::size_t s = 0; s < n; ++s)
    {
        best[0][s] = OwnTime(0, choices[s].first, choices[s].second, c).Total();
    }
    for (std::size_t l = 1; l < layers; ++l)
    {
        for (std::size_t s = 0; s < n; ++s)
        {
            const auto [p, r] = choices[s];
            best[l][s] = std::numeric_limits<double>::infinity();
            for (std::size_t q = 0; q < n; ++q)
            {
                const auto [pp, rp] = choices[q];
                const auto [forward, backward] = ExchangeTime(Map(l, pp, rp, p, r), rp, r, c);
                const double t = best[l - 1][q] + forward + backward;
                if (t < best[l][s])
                {
                    best[l][s] = t;
                    from[l][s] = q;
                }
            }
            best[l][s] += OwnTime(l, p, r, c).Total();
        }
    }
    std::size_t s = std::min_element(best[layers - 1].begin(), best[layers - 1].end())
                    - best[layers - 1].begin();
    for (std::size_t l = layers; l-- > 0;)
    {
        c.partitions[l] = choices[s].first;
        c.replication[l] = choices[s].second;
        s = from[l][s];
    }
    return c;
}

std::vector<YanPerformanceModel::Candidate>
YanPerformanceModel::Search(uint32_t machines,
                            uint32_t maxWorkersPerReplica,
                            uint32_t threads) const
{
    std::vector<Candidate> out;
    for (uint32_t wr = 1; wr <= maxWorkersPerReplica; ++wr)
    {
        for (uint32_t mr = 1; mr * wr < machines; ++mr)
        {
            for (uint32_t ps = 1; ps + mr * wr <= machines; ++ps)
            {
                Config c;
                c.servers = ps;
                c.replicas = mr;
                c.workersPerReplica = wr;
                c.threads = threads;
                c = OptimiseLayers(c);
                out.push_back({c, EpochTime(c)});
            }
        }
    }
    return out;
}

const std::vector<YanPerformanceModel::Layer>&
YanPerformanceModel::GetLayers() const
{
    return m_layers;
}

} // namespace ns3

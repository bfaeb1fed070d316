/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The flow-level backend against hand-worked cases and the closed forms of the seeds: two equal
 * transfers under FCFS and PS, the per-flow cap, 000_466ded720105ddf3.txt Eq. (7), (8) and (11)
 * (written out here from the profile's sums), the HTTP/2 window of 001_33040fda0f1f6815.txt
 * Fig. 12, overlap, buckets, several servers, heterogeneous workers, step sampling, determinism
 * and async drift.
 */

#include "training-test-utils.h"

#include "ns3/boolean.h"
#include "ns3/calibrated-sharing.h"
#include "ns3/capped-sharing.h"
#include "ns3/config.h"
#include "ns3/distributed-training-compat.h"
#include "ns3/double.h"
#include "ns3/fcfs-sharing.h"
#include "ns3/flow-backend.h"
#include "ns3/flow-event-core.h"
#include "ns3/flow-level-simulator.h"
#include "ns3/nstime.h"
#include "ns3/pointer.h"
#include "ns3/ps-sharing.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/training-input-error.h"
#include "ns3/training-network.h"
#include "ns3/training-profile.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// Raw bytes per second of a 10 Gbps NIC (tests run with UseGoodput=false unless they say).
const double B10 = 10e9 / 8;

/// A profile with the given per-layer sizes and times (microseconds).
TrainingProfile
MakeProfile(const std::vector<uint64_t>& bytes,
            const std::vector<double>& fwd,
            const std::vector<double>& bwd,
            const std::vector<double>& upd)
{
    TrainingProfile p;
    p.SetModel("hand-made");
    p.SetBatchSize(16);
    p.SetProvenance(R"({"device":"none","framework":"none","method":"test","derived":true})");
    for (std::size_t i = 0; i < bytes.size(); ++i)
    {
        p.AddLayer({"l" + std::to_string(i), "", bytes[i], fwd[i], bwd[i], upd[i]});
    }
    return p;
}

/// A profile of n layers of the given size and no compute time.
TrainingProfile
TransferOnlyProfile(const std::vector<uint64_t>& bytes)
{
    std::vector<double> zero(bytes.size(), 0.0);
    return MakeProfile(bytes, zero, zero, zero);
}

/// Five layers of uneven sizes and times, no samples.
TrainingProfile
FiveLayerProfile()
{
    return MakeProfile({100000, 2000000, 300000, 1500000, 50000},
                       {100, 300, 200, 400, 50},
                       {180, 650, 420, 790, 110},
                       {12, 40, 15, 33, 9});
}

/// The five-layer profile plus 4 recorded steps of different speeds.
TrainingProfile
SampledProfile()
{
    TrainingProfile p = FiveLayerProfile();
    for (double f : {0.7, 1.0, 1.3, 1.9})
    {
        TrainingProfile::StepTimes s;
        for (const auto& layer : p.GetLayers())
        {
            s.forwardUs.push_back(layer.forwardUs * f);
            s.backwardUs.push_back(layer.backwardUs * f);
            s.updateUs.push_back(layer.updateUs * f);
        }
        p.AddSample(s);
    }
    return p;
}

/// A sync PS scenario with no link delay.
TrainingScenario
BaseScenario(uint32_t workers)
{
    TrainingScenario s;
    s.workers = workers;
    s.servers = 1;
    s.steps = 4;
    s.warmup = 1;
    s.linkDelay = Seconds(0);
    s.nicRate = DataRate("10Gbps");
    return s;
}

/// Run the flow backend.
std::vector<TrainingResult>
RunFlow(const TrainingProfile& profile,
        const TrainingScenario& scenario,
        const std::string& sharing,
        bool useGoodput = false)
{
    Ptr<FlowBackend> backend = CreateObject<FlowBackend>();
    backend->SetAttribute("Sharing", StringValue(sharing));
    backend->SetAttribute("UseGoodput", BooleanValue(useGoodput));
    return backend->Run(profile, scenario);
}

/// The one transfer record of (worker, step, tensor, direction); bytes = 0 if absent.
TrainingResult::TransferRecord
Find(const TrainingResult& r,
     uint32_t worker,
     uint32_t step,
     int32_t tensor,
     const std::string& dir,
     uint32_t peer = 0)
{
    for (const auto& t : r.transfers)
    {
        if (t.worker == worker && t.step == step && t.tensor == tensor && t.direction == dir
            && (dir == "ring" || t.peer == peer))
        {
            return t;
        }
    }
    return {worker, peer, step, tensor, dir, 0, -1, -1};
}

/// Duration of every step of worker 0.
std::vector<double>
StepDurations(const TrainingResult& r, uint32_t worker = 0)
{
    std::vector<double> d;
    for (const auto& s : r.steps)
    {
        if (s.worker == worker)
        {
            d.push_back(s.end - s.start);
        }
    }
    return d;
}

/**
 * A deliberately naive re-implementation of the PS step semantics, used only to cross-check the
 * optimised engine: every tensor piece and every layer's forward, backward and update is its own
 * event, the sharing model is asked for rates before every event, and nothing is evaluated ahead
 * of time. Slow (O(events x flows)) and obviously faithful to the rules in
 * doc/reference/backend-flow.rst.
 */
class ReferencePsSimulator
{
  public:
    ReferencePsSimulator(const TrainingProfile& profile,
                         const TrainingScenario& scenario,
                         Ptr<SharingModel> model,
                         double capacity,
                         double flowCap)
        : m_prof(profile),
          m_sc(scenario),
          m_model(model),
          m_capacity(capacity),
          m_flowCap(flowCap),
          m_k(scenario.workers),
          m_p(scenario.servers),
          m_l(static_cast<uint32_t>(profile.GetNLayers())),
          m_owner(scenario.AssignLayersToServers(profile)),
          m_jitter(scenario.startJitter.GetSeconds(), scenario.seed)
    {
    }

    std::vector<TrainingResult::StepRecord> steps;         //!< output
    std::vector<TrainingResult::TransferRecord> transfers; //!< output

    void Run()
    {
        m_conns.resize(m_k * m_p * 2);
        m_workers.resize(m_k);
        for (uint32_t w = 0; w < m_k; ++w)
        {
            for (uint32_t p = 0; p < m_p; ++p)
            {
                for (int up = 0; up < 2; ++up)
                {
                    Conn& c = m_conns[(w * m_p + p) * 2 + up];
                    c.w = w;
                    c.p = p;
                    c.up = up;
                }
            }
            m_firstStart.push_back(m_jitter.IsOn() ? m_jitter.FirstStep(w) : 0);
            m_workers[w].stepDone = true; // until its first step starts
        }
        const double inf = std::numeric_limits<double>::infinity();
        while (true)
        {
            Release();
            StartReadyWork();
            // Rates for every busy connection.
            std::vector<SharingModel::Flow> flows;
            std::vector<Conn*> busy;
            for (Conn* c : m_busyOrder)
            {
                SharingModel::Flow f;
                // Worker NIC = w, server NIC = K + p, one capacity vector per direction.
                f.links[0] = c->w + (c->up ? (m_k + m_p) : 0);
                f.links[1] = m_k + c->p + (c->up ? (m_k + m_p) : 0);
                f.nLinks = 2;
                f.priority = c->prio;
                f.cap = m_flowCap;
                flows.push_back(f);
                busy.push_back(c);
            }
            std::vector<double> rates;
            m_model->AssignRates(flows, std::vector<double>(2 * (m_k + m_p), m_capacity), rates);
            double next = inf;
            for (std::size_t i = 0; i < busy.size(); ++i)
            {
                Conn* c = busy[i];
                c->rate = rates[i];
                if (c->rate > 0 && !c->started)
                {
                    c->started = true;
                    if (c->queue.front().first)
                    {
                        Start(*c) = m_t;
                    }
                }
                double rem = c->queue.front().bytes - c->sent;
                if (rem <= 1e-6)
                {
                    next = std::min(next, m_t);
                }
                else if (c->rate > 0)
                {
                    next = std::min(next, m_t + rem / c->rate);
                }
            }
            for (double t : m_firstStart)
            {
                next = std::min(next, t); // --startJitter: first steps not begun
            }
            for (const Conn& c : m_conns)
            {
                next = std::min(next, c.held ? c.holdUntil : inf);
            }
            for (const auto& ws : m_workers)
            {
                next = std::min(next, ws.computeEnd);
                for (double e : ws.updEnd)
                {
                    next = std::min(next, e);
                }
            }
            if (next == inf)
            {
                break;
            }
            for (Conn* c : busy)
            {
                c->sent += c->rate * (next - m_t);
            }
            m_t = next;
            Complete(busy);
        }
    }

  private:
    struct Seg
    {
        uint32_t layer;
        double bytes;
        bool first;
        bool last;
    };

    struct Conn
    {
        uint32_t w{0};
        uint32_t p{0};
        int up{0};
        std::deque<Seg> queue;
        double sent{0};
        bool started{false};
        bool busy{false};
        uint64_t prio{0};
        double rate{0};
        bool held{false};    // --startJitter: a transfer waits for its delay
        double holdUntil{0}; // until then
        uint32_t pushed{0};  // segments queued this step (the delay's key)
    };

    struct Worker
    {
        uint32_t step{0};
        double stepStart{0};
        uint32_t fwdNext{0}; // next layer to forward
        int32_t bwdNext{-1}; // next layer to backward (-1: not yet / done)
        bool inBackward{false};
        double computeEnd{std::numeric_limits<double>::infinity()};
        std::vector<bool> downIn;
        uint32_t downCount{0};
        std::vector<bool> upIn;
        uint32_t upCount{0};
        std::vector<std::size_t> upCountPerServer;  // per server
        std::vector<std::deque<uint32_t>> updQueue; // per server
        std::vector<double> updEnd;                 // per server
        std::vector<int32_t> updLayer;              // per server
        uint32_t updDone{0};
        std::vector<double> downStart, upStart;
        bool stepDone{false};
    };

    double& Start(const Conn& c)
    {
        Worker& ws = m_workers[c.w];
        return (c.up ? ws.upStart : ws.downStart)[c.queue.front().layer];
    }

    void Push(Conn& c, const Seg& s)
    {
        c.queue.push_back(s);
        if (!c.busy && !c.held && m_jitter.IsOn())
        {
            // A transfer on an idle connection: it waits its delay, and what is queued
            // meanwhile joins it.
            c.held = true;
            c.holdUntil = m_t
                          + m_jitter.Delay(c.w,
                                           m_workers[c.w].step,
                                           (uint64_t{c.p} * 2 + c.up) << 32 | c.pushed);
        }
        ++c.pushed;
        if (!c.busy && !c.held)
        {
            c.busy = true;
            c.prio = ++m_prio;
            c.started = false;
            c.sent = 0;
            m_busyOrder.push_back(&c);
        }
    }

    /// --startJitter: begin the first steps and the held transfers whose delays are over.
    void Release()
    {
        for (uint32_t w = 0; w < m_k; ++w)
        {
            if (m_firstStart[w] <= m_t)
            {
                m_firstStart[w] = std::numeric_limits<double>::infinity();
                StartStep(w, 0);
            }
        }
        for (Conn& c : m_conns)
        {
            if (c.held && c.holdUntil <= m_t)
            {
                c.held = false;
                c.busy = true;
                c.prio = ++m_prio;
                c.started = false;
                c.sent = 0;
                m_busyOrder.push_back(&c);
            }
        }
    }

    Conn& C(uint32_t w, uint32_t p, int up)
    {
        return m_conns[(w * m_p + p) * 2 + up];
    }

    void StartStep(uint32_t w, uint32_t step)
    {
        Worker& ws = m_workers[w];
        ws = Worker();
        ws.step = step;
        ws.stepStart = m_t;
        ws.downIn.assign(m_l, false);
        ws.upIn.assign(m_l, false);
        ws.updQueue.assign(m_p, {});
        ws.upCountPerServer.assign(m_p, 0);
        ws.updEnd.assign(m_p, std::numeric_limits<double>::infinity());
        ws.updLayer.assign(m_p, -1);
        ws.downStart.assign(m_l, 0);
        ws.upStart.assign(m_l, 0);
        for (uint32_t p = 0; p < m_p; ++p)
        {
            C(w, p, 0).pushed = C(w, p, 1).pushed = 0;
        }
        std::vector<uint32_t> order(m_l);
        for (uint32_t l = 0; l < m_l; ++l)
        {
            order[l] = m_sc.order == TrainingScenario::REVERSE_ORDER ? m_l - 1 - l : l;
        }
        double win = static_cast<double>(m_sc.windowBytes);
        std::vector<uint32_t> rest;
        for (uint32_t l : order)
        {
            double b = static_cast<double>(m_prof.GetLayer(l).paramBytes);
            bool whole = win <= 0 || b <= win;
            Push(C(w, m_owner[l], 0), {l, whole ? b : win, true, whole});
            if (!whole)
            {
                rest.push_back(l);
            }
        }
        for (uint32_t l : rest)
        {
            Push(C(w, m_owner[l], 0),
                 {l, static_cast<double>(m_prof.GetLayer(l).paramBytes) - win, false, true});
        }
    }

    void StartReadyWork()
    {
        for (uint32_t w = 0; w < m_k; ++w)
        {
            Worker& ws = m_workers[w];
            if (ws.stepDone)
            {
                continue;
            }
            const double scale = m_sc.GetComputeScale(w);
            if (ws.computeEnd == std::numeric_limits<double>::infinity())
            {
                if (!ws.inBackward && ws.fwdNext < m_l
                    && (m_sc.overlap ? ws.downIn[ws.fwdNext] : ws.downCount == m_l))
                {
                    ws.computeEnd = m_t + m_prof.GetLayer(ws.fwdNext).forwardUs * 1e-6 * scale;
                }
                else if (ws.inBackward && ws.bwdNext >= 0)
                {
                    ws.computeEnd = m_t + m_prof.GetLayer(ws.bwdNext).backwardUs * 1e-6 * scale;
                }
            }
            for (uint32_t p = 0; p < m_p; ++p)
            {
                // Overlap off: a server updates once all of this worker's gradients for *it*
                // are in.
                const auto owned
                    = static_cast<std::size_t>(std::count(m_owner.begin(), m_owner.end(), p));
                if (ws.updLayer[p] < 0 && !ws.updQueue[p].empty()
                    && (m_sc.overlap || ws.upCountPerServer[p] == owned))
                {
                    ws.updLayer[p] = static_cast<int32_t>(ws.updQueue[p].front());
                    ws.updQueue[p].pop_front();
                    ws.updEnd[p] = m_t + m_prof.GetLayer(ws.updLayer[p]).updateUs * 1e-6;
                }
            }
        }
    }

    void Complete(const std::vector<Conn*>& busy)
    {
        for (Conn* c : busy)
        {
            const Seg s = c->queue.front();
            if (s.bytes - c->sent > 1e-6 * (1 + 1e-9 * s.bytes) + 1e-9 * s.bytes)
            {
                continue;
            }
            if (!c->started)
            {
                c->started = true;
                if (s.first)
                {
                    Start(*c) = m_t;
                }
            }
            Worker& ws = m_workers[c->w];
            if (s.last)
            {
                transfers.push_back({c->w,
                                     c->p,
                                     ws.step,
                                     static_cast<int32_t>(s.layer),
                                     c->up ? "up" : "down",
                                     m_prof.GetLayer(s.layer).paramBytes,
                                     (c->up ? ws.upStart : ws.downStart)[s.layer],
                                     m_t});
                if (c->up)
                {
                    ws.upIn[s.layer] = true;
                    ++ws.upCount;
                    ++ws.upCountPerServer[c->p];
                    ws.updQueue[c->p].push_back(s.layer);
                }
                else
                {
                    ws.downIn[s.layer] = true;
                    ++ws.downCount;
                }
            }
            c->queue.pop_front();
            c->sent = 0;
            c->started = false;
            if (c->queue.empty())
            {
                c->busy = false;
                m_busyOrder.erase(std::find(m_busyOrder.begin(), m_busyOrder.end(), c));
            }
        }
        for (uint32_t w = 0; w < m_k; ++w)
        {
            Worker& ws = m_workers[w];
            if (ws.stepDone)
            {
                continue; // waiting at the barrier, done, or (jitter) not begun yet
            }
            if (ws.computeEnd <= m_t)
            {
                ws.computeEnd = std::numeric_limits<double>::infinity();
                if (!ws.inBackward)
                {
                    if (++ws.fwdNext == m_l)
                    {
                        ws.inBackward = true;
                        ws.bwdNext = static_cast<int32_t>(m_l) - 1;
                    }
                }
                else
                {
                    uint32_t l = static_cast<uint32_t>(ws.bwdNext--);
                    if (m_sc.overlap)
                    {
                        Push(C(w, m_owner[l], 1),
                             {l, static_cast<double>(m_prof.GetLayer(l).paramBytes), true, true});
                    }
                    else if (l == 0)
                    {
                        for (uint32_t i = m_l; i-- > 0;)
                        {
                            Push(C(w, m_owner[i], 1),
                                 {i,
                                  static_cast<double>(m_prof.GetLayer(i).paramBytes),
                                  true,
                                  true});
                        }
                    }
                }
            }
            for (uint32_t p = 0; p < m_p; ++p)
            {
                if (ws.updEnd[p] <= m_t)
                {
                    ws.updEnd[p] = std::numeric_limits<double>::infinity();
                    ws.updLayer[p] = -1;
                    if (++ws.updDone == m_l)
                    {
                        EndStep(w);
                    }
                }
            }
        }
    }

    void EndStep(uint32_t w)
    {
        Worker& ws = m_workers[w];
        steps.push_back({w, ws.step, ws.stepStart, m_t});
        ws.stepDone = true;
        uint32_t next = ws.step + 1;
        if (m_sc.mode == TrainingScenario::ASYNC)
        {
            if (next < m_sc.steps)
            {
                StartStep(w, next);
            }
            return;
        }
        if (++m_ended == m_k)
        {
            m_ended = 0;
            for (uint32_t v = 0; v < m_k && next < m_sc.steps; ++v)
            {
                StartStep(v, next);
            }
        }
    }

    const TrainingProfile& m_prof;
    const TrainingScenario& m_sc;
    Ptr<SharingModel> m_model;
    double m_capacity;
    double m_flowCap;
    uint32_t m_k;
    uint32_t m_p;
    uint32_t m_l;
    std::vector<uint32_t> m_owner;
    std::vector<Conn> m_conns;
    std::vector<Worker> m_workers;
    std::vector<Conn*> m_busyOrder;
    uint64_t m_prio{0};
    uint32_t m_ended{0};
    double m_t{0};
    flow::StartJitter m_jitter;
    std::vector<double> m_firstStart; // per worker: when its first step begins
};

/**
 * \ingroup distributed-training
 * Two equal transfers that start together.
 *
 * Two equal transfers starting together: fcfs ends at M over B and 2M over B, ps both at 2M over B
 * (raw and goodput B).
 */
class TwoTransfersTestCase : public TestCase
{
  public:
    TwoTransfersTestCase()
        : TestCase("two equal transfers under fcfs and ps end as worked by hand")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t m = 1250000; // 1 ms at 10 Gbps
        TrainingProfile p = TransferOnlyProfile({m});
        TrainingScenario s = BaseScenario(2);
        s.steps = 1;
        s.warmup = 0;
        for (bool goodput : {false, true})
        {
            const double b = goodput ? TrainingNetwork::GetGoodputBytesPerSecond(s) : B10;
            const double t1 = m / b;
            TrainingResult fcfs = RunFlow(p, s, "fcfs", goodput)[0];
            auto a = Find(fcfs, 0, 0, 0, "down");
            auto c = Find(fcfs, 1, 0, 0, "down");
            NS_TEST_EXPECT_MSG_EQ_TOL(a.end, t1, 1e-12, "fcfs: first worker at M/B");
            NS_TEST_EXPECT_MSG_EQ_TOL(c.start, t1, 1e-12, "fcfs: second starts at M/B");
            NS_TEST_EXPECT_MSG_EQ_TOL(c.end, 2 * t1, 1e-12, "fcfs: second worker at 2M/B");
            NS_TEST_EXPECT_MSG_EQ(a.bytes, m, "bytes recorded");
            NS_TEST_EXPECT_MSG_EQ_TOL(fcfs.inputs["B_bytes_per_s"], b, 1e-3, "B used");

            TrainingResult ps = RunFlow(p, s, "ps", goodput)[0];
            for (uint32_t w = 0; w < 2; ++w)
            {
                auto t = Find(ps, w, 0, 0, "down");
                NS_TEST_EXPECT_MSG_EQ_TOL(t.start, 0.0, 1e-15, "ps: starts at once");
                NS_TEST_EXPECT_MSG_EQ_TOL(t.end, 2 * t1, 1e-12, "ps: both at 2M/B");
            }
        }
    }
};

/**
 * \ingroup distributed-training
 * CalibratedSharing end to end: a late uplink against an incumbent one.
 *
 * Calibrated: downlinks starting together share equally; an uplink starting 0.5 M over B after
 * another gets w over (1+w) of the server link until the incumbent ends (w = 0.25: ends at 3.625
 * and 4.5 M over B); w = 1 equals ps.
 */
class CalibratedTransfersTestCase : public TestCase
{
  public:
    CalibratedTransfersTestCase()
        : TestCase("calibrated sharing of staggered uplinks matches by hand, w = 1 equals ps")
    {
    }

  private:
    void DoRun() override
    {
        // One layer of M = 1 ms at 10 Gbps; forward 0, backward 0.5 ms (worker 1: 1 ms).
        const uint64_t m = 1250000;
        const double t1 = m / B10;
        TrainingProfile p = MakeProfile({m}, {0}, {500}, {0});
        TrainingScenario s = BaseScenario(2);
        s.steps = 1;
        s.warmup = 0;
        s.computeScale = {1, 2};
        Ptr<CalibratedSharing> model = CreateObject<CalibratedSharing>();
        model->SetAttribute("IncumbentWeight", DoubleValue(0.25));
        Ptr<FlowBackend> backend = CreateObject<FlowBackend>();
        backend->SetAttribute("UseGoodput", BooleanValue(false));
        backend->SetAttribute("SharingModel", PointerValue(model));
        TrainingResult r = backend->Run(p, s)[0];
        NS_TEST_EXPECT_MSG_EQ(r.variant, "calibrated", "variant");
        for (uint32_t w = 0; w < 2; ++w)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(Find(r, w, 0, 0, "down").end,
                                      2 * t1,
                                      1e-12,
                                      "downlinks start together: one cohort, equal shares");
        }
        // Worker 0's uplink starts at 2.5 t1 alone; worker 1's at 3 t1 with M/2 of worker 0's
        // left: 0.8 B vs 0.2 B until 3.625 t1, then worker 1 sends its last 0.875 M at B.
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(r, 0, 0, 0, "up").start, 2.5 * t1, 1e-12, "incumbent");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(r, 0, 0, 0, "up").end, 3.625 * t1, 1e-12, "incumbent");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(r, 1, 0, 0, "up").start, 3 * t1, 1e-12, "newcomer");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(r, 1, 0, 0, "up").end, 4.5 * t1, 1e-12, "newcomer");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.inputs["incumbent_weight"], 0.25, 1e-15, "recorded");

        // w = 1 reproduces ps on a sampled, heterogeneous async run with two servers.
        model->SetAttribute("IncumbentWeight", DoubleValue(1.0));
        TrainingProfile sampled = SampledProfile();
        TrainingScenario a = BaseScenario(4);
        a.mode = TrainingScenario::ASYNC;
        a.servers = 2;
        a.steps = 12;
        a.computeScale = {1, 1.3, 0.8, 2};
        TrainingResult one = backend->Run(sampled, a)[0];
        TrainingResult ps = RunFlow(sampled, a, "ps")[0];
        NS_TEST_EXPECT_MSG_EQ_TOL(one.throughput, ps.throughput, 1e-9 * ps.throughput, "w=1: ps");
    }
};

/**
 * \ingroup distributed-training
 * The window model on hand-worked cases.
 *
 * Window model: a lone transfer with a window below the path's BDP takes M RTT over W; with windows
 * covering the path and directions that never overlap (sync, overlap off) ps-window is ps; fcfs and
 * hybrid are refused.
 */
class WindowModelFlowTestCase : public TestCase
{
  public:
    WindowModelFlowTestCase()
        : TestCase("window model, a lone transfer takes M RTT over W, ps-window equals ps")
    {
    }

  private:
    void DoRun() override
    {
        // One worker, one layer of M = 1 MB, no compute; RTT = 4 x 10 us + 4 x 1502 B / 10 Gbps.
        const uint64_t m = 1000000;
        TrainingProfile p = TransferOnlyProfile({m});
        TrainingScenario s = BaseScenario(1);
        s.linkDelay = MicroSeconds(10);
        s.steps = 1;
        s.warmup = 0;
        const double rtt = 40e-6 + 4 * 1502 / B10;
        s.sendBufferBytes = 20000;
        Ptr<FlowBackend> backend = CreateObject<FlowBackend>();
        backend->SetAttribute("UseGoodput", BooleanValue(false));
        backend->SetAttribute("WindowModel", BooleanValue(true));
        TrainingResult r = backend->Run(p, s)[0];
        NS_TEST_EXPECT_MSG_EQ(r.variant, "ps-window", "variant");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.inputs["window_bytes"], 20000.0, 1e-9, "window = SendBuffer");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.inputs["window_base_rtt_s"], rtt, 1e-15, "round trip");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.inputs["window_switch_buffer_bytes"],
                                  1000 * 1502.0,
                                  1e-9,
                                  "1000 packets of MTU + 2 bytes");
        const double t = m * rtt / 20000;
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(r, 0, 0, 0, "down").end, t, 1e-12, "M RTT / W down");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(r, 0, 0, 0, "up").end, 2 * t, 1e-12, "and up");

        // Sync, overlap off, default window (256 KiB > BDP): identical to ps.
        TrainingProfile five = FiveLayerProfile();
        TrainingScenario sync = BaseScenario(4);
        sync.linkDelay = MicroSeconds(10);
        TrainingResult window = backend->Run(five, sync)[0];
        TrainingResult ps = RunFlow(five, sync, "ps")[0];
        NS_TEST_EXPECT_MSG_EQ_TOL(window.throughput, ps.throughput, 1e-9 * ps.throughput, "= ps");

        for (const char* sharing : {"fcfs", "hybrid"})
        {
            backend->SetAttribute("Sharing", StringValue(sharing));
            std::string msg;
            try
            {
                backend->Run(five, sync);
            }
            catch (const TrainingInputError& e)
            {
                msg = e.what();
            }
            NS_TEST_EXPECT_MSG_EQ((msg.find("--windowModel: needs --sharing=ps, capped or "
                                            "calibrated")
                                   == 0),
                                  true,
                                  sharing << ": " << msg);
        }
    }
};

/**
 * \ingroup distributed-training
 * Per-flow cap end to end (000 Sec. 4.4, Fig. 23).
 *
 * Capped: on 25 G NICs with a 10 G flow cap, 1 or 2 downlinks take M over 10 G, 3 take 3M over 25
 * G; ps ignores the cap.
 */
class CappedTransfersTestCase : public TestCase
{
  public:
    CappedTransfersTestCase()
        : TestCase("capped sharing, 10 Gbps cap on 25 Gbps NICs, 1 to 3 downlinks")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t m = 10000000;
        TrainingProfile p = TransferOnlyProfile({m});
        for (uint32_t k : {1u, 2u, 3u})
        {
            TrainingScenario s = BaseScenario(k);
            s.steps = 1;
            s.warmup = 0;
            s.nicRate = DataRate("25Gbps");
            s.flowCap = DataRate("10Gbps");
            double expected = k < 3 ? m / (10e9 / 8) : 3.0 * m / (25e9 / 8);
            TrainingResult r = RunFlow(p, s, "capped")[0];
            TrainingResult ps = RunFlow(p, s, "ps")[0];
            for (uint32_t w = 0; w < k; ++w)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(Find(r, w, 0, 0, "down").end,
                                          expected,
                                          expected * 1e-12,
                                          k << " capped downlinks");
                NS_TEST_EXPECT_MSG_EQ_TOL(Find(ps, w, 0, 0, "down").end,
                                          k * m / (25e9 / 8),
                                          1e-12,
                                          k << " ps downlinks");
            }
            bool noted = false;
            for (const auto& n : ps.notes)
            {
                noted = noted || n.find("ignores the per-flow cap") != std::string::npos;
            }
            NS_TEST_EXPECT_MSG_EQ(noted, true, "ps result says it ignores the cap");
        }
    }
};

/**
 * \ingroup distributed-training
 * 000 Eq. (7) and (8).
 *
 * Sync PS, overlap off, identical workers, one server: step = Eq. (7) under ps and Eq. (8) under
 * fcfs to 1e-9, K = 1..8.
 */
class SyncPsClosedFormTestCase : public TestCase
{
  public:
    SyncPsClosedFormTestCase()
        : TestCase("flow sync PS, K = 1..8, matches Eq. (7) under ps and Eq. (8) under fcfs")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = FiveLayerProfile();
        const auto [m, tf, tb, ts] = tests::SumLayers(p);
        for (uint32_t k : {1u, 2u, 3u, 4u, 8u})
        {
            TrainingScenario s = BaseScenario(k);
            for (bool goodput : {false, true})
            {
                const double b = goodput ? TrainingNetwork::GetGoodputBytesPerSecond(s) : B10;
                // Eq. (7): T_PS = K M/B + (T_F + T_B) + K M/B + T_S
                const double eq7 = k * m / b + (tf + tb) + k * m / b + ts;
                // Eq. (8): T_FCFS = K M/B + (T_F + T_B) + M/B + T_S
                const double eq8 = k * m / b + (tf + tb) + m / b + ts;
                TrainingResult ps = RunFlow(p, s, "ps", goodput)[0];
                TrainingResult fcfs = RunFlow(p, s, "fcfs", goodput)[0];
                NS_TEST_EXPECT_MSG_EQ_TOL(ps.stepTimeMean, eq7, eq7 * 1e-9, "Eq. (7), K = " << k);
                NS_TEST_EXPECT_MSG_EQ_TOL(fcfs.stepTimeMean, eq8, eq8 * 1e-9, "Eq. (8), K = " << k);
                NS_TEST_EXPECT_MSG_EQ_TOL(ps.throughput,
                                          k * p.GetBatchSize() / eq7,
                                          k * p.GetBatchSize() / eq7 * 1e-9,
                                          "throughput = K batch / Eq. (7)");
                for (double d : StepDurations(ps, k - 1))
                {
                    NS_TEST_EXPECT_MSG_EQ_TOL(d, eq7, eq7 * 1e-9, "every ps step");
                }
            }
        }
    }
};

/**
 * \ingroup distributed-training
 * 000 Eq. (11).
 *
 * Ring, overlap off, no latency: step = Eq. (11) with one bucket and with one bucket per layer,
 * K = 2..8.
 */
class RingClosedFormTestCase : public TestCase
{
  public:
    RingClosedFormTestCase()
        : TestCase(
            "flow ring, K = 2..8, overlap off, matches Eq. (11) with one and per-layer buckets")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = FiveLayerProfile();
        const auto [m, tf, tb, ts] = tests::SumLayers(p);
        for (uint32_t k : {2u, 3u, 4u, 8u})
        {
            for (uint64_t q : {TrainingScenario::UNLIMITED_BUCKET, uint64_t(0)})
            {
                TrainingScenario s = BaseScenario(k);
                s.architecture = TrainingScenario::RING_ALLREDUCE;
                s.bucketBytes = q;
                // Eq. (11): T = (T_F + T_B) + 2(K-1) M / (K B)
                const double eq11 = (tf + tb) + 2.0 * (k - 1) * m / (k * B10);
                std::vector<TrainingResult> r = RunFlow(p, s, "ps");
                NS_TEST_ASSERT_MSG_EQ(r.size(), 1, "one result");
                NS_TEST_EXPECT_MSG_EQ(r[0].variant, "allreduce", "ring uses allreduce sharing");
                NS_TEST_EXPECT_MSG_EQ_TOL(r[0].stepTimeMean,
                                          eq11,
                                          eq11 * 1e-9,
                                          "Eq. (11), K = " << k << ", Q = " << q);
                std::size_t buckets = 0;
                for (const auto& t : r[0].transfers)
                {
                    buckets += t.worker == 0 && t.step == 0;
                }
                NS_TEST_EXPECT_MSG_EQ(buckets, (q == 0 ? 5u : 1u), "buckets per step");
            }
        }
    }
};

/**
 * \ingroup distributed-training
 * Ring extras: link latency, reduction cost, G GPUs per node.
 *
 * Ring: each bucket adds 2(K-1) two-hop latencies, (K-1) M over (K R) of reduction and, with G = 2,
 * an intra-node reduce and broadcast of M over 2I plus latency.
 */
class RingCostsTestCase : public TestCase
{
  public:
    RingCostsTestCase()
        : TestCase("flow ring bucket costs, hop latency, reduction and intra-node steps, by hand")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = FiveLayerProfile();
        const auto [m, tf, tb, ts] = tests::SumLayers(p);
        const uint32_t k = 4;
        const double d = 15e-6;
        const double red = 2e9;
        const double intra = 100e9 / 8;
        const double lat = 7e-6;
        for (uint64_t q : {TrainingScenario::UNLIMITED_BUCKET, uint64_t(0)})
        {
            TrainingScenario s = BaseScenario(k);
            s.architecture = TrainingScenario::RING_ALLREDUCE;
            s.bucketBytes = q;
            s.linkDelay = Seconds(d);
            s.reductionRate = red;
            s.gpusPerNode = 2;
            s.intraBandwidth = DataRate("100Gbps");
            s.intraLatency = Seconds(lat);
            const double buckets = q == 0 ? 5 : 1;
            const double expected = (tf + tb) + 2.0 * (k - 1) * m / (k * B10)
                                    + buckets * 2 * (k - 1) * 2 * d + (k - 1.0) / k * m / red
                                    + 2 * (m / (2 * intra) + buckets * lat);
            TrainingResult r = RunFlow(p, s, "allreduce")[0];
            NS_TEST_EXPECT_MSG_EQ_TOL(r.stepTimeMean, expected, expected * 1e-9, "Q = " << q);
        }
    }
};

/**
 * \ingroup distributed-training
 * Tensor fusion: bucket composition by size, first-bucket size and timeout.
 *
 * Ring buckets form in backward order: closed at >= Q bytes, at the first bucket's size, at the
 * fusion timeout, and at layer 0.
 */
class RingBucketsTestCase : public TestCase
{
  public:
    RingBucketsTestCase()
        : TestCase("flow ring buckets close at Q bytes, first bucket size, timeout and layer 0")
    {
    }

  private:
    void DoRun() override
    {
        // Forward-order sizes; backward order is 500, 100, 200, 300, 400.
        std::vector<uint64_t> sizes = {400, 300, 200, 100, 500};
        TrainingProfile p
            = MakeProfile(sizes, {0, 0, 0, 0, 0}, {100, 100, 100, 100, 100}, {0, 0, 0, 0, 0});

        struct Case
        {
            std::string what;
            uint64_t q;
            uint64_t first;
            double timeoutUs;
            std::vector<uint64_t> buckets;
        };

        std::vector<Case> cases = {
            {"Q = 600", 600, 0, 0, {600, 900}},
            {"Q = 600, first bucket 100", 600, 100, 0, {500, 600, 400}},
            {"Q = 0", 0, 0, 0, {500, 100, 200, 300, 400}},
            {"unlimited", TrainingScenario::UNLIMITED_BUCKET, 0, 0, {1500}},
            // Gradients ready at 100, 200, ..., 500 us; timeout 150 us: {4,3} closes at 250,
            // {2,1} at 450, {0} at 500.
            {"unlimited, timeout 150 us",
             TrainingScenario::UNLIMITED_BUCKET,
             0,
             150,
             {600, 500, 400}},
        };
        for (const auto& c : cases)
        {
            TrainingScenario s = BaseScenario(2);
            s.architecture = TrainingScenario::RING_ALLREDUCE;
            s.bucketBytes = c.q;
            s.firstBucketBytes = c.first;
            s.fusionTimeout = MicroSeconds(c.timeoutUs);
            s.steps = 2;
            TrainingResult r = RunFlow(p, s, "allreduce")[0];
            std::vector<uint64_t> got;
            for (std::size_t b = 0; b < 10; ++b)
            {
                auto t = Find(r, 0, 1, static_cast<int32_t>(b), "ring");
                if (t.bytes > 0)
                {
                    got.push_back(t.bytes);
                }
            }
            NS_TEST_EXPECT_MSG_EQ((got == c.buckets), true, c.what << ": bucket sizes");
        }
    }
};

/**
 * \ingroup distributed-training
 * Ring with overlap: a bucket is reduced as soon as it is closed and the previous one is done.
 *
 * Ring with overlap: bucket b starts at max(its close, end of b-1); without overlap all start after
 * backward.
 */
class RingOverlapTestCase : public TestCase
{
  public:
    RingOverlapTestCase()
        : TestCase(
            "flow ring with overlap starts each bucket at its close or after the previous one")
    {
    }

  private:
    void DoRun() override
    {
        // K = 2: a bucket of M bytes takes 2(K-1)/K M/B = M/B = 150 us; gradients ready at
        // 100, 200, 300 us. Overlap: [100,250] [250,400] [400,550]; off: from 300 to 750.
        const uint64_t m = 187500; // 150 us at 10 Gbps
        TrainingProfile p = MakeProfile({m, m, m}, {0, 0, 0}, {100, 100, 100}, {0, 0, 0});
        TrainingScenario s = BaseScenario(2);
        s.architecture = TrainingScenario::RING_ALLREDUCE;
        s.bucketBytes = 0;
        s.overlap = true;
        TrainingResult on = RunFlow(p, s, "allreduce")[0];
        const double starts[] = {100e-6, 250e-6, 400e-6};
        const double t0 = on.steps[on.steps.size() - 1].start; // last step of worker 1
        const uint32_t last = s.steps - 1;
        for (int b = 0; b < 3; ++b)
        {
            auto t = Find(on, 1, last, b, "ring");
            NS_TEST_EXPECT_MSG_EQ_TOL(t.start - t0, starts[b], 1e-12, "bucket " << b << " start");
            NS_TEST_EXPECT_MSG_EQ_TOL(t.end - t.start, 150e-6, 1e-12, "bucket " << b);
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(on.stepTimeMean, 550e-6, 1e-12, "step with overlap");
        s.overlap = false;
        TrainingResult off = RunFlow(p, s, "allreduce")[0];
        NS_TEST_EXPECT_MSG_EQ_TOL(off.stepTimeMean, 750e-6, 1e-12, "step without overlap");
    }
};

/**
 * \ingroup distributed-training
 * 001 Fig. 12: HTTP/2 multiplexing with window WIN.
 *
 * WIN = 3 on streams A..E of 5, 2, 4, 1, 6 units: chunks A3 B2 C3 D1 E3 A2 C1 E3, so B, D, A, C, E
 * finish at 5, 9, 14, 15, 18 (001 Fig. 12).
 */
class WindowSchedulerTestCase : public TestCase
{
  public:
    WindowSchedulerTestCase()
        : TestCase("WIN = 3 on five streams finishes them in the order of Fig. 12 of paper 001")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t u = 1000;
        TrainingProfile p = TransferOnlyProfile({5 * u, 2 * u, 4 * u, 1 * u, 6 * u});
        TrainingScenario s = BaseScenario(1);
        s.steps = 1;
        s.warmup = 0;
        s.windowBytes = 3 * u;
        const double t = u / B10;
        TrainingResult r = RunFlow(p, s, "ps")[0];
        const double start[] = {0, 3, 5, 8, 9};
        const double end[] = {14, 5, 15, 9, 18};
        for (int l = 0; l < 5; ++l)
        {
            auto x = Find(r, 0, 0, l, "down");
            NS_TEST_EXPECT_MSG_EQ_TOL(x.start, start[l] * t, 1e-12, "stream " << char('A' + l));
            NS_TEST_EXPECT_MSG_EQ_TOL(x.end, end[l] * t, 1e-12, "stream " << char('A' + l));
        }
        // Flow control off (WIN = 0): whole streams in order, 5, 7, 11, 12, 18.
        s.windowBytes = 0;
        r = RunFlow(p, s, "ps")[0];
        const double whole[] = {5, 7, 11, 12, 18};
        for (int l = 0; l < 5; ++l)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(Find(r, 0, 0, l, "down").end,
                                      whole[l] * t,
                                      1e-12,
                                      "WIN = 0, stream " << char('A' + l));
        }
    }
};

/**
 * \ingroup distributed-training
 * Transmission orders.
 *
 * Downlink order: forward sends layer 0 first, reverse layer L-1 first, random a seeded permutation
 * that changes from step to step.
 */
class TransmissionOrderTestCase : public TestCase
{
  public:
    TransmissionOrderTestCase()
        : TestCase("flow downlink order forward, reverse and seeded random")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 6;
        TrainingProfile p = TransferOnlyProfile(std::vector<uint64_t>(n, 10000));
        TrainingScenario s = BaseScenario(1);
        s.steps = 8;
        std::set<std::vector<int32_t>> seen;
        for (auto order : {TrainingScenario::FORWARD_ORDER,
                           TrainingScenario::REVERSE_ORDER,
                           TrainingScenario::RANDOM_ORDER})
        {
            s.order = order;
            TrainingResult r = RunFlow(p, s, "ps")[0];
            for (uint32_t step = 0; step < s.steps; ++step)
            {
                std::vector<std::pair<double, int32_t>> starts;
                for (int32_t l = 0; l < static_cast<int32_t>(n); ++l)
                {
                    starts.emplace_back(Find(r, 0, step, l, "down").start, l);
                }
                std::sort(starts.begin(), starts.end());
                std::vector<int32_t> seq;
                for (const auto& x : starts)
                {
                    seq.push_back(x.second);
                }
                if (order == TrainingScenario::FORWARD_ORDER)
                {
                    NS_TEST_EXPECT_MSG_EQ((seq == std::vector<int32_t>{0, 1, 2, 3, 4, 5}),
                                          true,
                                          "forward, step " << step);
                }
                else if (order == TrainingScenario::REVERSE_ORDER)
                {
                    NS_TEST_EXPECT_MSG_EQ((seq == std::vector<int32_t>{5, 4, 3, 2, 1, 0}),
                                          true,
                                          "reverse, step " << step);
                }
                else
                {
                    seen.insert(seq);
                }
            }
        }
        NS_TEST_EXPECT_MSG_GT(seen.size(), 4, "random order differs between steps");
    }
};

/**
 * \ingroup distributed-training
 * Overlap on/off for PS, with the parsing overhead of 001 Sec. 3.2.1.
 *
 * PS overlap: forward of l waits for l's parameters, gradients leave as backward produces them,
 * updates start on arrival; parsing overhead adds alpha size + beta to forward and update
 * (hand-worked).
 */
class PsOverlapTestCase : public TestCase
{
  public:
    PsOverlapTestCase()
        : TestCase("flow PS overlap and parsing overhead match a hand-worked timeline")
    {
    }

  private:
    void DoRun() override
    {
        // Layer 0: 1 ms of transfer, layer 1: 2 ms (10 Gbps raw).
        TrainingProfile p = MakeProfile({1250000, 2500000}, {1500, 500}, {300, 700}, {100, 200});
        TrainingScenario s = BaseScenario(1);
        s.overlap = true;
        s.steps = 2;
        TrainingResult on = RunFlow(p, s, "ps")[0];
        // Down: l0 [0,1], l1 [1,3]. Forward: l0 ends 2.5, l1 ends 3.5. Backward: l1 4.2, l0 4.5.
        // Up: l1 [4.2,6.2], l0 [6.2,7.2]. Updates: l1 [6.2,6.4], l0 [7.2,7.3].
        auto up1 = Find(on, 0, 0, 1, "up");
        auto up0 = Find(on, 0, 0, 0, "up");
        NS_TEST_EXPECT_MSG_EQ_TOL(up1.start, 4.2e-3, 1e-12, "gradient 1 leaves after its backward");
        NS_TEST_EXPECT_MSG_EQ_TOL(up1.end, 6.2e-3, 1e-12, "gradient 1 arrives");
        NS_TEST_EXPECT_MSG_EQ_TOL(up0.start, 6.2e-3, 1e-12, "gradient 0 queued behind 1");
        NS_TEST_EXPECT_MSG_EQ_TOL(up0.end, 7.2e-3, 1e-12, "gradient 0 arrives");
        NS_TEST_EXPECT_MSG_EQ_TOL(StepDurations(on)[0], 7.3e-3, 1e-12, "overlap on");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(on, 0, 1, 0, "down").start, 7.3e-3, 1e-12, "next step");

        s.overlap = false;
        TrainingResult off = RunFlow(p, s, "ps")[0];
        // Down 3, forward 2, backward 1, up 3, updates 0.3.
        NS_TEST_EXPECT_MSG_EQ_TOL(StepDurations(off)[0], 9.3e-3, 1e-12, "overlap off");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(off, 0, 0, 1, "up").start, 6e-3, 1e-12, "after backward");

        // beta = 100 us per tensor: forward l0 ends 2.6, l1 3.6; backward 4.3, 4.6; up l1
        // [4.3,6.3], l0 [6.3,7.3]; updates l1 ends 6.6, l0 7.3 + 0.2 = 7.5.
        s.overlap = true;
        Ptr<FlowBackend> backend = CreateObject<FlowBackend>();
        backend->SetAttribute("UseGoodput", BooleanValue(false));
        backend->SetAttribute("ParsingOverheadPerTensor", TimeValue(MicroSeconds(100)));
        TrainingResult parse = backend->Run(p, s)[0];
        NS_TEST_EXPECT_MSG_EQ_TOL(StepDurations(parse)[0], 7.5e-3, 1e-12, "with beta");
        // alpha = 40 ps/byte: 50 us on layer 0, 100 us on layer 1 (forward and update).
        // Forward l0 2.55, l1 max(2.55,3)+0.6 = 3.6; backward 4.3, 4.6; up as above; updates
        // l1 6.3+0.3 = 6.6, l0 7.3+0.15 = 7.45.
        backend->SetAttribute("ParsingOverheadPerTensor", TimeValue(Seconds(0)));
        backend->SetAttribute("ParsingOverheadPerByte", DoubleValue(40e-12));
        parse = backend->Run(p, s)[0];
        NS_TEST_EXPECT_MSG_EQ_TOL(StepDurations(parse)[0], 7.45e-3, 1e-12, "with alpha");
    }
};

/**
 * \ingroup distributed-training
 * Several servers end to end.
 *
 * Two servers: one worker's two downlinks share its NIC (ps: both at 2M over B; fcfs: M over B,
 * then 2M over B); each server updates once its own gradients are in.
 */
class TwoServersTestCase : public TestCase
{
  public:
    TwoServersTestCase()
        : TestCase("flow with two servers, downlinks share the worker NIC, updates per server")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t m = 1250000;
        TrainingProfile p = MakeProfile({m, m}, {0, 0}, {0, 0}, {300, 500});
        TrainingScenario s = BaseScenario(1);
        s.servers = 2;
        s.steps = 1;
        s.warmup = 0;
        const double t = m / B10;
        TrainingResult ps = RunFlow(p, s, "ps")[0];
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(ps, 0, 0, 0, "down", 0).end, 2 * t, 1e-12, "ps, server 0");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(ps, 0, 0, 1, "down", 1).end, 2 * t, 1e-12, "ps, server 1");
        // Up: both gradients at 4t; updates in parallel at the two servers: 0.5 ms longest.
        NS_TEST_EXPECT_MSG_EQ_TOL(StepDurations(ps)[0], 4 * t + 500e-6, 1e-12, "ps step");
        TrainingResult fcfs = RunFlow(p, s, "fcfs")[0];
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(fcfs, 0, 0, 0, "down", 0).end, t, 1e-12, "fcfs, server 0");
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(fcfs, 0, 0, 1, "down", 1).end,
                                  2 * t,
                                  1e-12,
                                  "fcfs, server 1");
        // Up in backward order: layer 1 to server 1 first (at 3t), then layer 0 to server 0 (at
        // 4t). Overlap off, per server: server 1 updates layer 1 (500 us) from 3t, server 0
        // layer 0 (300 us) from 4t; the step ends at max(3t + 500 us, 4t + 300 us) = 4t + 300 us.
        NS_TEST_EXPECT_MSG_EQ_TOL(Find(fcfs, 0, 0, 1, "up", 1).end, 3 * t, 1e-12, "fcfs up 1");
        NS_TEST_EXPECT_MSG_EQ_TOL(StepDurations(fcfs)[0],
                                  std::max(3 * t + 500e-6, 4 * t + 300e-6),
                                  1e-12,
                                  "fcfs step");
        // Two workers, two servers, ps: every link carries two flows: all at 2M/B.
        s.workers = 2;
        ps = RunFlow(p, s, "ps")[0];
        for (uint32_t w = 0; w < 2; ++w)
        {
            for (uint32_t l = 0; l < 2; ++l)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(Find(ps, w, 0, l, "down", l).end,
                                          2 * t,
                                          1e-12,
                                          "2x2, worker " << w << " layer " << l);
            }
        }
    }
};

/**
 * \ingroup distributed-training
 * Parameter server with G GPUs per node: the intra-node broadcast and reduction, one tensor at a
 * time, around the transfers; a node trains G batches per step.
 *
 * PS with G GPUs per node: step adds the last broadcast and every reduction, throughput counts G
 * batches.
 */
class MultiGpuParameterServerFlowTestCase : public TestCase
{
  public:
    MultiGpuParameterServerFlowTestCase()
        : TestCase("flow PS with G GPUs per node adds broadcast and reductions, counts G batches")
    {
    }

  private:
    void DoRun() override
    {
        // 3, 1 and 4 MB at B = 1.25 GB/s arrive at 2.4, 3.2 and 6.4 ms; broadcasts at G = 2
        // ((G-1)/G x bytes over 2.5 GB/s plus (G-1) x 50 us) take 0.65, 0.25 and 0.85 ms: the
        // first two end (3.05, 3.45 ms) before the last tensor arrives, so only the last adds
        // to the downlink.
        TrainingProfile p = MakeProfile({3000000, 1000000, 4000000},
                                        {4000, 4000, 4000},
                                        {8000, 8000, 8000},
                                        {500, 500, 500});
        TrainingScenario s = BaseScenario(1);
        s.gpusPerNode = 2;
        s.intraBandwidth = DataRate("20Gbps");
        s.intraLatency = MicroSeconds(50);
        TrainingResult r = RunFlow(p, s, "ps")[0];
        auto intra = [](double bytes)
        {
            return bytes / 2 / 2.5e9 + 50e-6;
        };
        const double m = 8e6;
        const double expected = m / B10 + intra(4e6) + 0.012 + 0.024 + intra(4e6) + intra(1e6)
                                + intra(3e6) + m / B10 + 0.0015;
        NS_TEST_EXPECT_MSG_EQ_TOL(r.stepTimeMean, expected, 1e-9 * expected, "overlap off, G = 2");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.throughput,
                                  2 * 16 / expected,
                                  1e-9 * r.throughput,
                                  "G batches");
        s.gpusPerNode = 1;
        TrainingResult one = RunFlow(p, s, "ps")[0];
        NS_TEST_EXPECT_MSG_EQ_TOL(one.stepTimeMean,
                                  2 * m / B10 + 0.0375,
                                  1e-9,
                                  "G = 1: no intra-node work");
    }
};

/**
 * \ingroup distributed-training
 * Heterogeneous workers.
 *
 * Compute scale: a worker with scale 2 computes twice as long and sets the sync step (PS and ring);
 * updates are not scaled.
 */
class ComputeScaleTestCase : public TestCase
{
  public:
    ComputeScaleTestCase()
        : TestCase("flow compute scale 2 doubles one worker compute time and sets the sync step")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = FiveLayerProfile();
        double m = static_cast<double>(p.GetTotalParamBytes());
        double tc = p.GetForwardTime().GetSeconds() + p.GetBackwardTime().GetSeconds();
        double ts = p.GetUpdateTime().GetSeconds();
        TrainingScenario s = BaseScenario(2);
        s.computeScale = {1.0, 2.0};
        TrainingResult r = RunFlow(p, s, "allreduce")[0];
        const double expected = m / B10 + 2 * tc + m / B10 + ts;
        NS_TEST_EXPECT_MSG_EQ_TOL(r.stepTimeMean, expected, expected * 1e-9, "PS sync");
        NS_TEST_EXPECT_MSG_EQ_TOL(StepDurations(r, 0)[1],
                                  m / B10 + tc + m / B10 + ts,
                                  1e-9,
                                  "fast worker's own step");
        s.architecture = TrainingScenario::RING_ALLREDUCE;
        r = RunFlow(p, s, "allreduce")[0];
        const double ring = 2 * tc + m / B10;
        NS_TEST_EXPECT_MSG_EQ_TOL(r.stepTimeMean, ring, ring * 1e-9, "ring");
    }
};

/**
 * \ingroup distributed-training
 * Steps are drawn with replacement from the recorded ones.
 *
 * Sampling: every step's compute time is one of the recorded steps, all of them get drawn; without
 * sampling every step uses the means.
 */
class StepSamplingTestCase : public TestCase
{
  public:
    StepSamplingTestCase()
        : TestCase("flow step sampling draws every recorded step, without it the means")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = SampledProfile();
        TrainingScenario s = BaseScenario(1);
        s.steps = 60;
        const double comm = 2 * p.GetTotalParamBytes() / B10;
        std::vector<double> totals;
        for (std::size_t k = 0; k < p.GetNSamples(); ++k)
        {
            double t = 0;
            const auto& st = p.GetSample(k);
            for (std::size_t l = 0; l < p.GetNLayers(); ++l)
            {
                t += (st.forwardUs[l] + st.backwardUs[l] + st.updateUs[l]) * 1e-6;
            }
            totals.push_back(t);
        }
        std::set<std::size_t> drawn;
        for (double d : StepDurations(RunFlow(p, s, "ps")[0]))
        {
            std::size_t match = totals.size();
            for (std::size_t k = 0; k < totals.size(); ++k)
            {
                if (std::abs(d - comm - totals[k]) < 1e-12)
                {
                    match = k;
                }
            }
            NS_TEST_EXPECT_MSG_LT(match, totals.size(), "step " << d << " is a recorded step");
            drawn.insert(match);
        }
        NS_TEST_EXPECT_MSG_EQ(drawn.size(), totals.size(), "all recorded steps drawn in 60");
        s.sampleSteps = false;
        const double mean = comm + p.GetForwardTime().GetSeconds()
                            + p.GetBackwardTime().GetSeconds() + p.GetUpdateTime().GetSeconds();
        for (double d : StepDurations(RunFlow(p, s, "ps")[0]))
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(d, mean, 1e-9, "mean step");
        }
    }
};

/**
 * \ingroup distributed-training
 * Determinism.
 *
 * Same seed gives identical records (async, 2 servers, random order, WIN, overlap, sampled);
 * another seed gives different ones.
 */
class FlowDeterminismTestCase : public TestCase
{
  public:
    FlowDeterminismTestCase()
        : TestCase("flow same seed gives identical records, another seed different ones")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = SampledProfile();
        TrainingScenario s = BaseScenario(4);
        s.mode = TrainingScenario::ASYNC;
        s.servers = 2;
        s.order = TrainingScenario::RANDOM_ORDER;
        s.windowBytes = 400000;
        s.overlap = true;
        s.steps = 20;
        s.warmup = 2;
        for (std::string sharing : {"fcfs", "ps", "hybrid"})
        {
            std::vector<TrainingResult> a = RunFlow(p, s, sharing);
            std::vector<TrainingResult> b = RunFlow(p, s, sharing);
            NS_TEST_ASSERT_MSG_EQ(a.size(), b.size(), "same number of results");
            for (std::size_t i = 0; i < a.size(); ++i)
            {
                NS_TEST_EXPECT_MSG_EQ((a[i].variant == "hybrid" || a[i].steps.size() == 80),
                                      true,
                                      sharing << ": every step recorded");
                NS_TEST_EXPECT_MSG_EQ(a[i].throughput, b[i].throughput, sharing << " throughput");
                bool sameSteps = a[i].steps.size() == b[i].steps.size();
                for (std::size_t k = 0; sameSteps && k < a[i].steps.size(); ++k)
                {
                    sameSteps = a[i].steps[k].end == b[i].steps[k].end
                                && a[i].steps[k].start == b[i].steps[k].start;
                }
                bool sameTransfers = a[i].transfers.size() == b[i].transfers.size();
                for (std::size_t k = 0; sameTransfers && k < a[i].transfers.size(); ++k)
                {
                    sameTransfers = a[i].transfers[k].start == b[i].transfers[k].start
                                    && a[i].transfers[k].end == b[i].transfers[k].end;
                }
                NS_TEST_EXPECT_MSG_EQ(sameSteps, true, sharing << ": identical step records");
                NS_TEST_EXPECT_MSG_EQ(sameTransfers, true, sharing << ": identical transfers");
            }
        }
        TrainingResult one = RunFlow(p, s, "ps")[0];
        s.seed = 2;
        TrainingResult two = RunFlow(p, s, "ps")[0];
        NS_TEST_EXPECT_MSG_NE(one.throughput, two.throughput, "another seed, another run");
    }
};

/**
 * \ingroup distributed-training
 * Async workers drift apart with sampled steps and stay in lockstep without.
 *
 * Async: sampled workers drift apart (step starts spread over the step time); identical unsampled
 * workers stay in lockstep and the result says so.
 */
class AsyncDriftTestCase : public TestCase
{
  public:
    AsyncDriftTestCase()
        : TestCase("flow async sampled workers drift apart, unsampled ones stay in lockstep")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = SampledProfile();
        TrainingScenario s = BaseScenario(4);
        s.mode = TrainingScenario::ASYNC;
        s.steps = 40;
        s.warmup = 5;
        auto spread = [&s](const TrainingResult& r)
        {
            double lo = 1e300;
            double hi = -1e300;
            for (const auto& st : r.steps)
            {
                if (st.step == s.steps - 1)
                {
                    lo = std::min(lo, st.start);
                    hi = std::max(hi, st.start);
                }
            }
            return hi - lo;
        };
        auto lockstepNote = [](const TrainingResult& r)
        {
            for (const auto& n : r.notes)
            {
                if (n.find("lockstep") != std::string::npos)
                {
                    return true;
                }
            }
            return false;
        };
        TrainingResult sampled = RunFlow(p, s, "ps")[0];
        NS_TEST_EXPECT_MSG_GT(spread(sampled),
                              0.1 * sampled.stepTimeMean,
                              "workers' last steps start at different times");
        NS_TEST_EXPECT_MSG_EQ(lockstepNote(sampled), false, "no lockstep note");
        NS_TEST_EXPECT_MSG_GT(sampled.throughput, 0, "throughput measured");
        s.sampleSteps = false;
        TrainingResult locked = RunFlow(p, s, "ps")[0];
        NS_TEST_EXPECT_MSG_EQ_TOL(spread(locked), 0, 1e-12, "identical workers stay together");
        NS_TEST_EXPECT_MSG_EQ(lockstepNote(locked), true, "lockstep reported");
    }
};

/**
 * \ingroup distributed-training
 * Link utilisation over the measurement window.
 *
 * Link utilisation = bytes carried in the window over (B x window), named as the packet level names
 * links.
 */
class LinkUtilisationTestCase : public TestCase
{
  public:
    LinkUtilisationTestCase()
        : TestCase("flow link utilisation is bytes over B times window, links named as packet")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t m = 1250000;
        TrainingProfile p = MakeProfile({m}, {0}, {0}, {1000});
        TrainingScenario s = BaseScenario(1);
        s.steps = 5;
        TrainingResult r = RunFlow(p, s, "ps")[0];
        const double step = 2 * m / B10 + 1e-3;
        NS_TEST_EXPECT_MSG_EQ_TOL(r.stepTimeMean, step, 1e-12, "step");
        for (std::string link :
             {"server0->switch", "switch->worker0", "worker0->switch", "switch->server0"})
        {
            NS_TEST_EXPECT_MSG_EQ(r.linkUtilisation.count(link), 1, link << " reported");
            NS_TEST_EXPECT_MSG_EQ_TOL(r.linkUtilisation[link],
                                      (m / B10) / step,
                                      1e-9,
                                      link << " utilisation");
        }
    }
};

/**
 * \ingroup distributed-training
 * The backend's options.
 *
 * Backend: hybrid returns the mean of fcfs and ps and both parts; ring ignores --sharing; unknown
 * --sharing throws naming the option.
 */
class FlowBackendOptionsTestCase : public TestCase
{
  public:
    FlowBackendOptionsTestCase()
        : TestCase("flow backend hybrid, ring and unknown sharing options")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = FiveLayerProfile();
        TrainingScenario s = BaseScenario(4);
        std::vector<TrainingResult> h = RunFlow(p, s, "hybrid");
        NS_TEST_ASSERT_MSG_EQ(h.size(), 3, "hybrid, fcfs, ps");
        NS_TEST_EXPECT_MSG_EQ(h[0].variant, "hybrid", "first is the hybrid");
        NS_TEST_EXPECT_MSG_EQ(h[1].variant, "fcfs", "then fcfs");
        NS_TEST_EXPECT_MSG_EQ(h[2].variant, "ps", "then ps");
        NS_TEST_EXPECT_MSG_EQ(h[0].backend, "flow", "backend name");
        NS_TEST_EXPECT_MSG_EQ_TOL(h[0].throughput,
                                  (h[1].throughput + h[2].throughput) / 2,
                                  1e-9,
                                  "mean throughput");
        NS_TEST_EXPECT_MSG_GT(h[1].throughput, h[2].throughput, "fcfs faster than ps here");

        s.architecture = TrainingScenario::RING_ALLREDUCE;
        std::vector<TrainingResult> ring = RunFlow(p, s, "fcfs");
        NS_TEST_ASSERT_MSG_EQ(ring.size(), 1, "one ring result");
        NS_TEST_EXPECT_MSG_EQ(ring[0].variant, "allreduce", "ring variant");

        std::string msg;
        try
        {
            SharingModelRegistry::Find("fifo");
        }
        catch (const TrainingInputError& e)
        {
            msg = e.what();
        }
        // The six models first; the test library registers one more (flow-sharing suite).
        NS_TEST_EXPECT_MSG_EQ(msg.rfind("--sharing: unknown value 'fifo' (expected fcfs, ps, "
                                        "capped, hybrid, calibrated, allreduce",
                                        0),
                              0,
                              msg);

        s = BaseScenario(0);
        msg.clear();
        try
        {
            RunFlow(p, s, "ps");
        }
        catch (const TrainingInputError& e)
        {
            msg = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ((msg.find("--workers") != std::string::npos),
                              true,
                              "scenario validated");
    }
};

/**
 * \ingroup distributed-training
 * A sharing model outside the list: every flow gets half of its path, whatever else is active.
 */
class HalfRateSharing : public SharingModel
{
  public:
    void AssignRates(const std::vector<Flow>& flows,
                     const std::vector<double>& capacity,
                     std::vector<double>& rates) const override
    {
        rates.assign(flows.size(), 0);
        for (std::size_t i = 0; i < flows.size(); ++i)
        {
            rates[i] = std::min(capacity[flows[i].links[0]], capacity[flows[i].links[1]]) / 2;
        }
    }

    std::string GetName() const override
    {
        return "half";
    }
};

/**
 * \ingroup distributed-training
 * A new sharing model is one class, plugged in through the SharingModel attribute.
 *
 * A new sharing model is one SharingModel subclass: set as the SharingModel attribute, its rates
 * drive the run and its name is the variant.
 */
class CustomSharingTestCase : public TestCase
{
  public:
    CustomSharingTestCase()
        : TestCase("a new SharingModel subclass drives the flow run and names the variant")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t m = 1250000;
        TrainingProfile p = TransferOnlyProfile({m});
        TrainingScenario s = BaseScenario(3);
        s.steps = 1;
        s.warmup = 0;
        Ptr<FlowBackend> backend = CreateObject<FlowBackend>();
        backend->SetAttribute("UseGoodput", BooleanValue(false));
        backend->SetAttribute("SharingModel", PointerValue(CreateObject<HalfRateSharing>()));
        std::vector<TrainingResult> r = backend->Run(p, s);
        NS_TEST_ASSERT_MSG_EQ(r.size(), 1, "one result");
        NS_TEST_EXPECT_MSG_EQ(r[0].variant, "half", "variant = the model's name");
        for (uint32_t w = 0; w < 3; ++w)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(Find(r[0], w, 0, 0, "down").end,
                                      2 * m / B10,
                                      1e-12,
                                      "half rate for worker " << w);
        }
    }
};

/**
 * \ingroup distributed-training
 * The optimised engine against a naive event-per-operation simulation of the same rules.
 *
 * Engine equals a naive event-per-tensor-and-layer simulation (every record to 1e-9) over 96 PS
 * scenarios: sync and async, fcfs, ps and capped, overlap on and off, 1 and 2 servers, WIN, forward
 * and reverse order, unequal workers; each also with --startJitter=0.4ms (the reference holds a
 * transfer queued on an idle connection for its delay).
 */
class ReferenceCrossCheckTestCase : public TestCase
{
  public:
    ReferenceCrossCheckTestCase()
        : TestCase("flow engine equals a naive reference simulation over 96 PS scenarios")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = FiveLayerProfile();
        int scenarios = 0;
        for (auto mode : {TrainingScenario::SYNC, TrainingScenario::ASYNC})
        {
            for (std::string sharing : {"fcfs", "ps", "capped"})
            {
                for (bool overlap : {false, true})
                {
                    for (uint32_t servers : {1u, 2u})
                    {
                        for (uint64_t win : {uint64_t(0), uint64_t(400000)})
                        {
                            for (auto order :
                                 {TrainingScenario::FORWARD_ORDER, TrainingScenario::REVERSE_ORDER})
                            {
                                TrainingScenario s = BaseScenario(4);
                                s.mode = mode;
                                s.overlap = overlap;
                                s.servers = servers;
                                s.windowBytes = win;
                                s.order = order;
                                s.steps = 6;
                                s.computeScale = {1.0, 1.37, 0.81, 1.13};
                                if (sharing == "capped")
                                {
                                    s.nicRate = DataRate("25Gbps");
                                    s.flowCap = DataRate("10Gbps");
                                }
                                std::string what = s.GetModeName() + " " + sharing + " overlap "
                                                   + std::to_string(overlap) + " P "
                                                   + std::to_string(servers) + " WIN "
                                                   + std::to_string(win) + " " + s.GetOrderName();
                                Compare(p, s, sharing, what);
                                s.startJitter = MicroSeconds(400);
                                Compare(p, s, sharing, what + " jitter");
                                ++scenarios;
                            }
                        }
                    }
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ(scenarios, 96, "scenarios checked");
    }

    static Ptr<SharingModel> Model(const std::string& name)
    {
        if (name == "fcfs")
        {
            return CreateObject<FcfsSharing>();
        }
        if (name == "capped")
        {
            return CreateObject<CappedSharing>();
        }
        return CreateObject<PsSharing>();
    }

    void Compare(const TrainingProfile& p,
                 const TrainingScenario& s,
                 const std::string& sharing,
                 const std::string& what)
    {
        FlowLevelSimulator::Options options;
        options.useGoodput = false;
        FlowLevelSimulator engine(p, s, Model(sharing), options);
        TrainingResult r = engine.Run();
        ReferencePsSimulator ref(p,
                                 s,
                                 Model(sharing),
                                 engine.GetLinkCapacity(),
                                 engine.GetFlowCap());
        ref.Run();

        auto close = [](double a, double b)
        {
            return std::abs(a - b) <= 1e-9 * std::max(1e-3, std::abs(b));
        };
        std::map<std::pair<uint32_t, uint32_t>, TrainingResult::StepRecord> steps;
        for (const auto& x : ref.steps)
        {
            steps[{x.worker, x.step}] = x;
        }
        NS_TEST_ASSERT_MSG_EQ(r.steps.size(), ref.steps.size(), what << ": step records");
        for (const auto& x : r.steps)
        {
            const auto& y = steps[{x.worker, x.step}];
            NS_TEST_ASSERT_MSG_EQ((close(x.start, y.start) && close(x.end, y.end)),
                                  true,
                                  what << ": worker " << x.worker << " step " << x.step << " ["
                                       << x.start << ", " << x.end << "] vs reference [" << y.start
                                       << ", " << y.end << "]");
        }
        std::map<std::tuple<uint32_t, uint32_t, std::string, int32_t>,
                 TrainingResult::TransferRecord>
            transfers;
        for (const auto& x : ref.transfers)
        {
            transfers[{x.worker, x.step, x.direction, x.tensor}] = x;
        }
        NS_TEST_ASSERT_MSG_EQ(r.transfers.size(), ref.transfers.size(), what << ": transfers");
        for (const auto& x : r.transfers)
        {
            const auto& y = transfers[{x.worker, x.step, x.direction, x.tensor}];
            NS_TEST_ASSERT_MSG_EQ((close(x.start, y.start) && close(x.end, y.end)
                                   && x.peer == y.peer && x.bytes == y.bytes),
                                  true,
                                  what << ": worker " << x.worker << " step " << x.step << " "
                                       << x.direction << " " << x.tensor << " [" << x.start << ", "
                                       << x.end << "] vs reference [" << y.start << ", " << y.end
                                       << "]");
        }
    }
};

/**
 * \ingroup distributed-training
 * The flow-level backend.
 */
class FlowLevelTestSuite : public TestSuite
{
  public:
    FlowLevelTestSuite()
        : TestSuite("distributed-training-flow", Type::UNIT)
    {
        AddTestCase(new TwoTransfersTestCase, DT_TEST_QUICK);
        AddTestCase(new CalibratedTransfersTestCase, DT_TEST_QUICK);
        AddTestCase(new WindowModelFlowTestCase, DT_TEST_QUICK);
        AddTestCase(new CappedTransfersTestCase, DT_TEST_QUICK);
        AddTestCase(new SyncPsClosedFormTestCase, DT_TEST_QUICK);
        AddTestCase(new RingClosedFormTestCase, DT_TEST_QUICK);
        AddTestCase(new RingCostsTestCase, DT_TEST_QUICK);
        AddTestCase(new RingBucketsTestCase, DT_TEST_QUICK);
        AddTestCase(new RingOverlapTestCase, DT_TEST_QUICK);
        AddTestCase(new WindowSchedulerTestCase, DT_TEST_QUICK);
        AddTestCase(new TransmissionOrderTestCase, DT_TEST_QUICK);
        AddTestCase(new PsOverlapTestCase, DT_TEST_QUICK);
        AddTestCase(new TwoServersTestCase, DT_TEST_QUICK);
        AddTestCase(new ComputeScaleTestCase, DT_TEST_QUICK);
        AddTestCase(new MultiGpuParameterServerFlowTestCase, DT_TEST_QUICK);
        AddTestCase(new StepSamplingTestCase, DT_TEST_QUICK);
        AddTestCase(new FlowDeterminismTestCase, DT_TEST_QUICK);
        AddTestCase(new AsyncDriftTestCase, DT_TEST_QUICK);
        AddTestCase(new LinkUtilisationTestCase, DT_TEST_QUICK);
        AddTestCase(new FlowBackendOptionsTestCase, DT_TEST_QUICK);
        AddTestCase(new CustomSharingTestCase, DT_TEST_QUICK);
        AddTestCase(new ReferenceCrossCheckTestCase, DT_TEST_QUICK);
    }
};

/// Static instance: registers the suite.
static FlowLevelTestSuite g_flowLevelTestSuite;

} // namespace

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-transfer-table.h"

#include "flow-class-heap.h"

#include "ns3/assert.h"
#include "ns3/training-profile.h"
#include "ns3/training-result.h"
#include "ns3/training-scenario.h"

#include <algorithm>

namespace ns3
{
namespace flow
{
namespace
{

/// A connection's progress through its segments, held in locals while Advance() runs.
struct Progress
{
    uint32_t head;      //!< Connection::head
    double headSent;    //!< Connection::headSent
    bool started;       //!< Connection::headStarted
    double queued;      //!< Connection::queued
    double windowBytes; //!< Connection::windowBytes
    double lastEnd;     //!< Connection::lastEnd
};

/**
 * \brief Write Advance()'s locals back.
 * \param c the connection
 * \param p its progress
 */
void
SaveProgress(Connection& c, const Progress& p)
{
    c.head = p.head;
    c.headSent = p.headSent;
    c.headStarted = p.started;
    c.queued = p.queued;
    c.windowBytes = p.windowBytes;
    c.lastEnd = p.lastEnd;
}

} // namespace

// The connection's state is what an async run with thousands of workers reads from memory once
// per transfer (flow-ps-types.h): keep it to two cache lines.
static_assert(sizeof(Connection) == 128, "Connection outgrew two cache lines");

TransferTable::TransferTable(const EngineInputs& in)
    : m_profile(in.profile),
      m_options(in.options),
      m_result(in.result),
      m_k(in.scenario.workers),
      m_p(std::max<uint32_t>(1, in.scenario.servers)),
      m_flowCap(in.flowCap),
      m_segs(in)
{
    BuildConnections(in.fabric);
    m_realLinks = static_cast<uint32_t>(in.fabric.GetCapacity().size());
    for (auto& g : m_groups)
    {
        g.capacity = in.fabric.GetCapacity();
    }
    if (in.options.windowBytes > 0)
    {
        m_windowCount.assign(2 * static_cast<std::size_t>(m_p), 0);
    }
    m_segs.Lay(m_conns);
}

void
TransferTable::SetSolver(TableListener& solver)
{
    m_solver = &solver;
    for (uint32_t gi = 0; gi < 2; ++gi)
    {
        m_byTime[gi] = solver.ByTime(gi);
    }
}

void
TransferTable::SharePriorities(uint64_t* seq)
{
    m_seq = seq;
}

void
TransferTable::BuildConnections(const FlowFabric& fabric)
{
    m_conns.resize(static_cast<std::size_t>(m_k) * m_p * 2);
    for (uint32_t w = 0; w < m_k; ++w)
    {
        for (uint32_t p = 0; p < m_p; ++p)
        {
            for (Direction d : {DOWN, UP})
            {
                Connection& c = m_conns[ConnIndex(w, p, d)];
                c.worker = w;
                c.server = p;
                c.dir = d;
                // The worker's p-th connection: its 5-tuple decides the ECMP path, and the
                // parameters come back along the reverse tuple's path.
                const uint16_t port = FlowFabric::FIRST_EPHEMERAL_PORT + p;
                const auto path = d == DOWN
                                      ? fabric.GetPath(m_k + p, w, FlowFabric::SERVICE_PORT, port)
                                      : fabric.GetPath(w, m_k + p, port, FlowFabric::SERVICE_PORT);
                c.path = static_cast<uint32_t>(m_pathLinks.size());
                c.nLinks = static_cast<uint32_t>(path.size());
                m_pathLinks.insert(m_pathLinks.end(), path.begin(), path.end());
                const uint32_t uplink = fabric.GetUplink(m_k + p);
                c.serverLink = d == DOWN ? uplink : FabricTopology::Reverse(uplink);
            }
        }
    }
}

void
TransferTable::WriteDownlink(uint32_t w, const std::vector<uint32_t>& order)
{
    m_segs.WriteDownlink(w, order, m_conns);
}

void
TransferTable::ResetConnections(uint32_t w, Direction d, uint32_t step)
{
    for (uint32_t p = 0; p < m_p; ++p)
    {
        Connection& c = m_conns[ConnIndex(w, p, d)];
        c.head = c.admitted = 0;
        c.headSent = 0;
        c.headStarted = false;
        c.queued = 0;
        c.lastEnd = 0; // arrivals are at or after the step's start, which is >= 0
        c.ready = m_now;
        c.step = step;
    }
}

void
TransferTable::SetCounting(bool on)
{
    EnsureAdvanced(DOWN);
    EnsureAdvanced(UP);
    m_counting = on;
}

void
TransferTable::Admit(Connection& c)
{
    const Segment* const segs = m_segs.Of(c);
    while (c.admitted < c.nSegs && m_segs.ReadyOf(c, c.admitted) <= m_now)
    {
        c.queued += m_segs.SegmentBytes(segs[c.admitted]);
        ++c.admitted;
    }
}

void
TransferTable::Activate(uint32_t ci)
{
    Connection& c = m_conns[ci];
    LinkGroup& g = m_groups[c.dir];
    Admit(c);
    NS_ASSERT_MSG(c.admitted > c.head, "activating a connection with nothing ready");
    c.active = true;
    c.lastTime = m_now;
    c.priority = ++*m_seq;
    c.activeSince = m_now;
    if (!m_windowCount.empty())
    {
        ++m_windowCount[c.dir * m_p + c.server];
    }
    g.active.push_back(ActiveEntry{ci, c.priority});
    ++g.nActive;
    if (g.active.size() > 2 * static_cast<std::size_t>(g.nActive) + 16)
    {
        CompactActive(c.dir);
    }
    m_solver->Activated(ci);
    g.dirty = true;
    MarkOtherDirection(c.dir);
}

void
TransferTable::Deactivate(uint32_t ci)
{
    Connection& c = m_conns[ci];
    LinkGroup& g = m_groups[c.dir];
    Leave(ci);
    c.active = false;
    --g.nActive;
    if (!m_windowCount.empty())
    {
        --m_windowCount[c.dir * m_p + c.server];
    }
    m_solver->Deactivated(ci);
    g.dirty = true;
    MarkOtherDirection(c.dir);
}

void
TransferTable::MarkOtherDirection(Direction d)
{
    if (m_options.windowBytes > 0)
    {
        // The window model couples the directions: one direction's standing queue lengthens the
        // other's round trip (its ACKs wait in it).
        // (Recompute accounts its connections up to now at their old rates first.)
        m_groups[d == DOWN ? UP : DOWN].dirty = true;
    }
}

double
TransferTable::WindowCap(uint32_t gi, uint32_t server) const
{
    // Per server link: the direction whose connections have more window beyond the empty
    // path's bandwidth-delay product fills its link and builds the standing queue (the excess,
    // at most its buffer: the server's NIC for parameters, the switch port for gradients). The
    // other direction's ACKs wait in that queue, so each of its connections sends at most one
    // window per (empty round trip + that queue's delay). The filling direction's connections
    // send at most one window per empty round trip, which binds only when their windows do not
    // cover the path (with them, the link and, once the buffer is full, losses limit it).
    // The active counts per direction and server are kept by Activate and Deactivate.
    const double w = m_options.windowBytes;
    const Direction other = gi == DOWN ? UP : DOWN;
    const uint32_t link = m_conns[ConnIndex(0, server, static_cast<Direction>(gi))].serverLink;
    const double capacity = m_groups[gi].capacity[link];
    const double pipe = capacity * m_options.baseRtt;
    const double mine = m_windowCount[gi * m_p + server] * w - pipe;
    const double theirs = m_windowCount[other * m_p + server] * w - pipe;
    double queue = 0; // in front of this direction's ACKs
    if (theirs > mine && theirs > 0)
    {
        const double buffer
            = other == DOWN ? m_options.hostBufferBytes : m_options.switchBufferBytes;
        queue = std::min(buffer, theirs);
    }
    return std::min(m_flowCap, w / (m_options.baseRtt + queue / capacity));
}

void
TransferTable::Account(double& queued, double& windowBytes, double bytes) const
{
    queued -= bytes;
    if (m_counting)
    {
        // Per connection: its path is fixed, so the links' bytes are summed once, at the end.
        windowBytes += bytes;
    }
}

void
TransferTable::Repath(uint32_t ci, const FlowFabric& fabric)
{
    Connection& c = m_conns[ci];
    if (c.nLinks == 0)
    {
        return; // a co-located shard: no link
    }
    const uint16_t port = FlowFabric::FIRST_EPHEMERAL_PORT + c.server;
    const uint32_t server = m_k + c.server;
    const auto path
        = c.dir == DOWN ? fabric.GetPathAt(server, c.worker, FlowFabric::SERVICE_PORT, port, m_now)
                        : fabric.GetPathAt(c.worker, server, port, FlowFabric::SERVICE_PORT, m_now);
    if (std::equal(path.begin(), path.end(), Links(c), Links(c) + c.nLinks))
    {
        return;
    }
    const bool active = c.active;
    if (active)
    {
        Advance(c, m_now);
        if (c.admitted <= c.head)
        {
            return; // drained by now: its group check deactivates it, its next start re-paths
        }
        Deactivate(ci);
    }
    m_oldPaths[ci].emplace_back(c.path, c.nLinks, c.windowBytes);
    c.windowBytes = 0;
    c.path = static_cast<uint32_t>(m_pathLinks.size());
    c.nLinks = static_cast<uint32_t>(path.size());
    m_pathLinks.insert(m_pathLinks.end(), path.begin(), path.end());
    if (active)
    {
        Activate(ci);
    }
}

std::vector<double>
TransferTable::GetLinkBytes(Direction d) const
{
    std::vector<double> bytes(m_realLinks, 0);
    for (uint32_t ci = 0; ci < m_conns.size(); ++ci)
    {
        const Connection& c = m_conns[ci];
        const auto old = m_oldPaths.find(ci);
        for (std::size_t i = 0; c.dir == d && old != m_oldPaths.end() && i < old->second.size();
             ++i)
        {
            const auto& [path, nLinks, carried] = old->second[i];
            for (uint32_t k = 0; k < nLinks; ++k)
            {
                bytes[m_pathLinks[path + k]] += carried;
            }
        }
        for (uint32_t k = 0; c.dir == d && k < c.nLinks; ++k)
        {
            bytes[m_pathLinks[c.path + k]] += c.windowBytes;
        }
    }
    return bytes;
}

void
TransferTable::SegmentDone(Connection& c, const Segment& s, double t)
{
    if (s.last)
    {
        c.lastEnd = std::max(c.lastEnd, t);
        if (double* const ends = m_segs.ArrivalsOf(c.worker))
        {
            ends[s.layer] = t;
        }
    }
    if (m_options.recordTransfers)
    {
        Record(c, s);
    }
}

void
TransferTable::Record(const Connection& c, const Segment& s)
{
    if (!s.last)
    {
        return;
    }
    m_result.AddTransfer({c.worker,
                          c.server,
                          c.step,
                          static_cast<int32_t>(s.layer),
                          c.dir == DOWN ? "down" : "up",
                          m_profile.GetLayer(s.layer).paramBytes,
                          m_segs.StartsOf(c.worker)[s.layer],
                          m_segs.ArrivalsOf(c.worker)[s.layer]});
}

void
TransferTable::Advance(Connection& c, double t)
{
    if (t <= c.lastTime)
    {
        return;
    }
    // The bytes sent since lastTime are the class's virtual bytes since then; a segment ends
    // when they cover it (interpolated in the class's rate history).
    const RateClass& k = m_classes[c.cls];
    const double vt = k.VirtualAt(t);
    double budget = vt - c.baseV;
    double at = c.baseV;
    double cur = c.lastTime;
    std::size_t piece = k.PieceAt(cur); // moves forward with cur
    // The connection's progress and the worker's times through locals, and the transfer records
    // after the loop: the loop then calls nothing and reloads nothing (the stores of the end
    // times could alias the connection's fields). Once per segment of every step: the hot loop.
    const uint32_t first = c.head;
    Progress p{c.head, c.headSent, c.headStarted, c.queued, c.windowBytes, c.lastEnd};
    const Segment* const segs = m_segs.Of(c);
    double* const ends = m_segs.ArrivalsOf(c.worker);
    double* const starts = m_segs.StartsOf(c.worker);
    while (p.head < c.admitted)
    {
        const Segment s = segs[p.head];
        const double bytes = m_segs.SegmentBytes(s);
        const double rem = bytes - p.headSent;
        if (!p.started)
        {
            const double start = rem > ByteTolerance(bytes) ? k.ServiceStart(cur, piece) : cur;
            if (start > t)
            {
                break; // waiting (FCFS): service has not begun
            }
            cur = start;
            p.started = true;
            if (starts && s.first)
            {
                starts[s.layer] = cur;
            }
        }
        if (rem > budget + ByteTolerance(bytes))
        {
            p.headSent += budget;
            Account(p.queued, p.windowBytes, budget);
            break;
        }
        // A remainder within rounding of the budget ends when the bytes stopped growing.
        const double end = std::min(t, k.TimeAt(std::min(at + rem, vt), cur, piece));
        Account(p.queued, p.windowBytes, rem);
        budget = std::max(0.0, budget - rem);
        at = std::min(vt, at + rem);
        if (s.last)
        {
            p.lastEnd = std::max(p.lastEnd, end);
            if (ends)
            {
                ends[s.layer] = end;
            }
        }
        cur = end;
        ++p.head;
        p.headSent = 0;
        p.started = false;
    }
    SaveProgress(c, p);
    c.lastTime = t;
    c.baseV = vt;
    for (uint32_t i = first; starts && i < p.head; ++i)
    {
        Record(c, segs[i]);
    }
}

void
TransferTable::FinishAdmitted(Connection& c)
{
    // Called at the connection's check time: what is left of the admitted bytes is rounding.
    while (c.head < c.admitted)
    {
        const Segment& s = m_segs.Of(c)[c.head];
        if (!c.headStarted && s.first && m_options.recordTransfers)
        {
            // Start times serve only the transfer records (kept out of the cache otherwise).
            m_segs.StartsOf(c.worker)[s.layer] = m_now;
        }
        Account(c.queued, c.windowBytes, m_segs.SegmentBytes(s) - c.headSent);
        SegmentDone(c, s, m_now);
        ++c.head;
        c.headSent = 0;
        c.headStarted = false;
    }
    c.queued = 0;
}

void
TransferTable::EnsureAdvanced(uint32_t gi)
{
    for (const ActiveEntry& e : m_groups[gi].active)
    {
        Connection& c = m_conns[e.conn];
        if (c.active && c.priority == e.priority)
        {
            Advance(c, m_now);
        }
    }
}

void
TransferTable::SetClassRate(uint32_t k, double rate)
{
    RateClass& cl = m_classes[k];
    if (!cl.SetRate(m_now, rate))
    {
        return;
    }
    if (cl.GetHistoryLength() > 2 * cl.members.size() + 8)
    {
        // Rebase: account every member up to now, then restart the history at V = 0. The
        // history's length stays O(members), and each rebase is paid by as many rate changes.
        for (uint32_t ci : cl.members)
        {
            Advance(m_conns[ci], m_now);
        }
        cl.Reset(m_now, rate);
        cl.ClearDrains();
        for (uint32_t ci : cl.members)
        {
            m_conns[ci].baseV = 0;
            PushDrain(ci);
        }
        ++rebases;
        classWork += cl.members.size();
    }
    RefreshClass(k);
}

void
TransferTable::CompactActive(uint32_t gi)
{
    auto& active = m_groups[gi].active;
    active.erase(std::remove_if(active.begin(),
                                active.end(),
                                [this](const ActiveEntry& e)
                                {
                                    return !IsLive(e);
                                }),
                 active.end());
}

uint32_t
TransferTable::NewClass(uint32_t gi)
{
    uint32_t k;
    if (!m_freeClasses.empty())
    {
        k = m_freeClasses.back();
        m_freeClasses.pop_back();
    }
    else
    {
        k = static_cast<uint32_t>(m_classes.size());
        m_classes.emplace_back();
    }
    LinkGroup& g = m_groups[gi];
    RateClass& cl = m_classes[k];
    cl.Reset(m_now, 0);
    cl.members.clear();
    cl.ClearDrains();
    cl.group = gi;
    cl.live = true;
    cl.nextTime = INF;
    cl.listPos = static_cast<uint32_t>(g.classes.size());
    g.classes.push_back(k);
    m_solver->ClassAdded(k);
    return k;
}

void
TransferTable::ReleaseClass(uint32_t k)
{
    RateClass& cl = m_classes[k];
    LinkGroup& g = m_groups[cl.group];
    cl.live = false;
    cl.ClearDrains();
    m_solver->ClassReleased(k);
    const uint32_t moved = g.classes.back();
    g.classes[cl.listPos] = moved;
    m_classes[moved].listPos = cl.listPos;
    g.classes.pop_back();
    m_freeClasses.push_back(k);
}

void
TransferTable::Join(uint32_t ci, uint32_t k)
{
    Connection& c = m_conns[ci];
    RateClass& cl = m_classes[k];
    NS_ASSERT_MSG(c.lastTime == m_now, "a connection joins a class with unaccounted bytes");
    c.cls = k;
    c.slot = static_cast<uint32_t>(cl.members.size());
    cl.members.push_back(ci);
    c.baseV = cl.VirtualAt(m_now);
    PushDrain(ci);
    RefreshClass(k);
}

void
TransferTable::Leave(uint32_t ci)
{
    Connection& c = m_conns[ci];
    RateClass& cl = m_classes[c.cls];
    ++c.drainStamp; // its queued drain point is stale
    const uint32_t last = cl.members.back();
    cl.members[c.slot] = last;
    m_conns[last].slot = c.slot;
    cl.members.pop_back();
    if (cl.members.empty())
    {
        ReleaseClass(c.cls);
    }
    else
    {
        RefreshClass(c.cls);
    }
}

void
TransferTable::PushDrain(uint32_t ci)
{
    Connection& c = m_conns[ci];
    ++c.drainStamp;
    // A remainder within rounding drains at once (as the queue of a zero-byte tensor).
    const double v = c.queued <= ByteTolerance(c.queued) ? c.baseV : c.baseV + c.queued;
    m_classes[c.cls].PushDrain(
        RateClass::Drain{v, ByteTolerance(c.queued), c.lastTime, c.priority, ci, c.drainStamp});
}

void
TransferTable::RefreshClass(uint32_t k)
{
    RateClass& cl = m_classes[k];
    while (cl.HasDrain())
    {
        const RateClass::Drain& d = cl.TopDrain();
        const Connection& c = m_conns[d.conn];
        if (c.active && c.cls == k && c.drainStamp == d.stamp)
        {
            break;
        }
        cl.PopDrain();
    }
    cl.nextTime = cl.HasDrain() ? cl.DrainTime(cl.TopDrain()) : INF;
    // Only a solver that keeps its classes by drain time has a heap (a call per rate change
    // costs 0.6 % of a PS run).
    if (m_byTime[cl.group])
    {
        m_byTime[cl.group]->Update(k);
    }
}

const std::vector<uint32_t>&
TransferTable::CollectDrained(uint32_t gi)
{
    m_drained.clear();
    m_touched.clear();
    m_solver->DueClasses(gi, m_touched);
    for (uint32_t k : m_touched)
    {
        RateClass& cl = m_classes[k];
        cl.nextTime = INF; // set again by RefreshClass once the drained are handled
        if (m_byTime[gi])
        {
            m_byTime[gi]->Update(k);
        }
        while (cl.HasDrain())
        {
            const RateClass::Drain d = cl.TopDrain();
            const Connection& c = m_conns[d.conn];
            if (c.active && c.cls == k && c.drainStamp == d.stamp)
            {
                if (cl.DrainTime(d) > m_now)
                {
                    break;
                }
                m_drained.push_back(d.conn);
            }
            cl.PopDrain();
        }
    }
    // Handled in activation order, whatever their classes (as one pass over the active list).
    std::sort(m_drained.begin(),
              m_drained.end(),
              [this](uint32_t a, uint32_t b)
              {
                  return m_conns[a].priority < m_conns[b].priority;
              });
    return m_drained;
}

TransferTable::Drain
TransferTable::Drained(uint32_t ci)
{
    Connection& c = m_conns[ci];
    Advance(c, m_now);
    FinishAdmitted(c);
    Admit(c);
    if (c.admitted > c.head)
    {
        PushDrain(ci); // busy on: same rate, no rate computation for the boundary
        RefreshClass(c.cls);
        return BUSY;
    }
    Deactivate(ci);
    return c.head < c.nSegs ? IDLE : DONE;
}

TransferTable::Drain
TransferTable::DeliverLocal(uint32_t ci)
{
    Connection& c = m_conns[ci];
    c.lastTime = m_now;
    Admit(c);
    FinishAdmitted(c); // every admitted segment ends now
    return c.head < c.nSegs ? IDLE : DONE;
}

void
TransferTable::RefreshDrained()
{
    for (uint32_t k : m_touched)
    {
        if (m_classes[k].live)
        {
            RefreshClass(k);
        }
    }
}

} // namespace flow
} // namespace ns3

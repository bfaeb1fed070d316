/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_TRANSFER_TABLE_H
#define FLOW_TRANSFER_TABLE_H

#include "flow-event-core.h"
#include "flow-ps-types.h"
#include "flow-rate-class.h"
#include "flow-segment-lists.h"

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

namespace ns3
{

class TrainingProfile;

namespace flow
{

class ClassHeap;

/**
 * What a TransferTable tells its rate solver of, and asks of it (RateSolver implements it). The
 * table knows only this interface, so the solvers depend on the table and not the other way round.
 */
class TableListener
{
  public:
    virtual ~TableListener() = default;
    /**
     * \brief An activated connection (accounted up to now) joins a rate class.
     * \param ci connection index
     */
    virtual void Activated(uint32_t ci) = 0;
    /**
     * \brief A connection became inactive (it has left its class).
     * \param ci connection index
     */
    virtual void Deactivated(uint32_t ci) = 0;
    /**
     * \brief A new live class (nextTime infinity).
     * \param k rate class
     */
    virtual void ClassAdded(uint32_t k) = 0;
    /**
     * \brief A class lost its last member.
     * \param k rate class
     */
    virtual void ClassReleased(uint32_t k) = 0;
    /**
     * \brief The group's classes whose next drain time is not after now.
     * \param gi group index
     * \param due where to append them
     */
    virtual void DueClasses(uint32_t gi, std::vector<uint32_t>& due) = 0;
    /**
     * \param gi group index
     * \return the group's classes ordered by next drain time, or null (NextDrain and
     *         DueClasses scan); the table tells it of every change of a drain time
     */
    virtual ClassHeap* ByTime(uint32_t gi) = 0;
};

/**
 * The transfers of a FlowPsEngine run: one connection per worker, server and direction with its
 * segment list, the active connections of each direction (a LinkGroup), the rate classes they
 * belong to, and the bytes each has sent (Advance: the class's virtual bytes, with the transfer
 * records). The rate solvers sort connections into classes and set the classes' rates through
 * this interface; the step machine (PsStepMachine) queues and resets the connections; the engine
 * drives the clock and the group checks. It tells its solver of every activation, class and
 * drain-time change.
 */
class TransferTable
{
  public:
    /// \param in the run's inputs (fabric paths and capacities, layers, records)
    explicit TransferTable(const EngineInputs& in);

    /**
     * \brief Tell this solver of activations and class changes from now on.
     * \param solver the engine's rate solver
     */
    void SetSolver(TableListener& solver);
    /** \param seq a shared activation counter (several jobs: FCFS order across them) */
    void SharePriorities(uint64_t* seq);

    /** \return the present (s) */
    double Now() const
    {
        return m_now;
    }

    /** \param now the present moves to it (s) */
    void SetNow(double now)
    {
        m_now = now;
    }

    // ---- what the solvers read ----

    /** \param ci connection index \return the connection */
    Connection& Conn(uint32_t ci)
    {
        return m_conns[ci];
    }

    /** \param gi direction \return its links and active connections */
    LinkGroup& Group(uint32_t gi)
    {
        return m_groups[gi];
    }

    /** \param gi direction \return its links and active connections */
    const LinkGroup& Group(uint32_t gi) const
    {
        return m_groups[gi];
    }

    /** \param k rate class \return the class */
    const RateClass& Class(uint32_t k) const
    {
        return m_classes[k];
    }

    /** \return every rate class (live or free), for a solver's ClassHeap (it keeps heapPos) */
    std::vector<RateClass>& Classes()
    {
        return m_classes;
    }

    /** \return the number of connections (indices 0 .. n-1) */
    std::size_t Connections() const
    {
        return m_conns.size();
    }

    /** \param c a connection \return its directed links (c.nLinks of them) */
    const uint32_t* Links(const Connection& c) const
    {
        return m_pathLinks.data() + c.path;
    }

    /** \param w worker \param p server \param d direction \return the connection index */
    uint32_t ConnIndex(uint32_t w, uint32_t p, Direction d) const
    {
        return flow::ConnIndex(m_p, w, p, d);
    }

    /**
     * \param e an entry of an active list or of an FCFS queue
     * \return whether its connection is still active since it was listed
     */
    bool IsLive(const ActiveEntry& e) const
    {
        const Connection& c = m_conns[e.conn];
        return c.active && c.priority == e.priority;
    }

    /** \return the per-flow cap (bytes/s) */
    double FlowCap() const
    {
        return m_flowCap;
    }

    /** \return whether the window model caps each connection (WindowCap) */
    bool HasWindowModel() const
    {
        return !m_windowCount.empty();
    }

    /**
     * \brief Window model: the cap of each of a direction's connections to one server.
     * \param gi the direction
     * \param server the server
     * \return min(flow cap, window / round trip with both standing queues) (bytes/s)
     */
    double WindowCap(uint32_t gi, uint32_t server) const;

    // ---- the rate classes (the solvers') ----

    /** \param gi group index \return a new live rate class of that group, rate 0 */
    uint32_t NewClass(uint32_t gi);
    /**
     * \brief A connection (accounted up to now) joins a class.
     * \param ci connection index
     * \param k rate class
     */
    void Join(uint32_t ci, uint32_t k);
    /**
     * \brief A connection leaves its class (released when it was the last member).
     * \param ci connection index
     */
    void Leave(uint32_t ci);
    /**
     * \brief A class's members' new rate: its history grows, or is rebased when it outgrew them.
     * \param k rate class
     * \param rate bytes/s of each member
     */
    void SetClassRate(uint32_t k, double rate);
    /**
     * \brief Account the bytes sent up to t (its rate class's virtual bytes); segments that
     * completed in between get their end time from the class's rate history.
     * \param c connection
     * \param t time (>= its last time)
     */
    void Advance(Connection& c, double t);

    // ---- the connections' steps (the step machine's and the engine's) ----

    /** \return what the connections send and when */
    SegmentLists& Segments()
    {
        return m_segs;
    }

    /** \return what the connections send and when */
    const SegmentLists& Segments() const
    {
        return m_segs;
    }

    /**
     * \brief Write the downlink segments of a transmission order (SegmentLists::WriteDownlink).
     * \param w worker
     * \param order the layers in transmission order
     */
    void WriteDownlink(uint32_t w, const std::vector<uint32_t>& order);
    /**
     * \brief Empty the worker's connections of one direction for a new step.
     * \param w worker
     * \param d direction
     * \param step step index
     */
    void ResetConnections(uint32_t w, Direction d, uint32_t step);
    /** \param ci an idle connection with a ready segment: it joins its direction's active set */
    void Activate(uint32_t ci);

    /**
     * \param ci connection index
     * \return whether it crosses no link: a co-located server's shard and its host's worker
     */
    bool IsLocal(uint32_t ci) const
    {
        return m_conns[ci].nLinks == 0;
    }

    /**
     * \brief --linkDown: give a connection the path the fabric's re-routing rule gives it now.
     * An idle connection takes it for its next transfer; one that is sending is accounted up to
     * now, leaves its rate class and joins one of its new path at once (behind the active
     * connections in FCFS order, as a new flow); one whose queue drained by now keeps its path
     * until its next activation. The bytes it carried so far stay counted on its old links.
     * \param ci connection index
     * \param fabric the placed fabric with its outages
     */
    void Repath(uint32_t ci, const FlowFabric& fabric);

    /** \param on open (else close) the measurement window for link utilisation */
    void SetCounting(bool on);
    /**
     * \brief Collect the connections of a group whose queues drained by now, in activation
     * order (valid until the next call).
     * \param gi group index
     * \return their indices
     */
    const std::vector<uint32_t>& CollectDrained(uint32_t gi);

    /// What a drained connection does next.
    enum Drain
    {
        BUSY, //!< newly ready segments: it goes on at the same rate
        IDLE, //!< inactive until its next segment is ready
        DONE, //!< inactive: it has sent every segment of its step
    };

    /**
     * \brief A connection of CollectDrained: complete what rounding left of its queue and go on
     * with the segments ready now, or leave the active set.
     * \param ci connection index
     * \return what it does next
     */
    Drain Drained(uint32_t ci);
    /**
     * \brief A local connection (IsLocal) instead of joining the active set: its ready segments
     * arrive now. The packet level hands them over the node's loopback, which takes no time.
     * \param ci connection index
     * \return IDLE (segments not ready yet) or DONE
     */
    Drain DeliverLocal(uint32_t ci);
    /// After the drained connections of CollectDrained: refresh the drain times of their classes.
    void RefreshDrained();
    /** \param d direction \return bytes each of its links carried inside the measurement window */
    std::vector<double> GetLinkBytes(Direction d) const;

    uint64_t rebases{0}; //!< rate-class histories restarted
    /// Rate classes looked at to find the next check or the drained ones, plus members advanced
    /// by rebases (the engine's own per-event work besides the sharing model's).
    uint64_t classWork{0};

  private:
    /** \param fabric the placed fabric: one connection per worker, server, direction, with paths */
    void BuildConnections(const FlowFabric& fabric);
    /** \param c connection: queue its segments that are ready now */
    void Admit(Connection& c);
    /** \param ci connection index: it leaves the active set (its queue is empty) */
    void Deactivate(uint32_t ci);
    /** \param d the direction whose active set changed (the window model couples them) */
    void MarkOtherDirection(Direction d);
    /** \param gi group index: drop the stale entries of its list of active connections */
    void CompactActive(uint32_t gi);
    /** \param gi group index: advance every active connection of it to now */
    void EnsureAdvanced(uint32_t gi);
    /** \param c connection: at its check time, complete what rounding left of its queue */
    void FinishAdmitted(Connection& c);
    /** \param k rate class without members: it goes to the free list */
    void ReleaseClass(uint32_t k);
    /** \param ci connection index: queue its drain point in its class (not refreshed) */
    void PushDrain(uint32_t ci);
    /** \param k rate class: drop its stale drain points and set its earliest drain time */
    void RefreshClass(uint32_t k);
    /**
     * \brief Count bytes sent: off a connection's queue, onto its window bytes while counting.
     * \param queued its unsent bytes \param windowBytes inside the window \param bytes sent
     */
    void Account(double& queued, double& windowBytes, double bytes) const;
    /**
     * \brief A segment completes (the last of a tensor makes its record).
     * \param c connection \param s segment \param t time
     */
    void SegmentDone(Connection& c, const Segment& s, double t);
    /** \param c connection \param s a completed segment: its transfer record (records on) */
    void Record(const Connection& c, const Segment& s);

    const TrainingProfile& m_profile;  //!< the DNN (the records' tensor sizes)
    FlowRunOptions m_options;          //!< window model and records
    TrainingResult& m_result;          //!< transfer records go here
    uint32_t m_k;                      //!< workers
    uint32_t m_p;                      //!< servers
    double m_flowCap;                  //!< per-flow cap (bytes/s)
    SegmentLists m_segs;               //!< what the connections send and when
    std::vector<Connection> m_conns;   //!< all connections
    LinkGroup m_groups[2];             //!< DOWN and UP links
    std::vector<uint32_t> m_pathLinks; //!< every connection's path, one after another
    /// --linkDown: per re-pathed connection, its earlier paths (offset, links) and the bytes
    /// each carried inside the window
    std::map<uint32_t, std::vector<std::tuple<uint32_t, uint32_t, double>>> m_oldPaths;
    std::vector<uint32_t> m_drained;          //!< scratch: drained connections (CollectDrained)
    std::vector<uint32_t> m_touched;          //!< scratch: classes to refresh
    std::vector<uint32_t> m_windowCount;      //!< window model: active connections per dir, server
    std::vector<RateClass> m_classes;         //!< rate classes (live or free)
    std::vector<uint32_t> m_freeClasses;      //!< classes without members
    uint64_t m_ownSeq{0};                     //!< activations so far (one job)
    uint64_t* m_seq{&m_ownSeq};               //!< the activation counter (own or shared)
    double m_now{0};                          //!< current time (s)
    bool m_counting{false};                   //!< inside the measurement window
    uint32_t m_realLinks{0};                  //!< links of the fabric
    TableListener* m_solver{nullptr};         //!< told of activations and class changes
    ClassHeap* m_byTime[2]{nullptr, nullptr}; //!< per group: the solver's classes by drain time
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_TRANSFER_TABLE_H */

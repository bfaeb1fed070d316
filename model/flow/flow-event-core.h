/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_EVENT_CORE_H
#define FLOW_EVENT_CORE_H

#include "flow-run-options.h"
#include "sharing-model.h"

#include "ns3/distributed-training-compat.h"
#include "ns3/fabric-topology.h"
#include "ns3/link-failures.h"
#include "ns3/split-mix64.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <queue>
#include <string>
#include <vector>

namespace ns3
{

class TrainingProfile;
class TrainingResult;
class TrainingScenario;

/**
 * \ingroup distributed-training
 * \brief What the flow-level engines (FlowPsEngine, FlowRingEngine) share: time units, the
 * per-(worker, step) random streams, the event heap, and the fabric their transfers cross.
 */
namespace flow
{

constexpr double INF = std::numeric_limits<double>::infinity(); //!< no limit / never
constexpr double US = 1e-6;                                     //!< seconds per microsecond

/**
 * Bytes below which a remainder counts as sent: a few ulps of the byte counts involved, so that
 * rounding never leaves a flow waiting for 1e-10 bytes (with FCFS it could wait a long time).
 * \param bytes size of the segment or queue
 * \return the tolerance in bytes
 */
inline double
ByteTolerance(double bytes)
{
    return 1e-6 + 1e-12 * bytes;
}

/**
 * The random numbers of one (worker, step): a SplitMix64 stream keyed by (seed, worker, step,
 * purpose). Keying by the operation, not by the order in which the engine happens to draw, makes
 * the draws identical under every sharing model and every event order.
 */
class StepRng
{
  public:
    /**
     * \param seed scenario seed
     * \param worker worker index
     * \param step step index
     * \param purpose 0 = which recorded step, 1 = transmission order
     */
    StepRng(uint64_t seed, uint32_t worker, uint32_t step, uint32_t purpose)
        : m_state(SplitMix64(SplitMix64(SplitMix64(seed) ^ worker)
                             ^ (static_cast<uint64_t>(step) << 2 | purpose)))
    {
    }

    /// \return the next 64 random bits
    uint64_t Next()
    {
        m_state += 0x9e3779b97f4a7c15ULL;
        return SplitMix64(m_state);
    }

    /**
     * \param n bound (> 0)
     * \return a uniform integer in [0, n) (Lemire's multiply-shift)
     */
    uint64_t Below(uint64_t n)
    {
        return DtMulHigh64(Next(), n);
    }

  private:
    uint64_t m_state; //!< generator state
};

/**
 * The start jitter (--startJitter = J, doc/reference/congestion.rst "Start jitter"), the packet
 * level's rule: a worker's first step, and every transfer that starts on an idle connection, wait a
 * delay uniform in [0, J). Each delay is keyed like StepRng by (seed, worker, step), purpose 2,
 * and by the transfer (which connection, which of its pieces), so that it does not depend on
 * the sharing model or on the order in which the engine meets the transfers.
 */
class StartJitter
{
  public:
    /**
     * \param maxSeconds J (0: no jitter)
     * \param seed scenario seed
     */
    StartJitter(double maxSeconds, uint64_t seed)
        : m_max(maxSeconds),
          m_seed(seed)
    {
    }

    /// \return whether J > 0
    bool IsOn() const
    {
        return m_max > 0;
    }

    /**
     * \param worker worker (ring member) index
     * \param step step index
     * \param transfer which transfer of the step (the engine's key: connection and piece)
     * \return its delay, uniform in [0, J) (s)
     */
    double Delay(uint32_t worker, uint32_t step, uint64_t transfer) const
    {
        StepRng rng(m_seed, worker, step, 2);
        // 53 random bits: a uniform double in [0, 1).
        const uint64_t bits = SplitMix64(rng.Next() ^ SplitMix64(transfer)) >> 11;
        return m_max * static_cast<double>(bits) * 0x1.0p-53;
    }

    /**
     * \param worker worker (ring member) index
     * \return the delay of its first step (s)
     */
    double FirstStep(uint32_t worker) const
    {
        return Delay(worker, 0, FIRST_STEP);
    }

  private:
    static constexpr uint64_t FIRST_STEP = ~0ULL; //!< the key of the first step's delay
    double m_max;                                 //!< J (s)
    uint64_t m_seed;                              //!< scenario seed
};

/// Event kinds.
enum EventType : uint8_t
{
    GROUP_CHECK,   //!< some connection of a group has sent all it had queued
    CONN_ACTIVATE, //!< an idle connection's next segment becomes ready
    STEP_END,      //!< a worker's last update of the step is applied
    STEP_START,    //!< a worker's first step begins after its start jitter
    LINK_CHANGE,   //!< --linkDown: a link goes down or comes back (id: the change's index)
};

/// An event of the heap.
struct Event
{
    double time;    //!< when
    uint64_t seq;   //!< insertion order (ties are handled first in, first out)
    EventType type; //!< kind
    uint32_t id;    //!< group, connection or worker
    uint64_t tag;   //!< group version or step (stale events are dropped)
};

/// The event heap: earliest time first, ties in insertion order; Q is never re-sorted.
class EventQueue
{
  public:
    /**
     * \brief Push an event; nothing happens before the present (chains evaluated from
     * interpolated times may end a hair before now).
     * \param time when
     * \param type kind
     * \param id group, connection or worker
     * \param tag group version or step
     */
    void Schedule(double time, EventType type, uint32_t id, uint64_t tag)
    {
        m_heap.push(Event{std::max(time, m_now), m_seq++, type, id, tag});
    }

    /** \return true when no event is pending */
    bool IsEmpty() const
    {
        return m_heap.empty();
    }

    /** \return the earliest event, removed; the present moves to its time */
    Event Pop()
    {
        Event e = m_heap.top();
        m_heap.pop();
        m_now = e.time;
        return e;
    }

    /** \return true when the next event (if any) is later than now: the instant is over */
    bool InstantOver() const
    {
        return m_heap.empty() || m_heap.top().time > m_now;
    }

    /** \return the time of the earliest event (the queue must not be empty) */
    double PeekTime() const
    {
        return m_heap.top().time;
    }

    /** \return the present (seconds) */
    double Now() const
    {
        return m_now;
    }

  private:
    /// Heap order: earliest time first, then insertion order.
    struct Later
    {
        /**
         * \param a one event
         * \param b another
         * \return true if a comes after b
         */
        bool operator()(const Event& a, const Event& b) const
        {
            return a.time > b.time || (a.time == b.time && a.seq > b.seq);
        }
    };

    std::priority_queue<Event, std::vector<Event>, Later> m_heap; //!< pending events
    uint64_t m_seq{0};                                            //!< events pushed so far
    double m_now{0};                                              //!< current time (s)
};

/**
 * \brief The scenario's placed fabric as the flow engines see it: one capacity per directed
 * link (bytes/s), the path of a flow between two roles (per-flow ECMP with the 5-tuple the
 * packet level uses: server port 5000, the worker's n-th connection on ephemeral port 49153 + n),
 * and the report of link utilisation.
 */
class FlowFabric
{
  public:
    /// TCP port of the parameter servers and ring workers at the packet level.
    static constexpr uint16_t SERVICE_PORT = 5000;
    /// First ephemeral port ns-3 gives a node's connecting sockets (Ipv4EndPointDemux).
    static constexpr uint16_t FIRST_EPHEMERAL_PORT = 49153;

    /**
     * \param scenario the scenario (its fabric fields)
     * \param useGoodput capacity = TCP goodput of each link's rate, else the raw rate
     */
    FlowFabric(const TrainingScenario& scenario, bool useGoodput);

    /**
     * \brief One job's view of a fabric that several jobs share: the same links (and link
     * indices) for every job, the job's roles on its own hosts under its own role names.
     * \param scenario the job's scenario (its roles and rates)
     * \param useGoodput as above
     * \param shared the shared fabric
     * \param hosts the host of each of the job's roles
     */
    FlowFabric(const TrainingScenario& scenario,
               bool useGoodput,
               const FabricTopology& shared,
               const std::vector<uint32_t>& hosts);

    /** \return the capacity of every directed link (bytes/s) */
    const std::vector<double>& GetCapacity() const
    {
        return m_capacity;
    }

    /** \return the placed topology */
    const FabricTopology& GetTopology() const
    {
        return m_topology;
    }

    /**
     * \brief The links a flow from one role to another crosses (per-flow ECMP).
     * \param from sending role (worker w, or K + p for server p)
     * \param to receiving role
     * \param srcPort source port of the 5-tuple
     * \param dstPort destination port
     * \return the directed links
     * \throws TrainingInputError for a path longer than SharingModel::MAX_LINKS
     */
    std::vector<uint32_t> GetPath(uint32_t from,
                                  uint32_t to,
                                  uint16_t srcPort,
                                  uint16_t dstPort) const;

    /**
     * \brief The links a flow crosses at a time: GetPath() while no link is down, else the
     * path LinkFailures' re-routing rule gives it.
     * \param from sending role
     * \param to receiving role
     * \param srcPort source port of the 5-tuple
     * \param dstPort destination port
     * \param t the time (s)
     * \return the directed links
     * \throws TrainingInputError for a path longer than SharingModel::MAX_LINKS
     */
    std::vector<uint32_t> GetPathAt(uint32_t from,
                                    uint32_t to,
                                    uint16_t srcPort,
                                    uint16_t dstPort,
                                    double t) const;

    /** \return the scenario's link outages (--linkDown), or null when there are none */
    const LinkFailures* GetFailures() const
    {
        return m_failures.get();
    }

    /**
     * \param role a role
     * \return its NIC link towards the fabric
     */
    uint32_t GetUplink(uint32_t role) const;

    /**
     * \brief Link utilisation (bytes / (capacity x window)) of every directed link, and the
     * busiest one as the bottleneck (the first in link order among equals).
     * \param bytes bytes carried by each directed link inside the window
     * \param result the result (windowStart/End set by Finalize)
     */
    void Report(const std::vector<double>& bytes, TrainingResult& result) const;

  private:
    /**
     * \brief Fill m_capacity from the placed topology, and m_failures from --linkDown.
     * \param scenario the scenario (its NIC rate, goodput rule and outages)
     * \param useGoodput as in the constructor
     */
    void SetLinks(const TrainingScenario& scenario, bool useGoodput);

    FabricTopology m_topology;                      //!< placed fabric
    std::vector<double> m_capacity;                 //!< per directed link (bytes/s)
    std::shared_ptr<const LinkFailures> m_failures; //!< --linkDown (null: none)
};

/// What a flow engine (FlowPsEngine, FlowRingEngine) runs on: one run's inputs and its result.
struct EngineInputs
{
    const TrainingProfile& profile;   //!< the DNN
    const TrainingScenario& scenario; //!< the scenario
    const SharingModel& sharing;      //!< the sharing model
    const FlowRunOptions& options;    //!< run options
    const FlowFabric& fabric;         //!< the placed fabric: capacities and paths
    double flowCap;                   //!< per-flow cap (bytes/s, infinity for none)
    TrainingResult& result;           //!< where records go
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_EVENT_CORE_H */

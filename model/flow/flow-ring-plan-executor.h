/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_RING_PLAN_EXECUTOR_H
#define FLOW_RING_PLAN_EXECUTOR_H

#include "flow-event-core.h"

#include "ns3/allreduce-schedule.h"

#include <cstdint>
#include <deque>
#include <map>
#include <queue>
#include <utility>
#include <vector>

namespace ns3
{
namespace flow
{

/**
 * \ingroup distributed-training
 * \brief One bucket's AllReduce at the flow level, executed from its AllReduceSchedule plan
 * (halving-doubling, the double binary tree; the ring's plan too, which FlowRingEngine
 * evaluates in closed form instead).
 *
 * The packet level's plan engine (RingAllReduceProtocol) with flows for TCP: every node starts
 * at time 0; a node hands a send to its connection once every receive the send waits for has
 * arrived, in plan order; a send that carries received data marked `reduce` and not yet reduced
 * first waits for that reduction (its bytes / ReductionRate) and holds the sends behind it. A
 * connection (sender, receiver, channel) sends its messages one after another as one flow; its
 * path is the fabric's per-flow ECMP path of the packet level's socket (the node's n-th
 * connection, in (receiver, channel) order, on ephemeral port 49153 + n). The active flows'
 * rates come from the sharing model, asked again whenever a flow starts or ends; a message
 * arrives one path delay after its last byte left. With --startJitter a message that starts on
 * an idle connection waits its delay first. The AllReduce ends when every node has sent all its
 * messages and received all of its own.
 */
class FlowRingPlanExecutor
{
  public:
    /// One message of the plan as it went, times from the AllReduce's start (s).
    struct Message
    {
        uint32_t from;       //!< sender
        uint32_t to;         //!< receiver
        uint32_t connection; //!< index of its connection (GetPath)
        uint64_t bytes;      //!< length
        double sent;         //!< handed to its connection
        double arrived;      //!< its last byte arrived
    };

    /**
     * \param in the run's inputs (scenario: workers, reductionRate, treeChunkBytes; fabric,
     *        sharing model and per-flow cap)
     * \param algorithm the collective (not NCCL: FlowRingEngine runs its tree buckets here)
     * \param jitter --startJitter's delays (kept by reference)
     */
    FlowRingPlanExecutor(const EngineInputs& in,
                         AllReduceSchedule::Algorithm algorithm,
                         const StartJitter& jitter);

    /**
     * \brief Run one AllReduce; GetMessages() then holds its messages.
     * \param bytes M (>= 1)
     * \param step step index (the jitter's key)
     * \param bucket bucket index (the jitter's key)
     * \return from the common start to the last node's end (s)
     * \throws TrainingInputError when the sharing model leaves the collective without a rate
     */
    double Run(uint64_t bytes, uint32_t step, std::size_t bucket);

    /// \return the last Run's messages, in the order they were handed to their connections
    const std::vector<Message>& GetMessages() const
    {
        return m_messages;
    }

    /// \param connection a Message::connection \return the directed links it crosses
    const std::vector<uint32_t>& GetPath(uint32_t connection) const
    {
        return m_connections[connection].path;
    }

    /// What the runs so far cost.
    struct Counters
    {
        uint64_t events{0};           //!< arrivals, reductions and start delays handled
        uint64_t rateComputations{0}; //!< sharing-model calls
        uint64_t sharingFlows{0};     //!< flows handed to the sharing model
    };

    Counters counters; //!< since construction

  private:
    /// A TCP connection: one flow that sends its queued messages in order.
    struct Connection
    {
        uint32_t from;              //!< sending node
        std::vector<uint32_t> path; //!< directed links
        double delay;               //!< one-way path delay (s)
        std::deque<uint32_t> queue; //!< messages not yet sent, the head being sent
        double remaining{0};        //!< bytes of the head message left
        bool active{false};         //!< its flow is in the sharing (the head is being sent)
        bool waiting{false};        //!< its head waits for the start jitter's delay
        uint64_t priority{0};       //!< activation order (FCFS's service order)
        double since{0};            //!< when it became active
        double rate{0};             //!< bytes/s from the sharing model
    };

    /// A bucket size's plans and how their messages meet.
    struct Plan
    {
        std::vector<AllReduceSchedule::NodePlan> nodes;  //!< per node
        std::vector<std::vector<uint32_t>> connectionOf; //!< per node, per send: its connection
        std::vector<std::vector<uint32_t>> receiveOf;    //!< per node, per send: peer's receive
    };

    /// One node's progress through its plan.
    struct Node
    {
        std::vector<bool> sent;     //!< per send: handed to its connection
        std::vector<bool> have;     //!< per receive: arrived
        std::vector<bool> reduced;  //!< per receive: reduced into the buffer
        std::size_t firstUnsent{0}; //!< sends before it all went
        std::size_t sentCount{0};   //!< sends that went
        std::size_t haveCount{0};   //!< receives that arrived
        bool reducing{false};       //!< the reducer is busy (for reducingFor)
        uint32_t reducingFor{0};    //!< the send waiting for the reduction
        bool done{false};           //!< every send went and every receive arrived
    };

    /// Event kinds.
    enum Kind : uint8_t
    {
        ARRIVE,   //!< a message arrived (id: its receiver, index: receive, message: which)
        REDUCED,  //!< a node's reduction finished (id: the node)
        ACTIVATE, //!< a connection's start delay is over (id: the connection)
    };

    /// A pending event: earliest time first, then insertion order.
    struct Event
    {
        double time;      //!< when
        uint64_t seq;     //!< insertion order
        Kind kind;        //!< what
        uint32_t id;      //!< node or connection
        uint32_t index;   //!< receive index (ARRIVE)
        uint32_t message; //!< message (ARRIVE)

        /// \param o another event \return whether this one comes after it
        bool operator>(const Event& o) const
        {
            return time > o.time || (time == o.time && seq > o.seq);
        }
    };

    /**
     * \param bytes M
     * \return the plans of a bucket of that size (computed once per size)
     */
    const Plan& GetPlan(uint64_t bytes);
    /// Reset every node and connection for m_plan.
    void Reset();
    /// \param node hand its ready sends to their connections (or start a reduction)
    void Advance(uint32_t node);
    /**
     * \param node a node \param send a send of its plan
     * \param bytes set to the bytes of the receives it waits for that are still to be reduced
     * \return whether there is such a receive
     */
    bool NeedsReduction(uint32_t node, uint32_t send, uint64_t& bytes) const;
    /// \param node a node \param send the send to hand to its connection
    void Enqueue(uint32_t node, uint32_t send);
    /// \param c a connection whose head message starts now
    void Activate(uint32_t c);
    /// \param c a connection whose head message has left completely
    void HeadSent(uint32_t c);
    /// \param e handle an event
    void Handle(const Event& e);
    /// Ask the sharing model for the active connections' rates.
    void ComputeRates();
    /// \return the earliest time a head message leaves (INF: none will)
    double NextDeparture() const;
    /// \param kind kind \param time when \param id node or connection
    /// \param index receive \param message message
    void Schedule(Kind kind, double time, uint32_t id, uint32_t index = 0, uint32_t message = 0);

    const FlowFabric& m_fabric;               //!< capacities and paths
    const SharingModel& m_sharing;            //!< rates of the active flows
    const StartJitter& m_jitter;              //!< --startJitter
    AllReduceSchedule::Algorithm m_algorithm; //!< the collective
    uint32_t m_workers;                       //!< K
    uint64_t m_chunkBytes;                    //!< the tree's pipelining unit
    double m_reductionRate;                   //!< bytes/s (0: free)
    double m_flowCap;                         //!< per-flow cap (bytes/s)
    std::vector<Connection> m_connections;    //!< every node's connections
    std::vector<std::map<std::pair<uint32_t, uint32_t>, uint32_t>> m_slot; //!< (peer, channel)
    std::vector<uint32_t> m_groups;           //!< hierarchical: each node's group
    std::map<uint64_t, Plan> m_plans;         //!< per bucket size
    const Plan* m_plan{nullptr};              //!< the running AllReduce's plans
    std::vector<Node> m_nodes;                //!< per node
    std::vector<Message> m_messages;          //!< the running AllReduce's messages
    std::vector<uint32_t> m_receiveOfMessage; //!< per message: its receive at the receiver
    std::priority_queue<Event, std::vector<Event>, std::greater<Event>> m_events; //!< pending
    uint64_t m_seq{0};                                                            //!< events pushed
    uint64_t m_activations{0};               //!< connections activated
    double m_now{0};                         //!< time from the AllReduce's start (s)
    double m_end{0};                         //!< the last node's end
    bool m_dirty{false};                     //!< flows began or ended since ComputeRates
    uint32_t m_step{0};                      //!< the running step (jitter key)
    uint64_t m_bucket{0};                    //!< the running bucket (jitter key)
    std::vector<SharingModel::Flow> m_flows; //!< scratch: the active flows
    std::vector<uint32_t> m_flowConnection;  //!< scratch: their connections
    std::vector<double> m_rates;             //!< scratch: their rates
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_RING_PLAN_EXECUTOR_H */

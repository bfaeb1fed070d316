/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_FCFS_SOLVER_H
#define FLOW_FCFS_SOLVER_H

#include "fcfs-rule.h"
#include "flow-class-heap.h"
#include "flow-ps-types.h"
#include "flow-rate-solver.h"

#include <utility>

namespace ns3
{
namespace flow
{

/**
 * First come, first served (FcfsSharing), served queue by queue. FcfsRule serves every active
 * flow in activation order; a flow that crosses a link its predecessors filled gets 0 and leaves
 * every link as it was. Every connection of a parameter server crosses that server's link, so
 * once the link is full the rest of the server's queue gets 0: the solver serves the servers'
 * queues merged in activation order and stops on a queue at its first full server link. The
 * rates are FcfsSharing::AssignRates's bit for bit (the same rule, on the same capacities, in the
 * same order, less the flows that would get 0), and a rate computation costs per connection that
 * can get a rate, not per active connection. Every connection is a class of its own; the classes
 * are kept in a heap by drain time (a rate computation changes few of them).
 */
class FcfsSolver : public RateSolver
{
  public:
    /**
     * \param table the run's connections and rate classes
     * \param sharing the sharing model
     * \param servers parameter servers (one queue each per direction)
     */
    FcfsSolver(TransferTable& table, const SharingModel& sharing, uint32_t servers);

    void Activated(uint32_t ci) override;
    void Deactivated(uint32_t ci) override;
    void ClassAdded(uint32_t k) override;
    void ClassReleased(uint32_t k) override;
    uint64_t Solve(uint32_t gi) override;
    double NextDrain(uint32_t gi) override;
    void DueClasses(uint32_t gi, std::vector<uint32_t>& due) override;
    ClassHeap* ByTime(uint32_t gi) override;

  private:
    /// One direction's queues.
    struct Queues
    {
        /// Per server, the connections activated on its link in activation order (some stale).
        std::vector<std::vector<ActiveEntry>> entries;
        std::vector<uint32_t> head;   //!< per server, first entry that may be live
        std::vector<uint32_t> active; //!< per server, active connections
        std::vector<uint32_t> served; //!< connections given a positive rate last time
    };

    /**
     * \param q a direction's queues
     * \param p server
     * \param pos position in its queue
     * \return the first live entry of the server's queue at or after pos (size if none)
     */
    std::size_t NextLive(const Queues& q, uint32_t p, std::size_t pos) const;
    /**
     * \brief Start the merge: every server's first live entry.
     * \param q a direction's queues
     */
    void OpenCursors(Queues& q);

    uint32_t m_p;                                         //!< servers
    Queues m_queues[2];                                   //!< per direction
    ClassHeap m_byTime[2];                                //!< per direction
    FcfsRule m_rule;                                      //!< the rule
    uint32_t m_round{0};                                  //!< rate computations so far
    std::vector<uint32_t> m_connRound;                    //!< per connection: round that served it
    std::vector<std::pair<uint64_t, uint32_t>> m_cursors; //!< scratch: (priority, server)
    std::vector<std::size_t> m_cursorPos;                 //!< scratch: per server, queue position
    std::vector<uint32_t> m_served;                       //!< scratch: served with a positive rate
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_FCFS_SOLVER_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_PS_TYPES_H
#define FLOW_PS_TYPES_H

#include "flow-event-core.h"
#include "sharing-model.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{
namespace flow
{

// The records of a FlowPsEngine run that its parts (the transfer table, the step machine, the rate
// solvers) share.

enum Direction : uint8_t
{
    DOWN = 0, //!< server to worker (parameters)
    UP = 1,   //!< worker to server (gradients)
};

/**
 * A piece of one tensor sent on a connection (a whole tensor unless WIN splits it); its bytes
 * follow from the layer and the two flags (TransferTable::SegmentBytes). Kept to 8 bytes.
 */
struct Segment
{
    uint32_t layer; //!< tensor = layer index
    bool first;     //!< first piece of its tensor (its start is the tensor's start)
    bool last;      //!< last piece of its tensor (its end is the tensor's arrival)
};

/**
 * One direction of one (worker, server) pair: a FIFO of segments served by one fluid flow.
 *
 * Why so compact: with thousands of asynchronous workers a connection's state is written when
 * its step starts and read when its queue drains, about K transfers later, so it comes from
 * memory, not the cache, and its size decides the run's memory traffic. Its segment list is
 * therefore not its own unless it must be (TransferTable::m_segPool: one list per server and
 * direction, per connection only for a random order), its ready times are one value unless
 * gradients leave one by one (overlap on), and of its tensors' arrival times it keeps the latest
 * (per-layer times only where something reads them: TransferTable::m_ends). Two cache lines.
 */
struct alignas(64) Connection
{
    uint32_t worker{0};      //!< worker index
    uint32_t server{0};      //!< server index
    uint32_t step{0};        //!< step the segments belong to
    uint32_t segBase{0};     //!< its segments: m_segPool[segBase .. segBase + nSegs)
    uint32_t nSegs{0};       //!< segments per step (the same every step)
    uint32_t head{0};        //!< first segment not completely sent
    uint32_t admitted{0};    //!< segments [head, admitted) are ready and queued
    uint32_t cls{0};         //!< its rate class while active
    uint32_t slot{0};        //!< its index in the class's members
    uint32_t drainStamp{0};  //!< bumped whenever its queued drain point goes stale
    uint32_t path{0};        //!< its directed links: m_pathLinks[path .. path + nLinks)
    uint32_t nLinks{0};      //!< links of its path
    uint32_t serverLink{0};  //!< the server's NIC link in this direction (window model)
    Direction dir{DOWN};     //!< direction
    bool active{false};      //!< in the active set of its group
    bool headStarted{false}; //!< segs[head] has begun service
    double headSent{0};      //!< bytes of segs[head] already sent
    double queued{0};        //!< unsent bytes of the admitted segments
    double lastTime{0};      //!< time up to which the bytes above are accounted
    double baseV{0};         //!< its rate class's virtual bytes at lastTime
    double ready{0};         //!< when its segments may be sent (unless TransferTable::m_readyPool)
    double lastEnd{0};       //!< the latest arrival of one of its tensors this step
    double activeSince{0};   //!< when it last became active (age-dependent sharing)
    double windowBytes{0};   //!< bytes sent inside the measurement window (each path link's)
    uint64_t priority{0};    //!< activation order (FCFS)
};

/**
 * \param servers the run's servers
 * \param w worker
 * \param p server
 * \param d direction
 * \return the index of that connection (worker-major, then server, then direction)
 */
inline uint32_t
ConnIndex(uint32_t servers, uint32_t w, uint32_t p, Direction d)
{
    return (w * servers + p) * 2 + d;
}

/// An entry of a group's list of active connections (stale once the connection left).
struct ActiveEntry
{
    uint32_t conn;     //!< connection index
    uint64_t priority; //!< its activation order when listed
};

/// The links of one direction and the connections active on them (a TransferTable group).
struct LinkGroup
{
    std::vector<ActiveEntry> active; //!< active connections in activation order (some stale)
    uint32_t nActive{0};             //!< active connections
    std::vector<double> capacity;    //!< per directed link of the fabric (bytes/s)
    bool dirty{false};               //!< the active set changed since the last computation
    uint64_t version{0};             //!< version of the pending check event
    std::vector<uint32_t> classes;   //!< its live rate classes
};

/// What makes flows interchangeable for plain max-min: the links they share, and their cap.
struct ClassKey
{
    std::array<uint32_t, SharingModel::MAX_LINKS> links{}; //!< shared links, ascending
    uint32_t nLinks{0};                                    //!< entries of links used
    double cap{INF}; //!< per-flow cap: the flow cap (if honoured) and the private links
    /// A bundle's member (flow-ps-bundles.cc) or any connection under the window model (its
    /// cap depends on its server): its server + 1; else 0.
    uint32_t slot{0};

    /**
     * \param o another key
     *
eturn strict weak order
     */
    bool operator<(const ClassKey& o) const
    {
        if (nLinks != o.nLinks)
        {
            return nLinks < o.nLinks;
        }
        if (cap != o.cap)
        {
            return cap < o.cap;
        }
        if (slot != o.slot)
        {
            return slot < o.slot;
        }
        return std::lexicographical_compare(links.begin(),
                                            links.begin() + nLinks,
                                            o.links.begin(),
                                            o.links.begin() + o.nLinks);
    }
};

/// One worker's state for its current step (its per-layer times are in TransferTable::m_ends).
struct WorkerState
{
    uint32_t step{0};               //!< current step
    uint32_t pendingDown{0};        //!< downlink connections not finished
    double stepStart{0};            //!< when it began
    const std::vector<double>* fwd; //!< forward times of the step (us)
    const std::vector<double>* bwd; //!< backward times of the step (us)
    const std::vector<double>* upd; //!< update times of the step (us)
    uint32_t pendingUp{0};          //!< uplink connections not finished
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_PS_TYPES_H */

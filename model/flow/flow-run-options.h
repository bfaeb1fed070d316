/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_RUN_OPTIONS_H
#define FLOW_RUN_OPTIONS_H

#include "ns3/training-result.h"

#include <memory>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Knobs of one flow-level run (set by FlowBackend from its attributes), in a header of
 * their own so that the engines read them without including the simulator that runs them.
 */
struct FlowRunOptions
{
    /// Link capacity = TCP goodput of the NIC rate (true) or the raw NIC rate (false).
    bool useGoodput{true};
    /// Keep one TransferRecord per tensor (false saves memory on long runs).
    bool recordTransfers{true};
    /// Where the results' records go (the run context's sink); nullptr: kept in them.
    std::shared_ptr<TrainingResult::RecordSink> records;
    /// alpha of 001 Sec. 3.2.1: receiver's parsing time per byte of a tensor (seconds).
    double parsingPerByte{0};
    /// beta of 001 Sec. 3.2.1: receiver's parsing time per tensor (seconds).
    double parsingPerTensor{0};
    /**
     * Window model (parameter servers; 0 = off): every TCP connection sends at most this
     * many bytes per round trip (its socket buffer), and a round trip includes the standing
     * queues in front of the server's link in both directions. See
     * doc/reference/backend-flow.rst, "Window model".
     */
    double windowBytes{0};
    /// Window model: round trip of the empty path (seconds).
    double baseRtt{0};
    /// Window model: buffer of a host NIC (the server's sending queue), bytes.
    double hostBufferBytes{0};
    /// Window model: buffer of a switch port (the queue towards a server), bytes.
    double switchBufferBytes{0};
};

} // namespace ns3

#endif // FLOW_RUN_OPTIONS_H

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef KERNEL_FLOW_STUDY_H
#define KERNEL_FLOW_STUDY_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief N bulk transfers over kernel TCP through one shaped port (the linux stack of
 * examples/tcp-sharing-study.cc, and the single-flow fidelity measurement).
 *
 * Topology as the ns-3 study's: N sender namespaces and one receiver namespace on a bridge
 * (LinuxTestbed); every port shaped to the rate, so the receiver's switch port is the
 * bottleneck. With sharedSender every flow leaves one sender namespace, through its one NIC
 * (and qdisc), as the flows of one multi-flow host do. Flow i connects at arrivals[i] and writes
 * `size` bytes (1 MiB per write, from the one event loop or from a thread of its own per flow);
 * the receiver counts every flow's bytes, samples them every `sample` seconds and
 * notes each completion.
 */
class LinuxFlowStudy
{
  public:
    /// What to run. Times and rates undilated; the run is dilated by `dilation`.
    struct Config
    {
        uint64_t size{1000000};            //!< bytes per flow
        std::vector<double> arrivals{0.0}; //!< start of each flow, seconds
        double rateBps{200e6};             //!< every port's rate, bit/s
        double capBps{0};                  //!< per-flow cap (SO_MAX_PACING_RATE), 0: none
        std::string queue{"262144B"};      //!< every port's queue ("<n>p" or "<n>B")
        uint32_t mtu{1500};                //!< MTU
        std::string congestion{"cubic"};   //!< kernel congestion control
        double dilation{1.0};              //!< D
        double burstSeconds{1e-3};         //!< tbf bucket at the port rate
        double sampleSeconds{0};           //!< sampling interval (0: none)
        double maxWallSeconds{120};        //!< watchdog
        int nice{-5}; //!< nice value of the run thread (real time must not queue; if permitted)
        bool sharedSender{false}; //!< every flow from one sender namespace (one NIC)
        /// event-loop (one thread writes every flow) or thread-per-connection (a
        /// LinuxWriterThread per flow, blocking writes): TrainingScenario::writePattern
        std::string writePattern{"event-loop"};
        /// more sysctls of every namespace (LinuxTestbed::Config::sysctls)
        std::vector<std::pair<std::string, std::string>> sysctls;
    };

    /// What was measured (undilated seconds).
    struct Result
    {
        std::vector<double> completion;        //!< per flow, time of its last byte (-1: none)
        std::vector<double> firstByte;         //!< per flow, time of its first byte (-1: none)
        std::vector<std::vector<uint64_t>> rx; //!< per sample, per flow: cumulative bytes
        std::vector<uint64_t> received;        //!< per flow: bytes received
        uint32_t done{0};                      //!< flows complete
        uint64_t drops{0};                     //!< qdisc drops (all ports)
        double wallSeconds{0};                 //!< wall-clock time of the run
    };

    /**
     * \brief Run the flows (in a thread of their own; every namespace removed on return).
     * \param config what to run
     * \return the measurement
     * \throws TrainingInputError if the testbed cannot be built or a socket fails
     */
    static Result Run(const Config& config);

    /**
     * \brief Payload bytes per second one saturated kernel TCP flow gets through a port:
     * rate x (MTU - 52) / (MTU + 14): 40 bytes of IPv4/TCP headers and 12 of timestamps per
     * segment, 14 bytes of Ethernet header per frame counted by tbf.
     * \param rateBps the port's rate, bit/s
     * \param mtu the MTU
     * \return bytes per second
     */
    static double GetGoodputBytesPerSecond(double rateBps, uint32_t mtu);
};

} // namespace ns3

#endif /* KERNEL_FLOW_STUDY_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef KERNEL_BACKEND_H
#define KERNEL_BACKEND_H

#include "training-backend.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The linux backend: the scenario's applications (the packet level's protocol and
 * framing, over Boost.Asio) on the Linux kernel's TCP, in network namespaces shaped by tc.
 *
 * Hosts are anonymous network namespaces joined by veth pairs to a bridge in a switch namespace
 * (LinuxTestbed); every port's egress is a tbf at the NIC rate / D with a pfifo or bfifo of the
 * scenario's queue size; offloads are off so the shapers see MTU-sized frames. Design: one
 * process; a dedicated thread builds the testbed, enters each host's namespace only to open that
 * host's sockets (setns), and then runs every host's application in one Boost.Asio event loop.
 * Compute and parameter-server updates are replayed as timers. Time dilation D (attribute
 * Dilation) runs links at rate/D, compute and updates x D, and divides every recorded time by D.
 * Not dilated: the veth/bridge path's own latency (tens of microseconds; there is no netem on
 * this kernel, so the scenario's linkDelay is not added either), timer and scheduling jitter.
 *
 * Everything is removed on every exit path by construction: the namespaces are held only by
 * descriptors (closed by the destructor, or by the kernel when the process dies of SIGINT,
 * SIGKILL or a crash), and no long-lived child process is started.
 */
class LinuxBackend : public TrainingBackend
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    LinuxBackend();
    ~LinuxBackend() override;

    /**
     * \brief Run the scenario over kernel TCP.
     * \param profile the DNN
     * \param scenario the scenario (validated here; refused if it cannot be emulated faithfully)
     * \return one result (backend "linux", variant the kernel congestion control)
     * \throws TrainingInputError for an invalid, unsupported or unfaithful scenario, or when the
     *         run exceeds MaxWallTime
     */
    std::vector<TrainingResult> Run(const TrainingProfile& profile,
                                    const TrainingScenario& scenario) const override;

    /** \return "" when root with ip, tc, ethtool, namespaces, tbf/pfifo/bfifo; else why not */
    std::string GetUnavailableReason() const override;

    /**
     * \param profile the DNN
     * \param scenario the scenario
     * \return "" if this machine emulates it faithfully at this dilation with these kernel
     *         features; else the refusal Run() would throw (--backend=all skips with it)
     */
    std::string GetUnsupportedReason(const TrainingProfile& profile,
                                     const TrainingScenario& scenario) const override;

    /**
     * \brief Dilation from the options, when given (the driver's --repeat repeats every
     * backend itself, RepeatedRuns).
     * \param settings the backend options
     */
    void Configure(const BackendSettings& settings) override;

    /**
     * \brief One result standing for several runs of the same point (RepeatedRuns::Summarise,
     * the one definition for every backend).
     * \param runs the runs (at least one)
     * \return the median-throughput run (of an even count the upper middle one) with inputs
     *         repeat, throughput_min, throughput_max, throughput_spread ((max - min) / median),
     *         a note saying them, the runs' summed wall time and, of several runs, their
     *         interval
     */
    static TrainingResult SummariseRepeats(std::vector<TrainingResult> runs);

    /**
     * \brief The kernel congestion control for an ns-3 TCP variant name.
     * \param variant e.g. "TcpCubic" or "ns3::TcpNewReno"
     * \return cubic, reno or bbr
     * \throws TrainingInputError naming --tcp and the accepted values
     */
    static std::string MapCongestionControl(const std::string& variant);

    /**
     * \brief Why the scenario cannot be emulated faithfully at this dilation, and what to change.
     * \param scenario the scenario
     * \return "" if it can
     */
    std::string CheckFidelity(const TrainingScenario& scenario) const;

    /// Fastest port rate after dilation (bit/s) at which the backend's results are validated:
    /// doc/validation/linux-tcp.rst, "Run-to-run spread and dilation" (at the smallest dilation
    /// the fidelity check accepts, 1 Gb/s, a loaded machine halves the throughput; the
    /// validation grids run at 250 Mb/s or less per port).
    static constexpr double VALIDATED_PORT_BPS = 250e6;

    /**
     * \brief The note a result gets when its ports run faster than VALIDATED_PORT_BPS after
     * dilation: accepted by CheckFidelity(), but outside the validated regime.
     * \param scenario the scenario
     * \return the note, or "" within the regime
     */
    std::string RegimeNote(const TrainingScenario& scenario) const;

  private:
    /**
     * One run over kernel TCP (the scenario already checked).
     * \param profile the DNN \param scenario the scenario \param cc kernel congestion control
     * \return its result
     */
    TrainingResult RunOnce(const TrainingProfile& profile,
                           const TrainingScenario& scenario,
                           const std::string& cc) const;

    double m_dilation;       //!< D
    Time m_maxWallTime;      //!< watchdog
    DataRate m_maxPortRate;  //!< fastest faithful shaped port (after dilation)
    double m_maxPortFrames;  //!< most faithful frames/s of one port
    double m_maxTotalFrames; //!< most faithful frames/s of all ports busy at once
    Time m_burst;            //!< tbf bucket in time at the port rate
    uint16_t m_port;         //!< TCP port of servers / ring listeners
    int32_t m_nice;          //!< nice value of the run thread
    uint32_t m_repeat;       //!< runs per point (the median one is reported)
};

} // namespace ns3

#endif /* KERNEL_BACKEND_H */

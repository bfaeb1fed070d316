/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_SHARING_STUDY_H
#define TCP_SHARING_STUDY_H

#include "tcp-sharing-options.h"

#include "ns3/nstime.h"
#include "ns3/sharing-index.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Bandwidth sharing under real TCP (examples/tcp-sharing-study.cc): N senders each send
 * S bytes through one switch to one receiver, whose link is the bottleneck; every flow's
 * completion time is compared with FCFS and processor sharing (PS) for the same arrivals by the
 * sharing index (SharingIndex: 0 = FCFS, 1 = PS) and CalibratedSharing's fitted weight.
 *
 * The network is TrainingClusterHelper's star with its TCP settings (ns-3's TCP), or the Linux
 * kernel's TCP in namespaces (LinuxFlowStudy, --stack=linux).
 */
class TcpSharingStudy
{
  public:
    /// What one simulation measured.
    struct Measurement
    {
        std::vector<double> completion; //!< absolute time of each flow's last byte (-1: none)
        std::vector<double> firstByte;  //!< absolute time of each flow's first byte (-1: none)
        std::vector<std::vector<uint64_t>> rx; //!< per sample, per flow: cumulative bytes
        std::vector<uint64_t> received;        //!< per flow: bytes received
        uint32_t done{0};                      //!< flows complete
    };

    /// Rates of the run: the bottleneck's goodput and the BDP of one flow.
    struct Plan
    {
        double c{0};        //!< bottleneck goodput, bytes/s
        double one{0};      //!< one flow's goodput (cap-aware), bytes/s
        double capBytes{0}; //!< per-flow cap, bytes/s (0: none)
        double rtt{0};      //!< 4 x delay, seconds
        double bdp{0};      //!< one x rtt, bytes
    };

    /// The CalibratedSharing weight that best reproduces measured completion times.
    struct IncumbentFit
    {
        double weight;   //!< IncumbentWeight in [0, 1] (NaN when FCFS = PS)
        double residual; //!< ||m - c(w)|| over ||p - f|| at that weight
    };

    /// The study's result: FCT per flow and both models' predictions.
    struct Report
    {
        Measurement m;              //!< the measurement
        double overhead{0};         //!< lone flow's overhead over S / one, seconds
        double wall{0};             //!< wall-clock seconds
        std::vector<double> fct;    //!< per flow: completion - arrival (limit if unfinished)
        std::vector<double> fcfs;   //!< FCFS completion times
        std::vector<double> ps;     //!< PS completion times
        SharingIndex::Result index; //!< lambda and residual
        IncumbentFit fit;           //!< calibrated weight
    };

    /**
     * \brief Check the options against each other and derive size, arrivals, sampling
     * interval and time limit.
     * \param o the options (completed here)
     * \return the rates
     * \throws TrainingInputError naming the option
     */
    static Plan Prepare(TcpSharingOptions& o);

    /**
     * Run the flows on the chosen stack. ns-3 with --dilation simulates the network a linux run
     * of that dilation executes (rates / D, arrivals and sampling x D; TCP's own timers and the
     * link delay unscaled, as TrainingScenario::Dilated) and reports undilated times, like the
     * linux stack.
     * \param o the options (after Prepare())
     * \param sample whether to sample every flow's received bytes
     * \return what was measured
     */
    static Measurement Simulate(const TcpSharingOptions& o, bool sample);

    /**
     * Run the baseline (if asked) and the flows; compare with FCFS and PS.
     * \param o the options (after Prepare())
     * \param p the rates
     * \return the report
     */
    static Report Run(const TcpSharingOptions& o, const Plan& p);

    /**
     * Fit CalibratedSharing's IncumbentWeight to measured completion times: the w on a 0.01
     * grid that minimises ||m - c(w)||, where c(w) are the model's completion times for the
     * same arrivals (SharingIndex::GetCompletionTimes), with the cohort window given. NaN when
     * FCFS = PS or when all flows fall into one cohort (then w changes nothing).
     * \param index the flows
     * \param measured the measured completion times
     * \param fcfs FCFS's completion times
     * \param ps PS's completion times
     * \param window CalibratedSharing's CohortWindow
     * \return the weight and its residual
     */
    static IncumbentFit FitIncumbentWeight(const SharingIndex& index,
                                           const std::vector<double>& measured,
                                           const std::vector<double>& fcfs,
                                           const std::vector<double>& ps,
                                           Time window);

    /**
     * \param v numbers
     * \return their arithmetic mean (0 for none)
     */
    static double Mean(const std::vector<double>& v);

  private:
    /// \param o the options \param sample whether to sample \return the kernel TCP's measurement
    static Measurement SimulateLinux(const TcpSharingOptions& o, bool sample);
    /// \param o the options \param sample whether to sample \return ns-3 TCP's measurement
    static Measurement SimulateNs3(const TcpSharingOptions& o, bool sample);
};

} // namespace ns3

#endif /* TCP_SHARING_STUDY_H */

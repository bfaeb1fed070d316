/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PROGRESS_REPORTER_H
#define PROGRESS_REPORTER_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Progress of a long ns-3 simulation, at least every wall-clock interval: simulated time,
 * steps done and an estimate of the wall time remaining.
 *
 * A packet-level run can spend minutes on its first step, so reporting only when steps complete
 * leaves the user without news; this reporter polls the wall clock from a simulator event whose
 * simulated period adapts to the run's speed (aiming at one poll per 1/10 of the interval of wall
 * time), so its cost stays a few events per wall second however fast or slow the simulation
 * is. The remaining time is (wall so far) x (steps left) / (steps done); before the first step is
 * done it is reported as unknown.
 *
 * A loop of runs (the driver's studies) uses it without the simulator: StartLoop(), then
 * Advance() after each run with the units it was worth (its estimated cost), which reports when
 * the interval has passed.
 */
class ProgressReporter
{
  public:
    /**
     * \param label prefix of every line, e.g. "packet"
     * \param expected worker steps of the whole run (K x N)
     * \param interval wall time between reports
     * \param os where reports go
     */
    ProgressReporter(const std::string& label,
                     uint64_t expected,
                     std::chrono::duration<double> interval,
                     std::ostream& os);

    /// Start polling (call before Simulator::Run()).
    void Start();
    /// Stop polling (call after Simulator::Run()).
    void Stop();
    /// One more worker step is done.
    void StepDone();

    /// Start the wall clock of a loop of runs (no simulator events: Advance() reports).
    void StartLoop();
    /**
     * \brief A loop of runs: more units of the expected ones are done; report, naming what was
     * just done, when the interval has passed since the last report.
     * \param units the units just done
     * \param what what was just done, e.g. "point 3 of 64 (arch=ring K=4) done"
     */
    void Advance(uint64_t units, const std::string& what);

    /**
     * \param done worker steps done
     * \param expected worker steps in all
     * \param wallSeconds wall time so far
     * \return estimated wall seconds remaining, negative when unknown (nothing done yet)
     */
    static double EstimateRemaining(uint64_t done, uint64_t expected, double wallSeconds);

    /// \return reports printed so far
    uint32_t GetReports() const;
    /// \return simulator events the reporter used (to keep event counts reproducible)
    uint64_t GetPolls() const;

  private:
    /// The polling event: report if the interval has passed, schedule the next poll.
    void Poll();
    /// \return wall seconds since Start() or StartLoop()
    double GetWallSeconds() const;
    /**
     * Print one line: the head, the share done, the wall time and the time remaining.
     * \param wallSeconds wall time so far
     * \param head what is done ("[packet] simulated 1.2 s, 3 of 40 worker steps done")
     */
    void Report(double wallSeconds, const std::string& head);

    std::string m_label;                               //!< line prefix
    uint64_t m_expected;                               //!< steps in all
    uint64_t m_done{0};                                //!< steps done
    std::chrono::duration<double> m_interval;          //!< between reports
    std::ostream& m_os;                                //!< output
    std::chrono::steady_clock::time_point m_wallStart; //!< wall clock at Start()
    double m_lastReport{0};                            //!< wall seconds of the last report
    double m_lastPollWall{0};                          //!< wall seconds of the last poll
    Time m_lastPollSim;                                //!< simulated time of the last poll
    Time m_period{MilliSeconds(1)};                    //!< simulated time between polls
    EventId m_event;                                   //!< the next poll
    uint32_t m_reports{0};                             //!< reports printed
    uint64_t m_polls{0};                               //!< polls run
};

} // namespace ns3

#endif /* PROGRESS_REPORTER_H */

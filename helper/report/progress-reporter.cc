/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "progress-reporter.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstdio>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ProgressReporter");

ProgressReporter::ProgressReporter(const std::string& label,
                                   uint64_t expected,
                                   std::chrono::duration<double> interval,
                                   std::ostream& os)
    : m_label(label),
      m_expected(expected),
      m_interval(interval),
      m_os(os)
{
}

void
ProgressReporter::Start()
{
    NS_LOG_FUNCTION(this);
    m_wallStart = std::chrono::steady_clock::now();
    m_lastPollSim = Simulator::Now();
    m_event = Simulator::Schedule(m_period, &ProgressReporter::Poll, this);
}

void
ProgressReporter::StartLoop()
{
    m_wallStart = std::chrono::steady_clock::now();
}

void
ProgressReporter::Advance(uint64_t units, const std::string& what)
{
    m_done += units;
    const double wall = GetWallSeconds();
    if (wall - m_lastReport >= m_interval.count())
    {
        Report(wall, "[" + m_label + "] " + what);
        m_lastReport = wall;
    }
}

double
ProgressReporter::GetWallSeconds() const
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_wallStart).count();
}

void
ProgressReporter::Stop()
{
    Simulator::Cancel(m_event);
}

void
ProgressReporter::StepDone()
{
    ++m_done;
}

uint32_t
ProgressReporter::GetReports() const
{
    return m_reports;
}

uint64_t
ProgressReporter::GetPolls() const
{
    return m_polls;
}

double
ProgressReporter::EstimateRemaining(uint64_t done, uint64_t expected, double wallSeconds)
{
    if (done == 0 || expected == 0)
    {
        return -1;
    }
    return wallSeconds * static_cast<double>(expected - std::min(done, expected)) / done;
}

void
ProgressReporter::Poll()
{
    ++m_polls;
    if (Simulator::IsFinished())
    {
        return; // nothing else to simulate: do not keep an idle simulation alive
    }
    const double wall = GetWallSeconds();
    if (wall - m_lastReport >= m_interval.count())
    {
        char head[256];
        std::snprintf(head,
                      sizeof(head),
                      "[%s] simulated %.6f s, %llu of %llu worker steps done",
                      m_label.c_str(),
                      Simulator::Now().GetSeconds(),
                      static_cast<unsigned long long>(m_done),
                      static_cast<unsigned long long>(m_expected));
        Report(wall, head);
        m_lastReport = wall;
    }
    // Next poll after about interval/10 of wall time at the speed of the last period (at most
    // doubling or halving the period per poll, so a burst of events does not starve reports).
    const double wallStep = wall - m_lastPollWall;
    const double target = m_interval.count() / 10;
    double factor = wallStep > 0 ? target / wallStep : 2.0;
    factor = std::clamp(factor, 0.5, 2.0);
    m_period = std::max(NanoSeconds(1), Time::FromDouble(m_period.GetDouble() * factor, Time::NS));
    m_lastPollWall = wall;
    m_lastPollSim = Simulator::Now();
    m_event = Simulator::Schedule(m_period, &ProgressReporter::Poll, this);
}

void
ProgressReporter::Report(double wallSeconds, const std::string& head)
{
    ++m_reports;
    const double remaining = EstimateRemaining(m_done, m_expected, wallSeconds);
    char tail[128];
    if (remaining < 0)
    {
        std::snprintf(tail,
                      sizeof(tail),
                      ", wall %.0f s, remaining unknown until a step completes",
                      wallSeconds);
    }
    else
    {
        std::snprintf(tail,
                      sizeof(tail),
                      " (%.0f%%), wall %.0f s, about %.0f s remaining",
                      100.0 * m_done / m_expected,
                      wallSeconds,
                      remaining);
    }
    m_os << head << tail << std::endl;
}

} // namespace ns3

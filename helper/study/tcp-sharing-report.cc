/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-sharing-report.h"

#include "ns3/output-file.h"
#include "ns3/run-report.h"

#include <cstdio>
#include <sstream>

namespace ns3
{

namespace
{

/// \param v numbers \return their mean
double
Mean(const std::vector<double>& v)
{
    return TcpSharingStudy::Mean(v);
}

} // namespace

std::string
TcpSharingReport::FormatSummary(const TcpSharingOptions& o,
                                const TcpSharingStudy::Plan& p,
                                const TcpSharingStudy::Report& r)
{
    return RunReport::Format(
        "tcp=%s host=%s rate=%llubps N=%u S=%llu (%.3g BDP) stagger=%gs jitter=%gs "
        "shared=%d tsq=%d queue=%s cap=%llubps seed=%u%s: lambda=%.3f residual=%.3f%s%s mean "
        "FCT measured %.1f us, fcfs %.1f us, ps %.1f us (overhead %.1f us, %.2f s "
        "wall); calibrated fit w=%.2f (residual %.3f)\n",
        o.scenario.tcpVariant.c_str(),
        o.scenario.hostModel.c_str(),
        static_cast<unsigned long long>(o.scenario.nicRate.GetBitRate()),
        o.flows,
        static_cast<unsigned long long>(o.size),
        o.size / p.bdp,
        o.stagger.GetSeconds(),
        o.scenario.startJitter.GetSeconds(),
        o.sharedQueue ? 1 : 0,
        o.scenario.tcpSmallQueues ? 1 : 0,
        o.scenario.queueSize.c_str(),
        static_cast<unsigned long long>(o.scenario.flowCap.GetBitRate()),
        static_cast<unsigned>(o.scenario.seed),
        // (the default pattern prints as before)
        o.scenario.writePattern == "event-loop" ? ""
                                                : (" write=" + o.scenario.writePattern).c_str(),
        r.index.lambda,
        r.index.residual,
        r.index.defined ? "" : " (undefined: FCFS = PS)",
        r.m.done == o.flows ? "" : " (INCOMPLETE: flows unfinished at --maxSimTime)",
        Mean(r.fct) * 1e6,
        Mean(r.fcfs) * 1e6,
        Mean(r.ps) * 1e6,
        r.overhead * 1e6,
        r.wall,
        r.fit.weight,
        r.fit.residual);
}

std::string
TcpSharingReport::CsvHeader()
{
    return "rate_bps,tcp,flows,size_bytes,size_bdp,stagger_s,queue,cap_bps,lambda,"
           "residual,defined,complete,fct_measured_s,fct_fcfs_s,fct_ps_s,overhead_s,wall_s,"
           "w_fit,w_fit_residual,host_model,shared_queue,start_jitter_s,seed,stack,delayed_ack,"
           "autotuning,dilation,small_queues\n";
}

std::string
TcpSharingReport::FormatCsvRow(const TcpSharingOptions& o,
                               const TcpSharingStudy::Plan& p,
                               const TcpSharingStudy::Report& r)
{
    char line[640];
    std::snprintf(line,
                  sizeof(line),
                  "%.0f,%s,%u,%llu,%.6g,%.9g,%s,%.0f,%.6f,%.6f,%d,%d,%.9g,%.9g,%.9g,%.9g,%.3f,"
                  "%.2f,%.6f,%s,%d,%.9g,%u,%s,%d,%d,%.6g,%d\n",
                  static_cast<double>(o.scenario.nicRate.GetBitRate()),
                  CsvField(o.scenario.tcpVariant).c_str(),
                  o.flows,
                  static_cast<unsigned long long>(o.size),
                  o.size / p.bdp,
                  o.stagger.GetSeconds(),
                  CsvField(o.scenario.queueSize).c_str(),
                  static_cast<double>(o.scenario.flowCap.GetBitRate()),
                  r.index.lambda,
                  r.index.residual,
                  r.index.defined ? 1 : 0,
                  r.m.done == o.flows ? 1 : 0,
                  Mean(r.fct),
                  Mean(r.fcfs),
                  Mean(r.ps),
                  r.overhead,
                  r.wall,
                  r.fit.weight,
                  r.fit.residual,
                  CsvField(o.scenario.hostModel).c_str(),
                  o.sharedQueue ? 1 : 0,
                  o.scenario.startJitter.GetSeconds(),
                  static_cast<unsigned>(o.scenario.seed),
                  CsvField(o.stack).c_str(),
                  o.scenario.delayedAck ? 1 : 0,
                  o.scenario.bufferAutotuning ? 1 : 0,
                  o.dilation,
                  o.scenario.tcpSmallQueues ? 1 : 0);
    return line;
}

std::string
TcpSharingReport::FormatTimeseries(const TcpSharingOptions& o, const TcpSharingStudy::Report& r)
{
    std::ostringstream out;
    out << "time_s,flow,gbps\n";
    const double dt = o.sample.GetSeconds();
    for (std::size_t k = 1; k < r.m.rx.size(); ++k)
    {
        for (uint32_t i = 0; i < o.flows; ++i)
        {
            out << k * dt << "," << i << "," << (r.m.rx[k][i] - r.m.rx[k - 1][i]) * 8 / dt / 1e9
                << "\n";
        }
    }
    return out.str();
}

std::string
TcpSharingReport::FormatFlowTimes(const TcpSharingOptions& o, const TcpSharingStudy::Report& r)
{
    std::ostringstream out;
    out << "flow,start_s,first_byte_s,end_s,bytes\n";
    out.precision(9);
    for (uint32_t i = 0; i < o.flows; ++i)
    {
        out << i << "," << o.arrivals[i] << ",";
        if (r.m.firstByte[i] >= 0)
        {
            out << r.m.firstByte[i];
        }
        out << ",";
        if (r.m.completion[i] >= 0)
        {
            out << r.m.completion[i];
        }
        out << "," << r.m.received[i] << "\n";
    }
    return out.str();
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Bandwidth sharing under real ns-3 TCP (issue 7, part 1): N senders each send S bytes through
 * one switch to one receiver, whose link is the bottleneck. Every flow's received bytes are
 * sampled over time and its completion time recorded; the flow completion times are compared
 * with FCFS and processor sharing (PS) for the same arrivals by the sharing index of
 * model/flow/sharing-index.h (0 = FCFS, 1 = PS) and its residual (large = neither).
 *
 *   ./build/bin/tcp-sharing-study --flows=4 --sizeBdp=10 --rate=10Gbps --tcp=TcpCubic
 *   ./build/bin/tcp-sharing-study --flows=4 --size=1000000 --rate=200Mbps --queue=262144B \
 *       --hostModel=linux --sharedQueue=true --seed=2 --flowTimes=flows.csv
 *
 * C is the bottleneck's goodput (rate x 1448/1502 at MTU 1500); with --cap the models cap every
 * flow (SharingIndex's flowCap) and the BDP is the capped flow's. The network is
 * TrainingClusterHelper's star (N workers, one server; with --sharedQueue one worker sends every
 * flow through its one NIC queue, --hostQueue) with its TCP settings (ConfigureTcp: segment
 * MTU - 52, send buffer max(256 KiB, 2 BDP), receive buffer = send buffer + 64 KiB, DelAckCount
 * 1, SACK, MinRto 200 ms; --hostModel=linux: Linux's CUBIC or Reno, delayed ACKs, buffer
 * autotuning, TCP small queues and a start jitter, doc/reference/congestion.rst; --tcpSmallQueues:
 * the senders' sockets are TcpSmallQueuesSocket, made by TcpSmallQueuesSocketFactory). TcpDctcp
 * runs over a RED queue disc with ECN marking on every device (MinTh 20, MaxTh 60 packets, as
 * ns-3's tcp-dctcp example, QW 1, MaxSize = --queue; device queues 2 packets so RED holds the
 * queue); the others over the plain DropTail device queue of --queue. TcpBbr gets pacing (required
 * by ns-3's BBR).
 *
 * Options are a strict table (TcpSharingOptions): every value is checked by the module's parsers
 * (UnitParser) and a bad one ends the program with a message naming the
 * option, exit code 1. The study itself is TcpSharingStudy, its outputs TcpSharingReport.
 */

#include "ns3/tcp-sharing-study.h"

#include "ns3/output-file.h"
#include "ns3/tcp-sharing-report.h"
#include "ns3/training-input-error.h"

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

using namespace ns3;

namespace
{

/// \return the file opened for writing (checked and created before the run), or nullptr
std::unique_ptr<OutputFile>
Open(const std::string& file, const char* option, OutputFile::Mode mode)
{
    return file.empty() ? nullptr : std::make_unique<OutputFile>(file, option, mode);
}

/// Write a file opened by Open() whole, if it was asked for.
void
Commit(OutputFile* file, const std::string& text)
{
    if (file)
    {
        file->Stream() << text;
        file->Commit();
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i)
    {
        if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h")
        {
            std::cout << TcpSharingOptions::FormatHelp();
            return 0;
        }
    }
    try
    {
        TcpSharingOptions o = TcpSharingOptions::Parse(argc, argv);
        const TcpSharingStudy::Plan p = TcpSharingStudy::Prepare(o);
        OutputFile::RequireDistinct(
            {{"--csv", o.csv}, {"--timeseries", o.timeseries}, {"--flowTimes", o.flowTimes}});
        // Opened (checked, temporary files created) before the run, committed after it.
        const auto csv = Open(o.csv, "--csv", OutputFile::APPEND);
        const auto timeseries = Open(o.timeseries, "--timeseries", OutputFile::REPLACE);
        const auto flowTimes = Open(o.flowTimes, "--flowTimes", OutputFile::REPLACE);
        const TcpSharingStudy::Report r = TcpSharingStudy::Run(o, p);
        std::fputs(TcpSharingReport::FormatSummary(o, p, r).c_str(), stdout);
        if (csv)
        {
            Commit(csv.get(),
                   (csv->WasEmpty() ? TcpSharingReport::CsvHeader() : std::string())
                       + TcpSharingReport::FormatCsvRow(o, p, r));
        }
        if (timeseries)
        {
            Commit(timeseries.get(), TcpSharingReport::FormatTimeseries(o, r));
        }
        if (flowTimes)
        {
            Commit(flowTimes.get(), TcpSharingReport::FormatFlowTimes(o, r));
        }
    }
    catch (const TrainingInputError& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}

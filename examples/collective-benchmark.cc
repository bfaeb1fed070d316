/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * AllReduce alone, in the style of nccl-tests and the OSU micro-benchmarks: for each K of
 * --workers, each message size of --sizes, each --collective and each --backend, the time of one
 * AllReduce of M bytes with no compute, its algorithm bandwidth M / t and its bus bandwidth
 * M / t x 2(K-1)/K (CollectiveBenchmark; doc/reference/collectives.rst shows a measured table).
 *
 *   ./build/bin/collective-benchmark --workers=4,8,16 --sizes=64KiB,4MiB,64MiB \
 *       --collective=all --backend=analytic,flow --nicRate=10Gbps --csv=allreduce.csv
 */

#include "ns3/collective-benchmark.h"

#include "ns3/output-file.h"
#include "ns3/program-options.h"
#include "ns3/training-input-error.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

using namespace ns3;

int
main(int argc, char* argv[])
{
    return ProgramOptions::Run(
        [&]()
        {
            bool help = false;
            const CollectiveBenchmark::Settings s
                = CollectiveBenchmark::ParseArguments({argv + 1, argv + argc}, help);
            if (help)
            {
                CollectiveBenchmark::PrintHelp(argc, argv);
                return;
            }
            // The one output writer: a regular file only, written whole (renamed into place
            // when every row is in) or not at all.
            std::unique_ptr<OutputFile> csv;
            if (!s.csv.empty())
            {
                csv = std::make_unique<OutputFile>(s.csv, "--csv");
                csv->Stream() << CollectiveBenchmark::CsvHeader();
            }
            std::printf("%4s %12s %-17s %-9s %14s %10s %10s %9s\n",
                        "K",
                        "bytes",
                        "collective",
                        "backend",
                        "time (us)",
                        "algbw GB/s",
                        "busbw GB/s",
                        "wall (s)");
            CollectiveBenchmark::Run(s,
                                     [&](const CollectiveBenchmark::Row& r)
                                     {
                                         std::printf("%s\n",
                                                     CollectiveBenchmark::TableLine(r).c_str());
                                         std::fflush(stdout);
                                         if (csv)
                                         {
                                             csv->Stream() << CollectiveBenchmark::CsvLine(r);
                                         }
                                     });
            if (csv)
            {
                csv->Commit();
            }
        });
}

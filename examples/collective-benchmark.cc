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

#include "ns3/program-options.h"
#include "ns3/training-input-error.h"

#include <cstdio>
#include <fstream>
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
            std::unique_ptr<std::ofstream> csv;
            if (!s.csv.empty())
            {
                csv = std::make_unique<std::ofstream>(s.csv);
                if (!(*csv << CollectiveBenchmark::CsvHeader()))
                {
                    throw TrainingInputError("--csv: cannot write '" + s.csv + "'");
                }
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
            CollectiveBenchmark::Run(
                s,
                [&](const CollectiveBenchmark::Row& r)
                {
                    std::printf("%s\n", CollectiveBenchmark::TableLine(r).c_str());
                    std::fflush(stdout);
                    if (csv && !(*csv << CollectiveBenchmark::CsvLine(r) << std::flush))
                    {
                        throw TrainingInputError("--csv: cannot write '" + s.csv + "'");
                    }
                });
        });
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * validation-runner: runs a declared scenario matrix through the three backends and compares the
 * flow-level and analytic predictions with the packet level (doc/reference/validation-runner.rst).
 *
 *   ./build/bin/validation-runner --matrix=validation/matrix.json --out=validation-out --jobs=2
 *
 * Every (scenario, K) becomes one packet job, one analytic job and one flow job per sharing
 * variant, each a process of the driver distributed-training-sim (so every driver option works in
 * the matrix and the driver rejects bad ones with its own message). The runner writes
 * results.csv (every prediction next to the packet-level truth), error-table.{csv,rst} (shaped
 * like 000 Table 1), calibration.csv when the matrix calibrates a variant, and per scenario a
 * throughput-vs-workers figure and, where asked, a transfer timeline (gnuplot scripts, drawn when
 * gnuplot is installed).
 */

#include "ns3/validation-runner.h"

#include "ns3/program-options.h"
#include "ns3/sweep-engine.h"

using namespace ns3;

int
main(int argc, char* argv[])
{
    int status = 0;
    const int input = ProgramOptions::Run(
        [&]()
        {
            // The options are the option table's RUNNER entries (ValidationRunner::ParseOptions).
            const ValidationRunner::Options opt = ValidationRunner::ParseOptions(argc, argv);
            status = opt.runJob.empty() ? ValidationRunner(opt).Run()
                                        : SweepEngine::RunJobFile(opt.runJob);
        });
    return input != 0 ? input : status;
}

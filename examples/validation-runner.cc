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

#include "ns3/command-line.h"
#include "ns3/sweep-engine.h"
#include "ns3/training-input-error.h"

#include <algorithm>
#include <iostream>
#include <string>
#include <thread>

using namespace ns3;

int
main(int argc, char* argv[])
{
    ValidationRunner::Options opt;
    opt.outDir = "validation-out";
    std::string jobs = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
    std::string runJob;

    CommandLine cmd(__FILE__);
    cmd.Usage("Run a validation matrix (doc/reference/validation-runner.rst) through the "
              "packet, flow, analytic (and linux) backends, as driver processes on this "
              "machine, GNU parallel or Slurm, and compare them with the reference (packet, or "
              "linux).");
    cmd.AddValue("matrix", "Matrix JSON file, e.g. validation/matrix.json", opt.matrixFile);
    cmd.AddValue("out", "Output folder (results.csv, error tables, figures, jobs/)", opt.outDir);
    cmd.AddValue("jobs", "Jobs at a time (default: number of cores; slurm: array throttle)", jobs);
    cmd.AddValue("engine",
                 "local (processes here), parallel (GNU parallel) or slurm (writes a job-array "
                 "script and a merge step)",
                 opt.engine.engine);
    cmd.AddValue("sshloginfile",
                 "--engine=parallel: GNU parallel's --sshloginfile (hosts sharing OUT and the "
                 "build by path; ':' is this machine)",
                 opt.engine.sshLoginFile);
    cmd.AddValue("sim",
                 "The driver (default: distributed-training-sim next to this program)",
                 opt.sim);
    cmd.AddValue("root",
                 "Folder of relative profile paths (default: the matrix file's repository)",
                 opt.root);
    cmd.AddValue("resume",
                 "Reuse the results in OUT/jobs of jobs whose argument list is unchanged",
                 opt.engine.resume);
    cmd.AddValue("merge",
                 "Run nothing: merge the results in OUT/jobs (the Slurm merge step); a missing "
                 "result is an error",
                 opt.merge);
    cmd.AddValue("run-job", "Internal: run the one job described by this job file", runJob);
    cmd.Parse(argc, argv);
    try
    {
        if (!runJob.empty())
        {
            return SweepEngine::RunJobFile(runJob);
        }
        ValidationRunner::CompleteOptions(opt, jobs, argc, argv);
        return ValidationRunner(opt).Run();
    }
    catch (const TrainingInputError& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Speed and accuracy of the MVA behind the async parameter-server model (000 Sec. 2.1):
 * - wall time of exact MVA over the {0,1}^K lattice with K = 16 distinct workers (target < 1 s)
 *   and of Schweitzer-Bard approximate MVA with K = 1000 distinct workers (target < 10 ms);
 * - the relative error of the approximation against exact MVA for K = 1..14, on the grid that
 *   doc/reference/backend-analytic.rst reports and test/analytic-models-test-suite.cc checks.
 *
 *   ./build/bin/analytic-benchmark [--repeat=N]
 */

#include "ns3/async-ps-model.h"
#include "ns3/mva-solver.h"
#include "ns3/program-options.h"
#include "ns3/scenario-options.h"
#include "ns3/training-input-error.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <vector>

using namespace ns3;

namespace
{

/**
 * The seed's network (000 Fig. 5) with K workers whose compute times all differ.
 * \param link FCFS or PS links
 * \param workers K
 * \return the network
 */
MvaSolver
DistinctWorkers(MvaSolver::Discipline link, uint32_t workers)
{
    MvaSolver m = AsyncPsModel::SeedNetwork(link);
    for (uint32_t k = 0; k < workers; ++k)
    {
        // Compute 1 to 3 x the link time: the network saturates around K = 3-6.
        m.AddClass({1.0 + 2.0 * k / workers, 0.4, 0.05, 0.4});
    }
    return m;
}

/**
 * Median wall time of a call, in seconds.
 * \param f the call
 * \param repeat how many times
 * \return the median
 */
template<typename F>
double
MedianSeconds(F f, uint32_t repeat)
{
    std::vector<double> t;
    for (uint32_t i = 0; i < repeat; ++i)
    {
        auto start = std::chrono::steady_clock::now();
        f();
        t.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

/// Time the exact MVA at K = 16 and the approximate one at K = 1000, for each link discipline.
void
PrintSpeed(uint32_t repeat)
{
    std::printf("Speed (median of %u runs)\n", repeat);
    for (auto link : {MvaSolver::FCFS, MvaSolver::PS})
    {
        const char* name = link == MvaSolver::FCFS ? "FCFS" : "PS";
        MvaSolver exact = DistinctWorkers(link, 16);
        double x = 0;
        double te = MedianSeconds(
            [&]
            {
                x = exact.SolveExact(uint64_t{1} << 16).throughput;
            },
            repeat);
        std::printf("  exact MVA, K = 16 distinct workers (65536 populations), %s links: "
                    "%.3f ms (X = %.6f)\n",
                    name,
                    te * 1e3,
                    x);
        MvaSolver approx = DistinctWorkers(link, 1000);
        uint32_t iterations = 0;
        double ta = MedianSeconds(
            [&]
            {
                MvaSolver::Solution s = approx.SolveApproximate(1e-10, 100000);
                x = s.throughput;
                iterations = s.iterations;
            },
            repeat);
        std::printf("  approximate MVA, K = 1000 distinct workers, %s links: %.3f ms "
                    "(%u iterations, X = %.6f)\n",
                    name,
                    ta * 1e3,
                    iterations,
                    x);
    }
}

/**
 * \return the largest relative error of Schweitzer-Bard against exact MVA at K = k over worker
 * times Z in {0, 0.5, 1, 2, 4, 8}, homogeneous and with half the workers at 2 Z (link demand 1,
 * server 0.1)
 * \param link the link stations' discipline
 * \param k workers
 */
double
ApproximationError(MvaSolver::Discipline link, uint32_t k)
{
    double worst = 0;
    for (double z : {0.0, 0.5, 1.0, 2.0, 4.0, 8.0})
    {
        for (bool hetero : {false, true})
        {
            MvaSolver m = AsyncPsModel::SeedNetwork(link);
            const uint32_t slow = hetero && k > 1 ? k - k / 2 : 0; // at 2 Z
            m.AddClass({z, 1.0, 0.1, 1.0}, k - slow);
            if (slow > 0)
            {
                m.AddClass({2 * z, 1.0, 0.1, 1.0}, slow);
            }
            double e = m.SolveExact(1 << 20).throughput;
            double a = m.SolveApproximate(1e-12, 100000).throughput;
            worst = std::max(worst, std::abs(a - e) / e);
        }
    }
    return worst;
}

} // namespace

int
main(int argc, char* argv[])
{
    RunRequest table; // the option table's entry this program reads: the benchmarks' --repeat
    ProgramOptions cmd("Speed of the analytic models (MVA, closed forms).");
    ScenarioOptions::Bind(cmd, table, OptionScope::PROGRAM, {"repeat"}, {{"repeat", "5"}});
    try
    {
        cmd.Parse(argc, argv);
    }
    catch (const TrainingInputError& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    PrintSpeed(table.program.repeat);
    std::printf("\nSchweitzer-Bard vs exact MVA: largest relative throughput error over "
                "Z in {0, 0.5, 1, 2, 4, 8} x {homogeneous, half at 2 Z}\n");
    std::printf("   K    PS links   FCFS links\n");
    double worst[2] = {0, 0};
    for (uint32_t k = 1; k <= 14; ++k)
    {
        const double row[2]
            = {ApproximationError(MvaSolver::PS, k), ApproximationError(MvaSolver::FCFS, k)};
        worst[0] = std::max(worst[0], row[0]);
        worst[1] = std::max(worst[1], row[1]);
        std::printf("  %2u    %6.2f %%    %6.2f %%\n", k, 100 * row[0], 100 * row[1]);
    }
    std::printf("  max   %6.2f %%    %6.2f %%\n", 100 * worst[0], 100 * worst[1]);
    return 0;
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_BENCHMARK_H
#define COLLECTIVE_BENCHMARK_H

#include "ns3/scenario-options.h"
#include "ns3/training-profile.h"

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief A collective-only benchmark in the style of nccl-tests and the OSU micro-benchmarks:
 * the time of one AllReduce of M bytes against M, K, the collective and the backend, with its
 * algorithm bandwidth M / t and bus bandwidth M / t x 2(K-1)/K (nccl-tests' busBw, which is the
 * link rate an optimal ring reaches).
 *
 * Each point is a ring job (--arch=ring) of one layer of M bytes with no compute at all, one
 * bucket (the fusion buffer holds the whole layer), run for --steps steps of which --warmup are
 * not measured: the mean measured step time is the AllReduce's time. The analytic backend's
 * value is its closed form (ring-eq11 for the ring, allreduce-<collective> for the others).
 * Every other option of the driver's table sets the network (--nicRate, --linkDelay, --mtu,
 * --reductionRate, --treeChunk, --topology ...).
 */
class CollectiveBenchmark
{
  public:
    /// What to measure.
    struct Settings
    {
        RunRequest base;                      //!< the driver's options (network, run)
        std::vector<uint32_t> workers{4, 8};  //!< --workers: each K
        std::vector<uint64_t> sizes;          //!< --sizes: each M (bytes)
        std::vector<std::string> collectives; //!< --collective: each collective
        std::vector<std::string> backends;    //!< --backend: each backend
        uint64_t packetMaxBytes{4 << 20};     //!< --packetMaxBytes: packet runs up to this M
        uint32_t packetMaxWorkers{8};         //!< --packetMaxWorkers: and up to this K
        std::string csv;                      //!< --csv: write the rows to this file
    };

    /// One measured point.
    struct Row
    {
        uint32_t workers{0};    //!< K
        uint64_t bytes{0};      //!< M
        std::string collective; //!< ring, halving-doubling, tree, hierarchical or nccl
        std::string backend;    //!< analytic, flow, packet ...
        double seconds{0};      //!< one AllReduce
        double wallSeconds{0};  //!< what the run cost
    };

    /**
     * \brief Build the settings from a command line: the benchmark's own options and every
     * option of the driver's table.
     * \param args the arguments (without the program name)
     * \param help set when --help was asked for (the settings are then the defaults)
     * \return the settings
     * \throws TrainingInputError for a bad or unknown option
     */
    static Settings ParseArguments(const std::vector<std::string>& args, bool& help);

    /**
     * \brief Print --help: the benchmark's own options, and where the others are listed.
     * \param argc argument count \param argv arguments (with --help)
     */
    static void PrintHelp(int argc, char* argv[]);

    /**
     * \param text "1KiB..256MiB" (every power of factor from the first to the last) or
     *        "64KiB,4MiB,64MiB"
     * \param factor the step of a range (>= 2)
     * \return the sizes, ascending
     * \throws TrainingInputError naming --sizes for a bad list
     */
    static std::vector<uint64_t> ParseSizes(const std::string& text, uint64_t factor);

    /**
     * \param bytes M
     * \return a profile of one layer of M bytes and no compute
     */
    static TrainingProfile OneLayerProfile(uint64_t bytes);

    /**
     * \param s the settings
     * \param workers K
     * \return the --groupSize of a hierarchical point: the given one; else 0 (a group per leaf
     *         switch) off the star, K/2 (two groups) on it
     */
    static uint32_t GroupSize(const Settings& s, uint32_t workers);

    /**
     * \param s the settings
     * \param workers K
     * \param bytes M
     * \param backend a backend
     * \return whether the point runs (packet: only up to the caps)
     */
    static bool IsMeasured(const Settings& s,
                           uint32_t workers,
                           uint64_t bytes,
                           const std::string& backend);

    /**
     * \brief Measure one point.
     * \param s the settings (their base request)
     * \param workers K
     * \param bytes M
     * \param collective the collective
     * \param backend the backend
     * \return the row
     */
    static Row Measure(const Settings& s,
                       uint32_t workers,
                       uint64_t bytes,
                       const std::string& collective,
                       const std::string& backend);

    /**
     * \brief Measure every point (K, then M, then collective, then backend).
     * \param s the settings
     * \param each called with each row as soon as it is measured
     */
    static void Run(const Settings& s, const std::function<void(const Row&)>& each);

    /// \param r a row \return algorithm bandwidth M / t (bytes/s)
    static double GetAlgBandwidth(const Row& r);
    /// \param r a row \return bus bandwidth: M / t x 2(K-1)/K (bytes/s)
    static double GetBusBandwidth(const Row& r);

    /// \return the CSV header line (with its newline)
    static std::string CsvHeader();
    /// \param r a row \return its CSV line (with its newline)
    static std::string CsvLine(const Row& r);
    /// \param r a row \return a line of the printed table
    static std::string TableLine(const Row& r);

  private:
    /**
     * \param r a row
     * \param format a printf format of K, M, collective, backend, time (us), algBw and busBw
     *        (GB/s) and wall time (s)
     * \return the formatted row
     */
    static std::string FormatRow(const Row& r, const char* format);
};

} // namespace ns3

#endif /* COLLECTIVE_BENCHMARK_H */

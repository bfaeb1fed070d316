/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CONFIGURATION_OPTIMIZER_H
#define CONFIGURATION_OPTIMIZER_H

#include "ns3/repeated-runs.h"
#include "ns3/training-profile.h"
#include "ns3/training-scenario.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief One configuration the module can run: architecture, mode, K, servers and where they
 * run, their partition, downlink order and window, the ring's buckets, overlap.
 */
struct OptimizerCandidate
{
    TrainingScenario::Architecture architecture{TrainingScenario::PARAMETER_SERVER}; //!< PS/ring
    TrainingScenario::Mode mode{TrainingScenario::SYNC}; //!< sync or async (PS only)
    uint32_t workers{1};                                 //!< K
    uint32_t servers{0};                                 //!< P (0 for the ring)
    uint64_t bucketBytes{0};                             //!< ring fusion bucket Q (0: per layer)
    uint64_t firstBucketBytes{0};                        //!< ring: first bucket (0: Q)
    bool overlap{false};                                 //!< communication overlaps compute
    /// PS: servers on hosts of their own, or on the workers' hosts
    TrainingScenario::ServerPlacement placement{TrainingScenario::SEPARATE_SERVERS};
    /// PS: layer-to-server assignment
    TrainingScenario::Partition partition{TrainingScenario::GREEDY_PARTITION};
    /// PS: order of the tensors a server sends down
    TrainingScenario::TransmissionOrder order{TrainingScenario::FORWARD_ORDER};
    uint64_t windowBytes{0}; //!< PS: downlink window WIN (0: whole tensors in order)

    /// \return the machines it takes: K + P, or K when the servers share the workers' hosts
    uint32_t Machines() const;
    /// \return a short label, e.g. "ps-sync K=4 P=2 ov" or "ring K=8 Q=25MB"; choices other
    /// than the defaults are appended ("coloc", "rr", "rev", "W=1MB", "F=1MB")
    std::string Label() const;
    /// \return the error-table class: ps-sync, ps-sync-overlap, ps-async, ps-async-overlap, ring
    std::string Class() const;
    /// \param base the scenario of everything else (network, fabric, steps) \return the scenario
    TrainingScenario Apply(const TrainingScenario& base) const;
};

/**
 * \ingroup distributed-training
 * \brief The error bars of the cheap backends against the packet level, per class of scenario
 * and backend variant, from the module's validation runs (doc/figures/optimizer/error-bars.csv,
 * written by examples/optimizer-error-table.py).
 */
class OptimizerErrorTable
{
  public:
    /// One row: the signed relative errors (model - packet) / packet of one variant.
    struct Row
    {
        std::string cls;     //!< OptimizerCandidate::Class()
        std::string backend; //!< analytic or flow
        std::string variant; //!< the result's variant
        uint32_t points{0};  //!< validation points
        double mean{0};      //!< mean signed error
        double p05{0};       //!< 5th percentile
        double p95{0};       //!< 95th percentile
        double meanAbs{0};   //!< mean absolute error
    };

    /**
     * \param text the CSV (lines starting with # are comments)
     * \param source its name for messages
     * \return the table
     * \throws TrainingInputError naming the source, line and field for a malformed row
     */
    static OptimizerErrorTable LoadFromString(const std::string& text, const std::string& source);
    /// \param path a CSV file \return the table \throws TrainingInputError if it cannot be read
    static OptimizerErrorTable LoadFromFile(const std::string& path);
    /// \return the table shipped with the module, doc/figures/optimizer/error-bars.csv
    static std::string ShippedPath();

    /**
     * \param cls a class \param backend a backend
     * \param variants the variants that can be had (empty: any)
     * \return the row with the least mean absolute error, or nullptr if none
     */
    const Row* Best(const std::string& cls,
                    const std::string& backend,
                    const std::vector<std::string>& variants = {}) const;

    /**
     * \param row a row (nullptr: no error bar, the interval is the point)
     * \param prediction a throughput
     * \return the packet-level throughput the row's 5-95 % errors allow:
     *         [x / (1 + p95), x / (1 + p05)]
     */
    static std::pair<double, double> Interval(const Row* row, double prediction);

    /// \return the rows
    const std::vector<Row>& GetRows() const;

  private:
    std::vector<Row> m_rows; //!< rows in file order
};

/**
 * \ingroup distributed-training
 * \brief One backend's answer for one configuration.
 */
struct OptimizerEstimate
{
    bool done{false};      //!< evaluated at this rung
    std::string variant;   //!< the backend's variant used
    double throughput{0};  //!< samples/s
    double low{0};         //!< interval of the packet-level throughput (samples/s)
    double high{0};        //!< upper end
    double stepTime{0};    //!< s (async: a worker's mean step)
    double staleness{-1};  //!< async: mean updates by others between a read and a push
    uint32_t steps{0};     //!< packet and linux: steps run (the first is warm-up)
    double wallSeconds{0}; //!< wall time of this evaluation
    uint32_t runs{1};      //!< runs behind the estimate (--repeat: their mean)
    uint32_t rank{0};      //!< 1 = best among the configurations of this rung
    std::string note;      //!< why it failed or has no error bar
};

/**
 * \ingroup distributed-training
 * \brief Search the configurations of one training job: screen all with the analytic
 * backend, re-rank the best with the flow backend, confirm the finalists at packet level.
 *
 * Every estimate carries an interval for the packet-level throughput: the cheap backends'
 * from OptimizerErrorTable (the variant with the least validation error of its class is the
 * one used), the packet level's from its own per-step times (mean +- 2 standard errors). The
 * packet rung runs the finalists in the flow rung's order and stops when no remaining
 * finalist's flow interval reaches the best confirmed configuration's lower bound.
 */
class ConfigurationOptimizer
{
  public:
    /// The rungs of the ladder.
    enum Rung
    {
        ANALYTIC = 0, //!< closed forms and MVA (every configuration)
        FLOW = 1,     //!< flow-level simulation (the analytic rung's best)
        PACKET = 2,   //!< ns-3 TCP (the flow rung's best)
        LINUX = 3     //!< the kernel's TCP in namespaces, dilated (the packet rung's best)
    };

    /// Number of rungs.
    static constexpr int RUNGS = 4;

    /// The configurations to search.
    struct Space
    {
        uint32_t machines{8};                                          //!< N: K (+ P) <= N
        std::vector<std::string> archs{"ps-sync", "ps-async", "ring"}; //!< which families
        std::vector<uint32_t> workers;                                 //!< K values (empty: 1 .. N)
        uint32_t maxServers{4};                                        //!< P at most
        std::vector<uint64_t> buckets{0};                              //!< ring fusion buckets Q
        std::vector<bool> overlaps{false, true};                       //!< overlap choices
        // The dimensions below, when empty, take the base scenario's one value.
        std::vector<uint64_t> firstBuckets; //!< ring first buckets (0: Q; larger: skipped)
        /// PS server placements (co-located: P <= K on the workers' hosts, K <= N)
        std::vector<TrainingScenario::ServerPlacement> placements;
        std::vector<TrainingScenario::Partition> partitions;     //!< PS partitions
        std::vector<TrainingScenario::TransmissionOrder> orders; //!< PS downlink orders
        std::vector<uint64_t> windows; //!< PS downlink windows WIN (0: none)
    };

    /// How far to climb.
    struct Ladder
    {
        Rung lastRung{PACKET};       //!< the highest rung run
        uint32_t flowFinalists{8};   //!< configurations re-ranked by the flow level (at least)
        uint32_t packetFinalists{3}; //!< configurations confirmed at packet level (at most)
        uint32_t packetSteps{4};     //!< steps of a packet run (the first is warm-up)
        bool exhaustive{false};      //!< also run every rung on every configuration
        uint32_t linuxFinalists{2};  //!< configurations the linux rung re-runs (at most)
        uint32_t linuxSteps{4};      //!< steps of a linux run (the first is warm-up)
        double linuxDilation{0};     //!< time dilation (0: the least that keeps every port
                                     //!< within LinuxBackend::VALIDATED_PORT_BPS)
    };

    /// One configuration and its estimates.
    struct Row
    {
        OptimizerCandidate candidate;               //!< the configuration
        std::array<OptimizerEstimate, RUNGS> rungs; //!< by Rung
        /// \return the highest rung evaluated (-1: none)
        int Top() const;
    };

    /// What a search found.
    struct Outcome
    {
        std::vector<Row> rows;                  //!< best first (highest rung, then throughput)
        std::array<double, RUNGS> rungWall{};   //!< wall seconds spent per rung
        std::array<uint32_t, RUNGS> rungRuns{}; //!< evaluations per rung
        bool settled{false};                    //!< the winner's lower bound beats the rest
        uint32_t skipped{0};                    //!< configurations the scenario refused
        std::vector<std::string> notes;         //!< observations
        std::vector<Row> exhaustive;            //!< Ladder::exhaustive: every packet result
    };

    /**
     * \param profile the DNN
     * \param base the scenario whose network, fabric and run length every candidate keeps
     * \param table the error bars
     */
    ConfigurationOptimizer(TrainingProfile profile,
                           const TrainingScenario& base,
                           OptimizerErrorTable table);

    /**
     * \param space the search space
     * \param skipped receives how many the scenario refused (e.g. more servers than layers)
     * \return the valid configurations
     * \throws TrainingInputError for an unknown architecture name or an empty space
     */
    std::vector<OptimizerCandidate> Enumerate(const Space& space, uint32_t& skipped) const;

    /**
     * \param c a configuration \param rung the backend
     * \param ladder the packet and linux runs' steps and the linux dilation
     * \return its estimate (done = false with a note if the backend refused it)
     */
    OptimizerEstimate Evaluate(const OptimizerCandidate& c, Rung rung, const Ladder& ladder) const;

    /**
     * \param s a scenario \param dilation the Ladder's linuxDilation
     * \return the dilation the linux rung runs it at: the given one, or (0) the least that
     *         keeps its NICs within LinuxBackend::VALIDATED_PORT_BPS
     */
    static double LinuxDilation(const TrainingScenario& s, double dilation);

    /**
     * \param space the configurations \param ladder how far to climb
     * \return the ranked rows
     */
    Outcome Run(const Space& space, const Ladder& ladder) const;

    /// \param rung a rung \return "analytic", "flow", "packet" or "linux"
    static std::string RungName(Rung rung);

    /**
     * \brief How the flow and packet rungs measure (the driver's --repeat, --ciTarget and
     * --maxSteps, RepeatedRuns): with repeats an estimate is the mean of the runs, the packet
     * interval its 95 % confidence interval and the flow interval the error bars applied to its
     * ends; with --ciTarget alone the packet interval is the batch-means interval of the step
     * time. Nothing by default (one run, the packet interval from its per-step times).
     * \param measure the options
     */
    void SetMeasurement(const RepeatedRuns::Options& measure);

  private:
    /// Run the rung on the given rows (indices), in order, and rank them.
    void Climb(std::vector<Row>& rows,
               const std::vector<std::size_t>& which,
               Rung rung,
               Outcome& out,
               const Ladder& ladder) const;
    /// The linux rung: the packet rung's best, re-run on the kernel's TCP.
    void Verify(std::vector<Row>& rows, const Ladder& ladder, Outcome& out) const;
    /// Evaluate one rung's backend (Evaluate's body, without timing and staleness).
    OptimizerEstimate RunRung(const OptimizerCandidate& c,
                              TrainingScenario s,
                              Rung rung,
                              const Ladder& ladder) const;
    /// The packet rung with its stopping rule (cached: Ladder::exhaustive results).
    void Confirm(std::vector<Row>& rows,
                 const Ladder& ladder,
                 const std::map<std::string, OptimizerEstimate>& cache,
                 Outcome& out) const;
    /// \return the analytic variant to use among the results' variants
    OptimizerEstimate PickAnalytic(const OptimizerCandidate& c, const TrainingScenario& s) const;

    TrainingProfile m_profile;       //!< the DNN
    TrainingScenario m_base;         //!< everything but the searched choices
    OptimizerErrorTable m_table;     //!< error bars
    RepeatedRuns::Options m_measure; //!< the flow and packet rungs' repeats and step target
};

/**
 * \param outcome a search \param samples data-set size for the epoch time
 * \return the JSON document of the ranked table
 */
std::string OptimizerOutcomeToJson(const ConfigurationOptimizer::Outcome& outcome, double samples);

} // namespace ns3

#endif /* CONFIGURATION_OPTIMIZER_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_RESULT_H
#define TRAINING_RESULT_H

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class TrainingProfile;
class TrainingScenario;

/**
 * \ingroup distributed-training
 * \brief What one backend (packet, flow or analytic) predicts for one scenario: one schema for
 * all backends, so that every answer can be checked against the others.
 *
 * Simulating backends fill the per-step and per-transfer records and call Finalize(), which
 * computes throughput and mean step time from the steps after warm-up, the same way for every
 * backend (see Finalize()). Closed-form backends set the throughput and step time directly and
 * list the quantities they derived from the profile and scenario in the inputs map (M, B, T_F,
 * T_B, ...) so a reader can redo the computation by hand.
 */
class TrainingResult
{
  public:
    /// One worker's step. Times in seconds of simulated time.
    struct StepRecord
    {
        uint32_t worker; //!< worker (or node) index
        uint32_t step;   //!< step index, from 0
        double start;    //!< when the step began (its first downlink byte was requested)
        double end;      //!< when the step ended (its parameters for the next step may be read)
    };

    /// One tensor (or chunk) crossing the network. Times in seconds.
    struct TransferRecord
    {
        uint32_t worker;       //!< worker index
        uint32_t peer;         //!< server index (PS) or the receiving/sending neighbour (ring)
        uint32_t step;         //!< step index
        int32_t tensor;        //!< layer index (PS) or bucket index (ring); -1 for requests
        std::string direction; //!< "down" (server to worker), "up" (worker to server), "ring"
        uint64_t bytes;        //!< payload bytes (application data, headers excluded)
        double start;          //!< first byte sent
        double end;            //!< last byte received
    };

    /// One --leave window as the run lived it (async PS; WorkerAbsences). Times in seconds.
    struct AbsenceRecord
    {
        uint32_t worker{0};    //!< the worker that left
        double start{0};       //!< the window's start, as given
        double end{0};         //!< the window's end (start + length): when the worker rejoined
        double left{0};        //!< when it went: start, or the end of its step in progress then
        double away{0};        //!< time away inside the worker's measured span
        double missedSteps{0}; //!< away x the worker's step rate while present
    };

    /**
     * \brief Where a result's records go while a backend runs instead of into the result: a
     * file written as the records come (RecordStream, the driver's --recordsFile). A backend
     * gets its sink from the run context it is given (RunContext), never from a global.
     */
    class RecordSink
    {
      public:
        virtual ~RecordSink() = default;
        /// \return a new run number (one per result attached)
        virtual uint32_t NewRun() = 0;
        /// Write one step record of run \p run.
        virtual void WriteStep(uint32_t run, const StepRecord& r) = 0;
        /// Write one transfer record of run \p run.
        virtual void WriteTransfer(uint32_t run, const TransferRecord& r) = 0;
        /// \return the file the records go to (named in the result's JSON)
        virtual const std::string& GetPath() const = 0;
    };

    /**
     * \brief The runs of one point with several seeds (--repeat=N, RepeatedRuns): the result's
     * other fields are one run's (shownSeed, the median-throughput run), these are all of them.
     */
    struct RepeatSummary
    {
        std::vector<uint64_t> seeds;     //!< the runs' seeds (--seed, --seed + 1, ...)
        std::vector<double> throughputs; //!< each run's throughput (samples/s), in seed order
        double mean{0};                  //!< their mean (samples/s)
        double ciLow{0};                 //!< the mean's 95 % interval (Student t), lower end
        double ciHigh{0};                //!< upper end
        uint64_t shownSeed{0};           //!< the seed of the run whose details the result shows
        bool identical{false};           //!< every run bit-identical (a deterministic backend)
    };

    /**
     * \brief The step count a run chose itself (--ciTarget, RepeatedRuns::RunToTarget): the
     * 95 % interval of its mean step time by batch means.
     */
    struct StepInterval
    {
        uint32_t steps{0};           //!< the steps the reported run used (--steps)
        uint32_t batches{0};         //!< batch means the interval is over
        double target{0};            //!< --ciTarget: the relative half-width asked for
        double relativeHalfWidth{0}; //!< the relative half-width reached
        double stepTimeMean{0};      //!< the batch means' mean step time (s)
        bool capped{false};          //!< --maxSteps stopped it before the target
    };

    /// A result that keeps its records in memory.
    TrainingResult() = default;

    /**
     * \param sink where the records go (nullptr: kept in memory); the result takes a run
     *        number from it
     */
    explicit TrainingResult(std::shared_ptr<RecordSink> sink);

    /// \param r a step record \return its JSON object (result files and record streams)
    static nlohmann::ordered_json RecordJson(const StepRecord& r);
    /// \param r a transfer record \return its JSON object (result files and record streams)
    static nlohmann::ordered_json RecordJson(const TransferRecord& r);

    std::string backend;           //!< "packet", "flow" or "analytic"
    std::string variant;           //!< e.g. "tcp-cubic", "ps", "fcfs", "mva-hybrid", "sync-eq7"
    std::vector<StepRecord> steps; //!< per-step records (simulating backends)
    std::vector<TransferRecord> transfers;         //!< per-transfer records (simulating backends)
    std::map<std::string, double> linkUtilisation; //!< link name -> busy fraction in window
    std::map<std::string, double> inputs; //!< derived model inputs (M, B, T_F, ...) and extras
    std::vector<std::string> notes;       //!< warnings and observations (e.g. lockstep)
    double throughput{0};                 //!< samples per second over the measurement window
    double stepTimeMean{0}; //!< seconds: sync window / steps; async mean per-worker step time
    double windowStart{0};  //!< start of the measurement window (s)
    double windowEnd{0};    //!< end of the measurement window (s)
    double wallSeconds{0};  //!< wall-clock time the backend took
    std::string bottleneck; //!< the busiest link (or resource), if known
    std::optional<RepeatSummary> repeat;      //!< --repeat=N > 1: every run's throughput
    std::optional<StepInterval> stepInterval; //!< --ciTarget: the steps chosen, the interval
    std::vector<AbsenceRecord> absences;      //!< --leave: each window's time away (async PS)

    /// Where AddStep()/AddTransfer() also write records (the driver's --recordsFile); with a
    /// sink, transfer records are not kept in memory (steps are: Finalize() needs them).
    std::shared_ptr<RecordSink> recordStream;
    uint32_t recordsRun{0};        //!< this result's run number in recordStream
    uint64_t streamedTransfers{0}; //!< transfer records written to recordStream

    /// Keep a step record (and stream it, with a record stream). \param r the record
    void AddStep(const StepRecord& r);
    /// Keep a transfer record, or only stream it with a record stream. \param r the record
    void AddTransfer(const TransferRecord& r);

    /**
     * \brief Throughput and mean step time from the step records, skipping warm-up steps. This
     * is the one definition of measured throughput: the packet and flow backends call it (the
     * analytic backend computes its closed forms and reports no measured throughput).
     *
     * Sync (PS sync and ring): step s ends at E_s, the latest end among the workers (barrier to
     * barrier). Window = [E_{w-1}, E_{N-1}] with w warm-up steps (E_{-1} = the earliest start of
     * step 0). Throughput = K * batch * (N - w) / window; step time = window / (N - w).
     *
     * Async: workers run at their own pace, so the throughput is the sum of the workers' own
     * rates, X = batch * sum_k m_k / T_k, measured while every worker is running: T_A is the end
     * of the first worker's last step (after it the others run with less contention, which
     * would bias the estimate upwards); m_k counts worker k's steps after its warm-up that end
     * by T_A and T_k is the time from the end of its warm-up (the start of its step 0 without
     * warm-up) to the end of the last of them. Each rate spans whole steps of that worker only,
     * so a slow worker is neither over- nor under-counted by a window edge (a common window
     * that ends inside a slow worker's step is the bias this replaces). Step time = mean over
     * workers of T_k / m_k. windowStart/windowEnd = [latest warm-up end, T_A], the span in which
     * link utilisation is measured. A run in which some worker completes no measured step before
     * T_A is too short: TrainingInputError naming --steps/--warmup with an estimate of the
     * steps needed, ceil((w + 1) * slowest / fastest mean step time).
     *
     * Workers away (--leave, WorkerAbsences): a worker's time away inside [its warm-up end,
     * T_A] is part of its T_k (with no step in it), so while one of K equal workers is away the
     * job runs at (K - 1) / K of its rate; absences records each window's time away and the
     * steps it missed (time away x m_k / (T_k - time away)).
     *
     * \param scenario the scenario that was run (mode, workers, steps, warm-up)
     * \param batchSize samples per step per worker
     * \throws TrainingInputError when no step after warm-up can be measured (see above)
     */
    void Finalize(const TrainingScenario& scenario, uint32_t batchSize);

    /**
     * \brief The downlink phase of 000 Fig. 23: per step, from the earliest step start to the
     * last parameter byte received by any worker, averaged over the steps after warm-up.
     * \param warmup steps to skip
     * \return seconds (0 without records)
     */
    double GetMeanDownlinkTime(uint32_t warmup) const;

    /// A run is called compute-bound when its busiest link is busy less than this fraction of
    /// the measurement window: then at least three quarters of every step are spent other than
    /// sending on that link (computing, or waiting on latency), and naming the link as the
    /// bottleneck would mislead.
    static constexpr double COMPUTE_BOUND_UTILISATION = 0.25;

    /// The bottleneck label of a parameter-server run whose servers' update sets the step.
    static constexpr const char* SERVER_UPDATE = "server-update";

    /**
     * \brief The one rule for when the parameter servers' update sets the step: the busiest
     * server's update of one step (T_S, its layers' update_us) takes longer than the workers'
     * compute of one step (T_F + T_B of the slowest worker) and longer than the rest of the step
     * (step - T_S - compute: the transfers and the waits). Then it is the largest of the three
     * parts, and neither a link nor "compute-bound" names what sets the step.
     * \param update T_S (s)
     * \param compute T_F + T_B of the slowest worker (s)
     * \param step the mean step (or async cycle) time (s)
     * \return whether the update sets the step
     */
    static bool ServerUpdateSetsStep(double update, double compute, double step);

    /**
     * \brief Label a simulated parameter-server run "server-update" (SERVER_UPDATE) when
     * ServerUpdateSetsStep() holds for its mean step time; other runs keep their bottleneck.
     * Call after the bottleneck and the step time are set.
     * \param profile the DNN (its layers' forward, backward and update times)
     * \param scenario the scenario (architecture, servers, the workers' compute scales)
     */
    void NameServerUpdate(const TrainingProfile& profile, const TrainingScenario& scenario);

    /**
     * \return whether the workers' compute, not the network, sets the step time: the busiest
     * link (bottleneck, when it names a link of linkUtilisation) is below
     * COMPUTE_BOUND_UTILISATION, or the analytic backend named "worker-compute"
     */
    bool IsComputeBound() const;

    /**
     * \param includeRecords write the step and transfer records too (with a record stream:
     * the file's name, the run number and the record counts instead)
     * \return this result as a JSON object (text)
     */
    std::string ToJson(bool includeRecords = true) const;

    /**
     * \param includeRecords as ToJson()
     * \return this result as a JSON object, built in time linear in its size (the documents
     * of several results or jobs nest it without printing and parsing it again)
     */
    nlohmann::ordered_json ToJsonObject(bool includeRecords = true) const;

    /**
     * \brief Refuse a result that cannot be an answer: a throughput or mean step time that is
     * not finite or not positive (e.g. scales so extreme that a double overflows). Every
     * program checks its results with this before printing or writing them.
     * \param scenario the scenario that produced it (its scale options are named)
     * \throws TrainingInputError naming the backend, the values and the options to look at
     */
    void CheckSane(const TrainingScenario& scenario) const;

    /**
     * \brief The result file: {"scenario": {...}, "profile": {...}, "results": [...]}.
     * \param profile the DNN
     * \param scenario the scenario
     * \param results one entry per backend/variant
     * \param includeRecords write step and transfer records
     * \return JSON text
     */
    static std::string MakeDocument(const TrainingProfile& profile,
                                    const TrainingScenario& scenario,
                                    const std::vector<TrainingResult>& results,
                                    bool includeRecords = true);

  private:
    /// Finalize() for sync PS and ring.
    void FinalizeSync(const TrainingScenario& scenario, uint32_t batchSize);
    /**
     * \brief --leave's share of FinalizeAsync(): record each window's time away and missed
     * steps (absences) for one worker.
     * \param worker the worker
     * \param measured its steps after warm-up that end by T_A
     * \param span [end of its warm-up, end of the last of those steps]
     * \param allActiveEnd T_A
     * \return its time away after span's end, up to T_A (0 without --leave)
     */
    double AwayAfter(uint32_t worker,
                     uint32_t measured,
                     std::pair<double, double> span,
                     double allActiveEnd);
    /// --leave: a note naming each window's worker, when it went and came back, its time away
    /// and missed steps, and the inputs away_s and missed_steps (their sums).
    void NoteAbsences();
    /// Finalize() for async PS.
    void FinalizeAsync(const TrainingScenario& scenario, uint32_t batchSize);
    /**
     * \param scenario the scenario
     * \param worker a worker without a measured step
     * \param allActiveEnd T_A
     * \return the "too short" message with the estimated --steps needed
     */
    std::string AsyncTooShortMessage(const TrainingScenario& scenario,
                                     uint32_t worker,
                                     double allActiveEnd) const;
};

} // namespace ns3

#endif /* TRAINING_RESULT_H */

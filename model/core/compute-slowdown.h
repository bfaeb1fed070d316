/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COMPUTE_SLOWDOWN_H
#define COMPUTE_SLOWDOWN_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class TrainingScenario;

/**
 * \ingroup distributed-training
 * \brief One straggler episode (--slowdown): a worker computes factor times slower from start
 * for length (simulation seconds).
 */
struct SlowdownEpisode
{
    uint32_t worker{0}; //!< the slowed worker
    double start{0};    //!< when the episode begins, s (>= 0)
    double length{0};   //!< how long it lasts, s (> 0)
    double factor{1};   //!< compute time multiplier during it (>= 1)

    /// \return start + length
    double End() const;
};

/**
 * \ingroup distributed-training
 * \brief Randomly drawn straggler episodes (--stragglers): for every worker, episode starts
 * form a Poisson process of mean gap meanGap; each lasts an exponential time of mean
 * meanLength and multiplies compute times by factor. Off when meanGap is 0.
 */
struct StragglerProcess
{
    double meanGap{0};    //!< mean time between a worker's episode starts, s (0: off)
    double meanLength{0}; //!< mean episode length, s
    double factor{1};     //!< compute time multiplier during an episode

    /// \return whether the process draws episodes
    bool IsOn() const;
};

/**
 * \ingroup distributed-training
 * \brief The one rule of how straggler episodes stretch a worker's compute (forward, backward),
 * used by the packet applications' protocols (WorkerTiming) and the flow engines alike.
 *
 * The rule pro-rates: a compute span of W seconds (profile time x --computeScale) that starts
 * at t0 ends at the t1 where the integral of 1 / f(t) from t0 to t1 is W, f(t) being the
 * largest factor of the worker's episodes active at t (1 outside them; overlapping episodes do
 * not compound). A span that starts 10 ms before a x3 episode thus does 10 ms of work, then the
 * rest three times slower. The start-time rule (the whole span at the factor in force when it
 * starts) is simpler but makes a layer's time jump at an episode boundary; pro-rating is the
 * throttled GPU's behaviour and stays a short walk over the episode boundaries. A span that no
 * episode touches keeps exactly its length (bit-identical to a run without episodes).
 *
 * Episodes of the random process are drawn lazily per worker, in start order, from a SplitMix64
 * stream of (seed, worker, episode index): the same seed gives the same episodes whatever
 * backend asks and in whatever order.
 */
class ComputeSlowdown
{
  public:
    /// No episodes: Stretch() returns its input.
    ComputeSlowdown() = default;

    /**
     * \param episodes the given episodes (workers < workers)
     * \param process the random process (off: none drawn)
     * \param workers K
     * \param seed the run's seed (--seed)
     */
    ComputeSlowdown(const std::vector<SlowdownEpisode>& episodes,
                    const StragglerProcess& process,
                    uint32_t workers,
                    uint64_t seed);

    /**
     * \param s a scenario
     * \return its episodes and process, or nullptr when it has neither
     */
    static std::shared_ptr<const ComputeSlowdown> FromScenario(const TrainingScenario& s);

    /** \return whether no episode can ever apply */
    bool IsEmpty() const;

    /**
     * \param worker the worker
     * \param start when its compute span starts, s
     * \param seconds the span's length without episodes
     * \return its length with them (exactly seconds when no episode overlaps it)
     */
    double Stretch(uint32_t worker, double start, double seconds) const;

    /**
     * \param until the end of the run, s
     * \return every episode (given and drawn) that starts before until, by start then worker
     */
    std::vector<SlowdownEpisode> GetEpisodes(double until) const;

    /**
     * \brief Parse --slowdown: "worker:start:length:factor" entries separated by commas
     * (e.g. "2:50ms:200ms:3"), or a JSON array of objects {"worker", "start", "length",
     * "factor"} (times as a number of seconds or a string with its unit).
     * \param option the option, for messages
     * \param text the value
     * \return the episodes
     * \throws TrainingInputError naming the option and what was expected
     */
    static std::vector<SlowdownEpisode> ParseEpisodes(const std::string& option,
                                                      const std::string& text);

    /**
     * \brief Parse per-worker time windows: ParseEpisodes() with withFactor, --leave's windows
     * ("worker:start:length", or JSON objects without "factor"; factor 1) without.
     * \param option the option, for messages
     * \param text the value
     * \param withFactor whether each window carries a slowdown factor
     * \return the windows
     * \throws TrainingInputError naming the option and what was expected
     */
    static std::vector<SlowdownEpisode> ParseWindows(const std::string& option,
                                                     const std::string& text,
                                                     bool withFactor);

    /**
     * \brief Parse --stragglers: "meanGap:meanLength:factor" (e.g. "2s:100ms:2"), or "0" (off).
     * \param option the option, for messages
     * \param text the value
     * \return the process
     * \throws TrainingInputError naming the option and what was expected
     */
    static StragglerProcess ParseProcess(const std::string& option, const std::string& text);

    /**
     * \brief Check episodes against the scenario's worker count.
     * \param episodes the episodes
     * \param workers K
     * \throws TrainingInputError naming --slowdown
     */
    static void CheckWorkers(const std::vector<SlowdownEpisode>& episodes, uint32_t workers);

  private:
    /// A worker's episodes sorted by start, with the running maximum of their ends.
    struct WorkerEpisodes
    {
        std::vector<SlowdownEpisode> list; //!< by start
        std::vector<double> maxEnd;        //!< maxEnd[i]: the latest end of list[0..i]
        double nextDrawnStart{0};          //!< start of the process's next undrawn episode
        uint64_t drawn{0};                 //!< episodes drawn so far
    };

    /**
     * \brief Insert an episode, keeping the list sorted and maxEnd current.
     * \param w the worker's episodes
     * \param e the episode
     */
    static void Insert(WorkerEpisodes& w, const SlowdownEpisode& e);
    /**
     * \brief Draw the process's episodes of a worker that start at or before t.
     * \param worker the worker
     * \param t the time
     */
    void DrawUntil(uint32_t worker, double t) const;
    /**
     * \param worker the worker
     * \param index the episode's index in the worker's stream
     * \param draw 0 for the gap before it, 1 for its length
     * \return an exponential variate of mean 1
     */
    double Exponential(uint32_t worker, uint64_t index, uint32_t draw) const;

    StragglerProcess m_process;                     //!< the random process
    uint64_t m_seed{1};                             //!< the run's seed
    bool m_empty{true};                             //!< no episode given and the process off
    mutable std::vector<WorkerEpisodes> m_episodes; //!< per worker (drawn ones added lazily)
};

} // namespace ns3

#endif /* COMPUTE_SLOWDOWN_H */

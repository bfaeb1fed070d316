/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef YAN_PERFORMANCE_MODEL_H
#define YAN_PERFORMANCE_MODEL_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The epoch-time model of a distributed DNN with model parallelism inside a replica and
 * data parallelism across replicas and parameter servers: 002_a4ba19759bbbfe64.txt Sec. 4,
 * Eq. (5)-(11), and its configuration search, Sec. 5.3 (greedy segment-to-worker mapping and
 * dynamic programming over layers).
 *
 * A network is a list of layers (neurons, incoming connections, weights, and whether a neuron
 * sees all of the previous layer or a local window of it). Layer l is cut into P(l) stripes
 * (segments) and replicated R(l) times inside a replica of N_wr workers (P(l) R(l) <= N_wr,
 * constraint C3), and H threads train H samples at once on every worker. Per sample and
 * segment:
 * - Eq. (5), forward compute:  U_f = C_muladd W(l,p) + C_act N(l,p);
 * - Eq. (6), forward comm.:    M_f = C_ncost + A(l,p) C_bits / C_nbw;
 * - Eq. (7), backward compute: U_b = C_muladd W'(l,p) + C_err N(l,p);
 * - Eq. (7'), backward comm.:  M_b = C_ncost + E(l,p) C_bits / C_nbw (Eq. (6) with E for A);
 * - Eq. (8), weight update:    U_w = C_muladd W(l,p);
 * - Eq. (9), H threads: U(l,p,h) = C_interf(H) U(l,p), and each thread gets C_nbw / H;
 * - Eq. (10)/(11), reading the weights from the servers (PsReadBoundsModel), every N_read
 *   samples; a replicated layer is read R(l) times;
 * - the epoch (Sec. 4.2.3, unnumbered): T = M_w N_sample / N_read
 *   + sum_l T(l) N_sample / Q(l), Q(l) = H R(l) N_mr.
 *
 * A(l,p) and E(l,p) come from the stripes: a neuron of a local layer needs the previous layer
 * within a halo (a fraction of its extent) on either side, a neuron of a full layer all of it.
 * The remote activations of a segment are those it needs minus those on its own worker, after
 * the greedy mapping of Sec. 5.3 (each segment to the free worker holding most of what it
 * needs). Choices of this class where the paper leaves them open: C_ncost is paid only when
 * something is remote (the paper's base case has no communication, Sec. 5.3); C_interf(H) is
 * linear, 1 + slope (H - 1); C_ncost does not grow with H; the weight reads of Eq. (10)-(11)
 * get the whole C_nbw, not C_nbw(H) (one read serves the H threads, which share the weights in
 * memory, Sec. 4.2.1); a layer replicated differently from
 * its predecessor finds 1/R(l-1) of its samples' activations on its worker; the weight read
 * uses Eq. (11) (best case) unless worstCaseReads is set.
 */
class YanPerformanceModel
{
  public:
    /// One layer of the network (forward order).
    struct Layer
    {
        std::string name;      //!< for output
        double neurons{0};     //!< N(l), neurons (activations) of the layer
        double connections{0}; //!< W(l), connections from layer l-1 into the layer
        double weights{0};     //!< weights (parameters) of the layer, read from the servers
        bool local{false};     //!< true: local (convolution) connectivity, false: full
        double halo{0};        //!< local: fraction of layer l-1 needed beyond each stripe edge
    };

    /// The machines (all alike) and the training run.
    struct Hardware
    {
        double mulAdd{1e-9};        //!< C_muladd, s per multiply-add
        double activation{1e-8};    //!< C_act, s per activation function
        double error{1e-8};         //!< C_err, s per error term
        double latency{0};          //!< C_ncost, s per message
        double bandwidth{1.25e9};   //!< C_nbw, bytes/s of a NIC
        double bitsPerValue{32};    //!< C_bits, bits of an activation, error term or weight
        double interference{0};     //!< slope of C_interf(H) = 1 + slope (H - 1)
        uint32_t cores{16};         //!< K of constraint C2: threads per machine at most
        double samples{1};          //!< N_sample, samples in an epoch
        double readInterval{1};     //!< N_read, samples a replica trains between weight reads
        bool worstCaseReads{false}; //!< Eq. (10) instead of Eq. (11) for the weight reads
    };

    /// A configuration Phi of Sec. 5.1 (one entry per layer in partitions and replication).
    struct Config
    {
        uint32_t servers{1};               //!< N_ps
        uint32_t replicas{1};              //!< N_mr
        uint32_t workersPerReplica{1};     //!< N_wr
        uint32_t threads{1};               //!< H, threads per worker (every layer)
        std::vector<uint32_t> partitions;  //!< P(l)
        std::vector<uint32_t> replication; //!< R(l)
    };

    /// The time of one layer, split as in Fig. 11 and Fig. 14 (s per epoch).
    struct LayerTime
    {
        double compute{0};     //!< (U_f + U_b + U_w) N_sample / Q(l)
        double activations{0}; //!< (M_f + M_b) N_sample / Q(l)
        double weights{0};     //!< this layer's part of M_w N_sample / N_read
        /// \return the sum
        double Total() const;
    };

    /**
     * \param layers the network, forward order
     * \param hardware the machines
     * \throws TrainingInputError for no layer, a negative size, halo outside [0, 1], a time that
     *         is negative, a bandwidth, bit width, epoch or read interval that is not positive
     */
    YanPerformanceModel(std::vector<Layer> layers, const Hardware& hardware);

    /** \return Eq. (5): U_f of one segment of layer l in p stripes (s per sample) */
    double Eq5(std::size_t l, uint32_t p) const;
    /** \return Eq. (6): M_f for a segment receiving `remote` activations (s per sample) */
    double Eq6(double remote, uint32_t threads) const;
    /** \return Eq. (7): U_b of one segment of layer l in p stripes (s per sample) */
    double Eq7(std::size_t l, uint32_t p) const;
    /** \return Eq. (8): U_w of one segment of layer l in p stripes (s per sample) */
    double Eq8(std::size_t l, uint32_t p) const;
    /** \return Eq. (9): C_interf(H), the factor on every computation time */
    double Eq9(uint32_t threads) const;

    /// Remote activations and error terms between two neighbouring layers after the mapping.
    struct Exchange
    {
        double activations{0}; //!< A(l,p): the most any segment of layer l receives
        double errors{0};      //!< E(l-1,q): the most any segment of layer l-1 receives
    };

    /**
     * \brief The greedy segment-to-worker mapping of Sec. 5.3 between layer l-1 and layer l.
     * \param l the layer (>= 1)
     * \param pPrev P(l-1) \param rPrev R(l-1) \param p P(l) \param r R(l)
     * \return the most remote activations (forward) and error terms (backward) of a segment
     */
    Exchange Map(std::size_t l, uint32_t pPrev, uint32_t rPrev, uint32_t p, uint32_t r) const;

    /**
     * \param c a configuration (its per-layer vectors as long as the network)
     * \return the epoch time of each layer, split in parts (Sec. 4.2.3)
     * \throws TrainingInputError if the configuration breaks C2 or C3 or does not fit the network
     */
    std::vector<LayerTime> EpochBreakdown(const Config& c) const;

    /** \param c a configuration \return the epoch time (s), the sum of EpochBreakdown() */
    double EpochTime(const Config& c) const;

    /**
     * \brief The per-layer choices of Sec. 5.3: dynamic programming over the layers, state
     * (P(l), R(l)), with the greedy mapping between neighbours.
     * \param c the configuration whose N_ps, N_mr, N_wr and H are kept
     * \return c with the partitions and replications that minimise EpochTime()
     */
    Config OptimiseLayers(Config c) const;

    /// One point of Fig. 15: a configuration and its epoch time.
    struct Candidate
    {
        Config config;   //!< N_ps, N_mr, N_wr, H and the layers OptimiseLayers() chose
        double epoch{0}; //!< EpochTime(config), s
    };

    /**
     * \brief The search of Sec. 5.3 behind Fig. 15: every (N_ps, N_mr, N_wr) with
     * N_ps + N_mr N_wr <= N (at least one server and one replica), each with its layers
     * chosen by OptimiseLayers().
     * \param machines N
     * \param maxWorkersPerReplica N_wr at most
     * \param threads H of every configuration
     * \return the candidates, N_wr, then N_mr, then N_ps ascending
     */
    std::vector<Candidate> Search(uint32_t machines,
                                  uint32_t maxWorkersPerReplica,
                                  uint32_t threads) const;

    /// \return the layers
    const std::vector<Layer>& GetLayers() const;

  private:
    /// \return the number of Nwr-feasible (P, R) pairs as a list
    std::vector<std::pair<uint32_t, uint32_t>> LayerChoices(uint32_t workersPerReplica) const;
    /**
     * \return the compute and weight-read time of layer l with (p, r) alone (s per epoch);
     * activations is 0 (the exchanges with the neighbours are added by the caller)
     */
    LayerTime OwnTime(std::size_t l, uint32_t p, uint32_t r, const Config& c) const;
    /// \return the epoch times of exchange e between l-1 (R = rPrev) and l (R = r): forward
    /// (layer l's M_f) and backward (layer l-1's M_b)
    std::pair<double, double> ExchangeTime(const Exchange& e,
                                           uint32_t rPrev,
                                           uint32_t r,
                                           const Config& c) const;
    /// \throws TrainingInputError if c's counts break C1-C3 for this network
    void CheckConfig(const Config& c) const;

    std::vector<Layer> m_layers; //!< the network
    Hardware m_hw;               //!< the machines
};

} // namespace ns3

#endif /* YAN_PERFORMANCE_MODEL_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ASYNC_PS_MODEL_H
#define ASYNC_PS_MODEL_H

#include "mva-solver.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Coarse-grained model of asynchronous SGD with a parameter server:
 * 000_466ded720105ddf3.txt Sec. 2.1, Fig. 5 and Eq. (1)-(6).
 *
 * Each worker k has one task circulating worker -> uplink -> server -> downlink -> worker. The
 * worker station is a delay station with service S_k^W = S_k^F + S_k^B (heterogeneous workers
 * have their own S_k^F, S_k^B); uplink and downlink are FCFS (Eq. (2)) or PS (Eq. (1)); the
 * server is always PS. S_k^D = S_k^U = M / B (Sec. 2.1.2) and S_k^S are the same for all
 * workers. The stations are solved by MvaSolver (exact, or Schweitzer-Bard above a lattice
 * size).
 *
 * - Solve(FCFS) is Eq. (3), Solve(PS) is Eq. (4): job throughput sum_k 1 / sum_l T_k^l in
 *   steps per second.
 * - Hybrid() is Eq. (5): the FCFS solution if the FCFS network utilisation rho^FCFS is at most
 *   rho_T, else the PS solution. rho^FCFS is the utilisation of the busier link station
 *   (uplink or downlink; equal when S^D = S^U) in the FCFS solution.
 * - HybridOverlap() is Eq. (6): solve Eq. (5), replace S_k^W by max(0, S_k^F - T_k^D) +
 *   max(0, S_k^B - T_k^U) and solve again **with the discipline Eq. (5) chose** (the seed does
 *   not say whether rho^FCFS is re-tested; keeping the discipline guarantees that the
 *   correction never lowers the prediction).
 *
 * Two optional extensions are zero in the seed's model and change nothing then:
 * - workerOverhead: a per-step time that cannot overlap communication (intra-node reduction
 *   and broadcast on multi-GPU nodes, 000 Sec. 4.4), added to the worker station after the
 *   correction of Eq. (6);
 * - transferExtra: time a transfer takes beyond its share of the link (a per-flow rate cap
 *   below the link rate: the link serves M/B_link, the flow needs M/B_flow). It is a delay
 *   station visited once per direction, and it is counted in T_k^D and T_k^U for Eq. (6).
 */
class AsyncPsModel
{
  public:
    /// The model's inputs (seconds).
    struct Params
    {
        std::vector<double> forward;  //!< S_k^F of each worker
        std::vector<double> backward; //!< S_k^B of each worker
        double downlink{0};           //!< S^D = M / B (queueing part)
        double uplink{0};             //!< S^U = M / B (queueing part)
        double server{0};             //!< S^S, the server's update time of one step
        double workerOverhead{0};     //!< per-step non-overlappable time (0 in the seed)
        double transferExtra{0};      //!< per-transfer delay beyond the link share (0 in seed)
    };

    /// How MvaSolver is run.
    struct SolverOptions
    {
        /// Which MVA: AUTO (exact up to maxExactStates populations), EXACT or APPROXIMATE.
        enum Choice
        {
            AUTO,        //!< exact while the lattice is small enough, else approximate
            EXACT,       //!< exact; TrainingInputError above maxExactStates
            APPROXIMATE, //!< Schweitzer-Bard
        };

        Choice choice{AUTO};            //!< which MVA
        uint64_t maxExactStates{65536}; //!< exact MVA up to this many populations
        double tolerance{1e-10};        //!< approximate MVA convergence (relative)
        uint32_t maxIterations{100000}; //!< approximate MVA iteration limit
    };

    /// One solution of the network.
    struct Prediction
    {
        double throughput{0}; //!< steps per second, all workers (Eq. (3)/(4))
        MvaSolver::Discipline link{MvaSolver::FCFS}; //!< discipline of the link stations
        MvaSolver::Method method{MvaSolver::EXACT};  //!< how the MVA was solved
        bool converged{true};                    //!< false if the approximation did not converge
        std::size_t states{0};                   //!< populations evaluated (exact)
        uint32_t iterations{0};                  //!< iterations (approximate)
        double rho{0};                           //!< utilisation of the busier link station
        double serverUtilisation{0};             //!< utilisation of the server station
        std::vector<double> perWorkerThroughput; //!< X_k, steps per second
        std::vector<double> workerService;       //!< S_k^W used (after Eq. (6) if corrected)
        std::vector<double> workerTime;          //!< T_k^k
        std::vector<double> uplinkTime;          //!< T_k^U (including transferExtra)
        std::vector<double> serverTime;          //!< T_k^S
        std::vector<double> downlinkTime;        //!< T_k^D (including transferExtra)
        double rhoFcfs{0};      //!< Eq. (5): rho^FCFS that chose the discipline (Hybrid only)
        double rhoThreshold{0}; //!< Eq. (5): rho_T (Hybrid only)
    };

    /**
     * \param params the inputs
     * \param options how to run the MVA
     * \throws TrainingInputError if there is no worker, the vectors differ in length, or a time
     *         is negative or not finite
     */
    AsyncPsModel(const Params& params, const SolverOptions& options);

    /**
     * \brief Eq. (3) (link = FCFS) or Eq. (4) (link = PS) with S_k^W = S_k^F + S_k^B.
     * \param link discipline of the uplink and downlink stations (FCFS or PS)
     * \return the solution
     */
    Prediction Solve(MvaSolver::Discipline link) const;

    /**
     * \brief Eq. (3)/(4) with the given worker service times.
     * \param link FCFS or PS
     * \param workerService S_k^W of each worker (workerOverhead is added to it)
     * \return the solution
     */
    Prediction Solve(MvaSolver::Discipline link, const std::vector<double>& workerService) const;

    /**
     * \brief Eq. (5).
     * \param rhoThreshold rho_T in [0, 1]
     * \return the FCFS solution if rho^FCFS <= rho_T, else the PS solution
     * \throws TrainingInputError if rho_T is outside [0, 1]
     */
    Prediction Hybrid(double rhoThreshold) const;

    /**
     * \brief Eq. (5) on solutions already computed.
     * \param fcfs the solution of Solve(FCFS)
     * \param ps the solution of Solve(PS)
     * \param rhoThreshold rho_T in [0, 1]
     * \return fcfs if its link utilisation is at most rho_T, else ps (with rhoFcfs and
     *         rhoThreshold set)
     * \throws TrainingInputError if rho_T is outside [0, 1]
     */
    static Prediction Choose(const Prediction& fcfs, const Prediction& ps, double rhoThreshold);

    /**
     * \brief Eq. (6) applied to a solution: S_k^W = max(0, S_k^F - T_k^D) +
     * max(0, S_k^B - T_k^U), solved again with the same link discipline.
     * \param base a solution from Solve() or Hybrid()
     * \return the corrected solution
     */
    Prediction CorrectOverlap(const Prediction& base) const;

    /**
     * \brief Eq. (5) then Eq. (6).
     * \param rhoThreshold rho_T in [0, 1]
     * \return the corrected hybrid solution
     */
    Prediction HybridOverlap(double rhoThreshold) const;

    /**
     * \param rhoThreshold a threshold
     * \throws TrainingInputError unless 0 <= rhoThreshold <= 1
     */
    static void CheckRhoThreshold(double rhoThreshold);

    /// The stations of SeedNetwork(), by index.
    enum SeedStation : std::size_t
    {
        WORKER = 0,   //!< the workers' compute (delay station)
        UPLINK = 1,   //!< worker -> server transfers
        SERVER = 2,   //!< the server's update (PS station)
        DOWNLINK = 3, //!< server -> worker transfers
    };

    /**
     * \brief The queueing network of 000 Fig. 5 without its customers: the workers (delay),
     * the uplink, the server (PS) and the downlink.
     * \param link the link stations' discipline (FCFS or PS)
     * \return the network (add the worker classes)
     */
    static MvaSolver SeedNetwork(MvaSolver::Discipline link);

    /** \return the inputs */
    const Params& GetParams() const;

  private:
    Params m_params;         //!< inputs
    SolverOptions m_options; //!< solver options
};

} // namespace ns3

#endif /* ASYNC_PS_MODEL_H */

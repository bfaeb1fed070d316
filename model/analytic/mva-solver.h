/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MVA_SOLVER_H
#define MVA_SOLVER_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Mean value analysis of a closed multi-class queueing network in which every customer
 * (one task per worker) visits every station once per cycle: the solver behind the coarse
 * Async-SGD model of 000_466ded720105ddf3.txt Sec. 2.1 (Fig. 5, Eq. (1)-(4)).
 *
 * Stations are of three kinds:
 * - DELAY (the dedicated worker station of Fig. 5, a G/G/infinity queue): T_k = S_k;
 * - PS (processor sharing), Eq. (1): T_k(n) = S_k (1 + sum_j N_j(n - e_k));
 * - FCFS, Eq. (2): T_k(n) = S_k + sum_j S_j (N_j(n - e_k) - rho_j(n - e_k) / 2), i.e. a
 *   customer waits for the full service of those queued ahead and for half the service of the
 *   one in service (the residual of a deterministic service time).
 *
 * with Little's law N_k = X_k T_k, rho_k = X_k S_k and X_k = n_k / sum_l T_k^l.
 *
 * A class is a group of m identical customers (same service time at every station). The seed
 * writes the recursion over populations in {0,1}^K, one customer per class; customers with
 * identical service times are interchangeable, so grouping them into one class of multiplicity
 * m gives exactly the same numbers over the smaller lattice prod_g (m_g + 1). With K distinct
 * workers the lattice is the seed's {0,1}^K (2^K populations).
 *
 * SolveExact() runs the recursion over the whole lattice (cost: states x classes x stations,
 * memory: states x stations doubles). SolveApproximate() is the Schweitzer-Bard approximation
 * (000 cites it as "approximate MVA"): it replaces N_j(n - e_k) by N_j(n) for j != k and by
 * (n_k - 1)/n_k N_k(n) for j = k (the same for rho), and iterates the fixed point at the full
 * population only (cost per iteration: classes x stations).
 */
class MvaSolver
{
  public:
    /// Scheduling discipline of a station.
    enum Discipline
    {
        DELAY, //!< infinite server: no queueing (the worker's own compute station)
        FCFS,  //!< first come first served, 000 Eq. (2)
        PS,    //!< processor sharing, 000 Eq. (1)
    };

    /// How a solution was obtained.
    enum Method
    {
        EXACT,       //!< recursion over every population of the lattice
        APPROXIMATE, //!< Schweitzer-Bard fixed point at the full population
    };

    /// The solution at the full population.
    struct Solution
    {
        Method method{EXACT}; //!< how it was obtained
        double throughput{0}; //!< total customer cycles per second (sum over customers)
        std::vector<double> perCustomerThroughput;     //!< X_g of one customer of class g
        std::vector<std::vector<double>> responseTime; //!< T_g^l: [class][station], seconds
        std::vector<double> queueLength;               //!< sum_g N_g^l: [station]
        std::vector<double> utilisation;               //!< sum_g rho_g^l: [station]
        std::size_t states{0};                         //!< populations evaluated (exact)
        uint32_t iterations{0};                        //!< fixed-point iterations (approx.)
        bool converged{true}; //!< false if the approximation hit its iteration limit
    };

    MvaSolver();

    /**
     * \brief Add a station.
     * \param name name used in results and messages
     * \param discipline its scheduling discipline
     * \return its index
     */
    std::size_t AddStation(const std::string& name, Discipline discipline);

    /**
     * \brief Add a class of identical customers.
     * \param serviceTimes mean service time (seconds) at each station, in station order
     * \param multiplicity number of customers in the class (>= 1)
     * \return its index
     * \throws TrainingInputError if a time is negative or not finite, the count of times is not
     *         the number of stations, the multiplicity is 0, or all times are zero
     */
    std::size_t AddClass(const std::vector<double>& serviceTimes, uint32_t multiplicity = 1);

    /** \return the number of stations */
    std::size_t GetNStations() const;
    /** \return the number of classes */
    std::size_t GetNClasses() const;
    /** \return the number of customers (sum of multiplicities) */
    uint64_t GetNCustomers() const;
    /**
     * \param station station index
     * \return its name
     */
    const std::string& GetStationName(std::size_t station) const;

    /**
     * \return the number of populations of the exact recursion, prod_g (m_g + 1), saturated at
     *         the largest uint64_t
     */
    uint64_t GetExactStateCount() const;

    /**
     * \brief Exact MVA over every population of the lattice.
     * \param maxStates refuse larger lattices (memory and time grow with the state count)
     * \return the solution at the full population
     * \throws TrainingInputError if there is no class or the lattice exceeds maxStates
     */
    Solution SolveExact(uint64_t maxStates) const;

    /**
     * \brief Schweitzer-Bard approximate MVA.
     * \param tolerance stop when no per-customer throughput changes by more than this fraction
     * \param maxIterations stop after this many iterations (Solution::converged is then false)
     * \return the solution at the full population
     * \throws TrainingInputError if there is no class or tolerance is not positive
     */
    Solution SolveApproximate(double tolerance, uint32_t maxIterations) const;

    /**
     * \brief Exact when the lattice has at most maxExactStates populations, else approximate.
     * \param maxExactStates the switch point
     * \param tolerance see SolveApproximate()
     * \param maxIterations see SolveApproximate()
     * \return the solution
     */
    Solution Solve(uint64_t maxExactStates, double tolerance, uint32_t maxIterations) const;

  private:
    /// A class of identical customers.
    struct Class
    {
        std::vector<double> service; //!< service time per station (s)
        uint32_t multiplicity;       //!< number of customers
    };

    /// Throws if the network cannot be solved.
    void CheckSolvable() const;

    /**
     * \brief One customer of class g around the network: its residence time at each station
     * (000 Eqs. (1)/(2)) given the aggregate A^l seen on arrival.
     * \param g the class
     * \param without A^l of the population without that customer, by station
     * \param response set to T_g^l, by station
     * \return the cycle time sum_l T_g^l
     */
    template<typename F>
    double CycleTime(std::size_t g, F without, std::vector<double>& response) const;

    /// Fill the solution's totals from its per-customer throughputs and response times.
    void FillTotals(Solution& sol) const;

    /**
     * The exact solver's population lattice in mixed radix (class g with stride[g]); only
     * queueing stations keep an aggregate A^l, at queueIndex[l] of nQueues per population.
     */
    struct ExactLattice
    {
        std::vector<std::size_t> queueIndex; //!< per station: its slot among the queues
        std::size_t nQueues{0};              //!< queueing (non-delay) stations
        std::vector<uint64_t> stride;        //!< per class: lattice stride
    };

    /// \return the lattice of this network's populations
    ExactLattice MakeExactLattice() const;

    /**
     * \brief One step of the exact recursion (000 Eqs. (1)/(2)): every class of the population
     * `count` (lattice index idx) from the populations without one of its customers.
     * \param count customers per class
     * \param idx the population's lattice index
     * \param lattice the lattice
     * \param aggregate A^l per population and queue; this population's row is filled
     * \param sol per-customer throughputs and response times, set for this population
     */
    void SolvePopulation(const std::vector<uint32_t>& count,
                         uint64_t idx,
                         const ExactLattice& lattice,
                         std::vector<double>& aggregate,
                         Solution& sol) const;

    std::vector<std::string> m_stations; //!< station names in index order
    /// Station disciplines in index order (contiguous: the solvers' hot loops read them).
    std::vector<Discipline> m_disciplines;
    std::vector<Class> m_classes; //!< classes in index order
};

} // namespace ns3

#endif /* MVA_SOLVER_H */

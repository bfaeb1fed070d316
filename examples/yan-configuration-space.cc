/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * 002_a4ba19759bbbfe64.txt Fig. 14 and Fig. 15 in shape, with YanPerformanceModel:
 * - Fig. 14: the output layer of the ImageNet-22K network partitioned over the 4 workers of a
 *   replica or replicated on them, its epoch time split into computation, activation and weight
 *   communication; and the read interval N_read where the choice flips;
 * - Fig. 15: the epoch time of every configuration (N_ps, N_mr, N_wr) on N machines, each with
 *   its per-layer partitions and replications chosen by the dynamic programme of Sec. 5.3.
 *
 *   ./build/bin/yan-configuration-space [--machines=20] [--maxWorkersPerReplica=4]
 *       [--profile=traces/resnet50-cpu-b8.json [--calibrate]] [--top=5]
 *       [--output=yan] (writes yan-fig14.csv, yan-fig15.csv and their gnuplot scripts)
 *
 * With --profile the network is an annotated profile's (YanProfileNetwork: output elements
 * as neurons, multiply-adds as connections); --calibrate replaces C_muladd by the constant
 * fitted to the profile's own forward and backward time, shared by the H threads.
 *
 * The network and machine parameters are the paper's where it gives them (Sec. 6.1: 20
 * machines, 16 cores and 16 threads, 268.8 GFLOP/s, one 10 Gb/s NIC; ImageNet-22K: 5
 * convolution layers, 2 fully connected, a 22000-way output, about 2 billion connections;
 * Sec. 6.2: weights read every 70 images); the layer sizes and the per-operation costs are
 * this program's (defaults below), so the absolute epoch times are not the paper's.
 */

#include "ns3/core-module.h"
#include "ns3/distributed-training-module.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <vector>

using namespace ns3;

namespace
{

/// The program's options.
struct Options
{
    uint32_t machines = 0;             //!< N
    uint32_t maxWorkersPerReplica = 4; //!< N_wr at most (Sec. 6.2: model parallelism <= 4)
    uint32_t threads = 16;             //!< H (Sec. 6.1: 16 training threads per server)
    double readInterval = 70;          //!< N_read (Sec. 6.2)
    double samples = 0;                //!< N_sample
    double mulAddNs = 0.5;             //!< C_muladd in ns (about 1/4 of the SIMD peak per core)
    double latencyUs = 100;            //!< C_ncost in us
    double nicGbps = 10;               //!< C_nbw in Gb/s
    double interference = 0.02;        //!< slope of C_interf(H)
    bool worstCase = false;            //!< Eq. (10) instead of Eq. (11)
    std::string output = "yan";        //!< file prefix
    std::string profile;               //!< annotated profile ("" = the ImageNet-22K network)
    bool calibrate = false;            //!< C_muladd fitted to the profile
    uint32_t top = 5;                  //!< best configurations printed
};

/// \return the options of the command line (throws TrainingInputError)
Options
ParseOptions(int argc, char* argv[])
{
    Options o;
    RunRequest table; // the option table's entries it reads: --machines and --samples
    ProgramOptions cmd("002 Fig. 14 and Fig. 15 in shape: the Yan et al. performance model.");
    // N >= 2: one parameter server and one replica at least (Fig. 15's x axis).
    ScenarioOptions::Bind(cmd,
                          table,
                          OptionScope::PROGRAM,
                          {"machines"},
                          {{"machines", "20"}},
                          {{"machines", ScenarioOptions::Narrowing::Range(2, 256)}});
    cmd.Add("maxWorkersPerReplica", "N_wr at most", o.maxWorkersPerReplica, 1, 64);
    cmd.Add("threads", "H, threads per worker (at most 16 cores)", o.threads, 1, 16);
    cmd.Add("readInterval", "N_read, samples between weight reads", o.readInterval, 1, 1e9);
    ScenarioOptions::Bind(cmd, table, OptionScope::PROGRAM, {"samples"}, {{"samples", "100000"}});
    // No default profile: without one the network is the paper's ImageNet-22K.
    ScenarioOptions::Bind(cmd, table, OptionScope::JOB, {"profile"}, {{"profile", ""}});
    cmd.Add("calibrate",
            "with --profile: C_muladd fitted to the profile's forward+backward time (the "
            "profiled device shared by the H threads), C_act = C_err = 0",
            o.calibrate);
    cmd.Add("top", "best configurations printed with their per-layer stripes", o.top, 1, 1000);
    cmd.Add("mulAddNs", "C_muladd, ns per multiply-add", o.mulAddNs, 1e-6, 1e6);
    cmd.Add("latencyUs", "C_ncost, us per message", o.latencyUs, 0, 1e9);
    cmd.Add("nicGbps", "C_nbw, Gb/s per NIC", o.nicGbps, 1e-3, 1e6);
    cmd.Add("interference", "slope of C_interf(H) = 1 + slope (H - 1)", o.interference, 0, 10);
    cmd.Add("worstCase", "Eq. (10) (all replicas read one server) instead of (11)", o.worstCase);
    cmd.Add("output", "prefix of the CSV files and gnuplot scripts", o.output);
    cmd.Parse(argc, argv);
    o.machines = table.program.machines;
    o.samples = table.program.samples;
    o.profile = table.profile;
    if (o.calibrate && o.profile.empty())
    {
        throw TrainingInputError("--calibrate: no --profile given (expected a profile to fit "
                                 "C_muladd to)");
    }
    return o;
}

/// \return a convolution layer: out x out x channels neurons with a k x k x in window
YanPerformanceModel::Layer
Conv(const std::string& name, double out, double channels, double k, double in, double inSide)
{
    const double neurons = out * out * channels;
    // Stripes of the input side: a window reaches (k - 1) / 2 rows beyond the stripe.
    return {name, neurons, neurons * k * k * in, k * k * in * channels, true, (k - 1) / 2 / inSide};
}

/// \return a fully connected layer of n neurons over `in` inputs
YanPerformanceModel::Layer
Full(const std::string& name, double n, double in)
{
    return {name, n, n * in, n * in, false, 0};
}

/// \return this program's reading of the ImageNet-22K network (Sec. 6.1), 2.26e9 connections
std::vector<YanPerformanceModel::Layer>
ImageNet22k()
{
    return {Conv("conv1", 62, 96, 11, 3, 256),
            Conv("conv2", 30, 256, 5, 96, 62),
            Conv("conv3", 16, 384, 3, 256, 30),
            Conv("conv4", 16, 384, 3, 384, 16),
            Conv("conv5", 16, 256, 3, 384, 16),
            Full("fc6", 8192, 16 * 16 * 256),
            Full("fc7", 8192, 8192),
            Full("output", 22000, 8192)};
}

/// \return the network: the profile's, or the paper's ImageNet-22K
std::vector<YanPerformanceModel::Layer>
Network(const Options& o)
{
    return o.profile.empty() ? ImageNet22k()
                             : YanProfileNetwork::Layers(TrainingProfile::LoadFromFile(o.profile));
}

/// \return the machines of Sec. 6.1 with the options' costs
YanPerformanceModel::Hardware
Machines(const Options& o)
{
    YanPerformanceModel::Hardware hw;
    hw.mulAdd = o.mulAddNs * 1e-9;
    hw.activation = 10 * hw.mulAdd;
    hw.error = 10 * hw.mulAdd;
    if (o.calibrate)
    {
        // The fit covers the whole step, activation functions and error terms included;
        // each of the H threads gets 1/H of the profiled device.
        hw.mulAdd
            = YanProfileNetwork::FittedMulAdd(TrainingProfile::LoadFromFile(o.profile)) * o.threads;
        hw.activation = 0;
        hw.error = 0;
    }
    hw.latency = o.latencyUs * 1e-6;
    hw.bandwidth = o.nicGbps * 1e9 / 8;
    hw.interference = o.interference;
    hw.samples = o.samples;
    hw.readInterval = o.readInterval;
    hw.worstCaseReads = o.worstCase;
    return hw;
}

/// \return a configuration with every layer in p stripes, the output layer as given
YanPerformanceModel::Config
Fig14Config(const Options& o, std::size_t layers, uint32_t outP, uint32_t outR)
{
    YanPerformanceModel::Config c;
    c.servers = 4; // Table 1's best ImageNet-22K configuration: 4 workers, 4 replicas, 4 PS
    c.replicas = 4;
    c.workersPerReplica = 4;
    c.threads = o.threads;
    c.partitions.assign(layers, 4);
    c.replication.assign(layers, 1);
    c.partitions.back() = outP;
    c.replication.back() = outR;
    return c;
}

/// Fig. 14: the output layer partitioned against replicated; the N_read sweep.
void
Fig14(const Options& o)
{
    const std::string csv = o.output + "-fig14.csv";
    std::ofstream f(csv);
    f << "# 002 Fig. 14: output layer, 4 workers per replica, s per epoch\n";
    f << "design,compute_s,activations_s,weights_s,total_s\n";
    const YanPerformanceModel m(Network(o), Machines(o));
    const std::size_t last = m.GetLayers().size() - 1;
    std::printf("Fig. 14 (output layer, N_read = %g): design, compute, activations, weights, "
                "total (s per epoch)\n",
                o.readInterval);
    for (const auto& [name, p, r] :
         {std::make_tuple("partitioned", 4u, 1u), std::make_tuple("replicated", 1u, 4u)})
    {
        const auto t = m.EpochBreakdown(Fig14Config(o, last + 1, p, r))[last];
        f << name << "," << t.compute << "," << t.activations << "," << t.weights << ","
          << t.Total() << "\n";
        std::printf("  %-12s %10.1f %10.1f %10.1f %10.1f\n",
                    name,
                    t.compute,
                    t.activations,
                    t.weights,
                    t.Total());
    }
    f << "\n\n# N_read sweep: read_interval,partitioned_s,replicated_s\n";
    double crossover = 0;
    for (double n = 10; n <= 1e6; n *= 1.5)
    {
        Options sweep = o;
        sweep.readInterval = n;
        const YanPerformanceModel s(Network(o), Machines(sweep));
        const double part = s.EpochBreakdown(Fig14Config(o, last + 1, 4, 1))[last].Total();
        const double repl = s.EpochBreakdown(Fig14Config(o, last + 1, 1, 4))[last].Total();
        f << n << "," << part << "," << repl << "\n";
        crossover = crossover == 0 && repl < part ? n : crossover;
    }
    crossover > 0 ? std::printf("  replication wins from N_read = %.0f\n", crossover)
                  : std::printf("  replication never wins for N_read <= 1e6\n");
    std::ofstream gp(csv + ".gp");
    gp << "set terminal pngcairo size 1000,420\nset output '" << o.output << "-fig14.png'\n"
       << "set datafile separator ','\nset multiplot layout 1,2\n"
       << "set style data histograms\nset style histogram rowstacked\nset style fill solid "
          "border -1\nset ylabel 'output layer, s per epoch'\nset key top left\n"
       << "plot '" << csv
       << "' index 0 every ::1 using 2:xtic(1) title 'compute', '' index 0 every ::1 using 3 "
       << "title 'activations', '' index 0 every ::1 using 4 title 'weights'\n"
       << "set style data lines\nset logscale x\nset xlabel 'N_{read} (samples between reads)'\n"
       << "plot '" << csv << "' index 1 using 1:2 title 'partitioned' lw 2, '' index 1 using "
       << "1:3 title 'replicated' lw 2\nunset multiplot\n";
}

/// \return "first..last (n layers) PxR | ..." for the runs of layers with equal (P(l), R(l))
std::string
Stripes(const YanPerformanceModel::Config& c, const std::vector<YanPerformanceModel::Layer>& net)
{
    std::string out;
    for (std::size_t a = 0, b = 0; a < net.size(); a = b)
    {
        for (b = a; b < net.size() && c.partitions[b] == c.partitions[a]
                    && c.replication[b] == c.replication[a];
             ++b)
        {
        }
        out += (a ? " | " : "") + net[a].name;
        out += b - a > 1 ? ".." + net[b - 1].name + " (" + std::to_string(b - a) + ")" : "";
        out += " " + std::to_string(c.partitions[a]) + "x" + std::to_string(c.replication[a]);
    }
    return out;
}

/// Print the best configurations, with the share of the work in partitioned layers.
void
PrintBest(const Options& o,
          std::vector<YanPerformanceModel::Candidate> all,
          const std::vector<YanPerformanceModel::Layer>& net)
{
    std::stable_sort(all.begin(),
                     all.end(),
                     [](const auto& a, const auto& b)
                     {
                         return a.epoch < b.epoch;
                     });
    std::printf("Best %u: <N_wr, N_mr, N_ps>, epoch, partitioned layers (their share of the "
                "multiply-adds), stripes P x R per run of layers\n",
                std::min<uint32_t>(o.top, all.size()));
    double total = 0;
    for (const auto& l : net)
    {
        total += l.connections;
    }
    for (std::size_t i = 0; i < all.size() && i < o.top; ++i)
    {
        const YanPerformanceModel::Config& c = all[i].config;
        double split = 0;
        long count = 0;
        for (std::size_t l = 0; l < net.size(); ++l)
        {
            split += c.partitions[l] > 1 ? net[l].connections : 0;
            count += c.partitions[l] > 1;
        }
        std::printf("  <%u, %u, %u> %.2f min, %ld of %zu layers partitioned (%.0f%%): %s\n",
                    c.workersPerReplica,
                    c.replicas,
                    c.servers,
                    all[i].epoch / 60,
                    count,
                    net.size(),
                    total > 0 ? 100 * split / total : 0,
                    Stripes(c, net).c_str());
    }
}

/// Fig. 15: every (N_ps, N_mr, N_wr) with N_ps + N_mr N_wr <= N, layers chosen by the DP.
void
Fig15(const Options& o)
{
    const YanPerformanceModel m(Network(o), Machines(o));
    const std::string csv = o.output + "-fig15.csv";
    std::ofstream f(csv);
    f << "servers,replicas,workers_per_replica,machines,epoch_min,partitions,replication\n";
    std::vector<double> times;
    const auto all = m.Search(o.machines, o.maxWorkersPerReplica, o.threads);
    for (const auto& [c, epoch] : all)
    {
        const double minutes = epoch / 60;
        times.push_back(minutes);
        std::string parts;
        std::string reps;
        for (std::size_t l = 0; l < c.partitions.size(); ++l)
        {
            parts += (l ? " " : "") + std::to_string(c.partitions[l]);
            reps += (l ? " " : "") + std::to_string(c.replication[l]);
        }
        f << c.servers << "," << c.replicas << "," << c.workersPerReplica << ","
          << c.servers + c.replicas * c.workersPerReplica << "," << minutes << "," << parts << ","
          << reps << "\n";
    }
    std::sort(times.begin(), times.end());
    const auto near = std::count_if(times.begin(),
                                    times.end(),
                                    [&](double t)
                                    {
                                        return t <= 1.1 * times.front();
                                    });
    std::printf("Fig. 15: %zu configurations on %u machines: best %.2f min, worst %.2f min "
                "(%.1fx; the paper: 11.88 and 218.08, 18.4x); %ld within 10%% of the best\n",
                times.size(),
                o.machines,
                times.front(),
                times.back(),
                times.back() / times.front(),
                long(near));
    PrintBest(o, all, m.GetLayers());
    std::ofstream gp(csv + ".gp");
    gp << "set terminal pngcairo size 900,700\nset output '" << o.output << "-fig15.png'\n"
       << "set datafile separator ','\nset xlabel 'parameter servers'\nset ylabel 'replicas'\n"
       << "set zlabel 'workers per replica' rotate\nset cblabel 'epoch (min)'\n"
       << "set logscale cb\nset palette rgbformulae 33,13,10\nset view 60,40\n"
       // The point's size grows with its epoch time, as the paper's range classes do.
       << "splot '" << csv << "' every ::1 using 1:2:3:(0.6+log10($5)):5 with points pt 7 "
       << "ps variable palette notitle\n";
}

} // namespace

int
main(int argc, char* argv[])
{
    return ProgramOptions::Run(
        [&]()
        {
            const Options o = ParseOptions(argc, argv);
            Fig14(o);
            Fig15(o);
            std::printf("wrote %s-fig14.csv, %s-fig15.csv and their .gp scripts\n",
                        o.output.c_str(),
                        o.output.c_str());
        });
}

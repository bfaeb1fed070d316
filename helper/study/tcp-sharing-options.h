/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_SHARING_OPTIONS_H
#define TCP_SHARING_OPTIONS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The options of the tcp-sharing-study program (N TCP flows through one bottleneck),
 * and what TcpSharingStudy::Prepare() derives from them.
 *
 * The options are a strict table: every value is checked by the driver's parsers
 * (ScenarioOptions, TrainingScenario) and a bad one ends the program with a message naming the
 * option (TrainingInputError).
 */
struct TcpSharingOptions
{
    uint32_t flows{2};            //!< --flows
    uint64_t size{0};             //!< --size: bytes per flow (0: --sizeBdp)
    double sizeBdp{10};           //!< --sizeBdp
    DataRate rate{"10Gbps"};      //!< --rate: every link's rate
    DataRate cap{0};              //!< --cap: per-flow pacing cap (0: none)
    Time delay{MicroSeconds(10)}; //!< --delay: one-way delay per link
    std::string tcp{"TcpCubic"};  //!< --tcp: congestion control
    std::string queue{"1000p"};   //!< --queue: bottleneck queue size
    std::string hostQueue;        //!< --hostQueue: the sending NICs' queue ("": --queue)
    uint32_t mtu{1500};           //!< --mtu
    Time stagger{0};              //!< --stagger
    Time startJitter{0};          //!< --startJitter
    Time sample{0};               //!< --sample (0: RTT/4)
    bool baseline{true};          //!< --baseline
    Time maxSimTime{0};           //!< --maxSimTime (0: automatic)
    std::string csv;              //!< --csv
    std::string timeseries;       //!< --timeseries
    std::string flowTimes;        //!< --flowTimes
    std::string stack{"ns3"};     //!< --stack: ns3 or linux
    double dilation{1};           //!< --dilation (linux)
    uint32_t seed{1};             //!< --seed: run number of the random streams
    bool sharedQueue{false};      //!< --sharedQueue: every flow from one host
    std::string hostModel{"ns3"}; //!< --hostModel
    bool autotuning{false};       //!< --bufferAutotuning
    bool delayedAck{false};       //!< --delayedAck
    bool smallQueues{false};      //!< --tcpSmallQueues
    std::vector<std::pair<std::string, std::string>> sysctls; //!< --linuxSysctl
    std::vector<double> arrivals; //!< start time of each flow, seconds (derived, jitter included)
    std::vector<double> nominal;  //!< i x stagger: the arrivals the models are given

    /**
     * \brief Parse the command line with the option table: defaults first, then the presets
     * (--hostModel), then the other options given.
     * \param argc argument count
     * \param argv arguments
     * \return the options
     * \throws TrainingInputError for an unknown, repeated or malformed option
     */
    static TcpSharingOptions Parse(int argc, char* argv[]);

    /// \return every option with its default and help, as --help prints them
    static std::string FormatHelp();
};

} // namespace ns3

#endif /* TCP_SHARING_OPTIONS_H */

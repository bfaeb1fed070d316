/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_SHARING_OPTIONS_H
#define TCP_SHARING_OPTIONS_H

#include "ns3/scenario-options.h"
#include "ns3/training-scenario.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The options of the tcp-sharing-study program (N TCP flows through one bottleneck),
 * and what TcpSharingStudy::Prepare() derives from them (Parse() gives the table's defaults; a
 * default-constructed value has zeros and TrainingScenario's defaults).
 *
 * The options are entries of the module's one option table (ScenarioOptions): the study's own
 * (OptionScope::STUDY: --flows, --size, ..., and its names --rate, --cap and --delay for the
 * NIC rate, flow cap and link delay) and the driver's it shares (--tcp, --queue, --mtu,
 * --hostModel, ...). Every value is checked by the table's parsers and a bad one ends the
 * program with a message naming the option (TrainingInputError).
 */
struct TcpSharingOptions : StudySettings
{
    /// The star and its TCP: the table's scenario options (nicRate, flowCap, linkDelay, mtu,
    /// tcpVariant, queueSize, hostQueueSize, hostModel and the Linux host settings,
    /// startJitter, seed); the other fields stay at TrainingScenario's defaults.
    TrainingScenario scenario;
    double dilation{1};           //!< --dilation (the driver's entry; 1 when not given)
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

    /**
     * \param request a request parsed with the study's options (Bind)
     * \return the study's view of it
     */
    static TcpSharingOptions FromRequest(const RunRequest& request);

    /// \return every option with its default and help, as --help prints them
    static std::string FormatHelp();
};

} // namespace ns3

#endif /* TCP_SHARING_OPTIONS_H */

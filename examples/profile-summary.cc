/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Load a training profile and print its summary: layers, parameter bytes, forward/backward/update
 * totals and the one-worker step time with no network (forward + backward + update).
 *
 *   ./build/bin/profile-summary --profile=traces/resnet50-cpu-b8.json [--layers]
 */

#include "ns3/distributed-training-module.h"
#include "ns3/program-options.h"

#include <cstdio>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    RunRequest table; // the option table's entries this program reads
    bool listLayers = false;

    ProgramOptions cmd("Print the summary of a distributed-training profile (traces/README.md).");
    ScenarioOptions::BindProfile(cmd, table, "resnet50-cpu-b8.json");
    cmd.Add("layers", "Also list every layer", listLayers);
    TrainingProfile profile;
    try
    {
        cmd.Parse(argc, argv);
        profile = TrainingProfile::LoadFromFile(table.profile);
    }
    catch (const TrainingInputError& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }

    const double fwd = profile.GetForwardTime().GetSeconds();
    const double bwd = profile.GetBackwardTime().GetSeconds();
    const double upd = profile.GetUpdateTime().GetSeconds();
    const double step = fwd + bwd + upd;
    std::printf("profile          %s\n", table.profile.c_str());
    std::printf("model            %s (batch %u, device: %s%s)\n",
                profile.GetModel().c_str(),
                profile.GetBatchSize(),
                profile.GetProvenanceField("device").c_str(),
                profile.IsDerived() ? "; derived, see provenance" : "");
    std::printf("layers           %zu\n", profile.GetNLayers());
    std::printf("parameters       %.3f MB (%llu bytes, %llu float32 values)\n",
                profile.GetTotalParamBytes() / 1e6,
                static_cast<unsigned long long>(profile.GetTotalParamBytes()),
                static_cast<unsigned long long>(profile.GetTotalParamBytes() / 4));
    std::printf("forward          %.3f ms\n", fwd * 1e3);
    std::printf("backward         %.3f ms\n", bwd * 1e3);
    std::printf("update (PS)      %.3f ms\n", upd * 1e3);
    std::printf("recorded steps   %zu\n", profile.GetNSamples());
    std::printf("one-worker step  %.3f ms with no network (forward + backward + update)\n",
                step * 1e3);
    std::printf("                 = %.2f samples/s\n", profile.GetBatchSize() / step);
    if (listLayers)
    {
        std::printf("\n%-4s %-40s %-12s %14s %12s %12s %12s\n",
                    "#",
                    "name",
                    "type",
                    "bytes",
                    "fwd_us",
                    "bwd_us",
                    "upd_us");
        for (std::size_t i = 0; i < profile.GetNLayers(); ++i)
        {
            const auto& l = profile.GetLayer(i);
            std::printf("%-4zu %-40s %-12s %14llu %12.1f %12.1f %12.1f\n",
                        i,
                        l.name.c_str(),
                        l.type.c_str(),
                        static_cast<unsigned long long>(l.paramBytes),
                        l.forwardUs,
                        l.backwardUs,
                        l.updateUs);
        }
    }
    return 0;
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "option-table.h"

#include "ns3/repeated-runs.h"
#include "ns3/sharing-model-registry.h"
#include "ns3/training-backend.h"
#include "ns3/training-input-error.h"
#include "ns3/unit-parser.h"
#include "ns3/vary-options.h"

namespace ns3
{
namespace option_table
{

namespace
{

/**
 * \brief Check backend settings against the attributes they end in, when they are read rather
 * than when a backend is created: every registered backend takes them (Configure) on a scratch
 * instance, so a value an attribute's checker refuses, or a sharing name the flow backend does
 * not know, is a TrainingInputError naming the option even if that backend is not run.
 * \param settings the settings so far
 */
void
CheckSettings(const BackendSettings& settings)
{
    for (const auto& entry : TrainingBackendRegistry::GetEntries())
    {
        TrainingBackendRegistry::Create(entry.name)->Configure(settings);
    }
}

/// Backend choice and the backends' own knobs (typed values, RunRequest::settings).
void
AddBackend(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("backend",
                     OptionScope::BACKEND,
                     "",
                     "packet",
                     "Backend: " + TrainingBackendRegistry::ListNames() + ", or all (side by side)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         if (v != "all")
                         {
                             TrainingBackendRegistry::Find(v);
                         }
                         r.backend = v;
                     }));
    o.push_back(Make("sharing",
                     OptionScope::BACKEND,
                     "flow",
                     "ps",
                     "Flow backend link sharing: " + SharingModelRegistry::ListNames(),
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.settings.sharing = v;
                         CheckSettings(r.settings);
                     }));
    o.push_back(Make("windowModel",
                     OptionScope::BACKEND,
                     "flow",
                     "false",
                     "Flow backend, parameter servers: limit every connection to its socket "
                     "buffer per round trip (needs --sharing=ps, capped or calibrated)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.settings.windowModel = UnitParser::ParseBool(n, v);
                     }));
    o.push_back(Make("incumbentWeight",
                     OptionScope::BACKEND,
                     "flow",
                     "",
                     "--sharing=calibrated: weight of a younger cohort of flows, 0..1 (1 = ps)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.settings.incumbentWeight
                             = UnitParser::ParseReal(n, v, 0, 1, "a weight from 0 to 1");
                         CheckSettings(r.settings);
                     }));
    o.push_back(
        Make("cohortWindow",
             OptionScope::BACKEND,
             "flow",
             "",
             "--sharing=calibrated: flows starting within this time of a cohort's first join it",
             [](RunRequest& r, auto& n, auto& v)
             {
                 r.settings.cohortWindow = UnitParser::ParseDuration(n, v);
                 CheckSettings(r.settings);
             }));
    o.push_back(Make("rhoT",
                     OptionScope::BACKEND,
                     "analytic",
                     "",
                     "Analytic backend: threshold rho_T of 000 Eq. (5) (default 0.6)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.settings.rhoThreshold
                             = UnitParser::ParseReal(n, v, 0, 1, "a utilisation from 0 to 1");
                         CheckSettings(r.settings);
                     }));
}

/// Options of the linux backend (real TCP, real time).
void
AddLinux(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("dilation",
                     OptionScope::BACKEND,
                     "packet linux",
                     "",
                     "Time dilation D >= 1 (links at rate/D, compute x D, results scaled back): "
                     "linux backend, e.g. 40 for 10 Gbps; packet backend: simulate the network "
                     "that linux run executes (TCP timers not scaled), for a like-for-like "
                     "comparison",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.settings.dilation
                             = UnitParser::ParseReal(n, v, 1, 10000, "a factor from 1 to 10000");
                         CheckSettings(r.settings);
                     }));
}

/// Repeated runs and a step count chosen by the run (RepeatedRuns), for every backend.
void
AddRepeat(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("repeat",
                     OptionScope::BACKEND,
                     "",
                     "1",
                     "Runs of the point with seeds --seed, --seed + 1, ...: the result shows the "
                     "median-throughput run and every run's throughput, their mean and its 95 % "
                     "confidence interval (Student t)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.settings.repeat = UnitParser::ParseUnsigned(n, v, 1, 1000);
                     }));
    o.push_back(Make("ciTarget",
                     OptionScope::BACKEND,
                     "",
                     "",
                     "Add steps (doubling --steps, at most --maxSteps) until the 95 % interval of "
                     "the mean step time (10 batch means) is at most this fraction of the mean, "
                     "e.g. 0.02",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.settings.ciTarget
                             = UnitParser::ParseReal(n, v, 1e-6, 1, "a fraction from 1e-6 to 1");
                     }));
    o.push_back(Make("maxSteps",
                     OptionScope::BACKEND,
                     "",
                     std::to_string(RepeatedRuns::MAX_STEPS),
                     "With --ciTarget: the most steps a run may use",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.settings.maxSteps = UnitParser::ParseUnsigned(n, v, 2, MAX_STEPS);
                     }));
}

/// Input and output options.
void
AddOutput(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("profile",
                     OptionScope::JOB,
                     "",
                     ScenarioOptions::GetTrace("googlenet-titanx-pascal-b16.json"),
                     "Training profile JSON (traces/README.md)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.profile = v;
                     }));
    o.push_back(Make("output",
                     OptionScope::OUTPUT,
                     "",
                     "",
                     "Write the JSON result here",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.output = v;
                     }));
    o.push_back(Make("csv",
                     OptionScope::OUTPUT,
                     "",
                     "",
                     "With a --workers sweep or --vary: the CSV (default sweep.csv, study.csv) "
                     "and a gnuplot script CSV.gp that draws CSV.png",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.csv = v;
                     }));
    o.push_back(Make("vary",
                     OptionScope::OUTPUT,
                     "",
                     "",
                     "A study: cross several values of scenario, job or backend options with the "
                     "--workers sweep, e.g. 'arch=ps,ring;nicRate=10Gbps,100Gbps' (values holding "
                     "',' or ';': a JSON object of lists); writes a tidy CSV (default study.csv) "
                     "and a gnuplot script of one faceted figure",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.vary = VaryOptions::Parse(v);
                     }));
    o.push_back(Make("maxPoints",
                     OptionScope::OUTPUT,
                     "",
                     "1000",
                     "With --vary: the most points (value combinations x --workers values) a "
                     "study may run",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.maxPoints = UnitParser::ParseUnsigned(n, v, 1, 1000000);
                     }));
    o.push_back(Make("csvRow",
                     OptionScope::OUTPUT,
                     "",
                     "",
                     "Append one CSV row per result (scenario, throughput, counters) to this file",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.csvRow = v;
                     }));
    o.push_back(Make("records",
                     OptionScope::OUTPUT,
                     "",
                     "true",
                     "Keep the per-step and per-transfer records and write them in the JSON "
                     "result (memory grows with the transfers; --recordsFile streams them)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.records = UnitParser::ParseBool(n, v);
                         r.settings.recordTransfers = r.records;
                     }));
}

/// Options of several jobs (doc/reference/fabric.rst), the records file and progress.
void
AddJobsAndRecords(std::vector<ScenarioOptions::Option>& o)
{
    o.push_back(Make("jobs",
                     OptionScope::OUTPUT,
                     "",
                     "",
                     "Several training jobs on one fabric: a JSON file (or inline JSON text) "
                     "holding a list of job objects of per-job options (doc/reference/fabric.rst); "
                     "the other options are the fabric's",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.jobs = v;
                     }));
    o.push_back(Make("solo",
                     OptionScope::OUTPUT,
                     "",
                     "true",
                     "With --jobs: also run each job alone on its hosts and report its change "
                     "in throughput against that (true/false)",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.solo = UnitParser::ParseBool(n, v);
                     }));
    o.push_back(Make("recordsFile",
                     OptionScope::OUTPUT,
                     "",
                     "",
                     "Stream the per-step and per-transfer records to this JSON Lines file "
                     "instead of keeping them (large runs; the JSON output then names the file)",
                     [](RunRequest& r, auto&, auto& v)
                     {
                         r.recordsFile = v;
                     }));
    o.push_back(Make("progress",
                     OptionScope::OUTPUT,
                     "",
                     "true",
                     "Print progress of long packet-level runs to stderr",
                     [](RunRequest& r, auto& n, auto& v)
                     {
                         r.progress = UnitParser::ParseBool(n, v);
                     }));
}

} // namespace

void
AddBackendOptions(std::vector<ScenarioOptions::Option>& o)
{
    AddBackend(o);
    AddLinux(o);
    AddRepeat(o);
}

void
AddOutputOptions(std::vector<ScenarioOptions::Option>& o)
{
    AddOutput(o);
    AddJobsAndRecords(o);
}

} // namespace option_table
} // namespace ns3

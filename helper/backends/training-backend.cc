/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-backend.h"

#include "ns3/object-factory.h"
#include "ns3/run-report.h"
#include "ns3/training-input-error.h"
#include "ns3/training-job-set.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(TrainingBackend);

TypeId
TrainingBackend::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::TrainingBackend").SetParent<Object>().SetGroupName("DistributedTraining");
    return tid;
}

TrainingBackend::~TrainingBackend() = default;

std::vector<TrainingResult>
TrainingBackend::RunComparison(const TrainingProfile& profile,
                               const TrainingScenario& scenario) const
{
    return Run(profile, scenario);
}

std::vector<JobSetResult>
TrainingBackend::RunJobs(const TrainingJobSet& /* set */) const
{
    throw TrainingInputError("--jobs: backend " + GetInstanceTypeId().GetName()
                             + " runs one job at a time (expected --backend=packet or flow for "
                               "several jobs on one fabric)");
}

std::string
TrainingBackend::GetUnavailableReason() const
{
    return "";
}

std::string
TrainingBackend::GetUnsupportedReason(const TrainingProfile& /* profile */,
                                      const TrainingScenario& /* scenario */) const
{
    return "";
}

double
TrainingBackend::EstimateCpuSeconds(const TrainingProfile& /* profile */,
                                    const TrainingScenario& /* scenario */) const
{
    return 0;
}

void
TrainingBackend::Configure(const BackendSettings& /* settings */)
{
}

void
TrainingBackend::SetRunContext(const RunContext& context)
{
    m_context = context;
}

const RunContext&
TrainingBackend::GetRunContext() const
{
    return m_context;
}

void
TrainingBackend::SetChecked(const std::string& option,
                            ObjectBase& object,
                            const std::string& name,
                            const AttributeValue& value)
{
    if (!object.SetAttributeFailSafe(name, value))
    {
        throw TrainingInputError(option + ": value refused by "
                                 + object.GetInstanceTypeId().GetName() + "::" + name
                                 + " (see --help for the accepted range)");
    }
}

namespace
{

/// \return the registry's storage (a function-local static: safe during static initialisation)
std::vector<TrainingBackendRegistry::Entry>&
Entries()
{
    static std::vector<TrainingBackendRegistry::Entry> entries;
    return entries;
}

} // namespace

void
TrainingBackendRegistry::Add(const Entry& entry)
{
    auto& entries = Entries();
    entries.push_back(entry);
    std::stable_sort(entries.begin(),
                     entries.end(),
                     [](const Entry& a, const Entry& b)
                     {
                         return a.rank < b.rank;
                     });
}

std::vector<TrainingBackendRegistry::Entry>
TrainingBackendRegistry::GetEntries()
{
    return Entries();
}

std::vector<TrainingBackendRegistry::Entry>
TrainingBackendRegistry::GetSelected(const std::string& backend)
{
    std::vector<Entry> selected;
    for (const auto& e : Entries())
    {
        if (backend == "all" ? e.inAll : backend == e.name)
        {
            selected.push_back(e);
        }
    }
    return selected;
}

TrainingBackendRegistry::Cost
TrainingBackendRegistry::EstimateCost(const std::string& backend,
                                      const TrainingProfile& profile,
                                      TrainingScenario scenario,
                                      const std::vector<uint32_t>& workers,
                                      uint32_t repeat)
{
    Cost cost;
    for (const auto& entry : GetSelected(backend))
    {
        const Ptr<TrainingBackend> b = Create(entry.name);
        for (uint32_t k : workers)
        {
            scenario.workers = k;
            const double c = b->EstimateCpuSeconds(profile, scenario);
            cost.cpuSeconds += repeat * c;
            cost.runs += c > 0 ? repeat : 0;
        }
    }
    return cost;
}

std::string
TrainingBackendRegistry::CostNote(const std::string& backend,
                                  const TrainingProfile& profile,
                                  TrainingScenario scenario,
                                  const std::vector<uint32_t>& workers,
                                  uint32_t repeat)
{
    const Cost cost = EstimateCost(backend, profile, std::move(scenario), workers, repeat);
    return RunReport::CostNote(cost.cpuSeconds, cost.runs);
}

std::string
TrainingBackendRegistry::CostNote(const std::string& backend, const TrainingJobSet& set, bool solo)
{
    double cpuSeconds = 0;
    std::size_t runs = 0;
    for (const auto& entry : GetSelected(backend))
    {
        const Ptr<TrainingBackend> b = Create(entry.name);
        double shared = 0;
        for (const auto& job : set.GetJobs())
        {
            const double c = b->EstimateCpuSeconds(*job.profile, job.scenario);
            shared += c;
            cpuSeconds += solo ? c : 0;
            runs += solo && c > 0 ? 1 : 0;
        }
        cpuSeconds += shared;
        runs += shared > 0 ? 1 : 0;
    }
    return RunReport::CostNote(cpuSeconds, runs);
}

std::string
TrainingBackendRegistry::ListNames()
{
    const auto& entries = Entries();
    std::string names;
    for (std::size_t i = 0; i < entries.size(); ++i)
    {
        names += (i == 0 ? "" : ", ") + entries[i].name;
    }
    return names;
}

TrainingBackendRegistry::Entry
TrainingBackendRegistry::Find(const std::string& name)
{
    for (const auto& e : Entries())
    {
        if (e.name == name)
        {
            return e;
        }
    }
    throw TrainingInputError("--backend: unknown value '" + name + "' (expected " + ListNames()
                             + " or all)");
}

Ptr<TrainingBackend>
TrainingBackendRegistry::Create(const std::string& name)
{
    ObjectFactory factory(Find(name).typeName);
    return factory.Create<TrainingBackend>();
}

Ptr<TrainingBackend>
TrainingBackendRegistry::Create(const std::string& name,
                                const BackendSettings& settings,
                                const RunContext& context)
{
    Ptr<TrainingBackend> backend = Create(name);
    backend->Configure(settings);
    backend->SetRunContext(context);
    return backend;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * distributed-training-sim: the module's driver. Reads a profile and a scenario from the command
 * line, runs the chosen backend(s), prints a short summary and writes the common JSON result.
 *
 *   ./build/bin/distributed-training-sim --profile=traces/resnet50-p100-b64.json \
 *       --arch=ps --mode=sync --workers=4 --nicRate=10Gbps --steps=10 --output=result.json
 *
 * With no option it runs the main scenario: GoogLeNet (TITAN X-class profile), sync parameter
 * server, 4 workers, 10 Gb/s, 10 steps of which 2 are warm-up, packet backend.
 *
 * Run with --help for every option. Invalid options or impossible scenarios end with a message
 * naming the option and exit status 1.
 */

#include "ns3/distributed-training-module.h"

#include <cstdio>
#include <iostream>
#include <memory>

using namespace ns3;

namespace
{

/// \param file a file name (empty: none) \param option its option \param mode replace or append
/// \return the file opened for writing (checked and created before the run), or nullptr
std::unique_ptr<OutputFile>
OpenOutput(const std::string& file, const std::string& option, OutputFile::Mode mode)
{
    return file.empty() ? nullptr : std::make_unique<OutputFile>(file, option, mode);
}

/**
 * --recordsFile: stream the records of every result to a JSON Lines file. Without it, say when
 * the records kept in memory (and written to --output) would be large, and refuse a run whose
 * records would not fit in the memory available (the kernel would kill it part way).
 * \return the stream new results attach to, or nullptr
 */
std::shared_ptr<RecordStream>
OpenRecordStream(const TrainingProfile& profile, const RunRequest& request)
{
    const TrainingScenario& s = request.scenario;
    if (!request.records)
    {
        return nullptr;
    }
    if (request.recordsFile.empty())
    {
        const std::string note
            = RunReport::RecordsMemoryNote(profile, s, RunReport::AvailableMemoryBytes());
        std::fputs(note.c_str(), stderr);
        return nullptr;
    }
    return std::make_shared<RecordStream>(request.recordsFile);
}

/// Write the summary line of every result, close the stream and say where the records are.
void
CloseRecordStream(RecordStream& stream, const std::vector<TrainingResult>& results)
{
    for (const auto& r : results)
    {
        stream.WriteResult(r);
    }
    stream.Close();
    std::printf("wrote %llu records to %s\n",
                static_cast<unsigned long long>(stream.GetRecords()),
                stream.GetPath().c_str());
}

/// --jobs: run the chosen backend(s) (every available one of "all" that takes several jobs).
std::vector<JobSetResult>
RunJobBackends(const TrainingJobSet& set, const RunRequest& request)
{
    std::vector<JobSetResult> results;
    for (const auto& entry : TrainingBackendRegistry::GetSelected(request.backend))
    {
        Ptr<TrainingBackend> b = TrainingBackendRegistry::Create(entry.name,
                                                                 request.settings,
                                                                 request.MakeRunContext(nullptr));
        try
        {
            const std::string why = b->GetUnavailableReason();
            if (!why.empty())
            {
                throw TrainingInputError("--backend=" + entry.name + ": " + why);
            }
            const std::string ignored
                = RunReport::IgnoredNote(ScenarioOptions::GetIgnored(request, entry.name),
                                         entry.name);
            std::vector<JobSetResult> shared = b->RunJobs(set); // refusals come from here
            const auto solo = request.solo ? set.RunEachAlone(*b) : std::vector<double>();
            for (auto& r : shared)
            {
                r.solo = solo;
                if (!ignored.empty())
                {
                    r.notes.push_back(ignored);
                }
                r.CheckSane(set);
                std::fputs(JobSetReport::FormatResult(set, r).c_str(), stdout);
                results.push_back(std::move(r));
            }
        }
        catch (const TrainingInputError& e)
        {
            if (request.backend != "all")
            {
                throw;
            }
            std::fprintf(stderr,
                         "note: --backend=all: backend %s skipped: %s\n",
                         entry.name.c_str(),
                         e.what());
        }
    }
    return results;
}

/// --jobs: several jobs on one fabric with the chosen backend(s) (packet and flow for "all").
void
RunJobSet(const RunRequest& request)
{
    if (request.workerSweep.size() > 1 || !request.vary.empty() || !request.csv.empty()
        || !request.csvRow.empty() || !request.recordsFile.empty())
    {
        throw TrainingInputError("--jobs: with a --workers sweep, --vary, --csv, --csvRow or "
                                 "--recordsFile (expected per-job options in the jobs file and "
                                 "--output for the result)");
    }
    // Inline JSON text (the validation runner's scenarios) or a file name.
    const bool text = request.jobs.front() == '[' || request.jobs.front() == '{';
    const TrainingJobSet set = text ? TrainingJobSet::FromText(request.jobs, "--jobs", request)
                                    : TrainingJobSet::FromFile(request.jobs, request);
    std::fputs(JobSetReport::FormatJobs(set).c_str(), stdout);
    std::fputs(TrainingBackendRegistry::CostNote(request.backend, set, request.solo).c_str(),
               stderr);
    const auto output = OpenOutput(request.output, "--output", OutputFile::REPLACE);
    const std::vector<JobSetResult> results = RunJobBackends(set, request);
    if (output)
    {
        output->Stream() << JobSetResult::MakeDocument(set, results, request.records) << "\n";
        output->Commit();
        std::printf("wrote %s\n", request.output.c_str());
    }
}

/// One scenario: the outputs are opened (and refused) before the run, written after it.
void
RunOne(const TrainingProfile& profile, const RunRequest& request)
{
    const TrainingScenario& s = request.scenario;
    OutputFile::RequireDistinct({{"--output", request.output},
                                 {"--recordsFile", request.recordsFile},
                                 {"--csvRow", request.csvRow},
                                 {"--csv", request.csv}});
    const auto output = OpenOutput(request.output, "--output", OutputFile::REPLACE);
    const auto csvRow = OpenOutput(request.csvRow, "--csvRow", OutputFile::APPEND);
    const std::shared_ptr<RecordStream> stream = OpenRecordStream(profile, request);
    const uint32_t repeat = request.settings.repeat.value_or(1);
    std::fputs(
        TrainingBackendRegistry::CostNote(request.backend, profile, s, {s.workers}, repeat).c_str(),
        stderr);
    const std::vector<TrainingResult> results
        = DriverStudy::RunBackends(profile, s, request, request.MakeRunContext(stream));
    for (const auto& r : results)
    {
        r.CheckSane(s);
    }
    std::fputs(RunReport::FormatSummary(profile, s, results).c_str(), stdout);
    if (stream)
    {
        CloseRecordStream(*stream, results);
    }
    if (output)
    {
        output->Stream() << TrainingResult::MakeDocument(profile, s, results, request.records)
                         << "\n";
        output->Commit();
        std::printf("wrote %s\n", request.output.c_str());
    }
    if (csvRow)
    {
        RunReport::AppendCsvRows(*csvRow, profile, s, results);
        csvRow->Commit();
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    try
    {
        RunRequest request = ScenarioOptions::ParseArguments(
            argc,
            argv,
            "Simulate distributed DNN training (parameter server or ring AllReduce) with the "
            "packet-level (ns-3 TCP), flow-level, analytical or Linux-kernel backend.");
        if (!request.jobs.empty())
        {
            RunJobSet(request);
            return 0;
        }
        const TrainingProfile profile = TrainingProfile::LoadFromFile(request.profile);
        if (request.workerSweep.size() > 1 || !request.vary.empty())
        {
            request.settings.recordTransfers = false; // a sweep keeps only its table
            DriverStudy::RunSweep(profile, request);
            return 0;
        }
        const TrainingScenario& s = request.scenario;
        s.Validate(profile);
        RunOne(profile, request);
    }
    catch (const TrainingInputError& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}

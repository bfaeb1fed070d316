/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "record-stream.h"

#include "output-file.h"
#include "training-input-error.h"

#include <nlohmann/json.hpp>

namespace ns3
{

RecordStream::RecordStream(const std::string& path)
    : m_path(path),
      m_out(std::make_unique<OutputFile>(path, "--recordsFile"))
{
}

RecordStream::~RecordStream() = default; // an unfinished stream's temporary file is removed

uint32_t
RecordStream::NewRun()
{
    return m_runs++;
}

void
RecordStream::WriteStep(uint32_t run, const TrainingResult::StepRecord& r)
{
    nlohmann::ordered_json j{{"kind", "step"}, {"run", run}};
    j.update(TrainingResult::RecordJson(r));
    m_out->Stream() << j.dump() << '\n';
    ++m_records;
}

void
RecordStream::WriteTransfer(uint32_t run, const TrainingResult::TransferRecord& r)
{
    nlohmann::ordered_json j{{"kind", "transfer"}, {"run", run}};
    j.update(TrainingResult::RecordJson(r));
    m_out->Stream() << j.dump() << '\n';
    ++m_records;
}

void
RecordStream::WriteResult(const TrainingResult& r)
{
    nlohmann::ordered_json j{{"kind", "result"},
                             {"run", r.recordsRun},
                             {"backend", r.backend},
                             {"variant", r.variant},
                             {"throughput_samples_per_s", r.throughput},
                             {"step_time_mean_s", r.stepTimeMean}};
    m_out->Stream() << j.dump() << '\n';
    Check();
}

void
RecordStream::Check()
{
    if (!m_out->Stream())
    {
        m_out->Commit(); // throws with the error kept by the stream (e.g. disk full)
    }
}

void
RecordStream::Close()
{
    m_out->Commit();
}

const std::string&
RecordStream::GetPath() const
{
    return m_path;
}

uint64_t
RecordStream::GetRecords() const
{
    return m_records;
}

} // namespace ns3

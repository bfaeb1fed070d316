/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "record-stream.h"

#include "training-input-error.h"

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace ns3
{

namespace
{

/// The stream new TrainingResults attach to.
std::shared_ptr<RecordStream>&
Current()
{
    static std::shared_ptr<RecordStream> current;
    return current;
}

} // namespace

RecordStream::RecordStream(const std::string& path)
    : m_path(path),
      m_partPath(path + ".part")
{
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    {
        throw TrainingInputError("--recordsFile: '" + path
                                 + "' is not a regular file (expected a file name to write "
                                   "JSON Lines to)");
    }
    m_out.open(m_partPath, std::ios::out | std::ios::trunc);
    if (!m_out)
    {
        throw TrainingInputError("--recordsFile: cannot create '" + m_partPath + "'");
    }
}

RecordStream::~RecordStream()
{
    if (!m_closed)
    {
        m_out.close();
        std::remove(m_partPath.c_str()); // an incomplete stream is not left behind as if valid
    }
}

uint32_t
RecordStream::NewRun()
{
    return m_runs++;
}

nlohmann::ordered_json
RecordStream::ToJson(const TrainingResult::StepRecord& r)
{
    return {{"worker", r.worker}, {"step", r.step}, {"start_s", r.start}, {"end_s", r.end}};
}

nlohmann::ordered_json
RecordStream::ToJson(const TrainingResult::TransferRecord& r)
{
    return {{"worker", r.worker},
            {"peer", r.peer},
            {"step", r.step},
            {"tensor", r.tensor},
            {"direction", r.direction},
            {"bytes", r.bytes},
            {"start_s", r.start},
            {"end_s", r.end}};
}

void
RecordStream::WriteStep(uint32_t run, const TrainingResult::StepRecord& r)
{
    nlohmann::ordered_json j{{"kind", "step"}, {"run", run}};
    j.update(ToJson(r));
    m_out << j.dump() << '\n';
    ++m_records;
}

void
RecordStream::WriteTransfer(uint32_t run, const TrainingResult::TransferRecord& r)
{
    nlohmann::ordered_json j{{"kind", "transfer"}, {"run", run}};
    j.update(ToJson(r));
    m_out << j.dump() << '\n';
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
    m_out << j.dump() << '\n';
    Check();
}

void
RecordStream::Check()
{
    if (!m_out)
    {
        throw TrainingInputError("--recordsFile: cannot write '" + m_partPath + "' (disk full?)");
    }
}

void
RecordStream::Close()
{
    m_out.flush();
    Check();
    m_out.close();
    Check();
    std::error_code ec;
    std::filesystem::rename(m_partPath, m_path, ec);
    if (ec)
    {
        throw TrainingInputError("--recordsFile: cannot rename '" + m_partPath + "' to '" + m_path
                                 + "': " + ec.message());
    }
    m_closed = true;
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

void
RecordStream::SetCurrent(std::shared_ptr<RecordStream> stream)
{
    Current() = std::move(stream);
}

std::shared_ptr<RecordStream>
RecordStream::GetCurrent()
{
    return Current();
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RECORD_STREAM_H
#define RECORD_STREAM_H

#include "training-result.h"

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

class OutputFile;

/**
 * \ingroup distributed-training
 * \brief Per-step and per-transfer records written to a JSON Lines file while a backend runs,
 * instead of being held in TrainingResult (the driver's --recordsFile): memory then no longer
 * grows with workers x steps x layers (a flow run of K = 10,000 keeps only its step records).
 *
 * One JSON object per line: {"kind": "step", "run": R, "worker", "step", "start_s", "end_s"},
 * {"kind": "transfer", "run": R, "worker", "peer", "step", "tensor", "direction", "bytes",
 * "start_s", "end_s"} and, written by the driver when a result is final, {"kind": "result",
 * "run": R, "backend", "variant", "throughput_samples_per_s", "step_time_mean_s"}. R numbers the
 * TrainingResults attached to the stream (TrainingResult::recordsRun: a backend attaches the
 * results it makes when its RunContext carries the stream), so the records of every backend and
 * variant of one invocation can share a file.
 *
 * The file is written through OutputFile (a temporary file renamed to PATH by Close()), so an
 * interrupted run never leaves a truncated file that looks complete, a device, FIFO or folder is
 * refused when the stream is opened, and a failed write is a TrainingInputError.
 */
class RecordStream : public TrainingResult::RecordSink
{
  public:
    /**
     * \param path the JSON Lines file to write (a temporary file until Close())
     * \throws TrainingInputError if it cannot be created or names something other than a file
     */
    explicit RecordStream(const std::string& path);
    ~RecordStream() override;

    RecordStream(const RecordStream&) = delete;
    RecordStream& operator=(const RecordStream&) = delete;

    uint32_t NewRun() override;
    void WriteStep(uint32_t run, const TrainingResult::StepRecord& r) override;
    void WriteTransfer(uint32_t run, const TrainingResult::TransferRecord& r) override;

    /// Write the summary line of a final result.
    void WriteResult(const TrainingResult& r);

    /// Flush, check every write and rename PATH.part to PATH. \throws TrainingInputError
    void Close();

    /// \return the file's final name
    const std::string& GetPath() const override;
    /// \return records written so far (step and transfer lines)
    uint64_t GetRecords() const;

  private:
    /// Throw if the stream failed.
    void Check();

    std::string m_path;                //!< final name
    std::unique_ptr<OutputFile> m_out; //!< the file, written whole by Close()
    uint32_t m_runs{0};                //!< runs handed out
    uint64_t m_records{0};             //!< step and transfer lines written
};

} // namespace ns3

#endif /* RECORD_STREAM_H */

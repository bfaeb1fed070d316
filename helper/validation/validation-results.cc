/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "validation-results.h"

#include "ns3/json-input.h"
#include "ns3/output-file.h"
#include "ns3/sweep-engine.h"
#include "ns3/training-input-error.h"

#include <cstdio>
#include <deque>
#include <sstream>

namespace ns3
{

namespace
{

/// Copy a result's wall time and notes (joined by " | ") into its row.
void
AddWallAndNotes(const nlohmann::json& result, ValidationMatrix::Row& row)
{
    row.wallSeconds = result.value("wall_time_s", 0.0);
    for (const auto& note : result.value("notes", nlohmann::json::array()))
    {
        row.notes += (row.notes.empty() ? "" : " | ") + note.get<std::string>();
    }
}

} // namespace

std::string
ValidationResults::ResultFile(const std::string& outDir, const std::string& id)
{
    return outDir + "/jobs/" + id + ".json";
}

std::vector<std::string>
ValidationResults::LastLines(const std::string& file, std::size_t n)
{
    std::string text;
    try
    {
        text = JsonInput::ReadFile(file, {std::uint64_t{64} << 20, 0, "a job log"});
    }
    catch (const TrainingInputError& e)
    {
        return {e.what()};
    }
    std::istringstream in(text);
    std::deque<std::string> lines;
    std::string line;
    while (std::getline(in, line))
    {
        if (!line.empty())
        {
            lines.push_back(line);
            if (lines.size() > n)
            {
                lines.pop_front();
            }
        }
    }
    return {lines.begin(), lines.end()};
}

bool
ValidationResults::ReadResultFile(const std::string& file, nlohmann::json& doc)
{
    try
    {
        // Through the input checks: a FIFO or a link to /dev/zero left where a result was
        // would block or exhaust memory; it is a missing result instead (the job reruns).
        doc = JsonInput::ParseSorted(JsonInput::ReadFile(file, SweepEngine::ResultLimits()),
                                     file,
                                     SweepEngine::ResultLimits());
    }
    catch (const TrainingInputError&)
    {
        return false;
    }
    return doc.is_object() && doc.contains("results") && doc["results"].is_array()
           && !doc["results"].empty();
}

std::vector<ValidationMatrix::Row>
ValidationResults::RowsOfResult(const ValidationMatrix& matrix,
                                const ValidationMatrix::Job& job,
                                const nlohmann::json& doc,
                                const std::string& file)
{
    std::vector<ValidationMatrix::Row> rows;
    const auto& s = matrix.GetScenarios()[job.scenario];
    for (const auto& r : doc.value("results", nlohmann::json::array()))
    {
        ValidationMatrix::Row row;
        row.scenario = s.name;
        row.category = s.category;
        row.role = s.role;
        row.profile = s.profile;
        row.workers = job.workers;
        row.backend = r.value("backend", job.backend);
        const std::string& reference = matrix.GetReference();
        if (row.backend == reference && job.backend != reference)
        {
            throw TrainingInputError(file + ": the " + job.backend + " job reports a " + reference
                                     + " result (expected only the reference jobs to run the "
                                     + reference + " backend)");
        }
        // A calibration label names the result of a sharing model; ring scenarios report
        // "allreduce" whatever the sharing, so their rows keep that name (and are dropped
        // as repeats of the plain allreduce row).
        std::string reported = r.value("variant", std::string());
        bool relabel = !job.label.empty() && reported != "allreduce";
        row.variant = relabel ? job.label : reported;
        row.throughput = r.value("throughput_samples_per_s", 0.0);
        row.stepTime = r.value("step_time_mean_s", 0.0);
        row.job = job.id;
        AddWallAndNotes(r, row);
        if (r.contains("jobs") && r["jobs"].is_array())
        {
            // Several jobs on one fabric (--jobs): one row per job, "<scenario>/<job>".
            for (const auto& jr : r["jobs"])
            {
                ValidationMatrix::Row x = row;
                x.scenario = s.name + "/" + jr.value("name", std::string("job"));
                x.throughput = jr.value("throughput_samples_per_s", 0.0);
                x.stepTime = jr.value("step_time_mean_s", 0.0);
                rows.push_back(x);
            }
            continue;
        }
        rows.push_back(row);
        if (relabel)
        {
            break;
        }
    }
    return rows;
}

std::vector<ValidationMatrix::Row>
ValidationResults::ReadRows(const ValidationMatrix& matrix,
                            const std::vector<ValidationMatrix::Job>& jobs,
                            const std::string& outDir)
{
    std::vector<ValidationMatrix::Row> rows;
    for (const auto& job : jobs)
    {
        nlohmann::json doc;
        const std::string file = ResultFile(outDir, job.id);
        if (ReadResultFile(file, doc))
        {
            auto more = RowsOfResult(matrix, job, doc, file);
            rows.insert(rows.end(), more.begin(), more.end());
        }
    }
    return rows;
}

std::string
ValidationResults::Num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.6g", v);
    return buf;
}

std::string
ValidationResults::FormatResultsCsv(const std::vector<ValidationMatrix::Row>& rows,
                                    const std::string& reference)
{
    std::ostringstream out;
    out << "scenario,category,role,profile,workers,backend,variant,throughput_samples_per_s,"
           "step_time_mean_s,"
        << reference << "_throughput_samples_per_s,rel_error,job,notes\n";
    for (const auto& r : rows)
    {
        const bool known = r.referenceThroughput > 0;
        out << CsvField(r.scenario) << "," << CsvField(r.category) << "," << CsvField(r.role) << ","
            << CsvField(r.profile) << "," << r.workers << "," << CsvField(r.backend) << ","
            << CsvField(r.variant) << "," << Num(r.throughput) << "," << Num(r.stepTime) << ","
            << (known ? Num(r.referenceThroughput) : "") << "," << (known ? Num(r.relError) : "")
            << "," << CsvField(r.job) << "," << CsvField(r.notes) << "\n";
    }
    return out.str();
}

std::string
ValidationResults::FormatWallTimesCsv(const std::vector<ValidationMatrix::Row>& rows)
{
    std::ostringstream wall;
    wall << "scenario,workers,backend,variant,wall_time_s\n";
    for (const auto& r : rows)
    {
        wall << CsvField(r.scenario) << "," << r.workers << "," << CsvField(r.backend) << ","
             << CsvField(r.variant) << "," << Num(r.wallSeconds) << "\n";
    }
    return wall.str();
}

ValidationResults::ErrorTables
ValidationResults::FormatErrorTables(const std::vector<ValidationMatrix::Row>& rows,
                                     const ValidationMatrix& matrix)
{
    struct Part
    {
        ValidationMatrix::KFilter filter;
        std::string title;
    };

    const std::string& ref = matrix.GetReference();
    const std::string vs = ref == "packet" ? "packet level" : ref + " (real TCP)";
    const std::vector<Part> parts
        = {{ValidationMatrix::K_ABOVE_ONE,
            "K > 1: mean (max) absolute relative throughput error vs " + vs
                + " in %, holdout scenarios"},
           {ValidationMatrix::K_ONE,
            "K = 1 (no contention, must agree): mean (max) absolute relative error vs " + vs
                + " in %"},
           {ValidationMatrix::K_ALL,
            "every K: mean (max) absolute relative error vs " + vs + " in %"}};
    const std::vector<std::string> columns = matrix.GetColumns();
    ErrorTables tables;
    for (const auto& p : parts)
    {
        auto table = ValidationMatrix::BuildTable(rows, p.filter, ref);
        const std::string rst = ValidationMatrix::FormatRst(table, columns);
        tables.csv += ValidationMatrix::FormatCsv(table, p.title, columns) + "\n";
        tables.rst += p.title + ":\n\n" + rst + "\n";
        if (p.filter == ValidationMatrix::K_ABOVE_ONE)
        {
            tables.summary = "\n" + p.title + "\n" + rst;
        }
    }
    return tables;
}

std::string
ValidationResults::FormatCalibrationCsv(const ValidationMatrix::Calibration& cal,
                                        const std::vector<ValidationMatrix::Cell>& cells,
                                        std::size_t chosen)
{
    std::ostringstream csv;
    csv << "variant,option,value,mean_abs_rel_error,max_abs_rel_error,points,chosen\n";
    for (std::size_t i = 0; i < cells.size(); ++i)
    {
        csv << CsvField(cal.variant) << "," << CsvField(cal.option) << ","
            << ValidationMatrix::FormatNumber(cal.values[i]) << ","
            << (cells[i].count ? Num(cells[i].meanAbs) : "") << ","
            << (cells[i].count ? Num(cells[i].maxAbs) : "") << "," << cells[i].count << ","
            << (i == chosen ? "yes" : "") << "\n";
    }
    return csv.str();
}

} // namespace ns3

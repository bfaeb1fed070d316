/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "study-report.h"

#include "run-report.h"

#include "ns3/output-file.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace ns3
{

namespace
{

/// \return text as a gnuplot single-quoted string (a quote doubled)
std::string
Quoted(const std::string& text)
{
    std::string out = "'";
    for (char c : text)
    {
        out += c == '\'' ? std::string("''") : std::string(1, c);
    }
    return out + "'";
}

/// \return x with 10 significant digits, as the CSV writes numbers
std::string
Number(double x)
{
    std::ostringstream out;
    out.precision(10);
    out << x;
    return out.str();
}

} // namespace

StudyReport::StudyReport(std::vector<std::string> varied)
    : m_varied(std::move(varied))
{
}

void
StudyReport::Add(const std::vector<std::string>& values,
                 uint32_t workers,
                 double bound,
                 const std::vector<TrainingResult>& results)
{
    for (const auto& r : results)
    {
        const auto same = [&](const Series& s)
        {
            return s.values == values && s.backend == r.backend && s.variant == r.variant;
        };
        auto it = std::find_if(m_series.begin(), m_series.end(), same);
        if (it == m_series.end())
        {
            it = m_series.insert(m_series.end(), {values, r.backend, r.variant});
        }
        m_rows.push_back({static_cast<std::size_t>(it - m_series.begin()),
                          workers,
                          r.throughput,
                          bound,
                          RunReport::BottleneckLabel(r),
                          r.stepTimeMean});
    }
}

std::size_t
StudyReport::GetRows() const
{
    return m_rows.size();
}

std::vector<StudyReport::Row>
StudyReport::Ordered() const
{
    std::vector<Row> rows = m_rows;
    std::stable_sort(rows.begin(),
                     rows.end(),
                     [](const Row& a, const Row& b)
                     {
                         return a.series < b.series;
                     });
    return rows;
}

std::vector<std::size_t>
StudyReport::VariedColumns() const
{
    std::vector<std::size_t> columns;
    for (std::size_t i = 0; i < m_varied.size(); ++i)
    {
        if (m_varied[i] != "backend")
        {
            columns.push_back(i);
        }
    }
    return columns;
}

std::string
StudyReport::FormatTable() const
{
    const std::vector<std::size_t> columns = VariedColumns();
    std::vector<std::size_t> width;
    for (std::size_t c : columns)
    {
        std::size_t w = m_varied[c].size();
        for (const auto& s : m_series)
        {
            w = std::max(w, s.values[c].size());
        }
        width.push_back(w);
    }
    std::string text;
    for (std::size_t i = 0; i < columns.size(); ++i)
    {
        text
            += RunReport::Format("%-*s ", static_cast<int>(width[i]), m_varied[columns[i]].c_str());
    }
    text += RunReport::Format("%-7s %-20s %12s %12s  %s\n",
                              "workers",
                              "backend:variant",
                              "samples/s",
                              "bound",
                              "bottleneck");
    for (const Row& r : Ordered())
    {
        const Series& s = m_series[r.series];
        for (std::size_t i = 0; i < columns.size(); ++i)
        {
            text += RunReport::Format("%-*s ",
                                      static_cast<int>(width[i]),
                                      s.values[columns[i]].c_str());
        }
        text += RunReport::Format("%-7u %-20s %12.2f %12.2f  %s\n",
                                  r.workers,
                                  (s.backend + ":" + s.variant).c_str(),
                                  r.throughput,
                                  r.bound,
                                  r.bottleneck.c_str());
    }
    return text;
}

std::string
StudyReport::FormatCsv() const
{
    const std::vector<std::size_t> columns = VariedColumns();
    std::ostringstream out;
    for (std::size_t c : columns)
    {
        out << CsvField(m_varied[c]) << ",";
    }
    out << "workers,backend,variant,samples_per_s,compute_bound_samples_per_s,bottleneck,"
           "step_time_s\n";
    for (const Row& r : Ordered())
    {
        const Series& s = m_series[r.series];
        for (std::size_t c : columns)
        {
            out << CsvField(s.values[c]) << ",";
        }
        out << r.workers << "," << CsvField(s.backend) << "," << CsvField(s.variant) << ","
            << Number(r.throughput) << "," << Number(r.bound) << "," << CsvField(r.bottleneck)
            << "," << Number(r.stepTime) << "\n";
    }
    return out.str();
}

std::string
StudyReport::PlotPanel(const std::string& panel,
                       const std::string& csv,
                       const std::vector<Row>& rows) const
{
    const std::size_t k = VariedColumns().size() + 1; // the workers column (1-based)
    std::vector<std::string> lines;
    std::vector<std::vector<std::pair<uint32_t, double>>> bounds; // distinct bound curves
    std::size_t first = 0;
    for (std::size_t s = 0; s < m_series.size(); ++s)
    {
        std::size_t last = first;
        std::vector<std::pair<uint32_t, double>> curve;
        for (; last < rows.size() && rows[last].series == s; ++last)
        {
            curve.emplace_back(rows[last].workers, rows[last].bound);
        }
        const Series& series = m_series[s];
        if (series.values.at(0) == panel && last > first)
        {
            std::string title;
            for (std::size_t i = 1; i < m_varied.size(); ++i)
            {
                title += m_varied[i] == "backend" ? "" : m_varied[i] + "=" + series.values[i] + " ";
            }
            const std::string every
                = RunReport::Format(" skip 1 every ::%zu::%zu using %zu:", first, last - 1, k);
            lines.push_back(Quoted(csv) + every + std::to_string(k + 3) + " with linespoints title "
                            + Quoted(title + series.backend + ":" + series.variant));
            if (std::find(bounds.begin(), bounds.end(), curve) == bounds.end())
            {
                bounds.push_back(curve);
                lines.push_back(Quoted(csv) + every + std::to_string(k + 4)
                                + " with lines dashtype 2 linecolor 'black' "
                                + (bounds.size() == 1 ? "title 'compute bound'" : "notitle"));
            }
        }
        first = last;
    }
    std::string plot = "set title " + Quoted(m_varied.at(0) + "=" + panel) + "\nplot ";
    for (std::size_t i = 0; i < lines.size(); ++i)
    {
        plot += (i == 0 ? "" : ", \\\n     ") + lines[i];
    }
    return plot + "\n";
}

std::string
StudyReport::PlotScript(const std::string& csv, const std::string& title) const
{
    std::vector<std::string> panels; // the first varied option's values, in order
    for (const auto& s : m_series)
    {
        if (std::find(panels.begin(), panels.end(), s.values.at(0)) == panels.end())
        {
            panels.push_back(s.values.at(0));
        }
    }
    const std::size_t columns = std::min<std::size_t>(panels.size(), 3);
    const std::size_t rows = (panels.size() + columns - 1) / std::max<std::size_t>(columns, 1);
    const std::string png = csv.substr(0, csv.rfind('.')) + ".png";
    std::ostringstream gp;
    gp << "# gnuplot " << csv << ".gp  (Debian: apt-get install gnuplot-nox)\n"
       << "# One panel per " << m_varied.at(0)
       << "; each line is a run of consecutive rows of the CSV (every ::FIRST::LAST)\n"
       << "set datafile separator ','\n"
       << "set terminal pngcairo size " << 560 * columns << "," << 420 * rows + 40 << "\n"
       << "set output " << Quoted(png) << "\n"
       << "set multiplot layout " << rows << "," << columns << " title " << Quoted(title) << "\n"
       << "set grid\nset key top left font ',8'\nset yrange [0:*]\n"
       << "set xlabel 'workers K'\nset ylabel 'throughput (samples/s)'\n";
    const std::vector<Row> ordered = Ordered();
    for (const auto& panel : panels)
    {
        gp << PlotPanel(panel, csv, ordered);
    }
    gp << "unset multiplot\n";
    return gp.str();
}

double
StudyReport::ComputeBound(const TrainingProfile& profile, const TrainingScenario& s)
{
    double perStep = 0;
    for (const auto& layer : profile.GetLayers())
    {
        perStep += (layer.forwardUs + layer.backwardUs) * 1e-6;
    }
    const double batch = 1.0 * profile.GetBatchSize() * s.gpusPerNode;
    double slowest = 0;
    double rate = 0;
    for (uint32_t w = 0; w < s.workers; ++w)
    {
        const double t = perStep * s.GetComputeScale(w);
        slowest = std::max(slowest, t);
        rate += batch / t;
    }
    // Sync: every step waits for the slowest worker; async: each worker at its own pace.
    return s.mode == TrainingScenario::SYNC ? s.workers * batch / slowest : rate;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sweep-report.h"

#include "run-report.h"

#include "ns3/output-file.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

void
SweepReport::Add(uint32_t workers, const std::vector<TrainingResult>& results)
{
    std::map<std::string, double> row;
    for (const auto& r : results)
    {
        std::string name = r.backend + ":" + r.variant;
        if (std::find(m_columns.begin(), m_columns.end(), name) == m_columns.end())
        {
            m_columns.push_back(name);
        }
        row[name] = r.throughput;
    }
    m_workers.push_back(workers);
    m_rows.push_back(row);
}

std::size_t
SweepReport::GetColumns() const
{
    return m_columns.size();
}

std::string
SweepReport::FormatTable() const
{
    std::string text = RunReport::Format("%-8s", "workers");
    for (const auto& c : m_columns)
    {
        text += RunReport::Format(" %20s", c.c_str());
    }
    text += "\n";
    for (std::size_t i = 0; i < m_workers.size(); ++i)
    {
        text += RunReport::Format("%-8u", m_workers[i]);
        for (const auto& c : m_columns)
        {
            auto it = m_rows[i].find(c);
            text += it != m_rows[i].end() ? RunReport::Format(" %20.2f", it->second)
                                          : RunReport::Format(" %20s", "-");
        }
        text += "\n";
    }
    return text;
}

std::string
SweepReport::FormatCsv() const
{
    std::ostringstream out;
    out << "workers";
    for (const auto& c : m_columns)
    {
        out << "," << CsvField(c);
    }
    out << "\n";
    for (std::size_t i = 0; i < m_workers.size(); ++i)
    {
        out << m_workers[i];
        for (const auto& c : m_columns)
        {
            auto it = m_rows[i].find(c);
            out << ",";
            if (it != m_rows[i].end())
            {
                out << it->second;
            }
        }
        out << "\n";
    }
    return out.str();
}

std::string
SweepReport::PlotScript(const std::string& csv,
                        const TrainingProfile& profile,
                        const TrainingScenario& s) const
{
    const std::string png = csv.substr(0, csv.rfind('.')) + ".png";
    std::ostringstream gp;
    gp << "# gnuplot " << csv << ".gp  (Debian: apt-get install gnuplot-nox)\n"
       << "set datafile separator ','\nset terminal pngcairo size 1000,650\n"
       << "set output '" << png << "'\nset key outside right\nset grid\n"
       << "set xlabel 'workers K'\nset ylabel 'throughput (samples/s)'\n"
       << "set title '" << profile.GetModel() << ", " << s.GetArchitectureName() << " "
       << s.GetModeName() << "'\n"
       << "plot for [i=2:" << m_columns.size() + 1 << "] '" << csv
       << "' using 1:i with linespoints title columnhead(i)\n";
    return gp.str();
}

std::string
SweepReport::FormatWritten(const std::string& csv)
{
    const std::string png = csv.substr(0, csv.rfind('.')) + ".png";
    return RunReport::Format("wrote %s and %s.gp (gnuplot %s.gp draws %s)\n",
                             csv.c_str(),
                             csv.c_str(),
                             csv.c_str(),
                             png.c_str());
}

} // namespace ns3

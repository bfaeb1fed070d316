/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "closest-name.h"

#include <algorithm>
#include <cctype>

namespace ns3
{

namespace
{

/// \return text in lower case
std::string
Lower(std::string text)
{
    std::transform(text.begin(),
                   text.end(),
                   text.begin(),
                   [](unsigned char c)
                   {
                       return static_cast<char>(std::tolower(c));
                   });
    return text;
}

/// \return the optimal-string-alignment distance between a and b
std::size_t
EditDistance(const std::string& a, const std::string& b)
{
    // d[i][j]: distance between the first i characters of a and the first j of b.
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i)
    {
        for (std::size_t j = 0; j <= b.size(); ++j)
        {
            if (i == 0 || j == 0)
            {
                d[i][j] = i + j;
                continue;
            }
            const std::size_t change = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + change});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
            {
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
            }
        }
    }
    return d[a.size()][b.size()];
}

} // namespace

std::string
ClosestName(const std::string& name, const std::vector<std::string>& known)
{
    const std::string lower = Lower(name);
    const std::size_t limit = std::max<std::size_t>(1, (name.size() + 1) / 3);
    std::string best;
    std::size_t bestDistance = limit + 1;
    for (const std::string& k : known)
    {
        const std::size_t d = EditDistance(lower, Lower(k));
        if (d < bestDistance)
        {
            best = k;
            bestDistance = d;
        }
    }
    return best;
}

std::string
OrList(const std::vector<std::string>& list)
{
    std::string text;
    for (std::size_t i = 0; i < list.size(); ++i)
    {
        text += (i == 0 ? "" : i + 1 == list.size() ? " or " : ", ") + list[i];
    }
    return text;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "link-failures.h"

#include "ns3/closest-name.h"
#include "ns3/training-input-error.h"
#include "ns3/unit-parser.h"

#include <algorithm>
#include <cmath>
#include <deque>

namespace ns3
{

namespace
{

/// What a --linkDown entry looks like, for messages.
const char* const kOutageSyntax = "link@start[:length] entries separated by commas, the link "
                                  "named as in the link report, e.g. leaf0->spine1@50ms:200ms";
/// The option, for messages.
const char* const kOption = "--linkDown";

/// \return "a->b" of a directed link's ends
std::string
CableName(const FabricTopology& f, uint32_t link)
{
    return f.GetLink(link).name;
}

} // namespace

double
LinkOutage::End() const
{
    return start + length;
}

std::vector<LinkOutage>
LinkFailures::Parse(const std::string& option, const std::string& text)
{
    if (text.empty())
    {
        throw TrainingInputError(option + ": empty value (expected " + kOutageSyntax + ")");
    }
    std::vector<LinkOutage> out;
    for (const auto& entry : UnitParser::Split(text, ','))
    {
        const auto at = entry.rfind('@');
        if (at == std::string::npos || at == 0)
        {
            throw TrainingInputError(option + ": cannot parse '" + entry + "' (expected "
                                     + kOutageSyntax + ")");
        }
        const std::vector<std::string> f = UnitParser::Split(entry.substr(at + 1), ':');
        if (f.empty() || f.size() > 2 || f[0].empty())
        {
            throw TrainingInputError(option + ": cannot parse '" + entry + "' (expected "
                                     + kOutageSyntax + ")");
        }
        LinkOutage o;
        o.link = entry.substr(0, at);
        o.start = UnitParser::ParseDuration(option, f[0]).GetSeconds();
        if (f.size() == 2)
        {
            o.length = UnitParser::ParseDuration(option, f[1]).GetSeconds();
            if (!(o.length > 0))
            {
                throw TrainingInputError(option + ": length '" + f[1] + "' of " + o.link
                                         + " (expected a positive time, e.g. 200ms)");
            }
        }
        out.push_back(o);
    }
    return out;
}

LinkFailures::LinkFailures(const FabricTopology& fabric, const std::vector<LinkOutage>& outages)
    : m_fabric(fabric)
{
    for (const auto& o : outages)
    {
        m_outages.emplace_back(o, Resolve(o.link));
        m_changes.push_back(o.start);
        if (std::isfinite(o.End()))
        {
            m_changes.push_back(o.End());
        }
    }
    std::sort(m_changes.begin(), m_changes.end());
    m_changes.erase(std::unique(m_changes.begin(), m_changes.end()), m_changes.end());
    // Epoch 0 is before the first change; epoch i + 1 from change i on.
    const uint32_t cables = m_fabric.GetNLinks() / 2;
    m_down.assign(m_changes.size() + 1, std::vector<uint8_t>(cables, 0));
    for (uint32_t e = 1; e <= m_changes.size(); ++e)
    {
        const double t = m_changes[e - 1];
        for (const auto& [o, cable] : m_outages)
        {
            if (o.start <= t && t < o.End())
            {
                m_down[e][cable / 2] = 1;
            }
        }
    }
    CheckConnected();
}

uint32_t
LinkFailures::Resolve(const std::string& name) const
{
    std::vector<std::string> names;
    for (uint32_t l = 0; l < m_fabric.GetNLinks(); ++l)
    {
        if (m_fabric.GetLink(l).name == name)
        {
            const uint32_t cable = l & ~1u;
            const auto& a = m_fabric.GetNode(m_fabric.GetLink(cable).from);
            const auto& b = m_fabric.GetNode(m_fabric.GetLink(cable).to);
            if (a.host || b.host)
            {
                // Every host of a fabric has one link (FabricTopology checks topology files).
                throw TrainingInputError(std::string(kOption) + ": " + name
                                         + " is the only link of host " + (a.host ? a.name : b.name)
                                         + " (expected a switch-to-switch link, whose loss "
                                           "leaves the hosts connected)");
            }
            return cable;
        }
        names.push_back(m_fabric.GetLink(l).name);
    }
    const std::string closest = ClosestName(name, names);
    throw TrainingInputError(std::string(kOption) + ": no link '" + name + "' in the "
                             + m_fabric.GetKind() + " fabric"
                             + (closest.empty() ? "" : " (did you mean " + closest + "?)")
                             + " (expected a switch-to-switch link named as in the link report, "
                               "from->to, e.g. leaf0->spine1)");
}

void
LinkFailures::CheckConnected() const
{
    for (std::size_t i = 0; i < m_outages.size(); ++i)
    {
        for (std::size_t j = i + 1; j < m_outages.size(); ++j)
        {
            const auto& [a, ca] = m_outages[i];
            const auto& [b, cb] = m_outages[j];
            if (ca == cb && a.start < b.End() && b.start < a.End())
            {
                throw TrainingInputError(std::string(kOption) + ": two outages of "
                                         + CableName(m_fabric, ca)
                                         + " overlap (expected each link down at most once "
                                           "at a time)");
            }
        }
    }
    std::vector<uint32_t> placed;
    for (uint32_t r = 0; r < m_fabric.GetNRoles(); ++r)
    {
        placed.push_back(m_fabric.GetHostNode(m_fabric.GetRoleHost(r)));
    }
    for (uint32_t e = 1; e < m_down.size() && !placed.empty(); ++e)
    {
        const auto& dist = Distances(e, placed[0]);
        for (uint32_t node : placed)
        {
            if (dist[node] == UINT32_MAX)
            {
                throw TrainingInputError(
                    std::string(kOption) + ": the links down at " + std::to_string(m_changes[e - 1])
                    + " s disconnect " + m_fabric.GetNode(node).name + " from "
                    + m_fabric.GetNode(placed[0]).name
                    + " (expected outages that leave every placed host a path)");
            }
        }
    }
}

bool
LinkFailures::IsEmpty() const
{
    return m_outages.empty();
}

const std::vector<double>&
LinkFailures::GetChangeTimes() const
{
    return m_changes;
}

uint32_t
LinkFailures::GetEpoch(double t) const
{
    return static_cast<uint32_t>(std::upper_bound(m_changes.begin(), m_changes.end(), t)
                                 - m_changes.begin());
}

bool
LinkFailures::IsDown(uint32_t link, double t) const
{
    return m_down[GetEpoch(t)][link / 2] != 0;
}

std::vector<uint32_t>
LinkFailures::GetDownLinks(double t) const
{
    std::vector<uint32_t> out;
    const auto& down = m_down[GetEpoch(t)];
    for (uint32_t c = 0; c < down.size(); ++c)
    {
        if (down[c])
        {
            out.push_back(2 * c);
        }
    }
    return out;
}

const std::vector<std::pair<LinkOutage, uint32_t>>&
LinkFailures::GetOutages() const
{
    return m_outages;
}

const std::vector<uint32_t>&
LinkFailures::Distances(uint32_t epoch, uint32_t target) const
{
    const auto key = std::make_pair(epoch, target);
    auto it = m_dist.find(key);
    if (it != m_dist.end())
    {
        return it->second;
    }
    // Breadth-first search from the target over the surviving links (full duplex, so hops
    // from it equal hops to it).
    const auto& down = m_down[epoch];
    std::vector<uint32_t> dist(m_fabric.GetNNodes(), UINT32_MAX);
    std::deque<uint32_t> queue{target};
    dist[target] = 0;
    while (!queue.empty())
    {
        const uint32_t n = queue.front();
        queue.pop_front();
        for (uint32_t l : m_fabric.GetOutLinks(n))
        {
            const uint32_t m = m_fabric.GetLink(l).to;
            if (!down[l / 2] && dist[m] == UINT32_MAX)
            {
                dist[m] = dist[n] + 1;
                queue.push_back(m);
            }
        }
    }
    return m_dist.emplace(key, std::move(dist)).first->second;
}

uint32_t
LinkFailures::NextHop(uint32_t node,
                      uint32_t to,
                      const FabricTopology::FlowKey& key,
                      double t) const
{
    const uint64_t hash = FabricTopology::EcmpHash(key, m_fabric.GetEcmpSeed(), node);
    const auto base = m_fabric.GetNextHops(node, to);
    const uint32_t epoch = GetEpoch(t);
    if (epoch == 0)
    {
        return base.size() == 1 ? base[0] : base[hash % base.size()]; // GetPath's choice
    }
    const auto& dist = Distances(epoch, to);
    auto inGroup = [&](uint32_t l)
    {
        const uint32_t next = dist[m_fabric.GetLink(l).to];
        return !m_down[epoch][l / 2] && next != UINT32_MAX && next + 1 == dist[node];
    };
    if (!base.empty() && inGroup(base[hash % base.size()]))
    {
        return base[hash % base.size()]; // the flow's next hop is still in the shrunken group
    }
    std::vector<uint32_t> alive;
    for (uint32_t l : m_fabric.GetOutLinks(node))
    {
        if (inGroup(l))
        {
            alive.push_back(l);
        }
    }
    return alive.empty() ? UINT32_MAX : alive[hash % alive.size()];
}

std::vector<uint32_t>
LinkFailures::GetPath(uint32_t fromHost,
                      uint32_t toHost,
                      const FabricTopology::FlowKey& key,
                      double t) const
{
    if (GetEpoch(t) == 0)
    {
        return m_fabric.GetPath(fromHost, toHost, key);
    }
    const uint32_t to = m_fabric.GetHostNode(toHost);
    std::vector<uint32_t> path;
    uint32_t node = m_fabric.GetHostNode(fromHost);
    while (node != to && path.size() <= m_fabric.GetNNodes())
    {
        const uint32_t l = NextHop(node, to, key, t);
        if (l == UINT32_MAX)
        {
            break; // CheckConnected made this impossible for placed hosts
        }
        path.push_back(l);
        node = m_fabric.GetLink(l).to;
    }
    return path;
}

} // namespace ns3

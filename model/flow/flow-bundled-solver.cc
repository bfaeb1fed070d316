/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-bundled-solver.h"

#include "flow-transfer-table.h"

#include <algorithm>
#include <cstring>

namespace ns3
{
namespace flow
{

BundledMaxMinSolver::BundledMaxMinSolver(TransferTable& table,
                                         const SharingModel& sharing,
                                         bool honourCaps,
                                         uint32_t servers)
    : MaxMinSolver(table, sharing, honourCaps),
      m_p(servers),
      m_realLinks(static_cast<uint32_t>(table.Group(DOWN).capacity.size()))
{
    for (Bundles& b : m_bundles)
    {
        b.workers.assign(m_realLinks, 0);
        b.workerXor.assign(m_realLinks, 0);
    }
}

void
BundledMaxMinSolver::Recount(uint32_t ci, bool add, const uint32_t* others, uint32_t nOthers)
{
    // Per link, the workers with an active connection on it and the XOR of their indices (the
    // one, if alone). A worker's bundle is rekeyed when its own set changes, when a link of it
    // goes from one connection to two or back (nOthers), and from one worker to two or back.
    const Connection& c = m_t.Conn(ci);
    Bundles& g = m_bundles[c.dir];
    m_rekey.assign(1, c.worker);
    auto rekey = [this](uint32_t w)
    {
        if (std::find(m_rekey.begin(), m_rekey.end(), w) == m_rekey.end())
        {
            m_rekey.push_back(w);
        }
    };
    for (uint32_t i = 0; i < nOthers; ++i)
    {
        rekey(m_t.Conn(others[i]).worker);
    }
    for (uint32_t i = 0; i < c.nLinks; ++i)
    {
        const uint32_t l = m_t.Links(c)[i];
        if (MateCrosses(ci, l))
        {
            continue; // the worker was, and stays, on this link
        }
        g.workerXor[l] ^= c.worker;
        g.workers[l] += add ? 1 : -1;
        if (g.workers[l] == (add ? 2 : 1))
        {
            rekey(g.workerXor[l] ^ (add ? c.worker : 0));
        }
    }
    for (uint32_t w : m_rekey)
    {
        for (uint32_t p = 0; p < m_p; ++p)
        {
            const uint32_t cj = m_t.ConnIndex(w, p, c.dir);
            if (cj != ci)
            {
                Rekey(cj); // ci itself: classified next (added) or inactive (removed)
            }
        }
    }
}

bool
BundledMaxMinSolver::MateCrosses(uint32_t ci, uint32_t l) const
{
    const Connection& c = m_t.Conn(ci);
    for (uint32_t p = 0; p < m_p; ++p)
    {
        const uint32_t cj = m_t.ConnIndex(c.worker, p, c.dir);
        const Connection& m = m_t.Conn(cj);
        if (cj == ci || !m.active)
        {
            continue;
        }
        const uint32_t* links = m_t.Links(m);
        if (std::find(links, links + m.nLinks, l) != links + m.nLinks)
        {
            return true;
        }
    }
    return false;
}

bool
BundledMaxMinSolver::IsBundleLink(uint32_t gi, uint32_t l) const
{
    return m_links[gi].count[l] >= 2 && m_bundles[gi].workers[l] == 1;
}

void
BundledMaxMinSolver::FindBundle(uint32_t ci)
{
    // m_bundle: the worker's active connections of ci's direction, by server; m_private: the
    // links two or more of them cross and no other worker does, with the members crossing them
    // as a bit mask, in an order that does not depend on the link indices (mask, capacity).
    const Connection& c = m_t.Conn(ci);
    const std::vector<double>& capacity = m_links[c.dir].capacity;
    m_bundle.clear();
    for (uint32_t p = 0; p < m_p; ++p)
    {
        const uint32_t cj = m_t.ConnIndex(c.worker, p, c.dir);
        if (m_t.Conn(cj).active)
        {
            m_bundle.push_back(cj);
        }
    }
    m_private.clear();
    if (m_bundle.size() < 2 || m_bundle.size() > 64)
    {
        return; // alone (the rule of flow-ps-classes.cc), or too many for a mask: links as keys
    }
    for (std::size_t j = 0; j < m_bundle.size(); ++j)
    {
        const Connection& m = m_t.Conn(m_bundle[j]);
        for (uint32_t i = 0; i < m.nLinks; ++i)
        {
            const uint32_t l = m_t.Links(m)[i];
            if (!IsBundleLink(c.dir, l))
            {
                continue;
            }
            auto it = std::find_if(m_private.begin(),
                                   m_private.end(),
                                   [l](const std::pair<uint32_t, uint64_t>& e)
                                   {
                                       return e.first == l;
                                   });
            if (it == m_private.end())
            {
                m_private.emplace_back(l, 0);
                it = m_private.end() - 1;
            }
            it->second |= uint64_t(1) << j;
        }
    }
    std::sort(
        m_private.begin(),
        m_private.end(),
        [&capacity](const std::pair<uint32_t, uint64_t>& a, const std::pair<uint32_t, uint64_t>& b)
        {
            const double ca = capacity[a.first];
            const double cb = capacity[b.first];
            return a.second < b.second || (a.second == b.second && ca < cb);
        });
}

uint32_t
BundledMaxMinSolver::BundleBase(uint32_t gi)
{
    // The signature: per member its server, cap and shared links; per private link its members
    // and capacity. Workers of one signature share its virtual links (one per private link).
    std::vector<double>& capacity = m_links[gi].capacity;
    Bundles& g = m_bundles[gi];
    auto bits = [](double x)
    {
        uint64_t b;
        std::memcpy(&b, &x, sizeof b);
        return b;
    };
    m_sig.clear();
    for (uint32_t cj : m_bundle)
    {
        const ClassKey k = LinkKeyOf(cj);
        m_sig.push_back(m_t.Conn(cj).server);
        m_sig.push_back(bits(k.cap));
        for (uint32_t i = 0; i < k.nLinks; ++i)
        {
            if (!IsBundleLink(gi, k.links[i]))
            {
                m_sig.push_back(k.links[i]);
            }
        }
        m_sig.push_back(UINT64_MAX); // end of the member
    }
    for (const auto& e : m_private)
    {
        m_sig.push_back(e.second);
        m_sig.push_back(bits(capacity[e.first]));
    }
    auto it = g.bySignature.find(m_sig);
    if (it != g.bySignature.end())
    {
        return it->second;
    }
    const uint32_t base = static_cast<uint32_t>(capacity.size());
    for (const auto& e : m_private)
    {
        g.virtualCap.push_back(capacity[e.first]);
        capacity.push_back(capacity[e.first]); // times the bundles, at each computation
    }
    g.bySignature.emplace(m_sig, base);
    return base;
}

ClassKey
BundledMaxMinSolver::KeyOf(uint32_t ci)
{
    // If the worker has links to itself, its member's key: its shared links, the virtual links
    // of its private ones, its server.
    const ClassKey key = LinkKeyOf(ci);
    FindBundle(ci);
    if (m_private.empty())
    {
        return key;
    }
    const Connection& c = m_t.Conn(ci);
    const uint32_t base = BundleBase(c.dir);
    const uint64_t self = uint64_t(1)
                          << (std::find(m_bundle.begin(), m_bundle.end(), ci) - m_bundle.begin());
    ClassKey out;
    out.cap = key.cap;
    out.slot = c.server + 1;
    for (uint32_t i = 0; i < key.nLinks; ++i)
    {
        if (!IsBundleLink(c.dir, key.links[i]))
        {
            out.links[out.nLinks++] = key.links[i];
        }
    }
    for (std::size_t i = 0; i < m_private.size(); ++i)
    {
        if ((m_private[i].second & self) != 0)
        {
            out.links[out.nLinks++] = base + static_cast<uint32_t>(i);
        }
    }
    std::sort(out.links.begin(), out.links.begin() + out.nLinks);
    return out;
}

void
BundledMaxMinSolver::Prepare(uint32_t gi)
{
    // A virtual link carries the bundles of its signature: their number is the members of any
    // class of it (each bundle has one member per class of its signature).
    if (m_bundles[gi].bySignature.empty())
    {
        return;
    }
    std::vector<double>& capacity = m_links[gi].capacity;
    const std::vector<double>& virtualCap = m_bundles[gi].virtualCap;
    for (uint32_t k : m_t.Group(gi).classes)
    {
        const ClassKey& key = m_keys[k];
        for (uint32_t i = 0; key.slot != 0 && i < key.nLinks; ++i)
        {
            const uint32_t v = key.links[i];
            if (v >= m_realLinks)
            {
                capacity[v] = virtualCap[v - m_realLinks] * m_t.Class(k).members.size();
            }
        }
    }
}

} // namespace flow
} // namespace ns3

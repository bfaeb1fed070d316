/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// FlowPsEngine's rate classes with several parameter servers (plain max-min). A worker's
// connections of one direction (its bundle: one per server it is sending to or receiving from)
// cross its NIC together, so no two of them are interchangeable with each other, and by the rule
// of flow-ps-classes.cc (a link is in a class's key once two connections cross it) each would be
// a class of its own: a rate computation would cost per active connection. But two workers whose
// bundles look the same (the same servers, the same shared links and caps, links they have to
// themselves crossed by the same members with the same capacities) are interchangeable as a
// whole, and max-min fairness, whose allocation is unique, gives both the same rates. So the
// class of a bundle's member is keyed by the bundle's signature and its server, and the links a
// bundle has to itself become virtual links of that signature: n bundles of one signature are n
// times one bundle, a virtual link of n times the capacity crossed by aggregates of weight n.

#include "flow-ps-engine.h"

#include <algorithm>
#include <cstring>

namespace ns3
{
namespace flow
{

void
FlowPsEngine::CountWorkers(uint32_t ci, bool add, const uint32_t* others, uint32_t nOthers)
{
    // Per link, the workers with an active connection on it and the XOR of their indices (the
    // one, if alone). A worker's bundle is rekeyed when its own set changes, when a link of it
    // goes from one connection to two or back (nOthers), and from one worker to two or back.
    const Connection& c = m_conns[ci];
    Group& g = m_groups[c.dir];
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
        rekey(m_conns[others[i]].worker);
    }
    for (uint32_t i = 0; i < c.nLinks; ++i)
    {
        const uint32_t l = m_pathLinks[c.path + i];
        if (MateCrosses(ci, l))
        {
            continue; // the worker was, and stays, on this link
        }
        g.linkWorkerXor[l] ^= c.worker;
        g.linkWorkers[l] += add ? 1 : -1;
        if (g.linkWorkers[l] == (add ? 2 : 1))
        {
            rekey(g.linkWorkerXor[l] ^ (add ? c.worker : 0));
        }
    }
    for (uint32_t w : m_rekey)
    {
        for (uint32_t p = 0; p < m_p; ++p)
        {
            const uint32_t cj = ConnIndex(w, p, c.dir);
            if (cj != ci)
            {
                Rekey(cj); // ci itself: classified next (added) or inactive (removed)
            }
        }
    }
}

bool
FlowPsEngine::MateCrosses(uint32_t ci, uint32_t l) const
{
    const Connection& c = m_conns[ci];
    for (uint32_t p = 0; p < m_p; ++p)
    {
        const uint32_t cj = ConnIndex(c.worker, p, c.dir);
        const Connection& m = m_conns[cj];
        if (cj == ci || !m.active)
        {
            continue;
        }
        const uint32_t* links = m_pathLinks.data() + m.path;
        if (std::find(links, links + m.nLinks, l) != links + m.nLinks)
        {
            return true;
        }
    }
    return false;
}

bool
FlowPsEngine::IsBundleLink(const Group& g, uint32_t l) const
{
    return g.linkCount[l] >= 2 && g.linkWorkers[l] == 1;
}

void
FlowPsEngine::FindBundle(uint32_t ci)
{
    // m_bundle: the worker's active connections of ci's direction, by server; m_private: the
    // links two or more of them cross and no other worker does, with the members crossing them
    // as a bit mask, in an order that does not depend on the link indices (mask, capacity).
    const Connection& c = m_conns[ci];
    const Group& g = m_groups[c.dir];
    m_bundle.clear();
    for (uint32_t p = 0; p < m_p; ++p)
    {
        const uint32_t cj = ConnIndex(c.worker, p, c.dir);
        if (m_conns[cj].active)
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
        const Connection& m = m_conns[m_bundle[j]];
        for (uint32_t i = 0; i < m.nLinks; ++i)
        {
            const uint32_t l = m_pathLinks[m.path + i];
            if (!IsBundleLink(g, l))
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
    std::sort(m_private.begin(),
              m_private.end(),
              [&g](const std::pair<uint32_t, uint64_t>& a, const std::pair<uint32_t, uint64_t>& b)
              {
                  const double ca = g.capacity[a.first];
                  const double cb = g.capacity[b.first];
                  return a.second < b.second || (a.second == b.second && ca < cb);
              });
}

uint32_t
FlowPsEngine::BundleBase(uint32_t gi)
{
    // The signature: per member its server, cap and shared links; per private link its members
    // and capacity. Workers of one signature share its virtual links (one per private link).
    Group& g = m_groups[gi];
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
        m_sig.push_back(m_conns[cj].server);
        m_sig.push_back(bits(k.cap));
        for (uint32_t i = 0; i < k.nLinks; ++i)
        {
            if (!IsBundleLink(g, k.links[i]))
            {
                m_sig.push_back(k.links[i]);
            }
        }
        m_sig.push_back(UINT64_MAX); // end of the member
    }
    for (const auto& e : m_private)
    {
        m_sig.push_back(e.second);
        m_sig.push_back(bits(g.capacity[e.first]));
    }
    auto it = g.bundles.find(m_sig);
    if (it != g.bundles.end())
    {
        return it->second;
    }
    const uint32_t base = static_cast<uint32_t>(g.capacity.size());
    for (const auto& e : m_private)
    {
        g.virtualCap.push_back(g.capacity[e.first]);
        g.capacity.push_back(g.capacity[e.first]); // times the bundles, at each computation
    }
    g.bundles.emplace(m_sig, base);
    return base;
}

void
FlowPsEngine::BundleKey(uint32_t ci, ClassKey& key)
{
    FindBundle(ci);
    if (m_private.empty())
    {
        return;
    }
    const Connection& c = m_conns[ci];
    const Group& g = m_groups[c.dir];
    const uint32_t base = BundleBase(c.dir);
    const uint64_t self = uint64_t(1)
                          << (std::find(m_bundle.begin(), m_bundle.end(), ci) - m_bundle.begin());
    ClassKey out;
    out.cap = key.cap;
    out.slot = c.server + 1;
    for (uint32_t i = 0; i < key.nLinks; ++i)
    {
        if (!IsBundleLink(g, key.links[i]))
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
    key = out;
}

void
FlowPsEngine::SetBundleCapacities(uint32_t gi)
{
    // A virtual link carries the bundles of its signature: their number is the members of any
    // class of it (each bundle has one member per class of its signature).
    Group& g = m_groups[gi];
    for (uint32_t k : g.classes)
    {
        const ClassKey& key = m_keys[k];
        for (uint32_t i = 0; key.slot != 0 && i < key.nLinks; ++i)
        {
            const uint32_t v = key.links[i];
            if (v >= m_realLinks)
            {
                g.capacity[v] = g.virtualCap[v - m_realLinks] * m_classes[k].members.size();
            }
        }
    }
}

} // namespace flow
} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-class-heap.h"

namespace ns3
{
namespace flow
{

ClassHeap::ClassHeap(std::vector<RateClass>& classes)
    : m_classes(&classes)
{
}

void
ClassHeap::Insert(uint32_t k)
{
    (*m_classes)[k].heapPos = static_cast<uint32_t>(m_heap.size());
    m_heap.push_back(k);
    Fix(m_heap.size() - 1);
}

void
ClassHeap::Remove(uint32_t k)
{
    const std::size_t i = (*m_classes)[k].heapPos;
    const uint32_t moved = m_heap.back();
    m_heap.pop_back();
    if (i < m_heap.size())
    {
        m_heap[i] = moved;
        (*m_classes)[moved].heapPos = static_cast<uint32_t>(i);
        Fix(i);
    }
}

// Out of line: inlined into the engine's RefreshClass (every rate change) it made that hot
// function slower.
__attribute__((noinline)) void
ClassHeap::Update(uint32_t k)
{
    Fix((*m_classes)[k].heapPos);
}

double
ClassHeap::Top() const
{
    return m_heap.empty() ? INF : TimeAt(0);
}

uint64_t
ClassHeap::Due(double now, std::vector<uint32_t>& due)
{
    uint64_t visited = 0;
    m_stack.clear();
    if (!m_heap.empty())
    {
        m_stack.push_back(0);
    }
    while (!m_stack.empty())
    {
        const std::size_t i = m_stack.back();
        m_stack.pop_back();
        ++visited;
        if (TimeAt(i) > now)
        {
            continue;
        }
        due.push_back(m_heap[i]);
        for (std::size_t c = 2 * i + 1; c <= 2 * i + 2 && c < m_heap.size(); ++c)
        {
            m_stack.push_back(c);
        }
    }
    return visited;
}

void
ClassHeap::Fix(std::size_t i)
{
    std::vector<RateClass>& cls = *m_classes;
    auto& h = m_heap;
    const uint32_t k = h[i];
    const double t = cls[k].nextTime;
    while (i > 0 && cls[h[(i - 1) / 2]].nextTime > t)
    {
        h[i] = h[(i - 1) / 2];
        cls[h[i]].heapPos = static_cast<uint32_t>(i);
        i = (i - 1) / 2;
    }
    for (std::size_t c = 2 * i + 1; c < h.size(); c = 2 * i + 1)
    {
        if (c + 1 < h.size() && cls[h[c + 1]].nextTime < cls[h[c]].nextTime)
        {
            ++c;
        }
        if (cls[h[c]].nextTime >= t)
        {
            break;
        }
        h[i] = h[c];
        cls[h[i]].heapPos = static_cast<uint32_t>(i);
        i = c;
    }
    h[i] = k;
    cls[k].heapPos = static_cast<uint32_t>(i);
}

} // namespace flow
} // namespace ns3

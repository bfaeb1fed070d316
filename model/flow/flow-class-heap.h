/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_CLASS_HEAP_H
#define FLOW_CLASS_HEAP_H

#include "flow-rate-class.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace flow
{

/**
 * The live rate classes of one direction as a binary heap by next drain time (RateClass::nextTime;
 * each class keeps its position, RateClass::heapPos). A solver whose rate computation changes
 * few classes (FcfsSolver) keeps one, so that the next check and the drained classes cost per
 * class changed, not per live class.
 */
class ClassHeap
{
  public:
    /** \param classes the engine's rate classes (live or free) */
    explicit ClassHeap(std::vector<RateClass>& classes);

    /**
     * \brief Put a new class in the heap.
     * \param k rate class
     */
    void Insert(uint32_t k);
    /**
     * \brief Take a released class out of the heap.
     * \param k rate class
     */
    void Remove(uint32_t k);
    /**
     * \brief Restore the heap after k's nextTime changed.
     * \param k rate class
     */
    void Update(uint32_t k);
    /** \return the earliest next drain time (infinity when empty) */
    double Top() const;
    /**
     * \brief The classes whose next drain time is not after now: a walk down from the root that
     * stops below any class due later.
     * \param now the time
     * \param due where to append them
     * \return heap entries looked at
     */
    uint64_t Due(double now, std::vector<uint32_t>& due);

  private:
    /**
     * \brief Sift the entry at position i up or down to its place.
     * \param i position
     */
    void Fix(std::size_t i);

    /**
     * \param i position
     * \return the next drain time of the class there
     */
    double TimeAt(std::size_t i) const
    {
        return (*m_classes)[m_heap[i]].nextTime;
    }

    std::vector<RateClass>* m_classes; //!< the engine's classes (their heapPos is written here)
    std::vector<uint32_t> m_heap;      //!< class indices, a heap by nextTime
    std::vector<std::size_t> m_stack;  //!< scratch: positions to visit (Due)
};

} // namespace flow
} // namespace ns3

#endif /* FLOW_CLASS_HEAP_H */

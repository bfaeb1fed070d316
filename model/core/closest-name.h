/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CLOSEST_NAME_H
#define CLOSEST_NAME_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The known name closest to a misspelled one, for "did you mean" in error messages (the
 * command-line options, the keys of JSON input files).
 *
 * Closeness is the optimal-string-alignment distance (insertions, deletions, substitutions and
 * swaps of neighbours each cost 1) between the lower-case names; a name is suggested when it is
 * at most max(1, (length + 1) / 3) away, so "worker" finds "workers" and "nicrate" "nicRate", while
 * a word that merely shares a few letters with a name finds nothing (a three-letter "foo" is not
 * "solo", two edits away).
 * \param name the unknown name
 * \param known the names to choose from
 * \return the closest known name (the first in order among equals), or "" if none is close
 */
std::string ClosestName(const std::string& name, const std::vector<std::string>& known);

/**
 * \ingroup distributed-training
 * \param list names
 * \return "a, b or c", as messages list what is expected
 */
std::string OrList(const std::vector<std::string>& list);

} // namespace ns3

#endif /* CLOSEST_NAME_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JSON_INPUT_H
#define JSON_INPUT_H

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Reading the user's files (profiles, scenarios, jobs, topologies, validation matrices,
 * the runner's resumed results and job keys) with limits: one place for the checks every input
 * file gets before its own schema is read.
 *
 * - the path must name an existing regular file (a directory, a device such as /dev/zero or a
 *   FIFO, also behind a symbolic link, is named as such; the check is made on the opened
 *   descriptor, which is opened without blocking, so nothing can be swapped in meanwhile) of at
 *   most maxBytes bytes (read at most maxBytes + 1 bytes, so a file that grows while read
 *   cannot exhaust memory);
 * - the text must be valid JSON nested at most maxDepth arrays/objects deep (so a hostile file
 *   of 80,000 nested arrays is refused before it can exhaust the stack);
 * - an object must not repeat a key (nlohmann keeps the last value silently, which would hide a
 *   mistake in a hand-written file).
 *
 * Every failure is a TrainingInputError "<source>: <JSON path>: <what> (expected <what>)".
 */
class JsonInput
{
  public:
    /// Parsed documents keep their key order (ordered_json), as the readers expect.
    using Json = nlohmann::ordered_json;

    /// Limits of one kind of JSON input.
    struct Limits
    {
        std::uint64_t maxBytes; //!< largest file or text accepted
        std::size_t maxDepth;   //!< deepest nesting of arrays and objects accepted
        std::string expected;   //!< what the file should be, for messages ("a profile JSON ...")
    };

    /**
     * \param path the file
     * \param limits size limit and the description of the expected content
     * \return the file's text
     * \throws TrainingInputError if the path is missing, not a regular file, unreadable or too big
     */
    static std::string ReadFile(const std::string& path, const Limits& limits);

    /**
     * \param mode a stat() st_mode
     * \return what it is, for messages: "a directory", "a FIFO (named pipe)", ...
     */
    static std::string KindOfMode(unsigned mode);

    /**
     * \param text JSON text
     * \param source file name (or other label) for messages
     * \param limits size and depth limits
     * \return the document
     * \throws TrainingInputError on syntax errors, too deep nesting, duplicate keys, too big text
     */
    static Json Parse(const std::string& text, const std::string& source, const Limits& limits);

    /**
     * The same checks, into a document whose objects keep their keys sorted (std::map): for
     * large documents read back (result files with a key per link), where an ordered_json
     * object would cost a linear search per key inserted or looked up.
     * \param text JSON text \param source file name \param limits limits \return the document
     * \throws TrainingInputError as Parse
     */
    static nlohmann::json ParseSorted(const std::string& text,
                                      const std::string& source,
                                      const Limits& limits);
};

} // namespace ns3

#endif /* JSON_INPUT_H */

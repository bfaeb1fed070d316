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
 * \brief Reading the user's JSON files (profiles, validation matrices) with limits: one place
 * for the checks every JSON input gets before its own schema is read.
 *
 * - the path must name an existing regular file (a directory, a device such as /dev/zero or a
 *   FIFO is named as such) of at most maxBytes bytes (read at most maxBytes + 1 bytes, so a
 *   file that grows while read cannot exhaust memory);
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
     * \param text JSON text
     * \param source file name (or other label) for messages
     * \param limits size and depth limits
     * \return the document
     * \throws TrainingInputError on syntax errors, too deep nesting, duplicate keys, too big text
     */
    static Json Parse(const std::string& text, const std::string& source, const Limits& limits);
};

} // namespace ns3

#endif /* JSON_INPUT_H */

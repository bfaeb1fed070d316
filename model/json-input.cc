/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "json-input.h"

#include "training-input-error.h"

#include "ns3/log.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("JsonInput");

namespace
{

/// What a file system entry is, for "is a directory" style messages.
std::string
KindOf(const std::filesystem::file_status& st)
{
    switch (st.type())
    {
        case std::filesystem::file_type::directory:
            return "a directory";
        case std::filesystem::file_type::character:
            return "a character device";
        case std::filesystem::file_type::block:
            return "a block device";
        case std::filesystem::file_type::fifo:
            return "a FIFO (named pipe)";
        case std::filesystem::file_type::socket:
            return "a socket";
        default:
            return "not a regular file";
    }
}

/**
 * Follows the parser's events: the nesting (for the depth limit and the JSON path of a message)
 * and the keys seen in every open object (for duplicates).
 */
class StrictJsonTracker
{
  public:
    /// One open array or object.
    struct Frame
    {
        bool array;                 //!< array (else object)
        std::size_t index;          //!< array: index of the element being read
        std::string key;            //!< object: the key being read
        std::set<std::string> keys; //!< object: keys seen so far
    };

    /**
     * \param source file name for messages
     * \param limits the depth limit
     */
    StrictJsonTracker(const std::string& source, const JsonInput::Limits& limits)
        : m_source(source),
          m_limits(limits)
    {
    }

    /// The parser callback (nlohmann::json::parser_callback_t).
    bool OnEvent(nlohmann::detail::parse_event_t event, JsonInput::Json& parsed)
    {
        using E = nlohmann::detail::parse_event_t;
        switch (event)
        {
            case E::object_start:
            case E::array_start:
                if (m_frames.size() >= m_limits.maxDepth)
                {
                    Fail("nesting deeper than " + std::to_string(m_limits.maxDepth) + " levels",
                         "at most " + std::to_string(m_limits.maxDepth) + " nested arrays/objects");
                }
                m_frames.push_back({event == E::array_start, 0, "", {}});
                break;
            case E::key:
                m_frames.back().key = parsed.get<std::string>();
                if (!m_frames.back().keys.insert(m_frames.back().key).second)
                {
                    Fail("duplicate key \"" + m_frames.back().key + "\"",
                         "each key at most once per object");
                }
                break;
            case E::object_end:
            case E::array_end:
                m_frames.pop_back();
                NextElement();
                break;
            case E::value:
                NextElement();
                break;
        }
        return true;
    }

  private:
    /// A scalar or a container ended: the enclosing array moves to its next index.
    void NextElement()
    {
        if (!m_frames.empty() && m_frames.back().array)
        {
            ++m_frames.back().index;
        }
    }

    /// The JSON path of the value being read, e.g. layers[3].name.
    std::string Path() const
    {
        std::string path;
        for (const auto& f : m_frames)
        {
            if (f.array)
            {
                path += "[" + std::to_string(f.index) + "]";
            }
            else if (!f.key.empty())
            {
                path += (path.empty() ? "" : ".") + f.key;
            }
        }
        return path.empty() ? "(top level)" : path;
    }

    [[noreturn]] void Fail(const std::string& what, const std::string& expected) const
    {
        throw TrainingInputError(m_source + ": " + Path() + ": " + what + " (expected " + expected
                                 + ")");
    }

    std::string m_source;        //!< file name
    JsonInput::Limits m_limits;  //!< limits
    std::vector<Frame> m_frames; //!< open arrays and objects, outermost first
};

} // namespace

std::string
JsonInput::ReadFile(const std::string& path, const Limits& limits)
{
    NS_LOG_FUNCTION(path);
    std::error_code ec;
    const auto st = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(st))
    {
        throw TrainingInputError(path + ": no such file (expected " + limits.expected + ")");
    }
    if (!std::filesystem::is_regular_file(st))
    {
        throw TrainingInputError(path + ": " + KindOf(st) + ", not a regular file (expected "
                                 + limits.expected + ")");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw TrainingInputError(path + ": cannot open: " + std::strerror(errno) + " (expected "
                                 + limits.expected + ")");
    }
    // Read at most maxBytes + 1 bytes whatever the file claims to be (it may grow).
    std::string text;
    std::vector<char> buf(1 << 16);
    while (in && text.size() <= limits.maxBytes)
    {
        in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
        text.append(buf.data(), static_cast<std::size_t>(in.gcount()));
    }
    if (in.bad())
    {
        throw TrainingInputError(path + ": read error (expected " + limits.expected + ")");
    }
    if (text.size() > limits.maxBytes)
    {
        throw TrainingInputError(path + ": larger than " + std::to_string(limits.maxBytes)
                                 + " bytes (expected " + limits.expected + " of at most "
                                 + std::to_string(limits.maxBytes) + " bytes)");
    }
    return text;
}

JsonInput::Json
JsonInput::Parse(const std::string& text, const std::string& source, const Limits& limits)
{
    NS_LOG_FUNCTION(source << text.size());
    if (text.size() > limits.maxBytes)
    {
        throw TrainingInputError(source + ": " + std::to_string(text.size())
                                 + " bytes of JSON (expected at most "
                                 + std::to_string(limits.maxBytes) + ")");
    }
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    {
        throw TrainingInputError(source + ": empty file (expected " + limits.expected + ")");
    }
    StrictJsonTracker tracker(source, limits);
    try
    {
        return Json::parse(text,
                           [&tracker](int, nlohmann::detail::parse_event_t event, Json& parsed)
                           {
                               return tracker.OnEvent(event, parsed);
                           });
    }
    catch (const Json::exception& e)
    {
        // parse_error for syntax, out_of_range for numbers that overflow a double (1e999).
        std::string msg = e.what();
        auto pos = msg.find("] ");
        msg = pos == std::string::npos ? msg : msg.substr(pos + 2);
        const auto* parseError = dynamic_cast<const Json::parse_error*>(&e);
        bool truncated = parseError && parseError->byte >= text.size();
        throw TrainingInputError(source + ": "
                                 + (truncated ? "truncated JSON: " : "not valid JSON: ") + msg
                                 + " (expected " + limits.expected + ")");
    }
}

} // namespace ns3

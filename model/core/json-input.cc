/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "json-input.h"

#include "json-object-reader.h"
#include "training-input-error.h"

#include "ns3/log.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <set>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("JsonInput");

namespace
{

/**
 * A SAX handler run over the text before the document is built: the nesting (for the depth
 * limit and the JSON path of a message) and the keys seen in every open object (for
 * duplicates). A SAX pass, not a parser callback: nlohmann's callback parser scans the whole
 * enclosing array for discarded values at the end of each object, which made a profile of
 * 100,000 layers take seconds (quadratic); this pass and the plain parse after it are linear.
 */
class StrictJsonSax
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
    StrictJsonSax(const std::string& source, const JsonInput::Limits& limits)
        : m_source(source),
          m_limits(limits)
    {
    }

    /// \name The SAX interface (nlohmann::json_sax): scalars
    /// \{
    bool null()
    {
        return NextElement();
    }

    bool boolean(bool)
    {
        return NextElement();
    }

    bool number_integer(std::int64_t)
    {
        return NextElement();
    }

    bool number_unsigned(std::uint64_t)
    {
        return NextElement();
    }

    bool number_float(double, const std::string&)
    {
        return NextElement();
    }

    bool string(std::string&)
    {
        return NextElement();
    }

    bool binary(nlohmann::json::binary_t&)
    {
        return NextElement();
    }

    /// \}

    /// \name The SAX interface: containers and keys
    /// \{
    bool start_object(std::size_t)
    {
        return Open(false);
    }

    bool start_array(std::size_t)
    {
        return Open(true);
    }

    bool end_object()
    {
        m_frames.pop_back();
        return NextElement();
    }

    bool end_array()
    {
        return end_object();
    }

    bool key(std::string& k)
    {
        m_frames.back().key = k;
        if (!m_frames.back().keys.insert(k).second)
        {
            Fail("duplicate key \"" + k + "\"", "each key at most once per object");
        }
        return true;
    }

    /// A syntax error or a number out of range: kept for ParseChecked's message.
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e)
    {
        m_errorPosition = position;
        m_errorId = e.id;
        m_error = e.what();
        return false;
    }

    /// \}

    /// \return the parser's message ("" if none)
    const std::string& Error() const
    {
        return m_error;
    }

    /// \param size the text's size \return true if the error is the text ending too early
    bool Truncated(std::size_t size) const
    {
        return m_errorId < 200 && m_errorPosition >= size; // 1xx: parse_error
    }

  private:
    /// An array or object opens. \return true
    bool Open(bool array)
    {
        if (m_frames.size() >= m_limits.maxDepth)
        {
            Fail("nesting deeper than " + std::to_string(m_limits.maxDepth) + " levels",
                 "at most " + std::to_string(m_limits.maxDepth) + " nested arrays/objects");
        }
        m_frames.push_back({array, 0, "", {}});
        return true;
    }

    /// A scalar or a container ended: the enclosing array moves to its next index. \return true
    bool NextElement()
    {
        if (!m_frames.empty() && m_frames.back().array)
        {
            ++m_frames.back().index;
        }
        return true;
    }

    /// The JSON path of the value being read, e.g. layers[3].name ("" at the top level).
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
        return path;
    }

    [[noreturn]] void Fail(const std::string& what, const std::string& expected) const
    {
        JsonPlace(m_source, Path()).Fail(what, expected);
    }

    std::string m_source;           //!< file name
    JsonInput::Limits m_limits;     //!< limits
    std::vector<Frame> m_frames;    //!< open arrays and objects, outermost first
    std::string m_error;            //!< the parser's message
    std::size_t m_errorPosition{0}; //!< where it stopped
    int m_errorId{0};               //!< nlohmann's exception id
};

} // namespace

namespace
{

/**
 * The checked parse of both document types.
 * \param text JSON text \param source file name \param limits limits \return the document
 */
template<class J>
J
ParseChecked(const std::string& text, const std::string& source, const JsonInput::Limits& limits)
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
    StrictJsonSax sax(source, limits);
    if (!nlohmann::json::sax_parse(text, &sax))
    {
        // parse_error for syntax, out_of_range for numbers that overflow a double (1e999).
        std::string msg = sax.Error();
        auto pos = msg.find("] ");
        msg = pos == std::string::npos ? msg : msg.substr(pos + 2);
        throw TrainingInputError(
            source + ": " + (sax.Truncated(text.size()) ? "truncated JSON: " : "not valid JSON: ")
            + msg + " (expected " + limits.expected + ")");
    }
    // Checked: the plain parse cannot fail, and costs time linear in the text.
    return J::parse(text);
}

} // namespace

JsonInput::Json
JsonInput::Parse(const std::string& text, const std::string& source, const Limits& limits)
{
    return ParseChecked<Json>(text, source, limits);
}

nlohmann::json
JsonInput::ParseSorted(const std::string& text, const std::string& source, const Limits& limits)
{
    return ParseChecked<nlohmann::json>(text, source, limits);
}

std::string
JsonInput::KindOfMode(unsigned mode)
{
    switch (mode & S_IFMT)
    {
        case S_IFREG:
            return "a regular file";
        case S_IFDIR:
            return "a directory";
        case S_IFCHR:
            return "a character device";
        case S_IFBLK:
            return "a block device";
        case S_IFIFO:
            return "a FIFO (named pipe)";
        case S_IFSOCK:
            return "a socket";
        default:
            return "not a regular file";
    }
}

std::string
JsonInput::ReadFile(const std::string& path, const Limits& limits)
{
    NS_LOG_FUNCTION(path);
    // Open without blocking (a FIFO with no writer would block open() itself, a terminal
    // would become the controlling one), then judge the descriptor: checking the path first
    // and opening it after would let a FIFO or a device be swapped in between.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
    {
        const int err = errno;
        throw TrainingInputError(path + ": "
                                 + (err == ENOENT || err == ENOTDIR
                                        ? std::string("no such file")
                                        : "cannot open: " + std::string(std::strerror(err)))
                                 + " (expected " + limits.expected + ")");
    }

    struct stat st
    {
    };

    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    {
        const std::string kind = KindOfMode(st.st_mode);
        ::close(fd);
        throw TrainingInputError(path + ": " + kind + ", not a regular file (expected "
                                 + limits.expected + ")");
    }
    // Read at most maxBytes + 1 bytes whatever the file claims to be (it may grow).
    std::string text;
    std::vector<char> buf(1 << 16);
    int err = 0;
    while (text.size() <= limits.maxBytes)
    {
        const ssize_t n = ::read(fd, buf.data(), buf.size());
        if (n < 0 && errno == EINTR)
        {
            continue;
        }
        if (n <= 0)
        {
            err = n < 0 ? errno : 0;
            break;
        }
        text.append(buf.data(), static_cast<std::size_t>(n));
    }
    ::close(fd);
    if (err != 0)
    {
        throw TrainingInputError(path + ": read error: " + std::strerror(err) + " (expected "
                                 + limits.expected + ")");
    }
    if (text.size() > limits.maxBytes)
    {
        throw TrainingInputError(path + ": larger than " + std::to_string(limits.maxBytes)
                                 + " bytes (expected " + limits.expected + " of at most "
                                 + std::to_string(limits.maxBytes) + " bytes)");
    }
    return text;
}

} // namespace ns3

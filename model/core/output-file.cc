/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "output-file.h"

#include "json-input.h"
#include "training-input-error.h"

#include "ns3/log.h"

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <streambuf>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OutputFile");

/**
 * A stream buffer over a file descriptor that keeps the first write error (errno) instead of
 * losing it in the stream's state bits, so Commit() can say "No space left on device".
 */
class OutputFile::Buffer : public std::streambuf
{
  public:
    /// \param fd the descriptor written to (not owned)
    explicit Buffer(int fd)
        : m_fd(fd),
          m_data(1 << 16)
    {
        setp(m_data.data(), m_data.data() + m_data.size());
    }

    /// \return the first error (0 if none)
    int Error() const
    {
        return m_error;
    }

    /// Write what is buffered. \return 0 or the first error
    int Drain()
    {
        const char* p = pbase();
        std::size_t left = static_cast<std::size_t>(pptr() - pbase());
        while (left > 0 && m_error == 0)
        {
            const ssize_t n = ::write(m_fd, p, left);
            if (n < 0 && errno == EINTR)
            {
                continue;
            }
            if (n <= 0)
            {
                m_error = n < 0 ? errno : EIO;
                break;
            }
            p += n;
            left -= static_cast<std::size_t>(n);
        }
        setp(m_data.data(), m_data.data() + m_data.size());
        return m_error;
    }

  protected:
    int_type overflow(int_type c) override
    {
        if (Drain() != 0)
        {
            return traits_type::eof();
        }
        if (!traits_type::eq_int_type(c, traits_type::eof()))
        {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }

    int sync() override
    {
        return Drain() == 0 ? 0 : -1;
    }

  private:
    int m_fd;                 //!< descriptor
    std::vector<char> m_data; //!< the buffer
    int m_error{0};           //!< first errno
};

namespace
{

/**
 * The temporary files of the OutputFiles not yet committed, for the handler of a signal that ends
 * the process (Ctrl-C in a long run): without it the hidden ".name.XXXXXX" files would stay
 * behind. Plain arrays and sig_atomic_t flags, because the handler may only read what is
 * async-signal-safe; a path beyond the slots is simply not cleaned on a signal.
 */
constexpr std::size_t kTemporarySlots = 32;
char g_temporaries[kTemporarySlots][PATH_MAX];               //!< the paths
volatile std::sig_atomic_t g_temporaryUsed[kTemporarySlots]; //!< 1 while a path is valid
/// The signals whose default action ends the process and that a user sends to stop a run.
constexpr int kCleanedSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

/// Remove every registered temporary file, then die of the signal as if not caught.
void
RemoveTemporariesAndDie(int signal)
{
    for (std::size_t i = 0; i < kTemporarySlots; ++i)
    {
        if (g_temporaryUsed[i] != 0)
        {
            ::unlink(g_temporaries[i]);
        }
    }
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

/// Install RemoveTemporariesAndDie for the signals that still have their default action (a
/// program's or a debugger's own handler is left alone). Once per process.
void
InstallSignalCleanup()
{
    static const bool installed = []
    {
        for (int sig : kCleanedSignals)
        {
            struct sigaction old;
            if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_DFL)
            {
                struct sigaction act = {};
                act.sa_handler = RemoveTemporariesAndDie;
                sigemptyset(&act.sa_mask);
                ::sigaction(sig, &act, nullptr);
            }
        }
        return true;
    }();
    (void) installed;
}

/// \param path a temporary file \return its slot, or -1 if none was free (or it is too long)
int
RegisterTemporary(const std::string& path)
{
    InstallSignalCleanup();
    if (path.size() >= PATH_MAX)
    {
        return -1;
    }
    for (std::size_t i = 0; i < kTemporarySlots; ++i)
    {
        if (g_temporaryUsed[i] == 0)
        {
            std::memcpy(g_temporaries[i], path.c_str(), path.size() + 1);
            g_temporaryUsed[i] = 1;
            return static_cast<int>(i);
        }
    }
    return -1;
}

/// \param slot a slot from RegisterTemporary (or -1)
void
UnregisterTemporary(int slot)
{
    if (slot >= 0)
    {
        g_temporaryUsed[slot] = 0;
    }
}

} // namespace

OutputFile::OutputFile(const std::string& path, const std::string& option, Mode mode)
    : m_path(path),
      m_option(option),
      m_target(path)
{
    NS_LOG_FUNCTION(this << path << option << mode);
    if (path.empty())
    {
        Fail("empty file name (expected a file name)");
    }
    struct stat st;
    const bool exists = ::stat(path.c_str(), &st) == 0;
    struct stat lst;
    if (!exists && ::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode))
    {
        Fail("a symbolic link to a missing file (expected a regular file or a new name)");
    }
    if (exists && !S_ISREG(st.st_mode))
    {
        Fail(JsonInput::KindOfMode(st.st_mode)
             + ", not a regular file (expected a regular file or a new name)");
    }
    if (exists)
    {
        // Write next to the link's target, so the rename replaces the file, not the link.
        char resolved[PATH_MAX];
        if (::realpath(path.c_str(), resolved) == nullptr)
        {
            Fail(std::string("cannot resolve: ") + std::strerror(errno));
        }
        m_target = resolved;
        m_mode = st.st_mode & 07777;
    }
    else
    {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        m_mode = 0666 & ~mask;
    }
    try
    {
        CreateTemporary();
        m_buffer = std::make_unique<Buffer>(m_fd);
        m_stream = std::make_unique<std::ostream>(m_buffer.get());
        if (mode == APPEND && exists)
        {
            CopyExisting();
        }
    }
    catch (const TrainingInputError&)
    {
        Discard(); // the destructor does not run for a constructor that throws
        throw;
    }
}

OutputFile::~OutputFile()
{
    if (!m_committed)
    {
        Discard();
    }
}

void
OutputFile::Discard()
{
    if (m_fd >= 0)
    {
        ::close(m_fd);
        m_fd = -1;
    }
    if (!m_temporary.empty())
    {
        UnregisterTemporary(m_slot);
        m_slot = -1;
        ::unlink(m_temporary.c_str());
        m_temporary.clear();
    }
}

void
OutputFile::Fail(const std::string& what) const
{
    throw TrainingInputError((m_option.empty() ? "" : m_option + ": ") + "cannot write '" + m_path
                             + "': " + what);
}

void
OutputFile::CreateTemporary()
{
    const auto slash = m_target.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : m_target.substr(0, slash + 1);
    const std::string name = slash == std::string::npos ? m_target : m_target.substr(slash + 1);
    std::string pattern = (slash == std::string::npos ? "" : dir) + "." + name + ".XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    m_fd = ::mkostemp(buf.data(), O_CLOEXEC);
    if (m_fd < 0)
    {
        Fail("cannot create a temporary file in '" + dir + "': " + std::strerror(errno)
             + " (expected a writable folder)");
    }
    m_temporary = buf.data();
    m_slot = RegisterTemporary(m_temporary);
    if (::fchmod(m_fd, m_mode) != 0)
    {
        Fail(std::string("cannot set permissions: ") + std::strerror(errno));
    }
}

void
OutputFile::CopyExisting()
{
    // The copy goes through the input checks too: the file is regular (checked above, and
    // again on the opened descriptor, in case it was swapped meanwhile) and of bounded size.
    const std::string text
        = JsonInput::ReadFile(m_target, {std::uint64_t{1} << 32, 0, "a file to append to"});
    m_wasEmpty = text.empty();
    m_stream->write(text.data(), static_cast<std::streamsize>(text.size()));
}

std::ostream&
OutputFile::Stream()
{
    return *m_stream;
}

bool
OutputFile::WasEmpty() const
{
    return m_wasEmpty;
}

const std::string&
OutputFile::GetPath() const
{
    return m_path;
}

void
OutputFile::Commit()
{
    NS_LOG_FUNCTION(this);
    m_stream->flush();
    int err = m_buffer->Drain();
    // fsync and close report what the kernel could not write (NFS, quotas, full disks).
    if (err == 0 && ::fsync(m_fd) != 0 && errno != EINVAL)
    {
        err = errno;
    }
    if (::close(m_fd) != 0 && err == 0)
    {
        err = errno;
    }
    m_fd = -1;
    if (err == 0 && ::rename(m_temporary.c_str(), m_target.c_str()) != 0)
    {
        err = errno;
    }
    if (err != 0)
    {
        Discard();
        Fail(std::string(std::strerror(err))
             + " (nothing written; the previous file, if any, is unchanged)");
    }
    UnregisterTemporary(m_slot);
    m_slot = -1;
    m_committed = true;
}

void
OutputFile::Write(const std::string& path, const std::string& text, const std::string& option)
{
    OutputFile out(path, option);
    out.Stream().write(text.data(), static_cast<std::streamsize>(text.size()));
    out.Commit();
}

bool
OutputFile::SameFile(const std::string& a, const std::string& b)
{
    struct stat sa;
    struct stat sb;
    if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
    {
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    }
    // At least one does not exist yet: compare the folders (resolved) and the names.
    auto absolute = [](const std::string& p)
    {
        const auto slash = p.rfind('/');
        const std::string dir = slash == std::string::npos ? "." : p.substr(0, slash + 1);
        char resolved[PATH_MAX];
        const std::string base = ::realpath(dir.c_str(), resolved) ? resolved : dir;
        return base + "/" + (slash == std::string::npos ? p : p.substr(slash + 1));
    };
    return absolute(a) == absolute(b);
}

void
OutputFile::RequireDistinct(const std::vector<std::pair<std::string, std::string>>& named)
{
    for (std::size_t i = 0; i < named.size(); ++i)
    {
        for (std::size_t j = i + 1; j < named.size(); ++j)
        {
            if (!named[i].second.empty() && !named[j].second.empty()
                && SameFile(named[i].second, named[j].second))
            {
                throw TrainingInputError(named[j].first + ": '" + named[j].second
                                         + "' is the same file as " + named[i].first + "='"
                                         + named[i].second
                                         + "' (expected a different file for each output)");
            }
        }
    }
}

std::string
CsvField(const std::string& field)
{
    if (field.find_first_of(",\"\r\n") == std::string::npos)
    {
        return field;
    }
    std::string out = "\"";
    for (char c : field)
    {
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return out + "\"";
}

} // namespace ns3

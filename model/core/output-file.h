/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OUTPUT_FILE_H
#define OUTPUT_FILE_H

#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief The one way the module's programs write a file the user named (--output, --csvRow,
 * --recordsFile, --flowTimes, the validation runner's files): whole or not at all.
 *
 * - Only a regular file is written. A path naming a directory, a device (/dev/null, /dev/full),
 *   a FIFO or a socket, or a symbolic link to one, or a dangling link, is refused before
 *   anything is written, so a long run never ends by blocking on a FIFO or "writing" into
 *   /dev/null. A link to a regular file is followed: its target is replaced, the link kept.
 * - The text goes to a new temporary file in the target's folder (created exclusively, so a
 *   planted link cannot redirect it), which Commit() flushes, fsyncs, closes and renames over
 *   the target. Every step is checked (ENOSPC, EIO, EDQUOT, also when reported only by
 *   fsync or close). Until Commit() succeeds the previous file, if any, is untouched; a
 *   failure or an exception removes the temporary file, and so does SIGINT, SIGTERM, SIGHUP
 *   or SIGQUIT (a run stopped with Ctrl-C leaves no hidden file behind; a handler the program
 *   installed itself is kept).
 * - APPEND starts the temporary file with a copy of the existing file, so an appended row is
 *   also whole or absent (a full disk cannot leave half a row).
 *
 * Failures are TrainingInputError "<option>: cannot write '<path>': <why> (...)".
 */
class OutputFile
{
  public:
    /// Replace the file, or add to its end.
    enum Mode
    {
        REPLACE, //!< the file gets exactly what is written
        APPEND,  //!< the file keeps its content and gets what is written after it
    };

    /**
     * Check the path and create the temporary file (so an unwritable path is refused before a
     * long run, not after it).
     * \param path the file to write
     * \param option the option that named it, for messages ("--output"; "" for none)
     * \param mode replace or append
     * \throws TrainingInputError if the path is not a regular file or the folder is unwritable
     */
    OutputFile(const std::string& path, const std::string& option, Mode mode = REPLACE);
    /// Removes the temporary file unless Commit() succeeded.
    ~OutputFile();

    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    /// \return the stream to write to (its errors are kept and reported by Commit())
    std::ostream& Stream();
    /// \return true if APPEND found no file or an empty one (so a header is due)
    bool WasEmpty() const;
    /// \return the path as given
    const std::string& GetPath() const;

    /**
     * Flush, fsync, close and rename over the target.
     * \throws TrainingInputError naming the option and the error; the target is then unchanged
     */
    void Commit();

    /**
     * Write a whole file.
     * \param path the file \param text its content \param option the option, for messages
     */
    static void Write(const std::string& path, const std::string& text, const std::string& option);

    /**
     * \param a a path \param b another path
     * \return true if both name the same file: the same device and inode when both exist,
     * else the same absolute path once links and "..", "." are resolved
     */
    static bool SameFile(const std::string& a, const std::string& b);

    /**
     * \brief Refuse two options naming one file (SameFile), which would make one output
     * overwrite the other.
     * \param named (option, path) pairs; empty paths are skipped
     * \throws TrainingInputError naming both options
     */
    static void RequireDistinct(const std::vector<std::pair<std::string, std::string>>& named);

  private:
    class Buffer;

    /// Throw "<option>: cannot write '<path>': <what>".
    [[noreturn]] void Fail(const std::string& what) const;
    /// Create the temporary file next to m_target (mode of the old file, or 0666 & ~umask).
    void CreateTemporary();
    /// APPEND: copy the existing target into the temporary file.
    void CopyExisting();
    /// Close and remove the temporary file (nothing committed).
    void Discard();

    std::string m_path;                     //!< the path as given
    std::string m_option;                   //!< the option, for messages
    std::string m_target;                   //!< the file replaced (m_path with links resolved)
    std::string m_temporary;                //!< the temporary file
    int m_fd{-1};                           //!< the temporary file's descriptor
    int m_slot{-1};                         //!< its slot in the signal handler's list
    unsigned m_mode{0};                     //!< permissions of the new file
    bool m_wasEmpty{true};                  //!< APPEND: no previous content
    bool m_committed{false};                //!< Commit() succeeded
    std::unique_ptr<Buffer> m_buffer;       //!< the stream's buffer over m_fd
    std::unique_ptr<std::ostream> m_stream; //!< the stream
};

/**
 * \param field a CSV field
 * \return it quoted as RFC 4180 asks when it holds a comma, a double quote, CR or LF (quotes
 * doubled inside), else unchanged: the one CSV quoting of the module's writers
 */
std::string CsvField(const std::string& field);

} // namespace ns3

#endif /* OUTPUT_FILE_H */

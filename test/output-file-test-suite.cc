/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The one writer of user-named files (OutputFile) and the one reader (JsonInput::ReadFile) on
 * hostile paths: FIFOs, folders, devices, links to devices, dangling links, a failing write;
 * and the one CSV quoting (CsvField).
 */

#include "training-test-utils.h"

#include "ns3/distributed-training-compat.h"
#include "ns3/json-input.h"
#include "ns3/output-file.h"
#include "ns3/test.h"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ns3;
using ns3::tests::Slurp;
using ns3::tests::ThrowsInputError;

namespace
{

namespace fs = std::filesystem;

/// A fresh folder for one test case, removed when done.
class ScratchDir
{
  public:
    /// \param tag part of the folder's name
    explicit ScratchDir(const std::string& tag)
        : m_dir((fs::temp_directory_path() / ("dt-out-" + tag + "-" + std::to_string(getpid())))
                    .string())
    {
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }

    ~ScratchDir()
    {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }

    /// \param name a file name \return its path in the folder
    std::string operator/(const std::string& name) const
    {
        return m_dir + "/" + name;
    }

    /// \return the names in the folder other than \p keep
    std::size_t CountOthers(const std::set<std::string>& keep) const
    {
        std::size_t n = 0;
        for (const auto& e : fs::directory_iterator(m_dir))
        {
            n += keep.count(e.path().filename().string()) == 0;
        }
        return n;
    }

  private:
    std::string m_dir; //!< the folder
};

/// RFC 4180: fields with a comma, quote or line break are quoted, quotes doubled.
class CsvQuotingTestCase : public TestCase
{
  public:
    CsvQuotingTestCase()
        : TestCase("CSV fields holding a comma, quote or line break are quoted (RFC 4180)")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(CsvField("flow ps"), "flow ps", "plain field kept");
        NS_TEST_ASSERT_MSG_EQ(CsvField("a,b"), "\"a,b\"", "comma");
        NS_TEST_ASSERT_MSG_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"", "quotes doubled");
        NS_TEST_ASSERT_MSG_EQ(CsvField("two\nlines"), "\"two\nlines\"", "line break");
        NS_TEST_ASSERT_MSG_EQ(CsvField("cr\r"), "\"cr\r\"", "carriage return");
        NS_TEST_ASSERT_MSG_EQ(CsvField(""), "", "empty field");
    }
};

/**
 * Paths that are not regular files are refused before anything is written, for writing and
 * for reading: a FIFO (reading or writing one would block), a folder, /dev/null, a link to
 * /dev/zero (reading would never end), a dangling link. Nothing is left in the folder.
 */
class SpecialFilesTestCase : public TestCase
{
  public:
    SpecialFilesTestCase()
        : TestCase("a FIFO, folder, device, link to a device or dangling link is refused")
    {
    }

  private:
    void DoRun() override
    {
        ScratchDir d("special");
        const std::string fifo = d / "fifo";
        NS_TEST_ASSERT_MSG_EQ(mkfifo(fifo.c_str(), 0600), 0, "mkfifo");
        fs::create_directory(d / "folder");
        fs::create_symlink("/dev/zero", d / "zero");
        fs::create_symlink(d / "missing", d / "dangling");
        const std::vector<std::pair<std::string, std::string>> cases
            = {{fifo, "a FIFO (named pipe), not a regular file"},
               {d / "folder", "a directory, not a regular file"},
               {"/dev/null", "a character device, not a regular file"},
               {d / "zero", "a character device, not a regular file"},
               {d / "dangling", "a symbolic link to a missing file"}};
        for (const auto& c : cases)
        {
            // Named copies: a lambda may not capture a structured binding before C++20 (clang).
            const std::string& path = c.first;
            const std::string& why = c.second;
            NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                      [&path]()
                                      {
                                          OutputFile::Write(path, "x", "--output");
                                      },
                                      {"--output: cannot write '" + path + "'", why}),
                                  true,
                                  "write refused: " << path);
            if (path != d / "dangling")
            {
                NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                          [&path]()
                                          {
                                              JsonInput::ReadFile(path, {1000, 4, "a file"});
                                          },
                                          {path, why}),
                                      true,
                                      "read refused: " << path);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(ThrowsInputError(
                                  [&d]()
                                  {
                                      OutputFile::Write(d / "no/such/dir/f", "x", "--csv");
                                  },
                                  {"--csv: cannot write", "cannot create a temporary file"}),
                              true,
                              "missing folder");
        NS_TEST_EXPECT_MSG_EQ(d.CountOthers({"fifo", "folder", "zero", "dangling"}),
                              0,
                              "no temporary file left behind");
    }
};

/**
 * Replace and append: the file is whole after Commit(), untouched before it; a link to a
 * regular file keeps being a link (its target is replaced); the old file's permissions stay;
 * APPEND copies the old content first and says whether a header is due.
 */
class ReplaceAppendTestCase : public TestCase
{
  public:
    ReplaceAppendTestCase()
        : TestCase("replace and append are whole at Commit, links and permissions are kept")
    {
    }

  private:
    void DoRun() override
    {
        ScratchDir d("replace");
        const std::string file = d / "result.json";
        OutputFile::Write(file, "old\n", "--output");
        chmod(file.c_str(), 0640);
        {
            OutputFile out(file, "--output");
            out.Stream() << "new\n";
            NS_TEST_EXPECT_MSG_EQ(Slurp(file), "old\n", "unchanged before Commit");
            out.Commit();
        }
        NS_TEST_EXPECT_MSG_EQ(Slurp(file), "new\n", "replaced");
        struct stat st;
        stat(file.c_str(), &st);
        NS_TEST_EXPECT_MSG_EQ((st.st_mode & 0777), 0640u, "permissions kept");
        {
            OutputFile out(file, "--output");
            out.Stream() << "lost\n";
        } // no Commit: an interrupted write leaves the old file
        NS_TEST_EXPECT_MSG_EQ(Slurp(file), "new\n", "no Commit, no change");
        fs::create_symlink(file, d / "link.json");
        OutputFile::Write(d / "link.json", "via link\n", "--output");
        NS_TEST_EXPECT_MSG_EQ(fs::is_symlink(d / "link.json"), true, "link kept");
        NS_TEST_EXPECT_MSG_EQ(Slurp(file), "via link\n", "target replaced");
        for (int row = 0; row < 2; ++row)
        {
            OutputFile out(d / "rows.csv", "--csvRow", OutputFile::APPEND);
            out.Stream() << (out.WasEmpty() ? "h\n" : "") << "r" << row << "\n";
            out.Commit();
        }
        NS_TEST_EXPECT_MSG_EQ(Slurp(d / "rows.csv"), "h\nr0\nr1\n", "header once, rows appended");
        NS_TEST_EXPECT_MSG_EQ(d.CountOthers({"result.json", "link.json", "rows.csv"}),
                              0,
                              "no temporary file left behind");
    }
};

/**
 * A failing write (the file size limit, RLIMIT_FSIZE, makes write() fail with EFBIG just as a
 * full disk fails with ENOSPC) is an error naming the option and the file; the old file and
 * an appended-to file are unchanged, no temporary file is left. Then the same file names
 * compared as files: through a link, "./" and a file not yet written.
 *
 * A failing write is an error and changes nothing; same file by inode or path.
 */
class WriteErrorTestCase : public TestCase
{
  public:
    WriteErrorTestCase()
        : TestCase("a failing write is an error and changes nothing, same file detected")
    {
    }

  private:
    void DoRun() override
    {
        ScratchDir d("error");
        const std::string file = d / "flows.csv";
        OutputFile::Write(file, "old\n", "--flowTimes");
        struct rlimit old;
        getrlimit(RLIMIT_FSIZE, &old);
        auto previous = std::signal(SIGXFSZ, SIG_IGN);
        struct rlimit small = {4096, old.rlim_max};
        setrlimit(RLIMIT_FSIZE, &small);
        const std::string big(100000, 'x');
        const bool replaceFails = ThrowsInputError(
            [&]()
            {
                OutputFile::Write(file, big, "--flowTimes");
            },
            {"--flowTimes: cannot write '" + file + "'", "File too large", "unchanged"});
        const bool appendFails = ThrowsInputError(
            [&]()
            {
                OutputFile out(file, "--csvRow", OutputFile::APPEND);
                out.Stream() << big;
                out.Commit();
            },
            {"--csvRow: cannot write", "File too large"});
        setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, previous);
        NS_TEST_EXPECT_MSG_EQ(replaceFails, true, "replace: EFBIG reported");
        NS_TEST_EXPECT_MSG_EQ(appendFails, true, "append: EFBIG reported");
        NS_TEST_EXPECT_MSG_EQ(Slurp(file), "old\n", "previous content kept");
        NS_TEST_EXPECT_MSG_EQ(d.CountOthers({"flows.csv"}), 0, "no temporary file left behind");

        fs::create_symlink(file, d / "alias.csv");
        NS_TEST_EXPECT_MSG_EQ(OutputFile::SameFile(file, d / "alias.csv"), true, "via a link");
        NS_TEST_EXPECT_MSG_EQ(OutputFile::SameFile(d / "new.json", d / "./new.json"),
                              true,
                              "not yet written, ./");
        NS_TEST_EXPECT_MSG_EQ(OutputFile::SameFile(file, d / "new.json"), false, "two files");
        NS_TEST_EXPECT_MSG_EQ(
            ThrowsInputError(
                [&]()
                {
                    OutputFile::RequireDistinct(
                        {{"--output", file}, {"--recordsFile", d / "alias.csv"}});
                },
                {"--recordsFile: '" + d / "alias.csv" + "' is the same file as --output"}),
            true,
            "same file refused");
    }
};

/**
 * A run stopped by a signal leaves no temporary file: a child process opens an output, writes
 * to it and is sent SIGINT, then SIGTERM in a second child; each dies of its signal (the
 * default action still happens after the clean-up) and the folder holds only the previous
 * file, unchanged.
 */
class SignalCleanupTestCase : public TestCase
{
  public:
    SignalCleanupTestCase()
        : TestCase("a run ended by SIGINT or SIGTERM leaves no temporary file")
    {
    }

  private:
    void DoRun() override
    {
        ScratchDir dir("signal");
        OutputFile::Write(dir / "result.json", "previous\n", "--output");
        for (int sig : {SIGINT, SIGTERM})
        {
            const pid_t child = ::fork();
            NS_TEST_ASSERT_MSG_GT_OR_EQ(child, 0, "fork");
            if (child == 0)
            {
                OutputFile out(dir / "result.json", "--output");
                out.Stream() << "half a result";
                ::kill(::getpid(), sig);
                ::_exit(0); // not reached: the signal ends the process
            }
            int status = 0;
            ::waitpid(child, &status, 0);
            NS_TEST_EXPECT_MSG_EQ(WIFSIGNALED(status) && WTERMSIG(status) == sig,
                                  true,
                                  "the child dies of signal " << sig);
            NS_TEST_EXPECT_MSG_EQ(dir.CountOthers({"result.json"}), 0, "no temporary file left");
            NS_TEST_EXPECT_MSG_EQ(Slurp(dir / "result.json"), "previous\n", "previous file kept");
        }
    }
};

/// The suite.
class OutputFileTestSuite : public TestSuite
{
  public:
    OutputFileTestSuite()
        : TestSuite("distributed-training-output-file", Type::UNIT)
    {
        AddTestCase(new CsvQuotingTestCase, DT_TEST_QUICK);
        AddTestCase(new SpecialFilesTestCase, DT_TEST_QUICK);
        AddTestCase(new ReplaceAppendTestCase, DT_TEST_QUICK);
        AddTestCase(new WriteErrorTestCase, DT_TEST_QUICK);
        AddTestCase(new SignalCleanupTestCase, DT_TEST_QUICK);
    }
};

/// The suite instance.
OutputFileTestSuite g_outputFileTestSuite;

} // namespace

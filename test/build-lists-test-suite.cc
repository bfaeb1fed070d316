/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Keeps the two build descriptions of the module equal: CMakeLists.txt (ns-3.36+, standalone) and
 * wscript (waf, ns-3.35 and older), and both complete with respect to the files on disk.
 */

#include "ns3/distributed-training-compat.h"
#include "ns3/test.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

using namespace ns3;

namespace
{

/// Read a file of the module's source tree; empty if missing.
std::string
ReadSourceFile(const std::string& relative)
{
    std::ifstream in(std::string(DT_SOURCE_DIR) + "/" + relative);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

/// All double- or single-quoted strings, or bare words, inside the first block opened by `open`.
std::set<std::string>
ListAfter(const std::string& text, const std::string& open, char close, bool quoted)
{
    std::set<std::string> items;
    auto start = text.find(open);
    if (start == std::string::npos)
    {
        return items;
    }
    start += open.size();
    auto end = text.find(close, start);
    std::string block = text.substr(start, end - start);
    std::regex item(quoted ? R"(['"]([^'"]+)['"])" : R"(([^\s#]+))");
    for (auto it = std::sregex_iterator(block.begin(), block.end(), item);
         it != std::sregex_iterator();
         ++it)
    {
        items.insert((*it)[1]);
    }
    return items;
}

/// Files of a folder with the given ending, as "folder/name".
std::set<std::string>
FilesOnDisk(const std::string& folder, const std::string& ending)
{
    std::set<std::string> files;
    std::filesystem::path dir = std::filesystem::path(DT_SOURCE_DIR) / folder;
    if (!std::filesystem::is_directory(dir))
    {
        return files;
    }
    // model/ and helper/ have a sub-folder per concern (model/flow/, helper/options/, ...).
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    {
        std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && name.size() >= ending.size()
            && name.compare(name.size() - ending.size(), ending.size(), ending) == 0)
        {
            files.insert(folder + "/" + entry.path().lexically_relative(dir).generic_string());
        }
    }
    return files;
}

std::string
Show(const std::set<std::string>& s)
{
    std::string out;
    for (const auto& x : s)
    {
        out += " " + x;
    }
    return out.empty() ? " (none)" : out;
}

std::set<std::string>
Minus(const std::set<std::string>& a, const std::set<std::string>& b)
{
    std::set<std::string> out;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
    return out;
}

/**
 * \ingroup distributed-training
 * The wscript lists the same sources, headers, tests and examples as CMakeLists.txt.
 */
class WafListsEqualCmakeListsTestCase : public TestCase
{
  public:
    WafListsEqualCmakeListsTestCase()
        : TestCase(
            "wscript lists exactly the sources, headers, tests and examples of CMakeLists.txt")
    {
    }

  private:
    void DoRun() override
    {
        std::string cmake = ReadSourceFile("CMakeLists.txt");
        std::string waf = ReadSourceFile("wscript");
        std::string cmakeEx = ReadSourceFile("examples/CMakeLists.txt");
        std::string wafEx = ReadSourceFile("examples/wscript");
        NS_TEST_ASSERT_MSG_EQ(cmake.empty() || waf.empty(), false, "build files not found");

        struct Pair
        {
            std::string what;
            std::set<std::string> cmake;
            std::set<std::string> waf;
        };

        Pair pairs[] = {
            {"sources",
             ListAfter(cmake, "set(DT_SOURCES", ')', false),
             ListAfter(waf, "module.source = [", ']', true)},
            {"headers",
             ListAfter(cmake, "set(DT_HEADERS", ')', false),
             ListAfter(waf, "headers.source = [", ']', true)},
            {"test sources",
             ListAfter(cmake, "set(DT_TEST_SOURCES", ')', false),
             ListAfter(waf, "module_test.source = [", ']', true)},
            {"examples",
             ListAfter(cmakeEx, "set(DT_EXAMPLES", ')', false),
             ListAfter(wafEx, "EXAMPLES = [", ']', true)},
        };
        for (const auto& p : pairs)
        {
            NS_TEST_EXPECT_MSG_EQ(p.cmake.empty(), false, "no " << p.what << " in CMakeLists.txt");
            NS_TEST_EXPECT_MSG_EQ((p.cmake == p.waf),
                                  true,
                                  p.what << " differ: only in CMakeLists.txt:"
                                         << Show(Minus(p.cmake, p.waf))
                                         << "; only in wscript:" << Show(Minus(p.waf, p.cmake)));
        }
    }
};

/**
 * \ingroup distributed-training
 * Every source, header, test suite and example on disk is built, and every listed file exists.
 */
class BuildListsMatchDiskTestCase : public TestCase
{
  public:
    BuildListsMatchDiskTestCase()
        : TestCase("CMakeLists.txt lists every .cc and .h of model, helper, test and examples")
    {
    }

  private:
    void DoRun() override
    {
        std::string cmake = ReadSourceFile("CMakeLists.txt");
        std::string cmakeEx = ReadSourceFile("examples/CMakeLists.txt");

        std::set<std::string> sources = ListAfter(cmake, "set(DT_SOURCES", ')', false);
        std::set<std::string> headers = ListAfter(cmake, "set(DT_HEADERS", ')', false);
        std::set<std::string> tests = ListAfter(cmake, "set(DT_TEST_SOURCES", ')', false);
        std::set<std::string> examples;
        for (const auto& e : ListAfter(cmakeEx, "set(DT_EXAMPLES", ')', false))
        {
            examples.insert("examples/" + e + ".cc");
        }

        std::set<std::string> diskSources = FilesOnDisk("model", ".cc");
        diskSources.merge(FilesOnDisk("helper", ".cc"));
        std::set<std::string> diskHeaders = FilesOnDisk("model", ".h");
        diskHeaders.merge(FilesOnDisk("helper", ".h"));
        std::set<std::string> diskTests = FilesOnDisk("test", "-test-suite.cc");
        std::set<std::string> diskExamples = FilesOnDisk("examples", ".cc");

        struct Check
        {
            std::string what;
            const std::set<std::string>& listed;
            const std::set<std::string>& disk;
        };

        Check checks[] = {{"sources", sources, diskSources},
                          {"headers", headers, diskHeaders},
                          {"test suites", tests, diskTests},
                          {"examples", examples, diskExamples}};
        for (const auto& c : checks)
        {
            NS_TEST_EXPECT_MSG_EQ(Minus(c.disk, c.listed).empty(),
                                  true,
                                  c.what << " on disk but not built:"
                                         << Show(Minus(c.disk, c.listed)));
            NS_TEST_EXPECT_MSG_EQ(Minus(c.listed, c.disk).empty(),
                                  true,
                                  c.what << " listed but missing:"
                                         << Show(Minus(c.listed, c.disk)));
        }
    }
};

/**
 * \ingroup distributed-training
 * Build-description consistency tests.
 */
class BuildListsTestSuite : public TestSuite
{
  public:
    BuildListsTestSuite()
        : TestSuite("distributed-training-build-lists", Type::UNIT)
    {
        AddTestCase(new WafListsEqualCmakeListsTestCase, DT_TEST_QUICK);
        AddTestCase(new BuildListsMatchDiskTestCase, DT_TEST_QUICK);
    }
};

/// Static instance: registers the suite.
static BuildListsTestSuite g_buildListsTestSuite;

} // namespace

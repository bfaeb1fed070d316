/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The limits every JSON input gets (JsonInput): nesting depth, size, duplicate keys, paths that
 * are not regular files; through the profile loader and the validation-matrix parser.
 */

#include "training-test-utils.h"

#include "ns3/distributed-training-compat.h"
#include "ns3/json-input.h"
#include "ns3/test.h"
#include "ns3/training-input-error.h"
#include "ns3/training-profile.h"
#include "ns3/validation-matrix.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace ns3;

namespace
{

/// The message of the TrainingInputError f throws ("" if it throws none).
template<typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const TrainingInputError& e)
    {
        return e.what();
    }
    return "";
}

/// A shipped profile's text with one edit.
std::string
ShippedProfile()
{
    std::ifstream in(std::string(DT_SOURCE_DIR) + "/traces/alexnet-cpu-b8.json");
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/**
 * \ingroup distributed-training
 * Nesting: 80,000 nested arrays (which crashed the loader) and one level above the limit are
 * refused with the JSON path; the limit itself is accepted.
 */
class JsonDepthLimitTestCase : public TestCase
{
  public:
    JsonDepthLimitTestCase()
        : TestCase("JSON nested deeper than the limit (80,000 arrays) is refused with its path")
    {
    }

  private:
    void DoRun() override
    {
        std::string deep = std::string(80000, '[') + std::string(80000, ']');
        std::string m = ErrorOf(
            [&]
            {
                TrainingProfile::LoadFromString(deep, "deep.json");
            });
        NS_TEST_EXPECT_MSG_NE(m.find("deep.json: [0]"), std::string::npos, m);
        NS_TEST_EXPECT_MSG_NE(m.find("nesting deeper than 64 levels"), std::string::npos, m);
        m = ErrorOf(
            [&]
            {
                ValidationMatrix::Parse("{\"scenarios\":" + deep + "}", "m.json");
            });
        NS_TEST_EXPECT_MSG_NE(m.find("m.json: scenarios[0]"), std::string::npos, m);

        // Depth 4 with a limit of 4 passes, 5 fails (path of the 5th opening).
        JsonInput::Limits limits{1000, 4, "test"};
        NS_TEST_EXPECT_MSG_EQ(JsonInput::Parse("{\"a\":[[{}]]}", "t", limits).size(), 1, "4 ok");
        m = ErrorOf(
            [&]
            {
                JsonInput::Parse("{\"a\":[1,[{\"b\":[]}]]}", "t", limits);
            });
        NS_TEST_EXPECT_MSG_EQ(m,
                              "t: a[1][0].b: nesting deeper than 4 levels (expected at most 4 "
                              "nested arrays/objects)",
                              "path of the too-deep value");
    }
};

/**
 * \ingroup distributed-training
 * Duplicate keys: nlohmann keeps the last one silently; here they are an error with the path.
 */
class JsonDuplicateKeyTestCase : public TestCase
{
  public:
    JsonDuplicateKeyTestCase()
        : TestCase("duplicate JSON keys in a profile or a matrix are an error naming the path")
    {
    }

  private:
    void DoRun() override
    {
        std::string p = ShippedProfile();
        NS_TEST_ASSERT_MSG_NE(p.find("\"batch_size\""), std::string::npos, "shipped profile");
        std::string dup = p;
        dup.replace(dup.find("\"batch_size\""), 0, "\"batch_size\": 1, ");
        std::string m = ErrorOf(
            [&]
            {
                TrainingProfile::LoadFromString(dup, "dup.json");
            });
        NS_TEST_EXPECT_MSG_EQ(m.rfind("dup.json: batch_size: duplicate key \"batch_size\"", 0),
                              0,
                              m);
        std::string layer = p;
        layer.replace(layer.find("\"name\""), 0, "\"name\": \"x\", ");
        m = ErrorOf(
            [&]
            {
                TrainingProfile::LoadFromString(layer, "dup.json");
            });
        NS_TEST_EXPECT_MSG_EQ(m.rfind("dup.json: layers[0].name: duplicate key", 0), 0, m);
        // The unmodified profile still loads.
        NS_TEST_EXPECT_MSG_GT(TrainingProfile::LoadFromString(p, "ok.json").GetNLayers(), 0, p);

        m = ErrorOf(
            []
            {
                ValidationMatrix::Parse(R"({"scenarios": [{"name": "a", "name": "b"}]})", "m.json");
            });
        NS_TEST_EXPECT_MSG_EQ(m.rfind("m.json: scenarios[0].name: duplicate key \"name\"", 0),
                              0,
                              m);
        // The same key in two different objects is fine.
        NS_TEST_EXPECT_MSG_EQ(
            JsonInput::Parse(R"([{"a": 1}, {"a": 2}])", "t", {100, 4, "t"}).size(),
            2,
            "same key in sibling objects");
    }
};

/**
 * \ingroup distributed-training
 * Paths that are not regular files are named as such; /dev/zero does not eat memory; a file
 * above the size limit is refused after reading at most limit + 1 bytes.
 */
class JsonFileKindTestCase : public TestCase
{
  public:
    JsonFileKindTestCase()
        : TestCase("a directory, a device or a too-big file as profile or matrix is named as such")
    {
    }

  private:
    void DoRun() override
    {
        const std::string dir = std::filesystem::temp_directory_path().string();
        std::string m = ErrorOf(
            [&]
            {
                TrainingProfile::LoadFromFile(dir);
            });
        NS_TEST_EXPECT_MSG_EQ(m,
                              dir
                                  + ": a directory, not a regular file (expected a profile "
                                    "JSON file (see traces/README.md))",
                              "directory");
        m = ErrorOf(
            [&]
            {
                ValidationMatrix::LoadFromFile(dir);
            });
        NS_TEST_EXPECT_MSG_NE(m.find("a directory, not a regular file"), std::string::npos, m);
        m = ErrorOf(
            []
            {
                ValidationMatrix::LoadFromFile("/dev/zero");
            });
        NS_TEST_EXPECT_MSG_EQ(m.rfind("/dev/zero: a character device, not a regular file", 0),
                              0,
                              m);
        m = ErrorOf(
            []
            {
                TrainingProfile::LoadFromFile("/dev/zero");
            });
        NS_TEST_EXPECT_MSG_NE(m.find("a character device"), std::string::npos, m);

        // Size: a 2000-byte file against a 1000-byte limit.
        std::string path = dir + "/dt-json-size-" + std::to_string(getpid()) + ".json";
        {
            std::ofstream out(path);
            out << "[" << std::string(1998, ' ') << "]";
        }
        JsonInput::Limits limits{1000, 4, "a small file"};
        m = ErrorOf(
            [&]
            {
                JsonInput::ReadFile(path, limits);
            });
        std::remove(path.c_str());
        NS_TEST_EXPECT_MSG_EQ(m,
                              path
                                  + ": larger than 1000 bytes (expected a small file of at "
                                    "most 1000 bytes)",
                              "too big");
        m = ErrorOf(
            [&]
            {
                JsonInput::Parse(std::string(1001, ' '), "t", limits);
            });
        NS_TEST_EXPECT_MSG_NE(m.find("1001 bytes of JSON (expected at most 1000)"),
                              std::string::npos,
                              m);
    }
};

/// The suite.
class JsonInputTestSuite : public TestSuite
{
  public:
    JsonInputTestSuite()
        : TestSuite("distributed-training-json-input", Type::UNIT)
    {
        AddTestCase(new JsonDepthLimitTestCase, DT_TEST_QUICK);
        AddTestCase(new JsonDuplicateKeyTestCase, DT_TEST_QUICK);
        AddTestCase(new JsonFileKindTestCase, DT_TEST_QUICK);
    }
};

/// The suite instance.
JsonInputTestSuite g_jsonInputTestSuite;

} // namespace

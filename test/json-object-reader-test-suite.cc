/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The schema reader of every input file (JsonObjectReader): each declared type read back, each
 * kind of error with its whole message, the unknown-key listing with its suggestion.
 */

#include "ns3/distributed-training-compat.h"
#include "ns3/json-object-reader.h"
#include "ns3/test.h"
#include "ns3/training-input-error.h"

#include <string>

using namespace ns3;

namespace
{

using Json = nlohmann::ordered_json;

/// A schema with one field of each type.
const JsonSchema&
Schema()
{
    static const JsonSchema schema{
        {"name", JsonField::REQUIRED, JsonSpec::String("a non-empty name", 1), {}},
        {"count", JsonField::OPTIONAL, JsonSpec::Unsigned(1, 8, "a whole number from 1 to 8"), {}},
        {"rate", JsonField::OPTIONAL, JsonSpec::Number(0, 1, "a number from 0 to 1"), {}},
        {"on", JsonField::OPTIONAL, JsonSpec::Boolean("true or false"), {}},
        {"mode", JsonField::OPTIONAL, JsonSpec::OneOf({"fast", "slow"}), {}},
        {"sizes",
         JsonField::OPTIONAL,
         JsonSpec::Array(1, "a non-empty list of sizes"),
         JsonSpec::Unsigned(0, 100, "a size from 0 to 100")},
        {"inner", JsonField::OPTIONAL, JsonSpec::Object("an object"), {}},
        {"value", JsonField::OPTIONAL, JsonSpec::Scalar("an option value"), {}},
    };
    return schema;
}

/// \param text an object's JSON \return the message reading it against Schema() gives ("" = none)
std::string
ErrorOf(const std::string& text)
{
    try
    {
        const Json doc = Json::parse(text);
        JsonObjectReader(doc, JsonPlace("f.json", "items[2]"), Schema());
    }
    catch (const TrainingInputError& e)
    {
        return e.what();
    }
    return "";
}

/**
 * \ingroup distributed-training
 * Each declared type reads back: {"name": "a", "count": 3, "rate": 0.5, "on": true, "mode":
 * "slow", "sizes": [1, 2], "inner": {}, "value": "x"} gives "a", 3, 0.5, true, "slow", [1, 2];
 * absent optional fields give the fallback.
 */
class JsonReaderTypesTestCase : public TestCase
{
  public:
    JsonReaderTypesTestCase()
        : TestCase("each declared type reads back")
    {
    }

  private:
    void DoRun() override
    {
        const Json doc = Json::parse(R"({"name": "a", "count": 3, "rate": 0.5, "on": true,
            "mode": "slow", "sizes": [1, 2], "inner": {"x": 1}, "value": "x"})");
        JsonObjectReader r(doc, JsonPlace("f.json"), Schema());
        NS_TEST_EXPECT_MSG_EQ(r.GetString("name"), "a", "string");
        NS_TEST_EXPECT_MSG_EQ(r.GetUnsigned("count"), 3, "unsigned");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.GetNumber("rate"), 0.5, 1e-15, "number");
        NS_TEST_EXPECT_MSG_EQ(r.GetBool("on"), true, "boolean");
        NS_TEST_EXPECT_MSG_EQ(r.GetString("mode"), "slow", "one of");
        NS_TEST_EXPECT_MSG_EQ((r.GetArray<uint64_t>("sizes") == std::vector<uint64_t>{1, 2}),
                              true,
                              "array");
        NS_TEST_EXPECT_MSG_EQ(r.Get("inner").size(), 1, "object");
        NS_TEST_EXPECT_MSG_EQ(r.At("inner").ToString(), "f.json: inner", "place of a member");
        const Json small = Json::parse(R"({"name": "b"})");
        JsonObjectReader m(small, JsonPlace("f.json"), Schema());
        NS_TEST_EXPECT_MSG_EQ(m.Has("count"), false, "absent");
        NS_TEST_EXPECT_MSG_EQ(m.GetUnsigned("count", 7), 7, "fallback");
        NS_TEST_EXPECT_MSG_EQ(m.GetArray<uint64_t>("sizes").empty(), true, "absent array");
    }
};

/**
 * \ingroup distributed-training
 * Every kind of error has the one shape "<file>: <path>: <found> (expected <expected>)", with
 * the value found: a missing field, a wrong type (with the value), a negative or out-of-range
 * whole number, an empty string, an empty list, a bad array element (with its index), a value
 * not among the choices, a value that is not an object.
 */
class JsonReaderErrorsTestCase : public TestCase
{
  public:
    JsonReaderErrorsTestCase()
        : TestCase("each kind of error has the one message shape")
    {
    }

  private:
    void DoRun() override
    {
        const std::pair<const char*, const char*> cases[] = {
            {"{}", "f.json: items[2].name: missing field (expected a non-empty name)"},
            {R"({"name": 4})",
             "f.json: items[2].name: wrong type number 4 (expected a non-empty name)"},
            {R"({"name": ""})", "f.json: items[2].name: empty string (expected a non-empty name)"},
            {R"({"name": "a", "count": -1})",
             "f.json: items[2].count: negative value -1 (expected a whole number from 1 "
             "to 8)"},
            {R"({"name": "a", "count": 1.5})",
             "f.json: items[2].count: wrong type number 1.5 (expected a whole number from 1 to 8)"},
            {R"({"name": "a", "count": 9})",
             "f.json: items[2].count: value 9 out of range (expected a whole number from 1 to 8)"},
            {R"({"name": "a", "rate": 2.5})",
             "f.json: items[2].rate: value 2.5 out of range (expected a number from 0 to 1)"},
            {R"({"name": "a", "on": "yes"})",
             "f.json: items[2].on: wrong type string \"yes\" (expected true or false)"},
            {R"({"name": "a", "mode": "medium"})",
             "f.json: items[2].mode: unknown value \"medium\" (expected fast or slow)"},
            {R"({"name": "a", "sizes": []})",
             "f.json: items[2].sizes: empty list (expected a non-empty list of sizes)"},
            {R"({"name": "a", "sizes": [1, 200]})",
             "f.json: items[2].sizes[1]: value 200 out of range (expected a size from 0 to 100)"},
            {R"({"name": "a", "inner": [1]})",
             "f.json: items[2].inner: wrong type array (expected an object)"},
            {R"({"name": "a", "value": null})",
             "f.json: items[2].value: wrong type null (expected an option value)"},
            {"[1]", "f.json: items[2]: wrong type array (expected an object)"},
        };
        for (const auto& [text, message] : cases)
        {
            NS_TEST_EXPECT_MSG_EQ(ErrorOf(text), message, text);
        }
    }
};

/**
 * \ingroup distributed-training
 * An unknown key is refused with the keys allowed listed and the closest one suggested
 * ("cuont" is 2 edits from "count"); a key far from all ("zzzzzzzz") gets no suggestion; a
 * schema may describe its keys in words instead of the list.
 */
class JsonReaderUnknownKeyTestCase : public TestCase
{
  public:
    JsonReaderUnknownKeyTestCase()
        : TestCase("an unknown key lists the allowed ones and the closest")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(R"({"name": "a", "cuont": 1})"),
                              "f.json: items[2].cuont: unknown field, did you mean 'count'? "
                              "(expected one of name, count, rate, on, mode, sizes, inner, value)",
                              "suggestion");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf(R"({"zzzzzzzz": 1})"),
                              "f.json: items[2].zzzzzzzz: unknown field (expected one of name, "
                              "count, rate, on, mode, sizes, inner, value)",
                              "no suggestion");
        std::string m;
        try
        {
            const Json doc = Json::parse(R"({"nmae": 1})");
            JsonObjectReader(doc, JsonPlace("s.json"), Schema(), "an option of --help");
        }
        catch (const TrainingInputError& e)
        {
            m = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(m,
                              "s.json: nmae: unknown field, did you mean 'name'? (expected an "
                              "option of --help)",
                              "the keys in words");
    }
};

/// The suite.
class JsonObjectReaderTestSuite : public TestSuite
{
  public:
    JsonObjectReaderTestSuite()
        : TestSuite("distributed-training-json-object-reader", Type::UNIT)
    {
        AddTestCase(new JsonReaderTypesTestCase, DT_TEST_QUICK);
        AddTestCase(new JsonReaderErrorsTestCase, DT_TEST_QUICK);
        AddTestCase(new JsonReaderUnknownKeyTestCase, DT_TEST_QUICK);
    }
};

/// The suite instance.
JsonObjectReaderTestSuite g_jsonObjectReaderTestSuite;

} // namespace

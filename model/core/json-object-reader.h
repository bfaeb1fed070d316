/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JSON_OBJECT_READER_H
#define JSON_OBJECT_READER_H

#include <cstddef>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/// The types a schema declares for a JSON value (JsonSpec).
enum class JsonType
{
    STRING,   //!< a string; JsonSpec::min and max bound its length
    UNSIGNED, //!< a whole number >= 0; min and max bound its value
    NUMBER,   //!< a finite number; min and max bound its value
    BOOLEAN,  //!< true or false
    ARRAY,    //!< an array; min and max bound its size, JsonField::element types its elements
    OBJECT,   //!< an object (read with a JsonObjectReader of its own)
    SCALAR,   //!< a string, number or boolean: a driver option's value
    ANY,      //!< any value: the caller checks it
};

/**
 * \ingroup distributed-training
 * \brief What one JSON value must be: its type, its range (value, length or size) and, for a
 * string, the values it may take. Built with the factory functions so that a schema table
 * reads as a list of declarations.
 */
struct JsonSpec
{
    JsonType type{JsonType::ANY};                         //!< the type
    double min{-std::numeric_limits<double>::infinity()}; //!< lower bound (see JsonType)
    double max{std::numeric_limits<double>::infinity()};  //!< upper bound (see JsonType)
    std::string expected;                                 //!< for messages; "" = from the type
    std::vector<std::string> choices;                     //!< STRING: the allowed values, if any

    /// \param expected for messages \param minLength 1 refuses "" \return a string spec
    static JsonSpec String(const std::string& expected, std::size_t minLength = 0);
    /**
     * \param choices the allowed values
     * \param expected for messages ("" = "a, b or c")
     * \return a spec for one of them
     */
    static JsonSpec OneOf(const std::vector<std::string>& choices,
                          const std::string& expected = "");
    /// \param min smallest \param max largest \param expected for messages \return a spec
    static JsonSpec Unsigned(double min, double max, const std::string& expected);
    /// \param min smallest \param max largest \param expected for messages \return a spec
    static JsonSpec Number(double min, double max, const std::string& expected);
    /// \param expected for messages \return a spec for true or false
    static JsonSpec Boolean(const std::string& expected);
    /// \param minSize 1 refuses [] \param expected for messages \return an array spec
    static JsonSpec Array(std::size_t minSize, const std::string& expected);
    /// \param expected for messages \return an object spec
    static JsonSpec Object(const std::string& expected);
    /// \param expected for messages \return a spec for a string, number or boolean
    static JsonSpec Scalar(const std::string& expected);

    /// \return what the value should be, for messages ("a string", or expected)
    std::string Describe() const;
};

/**
 * \ingroup distributed-training
 * \brief One member of an object's schema: its key, whether it must be present, what it must
 * be and, for an array, what each element must be.
 */
struct JsonField
{
    static constexpr bool REQUIRED = true;  //!< the key must be present
    static constexpr bool OPTIONAL = false; //!< the key may be absent
    /// The key of a field that stands for every key not declared (an object of free keys).
    static const char* const OTHER;

    std::string key;  //!< the member's name
    bool required;    //!< REQUIRED or OPTIONAL
    JsonSpec spec;    //!< what the value must be
    JsonSpec element; //!< ARRAY: what each element must be (ANY: not checked)
};

/// An object's schema: its members, in the order they are checked.
using JsonSchema = std::vector<JsonField>;

/**
 * \ingroup distributed-training
 * \brief Where a value is in an input (the file, or another label, and the JSON path) and the
 * one shape of every message about it:
 * "<file>: <path>: <what was found> (expected <what was expected>)".
 */
class JsonPlace
{
  public:
    /// \param file the file name (or a label such as "--jobs") \param path JSON path ("" = top)
    explicit JsonPlace(std::string file, std::string path = "");

    /// \param key a member \return the place of path.key
    JsonPlace Member(const std::string& key) const;
    /// \param index an element \return the place of path[index]
    JsonPlace Element(std::size_t index) const;

    /// \return the file name
    const std::string& GetFile() const;
    /// \return the JSON path ("" = the top level)
    const std::string& GetPath() const;
    /// \return "<file>: <path>" ("(top level)" for the empty path)
    std::string ToString() const;

    /**
     * \param found what was found ("wrong type string \"x\"", "missing field", ...)
     * \param expected what was expected ("a whole number from 1 to 1024")
     * \throws TrainingInputError "<file>: <path>: <found> (expected <expected>)"
     */
    [[noreturn]] void Fail(const std::string& found, const std::string& expected) const;

    /**
     * Check a value against a spec (an array's elements against element, if given).
     * \param value the value \param spec what it must be \param element an array's elements
     * \throws TrainingInputError naming this place, what was found and spec's description
     */
    template<class J>
    void Check(const J& value, const JsonSpec& spec, const JsonSpec& element = JsonSpec{}) const;

    /// \param value a JSON value \return its type and, for a scalar, its value, for messages
    template<class J>
    static std::string Found(const J& value);

  private:
    std::string m_file; //!< file name
    std::string m_path; //!< JSON path
};

/**
 * \ingroup distributed-training
 * \brief The schema reader of every input file (profiles, jobs, topologies, validation
 * matrices, scenario objects): one object checked against a table of its fields.
 *
 * The constructor checks that the value is an object, that every key is in the schema (an
 * unknown key is refused with the allowed ones listed and the closest one suggested), that
 * every REQUIRED key is present and that every present value is what its field declares (a
 * field of key JsonField::OTHER declares every other key: the object's free keys, such as
 * driver options or a provenance's extra notes);
 * afterwards the getters read values that are known to be right. Every failure is a
 * TrainingInputError of JsonPlace's one shape. What a schema cannot say (names unique across
 * a list, a link's ends among the nodes) the format's reader checks after, with GetPlace's
 * Fail, so that its messages have the same shape.
 *
 * J is nlohmann::json or nlohmann::ordered_json (both instantiated in the .cc).
 */
template<class J>
class BasicJsonObjectReader
{
  public:
    /**
     * \param value the value that must be an object
     * \param place where it is
     * \param schema its fields (kept by reference: it must outlive the reader)
     * \param allowed what the keys may be, for messages ("" = the list of the schema's keys)
     * \throws TrainingInputError if the value is not an object of the schema
     */
    BasicJsonObjectReader(const J& value,
                          JsonPlace place,
                          const JsonSchema& schema,
                          std::string allowed = "");
    /// A temporary would be gone before the getters read it.
    BasicJsonObjectReader(J&&, JsonPlace, const JsonSchema&, std::string = "") = delete;

    /// \param key a key of the schema \return whether the object has it
    bool Has(const std::string& key) const;
    /// \param key a key of the schema \return its value, or nullptr if absent
    const J* Find(const std::string& key) const;
    /// \param key a REQUIRED key of the schema (or one Has said is present) \return its value
    const J& Get(const std::string& key) const;
    /// \param key a STRING key \param fallback if absent \return the value
    std::string GetString(const std::string& key, const std::string& fallback = "") const;
    /// \param key an UNSIGNED key \param fallback if absent \return the value
    uint64_t GetUnsigned(const std::string& key, uint64_t fallback = 0) const;
    /// \param key a NUMBER key \param fallback if absent \return the value
    double GetNumber(const std::string& key, double fallback = 0) const;
    /// \param key a BOOLEAN key \param fallback if absent \return the value
    bool GetBool(const std::string& key, bool fallback = false) const;

    /**
     * \param key an ARRAY key whose elements are STRING, UNSIGNED, NUMBER or BOOLEAN
     * \return the elements as T (empty if absent)
     */
    template<class T>
    std::vector<T> GetArray(const std::string& key) const
    {
        std::vector<T> out;
        if (const J* a = Find(key))
        {
            out.reserve(a->size());
            for (const auto& e : *a)
            {
                out.push_back(e.template get<T>());
            }
        }
        return out;
    }

    /// \return where the object is
    const JsonPlace& GetPlace() const;
    /// \param key a member \return where it is
    JsonPlace At(const std::string& key) const;

  private:
    /// \param key a key that is not in the schema \throws TrainingInputError listing them
    [[noreturn]] void RejectUnknownKey(const std::string& key) const;
    /// \param key a key \return its field, or nullptr
    const JsonField* FieldOf(const std::string& key) const;

    const J& m_object;          //!< the object
    JsonPlace m_place;          //!< where it is
    const JsonSchema* m_schema; //!< its fields
    std::string m_allowed;      //!< what the keys may be, for messages ("" = the list)
};

/// The reader of documents that keep their key order (JsonInput::Parse).
using JsonObjectReader = BasicJsonObjectReader<nlohmann::ordered_json>;
/// The reader of documents with sorted keys (JsonInput::ParseSorted, nlohmann::json).
using SortedJsonObjectReader = BasicJsonObjectReader<nlohmann::json>;

extern template class BasicJsonObjectReader<nlohmann::json>;
extern template class BasicJsonObjectReader<nlohmann::ordered_json>;

} // namespace ns3

#endif /* JSON_OBJECT_READER_H */

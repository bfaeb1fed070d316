/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "json-object-reader.h"

#include "closest-name.h"
#include "training-input-error.h"

#include "ns3/assert.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

namespace
{

/// \param v a number \return it as the shortest text that reads back ("1e+308", "0.5", "12")
std::string
NumberText(double v)
{
    std::ostringstream os;
    os.precision(17);
    os << v;
    return os.str();
}

/// No upper bound.
constexpr double NO_LIMIT = std::numeric_limits<double>::infinity();

} // namespace

JsonSpec
JsonSpec::String(const std::string& expected, std::size_t minLength)
{
    return {JsonType::STRING, static_cast<double>(minLength), NO_LIMIT, expected, {}};
}

const char* const JsonField::OTHER = "*";

JsonSpec
JsonSpec::OneOf(const std::vector<std::string>& choices, const std::string& expected)
{
    return {JsonType::STRING, 0, NO_LIMIT, expected.empty() ? OrList(choices) : expected, choices};
}

JsonSpec
JsonSpec::Unsigned(double min, double max, const std::string& expected)
{
    return {JsonType::UNSIGNED, min, max, expected, {}};
}

JsonSpec
JsonSpec::Number(double min, double max, const std::string& expected)
{
    return {JsonType::NUMBER, min, max, expected, {}};
}

JsonSpec
JsonSpec::Boolean(const std::string& expected)
{
    return {JsonType::BOOLEAN, 0, NO_LIMIT, expected, {}};
}

JsonSpec
JsonSpec::Array(std::size_t minSize, const std::string& expected)
{
    return {JsonType::ARRAY, static_cast<double>(minSize), NO_LIMIT, expected, {}};
}

JsonSpec
JsonSpec::Object(const std::string& expected)
{
    return {JsonType::OBJECT, 0, NO_LIMIT, expected, {}};
}

JsonSpec
JsonSpec::Scalar(const std::string& expected)
{
    return {JsonType::SCALAR, 0, NO_LIMIT, expected, {}};
}

std::string
JsonSpec::Describe() const
{
    if (!expected.empty())
    {
        return expected;
    }
    switch (type)
    {
        case JsonType::STRING:
            return min > 0 ? "a non-empty string" : "a string";
        case JsonType::UNSIGNED:
            return "a whole number from " + NumberText(min) + " to " + NumberText(max);
        case JsonType::NUMBER:
            return "a number";
        case JsonType::BOOLEAN:
            return "true or false";
        case JsonType::ARRAY:
            return "an array";
        case JsonType::OBJECT:
            return "an object";
        case JsonType::SCALAR:
            return "a string, number or boolean";
        default:
            return "a JSON value";
    }
}

JsonPlace::JsonPlace(std::string file, std::string path)
    : m_file(std::move(file)),
      m_path(std::move(path))
{
}

JsonPlace
JsonPlace::Member(const std::string& key) const
{
    return JsonPlace(m_file, m_path.empty() ? key : m_path + "." + key);
}

JsonPlace
JsonPlace::Element(std::size_t index) const
{
    return JsonPlace(m_file, m_path + "[" + std::to_string(index) + "]");
}

const std::string&
JsonPlace::GetFile() const
{
    return m_file;
}

const std::string&
JsonPlace::GetPath() const
{
    return m_path;
}

std::string
JsonPlace::ToString() const
{
    return m_file + ": " + (m_path.empty() ? "(top level)" : m_path);
}

void
JsonPlace::Fail(const std::string& found, const std::string& expected) const
{
    throw TrainingInputError(ToString() + ": " + found + " (expected " + expected + ")");
}

template<class J>
std::string
JsonPlace::Found(const J& value)
{
    if (value.is_structured() || value.is_null())
    {
        return value.type_name();
    }
    std::string text = value.dump();
    if (text.size() > 40)
    {
        text = text.substr(0, 37) + "...";
    }
    return std::string(value.type_name()) + " " + text;
}

namespace
{

/// \param value a value \param type a declared type \return whether the value has the type
template<class J>
bool
HasType(const J& value, JsonType type)
{
    switch (type)
    {
        case JsonType::STRING:
            return value.is_string();
        case JsonType::UNSIGNED:
            return value.is_number_unsigned();
        case JsonType::NUMBER:
            return value.is_number();
        case JsonType::BOOLEAN:
            return value.is_boolean();
        case JsonType::ARRAY:
            return value.is_array();
        case JsonType::OBJECT:
            return value.is_object();
        case JsonType::SCALAR:
            return value.is_string() || value.is_number() || value.is_boolean();
        default:
            return true;
    }
}

/// \param n a length or size \param noun "characters" or "values" \return "empty ..." or "N ..."
std::string
SizeText(std::size_t n, const std::string& emptyText, const std::string& noun)
{
    return n == 0 ? emptyText : std::to_string(n) + " " + noun;
}

} // namespace

namespace
{

/**
 * \param value a value
 * \param spec what it must be (not its elements)
 * \return "" if it is, else what was found, for a message
 */
template<class J>
std::string
Problem(const J& value, const JsonSpec& spec)
{
    if (!HasType(value, spec.type))
    {
        const bool negative = spec.type == JsonType::UNSIGNED && value.is_number_integer();
        return negative ? "negative value " + value.dump()
                        : "wrong type " + JsonPlace::Found(value);
    }
    switch (spec.type)
    {
        case JsonType::STRING:
        {
            const auto& s = value.template get_ref<const std::string&>();
            if (s.size() < spec.min || s.size() > spec.max)
            {
                return SizeText(s.size(), "empty string", "characters");
            }
            if (!spec.choices.empty()
                && std::find(spec.choices.begin(), spec.choices.end(), s) == spec.choices.end())
            {
                return "unknown value " + value.dump();
            }
            return "";
        }
        case JsonType::UNSIGNED:
        case JsonType::NUMBER:
        {
            const double v = value.template get<double>();
            return std::isfinite(v) && v >= spec.min && v <= spec.max
                       ? ""
                       : "value " + value.dump() + " out of range";
        }
        case JsonType::ARRAY:
            return value.size() >= spec.min && value.size() <= spec.max
                       ? ""
                       : SizeText(value.size(), "empty list", "values");
        default:
            return "";
    }
}

/**
 * \param value a value \param spec what it must be \param element an array's elements
 * \return the index of the first element that is not element (value's size if none)
 */
template<class J>
std::size_t
FirstBadElement(const J& value, const JsonSpec& spec, const JsonSpec& element)
{
    if (spec.type != JsonType::ARRAY || element.type == JsonType::ANY)
    {
        return value.size();
    }
    for (std::size_t i = 0; i < value.size(); ++i)
    {
        if (!Problem(value[i], element).empty())
        {
            return i;
        }
    }
    return value.size();
}

} // namespace

template<class J>
void
JsonPlace::Check(const J& value, const JsonSpec& spec, const JsonSpec& element) const
{
    const std::string problem = Problem(value, spec);
    if (!problem.empty())
    {
        Fail(problem, spec.Describe());
    }
    const std::size_t i = FirstBadElement(value, spec, element);
    if (i < value.size())
    {
        Element(i).Fail(Problem(value[i], element), element.Describe());
    }
}

template<class J>
BasicJsonObjectReader<J>::BasicJsonObjectReader(const J& value,
                                                JsonPlace place,
                                                const JsonSchema& schema,
                                                std::string allowed)
    : m_object(value),
      m_place(std::move(place)),
      m_schema(&schema),
      m_allowed(std::move(allowed))
{
    if (!value.is_object())
    {
        m_place.Fail("wrong type " + JsonPlace::Found(value), "an object");
    }
    // One pass over the keys (an object of a 100,000-layer profile is read 100,000 times):
    // unknown keys first, then the fields in the schema's order, a place built only to fail.
    std::vector<std::pair<std::size_t, typename J::const_iterator>> present;
    present.reserve(value.size());
    for (auto it = value.begin(); it != value.end(); ++it)
    {
        const JsonField* f = FieldOf(it.key());
        if (!f)
        {
            RejectUnknownKey(it.key());
        }
        present.emplace_back(static_cast<std::size_t>(f - schema.data()), it);
    }
    std::stable_sort(present.begin(),
                     present.end(),
                     [](const auto& a, const auto& b)
                     {
                         return a.first < b.first;
                     });
    auto next = present.begin();
    for (std::size_t i = 0; i < schema.size(); ++i)
    {
        const JsonField& f = schema[i];
        const bool found = next != present.end() && next->first == i;
        if (!found && f.required)
        {
            At(f.key).Fail("missing field", f.spec.Describe());
        }
        for (; next != present.end() && next->first == i; ++next)
        {
            const J& v = next->second.value();
            if (!Problem(v, f.spec).empty() || FirstBadElement(v, f.spec, f.element) < v.size())
            {
                At(next->second.key()).Check(v, f.spec, f.element);
            }
        }
    }
}

template<class J>
const JsonField*
BasicJsonObjectReader<J>::FieldOf(const std::string& key) const
{
    const JsonField* other = nullptr;
    for (const JsonField& f : *m_schema)
    {
        if (f.key == key)
        {
            return &f;
        }
        other = f.key == JsonField::OTHER ? &f : other;
    }
    return other;
}

template<class J>
void
BasicJsonObjectReader<J>::RejectUnknownKey(const std::string& key) const
{
    std::vector<std::string> keys;
    std::string list;
    for (const JsonField& f : *m_schema)
    {
        if (f.key != JsonField::OTHER)
        {
            keys.push_back(f.key);
            list += (list.empty() ? "" : ", ") + f.key;
        }
    }
    const std::string closest = ClosestName(key, keys);
    At(key).Fail("unknown field" + (closest.empty() ? "" : ", did you mean '" + closest + "'?"),
                 m_allowed.empty() ? "one of " + list : m_allowed);
}

template<class J>
bool
BasicJsonObjectReader<J>::Has(const std::string& key) const
{
    return Find(key) != nullptr;
}

template<class J>
const J*
BasicJsonObjectReader<J>::Find(const std::string& key) const
{
    NS_ASSERT_MSG(FieldOf(key), "key " << key << " is not in the schema");
    auto it = m_object.find(key);
    return it == m_object.end() ? nullptr : &*it;
}

template<class J>
const J&
BasicJsonObjectReader<J>::Get(const std::string& key) const
{
    const J* v = Find(key);
    NS_ASSERT_MSG(v, "required key " << key << " is absent");
    return *v;
}

template<class J>
std::string
BasicJsonObjectReader<J>::GetString(const std::string& key, const std::string& fallback) const
{
    const J* v = Find(key);
    return v ? v->template get<std::string>() : fallback;
}

template<class J>
uint64_t
BasicJsonObjectReader<J>::GetUnsigned(const std::string& key, uint64_t fallback) const
{
    const J* v = Find(key);
    return v ? v->template get<uint64_t>() : fallback;
}

template<class J>
double
BasicJsonObjectReader<J>::GetNumber(const std::string& key, double fallback) const
{
    const J* v = Find(key);
    return v ? v->template get<double>() : fallback;
}

template<class J>
bool
BasicJsonObjectReader<J>::GetBool(const std::string& key, bool fallback) const
{
    const J* v = Find(key);
    return v ? v->template get<bool>() : fallback;
}

template<class J>
const JsonPlace&
BasicJsonObjectReader<J>::GetPlace() const
{
    return m_place;
}

template<class J>
JsonPlace
BasicJsonObjectReader<J>::At(const std::string& key) const
{
    return m_place.Member(key);
}

template class BasicJsonObjectReader<nlohmann::json>;
template class BasicJsonObjectReader<nlohmann::ordered_json>;
template void JsonPlace::Check(const nlohmann::json&, const JsonSpec&, const JsonSpec&) const;
template void JsonPlace::Check(const nlohmann::ordered_json&,
                               const JsonSpec&,
                               const JsonSpec&) const;
template std::string JsonPlace::Found(const nlohmann::json&);
template std::string JsonPlace::Found(const nlohmann::ordered_json&);

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-profile.h"

#include "json-input.h"
#include "output-file.h"
#include "training-input-error.h"

#include "ns3/log.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingProfile");

const char* const TrainingProfile::FORMAT_NAME = "distributed-training-profile";

namespace
{

using Json = nlohmann::ordered_json;

/// The three per-layer times, in the order they appear in files.
const char* const TIME_FIELDS[] = {"forward", "backward", "update"};

/// Accepted time units: key suffix and factor to microseconds.
struct TimeUnit
{
    const char* suffix; //!< key suffix, e.g. "ms"
    double toUs;        //!< factor to microseconds
};

const TimeUnit TIME_UNITS[] = {{"s", 1e6}, {"ms", 1e3}, {"us", 1.0}, {"ns", 1e-3}};

/**
 * Reads and checks one profile document; every failure names the source and the JSON path.
 */
class ProfileReader
{
  public:
    explicit ProfileReader(const std::string& source)
        : m_source(source)
    {
    }

    [[noreturn]] void Fail(const std::string& path,
                           const std::string& what,
                           const std::string& expected) const
    {
        std::string where = path.empty() ? m_source : m_source + ": " + path;
        throw TrainingInputError(where + ": " + what + " (expected " + expected + ")");
    }

    const Json& Member(const Json& object,
                       const std::string& path,
                       const std::string& key,
                       const std::string& expected) const
    {
        auto it = object.find(key);
        if (it == object.end())
        {
            Fail(Join(path, key), "missing field", expected);
        }
        return *it;
    }

    std::string String(const Json& value, const std::string& path, bool allowEmpty) const
    {
        if (!value.is_string())
        {
            Fail(path, std::string("wrong type ") + value.type_name(), "a string");
        }
        const auto& s = value.get_ref<const std::string&>();
        if (s.empty() && !allowEmpty)
        {
            Fail(path, "empty string", "a non-empty string");
        }
        return s;
    }

    uint64_t Unsigned(const Json& value,
                      const std::string& path,
                      uint64_t min,
                      uint64_t max,
                      const std::string& expected) const
    {
        if (value.is_number_integer() && !value.is_number_unsigned())
        {
            Fail(path, "negative value " + value.dump(), expected);
        }
        if (!value.is_number_unsigned())
        {
            Fail(path,
                 std::string("wrong type ") + value.type_name() + " (" + value.dump() + ")",
                 expected);
        }
        uint64_t v = value.get<uint64_t>();
        if (v < min || v > max)
        {
            Fail(path, "value " + std::to_string(v) + " out of range", expected);
        }
        return v;
    }

    double Time(const Json& value, const std::string& path, double toUs) const
    {
        const std::string expected = "a finite number >= 0";
        if (!value.is_number())
        {
            Fail(path, std::string("wrong type ") + value.type_name(), expected);
        }
        double v = value.get<double>();
        CheckTime(v * toUs, path);
        return v * toUs;
    }

    void CheckTime(double us, const std::string& path) const
    {
        const std::string expected = "a finite number >= 0";
        if (std::isnan(us))
        {
            Fail(path, "NaN time", expected);
        }
        if (std::isinf(us))
        {
            Fail(path, "infinite time", expected);
        }
        if (us < 0)
        {
            Fail(path, "negative time " + Format(us) + " us", expected);
        }
        if (us > TrainingProfile::MAX_LAYER_TIME_US)
        {
            Fail(path, "absurd time " + Format(us) + " us", "at most one hour per layer and step");
        }
    }

    /**
     * Find the keys "<field>_<unit>" of an object: returns the key and the factor to us.
     */
    std::pair<std::string, double> TimeKey(const Json& object,
                                           const std::string& path,
                                           const std::string& field) const
    {
        std::string found;
        double factor = 0;
        for (const auto& item : object.items())
        {
            const std::string& key = item.key();
            if (key.rfind(field + "_", 0) != 0)
            {
                continue;
            }
            std::string unit = key.substr(field.size() + 1);
            double f = UnitFactor(unit);
            if (f == 0)
            {
                Fail(Join(path, key),
                     "unknown time unit '" + unit + "'",
                     "one of " + field + "_s, " + field + "_ms, " + field + "_us, " + field
                         + "_ns");
            }
            if (!found.empty())
            {
                Fail(Join(path, key),
                     "time given twice (also as " + found + ")",
                     "exactly one " + field + "_<unit> key");
            }
            found = key;
            factor = f;
        }
        if (found.empty())
        {
            Fail(Join(path, field + "_us"),
                 "missing field",
                 "a " + field + " time, e.g. " + field + "_us");
        }
        return {found, factor};
    }

    static double UnitFactor(const std::string& unit)
    {
        for (const auto& u : TIME_UNITS)
        {
            if (unit == u.suffix)
            {
                return u.toUs;
            }
        }
        return 0;
    }

    static bool IsTimeKey(const std::string& key)
    {
        for (const char* field : TIME_FIELDS)
        {
            std::string prefix = std::string(field) + "_";
            if (key.rfind(prefix, 0) == 0)
            {
                return true;
            }
        }
        return false;
    }

    static std::string Join(const std::string& path, const std::string& key)
    {
        return path.empty() ? key : path + "." + key;
    }

    static std::string Index(const std::string& path, std::size_t i)
    {
        return path + "[" + std::to_string(i) + "]";
    }

    static std::string Format(double v)
    {
        std::ostringstream os;
        os << v;
        return os.str();
    }

    void RejectUnknownKeys(const Json& object,
                           const std::string& path,
                           const std::set<std::string>& allowed,
                           bool allowTimes) const
    {
        for (const auto& item : object.items())
        {
            if (allowed.count(item.key()) || (allowTimes && IsTimeKey(item.key())))
            {
                continue;
            }
            std::string list;
            for (const auto& a : allowed)
            {
                list += (list.empty() ? "" : ", ") + a;
            }
            if (allowTimes)
            {
                list += ", forward_<unit>, backward_<unit>, update_<unit>";
            }
            Fail(Join(path, item.key()), "unknown field", "one of " + list);
        }
    }

  private:
    std::string m_source; //!< file name for messages
};

/// Check the provenance object; returns it.
const Json&
CheckProvenance(const ProfileReader& reader, const Json& prov)
{
    const std::string path = "provenance";
    if (!prov.is_object())
    {
        reader.Fail(path, std::string("wrong type ") + prov.type_name(), "an object");
    }
    for (const char* key : {"device", "framework", "method"})
    {
        reader.String(reader.Member(prov, path, key, "a non-empty string"),
                      ProfileReader::Join(path, key),
                      false);
    }
    const Json& derived
        = reader.Member(prov, path, "derived", "a boolean: true if any time is not measured");
    if (!derived.is_boolean())
    {
        reader.Fail("provenance.derived",
                    std::string("wrong type ") + derived.type_name(),
                    "a boolean: true if any time is not measured");
    }
    return prov;
}

/// Check the layer list of a profile (names unique, sizes in range).
void
CheckLayers(const ProfileReader& reader, const std::vector<TrainingProfile::Layer>& layers)
{
    if (layers.empty())
    {
        reader.Fail("layers", "no layers", "at least one layer");
    }
    std::set<std::string> names;
    uint64_t total = 0;
    for (std::size_t i = 0; i < layers.size(); ++i)
    {
        const auto& l = layers[i];
        std::string path = ProfileReader::Index("layers", i);
        if (l.name.empty())
        {
            reader.Fail(path + ".name", "empty string", "a non-empty string");
        }
        if (!names.insert(l.name).second)
        {
            reader.Fail(path + ".name", "duplicate layer name '" + l.name + "'", "unique names");
        }
        if (l.paramBytes > TrainingProfile::MAX_TOTAL_BYTES)
        {
            reader.Fail(path + ".param_bytes",
                        "absurd size " + std::to_string(l.paramBytes) + " bytes",
                        "at most 10^12 bytes (1 TB)");
        }
        total += l.paramBytes;
        reader.CheckTime(l.forwardUs, path + ".forward_us");
        reader.CheckTime(l.backwardUs, path + ".backward_us");
        reader.CheckTime(l.updateUs, path + ".update_us");
    }
    if (total == 0)
    {
        reader.Fail("layers",
                    "the model has zero parameter bytes",
                    "some layer with param_bytes > 0");
    }
    if (total > TrainingProfile::MAX_TOTAL_BYTES)
    {
        reader.Fail("layers",
                    "absurd model size " + std::to_string(total) + " bytes",
                    "at most 10^12 bytes (1 TB) in all");
    }
}

/// Check one recorded step against the number of layers.
void
CheckSample(const ProfileReader& reader,
            const TrainingProfile::StepTimes& s,
            std::size_t k,
            std::size_t nLayers)
{
    std::string path = ProfileReader::Index("samples", k);
    const std::vector<double>* vectors[] = {&s.forwardUs, &s.backwardUs, &s.updateUs};
    for (std::size_t f = 0; f < 3; ++f)
    {
        std::string vpath = path + "." + TIME_FIELDS[f] + "_us";
        if (vectors[f]->size() != nLayers)
        {
            reader.Fail(vpath,
                        "array of " + std::to_string(vectors[f]->size()) + " values",
                        std::to_string(nLayers) + " values, one per layer");
        }
        for (std::size_t i = 0; i < nLayers; ++i)
        {
            reader.CheckTime((*vectors[f])[i], ProfileReader::Index(vpath, i));
        }
    }
}

} // namespace

bool
TrainingProfile::Layer::operator==(const Layer& other) const
{
    return name == other.name && type == other.type && paramBytes == other.paramBytes
           && forwardUs == other.forwardUs && backwardUs == other.backwardUs
           && updateUs == other.updateUs;
}

bool
TrainingProfile::StepTimes::operator==(const StepTimes& other) const
{
    return forwardUs == other.forwardUs && backwardUs == other.backwardUs
           && updateUs == other.updateUs;
}

TrainingProfile::TrainingProfile()
    : m_batchSize(1),
      m_provenance("{}")
{
}

namespace
{

/// The limits of a profile file (doc/reference/design.rst, "Input limits").
const JsonInput::Limits&
ProfileLimits()
{
    // 64 MiB holds ~100,000 recorded steps of a 100-layer model (the shipped ones are < 0.2 MB);
    // a profile nests 4 levels (samples[i].forward_us[j]) plus what provenance holds.
    static const JsonInput::Limits limits{64 << 20,
                                          64,
                                          "a profile JSON file (see traces/README.md)"};
    return limits;
}

/// Check "format" and "version" of a profile document.
void
CheckFormat(const ProfileReader& reader, const Json& doc)
{
    const Json& format
        = reader.Member(doc, "", "format", std::string("\"") + TrainingProfile::FORMAT_NAME + "\"");
    if (!format.is_string() || format.get<std::string>() != TrainingProfile::FORMAT_NAME)
    {
        reader.Fail("format",
                    "value " + format.dump(),
                    std::string("\"") + TrainingProfile::FORMAT_NAME + "\"");
    }
    reader.Unsigned(reader.Member(doc, "", "version", "1"),
                    "version",
                    TrainingProfile::FORMAT_VERSION,
                    TrainingProfile::FORMAT_VERSION,
                    "version " + std::to_string(TrainingProfile::FORMAT_VERSION));
}

/// \return layers[i] of a profile document
TrainingProfile::Layer
ReadLayer(const ProfileReader& reader, const Json& l, const std::string& path)
{
    if (!l.is_object())
    {
        reader.Fail(path, std::string("wrong type ") + l.type_name(), "a layer object");
    }
    reader.RejectUnknownKeys(l, path, {"name", "type", "param_bytes"}, true);
    TrainingProfile::Layer layer;
    layer.name = reader.String(reader.Member(l, path, "name", "a non-empty string"),
                               path + ".name",
                               false);
    auto type = l.find("type");
    layer.type = type == l.end() ? "" : reader.String(*type, path + ".type", true);
    layer.paramBytes
        = reader.Unsigned(reader.Member(l, path, "param_bytes", "an integer number of bytes >= 0"),
                          path + ".param_bytes",
                          0,
                          UINT64_MAX,
                          "an integer number of bytes >= 0");
    double* times[] = {&layer.forwardUs, &layer.backwardUs, &layer.updateUs};
    for (std::size_t f = 0; f < 3; ++f)
    {
        auto [key, factor] = reader.TimeKey(l, path, TIME_FIELDS[f]);
        *times[f] = reader.Time(l[key], path + "." + key, factor);
    }
    return layer;
}

/// \return the "layers" of a profile document (checked as a whole by CheckLayers)
std::vector<TrainingProfile::Layer>
ReadLayers(const ProfileReader& reader, const Json& doc)
{
    const Json& layers = reader.Member(doc, "", "layers", "a non-empty array of layers");
    if (!layers.is_array())
    {
        reader.Fail("layers", std::string("wrong type ") + layers.type_name(), "an array");
    }
    if (layers.empty())
    {
        reader.Fail("layers", "empty array", "at least one layer");
    }
    std::vector<TrainingProfile::Layer> out;
    for (std::size_t i = 0; i < layers.size(); ++i)
    {
        out.push_back(ReadLayer(reader, layers[i], ProfileReader::Index("layers", i)));
    }
    CheckLayers(reader, out);
    return out;
}

/// \return samples[k] of a profile document with n layers
TrainingProfile::StepTimes
ReadSample(const ProfileReader& reader, const Json& s, const std::string& path, std::size_t n)
{
    if (!s.is_object())
    {
        reader.Fail(path, std::string("wrong type ") + s.type_name(), "an object");
    }
    reader.RejectUnknownKeys(s, path, {}, true);
    TrainingProfile::StepTimes step;
    std::vector<double>* vectors[] = {&step.forwardUs, &step.backwardUs, &step.updateUs};
    for (std::size_t f = 0; f < 3; ++f)
    {
        auto [key, factor] = reader.TimeKey(s, path, TIME_FIELDS[f]);
        const Json& arr = s[key];
        std::string vpath = path + "." + key;
        if (!arr.is_array())
        {
            reader.Fail(vpath,
                        std::string("wrong type ") + arr.type_name(),
                        "an array of " + std::to_string(n) + " times, one per layer");
        }
        if (arr.size() != n)
        {
            reader.Fail(vpath,
                        "array of " + std::to_string(arr.size()) + " values",
                        std::to_string(n) + " values, one per layer");
        }
        vectors[f]->reserve(n);
        for (std::size_t i = 0; i < n; ++i)
        {
            vectors[f]->push_back(reader.Time(arr[i], ProfileReader::Index(vpath, i), factor));
        }
    }
    return step;
}

/// \return the optional "samples" of a profile document with n layers (empty if absent)
std::vector<TrainingProfile::StepTimes>
ReadSamples(const ProfileReader& reader, const Json& doc, std::size_t n)
{
    std::vector<TrainingProfile::StepTimes> out;
    auto samples = doc.find("samples");
    if (samples == doc.end())
    {
        return out;
    }
    if (!samples->is_array())
    {
        reader.Fail("samples",
                    std::string("wrong type ") + samples->type_name(),
                    "an array of recorded steps");
    }
    if (samples->empty())
    {
        reader.Fail("samples", "empty array", "at least one recorded step, or no samples key");
    }
    for (std::size_t k = 0; k < samples->size(); ++k)
    {
        out.push_back(ReadSample(reader, (*samples)[k], ProfileReader::Index("samples", k), n));
    }
    return out;
}

} // namespace

TrainingProfile
TrainingProfile::LoadFromFile(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    TrainingProfile profile = LoadFromString(JsonInput::ReadFile(path, ProfileLimits()), path);
    profile.m_source = path;
    return profile;
}

TrainingProfile
TrainingProfile::LoadFromString(const std::string& text, const std::string& source)
{
    NS_LOG_FUNCTION(source << text.size());
    ProfileReader reader(source);
    Json doc = JsonInput::Parse(text, source, ProfileLimits());
    if (!doc.is_object())
    {
        reader.Fail("", std::string("top level is ") + doc.type_name(), "a JSON object");
    }
    reader.RejectUnknownKeys(
        doc,
        "",
        {"format", "version", "model", "batch_size", "provenance", "layers", "samples"},
        false);
    CheckFormat(reader, doc);

    TrainingProfile profile;
    profile.m_model
        = reader.String(reader.Member(doc, "", "model", "a non-empty string"), "model", false);
    profile.m_batchSize = static_cast<uint32_t>(
        reader.Unsigned(reader.Member(doc, "", "batch_size", "an integer >= 1"),
                        "batch_size",
                        1,
                        1000000,
                        "an integer from 1 to 10^6"));
    profile.m_provenance
        = CheckProvenance(reader, reader.Member(doc, "", "provenance", "an object")).dump();
    profile.m_layers = ReadLayers(reader, doc);
    profile.m_samples = ReadSamples(reader, doc, profile.m_layers.size());
    profile.m_source = source;
    return profile;
}

std::string
TrainingProfile::ToJson() const
{
    Json doc;
    doc["format"] = FORMAT_NAME;
    doc["version"] = FORMAT_VERSION;
    doc["model"] = m_model;
    doc["batch_size"] = m_batchSize;
    doc["provenance"] = Json::parse(m_provenance);
    Json layers = Json::array();
    for (const auto& l : m_layers)
    {
        Json j;
        j["name"] = l.name;
        if (!l.type.empty())
        {
            j["type"] = l.type;
        }
        j["param_bytes"] = l.paramBytes;
        j["forward_us"] = l.forwardUs;
        j["backward_us"] = l.backwardUs;
        j["update_us"] = l.updateUs;
        layers.push_back(std::move(j));
    }
    doc["layers"] = std::move(layers);
    if (!m_samples.empty())
    {
        Json samples = Json::array();
        for (const auto& s : m_samples)
        {
            Json j;
            j["forward_us"] = s.forwardUs;
            j["backward_us"] = s.backwardUs;
            j["update_us"] = s.updateUs;
            samples.push_back(std::move(j));
        }
        doc["samples"] = std::move(samples);
    }
    // One layer per line keeps the files readable and diffable.
    std::string out = "{\n";
    bool first = true;
    for (const auto& item : doc.items())
    {
        out += first ? "" : ",\n";
        first = false;
        out += "  " + Json(item.key()).dump() + ": ";
        if (item.value().is_array())
        {
            out += "[\n";
            for (std::size_t i = 0; i < item.value().size(); ++i)
            {
                out += "    " + item.value()[i].dump()
                       + (i + 1 < item.value().size() ? ",\n" : "\n");
            }
            out += "  ]";
        }
        else
        {
            out += item.value().dump();
        }
    }
    out += "\n}\n";
    return out;
}

void
TrainingProfile::SaveToFile(const std::string& path) const
{
    NS_LOG_FUNCTION(this << path);
    Validate(path);
    OutputFile::Write(path, ToJson(), "");
}

void
TrainingProfile::Validate(const std::string& source) const
{
    ProfileReader reader(source);
    if (m_model.empty())
    {
        reader.Fail("model", "empty string", "a non-empty string");
    }
    if (m_batchSize < 1 || m_batchSize > 1000000)
    {
        reader.Fail("batch_size",
                    "value " + std::to_string(m_batchSize) + " out of range",
                    "an integer from 1 to 10^6");
    }
    Json prov;
    try
    {
        prov = Json::parse(m_provenance);
    }
    catch (const Json::parse_error& e)
    {
        reader.Fail("provenance", std::string("not valid JSON: ") + e.what(), "a JSON object");
    }
    CheckProvenance(reader, prov);
    CheckLayers(reader, m_layers);
    for (std::size_t k = 0; k < m_samples.size(); ++k)
    {
        CheckSample(reader, m_samples[k], k, m_layers.size());
    }
}

void
TrainingProfile::SetModel(const std::string& model)
{
    m_model = model;
}

void
TrainingProfile::SetBatchSize(uint32_t batchSize)
{
    m_batchSize = batchSize;
}

void
TrainingProfile::SetProvenance(const std::string& provenance)
{
    Json prov;
    try
    {
        prov = Json::parse(provenance);
    }
    catch (const Json::parse_error& e)
    {
        throw TrainingInputError(std::string("provenance: not valid JSON: ") + e.what()
                                 + " (expected a JSON object)");
    }
    m_provenance = prov.dump();
}

void
TrainingProfile::AddLayer(const Layer& layer)
{
    m_layers.push_back(layer);
}

void
TrainingProfile::AddSample(const StepTimes& sample)
{
    m_samples.push_back(sample);
}

void
TrainingProfile::ScaleComputeTimes(double factor)
{
    for (Layer& l : m_layers)
    {
        l.forwardUs *= factor;
        l.backwardUs *= factor;
        l.updateUs *= factor;
    }
    for (StepTimes& s : m_samples)
    {
        for (auto* times : {&s.forwardUs, &s.backwardUs, &s.updateUs})
        {
            for (double& t : *times)
            {
                t *= factor;
            }
        }
    }
}

const std::string&
TrainingProfile::GetModel() const
{
    return m_model;
}

uint32_t
TrainingProfile::GetBatchSize() const
{
    return m_batchSize;
}

const std::string&
TrainingProfile::GetProvenance() const
{
    return m_provenance;
}

std::string
TrainingProfile::GetProvenanceField(const std::string& key) const
{
    Json prov = Json::parse(m_provenance, nullptr, false);
    if (!prov.is_object())
    {
        return "";
    }
    auto it = prov.find(key);
    if (it == prov.end())
    {
        return "";
    }
    return it->is_string() ? it->get<std::string>() : it->dump();
}

bool
TrainingProfile::IsDerived() const
{
    return GetProvenanceField("derived") == "true";
}

const std::string&
TrainingProfile::GetSourceName() const
{
    return m_source;
}

std::size_t
TrainingProfile::GetNLayers() const
{
    return m_layers.size();
}

const TrainingProfile::Layer&
TrainingProfile::GetLayer(std::size_t i) const
{
    return m_layers.at(i);
}

const std::vector<TrainingProfile::Layer>&
TrainingProfile::GetLayers() const
{
    return m_layers;
}

std::size_t
TrainingProfile::GetNSamples() const
{
    return m_samples.size();
}

const TrainingProfile::StepTimes&
TrainingProfile::GetSample(std::size_t k) const
{
    return m_samples.at(k);
}

TrainingProfile::StepTimes
TrainingProfile::GetMeanStep() const
{
    StepTimes s;
    for (const auto& l : m_layers)
    {
        s.forwardUs.push_back(l.forwardUs);
        s.backwardUs.push_back(l.backwardUs);
        s.updateUs.push_back(l.updateUs);
    }
    return s;
}

uint64_t
TrainingProfile::GetTotalParamBytes() const
{
    return std::accumulate(m_layers.begin(),
                           m_layers.end(),
                           uint64_t{0},
                           [](uint64_t sum, const Layer& l)
                           {
                               return sum + l.paramBytes;
                           });
}

Time
TrainingProfile::SumLayerTimes(double Layer::*field) const
{
    double us = 0;
    for (const auto& l : m_layers)
    {
        us += l.*field;
    }
    return FromMicroseconds(us);
}

Time
TrainingProfile::GetForwardTime() const
{
    return SumLayerTimes(&Layer::forwardUs);
}

Time
TrainingProfile::GetBackwardTime() const
{
    return SumLayerTimes(&Layer::backwardUs);
}

Time
TrainingProfile::GetUpdateTime() const
{
    return SumLayerTimes(&Layer::updateUs);
}

Time
TrainingProfile::FromMicroseconds(double us)
{
    return Seconds(us * 1e-6);
}

bool
TrainingProfile::operator==(const TrainingProfile& other) const
{
    return m_model == other.m_model && m_batchSize == other.m_batchSize
           && m_provenance == other.m_provenance && m_layers == other.m_layers
           && m_samples == other.m_samples;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-profile.h"

#include "json-input.h"
#include "json-object-reader.h"
#include "output-file.h"
#include "training-input-error.h"

#include "ns3/log.h"

#include <algorithm>
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
 * The rules of a profile document that a schema cannot say (a time in one unit, converted and
 * bounded; names unique; sizes in range); every failure names the source and the JSON path.
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
        Place(path).Fail(what, expected);
    }

    /// \return where path is, for a JsonObjectReader
    JsonPlace Place(const std::string& path) const
    {
        return JsonPlace(m_source, path);
    }

    /// \param limit what the largest accepted time is, for the message
    void CheckTime(double us,
                   const std::string& path,
                   const char* limit = "at most one hour per layer and step") const
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
            Fail(path, "absurd time " + Format(us) + " us", limit);
        }
    }

    /**
     * The one key "<field>_<unit>" of an object (its keys are checked by the schema).
     * \return the key and the factor to us
     */
    std::pair<std::string, double> TimeKey(const JsonObjectReader& object,
                                           const std::string& path,
                                           const std::string& field) const
    {
        std::string found;
        double factor = 0;
        for (const auto& u : TIME_UNITS)
        {
            const std::string key = field + "_" + u.suffix;
            if (!object.Has(key))
            {
                continue;
            }
            if (!found.empty())
            {
                Fail(Join(path, key),
                     "time given twice (also as " + found + ")",
                     "exactly one " + field + "_<unit> key");
            }
            found = key;
            factor = u.toUs;
        }
        if (found.empty())
        {
            Fail(Join(path, field + "_us"),
                 "missing field",
                 "a " + field + " time, e.g. " + field + "_us");
        }
        return {found, factor};
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

  private:
    std::string m_source; //!< file name for messages
};

/// What the keys of a sample may be, for messages.
const char* const SAMPLE_KEYS_TEXT
    = "forward_<unit>, backward_<unit> and update_<unit> with unit s, ms, us or ns";

/// What the keys of a layer may be, for messages.
const char* const LAYER_KEYS_TEXT
    = "one of name, type, param_bytes, forward_<unit>, backward_<unit> and update_<unit> with "
      "unit s, ms, us or ns, and the shape fields output_elements, macs, local and halo";

/// What a count of the shape is, for messages.
const char* const COUNT_EXPECTED = "a finite number >= 0";
/// What a halo is, for messages.
const char* const HALO_EXPECTED = "a fraction of the input's extent in [0, 1]";

/**
 * \param first the object's other fields
 * \param time what a time key holds
 * \param element an array time's elements
 * \return the schema: first, then the three times in every unit
 */
JsonSchema
WithTimeKeys(JsonSchema first, const JsonSpec& time, const JsonSpec& element)
{
    for (const char* field : TIME_FIELDS)
    {
        for (const auto& u : TIME_UNITS)
        {
            first.push_back(
                {std::string(field) + "_" + u.suffix, JsonField::OPTIONAL, time, element});
        }
    }
    return first;
}

/// A time as a file holds it: its range is checked in microseconds (CheckTime).
const JsonSpec TIME_SPEC = JsonSpec::Number(-INFINITY, INFINITY, "a finite number >= 0");

/// The top-level key of the worker's whole-model optimizer step.
const char* const WORKER_UPDATE_KEY = "worker_update_us";
/// The top-level key of where that time comes from.
const char* const WORKER_UPDATE_PROVENANCE_KEY = "worker_update_provenance";
/// What bounds the worker's optimizer step, for messages (the bound of one layer's time).
const char* const WORKER_UPDATE_LIMIT = "at most one hour per step";

/**
 * \brief Check the worker's optimizer step: a time with its provenance, or neither.
 * \param reader where messages go
 * \param us the time, if any
 * \param provenance its provenance
 */
void
CheckWorkerUpdate(const ProfileReader& reader,
                  const std::optional<double>& us,
                  const std::string& provenance)
{
    if (!us)
    {
        if (!provenance.empty())
        {
            reader.Fail(WORKER_UPDATE_PROVENANCE_KEY,
                        "a provenance without a time",
                        std::string(WORKER_UPDATE_KEY) + " with it, or neither");
        }
        return;
    }
    reader.CheckTime(*us, WORKER_UPDATE_KEY, WORKER_UPDATE_LIMIT);
    if (provenance.empty())
    {
        reader.Fail(WORKER_UPDATE_PROVENANCE_KEY,
                    "missing field",
                    "a non-empty string saying where worker_update_us comes from");
    }
}

/// \return the schema of a profile's layers[i]
const JsonSchema&
LayerSchema()
{
    static const JsonSchema schema = WithTimeKeys(
        {{"name", JsonField::REQUIRED, JsonSpec::String("a non-empty string", 1), {}},
         {"type", JsonField::OPTIONAL, JsonSpec::String("a string"), {}},
         {"param_bytes",
          JsonField::REQUIRED,
          JsonSpec::Unsigned(0, UINT64_MAX, "an integer number of bytes >= 0"),
          {}},
         {"output_elements",
          JsonField::OPTIONAL,
          JsonSpec::Number(0, INFINITY, COUNT_EXPECTED),
          {}},
         {"macs", JsonField::OPTIONAL, JsonSpec::Number(0, INFINITY, COUNT_EXPECTED), {}},
         {"local", JsonField::OPTIONAL, JsonSpec::Boolean("true or false"), {}},
         {"halo", JsonField::OPTIONAL, JsonSpec::Number(0, 1, HALO_EXPECTED), {}}},
        TIME_SPEC,
        {});
    return schema;
}

/// \return the schema of a profile's samples[k]
const JsonSchema&
SampleSchema()
{
    static const JsonSchema schema
        = WithTimeKeys({}, JsonSpec::Array(0, "an array of times, one per layer"), TIME_SPEC);
    return schema;
}

/// \return the schema of a profile's provenance (free keys of any value besides these)
const JsonSchema&
ProvenanceSchema()
{
    static const JsonSchema schema{
        {"device", JsonField::REQUIRED, JsonSpec::String("a non-empty string", 1), {}},
        {"framework", JsonField::REQUIRED, JsonSpec::String("a non-empty string", 1), {}},
        {"method", JsonField::REQUIRED, JsonSpec::String("a non-empty string", 1), {}},
        {"derived",
         JsonField::REQUIRED,
         JsonSpec::Boolean("a boolean: true if any time is not measured"),
         {}},
        {JsonField::OTHER, JsonField::OPTIONAL, {}, {}}};
    return schema;
}

/// \return the schema of a profile document
const JsonSchema&
DocumentSchema()
{
    static const JsonSchema schema{
        {"format",
         JsonField::REQUIRED,
         JsonSpec::OneOf({TrainingProfile::FORMAT_NAME},
                         std::string("\"") + TrainingProfile::FORMAT_NAME + "\""),
         {}},
        {"version",
         JsonField::REQUIRED,
         JsonSpec::Unsigned(TrainingProfile::FORMAT_VERSION,
                            TrainingProfile::FORMAT_VERSION,
                            "version " + std::to_string(TrainingProfile::FORMAT_VERSION)),
         {}},
        {"model", JsonField::REQUIRED, JsonSpec::String("a non-empty string", 1), {}},
        {"batch_size",
         JsonField::REQUIRED,
         JsonSpec::Unsigned(1, 1000000, "an integer from 1 to 10^6"),
         {}},
        {"provenance", JsonField::REQUIRED, JsonSpec::Object("an object"), {}},
        {WORKER_UPDATE_KEY, JsonField::OPTIONAL, TIME_SPEC, {}},
        {WORKER_UPDATE_PROVENANCE_KEY,
         JsonField::OPTIONAL,
         JsonSpec::String("a non-empty string: where the worker's optimizer time comes from", 1),
         {}},
        {"layers",
         JsonField::REQUIRED,
         JsonSpec::Array(1, "a non-empty array of layers"),
         JsonSpec::Object("a layer object")},
        {"samples",
         JsonField::OPTIONAL,
         JsonSpec::Array(1, "a non-empty array of recorded steps, or no samples key"),
         JsonSpec::Object("a recorded step object")}};
    return schema;
}

/// Check the provenance object; returns it.
const Json&
CheckProvenance(const ProfileReader& reader, const Json& prov)
{
    JsonObjectReader(prov, reader.Place("provenance"), ProvenanceSchema());
    return prov;
}

/// Check a layer's shape (a profile built in memory has not met the schema).
void
CheckShape(const ProfileReader& reader, const TrainingProfile::Shape& s, const std::string& path)
{
    for (const auto& [value, key] :
         {std::make_pair(s.outputElements, "output_elements"), std::make_pair(s.macs, "macs")})
    {
        if (!std::isfinite(value) || value < 0)
        {
            reader.Fail(path + "." + key, "value " + ProfileReader::Format(value), COUNT_EXPECTED);
        }
    }
    if (!(s.halo >= 0 && s.halo <= 1))
    {
        reader.Fail(path + ".halo", "value " + ProfileReader::Format(s.halo), HALO_EXPECTED);
    }
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
        if (l.shape)
        {
            CheckShape(reader, *l.shape, path);
        }
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
TrainingProfile::Shape::operator==(const Shape& other) const
{
    return outputElements == other.outputElements && macs == other.macs && local == other.local
           && halo == other.halo;
}

bool
TrainingProfile::Layer::operator==(const Layer& other) const
{
    return name == other.name && type == other.type && paramBytes == other.paramBytes
           && forwardUs == other.forwardUs && backwardUs == other.backwardUs
           && updateUs == other.updateUs && shape == other.shape;
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

/**
 * \param object a layer, checked against LayerSchema()
 * \return its shape; none if it has no shape field
 * \throws TrainingInputError if it has some but not both counts
 */
std::optional<TrainingProfile::Shape>
ReadShape(const JsonObjectReader& object)
{
    const bool counts = object.Has("output_elements") && object.Has("macs");
    if (!counts)
    {
        for (const char* key : {"output_elements", "macs", "local", "halo"})
        {
            if (object.Has(key))
            {
                object.At(key).Fail(std::string("shape field ") + key + " alone",
                                    "output_elements and macs together (traces/profile_model.py "
                                    "annotate writes all four), or no shape field");
            }
        }
        return std::nullopt;
    }
    TrainingProfile::Shape shape;
    shape.outputElements = object.GetNumber("output_elements");
    shape.macs = object.GetNumber("macs");
    shape.local = object.GetBool("local");
    shape.halo = object.GetNumber("halo");
    return shape;
}

/// \return layers[i] of a profile document
TrainingProfile::Layer
ReadLayer(const ProfileReader& reader, const Json& l, const std::string& path)
{
    const JsonObjectReader object(l, reader.Place(path), LayerSchema(), LAYER_KEYS_TEXT);
    TrainingProfile::Layer layer;
    layer.name = object.GetString("name");
    layer.type = object.GetString("type");
    layer.paramBytes = object.GetUnsigned("param_bytes");
    double* times[] = {&layer.forwardUs, &layer.backwardUs, &layer.updateUs};
    for (std::size_t f = 0; f < 3; ++f)
    {
        auto [key, factor] = reader.TimeKey(object, path, TIME_FIELDS[f]);
        *times[f] = object.GetNumber(key) * factor;
        reader.CheckTime(*times[f], path + "." + key);
    }
    layer.shape = ReadShape(object);
    return layer;
}

/// \return the "layers" of a profile document (checked as a whole by CheckLayers)
std::vector<TrainingProfile::Layer>
ReadLayers(const ProfileReader& reader, const Json& layers)
{
    std::vector<TrainingProfile::Layer> out;
    out.reserve(layers.size());
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
    const JsonObjectReader object(s, reader.Place(path), SampleSchema(), SAMPLE_KEYS_TEXT);
    TrainingProfile::StepTimes step;
    std::vector<double>* vectors[] = {&step.forwardUs, &step.backwardUs, &step.updateUs};
    for (std::size_t f = 0; f < 3; ++f)
    {
        auto [key, factor] = reader.TimeKey(object, path, TIME_FIELDS[f]);
        const Json& arr = object.Get(key);
        std::string vpath = path + "." + key;
        if (arr.size() != n)
        {
            reader.Fail(vpath,
                        "array of " + std::to_string(arr.size()) + " values",
                        std::to_string(n) + " values, one per layer");
        }
        vectors[f]->reserve(n);
        for (std::size_t i = 0; i < n; ++i)
        {
            vectors[f]->push_back(arr[i].get<double>() * factor);
            reader.CheckTime(vectors[f]->back(), ProfileReader::Index(vpath, i));
        }
    }
    return step;
}

/// \return the "samples" of a profile document with n layers
std::vector<TrainingProfile::StepTimes>
ReadSamples(const ProfileReader& reader, const Json& samples, std::size_t n)
{
    std::vector<TrainingProfile::StepTimes> out;
    for (std::size_t k = 0; k < samples.size(); ++k)
    {
        out.push_back(ReadSample(reader, samples[k], ProfileReader::Index("samples", k), n));
    }
    return out;
}

/// \return a count as JSON: an integer when it is one (as traces/profile_model.py writes it)
Json
CountJson(double count)
{
    if (count == std::floor(count) && count < 9007199254740992.0) // 2^53: exact in a double
    {
        return static_cast<uint64_t>(count);
    }
    return count;
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
    const Json doc = JsonInput::Parse(text, source, ProfileLimits());
    const JsonObjectReader object(doc, reader.Place(""), DocumentSchema());
    TrainingProfile profile;
    profile.m_model = object.GetString("model");
    profile.m_batchSize = static_cast<uint32_t>(object.GetUnsigned("batch_size"));
    profile.m_provenance = CheckProvenance(reader, object.Get("provenance")).dump();
    profile.m_layers = ReadLayers(reader, object.Get("layers"));
    if (const Json* samples = object.Find("samples"))
    {
        profile.m_samples = ReadSamples(reader, *samples, profile.m_layers.size());
    }
    if (object.Has(WORKER_UPDATE_KEY))
    {
        profile.m_workerUpdateUs = object.GetNumber(WORKER_UPDATE_KEY);
    }
    if (object.Has(WORKER_UPDATE_PROVENANCE_KEY))
    {
        profile.m_workerUpdateProvenance = object.GetString(WORKER_UPDATE_PROVENANCE_KEY);
    }
    CheckWorkerUpdate(reader, profile.m_workerUpdateUs, profile.m_workerUpdateProvenance);
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
    if (m_workerUpdateUs)
    {
        doc[WORKER_UPDATE_KEY] = *m_workerUpdateUs;
        doc[WORKER_UPDATE_PROVENANCE_KEY] = m_workerUpdateProvenance;
    }
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
        if (l.shape)
        {
            j["output_elements"] = CountJson(l.shape->outputElements);
            j["macs"] = CountJson(l.shape->macs);
            j["local"] = l.shape->local;
            j["halo"] = l.shape->halo;
        }
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
    CheckWorkerUpdate(reader, m_workerUpdateUs, m_workerUpdateProvenance);
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
TrainingProfile::SetWorkerUpdate(double us, const std::string& provenance)
{
    m_workerUpdateUs = us;
    m_workerUpdateProvenance = provenance;
}

void
TrainingProfile::ScaleComputeTimes(double factor)
{
    if (m_workerUpdateUs)
    {
        *m_workerUpdateUs *= factor;
    }
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

bool
TrainingProfile::HasShapes() const
{
    return std::all_of(m_layers.begin(),
                       m_layers.end(),
                       [](const Layer& l)
                       {
                           return l.shape.has_value();
                       });
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

bool
TrainingProfile::HasWorkerUpdate() const
{
    return m_workerUpdateUs.has_value();
}

double
TrainingProfile::GetWorkerUpdateUs() const
{
    return m_workerUpdateUs.value_or(0.0);
}

const std::string&
TrainingProfile::GetWorkerUpdateProvenance() const
{
    return m_workerUpdateProvenance;
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
           && m_samples == other.m_samples && m_workerUpdateUs == other.m_workerUpdateUs
           && m_workerUpdateProvenance == other.m_workerUpdateProvenance;
}

} // namespace ns3

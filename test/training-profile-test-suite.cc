/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * TrainingProfile: exact save/load round trip, time units, every class of malformed input (each
 * must give a TrainingInputError naming the file and the JSON path), and the shipped profiles of
 * traces/ (real architectures: total parameter counts equal the published ones).
 */

#include "ns3/distributed-training-compat.h"
#include "ns3/test.h"
#include "ns3/training-input-error.h"
#include "ns3/training-profile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>

using namespace ns3;
using Json = nlohmann::ordered_json;

namespace
{

/// A small valid profile document: three layers, two recorded steps.
Json
ValidDocument()
{
    return Json::parse(R"({
      "format": "distributed-training-profile", "version": 1,
      "model": "tiny", "batch_size": 4,
      "provenance": {"device": "test", "framework": "none", "method": "hand-written",
                     "derived": false, "note": {"nested": [1, 2.5, "x"]}},
      "layers": [
        {"name": "a", "type": "Conv2d", "param_bytes": 1000,
         "forward_us": 10.5, "backward_us": 20, "update_us": 1},
        {"name": "b", "param_bytes": 0, "forward_us": 5, "backward_us": 6, "update_us": 0},
        {"name": "c", "type": "Linear", "param_bytes": 4000,
         "forward_ms": 0.25, "backward_ms": 0.5, "update_ms": 0.002}
      ],
      "samples": [
        {"forward_us": [10, 5, 250], "backward_us": [19, 6, 500], "update_us": [1, 0, 2]},
        {"forward_us": [11, 5, 250], "backward_us": [21, 6, 500], "update_us": [1, 0, 2]}
      ]})");
}

/// Load a document from a string; returns the error message ("" if it loaded).
std::string
LoadError(const std::string& text, const std::string& source = "case.json")
{
    try
    {
        TrainingProfile::LoadFromString(text, source);
    }
    catch (const TrainingInputError& e)
    {
        return e.what();
    }
    return "";
}

/// A temporary file that removes itself.
class TempFile
{
  public:
    explicit TempFile(const std::string& content)
        : m_path(
            (std::filesystem::temp_directory_path()
             / ("dt-profile-test-" + std::to_string(reinterpret_cast<uintptr_t>(this)) + ".json"))
                .string())
    {
        std::ofstream(m_path) << content;
    }

    ~TempFile()
    {
        std::remove(m_path.c_str());
    }

    const std::string& Path() const
    {
        return m_path;
    }

  private:
    std::string m_path;
};

/**
 * \ingroup distributed-training
 * A profile saved and loaded again is equal to the original, bit for bit, samples and nested
 * provenance included; time units convert to microseconds.
 *
 * Profile: save then load gives an identical profile, and ms, s, ns convert to us.
 */
class ProfileRoundTripTestCase : public TestCase
{
  public:
    ProfileRoundTripTestCase()
        : TestCase("profile save then load is identical, ms, s and ns convert to us")
    {
    }

  private:
    void DoRun() override
    {
        TrainingProfile p = TrainingProfile::LoadFromString(ValidDocument().dump(), "valid.json");
        NS_TEST_ASSERT_MSG_EQ(p.GetNLayers(), 3, "layers");
        NS_TEST_ASSERT_MSG_EQ(p.GetNSamples(), 2, "samples");
        NS_TEST_EXPECT_MSG_EQ(p.GetTotalParamBytes(), 5000, "total bytes");
        NS_TEST_EXPECT_MSG_EQ_TOL(p.GetLayer(2).forwardUs, 250.0, 1e-12, "0.25 ms is 250 us");
        NS_TEST_EXPECT_MSG_EQ_TOL(p.GetLayer(2).updateUs, 2.0, 1e-12, "0.002 ms is 2 us");
        NS_TEST_EXPECT_MSG_EQ(p.GetForwardTime(), NanoSeconds(265500), "forward total");
        NS_TEST_EXPECT_MSG_EQ(p.GetProvenanceField("device"), "test", "provenance field");
        NS_TEST_EXPECT_MSG_EQ(p.IsDerived(), false, "derived flag");

        // Values that have no short decimal form must survive too.
        TrainingProfile::Layer odd{"odd", "", 7, 1.0 / 3.0, 0.1 + 0.2, 1e-300};
        TrainingProfile r;
        r.SetModel("odd-model");
        r.SetBatchSize(32);
        r.SetProvenance(
            R"({"device":"x","framework":"y","method":"z","derived":true,"k":[1,{"a":null}]})");
        for (const auto& layer : p.GetLayers())
        {
            r.AddLayer(layer);
        }
        r.AddLayer(odd);
        r.AddSample({{1, 2, 3, 1.0 / 7.0}, {4, 5, 6, std::sqrt(2.0)}, {0, 0, 0, 5e-324}});
        r.AddSample({{1, 2, 3, 2.0 / 7.0}, {4, 5, 6, 1e10 / 3}, {0, 0, 0, 0}});

        TempFile file("");
        r.SaveToFile(file.Path());
        TrainingProfile back = TrainingProfile::LoadFromFile(file.Path());
        NS_TEST_EXPECT_MSG_EQ((back == r), true, "loaded profile differs from the saved one");
        NS_TEST_EXPECT_MSG_EQ(back.ToJson(), r.ToJson(), "second save differs from the first");
        NS_TEST_EXPECT_MSG_EQ(back.IsDerived(), true, "derived flag survives");
        NS_TEST_EXPECT_MSG_EQ(back.GetSourceName(), file.Path(), "source name");
    }
};

/**
 * \ingroup distributed-training
 * Every kind of malformed profile gives a TrainingInputError that names the file, the JSON path
 * and what was expected; none aborts.
 *
 * Profile: malformed inputs are rejected with file, JSON path and expectation.
 */
class ProfileBadInputTestCase : public TestCase
{
  public:
    ProfileBadInputTestCase()
        : TestCase("malformed profiles are refused with file, JSON path and expectation")
    {
    }

  private:
    /// One malformed input and the fragments its message must contain.
    struct Case
    {
        std::string name;                     //!< what is wrong
        std::function<std::string()> text;    //!< the document
        std::vector<std::string> mustContain; //!< expected fragments of the message
    };

    static std::function<std::string()> Edit(std::function<void(Json&)> edit)
    {
        return [edit]()
        {
            Json doc = ValidDocument();
            edit(doc);
            return doc.dump();
        };
    }

    void DoRun() override
    {
        const std::string valid = ValidDocument().dump(2);
        std::vector<Case> cases = {
            {"not JSON",
             []
             {
                 return std::string("layers: resnet50\n");
             },
             {"not valid JSON"}},
            {"truncated file",
             [valid]
             {
                 return valid.substr(0, valid.size() / 2);
             },
             {"truncated JSON"}},
            {"empty file",
             []
             {
                 return std::string("");
             },
             {"empty file"}},
            {"only white space",
             []
             {
                 return std::string(" \n\t\n");
             },
             {"empty file"}},
            {"top level array",
             []
             {
                 return std::string("[1, 2]");
             },
             {"(top level): wrong type array"}},
            {"missing layers",
             Edit(
                 [](Json& d)
                 {
                     d.erase("layers");
                 }),
             {"layers: missing field", "expected a non-empty array"}},
            {"empty layers",
             Edit(
                 [](Json& d)
                 {
                     d["layers"] = Json::array();
                 }),
             {"layers: empty list", "non-empty array of layers"}},
            {"layers not an array",
             Edit(
                 [](Json& d)
                 {
                     d["layers"] = Json::object();
                 }),
             {"layers: wrong type object"}},
            {"missing param_bytes",
             Edit(
                 [](Json& d)
                 {
                     d["layers"][1].erase("param_bytes");
                 }),
             {"layers[1].param_bytes: missing field"}},
            {"missing backward time",
             Edit(
                 [](Json& d)
                 {
                     d["layers"][0].erase("backward_us");
                 }),
             {"layers[0].backward_us: missing field", "backward_us"}},
            {"missing layer name",
             Edit(
                 [](Json& d)
                 {
                     d["layers"][2].erase("name");
                 }),
             {"layers[2].name: missing field"}},
            {"param_bytes as string",
             Edit(
                 [](Json& d)
                 {
                     d["layers"][0]["param_bytes"] = "1000";
                 }),
             {"layers[0].param_bytes: wrong type string", "integer number of bytes"}},
            {"param_bytes fractional",
             Edit(
                 [](Json& d)
                 {
                     d["layers"][0]["param_bytes"] = 10.5;
                 }),
             {"layers[0].param_bytes: wrong type number"}},
            {"time as array",
             Edit(
                 [](Json& d)
                 {
                     d["layers"][1]["forward_us"] = Json::array({1});
                 }),
             {"layers[1].forward_us: wrong type array", "finite number >= 0"}},
            {"negative time",
             Edit(
                 [](Json& d)
                 {
                     d["layers"][0]["backward_us"] = -3;
                 }),
             {"layers[0].backward_us: negative time -3", "finite number >= 0"}},
            {"negative param_bytes",
             Edit(
                 [](Json& d)
                 {
                     d["layers"][0]["param_bytes"] = -4;
                 }),
             {"layers[0].param_bytes: negative value -4"}},
            {"NaN literal (not JSON)",
             [valid]
             {
                 std::string t = valid;
                 t.replace(t.find("10.5"), 4, "NaN");
                 return t;
             },
             {"not valid JSON"}},
            {"number overflowing a double",
             [valid]
             {
                 std::string t = valid;
                 t.replace(t.find("10.5"), 4, "1e999");
                 return t;
             },
             {"not valid JSON", "number overflow parsing '1e999'"}},
            {"absurd time",
             Edit(
                 [](Json& d)
                 {
                     d["layers"][0]["forward_s"] = 1e9;
                     d["layers"][0].erase("forward_us");
                 }),
             {"layers[0].forward_s: absurd time"}},
            {"zero-byte model",
             Edit(
                 [](Json& d)
                 {
                     for (auto& l : d["layers"])
                     {
                         l["param_bytes"] = 0;
                     }
                 }),
             {"layers: the model has zero parameter bytes"}},
            {"absurd layer size (> 1 TB)",
             Edit(
                 [](Json& d)
                 {
                     d["layers"][2]["param_bytes"] = 2000000000000ULL;
                 }),
             {"layers[2].param_bytes: absurd size 2000000000000", "10^12"}},
            {"absurd model size (> 1 TB in all)",
             Edit(
                 [](Json& d)
                 {
                     d["layers"][0]["param_bytes"] = 600000000000ULL;
                     d["layers"][2]["param_bytes"] = 600000000000ULL;
                 }),
             {"layers: absurd model size 1200000000000"}},
            {"duplicate layer names",
             Edit(
                 [](Json& d)
                 {
                     d["layers"][2]["name"] = "a";
                 }),
             {"layers[2].name: duplicate layer name 'a'", "unique names"}},
            {"unknown time unit",
             Edit(
                 [](Json& d)
                 {
                     d["layers"][1].erase("forward_us");
                     d["layers"][1]["forward_min"] = 1;
                 }),
             {"layers[1].forward_min: unknown field", "forward_ms", "unit s, ms, us or ns"}},
            {"time given in two units",
             Edit(
                 [](Json& d)
                 {
                     d["layers"][1]["forward_ms"] = 1;
                 }),
             {"layers[1].forward_", "time given twice"}},
            {"unknown layer field (typo)",
             Edit(
                 [](Json& d)
                 {
                     d["layers"][0]["parambytes"] = 1;
                 }),
             {"layers[0].parambytes: unknown field"}},
            {"unknown top-level field",
             Edit(
                 [](Json& d)
                 {
                     d["batchsize"] = 1;
                 }),
             {"batchsize: unknown field"}},
            {"sample array too short",
             Edit(
                 [](Json& d)
                 {
                     d["samples"][1]["backward_us"] = Json::array({1, 2});
                 }),
             {"samples[1].backward_us: array of 2 values", "3 values, one per layer"}},
            {"sample array too long",
             Edit(
                 [](Json& d)
                 {
                     d["samples"][0]["forward_us"].push_back(1);
                 }),
             {"samples[0].forward_us: array of 4 values"}},
            {"negative sample",
             Edit(
                 [](Json& d)
                 {
                     d["samples"][0]["update_us"][2] = -1;
                 }),
             {"samples[0].update_us[2]: negative time"}},
            {"empty samples",
             Edit(
                 [](Json& d)
                 {
                     d["samples"] = Json::array();
                 }),
             {"samples: empty list"}},
            {"batch size zero",
             Edit(
                 [](Json& d)
                 {
                     d["batch_size"] = 0;
                 }),
             {"batch_size: value 0 out of range"}},
            {"wrong format name",
             Edit(
                 [](Json& d)
                 {
                     d["format"] = "something-else";
                 }),
             {"format: unknown value \"something-else\""}},
            {"unsupported version",
             Edit(
                 [](Json& d)
                 {
                     d["version"] = 2;
                 }),
             {"version: value 2 out of range", "version 1"}},
            {"provenance without device",
             Edit(
                 [](Json& d)
                 {
                     d["provenance"].erase("device");
                 }),
             {"provenance.device: missing field"}},
            {"provenance derived not boolean",
             Edit(
                 [](Json& d)
                 {
                     d["provenance"]["derived"] = "no";
                 }),
             {"provenance.derived: wrong type string"}},
            {"empty model name",
             Edit(
                 [](Json& d)
                 {
                     d["model"] = "";
                 }),
             {"model: empty string"}},
        };

        for (const auto& c : cases)
        {
            std::string msg = LoadError(c.text(), "case.json");
            NS_TEST_EXPECT_MSG_NE(msg, "", c.name << ": was accepted");
            NS_TEST_EXPECT_MSG_EQ(msg.rfind("case.json: ", 0),
                                  0,
                                  c.name << ": no file name in: " << msg);
            for (const auto& fragment : c.mustContain)
            {
                NS_TEST_EXPECT_MSG_NE(msg.find(fragment),
                                      std::string::npos,
                                      c.name << ": '" << fragment << "' not in: " << msg);
            }
        }

        // File-level problems.
        std::string noFile = "/nonexistent/dir/profile.json";
        std::string msg;
        try
        {
            TrainingProfile::LoadFromFile(noFile);
        }
        catch (const TrainingInputError& e)
        {
            msg = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(msg.rfind(noFile + ": no such file", 0), 0, "missing file: " << msg);
        msg.clear();
        try
        {
            TrainingProfile::LoadFromFile(std::filesystem::temp_directory_path().string());
        }
        catch (const TrainingInputError& e)
        {
            msg = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(msg.find("not a regular file"),
                              std::string::npos,
                              "directory: " << msg);
        {
            TempFile truncated(valid.substr(0, 40));
            msg.clear();
            try
            {
                TrainingProfile::LoadFromFile(truncated.Path());
            }
            catch (const TrainingInputError& e)
            {
                msg = e.what();
            }
            NS_TEST_EXPECT_MSG_EQ(msg.rfind(truncated.Path() + ": truncated JSON", 0),
                                  0,
                                  "truncated file: " << msg);
        }

        // Profiles built in memory are checked by the same rules (NaN cannot come from JSON).
        TrainingProfile p = TrainingProfile::LoadFromString(ValidDocument().dump(), "ok.json");
        TrainingProfile nan = p;
        nan.AddLayer({"d", "", 4, std::numeric_limits<double>::quiet_NaN(), 1, 1});
        msg.clear();
        try
        {
            nan.Validate("memory");
        }
        catch (const TrainingInputError& e)
        {
            msg = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(msg.find("memory: layers[3].forward_us: NaN time"),
                              std::string::npos,
                              "NaN: " << msg);
        TrainingProfile shortSample = p;
        shortSample.AddSample({{1}, {1}, {1}});
        msg.clear();
        try
        {
            shortSample.SaveToFile("/tmp/never-written.json");
        }
        catch (const TrainingInputError& e)
        {
            msg = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(msg.find("samples[2].forward_us: array of 1 values"),
                              std::string::npos,
                              "invalid profile is not saved: " << msg);
        NS_TEST_EXPECT_MSG_EQ(std::filesystem::exists("/tmp/never-written.json"), false, "saved");
    }
};

/**
 * \ingroup distributed-training
 * The shipped profiles load, describe the real architectures (total parameters equal the published
 * counts), hold measured samples whose means are the layer means, and GPU-class variants say how
 * they were derived.
 *
 * Every shipped profile in traces loads and has its model's published parameter count.
 */
class ShippedProfilesTestCase : public TestCase
{
  public:
    ShippedProfilesTestCase()
        : TestCase("every shipped profile loads with its published parameter count")
    {
    }

  private:
    void DoRun() override
    {
        // Published parameter counts (torchvision model documentation / original papers).
        const std::pair<std::string, uint64_t> models[] = {
            {"alexnet", 61100840},
            {"vgg11", 132863336},
            {"vgg16", 138357544},
            {"resnet50", 25557032},
            {"resnet101", 44549160},
            {"resnet152", 60192808},
            {"inception_v3", 27161264},
            {"googlenet", GOOGLENET_PARAMS},
            {"densenet121", 7978856},
        };
        std::filesystem::path dir = std::filesystem::path(DT_SOURCE_DIR) / "traces";
        for (const auto& [model, params] : models)
        {
            int measured = 0;
            for (const auto& entry : std::filesystem::directory_iterator(dir))
            {
                std::string name = entry.path().filename().string();
                if (name.rfind(model + "-", 0) != 0 || entry.path().extension() != ".json")
                {
                    continue;
                }
                TrainingProfile p;
                try
                {
                    p = TrainingProfile::LoadFromFile(entry.path().string());
                }
                catch (const TrainingInputError& e)
                {
                    NS_TEST_EXPECT_MSG_EQ(true, false, e.what());
                    continue;
                }
                NS_TEST_EXPECT_MSG_EQ(p.GetModel(), model, name << ": model name");
                NS_TEST_EXPECT_MSG_EQ(p.GetTotalParamBytes(),
                                      4 * params,
                                      name << ": total bytes != 4 x published parameter count");
                NS_TEST_EXPECT_MSG_GT(p.GetNSamples(), 1, name << ": no per-step samples");
                if (p.IsDerived())
                {
                    NS_TEST_EXPECT_MSG_NE(p.GetProvenanceField("scaling"),
                                          "",
                                          name << ": derived profile without its scaling");
                }
                else
                {
                    ++measured;
                }
                // No recorded step was disturbed: the old ResNet-152 profile had two steps at
                // 5-8 x the others (the machine was busy), which a median bound catches.
                std::vector<double> totals;
                for (std::size_t k = 0; k < p.GetNSamples(); ++k)
                {
                    const auto& st = p.GetSample(k);
                    double t = 0;
                    for (std::size_t i = 0; i < p.GetNLayers(); ++i)
                    {
                        t += st.forwardUs[i] + st.backwardUs[i] + st.updateUs[i];
                    }
                    totals.push_back(t);
                }
                std::vector<double> sorted = totals;
                std::sort(sorted.begin(), sorted.end());
                double median = sorted[sorted.size() / 2];
                NS_TEST_EXPECT_MSG_LT(sorted.back(),
                                      2 * median,
                                      name << ": a recorded step took " << sorted.back() / median
                                           << " x the median step (disturbed measurement?)");
                // The layer times are the means of the samples (files hold times to the ns).
                for (std::size_t i = 0; i < p.GetNLayers(); ++i)
                {
                    double sum = 0;
                    for (std::size_t k = 0; k < p.GetNSamples(); ++k)
                    {
                        sum += p.GetSample(k).backwardUs[i];
                    }
                    double mean = sum / p.GetNSamples();
                    NS_TEST_EXPECT_MSG_EQ_TOL(p.GetLayer(i).backwardUs,
                                              mean,
                                              (1e-9 * mean + 1e-3),
                                              name << " layer " << i << ": mean of samples");
                }
            }
            NS_TEST_EXPECT_MSG_GT(measured, 0, model << ": no measured profile in traces/");
        }
    }

    /// torchvision's GoogLeNet without the auxiliary classifiers (they are training-only heads).
    static constexpr uint64_t GOOGLENET_PARAMS = 6624904;
};

/**
 * \ingroup distributed-training
 * TrainingProfile tests.
 */
class TrainingProfileTestSuite : public TestSuite
{
  public:
    TrainingProfileTestSuite()
        : TestSuite("distributed-training-profile", Type::UNIT)
    {
        AddTestCase(new ProfileRoundTripTestCase, DT_TEST_QUICK);
        AddTestCase(new ProfileBadInputTestCase, DT_TEST_QUICK);
        AddTestCase(new ShippedProfilesTestCase, DT_TEST_QUICK);
    }
};

/// Static instance: registers the suite.
static TrainingProfileTestSuite g_trainingProfileTestSuite;

} // namespace

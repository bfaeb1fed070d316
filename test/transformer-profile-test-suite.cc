/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The shipped transformer profiles (traces/README.md, "Transformer profiles"): every file's
 * parameter bytes equal 4 x the published parameter count, tied tensors are counted once (by
 * the embedding that owns them), attention projections that PyTorch applies functionally are
 * folded into their attention layer, and no recorded step was disturbed.
 */

#include "ns3/distributed-training-compat.h"
#include "ns3/test.h"
#include "ns3/training-input-error.h"
#include "ns3/training-profile.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// \return the shipped profiles of a model (CPU-measured and GPU-class), by file name
std::map<std::string, TrainingProfile>
ProfilesOf(const std::string& model)
{
    std::map<std::string, TrainingProfile> out;
    const std::filesystem::path dir = std::filesystem::path(DT_SOURCE_DIR) / "traces";
    for (const auto& entry : std::filesystem::directory_iterator(dir))
    {
        const std::string name = entry.path().filename().string();
        if (name.rfind(model + "-", 0) == 0 && entry.path().extension() == ".json")
        {
            out.emplace(name, TrainingProfile::LoadFromFile(entry.path().string()));
        }
    }
    return out;
}

/// \return the bytes of the named layer, or 0 if the profile has no such layer
uint64_t
LayerBytes(const TrainingProfile& p, const std::string& layer)
{
    for (const auto& l : p.GetLayers())
    {
        if (l.name == layer)
        {
            return l.paramBytes;
        }
    }
    return 0;
}

/**
 * Totals against the published counts, one measured and one GPU-class file at least.
 *
 * ViT-B-16, ViT-L-16, Swin-T, BERT-base and GPT-2 small profiles hold 4 x the published parameter
 * count.
 */
class PublishedCountsTestCase : public TestCase
{
  public:
    PublishedCountsTestCase()
        : TestCase("transformer profiles hold 4 times the published parameter count")
    {
    }

  private:
    void DoRun() override
    {
        // torchvision weights enums meta["num_params"] (ViT, Swin); BERT-base: encoder + pooler
        // 109,482,240 (Devlin et al.; the reference bert-base-uncased) + masked-LM transform
        // 590,592 + LayerNorm 1,536 + decoder bias 30,522 + next-sentence head 1,538
        // = 110,106,428; GPT-2 small: 124,439,808 with the output layer tied to the embedding.
        const std::map<std::string, std::pair<uint64_t, int>> models = {
            {"vit_b_16", {86567656, 2}},
            {"vit_l_16", {304326632, 2}},
            {"swin_t", {28288354, 2}},
            {"bert_base", {109482240 + 590592 + 1536 + 30522 + 1538, 1}},
            {"gpt2_small", {124439808, 1}},
        };
        for (const auto& [model, expected] : models)
        {
            auto files = ProfilesOf(model);
            NS_TEST_EXPECT_MSG_GT_OR_EQ(files.size(),
                                        static_cast<std::size_t>(expected.second),
                                        model << ": shipped profiles missing");
            for (const auto& [name, p] : files)
            {
                NS_TEST_EXPECT_MSG_EQ(p.GetModel(), model, name << ": model name");
                NS_TEST_EXPECT_MSG_EQ(p.GetTotalParamBytes(),
                                      4 * expected.first,
                                      name << ": total bytes != 4 x published parameter count");
            }
        }
    }
};

/**
 * Tied weights and folded projections.
 *
 * A tied embedding is one tensor sent once by the embedding layer; attention projections used
 * functionally belong to their attention layer.
 */
class TiedAndFoldedTestCase : public TestCase
{
  public:
    TiedAndFoldedTestCase()
        : TestCase("tied embeddings and functional attention projections counted once")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingProfile gpt2 = ProfilesOf("gpt2_small").begin()->second;
        NS_TEST_EXPECT_MSG_EQ(LayerBytes(gpt2, "wte"), 4ULL * 50257 * 768, "GPT-2 wte");
        NS_TEST_EXPECT_MSG_EQ(LayerBytes(gpt2, "lm_head"), 0, "tied GPT-2 head is no layer");
        const TrainingProfile bert = ProfilesOf("bert_base").begin()->second;
        NS_TEST_EXPECT_MSG_EQ(LayerBytes(bert, "word_embeddings"),
                              4ULL * 30522 * 768,
                              "BERT word embeddings");
        NS_TEST_EXPECT_MSG_EQ(LayerBytes(bert, "mlm_decoder"),
                              4ULL * 30522,
                              "the tied MLM decoder sends only its own bias");
        // Encoder + pooler = total - pre-training heads = the published 109,482,240.
        uint64_t heads = LayerBytes(bert, "mlm_dense") + LayerBytes(bert, "mlm_ln")
                         + LayerBytes(bert, "mlm_decoder") + LayerBytes(bert, "nsp");
        NS_TEST_EXPECT_MSG_EQ(bert.GetTotalParamBytes() - heads,
                              4ULL * 109482240,
                              "BERT-base encoder + pooler");
        // nn.MultiheadAttention applies out_proj functionally: 4 x (768 x 768 + 768) in one layer.
        const TrainingProfile vit = ProfilesOf("vit_b_16").begin()->second;
        NS_TEST_EXPECT_MSG_EQ(LayerBytes(vit, "encoder.layers.encoder_layer_0.self_attention"),
                              4ULL * 4 * (768 * 768 + 768),
                              "ViT-B attention with its out_proj");
        NS_TEST_EXPECT_MSG_EQ(
            LayerBytes(vit, "encoder.layers.encoder_layer_0.self_attention.out_proj"),
            0,
            "out_proj is not a layer of its own");
        // Swin-T stage 1: qkv 96 -> 288, proj 96 -> 96, relative position bias (2x7-1)^2 x 3.
        const TrainingProfile swin = ProfilesOf("swin_t").begin()->second;
        NS_TEST_EXPECT_MSG_EQ(LayerBytes(swin, "features.1.0.attn"),
                              4ULL * ((96 * 288 + 288) + (96 * 96 + 96) + 13 * 13 * 3),
                              "Swin-T window attention with qkv, proj and bias table");
    }
};

/// No disturbed step in the measured (and scaled) samples.
class UndisturbedTestCase : public TestCase
{
  public:
    UndisturbedTestCase()
        : TestCase("no recorded step of a transformer profile exceeds twice the median step")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* model : {"vit_b_16", "vit_l_16", "swin_t", "bert_base", "gpt2_small"})
        {
            for (const auto& [name, p] : ProfilesOf(model))
            {
                std::vector<double> totals;
                for (std::size_t k = 0; k < p.GetNSamples(); ++k)
                {
                    double t = 0;
                    for (std::size_t i = 0; i < p.GetNLayers(); ++i)
                    {
                        t += p.GetSample(k).forwardUs[i] + p.GetSample(k).backwardUs[i];
                    }
                    totals.push_back(t);
                }
                NS_TEST_EXPECT_MSG_GT(totals.size(), 1, name << ": per-step samples");
                std::sort(totals.begin(), totals.end());
                NS_TEST_EXPECT_MSG_LT(totals.back(),
                                      2 * totals[totals.size() / 2],
                                      name << ": a step took " << totals.back() << " us");
            }
        }
    }
};

/// The suite.
class TransformerProfileTestSuite : public TestSuite
{
  public:
    TransformerProfileTestSuite()
        : TestSuite("distributed-training-transformer-profiles", Type::UNIT)
    {
        AddTestCase(new PublishedCountsTestCase, DT_TEST_QUICK);
        AddTestCase(new TiedAndFoldedTestCase, DT_TEST_QUICK);
        AddTestCase(new UndisturbedTestCase, DT_TEST_QUICK);
    }
};

/// Static instance.
TransformerProfileTestSuite g_transformerProfileTestSuite;

} // namespace

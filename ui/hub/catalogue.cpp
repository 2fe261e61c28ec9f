#include "hub/catalogue.h"

namespace attnlab {

const QList<RecommendedModel>& ModelCatalogue::recommended()
{
    // Sizes: model.safetensors and the tokenizer's files, as the hub lists them (2025).
    static const QList<RecommendedModel> kModels{
        {QStringLiteral("gpt2"), QStringLiteral("openai-community/gpt2"), 549'600'000, QStringLiteral("MIT"),
         QT_TRANSLATE_NOOP("attnlab::ModelCatalogue", "GPT-2 small (12 layers \u00D7 12 heads): a decoder that writes on; causal attention, next-token predictions, generation")},
        {QStringLiteral("bert-base-uncased"), QStringLiteral("google-bert/bert-base-uncased"), 440'700'000, QStringLiteral("Apache-2.0"),
         QT_TRANSLATE_NOOP("attnlab::ModelCatalogue", "BERT-base, English (12 layers \u00D7 12 heads): an encoder; [CLS] and [SEP], fill in a [MASK], what real heads attend to")},
        {QStringLiteral("bert-base-chinese"), QStringLiteral("google-bert/bert-base-chinese"), 409'300'000, QStringLiteral("Apache-2.0"),
         QT_TRANSLATE_NOOP("attnlab::ModelCatalogue", "BERT-base, Chinese (12 layers \u00D7 12 heads): the same encoder on Chinese sentences, one token per character")},
        {QStringLiteral("distilgpt2"), QStringLiteral("distilbert/distilgpt2"), 355'000'000, QStringLiteral("Apache-2.0"),
         QT_TRANSLATE_NOOP("attnlab::ModelCatalogue", "DistilGPT2 (6 layers \u00D7 12 heads): a smaller GPT-2, for slower computers")},
        {QStringLiteral("SmolLM2-135M"), QStringLiteral("HuggingFaceTB/SmolLM2-135M"), 271'000'000, QStringLiteral("Apache-2.0"),
         QT_TRANSLATE_NOOP("attnlab::ModelCatalogue", "SmolLM2-135M (30 layers \u00D7 9 heads sharing 3 key/value heads): a small modern decoder; "
                                                      "RMSNorm, SwiGLU, RoPE, grouped-query attention")},
        {QStringLiteral("Qwen2.5-0.5B"), QStringLiteral("Qwen/Qwen2.5-0.5B"), 1'000'000'000, QStringLiteral("Apache-2.0"),
         QT_TRANSLATE_NOOP("attnlab::ModelCatalogue", "Qwen2.5-0.5B (24 layers \u00D7 14 heads sharing 2 key/value heads): a modern decoder "
                                                      "that reads Chinese well; its attention on Chinese sentences means something")},
        {QStringLiteral("SmolLM2-360M"), QStringLiteral("HuggingFaceTB/SmolLM2-360M"), 727'000'000, QStringLiteral("Apache-2.0"),
         QT_TRANSLATE_NOOP("attnlab::ModelCatalogue", "SmolLM2-360M (32 layers \u00D7 15 heads sharing 5 key/value heads): "
                                                      "SmolLM2-135M's design, wider and deeper")},
        {QStringLiteral("Qwen3-0.6B"), QStringLiteral("Qwen/Qwen3-0.6B"), 1'520'000'000, QStringLiteral("Apache-2.0"),
         QT_TRANSLATE_NOOP("attnlab::ModelCatalogue", "Qwen3-0.6B (28 layers \u00D7 16 heads sharing 8 key/value heads): "
                                                      "Qwen's next decoder, with an RMSNorm on every query and key head")},
    };
    return kModels;
}

QString ModelCatalogue::useText(const RecommendedModel& model)
{
    return tr(model.use);
}

} // namespace attnlab

#include "session/stages.h"

#include "families/family.h"
#include "model/model.h"
#include "pretrained/model_folder.h"

#include "core/trace.h"

#include <QCoreApplication>

#include <algorithm>

namespace attnlab {

namespace {

/// Translation context for the stage texts (lupdate sees Stages::tr("...")).
struct Stages {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Stages)
};

} // namespace

const Stage* stageForHead(const Trace& trace, std::string_view id, std::optional<int> head)
{
    if (head && isKvHeadStage(id)) {
        if (const Stage* q = trace.find("q", head); q && q->kvHead)
            return trace.find(id, q->kvHead);
    }
    return trace.find(id, head);
}

const std::vector<Step>& steps()
{
    // The tokens, then the attention block's stages (core/stage_ids.h), once each.
    static const std::vector<Step> kSteps = [] {
        std::vector<Step> out{{QStringLiteral("tokens"), false}};
        for (const std::string& id : stageIds())
            out.push_back({QString::fromStdString(id), isPerHeadStage(id)});
        return out;
    }();
    return kSteps;
}

int stepIndex(const QString& id)
{
    const auto& s = steps();
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i].id == id)
            return static_cast<int>(i);
    }
    return -1;
}

std::vector<Step> modelSteps(const Trace& trace)
{
    std::vector<Step> out;
    // A compact trace's dropped stages are steps too: they are made again when shown.
    for (const StageKey& st : trace.stages.keys()) {
        const QString id = QString::fromStdString(st.id);
        const Block block = st.block;
        // The tokens of each side come first, as in the attention steps.
        if (id == u"embedding" && !st.layer)
            out.push_back({QStringLiteral("tokens"), false, std::nullopt, block});
        // A per-head stage stands once per head, head after head: one step for all of them.
        // Some kinds make two stages per head in turn (linformer's k_projected, v_projected):
        // a step already listed in this layer and block is not listed again.
        const Step step{id, st.head.has_value(), st.layer, block};
        bool listed = false;
        for (auto it = out.rbegin(); it != out.rend() && it->layer == step.layer && it->block == step.block && !listed; ++it)
            listed = *it == step;
        if (listed)
            continue;
        // Transformer-XL: the memory first appears with segment 1, after segment 0's stages; its
        // step comes before the queries it is attended with.
        const auto queries = std::find_if(out.begin(), out.end(), [&](const Step& s) {
            return s.id == u"q" && s.layer == step.layer && s.block == step.block;
        });
        if (id == u"memory" && queries != out.end())
            out.insert(queries, step);
        else
            out.push_back(step);
    }
    return out;
}

QString blockName(Block block)
{
    switch (block) {
    case Block::EncoderSelf:
        return Stages::tr("Encoder self-attention");
    case Block::DecoderSelf:
        return Stages::tr("Decoder self-attention (masked)");
    case Block::Cross:
        return Stages::tr("Cross-attention");
    case Block::None:
        break;
    }
    return {};
}

namespace {

/// Where a step is: its side before the layers, else its layer and the sublayer it belongs to.
/// A stage carries the block of its layer (a decoder layer's FFN is tagged decoder_self): the
/// sublayer comes from its id.
QString place(std::optional<int> layer, Block block, const QString& id, bool oneText)
{
    if (layer && (block == Block::EncoderSelf || block == Block::DecoderSelf)) {
        const bool encoder = block == Block::EncoderSelf;
        if (id.startsWith(QStringLiteral("ffn_")))
            return encoder ? Stages::tr("encoder layer %1 \u00B7 feed-forward").arg(*layer + 1)
                           : Stages::tr("decoder layer %1 \u00B7 feed-forward").arg(*layer + 1);
        if (id == u"layer_output")
            return encoder ? Stages::tr("encoder layer %1").arg(*layer + 1) : Stages::tr("decoder layer %1").arg(*layer + 1);
        if (id.startsWith(QStringLiteral("cross_")))
            block = Block::Cross;
    }
    if (!layer) {
        if (oneText)
            return {}; // GPT-2, BERT, an encoder stack: one text, neither source nor target
        if (block == Block::EncoderSelf)
            return Stages::tr("source");
        if (block == Block::DecoderSelf)
            return Stages::tr("target");
        return {};
    }
    switch (block) {
    case Block::EncoderSelf:
        return Stages::tr("encoder layer %1 \u00B7 self-attention").arg(*layer + 1);
    case Block::DecoderSelf:
        return Stages::tr("decoder layer %1 \u00B7 masked self-attention").arg(*layer + 1);
    case Block::Cross:
        return Stages::tr("decoder layer %1 \u00B7 cross-attention").arg(*layer + 1);
    case Block::None:
        break;
    }
    return {};
}

} // namespace

QString stepPlace(const Step& step, bool oneText)
{
    return place(step.layer, step.block, step.id, oneText);
}

QString stagePlace(const Stage& stage)
{
    return place(stage.layer, stage.block, QString::fromStdString(stage.id), false);
}

bool isMaskedLanguageModel(const Trace& trace)
{
    return trace.model && trace.model->pretrained && trace.model->spec.architecture == Architecture::EncoderStack;
}

const HfConfig* gatedDecoderConfig(const Seq2SeqModel* model)
{
    if (!model || !model->pretrained)
        return nullptr;
    const HfConfig& c = model->pretrained->config();
    return modelFamily(c.family).layerKind == FamilyLayer::Gated ? &c : nullptr;
}

const HfConfig* gatedDecoderConfig(const Trace& trace)
{
    return gatedDecoderConfig(trace.model.get());
}

} // namespace attnlab

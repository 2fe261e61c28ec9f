#include "pretrained/forward.h"

#include "core/stage_builder.h"
#include "families/family.h"
#include "nn/mask.h"
#include "nn/softmax.h"
#include "pretrained/messages.h"
#include "text/messages.h"

#include <stdexcept>

namespace attnlab {

namespace detail {

Eigen::MatrixXf gatherRows(const EmbeddingTable& table, const std::vector<int>& ids)
{
    const RowMatrixMap t = table.map();
    Eigen::MatrixXf out(static_cast<Eigen::Index>(ids.size()), t.cols());
    for (std::size_t i = 0; i < ids.size(); ++i)
        out.row(static_cast<Eigen::Index>(i)) = t.row(ids[i]);
    return out;
}

void addHeadStages(const PretrainedWeights& w, const Eigen::MatrixXf& x, const Labels& rows, const Labels& vocabulary, StageList& stages)
{
    // Neither kept (`trace --stages weights`): not even computed, the n x V product is the pass's largest.
    if (!stages.keeps({"logits"}) && !stages.keeps({"probabilities"})) {
        stages.skip({"logits"});
        stages.skip({"probabilities"});
        return;
    }
    const ModelFamily& family = modelFamily(w.config.family);
    const EmbeddingTable& table = *w.outputTable();
    // logits: (n x V) = X (n x d) · Tᵀ (d x V) (+ b): one GEMM over the mapped table.
    // GPT-2: X = Out (ln_f's output), T = W_te (tied);  BERT: X = T (the MLM transform), T = W_word, + b.
    Eigen::MatrixXf logits = timesTransposed(x, table.map());
    if (w.headBias.size() > 0)
        logits.rowwise() += w.headBias.transpose();
    Stage& stage = addStage(stages, {"logits"}, "Logits", family.headFormula, {{family.headInput}}, family.headModule);
    putMatrix(stage, "logits", std::move(logits), rows, vocabulary);
    // A compact trace makes the probabilities when they are shown: not even for a moment are
    // two n x V matrices held then.
    if (stages.keeps({"probabilities"}))
        addProbabilities(stage.main().values, rows, vocabulary, stages);
    else
        stages.skip({"probabilities"});
}

void addRollout(int layers, int heads, Block block, const Labels& tokens, StageList& stages)
{
    const StageKey key{"rollout"};
    if (!stages.keeps(key)) {
        stages.skip(key);
        return;
    }
    // Attention rollout (Abnar & Zuidema 2020): R = Ã_L · … · Ã_1, Ã_l = ½·Ā_l + ½·I, Ā_l the mean
    // of layer l's heads' weights. Row i: how much of token i's last layer flows, through every
    // layer and the residual connections (the ½·I), from each input token. Rows still sum to 1.
    Eigen::MatrixXf r;
    for (int l = 0; l < layers; ++l) {
        Eigen::MatrixXf mean;
        for (int h = 0; h < heads; ++h) {
            const Stage* a = findStage(stages, "weights", h, l, block);
            if (!a) { // weights not kept (`trace --stages` without them): no rollout either
                stages.skip(key);
                return;
            }
            if (h == 0)
                mean = a->main().values;
            else
                mean += a->main().values;
        }
        Eigen::MatrixXf t = (0.5f / static_cast<float>(heads)) * mean;
        t.diagonal().array() += 0.5f;
        r = l == 0 ? std::move(t) : Eigen::MatrixXf(t * r);
    }
    putMatrix(addStage(stages, key, "Attention rollout", "R = Ã_L ··· Ã_1,  Ã_l = ½·mean_h(A_l,h) + ½·I"), "R", std::move(r), tokens,
              tokens);
}

void addProbabilities(const Eigen::MatrixXf& logits, const Labels& rows, const Labels& vocabulary, StageList& stages)
{
    // probabilities: (n x V) = softmax of each row of the logits.
    putMatrix(addStage(stages, {"probabilities"}, "Next-token probabilities", "P = softmax(logits) per row", {{"logits"}}), "P",
              rowSoftmax(logits), rows, vocabulary);
}

} // namespace detail

void pretrainedPass(const PretrainedWeights& w, const ModelSpec& spec, const PretrainedInput& in, const Labels& vocabulary,
                    StageList& stages, std::vector<Message>& warnings)
{
    const HfConfig& c = w.config;
    const auto n = static_cast<int>(in.ids.size());
    if (n == 0)
        throw Error(messages::noTokens("sentence"));
    if (n > c.positions)
        throw Error(say(pretrainedMessage("pretrained_positions"), n, c.positions));
    if (!in.tokens || static_cast<int>(in.tokens->size()) != n)
        throw std::invalid_argument("a pass needs one label per token");
    for (const int id : in.ids) {
        if (id < 0 || id >= c.vocabulary)
            throw Error(say(textMessage("token_id_outside"), id, c.vocabulary - 1));
    }
    if (!in.segments.empty()) {
        if (static_cast<int>(in.segments.size()) != n)
            throw std::invalid_argument("a pass needs one segment id per token");
        for (const int s : in.segments) {
            if (s < 0 || s >= std::max(c.typeVocabulary, 1))
                throw Error(say(pretrainedMessage("pretrained_segment_id"), s, c.typeVocabulary));
        }
    }
    const std::int64_t cells = static_cast<std::int64_t>(n) * n * c.heads;
    if (cells > ConfigLimits::maxAttentionCells)
        throw Error(messages::tooManyCells(n, c.heads, ConfigLimits::maxAttentionCells));
    modelFamily(c.family).pass(w, spec, in, vocabulary, stages, warnings);
}

} // namespace attnlab

#include "nn/attention.h"

#include "attention/messages.h"

#include "attention/kind.h"

#include "nn/embedding.h"
#include "nn/input_stages.h"
#include "nn/position_hooks.h"
#include "nn/softmax.h"
#include "position/inside.h"
#include "core/stage_builder.h"
#include "text/tokenizer.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace attnlab {

namespace {

using detail::addStage;
using detail::numberedLabels;
using detail::putMatrix;

/// "h1·d1", "h1·d2", ..., "h2·d1", ...: which head and dimension a concat column came from
/// (counted from 1, as people count heads).
Labels concatLabels(int heads, int dK)
{
    auto v = std::make_shared<std::vector<std::string>>();
    v->reserve(static_cast<std::size_t>(heads * dK));
    for (int h = 0; h < heads; ++h) {
        // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
        std::string head = "h";
        head += std::to_string(h + 1);
        head += "\xC2\xB7" "d"; // "h1·d"
        for (int i = 0; i < dK; ++i)
            v->push_back(head + std::to_string(i + 1));
    }
    return v;
}

/// The checks of the heads' part of a block, before any work is done: m queries, n keys, d wide.
void checkHeadArguments(Eigen::Index m, Eigen::Index n, Eigen::Index d, int heads, const BoolMatrix& blocked,
                        const AttentionBlockContext& c, bool featuresAreD = true)
{
    if (heads < 1)
        throw Error(say(attentionMessage("block_heads"), heads));
    if (d < 1 || d % heads != 0)
        throw Error(say(attentionMessage("block_width"), d, heads));
    if (m < 1 || n < 1)
        throw Error(say(attentionMessage("block_empty")));
    if (blocked.rows() != m || blocked.cols() != n)
        throw Error(say(attentionMessage("block_mask_size"), blocked.rows(), blocked.cols(), m, n));
    if (!c.queryLabels || !c.keyLabels || static_cast<Eigen::Index>(c.queryLabels->size()) != m
        || static_cast<Eigen::Index>(c.keyLabels->size()) != n)
        throw std::invalid_argument("attention needs one label per query and one per key");
    if (featuresAreD && c.featureLabels && static_cast<Eigen::Index>(c.featureLabels->size()) != d)
        throw std::invalid_argument("attention needs one feature label per column of d_model");
    if (m * n * heads > ConfigLimits::maxAttentionCells)
        throw Error(say(attentionMessage("block_cells"), m, n, heads, ConfigLimits::maxAttentionCells));
}

/// The argument checks of attentionBlock: every shape must agree before any work is done.
void checkBlockArguments(const Eigen::MatrixXf& xq, const Eigen::MatrixXf& xkv, const AttentionWeights& w, int heads,
                         const BoolMatrix& blocked, const AttentionBlockContext& c)
{
    const Eigen::Index d = w.outProjWeight.rows();
    if (d < 1 || w.outProjWeight.cols() != d || w.inProjWeight.rows() != 3 * d || w.inProjWeight.cols() != d
        || w.inProjBias.size() != 3 * d || w.outProjBias.size() != d)
        throw std::invalid_argument("the attention weights are inconsistent: in_proj_weight must be [3d, d], "
                                    "in_proj_bias [3d], out_proj.weight [d, d] and out_proj.bias [d]");
    if (xq.cols() != d || xkv.cols() != d)
        throw Error(say(attentionMessage("block_input_width"), xq.cols(), xkv.cols(), d));
    checkHeadArguments(xq.rows(), xkv.rows(), d, heads, blocked, c);
}

/// heads / kvHeads, for K and V holding kvHeads heads of d_k each: kvHeads must divide heads.
int queryHeadsPerKvHead(const Eigen::Ref<const Eigen::MatrixXf>& k, const Eigen::Ref<const Eigen::MatrixXf>& v, int dK, int heads)
{
    if (k.cols() != v.cols() || k.rows() != v.rows())
        throw std::invalid_argument("the projections K and V must be as wide and as long");
    const Eigen::Index width = k.cols();
    const int kvHeads = width % dK == 0 ? static_cast<int>(width / dK) : 0;
    if (kvHeads < 1 || heads % kvHeads != 0)
        throw Error(say(attentionMessage("block_kv_heads"), width, dK, heads));
    return heads / kvHeads;
}

/// The concat stage C = [Z_0 | … | Z_h-1] (m x d), from the head outputs of every head (and, for
/// Transformer-XL, of every one of its `segments`; 0 for a block without segments).
void addConcat(const Eigen::MatrixXf& concat, int heads, const AttentionBlockContext& c, int segments, StageList& stages)
{
    std::vector<StageKey> headOutputs;
    for (int s = 0; s < std::max(segments, 1); ++s) {
        for (int h = 0; h < heads; ++h)
            headOutputs.push_back(StageKey{"head_output", h, c.layer, c.block, segments > 0 ? std::optional<int>(s) : std::nullopt});
    }
    putMatrix(addStage(stages, {"concat", std::nullopt, c.layer, c.block}, "Concatenated heads", "C = [Z_0 | Z_1 | … | Z_h-1]",
                       std::move(headOutputs)),
              "C", concat, c.queryLabels, concatLabels(heads, static_cast<int>(concat.cols()) / heads));
}

} // namespace

Eigen::MatrixXf attentionHeads(const Eigen::Ref<const Eigen::MatrixXf>& qProj, const Eigen::Ref<const Eigen::MatrixXf>& kProj,
                               const Eigen::Ref<const Eigen::MatrixXf>& vProj, int heads, bool scaleScores,
                               const BoolMatrix& blocked, const AttentionBlockContext& context, StageList& stages,
                               std::vector<Message>& warnings, Eigen::MatrixXf* reference)
{
    // Q is heads·d_k wide (d_k need not be d_model / heads), K and V kvHeads·d_k (grouped-query).
    const Eigen::Index d = qProj.cols();
    checkHeadArguments(qProj.rows(), kProj.rows(), d, heads, blocked, context, false); // features: addAttentionOutput's
    const Eigen::Index m = qProj.rows(); // queries
    const int dK = static_cast<int>(d) / heads;
    // Query head h reads key/value head h / group, as Hugging Face's repeat_kv.
    const int group = queryHeadsPerKvHead(kProj, vProj, dK, heads);
    const bool cross = !(context.queryInput == context.keyValueInput);
    const Labels& queries = context.queryLabels;
    const Labels& keys = context.keyLabels;
    const Labels headDims = numberedLabels(dK);
    const std::optional<int> layer = context.layer;
    const Block block = context.block;
    // Every stage's key in this block, and the module whose weights it used.
    const auto key = [&](const char* id, std::optional<int> head = std::nullopt) { return StageKey{id, head, layer, block}; };
    detail::reserveMore(stages, 3 + 8 * static_cast<std::size_t>(heads));

    // q, k, v: head h takes feature columns h·d_k .. (h+1)·d_k - 1 of each projection.
    const char* names[3] = {"q", "k", "v"};
    const char* titles[3] = {"Queries Q", "Keys K", "Values V"};
    const char* selfFormulas[3] = {"Q_h = X·W_Q,hᵀ + b_Q,h", "K_h = X·W_K,hᵀ + b_K,h", "V_h = X·W_V,hᵀ + b_V,h"};
    const char* crossFormulas[3] = {"Q_h = X·W_Q,hᵀ + b_Q,h", "K_h = Mem·W_K,hᵀ + b_K,h", "V_h = Mem·W_V,hᵀ + b_V,h"};
    const char* matNames[3] = {"Q_h", "K_h", "V_h"};
    const Eigen::Ref<const Eigen::MatrixXf>* sources[3] = {&qProj, &kProj, &vProj};
    std::vector<Eigen::MatrixXf> q(heads), k(heads), v(heads);
    std::vector<Eigen::MatrixXf>* qkvHeads[3] = {&q, &k, &v};
    const AttentionKindInfo& kind = attentionKind(context.kind);
    for (int p = 0; p < 3; ++p) {
        const Labels& rows = p == 0 ? queries : keys;
        const bool shared = p == 1 && kind.sharedQueryKey; // Reformer: K_h = Q_h / ‖Q_h‖
        for (int h = 0; h < heads; ++h) {
            if (shared)
                (*qkvHeads[p])[h] = q[h].rowwise().normalized();
            else
                (*qkvHeads[p])[h] = sources[p]->middleCols((p == 0 ? h : h / group) * dK, dK);
            putMatrix(addStage(stages, key(names[p], h), titles[p],
                               shared ? "K_h = Q_h / ‖Q_h‖  (queries and keys shared)" : cross ? crossFormulas[p] : selfFormulas[p],
                               {shared ? key("q", h) : p == 0 ? context.queryInput : context.keyValueInput}, shared ? "" : context.module),
                      matNames[p], (*qkvHeads[p])[h], rows, headDims);
        }
    }

    // A position scheme that acts inside attention (nn/position_hooks.h): RoPE turns q and k, ALiBi
    // biases the scores, relative positions hand the kernel their tables.
    SchemeInKernel scheme;
    if (const InsideScheme* inside = insideScheme(context.positional); inside && !cross) {
        SchemeHeads schemeHeads{q, k, context, headDims, stages};
        inside->hook(schemeHeads, scheme);
    }

    // scores .. head_output: the attention kind's kernel; it writes each Z_h into C = [Z_0 | ... | Z_{h-1}].
    Eigen::MatrixXf concat(m, d);
    KernelInput in{q, k, v, blocked, scaleScores, queries, keys, headDims, layer, block, context.kind, context.options, context.seed};
    scheme.into(in);
    KernelOutput out{concat, {}, warnings};
    kind.kernel(in, stages, out);
    if (reference)
        *reference = std::move(out.reference);
    addConcat(concat, heads, context, 0, stages);
    return concat;
}

Eigen::MatrixXf groupedHeads(const std::vector<Eigen::MatrixXf>& q, const std::vector<Eigen::MatrixXf>& k,
                             const std::vector<Eigen::MatrixXf>& v, const char* qStage, const char* kStage, bool scaleScores,
                             const BoolMatrix& blocked, const AttentionBlockContext& context, StageList& stages,
                             std::vector<Message>& warnings)
{
    const int heads = static_cast<int>(q.size());
    const int kvHeads = static_cast<int>(k.size());
    if (heads < 1 || kvHeads < 1 || heads % kvHeads != 0 || v.size() != k.size())
        throw Error(say(attentionMessage("block_kv_divide"), kvHeads, heads));
    const Eigen::Index m = q.front().rows();
    const Eigen::Index dK = q.front().cols();
    checkHeadArguments(m, k.front().rows(), heads * dK, heads, blocked, context, false);
    // Each query head's keys and values: its KV head's (repeat_kv), for the kernel.
    const int group = heads / kvHeads;
    std::vector<Eigen::MatrixXf> kq, vq;
    for (int h = 0; h < heads; ++h) {
        kq.push_back(k[static_cast<std::size_t>(h / group)]);
        vq.push_back(v[static_cast<std::size_t>(h / group)]);
    }
    Eigen::MatrixXf concat(m, heads * dK);
    KernelInput in{q, kq, vq, blocked, scaleScores, context.queryLabels, context.keyLabels, numberedLabels(static_cast<int>(dK)),
                   context.layer, context.block, context.kind, context.options, context.seed};
    in.qStage = qStage;
    in.kStage = kStage;
    in.kvGroup = group;
    in.scoreScale = context.scoreScale;
    in.scaleFormula = context.scaleFormula;
    in.maskFormula = context.maskFormula;
    if (in.scoreScale > 0.0f && context.kind != AttentionKind::Full)
        throw Error(say(attentionMessage("block_score_scale"), context.scaleFormula));
    KernelOutput out{concat, {}, warnings};
    attentionKind(context.kind).kernel(in, stages, out);
    addConcat(concat, heads, context, 0, stages);
    return concat;
}

void addAttentionOutput(const Eigen::MatrixXf& out, const AttentionBlockContext& context, StageList& stages)
{
    const Labels dims = context.featureLabels ? context.featureLabels : numberedLabels(static_cast<int>(out.cols()));
    const StageKey concat{"concat", std::nullopt, context.layer, context.block};
    putMatrix(addStage(stages, {"output", std::nullopt, context.layer, context.block}, "Output projection", "O = C·W_Oᵀ + b_O",
                       {concat}, context.module),
              "O", out, context.queryLabels, dims);
}

Eigen::MatrixXf attentionBlock(const Eigen::MatrixXf& queryInput, const Eigen::MatrixXf& keyValueInput,
                               const AttentionWeights& weights, int heads, bool scaleScores, const BoolMatrix& blocked,
                               const AttentionBlockContext& context, StageList& stages,
                               std::vector<Message>& warnings)
{
    checkBlockArguments(queryInput, keyValueInput, weights, heads, blocked, context);
    const Eigen::Index d = weights.dModel();
    // The projections, each (rows x d) = input (rows x d) · W_*ᵀ (d x d) + b_*.
    // Self-attention: all three in one GEMM, (n x 3d) = X (n x d) · W_inᵀ (d x 3d).
    // Cross-attention: Q from the query input (m x d), K and V from the memory (n x 2d).
    Eigen::MatrixXf concat;
    Eigen::MatrixXf reference; // full attention's concat, for a kind that approximates it
    if (&queryInput == &keyValueInput) {
        Eigen::MatrixXf qkv = queryInput * weights.inProjWeight.transpose();
        qkv.rowwise() += weights.inProjBias.transpose();
        if (context.positional == PositionalEncoding::Xl) {
            // Transformer-XL: segment by segment, each with its memory.
            concat = xlHeads(queryInput, qkv.leftCols(d), qkv.middleCols(d, d), qkv.rightCols(d), heads, scaleScores, blocked, context,
                             stages, warnings);
            const auto n = static_cast<int>(queryInput.rows());
            const int segments = (n + context.positionOptions.segment - 1) / context.positionOptions.segment;
            addConcat(concat, heads, context, segments, stages);
        } else {
            concat = attentionHeads(qkv.leftCols(d), qkv.middleCols(d, d), qkv.rightCols(d), heads, scaleScores, blocked, context,
                                    stages, warnings, &reference);
        }
    } else {
        Eigen::MatrixXf qProj = queryInput * weights.inProjWeight.topRows(d).transpose();
        qProj.rowwise() += weights.inProjBias.head(d).transpose();
        Eigen::MatrixXf kvProj = keyValueInput * weights.inProjWeight.bottomRows(2 * d).transpose();
        kvProj.rowwise() += weights.inProjBias.tail(2 * d).transpose();
        concat = attentionHeads(qProj, kvProj.leftCols(d), kvProj.rightCols(d), heads, scaleScores, blocked, context, stages,
                                warnings);
    }

    // output: O (m x d) = C (m x d) · W_Oᵀ (d x d) + b_O.
    Eigen::MatrixXf out = concat * weights.outProjWeight.transpose();
    out.rowwise() += weights.outProjBias.transpose();
    addAttentionOutput(out, context, stages);
    if (reference.size() > 0) {
        // reference_output: what full attention's output would be, for the approximation numbers.
        Eigen::MatrixXf full = reference * weights.outProjWeight.transpose();
        full.rowwise() += weights.outProjBias.transpose();
        const Labels dims = context.featureLabels ? context.featureLabels : numberedLabels(static_cast<int>(out.cols()));
        putMatrix(addStage(stages, {"reference_output", std::nullopt, context.layer, context.block}, "Full attention's output",
                           "O^full = C^full·W_Oᵀ + b_O  (C^full: the heads of full softmax attention)", {{"concat", std::nullopt, context.layer, context.block}},
                           context.module),
                  "O^full", std::move(full), context.queryLabels, dims);
    }
    return out;
}

Trace computeTrace(const Request& request)
{
    const Config& cfg = request.config;
    cfg.validate();

    Trace trace;
    trace.config = cfg;
    Tokenization tok = tokenize(request.sentence, cfg.maxTokens, cfg.padTo);
    if (tok.tokens.empty())
        throw Error(messages::noTokens("sentence"));
    trace.tokens = std::move(tok.tokens);
    trace.warnings = std::move(tok.warnings);

    const auto n = static_cast<Eigen::Index>(trace.tokens.size());
    const int d = cfg.dModel;
    const int heads = cfg.heads;
    if (static_cast<std::int64_t>(n) * n * heads > ConfigLimits::maxAttentionCells)
        throw Error(messages::tooManyCells(n, heads, ConfigLimits::maxAttentionCells));

    std::shared_ptr<const AttentionWeights> weights = request.weights;
    if (!weights)
        weights = std::make_shared<const AttentionWeights>(presetWeights(cfg.weightsPreset, d, cfg.seed));
    if (weights->dModel() != d)
        throw Error(messages::weightsWidth(d, weights->dModel()));
    trace.weights = weights;

    // Mask first: a wrong-sized custom mask is a bad request, reported before any work.
    const BoolMatrix blocked = blockedCells(cfg.mask, trace.tokens, request.customMask);

    const Labels tokens = std::make_shared<const std::vector<std::string>>(trace.tokens);
    const Labels dims = numberedLabels(d);
    StageList& stages = trace.stages;
    stages.reserve(6 + 8 * static_cast<std::size_t>(heads));

    // embedding, positional_encoding, input: X = E·s + P (n x d), one seeded row per token string.
    InputSide side;
    side.unscaledFormula = "E = Embed(tokens)  (no √d_model scaling)";
    side.embedScale = cfg.embedScale;
    side.positional = cfg.positional;
    side.seed = cfg.seed;
    const Eigen::MatrixXf x = inputStages(tokenEmbeddings(trace.tokens, d, cfg.seed), side, tokens, stages);

    // q .. output: self-attention of X (the same matrix as queries, keys and values).
    const AttentionBlockContext context{tokens,        tokens,
                                        dims,          {},
                                        Block::None,   {"input"},
                                        {"input"},     "self_attn",
                                        cfg.attention, cfg.attentionOptions,
                                        cfg.seed,      cfg.positional,
                                        cfg.positionOptions};
    attentionBlock(x, x, *weights, heads, cfg.scaleScores, blocked, context, stages, trace.warnings);
    return trace;
}

} // namespace attnlab

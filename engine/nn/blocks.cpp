#include "nn/blocks.h"

#include "core/stage_builder.h"
#include "nn/messages.h"
#include "position/inside.h"

#include <cmath>
#include <stdexcept>

namespace attnlab {

namespace {

using detail::addStage;
using detail::numberedLabels;
using detail::putMatrix;

float relu(float x) { return x > 0.0f ? x : 0.0f; }
float silu(float x) { return x / (1.0f + std::exp(-x)); }

Eigen::MatrixXf applyElementwise(const FfnActivation& a, const Eigen::MatrixXf& x)
{
    return x.unaryExpr([&](float v) { return a.apply(v); });
}

} // namespace

NormResult normalize(const Eigen::MatrixXf& x, const LayerNormWeights& w, NormKind kind, float eps)
{
    const Eigen::Index d = x.cols();
    if (w.gamma.size() != d || (w.beta.size() != 0 && w.beta.size() != d))
        throw Error(say(nnMessage("norm_width"), d));
    if (!(eps > 0.0f))
        throw Error(say(nnMessage("norm_eps"), std::to_string(eps)));
    NormResult r;
    r.kind = kind;
    if (kind == NormKind::LayerNorm) {
        LayerNormWeights full = w;
        if (full.beta.size() == 0)
            full.beta = Eigen::VectorXf::Zero(d);
        LayerNormResult l = layerNorm(x, full, eps);
        r.output = std::move(l.output);
        r.mean = std::move(l.mean);
        r.variance = std::move(l.variance);
        return r;
    }
    // RMSNorm: mean of the squares per row, in double as layerNorm's statistics; no centring.
    const Eigen::MatrixXd xd = x.cast<double>();
    const Eigen::VectorXd meanSquare = xd.array().square().rowwise().mean();
    // ε keeps a zero row from dividing by zero.
    const Eigen::ArrayXd inverseRms = (meanSquare.array() + static_cast<double>(eps)).rsqrt();
    r.output = (xd.array().colwise() * inverseRms).cast<float>().matrix();
    r.output.array().rowwise() *= w.gamma.transpose().array();
    if (w.beta.size() > 0)
        r.output.array().rowwise() += w.beta.transpose().array();
    r.meanSquare = meanSquare.cast<float>();
    return r;
}

void putNormStatistics(Stage& stage, const NormResult& r, const Labels& rows)
{
    if (r.kind == NormKind::LayerNorm) {
        detail::putNormStatistics(stage, r.mean, r.variance, rows);
        return;
    }
    static const Labels kMeanSquare = std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"mean_square"});
    putMatrix(stage, "mean_square", r.meanSquare, rows, kMeanSquare);
}

FfnActivation ffnActivation(Activation activation)
{
    switch (activation) {
    case Activation::Relu:
        return {activationName(activation), relu};
    case Activation::Gelu:
        return {activationName(activation), gelu};
    case Activation::GeluTanh:
        return {activationName(activation), geluTanh};
    }
    return {activationName(activation), relu};
}

FfnActivation siluActivation()
{
    return {"SiLU", silu};
}

Eigen::MatrixXf feedForwardBlock(const Eigen::MatrixXf& x, const FfnKind& kind, const Projection& gate, const Projection& up,
                                 const Projection& down, const StageKey& input, const std::string& in,
                                 const std::array<std::string, 3>& modules, const BlockPlace& place, StageList& stages)
{
    const auto key = [&](const char* id) { return StageKey{id, std::nullopt, place.layer, place.block}; };
    const auto module = [&](std::size_t i) { return modules[i].empty() ? std::string() : place.modulePrefix + modules[i]; };
    const std::string act = kind.activation.name;
    Eigen::MatrixXf hidden;
    if (kind.shape == FfnKind::Gated) {
        // ffn_gate G, ffn_up U (n x d_ff);  ffn_hidden H = act(G) ⊙ U.
        const Eigen::MatrixXf g = gate(x);
        const Eigen::MatrixXf u = up(x);
        const Labels cols = numberedLabels(static_cast<int>(g.cols()), "f");
        putMatrix(addStage(stages, key("ffn_gate"), "Feed-forward gate", "G = " + in + "·W_gateᵀ", {input}, module(0)), "G", g, place.rows,
                  cols);
        putMatrix(addStage(stages, key("ffn_up"), "Feed-forward up projection", "U = " + in + "·W_upᵀ", {input}, module(1)), "U", u,
                  place.rows, cols);
        hidden = applyElementwise(kind.activation, g).cwiseProduct(u);
        putMatrix(addStage(stages, key("ffn_hidden"), "Feed-forward hidden layer", "H = " + act + "(G) ⊙ U", {key("ffn_gate"), key("ffn_up")}),
                  "H", hidden, place.rows, cols);
    } else {
        // ffn_hidden H = act(X·W_upᵀ + b_up) (n x d_ff).
        hidden = applyElementwise(kind.activation, up(x));
        putMatrix(addStage(stages, key("ffn_hidden"), "Feed-forward hidden layer", "H = " + act + "(" + in + "·W_upᵀ + b_up)", {input},
                          module(1)),
                  "H", hidden, place.rows, numberedLabels(static_cast<int>(hidden.cols()), "f"));
    }
    // ffn_output F (n x d) = H·W_downᵀ (+ b_down).
    Eigen::MatrixXf f = down(hidden);
    putMatrix(addStage(stages, key("ffn_output"), "Feed-forward output", "F = H·W_downᵀ + b_down", {key("ffn_hidden")}, module(2)), "F", f,
              place.rows, numberedLabels(static_cast<int>(f.cols())));
    return f;
}

// limits: maths kernel
Eigen::MatrixXf ropeRotate(const Eigen::MatrixXf& x, const Eigen::MatrixXf& angles, RopeLayout layout)
{
    if (layout == RopeLayout::Interleaved)
        return ropeRotate(x, angles);
    // Half-split: feature i pairs with feature i + d_k/2, both turned by θ_i:
    // (x_i, x_{i+h}) → (x_i·cos θ − x_{i+h}·sin θ, x_{i+h}·cos θ + x_i·sin θ), i.e. x·cos + rotate_half(x)·sin.
    const Eigen::Index half = angles.cols();
    Eigen::MatrixXf out(x.rows(), x.cols());
    for (Eigen::Index i = 0; i < half; ++i) {
        for (Eigen::Index pos = 0; pos < x.rows(); ++pos) {
            const double theta = angles(pos, i);
            const double c = std::cos(theta);
            const double s = std::sin(theta);
            const double a = x(pos, i);
            const double b = x(pos, i + half);
            out(pos, i) = static_cast<float>(a * c - b * s);
            out(pos, i + half) = static_cast<float>(b * c + a * s);
        }
    }
    return out;
}

namespace {

/// Appends one stage per head of `mats` (query heads, or key/value heads for k and v).
void addHeadStages(const std::vector<Eigen::MatrixXf>& mats, const char* id, const char* name, const char* title, const std::string& formula,
                   const std::function<StageKey(int)>& input, const std::string& module, const AttentionBlockContext& c,
                   const Labels& rows, StageList& stages)
{
    const Labels dims = numberedLabels(static_cast<int>(mats.front().cols()));
    for (int h = 0; h < static_cast<int>(mats.size()); ++h)
        putMatrix(addStage(stages, {id, h, c.layer, c.block}, title, formula, {input(h)}, module), name, mats[static_cast<std::size_t>(h)], rows,
                  dims);
}

/// Head h's columns of p, for every head.
std::vector<Eigen::MatrixXf> splitHeads(const Eigen::MatrixXf& p, int heads)
{
    const auto dK = p.cols() / heads;
    std::vector<Eigen::MatrixXf> out;
    for (int h = 0; h < heads; ++h)
        out.emplace_back(p.middleCols(h * dK, dK));
    return out;
}

/// Sets a list's KV group for the life of a block, and ends it however the block ends.
struct KvGroupScope {
    KvGroupScope(StageList& s, int group)
        : stages(s)
    {
        stages.setKvGroup(group);
    }
    ~KvGroupScope() { stages.setKvGroup(0); }
    KvGroupScope(const KvGroupScope&) = delete;
    KvGroupScope& operator=(const KvGroupScope&) = delete;
    StageList& stages;
};

/// The angles pos·ω_i (n x d_k/2) of the shape's RoPE.
Eigen::MatrixXf shapeAngles(const AttentionShape& shape, Eigen::Index n)
{
    if (shape.ropeInverseFrequencies.empty())
        return ropeAngles(static_cast<int>(n), shape.headDim, shape.ropeBase);
    return ropeAnglesOf(shape.ropeInverseFrequencies, n);
}

} // namespace

Eigen::MatrixXf ropeAnglesOf(const std::vector<double>& inverseFrequencies, Eigen::Index n)
{
    const auto half = static_cast<Eigen::Index>(inverseFrequencies.size());
    Eigen::MatrixXf angles(n, half);
    for (Eigen::Index i = 0; i < half; ++i) {
        for (Eigen::Index pos = 0; pos < n; ++pos)
            angles(pos, i) = static_cast<float>(static_cast<double>(pos) * inverseFrequencies[static_cast<std::size_t>(i)]);
    }
    return angles;
}

Eigen::MatrixXf groupedAttention(const Eigen::MatrixXf& x, const AttentionBlockWeights& w, const AttentionShape& shape,
                                 bool scaleScores, const BoolMatrix& blocked, const AttentionBlockContext& context, StageList& stages,
                                 std::vector<Message>& warnings)
{
    if (shape.kvHeads < 1 || shape.kvHeads > shape.heads || shape.heads % shape.kvHeads != 0)
        throw Error(say(nnMessage("kv_heads_divide"), shape.kvHeads, shape.heads));
    // Q (n x heads·d_k), K and V (n x kvHeads·d_k), with their biases.
    const Eigen::MatrixXf qp = w.q(x);
    const Eigen::MatrixXf kp = w.k(x);
    const Eigen::MatrixXf vp = w.v(x);
    if (qp.cols() != shape.heads * shape.headDim || kp.cols() != shape.kvHeads * shape.headDim || vp.cols() != kp.cols())
        throw Error(say(nnMessage("projection_widths")));
    const KvGroupScope scope(stages, shape.heads / shape.kvHeads);
    const Labels& rows = context.queryLabels;
    const auto key = [&](const char* id) { return [&context, id](int h) { return StageKey{id, h, context.layer, context.block}; }; };
    const std::string& m = context.module;
    // q: Q_h = X·W_Q,hᵀ (+ b) per query head;  k, v: K_g, V_g per key/value head.
    std::vector<Eigen::MatrixXf> q = splitHeads(qp, shape.heads), k = splitHeads(kp, shape.kvHeads);
    const std::vector<Eigen::MatrixXf> v = splitHeads(vp, shape.kvHeads);
    const auto input = [&](int) { return context.queryInput; };
    addHeadStages(q, "q", "Q_h", "Queries Q", "Q_h = X·W_Q,hᵀ + b_Q,h", input, m, context, rows, stages);
    addHeadStages(k, "k", "K_g", "Keys K (one per key/value head)", "K_g = X·W_K,gᵀ + b_K,g", input, m, context, rows, stages);
    addHeadStages(v, "v", "V_g", "Values V (one per key/value head)", "V_g = X·W_V,gᵀ + b_V,g", input, m, context, rows, stages);
    const char* qStage = "q";
    const char* kStage = "k";
    // q_norm, k_norm: each head's q and k normalised over d_k (Qwen3), before RoPE.
    if (shape.qkNorm) {
        for (auto& h : q)
            h = normalize(h, w.qNorm, *shape.qkNorm, shape.normEps).output;
        for (auto& h : k)
            h = normalize(h, w.kNorm, *shape.qkNorm, shape.normEps).output;
        addHeadStages(q, "q_norm", "Q̂_h", "Queries, normalised per head", "Q̂_h = RMSNorm(Q_h)·γ_q", key("q"), m + ".q_norm", context, rows, stages);
        addHeadStages(k, "k_norm", "K̂_g", "Keys, normalised per head", "K̂_g = RMSNorm(K_g)·γ_k", key("k"), m + ".k_norm", context, rows, stages);
        qStage = "q_norm";
        kStage = "k_norm";
    }
    // q_rotated, k_rotated: RoPE, row pos turned by pos·ω_i.
    if (shape.rope) {
        const Eigen::MatrixXf angles = shapeAngles(shape, x.rows());
        const bool half = *shape.rope == RopeLayout::HalfSplit;
        for (auto& h : q)
            h = ropeRotate(h, angles, *shape.rope);
        for (auto& h : k)
            h = ropeRotate(h, angles, *shape.rope);
        const std::string how = half ? "  (pairs i, i + d_k/2)" : "  (pairs 2i, 2i+1)";
        addHeadStages(q, "q_rotated", "Q'_h", "Queries after RoPE", "Q'_h = RoPE(pos·ω)" + how, key(qStage), "", context, rows, stages);
        addHeadStages(k, "k_rotated", "K'_g", "Keys after RoPE", "K'_g = RoPE(pos·ω)" + how, key(kStage), "", context, rows, stages);
        qStage = "q_rotated";
        kStage = "k_rotated";
    }
    const Eigen::MatrixXf concat = groupedHeads(q, k, v, qStage, kStage, scaleScores, blocked, context, stages, warnings);
    // output: O (n x d_model) = C (n x heads·d_k) · W_Oᵀ (+ b_O).
    Eigen::MatrixXf out = w.output(concat);
    addAttentionOutput(out, context, stages);
    return out;
}

} // namespace attnlab

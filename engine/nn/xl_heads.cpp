// Transformer-XL's attention heads (docs/position-schemes.md), segment by segment. Segment τ
// holds the queries s … s + L_τ − 1 (s = τ·L); its keys are the M_τ = min(M, s) rows of the
// block's input before s (the memory, no gradient) and its own rows, memory first. Head h scores
//   (a) q_i·k_j + (b) q_i·W_R R_{i−j} + (c) u·k_j + (d) v·W_R R_{i−j},
// with i, j absolute positions and R the sinusoid at the distance, then scales all four by
// 1/√d_k, hides later keys (causal within the segment) and the user's masked cells, and takes the
// softmax and the weighted values as full attention does.

#include "nn/attention.h"

#include "core/stage_builder.h"
#include "nn/softmax.h"
#include "position/inside.h"

#include <cmath>
#include <stdexcept>
#include <string_view>

namespace attnlab {

namespace {

using detail::addStage;
using detail::numberedLabels;
using detail::putMatrix;

Labels slice(const Labels& all, int first, int count)
{
    return std::make_shared<const std::vector<std::string>>(all->begin() + first, all->begin() + first + count);
}

/// xl_w_r, xl_u, xl_v of every head (segment null): the seeded parameters, or the given ones.
XlTables addXlParameters(const AttentionBlockContext& c, int heads, int dK, int d, StageList& stages)
{
    XlTables t = c.givenXl ? *c.givenXl : xlTables(heads, dK, d, c.seed);
    const auto fits = [&](const Eigen::MatrixXf& m, Eigen::Index rows, Eigen::Index cols) { return m.rows() == rows && m.cols() == cols; };
    bool ok = static_cast<int>(t.wR.size()) == heads && static_cast<int>(t.u.size()) == heads && static_cast<int>(t.v.size()) == heads;
    for (int h = 0; ok && h < heads; ++h)
        ok = fits(t.wR[h], dK, d) && t.u[h].size() == dK && t.v[h].size() == dK;
    if (!ok)
        throw std::invalid_argument("the Transformer-XL parameters must be W_R d_k x d_model, u and v 1 x d_k, one of each per head");
    const Labels headDims = numberedLabels(dK);
    const Labels features = c.featureLabels ? c.featureLabels : numberedLabels(d);
    const Labels one = numberedLabels(1, "h");
    const auto key = [&](const char* id, int h) { return StageKey{id, h, c.layer, c.block}; };
    for (int h = 0; h < heads; ++h)
        putMatrix(addStage(stages, key("xl_w_r", h), "Position projection W_R", "W_R,h projects the sinusoid R_{i−j} to d_k"), "W_R",
                  t.wR[h], headDims, features);
    for (int h = 0; h < heads; ++h)
        putMatrix(addStage(stages, key("xl_u", h), "Content bias u", "u_h: one query-independent vector for the keys' content"), "u",
                  Eigen::MatrixXf(t.u[h]), one, headDims);
    for (int h = 0; h < heads; ++h)
        putMatrix(addStage(stages, key("xl_v", h), "Position bias v", "v_h: one query-independent vector for the distances"), "v",
                  Eigen::MatrixXf(t.v[h]), one, headDims);
    return t;
}

/// What one segment's heads work on.
struct SegmentInput {
    const Eigen::MatrixXf& input; ///< the block's input X (n x d)
    const Eigen::Ref<const Eigen::MatrixXf>& q; ///< the whole input's projections (n x d)
    const Eigen::Ref<const Eigen::MatrixXf>& k;
    const Eigen::Ref<const Eigen::MatrixXf>& v;
    const BoolMatrix& blocked; ///< the user's mask over absolute positions (n x n)
    const XlTables& tables;
    bool scaleScores;
};

/// The four score terms of one head of one segment (queries x keys).
struct ScoreTerms {
    Eigen::MatrixXf content, position, contentBias, positionBias;
};

ScoreTerms scoreTerms(const Eigen::MatrixXf& q, const Eigen::MatrixXf& k, const XlSegment& seg, const Eigen::MatrixXf& r,
                      int first, const XlTables& t, int h)
{
    // W_R,h R_Δ for every distance Δ = first … (rows of r), d_k wide.
    const Eigen::MatrixXf projected = r * t.wR[h].transpose();
    const Eigen::MatrixXf qByDistance = q * projected.transpose(); // q_i·W_R R_Δ
    const Eigen::VectorXf vByDistance = projected * t.v[h].transpose(); // v·W_R R_Δ
    const Eigen::VectorXf uByKey = k * t.u[h].transpose();          // u·k_j
    ScoreTerms s;
    s.content.noalias() = q * k.transpose();
    s.position.resize(seg.length, seg.keys());
    s.contentBias.resize(seg.length, seg.keys());
    s.positionBias.resize(seg.length, seg.keys());
    for (int j = 0; j < seg.keys(); ++j) {
        for (int i = 0; i < seg.length; ++i) {
            const int distance = (seg.start + i) - (seg.firstKey() + j) - first;
            s.position(i, j) = qByDistance(i, distance);
            s.contentBias(i, j) = uByKey(j);
            s.positionBias(i, j) = vByDistance(distance);
        }
    }
    return s;
}

/// One segment being computed: where its stages go and what they are labelled with.
struct Segment {
    const SegmentInput& in;
    const XlSegment& seg;
    int tau;
    const AttentionBlockContext& c;
    int heads, d, dK;
    Labels queries, keys, headDims;

    StageKey key(const char* id, std::optional<int> h = std::nullopt) const { return {id, h, c.layer, c.block, tau}; }
};

/// memory (when the segment has one), then q (the segment's rows), k and v (memory rows first) of every head.
void projections(const Segment& s, StageList& stages, std::vector<Eigen::MatrixXf>& q, std::vector<Eigen::MatrixXf>& k,
                 std::vector<Eigen::MatrixXf>& v)
{
    const XlSegment& seg = s.seg;
    if (seg.memory > 0)
        putMatrix(addStage(stages, s.key("memory"), "Memory", "Mem_τ = X[s − M_τ … s − 1]  (the rows before the segment, no gradient)",
                           {s.c.queryInput}),
                  "Mem", s.in.input.middleRows(seg.firstKey(), seg.memory), slice(s.c.keyLabels, seg.firstKey(), seg.memory),
                  s.c.featureLabels ? s.c.featureLabels : numberedLabels(s.d));
    const char* ids[3] = {"q", "k", "v"};
    const char* titles[3] = {"Queries Q", "Keys K", "Values V"};
    const char* names[3] = {"Q_h", "K_h", "V_h"};
    const char* formulas[3] = {"Q_h = X_τ·W_Q,hᵀ + b_Q,h", "K_h = [Mem_τ; X_τ]·W_K,hᵀ + b_K,h", "V_h = [Mem_τ; X_τ]·W_V,hᵀ + b_V,h"};
    const Eigen::Ref<const Eigen::MatrixXf>* sources[3] = {&s.in.q, &s.in.k, &s.in.v};
    std::vector<Eigen::MatrixXf>* outs[3] = {&q, &k, &v};
    for (int p = 0; p < 3; ++p) {
        outs[p]->resize(static_cast<std::size_t>(s.heads));
        for (int h = 0; h < s.heads; ++h) {
            Eigen::MatrixXf& m = (*outs[p])[static_cast<std::size_t>(h)];
            m = p == 0 ? sources[p]->block(seg.start, h * s.dK, seg.length, s.dK) : sources[p]->block(seg.firstKey(), h * s.dK, seg.keys(), s.dK);
            std::vector<StageKey> inputs{s.c.queryInput};
            if (p > 0 && seg.memory > 0)
                inputs.insert(inputs.begin(), s.key("memory"));
            putMatrix(addStage(stages, s.key(ids[p], h), titles[p], formulas[p], std::move(inputs), s.c.module), names[p], m,
                      p == 0 ? s.queries : s.keys, s.headDims);
        }
    }
}

/// content_scores (a), position_scores (b), content_bias (c), position_bias (d) of every head.
std::vector<ScoreTerms> scoreTermStages(const Segment& s, const std::vector<Eigen::MatrixXf>& q, const std::vector<Eigen::MatrixXf>& k,
                                        StageList& stages)
{
    // The distances Δ = i − j run from −(L_τ − 1) (a key after the query) to L_τ − 1 + M_τ.
    const int first = -(s.seg.length - 1);
    const Eigen::MatrixXf r = xlDistanceSinusoid(first, s.seg.length - 1 + s.seg.memory, s.d);
    std::vector<ScoreTerms> terms;
    for (int h = 0; h < s.heads; ++h)
        terms.push_back(scoreTerms(q[static_cast<std::size_t>(h)], k[static_cast<std::size_t>(h)], s.seg, r, first, s.in.tables, h));
    struct Term {
        const char* id;
        const char* title;
        const char* formula;
        Eigen::MatrixXf ScoreTerms::*part;
        const char* from; ///< q, or the bias vector
        bool distance;    ///< uses W_R R_{i−j}
    };
    const Term parts[4] = {{"content_scores", "Content scores (a)", "(a)_ij = q_i·k_j", &ScoreTerms::content, "q", false},
                           {"position_scores", "Position scores (b)", "(b)_ij = q_i·W_R R_{i−j}", &ScoreTerms::position, "q", true},
                           {"content_bias", "Content bias (c)", "(c)_ij = u·k_j", &ScoreTerms::contentBias, "xl_u", false},
                           {"position_bias", "Position bias (d)", "(d)_ij = v·W_R R_{i−j}", &ScoreTerms::positionBias, "xl_v", true}};
    for (const Term& part : parts) {
        for (int h = 0; h < s.heads; ++h) {
            const bool fromSegment = std::string_view(part.from) == "q";
            std::vector<StageKey> inputs{fromSegment ? s.key("q", h) : StageKey{part.from, h, s.c.layer, s.c.block}};
            inputs.push_back(part.distance ? StageKey{"xl_w_r", h, s.c.layer, s.c.block} : s.key("k", h));
            putMatrix(addStage(stages, s.key(part.id, h), part.title, part.formula, std::move(inputs)), part.id,
                      terms[static_cast<std::size_t>(h)].*part.part, s.queries, s.keys);
        }
    }
    return terms;
}

/// scores = (a) + (b) + (c) + (d); scaled = scores / √d_k (all four terms); the mask (later keys
/// and the user's hidden cells); masked_scores, weights, head_output into `concat`.
void attend(const Segment& s, std::vector<ScoreTerms>& terms, const std::vector<Eigen::MatrixXf>& v, StageList& stages,
            std::vector<Message>& warnings, Eigen::MatrixXf& concat)
{
    const XlSegment& seg = s.seg;
    const float scale = s.in.scaleScores ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(s.dK))) : 1.0f;
    BoolMatrix hidden(seg.length, seg.keys());
    for (int j = 0; j < seg.keys(); ++j) {
        for (int i = 0; i < seg.length; ++i)
            hidden(i, j) = seg.firstKey() + j > seg.start + i || s.in.blocked(seg.start + i, seg.firstKey() + j);
    }
    const Eigen::MatrixXf mask = additiveMask(hidden);
    putMatrix(addStage(stages, s.key("mask"), "Mask",
                       "M_ij = −∞ if key j comes after query i or is hidden by the mask, else 0 (every memory row is before)"),
              "M", mask, s.queries, s.keys);
    std::vector<Eigen::Index> emptyRows;
    for (int h = 0; h < s.heads; ++h) {
        const ScoreTerms& t = terms[static_cast<std::size_t>(h)];
        Eigen::MatrixXf scores = t.content + t.position + t.contentBias + t.positionBias;
        putMatrix(addStage(stages, s.key("scores", h), "Scores", "S_h = (a) + (b) + (c) + (d)",
                           {s.key("content_scores", h), s.key("position_scores", h), s.key("content_bias", h), s.key("position_bias", h)}),
                  "S_h", scores, s.queries, s.keys);
        scores *= scale;
        putMatrix(addStage(stages, s.key("scaled", h), "Scaled scores", s.in.scaleScores ? "S'_h = S_h / √d_k" : "S'_h = S_h  (scaling off)",
                           {s.key("scores", h)}),
                  "S'_h", scores, s.queries, s.keys);
        scores += mask;
        putMatrix(addStage(stages, s.key("masked_scores", h), "Masked scores", "S''_h = S'_h + M", {s.key("scaled", h), s.key("mask")}),
                  "S''_h", scores, s.queries, s.keys);
        const Eigen::MatrixXf a = rowSoftmax(scores, h == 0 ? &emptyRows : nullptr);
        putMatrix(addStage(stages, s.key("weights", h), "Attention weights", "A_h = softmax(S''_h)  (row-wise)", {s.key("masked_scores", h)}),
                  "A_h", a, s.queries, s.keys);
        auto z = concat.block(seg.start, h * s.dK, seg.length, s.dK);
        z.noalias() = a * v[static_cast<std::size_t>(h)];
        putMatrix(addStage(stages, s.key("head_output", h), "Head output", "Z_h = A_h·V_h", {s.key("weights", h), s.key("v", h)}), "Z_h", z,
                  s.queries, s.headDims);
    }
    for (const auto row : emptyRows) {
        const int at = seg.start + static_cast<int>(row);
        warnings.push_back(messages::allKeysMasked(s.c.block, s.c.layer, at, (*s.c.queryLabels)[static_cast<std::size_t>(at)]));
    }
}

} // namespace

Eigen::MatrixXf xlHeads(const Eigen::MatrixXf& input, const Eigen::Ref<const Eigen::MatrixXf>& q, const Eigen::Ref<const Eigen::MatrixXf>& k,
                        const Eigen::Ref<const Eigen::MatrixXf>& v, int heads, bool scaleScores, const BoolMatrix& blocked,
                        const AttentionBlockContext& context, StageList& stages, std::vector<Message>& warnings)
{
    const int n = static_cast<int>(input.rows());
    const int d = static_cast<int>(q.cols());
    const int dK = d / heads;
    const PositionOptions& o = context.positionOptions;
    const XlTables tables = addXlParameters(context, heads, dK, d, stages);
    Eigen::MatrixXf concat(n, d);
    const SegmentInput in{input, q, k, v, blocked, tables, scaleScores};
    const std::vector<XlSegment> segments = xlSegments(n, o.segment, o.xlMemory());
    for (std::size_t tau = 0; tau < segments.size(); ++tau) {
        const Segment s{in, segments[tau], static_cast<int>(tau), context, heads, d, dK,
                        slice(context.queryLabels, segments[tau].start, segments[tau].length),
                        slice(context.keyLabels, segments[tau].firstKey(), segments[tau].keys()), numberedLabels(dK)};
        std::vector<Eigen::MatrixXf> qh, kh, vh;
        projections(s, stages, qh, kh, vh);
        std::vector<ScoreTerms> terms = scoreTermStages(s, qh, kh, stages);
        attend(s, terms, vh, stages, warnings, concat);
    }
    return concat;
}

} // namespace attnlab

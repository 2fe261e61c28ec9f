#include "explain/cell_explanation.h"

#include "model/model.h"
#include "nn/weights.h"
#include "pretrained/model_folder.h"
#include "position/inside.h"

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

/// True when (i, j) is a cell of the stage's main matrix.
bool holds(const Stage* s, int i, int j)
{
    return s && !s->matrices.empty() && i >= 0 && j >= 0 && i < s->main().values.rows() && j < s->main().values.cols();
}

/// Row i of the stage's main matrix, in double.
std::vector<double> rowOf(const Stage& s, int i)
{
    const Eigen::MatrixXf& m = s.main().values;
    std::vector<double> row(static_cast<std::size_t>(m.cols()));
    for (Eigen::Index j = 0; j < m.cols(); ++j)
        row[static_cast<std::size_t>(j)] = m(i, j);
    return row;
}

/// What the scores are divided by: √query_pre_attn_scalar (Gemma 3, from the model's config),
/// else √d_k; `scalar` says which.
double scoreRoot(const Trace& t, int dK, bool& scalar)
{
    const double q = t.model && t.model->pretrained ? t.model->pretrained->config().queryPreAttnScalar : 0.0;
    scalar = q > 0;
    return std::sqrt(scalar ? q : static_cast<double>(dK));
}

} // namespace

std::optional<ScoreExplanation> explainScore(const Trace& t, int head, int i, int j)
{
    // Grouped-query attention: the query head compares with the keys of the key/value head its
    // scores name (query heads h·g … h·g + g − 1 share one); elsewhere head h has its own keys.
    const Stage* ss = t.find("scores", head);
    const int keyHead = ss && ss->kvHead ? *ss->kvHead : head;
    // RoPE: the scores are the turned queries' and keys' dot products.
    const Stage* qs = t.find("q_rotated", head);
    const Stage* ks = t.find("k_rotated", keyHead);
    if (!qs || !ks) {
        qs = t.find("q", head);
        ks = t.find("k", keyHead);
    }
    const Stage* bs = t.find("position_bias", head); // ALiBi
    const Stage* sc = t.find("scaled", head);
    const Stage* ms = t.find("mask");
    if (!ms)
        ms = t.find("mask", head); // lsh: a mask per head (its buckets)
    const Stage* mm = t.find("masked_scores", head);
    const Stage* ws = t.find("weights", head);
    if (!holds(ss, i, j) || !holds(sc, i, j) || !holds(ms, i, j) || !holds(mm, i, j) || !holds(ws, i, j)
        || !holds(qs, i, 0) || !holds(ks, j, 0) || qs->main().values.cols() != ks->main().values.cols())
        return std::nullopt;
    const Eigen::MatrixXf& q = qs->main().values;
    const Eigen::MatrixXf& k = ks->main().values;
    const int dK = static_cast<int>(q.cols());

    ScoreExplanation e;
    e.dims = qs->main().colLabels;
    if (ss->kvHead) {
        e.kvHead = ss->kvHead;
        for (int h = 0; h < t.config.heads; ++h) {
            if (const Stage* other = t.find("scores", h); other && other->kvHead == ss->kvHead)
                e.sharingHeads.push_back(h);
        }
    }
    // S[i, j] = Σ_d q_i[d]·k_j[d], term by term, in double.
    for (int d = 0; d < dK; ++d) {
        const double qd = q(i, d);
        const double kd = k(j, d);
        e.q.push_back(qd);
        e.k.push_back(kd);
        e.products.push_back(qd * kd);
        e.sum += qd * kd;
    }
    if (const Stage* ps = t.find("position_scores", head); holds(ps, i, j)) // relative positions
        e.positionScore = ps->main().values(i, j);
    const Stage* cb = t.find("content_bias", head); // Transformer-XL: S = (a) + (b) + (c) + (d)
    if (e.positionScore && holds(cb, i, j) && holds(bs, i, j)) {
        e.xlTerms = true;
        *e.positionScore += static_cast<double>(cb->main().values(i, j)) + bs->main().values(i, j);
        bs = nullptr; // (d) is not ALiBi's bias after the scaling
    }
    e.score = ss->main().values(i, j);
    e.scaling = t.config.scaleScores;
    e.root = scoreRoot(t, dK, e.rootOfScalar);
    e.scaled = sc->main().values(i, j);
    if (holds(bs, i, j) && !e.xlTerms)
        e.bias = bs->main().values(i, j);
    e.mask = ms->main().values(i, j);
    e.hidden = std::isinf(e.mask) && e.mask < 0;
    e.masked = mm->main().values(i, j);
    e.weight = ws->main().values(i, j);
    return e;
}

std::optional<WeightsRowExplanation> explainWeightsRow(const Trace& t, int head, int i)
{
    const Stage* mm = t.find("masked_scores", head);
    const Stage* ws = t.find("weights", head);
    if (!holds(mm, i, 0) || !holds(ws, i, 0) || mm->main().values.cols() != ws->main().values.cols())
        return std::nullopt;
    WeightsRowExplanation e;
    e.scores = rowOf(*mm, i);
    e.weights = rowOf(*ws, i);
    const int n = static_cast<int>(e.scores.size());
    for (int j = 0; j < n; ++j) {
        if (!std::isfinite(e.scores[static_cast<std::size_t>(j)]))
            e.maskedKeys.push_back(j);
    }
    // A[i, :] = softmax(S″[i, :]), as the engine computes it: subtract the row max, exp, divide.
    e.softmax = softmaxRow(e.scores);
    e.allMasked = !std::isfinite(e.softmax.max);
    for (int j = 0; j < n; ++j) {
        e.sumWeights += e.weights[static_cast<std::size_t>(j)];
        e.largest = e.weights[static_cast<std::size_t>(j)] > e.weights[static_cast<std::size_t>(e.largest)] ? j : e.largest;
    }
    e.scaling = t.config.scaleScores;
    // d_k: the queries' width (a modern decoder's head_dim need not be d_model / heads).
    const Stage* q = t.find("q", head);
    const int dK = q && !q->matrices.empty() ? static_cast<int>(q->main().values.cols()) : t.config.dK();
    e.root = scoreRoot(t, dK, e.rootOfScalar);
    return e;
}

std::optional<HeadOutputExplanation> explainHeadOutput(const Trace& t, int head, int i, int c)
{
    const Stage* ws = t.find("weights", head);
    const Stage* vs = t.find("v_projected", head); // linformer: Z = A·V′ over its K projected rows
    if (!vs)
        vs = t.find("v", head);
    const Stage* zs = t.find("head_output", head);
    if (!holds(ws, i, 0) || !holds(zs, i, c) || !holds(vs, 0, c) || vs->main().values.rows() != ws->main().values.cols())
        return std::nullopt;
    const Eigen::MatrixXf& a = ws->main().values;
    const Eigen::MatrixXf& v = vs->main().values;
    HeadOutputExplanation e;
    e.dims = zs->main().colLabels;
    e.output = zs->main().values(i, c);
    // Relative positions: each key's value gets a^V of its clipped distance (row clip(j − i) + K).
    const Stage* rv = t.find("relative_values");
    e.relative = holds(rv, 0, c);
    const int maxDistance = e.relative ? static_cast<int>(rv->main().values.rows() - 1) / 2 : 0;
    // Z[i, c] = Σ_j A[i, j]·V[j, c], term by term, in double.
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
        double value = v(j, c);
        if (e.relative)
            value += static_cast<double>(rv->main().values(relativeRow(i, static_cast<int>(j), maxDistance), c));
        const double term = static_cast<double>(a(i, j)) * value;
        e.weights.push_back(a(i, j));
        e.values.push_back(value);
        e.terms.push_back(term);
        e.sum += term;
        if (std::abs(term) > std::abs(e.largestTerm)) {
            e.largestTerm = term;
            e.largest = static_cast<int>(j);
        }
        e.zeroWeights += a(i, j) == 0.0f ? 1 : 0;
    }
    return e;
}

std::optional<ProjectionExplanation> explainProjection(const Trace& t, std::string_view id, int head, int i, int c,
                                                       int maxTerms)
{
    const int p = id == "q" ? 0 : id == "k" ? 1 : id == "v" ? 2 : -1; // block of in_proj_weight: W_Q, W_K, W_V
    const Stage* xs = p > 0 && t.find("key_input") ? t.find("key_input") : t.find("input");
    const Stage* ps = p >= 0 ? t.find(id, head) : nullptr;
    const AttentionWeights* w = t.weights.get();
    if (!holds(ps, i, c) || !holds(xs, i, 0) || !w)
        return std::nullopt;
    const Eigen::MatrixXf& x = xs->main().values;
    ProjectionExplanation e;
    e.block = p;
    e.weightRow = head * t.config.dK() + c;
    e.inProjRow = p * t.config.dModel + e.weightRow;
    if (e.inProjRow >= w->inProjWeight.rows() || w->inProjWeight.cols() != x.cols() || e.inProjRow >= w->inProjBias.size())
        return std::nullopt;
    e.inputWidth = static_cast<int>(x.cols());
    e.inputDims = xs->main().colLabels;
    e.outputDims = ps->main().colLabels;
    e.bias = w->inProjBias(e.inProjRow);
    e.output = ps->main().values(i, c);

    // Every term X[i, d]·W[r, d], largest in size first.
    std::vector<ProjectionExplanation::Term> terms;
    for (int d = 0; d < e.inputWidth; ++d) {
        const double xd = x(i, d);
        const double wd = w->inProjWeight(e.inProjRow, d);
        terms.push_back({d, xd, wd, xd * wd});
    }
    std::stable_sort(terms.begin(), terms.end(), [](const auto& a, const auto& b) { return std::abs(a.product) > std::abs(b.product); });
    // Σ + b in that order; the terms beyond maxTerms are summed into `omitted`.
    e.sum = e.bias;
    for (std::size_t k = 0; k < terms.size(); ++k) {
        e.sum += terms[k].product;
        if (static_cast<int>(k) < maxTerms)
            e.listed.push_back(terms[k]);
        else
            e.omitted += terms[k].product;
    }
    return e;
}

} // namespace attnlab

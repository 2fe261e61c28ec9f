#include "pretrained/generate.h"

#include "core/random.h"
#include "families/family.h"
#include "model/model.h"
#include "nn/transformer.h"
#include "pretrained/messages.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace attnlab {

namespace {

/// LayerNorm of one row (the same arithmetic as nn/transformer.h's layerNorm).
Eigen::RowVectorXf normRow(const Eigen::RowVectorXf& x, const LayerNormWeights& w, float eps)
{
    return layerNorm(x, w, eps).output;
}

/// Q | K | V (1 x 3d) of one row: the fused projection, or the three side by side.
Eigen::RowVectorXf projectRow(const AttentionProjections& a, const Eigen::RowVectorXf& x)
{
    if (a.qkv)
        return a.qkv->apply(x);
    Eigen::RowVectorXf qkv(3 * a.q.out);
    qkv << a.q.apply(x), a.k.apply(x), a.v.apply(x);
    return qkv;
}

} // namespace

Eigen::RowVectorXf softmaxRow(const Eigen::RowVectorXf& x)
{
    const float m = x.maxCoeff();
    Eigen::RowVectorXf e = (x.array() - m).exp();
    return e / e.sum();
}

int chooseToken(const Eigen::RowVectorXf& logits, const SamplingOptions& o, SplitMix64& random)
{
    if (!o.temperature)
        return static_cast<int>(argmaxFirst(logits));
    // softmax(logits / T), in double and with the largest logit subtracted before dividing:
    // (l − max) / T ≤ 0 never overflows, however small T is (logits / 1e-38 were inf in float, and
    // inf − inf made every probability NaN). A tiny T gives the largest logit all the probability
    // (shared by equal ones): the greedy token.
    const double largest = logits.maxCoeff();
    Eigen::RowVectorXd p = ((logits.cast<double>().array() - largest) / static_cast<double>(*o.temperature)).exp();
    p /= p.sum();
    std::vector<int> order(static_cast<std::size_t>(p.size()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return p(a) > p(b); });
    std::size_t keep = o.topK > 0 ? std::min(order.size(), static_cast<std::size_t>(o.topK)) : order.size();
    double sum = 0;
    for (std::size_t i = 0; i < keep; ++i) {
        sum += p(order[i]);
        if (sum >= o.topP) { // the fewest tokens whose probabilities reach p
            keep = i + 1;
            break;
        }
    }
    double total = 0;
    for (std::size_t i = 0; i < keep; ++i)
        total += p(order[i]);
    double u = random.uniform53() * total;
    for (std::size_t i = 0; i < keep; ++i) {
        u -= p(order[i]);
        if (u < 0)
            return order[i];
    }
    return order[keep - 1];
}

Eigen::RowVectorXf KvCache::feed(const std::vector<int>& ids)
{
    Eigen::RowVectorXf logits;
    for (const int id : ids)
        logits = step(id);
    return logits;
}

Gpt2Cache::Gpt2Cache(const PretrainedWeights& weights)
    : m_w(weights)
{
    const ModelFamily& family = modelFamily(weights.config.family);
    if (family.task != FamilyTask::NextToken || family.layerKind != FamilyLayer::Classic || !weights.outputTable())
        throw std::invalid_argument("only GPT-2 generates text with this cache");
    const int layers = static_cast<int>(weights.layers.size());
    for (int i = 0; i < layers; ++i) {
        m_keys.emplace_back(0, weights.config.dModel);
        m_values.emplace_back(0, weights.config.dModel);
    }
}

Eigen::RowVectorXf Gpt2Cache::step(int id)
{
    const HfConfig& c = m_w.config;
    if (m_length >= c.positions)
        throw Error(say(pretrainedMessage("pretrained_no_position"), c.positions));
    const int d = c.dModel;
    const int heads = c.heads;
    const int dK = d / heads;
    const float scale = 1.0f / std::sqrt(static_cast<float>(dK));
    // x (1 x d) = W_te[id] + W_pe[t].
    Eigen::RowVectorXf x = m_w.tokens.map().row(id) + m_w.positions.map().row(m_length);
    for (std::size_t l = 0; l < m_w.layers.size(); ++l) {
        const PretrainedLayer& w = m_w.layers[l];
        const Eigen::RowVectorXf qkv = projectRow(w.attention, normRow(x, w.norm1, c.layerNormEps));
        // The cache grows by one row: the new position's key and value.
        Eigen::MatrixXf& k = m_keys[l];
        Eigen::MatrixXf& v = m_values[l];
        k.conservativeResize(m_length + 1, Eigen::NoChange);
        v.conservativeResize(m_length + 1, Eigen::NoChange);
        k.row(m_length) = qkv.segment(d, d);
        v.row(m_length) = qkv.segment(2 * d, d);
        Eigen::RowVectorXf concat(d);
        for (int h = 0; h < heads; ++h) {
            // scores (1 x t+1) = q_h · K_hᵀ / √d_k: every cached key is at or before this position.
            const Eigen::RowVectorXf scores = (qkv.segment(h * dK, dK) * k.middleCols(h * dK, dK).transpose()) * scale;
            concat.segment(h * dK, dK) = softmaxRow(scores) * v.middleCols(h * dK, dK);
        }
        const Eigen::RowVectorXf r1 = x + w.attention.output.apply(concat);
        const Eigen::RowVectorXf hidden = activate(c.activation, w.up.apply(normRow(r1, w.norm2, c.layerNormEps)));
        x = r1 + w.down.apply(hidden);
    }
    ++m_length;
    const Eigen::RowVectorXf out = normRow(x, m_w.finalNorm, c.layerNormEps);
    return timesTransposed(out, m_w.outputTable()->map());
}

GeneratedTokens generateTokens(const PretrainedWeights& w, const std::vector<int>& prompt, int maxNewTokens,
                               const SamplingOptions& o, const std::function<void(int, int)>& progress)
{
    const HfConfig& c = w.config;
    if (prompt.empty())
        throw Error(messages::noTokens("prompt"));
    if (static_cast<int>(prompt.size()) > c.positions)
        throw Error(say(pretrainedMessage("prompt_positions"), prompt.size(), c.positions));
    for (const int id : prompt) {
        if (id < 0 || id >= c.vocabulary)
            throw Error(say(pretrainedMessage("prompt_token_id"), id));
    }
    if (maxNewTokens < 1 || maxNewTokens > kMaxTargetLength)
        throw Error(say(pretrainedMessage("max_new_tokens_range"), maxNewTokens, kMaxTargetLength));
    if (o.temperature && !(*o.temperature > 0 && std::isfinite(*o.temperature)))
        throw Error(say(pretrainedMessage("temperature_positive")));
    if (o.topK < 0)
        throw Error(say(pretrainedMessage("top_k_negative")));
    if (!(o.topP > 0 && o.topP <= 1))
        throw Error(say(pretrainedMessage("top_p_range")));

    const std::unique_ptr<KvCache> cache = makeKvCache(w);
    Eigen::RowVectorXf logits = cache->feed(prompt);
    SplitMix64 random(mixSeed(o.seed));
    GeneratedTokens out;
    const int most = std::min(maxNewTokens, c.positions - static_cast<int>(prompt.size()) + 1);
    for (int t = 0; t < most; ++t) {
        const int next = chooseToken(logits, o, random);
        out.ids.push_back(next);
        out.probabilities.push_back(softmaxRow(logits)(next));
        if (progress)
            progress(t + 1, most);
        const bool stop = std::find(c.eosTokenIds.begin(), c.eosTokenIds.end(), next) != c.eosTokenIds.end();
        if (stop || (c.eosTokenId && next == *c.eosTokenId)) {
            out.endOfText = true;
            break;
        }
        if (t + 1 < most)
            logits = cache->step(next);
    }
    return out;
}

std::vector<std::pair<int, float>> topProbabilities(const Eigen::Ref<const Eigen::RowVectorXf>& p, int k)
{
    std::vector<int> order(static_cast<std::size_t>(p.size()));
    std::iota(order.begin(), order.end(), 0);
    const auto n = std::min(order.size(), static_cast<std::size_t>(std::max(k, 0)));
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(),
                      [&](int a, int b) { return p(a) > p(b) || (p(a) == p(b) && a < b); });
    std::vector<std::pair<int, float>> out;
    for (std::size_t i = 0; i < n; ++i)
        out.emplace_back(order[i], p(order[i]));
    return out;
}

} // namespace attnlab

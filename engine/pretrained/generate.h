#pragma once
/// GPT-2 writes on: one token a step, greedy or sampled, with a key/value cache so that a step
/// computes one position, not the whole prefix again (docs/pretrained-models.md).
///
///   step t:  x = W_te[y_t] + W_pe[t];  per layer: K, V gain one row each; the new query attends
///            every cached row (causal by construction); logits = LN_f(x_L)·W_teᵀ
///   greedy:  y_{t+1} = argmax logits (the first on a tie, as torch.argmax)
///   sampling: softmax((logits − max) / T) in double (any T > 0: a tiny one is greedy), keep the
///            k likeliest (top-k), then the fewest whose probabilities sum to at least p (top-p),
///            renormalise, draw with SplitMix64(seed) (core/random.h)

#include "core/random.h"
#include "pretrained/weights.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace attnlab {

struct SamplingOptions {
    /// Sampling when given (> 0); greedy without.
    std::optional<float> temperature;
    int topK = 0;     ///< 0: every token
    float topP = 1.0f; ///< (0, 1]
    std::uint64_t seed = 0;
};

struct GeneratedTokens {
    std::vector<int> ids;
    /// The probability the model gave each chosen token (its softmax at temperature 1).
    std::vector<float> probabilities;
    /// True when generation stopped at the end-of-text token; false at the limit or the model's positions.
    bool endOfText = false;
};

/// A next-token model's key/value cache: every layer's keys and values so far (rows = positions).
class KvCache {
public:
    virtual ~KvCache() = default;
    /// Feeds one token at the next position; returns that position's logits (V).
    virtual Eigen::RowVectorXf step(int id) = 0;
    /// Feeds tokens at the next positions (a prompt); returns the last one's logits (V). This
    /// one steps through them; a cache may compute them at once.
    virtual Eigen::RowVectorXf feed(const std::vector<int>& ids);
    virtual int length() const = 0;
};

/// The cache of the model's family: Gpt2Cache or GatedCache. Throws std::invalid_argument for a
/// model that does not write on (BERT) or has no head.
std::unique_ptr<KvCache> makeKvCache(const PretrainedWeights& weights);

/// The key/value cache of a GPT-2.
class Gpt2Cache : public KvCache {
public:
    explicit Gpt2Cache(const PretrainedWeights& weights);
    Eigen::RowVectorXf step(int id) override;
    int length() const override { return m_length; }

private:
    const PretrainedWeights& m_w;
    std::vector<Eigen::MatrixXf> m_keys;   ///< per layer: (capacity x d)
    std::vector<Eigen::MatrixXf> m_values; ///< per layer: (capacity x d)
    int m_length = 0;
};

/// The key/value cache of a gated decoder (Llama, Qwen; families/gated.h): per layer the keys
/// (after the q/k norm and RoPE at their position) and values of each key/value head; the new
/// query of head h attends KV head h / (heads / kv_heads). Bytes per token:
/// 2 · layers · kv_heads · head_dim · 4 (float32).
class GatedCache : public KvCache {
public:
    explicit GatedCache(const PretrainedWeights& weights);
    Eigen::RowVectorXf step(int id) override;
    /// The positions of all `ids` at once: each layer's projections and feed-forward network as
    /// one product over the rows (the weights read once, not once per token), each row attending
    /// the cache and the rows before it; only the last row's logits are made.
    Eigen::RowVectorXf feed(const std::vector<int>& ids) override;
    int length() const override { return m_length; }

private:
    const PretrainedWeights& m_w;
    std::vector<std::vector<double>> m_omega; ///< per layer: RoPE's inverse frequencies
    std::vector<Eigen::MatrixXf> m_keys;    ///< per layer: (positions x kv_heads·head_dim)
    std::vector<Eigen::MatrixXf> m_values;
    int m_length = 0;
};

/// Generates up to maxNewTokens after `prompt` (stopping at <|endoftext|> when the config names
/// it, or at the model's positions). progress, when given, gets (done, most) after each token.
/// Throws std::invalid_argument for an empty prompt, an id outside the vocabulary, a prompt
/// longer than the positions, or sampling options out of range.
GeneratedTokens generateTokens(const PretrainedWeights& weights, const std::vector<int>& prompt, int maxNewTokens,
                               const SamplingOptions& sampling, const std::function<void(int, int)>& progress = {});

/// Softmax of one row in float, the largest first subtracted.
Eigen::RowVectorXf softmaxRow(const Eigen::RowVectorXf& logits);

/// The next token after one row of logits: greedy (the first largest, as torch.argmax) without a
/// temperature; else softmax(logits / T) computed as exp((l − max) / T) in double (so that no T
/// overflows: a tiny T leaves the largest logits only), the top-k, then the fewest reaching top-p,
/// renormalised, one draw from `random`. generateTokens and the studio's stepper choose with it.
int chooseToken(const Eigen::RowVectorXf& logits, const SamplingOptions& options, SplitMix64& random);

/// The `k` largest probabilities of a row, largest first (ties: the smaller id first).
std::vector<std::pair<int, float>> topProbabilities(const Eigen::Ref<const Eigen::RowVectorXf>& probabilities, int k);

} // namespace attnlab

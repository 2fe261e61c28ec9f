#pragma once
// A next-token model (GPT-2, Llama, Qwen) writing on one token a step, as the studio's generation
// stepper does it (plain C++, no Qt: GenerationStepper runs it off the GUI thread). It keeps a
// key/value cache (the family's: Gpt2Cache, GatedCache) fed
// with the prompt and every generated token but the last, so a step costs one position; the
// chosen token is fed at the next step. Greedy (the first largest logit) or sampled exactly as
// the command line's `generate` (engine/pretrained/generate.h), so the same seed and options
// give the same tokens: the random stream starts at the first generated token, or anew when the
// options change, and Back puts it back to where it was before the removed token.

#include "pretrained/generate.h"
#include "core/random.h"

#include <Eigen/Core>

#include <memory>
#include <optional>
#include <vector>

namespace attnlab {

struct Seq2SeqModel;

class Gpt2Stepper {
public:
    /// `model` is a next-token folder model with its LM head; `prompt` its token ids (not empty).
    Gpt2Stepper(std::shared_ptr<const Seq2SeqModel> model, std::vector<int> prompt);
    ~Gpt2Stepper();

    const std::shared_ptr<const Seq2SeqModel>& model() const { return m_model; }
    const std::vector<int>& prompt() const { return m_prompt; }
    /// The tokens written so far, and the probability the model gave each (softmax at T = 1).
    const std::vector<int>& generated() const { return m_generated; }
    const std::vector<float>& probabilities() const { return m_probabilities; }
    /// Prompt and generated tokens, in order.
    std::vector<int> ids() const;
    /// Positions the cache has computed (a step computes the ones it lacks, usually one).
    int cachedPositions() const;

    /// Chooses the next token after ids(), with `options` (greedy without a temperature), and
    /// appends it. The options must be valid (SamplingOptions' ranges). Throws
    /// std::invalid_argument when the model has no position for another token.
    int step(const SamplingOptions& options);
    /// Removes the last generated token (none: nothing happens): the cache and the random stream
    /// go back to where they were before it was chosen.
    void back();
    /// Keeps only the first `count` generated tokens (back() repeated).
    void keep(std::size_t count);

private:
    /// Feeds the cache every id it lacks (a cache longer than ids() is made again); returns the
    /// logits after the last id.
    const Eigen::RowVectorXf& logitsAfterAll();
    /// The random stream for `options`: started anew from the seed at the first token, or when
    /// the options differ from those the stream was started with.
    SplitMix64& streamFor(const SamplingOptions& options);

    std::shared_ptr<const Seq2SeqModel> m_model;
    std::vector<int> m_prompt;
    std::vector<int> m_generated;
    std::vector<float> m_probabilities;
    std::unique_ptr<KvCache> m_cache; ///< the family's (makeKvCache)
    Eigen::RowVectorXf m_logits; ///< after the cache's last position
    /// The random stream and the options it was started with (none before the first sample).
    struct Stream {
        std::optional<SplitMix64> random;
        SamplingOptions options;
    };
    Stream m_stream;
    std::vector<Stream> m_streamBefore; ///< per generated token: the stream before it was chosen
};

} // namespace attnlab

#include "session/gpt2stepper.h"

#include "model/model.h"
#include "pretrained/model_folder.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace attnlab {

namespace {

bool sameOptions(const SamplingOptions& a, const SamplingOptions& b)
{
    return a.temperature == b.temperature && a.topK == b.topK && a.topP == b.topP && a.seed == b.seed;
}

} // namespace

Gpt2Stepper::Gpt2Stepper(std::shared_ptr<const Seq2SeqModel> model, std::vector<int> prompt)
    : m_model(std::move(model))
    , m_prompt(std::move(prompt))
{
    if (!m_model || !m_model->pretrained || !m_model->pretrained->predictsNextToken() || !m_model->hasHead())
        throw std::invalid_argument("only a GPT-2 with its language-model head writes on");
    if (m_prompt.empty())
        throw std::invalid_argument("the prompt has no tokens");
}

Gpt2Stepper::~Gpt2Stepper() = default;

std::vector<int> Gpt2Stepper::ids() const
{
    std::vector<int> all = m_prompt;
    all.insert(all.end(), m_generated.begin(), m_generated.end());
    return all;
}

int Gpt2Stepper::cachedPositions() const
{
    return m_cache ? m_cache->length() : 0;
}

const Eigen::RowVectorXf& Gpt2Stepper::logitsAfterAll()
{
    const std::vector<int> all = ids();
    const int n = static_cast<int>(all.size());
    if (!m_cache || m_cache->length() > n)
        m_cache = makeKvCache(m_model->pretrained->weights);
    // Usually one position, the token chosen at the previous step; the prompt at once, as
    // attention-lab-cli generate feeds it (the same numbers, the weights read once).
    if (m_cache->length() < n)
        m_logits = m_cache->feed(std::vector<int>(all.begin() + m_cache->length(), all.end()));
    return m_logits;
}

SplitMix64& Gpt2Stepper::streamFor(const SamplingOptions& options)
{
    if (m_generated.empty() || !m_stream.random || !sameOptions(options, m_stream.options))
        m_stream = {SplitMix64(mixSeed(options.seed)), options};
    return *m_stream.random;
}

int Gpt2Stepper::step(const SamplingOptions& options)
{
    const int positions = m_model->pretrained->config().positions;
    const auto n = static_cast<int>(m_prompt.size() + m_generated.size());
    if (n >= positions)
        throw std::invalid_argument("the model has no position after " + std::to_string(positions) + " tokens");
    const Eigen::RowVectorXf& logits = logitsAfterAll();
    m_streamBefore.push_back(m_stream);
    SplitMix64 greedy(0); // unused: greedy draws nothing
    const int next = chooseToken(logits, options, options.temperature ? streamFor(options) : greedy);
    m_generated.push_back(next);
    m_probabilities.push_back(softmaxRow(logits)(next));
    return next;
}

void Gpt2Stepper::back()
{
    if (m_generated.empty())
        return;
    // The last token was never fed (a step feeds the one before it): the cache ends where it
    // should and its logits are the ones that chose it. An earlier token was fed: the cache is
    // one position too long and is made again at the next step.
    const bool fed = m_cache && m_cache->length() == static_cast<int>(m_prompt.size() + m_generated.size());
    m_generated.pop_back();
    m_probabilities.pop_back();
    m_stream = m_streamBefore.back();
    m_streamBefore.pop_back();
    if (fed)
        m_cache.reset();
}

void Gpt2Stepper::keep(std::size_t count)
{
    while (m_generated.size() > count)
        back();
}

} // namespace attnlab

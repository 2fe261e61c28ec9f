#include "train/examples.h"

#include "text/printable.h"
#include "train/messages.h"

#include <algorithm>
#include <stdexcept>

namespace attnlab::train {

namespace {

std::vector<int> ids(const std::vector<std::string>& vocab, const std::vector<std::string>& tokens)
{
    std::vector<int> out;
    out.reserve(tokens.size());
    for (const std::string& t : tokens) {
        const auto it = std::find(vocab.begin(), vocab.end(), t);
        if (it == vocab.end())
            throw Error(say(trainMessage("train_not_in_vocabulary"), printable(t)));
        out.push_back(static_cast<int>(it - vocab.begin()));
    }
    return out;
}

} // namespace

Example exampleOf(const Seq2SeqModel& model, std::string_view source, std::string_view target, std::vector<Message>& warnings)
{
    if (model.openVocabulary() || model.pretrained)
        throw Error(say(trainMessage("train_only_own_vocabularies")));
    const std::vector<std::string> src = modelTokens(model, source, false, ConfigLimits::maxTokens, warnings);
    if (src.empty())
        throw Error(say(trainMessage("train_source_no_tokens")));
    // Teacher forcing: the decoder reads <sos> + target and is asked for target + <eos>.
    std::vector<std::string> input = teacherForcingInput(model, target, ConfigLimits::maxTokens - 1, warnings);
    std::vector<std::string> labels(input.begin() + 1, input.end());
    labels.push_back("<eos>");
    return {ids(model.srcVocab, src), ids(model.tgtVocab, input), ids(model.tgtVocab, labels)};
}

std::size_t labelTokens(const std::vector<Example>& examples, std::size_t first, std::size_t last)
{
    std::size_t n = 0;
    for (std::size_t i = first; i < last; ++i)
        n += examples[i].labels.size();
    return n;
}

int longestSequence(const std::vector<Example>& examples)
{
    std::size_t n = 1;
    for (const Example& e : examples)
        n = std::max({n, e.source.size(), e.input.size()});
    return static_cast<int>(n);
}

} // namespace attnlab::train

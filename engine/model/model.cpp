// A whole encoder–decoder model at work: its tokens, one pass (embeddings, the stacks, the
// output head), teacher forcing and greedy generation (docs/model-format.md). Making models:
// seeded_model.cpp; reading and writing them: model_file.cpp.

#include "model/model.h"

#include "model/messages.h"

#include "pretrained/model_folder.h"

#include "nn/embedding.h"
#include "nn/input_stages.h"
#include "nn/softmax.h"
#include "core/stage_builder.h"
#include "text/printable.h"
#include "text/tokenizer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace attnlab {

namespace {

using detail::addStage;
using detail::putMatrix;


std::string str(long long v) { return std::to_string(v); }


// --- Tokens ---

/// The UTF-8 characters of a token (the tokenizer has already replaced invalid bytes).
std::vector<std::string> characters(const std::string& token)
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < token.size();) {
        const auto lead = static_cast<unsigned char>(token[i]);
        const std::size_t len = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
        out.push_back(token.substr(i, len));
        i += len;
    }
    return out;
}

int indexIn(const std::vector<std::string>& vocab, const std::string& token)
{
    const auto it = std::find(vocab.begin(), vocab.end(), token);
    return it == vocab.end() ? -1 : static_cast<int>(it - vocab.begin());
}

// --- One pass ---

/// embedding, positional_encoding, input for one side (block EncoderSelf = source,
/// DecoderSelf = target); returns X (n x d).
Eigen::MatrixXf embed(const Seq2SeqModel& m, const std::vector<std::string>& tokens, bool target, const Labels& labels,
                      StageList& stages)
{
    const int d = m.spec.dModel;
    const auto n = static_cast<Eigen::Index>(tokens.size());
    const std::vector<std::string>& vocab = target ? m.tgtVocab : m.srcVocab;
    const Eigen::MatrixXf& table = target ? m.tgtEmbedding : m.srcEmbedding;
    Eigen::MatrixXf e(n, d);
    if (m.openVocabulary()) {
        e = tokenEmbeddings(tokens, d, m.spec.seed);
    } else {
        for (Eigen::Index i = 0; i < n; ++i) {
            const int row = indexIn(vocab, tokens[static_cast<std::size_t>(i)]);
            if (row < 0)
                throw Error(say(target ? modelMessage("not_in_target_vocabulary") : modelMessage("not_in_source_vocabulary"),
                                printable(tokens[static_cast<std::size_t>(i)])));
            e.row(i) = table.row(row);
        }
    }
    InputSide side;
    side.block = target ? Block::DecoderSelf : Block::EncoderSelf;
    side.embeddingTitle = target ? "Target embeddings" : "Source embeddings";
    side.inputTitle = target ? "Decoder input" : "Encoder input";
    side.module = m.openVocabulary() ? "" : target ? "tgt_embed" : "src_embed";
    side.embedScale = m.spec.embedScale;
    side.positional = m.spec.positional;
    side.seed = m.spec.seed;
    return inputStages(std::move(e), side, labels, stages);
}

struct Encoded {
    StageList stages;
    std::vector<Message> warnings;
    Eigen::MatrixXf memory;
    Labels tokens;
    /// The source's <pad> keys (src_key_padding_mask), hidden from every cross-attention too
    /// (memory_key_padding_mask); nothing when the mask has no padding.
    std::optional<BoolVector> keyPadding;
};

ModelSpec optionsFor(const Seq2SeqModel& m, const Config& config)
{
    config.validate();
    if (config.dModel != m.spec.dModel || config.heads != m.spec.heads)
        throw Error(say(modelMessage("model_width"), config.dModel, config.heads, m.spec.dModel, m.spec.heads));
    ModelSpec o = m.spec;
    o.scaleScores = config.scaleScores;
    // The attention kind is a setting of the run (a seeded encoder stack; the settings' checks
    // keep every other model on full attention).
    o.attention = config.attention;
    o.attentionOptions = config.attentionOptions;
    return o;
}

void checkCells(const ModelSpec& o, std::int64_t n, std::int64_t m)
{
    const std::int64_t cells = (o.encoderLayers * n * n + o.decoderLayers * m * (m + n)) * o.heads;
    if (cells > ConfigLimits::maxAttentionCells)
        throw Error(messages::tooManyLayerCells(cells, ConfigLimits::maxAttentionCells));
}

Encoded encode(const Seq2SeqModel& m, const std::vector<std::string>& source, const ModelSpec& o, MaskKind mask)
{
    if (source.empty())
        throw Error(messages::noTokens("source"));
    checkCells(o, static_cast<std::int64_t>(source.size()), 1);
    Encoded e;
    e.tokens = std::make_shared<const std::vector<std::string>>(source);
    const Eigen::MatrixXf x = embed(m, source, false, e.tokens, e.stages);
    const auto n = static_cast<Eigen::Index>(source.size());
    // The encoder's self-attention: src_mask (causal) or src_key_padding_mask (<pad> keys), as PyTorch merges them.
    e.keyPadding = keyPaddingMask(mask, source);
    const BoolMatrix blocked = combineMasks(n, n, sourceAttentionMask(mask, n), e.keyPadding, "src_mask", "src_key_padding_mask");
    e.memory = encoderStack(x, m.weights.encoder, o.finalNorms ? m.weights.encoderNorm : std::nullopt, o, blocked, e.tokens,
                            e.stages, e.warnings);
    return e;
}

Trace decode(const std::shared_ptr<const Seq2SeqModel>& model, const Encoded& enc, const std::vector<std::string>& input,
             const ModelSpec& o, const Config& config)
{
    const Seq2SeqModel& m = *model;
    if (input.empty())
        throw std::invalid_argument("the decoder needs at least one input token (<sos>)");
    const auto n = static_cast<Eigen::Index>(enc.tokens->size());
    const auto len = static_cast<Eigen::Index>(input.size());
    checkCells(o, n, len);

    Trace t;
    t.config = config;
    t.tokens = *enc.tokens;
    t.targetTokens = input;
    t.model = model;
    t.warnings = enc.warnings;
    // The encoder's stages are shared with every decoder pass, not copied.
    t.stages = enc.stages;

    const Labels target = std::make_shared<const std::vector<std::string>>(input);
    const Eigen::MatrixXf y = embed(m, input, true, target, t.stages);
    // Cross-attention hides the source's <pad> keys from every target row (memory_key_padding_mask);
    // the decoder's self-attention is causal (tgt_mask), its target never padded.
    const BoolMatrix cross = combineMasks(len, n, std::nullopt, enc.keyPadding, "memory_mask", "memory_key_padding_mask");
    const Eigen::MatrixXf out = decoderStack(y, enc.memory, m.weights.decoder, o.finalNorms ? m.weights.decoderNorm : std::nullopt, o,
                                             causalMask(len), cross, target, enc.tokens, t.stages, t.warnings);
    if (!m.hasHead())
        return t;

    // logits: (m x V) = D (m x d) · W_genᵀ (d x V) + b_gen
    const auto vocab = std::make_shared<const std::vector<std::string>>(m.tgtVocab);
    Eigen::MatrixXf logits = out * m.generatorWeight.transpose();
    logits.rowwise() += m.generatorBias.transpose();
    // probabilities: (m x V) = softmax of each row of the logits
    Eigen::MatrixXf p = rowSoftmax(logits);
    putMatrix(addStage(t.stages, {"logits"}, "Logits", "logits = D·W_genᵀ + b_gen", {{"decoder_output"}}, "generator"), "logits",
              std::move(logits), target, vocab);
    putMatrix(addStage(t.stages, {"probabilities"}, "Next-token probabilities", "P = softmax(logits) per row", {{"logits"}}), "P",
              std::move(p), target, vocab);
    return t;
}

} // namespace


bool Seq2SeqModel::hasHead() const
{
    return pretrained ? pretrained->hasHead() : generatorWeight.size() > 0;
}

// --- Running ---

std::vector<std::string> specTokens(const ModelSpec& spec, std::string_view text, bool target, int maxTokens,
                                    std::vector<Message>& warnings)
{
    std::string lowered(text);
    if (spec.lowercase && !target) { // docs/model-format.md: only the source is lower-cased
        for (char& c : lowered) {
            if (c >= 'A' && c <= 'Z')
                c = static_cast<char>(c - 'A' + 'a');
        }
    }
    // Split generously first, then cut at maxTokens with the tokenizer's own warning wording.
    Tokenization tok = tokenize(lowered, ConfigLimits::maxTokens * 4);
    std::vector<std::string> tokens;
    if (spec.tokenizer == ModelTokenizer::Chars) {
        const auto& special = specialTokens();
        for (const auto& t : tok.tokens) {
            if (std::find(special.begin(), special.end(), t) != special.end()) {
                tokens.push_back(t);
            } else {
                for (auto& c : characters(t))
                    tokens.push_back(std::move(c));
            }
        }
    } else {
        tokens = std::move(tok.tokens);
    }
    warnings.insert(warnings.end(), tok.warnings.begin(), tok.warnings.end());
    if (maxTokens >= 0 && static_cast<int>(tokens.size()) > maxTokens) {
        warnings.push_back(messages::sideCut(target ? "target" : "source", static_cast<long long>(tokens.size()), maxTokens));
        tokens.resize(static_cast<std::size_t>(maxTokens));
    }
    return tokens;
}

std::vector<std::string> modelTokens(const Seq2SeqModel& m, std::string_view text, bool target, int maxTokens,
                                     std::vector<Message>& warnings)
{
    std::vector<std::string> tokens = specTokens(m.spec, text, target, maxTokens, warnings);
    if (m.openVocabulary())
        return tokens;
    const std::vector<std::string>& vocab = target ? m.tgtVocab : m.srcVocab;
    for (auto& t : tokens) {
        if (indexIn(vocab, t) < 0) {
            warnings.push_back(messages::notInVocabulary(t, target ? "target" : "source"));
            t = "<unk>";
        }
    }
    return tokens;
}

void padSource(const Seq2SeqModel& model, std::vector<std::string>& source, int padTo, std::vector<Message>& warnings)
{
    if (padTo <= 0)
        return;
    if (static_cast<long long>(source.size()) > padTo) {
        warnings.push_back(messages::nothingPadded(static_cast<long long>(source.size()), padTo));
        return;
    }
    if (static_cast<int>(source.size()) < padTo && !model.openVocabulary() && indexIn(model.srcVocab, std::string(kPadToken)) < 0)
        throw Error(messages::noPadToken());
    source.resize(static_cast<std::size_t>(padTo), std::string(kPadToken));
}

std::vector<std::string> teacherForcingInput(const Seq2SeqModel& model, std::string_view target, int maxTokens,
                                             std::vector<Message>& warnings)
{
    std::vector<std::string> input{"<sos>"};
    const auto tokens = modelTokens(model, target, true, maxTokens, warnings);
    input.insert(input.end(), tokens.begin(), tokens.end());
    return input;
}

Trace computeModelTrace(std::shared_ptr<const Seq2SeqModel> model, const std::vector<std::string>& source,
                        const std::vector<std::string>& decoderInput, const Config& config)
{
    if (!model)
        throw std::invalid_argument("no model");
    const ModelSpec o = optionsFor(*model, config);
    Encoded enc = encode(*model, source, o, config.mask);
    if (model->spec.decoderLayers > 0)
        return decode(model, enc, decoderInput, o, config);
    Trace t;
    t.config = config;
    t.tokens = *enc.tokens;
    t.model = model;
    t.warnings = std::move(enc.warnings);
    t.stages = std::move(enc.stages);
    return t;
}

const AttentionWeights* attentionModule(const Seq2SeqModel& model, std::string_view module)
{
    const TransformerWeights& w = model.weights;
    for (std::size_t i = 0; i < w.encoder.size(); ++i) {
        if (module == "encoder.layers." + str(static_cast<long long>(i)) + ".self_attn")
            return &w.encoder[i].selfAttn;
    }
    for (std::size_t i = 0; i < w.decoder.size(); ++i) {
        const std::string p = "decoder.layers." + str(static_cast<long long>(i)) + ".";
        if (module == p + "self_attn")
            return &w.decoder[i].selfAttn;
        if (module == p + "multihead_attn")
            return &w.decoder[i].crossAttn;
    }
    return nullptr;
}

const LayerNormWeights* layerNormModule(const Seq2SeqModel& model, std::string_view module)
{
    const TransformerWeights& w = model.weights;
    if (module == "encoder.norm")
        return w.encoderNorm ? &*w.encoderNorm : nullptr;
    if (module == "decoder.norm")
        return w.decoderNorm ? &*w.decoderNorm : nullptr;
    for (std::size_t i = 0; i < w.encoder.size(); ++i) {
        const std::string p = "encoder.layers." + str(static_cast<long long>(i)) + ".";
        if (module == p + "norm1")
            return &w.encoder[i].norm1;
        if (module == p + "norm2")
            return &w.encoder[i].norm2;
    }
    for (std::size_t i = 0; i < w.decoder.size(); ++i) {
        const std::string p = "decoder.layers." + str(static_cast<long long>(i)) + ".";
        const LayerNormWeights* norms[3] = {&w.decoder[i].norm1, &w.decoder[i].norm2, &w.decoder[i].norm3};
        for (int k = 0; k < 3; ++k) {
            if (module == p + "norm" + str(k + 1))
                return norms[k];
        }
    }
    return nullptr;
}

Eigen::Index argmaxFirst(const Eigen::Ref<const Eigen::RowVectorXf>& row)
{
    Eigen::Index best = 0;
    for (Eigen::Index j = 1; j < row.size(); ++j) {
        if (row(j) > row(best))
            best = j;
    }
    return best;
}

/// What a generation needs to run one of its steps again.
struct GenerationState {
    std::shared_ptr<const Seq2SeqModel> model;
    Encoded encoded;
    ModelSpec spec;
    Config config;
};

std::shared_ptr<const Trace> Generation::step(std::size_t k) const
{
    if (k >= tokens.size())
        throw std::out_of_range("generation step " + std::to_string(k) + " of " + std::to_string(tokens.size()));
    if (k + 1 == tokens.size())
        return m_last;
    std::vector<std::string> input{"<sos>"};
    input.insert(input.end(), tokens.begin(), tokens.begin() + static_cast<std::ptrdiff_t>(k));
    const GenerationState& s = *m_state;
    return std::make_shared<const Trace>(decode(s.model, s.encoded, input, s.spec, s.config));
}

GreedyDecoder::GreedyDecoder(std::shared_ptr<const Seq2SeqModel> model, const std::vector<std::string>& source, const Config& config,
                             int maxSteps)
{
    if (!model)
        throw std::invalid_argument("no model");
    const Seq2SeqModel& m = *model;
    if (!m.hasHead() || m.openVocabulary() || m.spec.decoderLayers == 0)
        throw Error(messages::noOutputHead());
    auto state = std::make_shared<GenerationState>();
    state->spec = optionsFor(m, config);
    state->encoded = encode(m, source, state->spec, config.mask);
    state->config = config;
    state->model = std::move(model);
    m_generation.m_state = std::move(state);
    m_limit = maxSteps > 0 ? std::min(maxSteps, kMaxTargetLength) : m.spec.maxTargetLength;
    m_input = {"<sos>"};
}

void GreedyDecoder::step()
{
    if (finished())
        return;
    const GenerationState& s = *m_generation.m_state;
    auto trace = std::make_shared<const Trace>(decode(s.model, s.encoded, m_input, s.spec, s.config));
    // The next token: the largest logit of the last row (the first on a tie, as torch.argmax).
    const Eigen::MatrixXf& logits = trace->find("logits")->main().values;
    const Eigen::Index next = argmaxFirst(logits.row(logits.rows() - 1));
    const Eigen::MatrixXf& p = trace->find("probabilities")->main().values;
    const std::string& token = s.model->tgtVocab[static_cast<std::size_t>(next)];
    m_generation.tokens.push_back(token);
    m_generation.chosen.push_back(p(p.rows() - 1, next));
    m_generation.m_last = std::move(trace); // the step before is dropped here: step() makes it again
    if (token == "<eos>")
        m_generation.finished = true;
    else
        m_input.push_back(token);
}

Generation generate(std::shared_ptr<const Seq2SeqModel> model, const std::vector<std::string>& source, const Config& config,
                    int maxSteps, const std::function<void(int, int)>& progress)
{
    GreedyDecoder decoder(std::move(model), source, config, maxSteps);
    while (!decoder.finished()) {
        decoder.step();
        if (progress)
            progress(static_cast<int>(decoder.generation().size()), decoder.limit());
    }
    return decoder.generation();
}

} // namespace attnlab

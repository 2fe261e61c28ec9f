// BERT (model_type "bert"): encoder-only, Post-LN, word + position + token-type embeddings,
// WordPiece.
//
//   S = W_word[ids] + W_pos[0..n) + W_type[segments]  embedding, positional_encoding,
//   X = LN(S)                                          segment_embedding, embedding_sum, input
//   Post-LN layers encoder.layer.{i}, full self-attention     families/layer.cpp
//   T = LN(act(Y_L·W_tᵀ + b_t));  logits = T·W_wordᵀ + b      encoder_output, mlm_transform, logits, probabilities

#include "families/family.h"

#include "core/stage_builder.h"
#include "families/config_reader.h"
#include "families/tensor_names.h"
#include "pretrained/forward.h"

namespace attnlab {

namespace {

using L = PretrainedLimits;

void readWeights(const HfConfig& c, TensorNames& r, PretrainedWeights& w)
{
    const ModelFamily& f = modelFamily(PretrainedFamily::Bert);
    const std::int64_t d = c.dModel;
    w.tokens = r.table("embeddings.word_embeddings.weight", c.vocabulary, d);
    w.positions = r.table("embeddings.position_embeddings.weight", c.positions, d);
    w.tokenTypes = r.table("embeddings.token_type_embeddings.weight", c.typeVocabulary, d);
    w.embeddingNorm = r.norm("embeddings.LayerNorm", d);
    r.ignore("embeddings.position_ids");
    for (int i = 0; i < c.layers; ++i)
        w.layers.push_back(readLayer(r, f.layer, i, c, f.norm));
    // What a BertModel or BertForPreTraining also holds, and Attention Lab does not compute.
    for (const char* unused : {"pooler.dense.weight", "pooler.dense.bias", "cls.seq_relationship.weight", "cls.seq_relationship.bias"})
        r.ignore(unused);
    if (r.has("cls.predictions.bias") || r.has("cls.predictions.decoder.bias") || r.has("cls.predictions.transform.dense.weight")) {
        MlmTransform m;
        m.dense = r.linear("cls.predictions.transform.dense", d, d, false);
        m.norm = r.norm("cls.predictions.transform.LayerNorm", d);
        w.mlm = std::move(m);
        // The bias lives in cls.predictions.bias; older checkpoints name it decoder.bias too.
        w.headBias = r.vector(r.has("cls.predictions.bias") ? "cls.predictions.bias" : "cls.predictions.decoder.bias", c.vocabulary);
        r.ignore("cls.predictions.decoder.bias");
        w.head = r.has("cls.predictions.decoder.weight") ? r.table("cls.predictions.decoder.weight", c.vocabulary, d) : w.tokens;
    }
    r.rejectUnknown("a BERT checkpoint holds embeddings, encoder.layer.0 … encoder.layer." + std::to_string(c.layers - 1)
                    + ", pooler and cls (predictions, seq_relationship)");
}

/// embedding, positional_encoding, segment_embedding, embedding_sum and input (X = LN(S)); returns X.
Eigen::MatrixXf embeddingStages(const PretrainedWeights& w, const ModelSpec& spec, const PretrainedInput& in, const Labels& dims,
                                StageList& stages)
{
    using namespace detail;
    const auto n = static_cast<Eigen::Index>(in.ids.size());
    const Labels& tokens = in.tokens;
    const auto key = [&](const char* id) { return StageKey{id, std::nullopt, std::nullopt, Block::EncoderSelf}; };
    // embedding, positional_encoding, segment_embedding (n x d each): rows of the three tables.
    const std::vector<int> segments = in.segments.empty() ? std::vector<int>(in.ids.size(), 0) : in.segments;
    Eigen::MatrixXf e = gatherRows(w.tokens, in.ids);
    Eigen::MatrixXf p = w.positions.map().topRows(n);
    Eigen::MatrixXf s = gatherRows(w.tokenTypes, segments);
    // embedding_sum: S = E + P + T, in that order (as BERT adds them);  input: X = LN(S).
    Eigen::MatrixXf sum = e + s;
    sum += p;
    LayerNormResult x = layerNorm(sum, w.embeddingNorm, spec.layerNormEps);
    putMatrix(addStage(stages, key("embedding"), "Token embeddings", "E = W_word[tokens]", {}, "embeddings.word_embeddings"), "E",
              std::move(e), tokens, dims);
    putMatrix(addStage(stages, key("positional_encoding"), "Position embeddings", "P = W_pos[0 … n−1]", {},
                       "embeddings.position_embeddings"),
              "P", std::move(p), tokens, dims);
    putMatrix(addStage(stages, key("segment_embedding"), "Segment embeddings", "T = W_type[segments]", {},
                       "embeddings.token_type_embeddings"),
              "T", std::move(s), tokens, dims);
    putMatrix(addStage(stages, key("embedding_sum"), "Sum of the embeddings", "S = E + P + T",
                       {key("embedding"), key("positional_encoding"), key("segment_embedding")}),
              "S", sum, tokens, dims);
    Stage& input = addStage(stages, key("input"), "Layer input", "X = LN(S)", {key("embedding_sum")}, "embeddings.LayerNorm");
    putMatrix(input, "X", x.output, tokens, dims);
    putNormStatistics(input, x.mean, x.variance, tokens);
    return std::move(x.output);
}

void pass(const PretrainedWeights& w, const ModelSpec& spec, const PretrainedInput& in, const Labels& vocabulary, StageList& stages,
          std::vector<Message>& warnings)
{
    using namespace detail;
    const Block block = Block::EncoderSelf;
    const Labels& tokens = in.tokens;
    const Labels dims = numberedLabels(spec.dModel);
    reserveMore(stages, 10 + static_cast<std::size_t>(w.layers.size()) * (12 + 8 * static_cast<std::size_t>(spec.heads)));
    Eigen::MatrixXf h = embeddingStages(w, spec, in, dims, stages);
    const int layers = static_cast<int>(w.layers.size());
    for (int i = 0; i < layers; ++i)
        h = pretrainedLayer(w, spec, i, h, tokens, stages, warnings);
    addRollout(layers, spec.heads, block, tokens, stages);

    // encoder_output: the last layer's output (BERT has no final norm).
    const StageKey last{"layer_output", std::nullopt, layers - 1, block};
    const Eigen::MatrixXf out = stackOutput("encoder_output", "Encoder output", "Mem", h, last, nullptr, spec.layerNormEps, {}, tokens,
                                            dims, stages);
    if (!w.mlm)
        return;
    // mlm_transform: T (n x d) = LN(act(Mem·W_tᵀ + b_t));  logits = T·W_wordᵀ + b (the decoder, tied).
    const LayerNormResult t = layerNorm(activate(spec.activation, w.mlm->dense.apply(out)), w.mlm->norm, spec.layerNormEps);
    Stage& transform = addStage(stages, {"mlm_transform"}, "Masked-LM transform",
                                std::string("T = LN(") + activationName(spec.activation) + "(Mem·W_tᵀ + b_t))", {{"encoder_output"}},
                                "cls.predictions.transform");
    putMatrix(transform, "T", t.output, tokens, dims);
    putNormStatistics(transform, t.mean, t.variance, tokens);
    addHeadStages(w, t.output, tokens, vocabulary, stages);
}

} // namespace

extern const ModelFamily kBertFamily{
    .id = PretrainedFamily::Bert,
    .modelType = "bert",
    .title = "BERT",
    .architecture = Architecture::EncoderStack,
    .norm = NormPlacement::Post,
    .finalNorm = false,
    .tokenizer = ModelTokenizer::WordPiece,
    .tokenizerFiles = {"vocab.txt"},
    .optionalFiles = {"tokenizer_config.json"},
    .task = FamilyTask::FillMask,
    .tensorPrefix = "bert.",
    .config = {.integers = {{"hidden_size", &HfConfig::dModel, 1, L::maxDModel},
                            {"num_attention_heads", &HfConfig::heads, 1, L::maxHeads},
                            {"num_hidden_layers", &HfConfig::layers, 1, L::maxLayers},
                            {"intermediate_size", &HfConfig::dFF, 1, ConfigLimits::maxDFF},
                            {"max_position_embeddings", &HfConfig::positions, 1, L::maxPositions},
                            {"type_vocab_size", &HfConfig::typeVocabulary, 1, 16},
                            {"vocab_size", &HfConfig::vocabulary, 1, L::maxVocabulary}},
               .epsilon = "layer_norm_eps",
               .activation = "hidden_act",
               .expectations = {{"position_embedding_type", "\"absolute\"", "Attention Lab computes absolute position embeddings"},
                                {"is_decoder", "false", "Attention Lab opens BERT as an encoder"}}},
    .layer = {.layerPrefix = "encoder.layer.",
              .qkv = "",
              .q = "attention.self.query",
              .k = "attention.self.key",
              .v = "attention.self.value",
              .attentionOutput = "attention.output.dense",
              .attentionModule = "attention.self",
              .norm1 = "attention.output.LayerNorm",
              .norm2 = "output.LayerNorm",
              .up = "intermediate.dense",
              .down = "output.dense",
              .inOut = false},
    .outerStages = {{"embedding", false, false},
                    {"positional_encoding", false, false},
                    {"segment_embedding", false, false},
                    {"embedding_sum", false, false},
                    {"input", true, false},
                    {"encoder_output", false, false},
                    {"mlm_transform", true, true}},
    .stackOutput = "encoder_output",
    .headInput = "mlm_transform",
    .headFormula = "logits = T·W_wordᵀ + b",
    .headModule = "cls.predictions",
    .readConfig = nullptr,
    .readWeights = readWeights,
    .pass = pass,
};

} // namespace attnlab

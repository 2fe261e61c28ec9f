#pragma once
/// One pass of a pretrained model, stage by stage (each family's pass: engine/families/) (docs/pretrained-models.md). Stage ids
/// are the Transformer's (docs/transformer-layers.md): GPT-2's layers are in block decoder_self,
/// BERT's in encoder_self, and so are their embeddings' stages.
///
///   GPT-2   X = W_te[ids] + W_pe[0..n)                      embedding, positional_encoding, input
///           Pre-LN layers, causal self-attention, GELU_tanh  h.{i}
///           Out = LN_f(Y_L);  logits = Out·W_teᵀ             decoder_output, logits, probabilities
///   BERT    S = W_word[ids] + W_pos[0..n) + W_type[segments]  embedding, positional_encoding,
///           X = LN(S)                                          segment_embedding, embedding_sum, input
///           Post-LN layers, full self-attention, GELU          encoder.layer.{i}
///           T = LN(GELU(Y_L·W_tᵀ + b_t));  logits = T·W_wordᵀ + b   encoder_output, mlm_transform, logits, probabilities

#include "pretrained/weights.h"

#include <string>
#include <vector>

namespace attnlab {

/// What one pass reads: vocabulary ids, BERT's segment ids, and the labels of the rows.
struct PretrainedInput {
    std::vector<int> ids;
    std::vector<int> segments; ///< BERT: one per token (0 or 1); empty means all 0
    Labels tokens;             ///< one per token
};

/// Appends every stage of one pass to `stages`; `spec` is the model's (its scaleScores is the
/// run's).
/// Throws std::invalid_argument for no tokens, more than the model's positions, an id outside
/// the vocabulary or a segment outside its token types.
void pretrainedPass(const PretrainedWeights& w, const ModelSpec& spec, const PretrainedInput& in, const Labels& vocabulary,
                    StageList& stages, std::vector<Message>& warnings);

namespace detail {
/// Layer i of any family on its input x (n x d), with the family's mask: what a pass computes
/// for that layer, stage for stage (families/layer.cpp).
Eigen::MatrixXf pretrainedLayer(const PretrainedWeights& w, const ModelSpec& spec, int i, const Eigen::MatrixXf& x, const Labels& tokens,
                                StageList& stages, std::vector<Message>& warnings);
/// The rollout stage (n x n) from the `weights` stages of `layers` layers of `heads` heads in
/// `block` held by `stages` (skipped when they are not kept).
void addRollout(int layers, int heads, Block block, const Labels& tokens, StageList& stages);
/// The probabilities stage: P = softmax of each row of the logits.
void addProbabilities(const Eigen::MatrixXf& logits, const Labels& rows, const Labels& vocabulary, StageList& stages);
/// Rows `ids` of a table (n x d).
Eigen::MatrixXf gatherRows(const EmbeddingTable& table, const std::vector<int>& ids);
/// The output head's stages: logits = X·Tᵀ (+ b) and their row softmax, X the family's head input
/// (GPT-2: ln_f's output, T = W_te; BERT: the MLM transform, T = W_word, + the decoder's bias).
/// Neither is computed when `stages` keeps neither.
void addHeadStages(const PretrainedWeights& w, const Eigen::MatrixXf& x, const Labels& rows, const Labels& vocabulary, StageList& stages);
} // namespace detail

} // namespace attnlab

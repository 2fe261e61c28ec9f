#pragma once
/// The weights of a pretrained checkpoint (families/family.h), as they lie in its memory-mapped model.safetensors
/// (io/mapped_safetensors.h): large matrices are views of the file, not copies; only the small
/// vectors (biases, LayerNorms) are copied. Names follow Hugging Face's (docs/pretrained-models.md).

#include "io/mapped_safetensors.h"
#include "nn/transformer.h"
#include "pretrained/hf_config.h"

#include <Eigen/Core>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

using RowMatrixMap = Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

/// x (n x d) · Tᵀ for a table T [rows, d] lying row by row (an nn.Linear weight, the output
/// head's embeddings): one GEMM on the mapped table, its output columns split among the compute
/// threads (core/compute_threads.h); the same numbers on any number of threads.
Eigen::MatrixXf timesTransposed(const Eigen::Ref<const Eigen::MatrixXf>& x, const RowMatrixMap& table);

/// A linear layer y = x·Wᵀ + b with W (out x in) as nn.Linear stores it ([out, in], BERT), or
/// as GPT-2's Conv1D stores it ([in, out], y = x·W + b with that matrix): either way a view.
struct LinearLayer {
    FloatSpan weight;
    bool inOut = false; ///< stored [in, out] (Conv1D)
    Eigen::VectorXf bias; ///< (out); empty: none
    Eigen::Index in = 0;
    Eigen::Index out = 0;

    /// The stored matrix as it lies: [out, in], or [in, out] for Conv1D.
    RowMatrixMap stored() const
    {
        return inOut ? RowMatrixMap(weight.data, in, out) : RowMatrixMap(weight.data, out, in);
    }
    /// x (n x in) -> x·Wᵀ + b (n x out), one GEMM on the mapped weights.
    Eigen::MatrixXf apply(const Eigen::Ref<const Eigen::MatrixXf>& x) const;
    /// W(o, i) as nn.Linear indexes it.
    float at(Eigen::Index o, Eigen::Index i) const { return inOut ? weight.data[i * out + o] : weight.data[o * in + i]; }
};

/// A table of rows (embeddings): [rows, d].
struct EmbeddingTable {
    FloatSpan values;
    Eigen::Index rows = 0;
    Eigen::Index cols = 0;
    RowMatrixMap map() const { return RowMatrixMap(values.data, rows, cols); }
};

/// The attention projections of one layer: Q, K, V from one fused matrix (GPT-2's attn.c_attn,
/// Q | K | V side by side) or from three (BERT's query, key, value), and the output projection.
struct AttentionProjections {
    std::optional<LinearLayer> qkv; ///< fused: [d, 3d]
    LinearLayer q, k, v;            ///< when not fused
    LinearLayer output;             ///< O = C·W_Oᵀ + b_O
};

/// One layer of a pretrained model, whatever its family: the two norms (around or before their
/// sublayers, as the family's NormPlacement says), self-attention and the feed-forward network
/// (H = act(X·W_upᵀ + b_up), F = H·W_downᵀ + b_down).
struct PretrainedLayer {
    LayerNormWeights norm1, norm2; ///< a gated decoder's RMSNorms: γ only
    AttentionProjections attention;
    LinearLayer up, down;
    LinearLayer gate;              ///< a gated decoder's W_gate: F = (SiLU(X·W_gateᵀ) ⊙ X·W_upᵀ)·W_downᵀ
    Eigen::VectorXf qNorm, kNorm;  ///< Qwen3's γ of the per-head q and k RMSNorms (head_dim each)
    /// Gemma 3's norms of the attention's output and of the FFN's output, before their residual
    /// adds (post_attention_layernorm, post_feedforward_layernorm); empty γ: none.
    LayerNormWeights attentionOutputNorm, ffnOutputNorm;
};

/// BERT's masked-LM transform, cls.predictions.transform: dense -> act -> LayerNorm.
struct MlmTransform {
    LinearLayer dense;
    LayerNormWeights norm;
};

struct PretrainedWeights {
    HfConfig config;
    /// The mapped files: model.safetensors, or every shard of model.safetensors.index.json.
    std::vector<std::shared_ptr<const MappedSafetensors>> files;
    EmbeddingTable tokens;    ///< wte / embeddings.word_embeddings
    EmbeddingTable positions; ///< wpe / embeddings.position_embeddings
    EmbeddingTable tokenTypes; ///< BERT's embeddings.token_type_embeddings
    LayerNormWeights embeddingNorm; ///< BERT's embeddings.LayerNorm
    std::vector<PretrainedLayer> layers;
    LayerNormWeights finalNorm; ///< GPT-2's ln_f
    std::optional<MlmTransform> mlm; ///< BERT's head's transform, when the folder has a head
    /// The output head's matrix (V x d), when the folder has a head: GPT-2's lm_head.weight (or
    /// wte, tied), BERT's cls.predictions.decoder.weight (or the word embeddings, tied).
    std::optional<EmbeddingTable> head;
    Eigen::VectorXf headBias; ///< BERT's cls.predictions.bias (V); empty: none

    /// The output head's matrix, or nullptr when the folder has none.
    const EmbeddingTable* outputTable() const { return head ? &*head : nullptr; }
};

/// Reads the weights the config describes from `file`, names with or without the family's
/// prefix ("transformer.", "bert."), the buffers and heads the issue lists ignored. Throws
/// FormatError for the first missing, mis-shaped or unknown tensor (named without its prefix)
/// or one that is not F32, F16 or BF16.
PretrainedWeights readPretrainedWeights(const HfConfig& config, std::shared_ptr<const MappedSafetensors> file);
/// The same from the shards of one checkpoint (a name in two of them is refused).
PretrainedWeights readPretrainedWeights(const HfConfig& config, std::vector<std::shared_ptr<const MappedSafetensors>> files);

} // namespace attnlab

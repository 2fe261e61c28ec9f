#pragma once
/// The weights of a GPT-2 or BERT checkpoint, as they lie in its memory-mapped model.safetensors
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

/// A linear layer y = x·Wᵀ + b with W (out x in) as nn.Linear stores it ([out, in], BERT), or
/// as GPT-2's Conv1D stores it ([in, out], y = x·W + b with that matrix): either way a view.
struct LinearLayer {
    FloatSpan weight;
    bool inOut = false; ///< stored [in, out] (Conv1D)
    Eigen::VectorXf bias; ///< (out)
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

/// One GPT-2 block, h.{i}: ln_1 -> attn (c_attn, c_proj) -> ln_2 -> mlp (c_fc, c_proj).
struct Gpt2Layer {
    LayerNormWeights ln1, ln2;
    LinearLayer attention;  ///< attn.c_attn: [d, 3d], Q | K | V
    LinearLayer projection; ///< attn.c_proj: [d, d]
    LinearLayer fc;         ///< mlp.c_fc: [d, d_ff]
    LinearLayer fcProjection; ///< mlp.c_proj: [d_ff, d]
};

/// One BERT layer, encoder.layer.{i}: attention.self.{query,key,value}, attention.output.dense
/// and LayerNorm, intermediate.dense, output.dense and LayerNorm.
struct BertLayer {
    LinearLayer query, key, value, attentionOutput;
    LayerNormWeights attentionNorm;
    LinearLayer intermediate, output;
    LayerNormWeights outputNorm;
};

/// BERT's masked-LM head, cls.predictions: transform.dense -> act -> transform.LayerNorm ->
/// decoder (the word embeddings, tied) + bias.
struct MlmHead {
    LinearLayer transform;
    LayerNormWeights norm;
    EmbeddingTable decoder; ///< cls.predictions.decoder.weight when the file has it, else the word embeddings
    Eigen::VectorXf bias;   ///< cls.predictions.bias (V)
};

struct PretrainedWeights {
    HfConfig config;
    std::shared_ptr<const MappedSafetensors> file;
    EmbeddingTable tokens;    ///< wte / embeddings.word_embeddings
    EmbeddingTable positions; ///< wpe / embeddings.position_embeddings
    EmbeddingTable tokenTypes; ///< BERT's embeddings.token_type_embeddings
    LayerNormWeights embeddingNorm; ///< BERT's embeddings.LayerNorm
    std::vector<Gpt2Layer> gpt2;
    std::vector<BertLayer> bert;
    LayerNormWeights finalNorm; ///< GPT-2's ln_f
    std::optional<EmbeddingTable> lmHead; ///< GPT-2's lm_head.weight when the file has it (else wte, tied)
    std::optional<MlmHead> mlm; ///< BERT's head, when the folder has it (BertForMaskedLM)

    /// The language-model head's matrix (V x d): GPT-2's (tied or its own), BERT's decoder.
    const EmbeddingTable* outputTable() const;
};

/// Reads the weights the config describes from `file`, names with or without the family's
/// prefix ("transformer.", "bert."), the buffers and heads the issue lists ignored. Throws
/// FormatError for the first missing, mis-shaped or unknown tensor (named without its prefix)
/// or one that is not F32, F16 or BF16.
PretrainedWeights readPretrainedWeights(const HfConfig& config, std::shared_ptr<const MappedSafetensors> file);

} // namespace attnlab

#pragma once
/// Where one number of a trace came from, taken apart for the cell inspector (docs/engine.md,
/// section 6). Each function reads only the trace's stages (the single attention block a Trace
/// holds, or the block the Session shows), recomputes the number from its inputs in double, and
/// keeps the trace's own value beside the recomputation. A function returns nothing when a stage
/// it needs is missing or the cell lies outside it (a stale selection): the inspector then shows
/// the value alone.

#include "core/trace.h"
#include "nn/softmax.h"

#include <optional>
#include <string_view>
#include <vector>

namespace attnlab {

/// A score S[i, j] and what follows from it, for one head:
///   S = q_i·k_j = Σ_d q_i[d]·k_j[d],  S′ = S / √d_k (or S),  S″ = S′ + M[i, j],  A[i, j].
struct ScoreExplanation {
    std::vector<double> q;        ///< q_i[d]                            (d_k)
    std::vector<double> k;        ///< k_j[d]                            (d_k)
    std::vector<double> products; ///< q_i[d]·k_j[d]                     (d_k)
    Labels dims;                  ///< the dimensions' labels (Q's column labels; may be null)
    double sum = 0;               ///< Σ_d products, added in order: S recomputed
    /// Relative positions' P[i, j] = q_i·a^K_clip(j−i), part of S before the scaling: S = Σ + P;
    /// Transformer-XL's (b) + (c) + (d) (xlTerms true); none for the other schemes.
    std::optional<double> positionScore;
    bool xlTerms = false;
    double score = 0;             ///< S[i, j] from the trace
    bool scaling = true;          ///< the trace's config.scaleScores
    double root = 1;              ///< √d_k, or √query_pre_attn_scalar (rootOfScalar)
    bool rootOfScalar = false;    ///< Gemma 3: the scores are divided by √query_pre_attn_scalar
    /// Grouped-query attention (the modern decoders): the key/value head whose keys the query
    /// head compared with, and every query head that shares it (ascending); none elsewhere.
    std::optional<int> kvHead;
    std::vector<int> sharingHeads;
    double scaled = 0;            ///< S′[i, j] from the trace
    std::optional<double> bias;   ///< ALiBi's B[i, j], added before the mask; none without ALiBi
    double mask = 0;              ///< M[i, j]: 0, or −∞ when key j is hidden from query i
    bool hidden = false;          ///< M[i, j] = −∞
    double masked = 0;            ///< S″[i, j] from the trace
    double weight = 0;            ///< A[i, j] from the trace
};

/// Needs the stages q, k (q_rotated, k_rotated when RoPE turned them), scores, scaled, masked_scores, weights of `head` and mask (the block's,
/// or the head's: lsh's). In grouped-query attention k (k_rotated) is that of the key/value head
/// the scores name (Stage::kvHead), not of the key/value head numbered `head`.
std::optional<ScoreExplanation> explainScore(const Trace& t, int head, int i, int j);

/// Row i of the weights: A[i, :] = softmax(S″[i, :]), recomputed with its parts.
struct WeightsRowExplanation {
    std::vector<double> scores;   ///< S″[i, j], −∞ for a masked key      (n)
    SoftmaxRow softmax;           ///< max, exp(S″ − max), their sum and the recomputed weights
    std::vector<double> weights;  ///< A[i, j] from the trace            (n)
    double sumWeights = 0;        ///< Σ_j A[i, j] (trace), added in order: 1 up to rounding
    std::vector<int> maskedKeys;  ///< the keys j whose S″[i, j] is not finite
    bool allMasked = false;       ///< every key masked: the weights are all 0
    int largest = 0;              ///< the key with the largest A[i, j] (the first of equals)
    bool scaling = true;          ///< the trace's config.scaleScores
    double root = 1;              ///< √d_k, or √query_pre_attn_scalar (rootOfScalar)
    bool rootOfScalar = false;    ///< Gemma 3: the scores were divided by √query_pre_attn_scalar
};

/// Needs the stages masked_scores and weights of `head`.
std::optional<WeightsRowExplanation> explainWeightsRow(const Trace& t, int head, int i);

/// A head's output Z[i, c] = Σ_j A[i, j]·V[j, c] (relative positions: V[j, c] + a^V_clip(j−i)[c]).
struct HeadOutputExplanation {
    std::vector<double> weights;  ///< A[i, j]                           (n)
    std::vector<double> values;   ///< V[j, c], plus a^V_clip(j−i)[c] with relative positions (n)
    bool relative = false;        ///< the values include relative positions' a^V
    std::vector<double> terms;    ///< A[i, j]·V[j, c]                   (n)
    Labels dims;                  ///< Z's column labels (may be null)
    double sum = 0;               ///< Σ_j terms, added in order: Z recomputed
    double output = 0;            ///< Z[i, c] from the trace
    int largest = 0;              ///< the key whose term is largest in size (the first of equals)
    double largestTerm = 0;       ///< its term; 0 when every term is 0
    int zeroWeights = 0;          ///< keys with A[i, j] = 0 (masked, or vanishing)
};

/// Needs the stages weights, v (linformer: v_projected) and head_output of `head`, and
/// relative_values when the block has relative positions.
std::optional<HeadOutputExplanation> explainHeadOutput(const Trace& t, int head, int i, int c);

/// A projection Q[i, c] (K, V) of head h: Σ_d X[i, d]·W[r, d] + b[r], r = h·d_k + c, where W is
/// block p (0 Q, 1 K, 2 V) of in_proj_weight, so its row is p·d_model + r. Keys and values project
/// the stage key_input when there is one (cross-attention: the encoder output), else input.
struct ProjectionExplanation {
    struct Term {
        int dim = 0;              ///< d
        double x = 0;             ///< X[i, d]
        double w = 0;             ///< W[r, d]
        double product = 0;       ///< X[i, d]·W[r, d]
    };
    int block = 0;                ///< p: 0 for q, 1 for k, 2 for v
    int weightRow = 0;            ///< r = h·d_k + c, the row of W_Q (W_K, W_V)
    int inProjRow = 0;            ///< p·d_model + r, the row of in_proj_weight
    int inputWidth = 0;           ///< the number of terms, d_model
    Labels inputDims;             ///< the input's column labels (may be null)
    Labels outputDims;            ///< the projection's column labels (may be null)
    std::vector<Term> listed;     ///< the largest terms by size, largest first (stable on ties)
    double omitted = 0;           ///< the sum of the terms not listed, in order of size
    double bias = 0;              ///< b[r]
    double sum = 0;               ///< b + every term in order of size: the projection recomputed
    double output = 0;            ///< Q[i, c] (K, V) from the trace
};

/// `id` is "q", "k" or "v"; lists at most `maxTerms` terms. Needs the stage id of `head`, the
/// input it projects and the trace's weights.
std::optional<ProjectionExplanation> explainProjection(const Trace& t, std::string_view id, int head, int i, int c,
                                                       int maxTerms);

} // namespace attnlab

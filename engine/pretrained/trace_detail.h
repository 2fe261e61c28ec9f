#pragma once
/// How much of a pretrained model's pass a trace keeps (docs/pretrained-models.md, "Memory").
///
/// A full trace of GPT-2 small on 1024 tokens would hold 3.3 GB: every layer's n × n scores,
/// scaled scores, masked scores and weights for each of its 12 heads, and n × 50257 logits and
/// probabilities. A compact trace keeps what is looked at across layers — every layer's attention
/// weights (the Model view's grid) and output (where the next layer starts), the embeddings and the
/// stack's output — and makes the rest of one layer again when that layer is shown (blockStages),
/// from the layer's input, with the very code of the pass: the same numbers to the bit; the
/// output head's logits and probabilities likewise, from the stack's output.

#include "core/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

struct ModelSpec;

enum class TraceDetail {
    Auto,    ///< compact above kCompactAboveBytes, full below
    Full,    ///< every stage kept
    Compact, ///< what is looked at across layers kept; the rest made again on demand
};

struct TraceKeep {
    TraceDetail detail = TraceDetail::Auto;
    /// Keep only the stages with these ids (`trace --stages`); empty: see detail. What is not
    /// kept then cannot be made again.
    std::vector<std::string> only;
    /// Make the output head's logits and probabilities only when they are shown (blockStages),
    /// as a compact trace does, whatever the size: the studio's keystrokes then skip the n x V
    /// product over the vocabulary (a seventh of GPT-2 small's pass at n = 16).
    bool deferHead = false;
};

/// Above this estimate of a full trace, TraceDetail::Auto keeps a compact one.
inline constexpr std::int64_t kCompactAboveBytes = 512LL << 20;

/// The bytes of the stage matrices a pass of `spec` (a GPT-2's or a BERT's) keeps on n tokens with
/// an output head of `vocabulary` rows (0: none), with `options` (Auto resolved by the size).
std::int64_t pretrainedTraceBytes(const ModelSpec& spec, std::int64_t n, std::int64_t vocabulary, const TraceKeep& options);

/// True when a pass that keeps a full trace would hold more than kCompactAboveBytes.
bool isCompact(const ModelSpec& spec, std::int64_t n, std::int64_t vocabulary, const TraceKeep& options);

/// Sets `stages` to keep what a pass is asked to keep: `only` those ids, or a compact trace, or
/// every stage but the output head (`deferHead`), or everything.
void keepStages(StageList& stages, bool compact, const std::vector<std::string>& only, bool deferHead = false);

/// The stages of `full` in one layer and block (or, with no layer, those of that block outside
/// the layers: Block::None holds the output head), in the order of the pass: the kept ones
/// shared, the dropped ones of a compact trace made again. For any trace.
/// Throws std::invalid_argument when a dropped stage cannot be made again (a `--stages` trace).
StageList blockStages(const Trace& full, std::optional<int> layer, Block block);

} // namespace attnlab

#pragma once
/// Looking at a model while it trains (docs/training.md): the pass of one pair as the studio
/// computes it, and how much of its cross-attention lies on the anti-diagonal (the alignment of
/// a reversal).

#include "core/trace.h"
#include "model/model.h"
#include "train/tasks.h"

#include <memory>
#include <vector>

namespace attnlab::train {

/// The teacher-forced pass of `model` on `pair` (decoder input <sos> + target), every stage, as
/// the studio computes it. Throws std::invalid_argument as computeModelTrace.
Trace teacherForcedTrace(const std::shared_ptr<const Seq2SeqModel>& model, const Pair& pair);

/// The mean cross-attention weight on the anti-diagonal in the last decoder layer: decoder row i
/// (the position that writes output character i) on source column n − 1 − i, for rows 0 … n − 1
/// (row n predicts <eos> and has nothing to copy), averaged over the rows, the heads and `pairs`
/// (teacher forcing on each pair's own target). Uniform weights give 1/n; a perfect reversal
/// alignment gives 1. Pairs whose source and target lengths differ are skipped; 0 when none is left.
double antiDiagonalWeight(const std::shared_ptr<const Seq2SeqModel>& model, const std::vector<Pair>& pairs);

} // namespace attnlab::train

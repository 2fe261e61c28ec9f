#pragma once
// The texts of the attention kinds' steps (issue 13, docs/attention-kinds.md): the names of
// their own stages (projection_e, q_features, buckets, error, ...) and the formulas and
// explanations of the stages they compute differently from full attention (linformer's scores
// are n × K, performer's weights are implied, lsh's keys are its normalised queries). stages.h's
// functions ask these first; an empty answer means full attention's text holds.

#include "core/model_spec.h"

#include <QString>

namespace attnlab {

/// The kind's name in the interface's language ("sliding window (Longformer)").
QString attentionKindName(AttentionKind kind);
/// Short name for the navigator ("Random features Ω"), translated; empty for other ids.
QString kindStepName(const QString& id);
/// The formula banner's text for `id` under `kind`; empty when full attention's holds.
QString kindStepFormula(const QString& id, AttentionKind kind, bool scaled);
/// What the stage does and why under `kind`, translated; empty when full attention's text holds.
QString kindStepExplanation(const QString& id, AttentionKind kind);

} // namespace attnlab

#pragma once
// The texts of the position schemes' steps (issue 14, docs/position-schemes.md): the names of
// RoPE's, ALiBi's, relative positions' and Transformer-XL's own stages, and the formulas and
// explanations of the stages they compute differently. stages.h's functions ask these first; an
// empty answer means the usual text holds.

#include "core/model_spec.h"

#include <QString>

namespace attnlab {

/// True for the stages of the schemes inside attention (rope_angles, q_rotated, k_rotated,
/// position_bias, relative_keys, relative_values, position_scores), whatever the scheme.
bool isSchemeStage(const QString& id);
/// Short name for the navigator ("Rotation angles θ"), translated; empty for other ids.
QString positionStepName(const QString& id);
/// The formula banner's text for `id` under `spec`'s position scheme; empty when the usual holds.
QString positionStepFormula(const QString& id, const ModelSpec& spec);
/// What the stage does and why under scheme `pe`, translated; empty when the usual text holds.
QString positionStepExplanation(const QString& id, PositionalEncoding pe);

} // namespace attnlab

#pragma once
/// Internal to the engine (not included by the UI): appending stages with their labelled
/// matrices, shared by the attention block and the encoder/decoder layers.

#include "core/trace.h"

#include <Eigen/Core>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab::detail {

/// "d1", "d2", ..., "d{count}" (with another prefix: "f1", ...): labels of feature columns,
/// counted from 1 as people count (indices in JSON stay 0-based).
Labels numberedLabels(int count, std::string_view prefix = "d");

/// Appends an empty stage with this key, title, formula, inputs and module; its matrices are
/// added with putMatrix.
Stage& addStage(StageList& stages, StageKey key, std::string title, std::string formula, std::vector<StageKey> inputs = {},
                std::string module = {});

/// Appends a labelled matrix to `stage` (the first one put is the stage's main matrix).
void putMatrix(Stage& stage, std::string name, Eigen::MatrixXf values, Labels rows, Labels cols);

/// Appends a LayerNorm's statistics to `stage` after its output: "mean" and "variance" (n x 1)
/// of the LayerNorm's input rows.
void putNormStatistics(Stage& stage, const Eigen::VectorXf& mean, const Eigen::VectorXf& variance, const Labels& rows);

/// Makes room for `more` stages without giving up geometric growth (a stack of layers reserves
/// once per block; exact reservations would reallocate every time).
void reserveMore(StageList& stages, std::size_t more);

} // namespace attnlab::detail

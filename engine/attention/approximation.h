#pragma once
/// How far an attention kind's output is from full softmax attention's (docs/attention-kinds.md).

#include "core/trace.h"

#include <Eigen/Core>

#include <optional>
#include <vector>

namespace attnlab {

struct Approximation {
    std::optional<int> layer; ///< the block's layer (none for a single attention block)
    Block block = Block::None;
    double outputMaxAbs = 0;  ///< max_ij |O_ij − O^full_ij|
    double outputRelFro = 0;  ///< ‖O − O^full‖_F / ‖O^full‖_F (0 when O^full is 0)
};

/// The two numbers for an output and full attention's output on the same input.
Approximation compareOutputs(const Eigen::MatrixXf& output, const Eigen::MatrixXf& full);

/// One per attention block of `trace` that has a reference_output stage, in the trace's order.
std::vector<Approximation> approximations(const Trace& trace);

} // namespace attnlab

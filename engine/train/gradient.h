#pragma once
/// The gradient of the mean token cross-entropy of a batch with respect to every parameter of
/// a model, in double precision: what `attention-lab-cli grad` writes (docs/training.md).

#include "io/safetensors.h"
#include "train/network.h"

#include <vector>

namespace attnlab::train {

struct Gradient {
    Layout layout;        ///< the model's tensors, in its file's order
    Vec<double> values;   ///< d L / d θ, in the layout
    double loss = 0;      ///< L = Σ_tokens loss / N
    std::size_t labelTokens = 0; ///< N
};

/// L and d L / d θ for `examples` as one batch (label smoothing ε = `smoothing`), computed in
/// double from the model's float32 weights. Throws std::invalid_argument for a model that cannot
/// be trained (layoutOf) or no examples.
Gradient gradientOf(const Seq2SeqModel& model, const std::vector<Example>& examples, double smoothing = 0);

/// The gradient as a safetensors file: one F32 tensor per model tensor, under its name and in
/// its shape; metadata format "attention-lab-gradients/1", loss, label_tokens and model.
TensorFile gradientTensors(const Gradient& gradient, const std::string& modelName);

} // namespace attnlab::train

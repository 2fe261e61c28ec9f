#pragma once
/// The trainable tensors of a model, by their names in the model file (docs/model-format.md):
/// what modelToTensors writes, what a gradient file holds, what the trainer (train/) updates.

#include "model/model.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace attnlab {

/// One tensor of a model: its file name, and where its values live (Eigen's column-major
/// storage of the model's matrix or vector, which the model keeps owning).
struct ParameterRef {
    std::string name;      ///< "encoder.layers.0.self_attn.in_proj_weight"
    float* data = nullptr; ///< rows·cols values, column-major
    Eigen::Index rows = 0;
    Eigen::Index cols = 0; ///< 1 for a vector
    bool vector = false;   ///< a 1-D tensor (a bias, γ, β)

    Eigen::Index size() const { return rows * cols; }
};

/// Every tensor of `model` in the model file's order, except the optional ones its file did not
/// have (Seq2SeqModel::absent): the encoder layers, the decoder layers, the final norms, then the
/// embeddings and the output head. An open vocabulary has no embedding or head tensors. The
/// pointers stay valid while the model's matrices are not resized.
std::vector<ParameterRef> modelParameters(Seq2SeqModel& model);

/// The number of values in all of them.
Eigen::Index parameterCount(const std::vector<ParameterRef>& parameters);

} // namespace attnlab

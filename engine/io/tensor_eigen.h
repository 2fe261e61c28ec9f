#pragma once
/// Internal to the engine: the helpers every weight loader shares to read a safetensors
/// TensorFile into Eigen (and back), with the shape checks and the error messages they give.

#include "io/safetensors.h"

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab::detail {

/// "[3, 4]".
std::string shapeText(const std::vector<std::int64_t>& shape);

/// The tensor called `name`, or nullptr.
const Tensor* findTensor(const TensorFile& file, const std::string& name);

/// Throws FormatError "tensor 'name' has shape [..] but must be [..]" unless t has `shape`.
void expectShape(const std::string& name, const Tensor& t, const std::vector<std::int64_t>& shape);

/// A 2-D tensor as a matrix (safetensors is row-major, Eigen column-major).
Eigen::MatrixXf toMatrix(const Tensor& t);
/// A 1-D tensor as a vector.
Eigen::VectorXf toVector(const Tensor& t);

/// F32 tensors of a matrix (row-major) and of a vector.
Tensor fromMatrix(const Eigen::MatrixXf& m);
Tensor fromVector(const Eigen::VectorXf& v);

} // namespace attnlab::detail

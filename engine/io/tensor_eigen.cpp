#include "io/tensor_eigen.h"

#include "io/messages.h"
#include "text/printable.h"

namespace attnlab::detail {

std::string shapeText(const std::vector<std::int64_t>& shape)
{
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

const Tensor* findTensor(const TensorFile& file, const std::string& name)
{
    const auto it = file.tensors.find(name);
    return it == file.tensors.end() ? nullptr : &it->second;
}

void expectShape(const std::string& name, const Tensor& t, const std::vector<std::int64_t>& shape)
{
    if (t.shape != shape)
        throw FormatError(say(ioMessage("tensor_shape"), printable(name), shapeText(t.shape), shapeText(shape)));
}

Eigen::MatrixXf toMatrix(const Tensor& t)
{
    // Tensors are row-major; Eigen's default is column-major.
    using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    return Eigen::Map<const RowMajor>(t.values.data(), t.shape[0], t.shape[1]);
}

Eigen::VectorXf toVector(const Tensor& t)
{
    return Eigen::Map<const Eigen::VectorXf>(t.values.data(), t.shape[0]);
}

Tensor fromMatrix(const Eigen::MatrixXf& m)
{
    Tensor t{"F32", {m.rows(), m.cols()}, std::vector<float>(static_cast<std::size_t>(m.size()))};
    using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    Eigen::Map<RowMajor>(t.values.data(), m.rows(), m.cols()) = m;
    return t;
}

Tensor fromVector(const Eigen::VectorXf& v)
{
    return Tensor{"F32", {v.size()}, std::vector<float>(v.data(), v.data() + v.size())};
}

} // namespace attnlab::detail

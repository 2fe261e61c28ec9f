#include "pretrained/weights.h"

#include "families/family.h"
#include "families/tensor_names.h"

namespace attnlab {

Eigen::MatrixXf LinearLayer::apply(const Eigen::Ref<const Eigen::MatrixXf>& x) const
{
    Eigen::MatrixXf y(x.rows(), out);
    if (inOut)
        y.noalias() = x * stored();
    else
        y.noalias() = x * stored().transpose();
    y.rowwise() += bias.transpose();
    return y;
}

PretrainedWeights readPretrainedWeights(const HfConfig& config, std::shared_ptr<const MappedSafetensors> file)
{
    const ModelFamily& family = modelFamily(config.family);
    PretrainedWeights w;
    w.config = config;
    TensorNames names(*file, std::string(family.tensorPrefix));
    family.readWeights(config, names, w);
    w.file = std::move(file);
    return w;
}

} // namespace attnlab

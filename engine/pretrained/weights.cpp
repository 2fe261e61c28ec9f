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
    if (bias.size() > 0)
        y.rowwise() += bias.transpose();
    return y;
}

PretrainedWeights readPretrainedWeights(const HfConfig& config, std::shared_ptr<const MappedSafetensors> file)
{
    return readPretrainedWeights(config, std::vector<std::shared_ptr<const MappedSafetensors>>{std::move(file)});
}

PretrainedWeights readPretrainedWeights(const HfConfig& config, std::vector<std::shared_ptr<const MappedSafetensors>> files)
{
    const ModelFamily& family = modelFamily(config.family);
    PretrainedWeights w;
    w.config = config;
    std::vector<const MappedSafetensors*> mapped;
    for (const auto& f : files)
        mapped.push_back(f.get());
    TensorNames names(mapped, std::string(family.tensorPrefix));
    family.readWeights(config, names, w);
    w.files = std::move(files);
    return w;
}

} // namespace attnlab

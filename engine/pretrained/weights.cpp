#include "pretrained/weights.h"

#include "core/compute_threads.h"

#include "families/family.h"
#include "families/tensor_names.h"

namespace attnlab {

Eigen::MatrixXf timesTransposed(const Eigen::Ref<const Eigen::MatrixXf>& x, const RowMatrixMap& table)
{
    Eigen::MatrixXf y(x.rows(), table.rows());
    const double multiplyAdds = static_cast<double>(x.rows()) * static_cast<double>(table.cols()) * static_cast<double>(table.rows());
    forColumnChunks(table.rows(), multiplyAdds, [&](Eigen::Index begin, Eigen::Index count) {
        y.middleCols(begin, count).noalias() = x * table.middleRows(begin, count).transpose();
    });
    return y;
}

Eigen::MatrixXf LinearLayer::apply(const Eigen::Ref<const Eigen::MatrixXf>& x) const
{
    Eigen::MatrixXf y;
    if (inOut) {
        // Conv1D's [in, out]: on the compute threads too, each a block of output columns.
        y.resize(x.rows(), out);
        const RowMatrixMap w = stored();
        forColumnChunks(out, static_cast<double>(x.rows()) * static_cast<double>(in) * static_cast<double>(out),
                        [&](Eigen::Index begin, Eigen::Index count) { y.middleCols(begin, count).noalias() = x * w.middleCols(begin, count); });
    } else {
        y = timesTransposed(x, stored());
    }
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

#include "core/stage_builder.h"

#include "core/message.h"

#include <limits>

namespace attnlab::detail {

Labels numberedLabels(int count, std::string_view prefix)
{
    auto v = std::make_shared<std::vector<std::string>>();
    v->reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        std::string label(prefix);
        label += std::to_string(i + 1); // for people: counted from 1
        v->push_back(std::move(label));
    }
    return v;
}

Stage& addStage(StageList& stages, StageKey key, std::string title, std::string formula, std::vector<StageKey> inputs,
                std::string module)
{
    Stage& s = stages.add(key);
    s.title = std::move(title);
    s.formula = std::move(formula);
    s.inputs = std::move(inputs);
    s.module = std::move(module);
    return s;
}

void putMatrix(Stage& stage, std::string name, Eigen::MatrixXf values, Labels rows, Labels cols)
{
    // Finite but huge weights overflow the float range: refuse here, where the stage is known,
    // rather than show inf and NaN (and false "every key masked" warnings) further on. Only
    // the mask, the masked scores and FlashAttention's running maximum (−∞ while a row has seen no
    // visible key) hold −∞ by design.
    const bool maskStage = stage.id == "mask" || stage.id == "masked_scores" || stage.id == "running_max";
    const bool finite = maskStage ? !(values.array() == std::numeric_limits<float>::infinity()).any() && !values.hasNaN()
                                  : values.allFinite();
    if (!finite)
        throw Error(messages::overflow(stage.block, stage.layer, stage.title));
    stage.matrices.push_back(LabeledMatrix{std::move(name), std::move(values), std::move(rows), std::move(cols)});
}

void reserveMore(StageList& stages, std::size_t more)
{
    const std::size_t needed = stages.size() + more;
    if (needed > stages.capacity())
        stages.reserve(std::max(needed, 2 * stages.capacity()));
}

void putNormStatistics(Stage& stage, const Eigen::VectorXf& mean, const Eigen::VectorXf& variance, const Labels& rows)
{
    static const Labels kMean = std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"mean"});
    static const Labels kVariance = std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"variance"});
    putMatrix(stage, "mean", mean, rows, kMean);
    putMatrix(stage, "variance", variance, rows, kVariance);
}

} // namespace attnlab::detail

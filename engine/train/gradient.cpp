#include "train/gradient.h"

#include "io/tensor_eigen.h"
#include "train/examples.h"

#include <cstdio>
#include <stdexcept>

namespace attnlab::train {

Gradient gradientOf(const Seq2SeqModel& model, const std::vector<Example>& examples, double smoothing)
{
    if (examples.empty())
        throw std::invalid_argument("a gradient needs at least one training pair");
    Gradient g;
    g.layout = layoutOf(model);
    const Vec<double> values = flatten<double>(model);
    g.values = Vec<double>::Zero(g.layout.size);
    const Network<double> net = bindNetwork(g.layout, model.spec, values.data(), g.values.data(), longestSequence(examples));
    g.labelTokens = labelTokens(examples, 0, examples.size());
    const double n = static_cast<double>(g.labelTokens);
    g.loss = lossAndGradient(net, pack(examples, 0, examples.size()), smoothing, n, true) / n;
    return g;
}

TensorFile gradientTensors(const Gradient& gradient, const std::string& modelName)
{
    TensorFile f;
    for (const Layout::Entry& e : gradient.layout.entries) {
        const Eigen::MatrixXf m = gradient.values.segment(e.offset, e.rows * e.cols).cast<float>().reshaped(e.rows, e.cols);
        f.tensors[e.name] = e.vector ? detail::fromVector(m) : detail::fromMatrix(m);
    }
    char loss[32];
    std::snprintf(loss, sizeof loss, "%.17g", gradient.loss);
    f.metadata["format"] = "attention-lab-gradients/1";
    f.metadata["loss"] = loss;
    f.metadata["label_tokens"] = std::to_string(gradient.labelTokens);
    f.metadata["model"] = modelName;
    return f;
}

} // namespace attnlab::train

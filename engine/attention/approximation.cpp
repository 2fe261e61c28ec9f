#include "attention/approximation.h"

namespace attnlab {

Approximation compareOutputs(const Eigen::MatrixXf& output, const Eigen::MatrixXf& full)
{
    Approximation a;
    const Eigen::MatrixXd diff = output.cast<double>() - full.cast<double>();
    a.outputMaxAbs = diff.size() > 0 ? diff.cwiseAbs().maxCoeff() : 0.0;
    const double norm = full.cast<double>().norm();
    a.outputRelFro = norm > 0 ? diff.norm() / norm : 0.0;
    return a;
}

std::vector<Approximation> approximations(const Trace& trace)
{
    std::vector<Approximation> out;
    for (const Stage& s : trace.stages) {
        if (s.id != "reference_output")
            continue;
        const Stage* output = trace.find("output", std::nullopt, s.layer, s.block);
        if (!output)
            continue;
        Approximation a = compareOutputs(output->main().values, s.main().values);
        a.layer = s.layer;
        a.block = s.block;
        out.push_back(a);
    }
    return out;
}

} // namespace attnlab

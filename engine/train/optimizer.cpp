#include "train/optimizer.h"
#include "train/messages.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace attnlab::train {

double Schedule::at(int t) const
{
    const double step = std::max(t, 1);
    if (warmup <= 0)
        return rate.value_or(1e-3);
    const double w = warmup;
    const double peak = rate ? *rate : 1.0 / std::sqrt(static_cast<double>(dModel) * w);
    return peak * std::min(step / w, std::sqrt(w / step));
}

void Schedule::validate() const
{
    if (rate && !(*rate > 0 && std::isfinite(*rate)))
        throw Error(say(trainMessage("train_learning_rate"), std::to_string(*rate)));
    if (warmup < 0)
        throw Error(say(trainMessage("train_warmup"), warmup));
}

Adam::Adam(Eigen::Index size, double beta1, double beta2, double eps)
    : m_m(Vec<float>::Zero(size))
    , m_v(Vec<float>::Zero(size))
    , m_beta1(beta1)
    , m_beta2(beta2)
    , m_eps(eps)
{
}

void Adam::step(Vec<float>& params, const Vec<float>& grad, double lr)
{
    ++m_t;
    const auto b1 = static_cast<float>(m_beta1), b2 = static_cast<float>(m_beta2);
    m_m = b1 * m_m + (1.0f - b1) * grad;
    m_v = b2 * m_v + (1.0f - b2) * grad.cwiseProduct(grad);
    // The bias corrections in double, as torch computes them in Python floats.
    const auto stepSize = static_cast<float>(lr / (1.0 - std::pow(m_beta1, m_t)));
    const auto correction2 = static_cast<float>(std::sqrt(1.0 - std::pow(m_beta2, m_t)));
    const auto eps = static_cast<float>(m_eps);
    params.array() -= stepSize * m_m.array() / (m_v.array().sqrt() / correction2 + eps);
}

double clipGradient(Vec<float>& grad, std::optional<double> maxNorm)
{
    const double norm = std::sqrt(grad.cast<double>().squaredNorm());
    if (maxNorm) {
        const double coef = *maxNorm / (norm + 1e-6);
        if (coef < 1)
            grad *= static_cast<float>(coef);
    }
    return norm;
}

} // namespace attnlab::train

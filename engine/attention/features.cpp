// Kernel attention: performer (FAVOR+, Choromanski et al. 2021) and linear (Katharopoulos et al.
// 2020). Nothing n x n is computed for the output; the implied weights are made for display.

#include "attention/features.h"

#include "core/stage_builder.h"

#include <Eigen/QR>

#include <cmath>

namespace attnlab {

namespace {

constexpr Eigen::Index kChunk = 64; ///< rows per chunk of the causal prefix form

} // namespace

FeatureAttention featureAttend(const Eigen::MatrixXf& phiQ, const Eigen::MatrixXf& phiK, const Eigen::MatrixXf& v,
                               const detail::UserMask& mask)
{
    const Eigen::Index n = phiK.rows();
    Eigen::MatrixXf k = phiK; // padding keys' features are zero: they add nothing to any sum
    for (Eigen::Index j = 0; j < n; ++j) {
        if (mask.padding[static_cast<std::size_t>(j)])
            k.row(j).setZero();
    }
    FeatureAttention out;
    out.kv.noalias() = k.transpose() * v;
    const Eigen::VectorXf kSum = k.colwise().sum().transpose();
    if (!mask.causal) {
        out.normalizer.noalias() = phiQ * kSum;
        out.z.noalias() = phiQ * out.kv;
    } else {
        out.z.resize(phiQ.rows(), v.cols());
        out.normalizer.resize(phiQ.rows());
        Eigen::MatrixXf state = Eigen::MatrixXf::Zero(k.cols(), v.cols()); // Σ φ(k_j)ᵀ v_j over earlier chunks
        Eigen::VectorXf sum = Eigen::VectorXf::Zero(k.cols());
        for (Eigen::Index c0 = 0; c0 < n; c0 += kChunk) {
            const Eigen::Index len = std::min(kChunk, n - c0);
            const auto qc = phiQ.middleRows(c0, len);
            const auto kc = k.middleRows(c0, len);
            Eigen::MatrixXf local = qc * kc.transpose(); // len x len, kept where j ≤ i
            local.triangularView<Eigen::StrictlyUpper>().setZero();
            out.z.middleRows(c0, len).noalias() = qc * state + local * v.middleRows(c0, len);
            out.normalizer.segment(c0, len).noalias() = qc * sum + local.rowwise().sum();
            state.noalias() += kc.transpose() * v.middleRows(c0, len);
            sum += kc.colwise().sum().transpose();
        }
    }
    for (Eigen::Index i = 0; i < out.z.rows(); ++i) {
        if (out.normalizer(i) > 0)
            out.z.row(i) /= out.normalizer(i);
        else
            out.z.row(i).setZero(); // no key at all (every key padding)
    }
    return out;
}

Eigen::MatrixXf impliedWeights(const Eigen::MatrixXf& phiQ, const Eigen::MatrixXf& phiK, const Eigen::VectorXf& normalizer,
                               const detail::UserMask& mask)
{
    Eigen::MatrixXf w = phiQ * phiK.transpose();
    for (Eigen::Index i = 0; i < w.rows(); ++i) {
        for (Eigen::Index j = 0; j < w.cols(); ++j) {
            if ((mask.causal && j > i) || mask.padding[static_cast<std::size_t>(j)])
                w(i, j) = 0;
        }
        if (normalizer(i) > 0)
            w.row(i) /= normalizer(i);
        else
            w.row(i).setZero();
    }
    return w;
}

Eigen::MatrixXf orthogonalRandomFeatures(int m, int dK, SplitMix64 gen)
{
    NormalStream normal(gen);
    Eigen::MatrixXf omega(m, dK);
    for (int start = 0; start < m; start += dK) {
        Eigen::MatrixXd g(dK, dK);
        for (int i = 0; i < dK; ++i) {
            for (int j = 0; j < dK; ++j)
                g(i, j) = normal.next();
        }
        const Eigen::HouseholderQR<Eigen::MatrixXd> qr(g);
        Eigen::MatrixXd q = qr.householderQ();
        const Eigen::MatrixXd r = qr.matrixQR().triangularView<Eigen::Upper>();
        // The sign fix: Q·diag(sign(diag R)) is Haar-distributed; Householder's Q alone is not.
        for (int j = 0; j < dK; ++j) {
            if (r(j, j) < 0)
                q.col(j) = -q.col(j);
        }
        const int rows = std::min(dK, m - start);
        for (int i = 0; i < rows; ++i) {
            double norm2 = 0; // the norm of an independent Gaussian d_k-vector
            for (int t = 0; t < dK; ++t) {
                const double x = normal.next();
                norm2 += x * x;
            }
            omega.row(start + i) = (q.col(i).transpose() * std::sqrt(norm2)).cast<float>();
        }
    }
    return omega;
}

Eigen::MatrixXf performerFeatures(const Eigen::MatrixXf& x, const Eigen::MatrixXf& omega)
{
    const double dK = static_cast<double>(x.cols());
    const auto scale = static_cast<float>(1.0 / std::pow(dK, 0.25));
    const Eigen::MatrixXf xs = x * scale;
    Eigen::MatrixXf f = xs * omega.transpose(); // n x M: ω_r·x̂
    const Eigen::VectorXf half = xs.rowwise().squaredNorm() * 0.5f;
    const auto norm = static_cast<float>(1.0 / std::sqrt(static_cast<double>(omega.rows())));
    f.colwise() -= half;
    return f.array().exp() * norm;
}

Eigen::MatrixXf eluFeatures(const Eigen::MatrixXf& x)
{
    return x.unaryExpr([](float t) { return t > 0 ? t + 1.0f : std::exp(t); });
}

namespace {

/// The stages both kernel kinds share, after their features: kv, normalizer, the implied weights,
/// head_output, reference_weights and error.
void featureStages(const KernelInput& in, const std::vector<Eigen::MatrixXf>& phiQ, const std::vector<Eigen::MatrixXf>& phiK,
                   const detail::UserMask& mask, StageList& stages, KernelOutput& out)
{
    using detail::addStage;
    using detail::putMatrix;
    const int heads = static_cast<int>(in.q.size());
    const auto dK = static_cast<Eigen::Index>(in.headDims->size());
    const Labels features = detail::numberedLabels(static_cast<int>(phiQ[0].cols()), "f");
    static const Labels kColumn = std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"D"});
    std::vector<FeatureAttention> fa;
    for (int h = 0; h < heads; ++h) {
        fa.push_back(featureAttend(phiQ[h], phiK[h], in.v[h], mask));
        out.concat.middleCols(h * dK, dK) = fa[h].z;
    }
    for (int h = 0; h < heads; ++h)
        putMatrix(addStage(stages, in.key("kv", h), "Keys times values", "KV_h = φ(K_h)ᵀ·V_h  (M x d_k, every key)",
                           {in.key("k_features", h), in.key("v", h)}),
                  "KV_h", fa[h].kv, features, in.headDims);
    for (int h = 0; h < heads; ++h)
        putMatrix(addStage(stages, in.key("normalizer", h), "Normaliser",
                           mask.causal ? "D_i = φ(q_i)·Σ_{j≤i} φ(k_j)" : "D_i = φ(q_i)·Σ_j φ(k_j)",
                           {in.key("q_features", h), in.key("k_features", h)}),
                  "D_h", Eigen::MatrixXf(fa[h].normalizer), in.queries, kColumn);
    std::vector<Eigen::MatrixXf> weights(static_cast<std::size_t>(heads));
    for (int h = 0; h < heads; ++h) {
        weights[h] = impliedWeights(phiQ[h], phiK[h], fa[h].normalizer, mask);
        putMatrix(addStage(stages, in.key("weights", h), "Implied attention weights",
                           "A_h = D⁻¹·φ(Q_h)·φ(K_h)ᵀ  (shown only: the output never forms it)",
                           {in.key("q_features", h), in.key("k_features", h), in.key("normalizer", h)}),
                  "A_h", weights[h], in.queries, in.keys);
    }
    for (int h = 0; h < heads; ++h)
        detail::addHeadOutput(in, h, out.concat,
                              mask.causal ? "z_i = φ(q_i)·Σ_{j≤i} φ(k_j)ᵀv_j / D_i  (prefix sums)" : "Z_h = φ(Q_h)·KV_h / D",
                              {in.key("q_features", h), in.key("kv", h), in.key("normalizer", h)}, stages);
    const auto reference = detail::addReference(in, stages, out);
    for (int h = 0; h < heads; ++h)
        detail::addError(in, h, weights[h], reference[h], in.key("weights", h), stages);
}

/// Appends q_features and k_features of every head, made by `phi`.
template <typename Phi>
void addFeatures(const KernelInput& in, Phi phi, const char* formula, std::vector<Eigen::MatrixXf>& phiQ,
                 std::vector<Eigen::MatrixXf>& phiK, StageList& stages, const std::vector<StageKey>& extraInputs = {})
{
    using detail::addStage;
    using detail::putMatrix;
    const int heads = static_cast<int>(in.q.size());
    phiQ.resize(static_cast<std::size_t>(heads));
    phiK.resize(static_cast<std::size_t>(heads));
    for (int h = 0; h < heads; ++h) {
        phiQ[h] = phi(in.q[h]);
        phiK[h] = phi(in.k[h]);
    }
    const Labels features = detail::numberedLabels(static_cast<int>(phiQ[0].cols()), "f");
    for (int p = 0; p < 2; ++p) {
        for (int h = 0; h < heads; ++h) {
            std::vector<StageKey> inputs{in.key(p == 0 ? "q" : "k", h)};
            inputs.insert(inputs.end(), extraInputs.begin(), extraInputs.end());
            putMatrix(addStage(stages, in.key(p == 0 ? "q_features" : "k_features", h), p == 0 ? "Query features" : "Key features",
                               std::string(p == 0 ? "φ(Q_h), " : "φ(K_h), ") + formula, inputs),
                      p == 0 ? "φ(Q_h)" : "φ(K_h)", p == 0 ? phiQ[h] : phiK[h], p == 0 ? in.queries : in.keys, features);
        }
    }
}

} // namespace

void performerAttention(const KernelInput& in, StageList& stages, KernelOutput& out)
{
    const auto dK = static_cast<int>(in.headDims->size());
    const Eigen::MatrixXf omega = in.given && in.given->randomFeatures.size() > 0
                                      ? in.given->randomFeatures
                                      : orthogonalRandomFeatures(in.options.features, dK, detail::kindStream(in, "performer"));
    detail::putMatrix(detail::addStage(stages, in.key("random_features"), "Random features Ω",
                                       "Ω: M x d_k, orthogonal Gaussian rows in blocks of d_k, shared by the heads"),
                      "Ω", omega, detail::numberedLabels(static_cast<int>(omega.rows()), "f"), in.headDims);
    std::vector<Eigen::MatrixXf> phiQ, phiK;
    addFeatures(in, [&](const Eigen::MatrixXf& x) { return performerFeatures(x, omega); },
                "φ(x) = exp(Ω·x̂ − ‖x̂‖²/2) / √M, x̂ = x / d_k^¼", phiQ, phiK, stages, {in.key("random_features")});
    featureStages(in, phiQ, phiK, detail::kernelMask(in, "performer"), stages, out);
}

void linearAttention(const KernelInput& in, StageList& stages, KernelOutput& out)
{
    std::vector<Eigen::MatrixXf> phiQ, phiK;
    addFeatures(in, eluFeatures, "φ(x) = elu(x) + 1", phiQ, phiK, stages);
    featureStages(in, phiQ, phiK, detail::kernelMask(in, "linear"), stages, out);
}

} // namespace attnlab

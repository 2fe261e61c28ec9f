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

namespace {

/// featureAttend in float (the fast path) or double (features beyond float's range).
template <typename S>
FeatureAttention attend(const Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>& phiQ, const Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>& phiK,
                        const Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>& v, const detail::UserMask& mask)
{
    using Matrix = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
    using Vector = Eigen::Matrix<S, Eigen::Dynamic, 1>;
    const Eigen::Index n = phiK.rows();
    Matrix k = phiK; // padding keys' features are zero: they add nothing to any sum
    for (Eigen::Index j = 0; j < n; ++j) {
        if (mask.padding[static_cast<std::size_t>(j)])
            k.row(j).setZero();
    }
    Matrix kv = k.transpose() * v;
    Matrix z;
    Vector normalizer;
    if (!mask.causal) {
        normalizer = phiQ * Vector(k.colwise().sum().transpose());
        z = phiQ * kv;
    } else {
        z.resize(phiQ.rows(), v.cols());
        normalizer.resize(phiQ.rows());
        Matrix state = Matrix::Zero(k.cols(), v.cols()); // Σ φ(k_j)ᵀ v_j over earlier chunks
        Vector sum = Vector::Zero(k.cols());
        for (Eigen::Index c0 = 0; c0 < n; c0 += kChunk) {
            const Eigen::Index len = std::min(kChunk, n - c0);
            const auto qc = phiQ.middleRows(c0, len);
            const auto kc = k.middleRows(c0, len);
            Matrix local = qc * kc.transpose(); // len x len, kept where j ≤ i
            local.template triangularView<Eigen::StrictlyUpper>().setZero();
            z.middleRows(c0, len).noalias() = qc * state + local * v.middleRows(c0, len);
            normalizer.segment(c0, len).noalias() = qc * sum + local.rowwise().sum();
            state.noalias() += kc.transpose() * v.middleRows(c0, len);
            sum += kc.colwise().sum().transpose();
        }
    }
    for (Eigen::Index i = 0; i < z.rows(); ++i) {
        if (normalizer(i) > 0)
            z.row(i) /= normalizer(i);
        else
            z.row(i).setZero(); // no key at all (every key padding)
    }
    FeatureAttention out;
    out.z = z.template cast<float>();
    out.kv = kv.template cast<float>();
    out.normalizer = normalizer.template cast<float>();
    return out;
}

} // namespace

FeatureAttention featureAttend(const Eigen::MatrixXf& phiQ, const Eigen::MatrixXf& phiK, const Eigen::MatrixXf& v,
                               const detail::UserMask& mask)
{
    return attend<float>(phiQ, phiK, v, mask);
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

PerformerHead performerHead(const Eigen::MatrixXf& q, const Eigen::MatrixXf& k, const Eigen::MatrixXf& v, const Eigen::MatrixXf& omega,
                            const detail::UserMask& mask)
{
    const double dK = static_cast<double>(q.cols());
    const auto scale = static_cast<float>(1.0 / std::pow(dK, 0.25));
    const auto norm = static_cast<float>(1.0 / std::sqrt(static_cast<double>(omega.rows())));
    // The exponents ω_r·x̂ − ‖x̂‖²/2 (n x M).
    const auto exponents = [&](const Eigen::MatrixXf& x) {
        const Eigen::MatrixXf xs = x * scale;
        Eigen::MatrixXf e = xs * omega.transpose();
        e.colwise() -= xs.rowwise().squaredNorm() * 0.5f;
        return e;
    };
    const Eigen::MatrixXf eq = exponents(q);
    const Eigen::MatrixXf ek = exponents(k);
    PerformerHead out;
    // exp overflows float above 88, and a query feature times a key feature, summed, soon after.
    constexpr float kLargest = 30.0f;
    if (eq.size() == 0 || std::max(eq.maxCoeff(), ek.maxCoeff()) <= kLargest) {
        out.phiQ = eq.array().exp() * norm;
        out.phiK = ek.array().exp() * norm;
        out.attention = featureAttend(out.phiQ, out.phiK, v, mask);
        return out;
    }
    // Beyond it: double precision, with a constant subtracted inside exp, one per query row and
    // one for all keys; both cancel between the output and its normaliser.
    Eigen::MatrixXd dq = eq.cast<double>();
    Eigen::MatrixXd dk = ek.cast<double>();
    dq.colwise() -= (dq.rowwise().maxCoeff().array() - kLargest).max(0.0).matrix();
    dk.array() -= std::max(0.0, dk.maxCoeff() - kLargest);
    const Eigen::MatrixXd pq = dq.array().exp() * static_cast<double>(norm);
    const Eigen::MatrixXd pk = dk.array().exp() * static_cast<double>(norm);
    out.phiQ = pq.cast<float>();
    out.phiK = pk.cast<float>();
    out.attention = attend<double>(pq, pk, v.cast<double>(), mask);
    return out;
}

Eigen::MatrixXf eluFeatures(const Eigen::MatrixXf& x)
{
    return x.unaryExpr([](float t) { return t > 0 ? t + 1.0f : std::exp(t); });
}

namespace {

/// The stages both kernel kinds share, after their features: kv, normalizer, the implied weights,
/// head_output, reference_weights and error.
void featureStages(const KernelInput& in, const std::vector<Eigen::MatrixXf>& phiQ, const std::vector<Eigen::MatrixXf>& phiK,
                   const std::vector<FeatureAttention>& fa, const detail::UserMask& mask, StageList& stages, KernelOutput& out)
{
    using detail::addStage;
    using detail::putMatrix;
    const int heads = static_cast<int>(in.q.size());
    const auto dK = static_cast<Eigen::Index>(in.headDims->size());
    const Labels features = detail::numberedLabels(static_cast<int>(phiQ[0].cols()), "f");
    static const Labels kColumn = std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"D"});
    for (int h = 0; h < heads; ++h)
        out.concat.middleCols(h * dK, dK) = fa[h].z;
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

/// Appends q_features and k_features of every head.
void addFeatures(const KernelInput& in, const std::vector<Eigen::MatrixXf>& phiQ, const std::vector<Eigen::MatrixXf>& phiK,
                 const char* formula, StageList& stages, const std::vector<StageKey>& extraInputs = {})
{
    using detail::addStage;
    using detail::putMatrix;
    const int heads = static_cast<int>(in.q.size());
    const Labels features = detail::numberedLabels(static_cast<int>(phiQ[0].cols()), "f");
    for (int p = 0; p < 2; ++p) {
        for (int h = 0; h < heads; ++h) {
            std::vector<StageKey> inputs{in.key(p == 0 ? in.qStage : in.kStage, h)};
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
    const detail::UserMask mask = detail::kernelMask(in, "performer");
    std::vector<Eigen::MatrixXf> phiQ, phiK;
    std::vector<FeatureAttention> fa;
    for (std::size_t h = 0; h < in.q.size(); ++h) {
        PerformerHead head = performerHead(in.q[h], in.k[h], in.v[h], omega, mask);
        phiQ.push_back(std::move(head.phiQ));
        phiK.push_back(std::move(head.phiK));
        fa.push_back(std::move(head.attention));
    }
    addFeatures(in, phiQ, phiK, "φ(x) = exp(Ω·x̂ − ‖x̂‖²/2) / √M, x̂ = x / d_k^¼", stages, {in.key("random_features")});
    featureStages(in, phiQ, phiK, fa, mask, stages, out);
}

void linearAttention(const KernelInput& in, StageList& stages, KernelOutput& out)
{
    const detail::UserMask mask = detail::kernelMask(in, "linear");
    std::vector<Eigen::MatrixXf> phiQ, phiK;
    std::vector<FeatureAttention> fa;
    for (std::size_t h = 0; h < in.q.size(); ++h) {
        phiQ.push_back(eluFeatures(in.q[h]));
        phiK.push_back(eluFeatures(in.k[h]));
        fa.push_back(featureAttend(phiQ[h], phiK[h], in.v[h], mask));
    }
    addFeatures(in, phiQ, phiK, "φ(x) = elu(x) + 1", stages);
    featureStages(in, phiQ, phiK, fa, mask, stages, out);
}

} // namespace attnlab

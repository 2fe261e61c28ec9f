// Kernel attention: performer (FAVOR+, Choromanski et al. 2021) and linear (Katharopoulos et al.
// 2020). Nothing n x n is computed for the output; the implied weights are made for display.

#include "attention/features.h"

#include "core/stage_builder.h"

#include <Eigen/QR>

#include <algorithm>
#include <cmath>
#include <limits>

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

namespace {

/// The exponents ω_r·x̂ − ‖x̂‖²/2 of every row of x (rows x M), x̂ = x / d_k^¼, in float or double.
template <typename S>
Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic> exponentsOf(const Eigen::MatrixXf& x, const Eigen::MatrixXf& omega)
{
    using Matrix = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
    const auto scale = static_cast<S>(1.0 / std::pow(static_cast<double>(x.cols()), 0.25));
    const Matrix xs = x.template cast<S>() * scale;
    Matrix e = xs * omega.template cast<S>().transpose();
    e.colwise() -= xs.rowwise().squaredNorm() * static_cast<S>(0.5);
    return e;
}

/// True when every query row that may read a key got a normaliser of at least `smallest`.
bool normalizersHold(const Eigen::VectorXf& normalizer, const detail::UserMask& mask, float smallest)
{
    const auto first = std::find(mask.padding.begin(), mask.padding.end(), 0); // the first key that is not padding
    if (first == mask.padding.end())
        return true; // no query has a key: every normaliser is 0, as it should be
    const auto from = mask.causal ? static_cast<Eigen::Index>(first - mask.padding.begin()) : Eigen::Index(0);
    for (Eigen::Index i = from; i < normalizer.size(); ++i) {
        if (!(normalizer(i) >= smallest))
            return false;
    }
    return true;
}

/// Causal FAVOR+ in double, query by query, with a running largest exponent t_r = max_{j≤i}
/// ek_jr per feature (the online softmax's rescaling): row i reads its keys' features
/// exp(ek_jr − t_r) and its own exp(eq_ir + t_r − m_i), m_i = max_r (eq_ir + t_r). Both are at
/// most 1, and the feature r where m_i is reached has a query term of 1 and a key term of 1, so
/// the normaliser is at least 1 (times norm²): nothing underflows, whatever the exponents.
/// Fills z and normalizer (each row with its own shift); with `weights`, also the implied
/// weights D⁻¹·φ(q_i)·φ(k_j) of every allowed key.
void causalStable(const Eigen::MatrixXd& eq, const Eigen::MatrixXd& ek, const Eigen::MatrixXd& v, const detail::UserMask& mask,
                  double norm2, FeatureAttention& out, Eigen::MatrixXd* weights)
{
    const Eigen::Index m = eq.rows(), n = ek.rows(), features = ek.cols();
    constexpr double kNone = -std::numeric_limits<double>::infinity();
    Eigen::RowVectorXd t = Eigen::RowVectorXd::Constant(features, kNone);
    Eigen::RowVectorXd sum = Eigen::RowVectorXd::Zero(features);     // Σ_{j≤i} exp(ek_jr − t_r)
    Eigen::MatrixXd state = Eigen::MatrixXd::Zero(features, v.cols()); // Σ_{j≤i} exp(ek_jr − t_r)·v_j
    Eigen::MatrixXd z = Eigen::MatrixXd::Zero(m, v.cols());
    Eigen::VectorXd normalizer = Eigen::VectorXd::Zero(m);
    if (weights)
        *weights = Eigen::MatrixXd::Zero(m, n);
    std::vector<Eigen::Index> keys; // the keys read so far
    for (Eigen::Index i = 0; i < m; ++i) {
        if (i < n && !mask.padding[static_cast<std::size_t>(i)]) {
            for (Eigen::Index r = 0; r < features; ++r) {
                if (ek(i, r) > t(r)) { // a new largest exponent: what was summed shrinks by exp(t_old − t_new)
                    const double f = std::exp(t(r) - ek(i, r));
                    sum(r) *= f;
                    state.row(r) *= f;
                    t(r) = ek(i, r);
                }
            }
            const Eigen::RowVectorXd w = (ek.row(i) - t).array().exp();
            sum += w;
            state.noalias() += w.transpose() * v.row(i);
            keys.push_back(i);
        }
        if (keys.empty())
            continue; // no key yet (padding): z_i = 0
        const Eigen::RowVectorXd a = eq.row(i) + t;
        const Eigen::RowVectorXd qf = (a.array() - a.maxCoeff()).exp();
        const double d = qf.dot(sum);
        z.row(i) = (qf * state) / d;
        normalizer(i) = d * norm2;
        if (weights) {
            for (const Eigen::Index j : keys)
                (*weights)(i, j) = qf.dot((ek.row(j) - t).array().exp().matrix()) / d;
        }
    }
    out.z = z.cast<float>();
    out.normalizer = normalizer.cast<float>();
}

} // namespace

PerformerHead performerHead(const Eigen::MatrixXf& q, const Eigen::MatrixXf& k, const Eigen::MatrixXf& v, const Eigen::MatrixXf& omega,
                            const detail::UserMask& mask, bool withWeights)
{
    const double norm = 1.0 / std::sqrt(static_cast<double>(omega.rows()));
    PerformerHead out;
    // The fast path: float, the features as defined, while exp cannot overflow (below 30: a query
    // feature times a key feature, summed over keys and features, stays far below float's 3.4e38)
    // and each row's normaliser stays well above what float loses to underflow (terms below
    // 1.2e-38, a few million of them at most): otherwise a row's weights could all be 0.
    constexpr float kLargest = 30.0f;
    constexpr float kSmallestNormalizer = 1e-12f;
    const Eigen::MatrixXf eq = exponentsOf<float>(q, omega);
    const Eigen::MatrixXf ek = exponentsOf<float>(k, omega);
    if (eq.size() == 0 || ek.size() == 0
        || (eq.allFinite() && ek.allFinite() && std::max(eq.maxCoeff(), ek.maxCoeff()) <= kLargest)) {
        out.phiQ = eq.array().exp() * static_cast<float>(norm);
        out.phiK = ek.array().exp() * static_cast<float>(norm);
        out.attention = featureAttend(out.phiQ, out.phiK, v, mask);
        if (eq.size() == 0 || ek.size() == 0 || normalizersHold(out.attention.normalizer, mask, kSmallestNormalizer)) {
            if (withWeights)
                out.weights = impliedWeights(out.phiQ, out.phiK, out.attention.normalizer, mask);
            return out;
        }
    }

    // The stable path, in double: the exponents again, shifted so that nothing overflows or
    // underflows. Key feature r is divided by exp(s_r), s_r its largest exponent over the keys
    // (not padding), and query feature r multiplied by it — the product φ(q)·φ(k) is unchanged —
    // then each query row divided by its largest term exp(m_i), which cancels between the output
    // and its normaliser. Both features are then at most 1/√M, and the normaliser is at least 1/M.
    // (FAVOR+'s reference subtracts each query row's largest ω·x̂ and the keys' global largest:
    // with keys far apart in size, a row could still lose every term; a shift per feature cannot.)
    const Eigen::MatrixXd dq = exponentsOf<double>(q, omega);
    const Eigen::MatrixXd dk = exponentsOf<double>(k, omega);
    out.largestExponent = std::max(dq.size() ? dq.cwiseAbs().maxCoeff() : 0.0, dk.size() ? dk.cwiseAbs().maxCoeff() : 0.0);
    Eigen::RowVectorXd s = Eigen::RowVectorXd::Constant(dk.cols(), -std::numeric_limits<double>::infinity());
    for (Eigen::Index j = 0; j < dk.rows(); ++j) {
        if (!mask.padding[static_cast<std::size_t>(j)])
            s = s.cwiseMax(dk.row(j));
    }
    if (!s.allFinite())
        s.setZero(); // every key is padding: nothing is read
    Eigen::MatrixXd pk = (dk.rowwise() - s).array().exp() * norm;
    for (Eigen::Index j = 0; j < pk.rows(); ++j) {
        if (mask.padding[static_cast<std::size_t>(j)])
            pk.row(j).setZero();
    }
    const Eigen::MatrixXd a = dq.rowwise() + s;
    const Eigen::MatrixXd pq = (a.colwise() - a.rowwise().maxCoeff()).array().exp() * norm;
    out.phiQ = pq.cast<float>();
    out.phiK = pk.cast<float>();
    const Eigen::MatrixXd dv = v.cast<double>();
    if (!mask.causal) {
        out.attention = attend<double>(pq, pk, dv, mask);
        if (withWeights) {
            // A = D⁻¹·φ(Q)·φ(K)ᵀ with the shifted features (padding keys' are 0); D ≥ 1/M.
            Eigen::MatrixXd w = pq * pk.transpose();
            for (Eigen::Index i = 0; i < w.rows(); ++i) {
                const double d = w.row(i).sum();
                if (d > 0)
                    w.row(i) /= d;
            }
            out.weights = w.cast<float>();
        }
        return out;
    }
    // Causal: row i reads only keys j ≤ i, whose largest exponents may lie far below those of
    // later keys; the shift then follows the keys read so far (causalStable).
    Eigen::MatrixXd w;
    causalStable(dq, dk, dv, mask, norm * norm, out.attention, withWeights ? &w : nullptr);
    out.attention.kv = (pk.transpose() * dv).cast<float>();
    if (withWeights)
        out.weights = w.cast<float>();
    return out;
}

Eigen::MatrixXf eluFeatures(const Eigen::MatrixXf& x)
{
    return x.unaryExpr([](float t) { return t > 0 ? t + 1.0f : std::exp(t); });
}

namespace {

/// The stages both kernel kinds share, after their features: kv, normalizer, the implied weights,
/// head_output, reference_weights and error.
/// `implied`, when given, holds each head's implied weights (performer's, computed with its
/// features); otherwise they are made from the features here.
void featureStages(const KernelInput& in, const std::vector<Eigen::MatrixXf>& phiQ, const std::vector<Eigen::MatrixXf>& phiK,
                   const std::vector<FeatureAttention>& fa, const detail::UserMask& mask, StageList& stages, KernelOutput& out,
                   std::vector<Eigen::MatrixXf>* implied = nullptr)
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
        weights[h] = implied ? std::move((*implied)[static_cast<std::size_t>(h)]) : impliedWeights(phiQ[h], phiK[h], fa[h].normalizer, mask);
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
    std::vector<Eigen::MatrixXf> phiQ, phiK, weights;
    std::vector<FeatureAttention> fa;
    double largest = 0;
    for (std::size_t h = 0; h < in.q.size(); ++h) {
        PerformerHead head = performerHead(in.q[h], in.k[h], in.v[h], omega, mask, true);
        phiQ.push_back(std::move(head.phiQ));
        phiK.push_back(std::move(head.phiK));
        fa.push_back(std::move(head.attention));
        weights.push_back(std::move(head.weights));
        largest = std::max(largest, head.largestExponent);
    }
    // Beyond this no computation in double gives the estimate exactly: say so rather than show it as exact.
    if (largest > kPerformerExactExponent)
        out.warnings.push_back(messages::performerPrecision(in.block, in.layer, largest));
    addFeatures(in, phiQ, phiK, "φ(x) = exp(Ω·x̂ − ‖x̂‖²/2) / √M, x̂ = x / d_k^¼", stages, {in.key("random_features")});
    featureStages(in, phiQ, phiK, fa, mask, stages, out, &weights);
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

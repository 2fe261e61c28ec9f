// Linformer (Wang et al. 2020): keys and values projected along the sequence to K rows by seeded
// E, F ∈ ℝ^{K×n} (entries N(0, 1/K), shared by the heads):
//   K'_h = E·K_h,  V'_h = F·V_h  (K x d_k),  A_h = softmax(Q_h·K'_hᵀ / √d_k)  (n x K),  Z_h = A_h·V'_h
// Padding keys' rows of K_h and V_h are zeroed before projecting; a causal mask cannot be kept
// (every projected key mixes all positions) and is refused by the settings' checks.

#include "attention/linformer.h"

#include "core/stage_builder.h"
#include "nn/softmax.h"

#include <cmath>

namespace attnlab {

Eigen::MatrixXf linformerProjection(int k, Eigen::Index n, SplitMix64 gen)
{
    NormalStream normal(gen);
    const double sd = 1.0 / std::sqrt(static_cast<double>(k));
    Eigen::MatrixXf p(k, n);
    for (int r = 0; r < k; ++r) {
        for (Eigen::Index j = 0; j < n; ++j)
            p(r, j) = static_cast<float>(normal.next() * sd);
    }
    return p;
}

LinformerHead linformerHead(const Eigen::MatrixXf& q, const Eigen::MatrixXf& k, const Eigen::MatrixXf& v, const Eigen::MatrixXf& e,
                            const Eigen::MatrixXf& f, const std::vector<char>& padding, float c)
{
    LinformerHead out;
    Eigen::MatrixXf kk = k;
    Eigen::MatrixXf vv = v;
    for (Eigen::Index j = 0; j < k.rows(); ++j) {
        if (padding[static_cast<std::size_t>(j)]) {
            kk.row(j).setZero();
            vv.row(j).setZero();
        }
    }
    out.kProjected.noalias() = e * kk;
    out.vProjected.noalias() = f * vv;
    out.scores.noalias() = q * out.kProjected.transpose();
    out.weights = rowSoftmax(out.scores * c);
    out.z.noalias() = out.weights * out.vProjected;
    return out;
}

void linformerAttention(const KernelInput& in, StageList& stages, KernelOutput& out)
{
    using detail::addStage;
    using detail::putMatrix;
    const int heads = static_cast<int>(in.q.size());
    const auto n = in.k[0].rows();
    const auto dK = static_cast<Eigen::Index>(in.headDims->size());
    const float c = detail::scoreScale(in.scaleScores, dK);
    const detail::UserMask mask = detail::kernelMask(in, "linformer");
    const bool given = in.given && in.given->projectionE.size() > 0;
    const Eigen::MatrixXf e = given ? in.given->projectionE : linformerProjection(in.options.projDim, n, detail::kindStream(in, "linformer-e"));
    const Eigen::MatrixXf f = given ? in.given->projectionF : linformerProjection(in.options.projDim, n, detail::kindStream(in, "linformer-f"));
    const int kRows = static_cast<int>(e.rows());
    const Labels projected = detail::numberedLabels(kRows, "p");
    putMatrix(addStage(stages, in.key("projection_e"), "Key projection E", "E: K x n, entries N(0, 1/K), shared by the heads"), "E", e,
              projected, in.keys);
    putMatrix(addStage(stages, in.key("projection_f"), "Value projection F", "F: K x n, entries N(0, 1/K), shared by the heads"), "F",
              f, projected, in.keys);
    std::vector<LinformerHead> result;
    for (int h = 0; h < heads; ++h)
        result.push_back(linformerHead(in.q[h], in.k[h], in.v[h], e, f, mask.padding, c));
    for (int h = 0; h < heads; ++h) {
        putMatrix(addStage(stages, in.key("k_projected", h), "Projected keys", "K'_h = E·K_h  (padding keys' rows zeroed first)",
                           {in.key("projection_e"), in.key(in.kStage, h)}),
                  "K'_h", result[h].kProjected, projected, in.headDims);
        putMatrix(addStage(stages, in.key("v_projected", h), "Projected values", "V'_h = F·V_h  (padding keys' rows zeroed first)",
                           {in.key("projection_f"), in.key("v", h)}),
                  "V'_h", result[h].vProjected, projected, in.headDims);
    }
    for (int h = 0; h < heads; ++h)
        putMatrix(addStage(stages, in.key("scores", h), "Scores Q·K'ᵀ", "S_h = Q_h·K'_hᵀ  (n x K)", {in.key(in.qStage, h), in.key("k_projected", h)}),
                  "S_h", result[h].scores, in.queries, projected);
    for (int h = 0; h < heads; ++h)
        putMatrix(addStage(stages, in.key("scaled", h), "Scaled scores", in.scaleScores ? "S'_h = S_h / √d_k" : "S'_h = S_h  (scaling off)",
                           {in.key("scores", h)}),
                  "S'_h", result[h].scores * c, in.queries, projected);
    for (int h = 0; h < heads; ++h)
        putMatrix(addStage(stages, in.key("weights", h), "Attention weights", "A_h = softmax(S'_h)  (over the K projected keys)",
                           {in.key("scaled", h)}),
                  "A_h", result[h].weights, in.queries, projected);
    for (int h = 0; h < heads; ++h) {
        out.concat.middleCols(h * dK, dK) = result[h].z;
        detail::addHeadOutput(in, h, out.concat, "Z_h = A_h·V'_h", {in.key("weights", h), in.key("v_projected", h)}, stages);
    }
    const auto reference = detail::addReference(in, stages, out);
    for (int h = 0; h < heads; ++h) {
        // The weights on the tokens that A_h implies: A_h·F, nothing on padding.
        Eigen::MatrixXf implied = result[h].weights * f;
        for (Eigen::Index j = 0; j < n; ++j) {
            if (mask.padding[static_cast<std::size_t>(j)])
                implied.col(j).setZero();
        }
        detail::addError(in, h, implied, reference[h], in.key("weights", h), stages);
    }
}

} // namespace attnlab

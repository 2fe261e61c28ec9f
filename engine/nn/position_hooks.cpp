#include "nn/position_hooks.h"

#include "core/stage_builder.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace attnlab {

namespace {

using detail::addStage;
using detail::numberedLabels;
using detail::putMatrix;

std::string str(long long v)
{
    return std::to_string(v);
}

/// RoPE: the angles (stage rope_angles, n x d_k/2), then every head's q and k turned by them
/// (q_rotated, k_rotated), which the kernel reads in place of q and k.
void rope(SchemeHeads& a, SchemeInKernel& out)
{
    const AttentionBlockContext& c = a.context;
    const auto key = [&](const char* id, std::optional<int> head = std::nullopt) { return StageKey{id, head, c.layer, c.block}; };
    const int dK = static_cast<int>(a.headDims->size());
    const int n = static_cast<int>(std::max(a.q.front().rows(), a.k.front().rows()));
    const Eigen::MatrixXf angles = ropeAngles(n, dK, c.positionOptions.ropeBase);
    putMatrix(addStage(a.stages, key("rope_angles"), "Rotation angles", "θ_pos,i = pos / B^(2i/d_k)"), "θ", angles, c.queryLabels,
              numberedLabels(dK / 2));
    const char* ids[2] = {"q_rotated", "k_rotated"};
    const char* from[2] = {"q", "k"};
    const char* formulas[2] = {"Q̃_h = R_pos·Q_h  (each pair (2i, 2i+1) of row pos turned by θ_pos,i)",
                               "K̃_h = R_pos·K_h  (each pair (2i, 2i+1) of row pos turned by θ_pos,i)"};
    for (int p = 0; p < 2; ++p) {
        std::vector<Eigen::MatrixXf>& x = p == 0 ? a.q : a.k;
        for (int h = 0; h < static_cast<int>(x.size()); ++h) {
            Eigen::MatrixXf& xh = x[static_cast<std::size_t>(h)];
            xh = ropeRotate(xh, angles.topRows(xh.rows()));
            putMatrix(addStage(a.stages, key(ids[p], h), p == 0 ? "Rotated queries" : "Rotated keys", formulas[p],
                               {key(from[p], h), key("rope_angles")}),
                      p == 0 ? "Q̃_h" : "K̃_h", xh, p == 0 ? c.queryLabels : c.keyLabels, a.headDims);
        }
    }
    out.qStage = "q_rotated";
    out.kStage = "k_rotated";
}

/// ALiBi: a bias −m_h·|i − j| per head, which the full kernel adds to the scores (position_bias).
void alibi(SchemeHeads& a, SchemeInKernel& out)
{
    const int heads = static_cast<int>(a.q.size());
    const std::vector<double> slopes = alibiSlopes(heads);
    for (int h = 0; h < heads; ++h)
        out.scoreBias.push_back(alibiBias(static_cast<int>(a.q.front().rows()), static_cast<int>(a.k.front().rows()),
                                          slopes[static_cast<std::size_t>(h)]));
}

/// Relative positions: the tables a^K and a^V (stages relative_keys, relative_values), seeded or
/// given, which the kernel reads for position_scores and the outputs.
void relative(SchemeHeads& a, SchemeInKernel& out)
{
    const AttentionBlockContext& c = a.context;
    const int dK = static_cast<int>(a.headDims->size());
    const int maxDistance = c.positionOptions.maxDistance;
    RelativeTables t = c.givenRelative ? *c.givenRelative : relativeTables(maxDistance, dK, c.seed);
    if (t.maxDistance != maxDistance || t.keys.rows() != 2 * maxDistance + 1 || t.keys.cols() != dK
        || t.values.rows() != t.keys.rows() || t.values.cols() != dK)
        throw std::invalid_argument("the relative position tables must be (2K+1) x d_k = " + str(2 * maxDistance + 1) + " x "
                                    + str(dK));
    std::vector<std::string> distances;
    for (int r = -maxDistance; r <= maxDistance; ++r) {
        // "≤-K" … "-1", "0", "+1" … "≥+K", appended piece by piece (GCC 12 warns falsely on "literal" + std::string).
        std::string label = r == -maxDistance ? "≤" : r == maxDistance ? "≥+" : r > 0 ? "+" : "";
        label += str(r);
        distances.push_back(std::move(label));
    }
    const Labels rows = std::make_shared<const std::vector<std::string>>(std::move(distances));
    const auto key = [&](const char* id) { return StageKey{id, std::nullopt, c.layer, c.block}; };
    putMatrix(addStage(a.stages, key("relative_keys"), "Relative keys", "a^K_r, r = clip(j − i, −K, K), K = " + str(maxDistance)),
              "a^K", t.keys, rows, a.headDims);
    putMatrix(addStage(a.stages, key("relative_values"), "Relative values", "a^V_r, r = clip(j − i, −K, K), K = " + str(maxDistance)),
              "a^V", t.values, rows, a.headDims);
    out.relative = std::move(t);
}

// The schemes acting inside attention: a new one is its hook above and one line here.
constexpr InsideScheme kInsideSchemes[] = {
    {PositionalEncoding::Rope, rope},
    {PositionalEncoding::Alibi, alibi},
    {PositionalEncoding::Relative, relative},
};

} // namespace

void SchemeInKernel::into(KernelInput& in) const
{
    in.qStage = qStage;
    in.kStage = kStage;
    if (!scoreBias.empty())
        in.scoreBias = &scoreBias;
    if (relative)
        in.relative = &*relative;
}

const InsideScheme* insideScheme(PositionalEncoding scheme)
{
    for (const InsideScheme& s : kInsideSchemes) {
        if (s.scheme == scheme)
            return &s;
    }
    return nullptr;
}

} // namespace attnlab

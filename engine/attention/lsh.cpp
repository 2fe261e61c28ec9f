// Reformer (Kitaev et al. 2020), one hash round: queries and keys are shared (k_j = q_j / ‖q_j‖),
// a seeded rotation R per head hashes each token to bucket(x) = argmax([x·R ; −x·R]), and a query
// attends the other tokens of its bucket (itself only when it is alone there). With chunks, the
// tokens are sorted by (bucket, position) and cut into chunks of C; a query sees its own chunk and
// the one before it.

#include "attention/lsh.h"

#include "core/stage_builder.h"
#include "nn/mask.h"

#include <algorithm>
#include <numeric>

namespace attnlab {

Eigen::MatrixXf lshRotations(int dK, int buckets, SplitMix64 gen)
{
    NormalStream normal(gen);
    Eigen::MatrixXf r(dK, buckets / 2);
    for (int i = 0; i < dK; ++i) {
        for (int j = 0; j < buckets / 2; ++j)
            r(i, j) = static_cast<float>(normal.next());
    }
    return r;
}

std::vector<int> lshBuckets(const Eigen::MatrixXf& keys, const Eigen::MatrixXf& rotations)
{
    const Eigen::MatrixXf rotated = keys * rotations; // n x B/2
    const auto half = rotated.cols();
    std::vector<int> out(static_cast<std::size_t>(keys.rows()));
    for (Eigen::Index i = 0; i < keys.rows(); ++i) {
        int best = 0;
        float value = rotated(i, 0);
        for (Eigen::Index b = 1; b < 2 * half; ++b) {
            const float x = b < half ? rotated(i, b) : -rotated(i, b - half);
            if (x > value) {
                value = x;
                best = static_cast<int>(b);
            }
        }
        out[static_cast<std::size_t>(i)] = best;
    }
    return out;
}

detail::SparsePattern lshPattern(const std::vector<int>& buckets, int chunk, const detail::UserMask& mask, std::vector<int>& order)
{
    const auto n = static_cast<int>(buckets.size());
    order.resize(buckets.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return buckets[a] < buckets[b]; });
    std::vector<int> rank(buckets.size());
    for (int r = 0; r < n; ++r)
        rank[order[r]] = r;
    detail::SparsePattern pattern;
    pattern.cols = n;
    std::vector<int> keys;
    for (int i = 0; i < n; ++i) {
        // The sorted range to look in: the whole bucket, or its own and the previous chunk.
        int from = rank[i];
        int to = rank[i];
        while (from > 0 && buckets[order[from - 1]] == buckets[i])
            --from;
        while (to + 1 < n && buckets[order[to + 1]] == buckets[i])
            ++to;
        if (chunk > 0) {
            const int c = rank[i] / chunk;
            from = std::max(from, std::max(0, c - 1) * chunk);
            to = std::min(to, (c + 1) * chunk - 1);
        }
        keys.clear();
        for (int r = from; r <= to; ++r) {
            const int j = order[r];
            if (j != i && !mask.hides(i, j))
                keys.push_back(j);
        }
        if (keys.empty() && !mask.hides(i, i))
            keys.push_back(i);
        pattern.addRow(keys);
    }
    return pattern;
}

void lshAttention(const KernelInput& in, StageList& stages, KernelOutput& out)
{
    using detail::addStage;
    using detail::putMatrix;
    const int heads = static_cast<int>(in.q.size());
    const auto dK = static_cast<Eigen::Index>(in.headDims->size());
    const detail::UserMask mask = detail::userMask(in.blocked);
    const int b = in.options.buckets;
    std::vector<Eigen::MatrixXf> rotations;
    std::vector<detail::SparsePattern> patterns;
    std::vector<std::vector<int>> orders(static_cast<std::size_t>(heads));
    std::vector<std::vector<int>> buckets;
    for (int h = 0; h < heads; ++h) {
        if (in.given && !in.given->randomRotations.empty())
            rotations.push_back(in.given->randomRotations.at(static_cast<std::size_t>(h)));
        else
            rotations.push_back(lshRotations(static_cast<int>(dK), b, detail::kindStream(in, "lsh#" + std::to_string(h))));
        buckets.push_back(lshBuckets(in.k[h], rotations[h]));
        patterns.push_back(lshPattern(buckets[h], in.options.chunk, mask, orders[h]));
    }
    const Labels rotationCols = detail::numberedLabels(static_cast<int>(rotations[0].cols()), "r");
    for (int h = 0; h < heads; ++h)
        putMatrix(addStage(stages, in.key("random_rotations", h), "Random rotation R", "R_h: d_k x B/2, Gaussian entries"), "R_h",
                  rotations[h], in.headDims, rotationCols);
    static const Labels kColumn = std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"bucket"});
    for (int h = 0; h < heads; ++h) {
        Eigen::MatrixXf column(static_cast<Eigen::Index>(buckets[h].size()), 1);
        for (std::size_t i = 0; i < buckets[h].size(); ++i)
            column(static_cast<Eigen::Index>(i), 0) = static_cast<float>(buckets[h][i]);
        putMatrix(addStage(stages, in.key("buckets", h), "Hash buckets", "bucket(k_j) = argmax([k_j·R_h ; −k_j·R_h])",
                           {in.key(in.kStage, h), in.key("random_rotations", h)}),
                  "bucket", column, in.keys, kColumn);
    }
    auto scores = detail::addScaledScores(in, "S_h = Q_h·K_hᵀ  (K_h: the queries normalised)", stages);
    std::vector<Eigen::MatrixXf> masks;
    for (int h = 0; h < heads; ++h) {
        masks.push_back(additiveMask(patterns[h].hidden()));
        putMatrix(addStage(stages, in.key("mask", h), "Mask",
                           in.options.chunk > 0 ? "M_ij = 0 if j shares i's bucket, in i's chunk or the one before, j ≠ i (unless alone), else −∞"
                                                : "M_ij = 0 if j shares i's bucket and j ≠ i (unless i is alone there), else −∞",
                           {in.key("buckets", h)}),
                  "M_h", masks[h], in.queries, in.keys);
    }
    detail::addMaskedScores(in, scores, masks, true, stages);
    std::vector<detail::SparsePlan> plans;
    for (int h = 0; h < heads; ++h)
        plans.push_back(detail::planSparse(patterns[h], orders[h]));
    detail::addSparseOutputs(in, patterns, plans, "A_h = softmax(S''_h)  (within the bucket)", stages, out);
}

} // namespace attnlab

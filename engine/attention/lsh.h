#pragma once
/// Reformer's LSH attention, one hash round (docs/attention-kinds.md), for its kernel and the cost
/// measurement.

#include "attention/common.h"

#include <vector>

namespace attnlab {

/// A head's random rotation R (d_k x B/2), Gaussian entries.
Eigen::MatrixXf lshRotations(int dK, int buckets, SplitMix64 gen);

/// The bucket of each row of `keys`: argmax of [x·R ; −x·R] (the first index on ties).
std::vector<int> lshBuckets(const Eigen::MatrixXf& keys, const Eigen::MatrixXf& rotations);

/// Which keys each query attends: the same bucket, not itself (unless it has no other key), not
/// hidden by the mask; with chunk > 0 also only keys in its own or the previous chunk of the
/// positions sorted stably by (bucket, position). `order` receives that sorted order.
detail::SparsePattern lshPattern(const std::vector<int>& buckets, int chunk, const detail::UserMask& mask, std::vector<int>& order);

} // namespace attnlab

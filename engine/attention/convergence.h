#pragma once
/// Performer's error against M (issue 13 §2, docs/attention-kinds.md): the queries, keys and
/// values of one attention block of a trace, run through the performer kernel again for each
/// number of random features M. FAVOR+'s estimate of exp(q·k/√d_k) has a variance that falls as
/// 1/M, so the error of the weights falls roughly as 1/√M. The studio's Cost view plots it.

#include "core/trace.h"

#include <functional>
#include <vector>

namespace attnlab {

struct ConvergencePoint {
    int features = 0;         ///< M
    double meanError = 0;     ///< mean over heads, queries and draws of Σ_j |A_ij − A^full_ij| (0 … 2)
    double outputRelFro = 0;  ///< mean over draws of ‖Z − Z^full‖_F / ‖Z^full‖_F over the heads' outputs
};

/// The block of `trace` in its scope (a single attention block, or the block a Session shows):
/// its stages q, k, v of every head and the user's mask (the config's causal or padding mask;
/// a sparse kind's pattern is not used). For each M of `features`, `draws` independent sets of random features (seeds
/// seed, seed + 1, …): the mean error. `keepGoing` is asked before each M (false: stop, the points
/// so far are returned). Throws std::invalid_argument when the block has no q, k, v, a custom
/// mask (performer takes none), or an M outside 1 … kMaxAttentionParameter.
std::vector<ConvergencePoint> performerConvergence(const Trace& trace, const std::vector<int>& features, int draws = 4,
                                                   const std::function<bool()>& keepGoing = {});

/// 16, 32, …, 1024: the M of the studio's plot.
std::vector<int> convergenceFeatures();

} // namespace attnlab

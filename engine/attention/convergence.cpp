#include "attention/convergence.h"

#include "attention/messages.h"
#include "core/messages.h"

#include "attention/approximation.h"
#include "attention/kind.h"

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

namespace attnlab {

namespace {

/// Which keys each query may not see: the user's mask (the config's causal or padding mask), not
/// the mask stage, which holds a sparse kind's pattern as well.
BoolMatrix blockedOf(const Trace& t, Eigen::Index m, Eigen::Index n)
{
    if (t.config.mask == MaskKind::Custom)
        throw Error(say(coreMessage("kind_custom_mask"), "performer"));
    if (m != n)
        return BoolMatrix::Constant(m, n, false); // cross-attention: no mask of the keys' own
    return blockedCells(t.config.mask, t.tokens, std::nullopt);
}

Labels labelsOf(const Stage& s)
{
    return s.main().rowLabels ? s.main().rowLabels
                              : std::make_shared<const std::vector<std::string>>(static_cast<std::size_t>(s.main().values.rows()));
}

} // namespace

std::vector<int> convergenceFeatures()
{
    return {16, 32, 64, 128, 256, 512, 1024};
}

std::vector<ConvergencePoint> performerConvergence(const Trace& t, const std::vector<int>& features, int draws,
                                                   const std::function<bool()>& keepGoing)
{
    std::vector<Eigen::MatrixXf> q, k, v;
    for (int h = 0;; ++h) {
        const Stage* qs = t.find("q", h);
        const Stage* ks = t.find("k", h);
        const Stage* vs = t.find("v", h);
        if (!qs || !ks || !vs)
            break;
        q.push_back(qs->main().values);
        k.push_back(ks->main().values);
        v.push_back(vs->main().values);
    }
    if (q.empty())
        throw std::invalid_argument("the block has no queries, keys and values");
    const Eigen::Index m = q[0].rows(), n = k[0].rows();
    const BoolMatrix blocked = blockedOf(t, m, n);
    const Stage& q0 = *t.find("q", 0);
    const Stage& k0 = *t.find("k", 0);
    const Labels headDims = q0.main().colLabels;
    const std::optional<int> layer = q0.layer;
    const Block block = q0.block;
    const int heads = static_cast<int>(q.size());
    const auto dK = q[0].cols();

    std::vector<ConvergencePoint> out;
    for (const int M : features) {
        if (M < 1 || M > kMaxAttentionParameter)
            throw Error(say(attentionMessage("features_range"), M, kMaxAttentionParameter));
        if (keepGoing && !keepGoing())
            break;
        AttentionOptions options;
        options.features = M;
        ConvergencePoint p;
        p.features = M;
        for (int draw = 0; draw < draws; ++draw) {
            const KernelInput in{q, k, v, blocked, t.config.scaleScores, labelsOf(q0), labelsOf(k0), headDims, layer, block,
                                 AttentionKind::Performer, options, t.config.seed + static_cast<std::uint64_t>(draw)};
            StageList stages;
            Eigen::MatrixXf concat(m, heads * dK);
            std::vector<Message> warnings;
            KernelOutput result{concat, {}, warnings};
            attentionKind(AttentionKind::Performer).kernel(in, stages, result);
            for (const Stage& s : stages) {
                if (s.id == "error")
                    p.meanError += static_cast<double>(s.main().values.mean()) / heads / draws;
            }
            p.outputRelFro += compareOutputs(concat, result.reference).outputRelFro / draws;
        }
        out.push_back(p);
    }
    return out;
}

} // namespace attnlab

// One layer of a pretrained model, whatever its family: the family's tensor names say which
// module each stage used; layerOfParts (nn/transformer.h) appends the stages around the parts
// exactly as the app's own layers do, Post-LN or Pre-LN as the family says.

#include "families/family.h"
#include "families/gated.h"
#include "pretrained/forward.h"

#include "core/stage_builder.h"
#include "nn/attention.h"

namespace attnlab::detail {

Eigen::MatrixXf pretrainedLayer(const PretrainedWeights& w, const ModelSpec& spec, int i, const Eigen::MatrixXf& x, const Labels& tokens,
                                StageList& stages, std::vector<Message>& warnings)
{
    const ModelFamily& family = modelFamily(w.config.family);
    if (family.layerKind == FamilyLayer::Gated)
        return gatedLayer(w, i, x, tokens, stages, warnings, spec);
    const LayerTensorNames& names = family.layer;
    const PretrainedLayer& l = w.layers.at(static_cast<std::size_t>(i));
    const Labels dims = numberedLabels(spec.dModel);
    const Eigen::Index d = spec.dModel;
    const Eigen::Index n = x.rows();
    // A decoder's queries see the keys at or before them; an encoder's see every key.
    const BoolMatrix blocked = family.causal() ? causalMask(n) : BoolMatrix::Constant(n, n, false);
    LayerParts parts;
    parts.modulePrefix = names.layerPrefix + std::to_string(i) + ".";
    parts.block = family.block();
    parts.modules = {names.norm1, names.norm2, names.up, names.down};
    parts.norm1 = &l.norm1;
    parts.norm2 = &l.norm2;
    parts.attention = [&](const Eigen::MatrixXf& input, const StageKey& inputKey) {
        const AttentionBlockContext c{tokens, tokens, dims, i, parts.block, inputKey, inputKey, parts.modulePrefix + names.attentionModule,
                                      spec.attention, {}, spec.seed, spec.positional, spec.positionOptions};
        Eigen::MatrixXf concat;
        if (l.attention.qkv) {
            // (n x 3d) = N (n x d) · W_qkv (d x 3d) + b: Q, K and V side by side, one GEMM.
            const Eigen::MatrixXf qkv = l.attention.qkv->apply(input);
            concat = attentionHeads(qkv.leftCols(d), qkv.middleCols(d, d), qkv.rightCols(d), spec.heads, spec.scaleScores, blocked, c,
                                    stages, warnings);
        } else {
            // Q, K, V (n x d) = X · W_*ᵀ + b_*, three linear layers.
            const Eigen::MatrixXf q = l.attention.q.apply(input);
            const Eigen::MatrixXf k = l.attention.k.apply(input);
            const Eigen::MatrixXf v = l.attention.v.apply(input);
            concat = attentionHeads(q, k, v, spec.heads, spec.scaleScores, blocked, c, stages, warnings);
        }
        // output: O (n x d) = C · W_Oᵀ + b_O.
        Eigen::MatrixXf out = l.attention.output.apply(concat);
        addAttentionOutput(out, c, stages);
        return out;
    };
    parts.hidden = [&](const Eigen::MatrixXf& in) { return activate(spec.activation, l.up.apply(in)); };
    parts.output = [&](const Eigen::MatrixXf& h) { return l.down.apply(h); };
    return layerOfParts(x, parts, spec, tokens, i, stages);
}

} // namespace attnlab::detail

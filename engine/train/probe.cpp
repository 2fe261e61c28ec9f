#include "train/probe.h"

namespace attnlab::train {

Trace teacherForcedTrace(const std::shared_ptr<const Seq2SeqModel>& model, const Pair& pair)
{
    std::vector<Message> warnings;
    const auto source = modelTokens(*model, pair.source, false, ConfigLimits::maxTokens, warnings);
    const auto input = teacherForcingInput(*model, pair.target, ConfigLimits::maxTokens, warnings);
    Config c;
    c.model = ModelKind::File;
    static_cast<ModelSpec&>(c) = model->spec;
    return computeModelTrace(model, source, input, c);
}

double antiDiagonalWeight(const std::shared_ptr<const Seq2SeqModel>& model, const std::vector<Pair>& pairs)
{
    const int layer = model->spec.decoderLayers - 1;
    double sum = 0;
    int count = 0;
    for (const Pair& pair : pairs) {
        const Trace t = teacherForcedTrace(model, pair);
        const auto n = static_cast<Eigen::Index>(t.tokens.size());
        if (static_cast<Eigen::Index>(t.targetTokens.size()) != n + 1)
            continue;
        for (int h = 0; h < model->spec.heads; ++h) {
            const Stage* s = t.find("weights", h, layer, Block::Cross);
            if (!s)
                continue;
            // weights: (n + 1 decoder rows x n source columns)
            for (Eigen::Index i = 0; i < n; ++i)
                sum += s->main().values(i, n - 1 - i);
            count += static_cast<int>(n);
        }
    }
    return count ? sum / count : 0.0;
}

} // namespace attnlab::train

#include "nn/input_stages.h"

#include "core/stage_builder.h"
#include "nn/embedding.h"
#include "position/scheme.h"

namespace attnlab {

Eigen::MatrixXf inputStages(Eigen::MatrixXf e, const InputSide& side, const Labels& tokens, StageList& stages)
{
    using detail::addStage;
    using detail::putMatrix;
    const auto n = static_cast<int>(e.rows());
    const auto d = static_cast<int>(e.cols());
    const Labels dims = detail::numberedLabels(d);
    const StageKey embedding{"embedding", {}, {}, side.block};
    const StageKey positional{"positional_encoding", {}, {}, side.block};

    // embedding: E (n x d); the scaled copy E·s is what enters X.
    Eigen::MatrixXf scaled = e * embeddingScale(d, side.embedScale);
    // positional_encoding: P (n x d) for positions 0..n−1 (a model's target restarts at 0).
    Eigen::MatrixXf p = positionalEncoding(side.positional, n, d, side.seed);
    // input: X = E·s + P (n x d).
    Eigen::MatrixXf x = scaled + p;

    Stage& st = addStage(stages, embedding, side.embeddingTitle,
                         side.embedScale ? "E = Embed(tokens);  E·√d_model" : side.unscaledFormula, {}, side.module);
    putMatrix(st, "E", std::move(e), tokens, dims);
    putMatrix(st, "E_scaled", std::move(scaled), tokens, dims);
    putMatrix(addStage(stages, positional, "Positional encoding", std::string(positionScheme(side.positional).formula)), "P",
              std::move(p), tokens, dims);
    putMatrix(addStage(stages, {"input", {}, {}, side.block}, side.inputTitle, side.embedScale ? "X = E·√d_model + P" : "X = E + P",
                       {embedding, positional}),
              "X", x, tokens, dims);
    return x;
}

} // namespace attnlab

#include "train/cost.h"

#include <algorithm>
#include <thread>

namespace attnlab::train {

namespace {

using I = std::int64_t;

/// Bytes one forward pass keeps for its backward pass (train/layers.h's caches), and the
/// gradients the backward pass holds beside them (about half as much again), for `pairs` pairs
/// of s source and t target tokens (the decoder reads t + 1).
I activationBytes(const ModelSpec& spec, double pairs, double s, double t, I targetVocabulary)
{
    const double d = spec.dModel, ff = spec.feedForwardWidth(), h = spec.heads;
    const double m = t + 1;
    // Per token and layer: Q, K, V and the heads' outputs; each sublayer's input, normalised
    // input and output; the FFN's pre-activation and hidden rows. Per sequence and head: P.
    const double encoder = spec.encoderLayers * (s * (10 * d + 2 * ff) + h * s * s);
    const double decoder = spec.decoderLayers * (m * (17 * d + 2 * ff) + 2 * s * d + h * (m * m + m * s));
    const double head = 2 * m * static_cast<double>(targetVocabulary); // logits and their gradient
    return static_cast<I>(1.5 * 4 * pairs * (encoder + decoder + head + 2 * (s + m) * d));
}

/// Multiplications and additions of the encoder's forward pass over s source tokens.
double encoderOperations(const ModelSpec& spec, double s)
{
    const double d = spec.dModel, ff = spec.feedForwardWidth();
    return spec.encoderLayers * (s * 2 * (4 * d * d + 2 * d * ff) + 4 * d * s * s);
}

/// The decoder's and the output head's over m decoder tokens reading s source tokens: self-attention,
/// the cross-attention's Q and output on the decoder's rows, its K and V on the source's.
double decoderOperations(const ModelSpec& spec, double s, double m, I targetVocabulary)
{
    const double d = spec.dModel, ff = spec.feedForwardWidth();
    return spec.decoderLayers * (m * 2 * (6 * d * d + 2 * d * ff) + s * 4 * d * d + 4 * d * (m * m + m * s))
        + m * 2 * d * static_cast<double>(targetVocabulary);
}

/// One forward pass of one pair of s source and t target tokens (the decoder reads t + 1).
double forwardOperations(const ModelSpec& spec, double s, double t, I targetVocabulary)
{
    return encoderOperations(spec, s) + decoderOperations(spec, s, t + 1, targetVocabulary);
}

I parameterCount(const ModelSpec& spec, const TrainShape& shape)
{
    const I d = spec.dModel, ff = spec.feedForwardWidth();
    const I attention = 4 * d * d + 4 * d, ffn = 2 * d * ff + ff + d;
    const I layers = spec.encoderLayers * (attention + ffn + 4 * d) + spec.decoderLayers * (2 * attention + ffn + 6 * d) + 4 * d;
    return layers + (shape.sourceVocabulary + shape.targetVocabulary) * d + shape.targetVocabulary * (d + 1);
}

/// Seconds of `operations` on `threads` threads for a model of width d: about 20 GFLOP/s a core
/// for the small products of d_model 64 (README, Performance: 23 on one thread, 42 on two for
/// the standard preset), up to 50 for d_model 320 and more (a plain GEMM's rate).
double secondsOf(double operations, int threads, int dModel)
{
    const int cores = std::max(1, std::min(threads, static_cast<int>(std::thread::hardware_concurrency())));
    const double rate = 20e9 * std::clamp(dModel / 128.0, 1.0, 2.5);
    return operations / (rate * cores);
}

/// An evaluation of `pairs` pairs: the loss (one forward pass), then greedy decoding without a
/// cache: the encoder once, and at step k the decoder on k tokens of every pair, up to the
/// longest target's length + 1 (the exact match is decided by then).
double evaluationSeconds(const ModelSpec& spec, const TrainShape& shape, double pairs)
{
    const double s = shape.meanSource;
    double decode = encoderOperations(spec, s);
    for (int k = 1; k <= shape.longestTarget + 1; ++k)
        decode += decoderOperations(spec, s, k, shape.targetVocabulary);
    return secondsOf(pairs * (forwardOperations(spec, s, shape.meanTarget, shape.targetVocabulary) + decode), 1, spec.dModel); // on one thread
}

} // namespace

TrainShape shapeOf(const Task& task)
{
    TrainShape s;
    s.meanSource = task.meanSource;
    s.meanTarget = task.meanTarget;
    s.longestSource = std::max(1, task.longestSource);
    s.longestTarget = std::max(1, task.longestTarget);
    s.sourceVocabulary = static_cast<I>(task.sourceVocab.size());
    s.targetVocabulary = static_cast<I>(task.targetVocab.size());
    s.trainPairs = task.generated() ? 0 : static_cast<I>(task.train.size());
    s.heldOutPairs = static_cast<I>(task.heldOut.empty() ? task.train.size() : task.heldOut.size());
    return s;
}

TrainCost estimateTraining(const ModelSpec& spec, const TrainShape& shape, const TrainOptions& o, int reports, I reportPairs,
                           I finalPairs)
{
    TrainCost c;
    c.parameters = parameterCount(spec, shape);
    const double batch = o.batchAll ? static_cast<double>(std::max<I>(shape.trainPairs, 1)) : o.batch;
    // The parameters: the model, its flat copy, Adam's m and v, a gradient per thread, and one
    // more (the evaluation's unused gradient, or the copy saved at the end).
    const I weights = 4 * c.parameters * (5 + std::max(o.threads, 1));
    // A batch's activations: of pairs of the mean length, and one of the longest among them.
    const I batchBytes = activationBytes(spec, std::max(batch - 1, 0.0), shape.meanSource, shape.meanTarget, shape.targetVocabulary)
        + activationBytes(spec, 1, shape.longestSource, shape.longestTarget, shape.targetVocabulary);
    const I evaluation = activationBytes(spec, static_cast<double>(kEvaluationChunk), shape.longestSource, shape.longestTarget,
                                         shape.targetVocabulary);
    c.bytes = weights + std::max(batchBytes, evaluation);
    // A step: forward and backward (twice the forward's products), then Adam (about 10 operations a parameter).
    const double step = 3 * batch * forwardOperations(spec, shape.meanSource, shape.meanTarget, shape.targetVocabulary);
    c.stepSeconds = secondsOf(step, o.threads, spec.dModel) + 10.0 * static_cast<double>(c.parameters) / 2e9 + 2e-4;
    const auto sample = [&](I pairs) { return static_cast<double>(shape.heldOutPairs > 0 ? std::min(pairs, shape.heldOutPairs) : pairs); };
    c.seconds = o.steps * c.stepSeconds + reports * evaluationSeconds(spec, shape, sample(reportPairs))
        + evaluationSeconds(spec, shape, sample(finalPairs));
    return c;
}

} // namespace attnlab::train

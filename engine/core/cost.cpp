#include "core/cost.h"

#include "core/message.h"

#include <cmath>
#include <cstdio>

namespace attnlab {

namespace {

using I = std::int64_t;

/// One attention block of q queries over k keys: per head Q, K, V, the four score matrices
/// (scores, scaled, masked, weights) and the head's output; the mask, the concatenation and
/// the output.
I blockCells(I q, I k, I d, I h) { return (4 * h + 1) * q * k + (4 * q + 2 * k) * d; }
/// Its arithmetic: the projections, Q·Kᵀ and A·V, and W_O.
double blockOperations(I q, I k, I d)
{
    return 2.0 * static_cast<double>((q + 2 * k) * d * d) + 4.0 * static_cast<double>(q * k * d) + 2.0 * static_cast<double>(q * d * d);
}
/// A layer's other stages for r rows: each sublayer's residual sum and norm (with its mean and
/// variance), the FFN's hidden layer and output, the layer's output.
I layerCells(I r, I d, I ff, I norms) { return (2 * norms + 2) * r * d + r * ff + 2 * norms * r; }

struct Pass {
    I cells = 0;
    double operations = 0;
};

/// One pass of the model on n source and m target tokens.
Pass pass(const ModelSpec& s, const RunShape& shape, I m)
{
    const I d = s.dModel, h = s.heads, ff = s.feedForwardWidth(), n = shape.source;
    Pass p;
    if (shape.singleBlock) {
        p.cells = 3 * n * d + blockCells(n, n, d, h);
        p.operations = blockOperations(n, n, d);
        return p;
    }
    // Embeddings (as looked up and scaled), positions, input; the stacks' final outputs.
    p.cells = 4 * (n + m) * d + (n + m) * (d + 2);
    // A decoder-only model's layers read the sentence itself, as an encoder's do (without cross-attention).
    const bool decoderOnly = s.architecture == Architecture::DecoderOnly;
    const int selfLayers = decoderOnly ? s.decoderLayers : s.encoderLayers;
    for (int l = 0; l < selfLayers; ++l) {
        p.cells += blockCells(n, n, d, h) + layerCells(n, d, ff, 2);
        p.operations += blockOperations(n, n, d) + 4.0 * static_cast<double>(n * d * ff);
    }
    for (int l = 0; !decoderOnly && m > 0 && l < s.decoderLayers; ++l) {
        p.cells += blockCells(m, m, d, h) + blockCells(m, n, d, h) + layerCells(m, d, ff, 3);
        p.operations += blockOperations(m, m, d) + blockOperations(m, n, d) + 4.0 * static_cast<double>(m * d * ff);
    }
    // The output head reads the decoder's rows, or the sentence's when there is no decoder input.
    const I rows = m > 0 ? m : n;
    p.cells += 2 * rows * shape.vocabulary;
    p.operations += 2.0 * static_cast<double>(rows * d * shape.vocabulary);
    return p;
}

I weightCount(const ModelSpec& s, bool singleBlock)
{
    const I d = s.dModel, ff = s.feedForwardWidth();
    const I attention = 4 * d * d + 4 * d;
    if (singleBlock)
        return attention;
    const I ffn = 2 * d * ff + ff + d;
    if (s.architecture == Architecture::DecoderOnly)
        return s.decoderLayers * (attention + ffn + 4 * d) + 2 * d;
    return s.encoderLayers * (attention + ffn + 4 * d) + s.decoderLayers * (2 * attention + ffn + 6 * d) + 4 * d;
}

double megabytes(I bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

} // namespace

double RunCost::seconds() const
{
    return operations / 2e10 + numbersWritten * 2.5e-9 + static_cast<double>(weightBytes / 4) * 25e-9;
}

RunCost estimateCost(const ModelSpec& spec, const RunShape& shape)
{
    RunCost c;
    if (shape.makeWeights)
        c.weightBytes = 4 * weightCount(spec, shape.singleBlock);
    const bool generating = shape.generationSteps > 0 && !shape.singleBlock;
    const I m = generating ? shape.generationSteps : shape.target;
    const Pass last = pass(spec, shape, m);
    c.traceNumbers = last.cells;
    c.traceBytes = 4 * last.cells;
    c.operations = last.operations;
    c.numbersWritten = static_cast<double>(last.cells);
    if (generating) {
        // Step k is a pass on k decoder tokens, its whole trace made anew: the sum over k of the
        // decoder's part (the encoder runs once). Step k's attention is k × k: the time grows as
        // the cube of the length.
        const Pass encoderOnly = pass(spec, shape, 0);
        double decoder = 0, written = 0;
        for (I k = 1; k <= m; ++k) {
            const Pass step = pass(spec, shape, k);
            decoder += step.operations - encoderOnly.operations;
            written += static_cast<double>(step.cells - encoderOnly.cells);
        }
        c.operations = encoderOnly.operations + decoder;
        c.numbersWritten = static_cast<double>(encoderOnly.cells) + written;
    }
    return c;
}

void checkCost(const RunCost& c)
{
    if (c.weightBytes > CostLimits::maxWeightBytes)
        throw Error(messages::tooLarge("weights", megabytes(c.weightBytes), megabytes(CostLimits::maxWeightBytes)));
    if (c.traceBytes > CostLimits::maxTraceBytes)
        throw Error(messages::tooLarge("trace", megabytes(c.traceBytes), megabytes(CostLimits::maxTraceBytes)));
}

bool isLargeRun(const RunCost& c)
{
    return c.traceBytes + c.weightBytes > CostLimits::warnBytes || c.seconds() > CostLimits::warnSeconds;
}

void checkWork(const std::string& what, const WorkCost& c, const std::string& reduce)
{
    if (c.bytes <= CostLimits::maxWorkBytes)
        return;
    std::string size = sizeText(c.bytes);
    const std::string limit = sizeText(CostLimits::maxWorkBytes);
    if (size == limit) { // "4.03 GB", not "4 GB; the limit is 4 GB"
        char s[32];
        std::snprintf(s, sizeof s, "%.2f GB", static_cast<double>(c.bytes) / (1LL << 30));
        size = s;
    }
    throw Error(messages::workTooLarge(what, size, limit, reduce));
}

bool isLargeWork(const WorkCost& c)
{
    return c.bytes > CostLimits::warnBytes || c.seconds > CostLimits::warnSeconds;
}

std::string sizeText(std::int64_t bytes)
{
    char s[32];
    const double gb = std::round(static_cast<double>(bytes) / (1LL << 30) * 10) / 10;
    if (gb >= 1)
        std::snprintf(s, sizeof s, gb >= 10 || gb == std::floor(gb) ? "%.0f GB" : "%.1f GB", gb); // "4 GB", "9.3 GB"
    else
        std::snprintf(s, sizeof s, "%.0f MB", std::max(1.0, megabytes(bytes)));
    return s;
}

std::string durationText(double seconds)
{
    char s[32];
    if (seconds < 90)
        std::snprintf(s, sizeof s, "%.0f s", std::max(1.0, seconds));
    else if (seconds < 90 * 60)
        std::snprintf(s, sizeof s, "%.0f min", seconds / 60);
    else if (seconds < 48 * 3600)
        std::snprintf(s, sizeof s, "%.1f h", seconds / 3600);
    else
        std::snprintf(s, sizeof s, "%.0f days", seconds / 86400);
    return s;
}

} // namespace attnlab

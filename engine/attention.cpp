#include "attention.h"

#include "embedding.h"
#include "tokenizer.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace attnlab {

namespace {

Labels featureLabels(int count, const std::string& prefix = "d")
{
    auto v = std::make_shared<std::vector<std::string>>();
    v->reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i)
        v->push_back(prefix + std::to_string(i));
    return v;
}

/// "h0·d0", "h0·d1", ..., "h1·d0", ...: which head and dimension a concat column came from.
Labels concatLabels(int heads, int dK)
{
    auto v = std::make_shared<std::vector<std::string>>();
    v->reserve(static_cast<std::size_t>(heads * dK));
    for (int h = 0; h < heads; ++h) {
        // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
        std::string head = "h";
        head += std::to_string(h);
        head += "\xC2\xB7" "d"; // "h1·d"
        for (int i = 0; i < dK; ++i)
            v->push_back(head + std::to_string(i));
    }
    return v;
}

/// Builds stages in order and keeps the shared labels.
class TraceBuilder {
public:
    explicit TraceBuilder(Trace& t) : m_trace(t) {}

    Stage& add(std::string id, std::optional<int> head, std::string title, std::string formula)
    {
        m_trace.stages.push_back(Stage{std::move(id), head, std::move(title), std::move(formula), {}});
        return m_trace.stages.back();
    }

    static void put(Stage& s, std::string name, Eigen::MatrixXf values, Labels rows, Labels cols)
    {
        s.matrices.push_back(LabeledMatrix{std::move(name), std::move(values), std::move(rows), std::move(cols)});
    }

private:
    Trace& m_trace;
};

std::string quoted(const std::string& token)
{
    return "\xE2\x80\x9C" + token + "\xE2\x80\x9D"; // “token”
}

} // namespace

Eigen::MatrixXf rowSoftmax(const Eigen::MatrixXf& scores, std::vector<Eigen::Index>* emptyRows)
{
    // Whole-matrix operations rather than a loop over rows: the matrices are column-major,
    // so a row is strided in memory while these expressions run down contiguous columns.
    Eigen::VectorXf rowMax = scores.rowwise().maxCoeff();
    for (Eigen::Index i = 0; i < rowMax.size(); ++i) {
        if (!(rowMax(i) > -std::numeric_limits<float>::infinity())) {
            // Every key is masked: softmax is undefined (0/0). The row becomes 0, not NaN:
            // with a max of 0 every exp(-inf - 0) below is exactly 0.
            rowMax(i) = 0.0f;
            if (emptyRows)
                emptyRows->push_back(i);
        }
    }
    // Subtract the row max before exp for numerical stability: the largest term is exp(0) = 1,
    // so nothing overflows; exp(-inf) = 0 makes masked keys vanish exactly.
    Eigen::MatrixXf out = (scores.colwise() - rowMax).array().exp().matrix();
    Eigen::ArrayXf sums = out.rowwise().sum().array();
    sums = (sums > 0.0f).select(sums, 1.0f); // the empty rows: 0 / 1 = 0
    out.array().colwise() /= sums;
    return out;
}

Trace computeTrace(const Request& request)
{
    const Config& cfg = request.config;
    cfg.validate();

    Trace trace;
    trace.config = cfg;
    Tokenization tok = tokenize(request.sentence, cfg.maxTokens, cfg.padTo);
    if (tok.tokens.empty())
        throw std::invalid_argument("the sentence has no tokens: type at least one word");
    trace.tokens = std::move(tok.tokens);
    trace.warnings = std::move(tok.warnings);

    const auto n = static_cast<Eigen::Index>(trace.tokens.size());
    const int d = cfg.dModel;
    const int heads = cfg.heads;
    const int dK = cfg.dK();
    if (static_cast<std::int64_t>(n) * n * heads > ConfigLimits::maxAttentionCells)
        throw std::invalid_argument("n (" + std::to_string(n) + ") squared times heads (" + std::to_string(heads)
                                    + ") exceeds " + std::to_string(ConfigLimits::maxAttentionCells)
                                    + " attention cells: use fewer tokens or heads");

    std::shared_ptr<const AttentionWeights> weights = request.weights;
    if (!weights)
        weights = std::make_shared<const AttentionWeights>(presetWeights(cfg.weightsPreset, d, cfg.seed));
    if (weights->dModel() != d)
        throw std::invalid_argument("d_model (" + std::to_string(d) + ") does not match the weights, whose d_model is "
                                    + std::to_string(weights->dModel()));
    trace.weights = weights;

    // Mask first: a wrong-sized custom mask is a bad request, reported before any work.
    const BoolMatrix blocked = blockedCells(cfg.mask, trace.tokens, request.customMask);

    const Labels tokens = std::make_shared<const std::vector<std::string>>(trace.tokens);
    const Labels dims = featureLabels(d);
    const Labels headDims = featureLabels(dK);
    TraceBuilder b(trace);
    trace.stages.reserve(6 + 8 * static_cast<std::size_t>(heads));

    // embedding: E (n x d), one seeded row per token string.
    Eigen::MatrixXf e = tokenEmbeddings(trace.tokens, d, cfg.seed);
    const float s = embeddingScale(d, cfg.embedScale);
    {
        Stage& st = b.add("embedding", {}, "Token embeddings",
                          cfg.embedScale ? "E = Embed(tokens);  E·√d_model" : "E = Embed(tokens)  (no √d_model scaling)");
        Eigen::MatrixXf scaled = e * s;
        b.put(st, "E", std::move(e), tokens, dims);
        b.put(st, "E_scaled", std::move(scaled), tokens, dims);
    }
    // positional_encoding: P (n x d).
    {
        const char* formula = cfg.positional == PositionalEncoding::Sinusoidal
            ? "PE(pos, 2i) = sin(pos / 10000^(2i/d_model)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model))"
            : cfg.positional == PositionalEncoding::Learned ? "P = learned position table [pos]" : "P = 0  (no positional encoding)";
        Stage& st = b.add("positional_encoding", {}, "Positional encoding", formula);
        b.put(st, "P", positionalEncoding(cfg.positional, static_cast<int>(n), d, cfg.seed), tokens, dims);
    }
    // input: X = E·s + P (n x d).
    const Eigen::MatrixXf x = trace.stages[0].matrices[1].values + trace.stages[1].main().values;
    b.put(b.add("input", {}, "Input X", cfg.embedScale ? "X = E·√d_model + P" : "X = E + P"), "X", x, tokens, dims);

    // All three projections in one GEMM: (n x 3d) = X (n x d) · W_inᵀ (d x 3d), plus the bias.
    Eigen::MatrixXf qkv = x * weights->inProjWeight.transpose();
    qkv.rowwise() += weights->inProjBias.transpose();

    // q, k, v: head h takes feature columns h·d_k .. (h+1)·d_k - 1 of each projection.
    const char* names[3] = {"q", "k", "v"};
    const char* titles[3] = {"Queries Q", "Keys K", "Values V"};
    const char* formulas[3] = {"Q_h = X·W_Q,hᵀ + b_Q,h", "K_h = X·W_K,hᵀ + b_K,h", "V_h = X·W_V,hᵀ + b_V,h"};
    const char* matNames[3] = {"Q_h", "K_h", "V_h"};
    std::vector<Eigen::MatrixXf> q(heads), k(heads), v(heads);
    std::vector<Eigen::MatrixXf>* qkvHeads[3] = {&q, &k, &v};
    for (int p = 0; p < 3; ++p) {
        for (int h = 0; h < heads; ++h) {
            (*qkvHeads[p])[h] = qkv.middleCols(p * d + h * dK, dK);
            b.put(b.add(names[p], h, titles[p], formulas[p]), matNames[p], (*qkvHeads[p])[h], tokens, headDims);
        }
    }

    // scores: S_h (n x n) = Q_h (n x d_k) · K_hᵀ (d_k x n).
    std::vector<Eigen::MatrixXf> scores(heads);
    for (int h = 0; h < heads; ++h) {
        scores[h].noalias() = q[h] * k[h].transpose();
        b.put(b.add("scores", h, "Scores Q·Kᵀ", "S_h = Q_h·K_hᵀ"), "S_h", scores[h], tokens, tokens);
    }
    // scaled: S'_h = S_h / √d_k keeps the scores' variance near 1 whatever d_k is.
    const float c = cfg.scaleScores ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(dK))) : 1.0f;
    for (int h = 0; h < heads; ++h) {
        scores[h] *= c;
        b.put(b.add("scaled", h, "Scaled scores", cfg.scaleScores ? "S'_h = S_h / √d_k" : "S'_h = S_h  (scaling off)"),
              "S'_h", scores[h], tokens, tokens);
    }
    // mask: M (n x n), 0 where allowed and -inf where hidden; the same for every head.
    const Eigen::MatrixXf m = additiveMask(blocked);
    b.put(b.add("mask", {}, "Mask", "M_ij = −∞ if key j is hidden from query i, else 0"), "M", m, tokens, tokens);
    const bool anyMasked = blocked.any();
    for (int h = 0; h < heads; ++h) {
        if (anyMasked)
            scores[h] += m;
        b.put(b.add("masked_scores", h, "Masked scores", "S''_h = S'_h + M"), "S''_h", scores[h], tokens, tokens);
    }
    // weights: A_h = softmax of each row of S''_h; each row sums to 1.
    std::vector<Eigen::MatrixXf> a(heads);
    std::vector<Eigen::Index> emptyRows;
    for (int h = 0; h < heads; ++h) {
        a[h] = rowSoftmax(scores[h], h == 0 ? &emptyRows : nullptr);
        b.put(b.add("weights", h, "Attention weights", "A_h = softmax(S''_h)  (row-wise)"), "A_h", a[h], tokens, tokens);
    }
    for (const auto row : emptyRows) {
        trace.warnings.push_back("query " + std::to_string(row) + " (" + quoted(trace.tokens[static_cast<std::size_t>(row)])
                                 + ") has every key masked: its attention weights are all 0");
    }
    // head_output: Z_h (n x d_k) = A_h (n x n) · V_h (n x d_k); concat: C = [Z_0 | ... | Z_{h-1}].
    Eigen::MatrixXf concat(n, d);
    for (int h = 0; h < heads; ++h) {
        concat.middleCols(h * dK, dK).noalias() = a[h] * v[h];
        b.put(b.add("head_output", h, "Head output", "Z_h = A_h·V_h"), "Z_h", concat.middleCols(h * dK, dK), tokens, headDims);
    }
    b.put(b.add("concat", {}, "Concatenated heads", "C = [Z_0 | Z_1 | … | Z_h-1]"), "C", concat, tokens, concatLabels(heads, dK));

    // output: O (n x d) = C (n x d) · W_Oᵀ (d x d) + b_O.
    Eigen::MatrixXf out = concat * weights->outProjWeight.transpose();
    out.rowwise() += weights->outProjBias.transpose();
    b.put(b.add("output", {}, "Output projection", "O = C·W_Oᵀ + b_O"), "O", std::move(out), tokens, dims);
    return trace;
}

} // namespace attnlab

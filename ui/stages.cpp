#include "stages.h"

#include "trace.h"

#include <QCoreApplication>

namespace attnlab {

namespace {

/// Translation context for the stage texts (lupdate sees Stages::tr("...")).
struct Stages {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Stages)
};

QString dims(long long r, long long c)
{
    return QStringLiteral("%1 \u00D7 %2").arg(r).arg(c); // "5 × 8"
}

} // namespace

const std::vector<Step>& steps()
{
    static const std::vector<Step> kSteps{
        {QStringLiteral("tokens"), false},
        {QStringLiteral("embedding"), false},
        {QStringLiteral("positional_encoding"), false},
        {QStringLiteral("input"), false},
        {QStringLiteral("q"), true},
        {QStringLiteral("k"), true},
        {QStringLiteral("v"), true},
        {QStringLiteral("scores"), true},
        {QStringLiteral("scaled"), true},
        {QStringLiteral("mask"), false},
        {QStringLiteral("masked_scores"), true},
        {QStringLiteral("weights"), true},
        {QStringLiteral("head_output"), true},
        {QStringLiteral("concat"), false},
        {QStringLiteral("output"), false},
    };
    return kSteps;
}

int stepIndex(const QString& id)
{
    const auto& s = steps();
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i].id == id)
            return static_cast<int>(i);
    }
    return -1;
}

ViewKind viewKindFor(const QString& stageId, const QString& view)
{
    if (view == u"kernel-regression")
        return ViewKind::KernelRegression;
    if (view == u"softmax-scaling")
        return ViewKind::SoftmaxScaling;
    if (view == u"heads")
        return ViewKind::Heads;
    if (stageId == u"tokens")
        return ViewKind::Tokens;
    if (stageId == u"positional_encoding")
        return ViewKind::Positional;
    if (stageId == u"concat")
        return ViewKind::Concat;
    return ViewKind::Matrix;
}

QString stepName(const QString& id)
{
    if (id == u"tokens")
        return Stages::tr("Tokens");
    if (id == u"embedding")
        return Stages::tr("Embedding");
    if (id == u"positional_encoding")
        return Stages::tr("Positional encoding");
    if (id == u"input")
        return Stages::tr("Input X = E + P");
    if (id == u"q")
        return Stages::tr("Queries Q");
    if (id == u"k")
        return Stages::tr("Keys K");
    if (id == u"v")
        return Stages::tr("Values V");
    if (id == u"scores")
        return Stages::tr("Scores Q\u00B7K\u1D40");
    if (id == u"scaled")
        return Stages::tr("Scaled \u00F7 √d_k");
    if (id == u"mask")
        return Stages::tr("Mask M");
    if (id == u"masked_scores")
        return Stages::tr("Masked scores");
    if (id == u"weights")
        return Stages::tr("Softmax \u2192 weights A");
    if (id == u"head_output")
        return Stages::tr("Head output A\u00B7V");
    if (id == u"concat")
        return Stages::tr("Concatenate heads");
    if (id == u"output")
        return Stages::tr("Output \u00B7W_O");
    return id;
}

QString stepFormula(const QString& id, bool scaled, bool embedScaled)
{
    if (id == u"tokens")
        return Stages::tr("sentence \u2192 tokens t\u2080 \u2026 t\u2099\u208B\u2081");
    if (id == u"embedding")
        return embedScaled ? Stages::tr("E = Embed(tokens),  scaled by √d_model") : Stages::tr("E = Embed(tokens)");
    if (id == u"positional_encoding")
        return Stages::tr("PE(pos, 2i) = sin(pos / 10000^(2i/d_model)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model))");
    if (id == u"input")
        return embedScaled ? Stages::tr("X = E\u00B7√d_model + P") : Stages::tr("X = E + P");
    if (id == u"q")
        return Stages::tr("Q_h = X\u00B7W_Q,h + b_Q,h");
    if (id == u"k")
        return Stages::tr("K_h = X\u00B7W_K,h + b_K,h");
    if (id == u"v")
        return Stages::tr("V_h = X\u00B7W_V,h + b_V,h");
    if (id == u"scores")
        return Stages::tr("S_h = Q_h\u00B7K_h\u1D40");
    if (id == u"scaled")
        return scaled ? Stages::tr("S\u2032_h = Q_h\u00B7K_h\u1D40 / √d_k") : Stages::tr("S\u2032_h = Q_h\u00B7K_h\u1D40   (scaling switched off)");
    if (id == u"mask")
        return Stages::tr("M_ij = \u2212\u221E if key j is hidden from query i, else 0");
    if (id == u"masked_scores")
        return Stages::tr("S\u2033_h = Q_h\u00B7K_h\u1D40 / √d_k + M");
    if (id == u"weights")
        return scaled ? Stages::tr("A_h = softmax(Q_h\u00B7K_h\u1D40 / √d_k + M)") : Stages::tr("A_h = softmax(Q_h\u00B7K_h\u1D40 + M)");
    if (id == u"head_output")
        return Stages::tr("Z_h = A_h\u00B7V_h");
    if (id == u"concat")
        return Stages::tr("C = [Z_1 | Z_2 | \u2026 | Z_h]");
    if (id == u"output")
        return Stages::tr("O = C\u00B7W_O + b_O");
    return {};
}

QString stepShapes(const QString& id, const Trace& t)
{
    const long long n = static_cast<long long>(t.tokens.size());
    const long long d = t.config.dModel;
    const long long dk = t.config.dK();
    const long long h = t.config.heads;
    const QString arrow = QStringLiteral("  \u2192  ");
    if (id == u"tokens")
        return Stages::tr("n = %1 tokens").arg(n);
    if (id == u"embedding" || id == u"positional_encoding" || id == u"input")
        return QStringLiteral("n \u00D7 d_model = ") + dims(n, d);
    if (id == u"q" || id == u"k" || id == u"v")
        return QStringLiteral("X: ") + dims(n, d) + QStringLiteral(",  W: ") + dims(d, dk) + arrow + dims(n, dk);
    if (id == u"scores" || id == u"scaled" || id == u"masked_scores")
        return QStringLiteral("Q_h: ") + dims(n, dk) + QStringLiteral(",  K_h\u1D40: ") + dims(dk, n) + arrow + dims(n, n);
    if (id == u"mask" || id == u"weights")
        return dims(n, n) + Stages::tr(",  rows = queries, columns = keys");
    if (id == u"head_output")
        return QStringLiteral("A_h: ") + dims(n, n) + QStringLiteral(",  V_h: ") + dims(n, dk) + arrow + dims(n, dk);
    if (id == u"concat")
        return Stages::tr("%1 heads \u00D7 ").arg(h) + dims(n, dk) + arrow + dims(n, h * dk);
    if (id == u"output")
        return QStringLiteral("C: ") + dims(n, d) + QStringLiteral(",  W_O: ") + dims(d, d) + arrow + dims(n, d);
    return {};
}

QString stepExplanation(const QString& id)
{
    if (id == u"tokens")
        return Stages::tr("The sentence is cut into tokens: words and punctuation, one token per Chinese character.");
    if (id == u"embedding")
        return Stages::tr("Each token looks up its own vector in an embedding table: the same word always gets the same vector.");
    if (id == u"positional_encoding")
        return Stages::tr("Attention itself ignores order, so each position gets a pattern of sines and cosines of different frequencies.");
    if (id == u"input")
        return Stages::tr("The input of attention is the embedding plus the position: what the word is and where it stands.");
    if (id == u"q")
        return Stages::tr("A query says what a token is looking for.");
    if (id == u"k")
        return Stages::tr("A key says what a token offers, to be matched against the queries.");
    if (id == u"v")
        return Stages::tr("A value is what a token hands over when it is attended to.");
    if (id == u"scores")
        return Stages::tr("Every query is compared with every key by a dot product: large means a good match.");
    if (id == u"scaled")
        return Stages::tr("Dot products grow with d_k; dividing by √d_k keeps their spread near 1 so the softmax does not saturate.");
    if (id == u"mask")
        return Stages::tr("The mask hides keys a query may not see: future tokens (causal) or <pad> tokens (padding). \u2212\u221E becomes exactly 0 after the softmax.");
    if (id == u"masked_scores")
        return Stages::tr("Adding the mask turns hidden scores into \u2212\u221E.");
    if (id == u"weights")
        return Stages::tr("Softmax turns each row of scores into probabilities: every row sums to 1.");
    if (id == u"head_output")
        return Stages::tr("Each token's output is the weighted sum of the values, with the attention weights as weights.");
    if (id == u"concat")
        return Stages::tr("The heads' outputs are placed side by side: each head contributes d_k columns.");
    if (id == u"output")
        return Stages::tr("A last projection W_O mixes the heads back into one d_model-wide vector per token.");
    return {};
}

} // namespace attnlab

// The cell inspector's explanations, from real traces: every number the engine recomputes (q_i·k_j,
// the softmax row with its exp terms, Σ_j A·V, X·W + b) against the same sum written out by hand in
// long double from the trace's own inputs, and against the trace's value to float rounding; masked
// keys, an all-masked row, cross-attention (keys from key_input), and stale cells (no explanation).

#include "explain/cell_explanation.h"

#include "core/stage_builder.h"
#include "model/open.h"
#include "model/run.h"
#include "pretrained/model_folder.h"
#include "nn/attention.h"
#include "nn/weights.h"

#include "support/compare.h"
#include "support/hf.h"
#include "support/stages.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <memory>
#include <numeric>

using namespace attnlab;
using attnlab::testing::largestDifference;

namespace {

using attnlab::testing::stage;

Trace trace(int d, int heads, MaskKind mask = MaskKind::None, bool scale = true, AttentionKind kind = AttentionKind::Full,
            const AttentionOptions& options = {})
{
    Request r;
    r.sentence = "the cat sat on the mat";
    r.config.dModel = d;
    r.config.heads = heads;
    r.config.mask = mask;
    r.config.scaleScores = scale;
    r.config.attention = kind;
    r.config.attentionOptions = options;
    return computeTrace(r);
}

/// d_model 8, 2 heads, the position scheme `pe` with its options.
Trace positionTrace(PositionalEncoding pe, const PositionOptions& options)
{
    Request r;
    r.sentence = "the cat sat on the mat";
    r.config.dModel = 8;
    r.config.heads = 2;
    r.config.positional = pe;
    r.config.positionOptions = options;
    return computeTrace(r);
}

/// float rounding of a sum of n terms of these sizes, generously: n · 2^-23 · Σ|term|.
double floatTolerance(const std::vector<double>& terms)
{
    double size = 1;
    for (double t : terms)
        size += std::abs(t);
    return 4.0 * static_cast<double>(terms.size() + 1) * 0x1.0p-23 * size;
}

QString scalarDiff(const char* what, double got, double want)
{
    return QStringLiteral("%1: got %2, want %3 (difference %4)")
        .arg(QLatin1String(what))
        .arg(got, 0, 'g', 17)
        .arg(want, 0, 'g', 17)
        .arg(std::abs(got - want), 0, 'g', 3);
}

/// A cross-attention block as the Session shows one: 3 decoder queries attend to 5 encoder keys;
/// "input" is the queries' input, "key_input" the memory the keys and values come from.
Trace crossTrace()
{
    const int d = 8;
    const int heads = 2;
    Trace t;
    t.config.dModel = d;
    t.config.heads = heads;
    t.tokens = {"<sos>", "c", "b"};
    auto w = std::make_shared<AttentionWeights>(presetWeights(WeightsPreset::Seeded, d, 7));
    t.weights = w;
    const Eigen::MatrixXf xq = Eigen::MatrixXf::Random(3, d);
    const Eigen::MatrixXf mem = Eigen::MatrixXf::Random(5, d) * 2.0f;
    AttentionBlockContext c;
    c.queryLabels = std::make_shared<const std::vector<std::string>>(t.tokens);
    c.keyLabels = std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"a", "b", "c", "d", "e"});
    attentionBlock(xq, mem, *w, heads, true, BoolMatrix::Constant(3, 5, false), c, t.stages, t.warnings);
    detail::putMatrix(detail::addStage(t.stages, {"input"}, "Input", "X"), "X", xq, c.queryLabels, detail::numberedLabels(d));
    detail::putMatrix(detail::addStage(t.stages, {"key_input"}, "Memory", "Mem"), "Mem", mem, c.keyLabels,
                      detail::numberedLabels(d));
    return t;
}

/// X[i, :]·W[row, :] + b[row] by hand, in long double.
long double handProjection(const Eigen::MatrixXf& x, const AttentionWeights& w, int i, int row)
{
    long double sum = w.inProjBias(row);
    for (Eigen::Index k = 0; k < x.cols(); ++k)
        sum += static_cast<long double>(x(i, k)) * w.inProjWeight(row, k);
    return sum;
}

} // namespace

class TestCellExplanation : public QObject {
    Q_OBJECT
private slots:
    void scoreIsTheDotProduct_data()
    {
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("head");
        QTest::addColumn<int>("i");
        QTest::addColumn<int>("j");
        QTest::addColumn<bool>("scale");
        QTest::newRow("one head, cat·mat") << 1 << 0 << 1 << 5 << true;
        QTest::newRow("two heads, head 2, sat·on") << 2 << 1 << 2 << 3 << true;
        QTest::newRow("four heads, head 3, the·the") << 4 << 2 << 0 << 4 << true;
        QTest::newRow("scaling off") << 2 << 0 << 3 << 1 << false;
    }

    void scoreIsTheDotProduct()
    {
        QFETCH(int, heads);
        QFETCH(int, head);
        QFETCH(int, i);
        QFETCH(int, j);
        QFETCH(bool, scale);
        const Trace t = trace(16, heads, MaskKind::None, scale);
        const auto e = explainScore(t, head, i, j);
        QVERIFY(e);
        const Eigen::MatrixXf& q = stage(t, "q", head);
        const Eigen::MatrixXf& k = stage(t, "k", head);
        const int dK = 16 / heads;
        // q_i·k_j by hand, term by term and summed in long double.
        std::vector<long double> products;
        long double dot = 0;
        for (int d = 0; d < dK; ++d) {
            products.push_back(static_cast<long double>(q(i, d)) * k(j, d));
            dot += products.back();
        }
        QCOMPARE(int(e->products.size()), dK);
        double worst = 0;
        QString where = largestDifference(e->products, products, &worst);
        QVERIFY2(worst == 0, qPrintable(QStringLiteral("products: ") + where)); // float × float is exact in double
        QVERIFY2(std::abs(e->sum - static_cast<double>(dot)) < 1e-12, qPrintable(scalarDiff("Σ q·k", e->sum, static_cast<double>(dot))));
        // The sum is the trace's score to float rounding; then ÷√d_k (or not), + 0, and A_ij.
        QVERIFY2(std::abs(e->sum - e->score) < floatTolerance(e->products), qPrintable(scalarDiff("Σ vs S", e->sum, e->score)));
        QCOMPARE(e->score, double(stage(t, "scores", head)(i, j)));
        QCOMPARE(e->scaling, scale);
        QCOMPARE(e->root, std::sqrt(double(dK)));
        const double scaled = scale ? e->score / std::sqrt(double(dK)) : e->score;
        QVERIFY2(std::abs(e->scaled - scaled) < 1e-6 * (1 + std::abs(scaled)), qPrintable(scalarDiff("S′", e->scaled, scaled)));
        QCOMPARE(e->mask, 0.0);
        QVERIFY(!e->hidden);
        QCOMPARE(e->masked, e->scaled);
        QCOMPARE(e->weight, double(stage(t, "weights", head)(i, j)));
        QVERIFY(e->dims && e->dims->at(0) == "d1");
    }

    void hiddenKeyIsMinusInfinity()
    {
        const Trace t = trace(8, 2, MaskKind::Causal);
        const auto e = explainScore(t, 1, 1, 4); // key 4 lies in query 1's future
        QVERIFY(e);
        QVERIFY(e->hidden);
        QVERIFY(std::isinf(e->mask) && e->mask < 0);
        QVERIFY(std::isinf(e->masked) && e->masked < 0);
        QCOMPARE(e->weight, 0.0);
        QVERIFY(std::isfinite(e->score)); // the score itself is ordinary: the mask comes after it
        const auto seen = explainScore(t, 1, 4, 1);
        QVERIFY(seen && !seen->hidden && seen->weight > 0);
    }

    void weightsRowIsTheSoftmax_data()
    {
        QTest::addColumn<int>("i");
        for (int i : {0, 2, 5})
            QTest::addRow("row %d", i) << i;
    }

    void weightsRowIsTheSoftmax()
    {
        QFETCH(int, i);
        const Trace t = trace(8, 2, MaskKind::Causal);
        const int head = 1;
        const auto e = explainWeightsRow(t, head, i);
        QVERIFY(e);
        const Eigen::MatrixXf& s = stage(t, "masked_scores", head);
        const int n = static_cast<int>(s.cols());
        // Causal: keys after i are masked.
        std::vector<int> masked;
        for (int j = i + 1; j < n; ++j)
            masked.push_back(j);
        QCOMPARE(e->maskedKeys, masked);
        QVERIFY(!e->allMasked);
        // By hand: the row max of the visible keys, exp(S″ − max), Σ, and exp / Σ; masked keys 0.
        long double max = -std::numeric_limits<long double>::infinity();
        for (int j = 0; j <= i; ++j)
            max = std::max(max, static_cast<long double>(s(i, j)));
        std::vector<long double> exps(static_cast<std::size_t>(n), 0.0L);
        long double sum = 0;
        for (int j = 0; j <= i; ++j) {
            exps[static_cast<std::size_t>(j)] = std::exp(static_cast<long double>(s(i, j)) - max);
            sum += exps[static_cast<std::size_t>(j)];
        }
        std::vector<long double> weights;
        for (long double x : exps)
            weights.push_back(x / sum);
        QCOMPARE(e->softmax.max, double(max));
        double worst = 0;
        QString where = largestDifference(e->softmax.exps, exps, &worst);
        QVERIFY2(worst < 1e-15, qPrintable(QStringLiteral("exp terms: ") + where));
        QVERIFY2(std::abs(e->softmax.sumExp - double(sum)) < 1e-14, qPrintable(scalarDiff("Σ exp", e->softmax.sumExp, double(sum))));
        where = largestDifference(e->softmax.weights, weights, &worst);
        QVERIFY2(worst < 1e-15, qPrintable(QStringLiteral("recomputed weights: ") + where));
        // The trace's weights are the same softmax in float.
        where = largestDifference(e->weights, weights, &worst);
        QVERIFY2(worst < 1e-6, qPrintable(QStringLiteral("trace weights: ") + where));
        for (int j : masked)
            QCOMPARE(e->weights[static_cast<std::size_t>(j)], 0.0);
        QVERIFY2(std::abs(e->sumWeights - 1) < 1e-6, qPrintable(scalarDiff("Σ A", e->sumWeights, 1)));
        const auto top = std::max_element(weights.begin(), weights.end()) - weights.begin();
        QCOMPARE(e->largest, int(top));
        QVERIFY(e->scaling);
        QCOMPARE(e->root, 2.0); // d_k = 8 / 2 = 4
    }

    void allMaskedRowHasNoWeights()
    {
        Request r;
        r.sentence = "a b c";
        r.config.dModel = 4;
        r.config.heads = 1;
        r.config.mask = MaskKind::Custom;
        BoolMatrix m = BoolMatrix::Constant(3, 3, false);
        m.row(1).setConstant(true);
        r.customMask = m;
        const Trace t = computeTrace(r);
        const auto e = explainWeightsRow(t, 0, 1);
        QVERIFY(e);
        QVERIFY(e->allMasked);
        QCOMPARE(e->maskedKeys, (std::vector<int>{0, 1, 2}));
        QCOMPARE(e->softmax.sumExp, 0.0);
        QCOMPARE(e->softmax.weights, (std::vector<double>{0.0, 0.0, 0.0}));
        QCOMPARE(e->sumWeights, 0.0);
    }

    void headOutputIsTheWeightedSumOfValues()
    {
        const Trace t = trace(8, 2, MaskKind::Causal);
        const int head = 1;
        const int i = 3;
        const int c = 1;
        const auto e = explainHeadOutput(t, head, i, c);
        QVERIFY(e);
        const Eigen::MatrixXf& a = stage(t, "weights", head);
        const Eigen::MatrixXf& v = stage(t, "v", head);
        std::vector<long double> terms;
        long double sum = 0;
        for (Eigen::Index j = 0; j < a.cols(); ++j) {
            terms.push_back(static_cast<long double>(a(i, j)) * v(j, c));
            sum += terms.back();
        }
        double worst = 0;
        const QString where = largestDifference(e->terms, terms, &worst);
        QVERIFY2(worst == 0, qPrintable(QStringLiteral("terms: ") + where));
        QVERIFY2(std::abs(e->sum - double(sum)) < 1e-12, qPrintable(scalarDiff("Σ A·V", e->sum, double(sum))));
        QCOMPARE(e->output, double(stage(t, "head_output", head)(i, c)));
        QVERIFY2(std::abs(e->sum - e->output) < floatTolerance(e->terms), qPrintable(scalarDiff("Σ vs Z", e->sum, e->output)));
        // Keys 4 and 5 are in the future: weight 0, no contribution.
        QCOMPARE(e->zeroWeights, 2);
        QCOMPARE(e->terms[5], 0.0);
        const auto largest = std::max_element(terms.begin(), terms.end(), [](long double x, long double y) { return std::abs(x) < std::abs(y); });
        QCOMPARE(e->largest, int(largest - terms.begin()));
        QCOMPARE(e->largestTerm, double(*largest));
    }

    void projectionListsTheLargestTerms_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("block");
        QTest::newRow("q") << QStringLiteral("q") << 0;
        QTest::newRow("k") << QStringLiteral("k") << 1;
        QTest::newRow("v") << QStringLiteral("v") << 2;
    }

    void projectionListsTheLargestTerms()
    {
        QFETCH(QString, id);
        QFETCH(int, block);
        const int d = 16;
        const Trace t = trace(d, 2);
        const int head = 1;
        const int i = 4;
        const int c = 3;
        const auto e = explainProjection(t, id.toStdString(), head, i, c, 8);
        QVERIFY(e);
        QCOMPARE(e->block, block);
        QCOMPARE(e->weightRow, 1 * 8 + 3); // h·d_k + c
        QCOMPARE(e->inProjRow, block * d + 11);
        QCOMPARE(e->inputWidth, d);
        // Listed: the 8 largest |X[i, d]·W[r, d]|, largest first, each as written out by hand.
        const Eigen::MatrixXf& x = stage(t, "input");
        const AttentionWeights& w = *t.weights;
        QCOMPARE(int(e->listed.size()), 8);
        std::vector<double> everyTerm;
        for (int k = 0; k < d; ++k)
            everyTerm.push_back(static_cast<double>(x(i, k)) * w.inProjWeight(e->inProjRow, k));
        std::vector<double> sizes;
        for (double v : everyTerm)
            sizes.push_back(std::abs(v));
        std::sort(sizes.begin(), sizes.end(), std::greater<>());
        for (std::size_t k = 0; k < e->listed.size(); ++k) {
            const auto& term = e->listed[k];
            QCOMPARE(term.x, double(x(i, term.dim)));
            QCOMPARE(term.w, double(w.inProjWeight(e->inProjRow, term.dim)));
            QCOMPARE(term.product, everyTerm[static_cast<std::size_t>(term.dim)]);
            QCOMPARE(std::abs(term.product), sizes[k]);
        }
        // Σ listed + omitted + b is the projection by hand, and the trace's value to float rounding.
        double listed = 0;
        for (const auto& term : e->listed)
            listed += term.product;
        const long double want = handProjection(x, w, i, e->inProjRow);
        QVERIFY2(std::abs(listed + e->omitted + e->bias - e->sum) < 1e-12, qPrintable(scalarDiff("parts vs Σ", listed + e->omitted + e->bias, e->sum)));
        QVERIFY2(std::abs(e->sum - double(want)) < 1e-12, qPrintable(scalarDiff("Σ + b", e->sum, double(want))));
        QCOMPARE(e->bias, double(w.inProjBias(e->inProjRow)));
        QCOMPARE(e->output, double(stage(t, id.toLatin1().constData(), head)(i, c)));
        QVERIFY2(std::abs(e->sum - e->output) < floatTolerance(everyTerm), qPrintable(scalarDiff("Σ vs trace", e->sum, e->output)));
    }

    void crossAttentionKeysComeFromTheMemory()
    {
        const Trace t = crossTrace();
        // K = Mem·W_Kᵀ + b_K, not the queries' input: row 4 exists only in the memory.
        const auto k = explainProjection(t, "k", 0, 4, 2, 8);
        QVERIFY(k);
        const long double want = handProjection(stage(t, "key_input"), *t.weights, 4, k->inProjRow);
        QVERIFY2(std::abs(k->sum - double(want)) < 1e-12, qPrintable(scalarDiff("K[4, 2]", k->sum, double(want))));
        QVERIFY2(std::abs(k->sum - k->output) < 1e-5, qPrintable(scalarDiff("K vs trace", k->sum, k->output)));
        // Q from the decoder's input.
        const auto q = explainProjection(t, "q", 1, 2, 0, 8);
        QVERIFY(q);
        const long double wantQ = handProjection(stage(t, "input"), *t.weights, 2, q->inProjRow);
        QVERIFY2(std::abs(q->sum - double(wantQ)) < 1e-12, qPrintable(scalarDiff("Q[2, 0]", q->sum, double(wantQ))));
        // A score between decoder query 2 and encoder key 4.
        const auto s = explainScore(t, 1, 2, 4);
        QVERIFY(s);
        QVERIFY2(std::abs(s->sum - s->score) < floatTolerance(s->products), qPrintable(scalarDiff("Σ vs S", s->sum, s->score)));
        const auto row = explainWeightsRow(t, 0, 1);
        QVERIFY(row && row->weights.size() == 5 && row->maskedKeys.empty());
    }

    void lshScoresUseTheHeadsOwnMask()
    {
        // Reformer hashes per head: its mask is a stage of each head, and its keys are the
        // normalised queries; S = q_i·k_j still, hidden where the buckets differ.
        AttentionOptions o;
        o.buckets = 2;
        const Trace t = trace(8, 2, MaskKind::None, true, AttentionKind::Lsh, o);
        QVERIFY(!t.find("mask"));
        for (int head = 0; head < 2; ++head) {
            const Eigen::MatrixXf& m = stage(t, "mask", head);
            for (int i = 0; i < 6; ++i) {
                for (int j = 0; j < 6; ++j) {
                    const auto e = explainScore(t, head, i, j);
                    QVERIFY2(e, qPrintable(QStringLiteral("head %1, cell %2, %3").arg(head).arg(i).arg(j)));
                    QCOMPARE(e->hidden, std::isinf(m(i, j)));
                    if (!e->hidden) // only the allowed cells need be right (docs/attention-kinds.md)
                        QVERIFY2(std::abs(e->sum - e->score) < floatTolerance(e->products), qPrintable(scalarDiff("q·k", e->sum, e->score)));
                }
            }
        }
    }

    void linformersHeadOutputWeighsTheProjectedValues()
    {
        // K = n = 6 projected rows: A (n x K) has as many columns as V has rows, but Z = A·V′.
        AttentionOptions o;
        o.projDim = 6;
        const Trace t = trace(8, 2, MaskKind::None, true, AttentionKind::Linformer, o);
        const int head = 1, i = 2, c = 3;
        const auto e = explainHeadOutput(t, head, i, c);
        QVERIFY(e);
        const Eigen::MatrixXf& a = stage(t, "weights", head);
        const Eigen::MatrixXf& vp = stage(t, "v_projected", head);
        long double sum = 0;
        for (Eigen::Index j = 0; j < a.cols(); ++j)
            sum += static_cast<long double>(a(i, j)) * vp(j, c);
        QVERIFY2(std::abs(e->sum - double(sum)) < 1e-12, qPrintable(scalarDiff("Σ A·V′", e->sum, double(sum))));
        QVERIFY2(std::abs(e->sum - e->output) < floatTolerance(e->terms), qPrintable(scalarDiff("Σ vs Z", e->sum, e->output)));
        // Its scores are n x K: no score explanation (there is no mask and no masked scores).
        QVERIFY(!explainScore(t, head, i, 0));
    }

    void relativePositionsAddTheirTermsToScoreAndOutput()
    {
        // Shaw: S = q·k + P before the scaling, and each value gets a^V of its clipped distance.
        PositionOptions o;
        o.maxDistance = 2;
        const Trace t = positionTrace(PositionalEncoding::Relative, o);
        const int head = 1, i = 4, j = 0, c = 2;
        const auto e = explainScore(t, head, i, j);
        QVERIFY(e && e->positionScore && !e->xlTerms);
        QCOMPARE(*e->positionScore, double(stage(t, "position_scores", head)(i, j)));
        QVERIFY2(std::abs(e->sum + *e->positionScore - e->score) < floatTolerance(e->products) + 1e-6,
                 qPrintable(scalarDiff("q·k + P", e->sum + *e->positionScore, e->score)));
        const auto z = explainHeadOutput(t, head, i, c);
        QVERIFY(z && z->relative);
        // Key 0 is 4 to the left of query 4: clipped to −2, row 0 of a^V.
        QCOMPARE(z->values[0], double(stage(t, "v", head)(0, c)) + double(stage(t, "relative_values")(0, c)));
        QVERIFY2(std::abs(z->sum - z->output) < floatTolerance(z->terms) + 1e-6, qPrintable(scalarDiff("Σ vs Z", z->sum, z->output)));
    }

    void transformerXlScoresAreFourTerms()
    {
        PositionOptions o;
        o.segment = 6;
        const Trace t = positionTrace(PositionalEncoding::Xl, o);
        const int head = 0, i = 3, j = 1;
        const auto e = explainScore(t, head, i, j);
        QVERIFY(e && e->xlTerms && !e->bias);
        const double terms = double(stage(t, "position_scores", head)(i, j)) + stage(t, "content_bias", head)(i, j)
                             + stage(t, "position_bias", head)(i, j);
        QVERIFY(std::abs(*e->positionScore - terms) < 1e-5);
        QVERIFY2(std::abs(e->sum + *e->positionScore - e->score) < floatTolerance(e->products) + 1e-5,
                 qPrintable(scalarDiff("(a) + (b) + (c) + (d)", e->sum + *e->positionScore, e->score)));
        QVERIFY(explainScore(t, head, 2, 4)->hidden); // causal within the segment
    }

    void staleCellsHaveNoExplanation()
    {
        const Trace t = trace(8, 2);
        QVERIFY(!explainScore(t, 0, 6, 0));   // 6 tokens: rows 0..5
        QVERIFY(!explainScore(t, 0, 0, 6));
        QVERIFY(!explainScore(t, 2, 0, 0));   // heads 0 and 1
        QVERIFY(!explainScore(t, 0, -1, 0));
        QVERIFY(!explainWeightsRow(t, 0, 6));
        QVERIFY(!explainHeadOutput(t, 0, 0, 4)); // d_k = 4: columns 0..3
        QVERIFY(!explainProjection(t, "q", 0, 0, 4, 8));
        QVERIFY(!explainProjection(t, "output", 0, 0, 0, 8)); // not a projection of in_proj_weight
        Trace noWeights = t;
        noWeights.weights.reset();
        QVERIFY(!explainProjection(noWeights, "k", 0, 0, 0, 8));
        Trace noScores = t;
        noScores.stages = {};
        for (std::size_t i = 0; i < t.stages.size(); ++i) {
            if (t.stages[i].id != "scores")
                noScores.stages.share(t.stages.pointer(i));
        }
        QVERIFY(!explainScore(noScores, 0, 0, 0));
    }

    // Grouped-query attention (issue 31): a query head's score is its query against the key of
    // the key/value head it shares — query head h of g per group reads KV head h / g — so q·k
    // recomputed matches the trace for every head (the inspector took KV head h's keys, or none
    // for h ≥ the KV heads); Gemma 3 divides by √query_pre_attn_scalar, not √d_k.
    void aGroupedQueryHeadScoresWithItsSharedKey_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<int>("perGroup");
        QTest::addColumn<double>("root");
        QTest::newRow("Llama, 6 heads sharing 2") << "llama_gqa_tied_f32" << 3 << 2.0; // head_dim 4
        QTest::newRow("Qwen2, 3 heads sharing 1") << "qwen2_mqa_f16" << 3 << std::sqrt(8.0);
        QTest::newRow("Gemma 3, query_pre_attn_scalar 6") << "gemma3_sliding_bf16" << 2 << std::sqrt(6.0);
    }

    void aGroupedQueryHeadScoresWithItsSharedKey()
    {
        QFETCH(QString, folder);
        QFETCH(int, perGroup);
        QFETCH(double, root);
        const auto model = std::make_shared<const Seq2SeqModel>(openModel((QString::fromStdString(testing::hfDir()) + u'/' + folder).toStdString()));
        Config c;
        c.model = ModelKind::File;
        adoptModel(c, *model);
        const PretrainedTokens tokens = pretrainedTokens(*model->pretrained, "The cat sat on the mat.", std::nullopt, c.maxTokens);
        Trace t = computePretrainedTrace(model, tokens, c, TraceKeep{});
        t.scopeLayer = 0; // the first layer's attention, as the studio shows it
        t.scopeBlock = Block::DecoderSelf;
        const int n = static_cast<int>(tokens.ids.size());
        for (int h = 0; h < c.heads; ++h) {
            const int kv = h / perGroup;
            const Stage* q = t.find("q_rotated", h);
            const Stage* k = t.find("k_rotated", kv);
            QVERIFY(q && k && k->kvHead == kv);
            for (int i = 0; i < n; ++i) {
                for (int j = 0; j <= i; ++j) {
                    const auto e = explainScore(t, h, i, j);
                    QVERIFY2(e, qPrintable(QStringLiteral("head %1 (%2, %3)").arg(h).arg(i).arg(j)));
                    QCOMPARE(e->kvHead, std::optional<int>(kv));
                    std::vector<int> sharing(static_cast<std::size_t>(perGroup));
                    std::iota(sharing.begin(), sharing.end(), kv * perGroup);
                    QCOMPARE(e->sharingHeads, sharing);
                    // By hand: q_i·k_j of the shared key, in long double.
                    long double dot = 0;
                    for (Eigen::Index d = 0; d < q->main().values.cols(); ++d)
                        dot += static_cast<long double>(q->main().values(i, d)) * k->main().values(j, d);
                    QVERIFY(std::abs(e->sum - static_cast<double>(dot)) < 1e-9);
                    QVERIFY2(std::abs(e->sum - e->score) <= 1e-5 * std::max(1.0, std::abs(e->score)),
                             qPrintable(QStringLiteral("head %1 (%2, %3): %4 recomputed, %5 in the trace").arg(h).arg(i).arg(j).arg(e->sum).arg(e->score)));
                    QCOMPARE(e->rootOfScalar, folder.startsWith(u"gemma3"));
                    QVERIFY(std::abs(e->root - root) < 1e-12);
                    QVERIFY(std::abs(e->score / e->root - e->scaled) <= 1e-5 * std::max(1.0, std::abs(e->scaled)));
                }
            }
            const auto row = explainWeightsRow(t, h, n - 1);
            QVERIFY(row && std::abs(row->root - root) < 1e-12);
        }
    }
};

QTEST_APPLESS_MAIN(TestCellExplanation)
#include "tst_cell_explanation.moc"

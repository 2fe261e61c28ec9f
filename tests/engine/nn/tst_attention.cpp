// Multi-head self-attention stage by stage: hand computations on tiny inputs, and the
// invariants that must hold for any input (rows of A sum to 1, masked weights are 0, ...).

#include "nn/attention.h"
#include "nn/softmax.h"

#include "support/stages.h"

#include <QtTest>

#include <cmath>

using namespace attnlab;

namespace {

using attnlab::testing::stage;

QString maxDiff(const Eigen::MatrixXf& a, const Eigen::MatrixXf& b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return QString("shape %1x%2 vs %3x%4").arg(a.rows()).arg(a.cols()).arg(b.rows()).arg(b.cols());
    Eigen::Index r = 0, c = 0;
    const float m = (a - b).cwiseAbs().maxCoeff(&r, &c);
    return QString("max |diff| %1 at (%2, %3)").arg(static_cast<double>(m)).arg(r).arg(c);
}

bool near(const Eigen::MatrixXf& a, const Eigen::MatrixXf& b, float tol = 1e-5f)
{
    return a.rows() == b.rows() && a.cols() == b.cols() && (a - b).cwiseAbs().maxCoeff() <= tol;
}

Request request(const std::string& sentence, int d, int h, MaskKind mask = MaskKind::None)
{
    Request r;
    r.sentence = sentence;
    r.config.dModel = d;
    r.config.heads = h;
    r.config.mask = mask;
    return r;
}

} // namespace

class TestAttention : public QObject {
    Q_OBJECT
private slots:
    void softmaxByHand()
    {
        const float inf = std::numeric_limits<float>::infinity();
        Eigen::MatrixXf s(3, 3);
        s << 0.0f, std::log(2.0f), -inf, // e^0 : e^ln2 : 0 = 1 : 2 : 0
            1000.0f, 1000.0f, 1000.0f,   // huge but equal: no overflow, uniform
            -inf, -inf, -inf;            // every key masked
        std::vector<Eigen::Index> empty;
        const Eigen::MatrixXf a = rowSoftmax(s, &empty);
        QVERIFY(std::abs(a(0, 0) - 1.0f / 3) < 1e-6f);
        QVERIFY(std::abs(a(0, 1) - 2.0f / 3) < 1e-6f);
        QCOMPARE(a(0, 2), 0.0f); // exactly 0, not merely small
        for (int j = 0; j < 3; ++j)
            QVERIFY(std::abs(a(1, j) - 1.0f / 3) < 1e-6f);
        QCOMPARE(a.row(2), Eigen::RowVector3f::Zero().eval());
        QCOMPARE(empty, std::vector<Eigen::Index>{2});
    }

    void twoTokensByHand()
    {
        // Identity weights, no positions, no embedding scale: X = E and Q = K = V = X,
        // so with one head S = X·Xᵀ, A = softmax(S / √2), O = A·X.
        Request r = request("yes no", 2, 1);
        r.config.weightsPreset = WeightsPreset::Identity;
        r.config.positional = PositionalEncoding::None;
        r.config.embedScale = false;
        const Trace t = computeTrace(r);
        const Eigen::MatrixXf& x = stage(t, "input");
        QCOMPARE(x, stage(t, "embedding"));
        QVERIFY(stage(t, "positional_encoding").isZero(0));

        float s[2][2];
        for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 2; ++j)
                s[i][j] = x(i, 0) * x(j, 0) + x(i, 1) * x(j, 1);
        }
        const Eigen::MatrixXf& scores = stage(t, "scores", 0);
        const Eigen::MatrixXf& a = stage(t, "weights", 0);
        const Eigen::MatrixXf& o = stage(t, "output");
        for (int i = 0; i < 2; ++i) {
            const double e0 = std::exp(s[i][0] / std::sqrt(2.0));
            const double e1 = std::exp(s[i][1] / std::sqrt(2.0));
            const double a0 = e0 / (e0 + e1);
            const double a1 = e1 / (e0 + e1);
            for (int j = 0; j < 2; ++j) {
                QVERIFY2(std::abs(scores(i, j) - s[i][j]) < 1e-5f, qPrintable(QString("S(%1,%2)").arg(i).arg(j)));
                QVERIFY2(std::abs(stage(t, "scaled", 0)(i, j) - s[i][j] / std::sqrt(2.0)) < 1e-5, "scaled");
            }
            QVERIFY(std::abs(a(i, 0) - a0) < 1e-6 && std::abs(a(i, 1) - a1) < 1e-6);
            for (int c = 0; c < 2; ++c)
                QVERIFY(std::abs(o(i, c) - (a0 * x(0, c) + a1 * x(1, c))) < 1e-5);
        }
    }

    void scalingOffKeepsRawScores()
    {
        Request r = request("scaling matters a lot", 16, 2);
        r.config.scaleScores = false;
        const Trace t = computeTrace(r);
        QCOMPARE(stage(t, "scaled", 1), stage(t, "scores", 1));
        r.config.scaleScores = true;
        const Trace scaled = computeTrace(r);
        // d_k = 8: every score divided by √8.
        QVERIFY2(near(stage(scaled, "scaled", 1), stage(t, "scores", 1) / std::sqrt(8.0f)),
                 qPrintable(maxDiff(stage(scaled, "scaled", 1), stage(t, "scores", 1) / std::sqrt(8.0f))));
    }

    void invariants_data()
    {
        QTest::addColumn<QString>("sentence");
        QTest::addColumn<int>("d");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("mask");
        QTest::addColumn<int>("padTo");
        QTest::newRow("english, none") << "The cat sat on the mat." << 16 << 4 << int(MaskKind::None) << 0;
        QTest::newRow("chinese, causal") << "狗咬了人" << 12 << 3 << int(MaskKind::Causal) << 0;
        QTest::newRow("padding") << "I love NLP" << 8 << 2 << int(MaskKind::Padding) << 7;
        QTest::newRow("causal+padding") << "<sos> Je vais bien" << 24 << 6 << int(MaskKind::CausalPadding) << 6;
        QTest::newRow("one token one head") << "hello" << 4 << 1 << int(MaskKind::Causal) << 0;
        QTest::newRow("wide") << "a b c d e f g h i j k l m n o p" << 64 << 8 << int(MaskKind::None) << 0;
    }

    void invariants()
    {
        QFETCH(QString, sentence);
        QFETCH(int, d);
        QFETCH(int, heads);
        QFETCH(int, mask);
        QFETCH(int, padTo);
        Request r = request(sentence.toStdString(), d, heads, static_cast<MaskKind>(mask));
        r.config.padTo = padTo;
        const Trace t = computeTrace(r);
        const auto n = static_cast<Eigen::Index>(t.tokens.size());
        const int dk = d / heads;
        const AttentionWeights& w = *t.weights;

        // Stage order: every id in order, per-head ids once per head.
        std::vector<std::pair<std::string, std::optional<int>>> order;
        for (const auto& id : stageIds()) {
            if (isPerHeadStage(id)) {
                for (int h = 0; h < heads; ++h)
                    order.emplace_back(id, h);
            } else {
                order.emplace_back(id, std::nullopt);
            }
        }
        QCOMPARE(t.stages.size(), order.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            QVERIFY(t.stages[i].id == order[i].first && t.stages[i].head == order[i].second);

        // X = E·√d + P.
        const Eigen::MatrixXf& x = stage(t, "input");
        QVERIFY(near(x, stage(t, "embedding") * std::sqrt(static_cast<float>(d)) + stage(t, "positional_encoding")));
        const Eigen::MatrixXf& m = stage(t, "mask");
        Eigen::MatrixXf concat(n, d);
        for (int h = 0; h < heads; ++h) {
            // Q_h is the h-th column block of X·W_Qᵀ + b_Q (PyTorch's head split).
            const Eigen::MatrixXf wq = w.inProjWeight.middleRows(h * dk, dk);
            Eigen::MatrixXf q = x * wq.transpose();
            q.rowwise() += w.inProjBias.segment(h * dk, dk).transpose();
            QVERIFY2(near(stage(t, "q", h), q), qPrintable(maxDiff(stage(t, "q", h), q)));
            const Eigen::MatrixXf& a = stage(t, "weights", h);
            const Eigen::MatrixXf& v = stage(t, "v", h);
            for (Eigen::Index i = 0; i < n; ++i) {
                QVERIFY2(std::abs(a.row(i).sum() - 1.0f) < 1e-5f, qPrintable(QString("row %1 sums to %2").arg(i).arg(a.row(i).sum())));
                for (Eigen::Index j = 0; j < n; ++j) {
                    QVERIFY(a(i, j) >= 0.0f);
                    if (std::isinf(m(i, j)))
                        QCOMPARE(a(i, j), 0.0f); // masked: exactly zero
                }
            }
            QVERIFY(near(stage(t, "head_output", h), a * v));
            concat.middleCols(h * dk, dk) = stage(t, "head_output", h);
        }
        QCOMPARE(stage(t, "concat"), concat);
        Eigen::MatrixXf o = concat * w.outProjWeight.transpose();
        o.rowwise() += w.outProjBias.transpose();
        QVERIFY2(near(stage(t, "output"), o), qPrintable(maxDiff(stage(t, "output"), o)));

        // Nothing anywhere is NaN.
        for (const auto& s : t.stages) {
            for (const auto& mat : s.matrices)
                QVERIFY2(!mat.values.hasNaN(), s.id.c_str());
        }
    }

    void causalMaskShape()
    {
        const Trace t = computeTrace(request("<sos> Je vais bien", 8, 2, MaskKind::Causal));
        const Eigen::MatrixXf& m = stage(t, "mask");
        for (int i = 0; i < 4; ++i) {
            for (int j = 0; j < 4; ++j)
                QCOMPARE(std::isinf(m(i, j)), j > i);
        }
        // <sos> sees only itself.
        QCOMPARE(stage(t, "weights", 1)(0, 0), 1.0f);
        QVERIFY(stage(t, "masked_scores", 0)(0, 3) == -std::numeric_limits<float>::infinity());
    }

    void paddingMasksPadKeysOnly()
    {
        Request r = request("I love NLP", 8, 2, MaskKind::Padding);
        r.config.padTo = 5;
        const Trace t = computeTrace(r);
        QCOMPARE(t.tokens, (std::vector<std::string>{"I", "love", "NLP", "<pad>", "<pad>"}));
        const Eigen::MatrixXf& a = stage(t, "weights", 0);
        QVERIFY(a.rightCols(2).isZero(0));             // no query attends to <pad>
        QVERIFY(std::abs(a.row(4).sum() - 1) < 1e-6f); // a <pad> query still attends to words
    }

    void fullyMaskedRowWarnsAndIsZero()
    {
        Request r = request("a b c", 4, 2, MaskKind::Custom);
        BoolMatrix mask = BoolMatrix::Constant(3, 3, false);
        mask.row(1).setConstant(true);
        r.customMask = mask;
        const Trace t = computeTrace(r);
        QCOMPARE(t.warnings.size(), std::size_t(1));
        QVERIFY(t.warnings[0].text.find("query 1") != std::string::npos);
        for (int h = 0; h < 2; ++h) {
            QVERIFY(stage(t, "weights", h).row(1).isZero(0));
            QVERIFY(stage(t, "head_output", h).row(1).isZero(0));
        }
    }

    void permutationWithoutPositions()
    {
        // Without positional encoding attention is permutation-equivariant: 狗咬了人 and
        // 人咬了狗 give the same rows, reordered. With PE they differ.
        Request r = request("狗咬了人", 8, 2);
        r.config.positional = PositionalEncoding::None;
        Request swapped = r;
        swapped.sentence = "人咬了狗";
        const Trace a = computeTrace(r);
        const Trace b = computeTrace(swapped);
        const int perm[4] = {3, 1, 2, 0};
        const Eigen::MatrixXf& oa = stage(a, "output");
        const Eigen::MatrixXf& ob = stage(b, "output");
        for (int i = 0; i < 4; ++i)
            QVERIFY(near(oa.row(i), ob.row(perm[i])));
        r.config.positional = swapped.config.positional = PositionalEncoding::Sinusoidal;
        QVERIFY(!near(stage(computeTrace(r), "output").row(0), stage(computeTrace(swapped), "output").row(3), 1e-3f));
    }

    void labels()
    {
        const Trace t = computeTrace(request("狗咬了人", 8, 2));
        const Stage* concat = t.find("concat");
        QVERIFY(concat);
        QCOMPARE(concat->main().colLabels->size(), std::size_t(8));
        QCOMPARE(concat->main().colLabels->at(7), std::string("h2\xC2\xB7" "d4"));
        QCOMPARE(*t.find("weights", 0)->main().rowLabels, t.tokens);
        QCOMPARE(*t.find("weights", 0)->main().colLabels, t.tokens);
        QCOMPARE(t.find("q", 1)->main().colLabels->front(), std::string("d1"));
        QCOMPARE(t.find("embedding")->matrices.size(), std::size_t(2));
    }

    void badRequests_data()
    {
        QTest::addColumn<QString>("sentence");
        QTest::addColumn<int>("d");
        QTest::addColumn<int>("heads");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << "" << 8 << 2 << "no tokens";
        QTest::newRow("only spaces") << "   \t " << 8 << 2 << "no tokens";
        QTest::newRow("indivisible") << "hi" << 10 << 3 << "d_model (10) must be a multiple of heads (3)";
        QTest::newRow("zero heads") << "hi" << 8 << 0 << "heads (0)";
        QTest::newRow("negative d") << "hi" << -4 << 2 << "d_model (-4)";
    }

    void badRequests()
    {
        QFETCH(QString, sentence);
        QFETCH(int, d);
        QFETCH(int, heads);
        QFETCH(QString, message);
        try {
            computeTrace(request(sentence.toStdString(), d, heads));
            QFAIL("no exception");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
    }

    void mismatchedWeightsAndMasks()
    {
        Request r = request("a b", 8, 2);
        r.weights = std::make_shared<AttentionWeights>(presetWeights(WeightsPreset::Seeded, 16, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, computeTrace(r));
        Request c = request("a b", 8, 2, MaskKind::Custom);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, computeTrace(c)); // no mask given
        c.customMask = BoolMatrix::Constant(3, 3, false);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, computeTrace(c)); // 3 x 3 for 2 tokens
    }

    void overflowIsRefusedNotDrawn()
    {
        // Finite but huge weights (issue 10 §5b.4): 1e20 · 1e20 overflows a float. By hand: with
        // W_Q = W_K = 1e20·I and embeddings of order 1, q and k are of order 1e20 and
        // q·k of order 1e40 > 3.4e38, so the scores are the first stage that overflows.
        const int d = 8;
        AttentionWeights w = presetWeights(WeightsPreset::Identity, d, 1);
        w.inProjWeight *= 1e20f;
        Request r = request("dog bites man", d, 2);
        r.weights = std::make_shared<const AttentionWeights>(w);
        try {
            computeTrace(r);
            QFAIL("no exception");
        } catch (const Error& e) {
            QCOMPARE(e.message().code, std::string("overflow"));
            QCOMPARE(e.message().args.at(2), std::string("Scores Q·Kᵀ"));
            QVERIFY2(QString(e.what()).contains("range of a float"), e.what());
        }
        // 1e18 still fits (q·k of order 1e36): the trace is whole and finite, and the mask's
        // −∞ stays allowed where it belongs.
        w.inProjWeight /= 100.0f;
        r.weights = std::make_shared<const AttentionWeights>(w);
        r.config.mask = MaskKind::Causal;
        const Trace t = computeTrace(r);
        for (const Stage& s : t.stages) {
            if (s.id != "mask" && s.id != "masked_scores")
                QVERIFY2(s.main().values.allFinite(), s.id.c_str());
        }
        QVERIFY(t.warnings.empty()); // no false "every key masked"
    }

    void hugeInputs()
    {
        // 2000 words: cut to max_tokens with a warning, never a crash.
        std::string many;
        for (int i = 0; i < 2000; ++i)
            many.append("w").append(std::to_string(i % 50)).append(" ");
        const Trace t = computeTrace(request(many, 8, 2));
        QCOMPARE(t.tokens.size(), std::size_t(512));
        QVERIFY(!t.warnings.empty());
        // n² · heads over the cell limit is refused before any allocation.
        Request big = request(many, 64, 64);
        big.config.maxTokens = 1024;
        try {
            computeTrace(big);
            QFAIL("no exception");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString(e.what()).contains("attention cells"), e.what());
        }
    }

    void deterministic()
    {
        const Request r = request("same input, same numbers", 16, 4, MaskKind::Causal);
        const Trace a = computeTrace(r);
        const Trace b = computeTrace(r);
        for (std::size_t i = 0; i < a.stages.size(); ++i)
            QCOMPARE(a.stages[i].main().values, b.stages[i].main().values);
    }
};

QTEST_APPLESS_MAIN(TestAttention)
#include "tst_attention.moc"

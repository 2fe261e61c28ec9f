// The feed-forward view: it draws the layer's H, its switched-off fractions are the exact zeros
// (ReLU) or the values ≤ 0 (GELU) counted here by hand, the histogram puts each of the n·d_ff
// values into the bin whose edges hold it, the caption names d_model → d_ff → d_model and the
// activation, and a block without a feed-forward network shows a message instead of crashing.

#include "views/heatmapview.h"
#include "shell/languages.h"
#include "views/feedforwardview.h"
#include "model/model.h"
#include "session/session.h"
#include "support/hfsession.h"

#include <qcustomplot.h>

#include <QLabel>
#include "support/plots.h"
#include "support/settle.h"

#include <QtTest>

using attnlab::testing::chineseFontProblem;

#include <cmath>
#include <numeric>

using namespace attnlab;

Q_DECLARE_METATYPE(attnlab::NormPlacement)
Q_DECLARE_METATYPE(attnlab::Activation)

namespace {

Config seededConfig(NormPlacement norm, Activation activation, int dFF = 0)
{
    Config c;
    c.model = ModelKind::Seeded;
    c.dModel = 16;
    c.heads = 2;
    c.setLayers(2);
    c.norm = norm;
    c.activation = activation;
    c.dFF = dFF;
    return c;
}

bool goTo(Session& s, const char* id, std::optional<int> layer, const char* block)
{
    const int i = s.stepIndex(QString::fromLatin1(id), layer, parseBlock(block).value());
    if (i < 0)
        return false;
    s.setStep(i);
    return s.stepId() == QLatin1String(id);
}

} // namespace

class TestFeedForwardView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        LanguageManager::useSimplifiedChineseGlyphs();
    }

    void countsMatchAHandCount_data()
    {
        QTest::addColumn<NormPlacement>("norm");
        QTest::addColumn<Activation>("activation");
        QTest::addColumn<int>("layer");
        QTest::addColumn<QString>("block");
        const QString enc = QStringLiteral("encoder_self");
        const QString dec = QStringLiteral("decoder_self");
        QTest::newRow("post relu encoder 1") << NormPlacement::Post << Activation::Relu << 0 << enc;
        QTest::newRow("post relu decoder 2") << NormPlacement::Post << Activation::Relu << 1 << dec;
        QTest::newRow("pre relu encoder 2") << NormPlacement::Pre << Activation::Relu << 1 << enc;
        QTest::newRow("post gelu encoder 1") << NormPlacement::Post << Activation::Gelu << 0 << enc;
        QTest::newRow("pre gelu decoder 1") << NormPlacement::Pre << Activation::Gelu << 0 << dec;
    }

    void countsMatchAHandCount()
    {
        QFETCH(NormPlacement, norm);
        QFETCH(Activation, activation);
        QFETCH(int, layer);
        QFETCH(QString, block);
        Session s;
        s.setConfig(seededConfig(norm, activation));
        QVERIFY2(s.error().isEmpty(), qPrintable(s.error()));
        FeedForwardView v(&s);
        QVERIFY(goTo(s, "ffn_hidden", layer, qPrintable(block)));
        QVERIFY(v.hasStage());
        QVERIFY(v.messageLabel()->isHidden());

        // H is this layer's ffn_hidden of the whole trace.
        const Stage* stage = s.fullTrace()->find("ffn_hidden", std::nullopt, layer, parseBlock(block.toStdString()).value());
        QVERIFY(stage);
        const Eigen::MatrixXf& h = stage->main().values;
        QVERIFY(v.hidden().values == h);
        QVERIFY(v.hiddenView()->matrix().values == h);
        const int n = static_cast<int>(h.rows());
        const int dff = static_cast<int>(h.cols());
        QCOMPARE(dff, 64); // d_ff = 0 means 4·d_model
        QCOMPARE(v.dFF(), 64);
        QCOMPARE(v.dModel(), 16);
        QVERIFY(v.activation() == activation);

        // Switched off, by hand: ReLU exactly 0; GELU ≤ 0.
        const bool gelu = activation == Activation::Gelu;
        QCOMPARE(static_cast<int>(v.zeroFractions().size()), n);
        int total = 0;
        for (int r = 0; r < n; ++r) {
            int off = 0;
            for (int c = 0; c < dff; ++c)
                off += (gelu ? h(r, c) <= 0.0f : h(r, c) == 0.0f) ? 1 : 0;
            total += off;
            QVERIFY2(v.zeroFractions()[r] == static_cast<double>(off) / dff,
                     qPrintable(QStringLiteral("token %1: %2, by hand %3 of %4").arg(r).arg(v.zeroFractions()[r]).arg(off).arg(dff)));
        }
        QCOMPARE(v.overallZeroFraction(), static_cast<double>(total) / (n * dff));
        // Random weights switch off about half the units.
        QVERIFY2(v.overallZeroFraction() > 0.2 && v.overallZeroFraction() < 0.8, qPrintable(QString::number(v.overallZeroFraction())));
        if (gelu) {
            QVERIFY(h.minCoeff() < 0);        // GELU's small negative values ...
            QVERIFY(h.minCoeff() >= -0.1701f); // ... never below min x·Φ(x) ≈ −0.16997
        } else {
            QCOMPARE(h.minCoeff(), 0.0f); // ReLU: nothing below 0, and some exact zeros
        }

        // Histogram: kBins equal bins from min to max; each value in the bin whose edges hold it.
        const auto& edges = v.histogramEdges();
        const auto& counts = v.histogramCounts();
        const auto& offCounts = v.histogramOffCounts();
        QCOMPARE(static_cast<int>(edges.size()), FeedForwardView::kBins + 1);
        QCOMPARE(static_cast<int>(counts.size()), FeedForwardView::kBins);
        QCOMPARE(edges.front(), static_cast<double>(h.minCoeff()));
        QCOMPARE(edges.back(), static_cast<double>(h.maxCoeff()));
        QCOMPARE(std::accumulate(counts.begin(), counts.end(), 0), n * dff);
        QCOMPARE(std::accumulate(offCounts.begin(), offCounts.end(), 0), total);
        for (int b = 0; b < FeedForwardView::kBins; ++b) {
            const bool last = b == FeedForwardView::kBins - 1;
            int inBin = 0;
            int offInBin = 0;
            for (Eigen::Index i = 0; i < h.size(); ++i) {
                const double x = h.data()[i];
                if (x >= edges[b] && (x < edges[b + 1] || (last && x == edges[b + 1]))) {
                    ++inBin;
                    offInBin += (gelu ? x <= 0 : x == 0) ? 1 : 0;
                }
            }
            QVERIFY2(counts[b] == inBin, qPrintable(QStringLiteral("bin %1 [%2, %3): %4, by hand %5").arg(b).arg(edges[b]).arg(edges[b + 1]).arg(counts[b]).arg(inBin)));
            QCOMPARE(offCounts[b], offInBin);
        }
        if (!gelu)
            QCOMPARE(offCounts[0], total); // ReLU's spike: every zero in the first bin

        // The plots draw those numbers: stacked bars (switched off below, the rest on top).
        auto* offBars = qobject_cast<QCPBars*>(v.histogramPlot()->plottable(0));
        auto* onBars = qobject_cast<QCPBars*>(v.histogramPlot()->plottable(1));
        QVERIFY(offBars && onBars);
        QCOMPARE(onBars->barBelow(), offBars);
        int b = 0;
        for (auto it = offBars->data()->constBegin(); it != offBars->data()->constEnd(); ++it, ++b)
            QCOMPARE(it->value, double(offCounts[b]));
        b = 0;
        for (auto it = onBars->data()->constBegin(); it != onBars->data()->constEnd(); ++it, ++b)
            QCOMPARE(it->value, double(counts[b] - offCounts[b]));
        QCOMPARE(b, FeedForwardView::kBins);
        auto* zeroBars = qobject_cast<QCPBars*>(v.zeroPlot()->plottable(0));
        QCOMPARE(zeroBars->data()->size(), n);
        int r = 0;
        for (auto it = zeroBars->data()->constBegin(); it != zeroBars->data()->constEnd(); ++it, ++r)
            QCOMPARE(it->value, v.zeroFractions()[r]);

        // The caption: the sizes and the activation.
        const QString caption = v.captionLabel()->text();
        QVERIFY2(caption.contains(QStringLiteral("d_model = 16 \u2192 d_ff = 64 \u2192 d_model = 16")), qPrintable(caption));
        QVERIFY(caption.contains(gelu ? QStringLiteral("GELU") : QStringLiteral("ReLU")));
        QVERIFY(caption.contains(gelu ? QStringLiteral("negative or zero") : QStringLiteral("exactly 0")));
        QVERIFY(!caption.contains(gelu ? QStringLiteral("ReLU") : QStringLiteral("GELU")));
    }

    // A gated FFN (issue 31): G, U and H = act(G) ⊙ U side by side on the gate, up and hidden
    // steps; the summaries count the gate's values act(G), computed here from G by the formulas
    // (SiLU(g) = g/(1 + e^−g); GELU_tanh(g) = g/2·(1 + tanh(√(2/π)(g + 0.044715g³)))).
    void aGatedFeedForwardShowsGateUpAndTheirProduct_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<bool>("geglu");
        QTest::newRow("Llama (SwiGLU)") << "llama_gqa_tied_f32" << false;
        QTest::newRow("Qwen3 (SwiGLU)") << "qwen3_qknorm_f32" << false;
        QTest::newRow("Gemma 3 (GeGLU)") << "gemma3_sliding_bf16" << true;
    }

    void aGatedFeedForwardShowsGateUpAndTheirProduct()
    {
        QFETCH(QString, folder);
        QFETCH(bool, geglu);
        Session s;
        QVERIFY(testing::openHfFolder(s, qPrintable(folder), QStringLiteral("The cat sat on the mat, 狗咬了人")));
        FeedForwardView v(&s);
        v.resize(1100, 800);
        for (const char* id : {"ffn_gate", "ffn_up", "ffn_hidden"}) {
            QVERIFY(goTo(s, id, 0, "decoder_self"));
            QVERIFY2(v.hasStage() && v.isGated(), id);
            QVERIFY(v.gateView()->isVisibleTo(&v) && v.upView()->isVisibleTo(&v));
        }
        const Stage* gate = s.trace()->find("ffn_gate");
        const Stage* up = s.trace()->find("ffn_up");
        QVERIFY(gate && up);
        QVERIFY(v.gateView()->matrix().values == gate->main().values);
        QVERIFY(v.upView()->matrix().values == up->main().values);
        QVERIFY(v.hiddenView()->matrix().values == s.trace()->find("ffn_hidden")->main().values);
        QCOMPARE(v.activationName(), geglu ? QStringLiteral("GELU_tanh") : QStringLiteral("SiLU"));

        // The gate's values by hand, in double; switched off: ≤ 0.
        const Eigen::MatrixXf& g = gate->main().values;
        const auto act = [&](double x) {
            return geglu ? 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x))) : x / (1 + std::exp(-x));
        };
        const int n = static_cast<int>(g.rows());
        const int dff = static_cast<int>(g.cols());
        QCOMPARE(v.dFF(), dff);
        int offTotal = 0;
        double lo = 1e300, hi = -1e300;
        for (int r = 0; r < n; ++r) {
            int off = 0;
            for (int c = 0; c < dff; ++c) {
                const double a = act(g(r, c));
                off += a <= 0 ? 1 : 0;
                lo = std::min(lo, a);
                hi = std::max(hi, a);
            }
            offTotal += off;
            QCOMPARE(v.zeroFractions()[static_cast<std::size_t>(r)], static_cast<double>(off) / dff);
        }
        QCOMPARE(v.overallZeroFraction(), static_cast<double>(offTotal) / (n * dff));
        QVERIFY(std::abs(v.histogramEdges().front() - lo) < 1e-5 && std::abs(v.histogramEdges().back() - hi) < 1e-5);
        QCOMPARE(std::accumulate(v.histogramCounts().begin(), v.histogramCounts().end(), 0), n * dff);
        QCOMPARE(std::accumulate(v.histogramOffCounts().begin(), v.histogramOffCounts().end(), 0), offTotal);
        // SiLU never goes below about −0.278, GELU_tanh below about −0.17.
        QVERIFY(lo > (geglu ? -0.171 : -0.279));
        const QString caption = v.captionLabel()->text();
        QVERIFY2(caption.contains(geglu ? QStringLiteral("GeGLU") : QStringLiteral("SwiGLU")), qPrintable(caption));
        QVERIFY2(caption.contains(QStringLiteral("d_ff = %1").arg(dff)), qPrintable(caption));
        QVERIFY(!caption.contains(QStringLiteral("W₁")));
        QVERIFY(v.histogramPlot()->xAxis->label().contains(QStringLiteral("gate value")));
        QVERIFY(!v.grab().isNull());

        // A plain FFN again: one heatmap, the hidden values counted.
        s.setConfig(seededConfig(NormPlacement::Pre, Activation::Gelu));
        QVERIFY(goTo(s, "ffn_hidden", 0, "encoder_self"));
        QVERIFY(v.hasStage() && !v.isGated());
        QVERIFY(!v.gateView()->isVisibleTo(&v) && !v.upView()->isVisibleTo(&v));
        QVERIFY(v.histogramPlot()->xAxis->label().contains(QStringLiteral("hidden value")));
    }

    void captionFollowsDff()
    {
        Session s;
        s.setConfig(seededConfig(NormPlacement::Post, Activation::Relu, 24));
        FeedForwardView v(&s);
        QVERIFY(goTo(s, "ffn_hidden", 0, "encoder_self"));
        QCOMPARE(v.dFF(), 24);
        QVERIFY2(v.captionLabel()->text().contains(QStringLiteral("d_model = 16 \u2192 d_ff = 24 \u2192 d_model = 16")),
                 qPrintable(v.captionLabel()->text()));
        QCOMPARE(std::accumulate(v.histogramCounts().begin(), v.histogramCounts().end(), 0),
                 static_cast<int>(v.hidden().values.rows()) * 24);
    }

    void withoutAFeedForwardNetworkShowsAMessage()
    {
        Session s; // one attention block
        FeedForwardView v(&s);
        QVERIFY(!v.hasStage());
        QVERIFY(!v.messageLabel()->isHidden());
        QVERIFY(v.messageLabel()->text().contains(QStringLiteral("Transformer")));
        QVERIFY(v.zeroFractions().empty());
        QVERIFY(v.histogramCounts().empty());

        s.setConfig(seededConfig(NormPlacement::Post, Activation::Relu));
        QVERIFY(goTo(s, "ffn_hidden", 1, "decoder_self"));
        QVERIFY(v.hasStage());
        QVERIFY(v.messageLabel()->isHidden());
        // Cross-attention's block has no feed-forward network.
        QVERIFY(goTo(s, "weights", 1, "cross"));
        QVERIFY(!v.hasStage());
        QVERIFY(!v.messageLabel()->isHidden());
        QVERIFY(!v.histogramPlot()->isVisibleTo(&v));

        QVERIFY(goTo(s, "ffn_hidden", 0, "encoder_self"));
        QVERIFY(v.hasStage());
        Config c = s.config();
        c.model = ModelKind::None;
        s.setConfig(c);
        QVERIFY2(s.error().isEmpty(), qPrintable(s.error()));
        QVERIFY(!v.hasStage());
        QVERIFY(!v.messageLabel()->isHidden());
    }

    void chineseDoesNotBreakIt()
    {
        Session s;
        s.setConfig(seededConfig(NormPlacement::Post, Activation::Gelu));
        s.setSentence(QStringLiteral("我喜欢小狗"));
        FeedForwardView v(&s);
        QVERIFY(goTo(s, "ffn_hidden", 0, "encoder_self"));
        QVERIFY(v.hasStage());
        const std::vector<double> fractions = v.zeroFractions();
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        QVERIFY(v.hasStage());
        QCOMPARE(v.zeroFractions(), fractions);
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
        QVERIFY(v.captionLabel()->text().contains(QStringLiteral("GELU")));
        for (QCustomPlot* p : {v.zeroPlot(), v.histogramPlot(), v.hiddenView()->plot()})
            QVERIFY2(chineseFontProblem(p, p != v.hiddenView()->plot()).isEmpty(), qPrintable(chineseFontProblem(p, true)));
    }

    void looksRight()
    {
        Session s;
        s.setConfig(seededConfig(NormPlacement::Post, Activation::Relu));
        FeedForwardView v(&s);
        QVERIFY(goTo(s, "ffn_hidden", 0, "encoder_self"));
        v.resize(1000, 700);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        testing::settle();
        for (QCustomPlot* p : {v.zeroPlot(), v.histogramPlot(), v.hiddenView()->plot()}) {
            auto* title = qobject_cast<QCPTextElement*>(p->plotLayout()->element(0, 0));
            QVERIFY(title);
            const int width = QFontMetrics(title->font()).horizontalAdvance(title->text());
            QVERIFY2(width < p->width(), qPrintable(QStringLiteral("title %1 px in a %2 px plot").arg(width).arg(p->width())));
        }
        for (QCustomPlot* p : {v.zeroPlot(), v.histogramPlot()}) {
            QVERIFY(p->legend->visible());
            QCOMPARE(p->legend->itemCount(), 2);
            QVERIFY(!p->legend->outerRect().intersects(p->axisRect()->outerRect().adjusted(0, 0, 0, -1)));
        }
        if (qEnvironmentVariableIsSet("ATTNLAB_SCREENSHOTS")) {
            const QString dir = qEnvironmentVariable("ATTNLAB_SCREENSHOTS");
            v.grab().save(dir + QStringLiteral("/ffn-relu.png"));
            Config c = s.config();
            c.activation = Activation::Gelu;
            s.setConfig(c);
            testing::settle();
            v.grab().save(dir + QStringLiteral("/ffn-gelu.png"));
        }
    }
};

QTEST_MAIN(TestFeedForwardView)
#include "tst_feedforwardview.moc"

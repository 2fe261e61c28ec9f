// Where each position scheme inside attention puts position (issue 14 §2), on the scheme's own
// step: RoPE's clocks and a fixed q·k moved along the sentence (constant along each diagonal, by
// hand); ALiBi's slopes per head; the relative tables and which row each score uses;
// Transformer-XL's timeline and segment choice (the Session then shows that segment's stages
// everywhere) and every segment's weights at absolute positions. The length experiment's view:
// flat for RoPE, ALiBi and relative, not for sinusoidal positions.

#include "session/session.h"
#include "support/hfsession.h"
#include "shell/viewstack.h"
#include "views/heatmapview.h"
#include "views/lengthview.h"
#include "views/positionschemeview.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QSpinBox>
#include <QtTest>

using namespace attnlab;

namespace {

void usePositions(Session& s, PositionalEncoding p, int dModel = 16, int heads = 2)
{
    Config c = s.config();
    c.positional = p;
    c.dModel = dModel;
    c.heads = heads;
    c.positionOptions.segment = 4;
    c.positionOptions.memory = 3;
    s.setConfig(c);
}

PositionSchemeView* showStep(Session& s, ViewStack& stack, const char* id)
{
    s.setStepId(QString::fromLatin1(id));
    stack.showStep();
    return qobject_cast<PositionSchemeView*>(stack.currentStageWidget());
}

} // namespace

class TestPositionSchemeView : public QObject {
    Q_OBJECT
private slots:
    void ropeShowsClocksAndDiagonals()
    {
        Session s;
        ViewStack stack(&s);
        usePositions(s, PositionalEncoding::Rope);
        QVERIFY2(s.error().isEmpty(), qPrintable(s.error()));
        PositionSchemeView* view = showStep(s, stack, "rope_angles");
        QVERIFY(view);
        QCOMPARE(view->page(), PositionSchemeView::Page::Rope);
        // d_k = 8: 4 pairs; the sentence's positions (at most 12): a circle and a hand each.
        const int n = static_cast<int>(s.trace()->tokens.size());
        QCOMPARE(view->clocks()->itemCount(), 2 * std::min(n, 12) * 4);
        // q_m·k_n depends on m − n only: every diagonal is constant.
        const Eigen::MatrixXf& m = view->shiftScores();
        QVERIFY(m.rows() >= 16);
        for (Eigen::Index i = 1; i < m.rows(); ++i) {
            for (Eigen::Index j = 1; j < m.cols(); ++j)
                QVERIFY2(std::abs(m(i, j) - m(i - 1, j - 1)) < 1e-4f * std::max(1.0f, std::abs(m(i, j))),
                         qPrintable(QStringLiteral("(%1, %2)").arg(i).arg(j)));
        }
        // …and at (0, 0) it is q·k of the unrotated vectors, divided by √d_k.
        const Eigen::MatrixXf& q = s.trace()->find("q", 0)->main().values;
        const Eigen::MatrixXf& k = s.trace()->find("k", 0)->main().values;
        QVERIFY(std::abs(m(0, 0) - q.row(0).dot(k.row(1)) / std::sqrt(8.0f)) < 1e-4f);
    }

    // A modern decoder (issue 31): its keys' RoPE step shows the clocks of the pairs (i, i + d_k/2)
    // and the q_m·k_n map, rotated as Hugging Face's rotate_half does — checked here by hand for
    // the Llama folder (rope_theta 10000, head_dim 4: ω_i = 10000^(−2i/4)) on query head 5, which
    // reads key/value head 2.
    void aModernDecoderTurnsHalvesOnItsKeysStep()
    {
        Session s;
        ViewStack stack(&s);
        QVERIFY(testing::openHfFolder(s, "llama_gqa_tied_f32", QStringLiteral("The cat sat on the mat.")));
        s.setStep(s.stepIndex(QStringLiteral("k_rotated"), 0, Block::DecoderSelf));
        s.setHead(4);
        stack.showStep();
        auto* view = qobject_cast<PositionSchemeView*>(stack.currentStageWidget());
        QVERIFY(view);
        QCOMPARE(view->page(), PositionSchemeView::Page::Rope);
        QVERIFY(PositionSchemeView::claims(QStringLiteral("k_rotated"), *s.trace()));
        QVERIFY(!PositionSchemeView::claims(QStringLiteral("q_rotated"), *s.trace())); // its heatmap stays
        const int n = static_cast<int>(s.trace()->tokens.size());
        QCOMPARE(view->clocks()->itemCount(), 2 * std::min(n, 12) * 2); // d_k = 4: 2 pairs
        QVERIFY(view->clocks()->xAxis->label().contains(QStringLiteral("i + 2")));
        QVERIFY(view->captionLabel()->text().contains(QStringLiteral("feature i + 2")));
        // By hand: q of token 1 (head 5) at m, k of token 2 (KV head 2) at n, halves turned.
        const Eigen::MatrixXf& q = s.trace()->find("q", 4)->main().values;
        const Eigen::MatrixXf& k = s.trace()->find("k", 1)->main().values;
        const auto turned = [](const Eigen::RowVectorXf& x, int pos) {
            Eigen::RowVectorXd y(4);
            for (int i = 0; i < 2; ++i) {
                const double theta = pos * std::pow(10000.0, -2.0 * i / 4);
                y(i) = x(i) * std::cos(theta) - x(i + 2) * std::sin(theta);
                y(i + 2) = x(i + 2) * std::cos(theta) + x(i) * std::sin(theta);
            }
            return y;
        };
        const Eigen::MatrixXf& m = view->shiftScores();
        QVERIFY(m.rows() >= 16);
        for (int a : {0, 3, 7})
            for (int b : {0, 5, 11}) {
                const double want = turned(q.row(0), a).dot(turned(k.row(1), b)) / 2.0;
                QVERIFY2(std::abs(m(a, b) - want) < 1e-5 * std::max(1.0, std::abs(want)),
                         qPrintable(QStringLiteral("(%1, %2): %3, by hand %4").arg(a).arg(b).arg(m(a, b)).arg(want)));
            }
    }

    void alibiShowsOneSlopePerHead()
    {
        Session s;
        ViewStack stack(&s);
        usePositions(s, PositionalEncoding::Alibi, 16, 4);
        PositionSchemeView* view = showStep(s, stack, "position_bias");
        QVERIFY(view);
        QCOMPARE(view->page(), PositionSchemeView::Page::Alibi);
        QCOMPARE(view->slopes()->graphCount(), 4);
        // 4 heads: m = 1/4, 1/16, 1/64, 1/256; at distance 2 the bias is −2·m.
        QCOMPARE(view->slopes()->graph(1)->data()->at(2)->value, -2.0 / 16);
        QCOMPARE(view->biasMap()->matrix().values, s.trace()->find("position_bias", 0)->main().values);
    }

    void relativeShowsItsTablesAndRows()
    {
        Session s;
        ViewStack stack(&s);
        usePositions(s, PositionalEncoding::Relative);
        Config c = s.config();
        c.positionOptions.maxDistance = 2;
        s.setConfig(c);
        PositionSchemeView* view = showStep(s, stack, "relative_keys");
        QVERIFY(view);
        QCOMPARE(view->page(), PositionSchemeView::Page::Relative);
        QCOMPARE(view->keysMap()->matrix().values.rows(), 5);
        const Eigen::MatrixXf& rows = view->rowsMap()->matrix().values;
        QCOMPARE(rows(0, 1), 1.0f);
        QCOMPARE(rows(0, 5), 2.0f); // clipped
        QCOMPARE(rows(5, 0), -2.0f);
        QCOMPARE(rows(3, 3), 0.0f);
    }

    void xlChoosesTheSegmentShownEverywhere()
    {
        Session s;
        ViewStack stack(&s);
        usePositions(s, PositionalEncoding::Xl);
        QVERIFY2(s.error().isEmpty(), qPrintable(s.error()));
        const auto n = static_cast<int>(s.trace()->tokens.size());
        QCOMPARE(s.segmentCount(), (n + 3) / 4);
        // The memory's step comes before the queries'.
        const auto& steps = s.steps();
        const auto at = [&](const char* id) { return s.stepIndex(QString::fromLatin1(id)); };
        QVERIFY(at("memory") >= 0 && at("memory") < at("q"));
        QVERIFY(static_cast<int>(steps.size()) > 10);
        PositionSchemeView* view = showStep(s, stack, "memory");
        QVERIFY(view);
        QCOMPARE(view->page(), PositionSchemeView::Page::Xl);
        QCOMPARE(s.segment(), 0);
        QCOMPARE(s.trace()->find("weights", 0)->main().values.cols(), 4); // segment 0: no memory
        // The Segment box shows segment 2 (1-based) everywhere: 3 memory rows + its 4 tokens.
        view->segmentBox()->setValue(2);
        QCOMPARE(s.segment(), 1);
        QCOMPARE(s.trace()->find("weights", 0)->main().values.cols(), 7);
        QCOMPARE(s.trace()->find("memory")->main().values.rows(), 3);
        // Every segment's weights at absolute positions: rows sum to 1; segment 2's first query
        // attends the memory (columns 1 … 3) and itself, nothing later.
        const Eigen::MatrixXf& a = view->assembledWeights();
        QCOMPARE(a.rows(), n);
        for (Eigen::Index i = 0; i < a.rows(); ++i)
            QVERIFY(std::abs(a.row(i).sum() - 1.0f) < 1e-5f);
        QVERIFY(a.block(4, 1, 1, 3).sum() > 0);
        QCOMPARE(a(4, 0), 0.0f);
        QCOMPARE(a(4, 5), 0.0f);
        QCOMPARE(view->timeline()->itemCount(), 2 * s.segmentCount() - 1); // segment 1 has no memory
        // A shorter sentence with fewer segments: the last one stays shown.
        s.setSentence(QStringLiteral("a b c d e"));
        QCOMPARE(s.segmentCount(), 2);
        QCOMPARE(s.segment(), 1);
    }

    void otherSchemesGetAMessage()
    {
        Session s;
        PositionSchemeView view(&s);
        QCOMPARE(view.page(), PositionSchemeView::Page::None);
        QVERIFY(view.messageLabel()->text().contains(QStringLiteral("RoPE")));
    }

    void lengthExperimentIsFlatForRelativeSchemes()
    {
        Session s;
        usePositions(s, PositionalEncoding::Sinusoidal);
        LengthView view(&s);
        QCOMPARE(view.shortPlot()->graphCount(), 5);
        QCOMPARE(view.longPlot()->graph(0)->dataCount(), LengthView::kLong - LengthView::kOffset);
        const auto& spread = view.spread();
        QVERIFY(spread.at(PositionalEncoding::Sinusoidal) > 0.05);
        QVERIFY(spread.at(PositionalEncoding::Learned) > 0.05);
        for (const PositionalEncoding p : {PositionalEncoding::Rope, PositionalEncoding::Alibi, PositionalEncoding::Relative})
            QVERIFY2(spread.at(p) < 1e-3, qPrintable(QString::number(spread.at(p))));
        QVERIFY(view.captionLabel()->text().contains(QStringLiteral("512")));
    }
};

QTEST_MAIN(TestPositionSchemeView)
#include "tst_positionschemeview.moc"

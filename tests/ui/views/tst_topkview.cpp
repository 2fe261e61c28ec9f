// The top-k view of the output probabilities: a probability row built here, its k largest
// entries in the order worked out by hand, their token labels on the axis and their values
// beside the bars, the argmax and the next token (the decoder's input one position on) marked,
// positions 1-based in the picker; and in the stage view, beside the probabilities only.

#include "views/topkview.h"
#include "plot/plotting.h"
#include "views/heatmapview.h"
#include "views/stageview.h"
#include "session/session.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QSpinBox>
#include <QtTest>

using namespace attnlab;

namespace {

Labels labels(std::vector<std::string> l)
{
    return std::make_shared<const std::vector<std::string>>(std::move(l));
}

/// 3 positions over a vocabulary of 6 tokens. Row 1 (after "b"), sorted by hand:
/// d 0.40, c 0.25, a 0.15, e 0.10, b 0.06, <eos> 0.04. The next input token at position 2 is "c".
LabeledMatrix probabilities()
{
    LabeledMatrix m;
    m.name = "P";
    m.values.resize(3, 6);
    m.values << 0.04f, 0.70f, 0.10f, 0.10f, 0.03f, 0.03f, //
        0.15f, 0.06f, 0.25f, 0.40f, 0.10f, 0.04f,          //
        0.05f, 0.05f, 0.05f, 0.05f, 0.05f, 0.75f;
    m.rowLabels = labels({"<sos>", "b", "c"});
    m.colLabels = labels({"a", "b", "c", "d", "e", "<eos>"});
    return m;
}

QStringList tickLabels(QCustomPlot* p)
{
    auto ticker = p->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    return ticker ? ticker->ticks().values() : QStringList();
}

} // namespace

class TestTopKView : public QObject {
    Q_OBJECT
private slots:
    void barsOfOnePosition()
    {
        TopKView v;
        v.resize(500, 400);
        v.show();
        v.setMatrix(probabilities());
        v.setK(4);
        v.setRow(1);
        QCOMPARE(v.positionSpin()->value(), 2); // position 2 as people count
        QCOMPARE(v.entries().size(), std::size_t(4));
        QCOMPARE(tickLabels(v.plot()), (QStringList{"d", "c", "a", "e"}));
        QCOMPARE(v.chosenColumn(), 3); // "d"
        QCOMPARE(v.nextColumn(), 2);   // "c" follows "b" in the decoder's input
        const QStringList texts = v.barTexts();
        QCOMPARE(texts.size(), 4);
        QVERIFY2(texts[0].startsWith(QStringLiteral("0.400")) && texts[0].contains(TopKView::tr("argmax")), qPrintable(texts[0]));
        QVERIFY2(texts[1].startsWith(QStringLiteral("0.250")) && texts[1].contains(TopKView::tr("next token")), qPrintable(texts[1]));
        QCOMPARE(texts[2], QStringLiteral("0.150"));
        QCOMPARE(texts[3], QStringLiteral("0.100"));
        // The bars' lengths are the probabilities, on a 0..1 axis.
        QCOMPARE(v.plot()->xAxis->range().lower, 0.0);
        QCOMPARE(v.plot()->xAxis->range().upper, 1.0);
        double total = 0;
        for (int i = 0; i < v.plot()->plottableCount(); ++i) {
            auto* bars = qobject_cast<QCPBars*>(v.plot()->plottable(i));
            for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
                total += it->value;
        }
        QVERIFY(std::abs(total - (0.40 + 0.25 + 0.15 + 0.10)) < 1e-6);
        for (QLabel* l : v.findChildren<QLabel*>()) // the next token is shown: no note about it
            QVERIFY2(!l->isVisibleTo(&v) || !l->text().contains(QStringLiteral("p =")), qPrintable(l->text()));
    }

    void theNextTokenOutsideTheTopIsNamed()
    {
        TopKView v;
        v.show();
        v.setMatrix(probabilities());
        v.setK(2);
        v.setRow(1); // next token "c" is second: inside the top 2
        QCOMPARE(tickLabels(v.plot()), (QStringList{"d", "c"}));
        v.setRow(0); // after <sos> comes "b": the argmax itself
        QCOMPARE(v.nextColumn(), 1);
        QVERIFY(v.barTexts()[0].contains(TopKView::tr("argmax")) && v.barTexts()[0].contains(TopKView::tr("next token")));
        v.setMatrix([] {
            LabeledMatrix m = probabilities();
            m.rowLabels = labels({"<sos>", "e", "c"}); // now "e" follows <sos>: p = 0.03, rank 5 (ties: lower column first)
            return m;
        }());
        v.setRow(0);
        QCOMPARE(v.nextColumn(), 4);
        const auto notes = v.findChildren<QLabel*>();
        bool named = false;
        for (QLabel* l : notes)
            named = named || (l->isVisibleTo(&v) && l->text().contains(QStringLiteral("0.030")) && l->text().contains(QStringLiteral("5")));
        QVERIFY(named);
        v.setRow(2); // the last position: nothing follows in the input
        QCOMPARE(v.nextColumn(), -1);
        QCOMPARE(tickLabels(v.plot()), (QStringList{"<eos>", "a"}));
    }

    void theStageViewShowsItBesideTheProbabilities()
    {
        Session s;
        Config c = s.config();
        c.model = ModelKind::Reversal;
        s.setConfig(c);
        QVERIFY2(s.isModel(), qPrintable(s.error()));
        StageView v(&s);
        v.resize(1400, 700);
        v.show();
        QVERIFY(!v.topK()->isVisibleTo(&v));
        s.setStepId(QStringLiteral("probabilities"));
        QVERIFY(v.topK()->isVisibleTo(&v));
        QCOMPARE(v.exportedPlots().size(), 2);
        // Selecting a cell picks its position; picking a position selects its most probable token.
        s.selectCell(2, 0);
        QCOMPARE(v.topK()->row(), 2);
        v.topK()->positionSpin()->setValue(1);
        QCOMPARE(s.selectedRow(), 0);
        QCOMPARE(s.selectedColumn(), v.topK()->chosenColumn());
        const Eigen::MatrixXf& p = v.heatmap()->matrix().values;
        Eigen::Index best = 0;
        p.row(0).maxCoeff(&best);
        QCOMPARE(v.topK()->chosenColumn(), static_cast<int>(best));
        s.setStepId(QStringLiteral("logits"));
        QVERIFY(!v.topK()->isVisibleTo(&v));
        QCOMPARE(v.exportedPlots().size(), 1);
    }

    // Issue 28 §3: a slide's bars showed position 1 whatever row the lesson highlighted.
    void theBarsFollowTheHighlightedRow()
    {
        Session s;
        Config c = s.config();
        c.model = ModelKind::Reversal;
        s.setConfig(c);
        QVERIFY2(s.isModel(), qPrintable(s.error()));
        StageView v(&s);
        v.resize(1400, 700);
        v.show();
        s.setStepId(QStringLiteral("probabilities"));
        Highlight rows;
        rows.rows = {2};
        s.setHighlight(rows);
        QCOMPARE(v.topK()->row(), 2);
        Highlight cell;
        cell.cells = {{1, 3}};
        s.setHighlight(cell);
        QCOMPARE(v.topK()->row(), 1);
        // A selected cell wins over the highlight.
        s.selectCell(0, 0);
        QCOMPARE(v.topK()->row(), 0);
    }

    // Issue 28 §3: a masked language model's bars name no next token.
    void aMaskedLanguageModelNamesNoNextToken()
    {
        TopKView v;
        v.resize(500, 400);
        v.show();
        v.setMatrix(probabilities());
        v.setRow(1);
        QCOMPARE(v.nextColumn(), 2);
        v.setMaskedLanguageModel(true);
        QCOMPARE(v.nextColumn(), -1);
        for (const QString& t : v.barTexts())
            QVERIFY2(!t.contains(TopKView::tr("next token")), qPrintable(t));
        QVERIFY(!plotTitle(v.plot())->text().contains(QStringLiteral("next")));
        QVERIFY(plotTitle(v.plot())->text().contains(QStringLiteral("to stand there")));
    }
};

QTEST_MAIN(TestTopKView)
#include "tst_topkview.moc"

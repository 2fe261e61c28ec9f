// The multi-head view: one small heatmap per head showing that head's matrix from the trace,
// clicking focuses a head, the grid follows the head count, the shared colour scale gives every
// head one range, and the concatenation shows C with its head blocks marked and O beside it.

#include "views/heatmapview.h"
#include "views/multiheadview.h"
#include "session/session.h"
#include "support/settle.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QFrame>
#include <QSignalSpy>
#include <QtTest>

#include <cmath>

using namespace attnlab;

namespace {

QCPColorMap* colorMap(HeatmapView* v)
{
    return qobject_cast<QCPColorMap*>(v->plot()->plottable(0));
}

QString titleOf(HeatmapView* v)
{
    auto* t = qobject_cast<QCPTextElement*>(v->plot()->plotLayout()->element(0, 0));
    return t ? t->text() : QString();
}

std::vector<::QCPItemRect*> headBlocks(HeatmapView* v)
{
    std::vector<::QCPItemRect*> out;
    QCustomPlot* p = v->plot();
    for (int i = 0; i < p->itemCount(); ++i) {
        if (p->item(i)->objectName() == MultiHeadView::headBlockItemName())
            out.push_back(qobject_cast<::QCPItemRect*>(p->item(i)));
    }
    return out;
}

double maxAbs(const Eigen::MatrixXf& m)
{
    double r = 0;
    for (Eigen::Index i = 0; i < m.size(); ++i) {
        if (std::isfinite(m.data()[i]))
            r = std::max(r, std::abs(double(m.data()[i])));
    }
    return r;
}

Config withHeads(const Session& s, int heads)
{
    Config c = s.config();
    c.heads = heads;
    return c;
}

/// Every head's plot shows that head's matrix of `stage` from the session's trace.
void checkHeadsShow(MultiHeadView& v, const Session& s, const char* stage)
{
    QCOMPARE(v.headPlotCount(), s.trace()->config.heads);
    for (int h = 0; h < v.headPlotCount(); ++h) {
        const Stage* st = s.trace()->find(stage, h);
        QVERIFY(st);
        QVERIFY2(v.headView(h)->matrix().values == st->main().values, qPrintable(QStringLiteral("head %1").arg(h)));
        QCOMPARE(titleOf(v.headView(h)), QStringLiteral("Head %1").arg(h + 1));
    }
}

} // namespace

class TestMultiHeadView : public QObject {
    Q_OBJECT
private slots:
    void gridHasOnePlotPerHead()
    {
        Session s;
        MultiHeadView v(&s);
        QCOMPARE(v.mode(), MultiHeadView::Mode::Heads);
        QCOMPARE(s.stepId(), QStringLiteral("weights"));
        QCOMPARE(v.headPlotCount(), 4);
        checkHeadsShow(v, s, "weights");
        // The heads really differ, so showing one head everywhere would fail above.
        QVERIFY(v.headView(0)->matrix().values != v.headView(1)->matrix().values);
        QVERIFY(!v.headView(4));
    }

    void gridFollowsThePerHeadStep()
    {
        Session s;
        MultiHeadView v(&s);
        s.setStepId(QStringLiteral("scores"));
        QCOMPARE(v.gridStageId(), QStringLiteral("scores"));
        checkHeadsShow(v, s, "scores");
        s.setStepId(QStringLiteral("v"));
        checkHeadsShow(v, s, "v");
        // Not a per-head step: the grid shows the attention weights.
        s.setStepId(QStringLiteral("concat"));
        QCOMPARE(v.gridStageId(), QStringLiteral("weights"));
        checkHeadsShow(v, s, "weights");
    }

    void clickingAPlotFocusesItsHead()
    {
        Session s;
        MultiHeadView v(&s);
        v.resize(1100, 700);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QCOMPARE(s.head(), 0);
        QCOMPARE(v.highlightedHead(), 0);
        QSignalSpy activated(&v, &MultiHeadView::headActivated);
        QCustomPlot* plot = v.headView(2)->plot();
        QTest::mouseClick(plot, Qt::LeftButton, {}, plot->rect().center());
        QCOMPARE(s.head(), 2);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().first().toInt(), 2);
        QCOMPARE(v.highlightedHead(), 2);
        QVERIFY(v.headFrame(2)->property("current").toBool());
        QVERIFY(!v.headFrame(0)->property("current").toBool());
        // The outline is drawn in a different colour from the other frames'.
        QVERIFY(v.headFrame(2)->palette().color(QPalette::WindowText) != v.headFrame(0)->palette().color(QPalette::WindowText));
        // The session's head changed elsewhere: the outline follows.
        s.setHead(3);
        QCOMPARE(v.highlightedHead(), 3);
        QVERIFY(v.headFrame(3)->property("current").toBool());
        QVERIFY(!v.headFrame(2)->property("current").toBool());
    }

    void changingTheHeadCountRebuildsTheGrid()
    {
        Session s;
        MultiHeadView v(&s);
        HeatmapView* first = v.headView(0);
        s.setSentence(QStringLiteral("a new sentence to attend to"));
        QCOMPARE(v.headView(0), first); // same count: the plots are reused
        checkHeadsShow(v, s, "weights");

        s.setConfig(withHeads(s, 8));
        QCOMPARE(v.headPlotCount(), 8);
        checkHeadsShow(v, s, "weights");
        s.setConfig(withHeads(s, 2));
        QCOMPARE(v.headPlotCount(), 2);
        checkHeadsShow(v, s, "weights");
    }

    void smallMultiplesDrawNoValues()
    {
        Session s;
        s.setSentence(QStringLiteral("one two three"));
        s.setConfig(withHeads(s, 1)); // one large plot with three by three cells: values would fit
        MultiHeadView v(&s);
        v.resize(1100, 700);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QCustomPlot* p = v.headView(0)->plot();
        for (int i = 0; i < p->itemCount(); ++i)
            QVERIFY2(!qobject_cast<QCPItemText*>(p->item(i)), "a cell value is drawn in the grid");
    }

    void sharedColourScale()
    {
        Session s;
        MultiHeadView v(&s);
        s.setStepId(QStringLiteral("scores")); // signed values: each head has its own range
        QVERIFY(v.sharedScaleCheckBox()->isEnabled());
        QVERIFY(!v.sharedScaleCheckBox()->isChecked());
        double global = 0;
        std::vector<double> own;
        for (int h = 0; h < v.headPlotCount(); ++h) {
            own.push_back(maxAbs(s.trace()->find("scores", h)->main().values));
            global = std::max(global, own.back());
            const QCPRange r = colorMap(v.headView(h))->dataRange();
            QVERIFY(std::abs(r.upper - own.back()) < 1e-5 * own.back());
            QCOMPARE(r.lower, -r.upper);
        }
        QVERIFY(*std::min_element(own.begin(), own.end()) < global * 0.999); // the ranges differ

        v.sharedScaleCheckBox()->setChecked(true);
        for (int h = 0; h < v.headPlotCount(); ++h) {
            const QCPRange r = colorMap(v.headView(h))->dataRange();
            QVERIFY2(std::abs(r.upper - global) < 1e-5 * global,
                     qPrintable(QStringLiteral("head %1: %2, expected %3").arg(h).arg(r.upper).arg(global)));
            QCOMPARE(r.lower, -r.upper);
        }
        // A new sentence recomputes the shared range.
        s.setSentence(QStringLiteral("短 句子 with mixed scripts"));
        double again = 0;
        for (int h = 0; h < v.headPlotCount(); ++h)
            again = std::max(again, maxAbs(s.trace()->find("scores", h)->main().values));
        for (int h = 0; h < v.headPlotCount(); ++h)
            QVERIFY(std::abs(colorMap(v.headView(h))->dataRange().upper - again) < 1e-5 * again);

        // Unchecked: back to each head's own range.
        v.sharedScaleCheckBox()->setChecked(false);
        for (int h = 0; h < v.headPlotCount(); ++h) {
            const double m = maxAbs(s.trace()->find("scores", h)->main().values);
            QVERIFY(std::abs(colorMap(v.headView(h))->dataRange().upper - m) < 1e-5 * m);
        }

        // Probabilities: always 0..1, the checkbox has nothing to do.
        s.setStepId(QStringLiteral("weights"));
        QVERIFY(!v.sharedScaleCheckBox()->isEnabled());
        for (int h = 0; h < v.headPlotCount(); ++h) {
            QCOMPARE(colorMap(v.headView(h))->dataRange().lower, 0.0);
            QCOMPARE(colorMap(v.headView(h))->dataRange().upper, 1.0);
        }
    }

    void concatShowsTheHeadBlocks()
    {
        Session s;
        MultiHeadView v(&s);
        v.setMode(MultiHeadView::Mode::Concat);
        QVERIFY(v.concatView()->matrix().values == s.trace()->find("concat")->main().values);
        QVERIFY(v.outputView()->matrix().values == s.trace()->find("output")->main().values);
        const int heads = s.config().heads;
        const int dk = s.config().dK();
        auto blocks = headBlocks(v.concatView());
        QCOMPARE(static_cast<int>(blocks.size()), heads);
        for (int h = 0; h < heads; ++h) {
            QVERIFY(blocks[static_cast<std::size_t>(h)]);
            QCOMPARE(blocks[static_cast<std::size_t>(h)]->topLeft->coords().x(), h * dk - 0.5);
            QCOMPARE(blocks[static_cast<std::size_t>(h)]->bottomRight->coords().x(), (h + 1) * dk - 0.5);
            QCOMPARE(blocks[static_cast<std::size_t>(h)]->brush().color(), MultiHeadView::headColor(h));
        }
        QVERIFY(MultiHeadView::headColor(0) != MultiHeadView::headColor(1));

        // Redrawing (a resize) removes items; the blocks come back.
        v.resize(1100, 700);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        testing::settle();
        QCOMPARE(static_cast<int>(headBlocks(v.concatView()).size()), heads);
        // 32 columns in about 450 px: cells far too narrow for numbers, none are drawn.
        for (HeatmapView* view : {v.concatView(), v.outputView()}) {
            for (int i = 0; i < view->plot()->itemCount(); ++i)
                QVERIFY2(!qobject_cast<QCPItemText*>(view->plot()->item(i)), "a value is drawn in a 10 px cell");
        }

        // More heads: more (narrower) blocks, and the matrices follow.
        s.setConfig(withHeads(s, 8));
        QCOMPARE(static_cast<int>(headBlocks(v.concatView()).size()), 8);
        QVERIFY(v.concatView()->matrix().values == s.trace()->find("concat")->main().values);
        QVERIFY(v.outputView()->matrix().values == s.trace()->find("output")->main().values);
        testing::settle();
        QCOMPARE(static_cast<int>(headBlocks(v.concatView()).size()), 8);
    }

    void clickingABlockFocusesItsHead()
    {
        Session s;
        MultiHeadView v(&s);
        v.setMode(MultiHeadView::Mode::Concat);
        v.resize(1100, 700);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        testing::settle();
        QSignalSpy activated(&v, &MultiHeadView::headActivated);
        QCustomPlot* p = v.concatView()->plot();
        const int dk = s.config().dK();
        const QPoint cell(static_cast<int>(p->xAxis->coordToPixel(3 * dk + 1)), static_cast<int>(p->yAxis->coordToPixel(0)));
        QTest::mouseClick(p, Qt::LeftButton, {}, cell);
        QCOMPARE(s.head(), 3);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().first().toInt(), 3);
    }
};

QTEST_MAIN(TestMultiHeadView)
#include "tst_multiheadview.moc"

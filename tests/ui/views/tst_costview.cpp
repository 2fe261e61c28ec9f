// The Cost tab (issue 13 §3): Run measures the kinds ticked in a background thread (the GUI keeps
// turning), then draws time and memory against n on log–log axes, one curve per kind plus the
// O(n) and O(n²) guides; Cancel stops a long run after the run in progress; a bad setting is said
// and nothing starts; Performer's error against M on the current sentence falls as M grows.

#include "attention/kind.h"
#include "session/session.h"
#include "shell/viewstack.h"
#include "views/costplots.h"
#include "views/costview.h"
#include "views/stageview.h"
#include "support/settle.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QSet>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

using namespace attnlab;

namespace {

void tickOnly(CostView& v, std::initializer_list<AttentionKind> kinds)
{
    for (const AttentionKindInfo& k : attentionKinds())
        v.kindBox(k.kind)->setChecked(std::find(kinds.begin(), kinds.end(), k.kind) != kinds.end());
}

/// The graph of `plot` named `name`, or null.
QCPGraph* graphNamed(QCustomPlot* plot, const QString& prefix)
{
    for (int i = 0; i < plot->graphCount(); ++i) {
        if (plot->graph(i)->name().startsWith(prefix))
            return plot->graph(i);
    }
    return nullptr;
}

} // namespace

class TestCostView : public QObject {
    Q_OBJECT
private slots:
    void aTinyRunIsDrawn()
    {
        Session s;
        CostView v(&s);
        tickOnly(v, {AttentionKind::Full, AttentionKind::Linear, AttentionKind::SlidingWindow});
        v.lengthsEdit()->setText(QStringLiteral("64, 128"));
        v.dModelBox()->setValue(32);
        v.headsBox()->setValue(4);
        v.repeatsBox()->setValue(1);
        QSignalSpy finished(&v, &CostView::runFinished);
        QTest::mouseClick(v.runButton(), Qt::LeftButton);
        QVERIFY(v.isRunning());
        QVERIFY(!v.runButton()->isEnabled());
        QVERIFY(v.cancelButton()->isEnabled());
        QVERIFY(finished.wait(60000));
        QVERIFY(!v.isRunning());
        QVERIFY(!v.wasCancelled());
        QCOMPARE(v.results().size(), std::size_t(3));
        for (const KindCost& c : v.results()) {
            QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
            QCOMPARE(c.result.points.size(), std::size_t(2));
            QCOMPARE(c.result.points[1].n, 128);
            QVERIFY(c.result.points[0].medianSeconds > 0);
        }
        QCOMPARE(v.progressBar()->value(), v.progressBar()->maximum());
        // Three curves and the two guides, on log–log axes; each curve has its two points.
        QCustomPlot* time = v.timePlot();
        QCOMPARE(time->graphCount(), 5);
        QVERIFY(time->xAxis->scaleType() == QCPAxis::stLogarithmic);
        QVERIFY(time->yAxis->scaleType() == QCPAxis::stLogarithmic);
        QCPGraph* full = graphNamed(time, QStringLiteral("full"));
        QVERIFY(full);
        QCOMPARE(full->data()->size(), 2);
        QCOMPARE(full->data()->at(0)->key, 64.0);
        QCOMPARE(full->data()->at(0)->value, v.results()[0].result.points[0].medianSeconds);
        QCOMPARE(full->name(), QStringLiteral("full"));
        QVERIFY2(v.statusLabel()->text().contains(QStringLiteral("full ") + QString::number(v.results()[0].result.slope, 'f', 2)),
                 qPrintable(v.statusLabel()->text()));
        QCPGraph* quadratic = graphNamed(time, QStringLiteral("O(n\u00B2)"));
        QVERIFY(quadratic);
        QVERIFY(quadratic->pen().style() != Qt::SolidLine);
        // y ∝ n²: 4 times as high at twice the n.
        QCOMPARE(quadratic->data()->at(1)->value / quadratic->data()->at(0)->value, 4.0);
        QVERIFY(graphNamed(time, QStringLiteral("O(n)")));
        // The boxes above are the key: each kind's colour beside its name, as its curve is drawn.
        QVERIFY(!v.kindBox(AttentionKind::Linear)->icon().isNull());
        const QImage swatch = v.kindBox(AttentionKind::Linear)->icon().pixmap(12, 12).toImage();
        QCOMPARE(QColor(swatch.pixel(6, 6)), graphNamed(time, QStringLiteral("linear"))->pen().color());
        // Every kind has a colour of its own (nine kinds since flash; the palette once had eight).
        QSet<QRgb> colours;
        for (const AttentionKindInfo& k : attentionKinds())
            colours.insert(v.kindBox(k.kind)->icon().pixmap(12, 12).toImage().pixel(6, 6));
        QCOMPARE(colours.size(), static_cast<qsizetype>(attentionKinds().size()));
        QVERIFY(v.memoryPlot()->graphCount() >= 2); // the guides, and the kinds whose memory was measured
        QVERIFY(!v.statusLabel()->text().isEmpty());
    }

    void cancelStopsALongRun()
    {
        Session s;
        CostView v(&s);
        tickOnly(v, {AttentionKind::Full, AttentionKind::Performer});
        v.lengthsEdit()->setText(QStringLiteral("2048, 4096, 8192"));
        v.dModelBox()->setValue(512);
        v.headsBox()->setValue(8);
        v.repeatsBox()->setValue(20); // minutes in all
        QSignalSpy finished(&v, &CostView::runFinished);
        v.run();
        QVERIFY(v.isRunning());
        testing::settle(); // the GUI thread keeps turning meanwhile
        QVERIFY(v.isRunning());
        QTest::mouseClick(v.cancelButton(), Qt::LeftButton);
        QVERIFY(!v.cancelButton()->isEnabled());
        // Minutes of work in all: ended early (what it finished says so below), however fast.
        QVERIFY(finished.wait(120000));
        QVERIFY(v.wasCancelled());
        QCOMPARE(v.results().size(), std::size_t(1)); // stopped inside the first kind
        QVERIFY(v.results()[0].result.cancelled);
        QVERIFY(v.results()[0].result.points.empty()); // no n finished its 20 runs
        QVERIFY(v.runButton()->isEnabled());
        QVERIFY(v.statusLabel()->text().startsWith(QStringLiteral("Cancelled")));
    }

    void aBadSettingIsSaidAndNothingRuns_data()
    {
        QTest::addColumn<QString>("lengths");
        QTest::addColumn<int>("dModel");
        QTest::addColumn<bool>("anyKind");
        QTest::addColumn<QString>("message");
        QTest::newRow("no numbers") << "64, x" << 32 << true << "Give the lengths n as whole numbers";
        QTest::newRow("no kind") << "64" << 32 << false << "Tick at least one attention kind";
        QTest::newRow("heads do not divide d_model") << "64" << 30 << true << "full (softmax over every key): d_model (30) must be a multiple of heads (4)";
        QTest::newRow("n below 2") << "1" << 32 << true << "full (softmax over every key): n (1) must be between 2";
    }

    void aBadSettingIsSaidAndNothingRuns()
    {
        QFETCH(QString, lengths);
        QFETCH(int, dModel);
        QFETCH(bool, anyKind);
        QFETCH(QString, message);
        Session s;
        CostView v(&s);
        if (anyKind)
            tickOnly(v, {AttentionKind::Full});
        else
            tickOnly(v, {});
        v.lengthsEdit()->setText(lengths);
        v.dModelBox()->setValue(dModel);
        v.headsBox()->setValue(4);
        v.run();
        QVERIFY(!v.isRunning());
        QVERIFY2(v.statusLabel()->text().startsWith(message), qPrintable(v.statusLabel()->text()));
        QVERIFY(v.results().empty());
    }

    void performersErrorFallsWithM()
    {
        Session s;
        CostView v(&s);
        QSignalSpy done(&v, &CostView::convergenceFinished);
        if (v.convergence().empty())
            QVERIFY(done.wait(60000));
        const auto& c = v.convergence();
        QCOMPARE(c.size(), convergenceFeatures().size());
        QCOMPARE(c.front().features, 16);
        QCOMPARE(c.back().features, 1024);
        QVERIFY(c.back().meanError < c.front().meanError);
        QCustomPlot* plot = v.convergencePlot();
        QCOMPARE(plot->graphCount(), 2); // the error and the 1/√M guide
        QCOMPARE(plot->graph(0)->data()->size(), 7);
        // A new sentence: computed again.
        done.clear();
        s.setSentence(QStringLiteral("a shorter one"));
        QVERIFY(done.wait(60000));
        QCOMPARE(v.convergence().size(), convergenceFeatures().size());
    }

    void aSlideMeasuresEveryKind()
    {
        // A lesson's deck (view: cost) shows measured curves, not empty axes.
        Session s;
        CostView v(&s);
        tickOnly(v, {AttentionKind::Full});
        QVERIFY(v.prepareForSlide(120000));
        QCOMPARE(v.results().size(), attentionKinds().size());
        for (const KindCost& c : v.results()) {
            QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
            QCOMPARE(c.result.points.size(), std::size_t(4)); // n = 128, 256, 512, 1024
        }
        QCOMPARE(v.convergence().size(), convergenceFeatures().size());
        QVERIFY(graphNamed(v.timePlot(), QStringLiteral("lsh")));
        QVERIFY(!v.statusLabel()->text().contains(QStringLiteral("press Run")));
        // Measured once: a second slide keeps the curves.
        QVERIFY(v.prepareForSlide(1000));
        QCOMPARE(v.results().size(), attentionKinds().size());
    }

    void aLessonStepBringsTheCostTab()
    {
        Session s;
        ViewStack stack(&s);
        s.setView(QStringLiteral("cost")); // what a lesson step's `view: cost` does
        stack.showStep();
        QCOMPARE(stack.visibleView(), stack.tabView(ViewKind::Cost));
        s.setView(QStringLiteral("stage"));
        stack.showStep();
        QCOMPARE(stack.visibleView(), static_cast<QWidget*>(stack.stageView()));
    }

    void theCostTabIsATabOfItsOwn()
    {
        Session s;
        ViewStack stack(&s);
        QWidget* cost = stack.tabView(ViewKind::Cost);
        QVERIFY(qobject_cast<CostView*>(cost));
        stack.setCurrentIndex(stack.indexOf(cost));
        QCOMPARE(s.view(), QStringLiteral("cost"));
        QCOMPARE(stack.tabText(stack.indexOf(cost)), QStringLiteral("Cost"));
        QCOMPARE(static_cast<CostView*>(cost)->figureName().view, QStringLiteral("cost"));
    }
};

QTEST_MAIN(TestCostView)
#include "tst_costview.moc"

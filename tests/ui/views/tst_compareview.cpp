// Comparing two inputs in the studio (issue 10 §2), with real widgets: Ctrl+D switches comparison
// on; every step then shows A and B on one colour scale and A − B on a diverging scale symmetric
// around 0, lined up by token for 狗咬了人 / 人咬了狗 (zero without positional encoding, not zero
// with it); the clicker keys step the stages and the heads; B can be another setting; the
// comparison's picture is exported; a B that cannot be computed, or of another length, says so.

#include "lessons/lessonplayer.h"
#include "session/session.h"
#include "shell/mainwindow.h"
#include "shell/viewstack.h"
#include "views/compareview.h"
#include "views/heatmapview.h"
#include "widgets/comparebar.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QPushButton>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace attnlab;

namespace {

QCPColorMap* colorMap(HeatmapView* h)
{
    return qobject_cast<QCPColorMap*>(h->plot()->plottable(0));
}

QString text(const QCPRange& r)
{
    return QStringLiteral("[%1, %2]").arg(r.lower).arg(r.upper);
}

/// A small model on 狗咬了人 without positions: four tokens, two heads.
void useDogBitesMan(Session& s, PositionalEncoding pe = PositionalEncoding::None)
{
    Config c = s.config();
    c.dModel = 8;
    c.heads = 2;
    c.positional = pe;
    s.setConfig(c);
    s.setSentence(QStringLiteral("狗咬了人"));
}

void showActive(MainWindow& w)
{
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
}

/// Checks the three heatmaps of the step shown: A and B share one range (0..1 for
/// probabilities, ±max otherwise), A − B is symmetric around 0 (±its largest difference, or A and
/// B's range when zero up to rounding), on its own diverging gradient with white at 0.
void checkScales(CompareView* v, const QString& where)
{
    const QString at = where + QStringLiteral(": ");
    QVERIFY2(!v->heatmapA()->isHidden() && !v->heatmapB()->isHidden() && !v->heatmapDifference()->isHidden(), qPrintable(at + "a heatmap is hidden"));
    const QCPRange a = colorMap(v->heatmapA())->dataRange();
    const QCPRange b = colorMap(v->heatmapB())->dataRange();
    const QCPRange d = colorMap(v->heatmapDifference())->dataRange();
    QVERIFY2(a == b, qPrintable(at + "A " + text(a) + " and B " + text(b) + " differ"));
    const CompareFigure& f = *v->figure();
    double largest = 0; // over the finite cells
    for (Eigen::Index i = 0; i < f.difference->values.size(); ++i) {
        if (std::isfinite(f.difference->values.data()[i]))
            largest = qMax(largest, double(std::abs(f.difference->values.data()[i])));
    }
    if (f.zero || largest == 0)
        largest = f.range > 0 ? f.range : 1.0;
    QVERIFY2(d.lower == -d.upper && qAbs(d.upper - largest) <= 1e-6 * qMax(1.0, largest),
             qPrintable(at + "A − B " + text(d) + " for a largest difference " + QString::number(largest)));
    if (v->heatmapA()->scale() == HeatmapView::Scale::Probability)
        QVERIFY2(a.lower == 0 && a.upper == 1, qPrintable(at + text(a)));
    else
        QVERIFY2(a.lower == -a.upper, qPrintable(at + text(a)));
    QCOMPARE(int(v->heatmapDifference()->scale()), int(HeatmapView::Scale::Difference));
    const QColor zero = QColor::fromRgb(colorMap(v->heatmapDifference())->gradient().color(0, d));
    QVERIFY2(zero.red() > 240 && zero.green() > 240 && zero.blue() > 240, qPrintable(at + zero.name()));
    QVERIFY(colorMap(v->heatmapDifference())->gradient() != colorMap(v->heatmapA())->gradient());
}

} // namespace

class TestCompareView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AttentionLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_compareview"));
    }

    void switchOnAndStepThroughEveryStage()
    {
        Session s;
        useDogBitesMan(s);
        MainWindow w(&s);
        showActive(w);
        s.setStep(0);
        QVERIFY(w.compareBar()->isHidden());
        QTest::keyClick(&w, Qt::Key_D, Qt::ControlModifier);
        QVERIFY(s.isComparing());
        QVERIFY(w.compareBar()->isVisible());
        QVERIFY(w.compareBar()->toggleAction()->isChecked());
        // B starts as A with its first and last words swapped.
        QCOMPARE(w.compareBar()->sentenceEdit()->text(), QStringLiteral("人咬了狗"));
        auto* v = qobject_cast<CompareView*>(w.visibleView());
        QVERIFY(v);
        // The tokens step lists both and says how they will be lined up.
        QVERIFY(v->messageLabel()->isVisible());
        QVERIFY(v->messageLabel()->text().contains(QStringLiteral("人 \u00B7 咬 \u00B7 了 \u00B7 狗")));
        QVERIFY(v->messageLabel()->text().contains(QStringLiteral("in another order")));

        // → steps through every stage (the clicker's key), whatever the page; each has its triple.
        int steps = 0;
        while (s.step() < static_cast<int>(s.steps().size()) - 1) {
            QTest::keyClick(w.visibleView(), Qt::Key_Right);
            QCOMPARE(w.visibleView(), static_cast<QWidget*>(v));
            QVERIFY2(v->figure(), qPrintable(s.stepId()));
            checkScales(v, s.stepId());
            // Without positions, B lined up by token equals A at every stage.
            QVERIFY2(v->figure()->zero, qPrintable(s.stepId() + ": " + v->figure()->differenceText));
            QVERIFY2(v->captionLabel()->text().contains(QStringLiteral("matched by token")), qPrintable(v->captionLabel()->text()));
            ++steps;
        }
        QCOMPARE(steps, static_cast<int>(s.steps().size()) - 1);
        // The positional-encoding step says comparison shows its matrix.
        s.setStepId(QStringLiteral("positional_encoding"));
        QVERIFY(v->noteLabel()->isVisible());
        QVERIFY(v->noteLabel()->text().contains(QStringLiteral("this stage's matrix")));
    }

    void headsAndTheDifferenceWithPositions()
    {
        Session s;
        useDogBitesMan(s, PositionalEncoding::Sinusoidal);
        MainWindow w(&s);
        showActive(w);
        s.setStepId(QStringLiteral("weights"));
        w.compareBar()->toggleAction()->trigger();
        auto* v = qobject_cast<CompareView*>(w.visibleView());
        QVERIFY(v && v->figure());
        QVERIFY(!v->figure()->zero);
        QVERIFY(v->figure()->differenceText.contains(QStringLiteral("largest |A \u2212 B| = ")));
        QCOMPARE(v->figure()->plotTitleA, QStringLiteral("A: 狗咬了人"));
        QCOMPARE(v->figure()->plotTitleB, QStringLiteral("B: 人咬了狗"));
        QVERIFY(v->figure()->stageTitle.contains(QStringLiteral("head 1")));
        // ↓ is the next head, for A and B alike.
        QTest::keyClick(w.visibleView(), Qt::Key_Down);
        QCOMPARE(s.head(), 1);
        QVERIFY(v->figure()->stageTitle.contains(QStringLiteral("head 2")));
        checkScales(v, QStringLiteral("weights, head 2"));
        // The "All heads" tab waits while comparing.
        QVERIFY(!w.tabs()->isTabEnabled(1));
        // Ctrl+D again: the stage's own view is back.
        QTest::keyClick(&w, Qt::Key_D, Qt::ControlModifier);
        QVERIFY(!s.isComparing());
        QVERIFY(w.visibleView() != v);
        QVERIFY(w.tabs()->isTabEnabled(1));
    }

    void clickerKeysAroundTheBar()
    {
        // The bar's controls never swallow the stepping keys; B's sentence, once typed in, keeps
        // ← and → (PageDown, the clicker's, still steps) until Esc gives the keys back.
        Session s;
        useDogBitesMan(s);
        MainWindow w(&s);
        showActive(w);
        s.setStepId(QStringLiteral("scores"));
        QTest::keyClick(&w, Qt::Key_D, Qt::ControlModifier);
        CompareBar* bar = w.compareBar();
        for (QWidget* widget : {static_cast<QWidget*>(bar->kindBox()), static_cast<QWidget*>(bar->swapButton())}) {
            widget->setFocus(Qt::MouseFocusReason);
            const int before = s.step();
            QTest::keyClick(widget, Qt::Key_Right);
            QCOMPARE(s.step(), before + 1);
            QTest::keyClick(widget, Qt::Key_Down);
            QCOMPARE(s.head(), 1);
            QTest::keyClick(widget, Qt::Key_Up);
            QCOMPARE(s.head(), 0);
        }
        QLineEdit* b = bar->sentenceEdit();
        b->setFocus(Qt::MouseFocusReason);
        QTest::keyClicks(b, QStringLiteral("x"));
        const int before = s.step();
        QTest::keyClick(b, Qt::Key_Left);
        QCOMPARE(s.step(), before);
        QTest::keyClick(b, Qt::Key_PageDown);
        QCOMPARE(s.step(), before + 1);
        QTest::keyClick(b, Qt::Key_Escape);
        QVERIFY(!b->hasFocus());
        QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : &w, Qt::Key_Right);
        QCOMPARE(s.step(), before + 2);
        // What was typed is B's sentence (after the pause in typing).
        QTRY_COMPARE(QString::fromStdString(s.comparison().sentence), QStringLiteral("人咬了狗x"));
    }

    void bIsAnotherSetting()
    {
        Session s;
        useDogBitesMan(s, PositionalEncoding::Sinusoidal);
        MainWindow w(&s);
        showActive(w);
        s.setStepId(QStringLiteral("input"));
        w.compareBar()->toggleAction()->trigger();
        QComboBox* kind = w.compareBar()->kindBox();
        kind->setCurrentIndex(1);
        emit kind->activated(1); // positional encoding: B starts without it (A has it)
        QCOMPARE(int(s.comparison().kind), int(CompareKind::Positional));
        QCOMPARE(int(s.comparison().positional), int(PositionalEncoding::None));
        auto* v = qobject_cast<CompareView*>(w.visibleView());
        QCOMPARE(v->figure()->titleA, QStringLiteral("A: positional encoding sinusoidal"));
        QCOMPARE(v->figure()->titleB, QStringLiteral("B: positional encoding none"));
        // The same tokens in the same order: lined up by position; X differs by exactly P.
        QVERIFY(v->captionLabel()->text().contains(QStringLiteral("the same tokens in the same order")));
        QVERIFY(!v->figure()->zero);
        checkScales(v, QStringLiteral("input"));
        // The seed: B's weights are other random numbers.
        kind->setCurrentIndex(4);
        emit kind->activated(4);
        QCOMPARE(int(s.comparison().kind), int(CompareKind::Seed));
        QCOMPARE(s.comparison().seed, s.config().seed + 1);
        QCOMPARE(v->figure()->titleB, QStringLiteral("B: seed %1").arg(s.config().seed + 1));
    }

    void bOfAnotherLengthOrNotComputed()
    {
        Session s;
        useDogBitesMan(s);
        MainWindow w(&s);
        showActive(w);
        s.setStepId(QStringLiteral("scores"));
        s.setComparing(true);
        Comparison c;
        c.sentence = "猫";
        s.setComparison(c);
        auto* v = qobject_cast<CompareView*>(w.visibleView());
        QVERIFY(v->figure() && v->figure()->b && !v->figure()->difference);
        QVERIFY(v->heatmapDifference()->isHidden());
        QVERIFY(v->problemLabel()->isVisible());
        QVERIFY(v->problemLabel()->text().contains(QStringLiteral("the shapes differ")));
        QVERIFY(v->captionLabel()->text().contains(QStringLiteral("shapes differ: no difference")));
        // A B the engine refuses (too many attention cells): A stays, the reason in B's place.
        Config big = s.config();
        big.maxTokens = 1024;
        s.setConfig(big);
        QStringList words;
        for (int i = 0; i < 1100; ++i)
            words << QStringLiteral("w%1").arg(i % 1000);
        c.sentence = words.join(QLatin1Char(' ')).toStdString();
        Config many = s.config();
        many.heads = 32; // 1024² · 32 cells: over the limit for B, not for A's 4 tokens
        many.dModel = 32;
        s.setConfig(many);
        s.setComparison(c);
        QVERIFY(s.error().isEmpty());
        QVERIFY(!s.comparisonError().isEmpty());
        QVERIFY(v->figure() && !v->figure()->b);
        QVERIFY(v->heatmapB()->isHidden() && v->heatmapDifference()->isHidden());
        QVERIFY(v->problemLabel()->text().startsWith(QStringLiteral("B could not be computed: ")));
    }

    void theLessonPlaysIt_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh") << QStringLiteral("zh");
    }

    void theLessonPlaysIt()
    {
        // Lesson 14: 人咬了狗 without positions (zero), with them (not zero), then B as scaling,
        // a seed, and the causal mask; the clicker key steps it while the comparison is shown.
        QFETCH(QString, language);
        Session s;
        MainWindow w(&s);
        showActive(w);
        QVERIFY(w.lessonPlayer()->openLessonFile(QStringLiteral(":/lessons/%1/14-comparing-inputs.md").arg(language)));
        QVERIFY(s.isComparing());
        auto* v = qobject_cast<CompareView*>(w.visibleView());
        QVERIFY(v);
        const auto stepTo = [&](int index) {
            while (w.lessonPlayer()->stepIndex() < index)
                QTest::keyClick(w.visibleView(), Qt::Key_PageDown);
            QCOMPARE(w.lessonPlayer()->stepIndex(), index);
            QVERIFY(s.comparisonError().isEmpty());
        };
        stepTo(3); // the weights, without positions
        QCOMPARE(s.stepId(), QStringLiteral("weights"));
        QVERIFY(v->figure() && v->figure()->zero);
        QCOMPARE(int(v->figure()->matching), int(Matching::ByToken));
        checkScales(v, QStringLiteral("lesson step 4"));
        stepTo(5); // X with positions: only the rows of 狗 and 人 differ
        QVERIFY(v->figure() && !v->figure()->zero);
        const LabeledMatrix& d = *v->figure()->difference;
        QCOMPARE(d.values.row(1).cwiseAbs().maxCoeff(), 0.0f);
        QCOMPARE(d.values.row(2).cwiseAbs().maxCoeff(), 0.0f);
        QVERIFY(d.values.row(0).cwiseAbs().maxCoeff() > 0.1f);
        stepTo(7); // B: the same sentence without ÷√d_k
        QCOMPARE(int(s.comparison().kind), int(CompareKind::Scaling));
        QCOMPARE(int(v->figure()->matching), int(Matching::Same));
        stepTo(8);
        QCOMPARE(s.comparison().seed, std::uint64_t(7));
        stepTo(9); // the causal mask breaks the symmetry even without positions
        QCOMPARE(int(s.config().mask), int(MaskKind::Causal));
        QVERIFY(v->figure() && !v->figure()->zero);
    }

    // Issue 28 §2: the triple fills the view in the arrangement with the largest cells.
    void theArrangementGivesTheLargestCells()
    {
        using A = CompareView::Arrangement;
        const QSize none(0, 0);
        // 12 × 12 in a wide room: a row gives min(900/3/12, 400/12) = 25 px, a column
        // min(900/12, 400/3/12) = 11, two by two min(450/12, 200/12) = 16.7.
        QCOMPARE(CompareView::bestArrangement(QSize(904, 400), 3, 12, 12, none), (A{1, 3}));
        // A tall room: a column.
        QCOMPARE(CompareView::bestArrangement(QSize(400, 904), 3, 12, 12, none), (A{3, 1}));
        // A square room: two by two (150 px a cell against 100 in a row or a column).
        QCOMPARE(CompareView::bestArrangement(QSize(602, 602), 3, 2, 2, none), (A{2, 2}));
        // Room for labels counts: 12 × 32 (X) in 1000 × 900 with 100 × 60 pixels besides the
        // cells: a row (1000/3 − 100)/32 = 7.3 px, two by two min((500 − 100)/32, (450 − 60)/12)
        // = 12.5, a column min((1000 − 100)/32, (300 − 60)/12) = 20.
        QCOMPARE(CompareView::bestArrangement(QSize(1000, 904), 3, 12, 32, QSize(100, 60)), (A{3, 1}));
        // Less tall, two by two: a column's min(28, (200 − 60)/12 = 11.7) against 12.5.
        QCOMPARE(CompareView::bestArrangement(QSize(1000, 604), 3, 12, 32, QSize(100, 60)), (A{2, 2}));
        // Two parts (no difference): a row or a column, never two by two.
        QCOMPARE(CompareView::bestArrangement(QSize(602, 602), 2, 2, 2, none).rows * CompareView::bestArrangement(QSize(602, 602), 2, 2, 2, none).cols, 2);
    }

    // Issue 28 §2: at 1024 × 768 A, B and A − B were 110 × 130 pixels in the top third, without
    // numbers; now they share the whole view, and a small sentence's cells hold their numbers.
    void theTripleFillsTheView()
    {
        Session s;
        useDogBitesMan(s);
        MainWindow w(&s);
        w.resize(1024, 768);
        showActive(w);
        s.setComparing(true);
        s.setStep(s.stepIndex(QStringLiteral("weights")));
        auto* view = w.findChild<CompareView*>();
        QVERIFY(view && view->isVisible());
        QTRY_VERIFY(view->heatmapA()->height() > 0);
        const QRect content = view->heatmapA()->parentWidget()->rect();
        // Each of the three takes a fifth of the view at least (a third in a row or a column, a
        // quarter two by two), where they took 110 × 130 pixels.
        for (HeatmapView* h : {view->heatmapA(), view->heatmapB(), view->heatmapDifference()}) {
            QVERIFY(h->isVisible());
            QVERIFY2(h->width() * h->height() > 0.2 * content.width() * content.height(),
                     qPrintable(QStringLiteral("%1 x %2 of %3 x %4").arg(h->width()).arg(h->height()).arg(content.width()).arg(content.height())));
        }
        // Four tokens: every cell of A has its number.
        QCustomPlot* plot = view->heatmapA()->plot();
        plot->replot();
        int numbers = 0;
        for (int i = 0; i < plot->itemCount(); ++i)
            numbers += qobject_cast<QCPItemText*>(plot->item(i)) != nullptr;
        QCOMPARE(numbers, 16);
    }

    void exportsOnePicture()
    {
        Session s;
        useDogBitesMan(s);
        MainWindow w(&s);
        showActive(w);
        s.setStepId(QStringLiteral("weights"));
        s.setComparing(true);
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("c.svg"));
        QVERIFY(w.exportCurrentView(svg));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.contains("viewBox=\"0 0 1800 720\""));
        QVERIFY(bytes.contains(QStringLiteral(">人咬了狗</text>").toUtf8())); // after "B: ", in the CJK face
        QVERIFY(bytes.contains(QStringLiteral("A \u2212 B</text>").toUtf8()));
        const QString png = dir.filePath(QStringLiteral("c.png"));
        QVERIFY(w.exportCurrentView(png, 96));
        QCOMPARE(QImage(png).size(), QSize(1800, 720));
    }
};

QTEST_MAIN(TestCompareView)
#include "tst_compareview.moc"

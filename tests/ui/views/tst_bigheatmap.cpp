// A heatmap of 1024 tokens (issue 12, section 5): the stage view of a one-block run at
// max_tokens 1024 labels as many rows and columns as fit without overlap (not all 1024), writes
// no value into cells a pixel wide (not even the −∞ of masked cells), and names the row's and
// the column's token of the cell under the mouse beside the axes and in the tooltip. A zoomed
// heatmap writes the values of the cells shown only, and those of the new part after a scroll.

#include "views/heatmappointer.h"
#include "views/heatmapview.h"
#include "views/heatmapzoom.h"
#include "views/stageview.h"
#include "session/session.h"

#include "support/layout.h"

#include <qcustomplot.h>

#include <QScrollBar>
#include <QtTest>

#include <memory>

using namespace attnlab;
using namespace attnlab::testing;

namespace {

/// "w0 w1 … w<n−1>": one token per word, each word its own name.
QString numberedWords(int n)
{
    QStringList words;
    for (int i = 0; i < n; ++i)
        words << QStringLiteral("w%1").arg(i);
    return words.join(QLatin1Char(' '));
}

/// A one-block run of `n` words with the causal mask, on the stage `step`.
void setUp(Session& s, int n, const QString& step)
{
    Config c = s.config();
    c.maxTokens = 1024;
    c.mask = MaskKind::Causal;
    c.dModel = 16;
    c.heads = 2;
    s.setConfig(c);
    s.setSentence(numberedWords(n));
    s.setStepId(step);
}

/// The stage view of that run at 1024 × 768, on screen.
struct ShownStage {
    Session session;
    std::unique_ptr<StageView> view;

    ShownStage(int n, const QString& step)
    {
        setUp(session, n, step);
        view = std::make_unique<StageView>(&session);
        view->resize(1024, 768);
        view->show();
    }
    HeatmapView* heatmap() const { return view->heatmap(); }
    /// Laid out and drawn.
    QCustomPlot* drawnPlot() const
    {
        heatmap()->plot()->replot(QCustomPlot::rpImmediateRefresh);
        return heatmap()->plot();
    }
};

/// The item texts written in the plot that are shown (cell values, −∞ marks, markers).
QList<QCPItemText*> shownTexts(QCustomPlot* p)
{
    QList<QCPItemText*> out;
    for (int i = 0; i < p->itemCount(); ++i) {
        if (auto* t = qobject_cast<QCPItemText*>(p->item(i)); t && t->visible() && !t->text().isEmpty())
            out << t;
    }
    return out;
}

/// How many labels of `axis` could stand side by side a line apart at most (the fitting ticker
/// keeps neighbours 0.8 of a line apart).
int mostLabels(QCPAxis* axis)
{
    const QFontMetrics fm(axis->tickLabelFont());
    const int length = axis->orientation() == Qt::Horizontal ? axis->axisRect()->width() : axis->axisRect()->height();
    return static_cast<int>(length / (0.8 * fm.height())) + 1;
}

void moveMouse(QCustomPlot* p, QPointF at)
{
    QMouseEvent move(QEvent::MouseMove, at, p->mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(p, &move);
}

/// True when some pixel on the border of `r` (± 1 px) has the pointer's orange.
bool orangeBorder(const QImage& image, const QRect& r)
{
    for (int x = r.left() - 1; x <= r.right() + 1; ++x) {
        for (int y = r.top() - 1; y <= r.bottom() + 1; ++y) {
            const bool border = x <= r.left() + 1 || x >= r.right() - 1 || y <= r.top() + 1 || y >= r.bottom() - 1;
            const QColor c = image.pixelColor(std::clamp(x, 0, image.width() - 1), std::clamp(y, 0, image.height() - 1));
            if (border && c.red() > 220 && std::abs(c.green() - 140) < 40 && c.blue() < 60)
                return true;
        }
    }
    return false;
}

} // namespace

class TestBigHeatmap : public QObject {
    Q_OBJECT
private slots:
    void aThousandTokensGetFewLabelsAndNoCellTexts_data()
    {
        QTest::addColumn<QString>("step");
        QTest::newRow("weights") << "weights";
        QTest::newRow("masked scores (half the cells -inf)") << "masked_scores";
    }

    void aThousandTokensGetFewLabelsAndNoCellTexts()
    {
        QFETCH(QString, step);
        ShownStage v(1024, step);
        QVERIFY(QTest::qWaitForWindowExposed(v.view.get()));
        QCOMPARE(static_cast<int>(v.session.trace()->tokens.size()), 1024);
        QCOMPARE(QString::fromStdString(v.session.trace()->tokens[700]), QStringLiteral("w700")); // one token per word
        QCustomPlot* p = v.drawnPlot();
        QCOMPARE(v.heatmap()->matrix().values.rows(), 1024);
        // Rows and keys labelled every k-th: some, as many as the axis holds at most, none overlapping.
        for (QCPAxis* axis : {p->yAxis, p->xAxis2}) {
            const int drawn = static_cast<int>(axis->tickVector().size());
            QVERIFY2(drawn >= 8 && drawn <= mostLabels(axis),
                     qPrintable(QStringLiteral("%1 labels drawn: %2").arg(drawn).arg(QStringList(axis->tickVectorLabels().toList()).join(u','))));
            QCOMPARE(axis->tickVectorLabels().size(), drawn);
        }
        // As many row labels as fit: at least half of what a line apart allows.
        QVERIFY2(p->yAxis->tickVector().size() >= mostLabels(p->yAxis) / 2, qPrintable(QString::number(p->yAxis->tickVector().size())));
        const QStringList overlaps = clippedAxes(p, step);
        QVERIFY2(overlaps.isEmpty(), qPrintable(overlaps.join(QLatin1Char('\n'))));
        // Cells of about half a pixel: no values, no −∞ marks; only the few items of the pointer.
        QVERIFY2(shownTexts(p).isEmpty(), qPrintable(shownTexts(p).value(0) ? shownTexts(p).value(0)->text() : QString()));
        QVERIFY2(p->itemCount() <= 4, qPrintable(QString::number(p->itemCount())));
    }

    void hoveringNamesTheRowAndColumnTokens()
    {
        ShownStage v(1024, QStringLiteral("weights"));
        QVERIFY(QTest::qWaitForWindowExposed(v.view.get()));
        HeatmapView* h = v.heatmap();
        QCustomPlot* p = v.drawnPlot();
        // Neither row 700 nor column 300 has a label of its own at this size.
        QVERIFY(!p->yAxis->tickVector().contains(700.0) || !p->xAxis2->tickVector().contains(300.0));
        const QPointF at(p->xAxis->coordToPixel(300), p->yAxis->coordToPixel(700));
        moveMouse(p, at);
        QCOMPARE(h->pointer().hoverRow(), 700);
        QCOMPARE(h->pointer().hoverColumn(), 300);
        QVERIFY(h->pointer().rowMarker() && h->pointer().columnMarker());
        QCOMPARE(h->pointer().rowMarker()->text(), QStringLiteral("w700"));
        QCOMPARE(h->pointer().columnMarker()->text(), QStringLiteral("w300"));
        QVERIFY(h->cellDescription(at).contains(QStringLiteral("w700 \u2192 w300")));
        // Drawn: each marker beside the cells (the row's left of them, the column's above them),
        // framed in the pointer's orange, over the labels it stands for.
        p->replot(QCustomPlot::rpImmediateRefresh);
        const QImage image = p->toPixmap().toImage();
        const QRect cells = p->axisRect()->rect();
        const QRect row = itemTextRect(h->pointer().rowMarker());
        const QRect column = itemTextRect(h->pointer().columnMarker());
        QVERIFY2(row.right() <= cells.left() + 1 && row.top() < int(at.y()) && row.bottom() > int(at.y()), qPrintable(rectText(row)));
        QVERIFY2(column.bottom() <= cells.top() + 1 && column.left() < int(at.x()) && column.right() > int(at.x()), qPrintable(rectText(column)));
        QVERIFY(p->rect().contains(row) && p->rect().contains(column));
        QVERIFY(orangeBorder(image, row));
        QVERIFY(orangeBorder(image, column));
        // Off the cells: the markers go.
        moveMouse(p, QPointF(2, 2));
        QCOMPARE(h->pointer().hoverRow(), -1);
        QVERIFY(!h->pointer().rowMarker()->visible() && !h->pointer().columnMarker()->visible());
    }

    void zoomedInOnlyTheCellsShownGetValues()
    {
        ShownStage v(64, QStringLiteral("weights"));
        QVERIFY(QTest::qWaitForWindowExposed(v.view.get()));
        HeatmapView* h = v.heatmap();
        QCustomPlot* p = v.drawnPlot();
        QVERIFY(shownTexts(p).isEmpty()); // 64 × 64 at 100 %: cells too small for values
        h->zoom()->setFactor(HeatmapZoom::kMaxFactor);
        QCoreApplication::processEvents();
        p->replot(QCustomPlot::rpImmediateRefresh);
        const auto checkShown = [&] {
            const QCPRange x = p->xAxis->range();
            const QCPRange y = p->yAxis->range();
            const QList<QCPItemText*> texts = shownTexts(p);
            // Every cell the axes reach into has its value, and no other cell.
            const int across = static_cast<int>(std::ceil(x.upper - 0.5) - std::floor(x.lower + 0.5)) + 1;
            const int down = static_cast<int>(std::ceil(y.upper - 0.5) - std::floor(y.lower + 0.5)) + 1;
            QCOMPARE(texts.size(), across * down);
            QVERIFY(texts.size() < 200); // not 4096
            for (QCPItemText* t : texts) {
                const QPointF c = t->position->coords();
                QVERIFY2(c.x() > x.lower - 0.5 && c.x() < x.upper + 0.5 && c.y() > y.lower - 0.5 && c.y() < y.upper + 0.5,
                         qPrintable(QStringLiteral("a value at (%1, %2) outside the part shown %3..%4 %5..%6").arg(c.x()).arg(c.y()).arg(x.lower).arg(x.upper).arg(y.lower).arg(y.upper)));
            }
        };
        checkShown();
        // Scrolled to the far corner: the values of the cells shown there.
        h->zoom()->horizontalBar()->setValue(h->zoom()->horizontalBar()->maximum());
        h->zoom()->verticalBar()->setValue(h->zoom()->verticalBar()->maximum());
        QCoreApplication::processEvents();
        QVERIFY(p->xAxis->range().upper > 63);
        checkShown();
        bool lastCell = false;
        for (QCPItemText* t : shownTexts(p))
            lastCell = lastCell || t->position->coords() == QPointF(63, 63);
        QVERIFY(lastCell);
    }
};

QTEST_MAIN(TestBigHeatmap)
#include "tst_bigheatmap.moc"

// A lesson's highlight keeps the colours honest: inside a highlighted cell (a cell, a row, a
// column) the pixel is exactly the colour bar's colour of its value; every other cell lies under
// the translucent veil (the blend worked out here from the veil's colour and alpha); and frames,
// not fills, mark what is highlighted — on screen and in an exported PNG.

#include "views/heatmapview.h"

#include "core/trace.h"
#include "export/exporter.h"

#include <qcustomplot.h>

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace attnlab;

namespace {

Labels labels(std::vector<std::string> l)
{
    return std::make_shared<const std::vector<std::string>>(std::move(l));
}

/// 4 × 4 signed values, every cell a different colour: −1.5 … +1.5 in steps of 0.2.
LabeledMatrix matrix()
{
    LabeledMatrix m;
    m.name = "S";
    m.values.resize(4, 4);
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c)
            m.values(r, c) = -1.5f + 0.2f * static_cast<float>(r * 4 + c);
    }
    m.rowLabels = labels({"a", "b", "c", "d"});
    m.colLabels = labels({"a", "b", "c", "d"});
    return m;
}

/// The colour a cell's value has on the colour bar.
QColor barColor(const HeatmapView& v, float value)
{
    auto* map = qobject_cast<QCPColorMap*>(v.plot()->plottable(0));
    return QColor::fromRgb(map->gradient().color(static_cast<double>(value), map->dataRange()));
}

/// The pixel a quarter of the way into cell (r, c), away from its frame.
QColor pixelOf(const HeatmapView& v, const QImage& image, int r, int c)
{
    const double x = v.plot()->xAxis->coordToPixel(c - 0.2);
    const double y = v.plot()->yAxis->coordToPixel(r - 0.2);
    return image.pixelColor(static_cast<int>(std::lround(x)), static_cast<int>(std::lround(y)));
}

int distance(const QColor& a, const QColor& b)
{
    return std::max({std::abs(a.red() - b.red()), std::abs(a.green() - b.green()), std::abs(a.blue() - b.blue())});
}

QString text(const QColor& c)
{
    return QStringLiteral("(%1, %2, %3)").arg(c.red()).arg(c.green()).arg(c.blue());
}

} // namespace

class TestHeatmapHighlight : public QObject {
    Q_OBJECT
private slots:
    void highlightedCellsKeepTheirColourTheRestIsVeiled_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<bool>("exported"); // the picture File ▸ Export view writes (and slides draw)
        QTest::newRow("a cell") << "cell" << false;
        QTest::newRow("a row") << "row" << false;
        QTest::newRow("a column") << "column" << false;
        QTest::newRow("a cell, exported PNG") << "cell" << true;
        QTest::newRow("a row, exported PNG") << "row" << true;
    }

    void highlightedCellsKeepTheirColourTheRestIsVeiled()
    {
        QFETCH(QString, what);
        QFETCH(bool, exported);
        Highlight h;
        if (what == u"cell")
            h.cells = {{1, 2}};
        else if (what == u"row")
            h.rows = {1};
        else
            h.columns = {2};
        const auto lit = [&](int r, int c) {
            return what == u"cell" ? r == 1 && c == 2 : what == u"row" ? r == 1 : c == 2;
        };
        HeatmapView v;
        v.resize(700, 600);
        v.setCellValuesVisible(false); // the value texts would sit where the pixels are read
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        const LabeledMatrix m = matrix();
        v.setMatrix(m, QStringLiteral("S"), HeatmapView::Scale::Signed);
        v.setHighlight(h);
        v.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QImage image = v.plot()->toPixmap().toImage();
        QTemporaryDir dir;
        if (exported) {
            // At 96 dpi the PNG has the plot's own pixels.
            const QString path = dir.filePath(QStringLiteral("highlight.png"));
            ExportOptions options;
            options.dpi = 96;
            const ExportResult r = exportWidget(&v, options, path);
            QVERIFY2(r.ok, qPrintable(r.error));
            QVERIFY(image.load(path));
            QCOMPARE(image.size(), v.plot()->size());
        }
        const QColor veil = HeatmapView::highlightVeil();
        const double a = veil.alphaF();
        for (int r = 0; r < 4; ++r) {
            for (int c = 0; c < 4; ++c) {
                const QColor own = barColor(v, m.values(r, c));
                const QColor seen = pixelOf(v, image, r, c);
                // Source-over blending of the veil on the cell's colour, channel by channel.
                const QColor veiled = QColor::fromRgbF(static_cast<float>(a * veil.redF() + (1 - a) * own.redF()),
                                                       static_cast<float>(a * veil.greenF() + (1 - a) * own.greenF()),
                                                       static_cast<float>(a * veil.blueF() + (1 - a) * own.blueF()));
                const QColor expected = lit(r, c) ? own : veiled;
                QVERIFY2(distance(seen, expected) <= 2, qPrintable(QStringLiteral("cell (%1, %2) %3: %4, expected %5 (its colour %6)")
                                                                      .arg(r)
                                                                      .arg(c)
                                                                      .arg(lit(r, c) ? "highlighted" : "veiled", text(seen),
                                                                           text(expected), text(own))));
                if (!lit(r, c) && distance(own, veiled) > 8)
                    QVERIFY2(distance(seen, own) > 8, qPrintable(QStringLiteral("cell (%1, %2) is not dimmed").arg(r).arg(c)));
            }
        }
        // Frames, not fills: every highlight item is either the veil or has no brush.
        int frames = 0;
        for (int i = 0; i < v.plot()->itemCount(); ++i) {
            auto* rect = qobject_cast<QCPItemRect*>(v.plot()->item(i));
            if (!rect || rect->objectName() != u"highlight")
                continue;
            if (rect->brush().style() == Qt::NoBrush)
                ++frames;
            else
                QCOMPARE(rect->brush().color(), veil);
        }
        QCOMPARE(frames, 2); // the dark frame and its white inner line
    }

    void noHighlightNoVeil()
    {
        HeatmapView v;
        v.resize(600, 500);
        v.setCellValuesVisible(false);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        const LabeledMatrix m = matrix();
        v.setMatrix(m, QStringLiteral("S"), HeatmapView::Scale::Signed);
        Highlight outside; // a row the matrix does not have: nothing to emphasise, nothing dimmed
        outside.rows = {9};
        v.setHighlight(outside);
        v.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QImage image = v.plot()->toPixmap().toImage();
        for (int r = 0; r < 4; ++r) {
            for (int c = 0; c < 4; ++c)
                QVERIFY(distance(pixelOf(v, image, r, c), barColor(v, m.values(r, c))) <= 2);
        }
    }

    void aMessageReplacesTheColours()
    {
        HeatmapView v;
        v.resize(600, 500);
        v.show();
        LabeledMatrix m = matrix();
        m.values.setZero();
        v.setMatrix(m, QStringLiteral("M"), HeatmapView::Scale::Signed);
        v.setMessage(QStringLiteral("No mask"));
        auto* map = qobject_cast<QCPColorMap*>(v.plot()->plottable(0));
        QVERIFY(!map->visible());
        QVERIFY(!map->colorScale()->visible());
        bool found = false;
        for (int i = 0; i < v.plot()->itemCount(); ++i) {
            if (auto* t = qobject_cast<QCPItemText*>(v.plot()->item(i)))
                found = found || t->text() == u"No mask";
        }
        QVERIFY(found);
        v.setMessage(QString());
        QVERIFY(map->visible());
        QVERIFY(map->colorScale()->visible());
    }
};

QTEST_MAIN(TestHeatmapHighlight)
#include "tst_heatmaphighlight.moc"

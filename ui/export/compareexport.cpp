#include "export/compareexport.h"

#include <qcustomplot.h>

#include <QApplication>

#include <algorithm>
#include <memory>

namespace attnlab {

namespace {

constexpr int kMargin = 12;
constexpr int kSlots = 3; // A, B, A − B

/// The three heatmaps of a figure, laid out offscreen at one slot's size each.
struct Plots {
    HeatmapView a;
    HeatmapView b;
    HeatmapView difference;

    Plots(const CompareFigure& f, int width, int height)
    {
        a.setSharedMaxAbs(f.sharedMaxAbs());
        prepareHeatmap(a, f.a, f.plotTitleA, f.scale, width, height);
        if (f.b) {
            b.setSharedMaxAbs(f.sharedMaxAbs());
            prepareHeatmap(b, *f.b, f.plotTitleB, f.scale, width, height);
        }
        if (f.difference) {
            difference.setSharedMaxAbs(f.differenceRange);
            prepareHeatmap(difference, *f.difference, f.titleDifference, HeatmapView::Scale::Difference, width, height);
        }
    }
};

} // namespace

ExportResult exportComparison(const CompareFigure& figure, const ExportOptions& options, const QString& path)
{
    if (!qobject_cast<QApplication*>(QCoreApplication::instance())) {
        ExportResult r;
        r.error = QStringLiteral("cannot export to '%1': drawing heatmaps needs a QApplication").arg(path);
        return r;
    }
    if (const QString p = options.problem(); !p.isEmpty()) {
        ExportResult r;
        r.error = QStringLiteral("cannot export to '%1': %2").arg(path, p);
        return r;
    }
    // The header: the stage's title, then the caption, wrapped to the picture's width.
    const QFont base = QApplication::font();
    QFont titleFont = base;
    titleFont.setBold(true);
    titleFont.setPointSizeF(base.pointSizeF() * 1.25);
    const QString caption = figure.caption();
    const int textWidth = std::max(10, options.width - 2 * kMargin);
    const QRect room(0, 0, textWidth, options.height);
    const int titleHeight = QFontMetrics(titleFont).boundingRect(room, Qt::TextWordWrap, figure.stageTitle).height();
    const int captionHeight = QFontMetrics(base).boundingRect(room, Qt::TextWordWrap, caption).height();
    const int header = kMargin + titleHeight + 4 + captionHeight + kMargin / 2;
    const int slotWidth = options.width / kSlots;
    const int plotHeight = std::max(40, options.height - header);

    std::unique_ptr<Plots> plots;
    try {
        plots = std::make_unique<Plots>(figure, slotWidth, plotHeight);
    } catch (const std::bad_alloc&) {
        ExportResult r;
        r.error = QStringLiteral("cannot export to '%1': out of memory").arg(path);
        return r;
    }
    const auto paint = [&](QCPPainter& p) {
        p.fillRect(QRect(0, 0, options.width, options.height), Qt::white);
        p.setPen(Qt::black);
        p.setFont(titleFont);
        p.drawText(QRect(kMargin, kMargin, textWidth, titleHeight), Qt::TextWordWrap, figure.stageTitle);
        p.setFont(base);
        p.setPen(QColor(60, 60, 60));
        p.drawText(QRect(kMargin, kMargin + titleHeight + 4, textWidth, captionHeight), Qt::TextWordWrap, caption);
        const auto plotAt = [&](HeatmapView& view, int slot) {
            p.save();
            p.translate(slot * slotWidth, header);
            view.plot()->toPainter(&p, slotWidth, plotHeight);
            p.restore();
        };
        plotAt(plots->a, 0);
        if (figure.b)
            plotAt(plots->b, 1);
        if (figure.difference)
            plotAt(plots->difference, 2);
        if (!figure.problem.isEmpty()) {
            // Why B or A − B is missing, in the slots they would fill.
            const int first = figure.b ? 2 : 1;
            p.setPen(QColor(138, 83, 0));
            p.drawText(QRect(first * slotWidth + kMargin, header, (kSlots - first) * slotWidth - 2 * kMargin, plotHeight),
                       Qt::AlignCenter | Qt::TextWordWrap, figure.problem);
        }
    };
    return exportPainting(paint, figure.stageTitle, options, path);
}

} // namespace attnlab

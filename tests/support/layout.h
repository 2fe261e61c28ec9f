#pragma once
// Does every text fit its box? The layout checks of the views' tests: a plot's titles (every
// text element of its layout), its legend's entries, its axis labels and its tick labels, and
// a widget's one-line labels, measured with QFontMetrics against the rectangle they are drawn
// in. Each check returns what does not fit, one line per text, empty when all fit.

#include <qcustomplot.h>

#include <QCheckBox>
#include <QFontMetrics>
#include <QLabel>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace attnlab::testing {

inline QString rectText(const QRect& r)
{
    return QStringLiteral("(%1, %2) %3 x %4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
}

/// The width of the widest line of `text` in `font`.
inline int widestLine(const QFont& font, const QString& text)
{
    int width = 0;
    for (const QString& line : text.split(QLatin1Char('\n')))
        width = std::max(width, QFontMetrics(font).horizontalAdvance(line));
    return width;
}

/// The title rows: each text element's widest line fits its element and the element lies in the plot.
inline QStringList clippedTitles(QCustomPlot* p, const QString& where)
{
    QStringList out;
    for (QCPLayoutElement* e : p->plotLayout()->elements(true)) {
        auto* t = qobject_cast<QCPTextElement*>(e);
        if (!t || !t->visible() || t->text().isEmpty())
            continue;
        const int width = widestLine(t->font(), t->text());
        if (width > t->outerRect().width() || width > p->width() || !p->rect().contains(t->outerRect()))
            out << QStringLiteral("%1: title \"%2\" is %3 px in %4 (plot %5 px)")
                       .arg(where, t->text())
                       .arg(width)
                       .arg(rectText(t->outerRect()))
                       .arg(p->width());
    }
    return out;
}

/// The legend: every entry's icon, padding and text fit its rectangle, inside the plot.
inline QStringList clippedLegend(QCustomPlot* p, const QString& where)
{
    QStringList out;
    QCPLegend* legend = p->legend;
    if (!legend || !legend->visible())
        return out;
    for (int i = 0; i < legend->itemCount(); ++i) {
        auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i));
        if (!item || !item->visible())
            continue;
        const QString name = item->plottable()->name();
        const int need = legend->iconSize().width() + legend->iconTextPadding() + QFontMetrics(item->font()).horizontalAdvance(name);
        const QRect box = item->rect();
        if (need > box.width() || !p->rect().contains(item->outerRect()))
            out << QStringLiteral("%1: legend \"%2\" needs %3 px, has %4 (plot %5 x %6)")
                       .arg(where, name)
                       .arg(need)
                       .arg(rectText(box))
                       .arg(p->width())
                       .arg(p->height());
    }
    return out;
}

/// Axis labels fit along their axis rect; tick labels of a text ticker do not run into each other.
inline QStringList clippedAxes(QCustomPlot* p, const QString& where)
{
    QStringList out;
    for (QCPAxisRect* rect : p->axisRects()) {
        for (QCPAxis* axis : rect->axes()) {
            if (!axis->visible())
                continue;
            const bool horizontal = axis->orientation() == Qt::Horizontal;
            const int length = horizontal ? rect->width() : rect->height();
            if (!axis->label().isEmpty()) {
                // The label is centred on its axis: cut off where it reaches past the plot.
                const int width = widestLine(axis->labelFont(), axis->label());
                const int centre = horizontal ? rect->center().x() : rect->center().y();
                const int room = 2 * std::min(centre, (horizontal ? p->width() : p->height()) - centre);
                if (width > room)
                    out << QStringLiteral("%1: axis label \"%2\" is %3 px, %4 px of room around the axis (%5 px)")
                               .arg(where, axis->label())
                               .arg(width)
                               .arg(room)
                               .arg(length);
            }
            // The labels drawn (a fitting ticker leaves some of its ticks out).
            const QVector<double> keys = axis->tickVector();
            const QVector<QString> names = axis->tickVectorLabels();
            if (!axis->tickLabels() || keys.size() < 2 || names.size() != keys.size())
                continue;
            // Neighbouring labels: centres this many pixels apart, each this wide and high.
            const QFontMetrics fm(axis->tickLabelFont());
            const double angle = std::abs(axis->tickLabelRotation()) * M_PI / 180.0;
            for (int i = 1; i < keys.size(); ++i) {
                const double gap = std::abs(axis->coordToPixel(keys[i]) - axis->coordToPixel(keys[i - 1]));
                const QString a = names[i - 1];
                const QString b = names[i];
                if (a.isEmpty() || b.isEmpty())
                    continue;
                double need = 0;
                if (horizontal)
                    need = angle < 0.01 ? (fm.horizontalAdvance(a) + fm.horizontalAdvance(b)) / 2.0 : fm.height() / std::sin(angle);
                else
                    need = angle > 1.5 ? (fm.horizontalAdvance(a) + fm.horizontalAdvance(b)) / 2.0 : fm.height() * 0.8;
                if (gap + 0.5 < need) {
                    out << QStringLiteral("%1: tick labels \"%2\" and \"%3\" overlap (%4 px apart, need %5)")
                               .arg(where, a, b)
                               .arg(gap, 0, 'f', 1)
                               .arg(need, 0, 'f', 1);
                    break; // one per axis is enough to read
                }
            }
        }
    }
    return out;
}

/// The pixel rectangle an item text covers (its position, alignment and padding as QCustomPlot draws it).
inline QRect itemTextRect(QCPItemText* t)
{
    const QPointF anchor = t->position->pixelPosition();
    const QMargins pad = t->padding();
    const QRect text = QFontMetrics(t->font()).boundingRect(QRect(), Qt::TextDontClip | t->textAlignment(), t->text());
    const QSize size = text.size().grownBy(pad);
    QPointF topLeft = anchor;
    const Qt::Alignment a = t->positionAlignment();
    if (a & Qt::AlignHCenter)
        topLeft.rx() -= size.width() / 2.0;
    else if (a & Qt::AlignRight)
        topLeft.rx() -= size.width();
    if (a & Qt::AlignVCenter)
        topLeft.ry() -= size.height() / 2.0;
    else if (a & Qt::AlignBottom)
        topLeft.ry() -= size.height();
    return QRect(topLeft.toPoint(), size);
}

/// Texts placed in a plot (bar values, markers): cut by the axis rect they are clipped to, or
/// running into each other.
inline QStringList clippedItemTexts(QCustomPlot* p, const QString& where)
{
    QStringList out;
    std::vector<std::pair<QRect, QString>> seen;
    for (int i = 0; i < p->itemCount(); ++i) {
        auto* t = qobject_cast<QCPItemText*>(p->item(i));
        if (!t || !t->visible() || t->text().trimmed().isEmpty() || t->rotation() != 0)
            continue;
        const QRect r = itemTextRect(t).adjusted(1, 1, -1, -1); // antialiasing: a pixel of slack
        const QRect box = t->clipToAxisRect() && t->clipAxisRect() ? t->clipAxisRect()->rect() : p->rect();
        if (!box.contains(r))
            out << QStringLiteral("%1: text \"%2\" at %3 is cut by %4").arg(where, t->text(), rectText(r), rectText(box));
        for (const auto& [other, name] : seen) {
            if (other.intersects(r)) {
                out << QStringLiteral("%1: texts \"%2\" and \"%3\" overlap").arg(where, name, t->text());
                break;
            }
        }
        seen.emplace_back(r, t->text());
    }
    return out;
}

/// Every text of a plot that does not fit.
inline QStringList clippedPlotTexts(QCustomPlot* p, const QString& where)
{
    if (!p->isVisible() || p->width() < 20 || p->height() < 20)
        return {};
    p->replot(QCustomPlot::rpImmediateRefresh); // lays the plot out at its size
    return clippedTitles(p, where) + clippedLegend(p, where) + clippedAxes(p, where) + clippedItemTexts(p, where);
}

/// One-line labels and check boxes of `w` (visible, not word-wrapped) whose text is wider than they are.
inline QStringList clippedLabels(QWidget* w, const QString& where)
{
    QStringList out;
    for (QLabel* l : w->findChildren<QLabel*>()) {
        if (!l->isVisibleTo(w) || l->wordWrap() || l->text().isEmpty() || l->textFormat() == Qt::RichText || !l->pixmap().isNull())
            continue;
        const int width = widestLine(l->font(), l->text()) + 2 * l->margin() + l->contentsMargins().left() + l->contentsMargins().right();
        if (width > l->width() + 1)
            out << QStringLiteral("%1: label \"%2\" is %3 px in %4 px").arg(where, l->text()).arg(width).arg(l->width());
    }
    for (QCheckBox* b : w->findChildren<QCheckBox*>()) {
        if (b->isVisibleTo(w) && b->sizeHint().width() > b->width() + 1)
            out << QStringLiteral("%1: check box \"%2\" needs %3 px, has %4").arg(where, b->text()).arg(b->sizeHint().width()).arg(b->width());
    }
    return out;
}

/// Every plot of `w` and its one-line labels.
inline QStringList clippedTexts(QWidget* w, const QString& where)
{
    QStringList out = clippedLabels(w, where);
    for (QCustomPlot* p : w->findChildren<QCustomPlot*>()) {
        if (p->isVisibleTo(w))
            out += clippedPlotTexts(p, where);
    }
    return out;
}

} // namespace attnlab::testing

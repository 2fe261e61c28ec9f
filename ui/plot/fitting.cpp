#include "plot/fitting.h"

#include <qcustomplot.h>

#include <QFontMetrics>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

namespace attnlab {

namespace {

// --- titles --------------------------------------------------------------------------------

const char* const kFullText = "attnlabFullText";     // the title as the view set it
const char* const kFittedText = "attnlabFittedText"; // what the fitting made of it
const char* const kBaseFont = "attnlabBaseFont";     // the font before any shrinking
const char* const kFittedFont = "attnlabFittedFont";

/// `text` in pieces that may end a line: after a space or CJK punctuation, before "（".
QStringList pieces(const QString& text)
{
    QStringList out;
    QString current;
    for (const QChar c : text) {
        if (c == u'\uFF08' && !current.isEmpty()) { // （ starts a new piece
            out << current;
            current.clear();
        }
        current += c;
        if (c == u' ' || c == u'\uFF1A' || c == u'\uFF0C' || c == u'\u3001' || c == u'\uFF1B' || c == u'\uFF09')
            out << std::exchange(current, QString());
    }
    if (!current.isEmpty())
        out << current;
    return out;
}

/// `line` broken greedily into lines no wider than `width`; empty when one piece alone is wider.
QStringList breakLine(const QString& line, const QFontMetrics& fm, int width)
{
    QStringList lines;
    QString current;
    for (const QString& piece : pieces(line)) {
        const QString longer = current + piece;
        if (!current.isEmpty() && fm.horizontalAdvance(longer.trimmed()) > width) {
            lines << current.trimmed();
            current = piece;
        } else {
            current = longer;
        }
        if (fm.horizontalAdvance(current.trimmed()) > width)
            return {};
    }
    lines << current.trimmed();
    return lines;
}

/// Fits a text that `getText`/`setText` read and write (and its font), kept in `owner`'s
/// properties, into `width` pixels.
template <class GetText, class SetText, class GetFont, class SetFont>
void fitText(QObject* owner, int width, bool oneLine, GetText getText, SetText setText, GetFont getFont, SetFont setFont)
{
    // A text or font the view set since the last fitting is the new original.
    if (getText() != owner->property(kFittedText).toString())
        owner->setProperty(kFullText, getText());
    if (getFont() != owner->property(kFittedFont).value<QFont>())
        owner->setProperty(kBaseFont, getFont());
    const QString full = owner->property(kFullText).toString();
    QFont font = owner->property(kBaseFont).value<QFont>();
    // One line in type down to 70% first (a title a little too wide keeps its height), then
    // lines broken at spaces and punctuation, in type down to 70% when a single word is wider.
    const QFont base = font;
    QStringList lines;
    // (One line only: down to 60%, then cut with an ellipsis, for figures whose caption has the whole.)
    const std::vector<double> scales = oneLine ? std::vector<double>{1.0, 0.9, 0.8, 0.7, 0.6}
                                               : std::vector<double>{1.0, 0.9, 0.8, 0.7, -1.0, -0.9, -0.8, -0.7};
    for (const double scale : scales) {
        const bool breaking = scale < 0;
        if (base.pointSizeF() > 0) // a font set in pixels keeps its size
            font.setPointSizeF(base.pointSizeF() * std::abs(scale));
        lines.clear();
        bool fits = true;
        for (const QString& line : full.split(QLatin1Char('\n'))) {
            const QStringList broken = breaking ? breakLine(line, QFontMetrics(font), width)
                                                : QFontMetrics(font).horizontalAdvance(line) <= width ? QStringList{line}
                                                                                                      : QStringList{};
            fits = fits && !broken.isEmpty();
            lines += broken.isEmpty() ? QStringList{line} : broken;
        }
        if (fits)
            break;
    }
    if (oneLine) {
        for (QString& line : lines)
            line = QFontMetrics(font).elidedText(line, Qt::ElideRight, width);
    }
    const QString fitted = lines.join(QLatin1Char('\n'));
    owner->setProperty(kFittedText, fitted);
    owner->setProperty(kFittedFont, font);
    if (getText() != fitted)
        setText(fitted);
    if (getFont() != font)
        setFont(font);
}

void fitTitle(QCPTextElement* title, int width, bool oneLine)
{
    fitText(
        title, width, oneLine, [title] { return title->text(); }, [title](const QString& t) { title->setText(t); },
        [title] { return title->font(); }, [title](const QFont& f) { title->setFont(f); });
}

/// The width a title in the plot's main grid has: the plot less the other columns (a heatmap's
/// colour bar stands in the column beside its title).
int titleRoom(QCustomPlot* plot, QCPLayoutElement* title)
{
    QCPLayoutGrid* grid = plot->plotLayout();
    int row = -1;
    int column = -1;
    for (int r = 0; r < grid->rowCount() && row < 0; ++r) {
        for (int c = 0; c < grid->columnCount(); ++c) {
            if (grid->hasElement(r, c) && grid->element(r, c) == title) {
                row = r;
                column = c;
                break;
            }
        }
    }
    int others = 0;
    for (int c = 0; c < grid->columnCount(); ++c) {
        if (c == column)
            continue;
        int widest = 0;
        for (int r = 0; r < grid->rowCount(); ++r) {
            // The column as last laid out (it may be wider than its minimum), or its minimum.
            if (QCPLayoutElement* e = grid->hasElement(r, c) ? grid->element(r, c) : nullptr; e && e->visible())
                widest = std::max({widest, e->minimumOuterSizeHint().width(), e->outerRect().width()});
        }
        others += widest + grid->columnSpacing();
    }
    return plot->width() - others - 12;
}

/// Axis labels break into lines to fit along their axis; numeric axes ask for fewer ticks on a
/// short axis, so their labels keep apart.
void fitAxis(QCPAxis* axis)
{
    if (!axis->visible() || !axis->axisRect())
        return;
    const bool horizontal = axis->orientation() == Qt::Horizontal;
    const int length = horizontal ? axis->axisRect()->width() : axis->axisRect()->height();
    if (length < 20)
        return; // not laid out yet
    if (!axis->label().isEmpty() || !axis->property(kFullText).toString().isEmpty()) {
        fitText(
            axis, length + 16, false, [axis] { return axis->label(); }, [axis](const QString& t) { axis->setLabel(t); },
            [axis] { return axis->labelFont(); }, [axis](const QFont& f) { axis->setLabelFont(f); });
    }
    if (axis->ticker().dynamicCast<QCPAxisTickerText>())
        return;
    // A fixed step (0.25 on a probability axis) may take multiples of itself on a short axis.
    if (auto fixed = axis->ticker().dynamicCast<QCPAxisTickerFixed>())
        fixed->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    // A label every 2.5 lines (vertical) or every 6 digits' width (horizontal), at most 5.
    const QFontMetrics fm(axis->tickLabelFont());
    const double each = horizontal ? fm.horizontalAdvance(QStringLiteral("\u22120.000")) * 1.6 : fm.height() * 2.5;
    axis->ticker()->setTickCount(std::clamp(static_cast<int>(length / each), 2, 5));
}

void fitAxes(QCustomPlot* plot)
{
    for (QCPAxisRect* rect : plot->axisRects()) {
        for (QCPAxis* axis : rect->axes())
            fitAxis(axis);
    }
    // A colour scale's axis too: in a short heatmap its five ticks ran into each other.
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {
        if (auto* scale = qobject_cast<QCPColorScale*>(e))
            fitAxis(scale->axis());
    }
}

void fitLegend(QCustomPlot* plot)
{
    QCPLegend* legend = plot->legend;
    if (!legend || !legend->visible() || legend->layout() != plot->plotLayout() || legend->itemCount() == 0)
        return;
    std::vector<int> widths; // each entry's width, in the legend's order
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem* item = legend->item(i))
            widths.push_back(item->minimumOuterSizeHint().width());
    }
    const QMargins m = legend->margins();
    const int room = plot->width() - m.left() - m.right() - 4;
    // The most columns whose widest entries, side by side, fit the plot's width (row by row).
    const int n = static_cast<int>(widths.size());
    int columns = 1;
    for (int c = n; c > 1; --c) {
        int total = (c - 1) * legend->columnSpacing();
        for (int j = 0; j < c; ++j) {
            int widest = 0;
            for (int i = j; i < n; i += c)
                widest = std::max(widest, widths[static_cast<std::size_t>(i)]);
            total += widest;
        }
        if (total <= room) {
            columns = c;
            break;
        }
    }
    if (columns != legend->wrap()) {
        legend->setWrap(columns);
        legend->setFillOrder(legend->fillOrder(), true); // rearrange the entries into the new columns
        legend->simplify();
    }
}

// --- tick labels ---------------------------------------------------------------------------

/// A text ticker that, when the axis asks for ticks, leaves out the labels that would overlap.
class FittingTicker : public QCPAxisTickerText {
public:
    FittingTicker(QCPAxis* axis, const QMap<double, double>& priority)
        : m_axis(axis)
        , m_priority(priority)
    {
    }

protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override
    {
        QVector<double> all = QCPAxisTickerText::createTickVector(tickStep, range);
        // Ticks are made before the axis rect takes its size: before its first layout (an
        // export of a plot never shown) there is nothing to measure, and every label stays.
        if (!m_axis || all.size() < 2 || m_axis->axisRect()->width() < 20 || m_axis->axisRect()->height() < 20)
            return all;
        return m_priority.isEmpty() ? evenly(all) : byPriority(all);
    }

private:
    /// The pixels two neighbouring labels need between their centres.
    double need(const QString& a, const QString& b) const
    {
        const QFontMetrics fm(m_axis->tickLabelFont());
        const double angle = std::abs(m_axis->tickLabelRotation()) * std::numbers::pi / 180.0;
        const double widths = (fm.horizontalAdvance(a) + fm.horizontalAdvance(b)) / 2.0 + 4;
        if (m_axis->orientation() == Qt::Horizontal)
            return angle < 0.01 ? widths : fm.height() / std::sin(angle) + 1;
        return angle > 1.5 ? widths : fm.height() * 0.8 + 2;
    }

    double gap(double a, double b) const { return std::abs(m_axis->coordToPixel(b) - m_axis->coordToPixel(a)); }

    QVector<double> evenly(const QVector<double>& all) const
    {
        // Every k-th label, k the smallest that leaves every pair of neighbours room.
        for (int k = 1; k < all.size(); ++k) {
            bool fits = true;
            for (int i = k; i < all.size() && fits; i += k)
                fits = gap(all[i - k], all[i]) >= need(mTicks.value(all[i - k]), mTicks.value(all[i]));
            if (fits) {
                QVector<double> kept;
                for (int i = 0; i < all.size(); i += k)
                    kept << all[i];
                return kept;
            }
        }
        return {all.front()};
    }

    QVector<double> byPriority(const QVector<double>& all) const
    {
        std::vector<double> order(all.begin(), all.end());
        std::stable_sort(order.begin(), order.end(), [&](double a, double b) { return m_priority.value(a) > m_priority.value(b); });
        QMap<double, bool> kept; // sorted by tick: the neighbours of a candidate are next to it
        for (const double t : order) {
            auto after = kept.lowerBound(t);
            const bool roomAfter = after == kept.end() || gap(t, after.key()) >= need(mTicks.value(t), mTicks.value(after.key()));
            const bool roomBefore = after == kept.begin()
                || gap(std::prev(after).key(), t) >= need(mTicks.value(std::prev(after).key()), mTicks.value(t));
            if (roomAfter && roomBefore)
                kept.insert(t, true);
        }
        return QVector<double>(kept.keyBegin(), kept.keyEnd());
    }

    QPointer<QCPAxis> m_axis;
    QMap<double, double> m_priority;
};

} // namespace

void keepTextsFitting(QCustomPlot* plot)
{
    if (plot->property("attnlabFitting").toBool())
        return;
    plot->setProperty("attnlabFitting", true);
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] {
        if (plot->width() < 40)
            return; // not laid out yet
        for (QCPLayoutElement* e : plot->plotLayout()->elements(false)) {
            if (auto* title = qobject_cast<QCPTextElement*>(e))
                fitTitle(title, titleRoom(plot, title), plot->property("attnlabOneLineTitles").toBool());
        }
        fitLegend(plot);
        fitAxes(plot);
    });
}

void keepTitlesOnOneLine(QCustomPlot* plot)
{
    plot->setProperty("attnlabOneLineTitles", true);
    keepTextsFitting(plot);
}

void fitTickLabels(QCPAxis* axis, const QMap<double, double>& priority)
{
    auto text = axis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!text)
        return;
    auto fitting = QSharedPointer<FittingTicker>::create(axis, priority);
    fitting->setTicks(text->ticks());
    fitting->setSubTickCount(text->subTickCount());
    axis->setTicker(fitting);
}

} // namespace attnlab

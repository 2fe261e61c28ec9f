#include "views/predictionbars.h"

#include "plot/palette.h"

#include <QHelpEvent>
#include <QPainter>
#include <QPalette>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

const QColor kBarColor = okabeIto(Okabe::SkyBlue);    // Okabe–Ito sky blue: the other candidates (as the top-k bars)
const QColor kChosenColor = okabeIto(Okabe::Orange); // Okabe–Ito orange: the model's choice
constexpr int kGap = 14;             // px between blocks
constexpr double kColumnLines = 24;  // a column is at least this many text lines wide
constexpr double kMaxLabelShare = 0.35;

QString percent(float p)
{
    // One decimal; a probability too small for it is "< 0.1 %", never a false "0.0 %".
    const double v = 100.0 * static_cast<double>(p);
    if (v > 0 && v < 0.05)
        return PredictionBars::tr("< 0.1 %");
    return PredictionBars::tr("%1 %").arg(v, 0, 'f', 1);
}

} // namespace

PredictionBars::PredictionBars(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void PredictionBars::setBlocks(std::vector<PredictionBlock> blocks)
{
    m_blocks = std::move(blocks);
    fitHeight();
    update();
}

QString PredictionBars::barText(const PredictionBar& bar)
{
    QString t = percent(bar.probability);
    if (bar.inText)
        t += QStringLiteral("  \u25C0 ") + tr("in the text");
    return t;
}

PredictionBars::Geometry PredictionBars::geometryFor(int width, const QFont& font) const
{
    Geometry g;
    const QFontMetrics fm(font);
    QFont bold = font;
    bold.setBold(true);
    g.rowHeight = fm.height() + 6;
    g.titleHeight = QFontMetrics(bold).height() + 8;
    const int minColumn = static_cast<int>(kColumnLines * fm.height());
    const int blocks = std::max(1, static_cast<int>(m_blocks.size()));
    g.columns = std::clamp((width + kGap) / (minColumn + kGap), 1, blocks);
    g.columnWidth = std::max(1, (width - (g.columns - 1) * kGap) / g.columns);
    int label = 0;
    int text = 0;
    for (const PredictionBlock& b : m_blocks) {
        for (const PredictionBar& bar : b.bars) {
            label = std::max(label, fm.horizontalAdvance(bar.token));
            text = std::max(text, fm.horizontalAdvance(barText(bar)));
        }
    }
    g.labelWidth = std::min(label + 10, static_cast<int>(kMaxLabelShare * g.columnWidth));
    g.textWidth = text + 8;
    return g;
}

QRect PredictionBars::blockRect(int i, const Geometry& g, const QRect& r) const
{
    std::size_t most = 0;
    for (const PredictionBlock& b : m_blocks)
        most = std::max(most, b.bars.size());
    const int height = g.titleHeight + static_cast<int>(most) * g.rowHeight;
    const int column = i % g.columns;
    const int row = i / g.columns;
    return {r.left() + column * (g.columnWidth + kGap), r.top() + row * (height + kGap), g.columnWidth, height};
}

int PredictionBars::heightFor(int width, const QFont& font) const
{
    if (m_blocks.empty())
        return 0;
    const Geometry g = geometryFor(width, font);
    return blockRect(static_cast<int>(m_blocks.size()) - 1, g, QRect(0, 0, width, 0)).bottom() + 1;
}

void PredictionBars::paintBlocks(QPainter& p, const QRect& r, const QPalette& palette) const
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false); // crisp bars
    const QFont font = p.font();
    QFont bold = font;
    bold.setBold(true);
    const Geometry g = geometryFor(r.width(), font);
    const QFontMetrics fm(font);
    const QColor text = palette.color(QPalette::WindowText);
    QColor track = text;
    track.setAlpha(28);
    for (int i = 0; i < static_cast<int>(m_blocks.size()); ++i) {
        const PredictionBlock& b = m_blocks[static_cast<std::size_t>(i)];
        const QRect box = blockRect(i, g, r);
        p.setFont(bold);
        p.setPen(text);
        p.drawText(QRect(box.left(), box.top(), box.width(), g.titleHeight - 4), Qt::AlignLeft | Qt::AlignVCenter,
                   QFontMetrics(bold).elidedText(b.title, Qt::ElideRight, box.width()));
        p.setFont(font);
        // Each bar: the token right-aligned, then its bar on the whole 0–100 % scale, then its text.
        const int trackLeft = box.left() + g.labelWidth;
        const int trackWidth = std::max(10, box.width() - g.labelWidth - g.textWidth);
        for (int j = 0; j < static_cast<int>(b.bars.size()); ++j) {
            const PredictionBar& bar = b.bars[static_cast<std::size_t>(j)];
            const int y = box.top() + g.titleHeight + j * g.rowHeight;
            p.setPen(text);
            p.drawText(QRect(box.left(), y, g.labelWidth - 8, g.rowHeight), Qt::AlignRight | Qt::AlignVCenter,
                       fm.elidedText(bar.token, Qt::ElideMiddle, g.labelWidth - 8));
            const QRect whole(trackLeft, y + 3, trackWidth, g.rowHeight - 6);
            p.fillRect(whole, track);
            const int length = bar.probability > 0 ? std::max(1, static_cast<int>(std::lround(bar.probability * trackWidth))) : 0;
            const QColor fill = j == 0 ? kChosenColor : kBarColor;
            p.fillRect(QRect(whole.left(), whole.top(), length, whole.height()), fill);
            if (bar.inText) {
                // The token the text has here, outlined whatever its rank.
                p.setPen(QPen(text, 1.5, Qt::DashLine));
                p.setBrush(Qt::NoBrush);
                p.drawRect(QRect(box.left(), y + 1, whole.right() - box.left(), g.rowHeight - 2));
            }
            p.setPen(text);
            p.drawText(QRect(whole.left() + length + 5, y, box.right() - whole.left() - length - 5, g.rowHeight),
                       Qt::AlignLeft | Qt::AlignVCenter, barText(bar));
        }
    }
    p.restore();
}

void PredictionBars::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setFont(font());
    paintBlocks(p, rect().adjusted(4, 4, -4, -4), palette());
}

void PredictionBars::fitHeight()
{
    // As tall as the blocks at this width (the scroll area around scrolls the rest).
    setMinimumHeight(heightFor(width() - 8, font()) + 8);
}

void PredictionBars::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitHeight();
}

bool PredictionBars::event(QEvent* e)
{
    if (e->type() == QEvent::FontChange)
        fitHeight();
    if (e->type() == QEvent::ToolTip) {
        // The bar under the pointer: its token, vocabulary id and probability.
        const QPoint pos = static_cast<QHelpEvent*>(e)->pos();
        const QRect r = rect().adjusted(4, 4, -4, -4);
        const Geometry g = geometryFor(r.width(), font());
        for (int i = 0; i < static_cast<int>(m_blocks.size()); ++i) {
            const QRect box = blockRect(i, g, r);
            const int j = (pos.y() - box.top() - g.titleHeight) / g.rowHeight;
            const auto& bars = m_blocks[static_cast<std::size_t>(i)].bars;
            if (box.contains(pos) && pos.y() >= box.top() + g.titleHeight && j >= 0 && j < static_cast<int>(bars.size())) {
                const PredictionBar& bar = bars[static_cast<std::size_t>(j)];
                QToolTip::showText(static_cast<QHelpEvent*>(e)->globalPos(),
                                   tr("“%1” (id %2): p = %3").arg(bar.token).arg(bar.id).arg(static_cast<double>(bar.probability), 0, 'g', 6),
                                   this);
                return true;
            }
        }
        QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

QSize PredictionBars::sizeHint() const
{
    return {520, std::max(120, heightFor(512, font()) + 8)};
}

QSize PredictionBars::minimumSizeHint() const
{
    return {240, 80};
}

} // namespace attnlab

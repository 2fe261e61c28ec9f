#include "views/headlines.h"

#include "core/trace.h"
#include "views/sessionview.h"
#include "views/multiheadview.h"

#include <QFocusEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

constexpr int kMinTextWidth = 40; // px of a token column, at least
constexpr double kMaxTextShare = 0.3; // of the width, at most, for each token column
constexpr double kRoomyRows = 1.6;    // a row's pitch, in label heights, when the tokens fit

} // namespace

HeadLines::HeadLines(QWidget* parent)
    : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    // ↑/↓ choose the token and ←/→ the layer instead of stepping the stages (shell/stepkeys.h).
    setProperty(kOwnsArrowKeys, true);
}

void HeadLines::setMaps(std::shared_ptr<const Trace> trace, Block block, int layer)
{
    m_trace = std::move(trace);
    m_block = block;
    m_layer = layer;
    m_weights.clear();
    m_queries.clear();
    m_keys.clear();
    if (m_trace) {
        const AttentionMaps maps = attentionMaps(*m_trace, block);
        if (layer >= 0 && layer < maps.layers) {
            for (int h = 0; h < maps.heads; ++h)
                m_weights.push_back(&maps.at(layer, h).main().values);
            m_queries = maps.queryTokens();
            m_keys = maps.keyTokens();
        }
    }
    m_shown.resize(m_weights.size(), 1); // new heads are shown; the others keep their choice
    m_token = std::clamp(m_token, 0, std::max(0, queries() - 1));
    update();
}

void HeadLines::setToken(int token)
{
    token = std::clamp(token, 0, std::max(0, queries() - 1));
    if (token == m_token)
        return;
    m_token = token;
    update();
}

void HeadLines::chooseToken(int token)
{
    const int before = m_token;
    setToken(token);
    if (m_token != before)
        emit tokenChosen(m_token);
}

void HeadLines::setHeadShown(int head, bool shown)
{
    if (head < 0 || head >= heads() || bool(m_shown[static_cast<std::size_t>(head)]) == shown)
        return;
    m_shown[static_cast<std::size_t>(head)] = shown;
    update();
}

bool HeadLines::isHeadShown(int head) const
{
    return head >= 0 && head < heads() && m_shown[static_cast<std::size_t>(head)];
}

std::vector<HeadLines::Line> HeadLines::lines() const
{
    std::vector<Line> out;
    if (m_token >= queries())
        return out;
    for (int h = 0; h < heads(); ++h) {
        if (!isHeadShown(h))
            continue;
        const Eigen::MatrixXf& w = *m_weights[static_cast<std::size_t>(h)];
        for (int j = 0; j < keys(); ++j) {
            const float weight = w(m_token, j);
            const int alpha = std::isfinite(weight) ? static_cast<int>(std::lround(std::clamp(weight, 0.0f, 1.0f) * 255.0f)) : 0;
            if (alpha < 1)
                continue; // invisible: not drawn (a 1024-token row has mostly such weights)
            out.push_back({h, j, weight, 0.5 + kMaxLineWidth * std::clamp(weight, 0.0f, 1.0f), alpha});
        }
    }
    return out;
}

int HeadLines::strongestKey() const
{
    int best = -1;
    float most = 0;
    for (int h = 0; h < heads() && m_token < queries(); ++h) {
        if (!isHeadShown(h))
            continue;
        const Eigen::MatrixXf& w = *m_weights[static_cast<std::size_t>(h)];
        for (int j = 0; j < keys(); ++j) {
            if (w(m_token, j) > most) {
                most = w(m_token, j);
                best = j;
            }
        }
    }
    return best;
}

// --- Layout ---------------------------------------------------------------------------------

HeadLines::Layout HeadLines::layoutIn(const QRect& r) const
{
    const QFontMetrics fm(font());
    Layout l;
    l.area = r;
    l.rowHeight = fm.height() + 4;
    int widest = kMinTextWidth;
    // The widest label, measured on at most a few hundred tokens (a 1024-token text has short ones).
    for (const auto* tokens : {&m_queries, &m_keys}) {
        const int count = static_cast<int>(tokens->size());
        const int every = std::max(1, count / 256);
        for (int i = 0; i < count; i += every)
            widest = std::max(widest, fm.horizontalAdvance((*tokens)[static_cast<std::size_t>(i)]) + 12);
    }
    l.textWidth = std::min(widest, static_cast<int>(r.width() * kMaxTextShare));
    // Rows with some air between them when the tokens fit (the lines fan out more), else the
    // tokens share the height (and the labels thin out).
    const double roomy = l.rowHeight * kRoomyRows;
    l.queryStep = queries() > 0 ? std::min(roomy, static_cast<double>(r.height()) / queries()) : roomy;
    l.keyStep = keys() > 0 ? std::min(roomy, static_cast<double>(r.height()) / keys()) : roomy;
    return l;
}

std::vector<int> HeadLines::thinned(int count, double step, int rowHeight, const std::vector<int>& forced) const
{
    const int every = step > 0 ? std::max(1, static_cast<int>(std::ceil(rowHeight / step - 1e-9))) : 1;
    // The forced labels, the first first: one that would run into an earlier one is left out.
    std::vector<int> kept;
    for (const int f : forced) {
        if (f >= 0 && f < count && std::none_of(kept.begin(), kept.end(), [&](int k) { return std::abs(k - f) * step < rowHeight; }))
            kept.push_back(f);
    }
    std::vector<int> out;
    for (int i = 0; i < count; i += every) {
        // A forced label takes the place of its regular neighbours.
        const bool crowded = std::any_of(kept.begin(), kept.end(), [&](int f) { return f != i && std::abs(f - i) * step < rowHeight; });
        if (!crowded)
            out.push_back(i);
    }
    for (const int f : kept) {
        if (std::find(out.begin(), out.end(), f) == out.end())
            out.push_back(f);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<int> HeadLines::labelledQueries(const Layout& l) const
{
    // Self-attention's two columns are the same tokens: the same labels on both sides (the
    // chosen query and its strongest key on each), issue 28 §3.
    if (queries() == keys())
        return thinned(queries(), l.queryStep, l.rowHeight, {m_token, strongestKey()});
    return thinned(queries(), l.queryStep, l.rowHeight, {m_token});
}

std::vector<int> HeadLines::labelledKeys(const Layout& l) const
{
    if (queries() == keys())
        return thinned(keys(), l.keyStep, l.rowHeight, {m_token, strongestKey()});
    return thinned(keys(), l.keyStep, l.rowHeight, {strongestKey()});
}

int HeadLines::queryAt(const QPoint& pos) const
{
    const Layout l = layoutIn(rect());
    if (queries() == 0 || pos.x() > l.lineLeft())
        return -1;
    const int i = static_cast<int>(std::floor((pos.y() - l.area.top()) / l.queryStep));
    return i >= 0 && i < queries() ? i : -1;
}

int HeadLines::keyAt(const QPoint& pos) const
{
    const Layout l = layoutIn(rect());
    if (keys() == 0 || pos.x() < l.lineRight())
        return -1;
    const int j = static_cast<int>(std::floor((pos.y() - l.area.top()) / l.keyStep));
    return j >= 0 && j < keys() ? j : -1;
}

QSize HeadLines::sizeHint() const
{
    return {600, std::clamp(std::max(queries(), keys()) * (fontMetrics().height() + 4), 240, 900)};
}

QSize HeadLines::minimumSizeHint() const
{
    return {300, 160};
}

// --- Painting -------------------------------------------------------------------------------

void HeadLines::paintLines(QPainter& p, const QRect& r, const QPalette& palette) const
{
    if (queries() == 0)
        return;
    const Layout l = layoutIn(r);
    const QFontMetrics fm(font());
    p.save();
    p.setFont(font());
    p.setRenderHint(QPainter::Antialiasing, true);
    // The lines first, under the labels: each head's lines in its colour.
    const double y0 = l.queryY(m_token);
    for (const Line& line : lines()) {
        QColor c = MultiHeadView::headColor(line.head);
        c.setAlpha(line.alpha);
        p.setPen(QPen(c, line.width, Qt::SolidLine, Qt::FlatCap));
        p.drawLine(QPointF(l.lineLeft(), y0), QPointF(l.lineRight(), l.keyY(line.key)));
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    // The chosen token on a highlight; the labels that fit.
    const auto label = [&](const QString& text, double y, bool left, bool chosen) {
        // Centred on its row, inside the area (the first and last rows of a thinned column are
        // closer to the edge than half a label).
        const int top = std::clamp(static_cast<int>(std::lround(y - l.rowHeight / 2.0)), l.area.top(),
                                   std::max(l.area.top(), l.area.bottom() + 1 - l.rowHeight));
        const QRect box(left ? l.area.left() : l.area.right() - l.textWidth + 1, top, l.textWidth, l.rowHeight);
        if (chosen)
            p.fillRect(box, palette.color(QPalette::Highlight));
        p.setPen(palette.color(chosen ? QPalette::HighlightedText : QPalette::WindowText));
        const QString shown = fm.elidedText(text, Qt::ElideRight, l.textWidth - 8);
        p.drawText(box.adjusted(4, 0, -4, 0), (left ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter, shown);
    };
    for (const int i : labelledQueries(l))
        label(m_queries[static_cast<std::size_t>(i)], l.queryY(i), true, i == m_token);
    for (const int j : labelledKeys(l))
        label(m_keys[static_cast<std::size_t>(j)], l.keyY(j), false, false);
    if (hasFocus() && p.device() == this) {
        p.setPen(QPen(palette.color(QPalette::Highlight), 1, Qt::DashLine));
        p.drawRect(r.adjusted(0, 0, -1, -1));
    }
    p.restore();
}

void HeadLines::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paintLines(p, rect().adjusted(2, 2, -2, -2), palette());
}

// --- Interaction ----------------------------------------------------------------------------

bool HeadLines::event(QEvent* e)
{
    if (e->type() != QEvent::ToolTip)
        return QWidget::event(e);
    auto* help = static_cast<QHelpEvent*>(e);
    QString text;
    if (const int i = queryAt(help->pos()); i >= 0) {
        text = tr("Query “%1”: click to show where it looks").arg(m_queries[static_cast<std::size_t>(i)]);
    } else if (const int j = keyAt(help->pos()); j >= 0 && m_token < queries()) {
        // The weights of the chosen token on this key, head by head.
        text = tr("Key “%1”").arg(m_keys[static_cast<std::size_t>(j)]);
        for (int h = 0; h < heads(); ++h) {
            if (isHeadShown(h))
                text += QLatin1Char('\n') + tr("head %1: %2").arg(h + 1).arg((*m_weights[static_cast<std::size_t>(h)])(m_token, j), 0, 'f', 3);
        }
    }
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), text, this);
    return true;
}

void HeadLines::mousePressEvent(QMouseEvent* e)
{
    QWidget::mousePressEvent(e);
    if (e->button() != Qt::LeftButton)
        return;
    setFocus(Qt::MouseFocusReason);
    if (const int i = queryAt(e->position().toPoint()); i >= 0)
        chooseToken(i);
}

void HeadLines::keyPressEvent(QKeyEvent* e)
{
    switch (e->key()) {
    case Qt::Key_Up:
        chooseToken(m_token - 1);
        break;
    case Qt::Key_Down:
        chooseToken(m_token + 1);
        break;
    case Qt::Key_Left:
        emit layerStepRequested(-1);
        break;
    case Qt::Key_Right:
        emit layerStepRequested(+1);
        break;
    default:
        QWidget::keyPressEvent(e);
        return;
    }
    e->accept();
}

void HeadLines::focusInEvent(QFocusEvent* e)
{
    QWidget::focusInEvent(e);
    update();
}

void HeadLines::focusOutEvent(QFocusEvent* e)
{
    QWidget::focusOutEvent(e);
    update();
}

} // namespace attnlab

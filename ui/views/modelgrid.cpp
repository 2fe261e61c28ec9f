#include "views/modelgrid.h"

#include "core/trace.h"
#include "plot/palette.h"
#include "views/sessionview.h"

#include <QFocusEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPaintEvent>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

constexpr int kGap = 12;        // px between pictures: room for the outline and the focus frame
constexpr int kMinRowFrame = 4; // px: a row of a 1024-token picture is still framed visibly

} // namespace

ModelGrid::ModelGrid(QWidget* parent)
    : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(false);
    // The arrow keys move the keyboard's cell instead of stepping the stages (shell/stepkeys.h).
    setProperty(kOwnsArrowKeys, true);
}

void ModelGrid::setMaps(std::shared_ptr<const Trace> trace, Block block)
{
    if (trace == m_trace && block == m_maps.block && !m_images.empty())
        return;
    m_trace = std::move(trace);
    m_maps = m_trace ? attentionMaps(*m_trace, block) : AttentionMaps{};
    m_maps.block = block;
    makeImages();
    m_focusLayer = std::clamp(m_focusLayer, 0, std::max(0, layers() - 1));
    m_focusHead = std::clamp(m_focusHead, 0, std::max(0, heads() - 1));
    if (m_token >= m_maps.queries())
        m_token = -1;
    updateGeometry();
    update();
}

void ModelGrid::makeImages()
{
    m_images.clear();
    m_images.reserve(m_maps.stages.size());
    for (const Stage* s : m_maps.stages) {
        const Eigen::MatrixXf& w = s->main().values;
        // Stretched: 0 to the picture's largest weight (NaN cells do not count).
        const float top = m_stretched ? w.unaryExpr([](float v) { return std::isnan(v) ? 0.0f : v; }).maxCoeff() : 1.0f;
        m_images.push_back(weightsImage(w, kMaxImageSide, top));
    }
}

void ModelGrid::setStretched(bool stretched)
{
    if (stretched == m_stretched)
        return;
    m_stretched = stretched;
    makeImages();
    update();
}

void ModelGrid::setQueryToken(int token)
{
    token = token >= 0 && token < m_maps.queries() ? token : -1;
    if (token == m_token)
        return;
    m_token = token;
    update();
}

void ModelGrid::setOpenedCell(int layer, int head)
{
    if (!hasCell(layer, head))
        layer = head = -1;
    if (layer == m_openedLayer && head == m_openedHead)
        return;
    m_openedLayer = layer;
    m_openedHead = head;
    update();
}

void ModelGrid::setFocusCell(int layer, int head)
{
    if (!hasCell(layer, head) || (layer == m_focusLayer && head == m_focusHead))
        return;
    m_focusLayer = layer;
    m_focusHead = head;
    update();
    emit focusCellChanged(layer, head);
}

int ModelGrid::kvGroup(int head) const
{
    if (m_maps.empty() || head < 0 || head >= heads())
        return -1;
    // Grouped when the last query head reads a KV head of a smaller number: with as many KV heads
    // as query heads (multi-head attention, or a family that names them anyway) nothing is shared.
    const std::optional<int> last = m_maps.at(0, heads() - 1).kvHead;
    if (!last || *last >= heads() - 1)
        return -1;
    return m_maps.at(0, head).kvHead.value_or(-1);
}

QColor ModelGrid::kvGroupColor(int group)
{
    return okabeIto(group);
}

QRect ModelGrid::kvGroupRect(int group) const
{
    if (!isGrouped())
        return {};
    int first = -1;
    int last = -1;
    for (int h = 0; h < heads(); ++h) {
        if (kvGroup(h) == group) {
            first = first < 0 ? h : first;
            last = h;
        }
    }
    if (first < 0)
        return {};
    const int cell = cellSize();
    return bandRect(origin(cell), cell, first, last);
}

QRect ModelGrid::bandRect(const QPoint& o, int cell, int first, int last) const
{
    const Geometry g = geometryOf();
    const QRect a = cellRect(o, cell, 0, first);
    const QRect b = cellRect(o, cell, 0, last);
    return {a.left(), o.y() + g.headRow, b.right() - a.left() + 1, g.labelHeight - g.headRow - 4};
}

bool ModelGrid::hasCell(int layer, int head) const
{
    return layer >= 0 && layer < layers() && head >= 0 && head < heads();
}

// --- Geometry -------------------------------------------------------------------------------

ModelGrid::Geometry ModelGrid::geometryOf() const
{
    const QFontMetrics fm(font());
    Geometry g;
    g.labelWidth = fm.horizontalAdvance(tr("L%1").arg(std::max(layers(), 1))) + fm.averageCharWidth() + 4;
    g.headRow = fm.height() + 4;
    g.labelHeight = g.headRow + (isGrouped() ? fm.height() + 6 : 0);
    return g;
}

QSize ModelGrid::gridSize(int cell) const
{
    const Geometry g = geometryOf();
    return {g.labelWidth + heads() * (cell + kGap), g.labelHeight + layers() * (cell + kGap)};
}

QSize ModelGrid::minimumSizeHint() const
{
    return gridSize(kMinCell);
}

QSize ModelGrid::sizeHint() const
{
    return gridSize(std::clamp(600 / std::max({layers(), heads(), 1}), kMinCell, kMaxCell));
}

int ModelGrid::cellSize() const
{
    if (layers() == 0)
        return kMinCell;
    const Geometry g = geometryOf();
    const int fitWidth = (width() - g.labelWidth) / heads() - kGap;
    const int fitHeight = (height() - g.labelHeight) / layers() - kGap;
    return std::clamp(std::min(fitWidth, fitHeight), kMinCell, kMaxCell);
}

QPoint ModelGrid::origin(int cell) const
{
    return {std::max(0, (width() - gridSize(cell).width()) / 2), 0};
}

QRect ModelGrid::cellRect(const QPoint& o, int cell, int layer, int head) const
{
    const Geometry g = geometryOf();
    return {o.x() + g.labelWidth + head * (cell + kGap) + kGap / 2, o.y() + g.labelHeight + layer * (cell + kGap) + kGap / 2,
            cell, cell};
}

QRect ModelGrid::thumbnailRect(int layer, int head) const
{
    if (!hasCell(layer, head))
        return {};
    const int cell = cellSize();
    return cellRect(origin(cell), cell, layer, head);
}

QRect ModelGrid::rowFrame(const QRect& picture) const
{
    const int n = m_maps.queries();
    if (m_token < 0 || n == 0)
        return {};
    // The rows of the picture that show the token, at least kMinRowFrame pixels high.
    const double rowHeight = static_cast<double>(picture.height()) / n;
    int top = picture.top() + static_cast<int>(m_token * rowHeight);
    int height = std::max(1, static_cast<int>(std::lround((m_token + 1) * rowHeight)) - static_cast<int>(m_token * rowHeight));
    if (height < kMinRowFrame) {
        top -= (kMinRowFrame - height) / 2;
        height = kMinRowFrame;
    }
    top = std::clamp(top, picture.top(), picture.bottom() + 1 - height);
    return {picture.left(), top, picture.width(), height};
}

QRect ModelGrid::queryRowRect(int layer, int head) const
{
    return hasCell(layer, head) ? rowFrame(thumbnailRect(layer, head)) : QRect();
}

const QImage& ModelGrid::thumbnail(int layer, int head) const
{
    static const QImage kNone;
    return hasCell(layer, head) ? m_images[static_cast<std::size_t>(layer * heads() + head)] : kNone;
}

std::optional<std::pair<int, int>> ModelGrid::cellAt(const QPoint& pos) const
{
    const int cell = cellSize();
    const QPoint o = origin(cell);
    for (int l = 0; l < layers(); ++l) {
        for (int h = 0; h < heads(); ++h) {
            // The gap around a picture belongs to it: a click just beside it still opens it.
            if (cellRect(o, cell, l, h).adjusted(-kGap / 2, -kGap / 2, kGap / 2, kGap / 2).contains(pos))
                return std::make_pair(l, h);
        }
    }
    return std::nullopt;
}

// --- Painting -------------------------------------------------------------------------------

void ModelGrid::paintGrid(QPainter& p, const QPoint& o, int cell, const QPalette& palette, bool showFocus) const
{
    const Geometry g = geometryOf();
    p.save();
    p.setFont(font());
    p.setPen(palette.color(QPalette::WindowText));
    // "H1" … above the columns, "L1" … left of the rows (counted from 1, as people count).
    for (int h = 0; h < heads(); ++h) {
        const QRect r = cellRect(o, cell, 0, h);
        p.drawText(QRect(r.left(), o.y(), r.width(), g.headRow), Qt::AlignHCenter | Qt::AlignBottom, tr("H%1").arg(h + 1));
    }
    // Grouped-query attention: under the head numbers, one band per key/value head across the
    // query heads that share it, in its colour ("KV1" …).
    if (isGrouped()) {
        for (int h = 0; h < heads();) {
            const int group = kvGroup(h);
            int end = h;
            while (end + 1 < heads() && kvGroup(end + 1) == group)
                ++end;
            const QRect band = bandRect(o, cell, h, end);
            const QColor color = kvGroupColor(group);
            p.fillRect(band, color);
            p.setPen(color.lightnessF() > 0.55 ? Qt::black : Qt::white);
            p.drawText(band, Qt::AlignCenter, tr("KV%1").arg(group + 1));
            h = end + 1;
        }
        p.setPen(palette.color(QPalette::WindowText));
    }
    for (int l = 0; l < layers(); ++l) {
        const QRect r = cellRect(o, cell, l, 0);
        p.drawText(QRect(o.x(), r.top(), g.labelWidth - 4, r.height()), Qt::AlignRight | Qt::AlignVCenter, tr("L%1").arg(l + 1));
    }
    // Crisp cells: a picture is scaled by repeating pixels. A file (SVG, PDF) gets it scaled
    // already, since viewers smooth the images they scale.
    const bool toScreen = p.device() && p.device()->devType() == QInternal::Widget;
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    for (int l = 0; l < layers(); ++l) {
        for (int h = 0; h < heads(); ++h) {
            const QRect r = cellRect(o, cell, l, h);
            const QImage& image = m_images[static_cast<std::size_t>(l * heads() + h)];
            if (toScreen)
                p.drawImage(r, image);
            else
                p.drawImage(r.topLeft(), image.scaled(r.size(), Qt::IgnoreAspectRatio, Qt::FastTransformation));
            // The query token's row: white inside a dark line, visible on every colour of viridis.
            if (const QRect row = rowFrame(r); !row.isEmpty()) {
                p.setBrush(Qt::NoBrush);
                p.setPen(QPen(QColor(20, 20, 20), 4));
                p.drawRect(row.adjusted(-1, -1, 0, 0));
                p.setPen(QPen(Qt::white, 2));
                p.drawRect(row.adjusted(-1, -1, 0, 0));
            }
        }
    }
    p.setBrush(Qt::NoBrush);
    if (hasCell(m_openedLayer, m_openedHead)) {
        p.setPen(QPen(palette.color(QPalette::Text), 3));
        p.drawRect(cellRect(o, cell, m_openedLayer, m_openedHead).adjusted(-3, -3, 2, 2));
    }
    if (showFocus && hasCell(m_focusLayer, m_focusHead)) {
        p.setPen(QPen(palette.color(QPalette::Highlight), 2, Qt::DashLine));
        p.drawRect(cellRect(o, cell, m_focusLayer, m_focusHead).adjusted(-5, -5, 4, 4));
    }
    p.restore();
}

void ModelGrid::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const int cell = cellSize();
    paintGrid(p, origin(cell), cell, palette(), hasFocus());
}

// --- Interaction ----------------------------------------------------------------------------

bool ModelGrid::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        if (const auto c = cellAt(help->pos()))
            QToolTip::showText(help->globalPos(),
                               isGrouped() ? tr("layer %1, head %2 (its keys and values: KV head %3)")
                                                 .arg(c->first + 1)
                                                 .arg(c->second + 1)
                                                 .arg(kvGroup(c->second) + 1)
                                           : tr("layer %1, head %2").arg(c->first + 1).arg(c->second + 1),
                               this, thumbnailRect(c->first, c->second));
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

void ModelGrid::mousePressEvent(QMouseEvent* e)
{
    const auto c = cellAt(e->position().toPoint());
    if (e->button() != Qt::LeftButton || !c) {
        QWidget::mousePressEvent(e);
        return;
    }
    setFocusCell(c->first, c->second);
    emit cellActivated(c->first, c->second);
}

void ModelGrid::keyPressEvent(QKeyEvent* e)
{
    switch (e->key()) {
    case Qt::Key_Left:
        setFocusCell(m_focusLayer, std::max(0, m_focusHead - 1));
        break;
    case Qt::Key_Right:
        setFocusCell(m_focusLayer, std::min(heads() - 1, m_focusHead + 1));
        break;
    case Qt::Key_Up:
        setFocusCell(std::max(0, m_focusLayer - 1), m_focusHead);
        break;
    case Qt::Key_Down:
        setFocusCell(std::min(layers() - 1, m_focusLayer + 1), m_focusHead);
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (hasCell(m_focusLayer, m_focusHead))
            emit cellActivated(m_focusLayer, m_focusHead);
        break;
    default:
        QWidget::keyPressEvent(e);
        return;
    }
    e->accept();
}

void ModelGrid::focusInEvent(QFocusEvent* e)
{
    QWidget::focusInEvent(e);
    update(); // the focus frame
}

void ModelGrid::focusOutEvent(QFocusEvent* e)
{
    QWidget::focusOutEvent(e);
    update();
}

void ModelGrid::changeEvent(QEvent* e)
{
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange || e->type() == QEvent::LanguageChange)
        updateGeometry(); // the labels' room
}

} // namespace attnlab

#include "training/snapshotstrip.h"

#include "views/attentionmaps.h"

#include <QPainter>
#include <QPaintEvent>

namespace attnlab {

namespace {

constexpr int kGap = 8;

} // namespace

SnapshotStrip::SnapshotStrip(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Preferred);
}

void SnapshotStrip::setSnapshots(const std::vector<TrainingRun::Snapshot>& snapshots, Block block, int layer, int head)
{
    if (block != m_block || layer != m_layer || head != m_head) {
        m_steps.clear();
        m_images.clear();
        m_block = block;
        m_layer = layer;
        m_head = head;
    }
    if (snapshots.size() < m_steps.size()) { // a new run
        m_steps.clear();
        m_images.clear();
    }
    for (std::size_t i = m_steps.size(); i < snapshots.size(); ++i) {
        const AttentionMaps maps = attentionMaps(*snapshots[i].trace, block);
        QImage image;
        if (layer < maps.layers && head < maps.heads)
            image = weightsImage(maps.at(layer, head).main().values, 64);
        m_steps.push_back(snapshots[i].step);
        m_images.push_back(std::move(image));
    }
    updateGeometry();
    update();
}

int SnapshotStrip::side() const
{
    // The pictures fill the strip's height, less a line for the step under each.
    return std::max(24, height() - fontMetrics().height() - 6);
}

QSize SnapshotStrip::sizeHint() const
{
    const int s = 96; // a picture's side when the strip may choose its height
    const int n = std::max(1, count());
    return {n * (s + kGap), s + fontMetrics().height() + 6};
}

QSize SnapshotStrip::minimumSizeHint() const
{
    return {count() * (side() + kGap), 48 + fontMetrics().height()};
}

void SnapshotStrip::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const int s = side();
    const int textHeight = fontMetrics().height();
    for (int i = 0; i < count(); ++i) {
        const QRect cell(i * (s + kGap), 0, s, s);
        if (!m_images[static_cast<std::size_t>(i)].isNull()) {
            // Crisp cells: each weight a block of pixels, not blurred.
            p.setRenderHint(QPainter::SmoothPixmapTransform, false);
            p.drawImage(cell, m_images[static_cast<std::size_t>(i)]);
        }
        p.setPen(palette().color(QPalette::Mid));
        p.drawRect(cell.adjusted(0, 0, -1, -1));
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(cell.left(), s + 2, s + kGap, textHeight), Qt::AlignLeft | Qt::AlignTop,
                   QString::number(m_steps[static_cast<std::size_t>(i)]));
    }
}

} // namespace attnlab

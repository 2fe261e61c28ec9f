#pragma once
// The Training view's strip of snapshots: the probe pair's attention weights (one block, layer
// and head) at step 0, 50, 100, … side by side, each a small picture (views/attentionmaps.h's
// weightsImage, weights 0 … 1 in viridis) with its step under it, so that the class sees the
// pattern form. Painted in one widget; wider than its scroll area when there are many.

#include "core/stage_key.h"
#include "training/trainingrun.h"

#include <QImage>
#include <QWidget>

#include <vector>

namespace attnlab {

class SnapshotStrip : public QWidget {
    Q_OBJECT
public:
    explicit SnapshotStrip(QWidget* parent = nullptr);

    /// Shows `snapshots`' weights of `block`, `layer` and `head` (0-based); pictures are made
    /// again only for snapshots not shown before or when the choice changes.
    void setSnapshots(const std::vector<TrainingRun::Snapshot>& snapshots, Block block, int layer, int head);
    int count() const { return static_cast<int>(m_steps.size()); }
    /// The steps shown, in order.
    const std::vector<int>& steps() const { return m_steps; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    int side() const;

    std::vector<int> m_steps;
    std::vector<QImage> m_images;
    Block m_block = Block::Cross;
    int m_layer = 0;
    int m_head = 0;
};

} // namespace attnlab

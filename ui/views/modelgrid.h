#pragma once
// The model view's grid: every layer × head of one attention block as a small picture of its
// attention weights (rows = layers "L1"…, columns = heads "H1"…, counted from 1), each one QImage
// painted in paintEvent (a 12 × 12 grid of plots would be 144 QCustomPlots). The chosen query
// token's row is framed in every picture; the layer and head the studio shows are outlined.
// A click, or Enter on the keyboard's cell (the arrow keys move it), asks to open a layer and
// head; hovering names them. The pictures keep a minimum size: inside a scroll area the grid
// scrolls when it does not fit.

#include "views/attentionmaps.h"

#include <QColor>
#include <QImage>
#include <QWidget>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QPalette;

namespace attnlab {

struct Trace;

class ModelGrid : public QWidget {
    Q_OBJECT
public:
    /// A picture's side in pixels: at least kMinCell (readable on a projector), at most kMaxCell.
    static constexpr int kMinCell = 56;
    static constexpr int kMaxCell = 220;
    /// Pixels of a picture's QImage per side, at most (larger maps keep their peaks, attentionmaps.h).
    static constexpr int kMaxImageSide = 160;

    explicit ModelGrid(QWidget* parent = nullptr);

    /// Shows the weights of `block` in `trace` (kept: its stages are shared). The pictures are
    /// made again only when the trace or the block changes.
    void setMaps(std::shared_ptr<const Trace> trace, Block block);
    const AttentionMaps& maps() const { return m_maps; }
    int layers() const { return m_maps.layers; }
    int heads() const { return m_maps.heads; }

    /// Each picture's colours from 0 to its own largest weight (its contrast stretched), instead
    /// of 0 to 1 for all.
    void setStretched(bool stretched);
    bool isStretched() const { return m_stretched; }

    /// The query token whose row is framed in every picture (0-based), or −1 for none.
    void setQueryToken(int token);
    int queryToken() const { return m_token; }
    /// The layer and head the studio shows (outlined), or −1, −1.
    void setOpenedCell(int layer, int head);
    std::pair<int, int> openedCell() const { return {m_openedLayer, m_openedHead}; }
    /// The cell the keyboard is on (moved by the arrow keys, opened with Enter).
    void setFocusCell(int layer, int head);
    std::pair<int, int> focusCell() const { return {m_focusLayer, m_focusHead}; }

    /// The side of a picture at the widget's present size.
    int cellSize() const;
    /// Grouped-query attention: the key/value head (0-based) query head `head` reads, as its
    /// stages say (Stage::kvHead); -1 when every query head has a key/value head of its own.
    int kvGroup(int head) const;
    /// True when query heads share key/value heads: a band under the "H1" row names each group
    /// ("KV1", in its colour) across the columns of the query heads that read it.
    bool isGrouped() const { return kvGroup(0) >= 0; }
    /// The colour of KV head `group`'s band (a colour-blind-safe qualitative palette, cycled).
    static QColor kvGroupColor(int group);
    /// The band naming KV head `group` above its query heads' columns; empty when not grouped.
    QRect kvGroupRect(int group) const;
    /// Where the picture of (layer, head) is in the widget; empty for no such cell.
    QRect thumbnailRect(int layer, int head) const;
    /// The frame across the query token's row in that picture; empty when no token is chosen.
    QRect queryRowRect(int layer, int head) const;
    /// The picture of (layer, head) at its own resolution.
    const QImage& thumbnail(int layer, int head) const;
    /// The (layer, head) under `pos`, if any.
    std::optional<std::pair<int, int>> cellAt(const QPoint& pos) const;

    /// The size of the grid with its labels for pictures of `cell` pixels.
    QSize gridSize(int cell) const;
    /// Paints the grid with pictures of `cell` pixels, its top-left corner at `origin`, in the
    /// colours of `palette` (the studio's, or black on white for an export).
    void paintGrid(QPainter& painter, const QPoint& origin, int cell, const QPalette& palette, bool showFocus) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    /// The user clicked the picture of (layer, head) or pressed Enter on it.
    void cellActivated(int layer, int head);
    /// The keyboard's cell moved (a scroll area brings it into view).
    void focusCellChanged(int layer, int head);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Geometry {
        int labelWidth = 0;  ///< the "L1" column
        int labelHeight = 0; ///< the "H1" row, and the "KV1" band under it when grouped
        int headRow = 0;     ///< the "H1" row alone
    };
    Geometry geometryOf() const;
    /// Top-left of the grid in the widget (centred when the widget is wider).
    QPoint origin(int cell) const;
    QRect cellRect(const QPoint& origin, int cell, int layer, int head) const;
    QRect rowFrame(const QRect& picture) const;
    /// The band under the "H1" row across the columns of heads `first` to `last` (a KV group).
    QRect bandRect(const QPoint& origin, int cell, int first, int last) const;
    bool hasCell(int layer, int head) const;
    void makeImages();

    std::shared_ptr<const Trace> m_trace;
    AttentionMaps m_maps;
    std::vector<QImage> m_images; ///< layer-major, as m_maps.stages
    bool m_stretched = false;
    int m_token = -1;
    int m_openedLayer = -1;
    int m_openedHead = -1;
    int m_focusLayer = 0;
    int m_focusHead = 0;
};

} // namespace attnlab

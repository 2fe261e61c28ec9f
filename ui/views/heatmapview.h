#pragma once
// One labelled heatmap of an engine matrix: token labels on both axes (queries as rows, keys as
// columns; feature names for feature axes), an honest colour scale, masked cells drawn as −∞,
// values inside cells when they fit, and a tooltip with the exact value under the mouse.
// Drawn for matrices up to 1024 × 1024: the colour map's data is made once per matrix, only
// the cells shown get texts (and only when they can hold them), as many token labels as fit
// without overlap, and what follows the mouse is repainted alone (views/heatmappointer.h).

#include "lesson/lesson.h"
#include "core/trace.h"
#include "views/heatmappointer.h"

#include <QColor>
#include <QFont>
#include <QSize>
#include <QString>
#include <QWidget>

#include <vector>

class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPItemRect;
class QCPTextElement;
class QMouseEvent;

namespace attnlab {

class HeatmapZoom;

class HeatmapView : public QWidget {
    Q_OBJECT
public:
    /// How values map to colours.
    enum class Scale {
        Probability, ///< 0..1, viridis (attention weights)
        Signed,      ///< symmetric around 0, blue-white-red (scores, vectors)
        Difference,  ///< symmetric around 0, purple-white-orange (A − B of a comparison)
    };

    explicit HeatmapView(QWidget* parent = nullptr);

    /// Shows `m`; `title` goes above the plot. Keeps a copy of what it draws.
    void setMatrix(const LabeledMatrix& m, const QString& title, Scale scale);
    /// For Scale::Signed and Difference: use ±maxAbs instead of the matrix's own largest |value|
    /// (so several heads, or A and B, share one colour scale). A value <= 0 returns to the
    /// matrix's own range.
    void setSharedMaxAbs(double maxAbs);
    /// Outlines one cell (the selection); (-1, -1) removes the outline.
    void setSelectedCell(int row, int column);
    /// Emphasises a lesson step's cells, rows and columns (0-based), like a laser pointer: a
    /// thick frame around them and highlightVeil() over every other cell, so the highlighted
    /// cells keep their colour-bar colour. Positions outside the matrix are ignored.
    void setHighlight(const Highlight& highlight);
    /// Writes `message` across the cells in place of their colours, and hides the colour bar:
    /// for a matrix whose colours would mislead (the zeros of "no mask"). Empty: the colours again.
    void setMessage(const QString& message);
    const QString& message() const { return m_message; }
    /// Draws values inside cells when they fit (default on).
    void setCellValuesVisible(bool visible);
    /// Whether a projected window's type (widgets/projectiontype.h) sizes its labels and numbers
    /// (default off: the stage's own heatmap takes it; views of several plots, the comparison's
    /// three among them, share the screen and keep the window's large type).
    void setProjectedType(bool on);
    /// The translucent colour laid over the cells a highlight leaves out.
    static QColor highlightVeil();
    /// The scale a stage's main matrix should use: probabilities for "weights", else signed.
    static Scale scaleForStage(const QString& stageId);

    const LabeledMatrix& matrix() const { return m_matrix; }
    Scale scale() const { return m_scale; }
    QCustomPlot* plot() const { return m_plot; }
    /// Zoom and fit (views/heatmapzoom.h): the scroll area the plot sits in.
    HeatmapZoom* zoom() const { return m_zoom; }
    /// "<row> → <col>: value" for the cell under plot pixel `pos`, or empty outside the cells.
    QString cellDescription(const QPointF& pos) const;
    /// The (row, column) of the cell under plot pixel `pos`, or (-1, -1).
    QPoint cellAt(const QPointF& pos) const;
    /// The hover's and the selection's outlines and the hovered row's and column's labels.
    const HeatmapPointer& pointer() const { return m_pointer; }

    /// The type of the numbers in cells of `cell` pixels whose widest number is `widest`: as
    /// large as the cell allows (up to twice `base`), never smaller than `base` less a point.
    static QFont cellValueFont(const QFont& base, const QString& widest, const QSize& cell);

signals:
    /// The user clicked a cell.
    void cellClicked(int row, int column);

private:
    void rebuild();
    /// The type of the labels and numbers: the widget's, or the projected type (setProjectedType).
    QFont plotFont() const;
    /// Gives the plot plotFont() when it has another.
    void followFont();
    /// Before each layout: the colour scale's margins and tick count for the bar's length.
    void fitColorScale();
    void applyColorRange();
    void labelAxes();
    void drawCellValues();
    /// The highlight's veil over the other cells (`veil`), or its frames.
    void drawHighlight(bool veil);
    /// True when the cell is highlighted (m_lit, made at each rebuild).
    bool isLit(int row, int column) const;
    void drawMessage();
    int messageWidth(const QFont& f) const;
    /// One cell's size in pixels at the current zoom (estimated before the first layout).
    QSizeF cellPixels() const;
    /// The cells the axes show, as columns left()..right() and rows top()..bottom().
    QRect shownCells() const;
    /// Puts the pointer's items back after the items were cleared, within the matrix.
    void restorePointer();
    /// The label of row `i` (or column, from `labels`), or its number where there is none.
    static QString labelOf(const Labels& labels, int i);
    void onMouseMove(QMouseEvent* event);
    void onMousePress(QMouseEvent* event);
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

    QCustomPlot* m_plot = nullptr;
    HeatmapZoom* m_zoom = nullptr;
    QCPColorMap* m_map = nullptr;
    QCPColorScale* m_colorScale = nullptr;
    QCPTextElement* m_titleElement = nullptr; ///< in the plot's layout only while there is a title
    LabeledMatrix m_matrix;
    QString m_title;
    Scale m_scale = Scale::Signed;
    double m_sharedMaxAbs = 0;
    int m_selRow = -1;
    int m_selCol = -1;
    bool m_cellValues = true;
    bool m_projectedType = false;
    Highlight m_highlight;
    std::vector<char> m_lit; ///< the highlighted cells, row-major (1 = highlighted)
    bool m_litDirty = true;  ///< the highlight or the matrix changed since m_lit was made
    QString m_message;
    HeatmapPointer m_pointer;
    bool m_dataDirty = true;      ///< the colour map's data is made again at the next draw
    float m_ownMaxAbs = 0;        ///< the matrix's largest finite |value|
    int m_widestColumnLabel = -1; ///< in pixels, in the tick label font; -1: not measured yet
    Labels m_measuredLabels;      ///< the column labels m_widestColumnLabel measured
    QSizeF m_drawnCell;           ///< the cell size (pixels) the labels and values were drawn for
    int m_redraws = 0;            ///< redraws after a layout that changed the cells (at most one)
    bool m_redrawing = false;     ///< inside such a redraw
};

} // namespace attnlab

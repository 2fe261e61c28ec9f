#pragma once
// Multi-head attention seen whole. One widget, two modes:
//
//  - Mode::Heads: every head's matrix of the current per-head stage (session->stepId(); the
//    attention weights when the current step is not per-head) as small multiples in a grid,
//    titled "Head 1".. (heads are 0-based in data, 1-based on screen). Clicking a head focuses it
//    (Session::setHead, headActivated); the current head is outlined. "Shared colour scale" gives
//    signed stages one range over all heads (probabilities are always 0..1).
//  - Mode::Concat: the concatenation C = [Z_1 | … | Z_h] as one heatmap, each head's column block
//    marked by a bar in that head's colour and labelled "Head 1"..; then "× W_Oᵀ + b_O →" and
//    the output O.
//
// The head colours (Okabe–Ito, colour-blind safe) are the same in both modes: the bar above a
// small multiple matches its block in the concatenation.

#include "views/sessionview.h"

#include <QColor>
#include <QPointer>
#include <QString>

#include <vector>

class QCheckBox;
class QCustomPlot;
class QFrame;
class QGridLayout;
class QBoxLayout;
class QLabel;
class QStackedWidget;

namespace attnlab {

class HeatmapView;
class Session;

class MultiHeadView : public SessionView {
    Q_OBJECT
public:
    enum class Mode {
        Heads,  ///< one small heatmap per head
        Concat, ///< C = [Z_1 | … | Z_h] and O = C·W_Oᵀ + b_O
    };
    Q_ENUM(Mode)

    explicit MultiHeadView(Session* session, QWidget* parent = nullptr);

    Mode mode() const { return m_mode; }
    void setMode(Mode mode);

    // --- Heads mode ----------------------------------------------------------------------
    /// The per-head stage id the grid shows ("weights" when the current step is not per-head).
    QString gridStageId() const { return m_gridStage; }
    /// Number of small multiples (= heads of the current trace).
    int headPlotCount() const { return static_cast<int>(m_heads.size()); }
    /// The small multiple of 0-based `head`, or null.
    HeatmapView* headView(int head) const;
    /// The frame around head `head`'s plot (its outline marks the current head), or null.
    QFrame* headFrame(int head) const;
    /// The 0-based head drawn as current (outlined).
    int highlightedHead() const { return m_highlighted; }
    QCheckBox* sharedScaleCheckBox() const { return m_shared; }

    // --- Concat mode ---------------------------------------------------------------------
    HeatmapView* concatView() const { return m_concat; }
    HeatmapView* outputView() const { return m_output; }
    /// Object name of the coloured bars marking the head blocks in concatView()->plot().
    static QString headBlockItemName() { return QStringLiteral("headBlock"); }

    /// The colour of 0-based `head` (Okabe–Ito, then eight of Kelly's colours; repeating after 16).
    static QColor headColor(int head);

    /// The plots of the mode shown: the heads' small multiples, or the concatenation and the output.
    QList<QCustomPlot*> exportedPlots() const override;

signals:
    /// The user clicked head `head` (0-based) in the grid or its block in the concatenation.
    void headActivated(int head);
    void modeChanged(attnlab::MultiHeadView::Mode mode);

private:
    struct HeadCell {
        QFrame* frame = nullptr;
        QFrame* colorBar = nullptr;
        HeatmapView* view = nullptr;
    };

    void refresh() override;
    void showHeads();
    void showConcat();
    void rebuildGrid(int heads);
    void layoutGrid();
    void updateHighlight();
    void updateSelection();
    void applySharedScale();
    void activateHead(int head);
    void decorateConcat();
    void resizeEvent(QResizeEvent* event) override;
    void applyPalette() override;
    void retranslate() override;
    void showEvent(QShowEvent* event) override;
    void recheckCellValuesLater();

    Mode m_mode = Mode::Heads;
    QStackedWidget* m_stack;

    // Heads mode
    QLabel* m_headsCaption;
    QCheckBox* m_shared;
    QWidget* m_grid;
    QGridLayout* m_gridLayout;
    std::vector<HeadCell> m_heads;
    QString m_gridStage = QStringLiteral("weights");
    int m_highlighted = -1;
    int m_gridColumns = 0;

    // Concat mode
    QLabel* m_concatCaption;
    HeatmapView* m_concat;
    QLabel* m_times;
    QBoxLayout* m_concatRow; ///< C, "× W_Oᵀ + b_O", O: across, or down for wide matrices
    HeatmapView* m_output;
    int m_concatHeads = 0; ///< heads and d_k of the drawn concatenation, for its decorations
    int m_concatDk = 0;
    // HeatmapView removes items when it redraws: the decorations are added again before the
    // next replot whenever this becomes null.
    QPointer<QObject> m_concatDecorated;
};

} // namespace attnlab

#pragma once
// Two inputs side by side (issue 10 §2): while the Session compares, every step shows its stage's
// matrix for A, for B on the same colour scale, and A − B on a diverging scale symmetric around 0,
// with a caption that says what A and B are, how B's rows and columns were lined up with A's (by
// token when B's tokens are A's in another order, else by position), and how large the
// difference is. The tokens step lists both token sequences. Views that draw more than one
// matrix (the positional-encoding plots, every head, LayerNorm, the FFN) show their stage's
// matrix here and say so. The view stack shows it in place of the stage's own view.

#include "views/captionedview.h"
#include "views/comparefigure.h"

#include <QSize>

#include <optional>

class QGridLayout;
class QLabel;

namespace attnlab {

class HeatmapView;

class CompareView : public CaptionedView {
    Q_OBJECT
public:
    explicit CompareView(Session* session, QWidget* parent = nullptr);

    HeatmapView* heatmapA() const { return m_a; }
    HeatmapView* heatmapB() const { return m_b; }
    HeatmapView* heatmapDifference() const { return m_difference; }
    /// Says why B or A − B is not drawn (B failed, the shapes differ), in their place.
    QLabel* problemLabel() const { return m_problem; }
    /// Says what comparison shows for views of more than one matrix; hidden when it has nothing to say.
    QLabel* noteLabel() const { return m_note; }
    /// The figure drawn now; none on the tokens step (or when A has no such stage).
    const std::optional<CompareFigure>& figure() const { return m_figure; }
    /// The three heatmaps' plots (those drawn).
    QList<QCustomPlot*> exportedPlots() const override;

    /// How A, B and A − B share the view: `rows` × `cols` places, filled row by row.
    struct Arrangement {
        int rows = 0;
        int cols = 0;
        bool operator==(const Arrangement&) const = default;
    };
    /// The arrangement of `parts` plots (2 or 3, or 4 with a note) in `room` pixels that gives
    /// the largest square cells to a `rows` × `cols` matrix, each plot needing `overhead` pixels
    /// besides its cells (labels, title, colour bar): a row, a column, or two by two.
    static Arrangement bestArrangement(QSize room, int parts, int rows, int cols, QSize overhead);
    /// The arrangement shown now.
    Arrangement arrangement() const { return m_arrangement; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void refresh() override;
    void retranslate() override;
    /// The tokens step: both token sequences and how the stages will be lined up.
    void showTokens();
    /// What comparison shows here when the stage's own view draws more than this matrix.
    QString noteForView() const;
    /// Places the plots shown (and the problem's text) by bestArrangement for the view's size.
    void arrange();

    HeatmapView* m_a;
    HeatmapView* m_b;
    HeatmapView* m_difference;
    QLabel* m_problem;
    QLabel* m_note;
    QGridLayout* m_grid;
    Arrangement m_arrangement;
    std::optional<CompareFigure> m_figure;
};

/// True when the studio (and a slide) shows the comparison view for the Session's step: while
/// comparing, for every step but a lesson's stand-alone demonstrations.
bool showsComparison(const Session& session);

} // namespace attnlab

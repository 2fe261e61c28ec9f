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

#include <optional>

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

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void refresh() override;
    void retranslate() override;
    /// The tokens step: both token sequences and how the stages will be lined up.
    void showTokens();
    /// What comparison shows here when the stage's own view draws more than this matrix.
    QString noteForView() const;

    HeatmapView* m_a;
    HeatmapView* m_b;
    HeatmapView* m_difference;
    QLabel* m_problem;
    QLabel* m_note;
    std::optional<CompareFigure> m_figure;
};

/// True when the studio (and a slide) shows the comparison view for the Session's step: while
/// comparing, for every step but a lesson's stand-alone demonstrations.
bool showsComparison(const Session& session);

} // namespace attnlab

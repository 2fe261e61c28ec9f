#pragma once
// The views of the studio's centre: one page per kind of view (the tokens table, the stage's
// heatmap, the PE plots, concat, LayerNorm, FFN, a lesson's kernel-regression or softmax-scaling
// view) in a "Stage" tab, and a tab of its own for each view the registry gives one (the grid of
// every head, the model view, the head view: registry.h's `tab`). Which page and tab show follows
// the Session's step and view ("heads", "model", "head-view", "predictions"; a pretrained model's
// probabilities step brings its predictions to the front). While the Session compares two
// inputs, the comparison view takes the place of the stage's own (and the other tabs wait).
// The views' window-wide actions (the generation stepper's keys) are added to the stack.

#include "session/stages.h"

#include <QTabWidget>

#include <utility>
#include <vector>

class QStackedWidget;

class QLabel;

namespace attnlab {

class CompareView;
class MultiHeadView;
class Session;
class StageView;

class ViewStack : public QTabWidget {
    Q_OBJECT
public:
    explicit ViewStack(Session* session, QWidget* parent = nullptr);

    /// The heatmap of the current stage (the page of ViewKind::Matrix).
    StageView* stageView() const { return m_stageView; }
    /// The grid of every head, the second tab.
    MultiHeadView* headsView() const { return m_headsView; }
    /// The view of `kind`'s own tab (the model view, the head view, every head), or null.
    QWidget* tabView(ViewKind kind) const;
    /// A, B and A − B: the page of every step (but a lesson's demonstrations) while comparing.
    CompareView* compareView() const { return m_compareView; }
    /// The page of the "Stage" tab showing the current step.
    QWidget* currentStageWidget() const;
    /// The widget in front: the current page, or the all-heads grid.
    QWidget* visibleView() const;
    /// The page that shows `kind`; the stage's heatmap for Matrix and for Heads (whose grid is
    /// the second tab, with the heatmap behind it on the first).
    QWidget* pageFor(ViewKind kind) const;

    /// Brings the page and the tab for the Session's step and view to the front.
    void showStep();
    /// Shows `text` in place of every view (a lesson step whose model is missing), until it is
    /// set empty again; then the step's view.
    void setPlaceholder(const QString& text);
    /// The placeholder's label (hidden when there is none).
    QLabel* placeholder() const { return m_placeholder; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    /// On a pretrained model's probabilities step the predictions come first (views/predictionsview.h).
    void followStep();

    Session* m_session;
    QStackedWidget* m_stack;
    StageView* m_stageView = nullptr;
    MultiHeadView* m_headsView = nullptr;
    CompareView* m_compareView = nullptr;
    QLabel* m_placeholder = nullptr;
    std::vector<std::pair<ViewKind, QWidget*>> m_pages; ///< in the order of the stack
    std::vector<std::pair<ViewKind, QWidget*>> m_tabViews; ///< tabs 1, 2, … in order
};

} // namespace attnlab

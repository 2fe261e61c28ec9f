#pragma once
// The right-click menu of every heatmap in a window (a stage's, each head's in the grid, the
// concatenation's, a comparison's three, the positional encoding's …): Copy image (that
// heatmap), Copy value (the clicked cell with its row and column, counted from 1 as people
// count, and their labels) and Export… (the window's export of the view in front).

#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>

class QMenu;
class QWidget;

namespace attnlab {

class HeatmapView;

class HeatmapMenu : public QObject {
    Q_OBJECT
public:
    /// Watches the heatmaps inside `window` (made now or later); `exportView` asks where to
    /// export the view in front and does it.
    HeatmapMenu(QWidget* window, std::function<void()> exportView);
    ~HeatmapMenu() override;

    /// Opens the menu for the cell at plot pixel `pos` of `view`, at global position `global`.
    QMenu* popup(HeatmapView* view, const QPoint& pos, const QPoint& global);
    /// The menu open now (or last opened), for tests.
    QMenu* menu() const { return m_menu; }

    /// "0.4213 (row 2 "咬", column 3 "了")": the value of (row, column) (0-based) and its labels,
    /// the row and column counted from 1; empty outside the matrix.
    static QString cellText(const HeatmapView& view, int row, int column);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* m_window;
    std::function<void()> m_exportView;
    QPointer<QMenu> m_menu;
};

} // namespace attnlab

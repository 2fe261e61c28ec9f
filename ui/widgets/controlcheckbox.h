#pragma once
// A check box that sets how a view draws ("Same colour scale for all heads", "Stretch colours")
// rather than being part of its picture: it steps aside while the window is projected (presenter
// mode, issue 28 §1: nothing interactive is projected), keeping its state, and comes back as the
// view last asked when the projection ends.

#include <QCheckBox>
#include <QFont>

namespace attnlab {

class ControlCheckBox : public QCheckBox {
    Q_OBJECT
public:
    using QCheckBox::QCheckBox;

    /// Shows or hides it as the view asks; while its window is projected it stays hidden.
    void setVisible(bool visible) override;
    /// Whether the view offers it now (shown outside a projection): what isVisible() says of
    /// the view's wish, also while projected.
    bool isOffered() const { return m_offered; }

    /// Marks `window` as projected or not (presenter mode, a slide), and hides or shows again
    /// its ControlCheckBoxes and the widgets markAsControl() marked. `points` is the size of the
    /// projected type (widgets/projectiontype.h) that the heatmaps' labels and numbers take.
    static void setProjected(QWidget* window, bool projected, double points = 0);
    static bool isProjected(const QWidget* window);
    /// The projected type's point size in `window` (0 when it is not projected).
    static double projectedPoints(const QWidget* window);
    /// `f`, at least the projected type's size when `w`'s window is projected.
    static QFont projectedFont(const QWidget* w, QFont f);

private:
    bool m_offered = true;
};

/// Marks `w`, which its view never hides or shows (a "S'_h: 6 × 6" line the banner also says),
/// as part of the interface rather than the picture: hidden while its window is projected.
void markAsControl(QWidget* w);

} // namespace attnlab

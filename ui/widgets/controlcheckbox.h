#pragma once
// A check box that sets how a view draws ("Same colour scale for all heads", "Stretch colours")
// rather than being part of its picture: it steps aside while the window is projected (presenter
// mode, a slide: widgets/projectiontype.h), keeping its state, and comes back as the view last
// asked when the projection ends.

#include <QCheckBox>

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
    /// Its window's projection started (hidden) or ended (as the view last asked).
    void followProjection(bool projected);

private:
    bool m_offered = true;
};

} // namespace attnlab

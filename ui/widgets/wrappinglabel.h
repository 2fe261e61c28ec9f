#pragma once
// A label that keeps its lines whole where there is room and wraps them where there is not. A
// word-wrapping QLabel asks for a narrower width than its text and wraps even with room to
// spare; this one asks for the width of its longest line and still gives way on a small screen.

#include <QLabel>

namespace attnlab {

class WrappingLabel : public QLabel {
    Q_OBJECT
public:
    explicit WrappingLabel(QWidget* parent = nullptr);

    QSize sizeHint() const override;
};

} // namespace attnlab

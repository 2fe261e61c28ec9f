#include "widgets/wrappinglabel.h"

#include <algorithm>

namespace attnlab {

WrappingLabel::WrappingLabel(QWidget* parent)
    : QLabel(parent)
{
    setWordWrap(true);
}

QSize WrappingLabel::sizeHint() const
{
    const QSize wrapped = QLabel::sizeHint();
    const QMargins m = contentsMargins();
    const int unwrapped = fontMetrics().size(0, text()).width() + m.left() + m.right() + 2 * margin();
    return {std::max(wrapped.width(), unwrapped), wrapped.height()};
}

} // namespace attnlab

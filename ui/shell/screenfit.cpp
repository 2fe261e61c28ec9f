#include "shell/screenfit.h"

#include <algorithm>

namespace attnlab {

QRect fitInto(const QRect& wanted, const QRect& available)
{
    if (!available.isValid())
        return wanted;
    const QSize size = wanted.size().boundedTo(available.size());
    // Inside on each axis: the top-left no further than the last place where the size fits.
    const int x = std::clamp(wanted.x(), available.left(), available.left() + available.width() - size.width());
    const int y = std::clamp(wanted.y(), available.top(), available.top() + available.height() - size.height());
    return {QPoint(x, y), size};
}

QMargins frameMargins(const QRect& frameGeometry, const QRect& geometry)
{
    return {std::max(0, geometry.left() - frameGeometry.left()), std::max(0, geometry.top() - frameGeometry.top()),
            std::max(0, frameGeometry.right() - geometry.right()), std::max(0, frameGeometry.bottom() - geometry.bottom())};
}

} // namespace attnlab

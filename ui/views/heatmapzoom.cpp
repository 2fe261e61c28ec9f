#include "views/heatmapzoom.h"

#include <qcustomplot.h>

#include <QResizeEvent>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace attnlab {

HeatmapZoom::HeatmapZoom(QCustomPlot* plot, QWidget* parent)
    : QScrollArea(parent)
    , m_plot(plot)
{
    setFrameShape(QFrame::NoFrame); // at 100 % the plot fills the view as it did without us
    setWidgetResizable(false);      // we size the plot: the view's size times the factor
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setFocusPolicy(Qt::NoFocus);    // the keys stay with the view (the stepping keys)
    setWidget(plot);
    plot->installEventFilter(this);
}

QList<HeatmapZoom*> HeatmapZoom::shownIn(QWidget* view)
{
    QList<HeatmapZoom*> shown;
    if (!view)
        return shown;
    for (HeatmapZoom* z : view->findChildren<HeatmapZoom*>()) {
        if (z->isVisible())
            shown << z;
    }
    return shown;
}

void HeatmapZoom::setFactor(double factor, QPoint anchor)
{
    factor = std::clamp(factor, kMinFactor, kMaxFactor);
    if (std::abs(factor - m_factor) < 1e-9)
        return;
    // The matrix point under the anchor stays under it (by axis coordinates: the labels around
    // the cells do not grow with the zoom).
    if (anchor.x() < 0)
        anchor = QPoint(viewport()->width() / 2, viewport()->height() / 2);
    QScrollBar* across = horizontalScrollBar();
    QScrollBar* down = verticalScrollBar();
    const double x = m_plot->xAxis->pixelToCoord(anchor.x() + across->value());
    const double y = m_plot->yAxis->pixelToCoord(anchor.y() + down->value());
    m_factor = factor;
    layOutPlot();
    emit resized();
    m_plot->replot(QCustomPlot::rpImmediateRefresh); // lays the axes out at the new size
    across->setValue(static_cast<int>(std::lround(m_plot->xAxis->coordToPixel(x))) - anchor.x());
    down->setValue(static_cast<int>(std::lround(m_plot->yAxis->coordToPixel(y))) - anchor.y());
    emit factorChanged(m_factor);
}

void HeatmapZoom::layOutPlot()
{
    // The area inside the frame, scroll bars or not: at 100 % no scroll bar is needed, and the
    // plot's size does not flip with the scroll bars appearing.
    const QSize view = contentsRect().size();
    const QSize size(static_cast<int>(std::lround(view.width() * m_factor)), static_cast<int>(std::lround(view.height() * m_factor)));
    if (m_factor <= kMinFactor) {
        setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    } else {
        setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
        setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    }
    if (m_plot->size() != size)
        m_plot->resize(size);
}

void HeatmapZoom::resizeEvent(QResizeEvent* event)
{
    QScrollArea::resizeEvent(event);
    layOutPlot();
}

bool HeatmapZoom::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_plot && event->type() == QEvent::Wheel)
        return wheel(static_cast<QWheelEvent*>(event));
    if (watched == m_plot && event->type() == QEvent::Resize && m_factor > kMinFactor)
        emit resized(); // HeatmapView redraws on its own resize; a zoomed plot resizes alone
    return QScrollArea::eventFilter(watched, event);
}

bool HeatmapZoom::wheel(QWheelEvent* event)
{
    const QPoint delta = event->angleDelta();
    if (event->modifiers() & Qt::ControlModifier) {
        // One notch (120) is one step; a touchpad's small deltas add up smoothly.
        const double steps = delta.y() / 120.0;
        if (steps != 0) {
            const QPoint anchor = m_plot->mapTo(viewport(), event->position().toPoint());
            setFactor(m_factor * std::pow(kStep, steps), anchor);
        }
        return true;
    }
    if (m_factor <= kMinFactor)
        return false; // fit: nothing to scroll, the plot does what it always did
    // Zoomed: the wheel scrolls (Shift, or a sideways wheel: across).
    const bool across = (event->modifiers() & Qt::ShiftModifier) || delta.x() != 0;
    QScrollBar* bar = across ? horizontalScrollBar() : verticalScrollBar();
    const int amount = across && delta.x() != 0 ? delta.x() : delta.y();
    bar->setValue(bar->value() - amount * bar->singleStep() * 3 / 120);
    return true;
}

} // namespace attnlab

#include "views/heatmapzoom.h"

#include "views/heatmappointer.h"

#include <qcustomplot.h>

#include <QGridLayout>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

constexpr int kBarStepsPerCell = 100; ///< scroll bar units in one cell

/// The centre of a window `shown` cells wide within cells 0 … n−1, kept inside.
double clampCentre(double centre, double shown, int n)
{
    const double low = -0.5 + shown / 2;
    const double high = n - 0.5 - shown / 2;
    return high <= low ? (n - 1) / 2.0 : std::clamp(centre, low, high);
}

} // namespace

HeatmapZoom::HeatmapZoom(QCustomPlot* plot, QWidget* parent)
    : QWidget(parent)
    , m_plot(plot)
    , m_across(new QScrollBar(Qt::Horizontal, this))
    , m_down(new QScrollBar(Qt::Vertical, this))
{
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0); // at 100 % the plot fills the view as before
    grid->setSpacing(0);
    grid->addWidget(plot, 0, 0);
    grid->addWidget(m_down, 0, 1);
    grid->addWidget(m_across, 1, 0);
    m_across->hide();
    m_down->hide();
    for (QScrollBar* bar : {m_across, m_down}) {
        bar->setFocusPolicy(Qt::NoFocus); // the keys stay with the view (the stepping keys)
        connect(bar, &QScrollBar::valueChanged, this, &HeatmapZoom::scrolled);
    }
    plot->installEventFilter(this);
    // Zoomed in, what a view draws over its cells in plot coordinates (outlines, a head's
    // block) is cut at the cells' edge, or it would reach over the labels around them.
    connect(plot, &QCustomPlot::afterLayout, this, [this] {
        if (m_factor <= kMinFactor)
            return;
        for (int i = 0; i < m_plot->itemCount(); ++i) {
            if (!m_plot->item(i)->property(HeatmapPointer::outsideCellsProperty()).toBool()) // the hovered row's token beside them stays
                m_plot->item(i)->setClipToAxisRect(true);
        }
    });
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

void HeatmapZoom::setFactor(double factor, QPointF anchor)
{
    factor = std::clamp(factor, kMinFactor, kMaxFactor);
    if (std::abs(factor - m_factor) < 1e-9)
        return;
    const bool placed = m_columns > 0 && m_rows > 0;
    const QRect area = m_plot->axisRect()->rect();
    if (anchor.x() < 0)
        anchor = area.center();
    const QPointF cell(m_plot->xAxis->pixelToCoord(anchor.x()), m_plot->yAxis->pixelToCoord(anchor.y()));
    if (placed) {
        // The cell under the anchor keeps its place within the cells shown.
        const double tx = area.width() > 0 ? (anchor.x() - area.left()) / area.width() : 0.5;
        const double ty = area.height() > 0 ? (anchor.y() - area.top()) / area.height() : 0.5;
        const double shownX = m_columns / factor;
        const double shownY = m_rows / factor;
        m_centre = QPointF(cell.x() - tx * shownX + shownX / 2, cell.y() - ty * shownY + shownY / 2);
    }
    m_factor = factor;
    showPart();
    emit changed(); // the heatmap draws again: its labels, and so its margins, change
    if (placed && m_factor > kMinFactor) {
        // Lay the plot out with its new labels and put the cell back under the anchor.
        m_plot->replot(QCustomPlot::rpImmediateRefresh);
        m_centre += cell - QPointF(m_plot->xAxis->pixelToCoord(anchor.x()), m_plot->yAxis->pixelToCoord(anchor.y()));
        showPart();
        emit moved();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void HeatmapZoom::apply(int columns, int rows)
{
    if (columns != m_columns || rows != m_rows) {
        // A matrix of another shape (the next stage: Q after X) is shown whole; another head,
        // or a stage of the same shape (scores, scaled, weights), keeps the part shown.
        m_columns = columns;
        m_rows = rows;
        m_factor = kMinFactor;
        m_centre = QPointF(-1, -1);
    }
    showPart();
}

void HeatmapZoom::showPart()
{
    const bool zoomed = m_factor > kMinFactor && m_columns > 0 && m_rows > 0;
    m_across->setVisible(zoomed);
    m_down->setVisible(zoomed);
    if (m_columns <= 0 || m_rows <= 0)
        return;
    const double shownX = m_columns / m_factor;
    const double shownY = m_rows / m_factor;
    if (m_centre.x() < 0 && m_centre.y() < 0)
        m_centre = QPointF(-0.5 + shownX / 2, -0.5 + shownY / 2); // the first rows and columns
    m_centre = QPointF(clampCentre(m_centre.x(), shownX, m_columns), clampCentre(m_centre.y(), shownY, m_rows));
    if (zoomed) {
        const QCPRange across(m_centre.x() - shownX / 2, m_centre.x() + shownX / 2);
        m_plot->xAxis->setRange(across);
        m_plot->xAxis2->setRange(across);
        m_plot->yAxis->setRange(m_centre.y() - shownY / 2, m_centre.y() + shownY / 2);
    }
    // The scroll bars: one step is a cell, one page what is shown.
    m_updatingBars = true;
    const auto setBar = [](QScrollBar* bar, double shown, int n, double centre) {
        bar->setRange(0, static_cast<int>(std::lround((n - shown) * kBarStepsPerCell)));
        bar->setPageStep(static_cast<int>(std::lround(shown * kBarStepsPerCell)));
        bar->setSingleStep(kBarStepsPerCell);
        bar->setValue(static_cast<int>(std::lround((centre - shown / 2 + 0.5) * kBarStepsPerCell)));
    };
    setBar(m_across, shownX, m_columns, m_centre.x());
    setBar(m_down, shownY, m_rows, m_centre.y());
    m_updatingBars = false;
}

void HeatmapZoom::scrolled()
{
    if (m_updatingBars || m_factor <= kMinFactor)
        return;
    const double shownX = m_columns / m_factor;
    const double shownY = m_rows / m_factor;
    m_centre = QPointF(-0.5 + double(m_across->value()) / kBarStepsPerCell + shownX / 2,
                       -0.5 + double(m_down->value()) / kBarStepsPerCell + shownY / 2);
    showPart();
    emit moved();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

bool HeatmapZoom::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_plot && event->type() == QEvent::Wheel)
        return wheel(static_cast<QWheelEvent*>(event));
    return QWidget::eventFilter(watched, event);
}

bool HeatmapZoom::wheel(QWheelEvent* event)
{
    const QPoint delta = event->angleDelta();
    if (event->modifiers() & Qt::ControlModifier) {
        // One notch (120) is one step; a touchpad's small deltas add up smoothly.
        if (delta.y() != 0)
            setFactor(m_factor * std::pow(kStep, delta.y() / 120.0), event->position());
        return true;
    }
    if (m_factor <= kMinFactor)
        return false; // fit: nothing to scroll, the plot does what it always did
    // Zoomed: the wheel scrolls three cells a notch (Shift, or a sideways wheel: across).
    const bool across = (event->modifiers() & Qt::ShiftModifier) || delta.x() != 0;
    QScrollBar* bar = across ? m_across : m_down;
    const int amount = across && delta.x() != 0 ? delta.x() : delta.y();
    bar->setValue(bar->value() - amount * 3 * kBarStepsPerCell / 120);
    return true;
}

} // namespace attnlab

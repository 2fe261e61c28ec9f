#include "widgets/controlcheckbox.h"

#include <QVariant>

namespace attnlab {

namespace {

constexpr char kProjected[] = "attnlab_projected";
constexpr char kControl[] = "attnlab_control";
constexpr char kPoints[] = "attnlab_projected_points";

} // namespace

void ControlCheckBox::setVisible(bool visible)
{
    m_offered = visible;
    QCheckBox::setVisible(visible && !isProjected(window()));
}

void ControlCheckBox::setProjected(QWidget* window, bool projected, double points)
{
    window->setProperty(kProjected, projected);
    window->setProperty(kPoints, projected ? points : 0.0);
    for (ControlCheckBox* box : window->findChildren<ControlCheckBox*>())
        box->QCheckBox::setVisible(box->m_offered && !projected);
    for (QWidget* w : window->findChildren<QWidget*>()) {
        if (w->property(kControl).toBool())
            w->setVisible(!projected);
    }
}

double ControlCheckBox::projectedPoints(const QWidget* window)
{
    return window ? window->property(kPoints).toDouble() : 0.0;
}

QFont ControlCheckBox::projectedFont(const QWidget* w, QFont f)
{
    const double points = projectedPoints(w ? w->window() : nullptr);
    if (points > 0 && f.pointSizeF() > 0 && f.pointSizeF() < points)
        f.setPointSizeF(points);
    return f;
}

void markAsControl(QWidget* w)
{
    w->setProperty(kControl, true);
}

bool ControlCheckBox::isProjected(const QWidget* window)
{
    return window && window->property(kProjected).toBool();
}

} // namespace attnlab

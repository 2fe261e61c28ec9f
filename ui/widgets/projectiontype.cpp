#include "widgets/projectiontype.h"

#include "widgets/controlcheckbox.h"

#include <QCoreApplication>
#include <QVariant>
#include <QWidget>

namespace attnlab {

namespace {

constexpr char kProjected[] = "attnlab_projected";
constexpr char kPoints[] = "attnlab_projected_points";
constexpr char kControl[] = "attnlab_control";

} // namespace

void setProjected(QWidget* window, bool projected, double points)
{
    window->setProperty(kProjected, projected);
    window->setProperty(kPoints, projected ? points : 0.0);
    for (ControlCheckBox* box : window->findChildren<ControlCheckBox*>())
        box->followProjection(projected);
    for (QWidget* w : window->findChildren<QWidget*>()) {
        if (w->property(kControl).toBool())
            w->setVisible(!projected);
    }
    QEvent changed(projectionChangeEvent());
    for (QWidget* w : window->findChildren<QWidget*>())
        QCoreApplication::sendEvent(w, &changed);
    QCoreApplication::sendEvent(window, &changed);
}

QEvent::Type projectionChangeEvent()
{
    static const auto type = static_cast<QEvent::Type>(QEvent::registerEventType());
    return type;
}

bool isProjected(const QWidget* window)
{
    return window && window->property(kProjected).toBool();
}

double projectedPoints(const QWidget* window)
{
    return window ? window->property(kPoints).toDouble() : 0.0;
}

QFont projectedFont(const QWidget* w, QFont f)
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

} // namespace attnlab

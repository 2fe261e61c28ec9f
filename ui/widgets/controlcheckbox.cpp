#include "widgets/controlcheckbox.h"

#include <QVariant>

namespace attnlab {

namespace {

constexpr char kProjected[] = "attnlab_projected";
constexpr char kControl[] = "attnlab_control";

} // namespace

void ControlCheckBox::setVisible(bool visible)
{
    m_offered = visible;
    QCheckBox::setVisible(visible && !isProjected(window()));
}

void ControlCheckBox::setProjected(QWidget* window, bool projected)
{
    window->setProperty(kProjected, projected);
    for (ControlCheckBox* box : window->findChildren<ControlCheckBox*>())
        box->QCheckBox::setVisible(box->m_offered && !projected);
    for (QWidget* w : window->findChildren<QWidget*>()) {
        if (w->property(kControl).toBool())
            w->setVisible(!projected);
    }
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

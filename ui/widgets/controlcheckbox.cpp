#include "widgets/controlcheckbox.h"

#include "widgets/projectiontype.h"

namespace attnlab {

void ControlCheckBox::setVisible(bool visible)
{
    m_offered = visible;
    QCheckBox::setVisible(visible && !isProjected(window()));
}

void ControlCheckBox::followProjection(bool projected)
{
    QCheckBox::setVisible(m_offered && !projected);
}

} // namespace attnlab

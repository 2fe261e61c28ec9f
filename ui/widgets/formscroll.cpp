#include "widgets/formscroll.h"

#include <QEvent>
#include <QScrollBar>

namespace attnlab {

FormScrollArea::FormScrollArea(QWidget* form, QWidget* parent)
    : QScrollArea(parent)
{
    setWidget(form);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    form->installEventFilter(this);
    fitWidth();
}

bool FormScrollArea::eventFilter(QObject* watched, QEvent* event)
{
    // The form asks for a new layout when a row appears, disappears or changes its text.
    if (watched == widget() && event->type() == QEvent::LayoutRequest)
        fitWidth();
    return QScrollArea::eventFilter(watched, event);
}

void FormScrollArea::fitWidth()
{
    if (QWidget* form = widget())
        setMinimumWidth(form->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width());
}

} // namespace attnlab

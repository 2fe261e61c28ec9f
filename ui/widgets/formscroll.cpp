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
    if (watched == widget()) {
        switch (event->type()) {
        case QEvent::LayoutRequest: // a row appears, disappears or changes its text
        case QEvent::Show:          // laid out again while hidden (no request is posted then)
            fitWidth();
            break;
        case QEvent::FontChange: // presenter mode's type, and back: once every row has it
        case QEvent::StyleChange:
            QMetaObject::invokeMethod(this, &FormScrollArea::fitWidth, Qt::QueuedConnection);
            break;
        default:
            break;
        }
    }
    return QScrollArea::eventFilter(watched, event);
}

void FormScrollArea::fitWidth()
{
    if (QWidget* form = widget())
        setMinimumWidth(form->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width());
}

} // namespace attnlab

#include "views/sessionview.h"

#include "session/session.h"
#include "widgets/projectiontype.h"

#include <qcustomplot.h>

#include <QEvent>

namespace attnlab {

SessionView::SessionView(Session* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    connect(session, &Session::traceChanged, this, &SessionView::requestRefresh);
}

QList<QCustomPlot*> SessionView::exportedPlots() const
{
    return findChildren<QCustomPlot*>();
}

void SessionView::requestRefresh()
{
    // Hidden while its window is up (another page of the stage stack, a closed tab): wait.
    const bool windowUp = window() != this && window()->isVisible();
    if (windowUp && !isVisible()) {
        m_pending = true;
        return;
    }
    m_pending = false;
    refresh();
}

void SessionView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_pending) {
        m_pending = false;
        refresh();
    }
}

void SessionView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    switch (event->type()) {
    case QEvent::FontChange:
        applyFonts();
        break;
    case QEvent::PaletteChange:
        applyPalette();
        break;
    case QEvent::LanguageChange:
        retranslate();
        requestRefresh(); // the titles, legends and captions hold numbers and names
        break;
    default:
        break;
    }
}

bool SessionView::event(QEvent* event)
{
    if (event->type() == projectionChangeEvent()) {
        requestRefresh();
        return true;
    }
    return QWidget::event(event);
}

} // namespace attnlab

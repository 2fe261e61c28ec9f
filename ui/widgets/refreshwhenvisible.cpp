#include "widgets/refreshwhenvisible.h"

#include <QEvent>
#include <QWidget>

namespace attnlab {

RefreshWhenVisible::RefreshWhenVisible(QWidget* view, std::function<void()> refresh)
    : QObject(view)
    , m_view(view)
    , m_refresh(std::move(refresh))
{
    view->installEventFilter(this);
}

void RefreshWhenVisible::request()
{
    const bool windowUp = m_view->window() != m_view && m_view->window()->isVisible();
    if (windowUp && !m_view->isVisible()) {
        m_pending = true;
        return;
    }
    m_pending = false;
    m_refresh();
}

bool RefreshWhenVisible::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view && event->type() == QEvent::Show && m_pending) {
        m_pending = false;
        m_refresh();
    }
    return QObject::eventFilter(watched, event);
}

} // namespace attnlab

#include "shell/focusring.h"

#include <QApplication>
#include <QEvent>
#include <QFocusEvent>
#include <QPainter>
#include <QPainterPath>
#include <QRegion>

namespace attnlab {

namespace {

constexpr int kWidth = 2; ///< the ring's line, pixels
constexpr int kGap = 1;   ///< between the widget and the ring

} // namespace

FocusRing::FocusRing(QWidget* window)
    : QWidget(window)
    , m_window(window)
{
    setObjectName(QStringLiteral("FocusRing"));
    setAttribute(Qt::WA_TransparentForMouseEvents); // clicks go to what is under it
    setAttribute(Qt::WA_NoSystemBackground);
    setFocusPolicy(Qt::NoFocus);
    hide();
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) { follow(now); });
    qApp->installEventFilter(this); // the Tab keys' focus, to pass over hidden panels
}

FocusRing::~FocusRing()
{
    qApp->removeEventFilter(this);
}

void FocusRing::passHidden(QWidget* w, bool forward)
{
    if (!w || QApplication::focusWidget() != w || !w->visibleRegion().isEmpty())
        return;
    for (QWidget* next = w;;) {
        next = forward ? next->nextInFocusChain() : next->previousInFocusChain();
        if (!next || next == w)
            return;
        if (next->isEnabled() && next->isVisible() && (next->focusPolicy() & Qt::TabFocus) && !next->focusProxy() && ringable(next)
            && !next->visibleRegion().isEmpty()) {
            next->setFocus(forward ? Qt::TabFocusReason : Qt::BacktabFocusReason);
            return;
        }
    }
}

void FocusRing::setSuppressed(bool on)
{
    m_suppressed = on;
    follow(QApplication::focusWidget());
}

bool FocusRing::ringable(const QWidget* w) const
{
    if (!w || w == m_window || !(w->focusPolicy() & Qt::TabFocus) || !m_window->isAncestorOf(w))
        return false;
    return w->window() == m_window; // a floating dock is a window of its own
}

void FocusRing::follow(QWidget* focus)
{
    for (const QPointer<QWidget>& w : std::as_const(m_watched)) {
        if (w)
            w->removeEventFilter(this);
    }
    m_watched.clear();
    m_target = !m_suppressed && ringable(focus) ? focus : nullptr;
    if (!m_target) {
        hide();
        return;
    }
    // The target moves when any of its parents moves or changes size (a dock, a scroll area).
    for (QWidget* w = m_target; w && w != m_window; w = w->parentWidget()) {
        w->installEventFilter(this);
        m_watched << w;
    }
    place();
}

void FocusRing::place()
{
    if (!m_target || !m_target->isVisible()) {
        hide();
        return;
    }
    const int out = kWidth + kGap;
    const QRect box = QRect(m_target->mapTo(m_window, QPoint(0, 0)), m_target->size()).adjusted(-out, -out, out, out);
    // Only inside what is shown of the widget's parents (a field scrolled half out of its dock),
    // and the ring's own width beyond them: a view that fills its parent still gets its ring.
    QRect visible = m_window->rect();
    for (QWidget* p = m_target->parentWidget(); p && p != m_window; p = p->parentWidget())
        visible &= QRect(p->mapTo(m_window, QPoint(0, 0)), p->size()).adjusted(-out, -out, out, out);
    setGeometry(box & visible);
    // Only the ring itself covers the window: the widget inside stays visible and clickable.
    const QRect local = box.translated(-pos());
    setMask(QRegion(local).subtracted(QRegion(local.adjusted(kWidth, kWidth, -kWidth, -kWidth))));
    raise();
    show();
    update();
}

bool FocusRing::eventFilter(QObject* watched, QEvent* event)
{
    switch (event->type()) {
    case QEvent::FocusIn: {
        const Qt::FocusReason reason = static_cast<QFocusEvent*>(event)->reason();
        auto* w = qobject_cast<QWidget*>(watched);
        if ((reason == Qt::TabFocusReason || reason == Qt::BacktabFocusReason) && ringable(w)) {
            // Later: a scroll area scrolls its field into view after giving it the focus.
            QMetaObject::invokeMethod(
                this, [this, target = QPointer<QWidget>(w), forward = reason == Qt::TabFocusReason] { passHidden(target, forward); },
                Qt::QueuedConnection);
        }
        break;
    }
    case QEvent::Move:
    case QEvent::Resize:
    case QEvent::Show:
    case QEvent::Hide:
        if (watched == m_target || m_watched.contains(qobject_cast<QWidget*>(watched)))
            place();
        break;
    default:
        break;
    }
    return QWidget::eventFilter(watched, event);
}

void FocusRing::paintEvent(QPaintEvent*)
{
    if (!m_target)
        return;
    QPainter p(this);
    const int out = kWidth + kGap;
    const QRect box = QRect(m_target->mapTo(m_window, QPoint(0, 0)), m_target->size()).adjusted(-out, -out, out, out).translated(-pos());
    QPen pen(palette().color(QPalette::Highlight), kWidth);
    pen.setJoinStyle(Qt::MiterJoin);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    const qreal half = kWidth / 2.0;
    p.drawRect(QRectF(box).adjusted(half, half, -half, -half));
}

} // namespace attnlab

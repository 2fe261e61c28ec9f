#include "widgets/computingindicator.h"

#include "session/session.h"

#include <QEvent>

namespace attnlab {

ComputingIndicator::ComputingIndicator(Session* session, QWidget* parent)
    : QLabel(parent)
    , m_session(session)
{
    setObjectName(QStringLiteral("computingIndicator"));
    setEnabled(false); // the palette's disabled text: quiet, never a warning colour
    m_delay.setSingleShot(true);
    m_delay.setInterval(kDelayMs);
    connect(&m_delay, &QTimer::timeout, this, [this] { setVisible(m_session->isComputing()); });
    connect(session, &Session::computingChanged, this, &ComputingIndicator::follow);
    retranslate();
    setVisible(false);
}

void ComputingIndicator::follow(bool computing)
{
    if (computing) {
        if (isHidden() && !m_delay.isActive())
            m_delay.start();
        return;
    }
    m_delay.stop();
    setVisible(false);
}

void ComputingIndicator::retranslate()
{
    setText(tr("Computing\u2026"));
    setToolTip(tr("The views show the last result until the new one is computed."));
}

void ComputingIndicator::changeEvent(QEvent* event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

} // namespace attnlab

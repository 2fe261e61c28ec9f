#include "widgets/errorbanner.h"

#include "session/session.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace attnlab {

ErrorBanner::ErrorBanner(Session* session, QWidget* parent)
    : QFrame(parent)
    , m_session(session)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
    , m_close(new QToolButton(this))
{
    setObjectName(QStringLiteral("ErrorBanner"));
    setFrameShape(QFrame::StyledPanel);
    setStyleSheet(QStringLiteral("#ErrorBanner { background: #fdecee; border: 1px solid #b00020; border-radius: 4px; }"
                                 "#ErrorBanner QLabel { color: #8c0019; font-weight: bold; }"));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(8, 4, 4, 4);
    // A drawn icon, not a symbol character: a font without the glyph would show an empty box.
    const int size = fontMetrics().height();
    m_icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxCritical).pixmap(size, size));
    row->addWidget(m_icon, 0, Qt::AlignTop);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row->addWidget(m_text, 1);
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setToolTip(tr("Close"));
    connect(m_close, &QToolButton::clicked, this, &ErrorBanner::dismiss);
    row->addWidget(m_close, 0, Qt::AlignTop);
    setVisible(false);

    connect(session, &Session::errorOccurred, this, &ErrorBanner::sessionFailed);
    connect(session, &Session::traceChanged, this, &ErrorBanner::sessionSucceeded);
}

void ErrorBanner::showFileError(const QString& message)
{
    showText(message, false);
}

QString ErrorBanner::text() const
{
    return isHidden() ? QString() : m_text->text();
}

void ErrorBanner::showText(const QString& message, bool fromSession)
{
    m_text->setText(message);
    m_fromSession = fromSession;
    setVisible(true);
}

void ErrorBanner::sessionFailed()
{
    showText(m_session->error() + QLatin1Char('\n') + tr("The last result is still shown."), true);
}

void ErrorBanner::sessionSucceeded()
{
    if (m_fromSession)
        dismiss();
}

void ErrorBanner::dismiss()
{
    m_text->clear();
    m_fromSession = false;
    hide();
}

void ErrorBanner::changeEvent(QEvent* event)
{
    QFrame::changeEvent(event);
    if (event->type() != QEvent::LanguageChange)
        return;
    m_close->setToolTip(tr("Close"));
    // A computation's error is written again in the new language.
    if (m_fromSession && !isHidden() && !m_session->error().isEmpty())
        sessionFailed();
}

} // namespace attnlab

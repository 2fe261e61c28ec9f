#include "views/captionedview.h"

#include "widgets/projectiontype.h"

#include <QLabel>
#include <QVBoxLayout>

namespace attnlab {

CaptionedView::CaptionedView(Session* session, QWidget* parent)
    : SessionView(session, parent)
    , m_caption(new QLabel(this))
    , m_message(new QLabel(this))
    , m_content(new QWidget(this))
{
    auto* root = new QVBoxLayout(this);
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::PlainText);
    root->addWidget(m_caption);
    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::PlainText);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setVisible(false);
    root->addWidget(m_message, 1);
    root->addWidget(m_content, 1);
}

void CaptionedView::setCaption(const QString& text)
{
    m_caption->setText(isProjected(window()) ? text.section(QLatin1Char('\n'), 0, 0) : text);
}

void CaptionedView::showMessage(const QString& text)
{
    m_message->setText(text);
    m_message->setVisible(true);
    m_caption->setVisible(false);
    m_content->setVisible(false);
}

void CaptionedView::showContent()
{
    m_message->setVisible(false);
    m_caption->setVisible(true);
    m_content->setVisible(true);
}

} // namespace attnlab

#include "widgets/segmentbox.h"

#include "session/session.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTimer>

namespace attnlab {

SegmentBox::SegmentBox(Session* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_label(new QLabel(this))
    , m_edit(new QLineEdit(this))
    , m_debounce(new QTimer(this))
{
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_label);
    row->addWidget(m_edit, 1);
    m_label->setBuddy(m_edit);
    m_edit->setClearButtonEnabled(true);
    m_edit->setMaxLength(100000);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150);
    connect(m_edit, &QLineEdit::textEdited, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, [this] { m_session->setSegmentB(m_edit->text()); });
    connect(m_edit, &QLineEdit::returnPressed, this, [this] {
        m_debounce->stop();
        m_session->setSegmentB(m_edit->text());
    });
    connect(session, &Session::traceChanged, this, &SegmentBox::follow);
    connect(session, &Session::inputChanged, this, &SegmentBox::follow);
    retranslate();
    follow();
}

void SegmentBox::follow()
{
    setVisible(m_session->readsSegmentB());
    const QString b = m_session->segmentB().value_or(QString());
    if (m_edit->text() != b && !m_debounce->isActive())
        m_edit->setText(b);
}

void SegmentBox::retranslate()
{
    m_label->setText(tr("Sentence &B:"));
    m_edit->setPlaceholderText(tr("Optional second sentence: [CLS] A [SEP] B [SEP]"));
    m_edit->setToolTip(tr("BERT reads one or two sentences. Its tokens get segment (token type) id 1; the first "
                          "sentence's, up to and including the first [SEP], get 0."));
}

void SegmentBox::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace attnlab

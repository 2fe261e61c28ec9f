#include "widgets/warningline.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>

namespace attnlab {

WarningLine::WarningLine(QWidget* parent)
    : QWidget(parent)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
{
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    const int size = fontMetrics().height();
    m_icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(size, size));
    row->addWidget(m_icon);
    m_text->setStyleSheet(QStringLiteral("color: #8a5300;"));
    m_text->setTextFormat(Qt::PlainText);
    // As wide as the status bar allows, never wider: the window does not grow for a warning.
    m_text->setMinimumWidth(1);
    m_text->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    row->addWidget(m_text, 1);
    setVisible(false);
}

void WarningLine::setWarnings(const QStringList& warnings)
{
    m_warnings = warnings;
    setToolTip(warnings.join(QLatin1Char('\n')));
    setVisible(!warnings.isEmpty());
    elide();
}

QString WarningLine::shownText() const
{
    return m_text->text();
}

void WarningLine::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    elide();
}

void WarningLine::elide()
{
    // One line: the warnings one after the other, cut with "…" where the room ends.
    const QString all = m_warnings.join(QStringLiteral(" \u00B7 "));
    m_text->setText(m_text->fontMetrics().elidedText(all, Qt::ElideRight, std::max(m_text->width(), 1)));
}

} // namespace attnlab

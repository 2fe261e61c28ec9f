#include "shell/aboutdialog.h"

#include <Eigen/Core>
#include <qcustomplot.h>

#include <QDialogButtonBox>
#include <QLabel>
#include <QVBoxLayout>

#ifndef ATTNLAB_VERSION
#error "ATTNLAB_VERSION comes from CMake's project() (ui/CMakeLists.txt)"
#endif
#ifndef ATTNLAB_LICENSE
#define ATTNLAB_LICENSE ""
#endif

namespace attnlab {

AboutDialog::AboutDialog(QWidget* parent)
    : QDialog(parent)
    , m_text(new QLabel(this))
{
    setObjectName(QStringLiteral("AboutDialog"));
    auto* layout = new QVBoxLayout(this);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_text->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_text->setOpenExternalLinks(true);
    m_text->setMinimumWidth(420);
    layout->addWidget(m_text);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    retranslate();
}

QString AboutDialog::version()
{
    return QStringLiteral(ATTNLAB_VERSION);
}

QString AboutDialog::text() const
{
    return m_text->text();
}

void AboutDialog::retranslate()
{
    setWindowTitle(tr("About Attention Lab"));
    const QString eigen = QStringLiteral("%1.%2.%3").arg(EIGEN_WORLD_VERSION).arg(EIGEN_MAJOR_VERSION).arg(EIGEN_MINOR_VERSION);
    const QString own = QStringLiteral(ATTNLAB_LICENSE);
    // The licence is chosen in CMake (ATTNLAB_LICENSE, an SPDX id); until then, say so.
    const QString licence = own.isEmpty() ? tr("Attention Lab's own licence has not been chosen yet.")
                                          : tr("Attention Lab is licensed under %1.").arg(own.toHtmlEscaped());
    const QString lines[] = {
        QStringLiteral("<h2>%1 %2</h2>").arg(tr("Attention Lab"), version()),
        QStringLiteral("<p>%1</p>").arg(tr("See every stage of Transformer attention, live: type a sentence and step from the "
                                            "tokens to the output.")),
        QStringLiteral("<p>%1</p>").arg(tr("Qt %1 (built with %2) \u00B7 Eigen %3 \u00B7 QCustomPlot %4")
                                             .arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR), eigen,
                                                  QStringLiteral(QCUSTOMPLOT_VERSION_STR))),
        QStringLiteral("<p>%1 %2</p>").arg(licence, tr("It uses Qt (LGPL-3.0), Eigen (MPL-2.0) and QCustomPlot (GPL-3.0).")),
    };
    QString html;
    for (const QString& l : lines)
        html += l;
    m_text->setText(html);
}

void AboutDialog::changeEvent(QEvent* event)
{
    QDialog::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

} // namespace attnlab

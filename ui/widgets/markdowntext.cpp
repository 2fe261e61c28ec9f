#include "widgets/markdowntext.h"

#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>

namespace attnlab {

void followDefaultSize(QTextDocument* document)
{
    QTextCursor cursor(document);
    cursor.beginEditBlock();
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            QTextCharFormat format = fragment.charFormat();
            if (!format.hasProperty(QTextFormat::FontPointSize) && !format.hasProperty(QTextFormat::FontPixelSize))
                continue;
            format.clearProperty(QTextFormat::FontPointSize);
            format.clearProperty(QTextFormat::FontPixelSize);
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(format);
        }
    }
    cursor.endEditBlock();
}

void setMarkdownText(QTextBrowser* browser, const QString& markdown)
{
    browser->setMarkdown(markdown);
    followDefaultSize(browser->document());
}

} // namespace attnlab

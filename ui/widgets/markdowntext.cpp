#include "widgets/markdowntext.h"

#include <QFont>
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

void flattenHeadings(QTextDocument* document)
{
    QTextCursor cursor(document);
    cursor.beginEditBlock();
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() == 0)
            continue;
        cursor.setPosition(block.position());
        cursor.setPosition(block.position() + block.length() - 1, QTextCursor::KeepAnchor);
        QTextCharFormat format;
        format.setProperty(QTextFormat::FontSizeAdjustment, 0);
        format.setFontWeight(QFont::Bold);
        cursor.mergeCharFormat(format);
    }
    cursor.endEditBlock();
}

namespace {

/// A line that opens or closes a fenced code block: ``` or ~~~ after at most 3 spaces.
bool isFence(QStringView line)
{
    qsizetype i = 0;
    while (i < line.size() && i < 3 && line[i] == u' ')
        ++i;
    const QStringView rest = line.mid(i);
    return rest.startsWith(u"```") || rest.startsWith(u"~~~");
}

/// Whether a zero-width space may go before `c` (after `previous`) without splitting a character
/// (a surrogate pair) or taking a mark (an accent) from its letter.
bool mayBreakBefore(QChar previous, QChar c)
{
    const bool mark = c.category() == QChar::Mark_NonSpacing || c.category() == QChar::Mark_SpacingCombining
        || c.category() == QChar::Mark_Enclosing;
    return !c.isLowSurrogate() && !previous.isHighSurrogate() && !mark && c != u'\u200D' && previous != u'\u200D';
}

} // namespace

QString withLineBreaks(const QString& markdown)
{
    constexpr QChar kBreak(0x200B);
    QString out;
    out.reserve(markdown.size() + markdown.size() / kLongestRun + 1);
    bool fenced = false;
    qsizetype lineStart = 0;
    while (lineStart < markdown.size()) {
        qsizetype lineEnd = markdown.indexOf(u'\n', lineStart);
        lineEnd = lineEnd < 0 ? markdown.size() : lineEnd + 1;
        const QStringView line = QStringView(markdown).mid(lineStart, lineEnd - lineStart);
        lineStart = lineEnd;
        const bool fence = isFence(line);
        fenced = fenced != fence;
        if (fenced || fence) { // code keeps its characters
            out += line;
            continue;
        }
        int run = 0;              // characters since the last place a line may break
        bool destination = false; // inside a link's "](…)"
        QChar previous;
        for (const QChar c : line) {
            if (c.isSpace() || c == kBreak) {
                run = 0;
            } else {
                const bool wasDestination = destination; // its closing ")" is no place either
                if (c == u'(' && previous == u']')
                    destination = true;
                else if (c == u')')
                    destination = false;
                const bool letters = previous.isLetterOrNumber() && c.isLetterOrNumber();
                if (!destination && !wasDestination && ((run >= kLongestRun && letters) || (run >= 4 * kLongestRun && mayBreakBefore(previous, c)))) {
                    out += kBreak;
                    run = 0;
                }
                ++run;
            }
            out += c;
            previous = c;
        }
    }
    return out;
}

void setMarkdownText(QTextBrowser* browser, const QString& markdown)
{
    browser->setMarkdown(withLineBreaks(markdown));
    followDefaultSize(browser->document());
}

} // namespace attnlab

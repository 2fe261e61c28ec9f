#pragma once
// Lesson text (Markdown) in a text browser, with inline code at the size of the text around it:
// Qt's Markdown reader gives code the system's fixed font at its own, small point size, which
// stayed small in presenter mode's large type.

class QString;
class QTextBrowser;
class QTextDocument;

namespace attnlab {

/// Sets `markdown` as the browser's text, every fragment's size left to the browser's font.
void setMarkdownText(QTextBrowser* browser, const QString& markdown);
/// Removes the fixed point sizes of `document`'s fragments (the code spans' among them), so
/// that every fragment follows the document's default font.
void followDefaultSize(QTextDocument* document);

} // namespace attnlab

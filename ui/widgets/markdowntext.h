#pragma once
// Lesson text (Markdown) in a text browser, with inline code at the size of the text around it:
// Qt's Markdown reader gives code the system's fixed font at its own, small point size, which
// stayed small in presenter mode's large type.

class QString;
class QTextBrowser;
class QTextDocument;

namespace attnlab {

/// Sets `markdown` as the browser's text (withLineBreaks), every fragment's size left to the
/// browser's font.
void setMarkdownText(QTextBrowser* browser, const QString& markdown);
/// `markdown` with a zero-width space (U+200B), where a line may break, after every
/// kLongestRun characters of a run that has nowhere to break (a word, a URL, a line of one
/// character): Qt lays out such a run in time that grows with the square of its length (a word
/// of 300 KB took minutes to draw), a run of bounded length in linear time. The breaks go
/// between two letters or digits, never inside Markdown's marks (after 4 × kLongestRun
/// characters without two letters in a row, between any two characters that are not half of one
/// or a mark on one), and never in a link's destination or a fenced code block; the text reads the same.
QString withLineBreaks(const QString& markdown);
inline constexpr int kLongestRun = 80;
/// Removes the fixed point sizes of `document`'s fragments (the code spans' among them), so
/// that every fragment follows the document's default font.
void followDefaultSize(QTextDocument* document);
/// Draws `document`'s headings at the size of the text around them (still bold): a caption
/// strip where a step's title is one line, not a line of twice the projected type.
void flattenHeadings(QTextDocument* document);

} // namespace attnlab

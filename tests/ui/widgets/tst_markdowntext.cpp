// Lesson text with inline code (issue 11 §3: in presenter mode the code in the lesson text was
// tiny): every fragment, code included, takes the browser's type, also after it grows.

#include "widgets/markdowntext.h"

#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QtTest>

using namespace attnlab;

namespace {

/// The point size each fragment of `browser` is drawn at, with its text.
QList<std::pair<QString, qreal>> fragmentSizes(QTextBrowser& browser)
{
    QList<std::pair<QString, qreal>> sizes;
    for (QTextBlock b = browser.document()->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it)
            sizes.append({it.fragment().text(), QFontInfo(it.fragment().charFormat().font()).pointSizeF()});
    return sizes;
}

/// The longest run of characters between two places a line may break (white space, U+200B).
int longestRun(const QString& text)
{
    int run = 0, longest = 0;
    for (const QChar c : text) {
        run = c.isSpace() || c == QChar(0x200B) ? 0 : run + 1;
        longest = std::max(longest, run);
    }
    return longest;
}

} // namespace

class TestMarkdownText : public QObject {
    Q_OBJECT
private slots:
    /// Runs Qt cannot break get a zero-width space every kLongestRun characters: the layout's
    /// work on them is then linear (a word of 300 KB took minutes); nothing else changes.
    void longRunsGetPlacesToBreak_data()
    {
        QTest::addColumn<QString>("markdown");
        QTest::addColumn<int>("longest"); // the longest run left
        QTest::newRow("a 300 KB word") << QStringLiteral("Before ") + QString(300'000, u'a') + QStringLiteral(" after.") << kLongestRun;
        QTest::newRow("words of 80 stay whole") << QString(80, u'b') + QLatin1Char(' ') + QString(80, u'c') << 80;
        QTest::newRow("a line of marks") << QString(5000, u'-') + QStringLiteral("x") << 4 * kLongestRun;
        QTest::newRow("Chinese") << QString(10'000, QChar(0x6CE8)) << kLongestRun;
        QTest::newRow("emoji (surrogate pairs)") << QString::fromUcs4(std::u32string(3000, U'\U0001F600').c_str()) << 4 * kLongestRun + 1;
        QTest::newRow("short text") << QStringLiteral("Scores `S = Q·Kᵀ` are divided by **√d_k**.") << 9; // "**√d_k**."
    }
    void longRunsGetPlacesToBreak()
    {
        QFETCH(QString, markdown);
        QFETCH(int, longest);
        const QString broken = withLineBreaks(markdown);
        QVERIFY2(longestRun(broken) <= longest, qPrintable(QString::number(longestRun(broken))));
        QCOMPARE(QString(broken).remove(QChar(0x200B)), markdown); // the same text
        for (qsizetype i = 0; i < broken.size(); ++i) // no character cut in two
            QVERIFY(!broken[i].isHighSurrogate() || (i + 1 < broken.size() && broken[i + 1].isLowSurrogate()));
        if (markdown.size() < 100)
            QCOMPARE(broken, markdown);
    }

    /// Markdown's marks, a link's destination and a code block keep their characters.
    void markdownIsKept()
    {
        const QString word(500, u'w');
        QTextDocument bold;
        bold.setMarkdown(withLineBreaks(QStringLiteral("**") + word + QStringLiteral("**")));
        QVERIFY(bold.begin().begin().fragment().charFormat().font().bold());
        QTextDocument link;
        const QString url = QStringLiteral("https://example.org/") + word;
        link.setMarkdown(withLineBreaks(QStringLiteral("[") + word + QStringLiteral("](") + url + QStringLiteral(")")));
        QCOMPARE(link.begin().begin().fragment().charFormat().anchorHref(), url);
        const QString code = QStringLiteral("```\n") + word + QStringLiteral("\n```\n");
        QCOMPARE(withLineBreaks(code), code);
    }

    void inlineCodeIsAsLargeAsTheText()
    {
        for (const qreal size : {10.0, 26.0}) {
            QTextBrowser browser;
            QFont f = browser.font();
            f.setPointSizeF(size);
            browser.setFont(f);
            setMarkdownText(&browser, QStringLiteral("Scores `S = Q·Kᵀ` are divided by `√d_k`."));
            const auto sizes = fragmentSizes(browser);
            QVERIFY(sizes.size() >= 3);
            bool sawCode = false;
            for (const auto& [text, pt] : sizes) {
                QVERIFY2(qAbs(pt - size) < 0.6, qPrintable(QStringLiteral("%1: %2 pt, text %3 pt").arg(text).arg(pt).arg(size)));
                sawCode = sawCode || text.contains(QStringLiteral("Q·Kᵀ"));
            }
            QVERIFY(sawCode);
        }
    }

    void theTextFollowsALaterFontChange()
    {
        QTextBrowser browser;
        setMarkdownText(&browser, QStringLiteral("Code `x·Wᵀ + b` in a sentence."));
        QFont big = browser.font();
        big.setPointSizeF(30);
        browser.setFont(big); // presenter mode's type, after the text was set
        for (const auto& [text, pt] : fragmentSizes(browser)) {
            // The document's default font is the browser's: fragments without a size of their own follow it.
            QFont used = browser.document()->defaultFont();
            QVERIFY2(qAbs(QFontInfo(used).pointSizeF() - 30) < 0.6, qPrintable(text));
            Q_UNUSED(pt);
        }
        for (QTextBlock b = browser.document()->begin(); b.isValid(); b = b.next())
            for (auto it = b.begin(); !it.atEnd(); ++it)
                QVERIFY(!it.fragment().charFormat().hasProperty(QTextFormat::FontPointSize));
    }
};

QTEST_MAIN(TestMarkdownText)
#include "tst_markdowntext.moc"

// Lesson text with inline code (issue 11 §3: in presenter mode the code in the lesson text was
// tiny): every fragment, code included, takes the browser's type, also after it grows.

#include "widgets/markdowntext.h"

#include <QTextBlock>
#include <QTextBrowser>
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

} // namespace

class TestMarkdownText : public QObject {
    Q_OBJECT
private slots:
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

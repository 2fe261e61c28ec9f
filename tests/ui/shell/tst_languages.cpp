// English and Simplified Chinese at run time: the translation loads, the studio speaks it, and
// Chinese glyphs come from the Simplified Chinese face.

#include "shell/languages.h"
#include "shell/mainwindow.h"
#include "session/session.h"
#include "session/stages.h"

#include <QFontDatabase>
#include <QFontInfo>
#include <QFontMetrics>
#include <QMenuBar>
#include <QtTest>

using namespace attnlab;

class TestLanguages : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        LanguageManager::useSimplifiedChineseGlyphs();
    }

    void switchesAtRunTime()
    {
        LanguageManager languages;
        QCOMPARE(languages.current(), QStringLiteral("en"));
        QCOMPARE(stepName(QStringLiteral("weights")), QStringLiteral("Softmax \u2192 weights A"));
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        QCOMPARE(stepName(QStringLiteral("weights")), QStringLiteral("Softmax \u2192 权重 A"));
        {
            Session s;
            MainWindow w(&s);
            QCOMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("文件(&F)"));
            QCOMPARE(w.windowTitle(), QStringLiteral("Attention Lab"));
        }
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
        QCOMPARE(stepName(QStringLiteral("weights")), QStringLiteral("Softmax \u2192 weights A"));
        QVERIFY(!languages.setLanguage(QStringLiteral("klingon")));
        QCOMPARE(languages.current(), QStringLiteral("en"));
    }

    void everyMessageIsTranslated()
    {
        // The compiled catalogue holds a translation for the strings of each part of the UI.
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        for (const char* id : {"tokens", "embedding", "positional_encoding", "input", "q", "k", "v", "scores", "scaled", "mask",
                               "masked_scores", "weights", "head_output", "concat", "output"}) {
            const QString name = stepName(QString::fromLatin1(id));
            bool hasHan = false;
            for (const QChar c : name)
                hasHan = hasHan || (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF);
            QVERIFY2(hasHan, qPrintable(name));
            QVERIFY(!stepExplanation(QString::fromLatin1(id)).isEmpty());
        }
        languages.setLanguage(QStringLiteral("en"));
    }

    void chineseRendersWithASimplifiedChineseFont()
    {
        const QFont f = QApplication::font();
        QVERIFY(f.families().contains(QStringLiteral("Noto Sans CJK SC")));
        QVERIFY(QFontDatabase::families().contains(QStringLiteral("Noto Sans CJK SC")));
        QFont sc(QStringLiteral("Noto Sans CJK SC"));
        const QFontMetrics fm(sc);
        for (const char32_t c : {U'狗', U'咬', U'了', U'人', U'骨', U'直'})
            QVERIFY(fm.inFontUcs4(c));
    }
};

QTEST_MAIN(TestLanguages)
#include "tst_languages.moc"

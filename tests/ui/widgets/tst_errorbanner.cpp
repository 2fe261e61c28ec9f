// The error banner above the views: a computation's error in the interface's language, gone
// after the next success; a file's error until it is closed; the previous result stays.
#include "widgets/errorbanner.h"

#include "session/session.h"
#include "shell/languages.h"

#include <QToolButton>
#include <QtTest>

using namespace attnlab;

class TestErrorBanner : public QObject {
    Q_OBJECT
private slots:
    void aComputationsErrorUntilTheNextSuccess()
    {
        Session s;
        QWidget window;
        auto& b = *new ErrorBanner(&s, &window);
        window.show();
        QVERIFY(b.text().isEmpty() && b.isHidden());
        const auto before = s.trace();
        s.setSentence(QStringLiteral("   "));
        QVERIFY(!b.isHidden());
        QVERIFY2(b.text().startsWith(QStringLiteral("the sentence has no tokens: type at least one word")), qPrintable(b.text()));
        QCOMPARE(s.trace(), before); // the last result is kept
        s.setSentence(QStringLiteral("a b"));
        QVERIFY(b.isHidden());
        QVERIFY(b.text().isEmpty());
    }

    void writtenAgainInTheNewLanguage()
    {
        LanguageManager languages;
        Session s;
        QWidget window;
        auto& b = *new ErrorBanner(&s, &window);
        window.show();
        s.setSentence(QString());
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        QCoreApplication::processEvents(); // the LanguageChange event
        QCOMPARE(b.text(), QStringLiteral("句子没有词元：请至少输入一个词\n仍显示上一次的结果。"));
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
        QCoreApplication::processEvents();
        QVERIFY(b.text().startsWith(QStringLiteral("the sentence has no tokens")));
    }

    void aFilesErrorUntilClosed()
    {
        Session s;
        QWidget window;
        auto& b = *new ErrorBanner(&s, &window);
        window.show();
        b.showFileError(QStringLiteral("cannot open 'x.safetensors': no such file"));
        QCOMPARE(b.text(), QStringLiteral("cannot open 'x.safetensors': no such file"));
        s.setSentence(QStringLiteral("another sentence")); // a success does not hide a file's error
        QVERIFY(!b.isHidden());
        auto* close = b.findChild<QToolButton*>();
        QVERIFY(close);
        close->click();
        QVERIFY(b.isHidden());
    }
};

QTEST_MAIN(TestErrorBanner)
#include "tst_errorbanner.moc"

// The status bar says one thing at a time (issue 27 §5): after a paste over max_tokens the
// tokenizer's warning and the start's hint ("Press → …") were drawn over each other. A message
// (a file's result, for its few seconds) hides the warnings until it goes; the hint, which stays
// until the first step, gives way to a warning at once. The bar itself stays, so the view never
// moves (issue 28 §3).

#include "session/session.h"
#include "shell/mainwindow.h"
#include "widgets/warningline.h"

#include <QApplication>
#include <QClipboard>
#include <QLineEdit>
#include <QStandardPaths>
#include <QStatusBar>
#include <QtTest>

using namespace attnlab;

class TestStatusBar : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // no real settings, recent files or last session
    }

    void aPasteOverMaxTokensShowsOneMessageAtATime()
    {
        Session session;
        MainWindow window(&session);
        window.show();
        window.startAtFirstStage();
        QStatusBar* bar = window.statusBar();
        QVERIFY(!bar->currentMessage().isEmpty()); // the hint
        QVERIFY(!window.warningLine()->isVisible());

        // Paste more words than max_tokens into the sentence box.
        QApplication::clipboard()->setText(QStringLiteral("word ").repeated(session.config().maxTokens + 20));
        window.sentenceEdit()->setFocus();
        window.sentenceEdit()->selectAll();
        QTest::keyClick(window.sentenceEdit(), Qt::Key_V, Qt::ControlModifier);
        QTRY_VERIFY(!window.warningLine()->warnings().isEmpty());
        QVERIFY2(window.warningLine()->warnings().first().contains(QStringLiteral("max_tokens")),
                 qPrintable(window.warningLine()->warnings().first()));
        // The warning alone: the hint gave way.
        QVERIFY(window.warningLine()->isVisible());
        QCOMPARE(bar->currentMessage(), QString());
        QVERIFY(bar->isVisible());

        // A file's message takes the bar for its few seconds, then the warning comes back.
        QVERIFY(!window.openSession(QStringLiteral("/nonexistent/folder/x.attnlab.json")));
        QVERIFY(!bar->currentMessage().isEmpty());
        QVERIFY(!window.warningLine()->isVisible());
        bar->clearMessage(); // its time is up
        QVERIFY(window.warningLine()->isVisible());
        QVERIFY(bar->isVisible());

        // A sentence within max_tokens: no warning; the bar stays, empty.
        window.sentenceEdit()->selectAll();
        QTest::keyClicks(window.sentenceEdit(), QStringLiteral("a short one"));
        QTRY_VERIFY(window.warningLine()->warnings().isEmpty());
        QVERIFY(!window.warningLine()->isVisible());
        QVERIFY(bar->isVisible());
    }

    // Issue 28 §3: a stale message clears when its cause is gone. A refused input is repeated in
    // the status bar; once the user fixes it, the message goes at once (not 8 s later, beside
    // the good result).
    void anInputErrorsMessageGoesWhenTheInputIsFixed()
    {
        Session session;
        MainWindow window(&session);
        window.show();
        QStatusBar* bar = window.statusBar();
        session.setSentence(QStringLiteral("   "));
        QVERIFY2(bar->currentMessage().contains(QStringLiteral("no tokens")), qPrintable(bar->currentMessage()));
        QVERIFY(bar->isVisible());
        session.setSentence(QStringLiteral("fixed again"));
        QVERIFY2(bar->currentMessage().isEmpty(), qPrintable(bar->currentMessage()));
        // Another message (a file saved) is not an input error: it keeps its seconds.
        bar->showMessage(QStringLiteral("Saved."), 8000);
        session.setSentence(QStringLiteral("fixed once more"));
        QCOMPARE(bar->currentMessage(), QStringLiteral("Saved."));
    }

    // Issue 28 §3: the status bar's coming and going shifted the whole view by its height, under
    // the pointer and on the projector. It stays (empty when it has nothing to say), and the view
    // keeps its place and size through a message, a warning and their going; presenter mode
    // projects no bar.
    void theViewDoesNotMoveWhenAMessageComesAndGoes()
    {
        Session session;
        MainWindow window(&session);
        window.resize(1100, 760);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QStatusBar* bar = window.statusBar();
        const auto viewRect = [&] {
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            QWidget* view = window.centralWidget();
            return QRect(view->mapTo(&window, QPoint(0, 0)), view->size());
        };
        const QRect quiet = viewRect();
        QVERIFY(bar->isVisible());
        bar->showMessage(QStringLiteral("Saved."));
        QCOMPARE(viewRect(), quiet);
        bar->clearMessage();
        QCOMPARE(viewRect(), quiet);
        session.setSentence(QStringLiteral("word ").repeated(session.config().maxTokens + 5));
        QTRY_VERIFY(window.warningLine()->isVisible());
        QCOMPARE(viewRect(), quiet);
        session.setSentence(QStringLiteral("a short one"));
        QTRY_VERIFY(!window.warningLine()->isVisible());
        QCOMPARE(viewRect(), quiet);
        QVERIFY(bar->isVisible());

        window.setPresenterMode(true);
        QTRY_VERIFY(!bar->isVisible());
        bar->showMessage(QStringLiteral("Saved."));
        QVERIFY(!bar->isVisible());
        window.setPresenterMode(false);
        QTRY_VERIFY(bar->isVisible());
    }
};

QTEST_MAIN(TestStatusBar)
#include "tst_statusbar.moc"

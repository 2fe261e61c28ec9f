// SIGTERM, SIGINT and SIGHUP close the window as its × does (ui/shell/quitsignals.h): its
// closeEvent runs, so the last session is saved and the autosave removed.

#include "shell/quitsignals.h"

#include <QCloseEvent>
#include <QtTest>
#include <QWidget>

#include <csignal>

namespace {

class Window : public QWidget {
public:
    int closes = 0;

protected:
    void closeEvent(QCloseEvent* event) override
    {
        ++closes;
        event->accept();
    }
};

} // namespace

class TestQuitSignals : public QObject {
    Q_OBJECT
private slots:
    void signalsCloseTheWindow_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGTERM") << SIGTERM;
        QTest::newRow("SIGINT") << SIGINT;
        QTest::newRow("SIGHUP") << SIGHUP;
    }

    void signalsCloseTheWindow()
    {
        QFETCH(int, signal);
        Window w;
        w.show();
        QVERIFY(attnlab::closeOnQuitSignals(&w));
        QVERIFY(w.isVisible());
        std::raise(signal); // without the handler this would end the test program
        QTRY_COMPARE(w.closes, 1);
        QVERIFY(!w.isVisible());
    }
};

QTEST_MAIN(TestQuitSignals)
#include "tst_quitsignals.moc"

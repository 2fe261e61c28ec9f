// Quit signals sent to a real studio (attention-lab on an Xvfb server of the test's own) while a
// modal dialog is open (issue 27): the Restore prompt at start, Export view (Ctrl+E), Open session
// (Ctrl+O) and Open model (File ▸ Open model, Alt+F D), opened with real key presses (xdotool).
// Each used to abort with "double free or corruption" (the window, deleted on close, took its
// dialog with it while the dialog's exec() still ran). Now the studio ends normally, as after a
// click on ×: the last session saved, this run's autosave removed — except that the work a crash
// left, offered by the Restore prompt, stays to be offered again, since the user never answered.

#include "io/session_json.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sys/types.h>

namespace {

/// What a row opens before the signal.
enum class Dialog {
    Restore,
    Export,
    OpenSession,
    OpenModel,
};

/// The autosave folder of the studio run with this XDG_DATA_HOME (QStandardPaths' AppDataLocation
/// for organisation and application "Attention Lab").
QString autosaveFolder(const QString& dataHome)
{
    return dataHome + QStringLiteral("/Attention Lab/Attention Lab/autosave");
}

QStringList filesIn(const QString& folder, const QString& pattern)
{
    return QDir(folder).entryList({pattern}, QDir::Files);
}

} // namespace

class TestStudioSignals : public QObject {
    Q_OBJECT
private:
    QString m_xdotool;
    QProcess m_xvfb;
    QString m_display;

    /// Runs xdotool with `args`; its standard output, trimmed (empty when it failed).
    QString xdotool(const QStringList& args)
    {
        QProcess p;
        p.setProcessEnvironment(xEnvironment());
        p.start(m_xdotool, args);
        if (!p.waitForFinished(10000) || p.exitCode() != 0)
            return {};
        return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
    }

    QProcessEnvironment xEnvironment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DISPLAY"), m_display);
        return env;
    }

    /// The first visible window whose title is exactly `title`, or empty.
    QString window(const QString& title)
    {
        return xdotool({QStringLiteral("search"), QStringLiteral("--onlyvisible"), QStringLiteral("--name"),
                        QLatin1Char('^') + QRegularExpression::escape(title) + QLatin1Char('$')})
            .section(QLatin1Char('\n'), 0, 0);
    }

    /// The windows shown on the display.
    int visibleWindows()
    {
        return static_cast<int>(xdotool({QStringLiteral("search"), QStringLiteral("--onlyvisible"), QStringLiteral("--name"), QString()})
                                    .split(QLatin1Char('\n'), Qt::SkipEmptyParts)
                                    .size());
    }

    /// File ▸ Open model… as a user reaches it with the keyboard: Alt+F opens the menu; N (its
    /// mnemonic, which no other item of the menu has) triggers it.
    void openModelFromTheFileMenu()
    {
        const int before = visibleWindows();
        xdotool({QStringLiteral("key"), QStringLiteral("alt+f")});
        QTRY_VERIFY_WITH_TIMEOUT(visibleWindows() > before, 60000); // the menu is open
        xdotool({QStringLiteral("key"), QStringLiteral("n")});
    }

private slots:
    void initTestCase()
    {
        const QString xvfb = QStandardPaths::findExecutable(QStringLiteral("Xvfb"));
        m_xdotool = QStandardPaths::findExecutable(QStringLiteral("xdotool"));
        if (xvfb.isEmpty() || m_xdotool.isEmpty())
            QSKIP("needs Xvfb and xdotool (Debian: xvfb, xdotool) to drive a real studio");
        // A display of our own: Xvfb picks a free number and writes it on the descriptor given.
        m_xvfb.start(xvfb, {QStringLiteral("-displayfd"), QStringLiteral("1"), QStringLiteral("-screen"), QStringLiteral("0"),
                            QStringLiteral("1280x800x24"), QStringLiteral("-nolisten"), QStringLiteral("tcp"),
                            QStringLiteral("-noreset")}); // no reset (and no refused connections) when a client leaves
        QVERIFY(m_xvfb.waitForStarted(10000));
        QTRY_VERIFY_WITH_TIMEOUT(m_xvfb.canReadLine() || m_xvfb.state() != QProcess::Running, 30000);
        const QString number = QString::fromLatin1(m_xvfb.readLine()).trimmed();
        QVERIFY2(!number.isEmpty(), "Xvfb did not start");
        m_display = QLatin1Char(':') + number;
    }

    void cleanupTestCase()
    {
        if (m_xvfb.state() == QProcess::Running) {
            m_xvfb.terminate();
            m_xvfb.waitForFinished(10000);
        }
    }

    void quitsCleanlyWithADialogOpen_data()
    {
        QTest::addColumn<int>("dialogRow"); // a Dialog
        QTest::addColumn<int>("signal");
        QTest::addColumn<QString>("title");
        QTest::newRow("restore prompt, SIGTERM") << int(Dialog::Restore) << SIGTERM << QStringLiteral("Restore unsaved work?");
        QTest::newRow("export, SIGTERM") << int(Dialog::Export) << SIGTERM << QStringLiteral("Export view");
        QTest::newRow("open session, SIGTERM") << int(Dialog::OpenSession) << SIGTERM << QStringLiteral("Open session");
        QTest::newRow("open model, SIGTERM") << int(Dialog::OpenModel) << SIGTERM << QStringLiteral("Open model");
        QTest::newRow("export, SIGINT") << int(Dialog::Export) << SIGINT << QStringLiteral("Export view");
        QTest::newRow("open session, SIGHUP") << int(Dialog::OpenSession) << SIGHUP << QStringLiteral("Open session");
    }

    void quitsCleanlyWithADialogOpen()
    {
        QFETCH(int, dialogRow);
        const auto dialog = static_cast<Dialog>(dialogRow);
        QFETCH(int, signal);
        QFETCH(QString, title);
        QTemporaryDir home;
        QVERIFY(home.isValid());
        const QString data = home.filePath(QStringLiteral("data"));
        const QString autosave = autosaveFolder(data);
        const QString orphanMarker = autosave + QStringLiteral("/20260101-000000-000-1.running");
        const QString orphanSession = autosave + QStringLiteral("/20260101-000000-000-1.attnlab.json");
        if (dialog == Dialog::Restore) {
            // What a crashed run leaves: its marker, unlocked, and its last autosave.
            QVERIFY(QDir().mkpath(autosave));
            QFile marker(orphanMarker);
            QVERIFY(marker.open(QIODevice::WriteOnly));
            marker.close();
            attnlab::SessionFile left;
            left.sentence = "the work a crash left";
            QFile session(orphanSession);
            QVERIFY(session.open(QIODevice::WriteOnly));
            session.write(QByteArray::fromStdString(attnlab::sessionJson(left)));
            session.close();
        }
        QProcessEnvironment env = xEnvironment();
        env.insert(QStringLiteral("HOME"), home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), data);
        env.insert(QStringLiteral("XDG_CACHE_HOME"), home.filePath(QStringLiteral("cache")));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
        env.remove(QStringLiteral("QT_QPA_PLATFORMTHEME")); // Qt's own file dialogs, not a desktop's
        QProcess studio;
        studio.setProcessEnvironment(env);
        studio.start(QStringLiteral(ATTNLAB_GUI), {QStringLiteral("--language"), QStringLiteral("en")});
        QVERIFY(studio.waitForStarted(10000));

        if (dialog != Dialog::Restore) {
            // The window, with the keyboard's focus, then the keys a user presses.
            QString main;
            QTRY_VERIFY_WITH_TIMEOUT(!(main = window(QStringLiteral("Attention Lab"))).isEmpty(), 60000);
            xdotool({QStringLiteral("windowfocus"), QStringLiteral("--sync"), main});
            if (dialog == Dialog::Export)
                xdotool({QStringLiteral("key"), QStringLiteral("ctrl+e")});
            else if (dialog == Dialog::OpenSession)
                xdotool({QStringLiteral("key"), QStringLiteral("ctrl+o")});
            else
                openModelFromTheFileMenu();
        }
        QTRY_VERIFY_WITH_TIMEOUT(!window(title).isEmpty() || studio.state() != QProcess::Running, 60000);
        QVERIFY2(studio.state() == QProcess::Running, studio.readAllStandardError().constData());

        QCOMPARE(::kill(static_cast<pid_t>(studio.processId()), signal), 0);
        QVERIFY(studio.waitForFinished(60000));
        const QByteArray err = studio.readAllStandardError();
        QVERIFY2(!err.contains("double free") && !err.contains("corruption"), err.constData());
        QCOMPARE(studio.exitStatus(), QProcess::NormalExit);
        QCOMPARE(studio.exitCode(), 0);

        // As after ×: the session kept for the next start, this run's autosave gone.
        QVERIFY(QFileInfo::exists(data + QStringLiteral("/Attention Lab/Attention Lab/last-session.attnlab.json")));
        if (dialog == Dialog::Restore) {
            // Not answered: the crash's work is offered again at the next start.
            QCOMPARE(filesIn(autosave, QStringLiteral("*.running")), QStringList{QFileInfo(orphanMarker).fileName()});
            QVERIFY(QFileInfo::exists(orphanSession));
        } else {
            QCOMPARE(filesIn(autosave, QStringLiteral("*.running")), QStringList{});
        }
        QCOMPARE(filesIn(autosave, QStringLiteral("*.json")).size(), dialog == Dialog::Restore ? 1 : 0);
    }
};

QTEST_GUILESS_MAIN(TestStudioSignals)
#include "tst_studio_signals.moc"

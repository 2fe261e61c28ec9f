#pragma once
// Running attention-lab-cli from a test, as a user runs it (the ATTNLAB_CLI macro names the
// binary; tests/CMakeLists.txt defines it for every tst_cli* target).

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

#include <functional>

namespace attnlab::testing {

struct Run {
    int exitCode = -1;
    QProcess::ExitStatus status = QProcess::CrashExit;
    QByteArray out;
    QByteArray err;
};

/// ATTNLAB_PROGRESS_AFTER_MS for the CLI run by cli(): progress lines off by default. A test of
/// the progress lines sets it to "0" (every job reports from its start).
inline QString& cliProgressAfterMs()
{
    static QString ms = QStringLiteral("2000000000");
    return ms;
}

/// The CLI's environment as on a server: no DISPLAY, no WAYLAND_DISPLAY, no QT_QPA_PLATFORM.
/// Progress lines are off: the CLI prints them after 2 s of work, which a busy machine reaches
/// where an idle one does not, so a test expecting one error line would depend on the machine's
/// speed (whatever the environment the tests were started in says; cliProgressAfterMs()).
inline QProcessEnvironment cliEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    env.insert(QStringLiteral("ATTNLAB_PROGRESS_AFTER_MS"), cliProgressAfterMs());
    return env;
}

/// Runs the CLI in cliEnvironment(). `inChild`, when given, runs in the child before the CLI
/// starts (limits: setrlimit).
inline Run cli(const QStringList& args, const std::function<void()>& inChild = {})
{
    QProcess p;
    p.setProcessEnvironment(cliEnvironment());
    if (inChild)
        p.setChildProcessModifier(inChild);
    p.start(QStringLiteral(ATTNLAB_CLI), args);
    p.closeWriteChannel();
    if (!p.waitForFinished(120000))
        p.kill();
    return Run{p.exitCode(), p.exitStatus(), p.readAllStandardOutput(), p.readAllStandardError()};
}

inline QJsonObject json(const QByteArray& out)
{
    return QJsonDocument::fromJson(out).object();
}

/// The ids of a trace's stages, in order and without repeats.
inline QStringList stageIds(const QJsonObject& trace)
{
    QStringList ids;
    for (const auto& s : trace.value(QStringLiteral("stages")).toArray()) {
        const QString id = s.toObject().value(QStringLiteral("id")).toString();
        if (!ids.contains(id))
            ids << id;
    }
    return ids;
}

} // namespace attnlab::testing

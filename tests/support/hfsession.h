#pragma once
// A Session on one of the tiny Hugging Face folders of tests/reference/hf/, and waiting for the
// GPT-2 generation stepper: shared by the stepper's and the predictions view's tests.

#include "session/generationstepper.h"
#include "session/session.h"
#include "support/hf.h"

#include <QSignalSpy>
#include <QString>
#include <QtDebug>

namespace attnlab::testing {

/// tests/reference/hf/<name>.
inline QString hfFolder(const char* name)
{
    return QString::fromStdString(hfDir()) + QLatin1Char('/') + QString::fromUtf8(name);
}

/// Opens tests/reference/hf/<name> in `s` with `sentence`; false (with the reason printed) when it fails.
inline bool openHfFolder(Session& s, const char* name, const QString& sentence)
{
    s.setSentence(sentence);
    QString error;
    if (!s.importModel(hfFolder(name), &error)) {
        qWarning() << error;
        return false;
    }
    return true;
}

/// Waits until the stepper's run ends (at once when none runs); false after 10 s.
inline bool waitIdle(GenerationStepper* g)
{
    QSignalSpy done(g, &GenerationStepper::runningChanged);
    return !g->isRunning() || (done.wait(10000) && !g->isRunning());
}

} // namespace attnlab::testing

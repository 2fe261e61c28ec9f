#pragma once
// The File menu's actions over the studio's views and lesson player, as the main window has
// them, without the window: for the tests of exports and files.

#include "lessons/lessonplayer.h"
#include "session/session.h"
#include "shell/fileactions.h"
#include "shell/viewstack.h"

#include <QSignalSpy>
#include <QWidget>

#include <utility>

namespace attnlab::testing {

/// A FileActions over a window with its views and lesson player, as the studio has them.
struct Studio {
    Session session;
    QWidget window;
    ViewStack* views = new ViewStack(&session, &window);
    LessonPlayer* lessons = new LessonPlayer(&session, &window);
    FileActions* files = new FileActions(&session, views, lessons, &window);
    QSignalSpy reports{files, &FileActions::statusReported};

    Studio()
    {
        // The studio shows the step the session is on.
        QObject::connect(&session, &Session::stepChanged, views, &ViewStack::showStep);
        views->showStep();
    }
    /// The one message reported since the last call, and whether it was an error.
    std::pair<QString, bool> report()
    {
        if (reports.size() != 1)
            return {QStringLiteral("%1 messages").arg(reports.size()), false};
        const QList<QVariant> r = reports.takeFirst();
        return {r.at(0).toString(), r.at(1).toBool()};
    }
};

} // namespace attnlab::testing

// attention-lab: the studio window, opened on the last session or the built-in default sentence (a Chinese one in Chinese).

#include "common/allocator.h"
#include "core/compute_threads.h"
#include "shell/languages.h"
#include "lessons/lessonplayer.h"
#include "shell/fileactions.h"
#include "shell/mainwindow.h"
#include "shell/quitsignals.h"
#include "session/autosave.h"
#include "session/modelsfolder.h"
#include "session/session.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QSettings>
#include <QTimer>

namespace {

/// The lesson named on the command line: a file, or else a shipped one ("zh/04-look-ahead-mask").
QString lessonFile(const QString& given)
{
    const QString shipped = QStringLiteral(":/lessons/") + given + (given.endsWith(QStringLiteral(".md")) ? QString() : QStringLiteral(".md"));
    return !QFileInfo::exists(given) && QFileInfo::exists(shipped) ? shipped : given;
}

/// The studio's options (--help lists them); read back by name: parser.isSet("lesson").
void addOptions(QCommandLineParser& parser)
{
    parser.setApplicationDescription(QStringLiteral("Attention Lab: every stage of Transformer attention, live."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("language"), QStringLiteral("Interface language: en or zh_CN."), QStringLiteral("code")});
    parser.addOption({QStringLiteral("lesson"), QStringLiteral("Start a lesson: a lesson file, or a shipped one such as zh/04-look-ahead-mask."),
                      QStringLiteral("file")});
    parser.addOption({QStringLiteral("presenter"), QStringLiteral("Start in presenter mode (full screen, large type).")});
    parser.addOption({QStringLiteral("model"),
                      QStringLiteral("Open a model: a Hugging Face folder (GPT-2, BERT, Llama, Mistral, Qwen2, Qwen3, Gemma 3), an Attention Lab model "
                                     "file, or a PyTorch state dict (its options are asked)."),
                      QStringLiteral("path")});
    parser.addOption({QStringLiteral("models-dir"),
                      QStringLiteral("The Models folder for this run: where File > Models and lessons that need "
                                     "a model look for model folders (else ATTNLAB_MODELS_DIR, else the one set in "
                                     "the studio)."),
                      QStringLiteral("dir")});
    parser.addPositionalArgument(QStringLiteral("sentence"), QStringLiteral("The sentence to start with (default: the last session's, else a built-in one in the interface language)."));
}

} // namespace

int main(int argc, char** argv)
{
    attnlab::keepLargeAllocationsOnHeap();
    // A pretrained model's largest products on every core (core/compute_threads.h).
    attnlab::setComputeThreads(attnlab::availableCores());
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Attention Lab"));
    QApplication::setOrganizationName(QStringLiteral("Attention Lab"));
    attnlab::LanguageManager::useSimplifiedChineseGlyphs();

    QCommandLineParser parser;
    addOptions(parser);
    parser.process(app);
    if (parser.isSet(QStringLiteral("models-dir")))
        attnlab::ModelsFolder::setForThisRun(parser.value(QStringLiteral("models-dir")));

    // The interface language: the command line, else the last choice, else the system's.
    attnlab::LanguageManager languages;
    QSettings settings;
    const QString code = parser.isSet(QStringLiteral("language")) ? parser.value(QStringLiteral("language"))
                                                : settings.value(QStringLiteral("language"), attnlab::LanguageManager::systemDefault()).toString();
    languages.setLanguage(code);

    // One window for the whole run: a language switch writes every text again in place
    // (QEvent::LanguageChange), so nothing the user did, and no size or place, changes.
    attnlab::Session session;
    // A greedy generation runs off the GUI thread: a model that never writes <eos> takes a
    // minute, and the window answers meanwhile (the decoder bar shows how far it is).
    session.setBackgroundGeneration(true);
    // And so does every trace: GPT-2 small takes a tenth of a second a keystroke, a larger model
    // seconds; the views keep the last picture until the new one comes.
    session.setBackgroundTrace(true);
    // Saved a moment after each change; a clean quit deletes it, a crash leaves it to restore.
    attnlab::Autosave autosave(&session);
    // Declared after the session and the autosave it uses, so it goes first; closing it (×, a
    // quit signal) ends the event loop and never deletes it under a dialog it is the parent of.
    attnlab::MainWindow window(&session);
    window.setAutosave(&autosave);
    window.setCurrentLanguage(languages.current());
    window.restoreLayout();
    QObject::connect(&window, &attnlab::MainWindow::languageRequested, &app, [&languages, &window](const QString& requested) {
        if (!languages.setLanguage(requested))
            return;
        QSettings().setValue(QStringLiteral("language"), requested);
        window.setCurrentLanguage(languages.current());
    });
    window.showWithinScreen();
    // A logout, a shutdown or `kill` closes the window as its × does: the last session is
    // saved and the autosave removed (a second signal, or SIGKILL, still ends it at once).
    // Dialogs open then are closed first, as with Cancel.
    attnlab::closeOnQuitSignals(&window);
    // The rest of the start runs in the event loop, so that the Restore prompt, like every other
    // dialog, runs nested in it: a quit signal then closes the prompt first, then the window.
    QTimer::singleShot(0, &window, [&] {
        // A sentence on the command line starts fresh; otherwise the work a crash left is
        // offered, or the last session comes back, or the interface language's default sentence.
        window.start(parser.positionalArguments().join(QLatin1Char(' ')));
        if (attnlab::quitSignalled())
            return; // the window closes next
        if (parser.isSet(QStringLiteral("model")))
            window.fileActions()->importModel(parser.value(QStringLiteral("model"))); // a failure is shown in the window
        if (parser.isSet(QStringLiteral("lesson")))
            window.lessonPlayer()->openLessonFile(lessonFile(parser.value(QStringLiteral("lesson")))); // a broken file is reported in the lesson panel
        if (parser.isSet(QStringLiteral("presenter")))
            window.setPresenterMode(true);
    });
    return QApplication::exec();
}

// attention-lab: the studio window, opened on the built-in default sentence.

#include "common/allocator.h"
#include "mainwindow.h"
#include "session.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFont>
#include <QFontInfo>

int main(int argc, char** argv)
{
    attnlab::keepLargeAllocationsOnHeap();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Attention Lab"));
    QApplication::setOrganizationName(QStringLiteral("Attention Lab"));

    // Chinese glyphs: name the Simplified Chinese face explicitly, or fontconfig's fallback
    // may pick Japanese shapes for the same code points.
    QFont font = QApplication::font();
    font.setFamilies({QFontInfo(font).family(), QStringLiteral("Noto Sans CJK SC")});
    QApplication::setFont(font);

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Attention Lab: every stage of Transformer attention, live."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("sentence"), QStringLiteral("The sentence to start with (default: a built-in one)."));
    parser.process(app);

    attnlab::Session session;
    if (!parser.positionalArguments().isEmpty())
        session.setSentence(parser.positionalArguments().join(QLatin1Char(' ')));
    attnlab::MainWindow window(&session);
    // The last session and window geometry come back, unless a sentence was given.
    if (parser.positionalArguments().isEmpty())
        window.restoreState();
    window.show();
    return QApplication::exec();
}

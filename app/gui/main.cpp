// attention-lab: the studio window, opened on the built-in default sentence.

#include "mainwindow.h"
#include "session.h"

#include <QApplication>
#include <QFont>
#include <QFontInfo>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Attention Lab"));
    QApplication::setOrganizationName(QStringLiteral("Attention Lab"));

    // Chinese glyphs: name the Simplified Chinese face explicitly, or fontconfig's fallback
    // may pick Japanese shapes for the same code points.
    QFont font = QApplication::font();
    font.setFamilies({QFontInfo(font).family(), QStringLiteral("Noto Sans CJK SC")});
    QApplication::setFont(font);

    attnlab::Session session;
    attnlab::MainWindow window(&session);
    window.show();
    return QApplication::exec();
}

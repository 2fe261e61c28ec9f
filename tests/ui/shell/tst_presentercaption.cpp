// The lesson's caption in presenter mode (issue 28 §1): a clicker cannot scroll, so every step of
// every shipped lesson, in English and in Chinese, shows its whole text on the smallest
// projectors (1024 × 768 and 1280 × 720) — in the projected type when it fits a quarter of the
// screen, in smaller type (down to kLeastCaptionShare of the screen's height) or taller, up to a
// third of the screen, when not; and the few steps too long even so (a table, a code block) in pages
// of whole lines that the clicker turns before it steps on — and the window stays the screen's
// size. Playing every lesson through also once crashed the studio twice (a shorter lesson
// opened on a late step, a wrapped legend drawn again): both are checked where they live.

#include "lessons/lessonplayer.h"
#include "session/session.h"
#include "shell/languages.h"
#include "shell/mainwindow.h"
#include "shell/presentermode.h"
#include "support/screens.h"
#include "widgets/projectiontype.h"

#include <QAbstractTextDocumentLayout>
#include <QDir>
#include <QTextBlock>
#include <QTextLayout>
#include <QLabel>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTextBrowser>
#include <QtTest>

#include <cmath>

using namespace attnlab;
using namespace attnlab::testing;

class TestPresenterCaption : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AttentionLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_presentercaption"));
        LanguageManager::useSimplifiedChineseGlyphs();
    }

    void largestTypeThatFits()
    {
        // A text of 100 pixels per point of type (hand-made): 20 points need 2000 pixels.
        const auto tall = [](double points) { return static_cast<int>(std::lround(points * 10)); };
        // Fits the preferred room in the largest type.
        CaptionLayout a = captionLayout(tall, 20, 14, 250, 400);
        QCOMPARE(a.points, 20.0);
        QCOMPARE(a.height, 200);
        QVERIFY(!a.paged);
        // Only smaller type fits the preferred room: 17.5 points, 175 pixels.
        CaptionLayout b = captionLayout(tall, 20, 14, 179, 400);
        QCOMPARE(b.points, 17.5);
        QCOMPARE(b.height, 175);
        // Not even the least type fits the preferred room: the least type, as tall as its text
        // (the view gives the rest).
        CaptionLayout c = captionLayout(tall, 20, 14, 100, 190);
        QCOMPARE(c.points, 14.0);
        QCOMPARE(c.height, 140);
        QVERIFY(!c.paged);
        // Nothing fits: the least type, all the room, in pages (the last resort).
        CaptionLayout d = captionLayout(tall, 20, 14, 100, 120);
        QCOMPARE(d.points, 14.0);
        QCOMPARE(d.height, 120);
        QVERIFY(d.paged);
    }

    void everyStepShowsItsWholeText_data()
    {
        QTest::addColumn<QString>("screen");
        QTest::addColumn<QString>("language");
        QTest::newRow("1024 x 768, English") << "projector-1024" << "en";
        QTest::newRow("1024 x 768, Chinese") << "projector-1024" << "zh_CN";
        QTest::newRow("1280 x 720, Chinese") << "projector-1280" << "zh_CN";
    }

    void everyStepShowsItsWholeText()
    {
        QFETCH(QString, screen);
        QFETCH(QString, language);
        LanguageManager languages;
        QVERIFY(languages.setLanguage(language));
        QScreen* on = screenNamed(screen);
        QVERIFY(on);
        Session session;
        MainWindow w(&session);
        w.setCurrentLanguage(language);
        openOn(w, on);
        presentOn(w, on);
        auto* caption = w.findChild<QTextBrowser*>(QStringLiteral("PresenterCaption"));
        QVERIFY(caption);
        const double pixelsPerPoint = on->logicalDotsPerInchY() / 72.0;
        const QString folder = language == u"en" ? QStringLiteral(":/lessons/en") : QStringLiteral(":/lessons/zh");
        const QStringList files = QDir(folder).entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 25);
        int steps = 0;
        int shrunk = 0;
        int paged = 0;
        QStringList wrong;
        for (const QString& file : files) {
            QVERIFY2(w.lessonPlayer()->openLessonFile(folder + u'/' + file), qPrintable(file));
            const int count = static_cast<int>(w.lessonPlayer()->lesson()->steps.size());
            for (int i = 0; i < count; ++i) {
                w.lessonPlayer()->goToStep(i);
                // Laid out, and the caption fitted again once it is (no need to draw).
                for (int round = 0; round < 2; ++round) {
                    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
                    QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
                }
                const QString where = QStringLiteral("%1 step %2").arg(file).arg(i + 1);
                QVERIFY2(caption->isVisible(), qPrintable(where));
                // No scroll bar: the whole text within the strip, or (a long table or code block
                // on a small projector) in pages of whole lines that the clicker turns before it
                // steps on, the last page reaching the text's end.
                if (caption->verticalScrollBar()->isVisible())
                    wrong << where + QStringLiteral(": a scroll bar");
                const int pages = w.presenter()->captionPages();
                // (Its bottom margin may be cut: no text is.)
                if (pages == 1 && caption->verticalScrollBar()->maximum() > caption->document()->documentMargin())
                    wrong << QStringLiteral("%1: %2 px of the caption never show (text %3 px in %4 px)")
                                 .arg(where)
                                 .arg(caption->verticalScrollBar()->maximum())
                                 .arg(caption->document()->size().height())
                                 .arg(caption->viewport()->height());
                // The counter says which page shows.
                const QString counter = w.presenter()->counter()->text();
                if (counter.contains(QStringLiteral("\u25BC 1 / %1").arg(pages)) != (pages > 1) || !counter.contains(QStringLiteral("/ %1").arg(count)))
                    wrong << where + QStringLiteral(": the counter says ") + counter;
                if (pages > 1) {
                    ++paged;
                    for (int page = 1; page < pages; ++page) {
                        QTest::keyClick(&w, Qt::Key_PageDown);
                        if (w.lessonPlayer()->stepIndex() != i || w.presenter()->captionPage() != page)
                            wrong << QStringLiteral("%1: PageDown did not show page %2").arg(where).arg(page + 1);
                    }
                    // The last page shows the text's last line, and starts at a line's top.
                    const QTextDocument* doc = caption->document();
                    const QTextBlock last = doc->lastBlock();
                    const QTextLayout* layout = last.layout();
                    const QTextLine line = layout->lineAt(layout->lineCount() - 1);
                    const double bottom = doc->documentLayout()->blockBoundingRect(last).top() + line.y() + line.height();
                    const int top = caption->verticalScrollBar()->value();
                    if (bottom > top + caption->viewport()->height() + 0.5)
                        wrong << where + QStringLiteral(": the last page does not reach the end");
                    if (caption->cursorForPosition(QPoint(4, 2)).block().layout()->lineForTextPosition(
                            caption->cursorForPosition(QPoint(4, 2)).positionInBlock()).isValid()
                        && std::abs(caption->cursorRect(caption->cursorForPosition(QPoint(4, 2))).top()) > 6)
                        wrong << where + QStringLiteral(": the last page starts inside a line");
                    QTest::keyClick(&w, Qt::Key_PageUp); // back a page, not a step
                    if (w.lessonPlayer()->stepIndex() != i || w.presenter()->captionPage() != pages - 2)
                        wrong << where + QStringLiteral(": PageUp did not turn back a page");
                }
                // At least the least caption type, at most the projected type.
                const double px = caption->font().pointSizeF() * pixelsPerPoint;
                if (px < kLeastCaptionShare * on->geometry().height() - 0.5 || caption->font().pointSizeF() > projectedPoints(&w) + 1e-6)
                    wrong << QStringLiteral("%1: type of %2 px").arg(where).arg(px);
                shrunk += caption->font().pointSizeF() < projectedPoints(&w) - 1e-6;
                // The view keeps two thirds of the screen.
                if (caption->height() > on->geometry().height() / 3)
                    wrong << QStringLiteral("%1: a caption %2 px tall").arg(where).arg(caption->height());
                // The window is the screen, not pushed past it by the caption.
                if (w.geometry() != on->geometry())
                    wrong << where + QStringLiteral(": the window is ") + text(w.geometry());
                ++steps;
            }
        }
        qInfo("%d steps, %d in smaller type than the projected, %d in pages", steps, shrunk, paged);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u'\n')));
        QVERIFY(steps > 200);
    }
};

int main(int argc, char** argv)
{
    return runOnClassroomScreens<TestPresenterCaption>(argc, argv);
}

#include "tst_presentercaption.moc"

// Lessons as slide decks: every shipped lesson, in both languages, renders to a PDF whose page
// count equals its step count, and to one PNG per step; bad outputs fail cleanly.

#include "lessons/deck.h"
#include "shell/languages.h"

#include <QDir>
#include <QImage>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;

namespace {

int pdfPageCount(const QByteArray& pdf)
{
    // Each page object is "/Type /Page" (the page tree is "/Type /Pages").
    static const QRegularExpression page(QStringLiteral("/Type\\s*/Page(?![s])"));
    int n = 0;
    auto it = page.globalMatch(QString::fromLatin1(pdf));
    while (it.hasNext()) {
        it.next();
        ++n;
    }
    return n;
}

} // namespace

class TestDeck : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        LanguageManager::useSimplifiedChineseGlyphs();
    }

    void everyShippedLessonRendersOnePagePerStep_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString& language : {QStringLiteral("en"), QStringLiteral("zh")}) {
            const QDir dir(QStringLiteral(":/lessons/") + language);
            const QStringList files = dir.entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name);
            QVERIFY2(files.size() >= 8, qPrintable(language));
            for (const QString& f : files)
                QTest::newRow(qPrintable(language + QLatin1Char('/') + f)) << dir.filePath(f);
        }
    }

    void everyShippedLessonRendersOnePagePerStep()
    {
        QFETCH(QString, path);
        const Lesson lesson = readLessonFile(path);
        QTemporaryDir dir;
        const QString pdf = dir.filePath("deck.pdf");
        int calls = 0;
        const DeckResult r = renderLessonDeck(lesson, pdf, {}, [&](int, int) { return ++calls > 0; });
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.pages, static_cast<int>(lesson.steps.size()));
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.startsWith("%PDF"));
        QCOMPARE(pdfPageCount(bytes), static_cast<int>(lesson.steps.size()));
        QVERIFY(calls >= r.pages);
    }

    void pngPerStep()
    {
        const Lesson lesson = readLessonFile(QStringLiteral(":/lessons/zh/04-look-ahead-mask.md"));
        QTemporaryDir dir;
        DeckOptions o;
        o.format = DeckOptions::Format::Png;
        o.dpi = 96;
        const DeckResult r = renderLessonDeck(lesson, dir.filePath("pages"), o);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.files.size(), static_cast<int>(lesson.steps.size()));
        const QImage first(r.files.first());
        QCOMPARE(first.size(), QSize(1600, 900));
        QVERIFY(QFileInfo(r.files.first()).fileName().startsWith("01-"));
        if (qEnvironmentVariableIsSet("ATTNLAB_DECK_SHOTS")) {
            for (const QString& f : r.files)
                QFile::copy(f, qEnvironmentVariable("ATTNLAB_DECK_SHOTS") + QLatin1Char('/') + QFileInfo(f).fileName());
        }
    }

    void badOutputsFailCleanly()
    {
        const Lesson lesson = readLessonFile(QStringLiteral(":/lessons/en/01-query-key-value.md"));
        const DeckResult r = renderLessonDeck(lesson, QStringLiteral("/nonexistent/dir/deck.pdf"), {});
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains("cannot write"), qPrintable(r.error));

        // Cancelling keeps an earlier deck intact.
        QTemporaryDir dir;
        const QString pdf = dir.filePath("deck.pdf");
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("earlier deck");
        f.close();
        const DeckResult cancelled = renderLessonDeck(lesson, pdf, {}, [](int done, int) { return done < 2; });
        QVERIFY(!cancelled.ok);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("earlier deck"));

        QVERIFY_THROWS_EXCEPTION(LessonError, readLessonFile(dir.filePath("missing.md")));
    }
};

QTEST_MAIN(TestDeck)
#include "tst_deck.moc"

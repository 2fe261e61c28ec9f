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

void writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

QByteArray readBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(cannot read)");
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
        QVERIFY2(r.notes.isEmpty(), qPrintable(r.notes.join('\n'))); // every highlight fits the lesson's sentences
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

    void stepOverTheCellLimitFailsTheDeck()
    {
        // 600 tokens, 64 heads: 600² · 64 = 23,040,000 cells > 16 · 1024² = 16,777,216.
        const std::string text = "---\ntitle: Too big\nlanguage: en\n---\n\n## Small\nstage: weights\n\n"
                                 "## Big\nsettings: d_model=64, heads=64, max_tokens=1024\nsentence: "
                                 + QStringLiteral("w ").repeated(600).toStdString() + "\n";
        const Lesson lesson = parseLesson(text, "big.md");
        QTemporaryDir dir;
        const QString pdf = dir.filePath("deck.pdf");
        writeBytes(pdf, "earlier deck");
        const DeckResult r = renderLessonDeck(lesson, pdf, {});
        QVERIFY(!r.ok);
        QCOMPARE(r.error, QStringLiteral("step 2 (line 9): n (600) squared times heads (64) exceeds 16777216 attention cells: use "
                                         "fewer tokens or heads"));
        QCOMPARE(readBytes(pdf), QByteArray("earlier deck"));

        DeckOptions png;
        png.format = DeckOptions::Format::Png;
        const DeckResult pages = renderLessonDeck(lesson, dir.filePath("pages"), png);
        QVERIFY(!pages.ok);
        QVERIFY2(pages.error.startsWith(QStringLiteral("step 2 (line 9): n (600)")), qPrintable(pages.error));
        QCOMPARE(pages.files.size(), 1); // the page before it
    }

    void highlightThatCannotBeShownIsNotedOnThePage()
    {
        // The lesson's sentence has 3 tokens; row 5 cannot be shown.
        const auto render = [](const char* highlight, DeckResult& r) {
            const Lesson lesson = parseLesson(std::string("---\ntitle: Short\nlanguage: en\nsettings: d_model=16, heads=2\n"
                                                          "sentence: the cat sat\n---\n\n## Weights\nstage: weights\nhighlight: ")
                                                  + highlight + "\n\nText.\n",
                                              "short.md");
            QTemporaryDir dir;
            DeckOptions o;
            o.format = DeckOptions::Format::Png;
            o.dpi = 96;
            r = renderLessonDeck(lesson, dir.filePath("pages"), o);
            return r.ok ? QImage(r.files.first()) : QImage();
        };
        DeckResult withNote;
        DeckResult without;
        const QImage noted = render("rows 2 5", withNote);
        const QImage plain = render("rows 2", without);
        QVERIFY2(withNote.ok && without.ok, qPrintable(withNote.error + without.error));
        QCOMPARE(withNote.notes,
                 QStringList{QStringLiteral("step 1 (line 8): With this sentence the step cannot highlight: row 5 (the matrix is 3 \u00D7 3)")});
        QVERIFY(without.notes.isEmpty());
        // The note is drawn in the text column (x 1060..1570): it has more ink than without it.
        const auto ink = [](const QImage& image) {
            int n = 0;
            for (int y = 150; y < 870; ++y) {
                for (int x = 1060; x < 1570; ++x)
                    n += qGray(image.pixel(x, y)) < 128;
            }
            return n;
        };
        QVERIFY2(ink(noted) > ink(plain) + 500, qPrintable(QStringLiteral("%1 vs %2").arg(ink(noted)).arg(ink(plain))));
    }

    void figureAndTextKeepToTheirColumns()
    {
        // The positional-encoding view needs more room than the figure: it is scaled into it,
        // so the gap between figure (x < 1030) and text (x >= 1060) stays white. A very long
        // explanation shrinks, and says when even the smallest type does not fit.
        const Lesson lesson = parseLesson("---\ntitle: Fit\nlanguage: en\nsettings: d_model=32, heads=1\nsentence: 狗咬了人\n---\n\n"
                                          "## Table\nstage: positional_encoding\n\nShort.\n\n"
                                          "## Long\nstage: weights\n\n"
                                              + QStringLiteral("A very long explanation. ").repeated(400).toStdString() + "\n",
                                          "fit.md");
        QTemporaryDir dir;
        DeckOptions o;
        o.format = DeckOptions::Format::Png;
        o.dpi = 96;
        const DeckResult r = renderLessonDeck(lesson, dir.filePath("pages"), o);
        QVERIFY2(r.ok, qPrintable(r.error));
        const QImage table(r.files.at(0));
        int ink = 0;
        for (int y = 150; y < 870; ++y) {
            for (int x = 1035; x < 1058; ++x)
                ink += table.pixel(x, y) != qRgb(255, 255, 255);
        }
        QCOMPARE(ink, 0);
        QCOMPARE(r.notes, QStringList{QStringLiteral("step 2 (line 13): the explanation is too long for a slide: its end is cut off")});
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
        writeBytes(pdf, "earlier deck");
        const DeckResult cancelled = renderLessonDeck(lesson, pdf, {}, [](int done, int) { return done < 2; });
        QVERIFY(!cancelled.ok);
        QCOMPARE(readBytes(pdf), QByteArray("earlier deck"));

        QVERIFY_THROWS_EXCEPTION(LessonError, readLessonFile(dir.filePath("missing.md")));
    }
};

QTEST_MAIN(TestDeck)
#include "tst_deck.moc"

// The lesson format's `compare` directive (docs/lesson-format.md): B as another sentence or one
// other setting, carried over from step to step until `compare: off`, and checked against the
// settings in force. (Broken files are in tests/reference/lessons-broken, checked by tst_lesson.)
#include "lesson/lesson.h"

#include <QtTest>

using namespace attnlab;

namespace {

QString describe(const std::optional<Comparison>& c)
{
    return c ? QString::fromStdString(toString(*c)) : QStringLiteral("off");
}

/// The reason a lesson is refused, and its line; empty when it is accepted.
std::pair<QString, int> refusal(const std::string& text)
{
    try {
        parseLesson(text, "t.md");
    } catch (const LessonError& e) {
        return {QString::fromStdString(e.reason()), e.line()};
    }
    return {};
}

} // namespace

class TestLessonCompare : public QObject {
    Q_OBJECT
private slots:
    void validFile()
    {
        const Lesson l = loadLesson(ATTNLAB_TEST_DATA "/lessons-valid/compare.md");
        const QStringList want{"off", "人咬了狗", "人咬了狗", "pe=none", "sentence=seed=7 is a sentence", "scale=off",
                               "mask=causal+padding", "off", "seed=7"};
        QCOMPARE(l.steps.size(), std::size_t(want.size()));
        for (std::size_t i = 0; i < l.steps.size(); ++i)
            QCOMPARE(describe(l.steps[i].compare), want[static_cast<int>(i)]);
        // The written form is read into its parts.
        const Comparison& b = *l.steps[1].compare;
        QCOMPARE(int(b.kind), int(CompareKind::Sentence));
        QCOMPARE(QString::fromStdString(b.sentence), QStringLiteral("人咬了狗"));
        const Comparison& pe = *l.steps[3].compare;
        QCOMPARE(int(pe.kind), int(CompareKind::Positional));
        QCOMPARE(int(pe.positional), int(PositionalEncoding::None));
        QCOMPARE(int(l.steps[3].config.positional), int(PositionalEncoding::Sinusoidal)); // A's own stays
        QCOMPARE(l.steps[8].compare->seed, std::uint64_t(7));
        QCOMPARE(QString::fromStdString(l.steps[2].stage), QStringLiteral("output"));
    }

    void fullWidthColonAndSpaces()
    {
        const Lesson l = parseLesson("---\ntitle: T\nlanguage: zh\n---\n\n## 一\ncompare：  人咬了狗  \n\n文字\n", "t.md");
        QCOMPARE(describe(l.steps[0].compare), QStringLiteral("人咬了狗"));
    }

    void modelsCompareAllButMasks()
    {
        // A seeded model compares sentences, positions, scaling and seeds…
        for (const char* b : {"人咬了狗", "pe=none", "scale=off", "seed=3"}) {
            const std::string text = std::string("---\ntitle: T\nlanguage: en\nsettings: model=seeded, layers=1\n---\n\n## S\nstage: attn_norm\ncompare: ")
                + b + "\n";
            QVERIFY2(refusal(text).first.isEmpty(), b);
        }
        // …but not masks: they are compared on one attention block only. The error is on the compare line.
        const auto [reason, line] = refusal("---\ntitle: T\nlanguage: en\nsettings: model=seeded\n---\n\n## S\nstage: attn_norm\ncompare: mask=causal\n");
        QVERIFY2(reason.startsWith(QStringLiteral("compare: masks are compared on one attention block only")), qPrintable(reason));
        QCOMPARE(line, 9);
    }

    void offWithoutComparingIsFine()
    {
        const Lesson l = parseLesson("---\ntitle: T\nlanguage: en\n---\n\n## S\ncompare: off\n", "t.md");
        QVERIFY(!l.steps[0].compare);
    }

    void givenTwice()
    {
        const auto [reason, line] = refusal("---\ntitle: T\nlanguage: en\n---\n\n## S\ncompare: a\ncompare: b\n");
        QVERIFY2(reason.contains(QStringLiteral("'compare' is given twice")), qPrintable(reason));
        QCOMPARE(line, 8);
    }
};

QTEST_APPLESS_MAIN(TestLessonCompare)
#include "tst_lesson_compare.moc"

// What B is (compare/comparison.h): the written form of lessons and session files, read and
// written back; B's settings and text from A's; the swapped sentence that prefills B; and the
// comparisons a run cannot make.
#include "compare/comparison.h"
#include "core/message.h"

#include "support/throws.h"

#include <QtTest>

#include <stdexcept>

using namespace attnlab;
using attnlab::testing::invalidArgumentMessage;

namespace {


} // namespace

class TestComparison : public QObject {
    Q_OBJECT
private slots:
    void aRefusalIsALineOfTheTable()
    {
        // compare/messages.h: the value, escaped, is the argument; what() the English text.
        try {
            attnlab::parseComparison("pe=\x1b[31m");
            QFAIL("no refusal");
        } catch (const attnlab::Error& e) {
            QCOMPARE(e.message().code, std::string("compare_pe"));
            QCOMPARE(e.message().args, (std::vector<std::string>{"\\x1b[31m"}));
            QCOMPARE(std::string(e.what()), std::string("pe: '\\x1b[31m' is not one of sinusoidal, learned, none"));
        }
    }

    void readsTheWrittenForm()
    {
        Comparison c = parseComparison("人咬了狗");
        QCOMPARE(int(c.kind), int(CompareKind::Sentence));
        QCOMPARE(QString::fromStdString(c.sentence), QStringLiteral("人咬了狗"));

        c = parseComparison("  pe=none ");
        QCOMPARE(int(c.kind), int(CompareKind::Positional));
        QCOMPARE(int(c.positional), int(PositionalEncoding::None));
        QCOMPARE(int(parseComparison("pe=learned").positional), int(PositionalEncoding::Learned));

        c = parseComparison("scale=off");
        QCOMPARE(int(c.kind), int(CompareKind::Scaling));
        QCOMPARE(c.scaleScores, false);
        QCOMPARE(parseComparison("scale=on").scaleScores, true);

        c = parseComparison("mask=causal+padding");
        QCOMPARE(int(c.kind), int(CompareKind::Mask));
        QCOMPARE(int(c.mask), int(MaskKind::CausalPadding));

        c = parseComparison("seed=7");
        QCOMPARE(int(c.kind), int(CompareKind::Seed));
        QCOMPARE(c.seed, std::uint64_t(7));
        QCOMPARE(parseComparison("seed=18446744073709551615").seed, std::uint64_t(18446744073709551615ULL));

        // A sentence that would read as a setting is written with "sentence=".
        c = parseComparison("sentence=pe=none is a sentence");
        QCOMPARE(int(c.kind), int(CompareKind::Sentence));
        QCOMPARE(QString::fromStdString(c.sentence), QStringLiteral("pe=none is a sentence"));
        // Only a lower-case word before '=' is a key: other text is a sentence.
        QCOMPARE(QString::fromStdString(parseComparison("x = y + 1").sentence), QStringLiteral("x = y + 1"));
        QCOMPARE(QString::fromStdString(parseComparison("Seed=7").sentence), QStringLiteral("Seed=7"));
    }

    void writesWhatItReads_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("a sentence") << QStringLiteral("人咬了狗");
        QTest::newRow("a sentence that looks like a setting") << QStringLiteral("sentence=seed=7");
        QTest::newRow("pe") << QStringLiteral("pe=sinusoidal");
        QTest::newRow("scale") << QStringLiteral("scale=off");
        QTest::newRow("mask") << QStringLiteral("mask=padding");
        QTest::newRow("seed") << QStringLiteral("seed=0");
    }

    void writesWhatItReads()
    {
        QFETCH(QString, text);
        const Comparison c = parseComparison(text.toStdString());
        QCOMPARE(QString::fromStdString(toString(c)), text);
        QVERIFY(parseComparison(toString(c)) == c);
    }

    void refusesWithTheRule_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("reason");
        QTest::newRow("unknown key") << "scaling=off" << "unknown comparison 'scaling'";
        QTest::newRow("bad pe") << "pe=sine" << "pe: 'sine' is not one of sinusoidal, learned, none";
        QTest::newRow("bad switch") << "scale=maybe" << "scale: 'maybe' is not on or off";
        QTest::newRow("custom mask") << "mask=custom" << "mask: 'custom' is not one of none, causal, padding, causal+padding";
        QTest::newRow("negative seed") << "seed=-1" << "seed: '-1' is not a whole number";
        QTest::newRow("huge seed") << "seed=18446744073709551616" << "seed: '18446744073709551616' is not a whole number";
        QTest::newRow("seed with junk") << "seed=7x" << "seed: '7x' is not a whole number";
        QTest::newRow("nothing") << "   " << "has no tokens";
        QTest::newRow("white space only") << QStringLiteral("sentence=\u3000") << "has no tokens";
    }

    void refusesWithTheRule()
    {
        QFETCH(QString, text);
        QFETCH(QString, reason);
        const QString message = invalidArgumentMessage([&] { parseComparison(text.toStdString()); });
        QVERIFY2(message.contains(reason), qPrintable(message));
    }

    void bChangesOneSetting()
    {
        Config a;
        a.positional = PositionalEncoding::Sinusoidal;
        a.scaleScores = true;
        a.mask = MaskKind::None;
        a.seed = 42;
        Comparison pe;
        pe.kind = CompareKind::Positional;
        pe.positional = PositionalEncoding::None;
        Config b = comparedConfig(a, pe);
        QCOMPARE(int(b.positional), int(PositionalEncoding::None));
        b.positional = a.positional;
        QVERIFY(b == a); // nothing else changed

        Comparison seed;
        seed.kind = CompareKind::Seed;
        seed.seed = 7;
        QCOMPARE(comparedConfig(a, seed).seed, std::uint64_t(7));
        Comparison mask;
        mask.kind = CompareKind::Mask;
        mask.mask = MaskKind::Causal;
        QCOMPARE(int(comparedConfig(a, mask).mask), int(MaskKind::Causal));
        Comparison scale;
        scale.kind = CompareKind::Scaling;
        scale.scaleScores = false;
        QCOMPARE(comparedConfig(a, scale).scaleScores, false);

        Comparison sentence;
        sentence.sentence = "人咬了狗";
        QVERIFY(comparedConfig(a, sentence) == a);
        QCOMPARE(QString::fromStdString(comparedText("狗咬了人", sentence)), QStringLiteral("人咬了狗"));
        QCOMPARE(QString::fromStdString(comparedText("狗咬了人", seed)), QStringLiteral("狗咬了人"));
    }

    void toggledShowsTheOtherValue()
    {
        Config a;
        a.positional = PositionalEncoding::Sinusoidal;
        a.mask = MaskKind::None;
        a.scaleScores = true;
        a.seed = 42;
        QCOMPARE(int(toggled(CompareKind::Positional, a, "x").positional), int(PositionalEncoding::None));
        QCOMPARE(toggled(CompareKind::Scaling, a, "x").scaleScores, false);
        QCOMPARE(int(toggled(CompareKind::Mask, a, "x").mask), int(MaskKind::Causal));
        QCOMPARE(toggled(CompareKind::Seed, a, "x").seed, std::uint64_t(43));
        QCOMPARE(QString::fromStdString(toggled(CompareKind::Sentence, a, "狗咬了人").sentence), QStringLiteral("人咬了狗"));
        a.positional = PositionalEncoding::None;
        a.mask = MaskKind::Causal;
        QCOMPARE(int(toggled(CompareKind::Positional, a, "x").positional), int(PositionalEncoding::Sinusoidal));
        QCOMPARE(int(toggled(CompareKind::Mask, a, "x").mask), int(MaskKind::None));
    }

    void swapsFirstAndLastWords_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("swapped");
        QTest::newRow("Chinese") << QStringLiteral("狗咬了人") << QStringLiteral("人咬了狗");
        QTest::newRow("Chinese, full stop kept at the end") << QStringLiteral("狗咬了人。") << QStringLiteral("人咬了狗。");
        QTest::newRow("English") << QStringLiteral("the dog bit the man.") << QStringLiteral("man dog bit the the.");
        QTest::newRow("spaces kept") << QStringLiteral("  dog   bites  man ") << QStringLiteral("  man   bites  dog ");
        QTest::newRow("special tokens stay") << QStringLiteral("<sos> Je vais bien <eos>") << QStringLiteral("<sos> bien vais Je <eos>");
        QTest::newRow("a word inside a special token") << QStringLiteral("<sos> so far") << QStringLiteral("<sos> far so");
        QTest::newRow("one word") << QStringLiteral("dog!") << QStringLiteral("dog!");
        QTest::newRow("no words") << QStringLiteral("?!") << QStringLiteral("?!");
        QTest::newRow("empty") << QString() << QString();
    }

    void swapsFirstAndLastWords()
    {
        QFETCH(QString, text);
        QFETCH(QString, swapped);
        QCOMPARE(QString::fromStdString(swapFirstAndLastWords(text.toStdString())), swapped);
    }

    void problems()
    {
        Config block;
        Comparison mask;
        mask.kind = CompareKind::Mask;
        QVERIFY(!comparisonProblem(block, mask));
        Config model;
        model.model = ModelKind::Seeded;
        const auto fixed = comparisonProblem(model, mask);
        QVERIFY(fixed);
        QCOMPARE(QString::fromStdString(fixed->code), QStringLiteral("compare_mask_model"));
        QVERIFY(QString::fromStdString(fixed->text).contains(QStringLiteral("masks are compared on one attention block only")));
        Comparison seed;
        seed.kind = CompareKind::Seed;
        QVERIFY(!comparisonProblem(model, seed));
        Comparison empty;
        empty.sentence = " ";
        const auto none = comparisonProblem(block, empty);
        QVERIFY(none);
        QCOMPARE(QString::fromStdString(none->code), QStringLiteral("compare_no_tokens"));
    }
};

QTEST_MAIN(TestComparison)
#include "tst_comparison.moc"

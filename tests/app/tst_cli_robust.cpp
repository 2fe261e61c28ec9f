// attention-lab-cli against bad input found by a bad-input hunt (issue 10, 5b): files that are
// not regular files, numbers with trailing garbage, options that were ignored or accepted
// silently, messages that were truncated, two lines long or echoed control characters, memory
// and disk running out. Every case: a clean exit with one clear line on stderr, or the right result.

#include "support/cli.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sys/resource.h>
#include <sys/stat.h>

using attnlab::testing::cli;
using attnlab::testing::Run;

namespace {

bool writeAll(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

/// Fails unless the run ended with `exitCode` and exactly one line on stderr holding `message`
/// (after the note that announces a large run, if any).
void expectOneLineError(const Run& r, int exitCode, const QString& message)
{
    QString err = QString::fromUtf8(r.err);
    static const QString note = QStringLiteral("attention-lab-cli: note: a large run");
    if (err.startsWith(note))
        err = err.mid(err.indexOf(QLatin1Char('\n')) + 1);
    QVERIFY2(r.status == QProcess::NormalExit, "the CLI crashed or was killed");
    QVERIFY2(r.exitCode == exitCode, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(err)));
    QVERIFY2(err.startsWith(QStringLiteral("attention-lab-cli: error: ")), qPrintable(err));
    QVERIFY2(err.count(QLatin1Char('\n')) == 1 && err.endsWith(QLatin1Char('\n')), qPrintable(err));
    QVERIFY2(err.contains(message), qPrintable(QStringLiteral("'%1' not in: %2").arg(message, err)));
}

/// No byte that a terminal would act on: no control character but the line ends, valid UTF-8.
void expectPrintable(const QByteArray& bytes)
{
    for (const char c : bytes)
        QVERIFY2(static_cast<unsigned char>(c) >= 0x20 || c == '\n', bytes.toHex(' ').constData());
    QCOMPARE(QString::fromUtf8(bytes).toUtf8(), bytes);
}

QStringList tokensOf(const QByteArray& traceJson)
{
    QStringList out;
    for (const auto& t : QJsonDocument::fromJson(traceJson).object().value("tokens").toArray())
        out << t.toString();
    return out;
}

/// A safetensors file of one nn.MultiheadAttention with d_model 1, its header as given.
QByteArray weightsFile(const QByteArray& header, int dataBytes)
{
    QByteArray b(8, '\0');
    qToLittleEndian<quint64>(static_cast<quint64>(header.size()), b.data());
    return b + header + QByteArray(dataBytes, '\0');
}

} // namespace

class TestCliRobust : public QObject {
    Q_OBJECT
private slots:
    // A FIFO would block the reader forever, /dev/zero would be read until memory runs out.
    void notRegularFilesAreRefused_data()
    {
        QTest::addColumn<QStringList>("args"); // PIPE stands for a named pipe (a FIFO)
        QTest::addColumn<QString>("message");
        QTest::newRow("weights") << QStringList{"trace", "--weights", "PIPE"} << "cannot read 'PIPE': it is a pipe (FIFO), not a regular file";
        QTest::newRow("mask file") << QStringList{"trace", "--mask-file", "PIPE"} << "mask file 'PIPE': it is a pipe (FIFO), not a regular file";
        QTest::newRow("model") << QStringList{"trace", "--model", "PIPE", "--source", "abc"} << "cannot read 'PIPE': it is a pipe (FIFO)";
        QTest::newRow("generate") << QStringList{"generate", "--model", "PIPE", "--source", "abc"} << "cannot read 'PIPE': it is a pipe";
        QTest::newRow("export weights") << QStringList{"export", "--weights", "PIPE", "--stage", "q", "-o", "x.png"} << "it is a pipe (FIFO)";
        QTest::newRow("lesson") << QStringList{"lesson", "PIPE", "--output", "x.pdf"} << "PIPE: it is a pipe (FIFO), not a regular file";
        QTest::newRow("lesson /dev/zero") << QStringList{"lesson", "/dev/zero", "--output", "x.pdf"}
                                          << "/dev/zero: it is a device (character special file), not a regular file";
        QTest::newRow("weights /dev/zero") << QStringList{"trace", "--weights", "/dev/zero"} << "it is a device";
        QTest::newRow("weights folder") << QStringList{"trace", "--weights", "/tmp"} << "it is a directory";
    }

    void notRegularFilesAreRefused()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString fifo = dir.filePath("pipe");
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        args.replaceInStrings(QStringLiteral("PIPE"), fifo);
        args.replaceInStrings(QRegularExpression(QStringLiteral("^(x\\.pdf|x\\.png)$")), dir.path() + QStringLiteral("/\\1"));
        const Run r = cli(args);
        expectOneLineError(r, 2, QString(message).replace(QStringLiteral("PIPE"), fifo));
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot), QStringList{"pipe"}); // nothing written
    }

    void procSelfMemGivesItsReason()
    {
        const Run r = cli({"trace", "--weights", "/proc/self/mem"});
        expectOneLineError(r, 2, QStringLiteral("cannot read '/proc/self/mem': Input/output error"));
        QVERIFY(!r.err.contains("18446744073709551615"));
    }

    void numbersWithTrailingGarbage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const auto row = [](const QString& option, const QStringList& args, const QString& value) {
            QTest::newRow(qPrintable(args.first() + QLatin1Char(' ') + option))
                << (QStringList(args) << option << value) << QStringLiteral("%1 expects a whole number, got '%2'").arg(option, value);
        };
        const QStringList trace{"trace"};
        const QStringList layers{"trace", "--sentence", "a b", "--layers", "1"};
        const QStringList exportQ{"export", "--stage", "q", "-o", "x.png"};
        row("--d-model", trace, "32abc");
        row("--heads", trace, "4x");
        row("--seed", trace, "42 ");
        row("--pad-to", trace, "3.");
        row("--max-tokens", trace, " 12");
        row("--layers", {"trace", "--sentence", "a b"}, "2x");
        row("--d-ff", layers, "64k");
        row("--dpi", exportQ, "150abc");
        row("--width", exportQ, "1200px");
        row("--height", exportQ, "900px");
        row("--head", exportQ, "1x");
        row("--layer", {"export", "--layers", "1", "--sentence", "a", "--stage", "q", "-o", "x.png"}, "1x");
        row("--max-length", {"generate", "--model", "reversal", "--source", "abc"}, "2x");
        row("--dpi", {"lesson", "en/01-query-key-value", "--format", "png", "--output-dir", "pages"}, "150abc");
        QTest::newRow("trace --layer-norm-eps") << (QStringList(layers) << "--layer-norm-eps" << "1e-5x")
                                                << "--layer-norm-eps expects a number, got '1e-5x'";
    }

    void numbersWithTrailingGarbage()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QTemporaryDir dir;
        args.replaceInStrings(QRegularExpression(QStringLiteral("^(x\\.png|pages)$")), dir.path() + QStringLiteral("/\\1"));
        expectOneLineError(cli(args), 2, message);
        QVERIFY(QDir(dir.path()).isEmpty());
    }

    void generateHonoursMaxLength_data()
    {
        QTest::addColumn<int>("maxLength");
        QTest::newRow("1") << 1;
        QTest::newRow("2") << 2;
        QTest::newRow("5") << 5;
    }

    void generateHonoursMaxLength()
    {
        QFETCH(int, maxLength);
        // The shipped model reverses "abcdefgh" in 9 steps (8 letters and <eos>).
        const Run r = cli({"generate", "--model", "reversal", "--source", "abcdefgh", "--max-length", QString::number(maxLength)});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        QCOMPARE(static_cast<int>(out.count(QRegularExpression(QStringLiteral("(^|\\n)step \\d+:")))), maxLength);
        QVERIFY2(out.contains(QStringLiteral("stopped at the length limit without <eos>")), r.out.constData());
        QVERIFY2(out.contains(QStringLiteral("step 1: h")), r.out.constData());
    }

    void requestsThatWereAcceptedSilently_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("target alone") << QStringList{"trace", "--target", "abc"} << "--target needs a model to decode with";
        QTest::newRow("target with layers") << QStringList{"trace", "--layers", "2", "--target", "abc"} << "--target needs a model";
        QTest::newRow("export target") << QStringList{"export", "--target", "abc", "--stage", "q", "-o", "/tmp/x.png"} << "--target needs a model";
        QTest::newRow("logits of a seeded model")
            << QStringList{"export", "--source", "a b", "--target", "c", "--stage", "logits", "-o", "/tmp/x.png"}
            << "stage 'logits' comes from the output head, and a seeded model has none";
        QTest::newRow("probabilities of a seeded model")
            << QStringList{"export", "--source", "a b", "--target", "c", "--stage", "probabilities", "-o", "/tmp/x.png"}
            << "a seeded model has none: use a trained model (--model FILE or --model reversal)";
        QTest::newRow("two lessons") << QStringList{"lesson", "a.md", "b.md"} << "lesson renders one lesson file at a time, got 'a.md' and 'b.md'";
    }

    void requestsThatWereAcceptedSilently()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        expectOneLineError(cli(args), 2, message);
    }

    void targetWithAModelStillWorks()
    {
        QCOMPARE(cli({"trace", "--source", "a b", "--target", "c"}).exitCode, 0);
        QCOMPARE(cli({"trace", "--model", "reversal", "--target", "ab"}).exitCode, 0);
    }

    void outOfMemorySaysWhatToReduce()
    {
        // 600 MB of address space: enough to start, not for four d_model 2048 layers (800 MB of weights).
        const Run r = cli({"trace", "--layers", "4", "--d-model", "2048", "--heads", "16", "--sentence", "a b c"}, [] {
            const rlimit limit{600ULL << 20, 600ULL << 20};
            ::setrlimit(RLIMIT_AS, &limit);
        });
        // Out of memory exits with 1 (the input was fine, the machine too small): issue 27 §5's rule.
        expectOneLineError(r, 1, QStringLiteral("out of memory: try fewer tokens (--max-tokens, a shorter text), a smaller --d-model or fewer --layers"));
        QVERIFY(!r.err.contains("bad_alloc"));
    }

    void hugeRunsAreRefusedOrAnnouncedUpFront()
    {
        // 12 + 12 layers of width 2048 are 5.6 GB of seeded weights: refused before any is made
        // (in 600 MB of address space making them would end in "out of memory" instead).
        const auto small = [] {
            const rlimit limit{600ULL << 20, 600ULL << 20};
            ::setrlimit(RLIMIT_AS, &limit);
        };
        const Run big = cli({"trace", "--layers", "12", "--d-model", "2048", "--heads", "16", "--source", "a b", "--target", "c"}, small);
        expectOneLineError(big, 2, QStringLiteral("the weights would need about 5"));
        // 1024 tokens through 12 layers of width 1024: the trace (3.5 GB) is refused before the weights.
        QStringList words;
        for (int i = 0; i < 1024; ++i)
            words << QStringLiteral("w%1").arg(i);
        const Run trace = cli({"trace", "--layers", "12", "--d-model", "1024", "--heads", "16", "--max-tokens", "1024", "--sentence",
                               words.join(QLatin1Char(' '))},
                              small);
        expectOneLineError(trace, 2, QStringLiteral("the trace would need about"));
        // 8 layers of width 2048 (1.6 GB of weights) are allowed but announced before they are
        // made: the note comes first, then (in 200 MB) the run fails for want of memory.
        const Run large = cli({"trace", "--layers", "8", "--d-model", "2048", "--heads", "16", "--sentence", "a b c"}, [] {
            const rlimit limit{200ULL << 20, 200ULL << 20};
            ::setrlimit(RLIMIT_AS, &limit);
        });
        const QString err = QString::fromUtf8(large.err);
        QVERIFY2(err.startsWith(QStringLiteral("attention-lab-cli: note: a large run: about ")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("out of memory")), qPrintable(err));
    }

    void fullDiskGivesOneLine_data()
    {
        QTest::addColumn<QStringList>("args"); // OUT is the output
        QTest::newRow("png pages") << QStringList{"lesson", "en/01-query-key-value", "--format", "png", "--output-dir", "OUT"};
        QTest::newRow("pdf deck") << QStringList{"lesson", "en/01-query-key-value", "--output", "OUT"};
        QTest::newRow("export png") << QStringList{"export", "--stage", "weights", "--output", "OUT.png"};
    }

    void fullDiskGivesOneLine()
    {
        QFETCH(QStringList, args);
        QTemporaryDir dir;
        const QString out = dir.filePath("out");
        args.replaceInStrings(QStringLiteral("OUT"), out);
        // A 16 KB file size limit fails the write half-way (EFBIG), as a full disk does (ENOSPC).
        const Run r = cli(args, [] {
            std::signal(SIGXFSZ, SIG_IGN);
            const rlimit limit{16 << 10, 16 << 10};
            ::setrlimit(RLIMIT_FSIZE, &limit);
        });
        expectOneLineError(r, 1, QStringLiteral("cannot write '%1").arg(out));
        QVERIFY2(r.err.contains("File too large"), r.err.constData());
        QVERIFY2(!r.err.contains("libpng") && !r.err.contains("Unknown error"), r.err.constData());
        QVERIFY(r.out.isEmpty());
        QVERIFY(!QFileInfo(out).isFile() && !QFile::exists(out + ".png"));
    }

    void controlCharactersAreEscaped_data()
    {
        QTest::addColumn<QStringList>("args"); // MASK: a mask file hiding every key of query 0; OUT: a file
        QTest::addColumn<int>("exitCode");
        const QString esc = QStringLiteral("\x1b]0;pwned\x07");
        QTest::newRow("option value") << QStringList{"trace", "--pe", esc} << 2;
        QTest::newRow("unknown option") << QStringList{"trace", esc} << 2;
        QTest::newRow("path") << QStringList{"trace", "--weights", "/nonexistent/" + esc} << 2;
        QTest::newRow("lesson path") << QStringList{"lesson", "/nonexistent/" + esc + ".md", "--output", "/tmp/x.pdf"} << 2;
        QTest::newRow("unknown command") << QStringList{esc} << 2;
        // The sentence's first token is "\x1b\x07" (control characters join words).
        QTest::newRow("warning: all keys masked") << QStringList{"trace", "--sentence", "\x1b\x07 b", "--mask-file", "MASK", "-o", "OUT"} << 0;
        QTest::newRow("warning: not in vocabulary") << QStringList{"trace", "--model", "reversal", "--source", "a" + esc, "--target", "a", "-o", "OUT"}
                                                    << 0;
    }

    void controlCharactersAreEscaped()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QTemporaryDir dir;
        QVERIFY(writeAll(dir.filePath("mask"), "1 1\n0 0\n"));
        args.replaceInStrings(QStringLiteral("MASK"), dir.filePath("mask"));
        args.replaceInStrings(QRegularExpression(QStringLiteral("^OUT$")), dir.filePath("trace.json"));
        const Run r = cli(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains("\\x1b"), r.err.constData());
        expectPrintable(r.err);
    }

    void maskFileBytesAreNamed_data()
    {
        QTest::addColumn<QByteArray>("mask");
        QTest::addColumn<QString>("message");
        QTest::newRow("nul") << QByteArray("0 1\n0\0 0\n", 9) << "mask line 2, byte 2: unexpected byte 0x00";
        QTest::newRow("full-width digit") << QByteArray("\xEF\xBC\x90 1\n0 0\n") << "unexpected character '\xEF\xBC\x90' (U+FF10)";
        QTest::newRow("not utf-8") << QByteArray("0 \xff\n0 0\n") << "unexpected byte 0xff";
    }

    void maskFileBytesAreNamed()
    {
        QFETCH(QByteArray, mask);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QVERIFY(writeAll(dir.filePath("m"), mask));
        const Run r = cli({"trace", "--sentence", "a b", "--mask-file", dir.filePath("m")});
        expectOneLineError(r, 2, message);
        expectPrintable(r.err);
    }

    void byteOrderMarksAreDropped()
    {
        QTemporaryDir dir;
        QVERIFY(writeAll(dir.filePath("m"), "\xEF\xBB\xBF" "0 1\r\n0 0\r\n")); // as Notepad saves it
        const Run masked = cli({"trace", "--sentence", "a b", "--mask-file", dir.filePath("m")});
        QVERIFY2(masked.exitCode == 0, masked.err.constData());
        const Run sentence = cli({"trace", "--sentence", QStringLiteral("\uFEFFhello world")});
        QVERIFY2(sentence.exitCode == 0, sentence.err.constData());
        QCOMPARE(tokensOf(sentence.out), (QStringList{"hello", "world"}));
    }

    void duplicateTensorsAreRefused()
    {
        QTemporaryDir dir;
        const QByteArray entry = R"({"dtype":"F32","shape":[3,1],"data_offsets":[0,12]})";
        QVERIFY(writeAll(dir.filePath("w"), weightsFile(R"({"in_proj_weight":)" + entry + R"(,"in_proj_weight":)" + entry + "}", 12)));
        expectOneLineError(cli({"trace", "--weights", dir.filePath("w")}), 2, QStringLiteral("the header names tensor 'in_proj_weight' twice"));
        const QByteArray overlapping = R"({"in_proj_weight":)" + entry + R"(,"in_proj_bias":{"dtype":"F32","shape":[3],"data_offsets":[8,20]}})";
        QVERIFY(writeAll(dir.filePath("w"), weightsFile(overlapping, 20)));
        expectOneLineError(cli({"trace", "--weights", dir.filePath("w")}), 2, QStringLiteral("overlap in the data section"));
    }
};

QTEST_GUILESS_MAIN(TestCliRobust)
#include "tst_cli_robust.moc"

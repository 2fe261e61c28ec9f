// attention-lab-cli's messages and exit codes (issue 27 §5): each bad input found by the hunt is
// refused with exit 2 and one line that says what is wrong with which option or file, never
// another option's name, "needs a value" for a value that was given, a value other than the one
// typed, or a folder's name for a file in it; and every command follows one rule for its exit
// code: 2 bad input, 1 an output that could not be written or out of memory.

#include "support/cli.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

#include <csignal>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using attnlab::testing::cli;
using attnlab::testing::Run;

namespace {

QString hf(const QString& name)
{
    return QStringLiteral(ATTNLAB_TEST_DATA "/hf/") + name;
}

/// Fails unless the run ended with `exitCode` and one line on stderr holding `message` (after the
/// note that announces a large run, if any).
void expectOneLine(const Run& r, int exitCode, const QString& message)
{
    QString err = QString::fromUtf8(r.err);
    if (err.startsWith(QStringLiteral("attention-lab-cli: note: ")))
        err = err.mid(err.indexOf(QLatin1Char('\n')) + 1);
    QVERIFY2(r.status == QProcess::NormalExit, "the CLI crashed or was killed (a FIFO read without O_NONBLOCK waits forever)");
    QVERIFY2(r.exitCode == exitCode, qPrintable(QStringLiteral("exit %1, not %2: %3").arg(r.exitCode).arg(exitCode).arg(err)));
    QVERIFY2(err.startsWith(QStringLiteral("attention-lab-cli: error: ")), qPrintable(err));
    QVERIFY2(err.count(QLatin1Char('\n')) == 1 && err.endsWith(QLatin1Char('\n')), qPrintable(err));
    QVERIFY2(err.contains(message), qPrintable(QStringLiteral("'%1' not in: %2").arg(message, err)));
}

/// Copies a test model folder into `dir`; returns the copy's path.
QString copyFolder(const QTemporaryDir& dir, const QString& name)
{
    const QString to = dir.filePath(name);
    QDir().mkpath(to);
    for (const QString& f : QDir(hf(name)).entryList(QDir::Files))
        QFile::copy(hf(name) + QLatin1Char('/') + f, to + QLatin1Char('/') + f);
    return to;
}

/// Rewrites a safetensors file's "__metadata__" with `metadata` (its tensors kept).
bool setMetadata(const QString& path, const QJsonObject& metadata)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray bytes = f.readAll();
    f.close();
    const auto n = static_cast<qsizetype>(qFromLittleEndian<quint64>(bytes.constData()));
    QJsonObject header = QJsonDocument::fromJson(bytes.mid(8, n)).object();
    header.insert(QStringLiteral("__metadata__"), metadata);
    const QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    QByteArray out(8, '\0');
    qToLittleEndian<quint64>(static_cast<quint64>(json.size()), out.data());
    out += json + bytes.mid(8 + n);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(out) == out.size();
}

/// Puts `kind` in the place of `file`: "fifo", "dir", "loop" (a symbolic link to itself),
/// "device" (a link to /dev/zero), "dangling" (a link to nothing).
bool replaceWith(const QString& file, const QString& kind)
{
    QFile::remove(file);
    const QByteArray path = QFile::encodeName(file);
    if (kind == u"fifo")
        return ::mkfifo(path.constData(), 0600) == 0;
    if (kind == u"dir")
        return QDir().mkdir(file);
    if (kind == u"loop")
        return ::symlink(path.constData(), path.constData()) == 0;
    if (kind == u"device")
        return ::symlink("/dev/zero", path.constData()) == 0;
    if (kind == u"dangling")
        return ::symlink("nowhere", path.constData()) == 0;
    return false;
}

QString kindText(const QString& kind)
{
    if (kind == u"fifo")
        return QStringLiteral("it is a pipe (FIFO), not a regular file");
    if (kind == u"dir")
        return QStringLiteral("it is a directory, not a regular file");
    if (kind == u"loop")
        return QStringLiteral("Too many levels of symbolic links");
    if (kind == u"device")
        return QStringLiteral("it is a device (character special file), not a regular file");
    return QStringLiteral("No such file or directory");
}

/// A small lesson file whose title is `title`.
QByteArray lessonWithTitle(const QByteArray& title)
{
    return "---\ntitle: " + title + "\nlanguage: en\nsettings: d_model=8, heads=2\nsentence: a b\n---\n\n# T\n\n## One step\nstage: weights\n\nText.\n";
}

} // namespace

class TestCliMessages : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // Progress lines (after 2 s of work) would come before the one error line on a slow machine.
        qputenv("ATTNLAB_PROGRESS_AFTER_MS", "3600000");
    }

    void badInputIsNamed_data()
    {
        QTest::addColumn<QStringList>("args"); // @DIR: an empty folder; @GPT2, @BERT: copies of the test models
        QTest::addColumn<QString>("message");
        const QStringList train{"train", "--task", "copy", "--save-model", "@DIR/m.safetensors"};
        // A bad value was read twice: the message named the next option, or said it was missing.
        QTest::newRow("train --preset, then --lr") << (train + QStringList{"--preset", "bogus", "--lr", "1"})
                                                   << "--preset must be classroom|standard, got 'bogus'";
        QTest::newRow("train --preset last") << (train + QStringList{"--preset", "bogus"}) << "--preset must be classroom|standard, got 'bogus'";
        QTest::newRow("train --norm") << (train + QStringList{"--norm", "bogus"}) << "--norm must be post|pre, got 'bogus'";
        QTest::newRow("train --activation") << (train + QStringList{"--activation", "swish"}) << "--activation must be relu|gelu, got 'swish'";
        QTest::newRow("train --tokenizer") << (train + QStringList{"--tokenizer", "bogus"}) << "--tokenizer must be words|chars, got 'bogus'";
        // A number is the one typed, or refused: never read as 0 or inf.
        QTest::newRow("--rope-base 1e-300") << QStringList{"trace", "--pe", "rope", "--rope-base", "1e-300"}
                                            << "rope_base (1e-300) must be a number greater than 1";
        QTest::newRow("--rope-base 1e-400") << QStringList{"trace", "--pe", "rope", "--rope-base", "1e-400"}
                                            << "--rope-base value '1e-400' is too close to 0: a double holds at least 2.2e-308";
        QTest::newRow("--temperature 1e-50") << QStringList{"generate", "--model", "@GPT2", "--prompt", "hi", "--max-new-tokens", "1",
                                                            "--temperature", "1e-50"}
                                             << "--temperature value '1e-50' is too close to 0: a float holds at least 1.4e-45";
        QTest::newRow("--lr 1e39") << (train + QStringList{"--lr", "1e39"}) << "--lr value '1e39' is out of range: a float holds at most 3.4e+38";
        QTest::newRow("--layer-norm-eps 1e-50") << QStringList{"trace", "--layers", "1", "--layer-norm-eps", "1e-50"}
                                                << "--layer-norm-eps value '1e-50' is too close to 0";
        // A negative seed wrapped around to 18446744073709551615 in train, generate and cost.
        QTest::newRow("train --seed -1") << (train + QStringList{"--seed", "-1"}) << "--seed expects a whole number, got '-1'";
        QTest::newRow("generate --seed -1") << QStringList{"generate", "--model", "@GPT2", "--prompt", "hi", "--max-new-tokens", "1",
                                                           "--temperature", "1", "--seed", "-1"}
                                            << "--seed expects a whole number, got '-1'";
        // −1 is the settings' "as many rows as a segment": not a value to type.
        QTest::newRow("--memory -1") << QStringList{"trace", "--pe", "xl", "--memory", "-1"}
                                     << "--memory (-1) must be between 0 and 1024 rows; leave --memory out for M = L";
        // The shipped model's name where a folder is needed, and a model that cannot be opened.
        QTest::newRow("fill-mask reversal") << QStringList{"fill-mask", "--model", "reversal", "--sentence", "a [MASK]"}
                                            << "fill-mask needs a BERT model folder (config.json, model.safetensors and the tokenizer's "
                                               "files); 'reversal' is the shipped encoder–decoder";
        QTest::newRow("generate --prompt reversal") << QStringList{"generate", "--model", "reversal", "--prompt", "hi", "--max-new-tokens", "1"}
                                                    << "'reversal' is the shipped encoder–decoder, which reverses a --source: generate "
                                                       "--model reversal --source TEXT";
        QTest::newRow("generate missing folder") << QStringList{"generate", "--model", "@DIR/none", "--prompt", "hi", "--max-new-tokens", "1"}
                                                 << "cannot open '@DIR/none': No such file or directory";
        QTest::newRow("fill-mask missing folder") << QStringList{"fill-mask", "--model", "@DIR/none", "--sentence", "a [MASK]"}
                                                  << "cannot open '@DIR/none': No such file or directory";
        // config.json's errors name the file with its folder, in every command.
        QTest::newRow("config.json: trace") << QStringList{"trace", "--model", "@GPT2", "--sentence", "hi", "@CONFIG"}
                                            << "'@GPT2/config.json': n_embd is missing";
        QTest::newRow("config.json: generate") << QStringList{"generate", "--model", "@GPT2", "--prompt", "hi", "--max-new-tokens", "1", "@CONFIG"}
                                               << "'@GPT2/config.json': n_embd is missing";
        QTest::newRow("config.json: fill-mask") << QStringList{"fill-mask", "--model", "@BERT", "--sentence", "a [MASK]", "@CONFIG"}
                                                << "'@BERT/config.json': hidden_size is missing";
        QTest::newRow("vocab.txt size") << QStringList{"fill-mask", "--model", "@BERT", "--sentence", "a [MASK]", "@VOCAB"}
                                        << "'@BERT/vocab.txt' has";
    }

    void badInputIsNamed()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString gpt2 = copyFolder(dir, QStringLiteral("gpt2_f32"));
        const QString bert = copyFolder(dir, QStringLiteral("bert_mlm_f32"));
        // @CONFIG: a config.json without its sizes; @VOCAB: a vocabulary larger than vocab_size.
        if (args.removeAll(QStringLiteral("@CONFIG"))) {
            for (const QString& folder : {gpt2, bert}) {
                QFile f(folder + QStringLiteral("/config.json"));
                QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
                f.write(folder == gpt2 ? R"({"model_type": "gpt2"})" : R"({"model_type": "bert"})");
            }
        }
        if (args.removeAll(QStringLiteral("@VOCAB"))) {
            QFile f(bert + QStringLiteral("/vocab.txt"));
            QVERIFY(f.open(QIODevice::Append));
            for (int i = 0; i < 2000; ++i)
                f.write("extra" + QByteArray::number(i) + "\n");
        }
        for (QString& a : args) {
            a.replace(QStringLiteral("@GPT2"), gpt2).replace(QStringLiteral("@BERT"), bert).replace(QStringLiteral("@DIR"), dir.path());
        }
        message.replace(QStringLiteral("@GPT2"), gpt2).replace(QStringLiteral("@BERT"), bert).replace(QStringLiteral("@DIR"), dir.path());
        expectOneLine(cli(args), 2, message);
    }

    // generate --temperature 1e-38 picked <|endoftext|>: logits / T overflowed float (issue 27 §4).
    // However small T is, sampling now picks the greedy tokens.
    void tinyTemperaturesAreGreedy_data()
    {
        QTest::addColumn<QString>("temperature");
        QTest::newRow("1e-38") << "1e-38";
        QTest::newRow("1e-45 (the smallest float)") << "1e-45";
        QTest::newRow("1e-30") << "1e-30";
    }

    void tinyTemperaturesAreGreedy()
    {
        QFETCH(QString, temperature);
        const QStringList args{"generate", "--model", hf(QStringLiteral("gpt2_f32")), "--prompt", "The cat", "--max-new-tokens", "6"};
        const Run greedy = cli(args);
        QVERIFY2(greedy.exitCode == 0, greedy.err.constData());
        for (const char* seed : {"0", "1", "2"}) {
            const Run sampled = cli(args + QStringList{"--temperature", temperature, "--seed", seed});
            QVERIFY2(sampled.exitCode == 0, sampled.err.constData());
            QCOMPARE(sampled.out, greedy.out);
        }
    }

    // What stands where a model folder's file should be is named, with the file, and never
    // waited on (a FIFO opened for reading blocks until a writer comes).
    void notFilesInAModelFolder_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kind");
        for (const char* kind : {"fifo", "dir", "loop", "device", "dangling"}) {
            for (const char* file : {"config.json", "vocab.json", "merges.txt", "model.safetensors"})
                QTest::addRow("gpt2 %s %s", file, kind) << "gpt2_f32" << file << kind;
            for (const char* file : {"vocab.txt", "tokenizer_config.json"})
                QTest::addRow("bert %s %s", file, kind) << "bert_mlm_f32" << file << kind;
        }
    }

    void notFilesInAModelFolder()
    {
        QFETCH(QString, folder);
        QFETCH(QString, file);
        QFETCH(QString, kind);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString model = copyFolder(dir, folder);
        const QString path = model + QLatin1Char('/') + file;
        QVERIFY(replaceWith(path, kind));
        const bool gpt2 = folder.startsWith(QStringLiteral("gpt2"));
        const QStringList commands[] = {
            {"trace", "--model", model, "--sentence", "hi"},
            gpt2 ? QStringList{"generate", "--model", model, "--prompt", "hi", "--max-new-tokens", "1"}
                 : QStringList{"fill-mask", "--model", model, "--sentence", "a [MASK]"},
        };
        for (const QStringList& args : commands) {
            const Run r = cli(args);
            expectOneLine(r, 2, QStringLiteral("'%1'").arg(path));
            expectOneLine(r, 2, kindText(kind));
            if (QTest::currentTestFailed())
                return;
        }
    }

    // A folder whose files cannot be looked at (no search permission) was said to have no
    // config.json: the reason is given instead.
    void aFolderThatCannotBeSearchedIsNamed()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString model = copyFolder(dir, QStringLiteral("gpt2_f32"));
        // Readable but not searchable by whoever runs the command (root ignores permissions: as
        // root, the command runs as nobody).
        QVERIFY(::chmod(QFile::encodeName(dir.path()).constData(), 0755) == 0);
        QVERIFY(::chmod(QFile::encodeName(model).constData(), 0644) == 0);
        const bool root = ::getuid() == 0;
        const Run r = cli({"trace", "--model", model, "--sentence", "hi"}, [root] {
            if (root && (::setgid(65534) != 0 || ::setuid(65534) != 0))
                ::_exit(99);
        });
        ::chmod(QFile::encodeName(model).constData(), 0755); // so that the folder can be removed
        if (r.exitCode == 99)
            QSKIP("cannot run the command as an unprivileged user here");
        expectOneLine(r, 2, QStringLiteral("cannot open '%1/config.json': Permission denied").arg(model));
    }

    // num_heads in a weights file's metadata is checked (it was ignored when not a number ≥ 1),
    // and a --heads that does not divide the file's d_model names the file.
    void weightsFileHeads_data()
    {
        QTest::addColumn<QString>("numHeads"); // empty: no num_heads in the metadata
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("message");
        QTest::newRow("0") << "0" << QStringList{} << "metadata num_heads is '0' but must be a whole number from 1 to 64 that divides d_model (16)";
        QTest::newRow("-2") << "-2" << QStringList{} << "metadata num_heads is '-2' but must be a whole number from 1 to 64";
        QTest::newRow("abc") << "abc" << QStringList{} << "metadata num_heads is 'abc' but must be a whole number from 1 to 64";
        QTest::newRow("3") << "3" << QStringList{} << "metadata num_heads is '3' but must be a whole number from 1 to 64 that divides d_model (16)";
        QTest::newRow("--heads 3") << "" << QStringList{"--heads", "3"}
                                   << "d_model (16, from the weights file 'W') must be a multiple of heads (3)";
    }

    void weightsFileHeads()
    {
        QFETCH(QString, numHeads);
        QFETCH(QStringList, extra);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString w = dir.filePath(QStringLiteral("w.safetensors"));
        const Run saved = cli({"trace", "--d-model", "16", "--heads", "4", "--save-weights", w, "-o", dir.filePath("t.json")});
        QVERIFY2(saved.exitCode == 0, saved.err.constData());
        QJsonObject metadata{{"format", "attention-lab.weights"}};
        if (!numHeads.isEmpty())
            metadata.insert(QStringLiteral("num_heads"), numHeads);
        QVERIFY(setMetadata(w, metadata));
        const Run r = cli(QStringList{"trace", "--weights", w} + extra);
        expectOneLine(r, 2, QStringLiteral("'%1'").arg(w));
        expectOneLine(r, 2, message.replace(QStringLiteral("'W'"), QStringLiteral("'%1'").arg(w)));
    }

    // A lesson's title goes to standard output as printable() writes it: no control byte reaches
    // the terminal (stderr already escaped them).
    void lessonTitleIsPrintable()
    {
        QTemporaryDir dir;
        const QString lesson = dir.filePath(QStringLiteral("l.md"));
        QFile f(lesson);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(lessonWithTitle("Red \x1b[31mtitle\x07"));
        f.close();
        const Run r = cli({"lesson", lesson, "--output", dir.filePath(QStringLiteral("deck.pdf"))});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("of \"Red \\x1b[31mtitle\\x07\""), r.out.constData());
        for (const char c : r.out)
            QVERIFY2(static_cast<unsigned char>(c) >= 0x20 || c == '\n', r.out.toHex(' ').constData());
    }

    // One rule for every command: 2 for bad input, 1 for an output that could not be written or
    // for running out of memory; one line on stderr either way.
    void exitCodes_data()
    {
        QTest::addColumn<QStringList>("args"); // @DIR: a folder; @FILE: a file in it; @GPT2, @BERT: test models; @LESSON: a one-step lesson
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("memoryMB"); // an address-space limit, 0 for none
        const QString unwritable = QStringLiteral("cannot write '@FILE/");
        QTest::newRow("trace: bad option") << QStringList{"trace", "--heads", "x"} << 2 << "--heads expects a whole number" << 0;
        QTest::newRow("trace: corrupt model") << QStringList{"trace", "--model", "@FILE"} << 2 << "@FILE" << 0;
        QTest::newRow("trace: unwritable") << QStringList{"trace", "-o", "@FILE/t.json"} << 1 << unwritable << 0;
        QTest::newRow("trace: out of memory") << QStringList{"trace", "--layers", "4", "--d-model", "2048", "--heads", "16", "--sentence", "a b c"}
                                              << 1 << "out of memory" << 600;
        QTest::newRow("export: bad stage") << QStringList{"export", "--stage", "nope", "--output", "@DIR/a.png"} << 2 << "unknown stage 'nope'" << 0;
        QTest::newRow("export: unwritable") << QStringList{"export", "--stage", "weights", "--output", "@FILE/a.png"} << 1 << unwritable << 0;
        QTest::newRow("lesson: missing file") << QStringList{"lesson", "@DIR/none.md", "--output", "@DIR/d.pdf"} << 2 << "none.md" << 0;
        QTest::newRow("lesson: unwritable") << QStringList{"lesson", "@LESSON", "--output", "@FILE/d.pdf"} << 1 << unwritable << 0;
        QTest::newRow("generate: missing model") << QStringList{"generate", "--model", "@DIR/none.safetensors", "--source", "ab"} << 2
                                                 << "none.safetensors" << 0;
        QTest::newRow("generate: unwritable") << QStringList{"generate", "--model", "reversal", "--source", "ab", "--output-dir", "@FILE/steps"}
                                              << 1 << unwritable << 0;
        QTest::newRow("generate gpt-2: corrupt model") << QStringList{"generate", "--model", "@GPT2", "--prompt", "hi", "--max-new-tokens", "1", "@CORRUPT"}
                                                       << 2 << "model.safetensors" << 0;
        QTest::newRow("generate gpt-2: unwritable") << QStringList{"generate", "--model", "@GPT2", "--prompt", "hi", "--max-new-tokens", "1",
                                                                   "--output-dir", "@FILE/steps"}
                                                    << 1 << "@FILE/steps" << 0;
        QTest::newRow("fill-mask: corrupt model") << QStringList{"fill-mask", "--model", "@BERT", "--sentence", "a [MASK]", "@CORRUPT"} << 2
                                                  << "model.safetensors" << 0;
        QTest::newRow("fill-mask: not a folder") << QStringList{"fill-mask", "--model", "@FILE", "--sentence", "a [MASK]"} << 2 << "@FILE" << 0;
        QTest::newRow("cost: bad kind") << QStringList{"cost", "--attention", "nope"} << 2 << "--attention must be" << 0;
        QTest::newRow("train: bad task file") << QStringList{"train", "--task", "@DIR/none.tsv", "--save-model", "@DIR/m.safetensors"} << 2
                                              << "none.tsv" << 0;
        QTest::newRow("train: unwritable") << QStringList{"train", "--task", "copy", "--save-model", "@FILE/m.safetensors"} << 1 << unwritable << 0;
        QTest::newRow("grad: missing model") << QStringList{"grad", "--model", "@DIR/none.safetensors", "--source", "a", "--target", "b",
                                                            "--output", "@DIR/g.safetensors"}
                                             << 2 << "none.safetensors" << 0;
        QTest::newRow("grad: unwritable") << QStringList{"grad", "--model", "reversal", "--source", "a", "--target", "b", "--output",
                                                         "@FILE/g.safetensors"}
                                          << 1 << unwritable << 0;
    }

    void exitCodes()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QFETCH(int, memoryMB);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(QStringLiteral("file"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a model");
        f.close();
        const QString gpt2 = copyFolder(dir, QStringLiteral("gpt2_f32"));
        const QString bert = copyFolder(dir, QStringLiteral("bert_mlm_f32"));
        const QString lesson = dir.filePath(QStringLiteral("lesson.md"));
        QFile l(lesson);
        QVERIFY(l.open(QIODevice::WriteOnly));
        l.write(lessonWithTitle("One step"));
        l.close();
        if (args.removeAll(QStringLiteral("@CORRUPT"))) {
            for (const QString& folder : {gpt2, bert}) {
                QFile m(folder + QStringLiteral("/model.safetensors"));
                QVERIFY(m.resize(100));
            }
        }
        const auto place = [&](QString s) {
            return s.replace(QStringLiteral("@LESSON"), lesson)
                .replace(QStringLiteral("@FILE"), file)
                .replace(QStringLiteral("@GPT2"), gpt2)
                .replace(QStringLiteral("@BERT"), bert)
                .replace(QStringLiteral("@DIR"), dir.path());
        };
        for (QString& a : args)
            a = place(a);
        const Run r = cli(args, [memoryMB] {
            if (memoryMB > 0) {
                const rlimit limit{static_cast<rlim_t>(memoryMB) << 20, static_cast<rlim_t>(memoryMB) << 20};
                ::setrlimit(RLIMIT_AS, &limit);
            }
        });
        expectOneLine(r, exitCode, place(message));
    }
};

QTEST_GUILESS_MAIN(TestCliMessages)
#include "tst_cli_messages.moc"

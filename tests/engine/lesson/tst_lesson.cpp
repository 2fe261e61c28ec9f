// Lesson files (docs/lesson-format.md): a valid lesson read into the exact structure, every
// broken example refused with its own line and reason, CRLF and BOM, highlights, settings,
// robustness against any input, and every lesson shipped in lessons/en and lessons/zh.
#include "io/config_json.h"
#include "lesson/lesson.h"
#include "core/trace.h"

#include <QDir>
#include <QtTest>

#include <random>
#include <string>

using attnlab::applySettings;
using attnlab::Config;
using attnlab::Highlight;
using attnlab::highlightProblems;
using attnlab::Lesson;
using attnlab::LessonError;
using attnlab::LessonStep;
using attnlab::MaskKind;
using attnlab::parseLesson;
using attnlab::PositionalEncoding;
using attnlab::WeightsPreset;

namespace {

const QString kValidDir = QStringLiteral(ATTNLAB_TEST_DATA "/lessons-valid/");
const QString kBrokenDir = QStringLiteral(ATTNLAB_TEST_DATA "/lessons-broken/");
const QString kShippedDir = QStringLiteral(ATTNLAB_TEST_DATA "/../../lessons/");

/// The header every small inline lesson starts with (4 lines, then a blank line 5).
const std::string kHeader = "---\ntitle: T\nlanguage: en\n---\n\n";

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

std::string readBytes(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

QString dump(const Highlight& h)
{
    QStringList cells;
    for (const auto& [r, c] : h.cells)
        cells << QStringLiteral("%1,%2").arg(r).arg(c);
    QStringList rows;
    for (const int r : h.rows)
        rows << QString::number(r);
    QStringList columns;
    for (const int c : h.columns)
        columns << QString::number(c);
    return QStringLiteral("cells[%1] rows[%2] columns[%3]").arg(cells.join(' '), rows.join(' '), columns.join(' '));
}

QString dump(const Config& c)
{
    return q(attnlab::configToJson(c).dump());
}

QString dump(const std::optional<std::string>& s)
{
    return s ? q("\"" + *s + "\"") : QStringLiteral("(none)");
}

/// Every field of a lesson as text: two lessons are equal when their dumps are, and a
/// failing comparison shows where they differ.
QString dump(const Lesson& l)
{
    QString out = QStringLiteral("title=%1\nlanguage=%2\nsummary=%3\norder=%4\nsentence=%5\nconfig=%6\n")
                      .arg(q(l.title), q(l.language), q(l.summary), l.order ? QString::number(*l.order) : "(none)",
                           dump(l.sentence), dump(l.config));
    for (const LessonStep& s : l.steps) {
        out += QStringLiteral("## %1 (line %2)\n sentence=%3 target=%4\n config=%5\n stage=%6 head=%7 view=%8\n %9\n"
                              " explanation=[%10]\n")
                   .arg(q(s.title))
                   .arg(s.line)
                   .arg(dump(s.sentence), dump(s.target), dump(s.config), q(s.stage))
                   .arg(s.head)
                   .arg(q(s.view), dump(s.highlight), q(s.explanation));
    }
    return out;
}

/// The LessonError of parsing `text`, or a message starting with '!' when there was none
/// or another exception escaped.
struct Failure {
    int line = -1;
    QString reason;
    QString what;
};

Failure failureOf(const std::string& text, const std::string& file = "test.md")
{
    try {
        parseLesson(text, file);
        return {-1, QStringLiteral("!parsed without error"), {}};
    } catch (const LessonError& e) {
        return {e.line(), q(e.reason()), QString::fromUtf8(e.what())};
    } catch (const std::exception& e) {
        return {-1, QStringLiteral("!not a LessonError: ") + QString::fromUtf8(e.what()), {}};
    }
}

/// Parsing never throws anything but LessonError, and a result has at least one valid step.
QString checkAnyInput(const std::string& text)
{
    try {
        const Lesson l = parseLesson(text, "fuzz.md");
        if (l.steps.empty())
            return QStringLiteral("parsed without steps");
        for (const auto& s : l.steps) {
            if (!s.config.problems().empty() || s.head < 0 || s.head >= s.config.heads)
                return QStringLiteral("an invalid step was accepted");
        }
    } catch (const LessonError& e) {
        if (e.reason().empty() || e.line() < 1)
            return QStringLiteral("bad LessonError: ") + QString::fromUtf8(e.what());
        if (e.reason().size() > 1000)
            return QStringLiteral("a reason of %1 bytes").arg(e.reason().size());
    } catch (const std::exception& e) {
        return QStringLiteral("not a LessonError: ") + QString::fromUtf8(e.what());
    }
    return {};
}

std::string withCrlf(const std::string& text)
{
    std::string out;
    for (const char c : text) {
        if (c == '\n')
            out += '\r';
        out += c;
    }
    return out;
}

/// One row of the broken-lesson table: the file, the line and a fragment of the reason.
struct Broken {
    const char* file;
    int line;
    const char* message;
};

// The expectations live here, not in the files.
const std::vector<Broken> kBroken{
    {"empty-file", 1, "the file is empty"},
    {"only-dashes", 1, "the header is not closed"},
    {"no-header", 1, "the first line must be '---'"},
    {"unclosed-header", 1, "the header is not closed: add a line '---' after its last key"},
    {"missing-title", 4, "the header has no 'title'"},
    {"missing-language", 3, "the header has no 'language' (en or zh)"},
    {"bad-language", 3, "language 'fr' is not supported (expected en or zh)"},
    {"unknown-header-key", 4, "unknown header key 'author' (expected one of title, language, summary, settings, sentence, order)"},
    {"header-line-without-colon", 3, "'language en' is not a 'key: value' line"},
    {"duplicate-header-key", 4, "'title' is given twice in the header (first on line 2)"},
    {"empty-header-value", 4, "'summary' has no value"},
    {"bad-order", 4, "order: 'first' is not a whole number"},
    {"header-invalid-combination", 4, "settings: d_model (10) must be a multiple of heads (3)"},
    {"text-before-first-step", 8, "text before the first step: 'Welcome to this lesson!'"},
    {"no-steps", 7, "the lesson has no steps"},
    {"empty-step-title", 11, "a step heading needs a title"},
    {"unknown-directive", 7, "unknown directive 'stag': did you mean 'stage'?"},
    {"directive-without-colon", 8, "'The weights of every query sum to 1.' is not a directive ('key: value'); leave a blank line"},
    {"duplicate-directive", 9, "'stage' is given twice in this step (first on line 7)"},
    {"empty-value", 7, "'stage' has no value"},
    {"unknown-stage", 7, "unknown stage 'weight': did you mean 'weights'? (expected one of tokens, embedding, positional_encoding,"},
    {"head-zero", 8, "head 0 does not exist: heads count from 1"},
    {"head-not-a-number", 8, "head: 'two' is not a whole number"},
    {"head-beyond-heads", 9, "head 3 does not exist: there are 2 heads at this step (heads=2)"},
    {"head-carried-over", 13, "settings: with heads=2 there is no head 4 (chosen on line 8)"},
    {"bad-view", 8, "unknown view 'map' (expected one of stage, heads, kernel-regression, softmax-scaling, cost, positions, length, training)"},
    {"bad-highlight-syntax", 8, "highlight: '1-2' is not a cell: write row,column like 1,2"},
    {"bad-highlight-group", 8, "highlight: unknown group 'diagonal' (expected cells, rows or columns)"},
    {"highlight-zero", 8, "highlight: row 0 does not exist: positions count from 1"},
    {"highlight-negative", 8, "highlight: row -1 does not exist: positions count from 1"},
    {"highlight-no-numbers", 8, "highlight: 'rows' needs at least one row number"},
    {"unknown-setting", 7, "settings: unknown setting 'dmodel': did you mean 'd_model'?"},
    {"bad-setting-value", 7, "settings: heads: 'x' is not a whole number"},
    {"bad-setting-switch", 7, "settings: scale: 'maybe' is not a switch (expected on, off, true or false)"},
    {"setting-without-equals", 7, "settings: 'heads 2' is not key=value"},
    {"mask-custom", 7, "settings: mask: 'custom' cannot be used in a lesson"},
    {"invalid-combination", 14, "settings: d_model (16) must be a multiple of heads (3)"},
    {"unclosed-code-block", 9, "this code block is never closed: add a line ```"},
    {"binary-junk", 1, "the file is not UTF-8 text (byte 0x89 in this line); save it as UTF-8"},
    {"latin1", 8, "the file is not UTF-8 text (byte 0xE9 in this line)"},
    {"nul-byte", 7, "this is not a text file (it contains a NUL byte)"},
    {"target-without-model", 8, "target: this step needs an encoder–decoder model"},
    {"compare-unknown", 8, "compare: unknown comparison 'scaling'"},
    {"compare-bad-value", 8, "compare: pe: 'sine' is not one of sinusoidal, learned, none"},
    {"compare-no-tokens", 8, "compare: the sentence to compare with has no tokens"},
    {"compare-mask-in-model", 13, "compare: masks are compared on one attention block only"},
};

Config headerConfig()
{
    Config c;
    c.dModel = 16;
    c.heads = 2;
    c.seed = 7;
    return c;
}

/// What is wrong with the lessons in root/en and root/zh: a lesson that does not parse, a
/// lesson in the wrong folder, a lesson without its twin in the other language, twins whose
/// steps differ in stage, head, view or highlight. `count` receives the number of files.
QStringList lessonFolderProblems(const QString& root, int& count)
{
    QStringList failures;
    QMap<QString, QMap<QString, Lesson>> byLanguage; // language -> file name -> lesson
    count = 0;
    for (const QString& language : {QStringLiteral("en"), QStringLiteral("zh")}) {
        const QDir dir(root + language);
        for (const QString& name : dir.entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name)) {
            ++count;
            try {
                const Lesson l = attnlab::loadLesson(dir.filePath(name).toStdString());
                if (l.language != language.toStdString())
                    failures << QStringLiteral("%1/%2: the header says language %3").arg(language, name, q(l.language));
                byLanguage[language].insert(name, l);
            } catch (const LessonError& e) {
                failures << QString::fromUtf8(e.what());
            }
        }
    }
    const auto& en = byLanguage[QStringLiteral("en")];
    const auto& zh = byLanguage[QStringLiteral("zh")];
    for (auto it = en.begin(); it != en.end(); ++it) {
        if (!QFile::exists(root + "zh/" + it.key())) {
            failures << QStringLiteral("en/%1 has no twin zh/%1").arg(it.key());
            continue;
        }
        if (!zh.contains(it.key()))
            continue; // it does not parse: reported above
        const Lesson& e = it.value();
        const Lesson z = zh.value(it.key());
        if (e.steps.size() != z.steps.size()) {
            failures << QStringLiteral("%1: %2 steps in en, %3 in zh").arg(it.key()).arg(e.steps.size()).arg(z.steps.size());
            continue;
        }
        for (std::size_t i = 0; i < e.steps.size(); ++i) {
            const LessonStep& a = e.steps[i];
            const LessonStep& b = z.steps[i];
            if (a.stage != b.stage || a.head != b.head || a.view != b.view || !(a.highlight == b.highlight))
                failures << QStringLiteral("%1: step %2 differs: en line %3 shows %4 head %5 view %6 %7; zh line %8 shows %9 head %10 view %11 %12")
                                .arg(it.key())
                                .arg(i + 1)
                                .arg(a.line)
                                .arg(q(a.stage))
                                .arg(a.head + 1)
                                .arg(q(a.view), dump(a.highlight))
                                .arg(b.line)
                                .arg(q(b.stage))
                                .arg(b.head + 1)
                                .arg(q(b.view), dump(b.highlight));
            // A Transformer step must show the same place and the same decoder input too.
            else if (!(a.config == b.config) || a.layer != b.layer || a.block != b.block || a.generate != b.generate
                     || a.target.has_value() != b.target.has_value() || (a.target && *a.target != *b.target))
                failures << QStringLiteral("%1: step %2 differs: en line %3 and zh line %4 differ in settings, layer, block, target or generate")
                                .arg(it.key())
                                .arg(i + 1)
                                .arg(a.line)
                                .arg(b.line);
        }
    }
    for (const QString& name : QDir(root + "zh").entryList({QStringLiteral("*.md")}, QDir::Files)) {
        if (!QFile::exists(root + "en/" + name))
            failures << QStringLiteral("zh/%1 has no twin en/%1").arg(name);
    }
    return failures;
}

} // namespace

class TestLesson : public QObject {
    Q_OBJECT

private slots:
    void chineseLineBreaksAreNoSpace()
    {
        // A paragraph wrapped inside Chinese text reads as one run; a break next to Latin text,
        // a hard break (two spaces) and the lines of a code block stay as written.
        const Lesson l = parseLesson("---\ntitle: t\nlanguage: zh\n---\n\n## 一\nstage: weights\n\n"
                                     "每一行看到\n的仍是全部键，\n并在 `cost`\n命令里测量。  \n硬换行\n\n"
                                     "```\n代码\n一行\n```\n",
                                     "zh.md");
        QCOMPARE(q(l.steps.at(0).explanation), QStringLiteral("每一行看到的仍是全部键，并在 `cost`\n命令里测量。  \n硬换行\n\n"
                                                              "```\n代码\n一行\n```"));
    }

    void aRefusalIsAMessageTheInterfaceTranslates()
    {
        // lesson/messages.h: the file and line, the key, then the table's own reason (with the
        // name the teacher probably meant), each a line the studio writes in Chinese.
        try {
            parseLesson("---\ntitle: t\nlanguage: en\n---\n\n## One\nstage: weights\nhighlight: colums 1\n\nText.\n", "m.md");
            QFAIL("parsed without error");
        } catch (const LessonError& e) {
            const attnlab::Message& m = e.message();
            QCOMPARE(m.code, std::string("lesson_file_line"));
            QCOMPARE(m.text, std::string(e.what()));
            QCOMPARE(QString::fromStdString(m.text), QString::fromStdString("m.md:8: highlight: unknown group 'colums': did you mean 'columns'? (expected cells, rows or columns)"));
            QCOMPARE(m.args, (std::vector<std::string>{"m.md", "8"}));
            QCOMPARE(m.reasons.at(0).code, std::string("lesson_key"));
            const attnlab::Message& why = m.reasons.at(0).reasons.at(0);
            QCOMPARE(why.code, std::string("highlight_unknown_group_near"));
            QCOMPARE(why.args, (std::vector<std::string>{"colums", "columns"}));
            QCOMPARE(e.reason(), std::string("highlight: unknown group 'colums': did you mean 'columns'? (expected cells, rows or columns)"));
        }
        // A file that is not text: its line and the reason, without a key.
        try {
            parseLesson(std::string("---\ntitle: t\nlanguage: en\n---\n\xff\n"), "b.md");
            QFAIL("parsed without error");
        } catch (const LessonError& e) {
            QCOMPARE(e.message().reasons.at(0).code, std::string("lesson_not_utf8"));
            QCOMPARE(e.message().reasons.at(0).args, (std::vector<std::string>{"FF"}));
        }
    }

    // --- a valid lesson, field by field ---

    void validLesson()
    {
        const std::string path = (kValidDir + "look-ahead-mask.md").toStdString();
        const Lesson l = attnlab::loadLesson(path);
        QCOMPARE(q(l.fileName), q(path));
        QCOMPARE(q(l.title), QStringLiteral("The look-ahead mask"));
        QCOMPARE(q(l.language), QStringLiteral("en"));
        QCOMPARE(q(l.summary), QStringLiteral("Why a decoder may only look at the past, and how −∞ becomes exactly 0."));
        QCOMPARE(l.order, std::optional<int>(3));
        QCOMPARE(dump(l.sentence), QStringLiteral("\"<sos> Je vais bien\""));
        QCOMPARE(dump(l.config), dump(headerConfig()));
        QCOMPARE(l.steps.size(), std::size_t(5));

        // 1: stage and settings set; the header's sentence is not copied into the step.
        const LessonStep& s1 = l.steps[0];
        QCOMPARE(q(s1.title), QStringLiteral("Every query sees every key"));
        QCOMPARE(s1.line, 13);
        QVERIFY(!s1.sentence && !s1.target);
        QCOMPARE(dump(s1.config), dump(headerConfig())); // mask=none is the default
        QCOMPARE(q(s1.stage), QStringLiteral("weights"));
        QCOMPARE(s1.head, 0);
        QCOMPARE(q(s1.view), QStringLiteral("stage"));
        QVERIFY(s1.highlight.empty());
        // Two blank lines before, one after: trimmed; the ### heading and the list stay verbatim.
        QCOMPARE(q(s1.explanation), QStringLiteral("Without a mask, each row of the attention weights spreads over **all** tokens,\n"
                                                   "including the ones that come later in the sentence.\n"
                                                   "\n"
                                                   "### A closer look\n"
                                                   "\n"
                                                   "- rows are queries\n"
                                                   "- columns are keys"));

        // 2: a new mask; highlights converted to 0-based; "##" inside a code block is text.
        const LessonStep& s2 = l.steps[1];
        QCOMPARE(q(s2.title), QStringLiteral("Hide the future"));
        QCOMPARE(s2.line, 26);
        Config masked = headerConfig();
        masked.mask = MaskKind::Causal;
        QCOMPARE(dump(s2.config), dump(masked));
        QCOMPARE(q(s2.stage), QStringLiteral("mask"));
        QCOMPARE(s2.head, 0);
        QCOMPARE(dump(s2.highlight), QStringLiteral("cells[0,1 0,2 0,3] rows[1] columns[]"));
        QCOMPARE(q(s2.explanation), QStringLiteral("The look-ahead mask puts `−∞` above the diagonal: query *i* may see keys 1 … *i* only.\n"
                                                   "\n"
                                                   "```text\n"
                                                   "## not a step: this line is inside a code block\n"
                                                   "```"));

        // 3: head 2 -> 1, the heads view, a sentence; the mask carries over.
        const LessonStep& s3 = l.steps[2];
        QCOMPARE(q(s3.title), QStringLiteral("The second head"));
        QCOMPARE(s3.line, 37);
        QCOMPARE(dump(s3.sentence), QStringLiteral("\"I am fine\""));
        QCOMPARE(dump(s3.config), dump(masked));
        QCOMPARE(q(s3.stage), QStringLiteral("weights"));
        QCOMPARE(s3.head, 1);
        QCOMPARE(q(s3.view), QStringLiteral("heads"));
        QVERIFY(s3.highlight.empty());
        QCOMPARE(q(s3.explanation), QStringLiteral("Both heads side by side."));

        // 4: the closing #s of the heading go; settings on top of those in force; the view falls
        //    back to "stage"; "cells 2, 1" with a space; duplicate rows dropped; no explanation.
        const LessonStep& s4 = l.steps[3];
        QCOMPARE(q(s4.title), QStringLiteral("Back to one head"));
        QCOMPARE(s4.line, 45);
        QVERIFY(!s4.sentence);
        Config oneHead = masked;
        oneHead.heads = 1;
        oneHead.dModel = 8;
        oneHead.scaleScores = false;
        QCOMPARE(dump(s4.config), dump(oneHead));
        QCOMPARE(q(s4.stage), QStringLiteral("weights"));
        QCOMPARE(s4.head, 0);
        QCOMPARE(q(s4.view), QStringLiteral("stage"));
        QCOMPARE(dump(s4.highlight), QStringLiteral("cells[1,0] rows[3 4] columns[2]"));
        QCOMPARE(q(s4.explanation), QString());

        // 5: the last step ends at the end of the file, directives only.
        const LessonStep& s5 = l.steps[4];
        QCOMPARE(q(s5.title), QStringLiteral("Kernel regression"));
        QCOMPARE(s5.line, 50);
        QVERIFY(!s5.sentence);
        // (A `target` needs a model: lessons-broken/target-without-model.md.)
        QVERIFY(!s5.target);
        QCOMPARE(dump(s5.config), dump(oneHead));
        QCOMPARE(q(s5.stage), QStringLiteral("weights"));
        QCOMPARE(s5.head, 0);
        QCOMPARE(q(s5.view), QStringLiteral("kernel-regression"));
        QVERIFY(s5.highlight.empty());
        QCOMPARE(q(s5.explanation), QString());
    }

    void validChineseFileWithBomAndCrlf()
    {
        // The file starts with a BOM, has CRLF line ends and a full-width colon after "title".
        const std::string path = (kValidDir + "bom-crlf-zh.md").toStdString();
        const std::string bytes = readBytes(q(path));
        QVERIFY(bytes.rfind("\xEF\xBB\xBF---\r\n", 0) == 0);
        const Lesson l = attnlab::loadLesson(path);
        QCOMPARE(q(l.title), QStringLiteral("前瞻掩码"));
        QCOMPARE(q(l.language), QStringLiteral("zh"));
        QVERIFY(!l.order && !l.sentence && l.summary.empty());
        Config c;
        c.heads = 1;
        QCOMPARE(dump(l.config), dump(c));
        QCOMPARE(l.steps.size(), std::size_t(2));
        QCOMPARE(q(l.steps[0].title), QStringLiteral("第一步"));
        QCOMPARE(l.steps[0].line, 7);
        QCOMPARE(q(l.steps[0].stage), QStringLiteral("q"));
        QCOMPARE(dump(l.steps[0].highlight), QStringLiteral("cells[] rows[0] columns[]"));
        QCOMPARE(q(l.steps[0].explanation), QStringLiteral("解码器只能看见过去。"));
        QCOMPARE(q(l.steps[1].title), QStringLiteral("第二步"));
        QCOMPARE(l.steps[1].line, 13);
        QCOMPARE(q(l.steps[1].stage), QStringLiteral("q"));
        QCOMPARE(q(l.steps[1].view), QStringLiteral("softmax-scaling"));
        QCOMPARE(q(l.steps[1].explanation), QStringLiteral("`softmax(Q·Kᵀ / √d_k)`"));
    }

    void lineEndingsAndBomChangeNothing_data()
    {
        QTest::addColumn<QString>("variant");
        QTest::newRow("crlf") << "crlf";
        QTest::newRow("bom") << "bom";
        QTest::newRow("bom_crlf") << "bom_crlf";
        QTest::newRow("lone_cr") << "lone_cr";
        QTest::newRow("no_final_newline") << "no_final_newline";
    }
    void lineEndingsAndBomChangeNothing()
    {
        QFETCH(QString, variant);
        const std::string lf = readBytes(kValidDir + "look-ahead-mask.md");
        QVERIFY(!lf.empty() && lf.find('\r') == std::string::npos);
        std::string text = lf;
        if (variant.contains("crlf"))
            text = withCrlf(lf);
        if (variant == "lone_cr")
            std::replace(text.begin(), text.end(), '\n', '\r');
        if (variant.startsWith("bom"))
            text = "\xEF\xBB\xBF" + text;
        if (variant == "no_final_newline")
            text.pop_back();
        const Lesson expected = parseLesson(lf, "a.md");
        const Lesson got = parseLesson(text, "a.md");
        QCOMPARE(dump(got), dump(expected));
        for (const auto& s : got.steps)
            QVERIFY(s.explanation.find('\r') == std::string::npos);
    }

    void crlfKeepsErrorLines()
    {
        for (const Broken& b : kBroken) {
            const std::string text = readBytes(kBrokenDir + b.file + ".md");
            const Failure f = failureOf("\xEF\xBB\xBF" + withCrlf(text));
            QVERIFY2(f.line == b.line && f.reason.contains(QString::fromUtf8(b.message)),
                     qPrintable(QStringLiteral("%1: line %2: %3").arg(b.file).arg(f.line).arg(f.reason)));
        }
    }

    // --- broken lessons: each its own line and reason ---

    void brokenLessons_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        for (const Broken& b : kBroken)
            QTest::newRow(b.file) << QString::fromUtf8(b.file) << b.line << QString::fromUtf8(b.message);
    }
    void brokenLessons()
    {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(QString, message);
        const std::string path = (kBrokenDir + file + ".md").toStdString();
        QVERIFY2(QFile::exists(q(path)), path.c_str());
        try {
            attnlab::loadLesson(path);
            QFAIL("the lesson was accepted");
        } catch (const LessonError& e) {
            const QString reason = q(e.reason());
            QVERIFY2(reason.contains(message), qPrintable(QStringLiteral("'%1' not in: %2").arg(message, reason)));
            QCOMPARE(e.line(), line);
            QCOMPARE(q(e.file()), q(path));
            QCOMPARE(QString::fromUtf8(e.what()), q(path) + ":" + QString::number(line) + ": " + reason);
        }
    }

    void everyBrokenFileIsInTheTable()
    {
        const QStringList files = QDir(kBrokenDir).entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name);
        QStringList listed;
        for (const Broken& b : kBroken)
            listed << QString::fromUtf8(b.file) + ".md";
        listed.sort();
        QCOMPARE(files, listed);
        QVERIFY(files.size() >= 20);
    }

    // --- smaller rules, inline ---

    void inlineErrors_data()
    {
        // The header takes lines 1-4 and line 5 is blank: the first step starts on line 6.
        QTest::addColumn<QString>("body");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        const auto row = [](const char* name, const char* body, int line, const char* message) {
            QTest::newRow(name) << QString::fromUtf8(body) << line << QString::fromUtf8(message);
        };
        row("directive_upper_case", "## S\nStage: q\n", 7, "unknown directive 'Stage': did you mean 'stage'?");
        row("heading_directly_below", "## S\n### Details\n", 7, "'### Details' is not a directive");
        row("heading_only_hashes", "## ##\n", 6, "a step heading needs a title");
        row("no_space_after_hashes", "##Title\n", 6, "text before the first step: '##Title'");
        row("head_beyond_default_heads", "## S\nhead: 5\n", 7, "head 5 does not exist: there are 4 heads at this step (heads=4)");
        row("head_negative", "## S\nhead: -1\n", 7, "head -1 does not exist: heads count from 1");
        row("head_huge", "## S\nhead: 99999999999999999999999\n", 7, "head 99999999999999999999… does not exist: there are 4 heads");
        row("head_one_of_one", "## S\nsettings: d_model=8, heads=1\nhead: 2\n", 8, "there is 1 head at this step (heads=1)");
        row("head_checked_after_settings_below", "## S\nhead: 3\nsettings: heads=2, d_model=8\n", 7, "head 3 does not exist: there are 2 heads");
        row("second_problem_joined", "## S\nsettings: d_model=0, max_tokens=0\n", 7,
            "settings: d_model (0) must be between 1 and 2048; max_tokens (0) must be between 1 and 1024");
        row("pad_to_over_max_tokens", "## S\nsettings: max_tokens=8, pad_to=9\n", 7, "settings: pad_to (9) must not exceed max_tokens (8)");
        row("d_k", "## S\nsettings: d_k=4\n", 7, "settings: d_k cannot be set: it is d_model / heads");
        row("highlight_only_semicolons", "## S\nhighlight: ; ;\n", 7, "highlight: nothing to highlight");
        row("highlight_row_too_large", "## S\nhighlight: row 1025\n", 7, "highlight: row 1025 is beyond the largest matrix (1024 tokens)");
        row("highlight_column_too_large", "## S\nhighlight: column 2049\n", 7, "highlight: column 2049 is beyond the largest matrix (2048 columns)");
        row("highlight_pair_in_rows", "## S\nhighlight: rows 1,2\n", 7, "highlight: '1,2' is not a row number");
        row("highlight_triple", "## S\nhighlight: cells 1,2,3\n", 7, "highlight: '1,2,3' is not a cell");
        row("highlight_half_pair", "## S\nhighlight: cells 1,\n", 7, "highlight: '1,' is not a cell");
        row("highlight_fraction", "## S\nhighlight: column 1.5\n", 7, "highlight: '1.5' is not a column number");
        row("highlight_group_typo", "## S\nhighlight: colums 2\n", 7, "highlight: unknown group 'colums': did you mean 'columns'?");
        row("view_typo", "## S\nview: head\n", 7, "unknown view 'head': did you mean 'heads'?");
        row("tilde_fence_unclosed", "## S\n\n~~~~\n~~~\n", 8, "this code block is never closed: add a line ~~~~");
        row("empty_directive_key", "## S\n: q\n", 7, "': q' is not a directive");
    }
    void inlineErrors()
    {
        QFETCH(QString, body);
        QFETCH(int, line);
        QFETCH(QString, message);
        const Failure f = failureOf(kHeader + body.toStdString());
        QVERIFY2(f.reason.contains(message), qPrintable(QStringLiteral("'%1' not in: %2").arg(message, f.reason)));
        QCOMPARE(f.line, line);
    }

    void headerRules()
    {
        // Quotes are kept, the order may be negative, blank lines are ignored, and a full-width
        // colon separates like ':'.
        const Lesson l = parseLesson("---\n\ntitle: \"Quoted\"\nlanguage：zh\norder: -2\nsummary:   spaced   \n---\n## S\n", "h.md");
        QCOMPARE(q(l.title), QStringLiteral("\"Quoted\""));
        QCOMPARE(q(l.language), QStringLiteral("zh"));
        QCOMPARE(l.order, std::optional<int>(-2));
        QCOMPARE(q(l.summary), QStringLiteral("spaced"));
        QCOMPARE(l.steps.size(), std::size_t(1));
        QCOMPARE(l.steps[0].line, 8);

        QCOMPARE(failureOf("---\ntitle: T\nlanguage: EN\n---\n## S\n").reason,
                 QStringLiteral("language 'EN' is not supported: did you mean 'en'? (expected en or zh)"));
        QCOMPARE(failureOf("---\ntitle: T\nlanguage: en\norder: 99999999999\n---\n## S\n").reason,
                 QStringLiteral("order: '99999999999' is too large"));
        QCOMPARE(failureOf("---\ntitle: T\nlanguage: en\ntitel: U\n---\n## S\n").reason.left(38),
                 QStringLiteral("unknown header key 'titel': did you me"));
        // The closing line may carry trailing spaces; a settings line of commas changes nothing.
        const Lesson m = parseLesson("---\ntitle: T\nlanguage: en\nsettings: ,\n---   \n## S\n", "x");
        QCOMPARE(m.steps.size(), std::size_t(1));
        QCOMPARE(dump(m.config), dump(Config{}));
        QCOMPARE(failureOf("---\ntitle: T\nlanguage: en\n---\n").line, 4); // no steps: the last line
    }

    void defaultsAndCarryOver()
    {
        // Before any stage the step shows "tokens", head 1, the "stage" view.
        const Lesson l = parseLesson(kHeader + "# Title\n\n## A\n\n## B\nstage: q\nhead: 3\n\n## C\nsettings: seed=1\n\n## D\nstage: output\n",
                                     "c.md");
        QCOMPARE(l.steps.size(), std::size_t(4));
        QCOMPARE(q(l.steps[0].stage), QStringLiteral("tokens"));
        QCOMPARE(l.steps[0].head, 0);
        QCOMPARE(q(l.steps[0].view), QStringLiteral("stage"));
        QCOMPARE(dump(l.steps[0].config), dump(Config{}));
        QCOMPARE(q(l.steps[1].stage), QStringLiteral("q"));
        QCOMPARE(l.steps[1].head, 2);
        QCOMPARE(q(l.steps[2].stage), QStringLiteral("q"));
        QCOMPARE(l.steps[2].head, 2);
        QCOMPARE(l.steps[2].config.seed, std::uint64_t(1));
        QCOMPARE(q(l.steps[3].stage), QStringLiteral("output"));
        QCOMPARE(l.steps[3].head, 2); // kept for the next per-head stage
        QCOMPARE(l.steps[3].config.seed, std::uint64_t(1));
    }

    void everyStageAndViewIsAccepted()
    {
        QCOMPARE(q(attnlab::lessonStageIds().front()), QStringLiteral("tokens"));
        QCOMPARE(attnlab::lessonStageIds().size(),
                 attnlab::stageIds().size() + attnlab::layerStageIds().size() + attnlab::modelStageIds().size() + 1);
        // The layer and model stages need a model (one with an output head, for logits and
        // probabilities); the others work with one too.
        std::string body = "## start\nsettings: model=reversal\n\n";
        for (const auto& id : attnlab::lessonStageIds())
            body += "## " + id + "\nstage: " + id + "\n\n";
        for (const auto& v : attnlab::lessonViews())
            body += "## " + v + "\nview: " + v + "\n\n";
        const Lesson l = parseLesson(kHeader + body, "all.md");
        QCOMPARE(l.steps.size(), attnlab::lessonStageIds().size() + attnlab::lessonViews().size() + 1);
        for (std::size_t i = 1; i < l.steps.size(); ++i)
            QVERIFY(l.steps[i].title == l.steps[i].stage || l.steps[i].title == l.steps[i].view);
    }

    void transformerDirectives()
    {
        const Lesson l = parseLesson(kHeader
                                         + "## Reversal\nsettings: model=reversal, d_model=64, heads=4\nstage: weights\nlayer: 2\nblock: cross\n"
                                           "generate: 3\n\n"
                                           "## Carried over\nstage: cross_norm\n\n"
                                           "## Teacher forcing\ntarget: noitnetta\nblock: decoder_self\nlayer: 1\n\n"
                                           "## Last step\ngenerate: last\nstage: probabilities\n\n"
                                           "## Seeded, Pre-LN\nsettings: model=seeded, layers=3, d_ff=64, norm=pre, activation=gelu, d_model=16, heads=2\n"
                                           "stage: attn_norm\nlayer: 3\nblock: encoder_self\n",
                                     "t.md");
        QCOMPARE(l.steps.size(), std::size_t(5));
        QCOMPARE(l.steps[0].layer, 1);
        QVERIFY(l.steps[0].block == attnlab::Block::Cross);
        QCOMPARE(l.steps[0].generate, std::optional<int>(2));
        QVERIFY(l.steps[0].config.model == attnlab::ModelKind::Reversal);
        QCOMPARE(l.steps[1].layer, 1); // carried over
        QVERIFY(l.steps[1].block == attnlab::Block::Cross);
        QVERIFY(!l.steps[1].generate); // only the step that sets it
        QCOMPARE(q(*l.steps[2].target), QStringLiteral("noitnetta"));
        QCOMPARE(l.steps[2].layer, 0);
        QCOMPARE(l.steps[3].generate, std::optional<int>(attnlab::LessonStep::kLastGenerationStep));
        const auto& c = l.steps[4].config;
        QVERIFY(c.model == attnlab::ModelKind::Seeded && c.encoderLayers == 3 && c.dFF == 64);
        QVERIFY(c.norm == attnlab::NormPlacement::Pre && c.activation == attnlab::Activation::Gelu);
        QCOMPARE(l.steps[4].layer, 2);
    }

    void transformerDirectiveErrors_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("message");
        QTest::newRow("layer without a model") << "## A\nlayer: 1\n" << "t.md:7: this step needs an encoder–decoder model";
        QTest::newRow("stage without a model") << "## A\nstage: attn_norm\n" << "t.md:6: this step needs an encoder–decoder model";
        QTest::newRow("generate without a model") << "## A\ngenerate: 2\n" << "t.md:6: this step needs an encoder–decoder model";
        QTest::newRow("layer 0") << "## A\nsettings: model=seeded\nlayer: 0\n" << "t.md:8: layer: '0' is not a layer";
        QTest::newRow("layer beyond the seeded layers") << "## A\nsettings: model=seeded, layers=2\nlayer: 3\n"
                                                        << "t.md:8: layer 3 does not exist: the model has 2 layers";
        QTest::newRow("unknown block") << "## A\nsettings: model=seeded\nblock: decoder\n" << "t.md:8: unknown block 'decoder'";
        QTest::newRow("bad generate") << "## A\nsettings: model=reversal\ngenerate: first\n" << "t.md:8: generate: 'first' is not a generation step";
        QTest::newRow("model=file") << "## A\nsettings: model=file\n" << "t.md:7: settings: model=file cannot be used in a lesson";
        QTest::newRow("bad norm") << "## A\nsettings: norm=middle\n" << "t.md:7: settings: norm: unknown value 'middle'";
    }

    void transformerDirectiveErrors()
    {
        QFETCH(QString, body);
        QFETCH(QString, message);
        try {
            parseLesson(kHeader + body.toStdString(), "t.md");
            QFAIL("no error");
        } catch (const LessonError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).startsWith(message), e.what());
        }
    }

    void markdownDetails()
    {
        const Lesson l = parseLesson(kHeader
                                         + "## C# basics\n\n"
                                           "~~~\n## inside tildes\n```\n## still inside\n~~~~~\n\n"
                                           "````md\n```\n## inside four backticks\n```\n````\n"
                                           "# A level-1 heading in an explanation is text\n"
                                           "  trailing spaces kept  \n\n"
                                           "##\tTab title\nstage：k\n",
                                     "m.md");
        QCOMPARE(l.steps.size(), std::size_t(2));
        QCOMPARE(q(l.steps[0].title), QStringLiteral("C# basics"));
        QVERIFY(l.steps[0].explanation.find("## inside four backticks\n```\n````\n# A level-1") != std::string::npos);
        QVERIFY(l.steps[0].explanation.size() > 2);
        QCOMPARE(q(l.steps[0].explanation.substr(l.steps[0].explanation.size() - 24)), QStringLiteral("  trailing spaces kept  "));
        QCOMPARE(q(l.steps[1].title), QStringLiteral("Tab title"));
        QCOMPARE(q(l.steps[1].stage), QStringLiteral("k"));
    }

    // --- highlights ---

    void highlights_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("cells") << "cells 1,2 3,4" << "cells[0,1 2,3] rows[] columns[]";
        QTest::newRow("singular") << "cell 1,1; row 2; column 3" << "cells[0,0] rows[1] columns[2]";
        QTest::newRow("spaces_in_pairs") << "cells 1 , 2   3,  4" << "cells[0,1 2,3] rows[] columns[]";
        QTest::newRow("tabs") << "rows\t1\t2" << "cells[] rows[0 1] columns[]";
        QTest::newRow("duplicates") << "rows 2 1 2; row 1; cells 1,1 1,1" << "cells[0,0] rows[1 0] columns[]";
        QTest::newRow("extra_semicolons") << ";columns 4;;" << "cells[] rows[] columns[3]";
        QTest::newRow("leading_zeros") << "row 007" << "cells[] rows[6] columns[]";
        QTest::newRow("largest") << "cells 1024,2048" << "cells[1023,2047] rows[] columns[]";
    }
    void highlights()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const Lesson l = parseLesson(kHeader + "## S\nhighlight: " + text.toStdString() + "\n", "h.md");
        QCOMPARE(dump(l.steps[0].highlight), expected);
    }

    void highlightProblems_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("columns");
        QTest::addColumn<QStringList>("problems");
        QTest::newRow("all_fit") << "cells 3,3; row 3; column 3" << 3 << 3 << QStringList();
        QTest::newRow("row") << "row 5" << 3 << 3 << QStringList{"row 5 (the sentence has 3 tokens)"};
        QTest::newRow("one_token") << "row 2" << 1 << 1 << QStringList{"row 2 (the sentence has 1 token)"};
        QTest::newRow("column") << "columns 2 9" << 3 << 8 << QStringList{"column 9 (the matrix has 8 columns)"};
        QTest::newRow("one_column") << "column 2" << 3 << 1 << QStringList{"column 2 (the matrix has 1 column)"};
        QTest::newRow("cell_row") << "cell 4,2" << 3 << 3 << QStringList{"cell 4,2 (the sentence has 3 tokens)"};
        QTest::newRow("cell_column") << "cell 1,9" << 3 << 8 << QStringList{"cell 1,9 (the matrix has 8 columns)"};
        QTest::newRow("cell_both") << "cell 4,9" << 3 << 8
                                   << QStringList{"cell 4,9 (the sentence has 3 tokens and the matrix 8 columns)"};
        QTest::newRow("several_in_order") << "row 7; cells 1,1 5,1; column 4" << 2 << 3
                                          << QStringList{"cell 5,1 (the sentence has 2 tokens)", "row 7 (the sentence has 2 tokens)",
                                                         "column 4 (the matrix has 3 columns)"};
        QTest::newRow("empty_matrix") << "row 1" << 0 << 0 << QStringList{"row 1 (the sentence has 0 tokens)"};
    }
    void highlightProblems()
    {
        QFETCH(QString, text);
        QFETCH(int, rows);
        QFETCH(int, columns);
        QFETCH(QStringList, problems);
        const Lesson l = parseLesson(kHeader + "## S\nhighlight: " + text.toStdString() + "\n", "h.md");
        QStringList got;
        for (const auto& p : attnlab::highlightProblems(l.steps[0].highlight, rows, columns))
            got << q(p);
        QCOMPARE(got, problems);
    }

    void highlightProblemsOfHandMadeHighlights()
    {
        // A caller may build a Highlight by hand: negative indices are reported, not trusted.
        Highlight h;
        QVERIFY(h.empty());
        QVERIFY(attnlab::highlightProblems(h, 0, 0).empty());
        h.rows = {-1};
        h.cells = {{0, -3}};
        QVERIFY(!h.empty());
        QStringList got;
        for (const auto& p : attnlab::highlightProblems(h, 4, 4))
            got << q(p);
        QCOMPARE(got, (QStringList{"cell 1,-2 (positions count from 1)", "row 0 (positions count from 1)"}));
    }

    // --- settings ---

    void applySettingsAll()
    {
        const Config c = applySettings(Config{}, "d_model=64, heads=8, seed=18446744073709551615, pe=learned, embed_scale=off, "
                                                 "scale=false, mask=causal+padding, pad_to=12, weights=identity, max_tokens=100,");
        QCOMPARE(c.dModel, 64);
        QCOMPARE(c.heads, 8);
        QCOMPARE(c.seed, std::uint64_t(18446744073709551615ULL));
        QVERIFY(c.positional == PositionalEncoding::Learned);
        QCOMPARE(c.embedScale, false);
        QCOMPARE(c.scaleScores, false);
        QVERIFY(c.mask == MaskKind::CausalPadding);
        QCOMPARE(c.padTo, 12);
        QVERIFY(c.weightsPreset == WeightsPreset::Identity);
        QCOMPARE(c.maxTokens, 100);

        // On top of a base: what is not named keeps the base's value; true/on, the alias.
        Config base;
        base.dModel = 16;
        base.scaleScores = false;
        const Config d = applySettings(base, "  scale = on ,weights_preset=identity, embed_scale=true, pe=none, mask=padding");
        QCOMPARE(d.dModel, 16);
        QCOMPARE(d.scaleScores, true);
        QCOMPARE(d.embedScale, true);
        QVERIFY(d.weightsPreset == WeightsPreset::Identity);
        QVERIFY(d.positional == PositionalEncoding::None);
        QVERIFY(d.mask == MaskKind::Padding);
        QCOMPARE(dump(applySettings(base, "")), dump(base));
        // Only the grammar: an invalid combination is the caller's to check with problems().
        QCOMPARE(applySettings(Config{}, "heads=3").heads, 3);
        QCOMPARE(applySettings(Config{}, "d_model=-4").dModel, -4);
    }

    void applySettingsErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        const auto row = [](const char* text, const char* message) { QTest::newRow(text) << QString::fromUtf8(text) << QString::fromUtf8(message); };
        row("dmodel=16", "unknown setting 'dmodel': did you mean 'd_model'? (expected one of d_model, heads, seed, pe, embed_scale, scale, mask, pad_to, weights, max_tokens, model, layers, d_ff, norm, activation, attention, window, dilation, global, random, stride, proj_dim, features, buckets, chunk, query_block, key_block, rope_base, max_distance, segment, memory)");
        row("colour=red", "unknown setting 'colour' (expected one of d_model,");
        row("heads=x", "heads: 'x' is not a whole number");
        row("heads=2.5", "heads: '2.5' is not a whole number");
        row("heads=99999999999", "heads: '99999999999' is too large");
        row("d_model=99999999999999999999", "d_model: '99999999999999999999' is too large");
        row("heads=", "heads: the value is empty");
        row("=3", "'=3' has no setting name before '='");
        row("heads 2", "'heads 2' is not key=value (e.g. heads=2)");
        row("heads=2, heads=4", "heads is set twice");
        row("weights=seeded, weights_preset=identity", "weights is set twice");
        row("seed=-1", "seed: '-1' must be a whole number, 0 or more");
        row("seed=18446744073709551616", "seed: '18446744073709551616' is too large");
        row("seed=0x10", "seed: '0x10' is not a whole number");
        row("pe=sin", "pe: unknown value 'sin' (expected one of sinusoidal, learned, none, rope, alibi, relative, xl)");
        row("mask=future", "mask: unknown value 'future' (expected one of none, causal, padding, causal+padding)");
        row("mask=custom", "mask: 'custom' cannot be used in a lesson");
        row("weights=random", "weights: unknown value 'random' (expected one of seeded, identity)");
        row("embed_scale=1", "embed_scale: '1' is not a switch (expected on, off, true or false)");
        row("scale=On", "scale: 'On' is not a switch");
        row("d_k=4", "d_k cannot be set");
    }
    void applySettingsErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        try {
            applySettings(Config{}, text.toStdString());
            QFAIL("accepted");
        } catch (const std::invalid_argument& e) {
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(what.startsWith(message), qPrintable(QStringLiteral("'%1' does not start: %2").arg(message, what)));
        }
    }

    // --- errors and files ---

    void lessonErrorFormat()
    {
        const LessonError e("a.md", 12, "unknown stage 'x'");
        QCOMPARE(QString::fromUtf8(e.what()), QStringLiteral("a.md:12: unknown stage 'x'"));
        QCOMPARE(q(e.file()), QStringLiteral("a.md"));
        QCOMPARE(e.line(), 12);
        QCOMPARE(q(e.reason()), QStringLiteral("unknown stage 'x'"));
        QCOMPARE(QString::fromUtf8(LessonError("b.md", 0, "cannot open").what()), QStringLiteral("b.md: cannot open"));
        // The parser names the file it was given.
        QVERIFY(failureOf("", "look-ahead-mask.md").what.startsWith("look-ahead-mask.md:1: the file is empty"));
    }

    void unreadableFiles()
    {
        const std::string missing = (kValidDir + "no-such-lesson.md").toStdString();
        for (const std::string& path : {missing, kValidDir.toStdString()}) {
            try {
                attnlab::loadLesson(path);
                QFAIL("no error");
            } catch (const LessonError& e) {
                QCOMPARE(e.line(), 0);
                QCOMPARE(q(e.file()), q(path));
                QVERIFY(!e.reason().empty());
                QVERIFY(QString::fromUtf8(e.what()).startsWith(q(path) + ": "));
            }
        }
        // Larger than the limit: refused before it is read.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString big = dir.filePath("big.md");
        QFile f(big);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize(qint64(attnlab::kMaxLessonBytes) + 1));
        f.close();
        try {
            attnlab::loadLesson(big.toStdString());
            QFAIL("no error");
        } catch (const LessonError& e) {
            QCOMPARE(e.line(), 0);
            QVERIFY2(q(e.reason()).contains("too large"), e.what());
        }
    }

    // --- whatever the input: LessonError or a lesson, never a crash ---

    void oddInputs_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("line");
        QTest::newRow("empty") << QByteArray() << 1;
        QTest::newRow("bom_only") << QByteArray("\xEF\xBB\xBF") << 1;
        QTest::newRow("newlines_only") << QByteArray("\n\r\n\n") << 1;
        QTest::newRow("dashes") << QByteArray("---") << 1;
        QTest::newRow("dashes_twice") << QByteArray("---\n---\n") << 2;
        QTest::newRow("dashes_three_times") << QByteArray("---\n---\n---\n") << 2;
        QTest::newRow("half_bom") << QByteArray("\xEF\xBB---\n") << 1;
        QTest::newRow("truncated_utf8") << (QByteArray::fromStdString(kHeader) + "## \xE5\x89") << 6;
        QTest::newRow("overlong_slash") << QByteArray("---\n\xC0\xAF\n") << 2;
        QTest::newRow("surrogate") << QByteArray("---\n\xED\xA0\x80\n") << 2;
        QTest::newRow("above_10ffff") << QByteArray("---\n\xF4\x90\x80\x80\n") << 2;
        QTest::newRow("utf16") << QByteArray("\xFF\xFE-\0-\0-\0\n\0", 10) << 1;
    }
    void oddInputs()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, line);
        const Failure f = failureOf(bytes.toStdString());
        QVERIFY2(!f.reason.startsWith('!'), qPrintable(f.reason));
        QCOMPARE(f.line, line);
    }

    void hugeLines()
    {
        const std::string big(10 * 1024 * 1024, 'x');
        // Accepted: a 10 MB title and a 10 MB explanation line.
        Lesson l = parseLesson("---\ntitle: " + big + "\nlanguage: en\n---\n## S\n\n" + big + "\n", "big.md");
        QCOMPARE(l.title.size(), big.size());
        QCOMPARE(l.steps[0].explanation.size(), big.size());
        // A million highlighted rows, most of them repeated.
        std::string rows;
        for (int i = 0; i < 1000000; ++i)
            rows += std::to_string(1 + i % 1024) + " ";
        l = parseLesson(kHeader + "## S\nhighlight: rows " + rows + "\n", "rows.md");
        QCOMPARE(l.steps[0].highlight.rows.size(), std::size_t(1024));
        // Refused, with a short message, wherever the long line stands.
        const std::vector<std::pair<std::string, int>> cases{
            {big, 1},
            {"---\n" + big + "\n---\n", 2},
            {"---\n" + big + ": v\n---\n", 2},
            {kHeader + big + "\n## S\n", 6},
            {kHeader + "## S\n" + big + "\n", 7},
            {kHeader + "## S\nstage: " + big + "\n", 7},
            {kHeader + "## S\nhead: " + std::string(big.size(), '9') + "\n", 7},
            {kHeader + "## S\nhighlight: rows " + std::string(big.size(), '7') + "\n", 7},
            {kHeader + "## S\nsettings: heads=" + std::string(big.size(), '7') + "\n", 7},
            {kHeader + "## " + std::string(big.size(), '#') + "\n", 6},
            {"---\n" + std::string(big.size(), '\xE4') + "\n", 2},
        };
        for (const auto& [text, line] : cases) {
            const Failure f = failureOf(text);
            QVERIFY2(!f.reason.startsWith('!'), qPrintable(f.reason));
            QCOMPARE(f.line, line);
            QVERIFY2(f.reason.toUtf8().size() < 400, qPrintable(f.reason.left(400)));
        }
    }

    void manySteps()
    {
        std::string text = kHeader;
        for (int i = 0; i < 20000; ++i)
            text += "## Step " + std::to_string(i) + "\nhead: " + std::to_string(1 + i % 4) + "\n\nText.\n\n";
        const Lesson l = parseLesson(text, "many.md");
        QCOMPARE(l.steps.size(), std::size_t(20000));
        QCOMPARE(l.steps.back().head, 3);
        QCOMPARE(l.steps.back().line, 6 + 19999 * 5);
    }

    void everyPrefixAndByteChange()
    {
        const std::string valid = readBytes(kValidDir + "look-ahead-mask.md");
        QVERIFY(valid.size() > 1000);
        for (std::size_t n = 0; n <= valid.size(); ++n) {
            const QString problem = checkAnyInput(valid.substr(0, n));
            QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("prefix of %1 bytes: %2").arg(n).arg(problem)));
        }
        const char replacements[] = {'\0', '\n', '\r', '#', '-', ':', ',', ';', '0', ' ', '`', '\x80', '\xFF'};
        for (std::size_t i = 0; i < valid.size(); ++i) {
            for (const char r : replacements) {
                std::string bytes = valid;
                bytes[i] = r;
                const QString problem = checkAnyInput(bytes);
                QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("byte %1 = 0x%2: %3").arg(i).arg(uchar(r), 2, 16, QChar('0')).arg(problem)));
            }
        }
    }

    void randomInputs()
    {
        // Random text built from the characters that matter to the parser.
        static const std::vector<std::string> kPieces{
            "---", "\n", "\r\n", "\r", "## ", "# ", "### ", "title: t", "language: en", "language: zh", "stage: ", "head: ",
            "view: ", "highlight: ", "settings: ", "sentence: s", "order: ", "cells ", "rows ", "column ", "1", "0", "-",
            "4,", "2", "; ", ",", "=", "heads=", "d_model=", "mask=", "causal", "weights", "q", "heads", "```", "~~~",
            " ", "\t", ":", "\xEF\xBC\x9A", "\xEF\xBB\xBF", "\xE5\x89\x8D", "\xFF", std::string(1, '\0'), "x",
        };
        std::mt19937 rng(20240601);
        std::uniform_int_distribution<std::size_t> piece(0, kPieces.size() - 1);
        std::uniform_int_distribution<int> length(0, 120);
        for (int round = 0; round < 5000; ++round) {
            std::string text = round % 2 ? kHeader : std::string();
            for (int k = length(rng); k > 0; --k)
                text += kPieces[piece(rng)];
            const QString problem = checkAnyInput(text);
            QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("round %1: %2").arg(round).arg(problem)));
        }
        // Plain random bytes.
        std::uniform_int_distribution<int> byte(0, 255);
        for (int round = 0; round < 500; ++round) {
            std::string text(std::size_t(length(rng)) * 8, '\0');
            for (char& c : text)
                c = static_cast<char>(byte(rng));
            const QString problem = checkAnyInput(text);
            QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("random bytes %1: %2").arg(round).arg(problem)));
        }
    }

    // --- the lessons we ship ---

    void shippedLessons()
    {
        // Other files may be added at any time: zero lessons pass too.
        int count = 0;
        const QStringList failures = lessonFolderProblems(kShippedDir, count);
        for (const QString& f : failures)
            qWarning().noquote() << f;
        qInfo("%d shipped lesson file(s) checked", count);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    void shippedLessonCorrections_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh") << QStringLiteral("zh");
    }

    // Issue 28 §6: what a review of the shipped lessons found, where the fix is mechanical.
    void shippedLessonCorrections()
    {
        QFETCH(QString, language);
        const auto load = [&](const char* name) { return attnlab::loadLesson((kShippedDir + language + "/" + name).toStdString()); };
        const auto stepsShowing = [](const Lesson& l, const std::string& stage) {
            std::vector<const LessonStep*> out;
            for (const LessonStep& s : l.steps)
                if (s.stage == stage)
                    out.push_back(&s);
            return out;
        };
        // 15: the masked language model's transform points at the [MASK] row (token 5, [CLS] 1).
        const Lesson bert = load("15-bert-inputs-and-masked-lm.md");
        const auto mlm = stepsShowing(bert, "mlm_transform");
        QCOMPARE(int(mlm.size()), 1);
        QCOMPARE(mlm.front()->highlight.rows, std::vector<int>{4}); // 0-based: "rows 5"
        QVERIFY(mlm.front()->highlight.cells.empty() && mlm.front()->highlight.columns.empty());
        // 21: the row that shows "far keys look alike" has no other cell of the far keys' value:
        // head 2 (head 1's row 1 has a second cell reading the same to two decimals), and the
        // steps after it go back to head 1, whose numbers the memory step quotes.
        const Lesson relative = load("21-relative-positions-and-transformer-xl.md");
        const auto scores = stepsShowing(relative, "position_scores");
        QVERIFY(!scores.empty());
        QCOMPARE(scores.front()->head, 1);
        QCOMPARE(scores.front()->highlight.rows, std::vector<int>{0});
        for (const LessonStep* s : stepsShowing(relative, "memory"))
            QCOMPARE(s->head, 0);
        if (language == u"zh") {
            // The studio is 工作室 in the interface; the lessons say the same.
            for (const QString& name : QDir(kShippedDir + "zh").entryList({QStringLiteral("*.md")}, QDir::Files)) {
                QFile f(kShippedDir + "zh/" + name);
                QVERIFY(f.open(QIODevice::ReadOnly));
                const QString text = QString::fromUtf8(f.readAll());
                QVERIFY2(!text.contains(QStringLiteral("工作台")), qPrintable(name));
                // 15's masked language model is 掩码语言模型; 18's strided pattern one term, 跨步.
                QVERIFY2(!text.contains(QStringLiteral("带掩码的语言模型")), qPrintable(name));
                QVERIFY2(!text.contains(QStringLiteral("步长注意力")) && !text.contains(QStringLiteral("步长**模式")), qPrintable(name));
            }
        }
    }

    void lessonFolderCheckFindsEveryProblem()
    {
        // The check above must be able to fail: a folder with one problem of each kind.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkpath("en") && QDir(dir.path()).mkpath("zh"));
        const auto write = [&](const QString& name, const std::string& text) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text.data(), qint64(text.size()));
        };
        const std::string en = "---\ntitle: T\nlanguage: en\n---\n";
        const std::string zh = "---\ntitle: T\nlanguage: zh\n---\n";
        write("en/same.md", en + "## A\nstage: q\nhighlight: row 1\n\nText.\n");
        write("zh/same.md", zh + "## 甲\nstage: q\nhighlight: row 1\n\n文字。\n");
        write("en/stage.md", en + "## A\nstage: q\n");
        write("zh/stage.md", zh + "## A\nstage: k\n");
        write("en/highlight.md", en + "## A\nhighlight: row 1\n");
        write("zh/highlight.md", zh + "## A\nhighlight: row 2\n");
        write("en/layer.md", en + "## A\nsettings: model=seeded\nlayer: 1\n");
        write("zh/layer.md", zh + "## A\nsettings: model=seeded\nlayer: 2\n");
        write("en/count.md", en + "## A\n\n## B\n");
        write("zh/count.md", zh + "## A\n");
        write("en/only-en.md", en + "## A\n");
        write("zh/only-zh.md", zh + "## A\n");
        write("en/broken.md", en + "## A\nstage: nope\n");
        write("zh/broken.md", zh + "## A\n");
        write("en/wrong-language.md", zh + "## A\n");
        write("zh/wrong-language.md", zh + "## A\n");
        int count = 0;
        const QStringList got = lessonFolderProblems(dir.path() + "/", count);
        QCOMPARE(count, 16);
        const QString all = got.join('\n');
        QCOMPARE(got.size(), 8);
        QVERIFY2(all.contains("layer.md: step 1 differs: en line 5 and zh line 5 differ in settings, layer"), qPrintable(all));
        QVERIFY2(all.contains("broken.md:6: unknown stage 'nope'"), qPrintable(all));
        QVERIFY2(all.contains("en/wrong-language.md: the header says language zh"), qPrintable(all));
        QVERIFY2(all.contains("en/only-en.md has no twin zh/only-en.md"), qPrintable(all));
        QVERIFY2(all.contains("zh/only-zh.md has no twin en/only-zh.md"), qPrintable(all));
        QVERIFY2(all.contains("count.md: 2 steps in en, 1 in zh"), qPrintable(all));
        QVERIFY2(all.contains("stage.md: step 1 differs: en line 5 shows q head 1 view stage"), qPrintable(all));
        QVERIFY2(all.contains("highlight.md: step 1 differs"), qPrintable(all));
    }
};

QTEST_APPLESS_MAIN(TestLesson)
#include "tst_lesson.moc"

// Lessons that need a pretrained model (docs/lesson-format.md, "Lessons that need a model"):
// with the model in the Models folder every step of every such shipped lesson plays, in English
// and Chinese; without it the lesson says what to download and where, plays the steps it can and
// leaves the studio as it was for the others; a wrong or broken folder is named; "Look again"
// finds a model downloaded meanwhile; a slide deck without the model has the steps that need none
// and one page saying which model to get and how.

#include "lessons/deck.h"
#include "lessons/lessonplayer.h"
#include "lessons/modelbanner.h"
#include "session/modelsfolder.h"
#include "session/session.h"
#include "shell/languages.h"
#include "shell/mainwindow.h"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

using namespace attnlab;

namespace {

const QString kHf = QStringLiteral(ATTNLAB_TEST_DATA "/hf/");
const QString kGpt2Lesson = QStringLiteral(":/lessons/%1/16-gpt2-decoder-only.md");

/// The tiny test models under the names the shipped lessons require.
void linkModels(const QString& folder)
{
    QVERIFY(QDir().mkpath(folder));
    QVERIFY(QFile::link(kHf + "gpt2_f32", folder + "/gpt2"));
    QVERIFY(QFile::link(kHf + "bert_mlm_f32", folder + "/bert-base-uncased"));
    QVERIFY(QFile::link(kHf + "llama_gqa_tied_f32", folder + "/SmolLM2-135M"));
    QVERIFY(QFile::link(kHf + "qwen2_mqa_f16", folder + "/Qwen2.5-0.5B"));
}

/// The shipped lessons of `language` that need a model.
QStringList modelLessons(const QString& language)
{
    QStringList out;
    const QDir dir(QStringLiteral(":/lessons/") + language);
    for (const QString& f : dir.entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name)) {
        if (readLessonFile(dir.filePath(f)).requirement)
            out << dir.filePath(f);
    }
    return out;
}

/// A studio window in `language` ("en" or "zh"), shown.
struct Studio {
    explicit Studio(const QString& language)
    {
        languages.setLanguage(language == u"zh" ? QStringLiteral("zh_CN") : QStringLiteral("en"));
        window.setCurrentLanguage(languages.current());
        window.show();
    }
    LanguageManager languages;
    Session session;
    MainWindow window{&session};
    LessonPlayer* player() const { return window.lessonPlayer(); }
};

} // namespace

class TestLessonModels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        LanguageManager::useSimplifiedChineseGlyphs();
    }

    void cleanup()
    {
        ModelsFolder::setForThisRun({});
    }

    void everyStepPlaysWithTheModel_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString& language : {QStringLiteral("en"), QStringLiteral("zh")}) {
            const QStringList lessons = modelLessons(language);
            QVERIFY2(lessons.size() >= 3, qPrintable(language));
            for (const QString& path : lessons)
                QTest::newRow(qPrintable(path)) << path;
        }
    }

    void everyStepPlaysWithTheModel()
    {
        QFETCH(QString, path);
        QTemporaryDir dir;
        const QString models = dir.filePath("models");
        linkModels(models);
        ModelsFolder::setForThisRun(models);
        Studio studio(path.contains(QStringLiteral("/zh/")) ? QStringLiteral("zh") : QStringLiteral("en"));
        Session& s = studio.session;
        LessonPlayer* p = studio.player();
        QVERIFY2(p->openLessonFile(path), qPrintable(p->lastError()));
        const Lesson& lesson = *p->lesson();
        QVERIFY(p->lessonModel().state == LessonModel::State::Opened);
        const QString folder = models + QLatin1Char('/') + QString::fromStdString(lesson.requirement->name);
        QCOMPARE(QDir(p->lessonModel().folder), QDir(folder));
        QCOMPARE(QDir(s.modelPath()), QDir(folder));
        QVERIFY(p->modelBanner()->isHidden());
        for (int i = 0; i < static_cast<int>(lesson.steps.size()); ++i) {
            p->goToStep(i);
            const LessonStep& step = lesson.steps[static_cast<std::size_t>(i)];
            QCOMPARE(p->stepIndex(), i);
            QVERIFY2(s.error().isEmpty(), qPrintable(QStringLiteral("step %1: %2").arg(i + 1).arg(s.error())));
            QVERIFY2(p->notes().isEmpty(), qPrintable(QStringLiteral("step %1: %2").arg(i + 1).arg(p->notes())));
            QCOMPARE(s.stepId(), QString::fromStdString(step.stage));
            QCOMPARE(s.view(), QString::fromStdString(step.view));
            QVERIFY(s.config() == step.config);
            if (step.needsModel()) {
                // The tiny model's widths (tests/reference/hf/README.md), the step's layer and block.
                QVERIFY(s.isModel());
                const bool gated = lesson.requirement->family == PretrainedFamily::Llama
                                   || lesson.requirement->family == PretrainedFamily::Qwen2;
                QCOMPARE(s.config().dModel, gated ? 24 : 32);
                QCOMPARE(s.config().heads, !gated ? 4 : lesson.requirement->family == PretrainedFamily::Llama ? 6 : 3);
                if (s.currentStep().layer)
                    QCOMPARE(*s.currentStep().layer, step.layer);
            }
            QVERIFY(p->stepList()->item(i)->toolTip().isEmpty()); // no step is marked as text only
        }
    }

    void withoutTheModelTheBannerSaysWhatToDownload_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("needs");
        QTest::newRow("en") << "en" << "This lesson needs the GPT-2 model";
        QTest::newRow("zh") << "zh" << "这一课需要 GPT-2 模型";
    }

    void withoutTheModelTheBannerSaysWhatToDownload()
    {
        QFETCH(QString, language);
        QFETCH(QString, needs);
        QTemporaryDir dir;
        const QString models = dir.filePath("models"); // not made yet
        ModelsFolder::setForThisRun(models);
        Studio studio(language);
        Session& s = studio.session;
        LessonPlayer* p = studio.player();
        const QString sentence = QStringLiteral("my own sentence");
        s.setSentence(sentence);
        const Config own = s.config();
        QVERIFY(p->openLessonFile(kGpt2Lesson.arg(language)));
        QVERIFY(p->lessonModel().state == LessonModel::State::Missing);

        // The banner: which model, from where, the files, the folder to put them in.
        ModelBanner* banner = p->modelBanner();
        QVERIFY(banner->isVisibleTo(p));
        const QString text = banner->markdown();
        for (const QString& part : {needs, QStringLiteral("`gpt2`"), QStringLiteral("openai-community/gpt2"), QStringLiteral("config.json"),
                                    QStringLiteral("model.safetensors"), QStringLiteral("vocab.json"), QStringLiteral("merges.txt"),
                                    QDir::toNativeSeparators(models + QStringLiteral("/gpt2"))})
            QVERIFY2(text.contains(part), qPrintable(part + QStringLiteral(" not in: ") + text));
        QVERIFY(!banner->revealButton()->text().isEmpty());

        // A step that needs the model shows its text; the studio keeps its settings and shows the
        // lesson's sentence with them.
        const Lesson& lesson = *p->lesson();
        QVERIFY(lesson.steps[0].needsModel());
        QCOMPARE(s.sentence(), QString::fromStdString(*lesson.sentence));
        QVERIFY(s.config() == own);
        QVERIFY(p->explanation()->toPlainText().contains(QString::fromStdString(lesson.steps[0].title)));
        QVERIFY(p->stepList()->item(0)->toolTip().contains(QStringLiteral("gpt2")));
        QVERIFY(s.error().isEmpty());

        // Every step: no error, no crash; the one step without the model (one attention block) plays.
        int played = 0;
        for (int i = 0; i < static_cast<int>(lesson.steps.size()); ++i) {
            p->goToStep(i);
            const LessonStep& step = lesson.steps[static_cast<std::size_t>(i)];
            QVERIFY(s.error().isEmpty());
            QVERIFY(p->lastError().isEmpty());
            QVERIFY(p->notes().isEmpty());
            QVERIFY(banner->isVisibleTo(p));
            // Issue 28 §3: the view says the model is missing, never an earlier step's picture.
            QLabel* placeholder = studio.window.findChild<QLabel*>(QStringLiteral("ViewPlaceholder"));
            QCOMPARE(placeholder && placeholder->isVisible(), step.needsModel());
            if (step.needsModel())
                QVERIFY2(placeholder->text().contains(QStringLiteral("gpt2")), qPrintable(placeholder->text()));
            if (!step.needsModel()) {
                ++played;
                QVERIFY(s.config() == step.config);
                QCOMPARE(s.stepId(), QString::fromStdString(step.stage));
                QVERIFY(p->stepList()->item(i)->toolTip().isEmpty());
            } else {
                QVERIFY(s.config().model != ModelKind::File); // never the missing model
            }
        }
        QCOMPARE(played, 1);
        // After a step that played, a step that needs the model leaves it on screen.
        p->goToStep(2);
        const Config shown = s.config();
        const auto trace = s.fullTrace();
        p->goToStep(3);
        QVERIFY(s.config() == shown);
        QCOMPARE(s.fullTrace(), trace);

        // The model arrives: "Look again" opens it and shows the step with it.
        linkModels(models);
        QTest::mouseClick(banner->retryButton(), Qt::LeftButton);
        QVERIFY(p->lessonModel().state == LessonModel::State::Opened);
        QVERIFY(!banner->isVisibleTo(p));
        QVERIFY(!studio.window.findChild<QLabel*>(QStringLiteral("ViewPlaceholder"))->isVisible());
        QCOMPARE(p->stepIndex(), 3);
        QVERIFY(s.config() == lesson.steps[3].config);
        QCOMPARE(s.stepId(), QString::fromStdString(lesson.steps[3].stage));
        QVERIFY(s.isModel());
        QVERIFY(p->stepList()->item(0)->toolTip().isEmpty());

        // Stop gives the teacher's setup back.
        p->stop();
        QCOMPARE(s.sentence(), sentence);
        QVERIFY(s.config() == own);
    }

    void aFolderOfAnotherFamilyIsNamed()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::link(kHf + "bert_mlm_f32", dir.filePath("gpt2")));
        ModelsFolder::setForThisRun(dir.path());
        Studio studio(QStringLiteral("en"));
        QVERIFY(studio.player()->openLessonFile(kGpt2Lesson.arg(QStringLiteral("en"))));
        QVERIFY(studio.player()->lessonModel().state == LessonModel::State::Missing);
        const QString text = studio.player()->modelBanner()->markdown();
        QVERIFY2(text.contains(QStringLiteral("it holds a BERT model, and this lesson needs GPT-2")), qPrintable(text));
        QVERIFY(studio.session.config().model != ModelKind::File);
    }

    void aFolderThatCannotBeOpenedSaysWhy()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir("gpt2"));
        QVERIFY(QFile::copy(kHf + "gpt2_f32/config.json", dir.filePath("gpt2/config.json"))); // no weights, no vocabulary
        ModelsFolder::setForThisRun(dir.path());
        Studio studio(QStringLiteral("en"));
        LessonPlayer* p = studio.player();
        QVERIFY(p->openLessonFile(kGpt2Lesson.arg(QStringLiteral("en"))));
        QVERIFY(p->lessonModel().state == LessonModel::State::Failed);
        const QString text = p->modelBanner()->markdown();
        QVERIFY2(text.contains(QStringLiteral("could not be opened")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("model.safetensors")), qPrintable(text));
        QVERIFY(studio.session.config().model != ModelKind::File);
    }

    void aDeckWithoutTheModelSaysWhatIsMissing()
    {
        QTemporaryDir dir;
        ModelsFolder::setForThisRun(dir.filePath("models"));
        const Lesson lesson = readLessonFile(kGpt2Lesson.arg(QStringLiteral("en")));
        const auto needing = static_cast<int>(std::count_if(lesson.steps.begin(), lesson.steps.end(), [](const LessonStep& s) { return s.needsModel(); }));
        QVERIFY(needing > 0 && needing < static_cast<int>(lesson.steps.size()));
        // The steps that need no model, and one page saying which model to get and how (issue 29).
        const QString pages = dir.filePath("pages");
        DeckOptions png;
        png.format = DeckOptions::Format::Png;
        png.dpi = 24;
        const DeckResult r = renderLessonDeck(lesson, pages, png);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.pages, static_cast<int>(lesson.steps.size()) - needing + 1);
        QVERIFY(!r.notes.isEmpty());
        const QString note = r.notes.first();
        QVERIFY2(note.contains(QStringLiteral("this lesson needs the model gpt2")), qPrintable(note));
        QVERIFY2(note.contains(QDir::toNativeSeparators(dir.filePath("models/gpt2"))), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("attention-lab-cli download openai-community/gpt2")), qPrintable(note));
        // The model page stands where the first step that needs the model stood (the lesson's first).
        QVERIFY2(QFileInfo(r.files.first()).fileName().startsWith(QStringLiteral("01-this-lesson-needs-the-model-gpt2")), qPrintable(r.files.first()));
        const QString markdown = LessonModels::deckPageMarkdown(lesson, LessonModel{LessonModel::State::Missing, {}, {}});
        for (const QString& part : {QStringLiteral("`attention-lab-cli download openai-community/gpt2`"), QStringLiteral("Get models"),
                                    QStringLiteral("are left out of this deck")})
            QVERIFY2(markdown.contains(part), qPrintable(markdown));
        // With the model the same deck has a page per step.
        linkModels(dir.filePath("models"));
        const QString pdf = dir.filePath("deck.pdf");
        const DeckResult ok = renderLessonDeck(lesson, pdf, {});
        QVERIFY2(ok.ok, qPrintable(ok.error));
        QCOMPARE(ok.pages, static_cast<int>(lesson.steps.size()));
        QVERIFY(ok.notes.isEmpty() || !ok.notes.first().contains(QStringLiteral("needs the model")));
    }
};

QTEST_MAIN(TestLessonModels)
#include "tst_lessonmodels.moc"

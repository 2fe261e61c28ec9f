// File ▸ Models and the Models folder (docs/pretrained-models.md, "The Models folder"): where the
// folder is (this run's choice, ATTNLAB_MODELS_DIR, the saved choice, the default), the menu that
// lists its GPT-2 and BERT folders when it opens, opens one as File ▸ Open model folder does
// (errors reported the same way), says what to download when it is empty (links to the hub's pages,
// the folder's address that opens it), and sets the folder.

#include "session/modelsfolder.h"
#include "session/session.h"
#include "shell/fileactions.h"
#include "shell/languages.h"
#include "shell/mainwindow.h"
#include "shell/modelsmenu.h"

#include <QAction>
#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>

using namespace attnlab;

namespace {

const QString kHf = QStringLiteral(ATTNLAB_TEST_DATA "/hf/");
constexpr char kEnvironment[] = "ATTNLAB_MODELS_DIR";

QString plain(QString text)
{
    return text.remove(QLatin1Char('&'));
}

/// File ▸ Models of `w`, opened (its entries read from the Models folder as it is now).
QMenu* modelsMenu(const MainWindow& w)
{
    for (QAction* top : w.menuBar()->actions()) {
        if (!top->menu())
            continue;
        for (QAction* a : top->menu()->actions()) {
            if (a->menu() && (plain(a->text()) == QStringLiteral("Models") || a->text().contains(QStringLiteral("模型库")))) {
                emit a->menu()->aboutToShow();
                return a->menu();
            }
        }
    }
    return nullptr;
}

QStringList texts(const QMenu* menu, bool enabled)
{
    QStringList out;
    for (QAction* a : menu->actions()) {
        if (!a->isSeparator() && a->isEnabled() == enabled)
            out << a->text();
    }
    return out;
}

QAction* action(const QMenu* menu, const QString& text)
{
    for (QAction* a : menu->actions()) {
        if (plain(a->text()) == text)
            return a;
    }
    return nullptr;
}

/// Stands in for the web browser and the file manager: QDesktopServices::openUrl hands it the URL.
class UrlCatcher : public QObject {
    Q_OBJECT
public:
    explicit UrlCatcher(const QStringList& schemes)
        : m_schemes(schemes)
    {
        for (const QString& scheme : m_schemes)
            QDesktopServices::setUrlHandler(scheme, this, "open");
    }
    ~UrlCatcher() override
    {
        for (const QString& scheme : m_schemes)
            QDesktopServices::unsetUrlHandler(scheme);
    }
    QList<QUrl> urls;

public slots:
    void open(const QUrl& url) { urls << url; }

private:
    QStringList m_schemes;
};

/// Leaves the environment and the saved choice as the test found them.
struct KeepPlace {
    KeepPlace()
        : env(qgetenv(kEnvironment))
        , saved(QSettings(QStringLiteral("Attention Lab"), QStringLiteral("Attention Lab")).value(QStringLiteral("modelsFolder")))
    {
    }
    ~KeepPlace()
    {
        qputenv(kEnvironment, env);
        QSettings s(QStringLiteral("Attention Lab"), QStringLiteral("Attention Lab"));
        if (saved.isValid())
            s.setValue(QStringLiteral("modelsFolder"), saved);
        else
            s.remove(QStringLiteral("modelsFolder"));
        ModelsFolder::setForThisRun({});
    }
    QByteArray env;
    QVariant saved;
};

} // namespace

class TestModelsMenu : public QObject {
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

    void whereTheFolderIs()
    {
        const KeepPlace keep;
        QTemporaryDir dir;
        qunsetenv(kEnvironment);
        QSettings(QStringLiteral("Attention Lab"), QStringLiteral("Attention Lab")).remove(QStringLiteral("modelsFolder"));
        QVERIFY(ModelsFolder::source() == ModelsFolder::Source::Default);
        QCOMPARE(ModelsFolder::path(), ModelsFolder::defaultPath());
        QVERIFY(ModelsFolder::defaultPath().endsWith(QStringLiteral("/attention-lab/models")));
        QVERIFY(QDir::isAbsolutePath(ModelsFolder::defaultPath()));

        // Chosen in the studio: used now and saved for the next runs.
        ModelsFolder::choose(dir.filePath("chosen/"));
        QVERIFY(ModelsFolder::source() == ModelsFolder::Source::ThisRun);
        QCOMPARE(ModelsFolder::path(), dir.filePath("chosen"));
        ModelsFolder::setForThisRun({}); // a later run
        QVERIFY(ModelsFolder::source() == ModelsFolder::Source::Settings);
        QCOMPARE(ModelsFolder::path(), dir.filePath("chosen"));

        // The environment comes before the saved choice; --models-dir before both.
        qputenv(kEnvironment, QFile::encodeName(dir.filePath("env/../from-env")));
        QVERIFY(ModelsFolder::source() == ModelsFolder::Source::Environment);
        QCOMPARE(ModelsFolder::path(), dir.filePath("from-env"));
        ModelsFolder::setForThisRun(dir.filePath("run"));
        QVERIFY(ModelsFolder::source() == ModelsFolder::Source::ThisRun);
        QCOMPARE(ModelsFolder::path(), dir.filePath("run"));

        // Made when needed.
        QVERIFY(!QFileInfo::exists(dir.filePath("run")));
        QString error;
        QVERIFY(ModelsFolder::ensureExists(&error));
        QVERIFY(QFileInfo(dir.filePath("run")).isDir());
        QFile file(dir.filePath("a-file"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        ModelsFolder::setForThisRun(dir.filePath("a-file"));
        QVERIFY(!ModelsFolder::ensureExists(&error));
        QVERIFY2(error.contains(QStringLiteral("is a file, not a folder")), qPrintable(error));
    }

    void theMenuListsTheModelsAndOpensOne()
    {
        QTemporaryDir dir;
        const QDir root(dir.path());
        QVERIFY(QFile::link(kHf + "gpt2_f32", root.filePath("gpt2")));
        QVERIFY(QFile::link(kHf + "bert_mlm_f32", root.filePath("bert-base-uncased")));
        QVERIFY(root.mkdir("no-weights")); // a GPT-2 config.json alone: listed, and opening it says why not
        QVERIFY(QFile::copy(kHf + "gpt2_f32/config.json", root.filePath("no-weights/config.json")));
        QVERIFY(root.mkdir("t5"));
        QFile t5(root.filePath("t5/config.json"));
        QVERIFY(t5.open(QIODevice::WriteOnly));
        t5.write(R"({"model_type": "t5"})");
        t5.close();
        ModelsFolder::setForThisRun(dir.path());

        Session s;
        MainWindow w(&s);
        QMenu* menu = modelsMenu(w);
        QVERIFY(menu);
        const QStringList enabled = texts(menu, true);
        QCOMPARE(enabled.mid(0, 3), (QStringList{"bert-base-uncased \u2014 BERT, 2 layers \u00D7 4 heads", "gpt2 \u2014 GPT-2, 2 layers \u00D7 4 heads",
                                                 "no-weights \u2014 GPT-2, 2 layers \u00D7 4 heads"}));
        QVERIFY(action(menu, QStringLiteral("Open the Models folder")));
        QVERIFY(action(menu, QStringLiteral("Set Models folder\u2026")));
        const QStringList disabled = texts(menu, false);
        QVERIFY2(disabled.contains(QStringLiteral("t5 \u2014 not a model folder Attention Lab opens")), qPrintable(disabled.join('|')));
        QVERIFY(enabled.contains(QStringLiteral("Models folder: ") + QDir::toNativeSeparators(dir.path())));
        QVERIFY2(!enabled.join('|').contains(QStringLiteral("huggingface.co")), qPrintable(enabled.join('|'))); // models here: no hint

        // Choosing one opens it, as File ▸ Open model folder does; the menu then ticks it.
        QSignalSpy status(w.fileActions(), &FileActions::statusReported);
        menu->actions().at(1)->trigger();
        QCOMPARE(QDir(s.modelPath()), QDir(root.filePath("gpt2")));
        QVERIFY(s.config().model == ModelKind::File);
        QVERIFY(s.isModel());
        QVERIFY(s.error().isEmpty());
        QVERIFY(!status.isEmpty() && !status.last().at(1).toBool());
        menu = modelsMenu(w);
        QVERIFY(menu->actions().at(1)->isChecked());
        QVERIFY(!menu->actions().at(0)->isChecked());

        // A folder that cannot be opened: reported as an error, the model in use stays.
        menu->actions().at(2)->trigger();
        QVERIFY(status.last().at(1).toBool());
        QVERIFY2(status.last().at(0).toString().startsWith(QStringLiteral("Could not open the model")), qPrintable(status.last().at(0).toString()));
        QCOMPARE(QDir(s.modelPath()), QDir(root.filePath("gpt2")));

        // A model downloaded while the studio runs shows up the next time the menu opens.
        QVERIFY(QFile::link(kHf + "gpt2_bf16", root.filePath("gpt2-tiny")));
        menu = modelsMenu(w);
        QVERIFY(texts(menu, true).contains(QStringLiteral("gpt2-tiny \u2014 GPT-2, 1 layer \u00D7 1 head")));
    }

    void anEmptyFolderSaysWhatToDownload()
    {
        QTemporaryDir dir;
        ModelsFolder::setForThisRun(dir.filePath("not-yet"));
        Session s;
        MainWindow w(&s);
        QMenu* menu = modelsMenu(w);
        const QString hint = texts(menu, false).join(QLatin1Char('\n'));
        for (const char* part : {"No model here yet.", "tokenizer.json", "gpt2", "bert-base-uncased", "config.json", "model.safetensors", "vocab.json",
                                 "merges.txt", "vocab.txt"})
            QVERIFY2(hint.contains(QLatin1String(part)), part);
        // The hub's pages and the folder's address are entries to click, not greyed text.
        const QString folder = QStringLiteral("Models folder: ") + QDir::toNativeSeparators(dir.filePath("not-yet"));
        QCOMPARE(texts(menu, true), (QStringList{"Download gpt2 from huggingface.co/openai-community/gpt2",
                                                 "Download bert-base-uncased from huggingface.co/google-bert/bert-base-uncased", "&Get models\u2026", folder,
                                                 "&Open the Models folder", "&Set Models folder\u2026"}));
        const UrlCatcher browser({QStringLiteral("https"), QStringLiteral("file")});
        action(menu, QStringLiteral("Download gpt2 from huggingface.co/openai-community/gpt2"))->trigger();
        action(menu, QStringLiteral("Download bert-base-uncased from huggingface.co/google-bert/bert-base-uncased"))->trigger();
        action(menu, folder)->trigger();
        QCOMPARE(browser.urls, (QList<QUrl>{QUrl(QStringLiteral("https://huggingface.co/openai-community/gpt2")),
                                            QUrl(QStringLiteral("https://huggingface.co/google-bert/bert-base-uncased")),
                                            QUrl::fromLocalFile(dir.filePath("not-yet"))}));
        QVERIFY(QFileInfo(dir.filePath("not-yet")).isDir()); // made first, as Open the Models folder does
    }

    void settingTheFolder()
    {
        const KeepPlace keep;
        QTemporaryDir dir;
        QVERIFY(QFile::link(kHf + "bert_mlm_f32", dir.filePath("bert")));
        Session s;
        MainWindow w(&s);
        auto* models = new ModelsMenu(&s, w.fileActions(), &w);
        QSignalSpy status(models, &ModelsMenu::statusReported);
        QVERIFY(models->choose(dir.path()));
        QCOMPARE(ModelsFolder::path(), dir.path());
        QCOMPARE(QSettings(QStringLiteral("Attention Lab"), QStringLiteral("Attention Lab")).value(QStringLiteral("modelsFolder")).toString(), dir.path());
        QVERIFY2(status.last().at(0).toString().contains(QStringLiteral("(models found: 1)")), qPrintable(status.last().at(0).toString()));
        // A folder that does not exist yet is made; a file is refused and nothing changes.
        QVERIFY(models->choose(dir.filePath("new/models")));
        QVERIFY(QFileInfo(dir.filePath("new/models")).isDir());
        QFile file(dir.filePath("file"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        QVERIFY(!models->choose(dir.filePath("file")));
        QVERIFY(status.last().at(1).toBool());
        QCOMPARE(ModelsFolder::path(), dir.filePath("new/models"));
    }

    void theMenuSpeaksChinese()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::link(kHf + "gpt2_f32", dir.filePath("gpt2")));
        ModelsFolder::setForThisRun(dir.path());
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        Session s;
        MainWindow w(&s);
        w.setCurrentLanguage(languages.current());
        QMenu* menu = modelsMenu(w);
        QVERIFY(menu);
        QCOMPARE(texts(menu, true).first(), QStringLiteral("gpt2 \u2014 GPT-2\uFF0C2 \u5C42 \u00D7 4 \u4E2A\u5934"));
        languages.setLanguage(QStringLiteral("en"));
    }
};

QTEST_MAIN(TestModelsMenu)
#include "tst_modelsmenu.moc"

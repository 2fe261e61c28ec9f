// A lesson whose model is missing gets it with one click (docs/pretrained-models.md, "Getting a
// model"): the banner's Download fetches the model it names from a stand-in for the hub on
// 127.0.0.1 (support/hubserver.h) into the Models folder, with a progress bar, and the lesson then
// plays with it, in English and Chinese; a download that fails says why in the banner, in the
// interface's language; a model fetched in File ▸ Models ▸ Get models… makes the lesson play too.

#include "lessons/lessonplayer.h"
#include "lessons/modelbanner.h"
#include "session/modeldownloads.h"
#include "session/modelsfolder.h"
#include "session/session.h"
#include "shell/languages.h"
#include "shell/mainwindow.h"
#include "support/hubserver.h"

#include <QDir>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;
using attnlab::testing::HubServer;

namespace {

const QString kHf = QStringLiteral(ATTNLAB_TEST_DATA "/hf/");
const QString kGpt2Lesson = QStringLiteral(":/lessons/%1/16-gpt2-decoder-only.md");
constexpr int kWait = 60000;

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

class TestLessonDownload : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<HubServer> m_server;
    QTemporaryDir m_dir;
    int m_run = 0;
    QString m_models;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        LanguageManager::useSimplifiedChineseGlyphs();
        qunsetenv("HF_TOKEN");
    }

    void init()
    {
        m_server = std::make_unique<HubServer>();
        qputenv("HF_ENDPOINT", m_server->url().toUtf8());
        m_models = m_dir.filePath(QStringLiteral("models%1").arg(++m_run));
        ModelsFolder::setForThisRun(m_models);
    }

    void cleanup()
    {
        QTRY_VERIFY_WITH_TIMEOUT(ModelDownloads::instance()->running().isEmpty(), kWait);
        m_server.reset();
        qunsetenv("HF_ENDPOINT");
        ModelsFolder::setForThisRun({});
    }

    void downloadThenTheLessonPlays_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("button");
        QTest::newRow("en") << "en" << "Download";
        QTest::newRow("zh") << "zh" << "下载";
    }

    void downloadThenTheLessonPlays()
    {
        QFETCH(QString, language);
        QFETCH(QString, button);
        m_server->addRepo(QStringLiteral("openai-community/gpt2"), HubServer::folderFiles(kHf + "gpt2_f32"));
        m_server->throttle(QStringLiteral("model.safetensors"), 16384, 10); // long enough to see the bar
        Studio studio(language);
        LessonPlayer* p = studio.player();
        QVERIFY(p->openLessonFile(kGpt2Lesson.arg(language)));
        QVERIFY(p->lessonModel().state == LessonModel::State::Missing);
        ModelBanner* banner = p->modelBanner();
        QVERIFY(banner->downloadButton()->isVisibleTo(p));
        QTRY_COMPARE(banner->downloadButton()->text(), button); // the language change is an event
        QVERIFY(!p->missingModel().isEmpty());
        QTest::mouseClick(banner->downloadButton(), Qt::LeftButton);
        QVERIFY(banner->cancelButton()->isVisibleTo(p));
        QVERIFY(banner->progressBar()->isVisibleTo(p));
        QVERIFY(!banner->downloadButton()->isEnabled());
        // The lesson plays with the model once it is there, at the step it was on.
        QTRY_VERIFY_WITH_TIMEOUT(p->lessonModel().state == LessonModel::State::Opened, kWait);
        QVERIFY(!banner->isVisibleTo(p));
        QVERIFY(p->missingModel().isEmpty());
        QVERIFY(studio.session.isModel());
        QCOMPARE(QDir(studio.session.modelPath()), QDir(m_models + "/gpt2"));
        QCOMPARE(p->stepIndex(), 0);
        QVERIFY(studio.session.config() == p->lesson()->steps[0].config);
        QVERIFY(!studio.window.findChild<QLabel*>(QStringLiteral("ViewPlaceholder"))->isVisible());
        p->goToStep(3);
        QVERIFY(studio.session.error().isEmpty());
        QCOMPARE(studio.session.stepId(), QString::fromStdString(p->lesson()->steps[3].stage));
    }

    void aFailedDownloadSaysWhyInTheBanner_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("says");
        QTest::newRow("en") << "en" << "gpt2 could not be downloaded: there is no model openai-community/gpt2 with the revision main";
        QTest::newRow("zh") << "zh" << "无法下载 gpt2";
    }

    void aFailedDownloadSaysWhyInTheBanner()
    {
        QFETCH(QString, language);
        QFETCH(QString, says);
        Studio studio(language); // the hub has no such model
        LessonPlayer* p = studio.player();
        QVERIFY(p->openLessonFile(kGpt2Lesson.arg(language)));
        ModelBanner* banner = p->modelBanner();
        QTest::mouseClick(banner->downloadButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!banner->problem().isEmpty(), kWait);
        QVERIFY2(banner->problem().contains(says), qPrintable(banner->problem()));
        QVERIFY(banner->downloadButton()->isEnabled());
        QVERIFY(!banner->cancelButton()->isVisibleTo(p));
        QVERIFY(p->lessonModel().state == LessonModel::State::Missing);
        QVERIFY(!QFileInfo::exists(m_models + "/gpt2"));
        // Another step of the lesson keeps the sentence.
        p->goToStep(1);
        QVERIFY2(banner->problem().contains(says), qPrintable(banner->problem()));
    }

    void aModelFetchedElsewhereMakesTheLessonPlay()
    {
        m_server->addRepo(QStringLiteral("openai-community/gpt2"), HubServer::folderFiles(kHf + "gpt2_f32"));
        Studio studio(QStringLiteral("en"));
        LessonPlayer* p = studio.player();
        QVERIFY(p->openLessonFile(kGpt2Lesson.arg(QStringLiteral("en"))));
        ModelDownloads::instance()->download({QStringLiteral("openai-community"), QStringLiteral("gpt2")}, QStringLiteral("main"), QStringLiteral("gpt2"));
        QTRY_VERIFY_WITH_TIMEOUT(p->lessonModel().state == LessonModel::State::Opened, kWait);
        QVERIFY(studio.session.isModel());
    }
};

QTEST_MAIN(TestLessonDownload)
#include "tst_lessondownload.moc"

// File ▸ Models ▸ Get models… (docs/pretrained-models.md, "Getting a model"), with real widgets,
// against a stand-in for the hub on 127.0.0.1 (support/hubserver.h): the catalogue says what each
// model is (size, licence, use, lessons, whether it is here), Download fetches the selected one
// with progress bars into the Models folder, "Another model…" takes any owner/name and says why
// one cannot be had in a sentence, Cancel keeps what arrived and Download goes on from there, the
// endpoint typed is checked and kept (HF_ENDPOINT wins), the token is kept for the user, and the
// studio stays usable meanwhile.

#include "hub/hubaddress.h"
#include "session/modeldownloads.h"
#include "session/modelsfolder.h"
#include "session/session.h"
#include "shell/getmodelsdialog.h"
#include "shell/languages.h"
#include "shell/mainwindow.h"
#include "support/hubserver.h"

#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace attnlab;
using attnlab::testing::HubServer;

namespace {

const QString kHf = QStringLiteral(ATTNLAB_TEST_DATA "/hf/");
constexpr int kWait = 60000;

QAction* findAction(const QMenuBar* bar, const QString& text)
{
    for (QAction* top : bar->actions()) {
        if (!top->menu())
            continue;
        for (QAction* a : top->menu()->actions()) {
            if (!a->menu())
                continue;
            emit a->menu()->aboutToShow();
            for (QAction* b : a->menu()->actions()) {
                if (QString(b->text()).remove(QLatin1Char('&')) == text)
                    return b;
            }
        }
    }
    return nullptr;
}

QTreeWidgetItem* row(const GetModelsDialog& d, const QString& name)
{
    for (int i = 0; i < d.list()->topLevelItemCount(); ++i) {
        if (d.list()->topLevelItem(i)->text(0) == name)
            return d.list()->topLevelItem(i);
    }
    return nullptr;
}

/// Waits until no download runs (the downloads are the program's, shared by every test).
void waitIdle()
{
    QTRY_VERIFY_WITH_TIMEOUT(ModelDownloads::instance()->running().isEmpty(), kWait);
}

/// The environment and saved settings as the test found them.
struct KeepHub {
    KeepHub()
        : endpoint(qgetenv("HF_ENDPOINT"))
        , token(qgetenv("HF_TOKEN"))
    {
    }
    ~KeepHub()
    {
        qputenv("HF_ENDPOINT", endpoint);
        qputenv("HF_TOKEN", token);
        HubAddress::setEndpoint({});
        HubAddress::setToken({});
        ModelsFolder::setForThisRun({});
    }
    QByteArray endpoint, token;
};

} // namespace

class TestGetModelsDialog : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<HubServer> m_server;
    QTemporaryDir m_dir;
    QString m_models;
    int m_run = 0;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qunsetenv("HF_TOKEN");
    }

    void init()
    {
        m_server = std::make_unique<HubServer>();
        m_server->addRepo(QStringLiteral("openai-community/gpt2"), HubServer::folderFiles(kHf + "gpt2_f32"));
        m_server->addRepo(QStringLiteral("google-bert/bert-base-chinese"), HubServer::folderFiles(kHf + "bert_mlm_f32"));
        m_server->addRepo(QStringLiteral("owner/t5"), {{"config.json", {R"({"model_type": "t5"})", false}}, {"model.safetensors", {"x", true}}});
        m_server->addRepo(QStringLiteral("owner/gated"), HubServer::folderFiles(kHf + "bert_mlm_f32"), QStringLiteral("hf_secret"));
        qputenv("HF_ENDPOINT", m_server->url().toUtf8());
        m_models = m_dir.filePath(QStringLiteral("models%1").arg(++m_run));
        ModelsFolder::setForThisRun(m_models);
    }

    void cleanup()
    {
        waitIdle();
        m_server.reset();
        qunsetenv("HF_ENDPOINT");
        ModelsFolder::setForThisRun({});
    }

    void theCatalogueSaysWhatEachModelIs()
    {
        QVERIFY(QDir().mkpath(m_models));
        QVERIFY(QFile::link(kHf + "gpt2_f32", m_models + "/gpt2"));
        Session s;
        MainWindow w(&s);
        QAction* get = findAction(w.menuBar(), QStringLiteral("Get models\u2026"));
        QVERIFY(get);
        get->trigger();
        auto* d = w.findChild<GetModelsDialog*>();
        QVERIFY(d && d->isVisible());
        QStringList names;
        for (int i = 0; i < d->list()->topLevelItemCount(); ++i)
            names << d->list()->topLevelItem(i)->text(0);
        QCOMPARE(names, (QStringList{"gpt2", "bert-base-uncased", "bert-base-chinese", "distilgpt2", "SmolLM2-135M", "Qwen2.5-0.5B", "SmolLM2-360M", "Qwen3-0.6B", "Another model\u2026"}));
        QTreeWidgetItem* gpt2 = row(*d, QStringLiteral("gpt2"));
        QCOMPARE(gpt2->text(1), QStringLiteral("about 549.6 MB"));
        QCOMPARE(gpt2->text(2), QStringLiteral("MIT"));
        QVERIFY(gpt2->text(3).contains(QStringLiteral("GPT-2 small")));
        QCOMPARE(gpt2->text(4), QStringLiteral("16"));
        QCOMPARE(gpt2->text(5), QStringLiteral("\u2714 yes"));
        QCOMPARE(row(*d, QStringLiteral("bert-base-uncased"))->text(4), QStringLiteral("15, 17"));
        QCOMPARE(row(*d, QStringLiteral("bert-base-chinese"))->text(5), QStringLiteral("\u2014"));
        QVERIFY(d->endpointField()->isReadOnly()); // HF_ENDPOINT wins
        QCOMPARE(d->endpointField()->text(), m_server->url());
        // The same dialog comes back.
        get->trigger();
        QCOMPARE(w.findChildren<GetModelsDialog*>().size(), 1);
    }

    void downloadFetchesTheSelectedModel()
    {
        GetModelsDialog d;
        d.show();
        d.select(QStringLiteral("bert-base-chinese"));
        QTest::mouseClick(d.downloadButton(), Qt::LeftButton);
        QVERIFY(!d.downloadButton()->isEnabled()); // not twice
        QTRY_VERIFY_WITH_TIMEOUT(d.statusLabel()->text().contains(QStringLiteral("is in your Models folder now")), kWait);
        QVERIFY2(d.statusLabel()->text().startsWith(QStringLiteral("bert-base-chinese is in your Models folder now")), qPrintable(d.statusLabel()->text()));
        QVERIFY(QFileInfo(m_models + "/bert-base-chinese/model.safetensors").isFile());
        QCOMPARE(row(d, QStringLiteral("bert-base-chinese"))->text(5), QStringLiteral("\u2714 yes"));
        QVERIFY(d.downloadButton()->isEnabled());
        QVERIFY(!d.cancelButton()->isEnabled());
    }

    void anotherModelAndWhyNot()
    {
        GetModelsDialog d;
        d.show();
        d.list()->setCurrentItem(row(d, QStringLiteral("Another model\u2026")));
        QVERIFY(d.repoField()->isEnabled());
        QVERIFY(!d.downloadButton()->isEnabled()); // nothing typed yet
        QTest::keyClicks(d.repoField(), QStringLiteral("not a name"));
        QVERIFY(!d.startDownload());
        QVERIFY2(d.statusLabel()->text().contains(QStringLiteral("is not the name of a model on the hub")), qPrintable(d.statusLabel()->text()));
        d.repoField()->setText(QStringLiteral("owner/t5"));
        QTest::mouseClick(d.downloadButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(d.statusLabel()->text().contains(QStringLiteral("could not be downloaded")), kWait);
        QVERIFY2(d.statusLabel()->text().contains(QStringLiteral("t5 could not be downloaded: owner/t5 is a model of type \u201Ct5\u201D, which Attention Lab cannot open")),
                 qPrintable(d.statusLabel()->text()));
        d.repoField()->setText(QStringLiteral("owner/nothing"));
        QTest::mouseClick(d.downloadButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(d.statusLabel()->text().contains(QStringLiteral("(HTTP 404)")), kWait);
        // A gated model: its token typed in the dialog is used, and kept for the user.
        d.repoField()->setText(QStringLiteral("owner/gated"));
        QTest::mouseClick(d.downloadButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(d.statusLabel()->text().contains(QStringLiteral("accept its licence on the hub and give an access token")), kWait);
        d.tokenField()->setText(QStringLiteral("hf_secret"));
        QTest::mouseClick(d.downloadButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(d.statusLabel()->text().contains(QStringLiteral("gated is in your Models folder now")), kWait);
        QCOMPARE(HubAddress::token(), QStringLiteral("hf_secret"));
        HubAddress::setToken({});
        QVERIFY(QFileInfo(m_models + "/gated/vocab.txt").isFile());
    }

    void cancelKeepsWhatArrivedAndDownloadGoesOn()
    {
        const qint64 size = QFileInfo(kHf + "gpt2_f32/model.safetensors").size();
        m_server->throttle(QStringLiteral("model.safetensors"), 2048, 20);
        GetModelsDialog d;
        d.show();
        d.select(QStringLiteral("gpt2"));
        QTest::mouseClick(d.downloadButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(d.fileBar()->value() > 0 && d.overallBar()->value() > 0, kWait);
        QVERIFY(d.cancelButton()->isEnabled());
        QTest::mouseClick(d.cancelButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(d.statusLabel()->text().contains(QStringLiteral("what arrived is kept")), kWait);
        QVERIFY(!QFileInfo::exists(m_models + "/gpt2"));
        QVERIFY2(row(d, QStringLiteral("gpt2"))->text(5).contains(QStringLiteral("so far; Download goes on")), qPrintable(row(d, QStringLiteral("gpt2"))->text(5)));
        const qint64 kept = QFileInfo(m_models + "/.downloads/gpt2/model.safetensors.incomplete").size();
        QVERIFY(kept > 0 && kept < size);
        m_server->throttle(QStringLiteral("model.safetensors"), 0, 0);
        QTest::mouseClick(d.downloadButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(d.statusLabel()->text().contains(QStringLiteral("is in your Models folder now")), kWait);
        QVERIFY(m_server->count(QStringLiteral(" Range: bytes=%1-").arg(kept)) >= 1);
        QCOMPARE(QFileInfo(m_models + "/gpt2/model.safetensors").size(), size);
    }

    void theEndpointTypedIsCheckedAndKept()
    {
        const KeepHub keep;
        qunsetenv("HF_ENDPOINT");
        HubAddress::setEndpoint({});
        GetModelsDialog d;
        d.show();
        QVERIFY(!d.endpointField()->isReadOnly());
        QCOMPARE(d.endpointField()->text(), QStringLiteral("https://huggingface.co"));
        d.endpointField()->setText(QStringLiteral("hf-mirror.com"));
        d.select(QStringLiteral("gpt2"));
        QVERIFY(!d.startDownload());
        QVERIFY2(d.statusLabel()->text().contains(QStringLiteral("is not the address of a hub")), qPrintable(d.statusLabel()->text()));
        QVERIFY(ModelDownloads::instance()->running().isEmpty());
        d.endpointField()->setText(m_server->url() + QStringLiteral("/"));
        QTest::mouseClick(d.downloadButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(d.statusLabel()->text().contains(QStringLiteral("is in your Models folder now")), kWait);
        QCOMPARE(HubAddress::endpoint(), m_server->url());
        QVERIFY(HubAddress::endpointSource() == HubAddress::Source::Settings);
    }

    void itSpeaksTheInterfacesLanguage()
    {
        LanguageManager languages;
        GetModelsDialog d;
        d.show();
        languages.setLanguage(QStringLiteral("zh_CN"));
        QTRY_COMPARE(d.windowTitle(), QStringLiteral("获取模型")); // written again where it stands
        QTreeWidgetItem* another = d.list()->topLevelItem(d.list()->topLevelItemCount() - 1);
        QCOMPARE(another->text(0), QStringLiteral("其他模型…"));
        d.list()->setCurrentItem(another);
        d.repoField()->setText(QStringLiteral("owner/nothing"));
        QTest::mouseClick(d.downloadButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(d.statusLabel()->text().contains(QStringLiteral("HTTP 404")), kWait);
        QVERIFY2(d.statusLabel()->text().startsWith(QStringLiteral("无法下载 nothing：")), qPrintable(d.statusLabel()->text()));
        languages.setLanguage(QStringLiteral("en"));
        QTRY_COMPARE(d.windowTitle(), QStringLiteral("Get models"));
    }

    void theStudioStaysUsableMeanwhile()
    {
        m_server->throttle(QStringLiteral("model.safetensors"), 1024, 20);
        Session s;
        MainWindow w(&s);
        w.show();
        GetModelsDialog d(&w);
        d.show();
        d.select(QStringLiteral("gpt2"));
        QTest::mouseClick(d.downloadButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(m_server->bytesSent(QStringLiteral("model.safetensors")) > 0, kWait);
        s.setSentence(QStringLiteral("the studio computes while a model downloads"));
        QVERIFY(s.error().isEmpty());
        QCOMPARE(s.trace()->tokens.size(), std::size_t(7));
        QCOMPARE(ModelDownloads::instance()->running(), QStringLiteral("gpt2"));
        ModelDownloads::instance()->cancel(QStringLiteral("gpt2"));
    }
};

QTEST_MAIN(TestGetModelsDialog)
#include "tst_getmodelsdialog.moc"

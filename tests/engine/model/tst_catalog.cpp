// The Models folder's catalogue (model/catalog.h): the sub-folders with a config.json of GPT-2
// or BERT, their sizes read from it, the others set aside with the reason; nothing else counts.
#include "model/catalog.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;

namespace {

void write(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

std::string local(const QString& path)
{
    return QFile::encodeName(path).toStdString();
}

} // namespace

class TestCatalog : public QObject {
    Q_OBJECT
private slots:
    void listsGpt2AndBertFolders()
    {
        QTemporaryDir dir;
        const QDir root(dir.path());
        const QString hf = QStringLiteral(ATTNLAB_TEST_DATA "/hf/");
        // Links to the test folders (as a user may link a download), a real folder, and things
        // that are not models: a folder without config.json, a plain file, a broken link.
        QVERIFY(QFile::link(hf + "gpt2_f32", root.filePath("gpt2")));
        QVERIFY(QFile::link(hf + "bert_mlm_f32", root.filePath("bert-base-uncased")));
        QVERIFY(root.mkdir("my copy"));
        for (const char* f : {"config.json", "model.safetensors", "vocab.txt"})
            QVERIFY(QFile::copy(hf + "bert_model_cased/" + f, root.filePath(QStringLiteral("my copy/") + f)));
        QVERIFY(root.mkdir("notes"));
        write(root.filePath("notes/readme.txt"), "not a model");
        write(root.filePath("config.json"), "{}"); // a file at the top, not a folder
        QVERIFY(QFile::link(root.filePath("gone"), root.filePath("dangling")));
        // Folders with a config.json that Attention Lab does not open.
        QVERIFY(root.mkdir("distilbert"));
        write(root.filePath("distilbert/config.json"), R"({"model_type": "distilbert", "dim": 768})");
        QVERIFY(root.mkdir("broken"));
        write(root.filePath("broken/config.json"), "{ not json");

        const ModelCatalog c = scanModelsFolder(local(dir.path()));
        QCOMPARE(c.models.size(), std::size_t(3));
        // Sorted by name; sizes as in each config.json (tests/reference/hf/README.md).
        QCOMPARE(QString::fromStdString(c.models[0].name), QStringLiteral("bert-base-uncased"));
        QVERIFY(c.models[0].config.family == PretrainedFamily::Bert);
        QCOMPARE(c.models[0].config.layers, 2);
        QCOMPARE(c.models[0].config.heads, 4);
        QCOMPARE(c.models[0].config.dModel, 32);
        QCOMPARE(QString::fromStdString(c.models[0].path), root.filePath("bert-base-uncased"));
        QCOMPARE(QString::fromStdString(c.models[1].name), QStringLiteral("gpt2"));
        QVERIFY(c.models[1].config.family == PretrainedFamily::Gpt2);
        QCOMPARE(c.models[1].config.layers, 2);
        QCOMPARE(c.models[1].config.heads, 4);
        QCOMPARE(c.models[1].config.vocabulary, 587);
        QCOMPARE(QString::fromStdString(c.models[2].name), QStringLiteral("my copy"));
        QCOMPARE(c.models[2].config.layers, 1);
        QCOMPARE(c.models[2].config.heads, 3);
        QCOMPARE(c.models[2].config.dModel, 24);

        QCOMPARE(c.skipped.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(c.skipped[0].name), QStringLiteral("broken"));
        QVERIFY2(QString::fromStdString(c.skipped[0].reason).contains(QStringLiteral("broken/config.json")), c.skipped[0].reason.c_str());
        QCOMPARE(QString::fromStdString(c.skipped[1].name), QStringLiteral("distilbert"));
        QVERIFY2(QString::fromStdString(c.skipped[1].reason).contains(QStringLiteral("distilbert")), c.skipped[1].reason.c_str());
    }

    void aMissingFolderHasNoModels()
    {
        QTemporaryDir dir;
        for (const QString& path : {dir.filePath("not-made-yet"), dir.path() + QStringLiteral("/file"), QString()}) {
            if (path.endsWith(QStringLiteral("/file")))
                write(path, "x");
            const ModelCatalog c = scanModelsFolder(local(path));
            QVERIFY(c.models.empty());
            QVERIFY(c.skipped.empty());
        }
        QVERIFY(scanModelsFolder(local(dir.path())).models.empty()); // empty
    }
};

QTEST_APPLESS_MAIN(TestCatalog)
#include "tst_catalog.moc"

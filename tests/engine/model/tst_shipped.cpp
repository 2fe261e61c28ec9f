// The model inside the program: the shipped reversal model is built into the engine, read once
// and shared; a model file that cannot be read gives its reason.

#include "io/safetensors.h"
#include "model/shipped.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;

class TestShipped : public QObject {
    Q_OBJECT
private slots:
    void shippedModelIsInTheProgram()
    {
        // The bytes built in are the repository's file.
        QFile f(QStringLiteral(ATTNLAB_TEST_DATA "/../../resources/models/reversal.safetensors"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray file = f.readAll();
        QVERIFY(!shippedModelBytes().empty());
        QVERIFY(shippedModelBytes() == std::string_view(file.constData(), static_cast<std::size_t>(file.size())));
        const auto m = shippedModel();
        QVERIFY(m);
        QCOMPARE(m->source, std::string("built-in:reversal"));
        QVERIFY(m->hasHead());
        QCOMPARE(m->spec.dModel, 64);
        QCOMPARE(shippedModel().get(), m.get()); // read once, shared
    }

    void unreadableModelFiles()
    {
        try {
            loadModel("/nonexistent/m.safetensors");
            QFAIL("a missing file was read");
        } catch (const FormatError& e) {
            QVERIFY2(std::string(e.what()).find("/nonexistent/m.safetensors") != std::string::npos, e.what());
        }
        QTemporaryDir dir;
        const QString path = dir.filePath("empty.safetensors");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        QVERIFY_THROWS_EXCEPTION(FormatError, loadModel(path.toStdString()));
        // The shipped model written out reads back as a file model.
        const QString copy = dir.filePath("copy.safetensors");
        saveModel(*shippedModel(), copy.toStdString());
        const Seq2SeqModel back = loadModel(copy.toStdString());
        QCOMPARE(back.source, "file:" + copy.toStdString());
        QVERIFY(back.tgtEmbedding == shippedModel()->tgtEmbedding);
    }
};

QTEST_APPLESS_MAIN(TestShipped)
#include "tst_shipped.moc"

// The models inside the program: the shipped reversal model is read from the resources once
// and shared; a model file that cannot be read gives its reason.

#include "session/models.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;

class TestModels : public QObject {
    Q_OBJECT
private slots:
    void shippedModelIsInTheProgram()
    {
        QVERIFY(QFile::exists(QString::fromLatin1(kShippedModelResource)));
        QString error;
        const auto m = shippedModel(&error);
        QVERIFY2(m, qPrintable(error));
        QCOMPARE(m->source, std::string("built-in:reversal"));
        QVERIFY(m->hasHead());
        QCOMPARE(m->options.dModel, 64);
        QCOMPARE(shippedModel().get(), m.get()); // read once, shared
    }

    void unreadableModelFiles()
    {
        QString error;
        QVERIFY(!readModelFile(QStringLiteral("/nonexistent/m.safetensors"), &error));
        QVERIFY2(error.contains(QStringLiteral("/nonexistent/m.safetensors")), qPrintable(error));
        QTemporaryDir dir;
        const QString path = dir.filePath("empty.safetensors");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        QVERIFY(!readModelFile(path, &error));
        QVERIFY(!error.isEmpty());
        // The shipped model written out reads back as a file model.
        const QString copy = dir.filePath("copy.safetensors");
        saveModel(*shippedModel(), copy.toStdString());
        const auto back = readModelFile(copy, &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->source, "file:" + copy.toStdString());
        QVERIFY(back->tgtEmbedding == shippedModel()->tgtEmbedding);
    }
};

QTEST_MAIN(TestModels)
#include "tst_models.moc"

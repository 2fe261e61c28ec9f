// Base64 as session files embed their weights: the test vectors of RFC 4648 (section 10), every
// byte value, and the texts the decoder refuses.
#include "io/base64.h"

#include <QtTest>

#include <string>

using attnlab::fromBase64;
using attnlab::toBase64;

class TestBase64 : public QObject {
    Q_OBJECT
private slots:
    void rfc4648_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("empty") << QByteArray("") << QByteArray("");
        QTest::newRow("f") << QByteArray("f") << QByteArray("Zg==");
        QTest::newRow("fo") << QByteArray("fo") << QByteArray("Zm8=");
        QTest::newRow("foo") << QByteArray("foo") << QByteArray("Zm9v");
        QTest::newRow("foob") << QByteArray("foob") << QByteArray("Zm9vYg==");
        QTest::newRow("fooba") << QByteArray("fooba") << QByteArray("Zm9vYmE=");
        QTest::newRow("foobar") << QByteArray("foobar") << QByteArray("Zm9vYmFy");
    }
    void rfc4648()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QByteArray, text);
        QCOMPARE(QByteArray::fromStdString(toBase64(bytes.toStdString())), text);
        const auto back = fromBase64(text.toStdString());
        QVERIFY(back);
        QCOMPARE(QByteArray::fromStdString(*back), bytes);
        // Without its padding, and wrapped as an editor may wrap it.
        QCOMPARE(fromBase64(text.replace('=', "").toStdString()), std::optional(bytes.toStdString()));
        // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
        std::string wrapped = " ";
        wrapped += text.insert(text.size() / 2, "\r\n").toStdString();
        wrapped += '\n';
        QCOMPARE(fromBase64(wrapped), std::optional(bytes.toStdString()));
    }

    void everyByte()
    {
        std::string bytes;
        for (int i = 0; i < 256; ++i)
            bytes += static_cast<char>(i);
        const std::string text = toBase64(bytes);
        QCOMPARE(text.size(), std::size_t(344)); // 4 · ceil(256 / 3)
        QCOMPARE(text.substr(0, 8), std::string("AAECAwQF")); // 00 01 02 | 03 04 05
        QCOMPARE(text.substr(text.size() - 4), std::string("/w==")); // ff: 111111 11(0000)
        QCOMPARE(fromBase64(text), std::optional(bytes));
    }

    void refused_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("outside the alphabet") << QByteArray("Zm9v!");
        QTest::newRow("url-safe alphabet") << QByteArray("-_8=");
        QTest::newRow("one character left over") << QByteArray("Zm9vY");
        QTest::newRow("text after padding") << QByteArray("Zg==Zg==");
        QTest::newRow("padding only") << QByteArray("====");
        QTest::newRow("too much padding") << QByteArray("Zm8==");
        QTest::newRow("NUL") << QByteArray("Zm9v\0", 5);
    }
    void refused()
    {
        QFETCH(QByteArray, text);
        QVERIFY(!fromBase64(text.toStdString()));
    }
};

QTEST_APPLESS_MAIN(TestBase64)
#include "tst_base64.moc"

// Quoting user input in messages (text/printable.h): control characters, invisible characters
// that reorder or break lines and bytes that are not UTF-8 become escapes; all else is kept.
// Expected strings are written by hand from the rules in the header.

#include "text/printable.h"

#include <QtTest>

#include <string>

namespace {

std::string bytes(const QByteArray& b)
{
    return b.toStdString();
}

} // namespace

class TestPrintable : public QObject {
    Q_OBJECT
private slots:
    void printable_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("ascii") << QByteArray("The cat sat.") << QByteArray("The cat sat.");
        QTest::newRow("chinese") << QByteArray("狗咬了人") << QByteArray("狗咬了人");
        QTest::newRow("full_width_digit") << QByteArray("\xEF\xBC\x91") << QByteArray("\xEF\xBC\x91");
        QTest::newRow("terminal_title") << QByteArray("\x1b]0;pwned\x07") << QByteArray("\\x1b]0;pwned\\x07");
        QTest::newRow("line_breaks_and_tab") << QByteArray("a\nb\r\tc") << QByteArray("a\\nb\\r\\tc");
        QTest::newRow("nul") << QByteArray("a\0b", 3) << QByteArray("a\\x00b");
        QTest::newRow("delete") << QByteArray("a\x7f") << QByteArray("a\\x7f");
        QTest::newRow("c1_next_line") << QByteArray("a\xC2\x85z") << QByteArray("a\\u0085z");
        QTest::newRow("c1_csi") << QByteArray("\xC2\x9B" "31m") << QByteArray("\\u009b31m");
        QTest::newRow("right_to_left_override") << QByteArray("abc\xE2\x80\xAE" "def") << QByteArray("abc\\u202edef");
        QTest::newRow("line_separator") << QByteArray("a\xE2\x80\xA8" "b") << QByteArray("a\\u2028b");
        QTest::newRow("byte_order_mark") << QByteArray("\xEF\xBB\xBF" "a") << QByteArray("\\ufeffa");
        QTest::newRow("not_utf8") << QByteArray("a\xff\xfe" "b") << QByteArray("a\\xff\\xfeb");
        QTest::newRow("truncated_sequence") << QByteArray("\xE4\xBD") << QByteArray("\\xe4\\xbd");
        QTest::newRow("overlong_slash") << QByteArray("\xC0\xAF") << QByteArray("\\xc0\\xaf");
        QTest::newRow("backslash_kept") << QByteArray("C:\\x1b") << QByteArray("C:\\x1b");
    }

    void printable()
    {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, expected);
        const std::string once = attnlab::printable(bytes(text));
        QCOMPARE(QByteArray::fromStdString(once), expected);
        QCOMPARE(attnlab::printable(once), once); // escaping twice changes nothing
        for (const char c : once)
            QVERIFY2(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f, once.c_str());
    }

    void inQuotes()
    {
        QCOMPARE(attnlab::inQuotes("w.safetensors"), std::string("'w.safetensors'"));
        QCOMPARE(attnlab::inQuotes("a\x1b[2Jb"), std::string("'a\\x1b[2Jb'"));
        QCOMPARE(attnlab::inQuotes(""), std::string("''"));
    }

    void describeCharacter_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("pos");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("ascii") << QByteArray("0 x") << 2 << QByteArray("character 'x'");
        QTest::newRow("nul") << QByteArray("0\0", 2) << 1 << QByteArray("byte 0x00");
        QTest::newRow("escape") << QByteArray("\x1b") << 0 << QByteArray("byte 0x1b");
        QTest::newRow("full_width_one") << QByteArray("0 \xEF\xBC\x91") << 2 << QByteArray("character '\xEF\xBC\x91' (U+FF11)");
        QTest::newRow("chinese") << QByteArray("零") << 0 << QByteArray("character '零' (U+96F6)");
        QTest::newRow("byte_order_mark") << QByteArray("\xEF\xBB\xBF") << 0 << QByteArray("character U+FEFF");
        QTest::newRow("not_utf8") << QByteArray("\xff") << 0 << QByteArray("byte 0xff");
        QTest::newRow("continuation_byte_alone") << QByteArray("\x80") << 0 << QByteArray("byte 0x80");
        QTest::newRow("past_the_end") << QByteArray("ab") << 2 << QByteArray("the end of the text");
    }

    void describeCharacter()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, pos);
        QFETCH(QByteArray, expected);
        QCOMPARE(QByteArray::fromStdString(attnlab::describeCharacter(bytes(text), static_cast<std::size_t>(pos))), expected);
    }
};

QTEST_APPLESS_MAIN(TestPrintable)
#include "tst_printable.moc"

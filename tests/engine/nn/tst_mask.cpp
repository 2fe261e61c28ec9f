// Attention masks (docs/engine.md, section 7): blocked cells per kind, the additive mask, and
// the mask file format.
#include "nn/mask.h"
#include "core/message.h"

#include "support/throws.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <stdexcept>

using attnlab::BoolMatrix;
using attnlab::MaskKind;
using attnlab::testing::invalidArgumentMessage;

Q_DECLARE_METATYPE(MaskKind)

namespace {

using Tokens = std::vector<std::string>;

/// A BoolMatrix from rows of 0/1 written by hand.
BoolMatrix matrix(std::initializer_list<std::initializer_list<int>> rows)
{
    const auto n = Eigen::Index(rows.size());
    const auto m = n ? Eigen::Index(rows.begin()->size()) : 0;
    BoolMatrix b(n, m);
    Eigen::Index r = 0;
    for (const auto& row : rows) {
        Eigen::Index c = 0;
        for (const int v : row)
            b(r, c++) = v != 0;
        ++r;
    }
    return b;
}

QString text(const BoolMatrix& b)
{
    QString s;
    for (Eigen::Index r = 0; r < b.rows(); ++r) {
        for (Eigen::Index c = 0; c < b.cols(); ++c)
            s += b(r, c) ? QLatin1Char('1') : QLatin1Char('0');
        s += QLatin1Char('/');
    }
    return s;
}


} // namespace

class TestMask : public QObject {
    Q_OBJECT

private slots:
    void aMaskFilesRefusalIsALineOfTheTable()
    {
        // nn/messages.h: the code and arguments the interface translates, the English text what() is.
        try {
            attnlab::parseMaskText("0 1\n1 x\n");
            QFAIL("no refusal");
        } catch (const attnlab::Error& e) {
            QCOMPARE(e.message().code, std::string("mask_text_character"));
            QCOMPARE(e.message().args.at(0), std::string("2"));
            QCOMPARE(e.message().args.at(1), std::string("3"));
            QCOMPARE(e.message().text, std::string(e.what()));
        }
        try {
            attnlab::parseMaskText("0 1\n1\n");
            QFAIL("no refusal");
        } catch (const attnlab::Error& e) {
            QCOMPARE(e.message().code, std::string("mask_text_not_square"));
            QCOMPARE(e.message().args, (std::vector<std::string>{"2", "1", "2"}));
            QCOMPARE(std::string(e.what()), std::string("mask row 2 has 1 values but the mask has 2 rows: it must be square"));
        }
    }

    void blockedCells_data()
    {
        QTest::addColumn<MaskKind>("kind");
        QTest::addColumn<QStringList>("tokens");
        QTest::addColumn<QString>("expected"); // rows separated by '/', 1 = blocked

        const QStringList plain{"The", "cat", "sat", "."};
        const QStringList padded{"I", "love", "<pad>", "<pad>"};
        const QStringList padInside{"a", "<pad>", "b"};
        QTest::newRow("none") << MaskKind::None << plain << QStringLiteral("0000/0000/0000/0000/");
        QTest::newRow("none_with_pad") << MaskKind::None << padded << QStringLiteral("0000/0000/0000/0000/");
        QTest::newRow("causal") << MaskKind::Causal << plain << QStringLiteral("0111/0011/0001/0000/");
        QTest::newRow("causal_3") << MaskKind::Causal << padInside << QStringLiteral("011/001/000/");
        QTest::newRow("padding_without_pad") << MaskKind::Padding << plain << QStringLiteral("0000/0000/0000/0000/");
        QTest::newRow("padding") << MaskKind::Padding << padded << QStringLiteral("0011/0011/0011/0011/");
        QTest::newRow("padding_inside") << MaskKind::Padding << padInside << QStringLiteral("010/010/010/");
        QTest::newRow("causal_padding") << MaskKind::CausalPadding << padded << QStringLiteral("0111/0011/0011/0011/");
        QTest::newRow("causal_padding_inside") << MaskKind::CausalPadding << padInside << QStringLiteral("011/011/010/");
        QTest::newRow("causal_padding_without_pad") << MaskKind::CausalPadding << plain << QStringLiteral("0111/0011/0001/0000/");
        // Only the exact token <pad> is padding.
        QTest::newRow("padding_lookalikes") << MaskKind::Padding << QStringList{"<PAD>", "pad", "<pad>"} << QStringLiteral("001/001/001/");
        QTest::newRow("one_token") << MaskKind::CausalPadding << QStringList{"x"} << QStringLiteral("0/");
    }
    void blockedCells()
    {
        QFETCH(MaskKind, kind);
        QFETCH(QStringList, tokens);
        QFETCH(QString, expected);
        Tokens t;
        for (const auto& s : tokens)
            t.push_back(s.toStdString());
        const BoolMatrix b = attnlab::blockedCells(kind, t, std::nullopt);
        QCOMPARE(b.rows(), Eigen::Index(t.size()));
        QCOMPARE(b.cols(), Eigen::Index(t.size()));
        QCOMPARE(text(b), expected);
    }

    void customMask()
    {
        const Tokens tokens{"a", "<pad>", "b"};
        const BoolMatrix custom = matrix({{0, 1, 0}, {1, 0, 0}, {1, 1, 1}});
        // The custom matrix is used as is: no causal or padding cells are added.
        QCOMPARE(text(attnlab::blockedCells(MaskKind::Custom, tokens, custom)), QStringLiteral("010/100/111/"));
        // Other kinds ignore a custom matrix.
        QCOMPARE(text(attnlab::blockedCells(MaskKind::Causal, tokens, custom)), QStringLiteral("011/001/000/"));
        QCOMPARE(text(attnlab::blockedCells(MaskKind::None, tokens, custom)), QStringLiteral("000/000/000/"));
    }

    void customMaskWrongSize_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        QTest::newRow("smaller") << 2 << 2;
        QTest::newRow("larger") << 5 << 5;
        QTest::newRow("not_square") << 3 << 4;
    }
    void customMaskWrongSize()
    {
        QFETCH(int, rows);
        QFETCH(int, cols);
        const Tokens tokens{"a", "b", "c"};
        const BoolMatrix custom = BoolMatrix::Constant(rows, cols, false);
        const QString msg = invalidArgumentMessage([&] { attnlab::blockedCells(MaskKind::Custom, tokens, custom); });
        QVERIFY2(!msg.isEmpty(), "no std::invalid_argument");
        QVERIFY2(msg.contains(QStringLiteral("%1 x %2").arg(rows).arg(cols)), qPrintable(msg)); // the mask's size
        QVERIFY2(msg.contains(QStringLiteral("3 x 3")), qPrintable(msg));                      // the size it must have
    }

    void customMaskMissing()
    {
        const QString msg = invalidArgumentMessage([] { attnlab::blockedCells(MaskKind::Custom, {"a", "b"}, std::nullopt); });
        QVERIFY2(!msg.isEmpty(), "no std::invalid_argument");
    }

    void additiveMask()
    {
        const BoolMatrix blocked = matrix({{0, 1, 1}, {0, 0, 1}, {1, 0, 0}});
        const Eigen::MatrixXf m = attnlab::additiveMask(blocked);
        QCOMPARE(m.rows(), Eigen::Index(3));
        QCOMPARE(m.cols(), Eigen::Index(3));
        for (Eigen::Index r = 0; r < 3; ++r) {
            for (Eigen::Index c = 0; c < 3; ++c) {
                const float v = m(r, c);
                const QByteArray where = "M(" + QByteArray::number(r) + ", " + QByteArray::number(c) + ") = " + QByteArray::number(double(v));
                if (blocked(r, c)) {
                    QVERIFY2(std::isinf(v) && v < 0, where.constData()); // exactly -infinity, not -1e9
                } else {
                    QVERIFY2(v == 0.0f && !std::signbit(v), where.constData()); // exactly +0
                }
            }
        }
    }

    void parseMaskText_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("spaces") << QByteArray("0 1 1\n0 0 1\n0 0 0\n") << QStringLiteral("011/001/000/");
        QTest::newRow("commas") << QByteArray("0,1\n1,0") << QStringLiteral("01/10/");
        QTest::newRow("comma_and_space") << QByteArray("0, 1\n1 ,0\n") << QStringLiteral("01/10/");
        QTest::newRow("tabs") << QByteArray("0\t1\n0\t0\n") << QStringLiteral("01/00/");
        QTest::newRow("no_final_newline") << QByteArray("1 0\n0 1") << QStringLiteral("10/01/");
        QTest::newRow("comments") << QByteArray("# causal mask\n0 1 # row 0\n0 0#row 1\n# end\n") << QStringLiteral("01/00/");
        QTest::newRow("blank_lines") << QByteArray("\n\n0 1\n\n   \n0 0\n\n") << QStringLiteral("01/00/");
        QTest::newRow("crlf") << QByteArray("0 1 1\r\n0 0 1\r\n0 0 0\r\n") << QStringLiteral("011/001/000/");
        QTest::newRow("crlf_comment") << QByteArray("# hi\r\n1\r\n") << QStringLiteral("1/");
        QTest::newRow("leading_trailing_space") << QByteArray("  1 1  \n  0 1  ") << QStringLiteral("11/01/");
        QTest::newRow("byte_order_mark") << QByteArray("\xEF\xBB\xBF" "0 1\n1 0\n") << QStringLiteral("01/10/");
    }
    void parseMaskText()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        BoolMatrix m;
        try {
            m = attnlab::parseMaskText({text.constData(), std::size_t(text.size())});
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QCOMPARE(::text(m), expected);
    }

    void parseMaskTextErrors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QStringList>("mentions"); // each must appear in the message
        QTest::newRow("empty") << QByteArray("") << QStringList{"empty"};
        QTest::newRow("only_comments") << QByteArray("# nothing\n\n# here\n") << QStringList{"empty"};
        QTest::newRow("white_space_only") << QByteArray(" \n\t\r\n") << QStringList{"empty"};
        QTest::newRow("short_row") << QByteArray("0 1\n0\n") << QStringList{"square", "row 2"};
        QTest::newRow("wide") << QByteArray("0 1 1\n0 0 1\n") << QStringList{"square"};
        QTest::newRow("tall") << QByteArray("0 1\n0 0\n1 1\n") << QStringList{"square"};
        QTest::newRow("letter") << QByteArray("0 1\n0 x\n") << QStringList{"'x'", "line 2"};
        QTest::newRow("two") << QByteArray("0 2\n0 0\n") << QStringList{"'2'", "line 1"};
        QTest::newRow("minus") << QByteArray("0 -1\n0 0\n") << QStringList{"'-'", "line 1"};
        QTest::newRow("semicolon") << QByteArray("0;1\n0;0\n") << QStringList{"';'", "line 1"};
        QTest::newRow("after_comment_line") << QByteArray("# header\n0 1\n1 0 t\n") << QStringList{"'t'", "line 3"};
        QTest::newRow("crlf_bad_char") << QByteArray("0 1\r\n0 y\r\n") << QStringList{"'y'", "line 2"};
        // 1025 rows whose last line has no line break slipped past the limit (found with fuzz_mask's
        // invariant): a mask can never be larger than the longest sentence, 1024 tokens.
        const QByteArray row1025 = QByteArray(1025, '0');
        QByteArray rows1025 = row1025;
        for (int i = 1; i < 1025; ++i)
            rows1025 += '\n' + row1025;
        QTest::newRow("1025_rows_no_final_line_break") << rows1025 << QStringList{"more than 1024 rows"};
        QTest::newRow("1025_rows") << rows1025 + '\n' << QStringList{"more than 1024 rows"};
    }
    void parseMaskTextErrors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QStringList, mentions);
        const QString msg = invalidArgumentMessage([&] { attnlab::parseMaskText({text.constData(), std::size_t(text.size())}); });
        QVERIFY2(!msg.isEmpty(), "no std::invalid_argument");
        for (const auto& m : mentions)
            QVERIFY2(msg.contains(m), qPrintable(QStringLiteral("'%1' not in: %2").arg(m, msg)));
    }

    // A byte that is not a visible character is named in hex; a message is always valid UTF-8
    // without control characters, whatever the file holds.
    void parseMaskTextNamesOddBytes_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QStringList>("mentions");
        QTest::newRow("nul") << QByteArray("0 1\n0\0 1\n", 9) << QStringList{"line 2, byte 2", "byte 0x00"};
        QTest::newRow("escape") << QByteArray("0 \x1b]0;x\a\n") << QStringList{"line 1, byte 3", "byte 0x1b"};
        QTest::newRow("not_utf8") << QByteArray("0 \xff\n") << QStringList{"byte 0xff"};
        QTest::newRow("truncated_utf8") << QByteArray("0 1\n0 \xE4\xBD") << QStringList{"line 2", "byte 0xe4"};
        QTest::newRow("full_width_digit") << QByteArray("\xEF\xBC\x90 1\n1 0\n") << QStringList{"'\uFF10' (U+FF10)", "byte 1"};
        QTest::newRow("byte_order_mark_inside") << QByteArray("0 1\n\xEF\xBB\xBF" "1 0\n") << QStringList{"line 2", "U+FEFF"};
        QTest::newRow("right_to_left_override") << QByteArray("0\xE2\x80\xAE 1\n") << QStringList{"U+202E"};
    }
    void parseMaskTextNamesOddBytes()
    {
        QFETCH(QByteArray, text);
        QFETCH(QStringList, mentions);
        std::string raw;
        try {
            attnlab::parseMaskText({text.constData(), std::size_t(text.size())});
        } catch (const std::invalid_argument& e) {
            raw = e.what();
        }
        QVERIFY2(!raw.empty(), "no std::invalid_argument");
        const QString msg = QString::fromStdString(raw);
        QVERIFY2(QString::fromUtf8(msg.toUtf8()).toStdString() == raw && !msg.contains(QChar::ReplacementCharacter), raw.c_str());
        for (const QChar c : msg)
            QVERIFY2(c.unicode() >= 0x20 && c.category() != QChar::Other_Format, qPrintable(msg));
        for (const auto& m : mentions)
            QVERIFY2(msg.contains(m), qPrintable(QStringLiteral("'%1' not in: %2").arg(m, msg)));
    }

    void parsedMaskFeedsBlockedCells()
    {
        // A file's mask is a custom mask for as many tokens as it has rows.
        const BoolMatrix m = attnlab::parseMaskText("0 1 0\n0 0 1\n1 0 0\n");
        QCOMPARE(text(attnlab::blockedCells(MaskKind::Custom, {"x", "y", "z"}, m)), QStringLiteral("010/001/100/"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attnlab::blockedCells(MaskKind::Custom, {"x", "y"}, m));
    }

    // Issue 28 §5: a model run's mask kind as PyTorch's src_mask and key padding masks.
    void transformerMasks()
    {
        const std::vector<std::string> tokens{"a", "<pad>", "b", "<pad>"}; // a pad in the middle too (left padding exists)
        QVERIFY(!attnlab::sourceAttentionMask(MaskKind::None, 4));
        QVERIFY(!attnlab::sourceAttentionMask(MaskKind::Padding, 4));
        QCOMPARE(text(*attnlab::sourceAttentionMask(MaskKind::Causal, 3)), QStringLiteral("011/001/000/"));
        QCOMPARE(text(*attnlab::sourceAttentionMask(MaskKind::CausalPadding, 3)), QStringLiteral("011/001/000/"));
        QVERIFY(!attnlab::keyPaddingMask(MaskKind::None, tokens));
        QVERIFY(!attnlab::keyPaddingMask(MaskKind::Causal, tokens));
        for (const MaskKind kind : {MaskKind::Padding, MaskKind::CausalPadding}) {
            const auto padding = attnlab::keyPaddingMask(kind, tokens);
            QVERIFY(padding);
            QCOMPARE(text(padding->transpose()), QStringLiteral("0101/"));
        }
        // Merged as PyTorch merges them, they are the single block's causal+padding cells.
        const BoolMatrix merged = attnlab::combineMasks(4, 4, attnlab::sourceAttentionMask(MaskKind::CausalPadding, 4),
                                                        attnlab::keyPaddingMask(MaskKind::CausalPadding, tokens));
        QCOMPARE(text(merged), QStringLiteral("0111/0111/0101/0101/"));
        QCOMPARE(text(merged), text(attnlab::blockedCells(MaskKind::CausalPadding, tokens, std::nullopt)));
        const QString refused = invalidArgumentMessage([] { attnlab::keyPaddingMask(MaskKind::Custom, {"a"}); });
        QCOMPARE(refused, QStringLiteral("a custom mask is for one attention block; a Transformer takes no mask, a causal or a padding mask"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attnlab::sourceAttentionMask(MaskKind::Custom, 1));
    }
};

QTEST_APPLESS_MAIN(TestMask)
#include "tst_mask.moc"

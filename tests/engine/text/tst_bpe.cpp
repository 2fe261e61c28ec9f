// GPT-2's byte-level BPE (text/bpe.h, docs/tokenizers.md) with the real vocabulary and merges:
// every case of scripts/gen_tokenizer_reference.py (a Python implementation of OpenAI's
// encoder.py, cross-checked with the gpt-3-encoder package's JavaScript) exact, decode round
// trips, the studio's display of tokens, every error in the files, the merge order on small
// vocabularies worked out by hand, and inputs of a megabyte.
#include "text/bpe.h"

#include "support/tokenizers.h"

#include <QtTest>

#include <thread>

using attnlab::BpeTokenizer;
using attnlab::SubwordEncoding;
using namespace attnlab::testing;

namespace {

const BpeTokenizer& gpt2()
{
    static const BpeTokenizer tokenizer = BpeTokenizer::fromFiles(gpt2VocabPath(), gpt2MergesPath());
    return tokenizer;
}

/// encoder.py's bytes_to_unicode, from its definition: the printable bytes stand for
/// themselves, the 68 others get U+0100, U+0101, … in byte order.
QString byteCharacter(int b)
{
    static const std::vector<char32_t> table = [] {
        std::vector<char32_t> t(256);
        char32_t next = 0x100;
        for (int i = 0; i < 256; ++i) {
            const bool printable = (i >= 0x21 && i <= 0x7E) || (i >= 0xA1 && i <= 0xAC) || (i >= 0xAE && i <= 0xFF);
            t[static_cast<std::size_t>(i)] = printable ? static_cast<char32_t>(i) : next++;
        }
        return t;
    }();
    const char32_t c = table[static_cast<std::size_t>(b)];
    return QString::fromUcs4(&c, 1);
}

/// A vocab.json of the 256 byte characters (ids 0 … 255) and then `extra` (ids 256 …).
std::string byteVocab(const QStringList& extra = {})
{
    nlohmann::json vocab = nlohmann::json::object();
    for (int b = 0; b < 256; ++b)
        vocab[byteCharacter(b).toStdString()] = b;
    for (int i = 0; i < extra.size(); ++i)
        vocab[extra[i].toStdString()] = 256 + i;
    return vocab.dump();
}

} // namespace

class TestBpe : public QObject {
    Q_OBJECT

private slots:
    void referenceCases_data()
    {
        QTest::addColumn<int>("index");
        const nlohmann::json cases = tokenizerCases("gpt2");
        QVERIFY(cases.size() >= 50);
        for (std::size_t i = 0; i < cases.size(); ++i)
            QTest::newRow(cases[i].at("name").get<std::string>().c_str()) << static_cast<int>(i);
    }
    // Ids and vocabulary strings exactly as the reference has them; decode gives the text back
    // (or, for bytes that are not UTF-8, what Python's decode(errors="replace") makes of them).
    void referenceCases()
    {
        QFETCH(int, index);
        const nlohmann::json c = tokenizerCases("gpt2").at(static_cast<std::size_t>(index));
        const std::string text = caseText(c);
        const SubwordEncoding e = gpt2().encode(text);
        const QString ids = differenceOfIds(e.ids, c.at("ids").get<std::vector<int>>());
        QVERIFY2(ids.isEmpty(), qPrintable(ids));
        const QString tokens = differenceOfTokens(e.tokens, c.at("tokens").get<std::vector<std::string>>());
        QVERIFY2(tokens.isEmpty(), qPrintable(tokens));
        QVERIFY(e.segmentIds.empty());
        const std::string expected = c.contains("decoded") ? c.at("decoded").get<std::string>() : text;
        QCOMPARE(QString::fromStdString(gpt2().decode(e.ids)), QString::fromStdString(expected));
    }

    void vocabulary()
    {
        QCOMPARE(gpt2().size(), 50257);
        QCOMPARE(gpt2().id("<|endoftext|>"), std::optional<int>(50256));
        QCOMPARE(gpt2().id("Ġworld"), std::optional<int>(995));
        QCOMPARE(gpt2().id("no such token"), std::optional<int>());
        QCOMPARE(QString::fromStdString(gpt2().token(15496)), QStringLiteral("Hello"));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, gpt2().token(-1));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, gpt2().token(50257));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, gpt2().decode({15496, 50257}));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, gpt2().display(-1));
    }

    // A lone partial character decodes to one U+FFFD (the maximal invalid part, as Python);
    // with its last byte it is the character. "æĸ" is E6 96, "ĩ" is 87: E6 96 87 is 文.
    void decodeJoinsBytes()
    {
        const int partial = gpt2().id("æĸ").value();
        const int last = gpt2().id("ĩ").value();
        QCOMPARE(QString::fromStdString(gpt2().decode({partial})), QStringLiteral("\uFFFD"));
        QCOMPARE(QString::fromStdString(gpt2().decode({partial, last})), QStringLiteral("文"));
        QCOMPARE(QString::fromStdString(gpt2().decode({last, partial})), QStringLiteral("\uFFFD\uFFFD"));
        QCOMPARE(QString::fromStdString(gpt2().decode({})), QString());
    }

    void roundTrip_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("mixed") << QStringLiteral("Mixed 中文 and ünïcödé, tabs\tnewlines\n\n and  spaces  ");
        QTest::newRow("all_ascii") << [] {
            QString s;
            for (int c = 0; c < 128; ++c)
                s += QChar(c);
            return s;
        }();
        QTest::newRow("astral") << QStringLiteral("𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🧪🧬 𠀀𪚶");
        QTest::newRow("special_inside") << QStringLiteral("x<|endoftext|>y <|endoftext|> <|endoftext|");
    }
    void roundTrip()
    {
        QFETCH(QString, text);
        const std::string utf8 = text.toStdString();
        QCOMPARE(QString::fromStdString(gpt2().decode(gpt2().encode(utf8).ids)), text);
    }

    void display_data()
    {
        QTest::addColumn<QString>("token");
        QTest::addColumn<QString>("shown");
        QTest::newRow("leading_space") << QStringLiteral("Ġworld") << QStringLiteral("␣world");
        QTest::newRow("space") << QStringLiteral("Ġ") << QStringLiteral("␣");
        QTest::newRow("newline") << QStringLiteral("Ċ") << QStringLiteral("↵");
        QTest::newRow("two_newlines") << QStringLiteral("ĊĊ") << QStringLiteral("↵↵");
        QTest::newRow("tab") << QStringLiteral("ĉ") << QStringLiteral("⇥");
        QTest::newRow("accented") << QStringLiteral("ĠcafÃ©") << QStringLiteral("␣café");
        QTest::newRow("whole_cjk") << QStringLiteral("ä¸Ń") << QStringLiteral("中");
        QTest::newRow("partial_cjk") << QStringLiteral("æĸ") << QStringLiteral("<0xE6><0x96>");
        QTest::newRow("continuation_byte") << QStringLiteral("ĩ") << QStringLiteral("<0x87>");
        QTest::newRow("nul_byte") << QStringLiteral("Ā") << QStringLiteral("<0x00>");
        QTest::newRow("escape_byte") << QStringLiteral("ě") << QStringLiteral("<0x1B>");
        QTest::newRow("delete_byte") << QStringLiteral("ġ") << QStringLiteral("<0x7F>");
        QTest::newRow("end_of_text") << QStringLiteral("<|endoftext|>") << QStringLiteral("<|endoftext|>");
    }
    void display()
    {
        QFETCH(QString, token);
        QFETCH(QString, shown);
        const std::optional<int> id = gpt2().id(token.toStdString());
        QVERIFY2(id.has_value(), qPrintable(token + " is not in GPT-2's vocabulary"));
        QCOMPARE(QString::fromStdString(gpt2().display(*id)), shown);
    }

    // encoder.py's order on small vocabularies (the byte characters plus the merged tokens),
    // worked out by hand: the lowest-ranked pair first, all its occurrences left to right, and
    // the pairs those merges make only in the next round.
    void mergeOrder_data()
    {
        QTest::addColumn<QString>("merges");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("tokens");
        // b c (0) before a b (1): a bc, then a bc (2).
        QTest::newRow("lowest_rank_first") << "b c\na b\na bc" << "abc" << QStringList{"abc"};
        // a b (0) first: ab c, and (ab, c) has no rank.
        QTest::newRow("rank_decides") << "a b\nb c" << "abc" << QStringList{"ab", "c"};
        // Round 1 merges both a b (rank 1); the (ab, a) its first merge made, rank 0, waits
        // for the next round, by when the second merge has used that a.
        QTest::newRow("new_pairs_wait_for_the_round") << "ab a\na b" << "abab" << QStringList{"ab", "ab"};
        // Overlapping occurrences: left to right, a a | a a, then aa aa.
        QTest::newRow("overlaps_left_to_right") << "a a\naa aa" << "aaaa" << QStringList{"aaaa"};
        QTest::newRow("odd_run") << "a a\naa aa" << "aaa" << QStringList{"aa", "a"};
        // aa aa a, then (aa, a) at the right end: aa aaa.
        QTest::newRow("five") << "a a\naa a" << "aaaaa" << QStringList{"aa", "aaa"};
        // A pair listed twice keeps its last rank (a dict built in order): b c (1) before a b (2).
        QTest::newRow("repeated_merge_last_rank") << "a b\nb c\na b" << "abc" << QStringList{"a", "bc"};
        // With no "<|endoftext|>" in the vocabulary it is plain text.
        QTest::newRow("no_special_token") << "e n" << "<|endoftext|>"
                                          << QStringList{"<", "|", "en", "d", "o", "f", "t", "e", "x", "t", "|", ">"};
    }
    void mergeOrder()
    {
        QFETCH(QString, merges);
        QFETCH(QString, text);
        QFETCH(QStringList, tokens);
        QStringList made;
        for (const QString& line : merges.split('\n'))
            if (!made.contains(line.split(' ').join(QString())))
                made << line.split(' ').join(QString());
        const BpeTokenizer t = BpeTokenizer::fromStrings(byteVocab(made), "#version: 0.2\n" + merges.toStdString() + "\n");
        QCOMPARE(tokensOf(t.encode(text.toStdString())), tokens);
    }

    void formatErrors_data()
    {
        QTest::addColumn<QByteArray>("vocab");
        QTest::addColumn<QByteArray>("merges");
        QTest::addColumn<QStringList>("expected"); // each must be in the message
        const QByteArray good = QByteArray::fromStdString(byteVocab({"ab"}));
        QTest::newRow("not_json") << QByteArray("{\"a\": 1,") << QByteArray() << QStringList{"'my_vocab.json'", "not JSON"};
        QTest::newRow("not_an_object") << QByteArray("[\"a\", \"b\"]") << QByteArray()
                                       << QStringList{"'my_vocab.json'", "JSON object of token -> id", "array"};
        QTest::newRow("float_id") << QByteArray("{\"a\": 0, \"b\": 1.5}") << QByteArray()
                                  << QStringList{"'my_vocab.json'", "token 'b'", "not an integer: 1.5"};
        QTest::newRow("string_id") << QByteArray("{\"a\": \"0\"}") << QByteArray()
                                   << QStringList{"'my_vocab.json'", "token 'a'", "not an integer: \"0\""};
        QTest::newRow("id_out_of_range") << QByteArray("{\"a\": 0, \"b\": 7}") << QByteArray()
                                         << QStringList{"'my_vocab.json'", "token 'b', 7, is outside 0 … 1"};
        QTest::newRow("negative_id") << QByteArray("{\"a\": -1}") << QByteArray() << QStringList{"token 'a', -1, is outside 0 … 0"};
        QTest::newRow("huge_id") << QByteArray("{\"a\": 18446744073709551615}") << QByteArray()
                                 << QStringList{"token 'a', 18446744073709551615, is outside 0 … 0"};
        QTest::newRow("duplicate_ids") << QByteArray("{\"a\": 0, \"b\": 0}") << QByteArray()
                                       << QStringList{"'my_vocab.json'", "tokens 'a' and 'b' have the same id 0"};
        QTest::newRow("byte_without_token") << QByteArray("{\"a\": 0}") << QByteArray()
                                            << QStringList{"'my_vocab.json'", "the byte <0x00> has no token ('Ā')"};
        QTest::newRow("three_parts") << good << QByteArray("#version: 0.2\na b\na b c\n")
                                     << QStringList{"'my_merges.txt'", "line 3", "two tokens", "found 3", "'a b c'"};
        QTest::newRow("one_part") << good << QByteArray("ab\n") << QStringList{"'my_merges.txt'", "line 1", "found 1"};
        QTest::newRow("part_not_in_vocab") << good << QByteArray("a b\nab Ω\n")
                                           << QStringList{"'my_merges.txt'", "line 2", "'Ω' is not in the vocabulary ('my_vocab.json')"};
        // A token no vocabulary has (one line of 60 MB): refused with its size, quoted short.
        QTest::newRow("token_of_1025_bytes") << QByteArray("{\"" + QByteArray(1025, 'x') + "\": 0}") << QByteArray()
                                             << QStringList{"'my_vocab.json'", "is 1025 bytes long", "1024 bytes",
                                                            "'" + QString(60, 'x') + "\u2026'"};
        QTest::newRow("id_of_a_megabyte") << QByteArray("{\"a\": \"" + QByteArray(1 << 20, 'z') + "\"}") << QByteArray()
                                          << QStringList{"'my_vocab.json'", "not an integer: \"" + QString(59, 'z') + "\u2026"};
        QTest::newRow("merge_line_of_2050_bytes") << good << QByteArray("a b\n" + QByteArray(1025, 'a') + " " + QByteArray(1024, 'b') + "\n")
                                                  << QStringList{"'my_merges.txt'", "line 2", "2050 bytes long", "1024 bytes each"};
        QTest::newRow("result_not_in_vocab") << good << QByteArray("a b\r\nb c\r\n")
                                             << QStringList{"'my_merges.txt'", "line 2", "the merge of 'b' and 'c', 'bc', is not in the vocabulary"};
    }
    // Every error names the file (by the name given) and what is wrong in it.
    void formatErrors()
    {
        QFETCH(QByteArray, vocab);
        QFETCH(QByteArray, merges);
        QFETCH(QStringList, expected);
        const QString message = formatErrorMessage(
            [&] { BpeTokenizer::fromStrings(vocab.toStdString(), merges.toStdString(), "my_vocab.json", "my_merges.txt"); });
        QVERIFY2(!message.isEmpty() && !message.startsWith('!'), qPrintable("no FormatError: " + message));
        for (const QString& part : expected)
            QVERIFY2(message.contains(part), qPrintable(QStringLiteral("'%1' not in: %2").arg(part, message)));
    }

    // A merges.txt refusal is three table lines: the file, its line, what is wrong there (each
    // translated on its own); the English is the old one.
    void aRefusalNamesItsFileAndLine()
    {
        const std::string vocab = byteVocab({"ab"});
        try {
            BpeTokenizer::fromStrings(vocab, "a b\na b c\n", "my_vocab.json", "my_merges.txt");
            QFAIL("three tokens on a line were read");
        } catch (const attnlab::FormatError& e) {
            const attnlab::Message& m = e.message();
            QCOMPARE(m.code, std::string("in_file"));
            QCOMPARE(m.args, std::vector<std::string>{"my_merges.txt"});
            QCOMPARE(m.reasons.size(), std::size_t(1));
            QCOMPARE(m.reasons.front().code, std::string("file_line"));
            QCOMPARE(m.reasons.front().args, std::vector<std::string>{"2"});
            QCOMPARE(m.reasons.front().reasons.size(), std::size_t(1));
            QCOMPARE(m.reasons.front().reasons.front().code, std::string("merges_two_tokens"));
            QCOMPARE(std::string(e.what()), std::string("'my_merges.txt': line 2: expected two tokens separated by a space, found 3: 'a b c'"));
        }
    }

    void validFiles()
    {
        // Without "#version", with blank lines and CRLF: the same merges.
        const std::string vocab = byteVocab({"ab", "abc"});
        const BpeTokenizer t = BpeTokenizer::fromStrings(vocab, "a b\r\n\r\nab c");
        QCOMPARE(tokensOf(t.encode("abc abd")), (QStringList{"abc", "Ġ", "ab", "d"}));
        QCOMPARE(t.size(), 258);
    }

    void missingFiles()
    {
        const std::string missing = "/nonexistent/encoder.json";
        QString message = formatErrorMessage([&] { BpeTokenizer::fromFiles(missing, gpt2MergesPath()); });
        QVERIFY2(message.contains(QString::fromStdString(missing)) && message.contains("No such file"), qPrintable(message));
        message = formatErrorMessage([&] { BpeTokenizer::fromFiles(gpt2VocabPath(), "/nonexistent/vocab.bpe"); });
        QVERIFY2(message.contains("/nonexistent/vocab.bpe"), qPrintable(message));
        // A folder is not a file either.
        message = formatErrorMessage([&] { BpeTokenizer::fromFiles(tokenizerDir(), gpt2MergesPath()); });
        QVERIFY2(message.contains(QString::fromStdString(tokenizerDir())), qPrintable(message));
    }

    // Copies share the remembered merges; encoding from several threads at once gives what one
    // thread gives.
    void sharedAcrossThreads()
    {
        const std::string text = repeatedTo("The quick brown fox jumps over the lazy dog; 狐狸跳过了懒狗。", 20000);
        const std::vector<int> expected = gpt2().encode(text).ids;
        const BpeTokenizer copy = gpt2();
        std::vector<std::vector<int>> got(4);
        std::vector<std::thread> threads;
        for (std::size_t i = 0; i < got.size(); ++i)
            threads.emplace_back([&, i] { got[i] = (i % 2 ? copy : gpt2()).encode(text).ids; });
        for (auto& t : threads)
            t.join();
        for (const auto& ids : got)
            QCOMPARE(ids, expected);
    }

    // A megabyte pasted at once: English, Chinese without a space (one regex piece of a
    // megabyte), one letter repeated, white space. Each comes back whole.
    void megabyteInputs_data()
    {
        QTest::addColumn<QByteArray>("text");
        const std::size_t mb = 1 << 20;
        QTest::newRow("english") << QByteArray::fromStdString(
            repeatedTo("Attention lets every token look at every other token, weighted by similarity.", mb));
        const std::string chinese = repeatedTo("注意力机制让每个词元按照相似度去看其他所有词元", mb, "");
        QTest::newRow("chinese_one_piece") << QByteArray::fromStdString(chinese);
        QTest::newRow("one_letter") << QByteArray(static_cast<qsizetype>(mb), 'a');
        QTest::newRow("spaces") << QByteArray(static_cast<qsizetype>(mb), ' ');
    }
    void megabyteInputs()
    {
        QFETCH(QByteArray, text);
        const SubwordEncoding e = gpt2().encode(text.toStdString());
        QVERIFY(!e.ids.empty() && e.ids.size() <= static_cast<std::size_t>(text.size()));
        QVERIFY(gpt2().decode(e.ids) == text.toStdString());
    }
};

QTEST_APPLESS_MAIN(TestBpe)
#include "tst_bpe.moc"

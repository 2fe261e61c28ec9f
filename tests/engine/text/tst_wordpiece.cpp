// BERT's WordPiece tokenizer (text/wordpiece.h, docs/tokenizers.md) with the real
// bert-base-uncased vocabulary: every case of scripts/gen_tokenizer_reference.py (a Python
// implementation of Hugging Face's tokenization_bert.py), lower-cased and cased, with pairs and
// their segment ids; decode; the vocabulary file's format and errors; a megabyte of text.
#include "text/wordpiece.h"

#include "support/tokenizers.h"

#include <QtTest>

using attnlab::SubwordEncoding;
using attnlab::WordPieceTokenizer;
using namespace attnlab::testing;

namespace {

const WordPieceTokenizer& bert(bool lower)
{
    static const WordPieceTokenizer uncased = WordPieceTokenizer::fromFile(bertVocabPath(), true);
    static const WordPieceTokenizer cased = WordPieceTokenizer::fromFile(bertVocabPath(), false);
    return lower ? uncased : cased;
}

} // namespace

class TestWordPiece : public QObject {
    Q_OBJECT

private slots:
    void referenceCases_data()
    {
        QTest::addColumn<bool>("lower");
        QTest::addColumn<int>("index");
        for (const bool lower : {true, false}) {
            const nlohmann::json cases = tokenizerCases(lower ? "bert_uncased" : "bert_cased");
            QVERIFY(cases.size() >= 50);
            for (std::size_t i = 0; i < cases.size(); ++i) {
                const std::string name = (lower ? "uncased_" : "cased_") + cases[i].at("name").get<std::string>();
                QTest::newRow(name.c_str()) << lower << static_cast<int>(i);
            }
        }
    }
    // Ids, vocabulary strings and segment ids exactly as the reference has them.
    void referenceCases()
    {
        QFETCH(bool, lower);
        QFETCH(int, index);
        const nlohmann::json c = tokenizerCases(lower ? "bert_uncased" : "bert_cased").at(static_cast<std::size_t>(index));
        const std::string a = caseText(c);
        const bool pair = c.contains("text_b");
        const std::string b = pair ? caseText(c, "text_b") : std::string();
        const SubwordEncoding e = pair ? bert(lower).encode(a, b) : bert(lower).encode(a);
        const QString ids = differenceOfIds(e.ids, c.at("ids").get<std::vector<int>>());
        QVERIFY2(ids.isEmpty(), qPrintable(ids));
        const QString tokens = differenceOfTokens(e.tokens, c.at("tokens").get<std::vector<std::string>>());
        QVERIFY2(tokens.isEmpty(), qPrintable(tokens));
        const QString segments = differenceOfIds(e.segmentIds, c.at("segment_ids").get<std::vector<int>>());
        QVERIFY2(segments.isEmpty(), qPrintable(segments));
    }

    void vocabulary()
    {
        QCOMPARE(bert(true).size(), 30522);
        QVERIFY(bert(true).doLowerCase());
        QVERIFY(!bert(false).doLowerCase());
        QCOMPARE(bert(true).id("[CLS]"), std::optional<int>(101));
        QCOMPARE(bert(true).id("[MASK]"), std::optional<int>(103));
        QCOMPARE(bert(true).id("##ing"), std::optional<int>(2075));
        QCOMPARE(QString::fromStdString(bert(true).token(0)), QStringLiteral("[PAD]"));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, bert(true).token(30522));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, bert(true).decode({101, -1}));
    }

    // The segments: [CLS] A [SEP] are 0, B [SEP] are 1, counted by hand.
    void segments()
    {
        const SubwordEncoding e = bert(true).encode("Is it?", "Yes.");
        QCOMPARE(tokensOf(e), (QStringList{"[CLS]", "is", "it", "?", "[SEP]", "yes", ".", "[SEP]"}));
        QCOMPARE(e.segmentIds, (std::vector<int>{0, 0, 0, 0, 0, 1, 1, 1}));
        const SubwordEncoding single = bert(true).encode("");
        QCOMPARE(tokensOf(single), (QStringList{"[CLS]", "[SEP]"}));
        QCOMPARE(single.segmentIds, (std::vector<int>{0, 0}));
    }

    // convert_tokens_to_string: " ".join(tokens).replace(" ##", "").strip().
    void decode_data()
    {
        QTest::addColumn<QStringList>("tokens");
        QTest::addColumn<QString>("text");
        QTest::newRow("glued") << QStringList{"[CLS]", "una", "##ffa", "##ble", "!", "[SEP]"} << "[CLS] unaffable ! [SEP]";
        QTest::newRow("punctuation_spaced") << QStringList{"hello", ",", "world"} << "hello , world";
        QTest::newRow("leading_continuation") << QStringList{"##ing", "the"} << "##ing the";
        QTest::newRow("empty") << QStringList{} << "";
    }
    void decode()
    {
        QFETCH(QStringList, tokens);
        QFETCH(QString, text);
        std::vector<int> ids;
        for (const QString& t : tokens)
            ids.push_back(bert(true).id(t.toStdString()).value());
        QCOMPARE(QString::fromStdString(bert(true).decode(ids)), text);
    }

    // vocab.txt's lines: "\n", "\r\n" or "\r" end one; the final newline adds no token; an
    // empty line in the middle is the empty token; a token listed twice is found by its last id.
    void vocabularyFile()
    {
        const WordPieceTokenizer t = WordPieceTokenizer::fromString("[UNK]\r\n[CLS]\r[SEP]\nun\n\n##aff\nun\n##able\n", true);
        QCOMPARE(t.size(), 8);
        QCOMPARE(QString::fromStdString(t.token(4)), QString());
        QCOMPARE(t.id("un"), std::optional<int>(6));
        QCOMPARE(QString::fromStdString(t.token(3)), QStringLiteral("un"));
        QCOMPARE(t.encode("Unaffable unknown").ids, (std::vector<int>{1, 6, 5, 7, 0, 2}));
        QCOMPARE(WordPieceTokenizer::fromString("[UNK]\n[CLS]\n[SEP]", false).size(), 3);
    }

    // A special token typed in the text that the vocabulary lacks is [UNK] (Hugging Face's
    // convert_tokens_to_ids); it is still not split.
    void specialTokenMissingFromVocabulary()
    {
        const WordPieceTokenizer t = WordPieceTokenizer::fromString("[UNK]\n[CLS]\n[SEP]\nthe\n[\n]\nmask\n", true);
        QCOMPARE(t.encode("the [MASK] [mask]").ids, (std::vector<int>{1, 3, 0, 4, 6, 5, 2}));
    }

    void formatErrors_data()
    {
        QTest::addColumn<QByteArray>("vocab");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("empty") << QByteArray() << QStringList{"'my_vocab.txt'", "no [UNK] token"};
        QTest::newRow("no_unk") << QByteArray("[CLS]\n[SEP]\n") << QStringList{"'my_vocab.txt'", "no [UNK] token"};
        QTest::newRow("no_cls") << QByteArray("[UNK]\n[SEP]\n") << QStringList{"'my_vocab.txt'", "no [CLS] token"};
        QTest::newRow("no_sep") << QByteArray("[UNK]\n[CLS]\n") << QStringList{"'my_vocab.txt'", "no [SEP] token"};
        QTest::newRow("lower_case_is_not_it") << QByteArray("[unk]\n[CLS]\n[SEP]\n") << QStringList{"no [UNK] token"};
        QTest::newRow("not_utf8") << QByteArray("[UNK]\n[CLS]\n[SEP]\ncaf\xe9\n")
                                  << QStringList{"'my_vocab.txt'", "line 4 is not UTF-8", "'caf\\xe9'"};
        // A line no token can be (one of 60 MB took 3.25 GB): refused, quoted short.
        QTest::newRow("line_of_1025_bytes") << QByteArray("[UNK]\n[CLS]\n[SEP]\n" + QByteArray(1025, 'x') + "\n")
                                            << QStringList{"'my_vocab.txt'", "line 4 is 1025 bytes long", "1024 bytes",
                                                           "'" + QString(60, 'x') + "\u2026'"};
        QTest::newRow("line_of_a_megabyte") << QByteArray("[UNK]\n" + QByteArray(1 << 20, 'y') + "\n[CLS]\n[SEP]\n")
                                            << QStringList{"'my_vocab.txt'", "line 2 is 1048576 bytes long"};
    }
    // Every error names the file (by the name given) and what is wrong.
    void formatErrors()
    {
        QFETCH(QByteArray, vocab);
        QFETCH(QStringList, expected);
        const QString message = formatErrorMessage([&] { WordPieceTokenizer::fromString(vocab.toStdString(), true, "my_vocab.txt"); });
        QVERIFY2(!message.isEmpty() && !message.startsWith('!'), qPrintable("no FormatError: " + message));
        for (const QString& part : expected)
            QVERIFY2(message.contains(part), qPrintable(QStringLiteral("'%1' not in: %2").arg(part, message)));
    }

    // A token of 1024 bytes is still one (a word over 100 characters is [UNK] whatever the vocabulary).
    void longestToken()
    {
        const std::string longest(attnlab::subword::kMaxTokenBytes, 'q');
        const WordPieceTokenizer t = WordPieceTokenizer::fromString("[UNK]\n[CLS]\n[SEP]\n" + longest + "\n", true);
        QCOMPARE(t.id(longest), std::optional<int>(3));
    }

    void missingFile()
    {
        const QString message = formatErrorMessage([] { WordPieceTokenizer::fromFile("/nonexistent/vocab.txt", true); });
        QVERIFY2(message.contains("/nonexistent/vocab.txt") && message.contains("No such file"), qPrintable(message));
    }

    // A megabyte pasted at once, in both languages; words over 100 characters are one [UNK].
    void megabyteInputs_data()
    {
        QTest::addColumn<QByteArray>("text");
        const std::size_t mb = 1 << 20;
        QTest::newRow("english") << QByteArray::fromStdString(
            repeatedTo("Attention lets every token look at every other token, weighted by similarity.", mb));
        const std::string chinese = repeatedTo("注意力机制让每个词元按照相似度去看其他所有词元。", mb);
        QTest::newRow("chinese") << QByteArray::fromStdString(chinese);
        QTest::newRow("one_long_word") << QByteArray(static_cast<qsizetype>(mb), 'a');
        QTest::newRow("words_of_100") << QByteArray::fromStdString(repeatedTo(std::string(100, 'z'), mb));
    }
    void megabyteInputs()
    {
        QFETCH(QByteArray, text);
        for (const bool lower : {true, false}) {
            const SubwordEncoding e = bert(lower).encode(text.toStdString());
            QVERIFY(e.ids.size() >= 3 && e.ids.size() == e.tokens.size() && e.ids.size() == e.segmentIds.size());
            QCOMPARE(e.ids.front(), 101);
            QCOMPARE(e.ids.back(), 102);
        }
    }
};

QTEST_APPLESS_MAIN(TestWordPiece)
#include "tst_wordpiece.moc"

// The tokenizer of docs/engine.md, section 1: words and punctuation for Latin text, one token
// per CJK character, special tokens kept whole, invalid UTF-8 replaced by U+FFFD.
#include "text/tokenizer.h"

#include <QStringDecoder>
#include <QtTest>

#include <string>

using attnlab::tokenize;

namespace {

const QByteArray kReplacement = "\xEF\xBF\xBD"; // U+FFFD in UTF-8

QByteArrayList toList(const std::vector<std::string>& tokens)
{
    QByteArrayList out;
    for (const auto& t : tokens)
        out.append(QByteArray::fromStdString(t));
    return out;
}

std::string_view view(const QByteArray& bytes)
{
    return {bytes.constData(), static_cast<std::size_t>(bytes.size())};
}

bool isValidUtf8(const QByteArray& bytes)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString decoded = decoder.decode(bytes);
    Q_UNUSED(decoded);
    return !decoder.hasError();
}

QString joined(const std::vector<std::string>& lines)
{
    QStringList out;
    for (const auto& l : lines)
        out << QString::fromStdString(l);
    return out.join(QStringLiteral(" | "));
}

} // namespace

class TestTokenizer : public QObject {
    Q_OBJECT

private:
    void addColumns()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArrayList>("expected");
    }

    // Valid UTF-8 in, the tokens out, no warning.
    void checkTokens()
    {
        QFETCH(QByteArray, text);
        QFETCH(QByteArrayList, expected);
        const auto result = tokenize(view(text));
        QCOMPARE(toList(result.tokens), expected);
        QVERIFY2(result.warnings.empty(), qPrintable("unexpected warnings: " + joined(texts(result.warnings))));
    }

private slots:
    void latin_data()
    {
        addColumns();
        QTest::newRow("hello_world") << QByteArray("Hello, world!") << QByteArrayList{"Hello", ",", "world", "!"};
        QTest::newRow("case_kept") << QByteArray("The CAT the") << QByteArrayList{"The", "CAT", "the"};
        QTest::newRow("digits_join_words") << QByteArray("GPT4 has 175B") << QByteArrayList{"GPT4", "has", "175B"};
        QTest::newRow("number_punctuation") << QByteArray("$20.5") << QByteArrayList{"$", "20", ".", "5"};
        QTest::newRow("hyphen") << QByteArray("self-attention") << QByteArrayList{"self", "-", "attention"};
        QTest::newRow("underscore") << QByteArray("snake_case") << QByteArrayList{"snake", "_", "case"};
        QTest::newRow("dont") << QByteArray("I don't know") << QByteArrayList{"I", "don't", "know"};
        QTest::newRow("apostrophes_inside") << QByteArray("rock'n'roll") << QByteArrayList{"rock'n'roll"};
        QTest::newRow("quoted") << QByteArray("'quoted'") << QByteArrayList{"'", "quoted", "'"};
        QTest::newRow("apostrophe_at_word_end") << QByteArray("dogs' toys") << QByteArrayList{"dogs", "'", "toys"};
        QTest::newRow("apostrophe_before_space") << QByteArray("don 't") << QByteArrayList{"don", "'", "t"};
        QTest::newRow("double_apostrophe") << QByteArray("don''t") << QByteArrayList{"don", "'", "'", "t"};
        QTest::newRow("apostrophe_before_punct") << QByteArray("don'.") << QByteArrayList{"don", "'", "."};
        QTest::newRow("accents") << QByteArray("café naïve") << QByteArrayList{"café", "naïve"};
        QTest::newRow("cyrillic") << QByteArray("Привет, мир") << QByteArrayList{"Привет", ",", "мир"};
        QTest::newRow("hangul_is_a_word") << QByteArray("한국어 NLP") << QByteArrayList{"한국어", "NLP"};
        // General Punctuation U+2010..U+205E: em dash, ellipsis, curly quotes.
        QTest::newRow("em_dash_ellipsis") << QByteArray("wait—what…") << QByteArrayList{"wait", "—", "what", "…"};
        QTest::newRow("curly_quotes") << QByteArray("“hi”") << QByteArrayList{"“", "hi", "”"};

        // Every ASCII punctuation character of the spec is a token of its own.
        const QByteArray punct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
        QByteArrayList each;
        for (const char c : punct)
            each.append(QByteArray(1, c));
        QTest::newRow("all_ascii_punctuation") << punct << each;
    }
    void latin() { checkTokens(); }

    void cjk_data()
    {
        addColumns();
        QTest::newRow("dog_bites_man") << QByteArray("狗咬了人") << QByteArrayList{"狗", "咬", "了", "人"};
        QTest::newRow("with_full_stop") << QByteArray("狗咬了人。") << QByteArrayList{"狗", "咬", "了", "人", "。"};
        QTest::newRow("i_love_nlp") << QByteArray("我爱NLP!") << QByteArrayList{"我", "爱", "NLP", "!"};
        QTest::newRow("latin_then_cjk") << QByteArray("Hello世界") << QByteArrayList{"Hello", "世", "界"};
        QTest::newRow("hiragana_katakana") << QByteArray("ねこネコ") << QByteArrayList{"ね", "こ", "ネ", "コ"};
        QTest::newRow("extension_a") << QByteArray("㐀㐁") << QByteArrayList{"㐀", "㐁"}; // U+3400, U+3401
        QTest::newRow("compatibility") << QByteArray("豈更") << QByteArrayList{"豈", "更"}; // U+F900, U+F901
        QTest::newRow("extension_b_4_bytes") << QByteArray("a𠀀b") << QByteArrayList{"a", "𠀀", "b"}; // U+20000
        QTest::newRow("spaces_between") << QByteArray("狗 咬 人") << QByteArrayList{"狗", "咬", "人"};
    }
    void cjk() { checkTokens(); }

    void fullWidthPunctuation_data()
    {
        addColumns();
        QTest::newRow("comma_exclamation") << QByteArray("你好，世界！") << QByteArrayList{"你", "好", "，", "世", "界", "！"};
        QTest::newRow("after_latin") << QByteArray("Hi！OK？") << QByteArrayList{"Hi", "！", "OK", "？"};
        QTest::newRow("ideographic_comma") << QByteArray("一、二") << QByteArrayList{"一", "、", "二"};
        QTest::newRow("ideographic_comma_in_latin") << QByteArray("a、b。") << QByteArrayList{"a", "、", "b", "。"};
        QTest::newRow("parentheses") << QByteArray("（注）") << QByteArrayList{"（", "注", "）"};
        QTest::newRow("corner_brackets") << QByteArray("「引用」") << QByteArrayList{"「", "引", "用", "」"};
        // Full-width forms U+FF01..U+FF60 include the full-width letters: one token each.
        QTest::newRow("fullwidth_letters") << QByteArray("ＡＢ") << QByteArrayList{"Ａ", "Ｂ"};
    }
    void fullWidthPunctuation() { checkTokens(); }

    void specialTokens_data()
    {
        addColumns();
        QTest::newRow("all_seven") << QByteArray("<sos> <eos> <pad> <unk> [CLS] [SEP] [MASK]")
                                   << QByteArrayList{"<sos>", "<eos>", "<pad>", "<unk>", "[CLS]", "[SEP]", "[MASK]"};
        QTest::newRow("sentence") << QByteArray("<sos> Je vais bien") << QByteArrayList{"<sos>", "Je", "vais", "bien"};
        QTest::newRow("glued_both_sides") << QByteArray("[CLS]hello[SEP]") << QByteArrayList{"[CLS]", "hello", "[SEP]"};
        QTest::newRow("glued_word_end") << QByteArray("end<eos>") << QByteArrayList{"end", "<eos>"};
        QTest::newRow("glued_inside_word") << QByteArray("a[MASK]b") << QByteArrayList{"a", "[MASK]", "b"};
        QTest::newRow("glued_pair") << QByteArray("<sos><eos>") << QByteArrayList{"<sos>", "<eos>"};
        QTest::newRow("glued_cjk") << QByteArray("<sos>狗咬人<eos>") << QByteArrayList{"<sos>", "狗", "咬", "人", "<eos>"};
        QTest::newRow("glued_punctuation") << QByteArray("hi![MASK].") << QByteArrayList{"hi", "!", "[MASK]", "."};
        QTest::newRow("inside_brackets") << QByteArray("<<pad>>") << QByteArrayList{"<", "<pad>", ">"};
        QTest::newRow("after_apostrophe") << QByteArray("don'<eos>") << QByteArrayList{"don", "'", "<eos>"};
        QTest::newRow("upper_case_is_not_special") << QByteArray("<SOS>") << QByteArrayList{"<", "SOS", ">"};
        QTest::newRow("lower_case_is_not_special") << QByteArray("[cls]") << QByteArrayList{"[", "cls", "]"};
        QTest::newRow("unclosed") << QByteArray("<sos") << QByteArrayList{"<", "sos"};
        QTest::newRow("space_inside") << QByteArray("[ MASK]") << QByteArrayList{"[", "MASK", "]"};
    }
    void specialTokens() { checkTokens(); }

    void specialTokenList()
    {
        const std::vector<std::string> expected{"<sos>", "<eos>", "<pad>", "<unk>", "[CLS]", "[SEP]", "[MASK]"};
        QCOMPARE(toList(attnlab::specialTokens()), toList(expected));
        QCOMPARE(QByteArray(attnlab::kPadToken.data(), qsizetype(attnlab::kPadToken.size())), QByteArray("<pad>"));
    }

    void whiteSpace_data()
    {
        addColumns();
        const QByteArrayList abc{"a", "b", "c"};
        QTest::newRow("ascii_kinds") << QByteArray("a\tb\nc\rd\fe\vf") << QByteArrayList{"a", "b", "c", "d", "e", "f"};
        QTest::newRow("runs_and_edges") << QByteArray("  a   b \t\n c  ") << abc;
        QTest::newRow("crlf") << QByteArray("a\r\nb\r\nc") << abc;
        QTest::newRow("no_break_space") << QByteArray("a\u00A0b\u00A0c") << abc;
        QTest::newRow("ideographic_space") << QByteArray("a\u3000b\u3000c") << abc;
        QTest::newRow("en_quad_em_space") << QByteArray("a\u2000b\u2003c") << abc;
        QTest::newRow("thin_hair_space") << QByteArray("a\u2009b\u200Ac") << abc;
        QTest::newRow("zero_width_space") << QByteArray("a\u200Bb\u200Bc") << abc;
        QTest::newRow("between_cjk") << QByteArray("狗\u3000人") << QByteArrayList{"狗", "人"};
    }
    void whiteSpace() { checkTokens(); }

    // A byte-order mark at the start (an editor's, or pasted with the text) is not part of the
    // first token.
    void byteOrderMark_data()
    {
        addColumns();
        QTest::newRow("latin") << QByteArray("\xEF\xBB\xBFHello world") << QByteArrayList{"Hello", "world"};
        QTest::newRow("cjk") << QByteArray("\xEF\xBB\xBF狗咬人") << QByteArrayList{"狗", "咬", "人"};
        QTest::newRow("special_token_first") << QByteArray("\xEF\xBB\xBF<sos> a") << QByteArrayList{"<sos>", "a"};
        QTest::newRow("then_space") << QByteArray("\xEF\xBB\xBF a") << QByteArrayList{"a"};
    }
    void byteOrderMark() { checkTokens(); }

    void emptyInput_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("spaces") << QByteArray("   ");
        QTest::newRow("ascii_white_space") << QByteArray(" \t\n\r\f\v");
        QTest::newRow("unicode_white_space") << QByteArray("\u00A0\u3000\u2000\u200B");
        QTest::newRow("byte_order_mark") << QByteArray("\xEF\xBB\xBF");
    }
    void emptyInput()
    {
        QFETCH(QByteArray, text);
        const auto result = tokenize(view(text));
        QVERIFY2(result.tokens.empty(), qPrintable("got tokens: " + toList(result.tokens).join('|')));
    }

    void invalidUtf8_data()
    {
        addColumns();
        const QByteArray r = kReplacement;
        QTest::newRow("lone_continuation") << QByteArray("\x80") << QByteArrayList{r};
        QTest::newRow("lone_continuation_in_word") << QByteArray("a\x80z") << QByteArrayList{"a" + r + "z"};
        QTest::newRow("two_continuations") << QByteArray("\x80\xBF") << QByteArrayList{r + r};
        QTest::newRow("ff_byte") << QByteArray("\xFF") << QByteArrayList{r};
        QTest::newRow("fe_byte") << QByteArray("x \xFE") << QByteArrayList{"x", r};
        QTest::newRow("truncated_2_byte_at_end") << QByteArray("ab\xC3") << QByteArrayList{"ab" + r};
        // The first two bytes of 狗 (E7 8B 97): each invalid byte becomes one U+FFFD.
        QTest::newRow("truncated_3_byte_at_end") << QByteArray("\xE7\x8B") << QByteArrayList{r + r};
        QTest::newRow("truncated_3_byte_before_space") << QByteArray("\xE7\x8B a") << QByteArrayList{r + r, "a"};
        QTest::newRow("truncated_3_byte_before_ascii") << QByteArray("\xE7\x8B!") << QByteArrayList{r + r, "!"};
        QTest::newRow("truncated_4_byte") << QByteArray("\xF0\x9F\x98") << QByteArrayList{r + r + r};
        QTest::newRow("overlong_slash_2_byte") << QByteArray("\xC0\xAF") << QByteArrayList{r + r};
        QTest::newRow("overlong_nul") << QByteArray("a\xC0\x80") << QByteArrayList{"a" + r + r};
        QTest::newRow("overlong_slash_3_byte") << QByteArray("\xE0\x80\xAF") << QByteArrayList{r + r + r};
        QTest::newRow("overlong_4_byte") << QByteArray("\xF0\x80\x80\xAF") << QByteArrayList{r + r + r + r};
        QTest::newRow("surrogate") << QByteArray("\xED\xA0\x80") << QByteArrayList{r + r + r};
        QTest::newRow("above_10FFFF") << QByteArray("\xF4\x90\x80\x80") << QByteArrayList{r + r + r + r};
        QTest::newRow("between_cjk") << QByteArray("狗\xFF人") << QByteArrayList{"狗", r, "人"};
        QTest::newRow("before_special") << QByteArray("\xE7<eos>") << QByteArrayList{r, "<eos>"};
    }
    void invalidUtf8()
    {
        QFETCH(QByteArray, text);
        QFETCH(QByteArrayList, expected);
        const auto result = tokenize(view(text));
        QCOMPARE(toList(result.tokens), expected);
        QCOMPARE(result.warnings.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(result.warnings.front().text).contains(QStringLiteral("UTF-8")),
                 qPrintable("warning: " + joined(texts(result.warnings))));
    }

    // Every one- and two-byte input: no crash, tokens are always valid UTF-8, and the UTF-8
    // warning appears exactly when the input is invalid.
    void anyBytesGiveValidTokens()
    {
        for (int a = 0; a < 256; ++a) {
            for (int b = -1; b < 256; ++b) {
                QByteArray text(1, char(a));
                if (b >= 0)
                    text += char(b);
                const auto result = tokenize(view(text));
                for (const auto& t : result.tokens) {
                    QVERIFY2(isValidUtf8(QByteArray::fromStdString(t)),
                             qPrintable("invalid token for input " + text.toHex(' ')));
                }
                QVERIFY2(result.warnings.empty() == isValidUtf8(text),
                         qPrintable("input " + text.toHex(' ') + " warnings: " + joined(texts(result.warnings))));
            }
        }
        // Every prefix of a multi-byte text, cut inside its characters.
        const QByteArray text = "我爱NLP！𠀀 don't";
        for (qsizetype n = 0; n <= text.size(); ++n) {
            const auto result = tokenize(view(text.left(n)));
            for (const auto& t : result.tokens)
                QVERIFY2(isValidUtf8(QByteArray::fromStdString(t)), qPrintable("prefix " + QByteArray::number(n)));
        }
    }

    void maxTokens_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("maxTokens");
        QTest::addColumn<QByteArrayList>("expected");
        QTest::addColumn<bool>("warned");
        QTest::newRow("under") << QByteArray("a b c") << 4 << QByteArrayList{"a", "b", "c"} << false;
        QTest::newRow("exact") << QByteArray("a b c") << 3 << QByteArrayList{"a", "b", "c"} << false;
        QTest::newRow("cut") << QByteArray("a b c d e f g h i j k l") << 10
                             << QByteArrayList{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"} << true;
        QTest::newRow("one") << QByteArray("狗咬了人") << 1 << QByteArrayList{"狗"} << true;
        QTest::newRow("special_counts") << QByteArray("<sos> hi <eos>") << 2 << QByteArrayList{"<sos>", "hi"} << true;
    }
    void maxTokens()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, maxTokens);
        QFETCH(QByteArrayList, expected);
        QFETCH(bool, warned);
        const auto result = tokenize(view(text), maxTokens);
        QCOMPARE(toList(result.tokens), expected);
        QCOMPARE(result.warnings.size(), std::size_t(warned ? 1 : 0));
    }

    void maxTokensWarningSaysHowMany()
    {
        const auto result = tokenize("a b c d e f g h i j k l", 10);
        QCOMPARE(result.warnings.size(), std::size_t(1));
        const QString w = QString::fromStdString(result.warnings.front().text);
        QVERIFY2(w.contains(QStringLiteral("12")) && w.contains(QStringLiteral("10")), qPrintable(w));
    }

    void padTo_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("maxTokens");
        QTest::addColumn<int>("padTo");
        QTest::addColumn<QByteArrayList>("expected");
        QTest::addColumn<int>("warnings");
        QTest::newRow("pads") << QByteArray("I love NLP") << 512 << 6
                              << QByteArrayList{"I", "love", "NLP", "<pad>", "<pad>", "<pad>"} << 0;
        QTest::newRow("exact_length") << QByteArray("a b") << 512 << 2 << QByteArrayList{"a", "b"} << 0;
        QTest::newRow("no_padding") << QByteArray("a b") << 512 << 0 << QByteArrayList{"a", "b"} << 0;
        QTest::newRow("existing_pad") << QByteArray("x <pad>") << 512 << 3 << QByteArrayList{"x", "<pad>", "<pad>"} << 0;
        QTest::newRow("longer_not_cut") << QByteArray("a b c") << 512 << 2 << QByteArrayList{"a", "b", "c"} << 1;
        QTest::newRow("cut_then_pad") << QByteArray("a b c d e") << 3 << 3 << QByteArrayList{"a", "b", "c"} << 1;
    }
    void padTo()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, maxTokens);
        QFETCH(int, padTo);
        QFETCH(QByteArrayList, expected);
        QFETCH(int, warnings);
        const auto result = tokenize(view(text), maxTokens, padTo);
        QCOMPARE(toList(result.tokens), expected);
        QVERIFY2(result.warnings.size() == std::size_t(warnings), qPrintable("warnings: " + joined(texts(result.warnings))));
    }

    void padToWarningWhenLonger()
    {
        const auto result = tokenize("a b c d e", 512, 3);
        QCOMPARE(result.tokens.size(), std::size_t(5));
        QCOMPARE(result.warnings.size(), std::size_t(1));
        const QString w = QString::fromStdString(result.warnings.front().text);
        QVERIFY2(w.contains(QStringLiteral("pad_to")) && w.contains(QStringLiteral("5")) && w.contains(QStringLiteral("3")),
                 qPrintable(w));
    }
};

QTEST_APPLESS_MAIN(TestTokenizer)
#include "tst_tokenizer.moc"

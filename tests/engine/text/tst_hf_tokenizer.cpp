// Hugging Face's tokenizer.json (text/hf_tokenizer.h, docs/tokenizers.md): Qwen's real
// tokenizer.json on 270 strings, and five small files made for the other paths (Llama 3, SmolLM2,
// SentencePiece-style with Prepend + byte fallback, Metaspace, WordPiece), every id as
// transformers.js computes it (scripts/gen_hf_tokenizer_reference.js); what transformers.js does
// not compute as the Rust library does (single_word, normalized added tokens, fuse_unk without
// byte fallback, add_bos_token) worked out by hand on tiny files; the readable display; every
// refusal named.
#include "text/hf_tokenizer.h"

#include "support/tokenizers.h"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>

using attnlab::HfTokenizer;
using attnlab::SubwordEncoding;
using namespace attnlab::testing;

namespace {

std::string hfDir()
{
    return ATTNLAB_TEST_DATA "/tokenizers/hf";
}

/// The tokenizer of a reference folder: "qwen3" (unpacked by the tests' CMake) or a small one.
const HfTokenizer& reference(const std::string& key)
{
    static std::map<std::string, HfTokenizer> loaded;
    auto it = loaded.find(key);
    if (it == loaded.end()) {
        const std::string folder = key == "qwen3" ? std::string(ATTNLAB_TEST_UNPACKED "/qwen3") : hfDir() + "/" + key;
        it = loaded.emplace(key, HfTokenizer::fromFolder(folder)).first;
    }
    return it->second;
}

const nlohmann::json& cases()
{
    static const nlohmann::json all = [] {
        std::ifstream in(hfDir() + "/cases.json");
        return nlohmann::json::parse(in);
    }();
    return all;
}

/// A tokenizer.json of a WordLevel model over `words` (ids in order) with a Whitespace
/// pre-tokenizer, `normalizer` (JSON or "null") and `added` (a JSON list).
std::string wordLevelJson(const QStringList& words, const std::string& normalizer, const std::string& added)
{
    nlohmann::json vocab = nlohmann::json::object();
    for (int i = 0; i < words.size(); ++i)
        vocab[words[i].toStdString()] = i;
    return R"({"version": "1.0", "added_tokens": )" + added + R"(, "normalizer": )" + normalizer
        + R"(, "pre_tokenizer": {"type": "Whitespace"}, "post_processor": null, "decoder": null,
             "model": {"type": "WordLevel", "unk_token": "<unk>", "vocab": )"
        + vocab.dump() + "}}";
}

std::vector<int> ids(const HfTokenizer& t, const std::string& text, bool specials = false)
{
    return t.encode(text, specials).ids;
}

QString idList(const std::vector<int>& v)
{
    QStringList s;
    for (const int i : v)
        s << QString::number(i);
    return s.join(' ');
}

} // namespace

class TestHfTokenizer : public QObject {
    Q_OBJECT

private slots:
    void referenceCases_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<int>("index");
        QVERIFY(cases().at("qwen3").size() >= 200);
        for (const auto& [key, list] : cases().items()) {
            QVERIFY(list.size() >= 30);
            for (std::size_t i = 0; i < list.size(); ++i)
                QTest::newRow((key + "/" + list[i].at("name").get<std::string>()).c_str()) << QString::fromStdString(key) << static_cast<int>(i);
        }
    }
    // The ids exactly as transformers.js gives them, with and without the special tokens.
    void referenceCases()
    {
        QFETCH(QString, key);
        QFETCH(int, index);
        const nlohmann::json& c = cases().at(key.toStdString()).at(static_cast<std::size_t>(index));
        const HfTokenizer& t = reference(key.toStdString());
        const std::string text = c.at("text").get<std::string>();
        const SubwordEncoding e = t.encode(text, false);
        QString diff = differenceOfIds(e.ids, c.at("ids").get<std::vector<int>>());
        QVERIFY2(diff.isEmpty(), qPrintable("without special tokens: " + diff + " (got " + idList(e.ids) + ")"));
        diff = differenceOfIds(t.encode(text, true).ids, c.at("ids_special").get<std::vector<int>>());
        QVERIFY2(diff.isEmpty(), qPrintable("with special tokens: " + diff));
        QCOMPARE(e.tokens.size(), e.ids.size());
        for (std::size_t i = 0; i < e.ids.size(); ++i)
            QCOMPARE(e.tokens[i], t.token(e.ids[i]));
        // Byte-level BPE keeps every byte: decoding gives the (NFC) text back.
        if (key == "qwen3" && !c.at("name").get<std::string>().starts_with("decomposed") && !c.at("name").get<std::string>().starts_with("long"))
            QCOMPARE(QString::fromStdString(t.decode(e.ids)), QString::fromStdString(text));
    }

    void qwenVocabulary()
    {
        const HfTokenizer& q = reference("qwen3");
        QCOMPARE(q.size(), 151669); // 151 643 BPE tokens + 26 added
        QCOMPARE(q.id("<|im_start|>"), std::optional<int>(151644));
        QCOMPARE(q.id("Ġworld"), std::optional<int>(1879));
        QVERIFY(q.isSpecial(151643));
        QVERIFY(!q.isSpecial(151667)); // <think> is added but not special
        QCOMPARE(q.eosId(), std::optional<int>(151645)); // tokenizer_config.json: <|im_end|>
        QCOMPARE(q.bosId(), std::optional<int>());
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, q.token(151669));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, q.decode({-1}));
        QCOMPARE(QString::fromStdString(q.decode({151644, 872, 198, 6023, 151645}, true)), QStringLiteral("user\nhi"));
    }

    // Bytes that are not UTF-8 are read as U+FFFD, as a Python str made with errors="replace".
    void invalidUtf8()
    {
        const HfTokenizer& q = reference("qwen3");
        QCOMPARE(ids(q, "a\xff" "b\xe4\xb8"), ids(q, "a\uFFFDb\uFFFD"));
    }

    void display_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("token");
        QTest::addColumn<QString>("shown");
        QTest::newRow("byte-level space") << "qwen3" << "Ġworld" << "␣world";
        QTest::newRow("byte-level Chinese") << "qwen3" << "çĭĹ" << "狗";
        QTest::newRow("byte-level newline") << "qwen3" << "Ċ" << "↵";
        QTest::newRow("byte-level tab") << "qwen3" << "ĉ" << "⇥";
        QTest::newRow("byte-level half a character") << "qwen3" << "ä¸" << "<0xE4><0xB8>";
        QTest::newRow("added token") << "qwen3" << "<|im_start|>" << "<|im_start|>";
        QTest::newRow("metaspace word") << "sentencepiece" << "▁the" << "␣the";
        QTest::newRow("metaspace byte") << "sentencepiece" << "<0xE5>" << "<0xE5>";
        QTest::newRow("metaspace newline byte") << "sentencepiece" << "<0x0A>" << "↵";
        QTest::newRow("special") << "sentencepiece" << "<s>" << "<s>";
        QTest::newRow("wordpiece") << "wordpiece" << "##ing" << "##ing";
    }
    void display()
    {
        QFETCH(QString, key);
        QFETCH(QString, token);
        QFETCH(QString, shown);
        const HfTokenizer& t = reference(key.toStdString());
        const std::optional<int> id = t.id(token.toStdString());
        QVERIFY2(id.has_value(), qPrintable(token + " is not in the vocabulary"));
        QCOMPARE(QString::fromStdString(t.display(*id)), shown);
    }

    void decode()
    {
        const HfTokenizer& sp = reference("sentencepiece");
        // Replace ▁ → space, byte fallback, fuse, strip the prepended space.
        QCOMPARE(QString::fromStdString(sp.decode(ids(sp, "the cat 咬 naïve", true))), QStringLiteral("<s> the cat 咬 naïve"));
        QCOMPARE(QString::fromStdString(sp.decode(ids(sp, "the cat 咬 naïve", true), true)), QStringLiteral("the cat 咬 naïve"));
        const HfTokenizer& wp = reference("wordpiece");
        QCOMPARE(QString::fromStdString(wp.decode(ids(wp, "The tokens, learning."))), QStringLiteral("the tokens, learning."));
        const HfTokenizer& ms = reference("metaspace");
        QCOMPARE(QString::fromStdString(ms.decode(ids(ms, "hello world"))), QStringLiteral("hello world"));
    }

    // single_word: "cat" only where no word character touches it (Rust regex \w).
    void singleWord()
    {
        const std::string json = wordLevelJson({"<unk>", "concat", "cats", ".", "x"}, "null",
                                               R"([{"id": 5, "content": "cat", "single_word": true, "lstrip": false, "rstrip": false,
                                                    "normalized": false, "special": false}])");
        const HfTokenizer t = HfTokenizer::fromStrings(json);
        // cat | concat (cat inside: not a word of its own) | cats (s after) | cat | . | xcat → x, unknown
        QCOMPARE(ids(t, "cat concat cats cat. xcat"), (std::vector<int>{5, 1, 2, 5, 3, 0}));
        QCOMPARE(ids(t, "é cat_"), (std::vector<int>{0, 0})); // "_" is a word character: "cat_" is one unknown word
    }

    // An added token marked normalized is looked for in the normalized text, in its normalized form;
    // one that is not, in the raw text.
    void normalizedAddedTokens()
    {
        const std::string json = wordLevelJson({"<unk>", "[", "]", "new", "raw", "a"}, R"({"type": "Lowercase"})",
                                               R"([{"id": 6, "content": "[NEW]", "single_word": false, "lstrip": false, "rstrip": false,
                                                    "normalized": true, "special": false},
                                                   {"id": 7, "content": "[RAW]", "single_word": false, "lstrip": false, "rstrip": false,
                                                    "normalized": false, "special": true}])");
        const HfTokenizer t = HfTokenizer::fromStrings(json);
        QCOMPARE(ids(t, "a [NEW] [new] [RAW] [raw]"), (std::vector<int>{5, 6, 6, 7, 1, 4, 2}));
        QCOMPARE(QString::fromStdString(t.token(6)), QStringLiteral("[NEW]"));
    }

    // fuse_unk without byte fallback: a run of unknown characters is one <unk>; without fuse_unk one each.
    void fuseUnk()
    {
        for (const bool fuse : {true, false}) {
            const std::string json = std::string(R"({"version": "1.0", "added_tokens": [], "normalizer": null, "pre_tokenizer": null,
                "model": {"type": "BPE", "unk_token": "<unk>", "fuse_unk": )") + (fuse ? "true" : "false")
                + R"(, "byte_fallback": false, "vocab": {"<unk>": 0, "a": 1, "b": 2, "ab": 3}, "merges": ["a b"]}})";
            const HfTokenizer t = HfTokenizer::fromStrings(json);
            QCOMPARE(ids(t, "abxyzab"), fuse ? (std::vector<int>{3, 0, 3}) : (std::vector<int>{3, 0, 0, 0, 3}));
        }
    }

    // LlamaTokenizer's add_bos_token / add_eos_token replace the template (transformers'
    // update_post_processor); another class keeps the tokenizer.json post-processor.
    void addBosToken()
    {
        std::ifstream in(hfDir() + "/sentencepiece/tokenizer.json");
        const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const HfTokenizer plain = HfTokenizer::fromStrings(json);
        const std::vector<int> body = ids(plain, "the cat");
        QCOMPARE(ids(plain, "the cat", true).front(), 1); // the template's <s>
        const auto with = [&](const std::string& config) { return ids(HfTokenizer::fromStrings(json, config), "the cat", true); };
        std::vector<int> eos = body;
        eos.push_back(2);
        QCOMPARE(with(R"({"tokenizer_class": "LlamaTokenizer", "add_bos_token": false, "add_eos_token": true, "bos_token": "<s>", "eos_token": "</s>"})"), eos);
        std::vector<int> bos{1};
        bos.insert(bos.end(), body.begin(), body.end());
        QCOMPARE(with(R"({"tokenizer_class": "LlamaTokenizerFast", "bos_token": "<s>"})"), bos);
        QCOMPARE(with(R"({"tokenizer_class": "PreTrainedTokenizerFast", "add_bos_token": false, "bos_token": "<s>"})"), bos);
    }

    void folderWithoutTokenizerJson()
    {
        QVERIFY(attnlab::loadFolderTokenizer(tokenizerDir() + "/gpt2") == nullptr);
        QVERIFY(attnlab::loadFolderTokenizer(hfDir() + "/llama3") != nullptr);
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        const QString model = R"("model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": ["a b"]})";
        QTest::newRow("not JSON") << "{" << "'tokenizer.json': not JSON:";
        QTest::newRow("version") << R"({"version": "2.0", )" + model + "}" << "'tokenizer.json': version: this is tokenizer.json version \"2.0\"";
        QTest::newRow("no model") << R"({"version": "1.0"})" << "'tokenizer.json': 'model' is missing";
        QTest::newRow("unigram") << R"({"model": {"type": "Unigram", "vocab": []}})"
                                 << "'tokenizer.json': model.type: the model 'Unigram' is not supported (Attention Lab reads BPE, WordPiece, WordLevel)";
        QTest::newRow("dropout") << R"({"model": {"type": "BPE", "dropout": 0.1, "vocab": {}, "merges": []}})"
                                 << "'tokenizer.json': model.dropout: BPE dropout (0.1) drops merges at random";
        QTest::newRow("merge not in vocabulary") << R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": ["a b"]}})"
                                                 << "'tokenizer.json': model.merges[0]: 'b' is not in the vocabulary";
        QTest::newRow("merge result") << R"({"model": {"type": "BPE", "vocab": {"a": 0, "b": 1}, "merges": [["a", "b"]]}})"
                                      << "'tokenizer.json': model.merges[0]: the merge of 'a' and 'b', 'ab', is not in the vocabulary";
        QTest::newRow("merge spelling") << R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": ["ab"]}})"
                                        << "model.merges[0]: expected two tokens separated by a space";
        QTest::newRow("duplicate id") << R"({"model": {"type": "BPE", "vocab": {"a": 0, "b": 0}, "merges": []}})"
                                      << "have the same id 0";
        QTest::newRow("precompiled") << R"({"normalizer": {"type": "Precompiled", "precompiled_charsmap": ""}, )" + model + "}"
                                     << "'tokenizer.json': normalizer.type: the normalizer 'Precompiled' is not supported (Attention Lab computes NFC, NFD, NFKC, NFKD, Lowercase, Prepend, Replace, Strip, StripAccents, BertNormalizer, Sequence)";
        QTest::newRow("unicode scripts") << R"({"pre_tokenizer": {"type": "Sequence", "pretokenizers": [{"type": "UnicodeScripts"}]}, )" + model + "}"
                                         << "'tokenizer.json': pre_tokenizer.pretokenizers[0].type: the pre-tokenizer 'UnicodeScripts' is not supported";
        // (an ordinary string: moc misreads a raw string holding "(a")
        QTest::newRow("bad regex") << "{\"pre_tokenizer\": {\"type\": \"Split\", \"pattern\": {\"Regex\": \"(a\"}, \"behavior\": \"Isolated\", \"invert\": false}, " + model + "}"
                                   << "'tokenizer.json': pre_tokenizer.pattern.Regex: the pattern '(a' does not compile: missing closing parenthesis";
        QTest::newRow("behavior") << R"({"pre_tokenizer": {"type": "Split", "pattern": {"String": " "}, "behavior": "Sideways", "invert": false}, )" + model + "}"
                                  << "pre_tokenizer.behavior: the split behavior 'Sideways' is not one of";
        QTest::newRow("ctc decoder") << R"({"decoder": {"type": "CTC"}, )" + model + "}" << "'tokenizer.json': decoder.type: the decoder 'CTC' is not supported";
        QTest::newRow("post-processor") << R"({"post_processor": {"type": "Wordy"}, )" + model + "}" << "post_processor.type: the post-processor 'Wordy' is not supported";
        QTest::newRow("template token") << R"({"post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>"}}], "special_tokens": {}}, )" + model + "}"
                                        << "post_processor.special_tokens: the template's special token '<s>' is not listed";
        QTest::newRow("template id") << R"({"post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>"}}], "special_tokens": {"<s>": {"id": "<s>", "ids": [9], "tokens": ["<s>"]}}}, )" + model + "}"
                                     << "post_processor: the special token id 9 is outside the vocabulary (0 … 2)";
        QTest::newRow("fixed padding") << R"({"padding": {"strategy": {"Fixed": 8}}, )" + model + "}" << "padding: padding every text to a fixed length is not supported";
        QTest::newRow("unknown unk") << R"({"model": {"type": "BPE", "unk_token": "<unk>", "vocab": {"a": 0}, "merges": []}})"
                                     << "model.unk_token: the unknown token '<unk>' is not in the vocabulary";
        QTest::newRow("added token") << R"({"added_tokens": [{"id": 3}], )" + model + "}" << "'tokenizer.json': added_tokens[0]: 'content' is missing";
    }
    void refusals()
    {
        QFETCH(QString, json);
        QFETCH(QString, message);
        const QString got = formatErrorMessage([&] { (void)HfTokenizer::fromStrings(json.toStdString()); });
        QVERIFY2(got.contains(message), qPrintable("got: " + got));
    }

    void configRefusals()
    {
        std::ifstream in(hfDir() + "/sentencepiece/tokenizer.json");
        const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QString got = formatErrorMessage([&] { (void)HfTokenizer::fromStrings(json, R"({"bos_token": "<nope>"})"); });
        QVERIFY2(got.contains("'tokenizer_config.json': bos_token: '<nope>' is not in the vocabulary of 'tokenizer.json'"), qPrintable(got));
        got = formatErrorMessage([&] { (void)HfTokenizer::fromStrings(json, R"({"tokenizer_class": "LlamaTokenizer", "add_bos_token": true})"); });
        QVERIFY2(got.contains("'tokenizer_config.json': add_bos_token: true, but there is no bos_token"), qPrintable(got));
        got = formatErrorMessage([&] { (void)HfTokenizer::fromStrings(json, "[1,"); });
        QVERIFY2(got.contains("'tokenizer_config.json': not JSON:"), qPrintable(got));
    }
};

QTEST_APPLESS_MAIN(TestHfTokenizer)
#include "tst_hf_tokenizer.moc"

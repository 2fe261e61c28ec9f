// The subword tokenizers (text/bpe.h, text/wordpiece.h) on arbitrary bytes. The first byte picks
// what the rest is:
//   0  text for GPT-2's BPE (the committed real vocabulary and merges);
//   1  text for BERT's WordPiece (bert-base-uncased's vocab.txt), lower-cased when bit 2 of the
//      first byte is set; a 0x1F byte splits it into segments A and B;
//   2  a vocab.txt for WordPieceTokenizer::fromString, then text encoded with what it accepts;
//   3  a vocab.json, a NUL byte, a merges.txt for BpeTokenizer::fromStrings, then the merges
//      text encoded with what it accepts.
// Checks: ids inside the vocabulary and tokens that are their strings; BPE's bytes are the text
// (decode gives the text back, each invalid UTF-8 part as U+FFFD: for valid UTF-8 exactly the
// text); BERT's [CLS] … [SEP] frame and segment ids; the same result twice (the merge cache).

#include "fuzz.h"

#include "io/safetensors.h"
#include "text/bpe.h"
#include "text/unicode.h"
#include "text/wordpiece.h"

#include <algorithm>

using namespace attnlab;

namespace {

const std::string kData = ATTNLAB_TEST_DATA "/tokenizers";

const BpeTokenizer& gpt2()
{
    static const BpeTokenizer tokenizer = BpeTokenizer::fromFiles(kData + "/gpt2/encoder.json", kData + "/gpt2/vocab.bpe");
    return tokenizer;
}

const WordPieceTokenizer& bert(bool lower)
{
    static const WordPieceTokenizer uncased = WordPieceTokenizer::fromFile(kData + "/bert/vocab.txt", true);
    static const WordPieceTokenizer cased = WordPieceTokenizer::fromFile(kData + "/bert/vocab.txt", false);
    return lower ? uncased : cased;
}

template <class Tokenizer>
void checkTokens(const Tokenizer& t, const SubwordEncoding& e)
{
    FUZZ_CHECK(e.ids.size() == e.tokens.size());
    for (std::size_t i = 0; i < e.ids.size(); ++i) {
        FUZZ_CHECK(e.ids[i] >= 0 && e.ids[i] < t.size());
        FUZZ_CHECK(e.tokens[i] == t.token(e.ids[i]));
    }
}

void checkBpe(const BpeTokenizer& t, std::string_view text)
{
    const SubwordEncoding e = t.encode(text);
    checkTokens(t, e);
    FUZZ_CHECK(e.segmentIds.empty());
    FUZZ_CHECK(e.ids.size() <= text.size());
    FUZZ_CHECK(t.decode(e.ids) == unicode::replaceInvalidUtf8(text));
    for (const int id : e.ids)
        FUZZ_CHECK(!t.display(id).empty());
    FUZZ_CHECK(t.encode(text).ids == e.ids);
}

void checkBert(const WordPieceTokenizer& t, std::string_view a, std::optional<std::string_view> b)
{
    const SubwordEncoding e = t.encode(a, b);
    checkTokens(t, e);
    FUZZ_CHECK(e.segmentIds.size() == e.ids.size() && e.ids.size() >= (b ? 3u : 2u));
    FUZZ_CHECK(e.ids.front() == t.id("[CLS]") && e.ids.back() == t.id("[SEP]"));
    // 0 … 0 then (with B) 1 … 1, the first [SEP] the last token of segment 0.
    const auto ones = static_cast<std::size_t>(std::count(e.segmentIds.begin(), e.segmentIds.end(), 1));
    FUZZ_CHECK(std::is_sorted(e.segmentIds.begin(), e.segmentIds.end()) && (b ? ones >= 1 : ones == 0));
    FUZZ_CHECK(e.ids[e.ids.size() - ones - 1] == t.id("[SEP]"));
    t.decode(e.ids);
    FUZZ_CHECK(t.encode(a, b).ids == e.ids);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 1)
        return 0;
    const int mode = data[0] % 4;
    const bool lower = (data[0] & 4) != 0;
    const std::string_view rest = fuzz::text(data + 1, size - 1);
    switch (mode) {
    case 0:
        checkBpe(gpt2(), rest);
        break;
    case 1: {
        const std::size_t split = rest.find('\x1f');
        if (split == std::string_view::npos)
            checkBert(bert(lower), rest, std::nullopt);
        else
            checkBert(bert(lower), rest.substr(0, split), rest.substr(split + 1));
        break;
    }
    case 2:
        if (const auto t = fuzz::attempt<FormatError>([&] { return WordPieceTokenizer::fromString(rest, lower, "fuzz.txt"); })) {
            checkBert(*t, rest, std::nullopt);
            checkBert(*t, "the [MASK] of [UNK]", "[SEP][PAD]");
        }
        break;
    default: {
        const std::size_t split = std::min(rest.find('\0'), rest.size());
        const std::string_view merges = split < rest.size() ? rest.substr(split + 1) : std::string_view();
        if (const auto t = fuzz::attempt<FormatError>([&] { return BpeTokenizer::fromStrings(rest.substr(0, split), merges); }))
            checkBpe(*t, merges);
        break;
    }
    }
    return 0;
}

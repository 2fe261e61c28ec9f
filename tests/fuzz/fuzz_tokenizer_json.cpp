// Hugging Face's tokenizer.json (text/hf_tokenizer.h) on arbitrary bytes. The first byte picks
// what the rest is:
//   0–4  text for one of the small committed files (tests/reference/tokenizers/hf: llama3,
//        smollm, sentencepiece, metaspace, wordpiece), with and without the special tokens;
//   5    a tokenizer.json for HfTokenizer::fromStrings, then a few texts and the file's own text
//        encoded with what it accepts (a NUL byte splits off a tokenizer_config.json).
// Checks: ids inside the vocabulary and tokens that are their strings; the same ids twice (the
// piece cache); decode and display answer for every id; smollm (byte-level, no clean-up of
// spaces in its tokenizer_config.json, unlike llama3's) gives the text back without special
// tokens (each invalid UTF-8 part as U+FFFD) when it holds no '<'.

#include "fuzz.h"

#include "io/safetensors.h"
#include "text/hf_tokenizer.h"
#include "text/unicode.h"

#include <algorithm>
#include <array>

using namespace attnlab;

namespace {

const std::string kData = ATTNLAB_TEST_DATA "/tokenizers/hf";
constexpr std::array<const char*, 5> kFolders{"llama3", "smollm", "sentencepiece", "metaspace", "wordpiece"};

const HfTokenizer& committed(std::size_t i)
{
    static const std::array<HfTokenizer, 5> tokenizers{
        HfTokenizer::fromFolder(kData + "/" + kFolders[0]), HfTokenizer::fromFolder(kData + "/" + kFolders[1]),
        HfTokenizer::fromFolder(kData + "/" + kFolders[2]), HfTokenizer::fromFolder(kData + "/" + kFolders[3]),
        HfTokenizer::fromFolder(kData + "/" + kFolders[4])};
    return tokenizers[i];
}

void check(const HfTokenizer& t, std::string_view text, bool byteLevel)
{
    for (const bool specials : {false, true}) {
        const SubwordEncoding e = t.encode(text, specials);
        FUZZ_CHECK(e.ids.size() == e.tokens.size());
        for (std::size_t i = 0; i < e.ids.size(); ++i) {
            FUZZ_CHECK(e.ids[i] >= 0 && e.ids[i] < t.size());
            FUZZ_CHECK(e.tokens[i] == t.token(e.ids[i]));
            FUZZ_CHECK(!t.display(e.ids[i]).empty());
        }
        FUZZ_CHECK(t.encode(text, specials).ids == e.ids);
        const std::string decoded = t.decode(e.ids);
        t.decode(e.ids, true);
        if (byteLevel && !specials && text.find('<') == std::string_view::npos)
            FUZZ_CHECK(decoded == unicode::replaceInvalidUtf8(text));
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 1)
        return 0;
    const std::size_t mode = data[0] % 6;
    const std::string_view rest = fuzz::text(data + 1, size - 1);
    if (mode < kFolders.size()) {
        check(committed(mode), rest, mode == 1);
        return 0;
    }
    const std::size_t split = std::min(rest.find('\0'), rest.size());
    const std::string_view json = rest.substr(0, split);
    const std::string_view config = split < rest.size() ? rest.substr(split + 1) : std::string_view();
    if (const auto t = fuzz::attempt<FormatError>([&] { return HfTokenizer::fromStrings(json, config); })) {
        for (const std::string_view text : {std::string_view("Hello, world! 狗咬了人 123 <s> [CLS]  \n\t"), json.substr(0, 256)})
            check(*t, text, false);
        for (int id = 0; id < std::min(t->size(), 64); ++id) {
            t->display(id);
            t->decode({id});
        }
    }
    return 0;
}

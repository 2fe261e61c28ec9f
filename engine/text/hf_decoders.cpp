// The decoders of a tokenizer.json (hf_steps.h): the tokens' strings back to text, as the
// decode_chain of `tokenizers` turns them, one entry per type in kDecoders.

#include "text/hf_steps.h"

#include "text/hf_text.h"
#include "text/subword.h"
#include "text/unicode.h"
#include "text/utf8.h"

#include <array>

namespace attnlab::hf {

namespace {

using nlohmann::json;
using unicode::Regex;

// ---------------------------------------------------------------------------------------------
// Decoders (decode_chain: tokens in, tokens out; the text is their concatenation)

/// Tokens spelled in GPT-2's byte alphabet back to bytes (a token with another character is
/// taken as it is), joined, invalid UTF-8 replaced as from_utf8_lossy does.
void byteLevelDecode(std::vector<std::string>& tokens)
{
    std::string bytes;
    for (const std::string& token : tokens) {
        std::string own;
        bool all = true;
        for (const char32_t c : decoded(token)) {
            const int b = byteOfCharacter(c);
            if (b < 0) {
                all = false;
                break;
            }
            own += static_cast<char>(b);
        }
        bytes += all ? own : token;
    }
    tokens = {unicode::replaceInvalidUtf8(bytes)};
}

/// <0xNN> tokens to their bytes: a run of them that is UTF-8 becomes its text, else one U+FFFD
/// per byte.
void byteFallbackDecode(std::vector<std::string>& tokens)
{
    std::vector<std::string> out;
    std::string run;
    std::size_t runLength = 0;
    const auto flush = [&] {
        if (runLength == 0)
            return;
        if (unicode::isValidUtf8(run))
            out.push_back(run);
        else
            for (std::size_t i = 0; i < runLength; ++i)
                out.emplace_back("\uFFFD");
        run.clear();
        runLength = 0;
    };
    const auto hexValue = [](char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    };
    for (std::string& token : tokens) {
        const bool byte = token.size() == 6 && token.starts_with("<0x") && token.ends_with('>') && hexValue(token[3]) >= 0
            && hexValue(token[4]) >= 0;
        if (byte) {
            run += static_cast<char>(hexValue(token[3]) * 16 + hexValue(token[4]));
            ++runLength;
        } else {
            flush();
            out.push_back(std::move(token));
        }
    }
    flush();
    tokens = std::move(out);
}

Decoder readDecoderStep(const json& j, const JsonPlace& at, Steps& steps);

struct DecoderType {
    std::string_view name;
    Decoder (*make)(const json& j, const JsonPlace& at, Steps& steps);
};

constexpr DecoderType kDecoders[] = {
    {"ByteLevel",
     [](const json&, const JsonPlace&, Steps& steps) {
         steps.spelling = TokenSpelling::ByteLevel;
         return Decoder(byteLevelDecode);
     }},
    {"Metaspace",
     [](const json& j, const JsonPlace& at, Steps& steps) {
         const std::string replacement = stringMember(j, "replacement", at);
         std::string scheme = optionalString(j, "prepend_scheme", at).value_or("always");
         if (const json* add = optionalMember(j, "add_prefix_space"); add && add->is_boolean() && !add->get<bool>())
             scheme = "never";
         steps.spelling = TokenSpelling::Metaspace;
         // Each replacement character a space, except in the first token (the prepended one).
         return Decoder([mark = Regex(escaped(replacement)), dropFirst = scheme != "never"](std::vector<std::string>& tokens) {
             for (std::size_t i = 0; i < tokens.size(); ++i)
                 tokens[i] = replaced(tokens[i], mark, i == 0 && dropFirst ? "" : " ");
         });
     }},
    {"Replace",
     [](const json& j, const JsonPlace& at, Steps& steps) {
         const std::string content = stringMember(j, "content", at);
         const json& pattern = member(j, "pattern", at);
         const json* literal = optionalMember(pattern, "String");
         if (content == " " && literal && *literal == "\u2581")
             steps.spelling = TokenSpelling::Metaspace;
         return Decoder([regex = readPattern(pattern, at / "pattern"), content](std::vector<std::string>& tokens) {
             for (std::string& token : tokens)
                 token = replaced(token, regex, content);
         });
     }},
    {"ByteFallback", [](const json&, const JsonPlace&, Steps&) { return Decoder(byteFallbackDecode); }},
    {"Fuse",
     [](const json&, const JsonPlace&, Steps&) {
         return Decoder([](std::vector<std::string>& tokens) {
             std::string all;
             for (const std::string& t : tokens)
                 all += t;
             tokens = {all};
         });
     }},
    {"Strip",
     [](const json& j, const JsonPlace& at, Steps&) {
         const std::u32string content = unicode::decodeUtf8(stringMember(j, "content", at));
         if (content.size() != 1)
             fail(at / "content", "expected one character");
         const auto start = static_cast<std::size_t>(integerMember(j, "start", 0, 1 << 20, at));
         const auto stop = static_cast<std::size_t>(integerMember(j, "stop", 0, 1 << 20, at));
         return Decoder([c = content[0], start, stop](std::vector<std::string>& tokens) {
             for (std::string& token : tokens) {
                 const std::u32string chars = decoded(token);
                 std::size_t begin = 0, end = chars.size();
                 while (begin < start && begin < end && chars[begin] == c)
                     ++begin;
                 while (chars.size() - end < stop && end > begin && chars[end - 1] == c)
                     --end;
                 token = unicode::encodeUtf8(std::u32string_view(chars).substr(begin, end - begin));
             }
         });
     }},
    {"WordPiece",
     [](const json& j, const JsonPlace& at, Steps&) {
         const std::string prefix = optionalString(j, "prefix", at).value_or("##");
         const bool cleanup = boolMember(j, "cleanup", true, at);
         return Decoder([prefix, cleanup](std::vector<std::string>& tokens) {
             for (std::size_t i = 0; i < tokens.size(); ++i) {
                 std::string& t = tokens[i];
                 if (i > 0)
                     t = t.starts_with(prefix) ? t.substr(prefix.size()) : " " + t;
                 if (cleanup) {
                     static constexpr std::pair<std::string_view, std::string_view> kCleanup[] = {
                         {" .", "."}, {" ?", "?"}, {" !", "!"}, {" ,", ","}, {" ' ", "'"}, {" n't", "n't"},
                         {" 'm", "'m"}, {" do not", " don't"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"},
                     };
                     for (const auto& [from, to] : kCleanup)
                         t = replacedLiterally(t, from, to);
                 }
             }
         });
     }},
    {"BPEDecoder",
     [](const json& j, const JsonPlace& at, Steps&) {
         const std::string suffix = optionalString(j, "suffix", at).value_or("</w>");
         return Decoder([suffix](std::vector<std::string>& tokens) {
             for (std::size_t i = 0; i < tokens.size(); ++i)
                 tokens[i] = replacedLiterally(tokens[i], suffix, i + 1 == tokens.size() ? "" : " ");
         });
     }},
    {"Sequence",
     [](const json& j, const JsonPlace& at, Steps& steps) {
         const json& list = member(j, "decoders", at);
         if (!list.is_array())
             fail(at / "decoders", std::string("expected a list, found ") + list.type_name());
         std::vector<Decoder> parts;
         for (std::size_t i = 0; i < list.size(); ++i)
             parts.push_back(readDecoderStep(list[i], (at / "decoders")[i], steps));
         return Decoder([parts = std::move(parts)](std::vector<std::string>& tokens) {
             for (const Decoder& d : parts)
                 d(tokens);
         });
     }},
};

Decoder readDecoderStep(const json& j, const JsonPlace& at, Steps& steps)
{
    const std::string type = typeOf(j, at);
    for (const DecoderType& t : kDecoders)
        if (t.name == type)
            return t.make(j, at, steps);
    fail(at / "type", "the decoder " + subword::shortQuote(type) + " is not supported (Attention Lab computes " + namesOf(kDecoders)
                          + ")");
}

} // namespace

void readDecoder(const json& j, const JsonPlace& at, Steps& steps)
{
    steps.decoder = j.is_null() ? Decoder() : readDecoderStep(j, at, steps);
}

} // namespace attnlab::hf

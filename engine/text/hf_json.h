#pragma once
/// Reading tokenizer.json (text/hf_tokenizer.h): where a value is, for messages, and the few
/// typed look-ups every component uses. Each failure is one FormatError naming the file and the
/// value's path in it: "'q/tokenizer.json': model.merges[12]: expected two tokens".

#include "core/message.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace attnlab::hf {

/// A value's place: the file and the path to it ("pre_tokenizer.pretokenizers[1]").
struct JsonPlace {
    std::string file; ///< already quoted
    std::string path;

    JsonPlace operator/(std::string_view key) const;
    JsonPlace operator[](std::size_t index) const;
    /// "'tokenizer.json': model.merges[12]: "
    std::string where() const;
};

/// Throws FormatError: where() + what (a table line of text/messages.h, or English shown as it is).
[[noreturn]] void fail(const JsonPlace& at, const Message& what);
[[noreturn]] void fail(const JsonPlace& at, const std::string& what);

/// The object at `at` (FormatError when `j` is not an object).
const nlohmann::json& object(const nlohmann::json& j, const JsonPlace& at);
/// The member `key` of object `j`, which must be there and not null.
const nlohmann::json& member(const nlohmann::json& j, std::string_view key, const JsonPlace& at);
/// The member `key` of object `j` when it is there and not null.
const nlohmann::json* optionalMember(const nlohmann::json& j, std::string_view key);
std::string stringMember(const nlohmann::json& j, std::string_view key, const JsonPlace& at);
std::optional<std::string> optionalString(const nlohmann::json& j, std::string_view key, const JsonPlace& at);
bool boolMember(const nlohmann::json& j, std::string_view key, bool fallback, const JsonPlace& at);
/// A whole number in [lo, hi].
long long integerMember(const nlohmann::json& j, std::string_view key, long long lo, long long hi, const JsonPlace& at);
/// The value of `j` as a string (FormatError naming `at` when it is something else).
const std::string& asString(const nlohmann::json& j, const JsonPlace& at);
/// The component's "type" member.
std::string typeOf(const nlohmann::json& j, const JsonPlace& at);

} // namespace attnlab::hf

#include "text/hf_json.h"

#include "io/safetensors.h"
#include "text/messages.h"
#include "text/subword.h"

namespace attnlab::hf {

JsonPlace JsonPlace::operator/(std::string_view key) const
{
    return {file, path.empty() ? std::string(key) : path + "." + std::string(key)};
}

JsonPlace JsonPlace::operator[](std::size_t index) const
{
    return {file, path + "[" + std::to_string(index) + "]"};
}

std::string JsonPlace::where() const
{
    return file + ": " + (path.empty() ? std::string() : path + ": ");
}

void fail(const JsonPlace& at, const Message& what)
{
    throw FormatError(at.path.empty() ? sayAbout(textMessage("json_file"), what, at.file)
                                      : sayAbout(textMessage("json_place"), what, at.file, at.path));
}

void fail(const JsonPlace& at, const std::string& what)
{
    fail(at, Message{{}, {}, what});
}

const nlohmann::json& object(const nlohmann::json& j, const JsonPlace& at)
{
    if (!j.is_object())
        fail(at, say(textMessage("json_expected_object"), j.type_name()));
    return j;
}

const nlohmann::json* optionalMember(const nlohmann::json& j, std::string_view key)
{
    if (!j.is_object())
        return nullptr;
    const auto it = j.find(key);
    return it == j.end() || it->is_null() ? nullptr : &*it;
}

const nlohmann::json& member(const nlohmann::json& j, std::string_view key, const JsonPlace& at)
{
    object(j, at);
    const nlohmann::json* value = optionalMember(j, key);
    if (value == nullptr)
        fail(at, say(textMessage("json_key_missing"), key));
    return *value;
}

const std::string& asString(const nlohmann::json& j, const JsonPlace& at)
{
    if (!j.is_string())
        fail(at, say(textMessage("json_expected_string"), subword::shortText(j.dump())));
    return j.get_ref<const std::string&>();
}

std::string stringMember(const nlohmann::json& j, std::string_view key, const JsonPlace& at)
{
    return asString(member(j, key, at), at / key);
}

std::optional<std::string> optionalString(const nlohmann::json& j, std::string_view key, const JsonPlace& at)
{
    const nlohmann::json* value = optionalMember(j, key);
    if (value == nullptr)
        return std::nullopt;
    return asString(*value, at / key);
}

bool boolMember(const nlohmann::json& j, std::string_view key, bool fallback, const JsonPlace& at)
{
    const nlohmann::json* value = optionalMember(j, key);
    if (value == nullptr)
        return fallback;
    if (!value->is_boolean())
        fail(at / key, say(textMessage("json_expected_bool"), subword::shortText(value->dump())));
    return value->get<bool>();
}

long long integerMember(const nlohmann::json& j, std::string_view key, long long lo, long long hi, const JsonPlace& at)
{
    const nlohmann::json& value = member(j, key, at);
    const bool inRange = (value.is_number_unsigned() && value.get<unsigned long long>() <= static_cast<unsigned long long>(hi)
                          && static_cast<long long>(value.get<unsigned long long>()) >= lo)
        || (value.is_number_integer() && !value.is_number_unsigned() && value.get<long long>() >= lo && value.get<long long>() <= hi);
    if (!inRange)
        fail(at / key, say(textMessage("json_expected_integer"), lo, hi, subword::shortText(value.dump())));
    return value.is_number_unsigned() ? static_cast<long long>(value.get<unsigned long long>()) : value.get<long long>();
}

std::string typeOf(const nlohmann::json& j, const JsonPlace& at)
{
    return stringMember(j, "type", at);
}

} // namespace attnlab::hf

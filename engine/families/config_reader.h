#pragma once
/// Reading a config.json's keys with one-line FormatErrors that name the key (the families'
/// declarative tables, families/family.h, are read with it).

#include "core/model_spec.h"
#include "pretrained/hf_config.h"

#include <nlohmann/json.hpp>

#include <string>

namespace attnlab {

struct ConfigKeys;

class ConfigReader {
public:
    using Json = nlohmann::json;

    ConfigReader(const Json& json, std::string name)
        : m_json(json)
        , m_name(std::move(name))
    {
    }

    /// "NAME: KEY WHY".
    [[noreturn]] void fail(const std::string& key, const std::string& why) const;
    const Json& require(const std::string& key) const;
    int integer(const std::string& key, int lo, int hi) const { return integerValue(key, require(key), lo, hi); }
    int integerValue(const std::string& key, const Json& v, int lo, int hi) const;
    /// A small positive number (an ε): above 0, at most 1.
    float positive(const std::string& key) const;
    std::string string(const std::string& key) const;
    /// gelu_new (and its aliases), gelu or relu.
    Activation activation(const std::string& key) const;
    /// A key that, when present, must hold `expected` (a feature Attention Lab does not compute).
    void expect(const std::string& key, const Json& expected, const std::string& why) const;
    /// The key's value, or nullptr when it is missing or null.
    const Json* find(const std::string& key) const;
    /// The table's integers, ε and activation into `config`, in the table's order.
    void read(const ConfigKeys& keys, HfConfig& config) const;
    /// The table's expectations.
    void expectAll(const ConfigKeys& keys) const;

    static std::string shortJson(const Json& v);

private:
    const Json& m_json;
    std::string m_name;
};

} // namespace attnlab

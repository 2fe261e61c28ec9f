#include "families/config_reader.h"

#include "families/family.h"
#include "families/messages.h"
#include "io/safetensors.h"
#include "text/printable.h"

#include <cmath>

namespace attnlab {

void ConfigReader::fail(const std::string& key, const std::string& why) const
{
    throw FormatError(m_name + ": " + key + " " + why);
}

const ConfigReader::Json& ConfigReader::require(const std::string& key) const
{
    const auto it = m_json.find(key);
    if (it == m_json.end())
        throw FormatError(say(familiesMessage("config_key_missing"), m_name, key));
    return *it;
}

int ConfigReader::integerValue(const std::string& key, const Json& v, int lo, int hi) const
{
    if (!v.is_number_integer())
        throw FormatError(say(familiesMessage("config_key_not_integer"), m_name, key, shortJson(v)));
    const auto x = v.get<long long>();
    if (x < lo || x > hi)
        throw FormatError(say(familiesMessage("config_key_range"), m_name, key, x, lo, hi));
    return static_cast<int>(x);
}

float ConfigReader::positive(const std::string& key) const
{
    const Json& v = require(key);
    if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>()) || v.get<double>() > 1)
        throw FormatError(say(familiesMessage("config_key_not_small_positive"), m_name, key, shortJson(v)));
    return static_cast<float>(v.get<double>());
}

std::string ConfigReader::string(const std::string& key) const
{
    const Json& v = require(key);
    if (!v.is_string())
        throw FormatError(say(familiesMessage("config_key_not_string"), m_name, key, shortJson(v)));
    return v.get<std::string>();
}

Activation ConfigReader::activation(const std::string& key) const
{
    const std::string a = string(key);
    if (a == "gelu_new" || a == "gelu_pytorch_tanh" || a == "gelu_fast")
        return Activation::GeluTanh;
    if (a == "gelu")
        return Activation::Gelu;
    if (a == "relu")
        return Activation::Relu;
    throw FormatError(say(familiesMessage("config_key_activation"), m_name, key, printable(a)));
}

void ConfigReader::expect(const std::string& key, const Json& expected, const std::string& why) const
{
    const auto it = m_json.find(key);
    if (it != m_json.end() && !it->is_null() && *it != expected)
        fail(key, "is " + shortJson(*it) + ": " + why);
}

const ConfigReader::Json* ConfigReader::find(const std::string& key) const
{
    const auto it = m_json.find(key);
    return it == m_json.end() || it->is_null() ? nullptr : &*it;
}

void ConfigReader::read(const ConfigKeys& keys, HfConfig& c) const
{
    for (const ConfigInteger& i : keys.integers)
        c.*i.member = integer(i.key, i.lo, i.hi);
    c.layerNormEps = positive(keys.epsilon);
    if (keys.activation)
        c.activation = activation(keys.activation);
}

void ConfigReader::expectAll(const ConfigKeys& keys) const
{
    for (const ConfigExpectation& e : keys.expectations)
        expect(e.key, Json::parse(e.expectedJson), e.why);
}

std::string ConfigReader::shortJson(const Json& v)
{
    std::string s = v.dump();
    return s.size() > 40 ? s.substr(0, 40) + "…" : s;
}

} // namespace attnlab

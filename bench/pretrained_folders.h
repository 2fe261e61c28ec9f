#pragma once
// Random-weight Hugging Face model folders of GPT-2 small's, BERT-base's, SmolLM2-135M's and
// Qwen2.5-0.5B's shapes, written at benchmark time (weights cannot ship in the repository):
// config.json, a model.safetensors streamed to disk tensor by tensor (never held in memory whole)
// and tokenizer files from tests/reference/tokenizers. Matrices and embeddings are N(0, 0.02)
// from a seeded stream, biases 0, LayerNorm and RMSNorm weights 1 and LayerNorm biases 0: how
// Hugging Face initialises these models.

#include <cstdint>
#include <filesystem>

namespace attnlab::bench {

/// A folder under the system's temporary directory, removed with everything in it when the
/// object is destroyed.
class TemporaryFolder {
public:
    TemporaryFolder();
    ~TemporaryFolder();
    TemporaryFolder(const TemporaryFolder&) = delete;
    TemporaryFolder& operator=(const TemporaryFolder&) = delete;
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

/// Writes GPT-2 small (GPT2LMHeadModel: 12 layers, d 768, 12 heads, 1024 positions, vocabulary
/// 50257, F32) into `folder`, with GPT-2's vocab.json and merges.txt from `tokenizers`.
/// Returns the number of parameters written (124,439,808). Throws std::runtime_error.
std::int64_t writeGpt2Small(const std::filesystem::path& folder, const std::filesystem::path& tokenizers, std::uint64_t seed);

/// Writes BERT-base uncased with its masked-LM head (BertForMaskedLM: 12 layers, d 768, 12
/// heads, d_ff 3072, 512 positions, vocabulary 30522, 2 token types, F32) into `folder`, with
/// the real uncased vocab.txt from `tokenizers`. Returns the number of parameters written.
std::int64_t writeBertBase(const std::filesystem::path& folder, const std::filesystem::path& tokenizers, std::uint64_t seed);

/// Writes SmolLM2-135M (LlamaForCausalLM: 30 layers, hidden 576, 9 query heads sharing 3
/// key/value heads of 64, intermediate 1536, vocabulary 49152, tied embeddings, BF16) into
/// `folder`, its config.json as HuggingFaceTB/SmolLM2-135M's. The real tokenizer is not in the
/// repository: tokenizer.json is byte-level BPE in SmolLM2's layout with 49152 tokens, the special
/// tokens <|endoftext|>, <|im_start|>, <|im_end|> (ids 0 … 2) and GPT-2's first 49149 tokens and
/// their merges (from `tokenizers`/gpt2). Returns the number of parameters written (134,515,008).
std::int64_t writeSmolLm2_135M(const std::filesystem::path& folder, const std::filesystem::path& tokenizers, std::uint64_t seed);

/// Writes Qwen2.5-0.5B (Qwen2ForCausalLM: 24 layers, hidden 896, 14 query heads sharing 2
/// key/value heads of 64, biases on q, k and v, intermediate 4864, vocabulary 151936, tied
/// embeddings, BF16) into `folder`, its config.json as Qwen/Qwen2.5-0.5B's, with Qwen's real
/// tokenizer.json and tokenizer_config.json from the folder `qwenTokenizer` (the unpacked
/// tests/reference/tokenizers/hf/qwen3). Returns the number of parameters written (494,032,768).
std::int64_t writeQwen25_05B(const std::filesystem::path& folder, const std::filesystem::path& qwenTokenizer, std::uint64_t seed);

} // namespace attnlab::bench

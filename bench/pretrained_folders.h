#pragma once
// Random-weight Hugging Face model folders of GPT-2 small's and BERT-base's shapes, written at
// benchmark time (weights cannot ship in the repository): config.json, a model.safetensors
// streamed to disk tensor by tensor (never held in memory whole) and the real tokenizer files
// of tests/reference/tokenizers. Matrices and embeddings are N(0, 0.02) from a seeded stream,
// biases 0, LayerNorm weights 1 and biases 0: how Hugging Face initialises both models.

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

} // namespace attnlab::bench

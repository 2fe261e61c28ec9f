#pragma once
/// What a model is trained on (docs/training.md): the built-in tasks copy, reverse and sort over
/// the shipped model's alphabet, or a teacher's file of `source<TAB>target` lines; which pairs
/// are held out (CRC-32 of the source's UTF-8 bytes divisible by 16, so anyone can reproduce the
/// split); and a fresh model with the task's vocabularies.

#include "core/random.h"
#include "model/model.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab::train {

enum class TaskKind {
    Copy,    ///< the target is the source
    Reverse, ///< the source's characters in reverse order
    Sort,    ///< the source's characters in code-point order
    File,    ///< a teacher's pairs
};

/// "copy", "reverse", "sort"; nullopt for anything else (a file name).
std::optional<TaskKind> parseTaskKind(std::string_view name);

/// CRC-32 (IEEE 802.3, as zlib's crc32 and Python's zlib.crc32) of `bytes`.
std::uint32_t crc32(std::string_view bytes);
/// True when a pair with this source is held out: crc32(source) % 16 == 0.
bool isHeldOut(std::string_view source);

/// The built-in tasks' characters: a–z, 0–9 and the shipped model's 39 Chinese characters.
const std::vector<std::string>& taskAlphabet();
/// The target a built-in task asks for (Copy, Reverse, Sort) for this source of alphabet characters.
std::string taskTarget(TaskKind kind, std::string_view source);

struct Pair {
    std::string source;
    std::string target;
};

/// The most distinct tokens a vocabulary built from a file keeps (the most frequent first).
inline constexpr int kMaxFileVocabulary = 4000;
/// The largest training file read.
inline constexpr std::uint64_t kMaxTaskFileBytes = 64ULL << 20;
/// The longest source and target of a training pair, in tokens: what a model reads (the decoder
/// reads <sos> and the target). A longer line of a file is refused, not cut.
inline constexpr int kMaxPairSource = ConfigLimits::maxTokens;
inline constexpr int kMaxPairTarget = kMaxTargetLength - 1;

/// A task: the pairs it trains on and those it holds out, and the vocabularies and tokenizer a
/// fresh model for it gets.
struct Task {
    TaskKind kind = TaskKind::Reverse;
    std::string name;              ///< "reverse", or the file's name
    int maxLength = 12;            ///< built-in: source lengths 1 … maxLength
    double meanSource = 1;         ///< tokens of a source, on average (a file's lines; a built-in task's strings)
    double meanTarget = 1;         ///< tokens of a target
    int longestSource = 1;         ///< tokens of the longest source
    int longestTarget = 1;         ///< tokens of the longest target
    ModelTokenizer tokenizer = ModelTokenizer::Chars;
    bool lowercase = false;
    std::vector<Pair> train;       ///< a file's training pairs (built-in tasks draw theirs)
    std::vector<Pair> heldOut;     ///< never trained on: a file's held-out lines, or a fixed sample
    std::vector<std::string> sourceVocab; ///< <pad> <unk>, then the tokens
    std::vector<std::string> targetVocab; ///< <pad> <unk> <sos> <eos>, then the tokens

    bool generated() const { return kind != TaskKind::File; }
    /// A training pair: a built-in task's random string (length uniform in 1 … maxLength,
    /// characters uniform, never a held-out one), or a file's line chosen uniformly.
    Pair sample(SplitMix64& random) const;
};

/// A built-in task (not File) with sources of 1 … maxLength characters (1 … 64) and a held-out
/// sample of `heldOut` strings (drawn from a fixed seed, the same for every run).
Task builtInTask(TaskKind kind, int maxLength, int heldOut = 256);

/// A teacher's file: UTF-8 text, one `source<TAB>target` per line (blank lines skipped; CRLF
/// read), tokenized with `tokenizer` (the studio's words by default). `batchAll` keeps every
/// line for training (and holds none out). Throws FormatError "FILE:LINE: …" for an empty,
/// binary (NUL bytes, invalid UTF-8) or malformed file (a line without exactly one TAB, an
/// empty side, a side longer than kMaxPairSource or kMaxPairTarget tokens), or when every line
/// is held out; FileError when it cannot be read.
Task fileTask(const std::string& path, ModelTokenizer tokenizer = ModelTokenizer::Words, bool batchAll = false);

/// A fresh model for `task` with the sizes of `spec` (its layers, widths, norm, activation, ε,
/// seed): PyTorch's initialisation as seededModel, embeddings N(0, 1/d_model) (after the ×√d
/// scale they are as large as the positions), the output head uniform in ±1/√d. Sinusoidal
/// positions, final norms, the task's vocabularies and tokenizer; generation up to
/// maxLength + 4 tokens. Throws std::invalid_argument for an invalid spec.
Seq2SeqModel freshModel(const ModelSpec& spec, const Task& task);

} // namespace attnlab::train

#pragma once
/// Comparing two inputs (docs/engine.md, section 10): A is the sentence and settings of a run;
/// B is another sentence under the same settings, or the same sentence under one other setting
/// (positional encoding, score scaling, the mask, the seed). Every stage of A is then shown
/// beside B's and their difference (compare/matching.h lines B up with A first).
///
/// A comparison is written the same way in lesson files (`compare: 人咬了狗`), session files
/// and the studio: the sentence itself, or one setting as `key=value` with the names of the
/// `settings` grammar: `pe=none`, `scale=off`, `mask=causal`, `seed=7`. A sentence that would
/// read as a setting is written `sentence=…`.

#include "core/config.h"
#include "core/message.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace attnlab {

/// What B changes against A.
enum class CompareKind {
    Sentence,   ///< another sentence, the same settings
    Positional, ///< the same sentence with another positional encoding
    Scaling,    ///< the same sentence with the scores divided by √d_k or not
    Mask,       ///< the same sentence with another mask (one attention block only: a Transformer's encoder takes its mask from the settings)
    Seed,       ///< the same sentence with another seed (embeddings, learned positions, seeded weights)
};

/// B: what it changes and the value it changes it to. Only the field of `kind` is used.
struct Comparison {
    CompareKind kind = CompareKind::Sentence;
    std::string sentence;                                     ///< Sentence: B's text (at least one token)
    PositionalEncoding positional = PositionalEncoding::None; ///< Positional
    bool scaleScores = false;                                 ///< Scaling
    MaskKind mask = MaskKind::Causal;                         ///< Mask: none, causal, padding or causal+padding
    std::uint64_t seed = 7;                                   ///< Seed

    bool operator==(const Comparison&) const = default;
};

/// "sentence", "pe", "scale", "mask", "seed": the keys of the written form.
std::string_view toString(CompareKind kind);
std::optional<CompareKind> parseCompareKind(std::string_view name);

/// B's settings: A's, with the one setting B changes (a sentence comparison changes none).
Config comparedConfig(const Config& a, const Comparison& b);
/// B's text: b.sentence for a sentence comparison, else A's text.
std::string comparedText(const std::string& a, const Comparison& b);

/// The comparison that shows the other value of A's setting: positional encoding none when A has
/// one (else sinusoidal), the other scaling, the causal mask when A has none (else none), the
/// seed after A's. For a sentence, `swapFirstAndLastWords(text)`.
Comparison toggled(CompareKind kind, const Config& a, const std::string& text);

/// `text` with its first and last words swapped, everything between them and around them kept:
/// "狗咬了人" → "人咬了狗", "the dog bit the man." → "man dog bit the the.". Words are the tokens
/// the tokenizer makes, except punctuation. Text with fewer than two words is returned as it is.
std::string swapFirstAndLastWords(std::string_view text);

/// The written form: the sentence itself, "pe=none", "scale=off", "mask=causal", "seed=7"; a
/// sentence that begins with a lower-case word and '=' is written "sentence=…".
std::string toString(const Comparison& c);
/// Reads the written form (spaces around it are ignored). Throws std::invalid_argument with the
/// rule broken: "unknown comparison 'scaling' (expected sentence, pe, scale, mask or seed)",
/// "pe: 'sine' is not one of sinusoidal, learned, none", "the sentence has no tokens".
Comparison parseComparison(std::string_view text);

/// Why B cannot be compared with a run of `a` (compare_mask_model, compare_no_tokens); nothing
/// when it can. A mask needs one attention block (masks are compared on one block only), a sentence a
/// token.
std::optional<Message> comparisonProblem(const Config& a, const Comparison& b);

} // namespace attnlab

#pragma once
/// Opening a Hugging Face model folder (docs/pretrained-models.md): config.json,
/// model.safetensors (memory-mapped) and the tokenizer's files, as one model the engine runs.

#include "core/message.h"
#include "pretrained/weights.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

struct Seq2SeqModel;
class BpeTokenizer;
class HfTokenizer;
class WordPieceTokenizer;

/// A model read from a folder: its weights, its tokenizer (one of three) and its vocabulary's
/// labels.
struct PretrainedModel {
    PretrainedWeights weights;
    std::shared_ptr<const BpeTokenizer> bpe;             ///< vocab.json + merges.txt (GPT-2)
    std::shared_ptr<const WordPieceTokenizer> wordPiece; ///< vocab.txt (BERT)
    std::shared_ptr<const HfTokenizer> hf;               ///< tokenizer.json (Llama, Qwen, SmolLM2)
    /// Column labels of the logits: every id's token as people read it (display form), V entries
    /// (ids past the tokenizer's vocabulary are "<id 50257>").
    Labels vocabulary;
    std::string folder;

    PretrainedFamily family() const { return weights.config.family; }
    const HfConfig& config() const { return weights.config; }
    /// True when the folder has an LM or MLM head (logits and probabilities are computed).
    bool hasHead() const { return weights.outputTable() != nullptr; }
    /// True when its family's head predicts the next token (it can write on: GPT-2), false when
    /// it fills masks (BERT); families/family.h.
    bool predictsNextToken() const;

    /// The tokenizer's string of `id` ("Ġworld", "##ing"), the same for people to read
    /// ("␣world"), and the text of `ids`. Each throws std::out_of_range for an id outside
    /// 0 … tokenizerSize() − 1.
    std::string token(int id) const;
    std::string display(int id) const;
    std::string decode(const std::vector<int>& ids) const;
    int tokenizerSize() const;
    /// The file the tokenizer was read from, for messages: "tokenizer.json", "vocab.json", "vocab.txt".
    const char* tokenizerFile() const;
};

/// One text as the model reads it.
struct PretrainedTokens {
    std::vector<int> ids;
    std::vector<std::string> tokens;  ///< vocabulary strings ("Ġworld", "##ing")
    std::vector<std::string> labels;  ///< for people: "␣world", "##ing"
    std::vector<int> segments;        ///< BERT's token type ids; empty for GPT-2
    std::vector<Message> warnings;    ///< a text cut to the model's positions
};

/// Tokenizes `text` (and BERT's second segment) the model's way, cut to at most `maxTokens` and
/// the model's positions (with a warning); BERT keeps its [CLS] and [SEP] tokens when cutting.
PretrainedTokens pretrainedTokens(const PretrainedModel& model, std::string_view text, const std::optional<std::string>& segmentB,
                                  int maxTokens);

/// True when `path` is a folder (a Hugging Face model folder, or not a model at all).
bool isModelFolder(const std::string& path);

/// Opens a model folder. Throws FormatError with a one-line message naming what is missing or
/// wrong: the folder, config.json and its keys, model.safetensors (a folder with only
/// pytorch_model.bin is told how to convert it), a tensor, the tokenizer's files.
Seq2SeqModel loadModelFolder(const std::string& folder);

} // namespace attnlab

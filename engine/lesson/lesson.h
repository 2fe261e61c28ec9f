#pragma once
/// Lesson files (docs/lesson-format.md): a `---` header, then steps that each start with a
/// `## ` heading, a block of `key: value` directives and a Markdown explanation. Every step
/// is resolved here, once: the settings, stage and head in force at that step are stored in
/// the step, so the UI never has to replay the carry-over.
///
/// Reading rules, including those the format document leaves open:
/// - The text must be UTF-8 (a leading byte-order mark is skipped) without NUL bytes; lines
///   end with LF, CRLF or a lone CR. Line numbers count from 1 and include the header.
/// - Blank means empty or only spaces and tabs. Keys and values are trimmed of spaces and
///   tabs; a value is otherwise taken verbatim (quotes are not removed). The separator of a
///   `key: value` line is the first ':' or full-width '：' (U+FF1A, as Chinese keyboards type it).
/// - Header: the first line is `---`; the header ends at the next `---` line (trailing spaces
///   allowed). Blank lines inside it are ignored; each key may appear once; `order` is a
///   whole number (negative allowed). A missing `title` or `language` is reported on the
///   closing `---` line.
/// - Before the first step only blank lines and level-1 headings (`# Title`, ignored) may stand;
///   after it, a `# ` line is ordinary explanation text.
/// - A step heading is `##` at the start of a line followed by a space, a tab or nothing; its
///   title must not be empty; an optional closing run of `#` is removed (`## Title ##`).
///   `###` and deeper headings, and `##` inside fenced code blocks (``` or ~~~), belong to the
///   explanation. A code fence left open at the end of the file is an error (it would swallow
///   the steps after it).
/// - Directive keys are case-sensitive lower case; the directive block also ends at the next
///   step heading. The explanation may be empty; it keeps its Markdown verbatim (lines joined
///   with "\n") without leading and trailing blank lines.
/// - Within one step, `settings` is applied first, then `head` is checked against the heads
///   in force. A head carried over from an earlier step that no longer exists after this
///   step's `settings` is an error on that `settings` line (never clamped silently).
/// - `view` is not carried over; `highlight` belongs to its step only; `sentence` and
///   `target` are stored only in the step that sets them. `head` and `view: heads` are
///   accepted with any stage (the head is kept for the next per-head stage).
/// - Highlight groups are `cells`/`cell`, `rows`/`row`, `columns`/`column`; a pair may have
///   spaces around its comma ("1, 2"); empty groups (";;") are skipped but at least one
///   position is needed; rows go up to 1024 (tokens) and columns up to 2048 (features).
/// - With model=reversal in force, d_model and heads are the shipped model's (set here, in
///   every step's config and the lesson's); a `settings` line naming other values is an error.
/// - A step gives `target` or `generate`, not both (an error on the later line).
/// - A model is needed by `target`, `generate`, `layer`, `block` and the Transformer stages
///   (an error on the line that names them). The layer in force must exist in the model's
///   stack for the block in force (the seeded model's `layers`, the shipped model's own
///   counts): a carried-over layer that a new model lacks is an error on that `settings`
///   line. A seeded model has no output head: `logits`, `probabilities` and `generate` are
///   errors with it. A step whose settings leave the model (model=none) forgets the layer and
///   block carried over.
/// - A `sentence` or `target` must have a token: only white space (U+3000, a no-break space)
///   is an error.
/// - `compare` (compare/comparison.h's written form, or `off`) carries over until a step sets
///   it again; a comparison of masks while a model is in force is an error (on the `compare`
///   line, or on the `settings` line that brought the model).
/// - `score_colors` (`shared` or `own`) carries over until a step sets it again.
/// - `requires:` (header) names the pretrained model folder the lesson needs (lesson/requirement.h);
///   `model=pretrained` runs it and is an error without it. The header's settings start from
///   model=pretrained when `requires` is given. With the model in force: the block is the
///   family's (decoder_self for GPT-2, chosen by itself when no step named one; encoder_self for
///   BERT), stages the family lacks are errors, and so are `target` and `generate`; a known
///   model's layers and heads bound `layer` and `head` (else the limits of the folders
///   Attention Lab opens: 24 layers, 16 heads); naming d_model or heads is an error. The
///   stages only BERT has (segment_embedding, embedding_sum, mlm_transform) are errors with
///   any other model.
/// - Quoted text in messages is cut to about 60 bytes, so a megabyte line gives a short reason.
/// - A lesson without steps is reported on its last line.

#include "compare/comparison.h"
#include "core/config.h"
#include "core/message.h"
#include "lesson/requirement.h"
#include "core/stage_key.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attnlab {

/// Cells, rows and columns to emphasise in the step's matrix. 0-based here; the file counts
/// from 1. Rows are queries (tokens); columns are keys or feature dimensions. Duplicates are
/// dropped, the order of first appearance kept.
struct Highlight {
    std::vector<std::pair<int, int>> cells; ///< (row, column)
    std::vector<int> rows;
    std::vector<int> columns;

    bool empty() const { return cells.empty() && rows.empty() && columns.empty(); }
    bool operator==(const Highlight&) const = default;
};

struct LessonStep {
    std::string title;
    int line = 0;                        ///< line of the "## " heading (1-based)
    std::optional<std::string> sentence; ///< set by this step (else the current sentence stays)
    std::optional<std::string> target;   ///< teacher forcing: the decoder's target text (set by this step only)
    /// Greedy generation, showing this 0-based step (kLastGenerationStep: the last one); set by
    /// this step only. A step sets `target` or `generate`, and the decoder keeps that input
    /// until another step changes it.
    std::optional<int> generate;
    static constexpr int kLastGenerationStep = -1;
    Config config;                       ///< settings in force at this step (carried over; valid; a trained model's widths)
    std::string stage = "tokens";        ///< in force at this step (carried over; "tokens" before any)
    int head = 0;                        ///< 0-based, in force (carried over); < config.heads
    int layer = 0;                       ///< 0-based encoder/decoder layer, in force (carried over)
    Block block = Block::EncoderSelf;    ///< in force (carried over)
    std::string view = "stage";          ///< stage | heads | cost | model | head-view | kernel-regression | softmax-scaling (not carried over)
    /// B when the step compares two inputs (carried over; `compare: off` ends it), else nothing.
    std::optional<Comparison> compare;
    Highlight highlight;                 ///< this step's only (not carried over)
    /// `score_colors`: Scores, Scaled and Masked scores on one colour range, or each on its own;
    /// carried over; nothing when no step so far said (the viewer's choice stays).
    enum class ScoreColors {
        Shared,
        Own,
    };
    std::optional<ScoreColors> scoreColors;
    std::string explanation;             ///< Markdown, without leading/trailing blank lines

    /// True when the step runs the lesson's pretrained model (`model=pretrained`: ModelKind::File
    /// in its config, whose d_model and heads the player sets from the folder it opens).
    bool needsModel() const { return config.model == ModelKind::File; }
};

struct Lesson {
    std::string title;
    std::string language; ///< "en" or "zh"
    std::string summary;
    std::optional<int> order;
    std::optional<std::string> sentence; ///< the header's sentence
    Config config;                       ///< the header's settings on top of the defaults (valid)
    std::vector<LessonStep> steps;       ///< at least one
    std::string fileName;                ///< as given to the parser (for messages)
    /// The header's `requires:`: the pretrained model folder its model=pretrained steps run.
    std::optional<ModelRequirement> requirement;
    /// What those steps ask of the model (layers, heads, an output head).
    ModelUse modelUse;
};

/// What the steps that need the model (LessonStep::needsModel) ask of it.
ModelUse modelUseOf(const std::vector<LessonStep>& steps);

/// A lesson that cannot be read: what() is "<file>:<line>: <reason>", or "<file>: <reason>"
/// when the line is 0 (the file itself could not be read); message() is the same, its reason
/// a Message the interface writes in its language (the reason of a string: as it is).
class LessonError : public MessageError<std::runtime_error> {
public:
    LessonError(std::string file, int line, Message reason);
    LessonError(std::string file, int line, const std::string& reason);
    const std::string& file() const { return m_file; }
    int line() const { return m_line; }
    const std::string& reason() const { return m_reason; }

private:
    std::string m_file;
    int m_line = 0;
    std::string m_reason;
};

/// The largest lesson file loadLesson reads.
inline constexpr std::uint64_t kMaxLessonBytes = 4ULL * 1024 * 1024;

/// Stages a step may show: "tokens", stageIds(), layerStageIds() and modelStageIds(); a lesson
/// that requires a BERT also pretrainedStageIds().
const std::vector<std::string>& lessonStageIds();
/// Views a step may ask for: "stage", "heads", "cost", "model", "head-view", "kernel-regression",
/// "softmax-scaling".
const std::vector<std::string>& lessonViews();

/// Parses the text of a lesson file. Throws LessonError (never anything else for bad text).
Lesson parseLesson(std::string_view text, const std::string& fileName);
/// Reads `path` (at most kMaxLessonBytes) and parses it with `path` as the file name. An
/// unreadable file throws LessonError(path, 0, reason).
Lesson loadLesson(const std::string& path);

/// One highlight that does not fit a matrix (0-based positions, as in Highlight).
struct HighlightMiss {
    enum class Kind {
        Cell,
        Row,
        Column,
    };
    Kind kind = Kind::Row;
    int row = -1;               ///< the row of a cell or a row (-1 for a column)
    int column = -1;            ///< the column of a cell or a column (-1 for a row)
    bool rowOutside = false;    ///< the row is not within 0 … rows − 1
    bool columnOutside = false; ///< the column is not within 0 … columns − 1

    bool operator==(const HighlightMiss&) const = default;
};

/// The highlights that do not fit a matrix of rows x columns, cells first, then rows, then
/// columns, each in the highlight's order. Empty when all fit.
std::vector<HighlightMiss> highlightMisses(const Highlight& h, int rows, int columns);

/// Highlights that do not fit a matrix of rows x columns, one message per problem, 1-based
/// as the teacher wrote them: "row 5 (the sentence has 3 tokens)", "column 9 (the matrix
/// has 8 columns)", "cell 4,2 (the sentence has 3 tokens)". Empty when all fit.
std::vector<std::string> highlightProblems(const Highlight& h, int rows, int columns);

/// The `settings` grammar, also used by the header: applies "k=v, k=v" on top of `base`.
/// Keys: d_model, heads, seed, pe, embed_scale, scale, mask, pad_to, weights (alias
/// weights_preset), max_tokens. Booleans are on/off/true/false; mask is none, causal, padding
/// or causal+padding. Empty pairs (a trailing comma) are skipped; a key given twice is an
/// error. Only the grammar is checked here: the caller runs Config::problems() on the result
/// (so "d_model=12, heads=3" may pass through an invalid intermediate state).
/// Throws std::invalid_argument with a reason ("unknown setting 'dmodel' ...",
/// "heads: 'x' is not a whole number").
Config applySettings(const Config& base, std::string_view text);

} // namespace attnlab

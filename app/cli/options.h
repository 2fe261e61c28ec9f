#pragma once
// Parses attention-lab-cli's command line into an engine Request. Kept apart from main() so
// every subcommand (trace, export, ...) takes exactly the same options.

#include "compare/comparison.h"
#include "nn/attention.h"
#include "model/model.h"
#include "model/run.h"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnlab::cli {

/// A bad command line: the message is shown as one line, and the exit code is 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct TraceOptions {
    Request request;
    std::string output = "-";                 ///< --output FILE, "-" = stdout
    std::optional<std::string> saveWeights;   ///< --save-weights FILE
    bool pretty = false;                      ///< --pretty
    /// A Transformer instead of one attention block: --model FILE|reversal, or a seeded one made
    /// by --layers, --d-ff, --norm, --activation (an encoder stack for --sentence, an
    /// encoder–decoder for --source/--target). Null for one attention block.
    std::shared_ptr<const Seq2SeqModel> model;
    std::string source;                       ///< the encoder's text (--source, or --sentence for an encoder stack)
    std::optional<std::string> target;        ///< --target: teacher forcing; without it a trained model generates
    std::optional<std::string> segmentB;      ///< --segment-b: BERT's second segment
    std::vector<std::string> stages;          ///< trace's --stages: the stage ids to write (all when empty)
    std::optional<std::string> saveModel;     ///< --save-model FILE
    int maxLength = 0;                        ///< generate's --max-length (0: the model's limit)
    /// The run's cost was checked and, when large, announced on stderr (before a seeded model's
    /// weights were made); computeCliTrace does it otherwise.
    bool costChecked = false;
};

/// What the command line says about --model and the options that may go with it.
struct ModelOptions {
    std::string path; ///< --model PATH ("reversal": the shipped model)
    std::optional<int> dModel, heads, layers, dFF;
    std::optional<NormPlacement> norm;
    std::optional<Activation> activation;
    std::optional<float> eps;
    bool sentence = false, source = false, target = false, segmentB = false; ///< which inputs were given
    /// --seed, --pe, --no-embed-scale as given: a trained model has its own.
    std::vector<std::string> modelOwns;
};

/// Opens the model --model names (model/open.h: a folder, an Attention Lab model, the shipped
/// one, or a bare state dict when --heads is given), sets `kind`, and checks the other options
/// against it. Throws UsageError or FormatError.
std::shared_ptr<const Seq2SeqModel> openCliModel(const ModelOptions& options, const Config& config, ModelKind& kind);


/// generate with a GPT-2 folder (--model DIR --prompt TEXT --max-new-tokens N, sampling options,
/// --json, --output-dir): one line per token on stdout. Throws UsageError or another exception.
int runPretrainedGenerate(const std::vector<std::string>& args);
/// fill-mask with a BERT folder: the likeliest tokens at each [MASK]. Throws as above.
int runFillMask(const std::vector<std::string>& args);

/// `download REPO_ID [--revision R] [--endpoint URL] [--models-dir DIR]`: a model folder from the
/// Hugging Face Hub or a mirror into the Models folder (download.cpp). Throws UsageError for bad
/// options; reports other failures itself and returns their exit code.
int runDownload(const std::vector<std::string>& args, char* argv0);

/// `cost`: times an attention kind for several n (attention/measure.h); a table, or --json.
/// Throws UsageError for bad options.
int runCost(const std::vector<std::string>& args);

/// `train`: trains a model on a task and saves it (engine/train/trainer.h); progress on stdout.
/// Throws UsageError for bad options, FormatError for a bad file, another exception otherwise.
int runTrain(const std::vector<std::string>& args);
/// `grad`: the gradient of one pair's loss for every tensor of a model, as safetensors.
int runGrad(const std::vector<std::string>& args);

/// trace's --stages ID,ID,…: every id must be one a trace can hold. Throws UsageError.
std::vector<std::string> parseStageList(const std::string& value);

/// Checks what `request` will cost (model: the model it runs, null for a seeded one not made
/// yet) and says on stderr when it is large, before any of it is built. Throws Error (too_large).
void checkRunCost(const RunRequest& request, const Seq2SeqModel* model);
/// The same for other work (core/cost.h's WorkCost: training, cost, a picture): throws Error
/// (work_too_large, "`what` would need about …: `reduce`") above the limit, and says on stderr
/// when it is large ("note: a large run: about 1.2 GB of memory and 3 h of work (`detail`)").
void checkWorkCost(const std::string& what, const WorkCost& cost, const std::string& reduce, const std::string& detail = {});

/// `value` of `option` as a whole number, nothing before or after it ("150abc" and " 5" are
/// refused). Throws UsageError naming the option.
int parseIntOption(const std::string& option, const std::string& value);
/// "a|b|c": the values an option allows, for its message.
std::string allowed(std::initializer_list<const char*> names);
std::string allowed(const std::vector<std::string>& names);
/// A seed: a whole number from 0 to 18446744073709551615 ("-1" is refused, not wrapped around).
std::uint64_t parseSeedOption(const std::string& option, const std::string& value);
/// A finite number for `option` that a float holds (0, or a magnitude from 1.4e-45 to 3.4e+38),
/// or a UsageError saying what was given: "1e-300" is refused, never read as 0.
float parseFloatOption(const std::string& option, const std::string& value);
/// The same for a double (0, or 2.2e-308 to 1.8e+308).
double parseNumberOption(const std::string& option, const std::string& value);

/// The trace the options ask for: one attention block, an encoder stack, or an encoder–decoder
/// pass — teacher-forced on --target, or, for a trained model without --target, the last step of
/// greedy generation (then `generation`, when given, receives every step). Throws
/// std::invalid_argument for a bad request.
/// Generation reports its steps on stderr when it is long.
Trace computeCliTrace(const TraceOptions& options, Generation* generation = nullptr);

/// Lets another command claim options before trace's own: called with each option and a
/// function that takes its value; returns true when it handled the option.
using ExtraOption = std::function<bool(const std::string& option, const std::function<const std::string&()>& value)>;

/// Hands each option of `args` (and a function that takes its value) to `take`; an option
/// `take` does not know is a UsageError, as is an option whose value is missing. The function
/// may be called again (to quote the value in a message): it gives the same value.
void readOptions(const std::vector<std::string>& args, const ExtraOption& take);

/// Parses the options that follow "trace". Loads the weights and mask files named on the line.
/// `extra`, when given, sees every option first (export's --stage, --output, ...).
/// Throws UsageError for a bad option or value, attnlab::FormatError for a bad weights file.
TraceOptions parseTraceOptions(const std::vector<std::string>& args, const ExtraOption& extra = {});

/// The --help text's start: the commands, examples and the trace JSON (the options follow).
std::string usageHelp();
/// The --help text for trace's options.
std::string traceOptionsHelp();
/// The --help text's exit status: the one rule every command follows (docs/man, EXIT STATUS).
std::string exitStatusHelp();

/// What "export" writes: one stage, or every stage with --all.
struct ExportCommandOptions {
    TraceOptions trace;           ///< the computation: every option of trace (its --output and --pretty excepted)
    bool all = false;             ///< --all: every stage, every head, into outputDir
    std::string stage;            ///< --stage ID
    std::string view;             ///< --view model: the Model view's grid instead of one stage
    std::optional<int> head;      ///< --head H, 1-based as people count (the trace JSON's heads are 0-based)
    std::optional<int> layer;     ///< --layer N, 1-based (a Transformer's layer stages)
    std::optional<Block> block;   ///< --block encoder_self|decoder_self|cross (a Transformer's stages)
    std::string format = "png";   ///< png | svg | pdf | csv, from --format or the output's suffix
    int dpi = 150;                ///< --dpi N (PNG only)
    int width = 1200;             ///< --width W, logical pixels (1/96 inch)
    int height = 900;             ///< --height H
    std::string output;           ///< --output FILE (one stage)
    std::string outputDir;        ///< --output-dir DIR (--all)
    /// B, when the stage is drawn beside another input's (--compare TEXT, --compare-pe,
    /// --compare-mask MASK, --compare-seed N): A, B and A − B as one picture.
    std::optional<Comparison> compare;

    /// The head as the trace numbers it (0-based), for per-head stages; nullopt otherwise.
    std::optional<int> traceHead() const;
    /// The layer as the trace numbers it (0-based), or nullopt.
    std::optional<int> traceLayer() const;
    /// " (layer 2, block cross)" for messages; empty outside layers.
    std::string whereText() const;
};

/// export --view model: the Model view's grid of the model's layers and heads as one picture
/// (export_view.cpp), drawn by the studio's own view on a Session. Needs a QApplication. Returns
/// why it failed, empty on success.
std::string exportModelView(const ExportCommandOptions& options);

/// What export's comparison options said (compare_options.cpp), before they are checked.
struct GivenComparison {
    std::vector<std::string> flags; ///< the comparison options given, in order
    Comparison compare;             ///< B as they say (--compare-pe: toggled when checked)

    /// Reads --compare TEXT, --compare-pe, --compare-mask MASK or --compare-seed N; false for
    /// another option. Throws UsageError for a bad value.
    bool read(const std::string& option, const std::function<const std::string&()>& value);
    /// Checks that at most one was given, for one stage drawn as a picture, and that A's
    /// settings allow it; then sets o.compare, and the picture's size (three heatmaps in a row)
    /// where --width or --height was not given. Throws UsageError.
    void check(ExportCommandOptions& o, bool widthGiven, bool heightGiven) const;
};

/// Parses the options that follow "export" and checks them against the model: the stage id
/// exists, --head is within 1..heads and given only for per-head stages (default 1), the format
/// is known and matches the output's suffix, and --dpi, --width, --height are in range.
/// Throws UsageError (or FormatError for a bad weights file), as parseTraceOptions.
ExportCommandOptions parseExportOptions(const std::vector<std::string>& args);

/// The --help text for export's own options.
std::string exportOptionsHelp();

/// B's trace options: `a`'s with what `b` changes (its sentence or source, or one setting; a
/// seeded model made again when its positions or seed change). Nothing is saved for B.
TraceOptions comparedOptions(const TraceOptions& a, const Comparison& b);

} // namespace attnlab::cli

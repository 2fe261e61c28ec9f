// attention-lab-cli train and grad: training a small encoder–decoder, and the gradient of one
// pair's loss (engine/train/, docs/training.md).

#include "options.h"
#include "outputs.h"
#include "train_progress.h"

#include "io/fileio.h"
#include "io/safetensors.h"
#include "model/open.h"
#include "model/shipped.h"
#include "text/printable.h"
#include "train/cost.h"
#include "train/examples.h"
#include "train/gradient.h"
#include "train/probe.h"
#include "text/printable.h"
#include "train/trainer.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace attnlab::cli {

namespace {

using namespace attnlab::train;

struct TrainCommand {
    std::optional<std::string> task;    ///< --task / --data
    std::optional<Preset> preset;
    std::optional<int> layers, dModel, heads, dFF, maxLength;
    std::optional<NormPlacement> norm;
    std::optional<Activation> activation;
    std::optional<std::string> init;
    std::string saveModel;
    std::optional<std::string> log;
    std::optional<std::string> snapshots;
    ModelTokenizer tokenizer = ModelTokenizer::Words;
    TrainOptions options;
    bool defaultRate = false; ///< neither --lr nor --warmup: defaultRate(d_model)
};

/// `value` of `option` read by `parse`, or a UsageError naming the allowed values and what was given.
template <typename Parse>
auto parseChoice(const std::string& option, const std::string& value, Parse parse, const char* allowed)
{
    const auto parsed = parse(value);
    if (!parsed)
        throw UsageError(option + " must be " + allowed + ", got " + inQuotes(value));
    return *parsed;
}

double parseDoubleOption(const std::string& option, const std::string& value)
{
    return static_cast<double>(parseFloatOption(option, value));
}

TrainCommand parseTrain(const std::vector<std::string>& args)
{
    TrainCommand c;
    c.options.schedule.rate.reset();
    std::optional<int> warmup;
    readOptions(args, [&](const std::string& a, const std::function<const std::string&()>& value) {
        if (a == "--task" || a == "--data")
            c.task = value();
        else if (a == "--preset")
            c.preset = parseChoice(a, value(), parsePreset, "classroom|standard");
        else if (a == "--layers")
            c.layers = parseIntOption(a, value());
        else if (a == "--d-model")
            c.dModel = parseIntOption(a, value());
        else if (a == "--heads")
            c.heads = parseIntOption(a, value());
        else if (a == "--d-ff")
            c.dFF = parseIntOption(a, value());
        else if (a == "--norm")
            c.norm = parseChoice(a, value(), parseNormPlacement, "post|pre");
        else if (a == "--activation") {
            c.activation = parseChoice(a, value(), [](std::string_view v) {
                const auto parsed = parseActivation(v);
                return parsed == Activation::GeluTanh ? std::nullopt : parsed; // gelu_tanh is GPT-2's, not trained here
            }, "relu|gelu");
        } else if (a == "--tokenizer") {
            c.tokenizer = parseChoice(a, value(), [](std::string_view v) {
                const auto t = parseModelTokenizer(v);
                return t == ModelTokenizer::Words || t == ModelTokenizer::Chars ? t : std::nullopt;
            }, "words|chars");
        } else if (a == "--steps")
            c.options.steps = parseIntOption(a, value());
        else if (a == "--batch")
            c.options.batch = parseIntOption(a, value());
        else if (a == "--lr")
            c.options.schedule.rate = parseDoubleOption(a, value());
        else if (a == "--warmup")
            warmup = parseIntOption(a, value());
        else if (a == "--label-smoothing")
            c.options.labelSmoothing = parseDoubleOption(a, value());
        else if (a == "--clip-norm")
            c.options.clipNorm = parseDoubleOption(a, value());
        else if (a == "--max-length")
            c.maxLength = parseIntOption(a, value());
        else if (a == "--seed")
            c.options.seed = parseSeedOption(a, value());
        else if (a == "--threads")
            c.options.threads = parseIntOption(a, value());
        else if (a == "--init")
            c.init = value();
        else if (a == "--save-model")
            c.saveModel = value();
        else if (a == "--log")
            c.log = value();
        else if (a == "--snapshots")
            c.snapshots = value();
        else if (a == "--batch-all")
            c.options.batchAll = true;
        else
            return false;
        return true;
    });
    if (!c.task)
        throw UsageError("train needs --task copy|reverse|sort|FILE.tsv");
    if (c.saveModel.empty())
        throw UsageError("train needs --save-model OUT.safetensors");
    // Without --warmup: the default warm-up; --lr without it is the peak of that schedule.
    c.options.schedule.warmup = warmup.value_or(kDefaultWarmup);
    c.defaultRate = !warmup && !c.options.schedule.rate; // set from the model's width below
    if (c.init && (c.preset || c.layers || c.dModel || c.heads || c.dFF || c.norm || c.activation))
        throw UsageError("--init gives the model: its sizes cannot be changed (--preset, --layers, --d-model, --heads, --d-ff, --norm, --activation)");
    return c;
}

ModelSpec specOf(const TrainCommand& c)
{
    ModelSpec s = presetSpec(c.preset.value_or(Preset::Standard));
    if (c.layers)
        s.encoderLayers = s.decoderLayers = *c.layers;
    if (c.dModel)
        s.dModel = *c.dModel;
    if (c.heads)
        s.heads = *c.heads;
    if (c.dFF)
        s.dFF = *c.dFF;
    if (c.norm)
        s.norm = *c.norm;
    if (c.activation)
        s.activation = *c.activation;
    s.seed = c.options.seed;
    try {
        s.validate();
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    return s;
}

/// The task; a file is read with `tokenizer` (the --init model's, else --tokenizer).
Task taskOf(const TrainCommand& c, ModelTokenizer tokenizer)
{
    if (const auto kind = parseTaskKind(*c.task)) {
        if (c.options.batchAll)
            throw UsageError("--batch-all trains on every line of a file: give --task FILE.tsv");
        return builtInTask(*kind, c.maxLength.value_or(12));
    }
    if (c.maxLength)
        throw UsageError("--max-length is for the built-in tasks (copy, reverse, sort); a file's lines are as long as they are");
    return fileTask(*c.task, tokenizer, c.options.batchAll);
}

/// Reads an input file: one that cannot be read is bad input (exit 2), like a corrupt one.
template <typename Read>
auto readInput(Read read)
{
    try {
        return read();
    } catch (const FileError& e) {
        throw UsageError(e.what());
    }
}

/// "12.3 %".
std::string percent(double share)
{
    char s[16];
    std::snprintf(s, sizeof s, "%.1f %%", 100.0 * share);
    return s;
}

/// train's files: --save-model, --log (a CSV row per step, written as it goes) and --snapshots
/// (the model at step 0 and at each reporting step). Every one is checked when this is made,
/// before anything is read or trained; the snapshots' folder goes again when the run fails
/// before a snapshot is in it (MadeFolder).
class TrainFiles {
public:
    explicit TrainFiles(const TrainCommand& c)
        : m_c(c)
    {
        checkWritable(c.saveModel);
        if (c.log)
            checkWritable(*c.log);
        if (c.snapshots)
            m_snapshots.emplace(*c.snapshots);
    }

    /// Empties the log and writes its header.
    void openLog()
    {
        if (m_c.log) {
            m_log.emplace(*m_c.log);
            m_log->append("step,loss,lr,grad_norm,tokens,seconds,heldout_loss,exact_match\n");
        }
    }
    /// One row (the held-out columns at reporting steps): a row that cannot be written whole (a
    /// full disk) stops the run at once (FileError), the log cut back to its last whole row.
    void logRow(const StepRecord& r, double seconds, const Evaluation* e)
    {
        if (!m_log)
            return;
        std::ostringstream row;
        row << r.step << ',' << r.loss << ',' << r.lr << ',' << r.gradNorm << ',' << r.tokens << ',' << seconds << ',';
        if (e)
            row << e->loss << ',' << e->exactMatch;
        else
            row << ',';
        row << '\n';
        m_log->append(row.str());
    }
    void snapshot(const Seq2SeqModel& model, int step)
    {
        if (!m_c.snapshots)
            return;
        char name[32];
        std::snprintf(name, sizeof name, "/step-%06d.safetensors", step);
        saveModel(model, *m_c.snapshots + name);
    }
    /// trainer.step(); a step that diverges is logged and ends the run (failed()).
    StepRecord step(Trainer& trainer, const TrainProgress& progress)
    {
        try {
            return trainer.step();
        } catch (const Diverged& d) {
            logRow(d.record(), progress.seconds(), nullptr);
            failed(d.what());
        }
    }
    /// A run that failed after it started (diverged, a model not worth saving): exit 1 (not bad
    /// input), and the message says that --save-model was left as it was.
    [[noreturn]] void failed(const std::string& why) const
    {
        throw std::runtime_error(why + "; nothing was saved to " + inQuotes(m_c.saveModel)
                                 + " (an earlier file there is unchanged): try a lower --lr");
    }
    /// The run succeeded: the snapshots' folder stays.
    void keep()
    {
        if (m_snapshots)
            m_snapshots->keep();
    }

private:
    const TrainCommand& m_c;
    std::optional<AppendFile> m_log;
    std::optional<MadeFolder> m_snapshots;
};

/// The --init model, if any: "reversal" is the shipped model, as for --model (unless a file has that name).
std::optional<Seq2SeqModel> initModel(const TrainCommand& c)
{
    if (!c.init)
        return std::nullopt;
    if (*c.init == "reversal" && !std::filesystem::exists(*c.init))
        return *shippedModel();
    return readInput([&] { return openModel(*c.init); });
}

/// What the run will hold and take with `reports` reports, before a weight is made (refused
/// above the limit, announced when large): a fresh model of the options, or the --init model.
TrainCost checkRunSize(const TrainCommand& c, const Task& task, const std::optional<Seq2SeqModel>& init, int reports)
{
    TrainShape shape = shapeOf(task);
    if (init) {
        shape.sourceVocabulary = static_cast<std::int64_t>(init->srcVocab.size());
        shape.targetVocabulary = static_cast<std::int64_t>(init->tgtVocab.size());
    }
    return checkTrainingCost(init ? init->spec : specOf(c), shape, c.options, reports);
}

/// The last line: the final evaluation (a sample of the held-out pairs when there are many).
void printSummary(const Evaluation& final, double seconds, const std::string& path)
{
    const std::string sample = final.pairs < final.of ? std::to_string(final.pairs) + " of " + std::to_string(final.of) + " pairs"
                                                      : std::to_string(final.pairs) + " pairs";
    std::printf("held-out exact match: %s (%s), loss %.4f; %.1f s; wrote %s\n", percent(final.exactMatch).c_str(), sample.c_str(),
                final.loss, seconds, path.c_str());
}

} // namespace

int runTrain(const std::vector<std::string>& args)
{
    const TrainCommand c = parseTrain(args);
    TrainFiles files(c); // every output checked before any work: one line at once
    std::optional<Seq2SeqModel> init = initModel(c);
    // A model given with --init reads the pairs its own way: its tokenizer and vocabularies.
    const bool ownTokenizer = init && (init->spec.tokenizer == ModelTokenizer::Words || init->spec.tokenizer == ModelTokenizer::Chars);
    Task task = readInput([&] { return taskOf(c, ownTokenizer ? init->spec.tokenizer : c.tokenizer); });
    const int every = std::max(1, c.options.steps / 20);
    const TrainCost cost = checkRunSize(c, task, init, c.options.steps / every + 1);
    Seq2SeqModel model = init ? std::move(*init) : freshModel(specOf(c), task);
    TrainOptions options = c.options;
    if (c.defaultRate)
        options.schedule.rate = defaultRate(model.spec.dModel);
    Trainer trainer(std::move(model), std::move(task), options);
    const TrainOptions& o = trainer.options();

    files.openLog();
    auto snapshot = [&](int step) { files.snapshot(trainer.model(), step); };

    std::printf("training %s on %s: %d steps of %d pairs, %d thread%s (about %s and %s)\n", trainer.model().name.c_str(),
                trainer.task().name.c_str(), o.steps, o.batchAll ? static_cast<int>(trainer.task().train.size()) : o.batch, o.threads,
                o.threads == 1 ? "" : "s", durationText(cost.seconds).c_str(), sizeText(cost.bytes).c_str());
    flushStandardOutput(); // > /dev/full: stop before training, not after
    TrainProgress progress; // a line at least every 2 s of work, between the reports too
    snapshot(0);
    std::size_t tokens = 0;
    for (int s = 1; s <= o.steps; ++s) {
        const StepRecord r = files.step(trainer, progress);
        tokens += r.tokens;
        const bool report = s % every == 0 || s == o.steps;
        progress.afterStep(r, tokens, !report);
        Evaluation e;
        if (report)
            e = trainer.evaluate(64, progress.evaluating("evaluating"));
        const double seconds = progress.seconds();
        files.logRow(r, seconds, report ? &e : nullptr);
        if (report) {
            std::printf("step %6d  loss %.4f  lr %.6f  held-out loss %.4f  exact match %s  %.1f steps/s  %.0f tokens/s\n", s, r.loss,
                        r.lr, e.loss, percent(e.exactMatch).c_str(), s / seconds, static_cast<double>(tokens) / seconds);
            flushStandardOutput();
            progress.reported();
            snapshot(s);
        }
    }
    const Evaluation final = trainer.evaluate(kFinalEvaluationPairs, progress.evaluating("final evaluation"));
    // Finite weights can still be too large to use (the held-out loss overflows): not saved either.
    if (!std::isfinite(final.loss))
        files.failed("training diverged: the trained model's held-out loss is not finite");
    const auto trained = std::make_shared<const Seq2SeqModel>(trainer.model());
    saveModel(*trained, c.saveModel); // refuses weights that are not finite
    files.keep();
    if (trainer.task().kind == TaskKind::Reverse) {
        // The alignment a reversal needs: output i reads source character n − 1 − i.
        const std::vector<Pair> held(trainer.task().heldOut.begin(),
                                     trainer.task().heldOut.begin() + std::min<std::ptrdiff_t>(32, std::ssize(trainer.task().heldOut)));
        std::printf("cross-attention on the anti-diagonal (last decoder layer, mean of %zu held-out pairs): %.3f\n", held.size(),
                    antiDiagonalWeight(trained, held));
    }
    printSummary(final, progress.seconds(), c.saveModel);
    return 0;
}

int runGrad(const std::vector<std::string>& args)
{
    std::optional<std::string> path, source, target, output;
    double smoothing = 0;
    readOptions(args, [&](const std::string& a, const std::function<const std::string&()>& value) {
        if (a == "--model")
            path = value();
        else if (a == "--source")
            source = value();
        else if (a == "--target")
            target = value();
        else if (a == "--output")
            output = value();
        else if (a == "--label-smoothing")
            smoothing = parseDoubleOption(a, value());
        else
            return false;
        return true;
    });
    if (!path || !source || !target || !output)
        throw UsageError("grad needs --model FILE --source TEXT --target TEXT --output G.safetensors");
    if (!(smoothing >= 0 && smoothing < 1))
        throw UsageError("--label-smoothing must be at least 0 and less than 1");
    checkWritable(*output);
    const Seq2SeqModel model = readInput([&] { return openModel(*path); });
    std::vector<Message> warnings;
    const Example example = exampleOf(model, *source, *target, warnings);
    for (const Message& w : warnings)
        std::cerr << "attention-lab-cli: warning: " << w.text << '\n';
    const Gradient g = gradientOf(model, {example}, smoothing);
    writeSafetensors(*output, gradientTensors(g, *path)); // refuses a gradient that is not finite
    std::printf("loss %.9g over %zu label tokens; wrote %zu gradients to %s\n", g.loss, g.labelTokens, g.layout.entries.size(),
                output->c_str());
    return 0;
}

} // namespace attnlab::cli

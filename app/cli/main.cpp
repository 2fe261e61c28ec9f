// attention-lab-cli: computes attention traces and draws their heatmaps without a window.
// Exit codes (the one rule of every command, exitStatusHelp() in help.cpp): 0 success; 2 bad input (an
// option, a file that cannot be read or is corrupt, a model that cannot be opened, a run refused
// as too large); 1 an output that could not be written, a diverged training run, or out of memory;
// stopped by SIGINT, SIGTERM or SIGHUP: ended by that signal (outputs.h). One line on stderr.

#include "options.h"
#include "outputs.h"

#include "common/allocator.h"
#include "core/compute_threads.h"

#include "export/compareexport.h"
#include "export/exporter.h"
#include "io/fileio.h"
#include "io/trace_json.h"
#include "nn/weights.h"
#include "pretrained/model_folder.h"
#include "text/printable.h"

#include "lessons/deck.h"
#include "shell/languages.h"

#include <QApplication>
#include <QFileInfo>
#include <QFont>
#include <QFontInfo>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

namespace {

/// Tokens separated by spaces.
std::string joinTokens(const std::vector<std::string>& tokens)
{
    std::string s;
    for (const auto& t : tokens)
        s += (s.empty() ? "" : " ") + t;
    return s;
}

/// Every line on stderr goes through printable(): a control character from the input (a
/// sentence, a path, a token) is shown as an escape, never sent to the terminal.
int fail(int code, const std::string& message)
{
    if (attnlab::cli::interrupted())
        return code; // stopped by a signal: main() ends the process by it, without a word
    std::cerr << "attention-lab-cli: error: " << attnlab::printable(message) << '\n';
    return code;
}

void warn(const std::string& message)
{
    std::cerr << "attention-lab-cli: warning: " << attnlab::printable(message) << '\n';
}

/// What to reduce when the computation runs out of memory.
constexpr const char* kReduceModel = "try fewer tokens (--max-tokens, a shorter text), a smaller --d-model or fewer --layers";
/// ... when drawing export's pictures does.
constexpr const char* kReducePicture = "try a smaller --width or --height, or a lower --dpi";

/// ... when cost, train or grad does, in the command's own options.
const char* reduceFor(const std::string& command)
{
    if (command == "cost")
        return "try a smaller --n or --d-model";
    if (command == "train")
        return "try a smaller --d-model or --d-ff, fewer --layers, a smaller --batch or fewer --threads";
    if (command == "download")
        return "close other programs and try again";
    return "try a shorter --source or --target"; // grad
}

/// An exception as one line with `code`: "out of memory" and what to reduce for an allocation
/// failure (what() would say only "std::bad_alloc"), which exits with 1 whatever `code` is:
/// the input was not wrong, the machine had too little memory for it.
int failWith(int code, const std::exception& e, const char* reduce = kReduceModel)
{
    if (dynamic_cast<const std::bad_alloc*>(&e))
        return fail(1, std::string("out of memory: ") + reduce);
    return fail(code, e.what());
}

/// A progress callback that says on stderr how far a long job is, a line per tenth:
/// "attention-lab-cli: exporting: 120 of 1200 files". A job done within 2 seconds (or
/// ATTNLAB_PROGRESS_AFTER_MS) says nothing, so that a failure stays one line.
std::function<bool(int, int)> progressLines(const std::string& doing, const std::string& items)
{
    const auto start = std::chrono::steady_clock::now();
    bool ok = false;
    const int afterMs = qEnvironmentVariableIntValue("ATTNLAB_PROGRESS_AFTER_MS", &ok);
    const auto quiet = std::chrono::milliseconds(ok ? afterMs : 2000);
    return [doing, items, start, quiet, last = -1](int done, int total) mutable {
        if (attnlab::cli::interrupted())
            return false; // a signal: stop, so that the staged folder is removed (outputs.h)
        const int tenth = total > 0 ? done * 10 / total : 10;
        if (tenth != last && done > 0 && std::chrono::steady_clock::now() - start >= quiet) {
            last = tenth;
            std::cerr << "attention-lab-cli: " << doing << ": " << done << " of " << total << ' ' << items << '\n';
        }
        return true;
    };
}

/// A result's error naming a file in `staged`'s hidden folder names it in the folder asked for.
std::string inFinalFolder(const QString& error, const attnlab::StagedFolder& staged)
{
    QString e = error;
    return e.replace(QString::fromStdString(staged.staging()), QString::fromStdString(staged.path())).toStdString();
}

/// Checks every output of a command before any work (a missing folder or a file in the way is
/// one error line at once, and a bad -o does not leave the weights written alone): -o FILE
/// ("-" is standard output), --save-weights, --save-model. Throws FileError.
void checkOutputs(const attnlab::cli::TraceOptions& o, const std::string& output)
{
    if (!output.empty() && output != "-")
        attnlab::checkWritable(output);
    if (o.saveWeights)
        attnlab::checkWritable(*o.saveWeights);
    if (o.saveModel)
        attnlab::checkWritable(*o.saveModel);
}

/// --save-weights (one attention block) and --save-model (a Transformer), checked by checkOutputs.
void saveWeightsAsAsked(const attnlab::cli::TraceOptions& o, const attnlab::Trace& trace)
{
    if (o.saveWeights)
        attnlab::saveAttentionWeights(*trace.weights, trace.config.heads, *o.saveWeights);
    if (o.saveModel)
        attnlab::saveModel(*o.model, *o.saveModel);
}

int runTrace(const std::vector<std::string>& args)
{
    using namespace attnlab;
    cli::TraceOptions o;
    Trace trace;
    try {
        std::vector<std::string> only;
        o = cli::parseTraceOptions(args, [&only](const std::string& a, const std::function<const std::string&()>& value) {
            if (a != "--stages")
                return false;
            only = cli::parseStageList(value());
            return true;
        });
        o.stages = std::move(only);
    } catch (const std::exception& e) {
        return failWith(2, e);
    }
    try {
        checkOutputs(o, o.output);
    } catch (const std::exception& e) {
        return failWith(1, e);
    }
    try {
        trace = cli::computeCliTrace(o);
    } catch (const std::exception& e) {
        return failWith(2, e);
    }
    for (const auto& w : trace.warnings)
        warn(w.text);

    // A trace of 100 million numbers is a gigabyte of JSON: say so before writing it.
    std::int64_t numbers = 0;
    for (const Stage& s : trace.stages) {
        if (!o.stages.empty() && std::find(o.stages.begin(), o.stages.end(), s.id) == o.stages.end())
            continue; // --stages: only these are written
        for (const auto& m : s.matrices)
            numbers += m.values.size();
    }
    if (numbers * 11 > (100LL << 20))
        std::cerr << "attention-lab-cli: note: writing about " << numbers * 11 / (1 << 20) << " MB of JSON\n";
    try {
        saveWeightsAsAsked(o, trace);
        // Written a stage at a time: GPT-2's 144 weights stages at n = 1024 are 1.2 GB of JSON.
        const auto produce = [&](const ByteSink& sink) {
            writeTraceJson(trace, o.pretty ? 1 : -1, o.stages, sink);
            sink("\n");
        };
        if (o.output == "-") {
            produce([](std::string_view piece) { std::cout << piece; });
            std::cout << std::flush;
            if (!std::cout)
                return fail(1, "cannot write to standard output");
        } else {
            writeFileAtomically(o.output, produce);
        }
    } catch (const std::exception& e) {
        return failWith(1, e);
    }
    return 0;
}

/// Drawing needs a QApplication. The command line always draws on the offscreen platform
/// (unless QT_QPA_PLATFORM says otherwise): it needs no display (servers, CI, ssh), cannot
/// fail on a stale DISPLAY, and lays fonts out at 96 dpi on every machine, so the same
/// command gives the same picture. Only export creates one: trace never touches Qt's GUI.
std::unique_ptr<QApplication> makeApplication(char* argv0)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // Qt's own chatter ("XDG_RUNTIME_DIR not set") would break the one-line-error promise;
    // export reports its failures itself. Only Qt's critical messages get through.
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& message) {
        if (type == QtCriticalMsg || type == QtFatalMsg)
            warn(message.toStdString());
    });
    static int qtArgc = 1;
    static char* qtArgv[] = {argv0, nullptr}; // the user's arguments are not Qt's to read
    auto app = std::make_unique<QApplication>(qtArgc, qtArgv);
    QApplication::setApplicationName(QStringLiteral("Attention Lab"));
    attnlab::LanguageManager::useSimplifiedChineseGlyphs();
    return app;
}

/// export --compare…: B computed beside A, and the stage of A, of B and A − B as one picture.
int runCompareExport(const attnlab::cli::ExportCommandOptions& o, const attnlab::Trace& a, const attnlab::Stage& stage, char* argv0)
{
    using namespace attnlab;
    Trace b;
    try {
        b = cli::computeCliTrace(cli::comparedOptions(o.trace, *o.compare));
    } catch (const std::bad_alloc&) {
        return fail(1, std::string("B (") + toString(*o.compare) + "): out of memory: " + kReduceModel);
    } catch (const std::exception& e) {
        return fail(2, "B (" + toString(*o.compare) + "): " + e.what());
    }
    for (const auto& w : b.warnings)
        warn("B: " + w.text);
    const auto app = makeApplication(argv0);
    ExportOptions options;
    options.format = parseImageFormat(QString::fromStdString(o.format)).value_or(ImageFormat::Png);
    options.dpi = o.dpi;
    options.width = o.width;
    options.height = o.height;
    const std::string& sentence = o.trace.model ? o.trace.source : o.trace.request.sentence;
    const CompareFigure figure = compareFigure(stage, b.find(stage.id, stage.head, stage.layer, stage.block), *o.compare, a.config,
                                               QString::fromStdString(sentence));
    const ExportResult r = exportComparison(figure, options, QString::fromStdString(o.output));
    if (!r.ok)
        return fail(1, r.error.toStdString());
    return 0;
}

int runExport(const std::vector<std::string>& args, char* argv0)
{
    using namespace attnlab;
    cli::ExportCommandOptions o;
    Trace trace;
    try {
        o = cli::parseExportOptions(args);
    } catch (const std::exception& e) {
        return failWith(2, e);
    }
    try {
        checkOutputs(o.trace, o.all ? std::string() : o.output);
        if (o.all)
            checkFolderWritable(o.outputDir);
    } catch (const std::exception& e) {
        return failWith(1, e);
    }
    try {
        if (o.view.empty())
            trace = cli::computeCliTrace(o.trace);
    } catch (const std::exception& e) {
        return failWith(2, e);
    }
    if (!o.view.empty()) {
        const auto app = makeApplication(argv0);
        const std::string error = cli::exportModelView(o);
        return error.empty() ? 0 : fail(1, error);
    }
    for (const auto& w : trace.warnings)
        warn(w.text);

    const Stage* stage = nullptr;
    if (!o.all) {
        stage = trace.find(o.stage, o.traceHead(), o.traceLayer(), o.block.value_or(Block::None));
        if (!stage || stage->matrices.empty())
            return fail(2, "the trace has no stage '" + o.stage + "'" + o.whereText());
    }
    try {
        saveWeightsAsAsked(o.trace, trace);
    } catch (const std::exception& e) {
        return failWith(1, e);
    }
    if (o.compare)
        return runCompareExport(o, trace, *stage, argv0);

    const bool images = o.format != "csv";
    ExportOptions options;
    options.format = parseImageFormat(QString::fromStdString(o.format)).value_or(ImageFormat::Png);
    options.dpi = o.dpi;
    options.width = o.width;
    options.height = o.height;
    std::unique_ptr<QApplication> app;
    if (images)
        app = makeApplication(argv0);

    ExportResult r;
    if (o.all) {
        // Into a hidden folder beside the one asked for, moved there at the end: a failure, a
        // signal or a kill never leaves half of the stages behind.
        try {
            const cli::InterruptScope interrupts; // before the folder exists, so it is removed on a signal
            StagedFolder staged(o.outputDir);
            r = exportAllStages(trace, QString::fromStdString(staged.staging()), options, progressLines("exporting", "files"),
                                images ? StageFiles::ImageAndCsv : StageFiles::CsvOnly);
            if (!r.ok)
                return fail(1, inFinalFolder(r.error, staged));
            staged.commit();
        } catch (const std::exception& e) {
            return failWith(1, e, kReducePicture);
        }
    } else if (!images) {
        r = exportCsv(stage->main(), QString::fromStdString(o.output));
    } else {
        r = exportMatrix(stage->main(), stageTitle(*stage), HeatmapView::scaleForStage(QString::fromStdString(stage->id)), options,
                         QString::fromStdString(o.output));
    }
    if (!r.ok)
        return fail(1, r.error.toStdString());
    return 0;
}

/// generate: greedy decoding with a trained model, one line per step on stdout and, with
/// --output-dir, one trace JSON per step (step-01.json, ...).
int runGenerate(const std::vector<std::string>& args)
{
    using namespace attnlab;
    cli::TraceOptions o;
    std::string outputDir;
    Generation g;
    try {
        // The trace options are parsed into a new TraceOptions: keep --max-length apart until then.
        int maxLength = 0;
        const auto extra = [&](const std::string& a, const std::function<const std::string&()>& value) {
            if (a == "--output-dir") {
                outputDir = value();
            } else if (a == "--max-length") {
                maxLength = cli::parseIntOption(a, value());
                if (maxLength < 1 || maxLength > 1024)
                    throw cli::UsageError("--max-length must be a whole number between 1 and 1024, got " + std::to_string(maxLength));
            } else if (a == "--target" || a == "--sentence" || a == "--output" || a == "-o") {
                throw cli::UsageError(a + " does not apply to generate: it reads --model and --source, and writes --output-dir");
            } else {
                return false;
            }
            return true;
        };
        if (std::find(args.begin(), args.end(), "--model") == args.end())
            throw cli::UsageError("generate needs a trained model: --model FILE.safetensors or --model reversal");
        o = cli::parseTraceOptions(args, extra);
        o.maxLength = maxLength;
        if (!o.model || o.request.config.model == ModelKind::Seeded)
            throw cli::UsageError("generate needs a trained model: --model FILE.safetensors or --model reversal");
    } catch (const std::exception& e) {
        return failWith(2, e);
    }
    try {
        checkOutputs(o, {});
        if (!outputDir.empty())
            checkFolderWritable(outputDir);
    } catch (const std::exception& e) {
        return failWith(1, e);
    }
    try {
        cli::computeCliTrace(o, &g);
    } catch (const std::exception& e) {
        return failWith(2, e);
    }
    std::cout << "source: " << joinTokens(g.last()->tokens) << '\n';
    for (std::size_t k = 0; k < g.size(); ++k) {
        char line[64];
        std::snprintf(line, sizeof line, "  (p = %.3f)", static_cast<double>(g.chosen[k]));
        std::cout << "step " << (k + 1) << ": " << g.tokens[k] << line << '\n';
    }
    std::cout << "output: " << joinTokens({g.tokens.begin(), g.tokens.end() - (g.finished ? 1 : 0)})
              << (g.finished ? "" : "   (stopped at the length limit without <eos>)") << '\n';
    try {
        if (!outputDir.empty()) {
            // Every step's trace (made again one at a time) into a hidden folder, moved at the end.
            const cli::InterruptScope interrupts;
            StagedFolder staged(outputDir);
            const auto progress = progressLines("writing", "steps");
            const int count = static_cast<int>(g.size());
            for (int k = 0; k < count; ++k) {
                char name[32];
                std::snprintf(name, sizeof name, "step-%02d.json", k + 1);
                writeFileAtomically((std::filesystem::path(staged.staging()) / name).string(),
                                    traceToJson(*g.step(static_cast<std::size_t>(k))) + "\n");
                if (!progress(k + 1, count))
                    return 1; // a signal: the staged folder goes, main() ends by the signal
            }
            staged.commit();
        }
        if (o.saveModel)
            saveModel(*o.model, *o.saveModel);
    } catch (const std::exception& e) {
        return failWith(1, e);
    }
    return 0;
}

/// Draws a lesson's deck into `target` (a PDF file, or a folder of PNG pages); returns the
/// exit code of a failure (1), or 0 with the result in `r`.
int drawLesson(const attnlab::Lesson& lesson, bool png, const std::string& target, int dpi, attnlab::DeckResult& r)
{
    using namespace attnlab;
    DeckOptions options;
    options.format = png ? DeckOptions::Format::Png : DeckOptions::Format::Pdf;
    options.dpi = dpi;
    try {
        // The pages go into a hidden folder beside the one asked for, moved there at the end.
        std::optional<cli::InterruptScope> interrupts;
        std::optional<StagedFolder> staged;
        if (png) {
            interrupts.emplace(); // before the folder exists, so it is removed on a signal
            staged.emplace(target);
        }
        r = renderLessonDeck(lesson, QString::fromStdString(staged ? staged->staging() : target), options,
                             progressLines("drawing", "pages"));
        if (!r.ok)
            return fail(1, staged ? inFinalFolder(r.error, *staged) : r.error.toStdString());
        if (staged)
            staged->commit();
    } catch (const std::exception& e) {
        return failWith(1, e, "try a lower --dpi");
    }
    for (const QString& note : r.notes)
        std::cerr << "attention-lab-cli: warning: " << note.toStdString() << '\n';
    return 0;
}

int runLesson(const std::vector<std::string>& args, char* argv0)
{
    using namespace attnlab;
    std::string file;
    std::string output;
    std::string outputDir;
    std::string format;
    int dpi = 150;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= args.size())
                throw cli::UsageError(a + " needs a value");
            return args[++i];
        };
        try {
            if (a == "--output" || a == "-o")
                output = value();
            else if (a == "--output-dir")
                outputDir = value();
            else if (a == "--format")
                format = value();
            else if (a == "--dpi")
                dpi = cli::parseIntOption(a, value());
            else if (a.starts_with("-"))
                return fail(2, "unknown option " + inQuotes(a) + " (see --help)");
            else if (!file.empty())
                return fail(2, "lesson renders one lesson file at a time, got " + inQuotes(file) + " and " + inQuotes(a));
            else
                file = a;
        } catch (const cli::UsageError& e) {
            return fail(2, e.what());
        }
    }
    if (file.empty())
        return fail(2, "lesson needs a lesson FILE (or a shipped lesson such as zh/04-look-ahead-mask)");
    if (format.empty())
        format = outputDir.empty() ? "pdf" : "png";
    if (format != "pdf" && format != "png")
        return fail(2, "--format must be pdf|png, got " + inQuotes(format));
    if (format == "pdf" && output.empty())
        return fail(2, "a PDF deck needs --output FILE.pdf");
    if (format == "png" && outputDir.empty())
        return fail(2, "PNG pages need --output-dir DIR");
    if (dpi < 24 || dpi > 1200)
        return fail(2, "--dpi (" + std::to_string(dpi) + ") must be between 24 and 1200");
    output = output == "-" ? "/dev/stdout" : output;
    try { // the output first: a missing folder is one line at once, not after the deck is drawn
        format == "png" ? checkFolderWritable(outputDir) : checkWritable(output);
    } catch (const std::exception& e) {
        return failWith(1, e);
    }

    const auto app = makeApplication(argv0);
    // A shipped lesson can be named without its path: zh/04-look-ahead-mask.
    QString path = QString::fromStdString(file);
    const QString shipped = QStringLiteral(":/lessons/") + path + (path.endsWith(QStringLiteral(".md")) ? QString() : QStringLiteral(".md"));
    if (!QFileInfo::exists(path) && QFileInfo::exists(shipped))
        path = shipped;
    Lesson lesson;
    try {
        lesson = readLessonFile(path);
    } catch (const LessonError& e) {
        return fail(2, e.what());
    }
    // The slides speak the lesson's language: stage names and formulas too.
    LanguageManager languages;
    languages.setLanguage(lesson.language == "zh" ? QStringLiteral("zh_CN") : QStringLiteral("en"));
    DeckResult r;
    if (const int failed = drawLesson(lesson, format == "png", format == "png" ? outputDir : output, dpi, r))
        return failed;
    if (output == "/dev/stdout")
        return 0; // the deck itself went there
    // The title is text from a file: its control bytes are escaped, as on stderr.
    std::cout << "wrote " << r.pages << (r.pages == 1 ? " page" : " pages") << " of \"" << printable(lesson.title) << "\"\n";
    return 0;
}

/// Runs the command on the line; returns its exit code.
int runCommand(int argc, char** argv)
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty())
        return fail(2, "no command given; try 'attention-lab-cli help'");
    const std::string& command = args.front();
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    const bool wantsHelp = !rest.empty() && (rest.front() == "--help" || rest.front() == "-h");
    if (command == "help" || command == "--help" || command == "-h" || ((command == "trace" || command == "export" || command == "lesson" || command == "generate" || command == "fill-mask" || command == "cost" || command == "train" || command == "grad" || command == "download") && wantsHelp)) {
        std::cout << attnlab::cli::usageHelp() << attnlab::cli::traceOptionsHelp() << '\n' << attnlab::cli::exportOptionsHelp() << '\n'
                  << attnlab::cli::exitStatusHelp();
        return 0;
    }
    if (command == "--version") {
        std::cout << "attention-lab-cli " << ATTNLAB_VERSION << '\n';
        return 0;
    }
    if (command == "trace")
        return runTrace(rest);
    if (command == "export")
        return runExport(rest, argv[0]);
    if (command == "lesson")
        return runLesson(rest, argv[0]);
    if (command == "cost" || command == "train" || command == "grad" || command == "download") {
        try {
            return command == "cost" ? attnlab::cli::runCost(rest)
                   : command == "train" ? attnlab::cli::runTrain(rest)
                   : command == "grad"  ? attnlab::cli::runGrad(rest)
                                        : attnlab::cli::runDownload(rest, argv[0]);
        } catch (const attnlab::cli::UsageError& e) {
            return failWith(2, e);
        } catch (const attnlab::FormatError& e) {
            return failWith(2, e); // a corrupt model or training file
        } catch (const std::invalid_argument& e) {
            return failWith(2, e); // settings the engine refuses
        } catch (const std::exception& e) {
            return failWith(1, e, reduceFor(command));
        }
    }
    if (command == "generate" || command == "fill-mask") {
        // A model folder (GPT-2, BERT) has its own commands' options.
        const auto model = std::find(rest.begin(), rest.end(), "--model");
        const bool gpt2 = (model != rest.end() && model + 1 != rest.end() && attnlab::isModelFolder(*(model + 1)))
                          || std::find(rest.begin(), rest.end(), "--prompt") != rest.end();
        if (command == "fill-mask" || gpt2) {
            try {
                return command == "generate" ? attnlab::cli::runPretrainedGenerate(rest) : attnlab::cli::runFillMask(rest);
            } catch (const attnlab::cli::UsageError& e) {
                return failWith(2, e);
            } catch (const std::invalid_argument& e) {
                return failWith(2, e);
            } catch (const std::exception& e) {
                return failWith(1, e);
            }
        }
        return runGenerate(rest);
    }
    return fail(2, "unknown command " + attnlab::inQuotes(command) + "; try 'attention-lab-cli help'");
}

} // namespace

int main(int argc, char** argv)
{
    attnlab::keepLargeAllocationsOnHeap();
    // A pretrained model's largest products on every core (core/compute_threads.h).
    attnlab::setComputeThreads(attnlab::availableCores());
    const int code = runCommand(argc, argv);
    // A signal that stopped the command (its staged folder removed by now) ends the process.
    attnlab::cli::raiseInterrupt();
    // Everything a command printed must have reached standard output (> /dev/full, a full
    // disk): checked here once for every command. A command that failed said so already.
    if (!attnlab::cli::standardOutputWritten() && code == 0)
        return fail(1, "cannot write to standard output");
    return code;
}

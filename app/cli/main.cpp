// attention-lab-cli: computes attention traces and draws their heatmaps without a window.
// Exit codes: 0 success, 1 an output could not be written, 2 bad input (one line on stderr).

#include "options.h"

#include "common/allocator.h"

#include "exporter.h"
#include "fileio.h"
#include "trace_json.h"
#include "weights.h"

#include "deck.h"
#include "languages.h"

#include <QApplication>
#include <QFileInfo>
#include <QFont>
#include <QFontInfo>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr const char* kUsage = R"(Usage: attention-lab-cli COMMAND [OPTIONS]

Attention Lab computes every stage of Transformer multi-head self-attention for a sentence.

Commands:
  trace      compute every stage and write them as JSON (docs/trace-format.md)
  export     draw one stage's heatmap as PNG, SVG or PDF, or write its matrix as CSV;
             with --all, every stage and head into a folder. Needs no display.
  lesson     render a lesson to a slide deck: one PDF page (or one PNG) per step.
             attention-lab-cli lesson FILE [--output deck.pdf] [--format pdf|png]
                                           [--output-dir DIR] [--dpi N]
             FILE is a lesson file (docs/lesson-format.md) or a shipped lesson such as
             zh/04-look-ahead-mask. Chinese lessons get Chinese stage names. Needs no display.
  help       show this help
  --version  print the version

Examples:
  attention-lab-cli export --sentence "狗咬了人" --stage weights --head 1 --output weights.png
  attention-lab-cli export --sentence "The cat sat" --mask causal --all --format pdf --output-dir slides

The trace JSON is {"format": "attention-lab.trace", "version": 1, "tokens", "config",
"warnings", "stages"}; each stage is {"id", "head", "title", "formula", "matrices"} with
matrices {"name", "rows", "cols", "row_labels", "col_labels", "data"}; non-finite values are
the strings "-inf", "inf", "nan". Stage ids, in order: embedding, positional_encoding, input,
q, k, v, scores, scaled, mask, masked_scores, weights, head_output, concat, output.

Options of trace:
)";

int fail(int code, const std::string& message)
{
    std::cerr << "attention-lab-cli: error: " << message << '\n';
    return code;
}

int runTrace(const std::vector<std::string>& args)
{
    using namespace attnlab;
    cli::TraceOptions o;
    Trace trace;
    try {
        o = cli::parseTraceOptions(args);
        trace = computeTrace(o.request);
    } catch (const std::exception& e) {
        return fail(2, e.what());
    }
    for (const auto& w : trace.warnings)
        std::cerr << "attention-lab-cli: warning: " << w << '\n';

    try {
        if (o.saveWeights)
            saveAttentionWeights(*trace.weights, trace.config.heads, *o.saveWeights);
        const std::string json = traceToJson(trace, o.pretty ? 1 : -1) + "\n";
        if (o.output == "-") {
            std::cout << json << std::flush;
            if (!std::cout)
                return fail(1, "cannot write to standard output");
        } else {
            writeFileAtomically(o.output, json);
        }
    } catch (const std::exception& e) {
        return fail(1, e.what());
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
            std::cerr << "attention-lab-cli: warning: " << message.toStdString() << '\n';
    });
    static int qtArgc = 1;
    static char* qtArgv[] = {argv0, nullptr}; // the user's arguments are not Qt's to read
    auto app = std::make_unique<QApplication>(qtArgc, qtArgv);
    QApplication::setApplicationName(QStringLiteral("Attention Lab"));
    attnlab::LanguageManager::useSimplifiedChineseGlyphs();
    return app;
}

int runExport(const std::vector<std::string>& args, char* argv0)
{
    using namespace attnlab;
    cli::ExportCommandOptions o;
    Trace trace;
    try {
        o = cli::parseExportOptions(args);
        trace = computeTrace(o.trace.request);
    } catch (const std::exception& e) {
        return fail(2, e.what());
    }
    for (const auto& w : trace.warnings)
        std::cerr << "attention-lab-cli: warning: " << w << '\n';

    const Stage* stage = nullptr;
    if (!o.all) {
        stage = trace.find(o.stage, o.traceHead());
        if (!stage || stage->matrices.empty())
            return fail(2, "the trace has no stage '" + o.stage + "'");
    }
    try {
        if (o.trace.saveWeights)
            saveAttentionWeights(*trace.weights, trace.config.heads, *o.trace.saveWeights);
    } catch (const std::exception& e) {
        return fail(1, e.what());
    }

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
        r = exportAllStages(trace, QString::fromStdString(o.outputDir), options, {},
                            images ? StageFiles::ImageAndCsv : StageFiles::CsvOnly);
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
                dpi = std::stoi(value());
            else if (!a.starts_with("-") && file.empty())
                file = a;
            else
                return fail(2, "unknown option '" + a + "' (see --help)");
        } catch (const cli::UsageError& e) {
            return fail(2, e.what());
        } catch (const std::exception&) {
            return fail(2, "--dpi expects a whole number");
        }
    }
    if (file.empty())
        return fail(2, "lesson needs a lesson FILE (or a shipped lesson such as zh/04-look-ahead-mask)");
    if (format.empty())
        format = outputDir.empty() ? "pdf" : "png";
    if (format != "pdf" && format != "png")
        return fail(2, "--format must be pdf|png, got '" + format + "'");
    if (format == "pdf" && output.empty())
        return fail(2, "a PDF deck needs --output FILE.pdf");
    if (format == "png" && outputDir.empty())
        return fail(2, "PNG pages need --output-dir DIR");
    if (dpi < 24 || dpi > 1200)
        return fail(2, "--dpi (" + std::to_string(dpi) + ") must be between 24 and 1200");

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
    DeckOptions options;
    options.format = format == "png" ? DeckOptions::Format::Png : DeckOptions::Format::Pdf;
    options.dpi = dpi;
    const DeckResult r = renderLessonDeck(lesson, QString::fromStdString(format == "png" ? outputDir : output), options);
    if (!r.ok)
        return fail(1, r.error.toStdString());
    std::cout << "wrote " << r.pages << (r.pages == 1 ? " page" : " pages") << " of \"" << lesson.title << "\"\n";
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    attnlab::keepLargeAllocationsOnHeap();
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty())
        return fail(2, "no command given; try 'attention-lab-cli help'");
    const std::string& command = args.front();
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    const bool wantsHelp = !rest.empty() && (rest.front() == "--help" || rest.front() == "-h");
    if (command == "help" || command == "--help" || command == "-h" || ((command == "trace" || command == "export" || command == "lesson") && wantsHelp)) {
        std::cout << kUsage << attnlab::cli::traceOptionsHelp() << '\n' << attnlab::cli::exportOptionsHelp();
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
    return fail(2, "unknown command '" + command + "'; try 'attention-lab-cli help'");
}

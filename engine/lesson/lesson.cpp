#include "lesson/lesson.h"

#include "lesson/lesson_text.h"

#include "io/fileio.h"
#include "core/trace.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdint>
#include <set>
#include <system_error>

namespace attnlab {

namespace {

using namespace lessontext;

const std::vector<std::string> kHeaderKeys{"title", "language", "summary", "settings", "sentence", "order"};
const std::vector<std::string> kDirectives{"sentence", "target", "generate", "settings", "stage",
                                           "layer",    "block",  "head",     "view",     "highlight"};
const std::vector<std::string> kBlocks{"encoder_self", "decoder_self", "cross"};
const std::vector<std::string> kLanguages{"en", "zh"};

// --- the parser ---

class Parser {
public:
    Parser(std::string_view text, const std::string& file)
        : m_file(file)
    {
        if (text.substr(0, kBom.size()) == kBom)
            text.remove_prefix(kBom.size());
        m_lines = splitLines(text);
    }

    Lesson run()
    {
        checkText();
        Lesson lesson;
        lesson.fileName = m_file;
        int n = readHeader(lesson);

        // Before the first step: blank lines and level-1 headings (ignored) only.
        for (; n <= count() && !isStepHeading(line(n)); ++n) {
            if (isBlank(line(n)) || isTitleHeading(line(n)))
                continue;
            fail(n, "text before the first step: " + quote(trim(line(n))) + " (a step starts with a '## ' heading)");
        }
        if (n > count())
            fail(std::max(count(), 1), "the lesson has no steps (each step starts with a '## ' heading)");

        State state{lesson.config, "tokens", 0, 0};
        while (n <= count())
            n = readStep(n, state, lesson.steps);
        return lesson;
    }

private:
    /// What carries over from step to step.
    struct State {
        Config config;
        std::string stage;
        int head;     ///< 0-based
        int headLine; ///< where the head was chosen (0: never)
        int layer = 0;                      ///< 0-based
        int layerLine = 0;                  ///< where the layer was chosen (0: never)
        Block block = Block::EncoderSelf;
        int blockLine = 0;                  ///< where the block was chosen (0: never)
    };

    /// Stages that exist only in an encoder–decoder model.
    static bool isModelStage(const std::string& id)
    {
        const auto& l = layerStageIds();
        const auto& m = modelStageIds();
        return std::find(l.begin(), l.end(), id) != l.end() || std::find(m.begin(), m.end(), id) != m.end();
    }

    [[noreturn]] void fail(int n, const std::string& reason) const { throw LessonError(m_file, n, reason); }
    int count() const { return static_cast<int>(m_lines.size()); }
    std::string_view line(int n) const { return m_lines[static_cast<std::size_t>(n - 1)]; }

    /// Refuses binary files and other encodings before anything else is read.
    void checkText() const
    {
        for (int n = 1; n <= count(); ++n) {
            const std::string_view l = line(n);
            if (l.find('\0') != std::string_view::npos)
                fail(n, "this is not a text file (it contains a NUL byte)");
            const std::size_t bad = invalidUtf8At(l);
            if (bad != std::string_view::npos) {
                static constexpr char kHex[] = "0123456789ABCDEF";
                const auto b = static_cast<unsigned char>(l[bad]);
                fail(n, std::string("the file is not UTF-8 text (byte 0x") + kHex[b >> 4] + kHex[b & 15]
                            + " in this line); save it as UTF-8");
            }
        }
    }

    void applySettingsAt(int n, std::string_view value, Config& config) const
    {
        try {
            config = applySettings(config, value);
        } catch (const std::invalid_argument& e) {
            fail(n, std::string("settings: ") + e.what());
        }
        const auto problems = config.problems();
        if (!problems.empty())
            fail(n, "settings: " + join(problems, "; "));
    }

    /// Reads the header into `lesson`; returns the first line after it.
    int readHeader(Lesson& lesson) const
    {
        const std::string example = "a lesson starts with a header between two '---' lines";
        if (count() == 0 || std::all_of(m_lines.begin(), m_lines.end(), isBlank))
            fail(1, "the file is empty (" + example + ")");
        if (trim(line(1)) != "---")
            fail(1, "the first line must be '---' (" + example + "), not " + quote(trim(line(1))));
        int close = 2;
        while (close <= count() && trim(line(close)) != "---")
            ++close;
        if (close > count())
            fail(1, "the header is not closed: add a line '---' after its last key");

        std::vector<std::pair<std::string, int>> seen; // key, line
        for (int n = 2; n < close; ++n) {
            if (isBlank(line(n)))
                continue;
            const auto kv = splitKeyValue(line(n));
            if (!kv)
                fail(n, quote(trim(line(n))) + " is not a 'key: value' line");
            const std::string key(kv->key);
            if (std::find(kHeaderKeys.begin(), kHeaderKeys.end(), key) == kHeaderKeys.end())
                fail(n, unknown("header key", key, kHeaderKeys));
            const auto earlier = std::find_if(seen.begin(), seen.end(), [&](const auto& s) { return s.first == key; });
            if (earlier != seen.end())
                fail(n, "'" + key + "' is given twice in the header (first on line " + std::to_string(earlier->second) + ")");
            seen.emplace_back(key, n);
            const std::string_view value = kv->value;
            if (value.empty())
                fail(n, "'" + key + "' has no value");
            if (key == "title") {
                lesson.title = value;
            } else if (key == "language") {
                if (value != "en" && value != "zh")
                    fail(n, "language " + quote(value) + " is not supported" + didYouMean(value, kLanguages)
                                + " (expected en or zh)");
                lesson.language = value;
            } else if (key == "summary") {
                lesson.summary = value;
            } else if (key == "sentence") {
                lesson.sentence = std::string(value);
            } else if (key == "order") {
                try {
                    lesson.order = parseInt("order", value);
                } catch (const std::invalid_argument& e) {
                    fail(n, e.what());
                }
            } else if (key == "settings") {
                applySettingsAt(n, value, lesson.config);
            }
        }
        if (lesson.title.empty())
            fail(close, "the header has no 'title'");
        if (lesson.language.empty())
            fail(close, "the header has no 'language' (en or zh)");
        return close + 1;
    }

    /// What a step's directives said besides what carries over in State.
    struct Directives {
        int next = 0;                  ///< the first line after the directives
        std::optional<int> headWanted; ///< 0-based
        std::string_view headText;
        int headLine = 0;
        int settingsLine = 0;
    };

    /// Reads the step whose heading is on line `n` into `steps`; returns the line after it.
    int readStep(int n, State& state, std::vector<LessonStep>& steps) const
    {
        LessonStep step;
        step.line = n;
        step.title = headingTitle(line(n));
        if (step.title.empty())
            fail(n, "a step heading needs a title after '## '");
        const Directives d = readDirectives(n + 1, state, step);
        checkHead(d, state, step);
        n = readExplanation(d.next, step);
        checkModel(d, state, step);
        step.config = state.config;
        step.stage = state.stage;
        step.head = state.head;
        step.layer = state.layer;
        step.block = state.block;
        steps.push_back(std::move(step));
        return n;
    }

    /// The directives directly below a step's heading (from line `n`), up to the first blank line.
    Directives readDirectives(int n, State& state, LessonStep& step) const
    {
        std::vector<std::pair<std::string, int>> seen; // key, line
        Directives d;
        for (; n <= count() && !isBlank(line(n)) && !isStepHeading(line(n)); ++n) {
            const auto kv = splitKeyValue(line(n));
            if (!kv)
                fail(n, quote(trim(line(n))) + " is not a directive ('key: value'); leave a blank line between the "
                                                "directives and the explanation");
            const std::string key(kv->key);
            if (std::find(kDirectives.begin(), kDirectives.end(), key) == kDirectives.end())
                fail(n, "unknown directive " + quote(key) + didYouMean(key, kDirectives) + " (expected one of "
                            + join(kDirectives) + "; the explanation starts after a blank line)");
            const auto earlier = std::find_if(seen.begin(), seen.end(), [&](const auto& s) { return s.first == key; });
            if (earlier != seen.end())
                fail(n, "'" + key + "' is given twice in this step (first on line " + std::to_string(earlier->second) + ")");
            seen.emplace_back(key, n);
            const std::string_view value = kv->value;
            if (value.empty())
                fail(n, "'" + key + "' has no value");

            if (key == "sentence") {
                step.sentence = std::string(value);
            } else if (key == "target") {
                step.target = std::string(value);
            } else if (key == "generate") {
                long long k = 0;
                if (value == "last") {
                    step.generate = LessonStep::kLastGenerationStep;
                } else if (parseInteger(value, k) != NumberKind::Ok || k < 1 || k > 1024) {
                    fail(n, "generate: " + quote(value) + " is not a generation step (1, 2, … counting from 1, or 'last')");
                } else {
                    step.generate = static_cast<int>(k - 1);
                }
            } else if (key == "layer") {
                long long k = 0;
                if (parseInteger(value, k) != NumberKind::Ok || k < 1 || k > ConfigLimits::maxLayers)
                    fail(n, "layer: " + quote(value) + " is not a layer (1 … " + std::to_string(ConfigLimits::maxLayers)
                                + ", counting from 1)");
                state.layer = static_cast<int>(k - 1);
                state.layerLine = n;
            } else if (key == "block") {
                const auto block = parseBlock(value);
                if (!block || *block == Block::None)
                    fail(n, unknown("block", value, kBlocks));
                state.block = *block;
                state.blockLine = n;
            } else if (key == "settings") {
                applySettingsAt(n, value, state.config);
                d.settingsLine = n;
            } else if (key == "stage") {
                const auto& ids = lessonStageIds();
                if (std::find(ids.begin(), ids.end(), value) == ids.end())
                    fail(n, unknown("stage", value, ids));
                state.stage = value;
            } else if (key == "head") {
                long long h = 0;
                const NumberKind kind = parseInteger(value, h);
                if (kind == NumberKind::NotANumber)
                    fail(n, "head: " + quote(value) + " is not a whole number (heads count from 1)");
                if (kind == NumberKind::Ok && h < 1)
                    fail(n, "head " + shortNumber(value) + " does not exist: heads count from 1");
                d.headWanted = kind == NumberKind::Ok && h <= INT_MAX ? static_cast<int>(h - 1) : INT_MAX;
                d.headText = value;
                d.headLine = n;
            } else if (key == "view") {
                const auto& views = lessonViews();
                if (std::find(views.begin(), views.end(), value) == views.end())
                    fail(n, unknown("view", value, views));
                step.view = value;
            } else if (key == "highlight") {
                try {
                    step.highlight = parseHighlight(value);
                } catch (const std::invalid_argument& e) {
                    fail(n, std::string("highlight: ") + e.what());
                }
            }
        }
        d.next = n;
        return d;
    }

    /// The head is checked against the heads in force after this step's settings.
    void checkHead(const Directives& d, State& state, const LessonStep& step) const
    {
        const int heads = state.config.heads;
        const std::string there = heads == 1 ? "there is 1 head" : "there are " + std::to_string(heads) + " heads";
        if (d.headWanted) {
            if (*d.headWanted >= heads)
                fail(d.headLine, "head " + shortNumber(d.headText) + " does not exist: " + there + " at this step (heads=" + std::to_string(heads) + ")");
            state.head = *d.headWanted;
            state.headLine = d.headLine;
        } else if (state.head >= heads) {
            fail(d.settingsLine > 0 ? d.settingsLine : step.line,
                 "settings: with heads=" + std::to_string(heads) + " there is no head " + std::to_string(state.head + 1)
                     + " (chosen on line " + std::to_string(state.headLine)
                     + "); choose one in this step, e.g. 'head: 1'");
        }

    }

    /// The explanation from line `n`: everything up to the next step heading outside code
    /// blocks, without leading and trailing blank lines. Returns the line after it.
    int readExplanation(int n, LessonStep& step) const
    {
        const int first = n;
        std::optional<Fence> open;
        int openLine = 0;
        for (; n <= count(); ++n) {
            const std::string_view l = line(n);
            if (!open && isStepHeading(l))
                break;
            const auto fence = fenceOf(l);
            if (!fence)
                continue;
            if (!open) {
                open = fence;
                openLine = n;
            } else if (fence->mark == open->mark && fence->length >= open->length && isBlank(fence->rest)) {
                open.reset();
            }
        }
        if (open)
            fail(openLine, "this code block is never closed: add a line " + std::string(open->length, open->mark)
                               + " after it (otherwise it swallows the steps below)");
        int from = first;
        int to = n - 1;
        while (from <= to && isBlank(line(from)))
            ++from;
        while (to >= from && isBlank(line(to)))
            --to;
        for (int k = from; k <= to; ++k) {
            if (k > from)
                step.explanation += '\n';
            step.explanation += line(k);
        }
        return n;
    }

    /// Layers, blocks and the stages of a whole Transformer need a model that has them.
    void checkModel(const Directives& d, const State& state, const LessonStep& step) const
    {
        const bool model = state.config.model != ModelKind::None;
        if (!model && (step.generate || state.layerLine > 0 || state.blockLine > 0 || isModelStage(state.stage))) {
            const int at = state.layerLine > 0 ? state.layerLine : state.blockLine > 0 ? state.blockLine : step.line;
            fail(at, "this step needs an encoder–decoder model: set 'settings: model=reversal' or 'model=seeded' first");
        }
        if (state.config.model == ModelKind::Seeded && state.layer >= state.config.encoderLayers)
            fail(state.layerLine, "layer " + std::to_string(state.layer + 1) + " does not exist: the model has "
                                      + std::to_string(state.config.encoderLayers) + " layers (layers=" + std::to_string(state.config.encoderLayers) + ")");
        if (state.config.model == ModelKind::File)
            fail(d.settingsLine > 0 ? d.settingsLine : step.line, "settings: model=file cannot be used in a lesson (use reversal or seeded)");
    }

    const std::string& m_file;
    std::vector<std::string_view> m_lines; ///< line n is m_lines[n - 1]
};

std::string errorMessage(const std::string& file, int line, const std::string& reason)
{
    return line > 0 ? file + ":" + std::to_string(line) + ": " + reason : file + ": " + reason;
}

} // namespace

LessonError::LessonError(std::string file, int line, const std::string& reason)
    : std::runtime_error(errorMessage(file, line, reason))
    , m_file(std::move(file))
    , m_line(line)
    , m_reason(reason)
{
}

const std::vector<std::string>& lessonStageIds()
{
    static const std::vector<std::string> kIds = [] {
        std::vector<std::string> ids{"tokens"};
        ids.insert(ids.end(), stageIds().begin(), stageIds().end());
        ids.insert(ids.end(), layerStageIds().begin(), layerStageIds().end());
        ids.insert(ids.end(), modelStageIds().begin(), modelStageIds().end());
        return ids;
    }();
    return kIds;
}

const std::vector<std::string>& lessonViews()
{
    static const std::vector<std::string> kViews{"stage", "heads", "kernel-regression", "softmax-scaling"};
    return kViews;
}

Lesson parseLesson(std::string_view text, const std::string& fileName)
{
    return Parser(text, fileName).run();
}

Lesson loadLesson(const std::string& path)
{
    std::string bytes;
    try {
        bytes = readFile(path, kMaxLessonBytes);
    } catch (const std::exception& e) {
        throw LessonError(path, 0, e.what());
    }
    return parseLesson(bytes, path);
}

} // namespace attnlab

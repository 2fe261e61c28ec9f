#include "lesson/lesson.h"

#include "attention/kind.h"
#include "families/family.h"

#include "lesson/lesson_text.h"

#include "io/fileio.h"
#include "core/trace.h"
#include "model/run.h"
#include "model/shipped.h"
#include "text/tokenizer.h"

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
                                           "layer",    "block",  "head",     "view",     "highlight", "compare",
                                           "score_colors"};
/// The views of a stage, the kinds' measured cost (the Cost tab), a position scheme's view, the
/// length experiment and the Training tab; a whole model's ("model", "head-view") are named apart in messages.
const std::vector<std::string> kStageViews{"stage", "heads", "kernel-regression", "softmax-scaling", "cost", "positions", "length", "training"};
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
        Config written; // the header's settings as written (the model's widths not adopted)
        int n = readHeader(lesson, written);

        // Before the first step: blank lines and level-1 headings (ignored) only.
        for (; n <= count() && !isStepHeading(line(n)); ++n) {
            if (isBlank(line(n)) || isTitleHeading(line(n)))
                continue;
            fail(n, "text before the first step: " + quote(trim(line(n))) + " (a step starts with a '## ' heading)");
        }
        if (n > count())
            fail(std::max(count(), 1), "the lesson has no steps (each step starts with a '## ' heading)");

        State state;
        state.config = written;
        state.effective = lesson.config;
        while (n <= count())
            n = readStep(n, state, lesson.steps);
        lesson.requirement = m_requirement;
        lesson.modelUse = modelUseOf(lesson.steps);
        return lesson;
    }

private:
    /// What carries over from step to step.
    struct State {
        Config config;                      ///< the settings as the lesson wrote them
        Config effective;                   ///< config with the widths a trained model fixes
        std::string stage = "tokens";
        int stageLine = 0;                  ///< where the stage was chosen (0: never)
        int head = 0;                       ///< 0-based
        int headLine = 0;                   ///< where the head was chosen (0: never)
        int layer = 0;                      ///< 0-based
        int layerLine = 0;                  ///< where the layer was chosen (0: never)
        Block block = Block::EncoderSelf;
        int blockLine = 0;                  ///< where the block was chosen (0: never)
        std::optional<Comparison> compare;  ///< B, while the lesson compares
        std::optional<LessonStep::ScoreColors> scoreColors;
    };

    /// Stages that exist only in a whole model.
    static bool isModelStage(const std::string& id)
    {
        const auto has = [&](const std::vector<std::string>& ids) { return std::find(ids.begin(), ids.end(), id) != ids.end(); };
        return has(layerStageIds()) || has(modelStageIds()) || has(pretrainedStageIds()) || isFamilyOwnStage(id);
    }

    template <class Reason> [[noreturn]] void fail(int n, Reason reason) const { throw LessonError(m_file, n, std::move(reason)); }
    int count() const { return static_cast<int>(m_lines.size()); }
    std::string_view line(int n) const { return m_lines[static_cast<std::size_t>(n - 1)]; }

    /// Refuses binary files and other encodings before anything else is read.
    void checkText() const
    {
        if (const auto problem = textProblem(m_lines))
            fail(problem->first, problem->second);
    }

    /// Applies a `settings` value on line `n` to `written` (the settings as the lesson wrote
    /// them) and returns the settings in force: with model=reversal, d_model and heads are the
    /// shipped model's, and naming other values is an error.
    Config applySettingsAt(int n, std::string_view value, Config& written) const
    {
        std::vector<std::string> named;
        try {
            written = lessontext::applySettings(written, value, named);
        } catch (const std::invalid_argument& e) {
            fail(n, sayAbout(lessonMessage("lesson_key"), messageOf(e), "settings"));
        }
        Config c = written;
        const auto names = [&](const char* key) { return std::find(named.begin(), named.end(), key) != named.end(); };
        if (c.model == ModelKind::File && (names("d_model") || names("heads")))
            fail(n, "settings: model=pretrained takes d_model and heads from the model folder: leave them out");
        if (c.model == ModelKind::Reversal) {
            adoptModelWidths(c, *reversalModel(n));
            if ((names("d_model") && written.dModel != c.dModel) || (names("heads") && written.heads != c.heads))
                fail(n, "settings: model=reversal sets d_model=" + std::to_string(c.dModel) + " and heads="
                            + std::to_string(c.heads) + " itself (the shipped model's): leave d_model and heads out");
        }
        const auto problems = c.problems();
        if (!problems.empty())
            fail(n, "settings: " + join(problems, "; "));
        return c;
    }

    /// The shipped model (its sizes), for model=reversal named on line `n`.
    std::shared_ptr<const Seq2SeqModel> reversalModel(int n) const
    {
        try {
            return shippedModel();
        } catch (const std::exception& e) {
            fail(n, std::string("model=reversal: the shipped model cannot be read: ") + e.what());
        }
    }

    /// A sentence or target that the tokenizer turns into nothing (only white space, such as
    /// U+3000 or a no-break space) would be ignored: refuse it.
    void checkHasTokens(int n, const std::string& key, std::string_view value) const
    {
        if (tokenize(value, ConfigLimits::maxTokens).tokens.empty())
            fail(n, key + ": " + quote(value) + " has no tokens (only white space); write at least one word");
    }

    /// Reads the header into `lesson`; returns the first line after it.
    int readHeader(Lesson& lesson, Config& written)
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
        std::pair<int, std::string_view> settings;     // applied after `requires`, wherever it stands
        for (int n = 2; n < close; ++n) {
            if (isBlank(line(n)))
                continue;
            const auto kv = splitKeyValue(line(n));
            if (!kv)
                fail(n, quote(trim(line(n))) + " is not a 'key: value' line");
            const std::string key(kv->key);
            if (key != "requires" && std::find(kHeaderKeys.begin(), kHeaderKeys.end(), key) == kHeaderKeys.end())
                fail(n, unknown("header key", key, kHeaderKeys) + ", or 'requires' for a lesson that needs a pretrained model");
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
                checkHasTokens(n, key, value);
                lesson.sentence = std::string(value);
            } else if (key == "order") {
                try {
                    lesson.order = parseInt("order", value);
                } catch (const std::invalid_argument& e) {
                    fail(n, messageOf(e));
                }
            } else if (key == "settings") {
                settings = {n, value};
            } else if (key == "requires") {
                try {
                    m_requirement = parseRequirement(value);
                } catch (const std::invalid_argument& e) {
                    fail(n, messageOf(e));
                }
                written.model = ModelKind::File; // a lesson that needs a model starts on it
                lesson.config = written;
            }
        }
        if (settings.first > 0)
            lesson.config = applySettingsAt(settings.first, settings.second, written);
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
        int stageLine = 0;    ///< lines of the directives this step gives (0: not given)
        int layerLine = 0;
        int blockLine = 0;
        int targetLine = 0;
        int generateLine = 0;
        int compareLine = 0;
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
        checkComparison(d, state, step);
        step.config = state.effective;
        step.stage = state.stage;
        step.head = state.head;
        step.layer = state.layer;
        step.block = state.block;
        step.compare = state.compare;
        step.scoreColors = state.scoreColors;
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
            readDirective(n, key, value, state, step, d);
        }
        d.next = n;
        return d;
    }

    /// One directive `key: value` (known, not empty) on line `n`.
    void readDirective(int n, const std::string& key, std::string_view value, State& state, LessonStep& step,
                       Directives& d) const
    {
        if (key == "sentence") {
            checkHasTokens(n, key, value);
            step.sentence = std::string(value);
        } else if (key == "target") {
            checkHasTokens(n, key, value);
            step.target = std::string(value);
            d.targetLine = n;
        } else if (key == "generate") {
            d.generateLine = n;
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
            constexpr int most = std::max(ConfigLimits::maxLayers, PretrainedLimits::maxLayers); // the model decides below
            if (parseInteger(value, k) != NumberKind::Ok || k < 1 || k > most)
                fail(n, "layer: " + quote(value) + " is not a layer (1 … " + std::to_string(most)
                            + ", counting from 1)");
            state.layer = static_cast<int>(k - 1);
            state.layerLine = d.layerLine = n;
        } else if (key == "block") {
            const auto block = parseBlock(value);
            if (!block || *block == Block::None)
                fail(n, unknown("block", value, blockNames()));
            state.block = *block;
            state.blockLine = d.blockLine = n;
        } else if (key == "settings") {
            state.effective = applySettingsAt(n, value, state.config);
            d.settingsLine = n;
        } else if (key == "stage") {
            const auto& ids = lessonStageIds();
            const auto& bert = pretrainedStageIds(); // a lesson on BERT's inputs names them
            const bool bertOnly = std::find(bert.begin(), bert.end(), value) != bert.end();
            if (bertOnly && !(m_requirement && modelFamily(m_requirement->family).architecture == Architecture::EncoderStack))
                fail(n, "stage " + quote(value) + " exists only in BERT: the lesson needs a BERT model ('requires: bert-base-uncased')");
            // A modern decoder's gate, up and extra norms: only with a family that computes them.
            const bool familyOwn = isFamilyOwnStage(value);
            if (const auto problem = familyOwnStageProblem(m_requirement, value))
                fail(n, *problem);
            if (!bertOnly && !familyOwn && std::find(ids.begin(), ids.end(), value) == ids.end() && !isSchemeStage(std::string(value)))
                fail(n, unknown("stage", value, ids));
            state.stage = value;
            state.stageLine = d.stageLine = n;
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
                fail(n, unknown("view", value, kStageViews) + ", or for a whole model 'model' or 'head-view'");
            step.view = value;
        } else if (key == "compare") {
            d.compareLine = n;
            try {
                state.compare = value == "off" ? std::nullopt : std::optional<Comparison>(parseComparison(value));
            } catch (const std::invalid_argument& e) {
                fail(n, sayAbout(lessonMessage("lesson_key"), messageOf(e), "compare"));
            }
        } else if (key == "score_colors") {
            if (value != "shared" && value != "own")
                fail(n, unknown("score_colors", value, {"shared", "own"}));
            state.scoreColors = value == "shared" ? LessonStep::ScoreColors::Shared : LessonStep::ScoreColors::Own;
        } else if (key == "highlight") {
            try {
                step.highlight = parseHighlight(value);
            } catch (const std::invalid_argument& e) {
                fail(n, sayAbout(lessonMessage("lesson_key"), messageOf(e), "highlight"));
            }
        }
    }

    /// The head is checked against the heads in force after this step's settings.
    void checkHead(const Directives& d, State& state, const LessonStep& step) const
    {
        const int heads = state.effective.model == ModelKind::File ? requirementHeads(m_requirement) : state.effective.heads;
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
        // Outside code blocks, a line break inside Chinese text is no space (Markdown would make it one).
        bool inCode = false;
        for (int k = from; k <= to; ++k) {
            const bool joined = k > from && !inCode && joinsWithoutSpace(line(k - 1), line(k));
            if (k > from && !joined)
                step.explanation += '\n';
            step.explanation += joined ? trim(line(k)) : line(k);
            if (fenceOf(line(k)))
                inCode = !inCode;
        }
        return n;
    }

    /// A stage only some attention kinds or position schemes compute (kv, buckets, q_rotated, ...)
    /// needs one of them in force.
    void checkKindStage(const Directives& d, const State& state, const LessonStep& step) const
    {
        if (const std::string why = stageNeedsSetting(state.stage, state.effective); !why.empty())
            fail(d.stageLine > 0 ? d.stageLine : d.settingsLine > 0 ? d.settingsLine : step.line, why);
    }

    /// Layers, blocks, the decoder's input and the stages of a whole Transformer need a model
    /// that has them.
    void checkModel(const Directives& d, State& state, const LessonStep& step) const
    {
        const Config& c = state.effective;
        // A gated decoder rotates its queries and keys itself, whatever pe says.
        const bool familyOwn = c.model == ModelKind::File && m_requirement
                               && familyComputesSchemeStage(m_requirement->family, state.stage);
        if (!familyOwn)
            checkKindStage(d, state, step);
        if (c.model == ModelKind::None) {
            checkNoModel(d, state, step);
            return;
        }
        if (c.model == ModelKind::File) {
            checkPretrained(d, state, step);
            return;
        }
        if (const auto& b = pretrainedStageIds(); std::find(b.begin(), b.end(), state.stage) != b.end())
            fail(d.stageLine > 0 ? d.stageLine : d.settingsLine > 0 ? d.settingsLine : step.line,
                 "stage " + quote(state.stage) + " exists only in BERT (model=pretrained with a BERT in 'requires:')");
        if (isFamilyOwnStage(state.stage))
            fail(d.stageLine > 0 ? d.stageLine : d.settingsLine > 0 ? d.settingsLine : step.line,
                 "stage " + quote(state.stage) + " exists only in the modern decoders (model=pretrained with one in 'requires:')");
        checkLayer(d, state, step);
        // One decoder input per step: the given target, or the model's own tokens.
        if (d.targetLine > 0 && d.generateLine > 0)
            fail(std::max(d.targetLine, d.generateLine), "'target' and 'generate' cannot both be given in one step: the decoder "
                                                        "reads the given target (teacher forcing) or its own tokens (generation)");
        // A seeded model has no output head: no logits, probabilities or generation.
        if (c.model == ModelKind::Seeded) {
            if (step.generate)
                fail(d.generateLine, "generate: a seeded model has no output head, so it cannot generate "
                                     "(use model=reversal, or 'target:' for teacher forcing)");
            if (state.stage == "logits" || state.stage == "probabilities") {
                const int at = d.stageLine > 0 ? d.stageLine : d.settingsLine > 0 ? d.settingsLine : step.line;
                fail(at, "stage " + quote(state.stage) + " does not exist: a seeded model has no output head (use model=reversal"
                             + (d.stageLine > 0 ? std::string(")") : "; the stage was chosen on line " + std::to_string(state.stageLine) + ")"));
            }
        }
    }

    /// A step that runs the pretrained model: the family's block (chosen for the lesson when no
    /// step named one), stages and layers; no target or generation.
    void checkPretrained(const Directives& d, State& state, const LessonStep& step) const
    {
        if (m_requirement && state.blockLine == 0)
            state.block = familyBlock(m_requirement->family);
        const auto problem =
            pretrainedStepProblem(m_requirement, {state.stage, state.layer, state.block, d.targetLine > 0, step.generate.has_value()});
        if (!problem)
            return;
        // The directive at fault in this step, else the line that brought the model (saying where
        // a carried-over value was chosen); indexed by StepPart.
        const std::pair<int, int> lines[] = {{0, 0}, {d.stageLine, state.stageLine}, {d.layerLine, state.layerLine},
                                             {d.blockLine, state.blockLine}, {d.targetLine, 0}, {d.generateLine, 0}};
        const auto [given, chosen] = lines[static_cast<int>(problem->part)];
        const std::string carried = given > 0 || chosen == 0 ? "" : " (chosen on line " + std::to_string(chosen) + ")";
        fail(given > 0 ? given : d.settingsLine > 0 ? d.settingsLine : step.line, problem->reason + carried);
    }

    /// A comparison in force must suit the settings in force (no masks to compare in a model).
    void checkComparison(const Directives& d, const State& state, const LessonStep& step) const
    {
        if (!state.compare)
            return;
        if (const auto problem = comparisonProblem(state.effective, *state.compare))
            fail(d.compareLine > 0 ? d.compareLine : d.settingsLine > 0 ? d.settingsLine : step.line, "compare: " + problem->text);
    }

    /// Without a model: a step may not name a layer, a block, a target, a generation step or a
    /// Transformer stage. A layer and block carried over from model steps are forgotten.
    void checkNoModel(const Directives& d, State& state, const LessonStep& step) const
    {
        const std::string needs = "this step needs an encoder–decoder model: set 'settings: model=reversal' or 'model=seeded' first";
        if (d.layerLine > 0 || d.blockLine > 0)
            fail(d.layerLine > 0 ? d.layerLine : d.blockLine, needs);
        if (d.targetLine > 0)
            fail(d.targetLine, "target: " + needs);
        if (step.generate || (isModelStage(state.stage) && d.stageLine > 0))
            fail(step.line, needs);
        if (isModelStage(state.stage))
            fail(d.settingsLine > 0 ? d.settingsLine : step.line,
                 "stage " + quote(state.stage) + " (chosen on line " + std::to_string(state.stageLine)
                     + ") needs an encoder–decoder model: choose another stage in this step, e.g. 'stage: weights'");
        state.layer = 0;
        state.layerLine = 0;
        state.block = Block::EncoderSelf;
        state.blockLine = 0;
    }

    /// The layer in force must exist in the block's stack of the model in force.
    void checkLayer(const Directives& d, const State& state, const LessonStep& step) const
    {
        const Config& c = state.effective;
        int layers = c.encoderLayers;
        std::string has = "the model has " + plural(layers, "layer", "layers") + " (layers=" + std::to_string(layers) + ")";
        if (c.model == ModelKind::Reversal) {
            const ModelSpec& o = reversalModel(d.settingsLine > 0 ? d.settingsLine : step.line)->spec;
            layers = state.block == Block::EncoderSelf ? o.encoderLayers : o.decoderLayers;
            has = "the reversal model has " + plural(o.encoderLayers, "encoder layer", "encoder layers") + " and "
                + plural(o.decoderLayers, "decoder layer", "decoder layers");
        }
        if (state.layer < layers)
            return;
        const std::string layer = "layer " + std::to_string(state.layer + 1);
        if (d.layerLine > 0)
            fail(d.layerLine, layer + " does not exist: " + has);
        fail(d.settingsLine > 0 ? d.settingsLine : d.blockLine > 0 ? d.blockLine : step.line,
             layer + " (chosen on line " + std::to_string(state.layerLine) + ") does not exist: " + has
                 + "; choose one in this step, e.g. 'layer: 1'");
    }

    const std::string& m_file;
    std::vector<std::string_view> m_lines; ///< line n is m_lines[n - 1]
    std::optional<ModelRequirement> m_requirement; ///< the header's `requires:`
};

} // namespace

const std::vector<std::string>& lessonViews()
{
    static const std::vector<std::string> kViews = [] {
        std::vector<std::string> views = kStageViews;
        views.insert(views.end(), {"model", "head-view"});
        return views;
    }();
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
        throw LessonError(path, 0, messageOf(e));
    }
    return parseLesson(bytes, path);
}

} // namespace attnlab

#pragma once
// The Session owns what the user typed and chose (sentence, settings, weights, mask) and where
// they are (step, head, selected cell), calls the engine, and keeps the latest Trace. It is the
// only object that calls the engine and the only place that catches engine exceptions; views
// observe it through its signals and never call the engine themselves.

#include "compare/comparison.h"
#include "nn/attention.h"
#include "lesson/lesson.h"
#include "model/model.h"
#include "model/open.h"
#include "model/run.h"
#include "session/stages.h"

#include <QObject>
#include <QElapsedTimer>
#include <QString>

class QFutureWatcherBase;
class QThreadPool;

#include <algorithm>
#include <memory>
#include <optional>

#include <functional>

namespace attnlab {

struct SessionFile;

/// A lesson and the step shown (0-based), as a session file keeps them: a lesson file's path, or
/// ":/lessons/<language>/<name>.md" for a shipped one.
struct LessonPlace {
    QString path;
    int step = 0;

    bool operator==(const LessonPlace&) const = default;
};

class Session : public QObject {
    Q_OBJECT
public:
    explicit Session(QObject* parent = nullptr);
    /// Stops a generation running off the GUI thread and waits for its step to end.
    ~Session() override;

    // --- input -------------------------------------------------------------------------
    const QString& sentence() const { return m_sentence; }
    const Config& config() const { return m_config; }
    /// Imported weights, or null when the config's preset is used.
    const std::shared_ptr<const AttentionWeights>& importedWeights() const { return m_imported; }
    /// The file the imported weights came from (empty when embedded in a session file).
    const QString& weightsPath() const { return m_weightsPath; }
    const std::optional<BoolMatrix>& customMask() const { return m_customMask; }

    /// Each setter recomputes at once; a bad value keeps the previous trace, emits
    /// errorOccurred, and the input is kept so the user can correct it.
    void setSentence(const QString& sentence);
    void setConfig(const Config& config);
    /// Both at once, with one recomputation (lessons change them together). Imported weights
    /// and a custom mask are dropped: lessons use the presets.
    void setLessonInput(const std::optional<QString>& sentence, const Config& config);
    /// Shows a lesson step (docs/lesson-format.md): its settings, and its sentence, target or
    /// generation step when it sets them (with `force`, the settings and input always apply),
    /// with one recomputation; then its stage in its layer and block, head, view and highlight.
    /// Returns false when the stage does not exist in the model (the nearest one is shown).
    bool applyLessonStep(const LessonStep& step, bool force = false);
    /// The step of a lesson's stage, layer and block (the block is forgiving: attn_norm in block
    /// "cross" is the decoder layer's), or -1.
    int lessonStepIndex(const std::string& stage, int layer, Block block) const;
    /// Imported weights replace the preset (and set d_model); null returns to the preset.
    void setImportedWeights(std::shared_ptr<const AttentionWeights> weights, const QString& path = {});
    /// Reads a safetensors file; on failure returns false with the reason and changes nothing.
    bool importWeights(const QString& path, QString* error);
    /// Writes the weights in use; on failure returns false with the reason.
    bool saveWeights(const QString& path, QString* error) const;
    /// Sets the custom mask (n x n, true = masked) and switches the mask kind to custom.
    void setCustomMask(std::optional<BoolMatrix> mask);
    /// Reads a mask file (docs/engine.md, section 7); on failure returns false and changes nothing.
    bool importMask(const QString& path, QString* error);

    // --- a Transformer (config.model != none) ----------------------------------------------
    // The sentence is the encoder's source. The decoder reads <sos> + a typed target (teacher
    // forcing) or the model's own greedy output (generation), one step at a time.
    /// True when the trace on screen is a Transformer's (the config may ask for one that failed).
    bool isModel() const { return m_full && m_full->model != nullptr; }
    /// The model in use (null for one attention block or when it could not be made).
    const std::shared_ptr<const Seq2SeqModel>& model() const { return m_model; }
    /// The model file opened with importModel (for config.model = file).
    const QString& modelPath() const { return m_modelPath; }
    /// Reads a model file or a Hugging Face model folder (GPT-2, BERT) and switches to it; a bare
    /// PyTorch state dict needs `stateDict` (model/open.h). On failure returns false and changes nothing.
    bool importModel(const QString& path, QString* error, const std::optional<StateDictOptions>& stateDict = std::nullopt);
    /// BERT's second segment (sentence B: [CLS] A [SEP] B [SEP], token type ids 1); nullopt for
    /// one sentence. Kept for any model, used only by a BERT folder.
    const std::optional<QString>& segmentB() const { return m_segmentB; }
    /// Sets B (nullopt or blank: none) and recomputes when a BERT folder is open.
    void setSegmentB(const std::optional<QString>& text);
    /// True when the model in use reads a second segment (a BERT folder).
    bool readsSegmentB() const;
    /// The output head's stages (logits, probabilities) with the current input: trace() when it
    /// shows them, else a view made once per computation (a pretrained model's head is made when
    /// shown, not on every keystroke). Null or without them for a model with no head.
    std::shared_ptr<const Trace> headTrace() const;
    /// How much of a pretrained model's pass the trace keeps (pretrained/trace_detail.h; Auto:
    /// compact when large, its layers made again when shown). Recomputes when it changes.
    TraceDetail traceDetail() const { return m_traceDetail; }
    void setTraceDetail(TraceDetail detail);
    /// Writes the model in use (docs/model-format.md); on failure returns false with the reason.
    bool saveModel(const QString& path, QString* error) const;
    /// The typed target; nullopt means generation (a trained model) or the source itself (a
    /// seeded model, which cannot generate).
    const std::optional<QString>& target() const { return m_target; }
    /// Teacher forcing with `target` (nullopt: generate).
    void setTarget(const std::optional<QString>& target);
    /// True when the decoder's input is the model's own greedy output.
    bool isGenerating() const { return isModel() && !m_target && m_model && m_model->hasHead(); }
    /// Greedy generation's result (empty when not generating).
    const Generation& generation() const { return m_generation; }
    /// The generation step shown, 0-based (the decoder pass on <sos> + the first k tokens).
    int generationStep() const
    {
        const int last = static_cast<int>(m_generation.size()) - 1;
        return m_generationStep < 0 ? std::max(last, 0) : std::min(m_generationStep, std::max(last, 0));
    }
    void setGenerationStep(int step);

    // --- generation off the GUI thread (session_generation.cpp) ------------------------------------
    // A model that never writes <eos> takes up to 1024 decoder passes, each on all the tokens so
    // far: a minute and more. In the studio the first step is shown at once and the others are
    // computed off the GUI thread; the trace shows the steps done so far as they come.
    /// On: each change computes a greedy generation's first step (and B's) at once and the rest
    /// off the GUI thread; a change meanwhile drops the rest of the older input's. Off (the
    /// default: lesson decks, the command line's exports): every change computes whole generations.
    void setBackgroundGeneration(bool on);
    bool backgroundGeneration() const { return m_background; }
    /// True while a generation runs off the GUI thread: generation() holds the steps done so far.
    bool isGenerationRunning() const { return m_job != nullptr; }
    /// The steps the running generation has done and the most it can take (A's and B's together
    /// while comparing); 0 and 0 when none runs.
    int generationDone() const { return m_jobDone; }
    int generationLimit() const { return m_jobLimit; }
    /// Stops the running generation (Cancel): the steps done so far stay, as if the model had
    /// stopped there; the step being computed is dropped.
    void stopGeneration();
    /// True when the generation shown was stopped (stopGeneration) before <eos> or its limit.
    bool generationStopped() const { return m_generationStopped; }

    // --- the trace off the GUI thread (session_compute.cpp) --------------------------------------
    // GPT-2 small takes a tenth of a second a keystroke, a larger model seconds: in the studio a
    // change's trace is computed off the GUI thread and the views keep the last one meanwhile.
    /// On: the setters return at once and the trace of the newest input comes later (with
    /// traceChanged, or errorOccurred; settings the engine refuses are said at once); an older
    /// input's result is dropped, and changes made while a trace computes replace each other (the
    /// newest is computed when it ends). Lesson steps, session files and mask files are still
    /// computed before they return. Off (the default: tests, the command line, lesson decks):
    /// every change is computed before its setter returns.
    void setBackgroundTrace(bool on);
    bool backgroundTrace() const { return m_backgroundTrace; }
    /// True while the trace of the current input is being computed: trace() is an older input's.
    bool isComputing() const { return m_computing; }
    /// Gives trace() for the current input before returning (exports, saves): waits for its
    /// computation, or computes it here when it has not started. At once when none is pending.
    void finishComputing();

    /// The whole trace: every stage of every layer (the same as trace() for one attention block).
    const std::shared_ptr<const Trace>& fullTrace() const { return m_full; }

    // --- output ------------------------------------------------------------------------
    /// The trace the views draw (never null): for one attention block the whole trace; for a
    /// Transformer the stages of the current step's layer and block (shared with the full trace;
    /// its scope lets views find them by id and head alone), plus the block's attention inputs
    /// as "input" and "key_input" and its weights.
    const std::shared_ptr<const Trace>& trace() const { return m_trace; }
    /// The positional encoding of the current settings for `positions` positions (for plots
    /// that show more positions than the sentence has).
    Eigen::MatrixXf positionalTable(int positions) const;
    /// Why the last computation failed, in the interface's language; empty after a success.
    QString error() const;

    // --- comparing two inputs (compare/comparison.h) -------------------------------------------
    // B is another sentence, or the same sentence under one other setting. While comparison is
    // on, B is computed with A (the input above) on every change; the comparison view draws both.
    bool isComparing() const { return m_comparing; }
    /// What B is; kept while comparison is off, so switching it on again brings it back.
    const Comparison& comparison() const { return m_comparison; }
    /// Switches comparison on or off (on: B computed at once). The first time on, B is A's
    /// sentence with its first and last words swapped.
    void setComparing(bool on);
    /// Sets what B is (and computes it when comparison is on).
    void setComparison(const Comparison& comparison);
    // B derived from A follows A: the same sentence under another setting is A's text anyway;
    // A's words swapped (the first comparison, or Swap words) become the new text's words
    // swapped when A is edited (setSentence). A sentence the user typed for B stays.
    /// B's trace for the current step, as trace() is A's (the same layer and block); null when
    /// comparison is off or B could not be computed.
    const std::shared_ptr<const Trace>& comparisonTrace() const { return m_compareTrace; }
    /// Why B could not be computed, in the interface's language; empty when it could.
    QString comparisonError() const;

    // --- where the user is ---------------------------------------------------------------
    /// The steps of the navigator: ui/stages.h's steps() for one attention block of full
    /// attention, modelSteps() for a Transformer and for another attention kind (its stages).
    const std::vector<Step>& steps() const { return m_stepsOfTrace ? m_modelSteps : attnlab::steps(); }
    /// The index of `id` among steps(), preferring the current layer and block; -1 if none.
    int stepIndex(const QString& id) const;
    /// The index of the step with this id, layer and block; -1 if none.
    int stepIndex(const QString& id, std::optional<int> layer, Block block) const;
    /// Index into steps().
    int step() const { return m_step; }
    const Step& currentStep() const { return steps()[static_cast<std::size_t>(m_step)]; }
    QString stepId() const;
    /// 0-based head shown by per-head stages.
    int head() const { return m_head; }
    void setStep(int step);
    void setStepId(const QString& id);
    void setHead(int head);
    /// Transformer-XL's segment the views show (0-based; session_segments.cpp): trace() holds that
    /// segment's per-segment stages. segmentCount() is 0 for a trace without segments.
    int segment() const { return m_segment; }
    int segmentCount() const;
    void setSegment(int segment);
    void nextStep();
    void previousStep();
    /// The selected cell (row, column) of the current matrix, or (-1, -1).
    int selectedRow() const { return m_selRow; }
    int selectedColumn() const { return m_selCol; }
    void selectCell(int row, int column);
    /// What the studio draws for the current step: "stage" (the stage's own view), "heads"
    /// (every head side by side), "kernel-regression" or "softmax-scaling" (lesson views).
    const QString& view() const { return m_view; }
    void setView(const QString& view);
    /// Cells, rows and columns a lesson step emphasises (0-based); empty when none.
    const Highlight& highlight() const { return m_highlight; }
    void setHighlight(const Highlight& highlight);
    /// One colour range for Scores, Scaled and Masked scores (the largest finite |value| of the
    /// three), so ÷√d_k shows as paler colours; off: each stage its own range. Lessons may set it.
    bool sharedScoreScale() const { return m_sharedScoreScale; }
    void setSharedScoreScale(bool on);

    // --- files ---------------------------------------------------------------------------
    /// Saves sentence, settings, weights (path and embedded copy), mask, step and head as JSON
    /// (docs/session-format.md), and the lesson playing when there is one. Crash-safe: the file
    /// holds the earlier session or the new one, never part of one.
    bool saveSession(const QString& path, QString* error, const std::optional<LessonPlace>& lesson = std::nullopt) const;
    /// Opens the lesson a session file names (the lesson player's job): called once the file is
    /// read and checked, before the session changes, so the file's own sentence and settings are
    /// shown over the lesson step's.
    using LessonOpener = std::function<void(const LessonPlace&)>;
    /// Opens a session file. A missing, unreadable, corrupt or invalid file returns false with
    /// the reason and leaves the session exactly as it was. When the file names a lesson,
    /// `openLesson` (if given) is called with it first.
    bool loadSession(const QString& path, QString* error, const LessonOpener& openLesson = {});
    /// Everything a session file keeps (io/session_json.h), in memory: what the lesson player
    /// keeps aside while a lesson plays.
    SessionFile snapshot(const std::optional<LessonPlace>& lesson = std::nullopt) const;
    /// Shows a snapshot again. Returns false with the reason (a model file that can no longer
    /// be read, …) and changes nothing when it cannot be computed.
    bool restore(SessionFile file, QString* error, const LessonOpener& openLesson = {});

signals:
    void traceChanged();
    /// The decoder's input changed: target text, generation or the generation step.
    void decodingChanged();
    void errorOccurred(const QString& message);
    void stepChanged(int step);
    void headChanged(int head);
    /// The Transformer-XL segment shown changed (trace() changed with it: traceChanged follows).
    void segmentChanged(int segment);
    void selectionChanged(int row, int column);
    void viewChanged(const QString& view);
    void highlightChanged();
    void sharedScoreScaleChanged(bool on);
    /// Sentence, config, weights or mask changed (for widgets that show the input).
    void inputChanged();
    /// A session file was opened (after the input, the trace and the place changed): the input
    /// was replaced as a whole (the undo history starts again).
    void sessionLoaded();
    /// Comparison switched on or off, or B changed (B's trace is new then). B's trace for a new
    /// input comes with traceChanged.
    void comparisonChanged();
    /// A generation off the GUI thread started (true; again when a newer input's replaces a
    /// running one), or ended: done, stopped, or dropped for an input that does not generate.
    void generationRunningChanged(bool running);
    /// The running generation has done `done` steps of at most `limit` (emitted often: the
    /// trace shows a newer step from time to time, with traceChanged).
    void generationProgress(int done, int limit);
    /// The trace of the current input started (true) or ended (false) computing off the GUI
    /// thread (setBackgroundTrace); traceChanged or errorOccurred follow the end.
    void computingChanged(bool computing);

private:
    /// Computes the current input and installs the result; on failure keeps the previous trace
    /// and emits errorOccurred. With setBackgroundTrace, off the GUI thread unless `here`.
    void recompute(bool here = false);
    /// The same, on the GUI thread, now.
    void computeHere();
    /// A computation failed: `why` is the error, the previous trace stays; errorOccurred.
    void failed(const Message& why);
    /// The Message of what `work` threw (the engine's, or an exception's English text), or none.
    static std::optional<Message> failureOf(const std::function<void()>& work);
    /// Shows a computation's result: the full trace, the steps, the place found again.
    void install(RunResult result);
    /// The engine's request for this input, with the weights and models from the cache.
    /// Throws std::invalid_argument for invalid settings or a missing model.
    RunRequest requestFor(const QString& sentence, const Config& c, const std::optional<QString>& target,
                          const std::shared_ptr<const AttentionWeights>& imported, const std::optional<BoolMatrix>& mask,
                          const std::shared_ptr<const Seq2SeqModel>& file, int generationStep)
    {
        return requestFor(m_models, sentence, c, target, imported, mask, file, generationStep);
    }
    /// The same with the weights and models of `models` (B has its own cache).
    RunRequest requestFor(ModelCache& models, const QString& sentence, const Config& c, const std::optional<QString>& target,
                          const std::shared_ptr<const AttentionWeights>& imported, const std::optional<BoolMatrix>& mask,
                          const std::shared_ptr<const Seq2SeqModel>& file, int generationStep);
    /// Transformer-XL: narrows m_trace to the segment shown (session_segments.cpp).
    void showSegment();
    /// Sets d_model and heads of a trained or file model into `c`.
    void adoptModelSizes(Config& c);
    /// Reads a model file (docs/model-format.md); null with the reason in `error` on failure.
    static std::shared_ptr<const Seq2SeqModel> readModelFile(const QString& path, QString* error,
                                                             const std::optional<StateDictOptions>& stateDict = std::nullopt);
    /// Recomputes trace() from fullTrace() for the current step.
    void project();
    /// The stages of `full` that belong to `layer` and `block` (a Transformer's block view).
    static std::shared_ptr<const Trace> blockView(const std::shared_ptr<const Trace>& full, std::optional<int> layer, Block block);
    /// Computes B's full trace for the current input (session_compare.cpp), or why it cannot be.
    /// With `rest`, B's generation in background mode stops after its first step and `rest`
    /// receives the run to go on with.
    void computeComparison(std::unique_ptr<GenerationRun>* rest = nullptr);
    /// B's request for the current input; throws Error when B cannot be computed.
    RunRequest comparisonRequest();
    /// Keeps B's result (empty when not comparing), or why it could not be computed.
    void takeComparison(RunResult b, std::optional<Message> error);
    /// Recomputes comparisonTrace() for the current step.
    void projectComparison();
    /// Computes and projects B, then emits comparisonChanged.
    void refreshComparison();
    /// Before A's sentence becomes `next`: a B that is A's words swapped becomes `next`'s.
    /// True when B changed.
    bool followSentence(const QString& next);
    /// Sets comparison on (with what B is) or off (nullopt), without computing; true when that
    /// changed anything (lessons).
    bool putComparison(const std::optional<Comparison>& comparison);
    /// A session file's comparison (on, and B; none for older files: off) set and computed.
    void restoreComparison(const std::optional<std::pair<bool, Comparison>>& saved, std::unique_ptr<GenerationRun>* rest);

    struct GenerationJob;
    /// run(request); in background mode a generation stops after its first step, and `rest`
    /// (when given) receives the run to go on with off the GUI thread.
    RunResult compute(const RunRequest& request, std::unique_ptr<GenerationRun>* rest)
    {
        return computeRun(request, m_background, rest);
    }
    /// The same for any thread, `background` standing for setBackgroundGeneration.
    static RunResult computeRun(const RunRequest& request, bool background, std::unique_ptr<GenerationRun>* rest);
    /// The Session's threads (made the first time).
    QThreadPool* pool();

    struct TraceJob;
    /// Starts computing the current input off the GUI thread (setBackgroundTrace).
    void startTraceJob();
    /// A computation ended: its result shown when it is the newest input's; the next one started.
    void traceJobDone(const std::shared_ptr<TraceJob>& job);
    /// Shows a finished computation's result (or its error).
    void installTraceJob(TraceJob& job);
    /// The input is computed on the GUI thread: a computation running off it is dropped.
    void cancelTraceJob();
    void setComputing(bool on);
    /// Goes on with A's and B's generations (either may be null) off the GUI thread.
    void startGeneration(std::unique_ptr<GenerationRun> a, std::unique_ptr<GenerationRun> b);
    /// Stops the running generation; whatever it would still make is dropped.
    void dropGeneration();
    /// Shows the steps the running generation has done (`now`: whatever the time since the last).
    void showGenerationSoFar(bool now);
    /// The running generation ended: its last steps shown, and why a step failed if one did.
    void finishGeneration();
    /// B's trace for the generation step shown (B's last when it wrote fewer tokens than A).
    void showComparisonStep();

    QString m_sentence;
    Config m_config;
    std::shared_ptr<const AttentionWeights> m_imported;
    QString m_weightsPath;
    std::optional<BoolMatrix> m_customMask;
    /// Preset weights and seeded models, made once per size and seed.
    ModelCache m_models;
    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const Trace> m_full;
    std::shared_ptr<const Seq2SeqModel> m_model;
    std::shared_ptr<const Seq2SeqModel> m_fileModel;
    QString m_modelPath;
    std::optional<QString> m_target;
    /// What the tokenizer said about the source and target (out-of-vocabulary characters, cuts).
    std::vector<Message> m_inputWarnings;
    Generation m_generation;
    int m_generationStep = -1; ///< -1: the last one
    std::vector<Step> m_modelSteps;
    bool m_stepsOfTrace = false; ///< steps() are m_modelSteps (a model, or a kind other than full)
    std::optional<int> m_projectedLayer;
    std::optional<Block> m_projectedBlock; ///< none: nothing projected yet
    std::optional<Message> m_error; ///< why the last computation failed
    int m_step = 0;
    int m_head = 0;
    int m_segment = 0;
    int m_selRow = -1;
    int m_selCol = -1;
    QString m_view = QStringLiteral("stage");
    Highlight m_highlight;
    bool m_sharedScoreScale = false;
    TraceDetail m_traceDetail = TraceDetail::Auto;
    std::optional<QString> m_segmentB;
    mutable std::shared_ptr<const Trace> m_headTrace; ///< headTrace()'s, for the trace below
    mutable std::weak_ptr<const Trace> m_headTraceOf; ///< the full trace it was made from (never a reused address)
    bool m_comparing = false;
    Comparison m_comparison;
    bool m_comparisonChosen = false; ///< B was set (else the first switch-on swaps A's words)
    ModelCache m_compareModels;      ///< B's weights and seeded models (another seed: other weights)
    std::shared_ptr<const Trace> m_compareFull;
    std::shared_ptr<const Trace> m_compareTrace;
    std::optional<Message> m_compareError;
    Generation m_compareGeneration; ///< B's greedy generation (empty when B does not generate)
    std::vector<Message> m_compareInputWarnings;

    bool m_background = false;
    std::shared_ptr<GenerationJob> m_job; ///< the generation running off the GUI thread, or null
    /// Its threads: not the global pool, which Qt's own painting uses (a step of 1000 tokens
    /// taking a thread of it kept the window from drawing for as long).
    QThreadPool* m_pool = nullptr;
    int m_jobDone = 0;
    int m_jobLimit = 0;
    bool m_generationStopped = false;
    QElapsedTimer m_shownAt; ///< when the running generation's steps were last shown

    bool m_backgroundTrace = false;
    bool m_computing = false;    ///< the trace shown is an older input's; the newest computes
    bool m_tracePending = false; ///< the newest input waits for the running computation to end
    quint64 m_inputSerial = 0;   ///< counts the changes of the input: a result is for one of them
    std::shared_ptr<TraceJob> m_traceJob;         ///< the computation running off the GUI thread
    QFutureWatcherBase* m_traceWatcher = nullptr; ///< its watcher (a child, deleted when it ends)
};

} // namespace attnlab

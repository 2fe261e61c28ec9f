#include "session/session.h"

#include "pretrained/model_folder.h"

#include "nn/embedding.h"
#include "nn/mask.h"
#include "io/fileio.h"
#include "model/shipped.h"
#include "session/messages.h"
#include "session/stages.h"



namespace attnlab {

Session::Session(QObject* parent)
    : QObject(parent)
    , m_sentence(QString::fromUtf8(kDefaultSentence))
{
    m_step = attnlab::stepIndex(QStringLiteral("weights"));
    recompute();
}

void Session::setSentence(const QString& sentence)
{
    if (sentence == m_sentence && !m_error)
        return;
    const bool followed = followSentence(sentence);
    m_sentence = sentence;
    emit inputChanged();
    recompute();
    if (followed)
        emit comparisonChanged(); // B's field shows its new text
}

void Session::setConfig(const Config& config)
{
    Config c = config;
    adoptModelSizes(c);
    if (c == m_config && !m_error)
        return;
    m_config = c;
    emit inputChanged();
    recompute();
}

void Session::setImportedWeights(std::shared_ptr<const AttentionWeights> weights, const QString& path)
{
    m_imported = std::move(weights);
    m_weightsPath = m_imported ? path : QString();
    if (m_imported) {
        m_config.dModel = m_imported->dModel();
        if (m_imported->heads && m_config.dModel % *m_imported->heads == 0)
            m_config.heads = *m_imported->heads;
    }
    emit inputChanged();
    recompute();
}

bool Session::importWeights(const QString& path, QString* error)
{
    try {
        auto w = std::make_shared<const AttentionWeights>(loadAttentionWeights(path.toStdString()));
        setImportedWeights(std::move(w), path);
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
}

bool Session::saveWeights(const QString& path, QString* error) const
{
    try {
        saveAttentionWeights(*m_trace->weights, m_trace->config.heads, path.toStdString());
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = errorText(e);
        return false;
    }
}

void Session::setCustomMask(std::optional<BoolMatrix> mask)
{
    m_customMask = std::move(mask);
    if (m_customMask)
        m_config.mask = MaskKind::Custom;
    else if (m_config.mask == MaskKind::Custom)
        m_config.mask = MaskKind::None;
    emit inputChanged();
    recompute();
}

bool Session::importMask(const QString& path, QString* error)
{
    // Computed before anything changes: a mask that does not fit the sentence (3 x 3 for 10
    // tokens) is refused and the mask setting stays as it was.
    Config config = m_config;
    config.mask = MaskKind::Custom;
    BoolMatrix mask;
    RunResult result;
    std::unique_ptr<GenerationRun> restA, restB; // a Transformer reads no mask, but may generate
    try {
        mask = parseMaskText(readFile(path.toStdString(), kMaxMaskFileBytes));
        result = compute(requestFor(m_sentence, config, m_target, m_imported, mask, m_fileModel, m_generationStep), &restA);
    } catch (const std::exception& e) {
        if (error)
            *error = tr("Mask file %1: %2").arg(path, errorText(e));
        return false;
    }
    m_customMask = std::move(mask);
    m_config = config;
    const bool wasRunning = isGenerationRunning();
    dropGeneration();
    cancelTraceJob(); // computed here: a computation of the input before is dropped
    emit inputChanged();
    computeComparison(&restB);
    install(std::move(result));
    startGeneration(std::move(restA), std::move(restB));
    if (wasRunning && !isGenerationRunning())
        emit generationRunningChanged(false);
    return true;
}

RunRequest Session::requestFor(ModelCache& models, const QString& sentence, const Config& c, const std::optional<QString>& target,
                               const std::shared_ptr<const AttentionWeights>& imported, const std::optional<BoolMatrix>& mask,
                               const std::shared_ptr<const Seq2SeqModel>& file, int generationStep)
{
    RunRequest r;
    r.text = sentence.toStdString();
    r.config = c;
    r.config.validate(); // before the caches: never make weights for an invalid width
    if (c.model == ModelKind::None) {
        r.weights = imported ? imported : models.presetWeights(c);
        r.customMask = mask;
    } else {
        if (target)
            r.target = target->toStdString();
        if (c.model == ModelKind::Seeded)
            checkCost(estimateRun(r, nullptr)); // before making the weights, not after
        r.model = models.model(c, file); // no file open: an Error (no_model_file) in the interface's language
        r.generationStep = generationStep;
        r.keep.detail = m_traceDetail;
        // The logits and probabilities of a pretrained model's head are made when shown (headTrace).
        r.keep.deferHead = m_traceDetail != TraceDetail::Full;
        if (m_segmentB && r.model && r.model->pretrained && r.model->pretrained->wordPiece)
            r.segmentB = m_segmentB->toStdString();
    }
    return r;
}

void Session::install(RunResult result)
{
    // The place the user is at, to find again in the new list of steps.
    const Step before = m_step >= 0 && m_step < static_cast<int>(steps().size()) ? currentStep() : Step{};
    m_inputWarnings = std::move(result.inputWarnings);
    m_model = result.trace->model;
    m_full = std::move(result.trace);
    m_generation = std::move(result.generation);
    m_generationStopped = false;
    m_error.reset();
    // A model's steps, and an attention kind's (its own stages), come from the trace.
    m_stepsOfTrace = isModel() || m_full->config.attention != AttentionKind::Full || actsInsideAttention(m_full->config.positional);
    if (m_stepsOfTrace)
        m_modelSteps = modelSteps(*m_full);
    // Same step (id, layer, block), else the same id, else the nearest index.
    int at = stepIndex(before.id, before.layer, before.block);
    if (at < 0)
        at = stepIndex(before.id);
    if (at < 0)
        at = std::clamp(m_step, 0, static_cast<int>(steps().size()) - 1);
    const bool moved = at != m_step;
    m_step = at;
    m_projectedBlock.reset();
    project();
    if (m_head >= m_full->config.heads)
        setHead(m_full->config.heads - 1);
    const auto n = static_cast<int>(m_trace->tokens.size());
    if (m_selRow >= n || m_selCol >= std::max(n, m_trace->config.dModel))
        selectCell(-1, -1);
    emit traceChanged();
    if (moved)
        emit stepChanged(m_step);
}

void Session::adoptModelSizes(Config& c)
{
    std::shared_ptr<const Seq2SeqModel> m;
    if (c.model == ModelKind::Reversal) {
        try {
            m = shippedModel();
        } catch (const std::exception&) {
            return; // recompute() reports it
        }
    } else if (c.model == ModelKind::File)
        m = m_fileModel;
    if (m)
        adoptModelWidths(c, *m);
}

void Session::setSegmentB(const std::optional<QString>& text)
{
    const std::optional<QString> b = text && !text->trimmed().isEmpty() ? text : std::nullopt;
    if (b == m_segmentB)
        return;
    m_segmentB = b;
    if (readsSegmentB())
        recompute();
    emit inputChanged();
}

bool Session::readsSegmentB() const
{
    return m_model && m_model->pretrained && m_model->pretrained->wordPiece;
}

std::shared_ptr<const Trace> Session::headTrace() const
{
    if (m_trace && m_trace->find("probabilities", std::nullopt, std::nullopt, Block::None))
        return m_trace;
    if (!m_full || !m_full->model)
        return m_full;
    if (m_headTraceOf.lock() != m_full) {
        try {
            m_headTrace = blockView(m_full, std::nullopt, Block::None); // the head made again once per trace
        } catch (const std::exception&) {
            m_headTrace = m_full; // out of memory: the views say there are no probabilities
        }
        m_headTraceOf = m_full;
    }
    return m_headTrace;
}

void Session::setTraceDetail(TraceDetail detail)
{
    if (detail == m_traceDetail)
        return;
    m_traceDetail = detail;
    recompute();
}

void Session::project()
{
    if (!isModel() || !m_full || !m_full->model) {
        m_trace = m_full;
        showSegment();
        projectComparison();
        return;
    }
    const Step& st = currentStep();
    if (m_projectedBlock && st.layer == m_projectedLayer && st.block == *m_projectedBlock && m_trace)
        return;
    try {
        m_trace = blockView(m_full, st.layer, st.block);
    } catch (const std::exception& e) {
        // Making a compact trace's layer again ran out of memory (or worse): the step's own
        // stages are missing, the views say so; the rest stays as it was.
        m_trace = std::make_shared<const Trace>(*m_full);
        emit errorOccurred(QString::fromStdString(e.what()));
    }
    m_projectedLayer = st.layer;
    m_projectedBlock = st.block;
    showSegment();
    projectComparison();
}

std::shared_ptr<const Trace> Session::blockView(const std::shared_ptr<const Trace>& fullTrace, std::optional<int> layer, Block block)
{
    const Trace& full = *fullTrace;
    auto t = std::make_shared<Trace>();
    t->config = full.config;
    t->warnings = full.warnings;
    t->model = full.model;
    t->targetTokens = full.targetTokens;
    t->tokenIds = full.tokenIds;
    t->segmentIds = full.segmentIds;
    const bool target = block == Block::DecoderSelf || block == Block::Cross;
    // GPT-2's layers are decoder layers reading the text itself; a pretrained model's rows are
    // labelled for people ("␣world", not the vocabulary's "Ġworld").
    t->tokens = target && !full.targetTokens.empty() ? full.targetTokens : full.tokens;
    if (full.model && full.model->pretrained) {
        if (const Stage* input = full.find("input", std::nullopt, std::nullopt, block); input && input->main().rowLabels)
            t->tokens = *input->main().rowLabels;
    }
    // The block's mask as the run applied it; the views say so through the config. The decoder's
    // self-attention is causal, the encoder's takes the run's mask (src_mask, src_key_padding_mask),
    // cross-attention hides the source's <pad> keys with a padding mask (memory_key_padding_mask).
    const MaskKind runMask = full.config.mask;
    const bool padding = runMask == MaskKind::Padding || runMask == MaskKind::CausalPadding;
    t->config.mask = !layer                        ? MaskKind::None
                     : block == Block::DecoderSelf ? MaskKind::Causal
                     : block == Block::Cross       ? (padding ? MaskKind::Padding : MaskKind::None)
                                                   : runMask;
    t->config.padTo = block == Block::EncoderSelf ? full.config.padTo : 0;
    // The views find this block's stages by id and head: they share the full trace's.
    t->scopeLayer = layer;
    t->scopeBlock = block;
    // A compact trace of a large model makes this layer's dropped stages again (pretrained/trace_detail.h).
    t->stages = blockStages(full, layer, block);
    // The attention block's inputs, as the trace recorded them: "input" is what its queries
    // were projected from, "key_input" what its keys and values were (cross-attention: the memory).
    const Stage* q = t->find("q", 0);
    const auto alias = [&](const Stage* source, const char* id) {
        if (!source)
            return;
        Stage& a = t->stages.add();
        a = *source;
        static_cast<StageKey&>(a) = StageKey{id, std::nullopt, layer, block};
    };
    if (q) {
        const Stage* queries = full.input(*q);
        alias(queries, "input");
        const Stage* k = t->find("k", 0);
        if (const Stage* keys = k ? full.input(*k) : nullptr; keys && keys != queries)
            alias(keys, "key_input");
        if (const AttentionWeights* w = attentionModule(*full.model, q->module))
            t->weights = std::shared_ptr<const AttentionWeights>(full.model, w); // shares the model's lifetime
    }
    return t;
}

int Session::stepIndex(const QString& id) const
{
    const auto& s = steps();
    if (isModel() && m_step >= 0 && m_step < static_cast<int>(s.size())) {
        const Step& here = s[static_cast<std::size_t>(m_step)];
        if (const int i = stepIndex(id, here.layer, here.block); i >= 0)
            return i;
    }
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i].id == id)
            return static_cast<int>(i);
    }
    return -1;
}

int Session::stepIndex(const QString& id, std::optional<int> layer, Block block) const
{
    const auto& s = steps();
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i].id == id && s[i].layer == layer && s[i].block == block)
            return static_cast<int>(i);
    }
    return -1;
}

bool Session::importModel(const QString& path, QString* error, const std::optional<StateDictOptions>& stateDict)
{
    auto m = readModelFile(path, error, stateDict);
    if (!m)
        return false;
    m_fileModel = std::move(m);
    m_modelPath = path;
    Config c = m_config;
    c.model = ModelKind::File;
    adoptModelSizes(c);
    m_config = c;
    emit inputChanged();
    recompute();
    return true;
}

bool Session::saveModel(const QString& path, QString* error) const
{
    try {
        if (!m_model)
            throw std::invalid_argument(tr("there is no Transformer to save: choose a model in the settings").toStdString());
        attnlab::saveModel(*m_model, path.toStdString());
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = errorText(e);
        return false;
    }
}

void Session::setTarget(const std::optional<QString>& target)
{
    if (target == m_target && !m_error)
        return;
    m_target = target;
    emit decodingChanged();
    if (m_config.model != ModelKind::None)
        recompute();
}

void Session::setGenerationStep(int step)
{
    const int count = static_cast<int>(m_generation.size());
    const int last = count - 1;
    const int wanted = step < 0 || step >= last ? -1 : step;
    if (wanted == m_generationStep)
        return;
    m_generationStep = wanted;
    if (m_computing) {
        recompute(); // the newest input's trace comes with this step
    } else if (isGenerating() && count > 0) {
        m_full = withWarnings(m_generation.step(static_cast<std::size_t>(wanted < 0 ? last : wanted)), m_inputWarnings);
        // B's generation at the same step (made again only when B did not generate: an error).
        if (m_compareGeneration.empty())
            computeComparison();
        else
            showComparisonStep();
        m_projectedBlock.reset();
        project();
        emit traceChanged();
    }
    emit decodingChanged();
}

Eigen::MatrixXf Session::positionalTable(int positions) const
{
    const Config& c = m_trace->config;
    return positionalEncoding(c.positional, std::clamp(positions, 1, ConfigLimits::maxTokens), c.dModel, c.seed);
}

QString Session::error() const
{
    return m_error ? messageText(*m_error) : QString();
}

QString Session::stepId() const
{
    return currentStep().id;
}

void Session::setStep(int step)
{
    step = std::clamp(step, 0, static_cast<int>(steps().size()) - 1);
    if (step == m_step)
        return;
    m_step = step;
    // Another layer or block: the views get that block's stages.
    if (isModel()) {
        const Step& st = currentStep();
        if (st.layer != m_projectedLayer || st.block != m_projectedBlock) {
            project();
            emit traceChanged();
        }
    }
    emit stepChanged(m_step);
}

void Session::setStepId(const QString& id)
{
    if (const int i = stepIndex(id); i >= 0)
        setStep(i);
}

void Session::setHead(int head)
{
    head = std::clamp(head, 0, std::max(0, m_config.heads - 1));
    if (head == m_head)
        return;
    m_head = head;
    emit headChanged(m_head);
}

void Session::nextStep()
{
    setStep(m_step + 1);
}

void Session::previousStep()
{
    setStep(m_step - 1);
}

void Session::selectCell(int row, int column)
{
    if (row == m_selRow && column == m_selCol)
        return;
    m_selRow = row;
    m_selCol = column;
    emit selectionChanged(row, column);
}

void Session::setView(const QString& view)
{
    if (view == m_view)
        return;
    m_view = view;
    emit viewChanged(m_view);
}

void Session::setHighlight(const Highlight& highlight)
{
    if (highlight == m_highlight)
        return;
    m_highlight = highlight;
    emit highlightChanged();
}

void Session::setSharedScoreScale(bool on)
{
    if (on == m_sharedScoreScale)
        return;
    m_sharedScoreScale = on;
    emit sharedScoreScaleChanged(on);
}

} // namespace attnlab

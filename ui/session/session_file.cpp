// Session files (docs/session-format.md): the Session's input, settings and place as JSON.

#include "session/session.h"

#include "io/fileio.h"
#include "io/session_json.h"
#include "session/messages.h"

#include <QFile>

namespace attnlab {

namespace {

/// The imported weights a session file names (embedded, or read from their path), or null for
/// a preset. Throws FormatError for weights that cannot be read.
std::shared_ptr<const AttentionWeights> weightsFrom(const std::optional<SessionWeights>& w)
{
    if (!w)
        return nullptr;
    return std::make_shared<const AttentionWeights>(sessionWeights(*w));
}

} // namespace

std::shared_ptr<const Seq2SeqModel> Session::readModelFile(const QString& path, QString* error,
                                                         const std::optional<StateDictOptions>& stateDict)
{
    try {
        return std::make_shared<const Seq2SeqModel>(openModel(QFile::encodeName(path).toStdString(), stateDict));
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return nullptr;
    }
}

SessionFile Session::snapshot(const std::optional<LessonPlace>& lesson) const
{
    SessionFile f;
    f.sentence = m_sentence.toStdString();
    f.config = m_config;
    if (m_imported) {
        // The path for the user, and the weights themselves so the file travels alone.
        f.weights = SessionWeights{m_weightsPath.toStdString(),
                                   serializeSafetensors(attentionWeightsToTensors(*m_imported, m_config.heads))};
    }
    f.customMask = m_customMask;
    f.step = stepId().toStdString();
    f.head = m_head;
    if (isModel()) {
        // Where in the Transformer, and what the decoder reads.
        const Step& here = currentStep();
        f.transformer = true;
        f.stepLayer = here.layer;
        f.stepBlock = here.block;
        if (m_target)
            f.target = m_target->toStdString();
        f.generationStep = m_generationStep;
    }
    if (m_config.model == ModelKind::File)
        f.modelPath = m_modelPath.toStdString();
    if (lesson)
        f.lesson = SessionLesson{lesson->path.toStdString(), lesson->step};
    if (m_comparisonChosen)
        f.comparison = SessionComparison{m_comparing, toString(m_comparison)};
    return f;
}

bool Session::saveSession(const QString& path, QString* error, const std::optional<LessonPlace>& lesson) const
{
    try {
        writeFileAtomically(QFile::encodeName(path).toStdString(), sessionJson(snapshot(lesson)));
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = errorText(e);
        return false;
    }
}

bool Session::loadSession(const QString& path, QString* error, const LessonOpener& openLesson)
{
    SessionFile f;
    QString why;
    try {
        f = parseSessionJson(readFile(path.toStdString(), kMaxSessionBytes));
    } catch (const std::exception& e) {
        why = errorText(e);
    }
    if (why.isEmpty() && restore(f, &why, openLesson))
        return true;
    if (error)
        *error = tr("Cannot open session %1: %2").arg(path, why);
    return false;
}

bool Session::restore(SessionFile f, QString* error, const LessonOpener& openLesson)
{
    // Everything is read and checked first; the session changes only when all of it is good.
    std::shared_ptr<const AttentionWeights> weights;
    RunResult result;
    std::unique_ptr<GenerationRun> restA, restB; // a generation's steps after the first, in background mode
    std::shared_ptr<const Seq2SeqModel> fileModel = m_fileModel;
    QString modelPath = m_modelPath;
    std::optional<std::pair<bool, Comparison>> comparison; // on, and what B is
    try {
        if ((weights = weightsFrom(f.weights)))
            f.config.dModel = weights->dModel();
        if (f.comparison) // files before comparisons have none
            comparison.emplace(f.comparison->on, parseComparison(f.comparison->b));
        if (f.config.model == ModelKind::File && (QString::fromStdString(f.modelPath) != m_modelPath || !m_fileModel)) {
            modelPath = QString::fromStdString(f.modelPath);
            fileModel = readModelFile(modelPath, error);
            if (!fileModel)
                return false;
        }
        const std::optional<QString> target = f.target ? std::optional(QString::fromStdString(*f.target)) : std::nullopt;
        // The file's computation, once: a file whose parts do not fit together (a 5 x 5 mask for
        // 3 tokens) is refused; a good one's result is what the session shows.
        result = compute(requestFor(QString::fromStdString(f.sentence), f.config, target, weights, f.customMask, fileModel,
                                    f.generationStep),
                         &restA);
    } catch (const std::exception& e) {
        if (error)
            *error = errorText(e);
        return false;
    }

    const bool wasRunning = isGenerationRunning();
    // The lesson first: its step sets a sentence and settings, which the file's then replace.
    if (f.lesson && openLesson)
        openLesson(LessonPlace{QString::fromStdString(f.lesson->path), f.lesson->step});
    // The generation of the input before (or of the lesson's step), if one still runs, is over,
    // and so is a computation of its trace.
    dropGeneration();
    cancelTraceJob();
    m_sentence = QString::fromStdString(f.sentence);
    m_config = f.config;
    m_imported = std::move(weights);
    m_weightsPath = f.weights ? QString::fromStdString(f.weights->path) : QString();
    m_customMask = std::move(f.customMask);
    m_fileModel = std::move(fileModel);
    m_modelPath = modelPath;
    m_target = f.target ? std::optional(QString::fromStdString(*f.target)) : std::nullopt;
    m_generationStep = f.generationStep;
    emit inputChanged();
    emit decodingChanged();
    restoreComparison(comparison, &restB); // B with the file's A, before the views draw them
    install(std::move(result));
    startGeneration(std::move(restA), std::move(restB));
    if (wasRunning && !isGenerationRunning())
        emit generationRunningChanged(false);
    emit comparisonChanged();
    const QString step = QString::fromStdString(f.step);
    if (const int i = stepIndex(step, f.stepLayer, f.stepBlock); i >= 0 && isModel())
        setStep(i);
    else
        setStepId(step);
    setHead(f.head);
    selectCell(-1, -1);
    emit sessionLoaded();
    return true;
}

} // namespace attnlab

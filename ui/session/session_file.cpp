// Session files (docs/session-format.md): the Session's input, settings and place as JSON.

#include "session/session.h"

#include "io/config_json.h"
#include "io/fileio.h"
#include "session/messages.h"

#include <QByteArray>
#include <QFile>

#include <nlohmann/json.hpp>

namespace attnlab {

namespace {

constexpr const char* kSessionFormat = "attention-lab.session";
constexpr int kSessionVersion = 1;
constexpr std::uint64_t kMaxSessionBytes = 512ULL * 1024 * 1024;

/// The imported weights a session file names (embedded, or read from their path), or null for
/// a preset. Throws FormatError or std::runtime_error for weights that cannot be read.
std::shared_ptr<const AttentionWeights> weightsFromJson(const nlohmann::json& w, QString& weightsPath)
{
    if (w.value("source", "") != "file")
        return nullptr;
    weightsPath = QString::fromStdString(w.value("path", ""));
    AttentionWeights loaded;
    if (w.contains("embedded_safetensors_base64")) {
        const QByteArray bytes = QByteArray::fromBase64(QByteArray::fromStdString(w.at("embedded_safetensors_base64").get<std::string>()));
        loaded = attentionWeightsFromTensors(parseSafetensors(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size()))));
        loaded.source = "file:" + weightsPath.toStdString();
    } else {
        loaded = loadAttentionWeights(weightsPath.toStdString());
    }
    return std::make_shared<const AttentionWeights>(std::move(loaded));
}

/// A session file's custom mask (rows of 0/1). Throws std::invalid_argument when it is not square.
BoolMatrix maskFromJson(const nlohmann::json& j)
{
    const auto rows = j.get<std::vector<std::vector<int>>>();
    BoolMatrix m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.size()));
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (rows[r].size() != rows.size())
            throw std::invalid_argument(Session::tr("custom_mask is not square").toStdString());
        for (std::size_t c = 0; c < rows.size(); ++c)
            m(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = rows[r][c] != 0;
    }
    return m;
}

/// Where the user was when a session file was saved.
struct Place {
    QString step;              ///< the stage's id
    std::optional<int> layer;  ///< its layer and block, for a Transformer
    Block block = Block::None;
    int head = 0;
    std::optional<LessonPlace> lesson; ///< the lesson playing (files written before lessons were kept have none)
};

/// A session file's place. Throws nlohmann::json errors or std::invalid_argument for a malformed one.
Place placeFromJson(const nlohmann::json& j)
{
    Place p;
    p.step = QString::fromStdString(j.value("step", "weights"));
    p.head = j.value("head", 0);
    if (j.contains("step_layer") && j.at("step_layer").is_number_integer())
        p.layer = j.at("step_layer").get<int>();
    p.block = parseBlock(j.value("step_block", "")).value_or(Block::None);
    if (j.contains("lesson") && !j.at("lesson").is_null()) {
        const auto& l = j.at("lesson");
        p.lesson = LessonPlace{QString::fromStdString(l.at("path").get<std::string>()), l.value("step", 0)};
        if (p.lesson->path.isEmpty() || p.lesson->step < 0)
            throw std::invalid_argument(Session::tr("the lesson's path is empty or its step is negative").toStdString());
    }
    return p;
}

} // namespace

std::shared_ptr<const Seq2SeqModel> Session::readModelFile(const QString& path, QString* error)
{
    try {
        return std::make_shared<const Seq2SeqModel>(loadModel(path.toStdString()));
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return nullptr;
    }
}

bool Session::saveSession(const QString& path, QString* error, const std::optional<LessonPlace>& lesson) const
{
    nlohmann::ordered_json j;
    j["format"] = kSessionFormat;
    j["version"] = kSessionVersion;
    j["sentence"] = m_sentence.toStdString();
    j["config"] = configToJson(m_config);
    if (m_imported) {
        // The path for the user, and the weights themselves so the file travels alone.
        const std::string bytes = serializeSafetensors(attentionWeightsToTensors(*m_imported, m_config.heads));
        j["weights"] = {{"source", "file"},
                        {"path", m_weightsPath.toStdString()},
                        {"embedded_safetensors_base64",
                         QByteArray::fromRawData(bytes.data(), static_cast<qsizetype>(bytes.size())).toBase64().toStdString()}};
    } else {
        j["weights"] = {{"source", toString(m_config.weightsPreset)}};
    }
    if (m_customMask) {
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (Eigen::Index i = 0; i < m_customMask->rows(); ++i) {
            std::vector<int> row;
            for (Eigen::Index k = 0; k < m_customMask->cols(); ++k)
                row.push_back((*m_customMask)(i, k) ? 1 : 0);
            rows.push_back(row);
        }
        j["custom_mask"] = rows;
    } else {
        j["custom_mask"] = nullptr;
    }
    j["step"] = stepId().toStdString();
    j["head"] = m_head;
    if (isModel()) {
        // Where in the Transformer, and what the decoder reads.
        const Step& here = currentStep();
        j["step_layer"] = here.layer ? nlohmann::ordered_json(*here.layer) : nlohmann::ordered_json(nullptr);
        j["step_block"] = std::string(toString(here.block));
        j["target"] = m_target ? nlohmann::ordered_json(m_target->toStdString()) : nlohmann::ordered_json(nullptr);
        j["generation_step"] = m_generationStep;
        if (m_config.model == ModelKind::File)
            j["model_path"] = m_modelPath.toStdString();
    }
    if (lesson)
        j["lesson"] = {{"path", lesson->path.toStdString()}, {"step", lesson->step}};
    if (m_comparisonChosen)
        j["comparison"] = {{"on", m_comparing}, {"b", toString(m_comparison)}};
    try {
        writeFileAtomically(QFile::encodeName(path).toStdString(), j.dump(1) + "\n");
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = errorText(e);
        return false;
    }
}

bool Session::loadSession(const QString& path, QString* error, const LessonOpener& openLesson)
{
    const auto fail = [&](const QString& why) {
        if (error)
            *error = tr("Cannot open session %1: %2").arg(path, why);
        return false;
    };
    // Everything is read and checked first; the session changes only when all of it is good.
    QString sentence;
    Config config;
    std::shared_ptr<const AttentionWeights> weights;
    QString weightsPath;
    std::optional<BoolMatrix> mask;
    Place place;
    RunResult result;
    std::optional<QString> target;
    int generationStep = -1;
    std::shared_ptr<const Seq2SeqModel> fileModel = m_fileModel;
    QString modelPath = m_modelPath;
    std::optional<std::pair<bool, Comparison>> comparison; // on, and what B is
    try {
        const auto j = nlohmann::json::parse(readFile(path.toStdString(), kMaxSessionBytes));
        if (!j.is_object() || j.value("format", "") != kSessionFormat)
            return fail(tr("not an Attention Lab session file"));
        if (j.value("version", 0) != kSessionVersion)
            return fail(tr("unsupported version %1").arg(QString::fromStdString(j.value("version", nlohmann::json()).dump())));
        sentence = QString::fromStdString(j.at("sentence").get<std::string>());
        config = configFromJson(j.at("config"));
        if (auto w = weightsFromJson(j.at("weights"), weightsPath)) {
            weights = std::move(w);
            config.dModel = weights->dModel();
        }
        if (j.contains("custom_mask") && !j.at("custom_mask").is_null())
            mask = maskFromJson(j.at("custom_mask"));
        place = placeFromJson(j);
        if (j.contains("target") && j.at("target").is_string())
            target = QString::fromStdString(j.at("target").get<std::string>());
        generationStep = j.value("generation_step", -1);
        if (j.contains("comparison") && !j.at("comparison").is_null()) // files before comparisons have none
            comparison.emplace(j.at("comparison").value("on", false), parseComparison(j.at("comparison").at("b").get<std::string>()));
        if (config.model == ModelKind::File) {
            QString why;
            modelPath = QString::fromStdString(j.value("model_path", ""));
            fileModel = readModelFile(modelPath, &why);
            if (!fileModel)
                return fail(why);
        }
        // The file's computation, once: a file whose parts do not fit together (a 5 x 5 mask for
        // 3 tokens) is refused; a good one's result is what the session shows.
        result = run(requestFor(sentence, config, target, weights, mask, fileModel, generationStep));
    } catch (const std::exception& e) {
        return fail(QString::fromUtf8(e.what()));
    }

    // The lesson first: its step sets a sentence and settings, which the file's then replace.
    if (place.lesson && openLesson)
        openLesson(*place.lesson);
    m_sentence = sentence;
    m_config = config;
    m_imported = std::move(weights);
    m_weightsPath = weightsPath;
    m_customMask = std::move(mask);
    m_fileModel = std::move(fileModel);
    m_modelPath = modelPath;
    m_target = target;
    m_generationStep = generationStep;
    emit inputChanged();
    emit decodingChanged();
    restoreComparison(comparison); // B with the file's A, before the views draw them
    install(std::move(result));
    emit comparisonChanged();
    if (const int i = stepIndex(place.step, place.layer, place.block); i >= 0 && isModel())
        setStep(i);
    else
        setStepId(place.step);
    setHead(place.head);
    selectCell(-1, -1);
    return true;
}


} // namespace attnlab

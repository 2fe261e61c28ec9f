#include "session.h"

#include "config_json.h"
#include "embedding.h"
#include "fileio.h"
#include "stages.h"

#include <QByteArray>

#include <nlohmann/json.hpp>

namespace attnlab {

namespace {

constexpr const char* kSessionFormat = "attention-lab.session";
constexpr int kSessionVersion = 1;
constexpr std::uint64_t kMaxSessionBytes = 512ULL * 1024 * 1024;

} // namespace

Session::Session(QObject* parent)
    : QObject(parent)
    , m_sentence(QString::fromUtf8(kDefaultSentence))
{
    m_step = stepIndex(QStringLiteral("weights"));
    recompute();
}

void Session::setSentence(const QString& sentence)
{
    if (sentence == m_sentence && m_error.isEmpty())
        return;
    m_sentence = sentence;
    emit inputChanged();
    recompute();
}

void Session::setConfig(const Config& config)
{
    if (config == m_config && m_error.isEmpty())
        return;
    m_config = config;
    emit inputChanged();
    recompute();
}

void Session::setLessonInput(const std::optional<QString>& sentence, const Config& config)
{
    if (sentence)
        m_sentence = *sentence;
    m_config = config;
    m_imported.reset();
    m_weightsPath.clear();
    m_customMask.reset();
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
            *error = QString::fromUtf8(e.what());
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
    try {
        setCustomMask(parseMaskText(readFile(path.toStdString(), 64ULL * 1024 * 1024)));
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = tr("Mask file %1: %2").arg(path, QString::fromUtf8(e.what()));
        return false;
    }
}

std::shared_ptr<const AttentionWeights> Session::weightsFor(const Config& c)
{
    if (m_imported)
        return m_imported;
    const bool cached = m_presetCache && m_presetCacheKey.weightsPreset == c.weightsPreset
        && m_presetCacheKey.dModel == c.dModel && m_presetCacheKey.seed == c.seed;
    if (!cached) {
        m_presetCache = std::make_shared<const AttentionWeights>(presetWeights(c.weightsPreset, c.dModel, c.seed));
        m_presetCacheKey = c;
    }
    return m_presetCache;
}

void Session::recompute()
{
    try {
        Request r;
        r.sentence = m_sentence.toStdString();
        r.config = m_config;
        r.config.validate(); // before weightsFor: never make weights for an invalid width
        r.weights = weightsFor(m_config);
        r.customMask = m_customMask;
        m_trace = std::make_shared<const Trace>(computeTrace(r));
        m_error.clear();
        if (m_head >= m_trace->config.heads)
            setHead(m_trace->config.heads - 1);
        const auto n = static_cast<int>(m_trace->tokens.size());
        if (m_selRow >= n || m_selCol >= std::max(n, m_trace->config.dModel))
            selectCell(-1, -1);
        emit traceChanged();
    } catch (const std::exception& e) {
        m_error = QString::fromUtf8(e.what());
        emit errorOccurred(m_error);
    }
}

Eigen::MatrixXf Session::positionalTable(int positions) const
{
    const Config& c = m_trace->config;
    return positionalEncoding(c.positional, std::clamp(positions, 1, ConfigLimits::maxTokens), c.dModel, c.seed);
}

QString Session::stepId() const
{
    return steps()[static_cast<std::size_t>(m_step)].id;
}

void Session::setStep(int step)
{
    step = std::clamp(step, 0, static_cast<int>(steps().size()) - 1);
    if (step == m_step)
        return;
    m_step = step;
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

bool Session::saveSession(const QString& path, QString* error) const
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
    try {
        writeFileAtomically(path.toStdString(), j.dump(1) + "\n");
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
}

bool Session::loadSession(const QString& path, QString* error)
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
    QString step;
    int head = 0;
    std::shared_ptr<const Trace> trace;
    try {
        const auto j = nlohmann::json::parse(readFile(path.toStdString(), kMaxSessionBytes));
        if (!j.is_object() || j.value("format", "") != kSessionFormat)
            return fail(tr("not an Attention Lab session file"));
        if (j.value("version", 0) != kSessionVersion)
            return fail(tr("unsupported version %1").arg(QString::fromStdString(j.value("version", nlohmann::json()).dump())));
        sentence = QString::fromStdString(j.at("sentence").get<std::string>());
        config = configFromJson(j.at("config"));
        const auto& w = j.at("weights");
        if (w.value("source", "") == "file") {
            weightsPath = QString::fromStdString(w.value("path", ""));
            AttentionWeights loaded;
            if (w.contains("embedded_safetensors_base64")) {
                const QByteArray bytes = QByteArray::fromBase64(QByteArray::fromStdString(w.at("embedded_safetensors_base64").get<std::string>()));
                loaded = attentionWeightsFromTensors(parseSafetensors(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size()))));
                loaded.source = "file:" + weightsPath.toStdString();
            } else {
                loaded = loadAttentionWeights(weightsPath.toStdString());
            }
            weights = std::make_shared<const AttentionWeights>(std::move(loaded));
            config.dModel = weights->dModel();
        }
        if (j.contains("custom_mask") && !j.at("custom_mask").is_null()) {
            const auto rows = j.at("custom_mask").get<std::vector<std::vector<int>>>();
            BoolMatrix m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.size()));
            for (std::size_t r = 0; r < rows.size(); ++r) {
                if (rows[r].size() != rows.size())
                    return fail(tr("custom_mask is not square"));
                for (std::size_t c = 0; c < rows.size(); ++c)
                    m(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = rows[r][c] != 0;
            }
            mask = std::move(m);
        }
        step = QString::fromStdString(j.value("step", "weights"));
        head = j.value("head", 0);
        // A file whose parts do not fit together (a 5 x 5 mask for 3 tokens) is refused too.
        Request r;
        r.sentence = sentence.toStdString();
        r.config = config;
        r.config.validate();
        r.weights = weights ? weights : weightsFor(config);
        r.customMask = mask;
        trace = std::make_shared<const Trace>(computeTrace(r));
    } catch (const std::exception& e) {
        return fail(QString::fromUtf8(e.what()));
    }

    m_sentence = sentence;
    m_config = config;
    m_imported = std::move(weights);
    m_weightsPath = weightsPath;
    m_customMask = std::move(mask);
    m_trace = std::move(trace);
    m_error.clear();
    emit inputChanged();
    emit traceChanged();
    setStepId(step);
    setHead(head);
    selectCell(-1, -1);
    return true;
}

} // namespace attnlab

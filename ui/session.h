#pragma once
// The Session owns what the user typed and chose (sentence, settings, weights, mask) and where
// they are (step, head, selected cell), calls the engine, and keeps the latest Trace. It is the
// only object that calls the engine and the only place that catches engine exceptions; views
// observe it through its signals and never call the engine themselves.

#include "attention.h"
#include "lesson.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

namespace attnlab {

class Session : public QObject {
    Q_OBJECT
public:
    explicit Session(QObject* parent = nullptr);

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

    // --- output ------------------------------------------------------------------------
    /// The latest successful trace (never null).
    const std::shared_ptr<const Trace>& trace() const { return m_trace; }
    /// The positional encoding of the current settings for `positions` positions (for plots
    /// that show more positions than the sentence has).
    Eigen::MatrixXf positionalTable(int positions) const;
    /// The message of the last failed computation; empty when the last one succeeded.
    const QString& error() const { return m_error; }

    // --- where the user is ---------------------------------------------------------------
    /// Index into steps() (ui/stages.h).
    int step() const { return m_step; }
    QString stepId() const;
    /// 0-based head shown by per-head stages.
    int head() const { return m_head; }
    void setStep(int step);
    void setStepId(const QString& id);
    void setHead(int head);
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

    // --- files ---------------------------------------------------------------------------
    /// Saves sentence, settings, weights (path and embedded copy), mask, step and head as JSON
    /// (docs/session-format.md). Crash-safe: an earlier file survives a failed write.
    bool saveSession(const QString& path, QString* error) const;
    /// Opens a session file. A missing, unreadable, corrupt or invalid file returns false with
    /// the reason and leaves the session exactly as it was.
    bool loadSession(const QString& path, QString* error);

signals:
    void traceChanged();
    void errorOccurred(const QString& message);
    void stepChanged(int step);
    void headChanged(int head);
    void selectionChanged(int row, int column);
    void viewChanged(const QString& view);
    void highlightChanged();
    /// Sentence, config, weights or mask changed (for widgets that show the input).
    void inputChanged();

private:
    void recompute();
    std::shared_ptr<const AttentionWeights> weightsFor(const Config& c);

    QString m_sentence;
    Config m_config;
    std::shared_ptr<const AttentionWeights> m_imported;
    QString m_weightsPath;
    std::optional<BoolMatrix> m_customMask;
    // Preset weights are megabytes of random numbers: made once per (preset, d_model, seed).
    std::shared_ptr<const AttentionWeights> m_presetCache;
    Config m_presetCacheKey;
    std::shared_ptr<const Trace> m_trace;
    QString m_error;
    int m_step = 0;
    int m_head = 0;
    int m_selRow = -1;
    int m_selCol = -1;
    QString m_view = QStringLiteral("stage");
    Highlight m_highlight;
};

} // namespace attnlab

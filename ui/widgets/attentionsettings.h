#pragma once
// The settings panel's "Attention" rows (issue 13): the attention kind (full, sliding window,
// BigBird, strided, Linformer, Performer, linear, LSH, FlashAttention) and, shown only for the kind
// chosen, its options (window, dilation, global positions, random keys, stride, K, M, buckets,
// chunk, the query and key blocks). The rows sit in the panel's own form, so they line up with
// the other settings; the panel reads them into its Config (applyTo) and shows the Session's
// (showSpec). A kind other than full is
// for one attention block and for seeded encoder stacks: for any other model the rows are
// greyed out and the kind is full.

#include "core/config.h"

#include <QObject>
#include <QString>

#include <optional>
#include <vector>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
class QWidget;

namespace attnlab {

class AttentionSettings : public QObject {
    Q_OBJECT
public:
    /// Makes the rows' widgets as children of `panel`.
    explicit AttentionSettings(QWidget* panel);

    /// Appends the kind's row and the option rows to `form`.
    void addRows(QFormLayout* form);
    /// Sets every text again (the panel's language change).
    void retranslate();
    /// Shows `spec`'s kind and options without emitting changed(); `usable`: the model in use can
    /// take a kind other than full (otherwise the rows are greyed out, showing full).
    void showSpec(const ModelSpec& spec, bool usable);
    /// Writes the kind and options chosen into `spec` (full when `usable` is false). Returns false,
    /// with the reason under the field, when the global positions cannot be read.
    bool applyTo(ModelSpec& spec, bool usable);

    /// "0, 5" → {0, 5}: whole numbers separated by commas or spaces; nothing for anything else.
    static std::optional<std::vector<int>> parsePositions(const QString& text);
    /// {0, 5} → "0, 5".
    static QString positionsText(const std::vector<int>& positions);
    /// True when a run with these settings can use a kind other than full: one attention block,
    /// or a seeded encoder stack (core/config.cpp's rule).
    static bool usableWith(const Config& config);

    QComboBox* kindBox() const { return m_kind; }
    QSpinBox* windowBox() const { return m_window; }
    QSpinBox* dilationBox() const { return m_dilation; }
    QLineEdit* globalEdit() const { return m_global; }
    QSpinBox* randomBox() const { return m_random; }
    QSpinBox* strideBox() const { return m_stride; }
    QSpinBox* projDimBox() const { return m_projDim; }
    QSpinBox* featuresBox() const { return m_features; }
    QSpinBox* bucketsBox() const { return m_buckets; }
    QSpinBox* chunkBox() const { return m_chunk; }
    QSpinBox* queryBlockBox() const { return m_queryBlock; }
    QSpinBox* keyBlockBox() const { return m_keyBlock; }
    /// Why the global positions could not be read (empty when they could).
    QString globalError() const;

signals:
    /// The user changed the kind or one of its options.
    void changed();

private:
    /// Shows the option rows of the kind chosen and hides the others.
    void showRowsOfKind();

    QFormLayout* m_form = nullptr;
    QComboBox* m_kind;
    QSpinBox* m_window;
    QSpinBox* m_dilation;
    QLineEdit* m_global;
    QLabel* m_globalError;
    QSpinBox* m_random;
    QSpinBox* m_stride;
    QSpinBox* m_projDim;
    QSpinBox* m_features;
    QSpinBox* m_buckets;
    QSpinBox* m_chunk;
    QSpinBox* m_queryBlock;
    QSpinBox* m_keyBlock;
    bool m_usable = true;
};

} // namespace attnlab

#pragma once
// The settings panel: d_model, heads (only divisors of d_model are offered, d_k shown as
// derived), seed, positional encoding, scalings, mask, padding, max tokens and the weights. Every change
// goes to the Session; the panel follows the Session when the input changes elsewhere.

#include "core/config.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QSpinBox;

namespace attnlab {

class AttentionSettings;
class Session;

class SettingsPanel : public QWidget {
    Q_OBJECT
public:
    explicit SettingsPanel(Session* session, QWidget* parent = nullptr);

    QSpinBox* dModelBox() const { return m_dModel; }
    QSpinBox* seedBox() const { return m_seed; }
    QComboBox* headsBox() const { return m_heads; }
    QComboBox* maskBox() const { return m_mask; }
    QComboBox* weightsBox() const { return m_weights; }
    QComboBox* positionalBox() const { return m_positional; }
    /// RoPE's base B (shown with RoPE only) and relative positions' K (shown with relative only).
    QDoubleSpinBox* ropeBaseBox() const { return m_ropeBase; }
    QSpinBox* maxDistanceBox() const { return m_maxDistance; }
    /// Transformer-XL's L and M (shown with Transformer-XL only; M's −1 reads "= L").
    QSpinBox* xlSegmentBox() const { return m_xlSegment; }
    QSpinBox* xlMemoryBox() const { return m_xlMemory; }
    QCheckBox* scaleBox() const { return m_scale; }
    QSpinBox* padToBox() const { return m_padTo; }
    /// The longest input, in tokens (Config::maxTokens, 1 … 1024).
    QSpinBox* maxTokensBox() const { return m_maxTokens; }
    /// none (one attention block), reversal (the shipped model), seeded, file.
    QComboBox* modelBox() const { return m_model; }
    QSpinBox* layersBox() const { return m_layers; }
    QSpinBox* dFFBox() const { return m_dFF; }
    QComboBox* normBox() const { return m_norm; }
    QComboBox* activationBox() const { return m_activation; }
    /// The attention kind and its options (widgets/attentionsettings.h).
    AttentionSettings* attentionSettings() const { return m_kinds; }

signals:
    /// The user asked for a file dialog (the main window owns dialogs and their messages).
    void openWeightsRequested();
    void saveWeightsRequested();
    void openMaskRequested();
    void openModelRequested();

protected:
    /// A language change writes every text again.
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void addModelRows(QFormLayout* form);
    void addAttentionRows(QFormLayout* form);
    void addMaskRows(QFormLayout* form);
    void addWeightsRows(QFormLayout* form);
    void connectControls();
    /// Greys out what a trained model fixes (positions, embedding scale, seed), with the reason.
    void showWhatTheModelOwns(bool fixed);
    /// The Transformer's rows (shown with a model, editable for a seeded one, an opened model's
    /// own sizes), and what a model or imported weights fix.
    void showModelRows(const Config& c, bool imported);
    /// Greys the choices that cannot go with the rest of `c`, each with the reason as its tooltip.
    void greyWhatCannotCombine(const Config& c);
    /// "d_k = 8": a modern decoder's head_dim, else d_model / heads.
    QString dKText(const Config& c) const;
    void syncFromSession();
    void apply();
    void fillHeads(int dModel, int preferred);
    /// Shows the settings rows of position scheme `p` and hides the others'.
    void showPositionRows(PositionalEncoding p);
    /// Shows `c`'s position settings (without applying them) and their rows.
    void showPositionSettings(const Config& c);

    Session* m_session;
    QSpinBox* m_dModel;
    QComboBox* m_heads;
    QHBoxLayout* m_headsRow = nullptr;
    QLabel* m_dK;
    QSpinBox* m_seed;
    QComboBox* m_positional;
    QDoubleSpinBox* m_ropeBase;
    QSpinBox* m_maxDistance;
    QSpinBox* m_xlSegment;
    QSpinBox* m_xlMemory;
    QCheckBox* m_embedScale;
    QCheckBox* m_scale;
    QComboBox* m_mask;
    QSpinBox* m_padTo;
    QSpinBox* m_maxTokens;
    QComboBox* m_weights;
    QPushButton* m_openWeights;
    QPushButton* m_saveWeights;
    QPushButton* m_openMask;
    QLabel* m_weightsInfo;
    QComboBox* m_model;
    QSpinBox* m_layers;
    QSpinBox* m_dFF;
    QComboBox* m_norm;
    QComboBox* m_activation;
    QLabel* m_modelInfo;
    AttentionSettings* m_kinds;
    bool m_syncing = false;
    int m_wantedHeads = 1; ///< the head count last chosen (by the user, or the session's)
};

} // namespace attnlab

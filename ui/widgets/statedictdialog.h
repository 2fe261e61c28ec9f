#pragma once
// Asks what a bare PyTorch state dict cannot say (model/state_dict.h): its heads, where its
// LayerNorms stand, its activation and ε. d_model, d_ff and the layers come from the file.

#include "model/state_dict.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace attnlab {

class StateDictDialog : public QDialog {
    Q_OBJECT

public:
    /// `fileName` is shown in the question; `dModel`, when known, limits the heads to its divisors.
    StateDictDialog(const QString& fileName, QWidget* parent = nullptr);

    StateDictOptions options() const;

    /// Shows the dialog; nothing when the user cancels.
    static std::optional<StateDictOptions> ask(const QString& fileName, QWidget* parent);

private:
    QSpinBox* m_heads;
    QComboBox* m_norm;
    QComboBox* m_activation;
    QDoubleSpinBox* m_eps;
};

} // namespace attnlab

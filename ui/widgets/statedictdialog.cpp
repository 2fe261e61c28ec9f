#include "widgets/statedictdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace attnlab {

StateDictDialog::StateDictDialog(const QString& fileName, QWidget* parent)
    : QDialog(parent)
    , m_heads(new QSpinBox(this))
    , m_norm(new QComboBox(this))
    , m_activation(new QComboBox(this))
    , m_eps(new QDoubleSpinBox(this))
{
    setWindowTitle(tr("Open a PyTorch state dict"));
    auto* text = new QLabel(tr("%1 has no Attention Lab metadata: it is read as the state dict of PyTorch's "
                               "nn.TransformerEncoderLayer, nn.TransformerEncoder, nn.TransformerDecoderLayer or "
                               "nn.Transformer. Its widths and layers come from its shapes; say what they cannot tell. "
                               "The embeddings are seeded.")
                                .arg(fileName),
                            this);
    text->setWordWrap(true);
    m_heads->setRange(1, ConfigLimits::maxHeads);
    m_heads->setValue(4);
    m_heads->setToolTip(tr("nhead: the number of attention heads (d_model must be a multiple of it)"));
    m_norm->addItem(tr("after each sublayer (Post-LN, norm_first=False)"), static_cast<int>(NormPlacement::Post));
    m_norm->addItem(tr("before each sublayer (Pre-LN, norm_first=True)"), static_cast<int>(NormPlacement::Pre));
    m_activation->addItem(QStringLiteral("ReLU"), static_cast<int>(Activation::Relu));
    m_activation->addItem(QStringLiteral("GELU"), static_cast<int>(Activation::Gelu));
    m_eps->setDecimals(9);
    m_eps->setRange(1e-9, 0.1);
    m_eps->setSingleStep(1e-6);
    m_eps->setValue(1e-5);
    auto* form = new QFormLayout;
    form->addRow(tr("&Heads:"), m_heads);
    form->addRow(tr("&LayerNorm:"), m_norm);
    form->addRow(tr("&Activation:"), m_activation);
    form->addRow(tr("LayerNorm &\u03B5:"), m_eps);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(text);
    layout->addLayout(form);
    layout->addWidget(buttons);
    m_heads->setFocus();
}

StateDictOptions StateDictDialog::options() const
{
    StateDictOptions o;
    o.heads = m_heads->value();
    o.norm = static_cast<NormPlacement>(m_norm->currentData().toInt());
    o.activation = static_cast<Activation>(m_activation->currentData().toInt());
    o.layerNormEps = static_cast<float>(m_eps->value());
    return o;
}

std::optional<StateDictOptions> StateDictDialog::ask(const QString& fileName, QWidget* parent)
{
    StateDictDialog d(fileName, parent);
    if (d.exec() != QDialog::Accepted)
        return std::nullopt;
    return d.options();
}

} // namespace attnlab

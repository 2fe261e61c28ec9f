#include "widgets/settingspanel.h"

#include "model/model.h"
#include "session/messages.h"
#include "session/session.h"
#include "session/stages.h"
#include "widgets/attentionsettings.h"
#include "widgets/comboitems.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>

namespace attnlab {

namespace {

constexpr int kFromFile = 2; // index of "from file" in the weights combo

template <typename Enum>
void selectData(QComboBox* box, Enum value)
{
    box->setCurrentIndex(box->findData(static_cast<int>(value)));
}

} // namespace

SettingsPanel::SettingsPanel(Session* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_dModel(new QSpinBox(this))
    , m_heads(new QComboBox(this))
    , m_dK(new QLabel(this))
    , m_seed(new QSpinBox(this))
    , m_positional(new QComboBox(this))
    , m_ropeBase(new QDoubleSpinBox(this))
    , m_maxDistance(new QSpinBox(this))
    , m_xlSegment(new QSpinBox(this))
    , m_xlMemory(new QSpinBox(this))
    , m_embedScale(new QCheckBox(this))
    , m_scale(new QCheckBox(this))
    , m_mask(new QComboBox(this))
    , m_padTo(new QSpinBox(this))
    , m_maxTokens(new QSpinBox(this))
    , m_weights(new QComboBox(this))
    , m_openWeights(new QPushButton(this))
    , m_saveWeights(new QPushButton(this))
    , m_openMask(new QPushButton(this))
    , m_weightsInfo(new QLabel(this))
    , m_model(new QComboBox(this))
    , m_layers(new QSpinBox(this))
    , m_dFF(new QSpinBox(this))
    , m_norm(new QComboBox(this))
    , m_activation(new QComboBox(this))
    , m_modelInfo(new QLabel(this))
    , m_kinds(new AttentionSettings(this))
{
    auto* form = new QFormLayout(this);
    addModelRows(form);
    addAttentionRows(form);
    addMaskRows(form);
    addWeightsRows(form);
    // A spin box commits its value on Return, on leaving it and on its arrows, not on every
    // keystroke: typing "16" must not pass through d_model = 1 (which allows only one head).
    for (QSpinBox* box : {m_dModel, m_seed, m_padTo, m_maxTokens, m_layers, m_dFF, m_maxDistance, m_xlSegment, m_xlMemory})
        box->setKeyboardTracking(false);
    m_ropeBase->setKeyboardTracking(false);
    retranslate();
    connectControls();
    connect(session, &Session::inputChanged, this, &SettingsPanel::syncFromSession);
    connect(session, &Session::traceChanged, this, &SettingsPanel::syncFromSession);
}

// The rows are made here with their values; retranslate() writes every text.

void SettingsPanel::addModelRows(QFormLayout* form)
{
    // What is computed: one attention block, or a whole encoder–decoder.
    for (const ModelKind m : {ModelKind::None, ModelKind::Reversal, ModelKind::Seeded, ModelKind::File})
        m_model->addItem(QString(), static_cast<int>(m));
    form->addRow(new QLabel(this), m_model);
    m_layers->setRange(1, ConfigLimits::maxLayers);
    form->addRow(new QLabel(this), m_layers);
    m_dFF->setRange(0, ConfigLimits::maxDFF);
    form->addRow(new QLabel(this), m_dFF);
    m_norm->addItem(QString(), static_cast<int>(NormPlacement::Post));
    m_norm->addItem(QString(), static_cast<int>(NormPlacement::Pre));
    form->addRow(new QLabel(this), m_norm);
    m_activation->addItem(QStringLiteral("ReLU"), static_cast<int>(Activation::Relu));
    m_activation->addItem(QStringLiteral("GELU"), static_cast<int>(Activation::Gelu));
    // GPT-2's: shown for an opened GPT-2, not a choice for a seeded model.
    m_activation->addItem(QStringLiteral("GELU (tanh)"), static_cast<int>(Activation::GeluTanh));
    form->addRow(new QLabel(this), m_activation);
    m_modelInfo->setWordWrap(true);
    // A form layout does not grow a row for wrapped text: room for three lines, so it never
    // runs into the row below.
    m_modelInfo->setMinimumHeight(3 * m_modelInfo->fontMetrics().lineSpacing());
    form->addRow(m_modelInfo);
}

void SettingsPanel::addAttentionRows(QFormLayout* form)
{
    m_dModel->setRange(1, ConfigLimits::maxDModel);
    form->addRow(new QLabel(this), m_dModel);
    m_headsRow = new QHBoxLayout;
    m_headsRow->addWidget(m_heads, 1);
    m_headsRow->addWidget(m_dK);
    form->addRow(new QLabel(this), m_headsRow);
    m_seed->setRange(0, 999999);
    form->addRow(new QLabel(this), m_seed);
    for (const PositionalEncoding p : {PositionalEncoding::Sinusoidal, PositionalEncoding::Learned, PositionalEncoding::None,
                                       PositionalEncoding::Rope, PositionalEncoding::Alibi, PositionalEncoding::Relative,
                                       PositionalEncoding::Xl})
        m_positional->addItem(QString(), static_cast<int>(p));
    form->addRow(new QLabel(this), m_positional);
    // The schemes' own settings, each shown only with its scheme (showPositionRows).
    m_ropeBase->setRange(2, 1e9);
    m_ropeBase->setDecimals(0);
    m_ropeBase->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    form->addRow(new QLabel(this), m_ropeBase);
    m_maxDistance->setRange(1, ConfigLimits::maxTokens);
    form->addRow(new QLabel(this), m_maxDistance);
    m_xlSegment->setRange(1, ConfigLimits::maxTokens);
    form->addRow(new QLabel(this), m_xlSegment);
    m_xlMemory->setRange(-1, ConfigLimits::maxTokens); // −1: as many rows as a segment
    form->addRow(new QLabel(this), m_xlMemory);
    form->addRow(m_embedScale);
    form->addRow(m_scale);
    m_kinds->addRows(form);
}

void SettingsPanel::addMaskRows(QFormLayout* form)
{
    for (const MaskKind m : {MaskKind::None, MaskKind::Causal, MaskKind::Padding, MaskKind::CausalPadding, MaskKind::Custom})
        m_mask->addItem(QString(), static_cast<int>(m));
    form->addRow(new QLabel(this), m_mask);
    form->addRow(QString(), m_openMask);
    m_padTo->setRange(0, ConfigLimits::maxTokens);
    form->addRow(new QLabel(this), m_padTo);
    m_maxTokens->setRange(1, ConfigLimits::maxTokens);
    form->addRow(new QLabel(this), m_maxTokens);
}

void SettingsPanel::addWeightsRows(QFormLayout* form)
{
    m_weights->addItem(QString(), static_cast<int>(WeightsPreset::Seeded));
    m_weights->addItem(QString(), static_cast<int>(WeightsPreset::Identity));
    m_weights->addItem(QString(), -1);
    form->addRow(new QLabel(this), m_weights);
    auto* weightButtons = new QHBoxLayout;
    weightButtons->addWidget(m_openWeights);
    weightButtons->addWidget(m_saveWeights);
    form->addRow(QString(), weightButtons);
    m_weightsInfo->setWordWrap(true);
    form->addRow(m_weightsInfo);
}

void SettingsPanel::retranslate()
{
    auto* form = static_cast<QFormLayout*>(layout());
    const auto label = [form](auto* field, const QString& text) {
        if (auto* l = qobject_cast<QLabel*>(form->labelForField(field)))
            l->setText(text);
    };
    const auto items = [](QComboBox* box, const QStringList& texts) {
        for (int i = 0; i < texts.size() && i < box->count(); ++i)
            box->setItemText(i, texts[i]);
    };
    label(m_model, tr("Model"));
    items(m_model, {tr("one attention block"), tr("Transformer: trained (reversal)"), tr("Transformer: seeded weights"),
                    tr("Transformer: from file\u2026")});
    m_model->setToolTip(tr("A trained or seeded encoder\u2013" "decoder adds Add & Norm, the feed-forward network, "
                           "stacked layers, cross-attention and generation"));
    label(m_layers, tr("Layers"));
    m_layers->setToolTip(tr("Encoder layers and decoder layers, as many of each: every layer lets each token gather context "
                            "again, from vectors the layer before already mixed"));
    label(m_dFF, tr("d_ff"));
    m_dFF->setSpecialValueText(tr("4 \u00D7 d_model"));
    m_dFF->setToolTip(tr("Hidden width of the feed-forward network (4 \u00D7 d_model in the paper): the room each token "
                         "gets to transform what attention gathered"));
    label(m_norm, tr("LayerNorm"));
    items(m_norm, {tr("Post-LN (the paper)"), tr("Pre-LN")});
    m_norm->setToolTip(tr("Where LayerNorm sits: after each residual sum (Post-LN, the paper) or before each sublayer "
                          "(Pre-LN, which keeps deep stacks stable to train)"));
    label(m_activation, tr("Activation"));
    m_activation->setToolTip(tr("The feed-forward network's nonlinearity: ReLU (the paper) sets negative values to 0; "
                                "GELU bends smoothly near 0 (BERT, GPT)"));

    label(m_dModel, tr("d_model"));
    m_dModel->setToolTip(tr("Width of every token vector: more dimensions hold more features, and each head gets "
                            "d_model / heads of them"));
    label(m_headsRow, tr("Heads"));
    m_heads->setToolTip(tr("Only divisors of d_model are offered: every head gets d_model / heads dimensions"));
    label(m_seed, tr("Seed"));
    label(m_positional, tr("Positions"));
    items(m_positional, {tr("sinusoidal"), tr("learned"), tr("none"), tr("RoPE (rotary)"), tr("ALiBi (linear biases)"),
                         tr("relative (Shaw)"), tr("Transformer-XL (segments)")});
    label(m_ropeBase, tr("RoPE base B"));
    m_ropeBase->setToolTip(tr("B in θ_pos,i = pos / B^(2i/d_k): a larger base turns the slow pairs more slowly"));
    label(m_maxDistance, tr("Max distance K"));
    m_maxDistance->setToolTip(tr("K: keys further than K positions away share the same learned key and value "
                                 "(j − i is clipped to [−K, K])"));
    label(m_xlSegment, tr("Segment L"));
    m_xlSegment->setToolTip(tr("L: Transformer-XL cuts the input into segments of L tokens"));
    label(m_xlMemory, tr("Memory M"));
    m_xlMemory->setSpecialValueText(tr("= L"));
    m_xlMemory->setToolTip(tr("M: each segment also attends the M rows before it (its memory)"));
    m_embedScale->setText(tr("Scale embeddings by \u221Ad_model"));
    m_scale->setText(tr("Divide scores by \u221Ad_k"));
    m_scale->setToolTip(tr("Divide scores by \u221Ad_k (keeps the softmax from saturating as d_k grows)"));

    label(m_mask, tr("Mask"));
    items(m_mask, {tr("none"), tr("causal (look-ahead)"), tr("padding"), tr("causal + padding"), tr("custom (from a file)")});
    m_mask->setToolTip(tr("Which keys each query may not look at: causal hides later tokens (a decoder must not see the future), "
                          "padding hides the <pad> tokens. A Transformer masks every encoder layer, padding also cross-attention"));
    m_openMask->setText(tr("Open mask file\u2026"));
    m_openMask->setToolTip(tr("Your own pattern of hidden cells, from a file (one row per query; 1 = masked)"));
    label(m_padTo, tr("Pad to"));
    m_padTo->setSpecialValueText(tr("off"));
    m_padTo->setToolTip(tr("Append <pad> tokens up to this length, as sentences of different lengths in one batch "
                           "need; a padding mask keeps attention off them"));
    label(m_maxTokens, tr("Max tokens"));
    m_maxTokens->setToolTip(tr("The input is cut after this many tokens, with a warning (at most %1: GPT-2 reads up to 1024 "
                               "tokens, BERT up to 512)")
                                .arg(ConfigLimits::maxTokens));

    label(m_weights, tr("Weights"));
    items(m_weights, {tr("seeded (Xavier)"), tr("identity (W = I)"), tr("from file")});
    m_openWeights->setText(tr("Open\u2026"));
    m_saveWeights->setText(tr("Save\u2026"));
    m_weights->setToolTip(tr("W_Q, W_K, W_V and W_O: seeded random (Xavier), identity (Q = K = V = X, so scores are the "
                             "embeddings' own dot products), or from a file"));
    m_openWeights->setToolTip(tr("Open W_Q, W_K, W_V and W_O from a safetensors file (its d_model replaces yours)"));
    m_saveWeights->setToolTip(tr("Save the weights in use as a safetensors file, to open again or in PyTorch"));
    m_kinds->retranslate();
    syncFromSession(); // the texts that hold values (d_k, the model's sizes)
}

void SettingsPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void SettingsPanel::connectControls()
{
    connect(m_dModel, &QSpinBox::valueChanged, this, [this](int d) {
        if (!m_syncing)
            fillHeads(d, m_wantedHeads);
        apply();
    });
    // The head count the user chose is kept as a wish: d_model 12 → 5 → 12 gives back 4 heads,
    // even though 5 allows only 1 and 5.
    connect(m_heads, &QComboBox::activated, this, [this] { m_wantedHeads = m_heads->currentData().toInt(); });
    for (QComboBox* box : {m_heads, m_positional, m_mask, m_norm, m_activation})
        connect(box, &QComboBox::currentIndexChanged, this, &SettingsPanel::apply);
    connect(m_layers, &QSpinBox::valueChanged, this, &SettingsPanel::apply);
    connect(m_dFF, &QSpinBox::valueChanged, this, &SettingsPanel::apply);
    connect(m_model, &QComboBox::currentIndexChanged, this, [this] {
        if (static_cast<ModelKind>(m_model->currentData().toInt()) == ModelKind::File && !m_syncing && !m_session->modelPath().size()) {
            emit openModelRequested(); // choosing "from file" opens one
            syncFromSession();         // cancelled: back to what is in force
        } else {
            apply();
        }
    });
    connect(m_weights, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index == kFromFile && !m_syncing && !m_session->importedWeights()) {
            emit openWeightsRequested(); // choosing "from file" opens one
            syncFromSession();           // cancelled: back to the preset in force
        } else {
            apply();
        }
    });
    connect(m_seed, &QSpinBox::valueChanged, this, &SettingsPanel::apply);
    connect(m_ropeBase, &QDoubleSpinBox::valueChanged, this, &SettingsPanel::apply);
    connect(m_maxDistance, &QSpinBox::valueChanged, this, &SettingsPanel::apply);
    connect(m_xlSegment, &QSpinBox::valueChanged, this, &SettingsPanel::apply);
    connect(m_xlMemory, &QSpinBox::valueChanged, this, &SettingsPanel::apply);
    connect(m_padTo, &QSpinBox::valueChanged, this, &SettingsPanel::apply);
    connect(m_maxTokens, &QSpinBox::valueChanged, this, &SettingsPanel::apply);
    connect(m_embedScale, &QCheckBox::toggled, this, &SettingsPanel::apply);
    connect(m_scale, &QCheckBox::toggled, this, &SettingsPanel::apply);
    connect(m_openWeights, &QPushButton::clicked, this, &SettingsPanel::openWeightsRequested);
    connect(m_saveWeights, &QPushButton::clicked, this, &SettingsPanel::saveWeightsRequested);
    connect(m_openMask, &QPushButton::clicked, this, &SettingsPanel::openMaskRequested);
    connect(m_kinds, &AttentionSettings::changed, this, &SettingsPanel::apply);
}

void SettingsPanel::fillHeads(int dModel, int preferred)
{
    const QSignalBlocker block(m_heads);
    m_heads->clear();
    int best = 1;
    for (int h = 1; h <= std::min(dModel, ConfigLimits::maxHeads); ++h) {
        if (dModel % h != 0)
            continue;
        m_heads->addItem(QString::number(h), h);
        if (std::abs(h - preferred) <= std::abs(best - preferred))
            best = h; // keep the closest valid head count when d_model changes
    }
    m_heads->setCurrentIndex(m_heads->findData(best));
}

void SettingsPanel::syncFromSession()
{
    m_syncing = true;
    const Config& c = m_session->config();
    {
        const QSignalBlocker b1(m_dModel), b2(m_seed), b3(m_positional), b4(m_embedScale), b5(m_scale), b6(m_mask),
            b7(m_padTo), b8(m_weights), b9(m_model), b10(m_layers), b11(m_dFF), b12(m_norm), b13(m_activation), b14(m_maxTokens);
        selectData(m_model, c.model);
        m_layers->setValue(c.encoderLayers);
        m_dFF->setValue(c.dFF);
        selectData(m_norm, c.norm);
        selectData(m_activation, c.activation);
        m_dModel->setValue(c.dModel);
        if (c.heads != m_heads->currentData().toInt())
            m_wantedHeads = c.heads; // set from outside (a lesson, a session file), not by this panel
        fillHeads(c.dModel, c.heads);
        m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(c.seed, 999999)));
        selectData(m_positional, c.positional);
        m_embedScale->setChecked(c.embedScale);
        m_scale->setChecked(c.scaleScores);
        selectData(m_mask, c.mask);
        m_padTo->setValue(c.padTo);
        m_maxTokens->setValue(c.maxTokens);
        if (m_session->importedWeights())
            m_weights->setCurrentIndex(kFromFile);
        else
            selectData(m_weights, c.weightsPreset);
    }
    // Imported weights fix d_model (showModelRows).
    const bool imported = m_session->importedWeights() != nullptr;
    m_weightsInfo->setText(imported ? tr("Weights from %1 (d_model %2)")
                                          .arg(m_session->weightsPath().isEmpty() ? tr("the session file")
                                                                                  : QFileInfo(m_session->weightsPath()).fileName())
                                          .arg(c.dModel)
                                    : QString());
    m_openMask->setEnabled(c.model == ModelKind::None);
    showModelRows(c, imported);
    greyWhatCannotCombine(c);
    m_dK->setText(dKText(c));
    m_kinds->showSpec(c, AttentionSettings::usableWith(c));
    showPositionSettings(c);
    m_syncing = false;
}

void SettingsPanel::showModelRows(const Config& c, bool imported)
{
    // A Transformer has its own weights; a trained or file model fixes every size. Its encoder
    // takes the mask and the padding (src_mask, src_key_padding_mask); GPT-2 and BERT take neither.
    const bool model = c.model != ModelKind::None;
    const bool fixed = c.model == ModelKind::Reversal || c.model == ModelKind::File;
    for (QWidget* w : {static_cast<QWidget*>(m_weights), static_cast<QWidget*>(m_openWeights), static_cast<QWidget*>(m_saveWeights)})
        w->setEnabled(!model);
    for (QWidget* w : {static_cast<QWidget*>(m_mask), static_cast<QWidget*>(m_padTo)})
        w->setEnabled(!(model && m_session->model() && m_session->model()->pretrained));
    // The Transformer's rows only appear with a Transformer; only a seeded one can change them.
    // A modern decoder's RMSNorm, gated FFN and RoPE are none of the boxes' choices: its line says them.
    const HfConfig* gated = fixed ? gatedDecoderConfig(m_session->model().get()) : nullptr;
    auto* form = static_cast<QFormLayout*>(layout());
    for (QWidget* w : {static_cast<QWidget*>(m_layers), static_cast<QWidget*>(m_dFF), static_cast<QWidget*>(m_norm),
                       static_cast<QWidget*>(m_activation), static_cast<QWidget*>(m_modelInfo)}) {
        w->setEnabled(c.model == ModelKind::Seeded || w == m_modelInfo);
        form->setRowVisible(w, model && !(gated && (w == m_norm || w == m_activation)));
    }
    m_dModel->setEnabled(!imported && !fixed);
    m_heads->setEnabled(!fixed);
    showWhatTheModelOwns(fixed);
    form->setRowVisible(m_positional, !gated);
    form->setRowVisible(m_embedScale, !gated);
    if (const auto& m = m_session->model(); m && gated) {
        m_modelInfo->setText(tr("%1 (%2): %3 layers, d_model %4, %5 query heads sharing %6 key/value heads of %7, d_ff %8; "
                                "RMSNorm, %9, RoPE inside attention")
                                 .arg(QString::fromStdString(m->name.empty() ? m->source : m->name))
                                 .arg(familyTitle(m->pretrained.get()))
                                 .arg(gated->layers)
                                 .arg(gated->dModel)
                                 .arg(gated->heads)
                                 .arg(gated->kvHeads)
                                 .arg(gated->headDim)
                                 .arg(gated->dFF)
                                 .arg(gated->gegluTanh ? QStringLiteral("GeGLU") : QStringLiteral("SwiGLU")));
    } else if (const auto& m = m_session->model(); m && fixed) {
        // The model's own sizes, shown in the (disabled) seeded-model boxes.
        const QSignalBlocker b1(m_layers), b2(m_dFF), b3(m_norm), b4(m_activation);
        // An encoder stack's (BERT's) or a decoder-only model's (GPT-2's) layers alike.
        m_layers->setValue(std::max(m->spec.encoderLayers, m->spec.decoderLayers));
        m_dFF->setValue(m->spec.dFF);
        selectData(m_norm, m->spec.norm);
        selectData(m_activation, m->spec.activation);
        m_modelInfo->setText(tr("%1: %2 encoder + %3 decoder layers, d_model %4, %5 heads, d_ff %6")
                                 .arg(c.model == ModelKind::Reversal ? tr("The trained reversal model")
                                                                     : QString::fromStdString(m->name.empty() ? m->source : m->name))
                                 .arg(m->spec.encoderLayers)
                                 .arg(m->spec.decoderLayers)
                                 .arg(m->spec.dModel)
                                 .arg(m->spec.heads)
                                 .arg(m->spec.dFF));
    } else {
        m_modelInfo->setText(c.model == ModelKind::Seeded ? tr("Seeded weights: the numbers are right, the patterns random. "
                                                              "It cannot generate; type a target.")
                                                           : QString());
    }
}

QString SettingsPanel::dKText(const Config& c) const
{
    if (const HfConfig* gated = c.model == ModelKind::File ? gatedDecoderConfig(m_session->model().get()) : nullptr)
        return tr("d_k = %1").arg(gated->headDim);
    return tr("d_k = %1").arg(c.heads > 0 ? c.dModel / c.heads : 0);
}

void SettingsPanel::greyWhatCannotCombine(const Config& c)
{
    allowComboItem(m_activation, m_activation->findData(static_cast<int>(Activation::GeluTanh)), false,
                   tr("GPT-2's activation (GELU's tanh approximation): shown for an opened GPT-2"));
    // ALiBi, relative and Transformer-XL positions add a term to every score: full attention only.
    for (int i = 0; i < m_positional->count(); ++i) {
        const auto p = static_cast<PositionalEncoding>(m_positional->itemData(i).toInt());
        const bool onScores = p == PositionalEncoding::Alibi || p == PositionalEncoding::Relative || p == PositionalEncoding::Xl;
        allowComboItem(m_positional, i, !onScores || c.attention == AttentionKind::Full,
                       tr("Adds a term to every query–key score, which only full attention computes: choose full attention first"));
    }
}

void SettingsPanel::showWhatTheModelOwns(bool fixed)
{
    // A trained model's positions, embedding scale and seed are part of it (it was trained with
    // them): shown as the model has them and greyed out, with the reason. Score scaling stays an
    // experiment on any model.
    const QString owned = tr("Part of the trained model: it learned its weights with these, so they cannot change here");
    m_seed->setToolTip(fixed ? owned : tr("Seed of the embedding table, the learned positions and the seeded weights"));
    m_positional->setToolTip(fixed ? owned : tr("How a token's position enters: added to its embedding (X = E + P: sinusoidal, learned), or inside "
                                                   "attention (RoPE turns q and k, ALiBi biases the scores, relative positions add a learned "
                                                   "key and value per distance, Transformer-XL attends segment by segment with a memory)"));
    m_embedScale->setToolTip(fixed ? owned : tr("Multiply the embeddings by \u221Ad_model before adding the positions, as the paper does"));
    for (QWidget* w : {static_cast<QWidget*>(m_seed), static_cast<QWidget*>(m_positional), static_cast<QWidget*>(m_embedScale)})
        w->setEnabled(!fixed);
    if (const auto& m = m_session->model(); m && fixed) {
        const QSignalBlocker b1(m_positional), b2(m_embedScale), b3(m_seed);
        selectData(m_positional, m->spec.positional);
        m_embedScale->setChecked(m->spec.embedScale);
        m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(m->spec.seed, 999999)));
    }
}

void SettingsPanel::showPositionSettings(const Config& c)
{
    {
        const QSignalBlocker b1(m_ropeBase), b2(m_maxDistance), b3(m_xlSegment), b4(m_xlMemory);
        m_ropeBase->setValue(c.positionOptions.ropeBase);
        m_maxDistance->setValue(c.positionOptions.maxDistance);
        m_xlSegment->setValue(c.positionOptions.segment);
        m_xlMemory->setValue(c.positionOptions.memory);
    }
    showPositionRows(c.positional);
}

void SettingsPanel::showPositionRows(PositionalEncoding p)
{
    auto* form = static_cast<QFormLayout*>(layout());
    form->setRowVisible(m_ropeBase, p == PositionalEncoding::Rope);
    form->setRowVisible(m_maxDistance, p == PositionalEncoding::Relative);
    form->setRowVisible(m_xlSegment, p == PositionalEncoding::Xl);
    form->setRowVisible(m_xlMemory, p == PositionalEncoding::Xl);
}

void SettingsPanel::apply()
{
    if (m_syncing)
        return;
    Config c = m_session->config();
    c.dModel = m_dModel->value();
    c.heads = m_heads->currentData().toInt();
    c.seed = static_cast<std::uint64_t>(m_seed->value());
    c.positional = static_cast<PositionalEncoding>(m_positional->currentData().toInt());
    c.positionOptions.ropeBase = m_ropeBase->value();
    c.positionOptions.maxDistance = m_maxDistance->value();
    c.positionOptions.segment = m_xlSegment->value();
    c.positionOptions.memory = m_xlMemory->value();
    showPositionRows(c.positional);
    c.embedScale = m_embedScale->isChecked();
    c.scaleScores = m_scale->isChecked();
    const auto mask = static_cast<MaskKind>(m_mask->currentData().toInt());
    c.padTo = m_padTo->value();
    c.maxTokens = m_maxTokens->value();
    c.model = static_cast<ModelKind>(m_model->currentData().toInt());
    if (c.model == ModelKind::Seeded) { // otherwise the boxes show the model's own sizes
        c.setLayers(m_layers->value());
        c.dFF = m_dFF->value();
        c.norm = static_cast<NormPlacement>(m_norm->currentData().toInt());
        c.activation = static_cast<Activation>(m_activation->currentData().toInt());
    }
    m_dK->setText(dKText(c));
    // Another model than one block or a seeded encoder stack computes full attention.
    if (!m_kinds->applyTo(c, AttentionSettings::usableWith(c)))
        return; // global positions that cannot be read: the field says why, nothing changes

    const int w = m_weights->currentData().toInt();
    if (w >= 0 && m_session->importedWeights()) {
        c.weightsPreset = static_cast<WeightsPreset>(w);
        m_session->setImportedWeights(nullptr); // back to a preset
    } else if (w >= 0) {
        c.weightsPreset = static_cast<WeightsPreset>(w);
    }
    if (mask == MaskKind::Custom && !m_session->customMask()) {
        // A custom mask needs a file first; if the dialog is cancelled, show what is in force.
        c.mask = m_session->config().mask;
        m_session->setConfig(c);
        emit openMaskRequested();
        syncFromSession();
        return;
    }
    c.mask = mask;
    m_session->setConfig(c);
}

} // namespace attnlab

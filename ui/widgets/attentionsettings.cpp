#include "widgets/attentionsettings.h"

#include "attention/kind.h"
#include "session/kindstages.h"
#include "widgets/comboitems.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSpinBox>

namespace attnlab {

namespace {

bool windowed(AttentionKind k)
{
    return k == AttentionKind::SlidingWindow || k == AttentionKind::BigBird;
}

QSpinBox* spinBox(QWidget* parent, int lo, int hi)
{
    auto* box = new QSpinBox(parent);
    box->setRange(lo, hi);
    // Commit on Return, on leaving the box and on its arrows: typing "16" must not pass through 1.
    box->setKeyboardTracking(false);
    return box;
}

} // namespace

AttentionSettings::AttentionSettings(QWidget* panel)
    : QObject(panel)
    , m_kind(new QComboBox(panel))
    , m_window(spinBox(panel, 1, ConfigLimits::maxTokens))
    , m_dilation(spinBox(panel, 1, ConfigLimits::maxTokens))
    , m_global(new QLineEdit(panel))
    , m_globalError(new QLabel(panel))
    , m_random(spinBox(panel, 0, ConfigLimits::maxTokens))
    , m_stride(spinBox(panel, 1, ConfigLimits::maxTokens))
    , m_projDim(spinBox(panel, 1, kMaxAttentionParameter))
    , m_features(spinBox(panel, 1, kMaxAttentionParameter))
    , m_buckets(spinBox(panel, 2, kMaxAttentionParameter))
    , m_chunk(spinBox(panel, 0, ConfigLimits::maxTokens))
    , m_queryBlock(spinBox(panel, 1, kMaxAttentionParameter))
    , m_keyBlock(spinBox(panel, 1, kMaxAttentionParameter))
{
    for (const AttentionKindInfo& k : attentionKinds()) // in the registry's order
        m_kind->addItem(QString(), static_cast<int>(k.kind));
    // The box is as wide as the panel's other boxes, not as its longest kind's name.
    m_kind->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_kind->setMinimumContentsLength(14);
    // Buckets come in pairs (the largest of B/2 rotated coordinates and their negatives); an odd
    // number typed in gets the engine's message.
    m_buckets->setSingleStep(2);
    m_globalError->setWordWrap(true);
    m_globalError->setForegroundRole(QPalette::Highlight);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
        showRowsOfKind();
        emit changed();
    });
    for (QSpinBox* box : {m_window, m_dilation, m_random, m_stride, m_projDim, m_features, m_buckets, m_chunk, m_queryBlock, m_keyBlock})
        connect(box, &QSpinBox::valueChanged, this, &AttentionSettings::changed);
    connect(m_global, &QLineEdit::editingFinished, this, [this] {
        if (m_global->isModified()) {
            m_global->setModified(false);
            emit changed();
        }
    });
}

void AttentionSettings::addRows(QFormLayout* form)
{
    m_form = form;
    auto* parent = form->parentWidget();
    form->addRow(new QLabel(parent), m_kind);
    for (QWidget* w : std::initializer_list<QWidget*>{m_window, m_dilation, m_global, m_random, m_stride, m_projDim, m_features,
                                                      m_buckets, m_chunk, m_queryBlock, m_keyBlock})
        form->addRow(new QLabel(parent), w);
    form->addRow(m_globalError);
    showRowsOfKind();
}

void AttentionSettings::retranslate()
{
    if (!m_form)
        return;
    const auto label = [this](QWidget* field, const QString& text) {
        if (auto* l = qobject_cast<QLabel*>(m_form->labelForField(field)))
            l->setText(text);
    };
    for (int i = 0; i < m_kind->count(); ++i)
        m_kind->setItemText(i, attentionKindName(static_cast<AttentionKind>(m_kind->itemData(i).toInt())));
    label(m_kind, tr("Attention"));
    m_kind->setToolTip(m_usable ? tr("How each query's attention is computed: full softmax over every key (n\u00B2 scores), a "
                                     "sparse, low-rank, kernel or hashed kind that computes less, or FlashAttention, full "
                                     "attention computed tile by tile; each shows its own stages and how far it is from full "
                                     "attention")
                                : tr("This model uses full attention: the other kinds are for one attention block and for seeded "
                                     "encoder stacks"));
    label(m_window, tr("Window W"));
    m_window->setToolTip(tr("W: each query attends the keys up to W·D positions away"));
    label(m_dilation, tr("Dilation D"));
    m_dilation->setToolTip(tr("D: only every D-th key within the window (1: every key)"));
    label(m_global, tr("Global"));
    m_global->setPlaceholderText(tr("none, or e.g. 0, 5"));
    m_global->setToolTip(tr("Positions (counted from 0) that attend every key and that every query attends, separated by "
                            "commas: 0, 5"));
    label(m_random, tr("Random R"));
    m_random->setToolTip(tr("R: keys per query drawn at random (with the seed) besides the window"));
    label(m_stride, tr("Stride S"));
    m_stride->setToolTip(tr("S: query i attends key j when |i \u2212 j| < S or i \u2212 j is a multiple of S"));
    label(m_projDim, tr("Rows K"));
    m_projDim->setToolTip(tr("K: keys and values are projected along the sequence to K rows (seeded E and F)"));
    label(m_features, tr("Features M"));
    m_features->setToolTip(tr("M: random features of \u03C6; more features come closer to softmax attention (the error "
                              "falls about as 1/\u221AM)"));
    label(m_buckets, tr("Buckets B"));
    m_buckets->setToolTip(tr("B: hash buckets (an even number); a query attends only the keys in its own bucket"));
    label(m_chunk, tr("Chunk C"));
    m_chunk->setSpecialValueText(tr("off"));
    m_chunk->setToolTip(tr("C: the tokens sorted by bucket are cut into chunks of C; a query attends its own chunk and "
                           "the one before (off: no chunks)"));
    label(m_queryBlock, tr("Query block B_r"));
    m_queryBlock->setToolTip(tr("B_r: FlashAttention takes the queries B_r at a time, a tile's rows"));
    label(m_keyBlock, tr("Key block B_c"));
    m_keyBlock->setToolTip(tr("B_c: FlashAttention takes the keys B_c at a time, a tile's columns; after each key block "
                              "every row updates its running maximum, sum and output"));
    if (!m_globalError->text().isEmpty())
        m_globalError->setText(globalError());
}

void AttentionSettings::showRowsOfKind()
{
    if (!m_form)
        return;
    const auto kind = static_cast<AttentionKind>(m_kind->currentData().toInt());
    const auto row = [this](QWidget* w, bool shown) { m_form->setRowVisible(w, m_usable && shown); };
    row(m_window, windowed(kind));
    row(m_dilation, windowed(kind));
    row(m_global, windowed(kind));
    row(m_random, kind == AttentionKind::BigBird);
    row(m_stride, kind == AttentionKind::Strided);
    row(m_projDim, kind == AttentionKind::Linformer);
    row(m_features, kind == AttentionKind::Performer);
    row(m_buckets, kind == AttentionKind::Lsh);
    row(m_chunk, kind == AttentionKind::Lsh);
    row(m_queryBlock, kind == AttentionKind::Flash);
    row(m_keyBlock, kind == AttentionKind::Flash);
    row(m_globalError, windowed(kind) && !m_globalError->text().isEmpty());
}

bool AttentionSettings::usableWith(const Config& c)
{
    return c.model == ModelKind::None || (c.model == ModelKind::Seeded && c.architecture == Architecture::EncoderStack);
}

void AttentionSettings::showSpec(const ModelSpec& spec, bool usable)
{
    const QSignalBlocker b0(m_kind), b1(m_window), b2(m_dilation), b3(m_random), b4(m_stride), b5(m_projDim), b6(m_features),
        b7(m_buckets), b8(m_chunk), b9(m_queryBlock), b10(m_keyBlock);
    const bool retitle = usable != m_usable;
    m_usable = usable;
    const AttentionKind kind = usable ? spec.attention : AttentionKind::Full;
    m_kind->setCurrentIndex(m_kind->findData(static_cast<int>(kind)));
    m_kind->setEnabled(usable);
    // Positions that add a term to every score (ALiBi, relative, Transformer-XL) need full attention.
    const bool onScores = spec.positional == PositionalEncoding::Alibi || spec.positional == PositionalEncoding::Relative
                          || spec.positional == PositionalEncoding::Xl;
    for (int i = 0; i < m_kind->count(); ++i)
        allowComboItem(m_kind, i, !onScores || static_cast<AttentionKind>(m_kind->itemData(i).toInt()) == AttentionKind::Full,
                       tr("These positions add a term to every query–key score, which only full attention computes: choose "
                          "sinusoidal, learned, none or RoPE positions first"));
    const AttentionOptions& o = spec.attentionOptions;
    m_window->setValue(o.window);
    m_dilation->setValue(o.dilation);
    m_random->setValue(o.random);
    m_stride->setValue(o.stride);
    m_projDim->setValue(o.projDim);
    m_features->setValue(o.features);
    m_buckets->setValue(o.buckets);
    m_chunk->setValue(o.chunk);
    m_queryBlock->setValue(o.queryBlock);
    m_keyBlock->setValue(o.keyBlock);
    // Another kind's config has no global positions: the field keeps what was typed for later.
    if (windowed(kind))
        m_global->setText(positionsText(o.global));
    m_global->setModified(false);
    m_globalError->clear();
    showRowsOfKind();
    if (retitle)
        retranslate(); // the kind's tooltip says why it is greyed out
}

bool AttentionSettings::applyTo(ModelSpec& spec, bool usable)
{
    AttentionOptions& o = spec.attentionOptions;
    if (!usable) {
        spec.attention = AttentionKind::Full;
        o.global.clear(); // positions are for the windowed kinds only
        return true;
    }
    spec.attention = static_cast<AttentionKind>(m_kind->currentData().toInt());
    o.window = m_window->value();
    o.dilation = m_dilation->value();
    o.random = m_random->value();
    o.stride = m_stride->value();
    o.projDim = m_projDim->value();
    o.features = m_features->value();
    o.buckets = m_buckets->value();
    o.chunk = m_chunk->value();
    o.queryBlock = m_queryBlock->value();
    o.keyBlock = m_keyBlock->value();
    o.global.clear();
    if (windowed(spec.attention)) {
        const auto positions = parsePositions(m_global->text());
        m_globalError->setText(positions ? QString() : globalError());
        showRowsOfKind();
        if (!positions)
            return false;
        o.global = *positions;
    }
    return true;
}

QString AttentionSettings::globalError() const
{
    return tr("Global positions are whole numbers separated by commas, like 0, 5: \u201C%1\u201D is not").arg(m_global->text());
}

std::optional<std::vector<int>> AttentionSettings::parsePositions(const QString& text)
{
    // Commas (also the Chinese ones) or spaces between the numbers.
    static const QRegularExpression separators(QStringLiteral("[,\\s\uFF0C\u3001;]+"));
    std::vector<int> out;
    for (const QString& part : text.split(separators, Qt::SkipEmptyParts)) {
        bool ok = false;
        const int p = part.toInt(&ok);
        if (!ok)
            return std::nullopt;
        out.push_back(p);
    }
    return out;
}

QString AttentionSettings::positionsText(const std::vector<int>& positions)
{
    QStringList parts;
    for (const int p : positions)
        parts << QString::number(p);
    return parts.join(QStringLiteral(", "));
}

} // namespace attnlab

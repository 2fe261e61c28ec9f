#include "widgets/formulabanner.h"

#include "core/trace.h"
#include "families/family.h"
#include "model/model.h"
#include "pretrained/model_folder.h"
#include "session/kindstages.h"
#include "session/messages.h"
#include "session/session.h"
#include "session/stages.h"
#include "widgets/wrappinglabel.h"

#include <QGridLayout>
#include <QEvent>
#include <QLabel>

#include <algorithm>

namespace attnlab {

FormulaBanner::FormulaBanner(Session* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_step(new WrappingLabel(this)) // "decoder layer 1 · cross-attention" is long on a small projector
    , m_formula(new QLabel(this))
    , m_shapes(new QLabel(this))
    , m_explanation(new QLabel(this))
{
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_step, 0, 0);
    layout->addWidget(m_formula, 0, 1);
    layout->addWidget(m_shapes, 1, 1);
    layout->addWidget(m_explanation, 2, 0, 1, 2);
    layout->setColumnStretch(1, 1);
    for (QLabel* l : {m_formula, m_shapes, m_explanation})
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_explanation->setWordWrap(true);
    m_formula->setWordWrap(true); // the PE formula is long at presenter-mode sizes
    m_shapes->setWordWrap(true);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::AlternateBase);

    applyFonts();
    connect(session, &Session::stepChanged, this, &FormulaBanner::refresh);
    connect(session, &Session::headChanged, this, &FormulaBanner::refresh);
    connect(session, &Session::traceChanged, this, &FormulaBanner::refresh);
    refresh();
}

QString FormulaBanner::formulaText() const
{
    return m_formula->text();
}

QString FormulaBanner::shapesText() const
{
    return m_shapes->text();
}

namespace {

/// What the Tokens step says about the tokenizer of the opened model.
QString tokensExplanation(const Trace& trace)
{
    // The tokenizer of the opened folder, by its family's name.
    const PretrainedModel* pretrained = trace.model->pretrained.get();
    const std::string_view family = pretrained ? modelFamily(pretrained->family()).title : std::string_view();
    const QString familyName = QString::fromUtf8(family.data(), static_cast<qsizetype>(family.size()));
    if (pretrained && pretrained->hf)
        return FormulaBanner::tr("%1 cuts the text into subwords with its folder's tokenizer (tokenizer.json): frequent "
                                 "words stay whole, rare ones split into pieces; \u2423 marks a piece that starts with a space.")
            .arg(familyName);
    // A family that reads tokenizer.json, from a folder with vocab.json and merges.txt standing in for it.
    if (pretrained && modelFamily(pretrained->family()).tokenizerJson && trace.model->spec.tokenizer == ModelTokenizer::Bpe)
        return FormulaBanner::tr("%1 cuts the text into subwords with byte-level BPE (its folder's vocab.json and "
                                 "merges.txt): frequent words stay whole, rare ones split into pieces; \u2423 marks a piece "
                                 "that starts with a space.")
            .arg(familyName);
    return trace.model->spec.tokenizer == ModelTokenizer::Bpe
        ? FormulaBanner::tr("GPT-2 cuts the text into subwords with byte-level BPE: frequent words stay whole, rare "
                            "ones split into pieces; ␣ marks a piece that starts with a space.")
        : FormulaBanner::tr("BERT cuts the text into WordPiece subwords (## continues a word) and wraps it in [CLS] … [SEP].");
}

/// A layer's stage of a pretrained model, `s`: what a modern decoder computes differently from
/// the studio's own block (RMSNorm, the gated FFN, RoPE's halves, Gemma 3's scale and window).
void describePretrainedLayerStage(const Trace& trace, const Stage& s, const QString& id, int layer, QString& formula,
                                  QString& explanation)
{
    // A layer's stage of a modern decoder: a norm that keeps the mean square (RMSNorm), the
    // gated FFN's gate, up and product, q/k norms — the engine's formula says what it computed.
    const bool rms = std::any_of(s.matrices.begin(), s.matrices.end(), [](const LabeledMatrix& m) { return m.name == "mean_square"; });
    const bool gated = gatedDecoderConfig(trace) != nullptr;
    // RoPE turns halves here (pairs i, i + d_k/2), not the interleaved pairs of pe=rope.
    const bool rotated = id == u"q_rotated" || id == u"k_rotated";
    if (formula.isEmpty() || rms || (gated && (id.startsWith(QLatin1String("ffn_")) || rotated)))
        formula = QString::fromStdString(s.formula);
    const HfConfig& c = trace.model->pretrained->config();
    if (rms && c.normPlusOne)
        explanation = FormulaBanner::tr("RMSNorm rescales each token's vector by the root mean square of its features (no mean is "
                         "subtracted, there is no \u03B2), then multiplies by 1 + w: Gemma stores each norm's weight w "
                         "as a change from 1.");
    else if (rms)
        explanation = FormulaBanner::tr("RMSNorm rescales each token's vector by the root mean square of its features (no mean is "
                         "subtracted, there is no \u03B2), then multiplies by \u03B3.");
    // Gemma 3: its own score scale, GeGLU, and a sliding window on some layers.
    if (c.queryPreAttnScalar > 0.0 && (id == u"scaled" || id == u"masked_scores" || id == u"weights")) {
        formula.replace(QStringLiteral("\u221Ad_k"), QStringLiteral("\u221A") + QString::number(c.queryPreAttnScalar));
        if (id == u"scaled")
            explanation = FormulaBanner::tr("Gemma 3 divides the scores by \u221A%1, the square root of its query_pre_attn_scalar, "
                             "instead of \u221Ad_k: it keeps their spread in a range the softmax does not saturate.")
                              .arg(c.queryPreAttnScalar);
    }
    if (c.gegluTanh && id == u"ffn_gate")
        explanation = FormulaBanner::tr("A gated feed-forward network (GeGLU) has two linear layers side by side: this one, through the "
                         "tanh GELU, decides how much of each feature of the other passes.");
    if ((id == u"q_norm" || id == u"k_norm") && c.family != PretrainedFamily::Qwen3)
        explanation = FormulaBanner::tr("%1 normalises each head's queries and keys on their own (an RMSNorm over d_k) before RoPE turns "
                         "them, which keeps the scores from growing large.")
                          .arg(QString::fromUtf8(modelFamily(c.family).title.data(), static_cast<qsizetype>(modelFamily(c.family).title.size())));
    if (const int window = c.slidingWindow(layer); window > 0 && id == u"mask") {
        formula = FormulaBanner::tr("M_ij = 0 if 0 \u2264 i \u2212 j < %1, else \u2212\u221E  (a sliding window of %1 keys)").arg(window);
        explanation = FormulaBanner::tr("In this sliding-window layer each query sees only itself and the %1 keys before it: keys further "
                         "back are hidden as the future ones are, and \u2212\u221E becomes exactly 0 after the softmax.")
                          .arg(window - 1);
    }
}

} // namespace

void FormulaBanner::refresh()
{
    const auto& trace = *m_session->trace();
    const QString id = m_session->stepId();
    const auto& step = m_session->currentStep();
    QString where = stepName(id);
    if (step.perHead)
        where += tr(" \u00B7 head %1 of %2").arg(m_session->head() + 1).arg(trace.config.heads);
    // In a Transformer the same stage exists in every layer: say which one.
    const bool oneText = trace.model && trace.model->spec.architecture != Architecture::EncoderDecoder;
    if (const QString place = stepPlace(step, oneText); !place.isEmpty())
        where = QStringLiteral("%1\n%2").arg(place, where);
    m_step->setText(where);

    // An attention kind's own stages, and those it computes differently (session/kindstages.h).
    QString formula = stepFormula(id, trace.config);
    QString explanation = kindStepExplanation(id, trace.config.attention);
    if (explanation.isEmpty())
        explanation = stepExplanation(id, trace.config.positional);
    if (const Stage* s = step.layer ? stageForHead(trace, id.toStdString(), step.perHead ? std::optional<int>(m_session->head()) : std::nullopt)
                                    : nullptr;
        s && trace.model && trace.model->pretrained && !s->formula.empty()) {
        describePretrainedLayerStage(trace, *s, id, *step.layer, formula, explanation);
    }
    if (trace.model && trace.model->pretrained) {
        // GPT-2's and BERT's own embeddings and heads: the engine's formula says exactly what they do.
        // The probabilities' is plain softmax, said in the interface's language.
        if (const Stage* s = trace.find(id.toStdString(), std::nullopt); s && !step.layer && !s->formula.empty() && id != u"probabilities")
            formula = QString::fromStdString(s->formula);
        if (isMaskedLanguageModel(trace) && id == u"logits")
            explanation = tr("The masked-LM head scores every word of the vocabulary at each position: what could stand there.");
        if (isMaskedLanguageModel(trace) && id == u"probabilities")
            explanation = tr("Softmax turns each row of logits into probabilities over the vocabulary: a masked language model "
                             "fills in each position, a [MASK] above all. These are no next-token predictions.");
        if (id == u"tokens")
            explanation = tokensExplanation(trace);
    }
    // In a Transformer's layer, say what X is: the projections' input differs by block and layer.
    if (step.layer && trace.model && (id == u"q" || id == u"k" || id == u"v")) {
        const bool memory = step.block == Block::Cross && id != u"q";
        if (memory)
            formula.replace(QStringLiteral("X\u00B7"), QStringLiteral("Mem\u00B7"));
        QString what;
        if (memory)
            what = tr("Mem is the encoder output: in cross-attention the keys and values come from the source.");
        else if (trace.model->pretrained && modelFamily(trace.model->pretrained->family()).layerKind == FamilyLayer::Gated)
            what = tr("X is this block's input after its RMSNorm (the norm comes first, as in Pre-LN).");
        else if (trace.model->spec.norm == NormPlacement::Pre)
            what = tr("X is this block's input after its LayerNorm (Pre-LN).");
        else if (step.block == Block::Cross)
            what = tr("X is the decoder's stream after its masked self-attention and Add & Norm: the queries come from the target.");
        else if (*step.layer == 0)
            what = tr("X is the embeddings plus the positions.");
        else
            what = tr("X is the previous layer's output.");
        explanation = appendSentence(explanation, what);
    }
    m_formula->setText(formula);
    m_shapes->setText(stepShapes(id, trace));
    m_explanation->setText(explanation);
}

void FormulaBanner::applyFonts()
{
    // Bold only: the size follows the window's (presenter mode's large type, and back).
    QFont bold;
    bold.setBold(true);
    m_step->setFont(bold);
    // The formula 1.6 times the window's type, set again whenever that changes.
    QFont big = font();
    big.setPointSizeF(font().pointSizeF() * 1.6);
    big.setBold(true);
    m_formula->setFont(big);
}

void FormulaBanner::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        refresh();
    else if (event->type() == QEvent::FontChange)
        applyFonts(); // leaving presenter mode used to keep its large formula, wrapped
}

} // namespace attnlab

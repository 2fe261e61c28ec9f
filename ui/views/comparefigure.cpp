#include "views/comparefigure.h"

#include "export/exporter.h"
#include "plot/fitting.h"
#include "plot/plotting.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

struct Text {
    Q_DECLARE_TR_FUNCTIONS(attnlab::CompareFigure)
};

/// Plot titles stay short: a long sentence is cut with an ellipsis (the caption has it whole).
constexpr int kTitleCharacters = 28;

QString shortened(const QString& s)
{
    return s.size() <= kTitleCharacters ? s : s.left(kTitleCharacters - 1) + QChar(0x2026);
}

/// A magnitude as people read it: "0.0925", "3.1", "6.0×10⁻⁸".
QString magnitude(double v)
{
    if (v == 0)
        return QStringLiteral("0");
    if (v >= 1e-3 && v < 1e4)
        return minusSigned(QString::number(v, 'g', 3));
    static const char16_t kDigits[] = u"\u2070\u00B9\u00B2\u00B3\u2074\u2075\u2076\u2077\u2078\u2079";
    const int e = static_cast<int>(std::floor(std::log10(v)));
    QString exponent = e < 0 ? QStringLiteral("\u207B") : QString();
    for (const QChar c : QString::number(std::abs(e)))
        exponent += QChar(kDigits[c.unicode() - u'0']);
    return QString::number(v / std::pow(10.0, e), 'f', 1) + QStringLiteral("\u00D710") + exponent;
}

QString maskName(MaskKind m)
{
    switch (m) {
    case MaskKind::None:
        return Text::tr("none");
    case MaskKind::Causal:
        return Text::tr("causal (look-ahead)");
    case MaskKind::Padding:
        return Text::tr("padding");
    case MaskKind::CausalPadding:
        return Text::tr("causal + padding");
    case MaskKind::Custom:
        return Text::tr("custom");
    }
    return {};
}

/// The setting a comparison changes, with the value `c` gives it: "positional encoding none".
QString setting(CompareKind kind, const Config& c)
{
    switch (kind) {
    case CompareKind::Sentence:
        break;
    case CompareKind::Positional:
        return Text::tr("positional encoding %1").arg(positionalName(c.positional));
    case CompareKind::Scaling:
        return c.scaleScores ? Text::tr("scores \u00F7 \u221Ad_k") : Text::tr("scores not divided by \u221Ad_k");
    case CompareKind::Mask:
        return Text::tr("mask %1").arg(maskName(c.mask));
    case CompareKind::Seed:
        return Text::tr("seed %1").arg(c.seed);
    }
    return {};
}

QString label(const Labels& l, Eigen::Index i)
{
    return l && i >= 0 && i < static_cast<Eigen::Index>(l->size()) ? QString::fromStdString((*l)[static_cast<std::size_t>(i)])
                                                                    : QString::number(i + 1);
}

/// "rows and columns matched by token (B put in A's token order)", "matched by position", …
QString matchingText(const MatrixDifference& d)
{
    if (!d.aligned())
        return Text::tr("shapes differ: no difference");
    const auto by = [](AxisMatch m) { return m == AxisMatch::ByToken ? Text::tr("by token") : Text::tr("by position"); };
    const bool rows = d.rows != AxisMatch::Same;
    const bool cols = d.cols != AxisMatch::Same;
    QString text;
    if (!rows && !cols)
        return Text::tr("the same tokens in the same order: matched by position");
    if (rows && cols && d.rows == d.cols)
        text = Text::tr("rows and columns matched %1").arg(by(d.rows));
    else if (rows && cols)
        text = Text::tr("rows matched %1, columns %2").arg(by(d.rows), by(d.cols));
    else if (rows)
        text = Text::tr("rows matched %1").arg(by(d.rows));
    else
        text = Text::tr("columns matched %1").arg(by(d.cols));
    if (d.rows == AxisMatch::ByToken || d.cols == AxisMatch::ByToken)
        text += Text::tr(" (B put in A's token order)");
    return text;
}

QString differenceText(const MatrixDifference& d, const LabeledMatrix& a, bool zero)
{
    if (!d.aligned())
        return {};
    QString text = zero ? Text::tr("largest |A \u2212 B| = %1: zero up to float rounding").arg(magnitude(d.largest))
                        : Text::tr("largest |A \u2212 B| = %1 (row %2, column %3)")
                              .arg(magnitude(d.largest), label(a.rowLabels, d.largestRow), label(a.colLabels, d.largestCol));
    if (d.infiniteCells > 0)
        text += Text::tr("; cells masked in A or B only: %1").arg(d.infiniteCells);
    return text;
}

} // namespace

QString positionalName(PositionalEncoding p)
{
    switch (p) {
    case PositionalEncoding::Sinusoidal:
        return Text::tr("sinusoidal");
    case PositionalEncoding::Learned:
        return Text::tr("learned");
    case PositionalEncoding::None:
        return Text::tr("none");
    case PositionalEncoding::Rope:
        return Text::tr("RoPE (rotary)");
    case PositionalEncoding::Alibi:
        return Text::tr("ALiBi (linear biases)");
    case PositionalEncoding::Relative:
        return Text::tr("relative (Shaw)");
    case PositionalEncoding::Xl:
        return Text::tr("Transformer-XL");
    }
    return {};
}

QString CompareFigure::caption() const
{
    QStringList parts;
    // The plots' titles say what A and B are; a sentence cut short there is given whole here.
    if (plotTitleA != titleA || plotTitleB != titleB)
        parts << titleA + QStringLiteral("  \u00B7  ") + titleB;
    if (b)
        parts << (differenceText.isEmpty() ? matchingText : matchingText + QStringLiteral("  \u00B7  ") + differenceText);
    return parts.join(QLatin1Char('\n'));
}

QString describeA(const Comparison& what, const Config& a, const QString& sentenceA)
{
    if (what.kind == CompareKind::Sentence)
        return Text::tr("A: %1").arg(sentenceA);
    return Text::tr("A: %1").arg(setting(what.kind, a));
}

QString describeB(const Comparison& what)
{
    if (what.kind == CompareKind::Sentence)
        return Text::tr("B: %1").arg(QString::fromStdString(what.sentence));
    return Text::tr("B: %1").arg(setting(what.kind, comparedConfig(Config{}, what)));
}

CompareFigure compareFigure(const Stage& a, const Stage* b, const Comparison& what, const Config& configA,
                            const QString& sentenceA, const QString& errorB)
{
    CompareFigure f;
    f.stageTitle = stageTitle(a);
    f.titleA = describeA(what, configA, sentenceA);
    f.titleB = describeB(what);
    f.titleDifference = Text::tr("A \u2212 B");
    f.plotTitleA = shortened(f.titleA);
    f.plotTitleB = shortened(f.titleB);
    f.a = a.main();
    f.scale = HeatmapView::scaleForStage(QString::fromStdString(a.id));
    if (!b || b->matrices.empty()) {
        f.problem = errorB.isEmpty() ? Text::tr("B has no such stage.") : Text::tr("B could not be computed: %1").arg(errorB);
        f.range = f.scale == HeatmapView::Scale::Probability ? 1.0 : sharedMaxAbs(f.a.values, f.a.values);
        return f;
    }
    f.b = b->main();
    const MatrixDifference d = difference(f.a, *f.b);
    const float shared = sharedMaxAbs(f.a.values, f.b->values);
    f.range = f.scale == HeatmapView::Scale::Probability ? 1.0 : shared;
    f.matching = matchingOf(d);
    f.zero = zeroUpToRounding(d, shared);
    f.matchingText = matchingText(d);
    f.differenceText = differenceText(d, f.a, f.zero);
    if (!d.aligned()) {
        f.problem = Text::tr("A is %1 \u00D7 %2 and B %3 \u00D7 %4: the shapes differ, so there is no difference to draw.")
                        .arg(f.a.values.rows())
                        .arg(f.a.values.cols())
                        .arg(f.b->values.rows())
                        .arg(f.b->values.cols());
        return f;
    }
    f.difference = LabeledMatrix{"A\u2212B", d.difference, f.a.rowLabels, f.a.colLabels};
    // ±the largest difference, so where A and B differ shows whatever its size (the colour bar
    // says how large); a difference that is zero up to rounding gets A and B's range, so the
    // rounding stays white.
    f.differenceRange = f.zero ? f.range : static_cast<double>(d.largest);
    return f;
}

void showFigure(const CompareFigure& figure, HeatmapView* a, HeatmapView* b, HeatmapView* difference)
{
    // A and B share one scale: 0..1 for probabilities, else ±(largest |value| of either).
    a->setSharedMaxAbs(figure.sharedMaxAbs());
    // Three plots side by side: their titles keep one line (the caption says them whole), so the
    // cells keep their height.
    for (HeatmapView* h : {a, b, difference}) {
        if (h)
            keepTitlesOnOneLine(h->plot());
    }
    a->setMatrix(figure.a, figure.plotTitleA, figure.scale);
    b->setVisible(figure.b.has_value());
    if (figure.b) {
        b->setSharedMaxAbs(figure.sharedMaxAbs());
        b->setMatrix(*figure.b, figure.plotTitleB, figure.scale);
    }
    difference->setVisible(figure.difference.has_value());
    if (figure.difference) {
        difference->setSharedMaxAbs(figure.differenceRange);
        difference->setMatrix(*figure.difference, figure.titleDifference, HeatmapView::Scale::Difference);
    }
}

} // namespace attnlab

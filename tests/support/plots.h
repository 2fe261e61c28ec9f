#pragma once
// Checks on QCustomPlot plots shared by the views' tests.

#include <qcustomplot.h>

#include <QFontMetrics>
#include <QString>

namespace attnlab::testing {

inline const QString kChineseFace = QStringLiteral("Noto Sans CJK SC");

/// Why the plot's axes (and, with `decorations`, its title row and first legend item) would not
/// draw Simplified Chinese glyphs; empty when every font carries the face.
inline QString chineseFontProblem(QCustomPlot* p, bool decorations)
{
    if (!p->xAxis->tickLabelFont().families().contains(kChineseFace) || !p->yAxis->tickLabelFont().families().contains(kChineseFace))
        return QStringLiteral("tick labels lack %1").arg(kChineseFace);
    if (!p->xAxis->labelFont().families().contains(kChineseFace))
        return QStringLiteral("the axis label lacks %1").arg(kChineseFace);
    if (!QFontMetrics(p->xAxis->tickLabelFont()).inFontUcs4(U'\u72D7'))
        return QStringLiteral("tick labels cannot draw Chinese");
    if (!decorations)
        return {};
    auto* title = qobject_cast<QCPTextElement*>(p->plotLayout()->element(0, 0));
    if (!title || !title->font().families().contains(kChineseFace))
        return QStringLiteral("the title lacks %1").arg(kChineseFace);
    if (p->legend->itemCount() > 0 && !p->legend->item(0)->font().families().contains(kChineseFace))
        return QStringLiteral("the legend lacks %1").arg(kChineseFace);
    return {};
}

} // namespace attnlab::testing
